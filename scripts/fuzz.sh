#!/usr/bin/env bash
# Runs each cargo-fuzz target in fuzz/ for a bounded time, one after another
# (the targets share the machine's cores with everything else).
#
#   scripts/fuzz.sh [SECONDS] [TARGET...]     default: 60 seconds, every target
#
# Environment: FUZZ_SECONDS (same as SECONDS), FUZZ_ARGS (extra libFuzzer flags).
# A finding stops the script with libFuzzer's status and leaves the input in
# fuzz/artifacts/TARGET/; new interesting inputs accumulate in fuzz/corpus/TARGET/.
set -euo pipefail

cd "$(dirname "$0")/.."
seconds=${1:-${FUZZ_SECONDS:-60}}
shift || true

if ! cargo fuzz --version >/dev/null 2>&1; then
    echo "fuzz.sh: cargo-fuzz is missing; install it with: cargo install cargo-fuzz" >&2
    exit 2
fi
# cargo-fuzz passes nightly-only flags (-Zsanitizer); a stable compiler accepts
# them when told it is building itself.
if ! rustc --version | grep -q nightly; then
    export RUSTC_BOOTSTRAP=1
fi

# AddressSanitizer's check that no two globals share a name flags bundled
# SQLite (linked by targets that use the `boggle` crate): two function-local
# tables named `aiOff`, of one size. Level 1 still reports a name defined
# twice with different sizes, the case that is a real bug.
export ASAN_OPTIONS="detect_odr_violation=1${ASAN_OPTIONS:+:$ASAN_OPTIONS}"

if [ $# -gt 0 ]; then
    targets=("$@")
else
    mapfile -t targets < <(cargo fuzz list)
fi

for target in "${targets[@]}"; do
    mkdir -p "fuzz/corpus/$target"
    echo "fuzz.sh: $target for ${seconds}s"
    # -timeout turns any input that takes over 10 s into a finding (a hang).
    # shellcheck disable=SC2086
    cargo fuzz run "$target" "fuzz/corpus/$target" "fuzz/seeds/$target" -- \
        -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 ${FUZZ_ARGS:-}
done
echo "fuzz.sh: no findings in ${targets[*]} (${seconds}s each)"
