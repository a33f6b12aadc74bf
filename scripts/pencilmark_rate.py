#!/usr/bin/env python3
"""Rate killers with pencilmark (PyPI `pencilmark`, `pencilmark.rate`), remembering the answers.

Usage: output/.venv-peers/bin/python scripts/pencilmark_rate.py [--cache FILE] [--max-seconds 60]
           < puzzles.sudokuwiki > ratings.jsonl

Reads SudokuWiki killer strings (`sudoku-press export --format sudokuwiki`), one a line, and
prints one JSON line per puzzle, in input order: `{"difficulty": 7.5, "band": "Easy"}` (both null
when pencilmark gives up within --max-seconds or rejects the puzzle). pencilmark takes 1-3 s of
CPU per 9x9 killer, so every answer is kept in --cache (JSON lines keyed by the string; delete the
file to rate again). Runs in the venv of the Python peers (scripts/peer_venv.sh), where
`pip install pencilmark==1.0.0rc1` puts it; scripts/score_calibration.py calls it from there.
"""
import argparse
import json
import os
import sys

import pencilmark


def load_cache(path):
    cache = {}
    if os.path.exists(path):
        with open(path) as f:
            for line in f:
                if line.strip():
                    o = json.loads(line)
                    cache[o["puzzle"]] = o
    return cache


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cache", default="/tmp/pencilmark-cache.jsonl")
    ap.add_argument("--max-seconds", type=float, default=60.0)
    a = ap.parse_args()
    cache = load_cache(a.cache)
    with open(a.cache, "a") as store:
        for line in sys.stdin:
            s = line.strip()
            if not s:
                continue
            if s not in cache:
                try:
                    card = pencilmark.rate(s, max_seconds=a.max_seconds)
                    entry = {"puzzle": s, "difficulty": card.get("difficulty"),
                             "band": card.get("band")}
                except Exception as e:  # pencilmark's NotUnique, Undecided, timeouts
                    entry = {"puzzle": s, "difficulty": None, "band": None, "error": str(e)}
                cache[s] = entry
                store.write(json.dumps(entry) + "\n")
                store.flush()
            e = cache[s]
            print(json.dumps({"difficulty": e["difficulty"], "band": e["band"]}), flush=True)


if __name__ == "__main__":
    main()
