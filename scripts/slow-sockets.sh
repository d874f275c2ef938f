#!/usr/bin/env bash
# Slow sockets from many addresses do not take the page (CI runs this after
# `make test`): starts `boggle serve --web` on loopback, then
# examples/slow_sockets.rs holds 64 sockets from each of 100 addresses
# (127.0.0.10 to 127.0.0.109), each sending its request head a byte at a
# time and opened again as soon as the server closes it, for 30 s, while a
# player at 127.0.0.2 loads the page every 100 ms. At least 99% of those
# loads must bring the whole page within 1 s, or the script exits 1.
#
#   scripts/slow-sockets.sh [ADDRESSES] [SOCKETS] [SECONDS] [MIN_PERCENT]
#
# The debug build, as `make test` leaves it (the page is served from
# memory either way); CARGO_PROFILE=release for the release build.
set -euo pipefail

cd "$(dirname "$0")/.."
addresses=${1:-100}
sockets=${2:-64}
seconds=${3:-30}
min_percent=${4:-99}
profile=${CARGO_PROFILE:-dev}
dir=$([ "$profile" = dev ] && echo debug || echo "$profile")

cargo build --quiet --profile "$profile" --bin boggle --example slow_sockets
# Both ends hold a descriptor per socket: raise the soft limit to the hard one.
ulimit -n "$(ulimit -Hn)" 2>/dev/null || true
need=$(( addresses * sockets + 256 ))
if [ "$(ulimit -n)" != unlimited ] && [ "$(ulimit -n)" -lt "$need" ]; then
    echo "slow-sockets: needs $need open files, the limit is $(ulimit -n)" >&2
    exit 1
fi

work=$(mktemp -d)
server=
# shellcheck disable=SC2317 # run by the EXIT trap, which shellcheck does not follow
cleanup() {
    if [ -n "$server" ]; then kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; fi
    rm -rf "$work"
}
trap cleanup EXIT

"./target/$dir/boggle" serve --listen 127.0.0.1:0 --web 127.0.0.1:0 --data "$work" \
    >"$work/server.out" 2>"$work/server.err" &
server=$!
web=
for _ in $(seq 200); do
    web=$(sed -n 's#^web page on http://\(.*\)/$#\1#p' "$work/server.out")
    [ -n "$web" ] && break
    kill -0 "$server" 2>/dev/null || { cat "$work/server.err" >&2; exit 1; }
    sleep 0.1
done
[ -n "$web" ] || { echo "slow-sockets: the server did not start" >&2; exit 1; }

status=0
"./target/$dir/examples/slow_sockets" "$web" "$addresses" "$sockets" "$seconds" "$min_percent" || status=$?
echo "server peak memory: $(awk '/VmHWM/ {print $2, $3}' "/proc/$server/status")"
exit "$status"
