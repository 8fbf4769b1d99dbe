#!/usr/bin/env bash
# Measures the rules engine: steps per second of uniformly random games (best
# and median of RUNS runs of SECONDS seconds each), and machine instructions
# per step under valgrind's callgrind (exact and repeatable, whatever else the
# machine is doing). The figures in docs/performance.md come from here.
#
#   scripts/measure-speed.sh [RUNS] [SECONDS]
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-15}
seconds=${2:-2}
cargo build --release --quiet
sygo=target/release/sygo
for board in "sygo 19" "hexsygo 10" "sygo 9" "hexsygo 5"; do
    set -- $board
    rates=()
    for i in $(seq "$runs"); do
        rate=$("$sygo" bench --variant "$1" --size "$2" --seconds "$seconds" --seed "$i" | tail -1 | sed 's/.*steps_per_second=//')
        rates+=("$rate")
    done
    sorted=$(printf '%s\n' "${rates[@]}" | sort -n)
    best=$(echo "$sorted" | tail -1)
    median=$(echo "$sorted" | sed -n "$(( (runs + 1) / 2 ))p")
    worst=$(echo "$sorted" | head -1)
    line="$1 $2: steps/s best $best, median $median, worst $worst ($runs runs of ${seconds} s)"
    if command -v valgrind >/dev/null; then
        out=$(valgrind --tool=callgrind --callgrind-out-file=/dev/null "$sygo" bench --variant "$1" --size "$2" --games 200 --seed 1 2>&1)
        ir=$(echo "$out" | grep -o 'refs: *[0-9,]*' | tr -dc 0-9)
        steps=$(echo "$out" | grep -o 'steps=[0-9]*' | head -1 | tr -dc 0-9)
        line="$line; $((ir / steps)) instructions per step (callgrind, 200 games, seed 1)"
    fi
    echo "$line"
done
