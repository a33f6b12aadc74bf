#!/usr/bin/env bash
# One benchmark session: first the speed table of issue 24 (every row beside its peer, with the
# CPU's flags and the load beside each row), then sudoku-press's solver and generator and the
# peers (CP-SAT, Solo), collected into one Markdown report (default output/bench-report.md, also
# printed).
#
# Usage: scripts/bench_all.sh [--quick] [--table] [--base PATH] [--count N] [--plain-count N] [--out FILE]
#   --count N        9x9 killers for `generate` (default 10000; 2 threads, the default)
#   --plain-count N  plain 9x9 puzzles for `generate --variant classic --threads 1` (default 2000)
#   --quick          a smoke run: small counts and limits everywhere
#   --table          the speed table only (no `bench` of every set, no CP-SAT or Solo)
#   --base PATH      an older build measured beside this one on the table's solve and generate
#                    rows, runs alternated in the same minutes: CPU-time ratios say more than
#                    wall-clock rates on a shared machine
#   --out FILE       where the report goes (default output/bench-report.md)
# The table's rows: plain count-to-2 against tdoku (scripts/bench_plain.sh --quick), `solve --count
# --threads 1` on published killers against `bench` on the same file, 12x12 and 9x9 killers into
# SQLite on 2 threads (9x9 both untargeted and with a level mix), sparse killers
# (scripts/bench_sparse.sh), and the hardest killers (scripts/bench_hard.sh; sigh's solver beside
# it by scripts/bench_sigh.sh when SIGH_DIR is set). A script absent from this checkout is
# reported as skipped.
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
table_only=0
base=""
report="$root/output/bench-report.md"
while [ $# -gt 0 ]; do
    case "$1" in
        --count) count="${2:?--count needs a number}"; shift 2 ;;
        --plain-count) plain_count="${2:?--plain-count needs a number}"; shift 2 ;;
        --quick) quick=1; shift ;;
        --table) table_only=1; shift ;;
        --base) base="${2:?--base needs a binary}"; shift 2 ;;
        --out) report="${2:?--out needs a file}"; shift 2 ;;
        -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
        *) echo "error: unknown argument $1 (see --help)" >&2; exit 2 ;;
    esac
done
if [ -n "$base" ] && [ ! -x "$base" ]; then
    echo "error: --base $base is not an executable file" >&2
    exit 2
fi
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
say "- command: \`scripts/bench_all.sh$([ "$quick" = 1 ] && echo ' --quick')$([ "$table_only" = 1 ] && echo ' --table')${base:+ --base $base} --count $count --plain-count $plain_count\`"
say "- CPU flags (lscpu, the SIMD ones): $(lscpu 2>/dev/null | sed -n 's/^Flags: *//p' | tr ' ' '\n' |
    grep -E '^(sse4_2|avx|avx2|bmi2|popcnt|avx512[a-z_0-9]*)$' | tr '\n' ' ')"
load "before"

echo "== building (cargo build --release)" >&2
build_ok=1
cargo build --release --quiet || build_ok=0
bin="$(cargo metadata --format-version 1 --no-deps 2>/dev/null |
    python3 -c 'import json,sys; print(json.load(sys.stdin)["target_directory"])' 2>/dev/null ||
    echo "${CARGO_TARGET_DIR:-$root/target}")/release/sudoku-press"

# The speed table of issue 24: each row measured beside its peer (or, for the generator rows,
# beside --base when given), with the load when the row ran. Rows go to $work/rows as they are
# measured; the table is printed whole after them.
row() { printf '| %s | %s | %s | %s | `%s` |\n' "$@" >>"$work/rows"; }
load1() { cut -d' ' -f1-3 /proc/loadavg; }

# Wall and CPU seconds (user + system) of one command, as "wall cpu"; its stdout goes to
# $work/cmd.out, its stderr to $work/cmd.err.
timed() {
    /usr/bin/time -f '%e %U %S' -o "$work/cmd.time" "$@" >"$work/cmd.out" 2>"$work/cmd.err" || return $?
    awk '{ printf "%.3f %.3f\n", $1, $2 + $3 }' "$work/cmd.time"
}

# The binaries measured: this build, then --base if given.
binaries() { echo "$bin"; [ -z "$base" ] || echo "$base"; }
label_of() { if [ "$1" = "$bin" ]; then echo "this build"; else echo "base $(basename "$1")"; fi; }

# Row: solve --count --threads 1 on published killers (krazydad, repeated), whole process,
# against `bench` on the same file (its fastest pass, wall time, as the issue's ratio is); best
# of 3 alternated passes each. On a loaded machine wall time measures the load: the CPU seconds
# per puzzle (and, with --base, their ratio to the older build's) are the steadier figure.
solve_row() {
    local file="$SUDOKU_PRESS_DATA/killer/krazydad_vol1.jsonl"
    if [ ! -f "$file" ]; then
        echo "solve row skipped: $file is absent"
        return 0
    fi
    local reps=90 passes=3
    [ "$quick" = 1 ] && reps=10
    local big="$work/published.jsonl" i
    for ((i = 0; i < reps; i++)); do cat "$file"; done >"$big"
    local n
    n="$(wc -l <"$big")"
    local b p wall cpu rate
    local -A best_wall=() best_cpu=() best_bench=()
    for ((p = 0; p < passes; p++)); do
        for b in $(binaries); do
            read -r wall cpu < <(timed "$b" solve --count --threads 1 "$big")
            best_wall[$b]="$(awk -v a="${best_wall[$b]:-999999}" -v b="$wall" 'BEGIN { print (b < a) ? b : a }')"
            best_cpu[$b]="$(awk -v a="${best_cpu[$b]:-999999}" -v b="$cpu" 'BEGIN { print (b < a) ? b : a }')"
            "$b" bench --file "$big" --min-seconds 0 >"$work/bench.out"
            # columns: set puzzles seconds puzzles/s best-pass nodes guesses counts
            rate="$(awk '$1 == "published.jsonl" { print $5 }' "$work/bench.out")"
            best_bench[$b]="$(awk -v a="${best_bench[$b]:-0}" -v b="${rate:-0}" 'BEGIN { print (b > a) ? b : a }')"
        done
    done
    for b in $(binaries); do
        echo "$(label_of "$b"): solve best wall ${best_wall[$b]} s, best CPU ${best_cpu[$b]} s for $n puzzles; bench best pass ${best_bench[$b]}/s"
        local vs_base=""
        if [ -n "$base" ] && [ "$b" = "$bin" ]; then
            vs_base="$(awk -v a="${best_cpu[$base]}" -v b="${best_cpu[$bin]}" 'BEGIN { printf "; CPU %.2fx the base", a / b }')"
        fi
        row "\`solve --count --threads 1\`, $n published killers (krazydad x$reps), whole process, vs \`bench\` on the file ($(label_of "$b"))" \
            "$(awk -v n="$n" -v w="${best_wall[$b]}" -v c="${best_cpu[$b]}" 'BEGIN { printf "%.0f/s wall, %.0f/s per CPU s", n / w, n / c }')" \
            "\`bench\` best pass ${best_bench[$b]}/s" \
            "$(awk -v n="$n" -v w="${best_wall[$b]}" -v r="${best_bench[$b]}" 'BEGIN { printf "**%.2f** (wall rates); goal >= 0.85", n / w / r }')$vs_base" \
            "$(load1)"
    done
}

# `generate --level any` where the build knows it (an explicit untargeted run whatever the
# default level mix); nothing where it does not (its default is then untargeted).
untargeted() {
    if "$1" generate --level any --count 1 --db "$work/probe.db" >/dev/null 2>&1; then
        echo "--level any"
    fi
    rm -f "$work/probe.db"*
}

# Row: one generate configuration on 2 threads into a fresh database, each binary alternated,
# best of `runs`: puzzles/s (wall) and puzzles per CPU second.
generate_rows() {
    local title="$1" n="$2" goal="$3"
    shift 3
    local runs=2 b r
    [ "$quick" = 1 ] && runs=1
    local -A best_wall=() best_cpu=()
    for ((r = 0; r < runs; r++)); do
        for b in $(binaries); do
            local extra=()
            [ "${1:-}" = "UNTARGETED" ] && read -r -a extra <<<"$(untargeted "$b")"
            local args=("$@")
            [ "${1:-}" = "UNTARGETED" ] && args=("${extra[@]}" "${@:2}")
            rm -f "$work/gen.db"*
            local wall cpu
            read -r wall cpu < <(timed "$b" generate --count "$n" --threads 2 --db "$work/gen.db" "${args[@]}")
            echo "$(label_of "$b"): generate --count $n ${args[*]}: wall $wall s, CPU $cpu s; $(tr '\r' '\n' <"$work/cmd.err" | grep 'duplicates skipped' | tail -n 1 | sed 's/ ->.*//')"
            best_wall[$b]="$(awk -v a="${best_wall[$b]:-999999}" -v b="$wall" 'BEGIN { print (b < a) ? b : a }')"
            best_cpu[$b]="$(awk -v a="${best_cpu[$b]:-999999}" -v b="$cpu" 'BEGIN { print (b < a) ? b : a }')"
        done
    done
    local ratio="" peer="(run with --base OLD_BINARY for a same-minutes baseline)"
    if [ -n "$base" ]; then
        peer="$(awk -v n="$n" -v w="${best_wall[$base]}" -v c="${best_cpu[$base]}" 'BEGIN { printf "base: %.0f/s wall, %.0f/s per CPU s", n / w, n / c }')"
        ratio="$(awk -v a="${best_cpu[$base]}" -v b="${best_cpu[$bin]}" 'BEGIN { printf "CPU %.2fx the base; ", a / b }')"
    fi
    row "$title" \
        "$(awk -v n="$n" -v w="${best_wall[$bin]}" -v c="${best_cpu[$bin]}" 'BEGIN { printf "**%.0f/s** wall, %.0f/s per CPU s", n / w, n / c }')" \
        "$peer" "${ratio}goal $goal" "$(load1)"
}

# Row: the hardest killers by scripts/bench_hard.sh (total and worst CPU seconds), and sigh's
# solver beside it when SIGH_DIR is set.
hard_row() {
    local limit=60
    [ "$quick" = 1 ] && limit=10
    "$root/scripts/bench_hard.sh" --limit "$limit" --bin "$bin" | tee "$work/hard.md"
    local total
    total="$(awk -F'|' '$3 ~ /^ *[0-9.]+ *$/ { s += $3; if ($3 + 0 > w) { w = $3 + 0; p = $2 } } END { gsub(/^ +| +$/, "", p); printf "%.1f s CPU in all, worst %.2f s (%s)", s, w, p }' "$work/hard.md")"
    local peer="sigh: set SIGH_DIR to run scripts/bench_sigh.sh beside it"
    if [ -n "${SIGH_DIR:-}" ]; then
        echo
        "$root/scripts/bench_sigh.sh" --bin "$bin" | tee "$work/sigh.md" || true
        peer="sigh: see scripts/bench_sigh.sh's table below"
    fi
    row "count to 2, the hardest public killers (\`scripts/bench_hard.sh --limit $limit\`)" "$total" "$peer" "goal: none over 2 s, total at most half sigh's" "$(load1)"
}

# A part another script measures (plain, sparse); skipped when the script is not here.
script_row() {
    local script="$root/scripts/$1"
    shift
    if [ ! -x "$script" ]; then
        echo "skipped: scripts/$(basename "$script") is not in this checkout"
        row "$(basename "$script")" "skipped: not in this checkout" "" "" "$(load1)"
        return 0
    fi
    "$script" "$@" | tee "$work/script.md"
    row "\`scripts/$(basename "$script") $*\`" "see its part of this report" "" "" "$(load1)"
}

speed_table() {
    if [ ! -x /usr/bin/time ]; then
        echo "skipped: /usr/bin/time is needed for CPU seconds (apt-get install time)"
        return 0
    fi
    : >"$work/rows"
    local n12=3000 n9="$count" nmix=$((count / 4))
    [ "$quick" = 1 ] && n12=300
    [ "$nmix" -ge 100 ] || nmix=100
    local rc=0
    echo "### Measurements, as they ran"
    echo
    echo '```'
    script_row bench_plain.sh ${PLAIN_ARGS:---quick} || rc=$?
    solve_row || rc=$?
    generate_rows "12x12 killers, 2 threads into SQLite (\`generate --size 12 --count $n12\`)" "$n12" ">= 1,000/s" \
        UNTARGETED --size 12 || rc=$?
    generate_rows "9x9 killers, untargeted (any level), 2 threads, every puzzle graded (\`--count $n9\`)" "$n9" ">= 4,000/s" \
        UNTARGETED || rc=$?
    generate_rows "9x9 killers, level mix easy/medium/hard/expert, 2 threads (\`--count $nmix\`)" "$nmix" ">= 4,000/s" \
        --level easy --level medium --level hard --level expert || rc=$?
    script_row bench_sparse.sh ${SPARSE_ARGS:-} || rc=$?
    hard_row || rc=$?
    echo '```'
    echo
    echo "### The table"
    echo
    echo "| work | sudoku-press | peer, same session | ratio and goal | load (1, 5, 15 min) |"
    echo "|---|---|---|---|---|"
    cat "$work/rows"
    return "$rc"
}

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
    run_part "Speed table (issue 24)" speed_table
fi
if [ "$table_only" = 1 ]; then
    say "" "(\`--table\`: the other parts were not run.)"
elif [ "$build_ok" = 1 ]; then
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
if [ "$table_only" = 0 ]; then
    run_part "Peer solver: OR-tools CP-SAT" cpsat_part
    run_part "Peer generator: Simon Tatham's Solo" "$root/scripts/bench_solo.sh" "${solo_args[@]}"
fi

say ""
load "after"
echo "== report: $report" >&2
cat "$report"
