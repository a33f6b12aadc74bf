#!/usr/bin/env bash
# Time Simon Tatham's Solo generating puzzles, one level at a time, and print a Markdown table.
#
# The peer for sudoku-press's generator (issue 3). Solo is single-threaded; each level runs as
# one `sgt-solo --generate N 'PARAMS#SEED'` process, so the same command generates the same
# puzzles with the same Solo version (the table gives a hash of each level's output to check).
# A level that does not finish within the time budget is stopped; the puzzles printed by
# then count (output is line-buffered) and the row says so.
#
# Usage: scripts/bench_solo.sh [--budget SECONDS] [--seed TEXT] [--verify] [PARAMS:N ...]
#   PARAMS:N   a Solo parameter string and how many puzzles (default: the list below)
#   --budget   seconds per level before it is stopped (default 120)
#   --seed     Solo random seed text (default sudoku-press); level L uses 'L#TEXT'
#   --verify   also convert the killer levels to puzzle JSON lines (scripts/solo_to_jsonl.py)
#              and count their solutions with CP-SAT (scripts/bench_cpsat.sh --file ...)
# Generated game IDs are kept in output/solo/PARAMS.txt (.jsonl with --verify).
# Installs sgt-puzzles with apt-get when /usr/games/sgt-solo is missing (SGT_SOLO overrides it).
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
solo="${SGT_SOLO:-/usr/games/sgt-solo}"
budget=120
seed=sudoku-press
verify=0
levels=()
while [ $# -gt 0 ]; do
    case "$1" in
        --budget) budget="${2:?--budget needs seconds}"; shift 2 ;;
        --seed) seed="${2:?--seed needs text}"; shift 2 ;;
        --verify) verify=1; shift ;;
        -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
        -*) echo "error: unknown option $1 (see --help)" >&2; exit 2 ;;
        *) levels+=("$1"); shift ;;
    esac
done
if [ ${#levels[@]} -eq 0 ]; then
    # 9x9 killers basic..unreasonable (extreme is rare: 5-7 s a puzzle here), the small
    # killers of ../shared/data, and plain 9x9 at Solo's default (trivial) and basic levels.
    levels=(3x3kdb:200 3x3kdi:100 3x3kda:100 3x3kdu:40 3x3kde:10 2x2kdb:2000 3x2kdi:100 3x3:5000 3x3db:5000)
fi
for entry in "${levels[@]}"; do
    if ! [[ "$entry" =~ ^[^:]+:[1-9][0-9]*$ ]]; then
        echo "error: '$entry' is not PARAMS:N with N > 0 (e.g. 3x3kdb:200)" >&2; exit 2
    fi
done
case "$budget" in ''|*[!0-9]*) echo "error: --budget wants whole seconds, got '$budget'" >&2; exit 2 ;; esac

if [ ! -x "$solo" ]; then
    if [ -z "${SGT_SOLO:-}" ] && command -v apt-get >/dev/null && [ "$(id -u)" = 0 ]; then
        echo "installing sgt-puzzles (for $solo)" >&2
        apt-get update -qq >&2
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq sgt-puzzles >&2
    fi
    if [ ! -x "$solo" ]; then
        echo "error: $solo not found; install sgt-puzzles (apt-get install sgt-puzzles) or set SGT_SOLO" >&2
        exit 1
    fi
fi

# What a Solo parameter string asks for, in words.
describe() {
    local p="$1" shape kind diff
    shape="${p%%[!0-9x]*}"
    case "$shape" in
        2x2) shape="4x4" ;; 3x2|2x3) shape="6x6" ;; 3x3) shape="9x9" ;;
        *) shape="$shape boxes" ;;
    esac
    case "$p" in *k*) kind="killer" ;; *) kind="plain" ;; esac
    case "$p" in
        *dt*) diff="trivial" ;; *db*) diff="basic" ;; *di*) diff="intermediate" ;;
        *da*) diff="advanced" ;; *de*) diff="extreme" ;; *du*) diff="unreasonable" ;;
        *) diff="trivial (default)" ;;
    esac
    if [ "$shape" = "4x4" ]; then diff="$diff (Solo caps 2x2 at trivial)"; fi
    echo "$shape $kind, $diff"
}

out_dir="$root/output/solo"
mkdir -p "$out_dir"
version="$(dpkg-query -W -f='${Version}' sgt-puzzles 2>/dev/null || "$solo" --version | tail -1)"
# shellcheck disable=SC2016 # a literal `$ command` line for the report
printf '`$ scripts/bench_solo.sh --budget %s --seed %s %s`\n\n' "$budget" "$seed" "${levels[*]}"
echo "Simon Tatham's Solo ($solo, sgt-puzzles $version), one process per level, single-threaded;"
echo "each level: \`$solo --generate N 'PARAMS#$seed'\`, budget ${budget} s."
echo "Load average (1/5/15 min) before: $(cut -d' ' -f1-3 /proc/loadavg)."
echo
echo "| PARAMS | what | puzzles | wall s | CPU s | puzzles/s | puzzles/CPU s | note | output sha256 |"
echo "|---|---|---:|---:|---:|---:|---:|---|---|"

jsonl_files=()
for entry in "${levels[@]}"; do
    params="${entry%%:*}"
    count="${entry#*:}"
    out="$out_dir/$params.txt"
    times="$(mktemp)"
    set +e
    TIMEFORMAT='%R %U %S'
    { time timeout --signal=TERM "$budget" stdbuf -oL "$solo" --generate "$count" "$params#$seed" \
        >"$out" 2>"$out.err"; } 2>"$times"
    rc=$?
    set -e
    read -r wall user sys <"$times"
    rm -f "$times"
    made="$(grep -c . "$out" || true)"
    note=""
    if [ "$rc" = 124 ]; then
        note="stopped at the ${budget} s budget"
    elif [ "$rc" != 0 ]; then
        note="exit $rc: $(head -c 200 "$out.err" | tr '\n' ' ')"
    fi
    [ -s "$out.err" ] || rm -f "$out.err"
    sha="$(sha256sum "$out" | cut -c1-12)"
    awk -v p="$params" -v what="$(describe "$params")" -v n="$made" -v w="$wall" -v u="$user" \
        -v s="$sys" -v note="$note" -v sha="$sha" 'BEGIN {
            cpu = u + s
            rate = (w > 0) ? sprintf(n / w < 10 ? "%.2f" : "%.1f", n / w) : "n/a"
            crate = (cpu > 0) ? sprintf(n / cpu < 10 ? "%.2f" : "%.1f", n / cpu) : "n/a"
            printf "| %s | %s | %d | %.2f | %.2f | %s | %s | %s | %s |\n", p, what, n, w, cpu, rate, crate, note, sha
        }'
    if [ "$verify" = 1 ] && [[ "$params" == *k* ]] && [ "$made" -gt 0 ]; then
        python3 "$root/scripts/solo_to_jsonl.py" --level "$params" "$out" >"$out_dir/solo-$params.jsonl"
        jsonl_files+=(--file "$out_dir/solo-$params.jsonl")
    fi
done

echo
echo "Load average (1/5/15 min) after: $(cut -d' ' -f1-3 /proc/loadavg)."

if [ ${#jsonl_files[@]} -gt 0 ]; then
    echo
    echo "Check: the generated killers counted by CP-SAT (all should be unique):"
    echo
    "$root/scripts/bench_cpsat.sh" --sets none "${jsonl_files[@]}"
fi
