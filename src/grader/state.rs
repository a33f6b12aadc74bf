//! The grader's board: a candidate grid with the puzzle's houses and cages, changed only by steps.

use crate::bitset::{CellSet, DigitSet};
use crate::geometry::{Cell, Digit, Geometry, House};
use crate::grader::step::Step;
use crate::puzzle::Puzzle;

/// Why a board cannot go on: a cell with no candidate, or a digit with no place in a house.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Contradiction;

/// Candidates of every cell, the placed digits, and the lookup tables techniques need.
#[derive(Clone, Debug)]
pub struct Board<'p> {
    puzzle: &'p Puzzle,
    /// Candidates per cell; a placed cell holds just its digit.
    candidates: Vec<DigitSet>,
    /// Placed digit per cell (0 = empty).
    placed: Vec<u8>,
    /// Cells of every house (rows, columns, regions), as sets.
    house_sets: Vec<CellSet>,
    /// Cage index of every cell, `usize::MAX` for an uncaged cell.
    cage_of: Vec<usize>,
}

impl<'p> Board<'p> {
    /// The starting board: every digit possible, givens placed and removed from their peers.
    pub fn new(puzzle: &'p Puzzle) -> Self {
        let g = puzzle.geometry();
        let n = g.size();
        let house_sets = (0..g.house_count())
            .map(|h| g.house_cells(House::new(h as u8)).into_iter().collect())
            .collect();
        let mut cage_of = vec![usize::MAX; g.cell_count()];
        for (i, cage) in puzzle.cages().iter().enumerate() {
            for &c in &cage.cells {
                cage_of[c.as_index()] = i;
            }
        }
        let mut board = Board {
            puzzle,
            candidates: vec![DigitSet::all(n); g.cell_count()],
            placed: vec![0; g.cell_count()],
            house_sets,
            cage_of,
        };
        for cell in g.cells() {
            if let Some(d) = puzzle.givens().get(cell) {
                board.place(cell, d);
            }
        }
        board
    }
    /// The puzzle being solved.
    pub fn puzzle(&self) -> &'p Puzzle {
        self.puzzle
    }
    /// Its geometry.
    pub fn geometry(&self) -> &'p Geometry {
        self.puzzle.geometry()
    }
    /// Side length N.
    pub fn size(&self) -> usize {
        self.puzzle.size()
    }
    /// Candidates of a cell (one digit once placed).
    pub fn candidates(&self, cell: Cell) -> DigitSet {
        self.candidates[cell.as_index()]
    }
    /// The digit placed in a cell, if any.
    pub fn placed(&self, cell: Cell) -> Option<Digit> {
        let v = self.placed[cell.as_index()];
        (v != 0).then(|| Digit::new(v))
    }
    /// Cells of a house as a set.
    pub fn house_set(&self, house: House) -> &CellSet {
        &self.house_sets[house.as_index()]
    }
    /// The cage holding a cell, if any (index into `Puzzle::cages`).
    pub fn cage_of(&self, cell: Cell) -> Option<usize> {
        let i = self.cage_of[cell.as_index()];
        (i != usize::MAX).then_some(i)
    }
    /// Cells of a house that hold `digit` as a candidate and are not yet placed.
    pub fn places_for(&self, house: House, digit: Digit) -> CellSet {
        self.house_sets[house.as_index()]
            .iter()
            .filter(|&c| self.placed[c.as_index()] == 0 && self.candidates(c).contains(digit))
            .collect()
    }
    /// Is every cell placed?
    pub fn is_solved(&self) -> bool {
        self.placed.iter().all(|&v| v != 0)
    }
    /// Place a digit and remove it from the cell's peers (houses only; cage
    /// distinctness is removed too, since a cage never repeats a digit).
    pub fn place(&mut self, cell: Cell, digit: Digit) {
        let i = cell.as_index();
        self.placed[i] = digit.get();
        self.candidates[i] = DigitSet::single(digit);
        for h in self.geometry().houses_of(cell) {
            for peer in self.house_sets[h.as_index()].iter() {
                if peer != cell {
                    self.candidates[peer.as_index()].remove(digit);
                }
            }
        }
        if let Some(k) = self.cage_of(cell) {
            for &peer in &self.puzzle.cages()[k].cells {
                if peer != cell {
                    self.candidates[peer.as_index()].remove(digit);
                }
            }
        }
    }
    /// Remove one candidate (no effect on placed cells).
    pub fn eliminate(&mut self, cell: Cell, digit: Digit) {
        if self.placed[cell.as_index()] == 0 {
            self.candidates[cell.as_index()].remove(digit);
        }
    }
    /// Apply a step's placements and eliminations; `Err` if a cell is left with no candidate.
    pub fn apply(&mut self, step: &Step) -> Result<(), Contradiction> {
        for &(c, d) in &step.placements {
            if !self.candidates(c).contains(d) {
                return Err(Contradiction);
            }
            self.place(c, d);
        }
        for &(c, d) in &step.eliminations {
            self.eliminate(c, d);
        }
        if self.candidates.iter().any(|s| s.is_empty()) {
            return Err(Contradiction);
        }
        Ok(())
    }
}
