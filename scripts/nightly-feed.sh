#!/usr/bin/env bash
# The nightly feed job: issue tomorrow's puzzles (in the publisher's time zone) and write the day's
# files and the index. Re-running it for the same date re-emits the same files, so a retry is safe.
#
#   scripts/nightly-feed.sh                      # tomorrow, daily preset, output/feed/
#   FEED_DATE=2026-11-27 scripts/nightly-feed.sh # a given date
#
# Settings (environment):
#   SUDOKU_PRESS      the binary            [target/release/sudoku-press, else sudoku-press on PATH]
#   SUDOKU_PRESS_DB   the database          [output/puzzles.db]
#   FEED_OUT          the output directory  [output/feed]
#   FEED_SCHEDULE     daily, ramp or a TOML file [daily]
#   FEED_TZ           the publisher's time zone  [UTC]
#   FEED_DATE         the date to issue     [tomorrow in FEED_TZ]
#   FEED_GENERATE     1 = top up short pools first (`feed --generate`) [1]
set -euo pipefail
cd "$(dirname "$0")/.."

bin="${SUDOKU_PRESS:-}"
if [[ -z "$bin" ]]; then
  if [[ -x target/release/sudoku-press ]]; then bin=target/release/sudoku-press; else bin=sudoku-press; fi
fi
db="${SUDOKU_PRESS_DB:-output/puzzles.db}"
out="${FEED_OUT:-output/feed}"
schedule="${FEED_SCHEDULE:-daily}"
date="${FEED_DATE:-$(TZ="${FEED_TZ:-UTC}" date -d tomorrow +%F)}"

args=(feed --db "$db" --date "$date" --out "$out" --schedule "$schedule")
if [[ "${FEED_GENERATE:-1}" == 1 ]]; then
  args+=(--generate)
fi
echo "$(date -u +%FT%TZ) $bin ${args[*]}"
exec "$bin" "${args[@]}"
