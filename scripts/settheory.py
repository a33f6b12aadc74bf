"""Issue 25's measurements in one run (goals 2-4), printed as Markdown:

2. the hardest published killers (tarek_odd, the Wecoc puzzles of hard_killers) graded by
   `sudoku-press rate`: trial, forcing chains and which set-theory rungs fired, per puzzle;
3. `generate --level extreme` on 2 threads for each of --extreme-seeds (and --base's binary
   beside): puzzles a minute, CPU an extreme, pencilmark's card of the first --rate of each
   (one at a time, CPU-limited, cached; --tarek N rates tarek_odd's first N beside), the median
   over those it finished and the band histogram, and cage statistics beside tarek's. pencilmark's
   band "Unknown" means its solve ran out of steps (no technique and no forcing or
   proof-by-search step from its engine), not its time limit;
4. `generate --level medium/hard/expert`: Spearman rho between our score and pencilmark's
   difficulty inside each level.

Run through settheory.sh (which makes the venv with pencilmark pinned)."""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from itertools import combinations
from pathlib import Path

from grade_calibration import spearman  # one rank correlation for every calibration script

sys.path.insert(0, str(Path(__file__).resolve().parent))
from peer_common import default_data, houses, load  # noqa: E402

NEW_RUNGS = ("combination_blocking", "cage_interaction", "killer_forcing_chain",
             "nested_killer_forcing_chain")


def rate(binary: str, path: Path) -> list[dict]:
    """Our grades of a puzzle file, one dict a puzzle."""
    out = subprocess.run(
        [binary, "rate", "-j1", str(path)], check=True, capture_output=True, text=True
    ).stdout
    return [json.loads(line) for line in out.splitlines() if line.strip()]


def goal2(binary: str, data: Path) -> None:
    print("## Goal 2: published hard killers without trial\n")
    print(f"load {load()}\n")
    sets = [("tarek_odd", None), ("hard_killers", "Wecoc")]
    fired: dict[str, int] = {}
    for name, prefix in sets:
        path = data / "killer" / f"{name}.jsonl"
        if not path.is_file():
            print(f"skipping: {path} absent\n")
            continue
        before = os.times()
        t0 = time.time()
        grades = rate(binary, path)
        wall = time.time() - t0
        after = os.times()
        cpu = (after.children_user - before.children_user) + (after.children_system
                                                              - before.children_system)
        grades = [g for g in grades if prefix is None or g["id"].startswith(prefix)]
        print(f"### {name}{' (' + prefix + ')' if prefix else ''}: {len(grades)} puzzles, "
              f"rate -j1 of the whole file {wall:.1f} s wall, {cpu:.2f} s CPU\n")
        print("| id | level | score | trial steps | forcing chains | " + " | ".join(NEW_RUNGS) + " |")
        print("|---|---|---|---|---|" + "---|" * len(NEW_RUNGS))
        clean = free = 0
        for g in grades:
            t = g.get("techniques", {})
            for k, v in t.items():
                fired[k] = fired.get(k, 0) + v
            trial, chains = t.get("trial", 0), t.get("forcing_chain", 0)
            clean += trial == 0
            free += trial == 0 and chains == 0 and not any(
                t.get(k, 0) for k in ("killer_forcing_chain", "nested_killer_forcing_chain"))
            row = [g["id"], g.get("level"), g.get("score"), trial, chains]
            row += [t.get(k, 0) for k in NEW_RUNGS]
            print("| " + " | ".join(str(x) for x in row) + " |")
        print(f"\nwithout trial: **{clean}/{len(grades)}**; without trial and forcing chains (plain "
              f"or killer): "
              f"{free}/{len(grades)}\n")
    print("Steps per set-theory rung over these puzzles: "
          + ", ".join(f"{k} {fired.get(k, 0)}" for k in
                      ("multi_house_innie_outie", "sum_algebra") + NEW_RUNGS) + "\n")


def combos_count(size: int, total: int, n: int = 9) -> int:
    return sum(1 for c in combinations(range(1, n + 1), size) if sum(c) == total)


STAT_COLUMNS = ("cages", "largest cage", "pairs", "five-cell cages", "single-combination cages",
                "combinations a cage", "one-cell rule-of-45 houses", "cages crossing boxes",
                "innie/outie cells a house")


def cage_stats(puzzle: dict) -> tuple[float, ...]:
    """One puzzle's layout, in STAT_COLUMNS order: cages, largest cage, two-cell cages,
    five-cell cages, single-combination cages, mean digit combinations of a cage's sum, houses whose rule of 45
    isolates one cell (one innie or one outie), cages crossing boxes, and the innie/outie cells of
    a house (the fewer of the two, averaged over the houses)."""
    n = puzzle["size"]
    hs = houses(puzzle, puzzle.get("id", "?"))
    boxes = hs[2 * n:]
    box_of = {c: b for b, cells in enumerate(boxes) for c in cells}
    cages = [set(c["cells"]) for c in puzzle["cages"]]
    combos = [combos_count(len(c["cells"]), c["sum"], n) for c in puzzle["cages"]]
    crossing = sum(1 for c in cages if len({box_of[x] for x in c}) > 1)
    one_cell, io = 0, []
    for h in hs:
        hs_set = set(h)
        inside = set().union(*[c for c in cages if c <= hs_set])
        touching = set().union(*[c for c in cages if c & hs_set])
        innies, outies = hs_set - inside, touching - hs_set
        # A single innie (whole cages leave one cell) or a single outie (one cell sticks out).
        one_cell += len(innies) == 1 or len(outies) == 1
        io.append(min(len(innies), len(outies)))
    return (len(cages), max(len(c) for c in cages), sum(len(c) == 2 for c in cages),
            sum(len(c) == 5 for c in cages), sum(x == 1 for x in combos), statistics.fmean(combos), one_cell, crossing,
            statistics.fmean(io))


def print_cage_stats(rows: list[tuple[str, list[dict]]]) -> None:
    """Per-puzzle means of `cage_stats`, one table row a set."""
    print("| set | n | " + " | ".join(STAT_COLUMNS) + " |")
    print("|---|---|" + "---|" * len(STAT_COLUMNS))
    for name, ps in rows:
        if ps:
            stats = [cage_stats(p) for p in ps]
            means = [statistics.fmean(s[i] for s in stats) for i in range(len(STAT_COLUMNS))]
            print(f"| {name} | {len(ps)} | " + " | ".join(f"{m:.2f}" for m in means) + " |")
    print()


def pencilmark_doc(p: dict) -> dict:
    n = p["size"]
    br, bc = p.get("box_rows", 3), p.get("box_cols", 3)

    def rc(i: int) -> str:
        return f"r{i // n + 1}c{i % n + 1}"

    rules = [{"type": "box_grid", "origin": "r1c1", "box": [br, bc]}]
    rules += [{"type": "cage", "sum": c["sum"], "cells": [rc(i) for i in c["cells"]]}
              for c in p["cages"]]
    return {"format": "sudoku-puzzle", "format_version": 1, "meta": {"type": "Killer Sudoku"},
            "board": {"rows": n, "cols": n}, "digits": n, "givens": p["givens"], "rules": rules}


def pencilmark_rate(p: dict, seconds: float | None, known_unique: bool) -> dict:
    """pencilmark's card of one puzzle, as a dict: band, difficulty, stopped_at_step (where its
    solve ran out of steps: None when it finished), engine_search (does its own exhaustive search,
    2M nodes, solve the puzzle; without that it has no proof-by-search step to fall back on),
    cpu and wall seconds, or error (NotUnique, Undecided, ...) with band and difficulty None.

    `seconds` is pencilmark's max_seconds: it only stops the shrinking of the technique list
    (contains_truncated); its solve route, band and difficulty do not depend on it. With
    `known_unique`, pencilmark's two uniqueness searches (its engine's, then CP-SAT, before
    rating and again inside the card) are given the puzzle's solution instead: every generated
    puzzle is proved unique by our solver, pencilmark's reading of the puzzle is checked to
    accept that solution, and the rest of the rating is pencilmark's own, unchanged."""
    import pencilmark  # the venv's
    from pencilmark import api, cbackend, cpsat_verify

    doc = pencilmark_doc(p)
    before, t0 = time.process_time(), time.time()
    out: dict = {"band": None, "difficulty": None, "stopped_at_step": None}
    saved = cpsat_verify.decide, cpsat_verify.solutions
    try:
        engine = cbackend.brute_solve(api.load(doc), limit=1)
        out["engine_search"] = bool(engine) and bool(engine.complete)
        if known_unique:
            solution = [int(x) for x in p["solution"]]
            whole = cbackend.brute_solve(api.load(dict(doc, givens=solution)), limit=2)
            if len(whole) != 1:
                raise ValueError("pencilmark's reading of the puzzle rejects our solution")
            cpsat_verify.decide = lambda *_a, **_k: ([list(solution)], True)
            cpsat_verify.solutions = lambda *_a, **_k: [list(solution)]
        card = pencilmark.rate(doc, max_seconds=seconds,
                               fields=["difficulty", "band", "contains"])
        out.update(band=card["band"], difficulty=card["difficulty"],
                   stopped_at_step=card.get("stopped_at_step"),
                   hardest=max(card["contains"], key=lambda c: c["band"])["code"]
                   if card["contains"] else None)
    except Exception as err:  # NotUnique, Undecided: reported, not counted
        out["error"] = f"{type(err).__name__}: {err}"
    finally:
        cpsat_verify.decide, cpsat_verify.solutions = saved
    out["cpu"] = round(time.process_time() - before, 1)
    out["wall"] = round(time.time() - t0, 1)
    return out


def generate(binary: str, level: str, count: int, seed: int, threads: int,
             tmp: Path) -> tuple[list[dict], float]:
    puzzles, wall, _ = generate_timed(binary, level, count, seed, threads, tmp)
    return puzzles, wall


def generate_timed(binary: str, level: str, count: int, seed: int, threads: int,
                   tmp: Path) -> tuple[list[dict], float, float]:
    """`generate --level LEVEL` into a fresh database: its puzzles, wall and CPU seconds."""
    db = tmp / f"{level}-{seed}-{Path(binary).name}.db"
    db.unlink(missing_ok=True)
    before = os.times()
    t0 = time.time()
    subprocess.run([binary, "generate", "--level", level, "-n", str(count), "--seed",
                    str(seed), "-j", str(threads), "--db", str(db)],
                   check=True, capture_output=True, text=True)
    wall = time.time() - t0
    after = os.times()
    cpu = (after.children_user - before.children_user) + (after.children_system
                                                          - before.children_system)
    out = subprocess.run([binary, "export", "--db", str(db), "--format", "jsonl"],
                         check=True, capture_output=True, text=True).stdout
    return [json.loads(line) for line in out.splitlines() if line.strip()], wall, cpu


BANDS = ("Very Easy", "Easy", "Medium", "Hard", "Very Hard", "Extreme")


def pencilmark_child(p: dict, seconds: float | None, known_unique: bool, cpu_limit: int,
                     conn) -> None:
    """`pencilmark_rate` in a child process held to `cpu_limit` CPU seconds (RLIMIT_CPU):
    pencilmark takes 2-4 CPU minutes on most shaped extremes, but far longer on some."""
    import resource

    if cpu_limit:
        resource.setrlimit(resource.RLIMIT_CPU, (cpu_limit, cpu_limit + 5))
    conn.send(pencilmark_rate(p, seconds, known_unique))


def pencilmark_limited(p: dict, seconds: float | None, known_unique: bool,
                       cpu_limit: int) -> dict:
    """`pencilmark_rate` within `cpu_limit` CPU seconds (0: none); past it, an entry whose error
    says so."""
    import multiprocessing

    ctx = multiprocessing.get_context("fork")
    parent, child = ctx.Pipe(duplex=False)
    before = os.times()
    proc = ctx.Process(target=pencilmark_child, args=(p, seconds, known_unique, cpu_limit, child))
    proc.start()
    child.close()
    try:
        out = parent.recv()
    except EOFError:
        out = {"band": None, "difficulty": None, "stopped_at_step": None,
               "error": f"CpuLimit: no card within {cpu_limit} s of CPU"}
    proc.join()
    after = os.times()
    out.setdefault("cpu", round(after.children_user - before.children_user
                                + after.children_system - before.children_system, 1))
    return out


def pencilmark_cached(p: dict, seconds: float | None, cache: Path, known_unique: bool,
                      cpu_limit: int) -> dict:
    """`pencilmark_limited`, remembered in `cache` (JSON lines keyed by the puzzle's cages): 2-4
    CPU minutes a shaped extreme, so a rerun rates only new puzzles. An entry without a number
    is rated again when it comes from a run before the CPU limit (those without OR-Tools were
    mostly pencilmark's "Undecided") or was cut by a smaller limit than `cpu_limit` (0: none)."""
    key = json.dumps([p["size"], p["givens"], sorted((c["sum"], c["cells"]) for c in p["cages"])])
    known = {}
    if cache.is_file():
        for line in cache.open():
            if line.strip():
                entry = json.loads(line)
                known[entry["key"]] = entry
    entry = known.get(key)
    cut = entry is not None and entry.get("difficulty") is None and (
        "cpu_limit" not in entry or str(entry.get("error", "")).startswith("CpuLimit") and (
            cpu_limit == 0 or 0 < entry["cpu_limit"] < cpu_limit))
    if entry is None or cut:
        entry = dict(pencilmark_limited(p, seconds, known_unique, cpu_limit), key=key,
                     seconds=seconds, known_unique=known_unique, cpu_limit=cpu_limit)
        with cache.open("a") as out:
            out.write(json.dumps(entry) + "\n")
    return entry


def pencilmark_table(puzzles: list[dict], grades: list[dict], rated: int, seconds: float | None,
                     cache: Path, known_unique: bool, cpu_limit: int) -> None:
    """One row a puzzle (our grade beside pencilmark's card of the first `rated`), then the
    median of pencilmark's difficulty over its finished ratings and over all, and its bands."""
    print("| # | our level | our score | hardest step | trial steps | pencilmark band | "
          "difficulty | stopped at step | its search solves it | CPU s |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    finished, every, bands = [], [], {}
    for i, (p, g) in enumerate(zip(puzzles, grades)):
        trial = g.get("techniques", {}).get("trial", 0)
        row = [p.get("id", i), g.get("level"), g.get("score"), g.get("hardest"), trial]
        if i < rated:
            e = pencilmark_cached(p, seconds, cache, known_unique, cpu_limit)
            band = e.get("band") or e.get("error", "error").split(":")[0]
            bands[band] = bands.get(band, 0) + 1
            if e.get("difficulty") is not None:
                every.append(e["difficulty"])
                if e.get("band") not in (None, "Unknown"):
                    finished.append(e["difficulty"])
            row += [band, e.get("difficulty"), e.get("stopped_at_step", "-"),
                    e.get("engine_search", "-"), e.get("cpu", "-")]
        else:
            row += ["-"] * 5
        print("| " + " | ".join("-" if x is None else str(x) for x in row) + " |")

    def median(xs: list[float]) -> str:
        return f"{statistics.median(xs):.1f}" if xs else "-"

    histogram = ", ".join(f"{b} {bands[b]}" for b in BANDS + tuple(
        sorted(set(bands) - set(BANDS))) if b in bands)
    print(f"\npencilmark difficulty median **{median(finished)}** over the {len(finished)} it "
          f"finished (band Very Easy..Extreme), {median(every)} over all {len(every)} with a "
          f"number; rated {min(rated, len(puzzles))} of {len(puzzles)}; bands: {histogram}\n")


def goal3(binary: str, data: Path, count: int, seeds: list[int], seconds: float | None,
          tmp: Path, base: str | None, cache: Path, rated: int, tarek: int,
          known_unique: bool, cpu_limit: int) -> None:
    """`generate --level extreme` on 2 threads per seed (and --base's binary beside): speed, our
    grades, pencilmark's cards of the first `rated` (cached), and of the first `tarek` of
    tarek_odd as the reference; cage statistics beside tarek's."""
    print("## Goal 3: extreme on demand\n")
    print(f"pencilmark max_seconds {seconds}; uniqueness "
          f"{'given by our solution (--known-unique)' if known_unique else 'its own search'}; "
          f"CPU limit a puzzle {cpu_limit or 'none'} s; cache `{cache}`\n")
    builds = [("new", binary)] + ([("base", base)] if base else [])
    rows = []
    for name, build in builds:
        for seed in seeds:
            print(f"### {name} build `{build}`, seed {seed}\n")
            print(f"load {load()}\n")
            puzzles, wall, cpu = generate_timed(build, "extreme", count, seed, 2, tmp)
            made = max(len(puzzles), 1)
            print(f"`generate --level extreme -n {count} --seed {seed} -j 2`: {len(puzzles)} "
                  f"puzzles, {wall:.1f} s wall = **{60 * len(puzzles) / max(wall, 1e-9):.0f} a "
                  f"minute**, {cpu:.2f} s CPU = {1000 * cpu / made:.0f} ms CPU an extreme\n")
            grades = rate_lines(build, puzzles, tmp)
            pencilmark_table(puzzles, grades, rated, seconds, cache, known_unique, cpu_limit)
            gated = sum(1 for g in grades if g.get("techniques", {}).get("trial", 0))
            print(f"trial in our grader: {gated} of {len(grades)} (a shaped extreme without it "
                  f"is the hardest above expert its item met: no layout needed trial)\n")
            rows.append((f"{name} extreme, seed {seed}", puzzles))
    tarek_path = data / "killer" / "tarek_odd.jsonl"
    if tarek_path.is_file():
        published = [json.loads(x) for x in tarek_path.open() if x.strip()]
        if tarek:
            print(f"### tarek_odd, the reference (first {tarek})\n")
            print(f"load {load()}\n")
            pencilmark_table(published, rate(binary, tarek_path), tarek, seconds, cache,
                             known_unique, cpu_limit)
        rows.append(("tarek_odd", published))
    print("Cage statistics, per puzzle:\n")
    print_cage_stats(rows)


def rate_lines(binary: str, puzzles: list[dict], tmp: Path) -> list[dict]:
    path = tmp / "rate-input.jsonl"
    path.write_text("".join(json.dumps(p) + "\n" for p in puzzles))
    return rate(binary, path)


def goal4(binary: str, count: int, seed: int, seconds: float) -> None:
    """The sample and the rho of score_calibration.py's check (one implementation), as Markdown.
    Seeds 31 and 32 chose the score's killer constants (score_calibration.FIT_SEEDS): a seed of
    33 or more gives a held-out figure."""
    from score_calibration import FIT_SEEDS, PENCILMARK_CACHE, level_order

    print("## Goal 4: order inside a level\n")
    print(f"load {load()}; seed {seed}{' (a fit seed)' if seed in FIT_SEEDS else ' (held out)'}\n")
    print("| level | n | rho(score, pencilmark difficulty) |")
    print("|---|---|---|")
    found = level_order(binary, [seed], count, PENCILMARK_CACHE, seconds, threads=2)
    for level, runs in found.items():
        pairs = [pair for _, ps in runs for pair in ps]
        rho = spearman([p[0] for p in pairs], [p[1] for p in pairs])
        print(f"| {level} | {len(pairs)} | {rho:.2f} |")
    print()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bin", default="target/release/sudoku-press")
    ap.add_argument("--goals", default="2,3,4", help="which goals to measure, e.g. 2 or 3,4")
    ap.add_argument("--extreme", type=int, default=20, help="extreme items a seed (goal 3)")
    ap.add_argument("--per-level", type=int, default=30, help="puzzles per level for goal 4")
    ap.add_argument("--seed", type=int, default=31)
    ap.add_argument("--extreme-seeds", default="31,32",
                    help="goal 3: seeds of the extreme batches, e.g. 31,32")
    ap.add_argument("--base", help="goal 3: an older binary whose extremes are rated beside")
    ap.add_argument("--cache", default=str(Path(__file__).resolve().parent.parent / "output"
                                           / "pencilmark-extreme-cache.jsonl"),
                    help="goal 3: pencilmark's answers, kept between runs")
    ap.add_argument("--seconds", type=float, default=120,
                    help="pencilmark's max_seconds (goal 3: 0 for none; it only bounds the "
                    "shrinking of its technique list, not its rating)")
    ap.add_argument("--rate", type=int, default=10 ** 6,
                    help="goal 3: pencilmark rates the first N extremes of each seed")
    ap.add_argument("--tarek", type=int, default=0,
                    help="goal 3: pencilmark rates the first N of tarek_odd beside")
    ap.add_argument("--cpu-limit", type=int, default=900,
                    help="goal 3: CPU seconds pencilmark may take a puzzle (0: none)")
    ap.add_argument("--known-unique", action="store_true",
                    help="goal 3: give pencilmark our solution instead of its two uniqueness "
                    "searches (a third of its CPU; the rating is otherwise its own)")
    args = ap.parse_args()
    data = default_data()
    goals = {int(g) for g in args.goals.split(",") if g}
    with tempfile.TemporaryDirectory(prefix="settheory-") as tmp:
        if 2 in goals:
            goal2(args.bin, data)
        if 3 in goals:
            seeds = [int(x) for x in args.extreme_seeds.split(",") if x]
            goal3(args.bin, data, args.extreme, seeds, args.seconds or None, Path(tmp),
                  args.base, Path(args.cache), args.rate, args.tarek, args.known_unique,
                  args.cpu_limit)
        if 4 in goals:
            goal4(args.bin, args.per_level, args.seed, args.seconds)


if __name__ == "__main__":
    main()
