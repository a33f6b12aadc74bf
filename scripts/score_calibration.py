#!/usr/bin/env python3
"""Calibrate the grader's score and time estimate (`sudoku-press rate`) in one command.

Usage: scripts/score_calibration.py [--bin target/release/sudoku-press] [--data ../shared/data]
                                    [--folds 5] [--no-killers] [--killer-args "..."] [--ladder FILE]
                                    [--pencilmark-seeds 31,32,33] [--pencilmark-count 60]

    scripts/score_calibration.py            # plain calibration, then the killer one

Plain puzzles (`DATA/rated/`, see its README.md): `se_bank_fit.txt` (Sudoku Explainer ratings)
and `cloud_fit.csv` (Cloud Sudoku mean human solving times). Printed, each beside HoDoKu's figure
from that README:
- Spearman rho of `rate`'s score and level with the SE rating and with the mean time, and Pearson
  r of the log of the estimated minutes (the middle of `minutes`) with the log of the mean time;
  how many mean times fall inside the `minutes` range (the range is the fit's middle half of
  residuals, so about 50% is right);
- the same, cross-validated (k folds), two ways: HARDEST_FACTOR alone chosen again on k-1 folds
  of both sets by the grid search that set it (the other constants as in src/grader/score.rs),
  then HARDEST_FACTOR, HARDEST_LEVEL_CELLS and EARLY_CHAIN_FACTOR all chosen again; the time
  model (MINUTES_FIT, MINUTES_SPREAD) is fitted again by least squares, and both are scored on the
  fold left out. The per-pass numbers come from `explain --format jsonl` (each step's technique,
  rung weight and candidates; the grade's hardest step, steps and level source); the script first
  checks that its copy of the score formula gives `rate`'s scores, so the two cannot drift apart
  unnoticed. The killer-only constants (UNIQUE_FACTOR, OPEN_FACTOR, SIZE_FACTOR, MARKS_FACTOR: the
  plain sets have no cages) are checked on the killer sets below.
- the constants fitted on all of it, to compare with the ones in src/grader/score.rs.

Order inside a level (issue 25 goal 4): `--pencilmark-count` killers of each of medium, hard and
expert are generated per seed of `--pencilmark-seeds` (`generate --level L -n N --seed S`), rated
by pencilmark (scripts/pencilmark_rate.py in the venv output/.venv-peers, made as
scripts/peer_venv.sh makes it, answers cached in `--pencilmark-cache`) and by `rate`; printed per
level and seed: Spearman rho of the score with pencilmark's difficulty and a 95% bootstrap
interval, then pooled over the fit seeds 31 and 32 and over the others (one rho over every puzzle
of the level; target >= 0.5). The default, 5 seeds x 60, gives about 120 a level to fit and 180
held out, each interval about +-0.1 wide. The first run rates about 900 puzzles (0.5-5 s each);
`--pencilmark-seeds ""` skips it.

How the killer-only constants were chosen (grader version 10), on fit data only: OPEN_FACTOR (K),
SIZE_FACTOR (Z) and MARKS_FACTOR (P, the share of the grid left for pencil marks,
src/grader/direct.rs) over the grid K in 3..8, Z in 0..1.5 by 0.25, P in 0.25..1.25 by 0.25: the
highest mean Solo rho over the four fit seeds (fit, fit2, fit4, fit5; 4,800 killers) among the
points that keep pencilmark's rho inside each of medium, hard and expert at 0.60 or more on seeds
31-32 (the goal is 0.5 on the held-out seeds; the intervals are about +-0.1 wide) and KrazyDad at
0.30 or more. Solo's `#held` set and seeds 33-35 were looked at once, after the choice.

Killers: runs scripts/grade_calibration.py (Solo levels fit and held out, KrazyDad book order,
the hardest public killers; needs `sgt-puzzles`: apt-get install sgt-puzzles) with
`--killer-args` (default `--solo-seed fit,fit2,fit4,fit5 --held-out held`), whose targets are
Solo rho >= 0.65 held out, KrazyDad rho >= 0.30, the hardest killers all expert or extreme.

Pure Python 3 (no numpy): Spearman with average ranks, least squares by normal equations.
"""
import argparse
import csv
import tempfile
import json
import math
import os
import random
import shlex
import statistics
import subprocess
import sys

from grade_calibration import bootstrap, pearson, spearman  # one rank correlation for both scripts

LEVELS = ["easy", "medium", "hard", "expert", "extreme"]
# The constants of src/grader/score.rs (the check below fails if they drift).
BAND = 10.0
BAND_EFFORT = 20.0
POWER = 8
HARDEST_FACTOR = 3.75
UNIQUE_FACTOR = 0.4
LOOK_WEIGHT = 1.0
HARDEST_LEVEL_CELLS = 0.5
EARLY_FACTOR = 0.75
EARLY_CHAIN_FACTOR = 2.0
# The grids the plain-side constants are chosen on (UNIQUE_FACTOR, OPEN_FACTOR, SIZE_FACTOR and
# MARKS_FACTOR act on killers only, so the plain sets cannot choose them: they stay as in score.rs).
HARDEST_GRID = [2.0, 2.5, 3.0, 3.25, 3.5, 3.75, 4.0, 4.5, 5.0, 6.0]
CELLS_GRID = [0.25, 0.5, 1.0]
CHAIN_GRID = [0.0, 2.0, 3.0]
# Figures measured with HoDoKu 2.2.0 on the same kinds of sets (DATA/rated/README.md), and targets.
HODOKU = {"se": 0.93, "time": 0.33, "ladder": 0.96}
TARGET = {"se": 0.93, "time": 0.70, "ladder": 0.96}


def least_squares(rows, ys):
    """Coefficients [intercept, b1, ...] of ys ~ rows by the normal equations."""
    xs = [[1.0] + list(r) for r in rows]
    k = len(xs[0])
    m = [[sum(r[i] * r[j] for r in xs) for j in range(k)]
         + [sum(r[i] * y for r, y in zip(xs, ys))] for i in range(k)]
    for c in range(k):
        p = max(range(c, k), key=lambda r: abs(m[r][c]))
        m[c], m[p] = m[p], m[c]
        for r in range(k):
            if r != c and m[c][c]:
                f = m[r][c] / m[c][c]
                m[r] = [a - f * b for a, b in zip(m[r], m[c])]
    return [m[i][k] / m[i][i] for i in range(k)]


def quantile(sorted_xs, q):
    return sorted_xs[int(q * (len(sorted_xs) - 1))]


def run(binary, args, text):
    out = subprocess.run([binary] + args, input=text, capture_output=True, text=True)
    if out.returncode not in (0, 1):
        sys.exit(f"error: {binary} {' '.join(args)} failed: {out.stderr}")
    return out.stdout


def features(binary, text):
    """Per puzzle, from `explain --format jsonl`: the pass totals the score reads."""
    puzzles = []
    for line in run(binary, ["explain", "--format", "jsonl", "--from", "plain", "-"], text).splitlines():
        o = json.loads(line)
        if o["type"] == "grade":
            hardest = o["hardest_step"] or {"step": 1, "level": "easy"}
            puzzles.append({"level": o["level"], "looks": [], "placed": 0, "power": 0.0,
                            "unique": 0, "pass": None,
                            "t": (hardest["step"] - 1) / max(o["steps"], 1),
                            "chain": LEVELS.index(hardest["level"]) >= LEVELS.index("expert"),
                            "from_step": o["level_from"] == "hardest_step" and o["level"] != "easy"})
            continue
        p, w = puzzles[-1], o["weight"]
        here = (o["technique"], o["candidates"])
        if here != p["pass"]:
            p["pass"] = here
            p["power"] += w ** POWER
            if w >= LOOK_WEIGHT:
                p["looks"].append(p["placed"])
        p["unique"] += o["technique"] == "unique_combination"
        p["placed"] += len(o["placements"])
    for p in puzzles:
        # The empty cells each look went over: the path's placements less those made before it.
        p["m"] = math.log1p(sum(p["placed"] - before for before in p["looks"]) / 81.0)
        p["h"] = math.log(p["power"]) / POWER if p["power"] > 0 else 0.0
        p["u"] = math.log1p(p["unique"])
        p["band"] = LEVELS.index(p["level"]) if p["level"] else 0
    return puzzles


def score(p, a=HARDEST_FACTOR, cells=HARDEST_LEVEL_CELLS, chain=EARLY_CHAIN_FACTOR):
    """rate's score of a plain puzzle (src/grader/score.rs; K and Z are 0 without cages)."""
    early = EARLY_FACTOR + (chain if p["chain"] else 0.0)
    effort = ((cells if p["from_step"] else 1.0) * p["m"] + a * p["h"] - UNIQUE_FACTOR * p["u"]
              - early * p["t"])
    effort = max(effort, 0.0)
    return BAND * p["band"] + BAND * (1 - math.exp(-effort / BAND_EFFORT))


def choose(se, se_y, cl, cl_y, grids):
    """The grid point (HARDEST_FACTOR, HARDEST_LEVEL_CELLS, EARLY_CHAIN_FACTOR) that best meets
    both targets on these puzzles."""
    best = None
    for a in grids[0]:
        for c in grids[1]:
            for x in grids[2]:
                r_se = spearman([score(p, a, c, x) for p in se], se_y)
                r_t = spearman([score(p, a, c, x) for p in cl], cl_y)
                key = min(r_se - TARGET["se"], r_t - TARGET["time"])
                if best is None or key > best[0]:
                    best = (key, (a, c, x))
    return best[1]


def time_model(ps, log_t):
    coef = least_squares([[p["m"], p["h"]] for p in ps], log_t)
    fitted = [coef[0] + coef[1] * p["m"] + coef[2] * p["h"] for p in ps]
    resid = sorted(y - f for y, f in zip(log_t, fitted))
    return coef, (quantile(resid, 0.25), quantile(resid, 0.75))


def folds(n, k, seed):
    idx = list(range(n))
    random.Random(seed).shuffle(idx)
    return [set(idx[i::k]) for i in range(k)]


def line(name, value, hodoku=None, target=None):
    extra = "" if hodoku is None else f"   HoDoKu {hodoku:.2f}"
    extra += "" if target is None else f"   target >= {target:.2f}"
    print(f"  {name:58s} {value:6.3f}{extra}")


PENCILMARK = ("pencilmark", "1.0.0rc1")
# The seeds whose pencilmark ratings chose OPEN_FACTOR, SIZE_FACTOR and MARKS_FACTOR.
FIT_SEEDS = {31, 32}
PENCILMARK_LEVELS = ["medium", "hard", "expert"]
# Where pencilmark's answers are kept (scripts/pencilmark_rate.py), for this script and settheory.py.
PENCILMARK_CACHE = "/tmp/pencilmark-cache.jsonl"


def pencilmark_python(root):
    """The venv's Python with pencilmark installed (made and filled as scripts/peer_venv.sh does)."""
    venv = os.path.join(root, "output", ".venv-peers")
    python = os.path.join(venv, "bin", "python")
    if not os.path.exists(python):
        print(f"  creating {venv}", file=sys.stderr)
        subprocess.run([sys.executable, "-m", "venv", venv], check=True)
    have = subprocess.run([python, "-c", "import pencilmark; print(pencilmark.__version__)"],
                          capture_output=True, text=True).stdout.strip()
    if have != PENCILMARK[1]:
        print(f"  installing {PENCILMARK[0]}=={PENCILMARK[1]} into {venv}", file=sys.stderr)
        subprocess.run([python, "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
                        f"{PENCILMARK[0]}=={PENCILMARK[1]}"], check=True)
    return python


def level_order(binary, seeds, count, cache, max_seconds=60.0, threads=None):
    """Issue 25 goal 4's sample: `count` generated 9x9 killers of each of medium, hard and expert
    per seed (`generate --level L -n COUNT --seed S`), rated by `rate` and by pencilmark. Returns
    {level: [(seed, [(score, difficulty), ...]), ...]}, keeping the puzzles `rate` puts on the
    level asked for and pencilmark finishes. The one implementation: settheory.py's goal 4 calls
    it too."""
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    python = pencilmark_python(root)
    rater = [python, os.path.join(root, "scripts", "pencilmark_rate.py"), "--cache", cache,
             "--max-seconds", str(max_seconds)]
    jobs = [] if threads is None else ["--threads", str(threads)]
    found = {level: [] for level in PENCILMARK_LEVELS}
    with tempfile.TemporaryDirectory() as tmp:
        for seed in seeds:
            for level in PENCILMARK_LEVELS:
                db = os.path.join(tmp, f"{level}-{seed}.db")
                run(binary, ["generate", "--level", level, "-n", str(count), "--seed", str(seed),
                             "--db", db] + jobs, "")
                puzzles = run(binary, ["export", "--db", db, "--format", "jsonl"], "")
                wiki = run(binary, ["export", "--db", db, "--format", "sudokuwiki"], "")
                ours = [json.loads(l) for l in run(binary, ["rate", "-"], puzzles).splitlines()]
                out = subprocess.run(rater, input=wiki, capture_output=True, text=True)
                if out.returncode != 0:
                    sys.exit(f"error: scripts/pencilmark_rate.py failed: {out.stderr}")
                theirs = [json.loads(l)["difficulty"] for l in out.stdout.splitlines()]
                pairs = [(r["score"], d) for r, d in zip(ours, theirs)
                         if d is not None and r["level"] == level]
                found[level].append((seed, pairs))
    return found


def print_level_order(found):
    """rho(score, pencilmark) inside each level: per seed, then pooled over the fit seeds
    (FIT_SEEDS) and over the others, which the score was not fitted on."""
    for level in PENCILMARK_LEVELS:
        pooled = {"fit": [], "held out": []}
        for seed, pairs in found[level]:
            xs, ys = [p[0] for p in pairs], [p[1] for p in pairs]
            lo, hi = bootstrap(xs, ys)
            print(f"  {level:7s} seed {seed}: n {len(pairs):3d}  rho {spearman(xs, ys):+.3f}  "
                  f"[{lo:+.2f}, {hi:+.2f}]  pencilmark median {statistics.median(ys):.1f}")
            pooled["fit" if int(seed) in FIT_SEEDS else "held out"] += pairs
        for name, pairs in pooled.items():
            if not pairs:
                continue
            xs, ys = [p[0] for p in pairs], [p[1] for p in pairs]
            lo, hi = bootstrap(xs, ys)
            print(f"  {level:7s} pooled, {name:8s}: n {len(pairs):3d}  rho {spearman(xs, ys):+.3f}  "
                  f"[{lo:+.2f}, {hi:+.2f}]   target >= 0.50", flush=True)


def ladder_check(binary, path):
    """Spearman rho of `rate`'s score and level with a publisher's level ladder: FILE holds
    `PUZZLE LEVEL` a line (81 characters, 0 or . for an empty cell; LEVEL the publisher's level as
    a number, higher = harder, e.g. sudoku.coach's 1-11 or KrazyDad's 1-7)."""
    rows = []
    for number, text in enumerate(open(path), 1):
        if not text.strip() or text.startswith("#"):
            continue
        parts = text.split()
        try:
            rows.append((parts[0], float(parts[1])))
        except (IndexError, ValueError):
            sys.exit(f"error: {path} line {number}: expected `PUZZLE LEVEL` (81 characters, then the "
                     f"publisher's level as a number), found {text.strip()!r}")
    if len(rows) < 3:
        sys.exit(f"error: {path}: a ladder needs at least 3 puzzles, found {len(rows)}")
    rated = [json.loads(l) for l in
             run(binary, ["rate", "--from", "plain", "-"], "".join(p + "\n" for p, _ in rows)).splitlines()]
    if len(rated) != len(rows):
        sys.exit(f"error: {path}: rate answered {len(rated)} lines for {len(rows)} puzzles")
    ys = [y for _, y in rows]
    name = os.path.basename(path)
    print(f" publisher's ladder {name} ({len(rows)} puzzles, {len(set(ys))} levels):")
    line(f"rho(score, {name} level)", spearman([r["score"] for r in rated], ys), HODOKU["ladder"], TARGET["ladder"])
    line(f"rho(level, {name} level)", spearman([LEVELS.index(r["level"]) if r["level"] else 5 for r in rated], ys))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", default="target/release/sudoku-press")
    ap.add_argument("--data", default="../shared/data")
    ap.add_argument("--folds", type=int, default=5)
    ap.add_argument("--seed", type=int, default=1, help="seed of the fold split")
    ap.add_argument("--no-killers", action="store_true")
    ap.add_argument("--ladder", action="append", default=[], metavar="FILE",
                    help="a publisher's level ladder, `PUZZLE LEVEL` a line (repeatable)")
    ap.add_argument("--killer-args", default="--solo-seed fit,fit2,fit4,fit5 --held-out held")
    ap.add_argument("--pencilmark-seeds", default="31,32,33,34,35",
                    help="generate seeds of the order-inside-a-level check (\"\" skips it)")
    ap.add_argument("--pencilmark-count", type=int, default=60, help="puzzles per level and seed")
    ap.add_argument("--pencilmark-cache", default=PENCILMARK_CACHE)
    a = ap.parse_args()

    rated = os.path.join(a.data, "rated")
    for name in ("se_bank_fit.txt", "cloud_fit.csv"):
        if not os.path.isfile(os.path.join(rated, name)):
            sys.exit(f"error: {os.path.join(rated, name)} not found: --data must be the shared data "
                     "folder (../shared/data beside the repository), which holds rated/")
    se_rows = [l.split() for l in open(os.path.join(rated, "se_bank_fit.txt")) if l.strip()]
    se_text = "".join(r[0] + "\n" for r in se_rows)
    se_y = [float(r[1]) for r in se_rows]
    cl_rows = list(csv.DictReader(open(os.path.join(rated, "cloud_fit.csv"))))
    cl_text = "".join(r["puzzle"] + "\n" for r in cl_rows)
    cl_t = [float(r["avg_time_s"]) for r in cl_rows]
    cl_log = [math.log(t) for t in cl_t]

    se_rate = [json.loads(l) for l in run(a.bin, ["rate", "--from", "plain", "-"], se_text).splitlines()]
    cl_rate = [json.loads(l) for l in run(a.bin, ["rate", "--from", "plain", "-"], cl_text).splitlines()]
    lvl = lambda r: LEVELS.index(r["level"]) if r["level"] else 5
    mid = lambda r: math.log(60 * (r["minutes"][0] + r["minutes"][1]) / 2)
    print(f"Plain 9x9: {len(se_rate)} Sudoku Explainer-rated puzzles, {len(cl_rate)} Cloud Sudoku times")
    print(" as rated (constants fitted on these same files):")
    line("rho(score, SE rating)", spearman([r["score"] for r in se_rate], se_y), HODOKU["se"], TARGET["se"])
    line("rho(level, SE rating)", spearman([lvl(r) for r in se_rate], se_y))
    line("rho(score, mean time)", spearman([r["score"] for r in cl_rate], cl_t), HODOKU["time"], TARGET["time"])
    line("rho(level, mean time)", spearman([lvl(r) for r in cl_rate], cl_t))
    line("Pearson(log minutes, log mean time)", pearson([mid(r) for r in cl_rate], cl_log))
    inside = sum(r["minutes"][0] * 60 <= t <= r["minutes"][1] * 60 for r, t in zip(cl_rate, cl_t))
    line("share of mean times inside `minutes` (aim 0.5, whole minutes)", inside / len(cl_t))

    se = features(a.bin, se_text)
    cl = features(a.bin, cl_text)
    drift = max(abs(score(p) - r["score"]) for p, r in zip(se + cl, se_rate + cl_rate))
    if drift > 0.006:
        sys.exit(f"error: this script's score formula differs from rate's by up to {drift:.3f}: "
                 "make it match src/grader/score.rs")

    k = a.folds
    se_f, cl_f = folds(len(se), k, a.seed), folds(len(cl), k, a.seed)
    protocols = [("HARDEST_FACTOR chosen per fold, the other constants as in score.rs",
                  [HARDEST_GRID, [HARDEST_LEVEL_CELLS], [EARLY_CHAIN_FACTOR]]),
                 ("HARDEST_FACTOR, HARDEST_LEVEL_CELLS and EARLY_CHAIN_FACTOR chosen per fold",
                  [HARDEST_GRID, CELLS_GRID, CHAIN_GRID])]
    for name, grids in protocols:
        per_fold, chosen, cl_mid, cl_in = [], [], [0.0] * len(cl), 0
        for i in range(k):
            tr = lambda xs, f: [x for j, x in enumerate(xs) if j not in f]
            te = lambda xs, f: [x for j, x in enumerate(xs) if j in f]
            c = choose(tr(se, se_f[i]), tr(se_y, se_f[i]), tr(cl, cl_f[i]), tr(cl_t, cl_f[i]), grids)
            coef, (lo, hi) = time_model(tr(cl, cl_f[i]), tr(cl_log, cl_f[i]))
            chosen.append(c)
            per_fold.append((spearman([score(p, *c) for p in te(se, se_f[i])], te(se_y, se_f[i])),
                             spearman([score(p, *c) for p in te(cl, cl_f[i])], te(cl_t, cl_f[i]))))
            for j in cl_f[i]:
                cl_mid[j] = coef[0] + coef[1] * cl[j]["m"] + coef[2] * cl[j]["h"]
                cl_in += cl_mid[j] + lo <= cl_log[j] <= cl_mid[j] + hi
        print(f" cross-validated ({k} folds; rho: mean over the folds left out; {name}, on the "
              f"plain sets alone: {chosen}):")
        line("rho(score, SE rating)", statistics.mean(f[0] for f in per_fold), HODOKU["se"], TARGET["se"])
        line("rho(score, mean time)", statistics.mean(f[1] for f in per_fold), HODOKU["time"], TARGET["time"])
        line("Pearson(log estimated time, log mean time)", pearson(cl_mid, cl_log))
        line("share of mean times inside the range", cl_in / len(cl))
    best = choose(se, se_y, cl, cl_t, protocols[1][1])
    coef, (lo, hi) = time_model(cl, cl_log)
    print(" fitted on all the plain puzzles (compare src/grader/score.rs, whose constants were also")
    print(" weighed against the killer sets below):")
    print(f"  HARDEST_FACTOR, HARDEST_LEVEL_CELLS, EARLY_CHAIN_FACTOR {best}; MINUTES_FIT "
          f"[{coef[0]:.4f}, {coef[1]:.4f}, {coef[2]:.4f}], MINUTES_SPREAD [{lo:.3f}, {hi:.3f}]")
    line(f"  with {best}: rho(score, SE rating)", spearman([score(p, *best) for p in se], se_y))
    line(f"  with {best}: rho(score, mean time)", spearman([score(p, *best) for p in cl], cl_t))
    if not a.ladder:
        print("  publishers' ladders (sudoku.coach, KrazyDad plain; HoDoKu 0.96, target >= 0.96) are "
              "not in DATA: not checked here (pass them with --ladder FILE)")
    for path in a.ladder:
        ladder_check(a.bin, path)

    if a.no_killers:
        return
    seeds = [x for x in a.pencilmark_seeds.split(",") if x.strip()]
    if seeds:
        print(f"\nOrder inside a level: {a.pencilmark_count} generated 9x9 killers per level and seed, "
              f"score vs pencilmark {PENCILMARK[1]} difficulty (Spearman rho, 95% bootstrap "
              f"interval; target >= 0.50 in each level; fitted on seeds {sorted(FIT_SEEDS)})", flush=True)
        print_level_order(level_order(a.bin, seeds, a.pencilmark_count, a.pencilmark_cache))
    print("\nKillers (scripts/grade_calibration.py " + a.killer_args + "):", flush=True)
    here = os.path.dirname(os.path.abspath(__file__))
    cmd = [sys.executable, os.path.join(here, "grade_calibration.py"), "--bin", a.bin,
           "--data", a.data] + shlex.split(a.killer_args)
    sys.exit(subprocess.run(cmd).returncode)


if __name__ == "__main__":
    main()
