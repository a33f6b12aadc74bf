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
#   FEED_BASE_URL     where FEED_OUT is published (`feed --base-url`) [the schedule's base_url]
#   FEED_TITLE        the feed's title (`feed --title`)               [the schedule's title]
#
# The output folder is a static site: index.html (every issued day), a page, JSON and PDF per day,
# feed.json and rss.xml. Copy it to any web server or bucket as it is (e.g. `rsync -a output/feed/
# host:/var/www/daily/`); pages link to each other relatively, so it also works opened from disk.
# A mistyped date far ahead is refused (`feed --force` overrides); `feed --withdraw DATE` takes a
# published day back.
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
if [[ -n "${FEED_BASE_URL:-}" ]]; then
  args+=(--base-url "$FEED_BASE_URL")
fi
if [[ -n "${FEED_TITLE:-}" ]]; then
  args+=(--title "$FEED_TITLE")
fi
echo "$(date -u +%FT%TZ) $bin ${args[*]}"
exec "$bin" "${args[@]}"
