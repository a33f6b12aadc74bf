#!/usr/bin/env bash
# The hardest public killers one by one: `sudoku-press bench` (count to 2, one thread) on each
# puzzle of killer/hard_killers.jsonl, with a per-puzzle time limit; prints a Markdown table with
# the CPU seconds of each run (user + system, start-up included: on a machine shared with other
# builds wall time measures the load more than the solver) beside the wall seconds `bench` reports.
#
# Usage: scripts/bench_hard.sh [--limit SECONDS] [--bin PATH] [--symmetries]
#   --limit SECONDS  give up on one puzzle after this much CPU time (default 60; CPU, not wall
#                    time, so a loaded machine does not cut a run short); shown as "> limit"
#   --bin PATH       the binary to measure (default target/release/sudoku-press, built if absent),
#                    e.g. a saved copy of an older build to compare in the same session
#   --symmetries     run each puzzle's 16 images (turns, mirrors, digit complement) instead of
#                    the puzzle alone: the times and nodes of one orientation swing up to 4x with
#                    the search's tie-breaks, so judge a change to the search on all of them
#                    (nodes are then the mean over the 16 images; the limit is for all 16)
# Environment: SUDOKU_PRESS_DATA (default ../shared/data beside the repository).
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
limit=60
bin=target/release/sudoku-press
symmetries=()
while [ $# -gt 0 ]; do
    case "$1" in
        --limit) limit="$2"; shift 2 ;;
        --bin) bin="$2"; shift 2 ;;
        --symmetries) symmetries=(--symmetries); shift ;;
        *) echo "bench_hard.sh: unknown argument $1 (see the usage at the top of the script)" >&2; exit 2 ;;
    esac
done
data="${SUDOKU_PRESS_DATA:-../shared/data}"
set_file="$data/killer/hard_killers.jsonl"
if [ ! -f "$set_file" ]; then
    echo "skipping: $set_file is absent (set SUDOKU_PRESS_DATA)"
    exit 0
fi
if [ ! -x "$bin" ]; then
    cargo build --release --quiet
fi
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
echo "\`scripts/bench_hard.sh --limit $limit --bin $bin${symmetries:+ --symmetries}\` on $(hostname), load $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "| puzzle | CPU seconds | wall seconds | nodes | count |"
echo "|---|---:|---:|---:|---:|"
i=0
while IFS= read -r line; do
    i=$((i + 1))
    id="$(printf '%s' "$line" | sed -n 's/.*"id": *"\([^"]*\)".*/\1/p')"
    printf '%s\n' "$line" > "$work/one.jsonl"
    if (ulimit -t "$limit"
        exec /usr/bin/time -f '%U %S' -o "$work/cpu" "$bin" bench --file "$work/one.jsonl" \
            --min-seconds 0 "${symmetries[@]}") >"$work/out" 2>/dev/null \
        && out="$(tail -1 "$work/out")" && [ -n "${out##set *}" ]; then
        # columns: set puzzles seconds puzzles/s best-pass nodes guesses counts
        read -r _ _ secs _ _ nodes _ counts <<<"$out"
        read -r user system <"$work/cpu"
        cpu="$(echo "$user + $system" | bc)"
        echo "| ${id:-line $i} | $cpu | $secs | $(printf '%.0f' "$nodes") | $counts |"
    else
        echo "| ${id:-line $i} | > $limit | | | |"
    fi
done < "$set_file"
