#!/usr/bin/env bash
# One benchmark session: sudoku-press's solver and generator, then the peers (CP-SAT, Solo),
# collected into one Markdown report (default output/bench-report.md, also printed).
#
# Usage: scripts/bench_all.sh [--quick] [--count N] [--plain-count N] [--out FILE]
#   --count N        9x9 killers for `generate` (default 10000; 2 threads, the default)
#   --plain-count N  plain 9x9 puzzles for `generate --variant classic --threads 1` (default 2000)
#   --quick          a smoke run: small counts and limits everywhere
#   --out FILE       where the report goes (default output/bench-report.md)
# Environment: SUDOKU_PRESS_DATA (default ../shared/data beside the repository) is passed on
# to every part; BENCH_ARGS, CPSAT_ARGS and SOLO_ARGS add arguments to `sudoku-press bench`,
# scripts/bench_cpsat.sh and scripts/bench_solo.sh (SOLO_ARGS replaces its default, --verify). Parts that need the shared data are
# skipped with a message when it is absent; a part that fails is reported and the rest still run.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
count=10000
plain_count=2000
quick=0
report="$root/output/bench-report.md"
while [ $# -gt 0 ]; do
    case "$1" in
        --count) count="${2:?--count needs a number}"; shift 2 ;;
        --plain-count) plain_count="${2:?--plain-count needs a number}"; shift 2 ;;
        --quick) quick=1; shift ;;
        --out) report="${2:?--out needs a file}"; shift 2 ;;
        -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
        *) echo "error: unknown argument $1 (see --help)" >&2; exit 2 ;;
    esac
done
for n in "$count" "$plain_count"; do
    [[ "$n" =~ ^[1-9][0-9]*$ ]] || { echo "error: counts must be positive integers, got '$n'" >&2; exit 2; }
done

export SUDOKU_PRESS_DATA="${SUDOKU_PRESS_DATA:-$(cd "$root/.." && pwd)/shared/data}"
have_data=0
[ -d "$SUDOKU_PRESS_DATA/killer" ] && have_data=1
read -r -a bench_args <<<"${BENCH_ARGS:-}"
read -r -a cpsat_args <<<"${CPSAT_ARGS:-}"
read -r -a solo_args <<<"${SOLO_ARGS:---verify}"
if [ "$quick" = 1 ]; then
    count=1000
    plain_count=200
    cpsat_args=(--limit 100 "${cpsat_args[@]}")
    [ -n "${BENCH_ARGS:-}" ] || bench_args=(--min-seconds 0.5)
    [ -n "${SOLO_ARGS:-}" ] || solo_args=(--verify --budget 30 3x3kdb:100 3x3kda:20 3x3kdu:10 2x2kdb:100 3x3:200)
fi

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mkdir -p "$(dirname "$report")"
: >"$report"

say() { printf '%s\n' "$@" >>"$report"; }

# Run one part: its stdout goes into the report, its stderr to the terminal and a log whose
# tail lands in the report if the part fails.
run_part() {
    local title="$1"
    shift
    say "" "## $title" ""
    echo "== $title" >&2
    local rc=0
    "$@" >>"$report" 2> >(tee "$work/part.log" >&2) || rc=$?
    wait $! 2>/dev/null || true
    if [ "$rc" != 0 ]; then
        say "" "**failed (exit $rc)**; last lines of its stderr:" "" '```'
        tail -n 15 "$work/part.log" >>"$report"
        say '```'
    fi
}

load() { say "- load $1: \`$(uptime | sed 's/^ *//')\`"; }

say "# sudoku-press benchmark report" ""
say "- date: $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
say "- commit: $(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)$(git -C "$root" diff --quiet 2>/dev/null || echo ' (with uncommitted changes)')"
say "- machine: $(nproc) cores, $(lscpu 2>/dev/null | sed -n 's/^Model name: *//p' | head -1), $(uname -sr)"
say "- data: $SUDOKU_PRESS_DATA$([ "$have_data" = 1 ] || echo ' (absent: the parts that need it are skipped)')"
say "- command: \`scripts/bench_all.sh$([ "$quick" = 1 ] && echo ' --quick') --count $count --plain-count $plain_count\`"
load "before"

echo "== building (cargo build --release)" >&2
build_ok=1
cargo build --release --quiet || build_ok=0
bin="$(cargo metadata --format-version 1 --no-deps 2>/dev/null |
    python3 -c 'import json,sys; print(json.load(sys.stdin)["target_directory"])' 2>/dev/null ||
    echo "${CARGO_TARGET_DIR:-$root/target}")/release/sudoku-press"

# sudoku-press's solver on the shared sets.
our_bench() {
    if [ "$have_data" = 0 ]; then
        echo "skipped: $SUDOKU_PRESS_DATA is absent"
        return 0
    fi
    # shellcheck disable=SC2016 # a literal `$ command` line for the report
    printf '`$ cargo run --release -- bench --data %s%s`\n\n' "$SUDOKU_PRESS_DATA" "${bench_args[*]:+ ${bench_args[*]}}"
    local rc=0
    cargo run --release --quiet -- bench --data "$SUDOKU_PRESS_DATA" "${bench_args[@]}" >"$work/bench.out" || rc=$?
    # A Markdown table goes in as it is; anything else as a code block.
    if head -n 1 "$work/bench.out" | grep -q '^|'; then
        cat "$work/bench.out"
    else
        echo '```'
        cat "$work/bench.out"
        echo '```'
    fi
    return "$rc"
}

# Time one `generate` run into a fresh database; print a table row (wall, CPU, rate, peak RSS).
generate_row() {
    local label="$1" n="$2"
    shift 2
    local db="$work/$label.db" times="$work/$label.time"
    rm -f "$db"*
    local cmd=("$bin" generate --count "$n" --db "$db" "$@")
    local rc=0
    if [ -x /usr/bin/time ]; then
        /usr/bin/time -f '%e %U %S %M' -o "$times" "${cmd[@]}" >/dev/null || rc=$?
    else
        local TIMEFORMAT='%R %U %S n/a'
        { time "${cmd[@]}" >/dev/null; } 2>"$times" || rc=$?
    fi
    local wall user sys rss
    read -r wall user sys rss < <(tail -n 1 "$times")
    local stored
    stored="$(python3 -c 'import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute("select count(*) from puzzles").fetchone()[0])' "$db" 2>/dev/null || echo '?')"
    awk -v l="$label" -v c="generate --count $n --db DB${*:+ $*}" -v n="$n" -v st="$stored" -v w="$wall" \
        -v u="$user" -v s="$sys" -v m="$rss" -v rc="$rc" 'BEGIN {
            rss = (m ~ /^[0-9]+$/) ? sprintf("%.0f MiB", m / 1024) : "n/a"
            note = (rc == 0) ? "" : "exit " rc
            printf "| %s | `%s` | %s | %.2f | %.2f | %.1f | %s | %s |\n", l, c, st, w, u + s, (w > 0 ? n / w : 0), rss, note
        }'
    return "$rc"
}

our_generate() {
    echo "Binary: \`$bin\` (built by \`cargo build --release\`). Puzzles/s = requested count / wall time."
    echo
    echo "| work | command | stored | wall s | CPU s | puzzles/s | peak RSS | note |"
    echo "|---|---|---:|---:|---:|---:|---:|---|"
    local rc=0
    generate_row killer-9x9 "$count" || rc=$?
    generate_row plain-9x9-1-thread "$plain_count" --variant classic --threads 1 || rc=$?
    return "$rc"
}

if [ "$build_ok" = 1 ]; then
    run_part "sudoku-press solver (\`bench\`)" our_bench
    run_part "sudoku-press generator (\`generate\`)" our_generate
else
    say "" "## sudoku-press" "" "**skipped: \`cargo build --release\` failed** (see the terminal)."
fi

cpsat_part() {
    if [ "$have_data" = 0 ]; then
        echo "skipped: $SUDOKU_PRESS_DATA is absent"
        return 0
    fi
    "$root/scripts/bench_cpsat.sh" "${cpsat_args[@]}"
}
run_part "Peer solver: OR-tools CP-SAT" cpsat_part
run_part "Peer generator: Simon Tatham's Solo" "$root/scripts/bench_solo.sh" "${solo_args[@]}"

say ""
load "after"
echo "== report: $report" >&2
cat "$report"
