//! The grader's board: a candidate grid with the puzzle's houses and cages, changed only by steps.

use crate::bitset::{CellSet, DigitSet};
use crate::cage::Cage;
use crate::geometry::{Cell, Digit, Geometry, House};
use crate::grader::houses::Houses;
use crate::grader::step::Step;
use crate::puzzle::Puzzle;
use std::sync::Arc;

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
    /// The shape's house tables (shared by every board of the shape on this thread, so a
    /// board's copies in trials and forcing chains do not copy them).
    houses: Arc<Houses>,
    /// Cage index of every cell, `usize::MAX` for an uncaged cell.
    cage_of: Vec<usize>,
    /// Counts changes to the candidates; finders remember it to skip work on unchanged cells.
    clock: u32,
    /// The clock value at each cell's last change.
    changed_at: Vec<u32>,
    /// The clock value at which each cell was placed (0 while empty).
    placed_at: Vec<u32>,
    /// The clock value at each house's last change (of any of its cells).
    house_changed_at: Vec<u32>,
    /// The clock value at each cage's last change (of any of its cells).
    cage_changed_at: Vec<u32>,
    /// Do finders write their reasons (off when only grading, for speed)?
    explaining: bool,
    /// Empty cells left, and their candidates in all (kept as the board changes).
    open_cells: usize,
    /// Empty cells left in each house and in each cage.
    house_open: Vec<u8>,
    cage_open: Vec<u8>,
    /// Per digit, the empty cells that still have it as a candidate.
    planes: Vec<CellSet>,
    /// The empty cells with one candidate left.
    singles: CellSet,
    open_candidates: usize,
    /// Cells (placed or not) left with no candidate.
    emptied: usize,
}

impl<'p> Board<'p> {
    /// The starting board: every digit possible, givens placed and removed from their peers.
    pub fn new(puzzle: &'p Puzzle) -> Self {
        let g = puzzle.geometry();
        let n = g.size();
        let houses = Houses::of(g);
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
            cage_of,
            clock: 1,
            changed_at: vec![1; g.cell_count()],
            placed_at: vec![0; g.cell_count()],
            house_changed_at: vec![1; g.house_count()],
            cage_changed_at: vec![1; puzzle.cages().len()],
            houses,
            explaining: true,
            open_cells: g.cell_count(),
            house_open: vec![n as u8; g.house_count()],
            cage_open: puzzle.cages().iter().map(|k| k.cells.len() as u8).collect(),
            planes: vec![g.cells().collect(); n],
            singles: match n {
                1 => g.cells().collect(),
                _ => CellSet::EMPTY,
            },
            open_candidates: g.cell_count() * n,
            emptied: 0,
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
        &self.houses.sets[house.as_index()]
    }
    /// Cells of a house in order (rows left to right, columns top to bottom).
    pub fn house_cells(&self, house: House) -> &[Cell] {
        let n = self.size();
        let h = house.as_index();
        &self.houses.cells[h * n..(h + 1) * n]
    }
    /// The cage holding a cell, if any (index into `Puzzle::cages`).
    pub fn cage_of(&self, cell: Cell) -> Option<usize> {
        let i = self.cage_of[cell.as_index()];
        (i != usize::MAX).then_some(i)
    }
    /// Cells of a house that hold `digit` as a candidate and are not yet placed.
    pub fn places_for(&self, house: House, digit: Digit) -> CellSet {
        let mut set = CellSet::EMPTY;
        let n = self.size();
        let h = house.as_index();
        for &c in &self.houses.cells[h * n..(h + 1) * n] {
            if self.placed[c.as_index()] == 0 && self.candidates(c).contains(digit) {
                set.insert(c);
            }
        }
        set
    }
    /// The puzzle's cages (empty for a plain puzzle).
    pub fn cages(&self) -> &'p [Cage] {
        self.puzzle.cages()
    }
    /// Is the cell still empty (no digit placed)?
    pub fn is_empty(&self, cell: Cell) -> bool {
        self.placed[cell.as_index()] == 0
    }
    /// The empty cells, in index order.
    pub fn empty_cells(&self) -> impl Iterator<Item = Cell> + '_ {
        self.placed
            .iter()
            .enumerate()
            .filter(|(_, &v)| v == 0)
            .map(|(i, _)| Cell::new(i as u8))
    }
    /// Candidates left on the board (over the empty cells): how much a solver still has to sift.
    pub fn candidate_count(&self) -> usize {
        debug_assert_eq!(
            self.open_candidates,
            self.empty_cells()
                .map(|c| self.candidates(c).len() as usize)
                .sum::<usize>()
        );
        self.open_candidates
    }
    /// Must these two different cells hold different digits (same row, column, region or cage)?
    pub fn sees(&self, a: Cell, b: Cell) -> bool {
        let [ra, ca, ga] = self.houses.of_cell[a.as_index()];
        let [rb, cb, gb] = self.houses.of_cell[b.as_index()];
        a != b
            && (ra == rb
                || ca == cb
                || ga == gb
                || (self.cage_of(a).is_some() && self.cage_of(a) == self.cage_of(b)))
    }
    /// `r<row>c<col>`, 1-based.
    pub fn cell_name(&self, cell: Cell) -> String {
        crate::puzzle::cell_name(self.geometry(), cell)
    }
    /// Digits placed in a house.
    pub fn placed_in(&self, house: House) -> DigitSet {
        self.house_cells(house)
            .iter()
            .filter_map(|&c| self.placed(c))
            .collect()
    }
    /// Is the board impossible: an empty cell without candidates, a house missing a digit that
    /// has no place in it, or a cage whose remaining cells cannot reach its sum?
    pub fn is_broken(&self) -> bool {
        let n = self.size();
        let g = self.geometry();
        if self.emptied > 0 {
            return true;
        }
        for h in 0..g.house_count() {
            let set = &self.houses.sets[h];
            let (mut placed, mut possible) = (DigitSet::EMPTY, DigitSet::EMPTY);
            for c in set.iter() {
                match self.placed(c) {
                    Some(d) if placed.contains(d) => return true,
                    Some(d) => placed.insert(d),
                    None => possible = possible.union(self.candidates(c)),
                }
            }
            if placed.union(possible) != DigitSet::all(n) {
                return true;
            }
        }
        self.cages().iter().any(|cage| {
            let (mut sum, mut lo, mut hi) = (0i32, 0i32, 0i32);
            let mut seen = DigitSet::EMPTY;
            for &c in &cage.cells {
                match self.placed(c) {
                    Some(d) if seen.contains(d) => return true,
                    Some(d) => {
                        seen.insert(d);
                        sum += d.get() as i32;
                    }
                    None => {
                        let cands = self.candidates(c);
                        lo += cands.first().map_or(0, |d| d.get() as i32);
                        hi += cands.iter().last().map_or(0, |d| d.get() as i32);
                    }
                }
            }
            let need = cage.sum as i32 - sum;
            need < lo || need > hi
        })
    }
    /// The empty cells that still have `digit` as a candidate.
    pub fn plane(&self, digit: Digit) -> &CellSet {
        &self.planes[digit.as_index()]
    }
    /// The same for every digit (index: the digit less one).
    pub fn planes(&self) -> &[CellSet] {
        &self.planes
    }
    /// The empty cells with one candidate left.
    pub fn singles(&self) -> &CellSet {
        &self.singles
    }
    /// Empty cells left in a house.
    pub fn house_open(&self, house: House) -> usize {
        self.house_open[house.as_index()] as usize
    }
    /// Empty cells left in cage `k`.
    pub fn cage_open(&self, k: usize) -> usize {
        self.cage_open[k] as usize
    }
    /// Is every cell placed?
    pub fn is_solved(&self) -> bool {
        debug_assert_eq!(self.open_cells, self.empty_cells().count());
        self.open_cells == 0
    }
    /// Place a digit and remove it from the cell's peers (houses only; cage
    /// distinctness is removed too, since a cage never repeats a digit).
    pub fn place(&mut self, cell: Cell, digit: Digit) {
        let i = cell.as_index();
        self.clock += 1;
        if self.placed[i] == 0 {
            self.open_cells -= 1;
            for h in self.houses.of_cell[i] {
                self.house_open[h as usize] -= 1;
            }
            if let Some(k) = self.cage_open.get_mut(self.cage_of[i]) {
                *k -= 1;
            }
            self.open_candidates -= self.candidates[i].len() as usize;
        }
        self.emptied -= usize::from(self.candidates[i].is_empty());
        for plane in &mut self.planes {
            plane.remove(cell);
        }
        self.singles.remove(cell);
        self.placed[i] = digit.get();
        self.candidates[i] = DigitSet::single(digit);
        self.changed_at[i] = self.clock;
        self.placed_at[i] = self.clock;
        self.stamp_houses(i);
        let n = self.size();
        for h in self.geometry().houses_of(cell) {
            let h = h.as_index();
            for j in h * n..(h + 1) * n {
                let peer = self.houses.cells[j];
                if peer != cell {
                    self.strike(peer, digit);
                }
            }
        }
        if let Some(k) = self.cage_of(cell) {
            for &peer in &self.puzzle.cages()[k].cells {
                if peer != cell {
                    self.strike(peer, digit);
                }
            }
        }
    }
    /// Remove a candidate from any cell, stamping the change.
    fn strike(&mut self, cell: Cell, digit: Digit) {
        let i = cell.as_index();
        if self.candidates[i].contains(digit) {
            self.candidates[i].remove(digit);
            self.planes[digit.as_index()].remove(cell);
            if self.placed[i] == 0 {
                match self.candidates[i].len() {
                    1 => self.singles.insert(cell),
                    _ => self.singles.remove(cell),
                }
            }
            self.open_candidates -= usize::from(self.placed[i] == 0);
            self.emptied += usize::from(self.candidates[i].is_empty());
            self.changed_at[i] = self.clock;
            self.stamp_houses(i);
        }
    }
    /// Stamp the houses and the cage of cell `i` as changed now.
    fn stamp_houses(&mut self, i: usize) {
        for h in self.houses.of_cell[i] {
            self.house_changed_at[h as usize] = self.clock;
        }
        if let Some(at) = self.cage_changed_at.get_mut(self.cage_of[i]) {
            *at = self.clock;
        }
    }
    /// Has any cell of the house changed after clock value `since`?
    pub fn house_changed_since(&self, house: House, since: u32) -> bool {
        self.house_changed_at[house.as_index()] > since
    }
    /// Has any cell of cage `k` changed after clock value `since`?
    pub fn cage_changed_since(&self, k: usize, since: u32) -> bool {
        self.cage_changed_at[k] > since
    }
    /// Remove one candidate (no effect on placed cells).
    pub fn eliminate(&mut self, cell: Cell, digit: Digit) {
        if self.placed[cell.as_index()] == 0 && self.candidates(cell).contains(digit) {
            self.clock += 1;
            self.strike(cell, digit);
        }
    }
    /// Do finders write the reasons of their steps? (On by default; grading without text turns
    /// it off, and finders may then leave `Step::reason` empty.)
    pub fn explaining(&self) -> bool {
        self.explaining
    }
    /// Turn reason texts on or off.
    pub fn set_explaining(&mut self, on: bool) {
        self.explaining = on;
    }
    /// The change counter: it moves whenever a candidate is removed or a digit placed.
    pub fn clock(&self) -> u32 {
        self.clock
    }
    /// Has the cell changed after clock value `since`?
    pub fn changed_since(&self, cell: Cell, since: u32) -> bool {
        self.changed_at[cell.as_index()] > since
    }
    /// The cells that changed after clock value `since` (every cell when `since` is 0).
    pub fn changed_cells(&self, since: u32) -> CellSet {
        let mut out = CellSet::EMPTY;
        for (i, &at) in self.changed_at.iter().enumerate() {
            if since == 0 || at > since {
                out.insert(Cell::new(i as u8));
            }
        }
        out
    }
    /// Was a digit placed in the cell after clock value `since`?
    pub fn placed_since(&self, cell: Cell, since: u32) -> bool {
        self.placed_at[cell.as_index()] > since
    }
    /// Become a copy of `other`, a board of the same puzzle, reusing this board's memory (for
    /// finders that try assumptions on scratch boards).
    pub fn copy_from(&mut self, other: &Board<'p>) {
        debug_assert!(std::ptr::eq(self.puzzle, other.puzzle));
        self.candidates.copy_from_slice(&other.candidates);
        self.placed.copy_from_slice(&other.placed);
        self.changed_at.copy_from_slice(&other.changed_at);
        self.placed_at.copy_from_slice(&other.placed_at);
        self.house_changed_at
            .copy_from_slice(&other.house_changed_at);
        self.cage_changed_at.copy_from_slice(&other.cage_changed_at);
        self.clock = other.clock;
        self.explaining = other.explaining;
        self.open_cells = other.open_cells;
        self.house_open.copy_from_slice(&other.house_open);
        self.cage_open.copy_from_slice(&other.cage_open);
        self.planes.copy_from_slice(&other.planes);
        self.singles = other.singles;
        self.open_candidates = other.open_candidates;
        self.emptied = other.emptied;
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
        debug_assert_eq!(
            self.emptied,
            self.candidates.iter().filter(|s| s.is_empty()).count()
        );
        if self.emptied > 0 {
            return Err(Contradiction);
        }
        Ok(())
    }
}
