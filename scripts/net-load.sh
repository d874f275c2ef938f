#!/usr/bin/env bash
# Load check for `boggle serve` on loopback (never run by `make test`): starts
# a release server on 127.0.0.1, runs examples/net_load.rs against it (500
# clients in 50 rooms, a word every 100 ms for 60 s by default), and reports
# the verdict latency, the time the results take to reach every client after
# the round's last `done`, and the server's peak resident memory (VmHWM).
#
#   scripts/net-load.sh [CLIENTS] [ROOMS] [SECONDS] [INTERVAL_MS]
#   scripts/net-load.sh room1000
#   scripts/net-load.sh ws10k
#
# `room1000` is one room of 1,000 players with about 60 words each (a word
# every 100 ms for 6 s): the end-of-round results go to all of them at once,
# so its figures are the verdicts' tail, the peak memory and the delivery
# time of one big results message (goals: verdict p99 <= 5 ms, worst <=
# 50 ms, results to all within 200 ms of the last `done`).
#
# `ws10k` is 10,000 players over the web side's WebSocket in 1,000 rooms of
# 10, each sending a word every 2 s for 20 s a round, for 3 rounds (goals:
# no player dropped, verdict p99 <= 10 ms, server peak memory <= 1 GB).
# NET_LOAD_ROUNDS and NET_LOAD_ALL_WEB=1 (with NET_LOAD_WEB=1) do the same
# for any other size.
#
# Players behave as players do, not in step: a room's players arrive
# together and the room starts once they are in, so the rooms' rounds begin
# and end at their own times, and each player's first word of a round comes
# at its own point of the interval (examples/net_load.rs says how).
#
# The server and the load generator share the machine (2 cores here): the
# figures are of both together. The script raises the open files limit to
# the hard limit (each side holds a descriptor per player).
set -euo pipefail

cd "$(dirname "$0")/.."
case "${1:-}" in
    room1000) set -- 1000 1 6 100 ;;
    ws10k)
        export NET_LOAD_WEB=1 NET_LOAD_ALL_WEB=1 NET_LOAD_ROUNDS=${NET_LOAD_ROUNDS:-3}
        set -- 10000 1000 20 2000
        ;;
esac
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
# The server keeps the last tenth of its connections and rooms for networks
# holding almost none, and every client here is on one address: the wholes
# are a ninth over what the run needs, so its share is all of that.
max_connections=$(( (clients + 100) * 10 / 9 + 1 ))
max_rooms=$(( rooms * 10 / 9 + 1 ))

cargo build --release --quiet --bin boggle --example net_load
ulimit -n "$(ulimit -Hn)" 2>/dev/null || true
if [ "$(ulimit -n)" != unlimited ] && [ "$(ulimit -n)" -lt $(( clients + 256 )) ]; then
    echo "net-load: needs $(( clients + 256 )) open files, the hard limit is $(ulimit -n)" >&2
    exit 1
fi
rounds=${NET_LOAD_ROUNDS:-1}
out=$(mktemp)

# Every room starts its round when all its clients are in; counted duplicates
# let each client check the results' score against its own verdicts.
./target/release/boggle serve --listen "127.0.0.1:$port" --rules classic --seed 1 \
    --min-players "$per_room" --time $(( seconds + 60 )) \
    --rounds "$rounds" --duplicates count --max-connections "$max_connections" --max-rooms "$max_rooms" \
    --address-rate $(( clients + 100 )) --max-address-connections $(( clients + 100 )) --max-address-rooms "$rooms" \
    --max-players "$(( per_room > 1000 ? 1000 : per_room ))" "${web_flags[@]}" \
    > "$out" 2>&1 &
server=$!
trap 'kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; rm -f "$out"' EXIT
for _ in $(seq 100); do
    grep -q listening "$out" 2>/dev/null && break
    sleep 0.1
done

if [ "${#web_arg[@]}" -gt 0 ]; then
    for _ in $(seq 100); do
        grep -q "web page on" "$out" 2>/dev/null && break
        sleep 0.1
    done
    # The page, as a browser would load it first (bash's /dev/tcp: no curl needed).
    exec 3<>"/dev/tcp/127.0.0.1/$web_port"
    printf 'GET / HTTP/1.1\r\nHost: 127.0.0.1:%s\r\nConnection: close\r\n\r\n' "$web_port" >&3
    echo "web page: $(head -n 1 <&3 | tr -d '\r')"
    exec 3<&-
fi

status=0
timeout $(( (seconds + 120) * rounds + clients / 50 )) ./target/release/examples/net_load "127.0.0.1:$port" \
    "$clients" "$rooms" "$seconds" "$interval" "${web_arg[@]}" || status=$?
echo "server peak memory: $(grep VmHWM "/proc/$server/status" | awk '{print $2, $3}')"
exit "$status"
