#!/usr/bin/env bash
# Fingerprints of what users get: the sha256 of every output of generate, export (every format),
# rate, explain, book, render and feed on fixed seeds, and the node counts of bench. A change that
# must not change behaviour (a restructuring) prints the same lines before and after:
#
#   scripts/checksums.sh --bin /tmp/before/sudoku-press > before.txt
#   scripts/checksums.sh > after.txt && diff before.txt after.txt
#
# Usage: scripts/checksums.sh [--bin PATH]   (default target/release/sudoku-press, built if absent)
# Environment: SUDOKU_PRESS_DATA (default ../shared/data): the published killers are rated and
# benchmarked too when it is present. Takes about a minute on 2 cores.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
bin=target/release/sudoku-press
while [ $# -gt 0 ]; do
    case "$1" in
        --bin) bin="$(realpath "$2")"; shift 2 ;;
        *) echo "checksums.sh: unknown argument $1 (see the usage at the top of the script)" >&2; exit 2 ;;
    esac
done
if [ ! -x "$bin" ]; then
    cargo build --release --quiet
    bin="$root/target/release/sudoku-press"
fi
bin="$(realpath "$bin")"
data="$(realpath -m "${SUDOKU_PRESS_DATA:-../shared/data}")"
samples="$root/samples"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cd "$work"

# One line per output: its sha256, then the command that wrote it (when it failed: its exit code
# and the sha256 of its message). Progress and summaries on stderr carry times, so are left out.
run() {
    local name="$1"; shift
    local rc=0
    "$bin" "$@" >"$work/out" 2>"$work/err" || rc=$?
    printf '%s  %s%s\n' "$(sha256sum <"$work/out" | cut -c1-16)" "$name" "$([ $rc = 0 ] || echo " (exit $rc, stderr $(sha256sum <"$work/err" | cut -c1-16))")"
}
sum_file() {
    printf '%s  %s\n' "$(sha256sum <"$1" | cut -c1-16)" "$2"
}

# The puzzles each batch made, apart from their grades (the export's JSON lines with every grade,
# id and provenance key left out): a grader change leaves these lines alone, a generator change
# does not. `generate` itself prints nothing on stdout.
puzzles() {
    local name="$1" db="$2"; shift 2
    "$bin" generate "$@" --db "$db" >/dev/null 2>"$work/err" || { printf 'failed  %s (exit %s)\n' "$name" "$?"; return; }
    "$bin" export --db "$db" --format jsonl | python3 -c '
import json, sys
keep = ("size", "box_rows", "box_cols", "givens", "cages", "regions", "solution", "variant")
for line in sys.stdin:
    d = json.loads(line)
    print(json.dumps({k: d[k] for k in keep if k in d}, sort_keys=True))' >"$work/out"
    sum_file "$work/out" "$name"
}
puzzles gen-killer9 k9.db --count 300 --seed 21 --threads 2
puzzles gen-killer6 k6.db --size 6 --count 200 --seed 3 --threads 2
puzzles gen-classic9 c9.db --variant classic --count 200 --seed 5 --threads 2
puzzles gen-jigsaw9 j9.db --variant jigsaw --count 100 --seed 4 --threads 2
puzzles gen-kj9 kj9.db --variant killer-jigsaw --count 100 --seed 4 --threads 2
puzzles gen-killer12 k12.db --size 12 --count 30 --seed 6 --threads 2
puzzles gen-extreme kx.db --level extreme --count 10 --seed 31 --threads 2
for db in k9 k6 c9 j9 kj9 k12 kx; do
    for f in csv jsonl fpuzzles sudokupad fpuzzles-url sudokuwiki sudocue ipuz; do
        run "export-$db-$f" export --db "$db.db" --format "$f"
    done
    "$bin" export --db "$db.db" --format jsonl >"$db.jsonl"
    run "rate-$db" rate --threads 2 "$db.jsonl"
    run "explain-$db" explain "$db.jsonl"
    run "explain-hints-$db" explain --hints "$db.jsonl"
    run "explain-jsonl-$db" explain --format jsonl "$db.jsonl"
done
for s in killers.jsonl classic.txt; do
    run "rate-sample-$s" rate "$samples/$s"
    run "explain-sample-$s" explain "$samples/$s"
    run "solve-sample-$s" solve "$samples/$s"
done

run book-killer book --db k9.db --count 12 --per-page 4 --shade -o book1.pdf
sum_file book1.pdf book1.pdf
run book-levels book --db k9.db --level easy --level hard --count 4 --trim 6x9 --per-page 1 -o book2.pdf
sum_file book2.pdf book2.pdf
run book-mixed book --db kj9.db --ids 1,2,3 --answers section -o book3.pdf
sum_file book3.pdf book3.pdf
mkdir svg
run render render --format svg --solution --shade --db k9.db 1 2 3 -o svg
for f in svg/*; do sum_file "$f" "$f"; done

for d in 2026-11-27 2026-11-28; do
    run "feed-$d" feed --db k9.db --date "$d" --out feed
done
run feed-ramp feed --db k9.db --date 2026-11-29 --schedule ramp --out feed-ramp
for f in $(cd feed && find . -type f | sort) ; do sum_file "feed/$f" "feed/$f"; done
for f in $(cd feed-ramp && find . -type f | sort) ; do sum_file "feed-ramp/$f" "feed-ramp/$f"; done

if [ -d "$data/killer" ]; then
    for set in tarek_odd krazydad_vol1 solo_levels; do
        [ -f "$data/killer/$set.jsonl" ] || continue
        run "rate-$set" rate --threads 2 "$data/killer/$set.jsonl"
        # bench: the nodes and guesses columns, not the times
        "$bin" bench --file "$data/killer/$set.jsonl" --min-seconds 0 2>/dev/null \
            | awk 'NR>1 {print "bench-nodes  " $1, $6, $7, $8}'
    done
    head -n 3 "$data/killer/hard_killers.jsonl" >hard3.jsonl
    "$bin" bench --file hard3.jsonl --min-seconds 0 2>/dev/null | awk 'NR>1 {print "bench-nodes  " $1, $6, $7, $8}'
    for set in 17_clue top1465; do
        head -n 2000 "$data/sudoku/$set.txt" >"$set.txt"
        "$bin" bench --file "$set.txt" --min-seconds 0 2>/dev/null | awk 'NR>1 {print "bench-nodes  " $1, $6, $7, $8}'
        run "rate-$set" rate --threads 2 --format plain "$set.txt"
    done
else
    echo "skipping the published sets: $data/killer is absent (set SUDOKU_PRESS_DATA)"
fi
