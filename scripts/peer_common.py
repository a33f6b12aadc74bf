"""What the peer benchmarks share: the puzzle JSON lines of ../shared/data/README.md read into
houses and sets, the data folder, and the load average (standard library only, so that each
peer's venv needs only its own solver)."""

from __future__ import annotations

import json
import os
from pathlib import Path

# Standard box shape (rows, cols) per grid size when the puzzle names none.
STANDARD_BOXES = {4: (2, 2), 6: (2, 3), 8: (2, 4), 9: (3, 3), 12: (3, 4), 16: (4, 4)}


class PuzzleError(ValueError):
    """A puzzle line that cannot be modelled; the message names the file and line."""


def houses(puzzle: dict, where: str) -> list[list[int]]:
    """Rows, columns and boxes (or jigsaw regions) of a puzzle, as lists of cell indices."""
    n = puzzle["size"]
    rows = [[r * n + c for c in range(n)] for r in range(n)]
    cols = [[r * n + c for r in range(n)] for c in range(n)]
    if "regions" in puzzle:
        return rows + cols + [list(region) for region in puzzle["regions"]]
    if "box_rows" in puzzle and "box_cols" in puzzle:
        br, bc = puzzle["box_rows"], puzzle["box_cols"]
    elif n in STANDARD_BOXES:
        br, bc = STANDARD_BOXES[n]
    else:
        raise PuzzleError(f"{where}: size {n} has no standard box shape; give box_rows/box_cols")
    if br * bc != n:
        raise PuzzleError(f"{where}: box {br}x{bc} does not tile a {n}x{n} grid")
    boxes = []
    for top in range(0, n, br):
        for left in range(0, n, bc):
            boxes.append([(top + r) * n + left + c for r in range(br) for c in range(bc)])
    return rows + cols + boxes


def load_set(path: Path, level: str | None, limit: int | None) -> list[tuple[str, dict]]:
    """Puzzles of one set, each with a "file:line" tag, at most `limit` of them."""
    out = []
    with path.open(encoding="utf-8") as handle:
        for number, line in enumerate(handle, start=1):
            if not line.strip():
                continue
            where = f"{path}:{number}"
            try:
                puzzle = json.loads(line)
            except json.JSONDecodeError as err:
                raise PuzzleError(f"{where}: not JSON ({err})") from err
            if level is not None and puzzle.get("level") != level:
                continue
            out.append((where, puzzle))
            if limit is not None and len(out) >= limit:
                break
    return out


def load() -> str:
    """The 1, 5 and 15 minute load averages."""
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def default_data() -> Path:
    """$SUDOKU_PRESS_DATA, else ../shared/data beside the repository."""
    env = os.environ.get("SUDOKU_PRESS_DATA")
    if env:
        return Path(env)
    return Path(__file__).resolve().parent.parent.parent / "shared" / "data"
