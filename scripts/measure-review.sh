#!/usr/bin/env bash
# Measures the AI's review of whole games in the web app (docs/web.md,
# review), with the visits per position chosen by board size: a 9×9 game cut
# to its first 40 turns and a whole 19×19 game, both played by the AI at
# level 1 (`sygo arena`, seed 1), each uploaded to a fresh `sygo serve`,
# reviewed, and timed from the request to the end of the review. The figures
# in docs/performance.md come from here.
#
#   scripts/measure-review.sh
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet -p sygo
sygo=target/release/sygo
work=$(mktemp -d)
server=
trap '[ -n "$server" ] && kill "$server" 2>/dev/null; rm -rf "$work"' EXIT
for size in 9 19; do
    "$sygo" arena --a mcts:level=1 --b mcts:level=1 --games 1 --jobs 1 --seed 1 \
        --size "$size" --records "$work/$size" > /dev/null 2>&1
done
# The root's line and 40 turns, one node a line.
{ head -n 41 "$work/9/game-1.sgf"; echo ')'; } > "$work/9x9-40-turns.sgf"
cp "$work/19/game-1.sgf" "$work/19x19.sgf"
"$sygo" serve --addr 127.0.0.1:0 --db "$work/sygo.db" > "$work/serve.log" &
server=$!
url=
for _ in $(seq 100); do
    url=$(grep -o 'http://[0-9.:]*' "$work/serve.log" || true)
    [ -n "$url" ] && break
    sleep 0.1
done
for record in 9x9-40-turns 19x19; do
    id=$(curl -sf -H 'Content-Type: application/x-go-sgf' --data-binary "@$work/$record.sgf" \
        "$url/api/records" | grep -o '"id":"[0-9a-f]*"' | head -1 | cut -d'"' -f4)
    start=$(date +%s.%N)
    curl -sf -X POST "$url/api/games/$id/review" > /dev/null
    until curl -sf "$url/api/games/$id/review?from=100000" | grep -q '"status":"done"'; do
        sleep 0.2
    done
    end=$(date +%s.%N)
    summary=$(curl -sf "$url/api/games/$id/review?from=100000" |
        grep -o '"positions_total":[0-9]*,"visits_per_position":[0-9]*')
    echo "$record: $summary: $(echo "$end - $start" | bc) s (load $(cut -d' ' -f1-3 /proc/loadavg))"
done
