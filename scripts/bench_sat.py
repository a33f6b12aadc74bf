#!/usr/bin/env python3
"""Time a CDCL SAT solver (CaDiCaL 1.9.5 through python-sat) counting killer solutions up to 2.

The SAT peer for the hardest killers (issue 9): each puzzle of a puzzle JSON-lines file
(../shared/data/README.md; default killer/hard_killers.jsonl) becomes one CNF:

  * a Boolean per (cell, digit): each cell holds exactly one digit, each house each digit
    exactly once (rows, columns, boxes or jigsaw regions), givens as unit clauses;
  * per cage: no digit twice, a Boolean "the cage holds d" for each digit d (true exactly when
    one of its cells holds d), and a selector per digit combination of the cage's size and sum
    that fixes all nine of those; one selector must hold.

Counting up to 2 as sudoku-press's `bench` does: solve; on a solution add the clause "some
cell differs" and solve again on the same solver (its learnt clauses kept). Time per puzzle is
the CPU time of building the solver and both solves, not of reading or encoding the puzzle.
The conflicts and decisions are CaDiCaL's own counters, summed over both solves.

Run through scripts/bench_sat.sh, which makes the venv and installs python-sat.
"""

from __future__ import annotations

import argparse
import itertools
import platform
import sys
import time
from pathlib import Path

from pysat.solvers import Solver

from peer_common import PuzzleError, default_data, houses, load, load_set


def encode(puzzle: dict, where: str) -> tuple[int, list[list[int]]]:
    """The CNF of one killer: the count of (cell, digit) variables (1-based, first) and clauses."""
    n = puzzle["size"]

    def var(cell: int, digit: int) -> int:
        return cell * n + digit + 1

    top = n * n * n
    clauses: list[list[int]] = []
    for cell in range(n * n):
        clauses.append([var(cell, d) for d in range(n)])
        clauses.extend([-var(cell, a), -var(cell, b)] for a, b in itertools.combinations(range(n), 2))
    for house in houses(puzzle, where):
        for d in range(n):
            clauses.append([var(c, d) for c in house])
            clauses.extend([-var(a, d), -var(b, d)] for a, b in itertools.combinations(house, 2))
    givens = puzzle.get("givens") or [0] * (n * n)
    if len(givens) != n * n:
        raise PuzzleError(f"{where}: {len(givens)} givens for a {n}x{n} grid")
    clauses.extend([var(cell, value - 1)] for cell, value in enumerate(givens) if value)
    for number, cage in enumerate(puzzle.get("cages", [])):
        cells, total = cage["cells"], cage["sum"]
        for d in range(n):
            clauses.extend([-var(a, d), -var(b, d)] for a, b in itertools.combinations(cells, 2))
        holds = []
        for d in range(n):
            top += 1
            holds.append(top)
            clauses.append([-top] + [var(c, d) for c in cells])
            clauses.extend([-var(c, d), top] for c in cells)
        selectors = []
        for combo in itertools.combinations(range(1, n + 1), len(cells)):
            if sum(combo) != total:
                continue
            top += 1
            selectors.append(top)
            clauses.extend([-top, holds[d] if d + 1 in combo else -holds[d]] for d in range(n))
        if not selectors:
            raise PuzzleError(f"{where}: cage {number}: no {len(cells)} distinct digits add up to {total}")
        clauses.append(selectors)
    return n * n * n, clauses


def count(puzzle: dict, where: str, name: str) -> tuple[int, list[int] | None, float, int, int]:
    """Solutions up to 2, the first one, CPU seconds, conflicts and decisions."""
    n = puzzle["size"]
    cell_vars, clauses = encode(puzzle, where)
    start = time.process_time()
    first = None
    with Solver(name=name, bootstrap_with=clauses) as solver:
        found = 0
        while found < 2 and solver.solve():
            model = solver.get_model()[:cell_vars]
            found += 1
            if first is None:
                first = [(v - 1) % n + 1 for v in model if v > 0]
            solver.add_clause([-v for v in model if v > 0])
        stats = solver.accum_stats()
    return found, first, time.process_time() - start, stats.get("conflicts", 0), stats.get("decisions", 0)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--file", type=Path, default=None,
                        help="puzzle JSON lines (default: killer/hard_killers.jsonl of the data)")
    parser.add_argument("--limit", type=int, default=None, help="at most N puzzles")
    parser.add_argument("--solver", default="cadical195",
                        help="python-sat solver name (default cadical195; e.g. glucose4, minisat22)")
    args = parser.parse_args(argv)
    if args.limit is not None and args.limit < 1:
        parser.error("--limit must be at least 1")
    path = args.file or default_data() / "killer" / "hard_killers.jsonl"
    if not path.is_file():
        print(f"skipping: {path} is absent (set SUDOKU_PRESS_DATA or --file)", file=sys.stderr)
        return 0
    import pysat

    try:
        puzzles = load_set(path, None, args.limit)
    except (OSError, PuzzleError) as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    load_before = load()
    rows, total_cpu, wrong = [], 0.0, []
    for where, puzzle in puzzles:
        try:
            found, first, cpu, conflicts, decisions = count(puzzle, where, args.solver)
        except (PuzzleError, KeyError, TypeError) as err:
            print(f"error: {err}", file=sys.stderr)
            return 2
        name = puzzle.get("id", where)
        stored = puzzle.get("solution")
        matches = "n/a" if stored is None or found != 1 else ("yes" if first == stored else "NO")
        if found != 1 or matches == "NO":
            wrong.append(name)
        total_cpu += cpu
        rows.append(f"| {name} | {cpu:.3f} | {conflicts:,} | {decisions:,} | {found} | {matches} |")
        print(f"  {name}: {cpu:.3f} s", file=sys.stderr, flush=True)
    print(f"python-sat {pysat.__version__} `{args.solver}` (Python {platform.python_version()}), "
          f"{path.name}, count up to 2 by solve, block, solve")
    print(f"Load average (1/5/15 min) {load_before} before, {load()} after.")
    print()
    print("| puzzle | CPU s | conflicts | decisions | count | matches stored solution |")
    print("|---|---:|---:|---:|---:|---|")
    print("\n".join(rows))
    print(f"| **total** | **{total_cpu:.2f}** | | | | |")
    if wrong:
        print(f"\nwarning: not unique or not the stored solution: {', '.join(wrong)}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
