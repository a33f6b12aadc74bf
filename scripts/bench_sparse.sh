#!/usr/bin/env bash
# Sparse 9x9 killers at production settings (issue 24): `generate` with only `max_cages` set (cages
# up to 9 cells, zero givens), 2 threads into a fresh SQLite database per row, printed as a Markdown
# table: items stored of those asked, wall seconds, stored a second, CPU seconds a stored puzzle,
# the uniqueness checks made and how many ran out of the solver's node budget (such an item's
# layout is dropped, never stored unproven), and the load average beside each row. Sparse layouts
# are shaped against the grid's unavoidable sets (src/generator/sparse.rs); --base runs the
# build before on the same rows in the same minutes.
#
# Usage: scripts/bench_sparse.sh [--bin PATH] [--base PATH] [--count N] [--seed S] [--threads N]
#                                [--max-cages N ...]
#   --bin PATH       the binary measured (default target/release/sudoku-press, built if absent)
#   --base PATH      an older binary run on the same rows, alternated with --bin in the same
#                    minutes (its rows are marked "base")
#   --count N        work items per row (default 20)
#   --seed S         the run's seed (default 1)
#   --threads N      threads (default 2)
#   --max-cages N    one row per value given (default 12, issue 24's row; repeat it:
#                    --max-cages 14 --max-cages 13 --max-cages 12 --max-cages 11)
# Output databases and configs go to a fresh temporary directory, removed at the end.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bin="$root/target/release/sudoku-press"
base=""
count=20
seed=1
threads=2
cages=()
while [ $# -gt 0 ]; do
    case "$1" in
        --bin) bin="$(realpath "${2:?--bin needs a path}")"; shift 2 ;;
        --base) base="$(realpath "${2:?--base needs a path}")"; shift 2 ;;
        --count) count="${2:?--count needs a number}"; shift 2 ;;
        --seed) seed="${2:?--seed needs a number}"; shift 2 ;;
        --threads) threads="${2:?--threads needs a number}"; shift 2 ;;
        --max-cages) cages+=("${2:?--max-cages needs a number}"); shift 2 ;;
        -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
        *) echo "error: unknown argument $1 (see --help)" >&2; exit 2 ;;
    esac
done
[ ${#cages[@]} -gt 0 ] || cages=(12)
for n in "$count" "$seed" "$threads" "${cages[@]}"; do
    [[ "$n" =~ ^[0-9]+$ ]] || { echo "error: counts, seeds and cage counts are whole numbers, got '$n'" >&2; exit 2; }
done
[ "$count" -gt 0 ] && [ "$threads" -gt 0 ] || { echo "error: --count and --threads must be at least 1" >&2; exit 2; }
if [ ! -x /usr/bin/time ]; then
    echo "error: /usr/bin/time is needed for CPU seconds (apt-get install time)" >&2
    exit 2
fi
if [ ! -x "$bin" ]; then
    (cd "$root" && cargo build --release --quiet)
fi
[ -z "$base" ] || [ -x "$base" ] || { echo "error: --base $base is not an executable" >&2; exit 2; }

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# One row: the binary, its label and max_cages.
row() {
    local exe="$1" label="$2" n="$3"
    local dir="$work/$label-$n"
    mkdir -p "$dir"
    printf '[generator]\nmax_cages = %s\n' "$n" >"$dir/settings.toml"
    local load
    load="$(cut -d' ' -f1-3 /proc/loadavg)"
    if ! /usr/bin/time -f '%U %S %e' -o "$dir/time" "$exe" generate --config "$dir/settings.toml" \
        --count "$count" --seed "$seed" --threads "$threads" --db "$dir/out.db" 2>"$dir/err" >/dev/null; then
        echo "| $label | $n | failed: $(tail -n 1 "$dir/err") | | | | | $load |"
        return 1
    fi
    # The summary: "...: stored S, duplicates skipped D, rejected R, ..." and
    # "uniqueness checks C; U (P%) cut off undecided by the B-node budget".
    local stored checks undecided user sys wall
    stored="$(sed -n 's/.*: stored \([0-9]*\), duplicates.*/\1/p' "$dir/err" | tail -n 1)"
    checks="$(sed -n 's/.*uniqueness checks \([0-9,]*\).*/\1/p' "$dir/err" | tail -n 1)"
    undecided="$(sed -n 's/.*; \([0-9,]*\) (.*cut off undecided.*/\1/p' "$dir/err" | tail -n 1)"
    read -r user sys wall <"$dir/time"
    awk -v label="$label" -v n="$n" -v stored="${stored:-0}" -v count="$count" -v wall="$wall" \
        -v cpu="$(awk -v u="$user" -v s="$sys" 'BEGIN { print u + s }')" -v checks="${checks:-?}" \
        -v undecided="${undecided:-?}" -v load="$load" 'BEGIN {
        rate = wall > 0 ? stored / wall : 0
        per = stored > 0 ? sprintf("%.1f", cpu / stored) : "none stored"
        printf "| %s | %s | %d of %d | %.1f | %.2f/s | %.1f | %s | %s of %s | %s |\n", \
            label, n, stored, count, wall, rate, cpu, per, undecided, checks, load
    }'
}

echo "sparse 9x9 killers: \`generate --config (max_cages = N) --count $count --seed $seed --threads $threads\`; bin: $bin${base:+, base: $base}"
echo
echo "| binary | max_cages | items stored | seconds | stored a second | CPU s | CPU s a stored puzzle | checks out of node budget | load (1, 5, 15 min) |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|---|"
rc=0
for n in "${cages[@]}"; do
    row "$bin" bin "$n" || rc=1
    if [ -n "$base" ]; then
        row "$base" base "$n" || rc=1
    fi
done
exit "$rc"
