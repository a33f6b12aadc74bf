#!/usr/bin/env bash
# sigh's Interactive Sudoku Solver (JavaScript under node, one thread) counting each of the
# hardest public killers up to 2, one fresh node process per puzzle (scripts/bench_sigh.mjs);
# prints a Markdown table of its search seconds beside sudoku-press's CPU seconds for the same
# puzzle (`sudoku-press bench` on that puzzle alone, as scripts/bench_hard.sh does).
#
# Usage: scripts/bench_sigh.sh [--bin PATH] [--file F.jsonl]
#   --bin PATH   the sudoku-press binary (default target/release/sudoku-press, built if absent)
#   --file F     zero-given 9x9 killers as puzzle JSON lines (default killer/hard_killers.jsonl)
# Environment: SIGH_DIR, a checkout of github.com/sigh/Interactive-Sudoku-Solver (not shipped
# here: the script skips without it), SUDOKU_PRESS_DATA (default ../shared/data).
# sudoku-press is timed as a whole process (start-up included) and sigh by its search alone,
# which leans the ratio towards sigh.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
bin=target/release/sudoku-press
data="${SUDOKU_PRESS_DATA:-../shared/data}"
file="$data/killer/hard_killers.jsonl"
args="$*"
while [ $# -gt 0 ]; do
    case "$1" in
        --bin) bin="$2"; shift 2 ;;
        --file) file="$2"; shift 2 ;;
        *) echo "bench_sigh.sh: unknown argument $1 (see the usage at the top of the script)" >&2; exit 2 ;;
    esac
done
if [ -z "${SIGH_DIR:-}" ] || [ ! -f "$SIGH_DIR/js/solver/engine.js" ]; then
    echo "skipping: set SIGH_DIR to a checkout of sigh/Interactive-Sudoku-Solver (with js/solver/engine.js)"
    exit 0
fi
if ! command -v node > /dev/null; then
    echo "skipping: node is not installed (apt-get install nodejs)"
    exit 0
fi
if [ ! -f "$file" ]; then
    echo "skipping: $file is absent (set SUDOKU_PRESS_DATA or --file)"
    exit 0
fi
if [ ! -x "$bin" ]; then
    cargo build --release --quiet
fi

# shellcheck disable=SC2016 # a literal `$ command` line for the report
printf '`$ SIGH_DIR=%s scripts/bench_sigh.sh%s` on %s, node %s, load %s\n\n' \
    "$SIGH_DIR" "${args:+ $args}" "$(hostname)" "$(node --version)" "$(cut -d' ' -f1-3 /proc/loadavg)"
echo "| puzzle | sigh search s | sigh with set-up s | sigh guesses | sigh count | stored solution | sudoku-press CPU s | sigh ÷ sudoku-press |"
echo "|---|---:|---:|---:|---:|---|---:|---:|"
one="$(mktemp)"
trap 'rm -f "$one"' EXIT
for i in $(grep -n . "$file" | cut -d: -f1); do
    row=$(node scripts/bench_sigh.mjs "$SIGH_DIR" "$file" "$i")
    IFS=$'\t' read -r id search setup guesses count matches <<< "$row"
    sed -n "${i}p" "$file" > "$one"
    ours=$( { /usr/bin/time -f '%U %S' "$bin" bench --file "$one" --min-seconds 0 > /dev/null; } 2>&1 \
        | awk '{printf "%.2f", $1 + $2}')
    ratio=$(awk -v a="$search" -v b="$ours" 'BEGIN { if (b > 0) printf "%.1fx", a / b; else print "n/a" }')
    echo "| $id | $search | $setup | $guesses | $count | $matches | $ours | $ratio |"
done | awk -F'|' '{print; fflush()} {s += $3; o += $8} END {printf "| **total** | **%.2f** | | | | | **%.2f** | **%.1fx** |\n", s, o, s / o}'
