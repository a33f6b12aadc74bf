//! Helpers for the plain-technique tests: boards from text, cells by row and column, and
//! candidates set by hand.

// Not every family uses every helper.
#![allow(dead_code)]

use crate::cage::Cage;
use crate::geometry::{Cell, Digit, Geometry};
use crate::grader::state::Board;
use crate::grid::Grid;
use crate::puzzle::Puzzle;

/// An empty plain puzzle of side `n` with standard boxes.
pub fn empty(n: usize) -> Puzzle {
    Puzzle::plain(Geometry::standard(n).unwrap(), Grid::empty(n)).unwrap()
}

/// An empty plain jigsaw puzzle.
pub fn empty_jigsaw(n: usize, regions: Vec<u8>) -> Puzzle {
    Puzzle::plain(Geometry::jigsaw(n, regions).unwrap(), Grid::empty(n)).unwrap()
}

/// An empty killer of side `n` with these cages (cells as 1-based (row, col)).
pub fn killer(n: usize, cages: &[(u16, &[(usize, usize)])]) -> Puzzle {
    let g = Geometry::standard(n).unwrap();
    let cages = cages
        .iter()
        .map(|(sum, cells)| {
            Cage::new(
                *sum,
                cells
                    .iter()
                    .map(|&(r, c)| g.cell_at(r - 1, c - 1))
                    .collect(),
            )
        })
        .collect();
    Puzzle::new(g, Grid::empty(n), cages).unwrap()
}

/// The starting board of a puzzle.
pub fn board(p: &Puzzle) -> Board<'_> {
    Board::new(p)
}

/// The cell at 1-based (row, col).
pub fn at(b: &Board, r: usize, c: usize) -> Cell {
    b.geometry().cell_at(r - 1, c - 1)
}

/// A digit.
pub fn d(v: u8) -> Digit {
    Digit::new(v)
}

/// Leave exactly `keep` as the candidates of the cell at (r, c).
pub fn set(b: &mut Board, r: usize, c: usize, keep: &[u8]) {
    let cell = at(b, r, c);
    for v in 1..=b.size() as u8 {
        if !keep.contains(&v) {
            b.eliminate(cell, d(v));
        }
    }
}

/// Remove `digit` from every cell of row `r` except the listed columns.
pub fn only_in_row(b: &mut Board, digit: u8, r: usize, cols: &[usize]) {
    for c in 1..=b.size() {
        if !cols.contains(&c) {
            let cell = at(b, r, c);
            b.eliminate(cell, d(digit));
        }
    }
}

/// Remove `digit` from every cell of column `c` except the listed rows.
pub fn only_in_col(b: &mut Board, digit: u8, c: usize, rows: &[usize]) {
    for r in 1..=b.size() {
        if !rows.contains(&r) {
            let cell = at(b, r, c);
            b.eliminate(cell, d(digit));
        }
    }
}

/// A list of (cell, digit) sorted, for comparing eliminations.
pub fn sorted(mut v: Vec<(Cell, Digit)>) -> Vec<(Cell, Digit)> {
    v.sort();
    v
}

/// (cell, digit) pairs from 1-based (row, col) and a digit.
pub fn cells_digit(b: &Board, cells: &[(usize, usize)], digit: u8) -> Vec<(Cell, Digit)> {
    let mut v: Vec<_> = cells
        .iter()
        .map(|&(r, c)| (at(b, r, c), d(digit)))
        .collect();
    v.sort();
    v
}
