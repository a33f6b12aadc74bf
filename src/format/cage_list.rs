//! The cage list: the source documents' killer text format (`--format seed`): the cage count, then per cage a line "cells sum" and
//! one "row col" line per cell (0-based); `//` starts a comment; blank lines are ignored.
//!
//! The format has no size field: the grid is N x N when the cages cover exactly N² cells
//! (N = 4, 6, 8, 9, 12, 16), otherwise 9x9, or the smallest of 12 and 16 that holds every cell.

use super::error::{cage_of, expected, ErrorKind, FormatError};
use super::lines::{Line, Lines};
use super::SIZES;
use crate::cage::Cage;
use crate::geometry::{Geometry, MAX_CELLS, MAX_SIZE};
use crate::grid::Grid;
use crate::puzzle::Puzzle;
use std::io::{BufRead, Write};

/// The text of a line without its `//` comment, trimmed.
pub fn strip_comment(text: &str) -> &str {
    text.split("//").next().unwrap_or("").trim()
}

/// A cage as read: its header line, sum, and (row, col) cells.
struct RawCage {
    line: usize,
    sum: u16,
    cells: Vec<(usize, usize)>,
}

/// Parse one puzzle whose first (count) line is `first`, reading the rest from `lines`; the size
/// is inferred (see the module comment).
pub fn parse<R: BufRead>(first: Line, lines: &mut Lines<R>) -> Result<Puzzle, FormatError> {
    parse_sized(first, lines, None)
}

/// As `parse`, on a grid of side `size` when it is given instead of inferring it.
pub fn parse_sized<R: BufRead>(
    first: Line,
    lines: &mut Lines<R>,
    size: Option<usize>,
) -> Result<Puzzle, FormatError> {
    let [count] = numbers(&first, "the cage count")?;
    if count > MAX_CELLS as u64 {
        let what =
            format!("a cage count of at most {MAX_CELLS} (one cage per cell of a 16x16 grid)");
        return Err(FormatError::at(
            first.number,
            expected(what, strip_comment(&first.text)),
        ));
    }
    let mut cages = Vec::with_capacity(count as usize);
    for number in 1..=count as usize {
        let header = next(lines, || format!("the `cells sum` line of cage {number}"))?;
        let [cells, sum] = numbers(&header, "`cells sum` (two whole numbers)")?;
        if !(1..=MAX_SIZE as u64).contains(&cells) || sum > u16::MAX as u64 {
            let what = format!("`cells sum` with 1 to {MAX_SIZE} cells and a sum below 65536");
            return Err(FormatError::at(
                header.number,
                expected(what, strip_comment(&header.text)),
            ));
        }
        let mut raw = RawCage {
            line: header.number,
            sum: sum as u16,
            cells: Vec::with_capacity(cells as usize),
        };
        for k in 1..=cells {
            let line = next(lines, || format!("cell {k} of cage {number} (`row col`)"))?;
            let [row, col] = numbers(&line, "a cell `row col` (two whole numbers)")?;
            if row >= MAX_SIZE as u64 || col >= MAX_SIZE as u64 {
                let what = format!("a cell `row col` with both from 0 to {}", MAX_SIZE - 1);
                return Err(FormatError::at(
                    line.number,
                    expected(what, strip_comment(&line.text)),
                ));
            }
            raw.cells.push((row as usize, col as usize));
        }
        cages.push(raw);
    }
    build(&cages, first.number, size)
}

fn next<R: BufRead>(lines: &mut Lines<R>, what: impl Fn() -> String) -> Result<Line, FormatError> {
    lines
        .next_matching(|t| !strip_comment(t).is_empty())?
        .ok_or_else(|| {
            FormatError::at(
                lines.number() + 1,
                ErrorKind::Truncated { expected: what() },
            )
        })
}

/// Exactly `K` whole numbers on a line (comment stripped).
fn numbers<const K: usize>(line: &Line, what: &str) -> Result<[u64; K], FormatError> {
    let text = strip_comment(&line.text);
    let bad = || FormatError::at(line.number, expected(what, text));
    let mut out = [0u64; K];
    let mut tokens = text.split_whitespace();
    for slot in &mut out {
        *slot = tokens.next().and_then(|t| t.parse().ok()).ok_or_else(bad)?;
    }
    match tokens.next() {
        Some(_) => Err(bad()),
        None => Ok(out),
    }
}

/// The side the cages imply (see the module comment).
fn infer_size(cages: &[RawCage]) -> usize {
    let covered: usize = cages.iter().map(|c| c.cells.len()).sum();
    let reach = cages
        .iter()
        .flat_map(|c| c.cells.iter())
        .map(|&(r, c)| r.max(c) + 1)
        .max()
        .unwrap_or(0);
    let exact = SIZES.into_iter().find(|&n| n * n == covered && n >= reach);
    exact.unwrap_or_else(|| {
        SIZES
            .into_iter()
            .find(|&n| n >= reach.max(9))
            .unwrap_or(MAX_SIZE)
    })
}

fn build(raw: &[RawCage], first_line: usize, given: Option<usize>) -> Result<Puzzle, FormatError> {
    let size = given.unwrap_or_else(|| infer_size(raw));
    let outside = |c: &&RawCage| c.cells.iter().any(|&(r, col)| r >= size || col >= size);
    if let Some(cage) = raw.iter().find(outside) {
        let what = format!("cells inside the {size}x{size} grid given by --size");
        return Err(FormatError::at(
            cage.line,
            expected(what, "a cell outside it"),
        ));
    }
    let geometry = Geometry::standard(size).map_err(|e| FormatError::at(first_line, e))?;
    let cages = raw
        .iter()
        .map(|c| {
            let cells = c
                .cells
                .iter()
                .map(|&(r, col)| geometry.cell_at(r, col))
                .collect();
            Cage::new(c.sum, cells)
        })
        .collect();
    Puzzle::new(geometry, Grid::empty(size), cages).map_err(|e| {
        let line = cage_of(&e)
            .and_then(|k| raw.get(k - 1))
            .map_or(first_line, |c| c.line);
        if given.is_none() && size != 9 {
            // The size was a guess; the mistake may be the guess, not the puzzle.
            let covered = raw.iter().map(|c| c.cells.len()).sum();
            return FormatError::at(
                line,
                ErrorKind::GuessedSize {
                    size,
                    covered,
                    inner: Box::new(e.into()),
                },
            );
        }
        FormatError::at(line, e)
    })
}

/// Can a puzzle be written in this format and read back the same? (No givens, standard boxes,
/// and cages that cover the grid unless it is 9x9.)
pub fn check_representable(puzzle: &Puzzle) -> Result<(), FormatError> {
    let unrepresentable = |reason| FormatError::Unrepresentable {
        format: "seed",
        reason,
    };
    if puzzle.givens().count_filled() > 0 {
        return Err(unrepresentable("it has givens"));
    }
    if Geometry::standard(puzzle.size()).ok().as_ref() != Some(puzzle.geometry()) {
        return Err(unrepresentable(
            "its boxes or regions are not the standard ones",
        ));
    }
    let covered: usize = puzzle.cages().iter().map(Cage::len).sum();
    if puzzle.size() != 9 && covered != puzzle.geometry().cell_count() {
        return Err(unrepresentable(
            "its cages leave cells uncovered, so its size could not be read back (only 9x9 may)",
        ));
    }
    Ok(())
}

/// Write a killer puzzle as a cage list.
pub fn write_puzzle<W: Write>(out: &mut W, puzzle: &Puzzle) -> Result<(), FormatError> {
    check_representable(puzzle)?;
    let geometry = puzzle.geometry();
    writeln!(out, "{}", puzzle.cages().len())?;
    for cage in puzzle.cages() {
        writeln!(out, "{} {}", cage.len(), cage.sum)?;
        for &cell in &cage.cells {
            writeln!(out, "{} {}", geometry.row(cell), geometry.col(cell))?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::Cell;

    fn cell_indices(cells: &[Cell]) -> Vec<usize> {
        cells.iter().map(|c| c.as_index()).collect()
    }

    fn parse_text(text: &str) -> Result<Puzzle, FormatError> {
        let mut lines = Lines::new(text.as_bytes());
        let first = lines
            .next_matching(|t| !strip_comment(t).is_empty())
            .unwrap()
            .unwrap();
        parse(first, &mut lines)
    }

    #[test]
    fn reads_comments_blank_lines_and_infers_4x4() {
        let text = "4 // cages\n4 10\n0 0\n0 1\n\n1 0\n1 1\n4 10\n0 2\n0 3\n1 2\n1 3\n\
                    4 10\n2 0\n2 1\n3 0\n3 1\n4 10\n2 2\n2 3\n3 2\n3 3\n";
        let p = parse_text(text).unwrap();
        assert_eq!(p.size(), 4);
        assert_eq!(cell_indices(&p.cages()[0].cells), vec![0, 1, 4, 5]);
        let mut out = Vec::new();
        write_puzzle(&mut out, &p).unwrap();
        assert_eq!(parse_text(std::str::from_utf8(&out).unwrap()).unwrap(), p);
    }

    #[test]
    fn partial_cover_is_9x9() {
        let p = parse_text("1\n2 3\n0 0\n0 1\n").unwrap();
        assert_eq!(p.size(), 9);
    }

    #[test]
    fn errors_name_the_line() {
        let cases = [
            ("1000000000000\n", 1, "a cage count of at most 256"),
            ("x\n", 1, "expected the cage count"),
            (
                "2\n2 3\n0 0\n0 1\n",
                5,
                "the input ends early: expected the `cells sum` line of cage 2",
            ),
            ("1\n2 3\n0 0\n", 4, "cell 2 of cage 1"),
            ("1\n2 3 4\n", 2, "`cells sum` (two whole numbers)"),
            ("1\n99 3\n", 2, "1 to 16 cells"),
            ("1\n2 3\n0 0\n0 -1\n", 4, "a cell `row col`"),
            ("1\n2 3\n0 0\n0 16\n", 4, "both from 0 to 15"),
            (
                "2\n2 3\n0 0\n0 1\n2 5\n0 1\n0 2\n",
                5,
                "cell r1c2 is in cage 1 and again in cage 2",
            ),
            ("1\n2 30\n0 0\n0 1\n", 2, "cannot add up to 30"),
        ];
        for (text, line, want) in cases {
            let err = parse_text(text).unwrap_err();
            assert_eq!(err.line(), Some(line), "{text:?}: {err}");
            assert!(err.to_string().contains(want), "{text:?}: {err}");
        }
    }
}
