#!/usr/bin/env python3
"""Calibrate the human-style grader (`sudoku-press rate`) against labelled killers.

Usage: scripts/grade_calibration.py [--bin target/release/sudoku-press] [--data ../shared/data]
                                    [--solo extra_solo.jsonl ...]

Prints, for Solo's levels (the shared 160 plus any extra files made with
`sgt-solo --generate N 3x3kdX | scripts/solo_to_jsonl.py`): score medians per Solo level, the
Spearman rho between score and Solo level, the level confusion table and trial counts; for
KrazyDad volume 1: rho between score and book, levels, trial count; for the hard killers: levels.
"""
import argparse
import collections
import json
import statistics
import subprocess
import sys
import time

SOLO_ORDER = {"b": 0, "i": 1, "a": 2, "e": 3, "u": 4}
LEVELS = ["easy", "medium", "hard", "expert", "extreme"]


def ranks(xs):
    order = sorted(range(len(xs)), key=lambda i: xs[i])
    r = [0.0] * len(xs)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and xs[order[j + 1]] == xs[order[i]]:
            j += 1
        for k in range(i, j + 1):
            r[order[k]] = (i + j) / 2 + 1
        i = j + 1
    return r


def spearman(xs, ys):
    rx, ry = ranks(xs), ranks(ys)
    mx, my = statistics.mean(rx), statistics.mean(ry)
    num = sum((a - mx) * (b - my) for a, b in zip(rx, ry))
    den = (sum((a - mx) ** 2 for a in rx) * sum((b - my) ** 2 for b in ry)) ** 0.5
    return num / den if den else float("nan")


def rate(binary, lines):
    start = time.time()
    out = subprocess.run([binary, "rate", "--threads", "1", "-"], input="".join(lines),
                         capture_output=True, text=True)
    took = time.time() - start
    if out.returncode not in (0, 1):
        sys.exit(out.stderr)
    return [json.loads(l) for l in out.stdout.splitlines()], took


def load(path):
    with open(path) as f:
        return [l for l in f if l.strip()]


def table(rows, key):
    counts = collections.Counter((key(r), r["level"]) for r in rows)
    keys = sorted({key(r) for r in rows}, key=str)
    print("  " + "label".ljust(10) + "".join(l.rjust(9) for l in LEVELS + ["none"]))
    for k in keys:
        cells = [counts.get((k, l), 0) for l in LEVELS] + [counts.get((k, None), 0)]
        print("  " + str(k).ljust(10) + "".join(str(c).rjust(9) for c in cells))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", default="target/release/sudoku-press")
    ap.add_argument("--data", default="../shared/data")
    ap.add_argument("--solo", nargs="*", default=[])
    a = ap.parse_args()

    lines = load(f"{a.data}/killer/solo_levels.jsonl")
    for extra in a.solo:
        lines += load(extra)
    labels = [json.loads(l)["level"] for l in lines]
    rows, took = rate(a.bin, lines)
    for r, lab in zip(rows, labels):
        r["solo"] = lab[-1]
    print(f"Solo killers: {len(rows)} graded in {took:.2f} s ({len(rows) / took:.0f}/s incl. start)")
    by = collections.defaultdict(list)
    for r in rows:
        by[r["solo"]].append(r["score"])
    for k in sorted(by, key=SOLO_ORDER.get):
        xs = by[k]
        print(f"  {k}: n={len(xs)} median={statistics.median(xs):.2f} "
              f"p10={sorted(xs)[len(xs) // 10]:.2f} p90={sorted(xs)[len(xs) * 9 // 10]:.2f} "
              f"trial={sum(r['trial'] for r in rows if r['solo'] == k)}")
    print(f"  spearman(score, solo level) = {spearman([r['score'] for r in rows], [SOLO_ORDER[r['solo']] for r in rows]):.3f}")
    lvl = {l: i for i, l in enumerate(LEVELS)}
    print(f"  spearman(level, solo level) = {spearman([lvl.get(r['level'], 9) for r in rows], [SOLO_ORDER[r['solo']] for r in rows]):.3f}")
    table(rows, lambda r: r["solo"])

    kd = load(f"{a.data}/killer/krazydad_vol1.jsonl")
    books = [json.loads(l)["book"] for l in kd]
    rows, took = rate(a.bin, kd)
    print(f"KrazyDad vol 1: {len(rows)} graded in {took:.2f} s ({len(rows) / took:.0f}/s incl. start)")
    print(f"  spearman(score, book) = {spearman([r['score'] for r in rows], books):.3f}")
    print(f"  trial: {sum(r['trial'] for r in rows)}")
    for r, b in zip(rows, books):
        r["quint"] = f"books{(b - 1) // 20 * 20 + 1}+"
    table(rows, lambda r: r["quint"])

    hard = load(f"{a.data}/killer/hard_killers.jsonl")
    rows, took = rate(a.bin, hard)
    print(f"hard killers: {len(rows)} in {took:.2f} s: " + ", ".join(
        f"{r.get('id', '?')}={r['level']}({r['score']:.2f})" for r in rows))
    hist = collections.Counter()
    for r in rows:
        hist.update(r["techniques"].keys())
    print("  techniques used:", dict(hist))


if __name__ == "__main__":
    main()
