#!/usr/bin/env python3
"""Convert Simon Tatham's Solo game IDs (one a line) to the puzzle JSON lines of ../shared/data.

Reads the output of `sgt-solo --generate N PARAMS` (lines like `3x3k:zzzc,<cages>,<sums>` or
`3x3:<givens>`) from files or stdin and prints one JSON object a line: `id`, `level` (the
PARAMS given with --level, since Solo's IDs do not carry the difficulty), `size`,
`box_rows`/`box_cols`, `givens`, `cages` and `solo_id`. No `solution`: Solo's --generate
does not print it. Jigsaw (`9j`) and X-diagonal IDs are refused with a message.

Solo's description format (from its source, solo.c):
  * a grid is a run-length string: a letter a..z is 1..26 empty cells, a number is a cell
    value, `_` separates two numbers;
  * `NxM` means N*M digits with boxes of N rows by M columns (Solo's c x r);
  * a killer ID is `<grid>,<cage edges>,<cage sums grid>`: the edges string walks the
    (size-1)*size horizontal edges (row by row) and then the vertical ones (column by
    column); a letter k merges the next k edge-adjacent pairs (k = 26, `z`, continues the
    run), and then skips one edge (a cage border); `_` just skips one edge. Each cage's sum
    stands in the sums grid at its lowest-numbered cell.
"""

from __future__ import annotations

import argparse
import json
import re
import sys

PARAMS = re.compile(r"^(\d+)x(\d+)(k?)$")


class SoloIdError(ValueError):
    """A game ID this converter cannot read; the message says where and why."""


def decode_grid(spec: str, area: int, where: str) -> list[int]:
    """A run-length Solo grid string as `area` ints, 0 = empty."""
    cells: list[int] = []
    for token in re.findall(r"[a-z]|\d+|_|.", spec):
        if token == "_":
            continue
        if token.isdigit():
            cells.append(int(token))
        elif "a" <= token <= "z":
            cells.extend([0] * (ord(token) - ord("a") + 1))
        else:
            raise SoloIdError(f"{where}: unexpected character {token!r} in grid")
    if len(cells) != area:
        raise SoloIdError(f"{where}: grid has {len(cells)} cells, expected {area}")
    return cells


def decode_cages(spec: str, size: int, where: str) -> list[list[int]]:
    """Cage cell lists (sorted, ordered by lowest cell) from Solo's edge string."""
    parent = list(range(size * size))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    horizontal = size * (size - 1)
    pos = 0
    for ch in spec:
        if ch == "_":
            run = 0
        elif "a" <= ch <= "z":
            run = ord(ch) - ord("a") + 1
        else:
            raise SoloIdError(f"{where}: unexpected character {ch!r} in cage edges")
        for _ in range(run):
            if pos >= 2 * horizontal:
                raise SoloIdError(f"{where}: too many cage edges")
            if pos < horizontal:
                y, x = divmod(pos, size - 1)
                a, b = y * size + x, y * size + x + 1
            else:
                x, y = divmod(pos - horizontal, size - 1)
                a, b = y * size + x, (y + 1) * size + x
            parent[find(a)] = find(b)
            pos += 1
        if run != 26:
            pos += 1
    if pos != 2 * horizontal + 1:
        raise SoloIdError(f"{where}: cage edges cover {pos} edges, expected {2 * horizontal + 1}")
    groups: dict[int, list[int]] = {}
    for cell in range(size * size):
        groups.setdefault(find(cell), []).append(cell)
    return sorted(groups.values(), key=lambda cells: cells[0])


def convert(game_id: str, level: str, index: int, where: str) -> dict:
    """One Solo game ID as a puzzle JSON object."""
    params, sep, desc = game_id.partition(":")
    match = PARAMS.match(params)
    if not sep or not match:
        raise SoloIdError(f"{where}: {params!r} is not a boxed Solo ID (jigsaw and X are not supported)")
    box_rows, box_cols, killer = int(match.group(1)), int(match.group(2)), bool(match.group(3))
    size = box_rows * box_cols
    parts = desc.split(",")
    if len(parts) != (3 if killer else 1):
        raise SoloIdError(f"{where}: expected {3 if killer else 1} comma-separated parts, got {len(parts)}")
    puzzle = {
        "id": f"solo-{level}-{index}",
        "level": level,
        "size": size,
        "box_rows": box_rows,
        "box_cols": box_cols,
        "givens": decode_grid(parts[0], size * size, where),
        "cages": [],
        "solo_id": game_id,
    }
    if killer:
        sums = decode_grid(parts[2], size * size, where)
        for cells in decode_cages(parts[1], size, where):
            clue = sums[cells[0]]
            if clue == 0:
                raise SoloIdError(f"{where}: cage at cell {cells[0]} has no sum")
            puzzle["cages"].append({"sum": clue, "cells": cells})
    return puzzle


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="*", default=["-"], help="files of Solo game IDs (default stdin)")
    parser.add_argument("--level", required=True, help="the PARAMS the IDs were generated with, e.g. 3x3kdb")
    args = parser.parse_args(argv)
    index = 0
    for name in args.files:
        handle = sys.stdin if name == "-" else open(name, encoding="utf-8")
        with handle:
            for number, line in enumerate(handle, start=1):
                line = line.strip()
                if not line:
                    continue
                try:
                    puzzle = convert(line, args.level, index, f"{name}:{number}")
                except SoloIdError as err:
                    print(f"error: {err}", file=sys.stderr)
                    return 2
                print(json.dumps(puzzle, separators=(", ", ": ")))
                index += 1
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except BrokenPipeError:
        sys.stderr.close()
        sys.exit(0)
