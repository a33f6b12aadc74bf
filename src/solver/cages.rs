//! Per-puzzle cage tables, rebuilt in place for each puzzle (no allocation once warm).

use super::layout::Layout;
use crate::puzzle::Puzzle;

/// One sum constraint over distinct digits, as the kernel reads it.
#[derive(Copy, Clone, Debug)]
pub(crate) struct CageInfo {
    /// Offset of its cells in `CageSet::cells`.
    pub(crate) start: u16,
    /// Number of cells.
    pub(crate) len: u8,
    /// Required total.
    pub(crate) sum: u16,
}

/// The cages of one puzzle, flattened.
#[derive(Clone, Debug, Default)]
pub(crate) struct CageSet {
    /// Every cage's cells, one cage after another.
    pub(crate) cells: Vec<u8>,
    /// The cages.
    pub(crate) cages: Vec<CageInfo>,
    /// The cage of each cell; uncaged cells point at the slot just past the last cage.
    pub(crate) cage_of: Vec<u16>,
}

impl CageSet {
    /// Refill the tables from `puzzle`'s cages.
    pub(crate) fn load(&mut self, puzzle: &Puzzle, layout: &Layout) {
        self.cells.clear();
        self.cages.clear();
        self.cage_of.clear();
        let none = puzzle.cages().len() as u16;
        self.cage_of.resize(layout.cells, none);
        for (i, cage) in puzzle.cages().iter().enumerate() {
            self.cages.push(CageInfo {
                start: self.cells.len() as u16,
                len: cage.len() as u8,
                sum: cage.sum,
            });
            for &c in &cage.cells {
                self.cells.push(c.get());
                self.cage_of[c.as_index()] = i as u16;
            }
        }
    }

    /// The cells of cage `i`.
    #[inline]
    pub(crate) fn cells_of(&self, i: usize) -> &[u8] {
        let info = self.cages[i];
        &self.cells[info.start as usize..info.start as usize + info.len as usize]
    }

    /// Does the puzzle have cages?
    pub(crate) fn is_empty(&self) -> bool {
        self.cages.is_empty()
    }
}
