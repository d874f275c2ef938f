#!/usr/bin/env bash
# Load check for `boggle serve` on loopback (never run by `make test`): starts
# a release server on 127.0.0.1, runs examples/net_load.rs against it (500
# clients in 50 rooms, a word every 100 ms for 60 s by default), and reports
# the verdict latency, the time the results take to reach every client after
# the round's last `done`, and the server's peak resident memory (VmHWM).
#
#   scripts/net-load.sh [CLIENTS] [ROOMS] [SECONDS] [INTERVAL_MS]
#   scripts/net-load.sh room1000
#
# `room1000` is one room of 1,000 players with about 60 words each (a word
# every 100 ms for 6 s): the end-of-round results go to all of them at once
# (issue 45 item 6), so its figures are the peak memory and delivery time
# of one big results message.
set -euo pipefail

cd "$(dirname "$0")/.."
if [ "${1:-}" = room1000 ]; then
    set -- 1000 1 6 100
fi
clients=${1:-500}
rooms=${2:-50}
seconds=${3:-60}
interval=${4:-100}
port=${NET_LOAD_PORT:-47474}
web_port=${NET_LOAD_WEB_PORT:-47475}
web_flags=()
web_arg=()
if [ "${NET_LOAD_WEB:-0}" = 1 ]; then
    web_flags=(--web "127.0.0.1:$web_port")
    web_arg=("127.0.0.1:$web_port")
fi
per_room=$(( (clients + rooms - 1) / rooms ))

cargo build --release --quiet --bin boggle --example net_load
ulimit -n 4096 2>/dev/null || true

# Every room starts its round when all its clients are in; counted duplicates
# let each client check the results' score against its own verdicts.
./target/release/boggle serve --listen "127.0.0.1:$port" --rules classic --seed 1 \
    --min-players "$per_room" --time $(( seconds + 60 )) \
    --rounds 1 --duplicates count --max-connections $(( clients + 100 )) --max-rooms "$rooms" \
    --address-rate $(( clients + 100 )) --max-address-connections $(( clients + 100 )) --max-address-rooms "$rooms" \
    --max-players "$(( per_room > 1000 ? 1000 : per_room ))" "${web_flags[@]}" \
    > /tmp/net-load-server.out 2>&1 &
server=$!
trap 'kill "$server" 2>/dev/null || true' EXIT
for _ in $(seq 100); do
    grep -q listening /tmp/net-load-server.out 2>/dev/null && break
    sleep 0.1
done

if [ "${#web_arg[@]}" -gt 0 ]; then
    for _ in $(seq 100); do
        grep -q "web page on" /tmp/net-load-server.out 2>/dev/null && break
        sleep 0.1
    done
    # The page, as a browser would load it first (bash's /dev/tcp: no curl needed).
    exec 3<>"/dev/tcp/127.0.0.1/$web_port"
    printf 'GET / HTTP/1.1\r\nHost: 127.0.0.1:%s\r\nConnection: close\r\n\r\n' "$web_port" >&3
    echo "web page: $(head -n 1 <&3 | tr -d '\r')"
    exec 3<&-
fi

status=0
timeout $(( seconds + 120 )) ./target/release/examples/net_load "127.0.0.1:$port" \
    "$clients" "$rooms" "$seconds" "$interval" "${web_arg[@]}" || status=$?
echo "server peak memory: $(grep VmHWM "/proc/$server/status" | awk '{print $2, $3}')"
exit "$status"
