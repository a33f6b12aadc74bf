#!/usr/bin/env python3
"""Time Google OR-tools CP-SAT counting killer-sudoku solutions up to 2, one worker thread.

The peer for sudoku-press's solver benchmark (issue 2, item 9). Each puzzle in the puzzle
JSON-lines format of ../shared/data/README.md becomes a CP-SAT model:

  * one integer variable 1..N per cell, givens fixed;
  * AllDifferent on every row, column and box (box shape from `box_rows`/`box_cols`, the
    standard shape for the size when absent, or `regions` for jigsaw);
  * per cage: AllDifferent on its cells and a linear sum equal to the cage's sum.

Counting up to 2 matches sudoku-press's uniqueness check (`count_solutions(puzzle, 2)`):

  * `--method enumerate` (default, the faster: about 2x here): one solve with
    `enumerate_all_solutions` and a callback that stops the search at the second solution.
  * `--method resolve`: solve; if a solution is found, add "differs from it in at least one
    cell" (a clause over one Boolean per cell, each implying x != s) and solve again.

Time per puzzle covers building the model and every solve (not JSON parsing). The solver
runs with `num_workers = 1` and a fixed `random_seed`, so runs are repeatable.

Run through scripts/bench_cpsat.sh, which makes the venv and installs ortools.
"""

from __future__ import annotations

import argparse
import platform
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from ortools.sat.python import cp_model

from peer_common import PuzzleError, default_data, houses, load, load_set

# Killer files under DATA/killer/ and how each is split into sets.
# (set name, file, level filter or None)
SETS: list[tuple[str, str, str | None]] = [
    ("krazydad", "krazydad_vol1.jsonl", None),
    ("solo-3x3kdb", "solo_levels.jsonl", "3x3kdb"),
    ("solo-3x3kdi", "solo_levels.jsonl", "3x3kdi"),
    ("solo-3x3kda", "solo_levels.jsonl", "3x3kda"),
    ("solo-3x3kdu", "solo_levels.jsonl", "3x3kdu"),
    ("solo-2x2kdb", "solo_small.jsonl", "2x2kdb"),
    ("solo-3x2kdi", "solo_small.jsonl", "3x2kdi"),
]

@dataclass
class SetResult:
    """Outcome of one set: how many puzzles, total time, and the correctness tallies."""

    name: str
    puzzles: int = 0
    seconds: float = 0.0
    cpu_seconds: float = 0.0
    solver_seconds: float = 0.0
    has_solutions: bool = True
    unique: int = 0
    matched: int = 0
    counts: dict[int, int] = field(default_factory=dict)


def build_model(puzzle: dict, where: str) -> tuple[cp_model.CpModel, list[cp_model.IntVar]]:
    """The CP-SAT model of one killer (or plain) puzzle and its cell variables."""
    n = puzzle["size"]
    model = cp_model.CpModel()
    cells = [model.NewIntVar(1, n, f"c{i}") for i in range(n * n)]
    for house in houses(puzzle, where):
        model.AddAllDifferent([cells[i] for i in house])
    givens = puzzle.get("givens") or [0] * (n * n)
    if len(givens) != n * n:
        raise PuzzleError(f"{where}: {len(givens)} givens for a {n}x{n} grid")
    for i, value in enumerate(givens):
        if value:
            model.Add(cells[i] == value)
    for cage in puzzle.get("cages", []):
        members = [cells[i] for i in cage["cells"]]
        if len(members) > 1:
            model.AddAllDifferent(members)
        model.Add(sum(members) == cage["sum"])
    return model, cells


def new_solver() -> cp_model.CpSolver:
    """A CP-SAT solver on one worker thread with a fixed seed."""
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    solver.parameters.random_seed = 0
    return solver


def count_resolve(puzzle: dict, where: str) -> tuple[int, list[int] | None, float]:
    """Count up to 2 by solving, forbidding the first solution, and solving again."""
    model, cells = build_model(puzzle, where)
    solver = new_solver()
    status = solver.Solve(model)
    wall = solver.WallTime()
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return 0, None, wall
    first = [solver.Value(v) for v in cells]
    differs = []
    for var, value in zip(cells, first):
        b = model.NewBoolVar("")
        model.Add(var != value).OnlyEnforceIf(b)
        differs.append(b)
    model.AddBoolOr(differs)
    status = solver.Solve(model)
    wall += solver.WallTime()
    return (2 if status in (cp_model.OPTIMAL, cp_model.FEASIBLE) else 1), first, wall


class StopAtTwo(cp_model.CpSolverSolutionCallback):
    """Keeps the first solution and stops the search when a second one appears."""

    def __init__(self, cells: list[cp_model.IntVar]) -> None:
        super().__init__()
        self.cells = cells
        self.count = 0
        self.first: list[int] | None = None

    def on_solution_callback(self) -> None:
        self.count += 1
        if self.count == 1:
            self.first = [self.Value(v) for v in self.cells]
        else:
            self.StopSearch()


def count_enumerate(puzzle: dict, where: str) -> tuple[int, list[int] | None, float]:
    """Count up to 2 in one search that enumerates solutions and stops at the second."""
    model, cells = build_model(puzzle, where)
    solver = new_solver()
    solver.parameters.enumerate_all_solutions = True
    callback = StopAtTwo(cells)
    solver.Solve(model, callback)
    return min(callback.count, 2), callback.first, solver.WallTime()


METHODS = {"resolve": count_resolve, "enumerate": count_enumerate}


def run_set(name: str, puzzles: list[tuple[str, dict]], method: str) -> SetResult:
    """Count every puzzle of a set up to 2 and tally time, uniqueness and stored-solution matches."""
    count = METHODS[method]
    result = SetResult(name)
    for where, puzzle in puzzles:
        start, cpu = time.perf_counter(), time.process_time()
        solutions, first, wall = count(puzzle, where)
        result.seconds += time.perf_counter() - start
        result.cpu_seconds += time.process_time() - cpu
        result.has_solutions &= "solution" in puzzle
        result.solver_seconds += wall
        result.puzzles += 1
        result.counts[solutions] = result.counts.get(solutions, 0) + 1
        if solutions == 1:
            result.unique += 1
            if first == puzzle.get("solution"):
                result.matched += 1
    return result


def fmt_rate(count: int, seconds: float) -> str:
    """Puzzles per second, with more decimals for slow rates."""
    if seconds <= 0:
        return "n/a"
    rate = count / seconds
    return f"{rate:,.2f}" if rate < 10 else f"{rate:,.1f}"


def markdown(results: list[SetResult]) -> str:
    """The results as a Markdown table."""
    lines = [
        "| set | puzzles | seconds | puzzles/s | CPU s | puzzles/CPU s | CP-SAT wall s "
        "| unique | matches stored solution |",
        "|---|---:|---:|---:|---:|---:|---:|---|---|",
    ]
    for r in results:
        unique = "all" if r.unique == r.puzzles else f"{r.unique}/{r.puzzles} (counts {r.counts})"
        matched = "all" if r.matched == r.puzzles else f"{r.matched}/{r.puzzles}"
        if not r.has_solutions:
            matched = "n/a (no stored solution)"
        lines.append(
            f"| {r.name} | {r.puzzles} | {r.seconds:.2f} | {fmt_rate(r.puzzles, r.seconds)} "
            f"| {r.cpu_seconds:.2f} | {fmt_rate(r.puzzles, r.cpu_seconds)} | {r.solver_seconds:.2f} "
            f"| {unique} | {matched} |"
        )
    return "\n".join(lines)


def parse_args(argv: list[str]) -> argparse.Namespace:
    names = [name for name, _, _ in SETS]
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=default_data(),
                        help="the shared data folder (default: $SUDOKU_PRESS_DATA or ../shared/data)")
    parser.add_argument("--sets", default="all",
                        help=f"comma-separated sets, 'all' (default) or 'none': {','.join(names)}")
    parser.add_argument("--file", type=Path, action="append", default=[],
                        help="also time this puzzle JSON-lines file as a set named by its stem "
                             "(repeatable; e.g. scripts/solo_to_jsonl.py output)")
    parser.add_argument("--limit", type=int, default=None, help="at most N puzzles per set")
    parser.add_argument("--method", choices=sorted(METHODS), default="enumerate",
                        help="how to count up to 2 (default: enumerate)")
    args = parser.parse_args(argv)
    if args.sets == "all":
        wanted = names
    elif args.sets == "none":
        wanted = []
    else:
        wanted = [s.strip() for s in args.sets.split(",") if s.strip()]
    unknown = [s for s in wanted if s not in names]
    if unknown:
        parser.error(f"unknown set(s) {', '.join(unknown)}; choose from {', '.join(names)}")
    if args.limit is not None and args.limit < 1:
        parser.error("--limit must be at least 1")
    args.sets = wanted
    return args


def main(argv: list[str]) -> int:
    args = parse_args(argv)
    # (set name, path, level filter): the chosen shared sets, then any --file.
    plan = [(name, args.data / "killer" / file, level)
            for name, file, level in SETS if name in args.sets]
    if plan and not (args.data / "killer").is_dir():
        print(f"skipping the shared sets: {args.data}/killer is absent "
              "(set SUDOKU_PRESS_DATA or --data)", file=sys.stderr)
        plan = []
    plan += [(path.stem, path, None) for path in args.file]
    if not plan:
        print("CP-SAT: nothing to measure", file=sys.stderr)
        return 0
    import ortools

    load_before = load()
    results = []
    for name, path, level in plan:
        try:
            puzzles = load_set(path, level, args.limit)
            results.append(run_set(name, puzzles, args.method))
        except (OSError, PuzzleError, KeyError, TypeError) as err:
            print(f"error: set {name}: {err}", file=sys.stderr)
            return 2
        print(f"  {name}: {results[-1].puzzles} puzzles in {results[-1].seconds:.2f} s",
              file=sys.stderr, flush=True)
    limit = f", at most {args.limit} a set" if args.limit else ""
    print(f"CP-SAT (ortools {ortools.__version__}, Python {platform.python_version()}), "
          f"num_workers=1, random_seed=0, count up to 2 by `{args.method}`{limit}")
    print(f"Load average (1/5/15 min) {load_before} before, {load()} after.")
    print()
    print(markdown(results))
    bad = [r.name for r in results
           if r.unique != r.puzzles or (r.has_solutions and r.matched != r.puzzles)]
    if bad:
        print(f"\nwarning: not all unique / matching in: {', '.join(bad)}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
