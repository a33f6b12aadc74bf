#!/usr/bin/env bash
# Plain 9x9 count-to-2 beside tdoku (issue 24, row 1): `sudoku-press bench` and tdoku's driver
# on 17-clue, top1465 and a hardest set, alternating, one thread each; prints a Markdown table
# with the CPU's flags, the load, the best pass of each program and the ratio (ours / tdoku).
#
# Usage: scripts/bench_plain.sh [--quick] [--rounds N] [--bin PATH] [--hardest FILE]
#   --rounds N      alternating rounds per set (default 5); each round runs tdoku's driver (five
#                   passes, its best) and `bench` for the same wall time, in turn first
#   --quick         one round on at most 5,000 puzzles a set, none repeated (a smoke run)
#   --bin PATH      the binary to measure (default: target/release/sudoku-press, built first)
#   --hardest FILE  the hardest set, 81 characters a line: tdoku's puzzles5_forum_hardest_1905_11+
#                   (Sudoku Explainer 11+, not shipped here) when you have it; without it, the
#                   top1465 puzzles `sudoku-press rate` grades extreme (cached in output/peers/)
# Environment: SUDOKU_PRESS_DATA (default ../shared/data beside the repository); TDOKU_SRC,
# tdoku's sources with build.sh (default the peers/tdoku folder beside the data folder). tdoku
# is built once into output/peers/tdoku with its own build.sh (-O3 -march=native). Sets or
# sources that are absent are skipped with a message.
#
# Both programs time passes over a set held in memory (no start-up, no parsing) and keep the
# fastest; `bench` gets as much wall time as tdoku's five passes took, so each has about as
# many tries at an undisturbed pass. A set smaller than 20,000 puzzles is repeated up to that
# size, so a pass lasts long enough to time. The "mean" column of `bench` is not comparable to
# tdoku's best pass. Wall time on a shared machine measures the load as much as the solver, so
# the table also gives puzzles per CPU second (user + system time of each whole process: tdoku's
# five passes; ours over all its passes, reading the set once included), which moves far less.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
rounds=5
quick=0
bin=""
hardest=""
while [ $# -gt 0 ]; do
    case "$1" in
        --rounds) rounds="${2:?--rounds needs a number}"; shift 2 ;;
        --quick) quick=1; shift ;;
        --bin) bin="${2:?--bin needs a path}"; shift 2 ;;
        --hardest) hardest="${2:?--hardest needs a file}"; shift 2 ;;
        -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
        *) echo "bench_plain.sh: unknown argument $1 (see --help)" >&2; exit 2 ;;
    esac
done
[[ "$rounds" =~ ^[1-9][0-9]*$ ]] || { echo "bench_plain.sh: --rounds must be a positive integer, got '$rounds'" >&2; exit 2; }
[ "$quick" = 1 ] && rounds=1
if [ -n "$hardest" ] && [ ! -f "$hardest" ]; then
    echo "bench_plain.sh: --hardest $hardest: no such file" >&2
    exit 2
fi

data="${SUDOKU_PRESS_DATA:-$root/../shared/data}"
tdoku_src="${TDOKU_SRC:-$(dirname "$data")/peers/tdoku}"
tdoku="$root/output/peers/tdoku/tdoku-bench"
if [ -z "$bin" ]; then
    cargo build --release --quiet
    bin="$root/target/release/sudoku-press"
fi
[ -x "$bin" ] || { echo "bench_plain.sh: $bin is not an executable" >&2; exit 2; }

flags="$(grep -m1 '^flags' /proc/cpuinfo 2>/dev/null | tr ' ' '\n' |
    grep -xE 'sse4_2|popcnt|bmi2|avx2|avx512f|avx512bw|avx512vl|avx512vbmi' | tr '\n' ' ' || true)"
echo "# Plain count-to-2: sudoku-press beside tdoku"
echo
echo "- date: $(date -u '+%Y-%m-%d %H:%M:%S UTC'); commit $(git rev-parse --short HEAD 2>/dev/null || echo unknown)"
echo "- CPU: $(lscpu 2>/dev/null | sed -n 's/^Model name: *//p' | head -1), $(nproc) cores; SIMD flags: ${flags:-none found}"
echo "- command: \`scripts/bench_plain.sh$([ "$quick" = 1 ] && echo ' --quick') --rounds $rounds${hardest:+ --hardest $hardest}\`; binary \`$bin\`"

if [ ! -x "$tdoku" ]; then
    if [ -x "$tdoku_src/build.sh" ]; then
        "$tdoku_src/build.sh" "$(dirname "$tdoku")" >&2
    else
        echo
        echo "skipped: tdoku's sources are not at $tdoku_src (set TDOKU_SRC)"
        exit 0
    fi
fi
# What tdoku's -march=native build compiled in: its vectors are 128/256 bits, AVX-512VL/BW
# (when present) adds instructions on them (masked compares, ternary logic, vpermb).
simd="$(echo | g++ -march=native -dM -E - 2>/dev/null |
    sed -n 's/^#define __\(AVX2\|AVX512F\|AVX512BW\|AVX512VL\|AVX512VBMI\|BMI2\|SSE4_2\)__ 1$/\1/p' |
    sort | tr '\n' ' ')"
echo "- tdoku: \`$tdoku\`, built by \`$tdoku_src/build.sh\` (-O3 -march=native: ${simd:-unknown})"
echo "- load before: \`$(uptime | sed 's/^.*load average: //')\`"
echo

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cap() { # at most 5,000 puzzles a set in a quick run; else repeated up to 20,000 or more
    local lines
    lines=$(grep -cE '^[0-9.]{81}' "$1")
    if [ "$quick" = 1 ]; then
        head -n 5000 "$1" >"$work/$2"
    else
        for ((k = 0; k == 0 || k * lines < 20000; k++)); do cat "$1"; done >"$work/$2"
    fi
    echo "$work/$2"
}
sets=()
for name in 17_clue top1465; do
    if [ -f "$data/sudoku/$name.txt" ]; then
        sets+=("$name=$(cap "$data/sudoku/$name.txt" "$name.txt")")
    else
        echo "skipped $name: $data/sudoku/$name.txt is absent (set SUDOKU_PRESS_DATA)"
    fi
done
if [ -n "$hardest" ]; then
    sets+=("hardest ($(basename "$hardest"))=$(cap "$hardest" hardest.txt)")
elif [ -f "$data/sudoku/top1465.txt" ]; then
    proxy="$root/output/peers/top1465-extreme.txt"
    if [ ! -s "$proxy" ]; then
        # The puzzles our grader needs forcing chains or trial for: the nearest to SE 11+ here.
        "$bin" rate --threads 0 "$data/sudoku/top1465.txt" >"$work/rate.jsonl"
        paste -d ' ' <(grep -E '^[0-9.]{81}' "$data/sudoku/top1465.txt" | cut -c1-81) \
            <(sed 's/.*"level":"\([a-z]*\)".*/\1/' "$work/rate.jsonl") |
            awk '$2 == "extreme" { print $1 }' >"$proxy"
    fi
    sets+=("top1465 extreme ($(wc -l <"$proxy") graded extreme; proxy for hardest-11+)=$(cap "$proxy" extreme.txt)")
fi

echo "| set | puzzles a pass | rounds | tdoku best pass/s | sudoku-press best pass/s | ratio best/best | per-round ratios | tdoku /CPU s | ours /CPU s | ratio CPU | our nodes a puzzle | load after |"
echo "|---|---:|---:|---:|---:|---:|---|---:|---:|---:|---:|---|"
for entry in "${sets[@]}"; do
    name="${entry%%=*}" file="${entry#*=}"
    best_t=0 best_o=0 ratios="" nodes="" n=0 cpu_t=0 cpu_o=0
    for ((r = 1; r <= rounds; r++)); do
        for turn in 1 2; do
            # Odd rounds start with tdoku, even rounds with ours.
            if { [ $((r % 2)) = 1 ] && [ "$turn" = 1 ]; } || { [ $((r % 2)) = 0 ] && [ "$turn" = 2 ]; }; then
                start=$(date +%s.%N)
                line="$(/usr/bin/time -f '%U %S' -o "$work/time" "$tdoku" "$file")"
                spent=$(echo "$(date +%s.%N) - $start" | bc -l)
                t=$(echo "$line" | sed -n 's/.*best pass \([0-9]*\) puzzles.*/\1/p')
                n=$(echo "$line" | sed -n 's/.*: \([0-9]*\) puzzles,.*/\1/p')
                c=$(awk -v n="$n" '{ printf "%d", 5 * n / ($1 + $2 + 0.005) }' "$work/time")
                [ "$c" -gt "$cpu_t" ] && cpu_t=$c
            else
                # As much wall time as tdoku's last run (its five passes and its reading).
                secs=${spent:-0.5}
                row="$(/usr/bin/time -f '%U %S' -o "$work/time" "$bin" bench --file "$file" --min-seconds "$secs" | tail -n 1)"
                o=$(echo "$row" | awk '{ printf "%d", $5 }')
                nodes=$(echo "$row" | awk '{ print $6 }')
                # bench's columns: set, puzzles, seconds, mean puzzles/s, best pass, nodes, ...
                c=$(echo "$row" | awk -v t="$(cat "$work/time")" '{ split(t, u, " "); printf "%d", $3 * $4 / (u[1] + u[2] + 0.005) }')
                [ "$c" -gt "$cpu_o" ] && cpu_o=$c
            fi
        done
        ratios="$ratios $(echo "scale=2; $o / $t" | bc -l)"
        [ "$t" -gt "$best_t" ] && best_t=$t
        [ "$o" -gt "$best_o" ] && best_o=$o
    done
    ratio=$(echo "scale=2; $best_o / $best_t" | bc -l)
    ratio_cpu=$(echo "scale=2; $cpu_o / $cpu_t" | bc -l)
    printf '| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n' "$name" "$n" "$rounds" \
        "$best_t" "$best_o" "$ratio" "${ratios# }" "$cpu_t" "$cpu_o" "$ratio_cpu" "$nodes" \
        "$(uptime | sed 's/^.*load average: //')"
done
