//! Per-puzzle cage tables, rebuilt in place for each puzzle (no allocation once warm).

use super::innies::Deriver;
use super::layout::{board_cells, Layout};
use crate::geometry::MAX_CELLS;
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
    /// Must the digits differ? (Always for real cages; for derived ones when the cells see each
    /// other.)
    pub(crate) distinct: bool,
}

/// A cage crossing a house it does not lie in: a digit the rest of the house cannot hold must
/// sit in the meet, so it leaves the rest of the cage.
#[derive(Copy, Clone, Debug)]
pub(crate) struct Crossing {
    /// Offset of its cells in `CageSet::crossing_cells`.
    pub(crate) start: u16,
    pub(crate) meet: u8,
    pub(crate) cage_rest: u8,
}

/// The cages of one puzzle, flattened.
#[derive(Clone, Debug)]
pub(crate) struct CageSet {
    /// Every cage's cells, one cage after another.
    pub(crate) cells: Vec<u8>,
    /// The cages.
    pub(crate) cages: Vec<CageInfo>,
    /// The cage of each cell; uncaged cells point at the slot just past the last cage. Always 256
    /// long so that indexing by a `u8` cell needs no bounds check.
    pub(crate) cage_of: [u16; MAX_CELLS],
    /// Sum constraints derived by the rule of 45 (cells after the real cages' in `cells`).
    pub(crate) virtuals: Vec<CageInfo>,
    /// Per cell, the derived constraints holding it (bit per constraint).
    pub(crate) virtual_of: [u64; MAX_CELLS],
    /// Per cell, the derived constraints holding it or one of its peers.
    pub(crate) virtual_near: [u64; MAX_CELLS],
    /// Per cage, where its house's other cells are in `rest_cells` (empty when the cage lies in
    /// no single house or fills one): the digits the cage leaves must fit there.
    pub(crate) rest: Vec<(u16, u8)>,
    /// The house cells beside each cage (see `rest`).
    pub(crate) rest_cells: Vec<u8>,
    /// Where a cage crosses a house it does not lie in (hard searches only, `load_rest`).
    pub(crate) crossings: Vec<Crossing>,
    /// The cells of the crossings: per crossing its meet, then the rest of the house, then the
    /// rest of the cage.
    pub(crate) crossing_cells: Vec<u8>,
    /// Per house, a bit per crossing of that house... (crossings are grouped by house: the range
    /// of each house's crossings).
    pub(crate) crossings_of_house: Vec<(u16, u16)>,
    deriver: Deriver,
}

impl Default for CageSet {
    fn default() -> Self {
        CageSet {
            cells: Vec::new(),
            cages: Vec::new(),
            cage_of: [0; MAX_CELLS],
            virtuals: Vec::new(),
            virtual_of: [0; MAX_CELLS],
            virtual_near: [0; MAX_CELLS],
            rest: Vec::new(),
            rest_cells: Vec::new(),
            crossings: Vec::new(),
            crossing_cells: Vec::new(),
            crossings_of_house: Vec::new(),
            deriver: Deriver::default(),
        }
    }
}

impl CageSet {
    /// Refill the tables from `puzzle`'s cages (a plain puzzle only empties the lists: the plain
    /// kernel reads none of them).
    pub(crate) fn load(&mut self, puzzle: &Puzzle, layout: &Layout) {
        self.cells.clear();
        self.cages.clear();
        self.virtuals.clear();
        self.rest.clear();
        self.rest_cells.clear();
        if puzzle.cages().is_empty() {
            return;
        }
        self.cage_of[..layout.cells].fill(puzzle.cages().len() as u16);
        for (i, cage) in puzzle.cages().iter().enumerate() {
            self.cages.push(CageInfo {
                start: self.cells.len() as u16,
                len: cage.len() as u8,
                sum: cage.sum,
                distinct: true,
            });
            for &c in &cage.cells {
                self.cells.push(c.get());
                self.cage_of[c.as_index()] = i as u16;
            }
        }
        self.load_virtuals(layout);
    }

    /// The rest of the house of each cage lying inside one (see `rest`): for hard searches only,
    /// so that the published killers (one or two nodes each) do not pay for it.
    pub(crate) fn load_rest(&mut self, layout: &Layout) {
        self.rest.clear();
        self.rest_cells.clear();
        for info in &self.cages {
            let cells = &self.cells[info.start as usize..][..info.len as usize];
            let start = self.rest_cells.len() as u16;
            let house = layout.houses_of[cells[0] as usize].iter().find(|&&h| {
                let bits = &layout.house_bits[h as usize];
                cells
                    .iter()
                    .all(|&c| bits[c as usize >> 6] & (1 << (c & 63)) != 0)
            });
            if let Some(&h) = house {
                let rest = layout
                    .house(h as usize)
                    .iter()
                    .filter(|c| !cells.contains(c));
                self.rest_cells.extend(rest);
            }
            let len = self.rest_cells.len() - start as usize;
            self.rest.push((start, len as u8));
        }
        self.crossings.clear();
        self.crossing_cells.clear();
        self.crossings_of_house.clear();
        for h in 0..3 * layout.n {
            let first = self.crossings.len() as u16;
            let bits = &layout.house_bits[h];
            let inside = |c: u8| bits[c as usize >> 6] & (1 << (c & 63)) != 0;
            let house = layout.house(h);
            // The house's cells by cage (uncaged cells together, with no rest of cage).
            let mut seen = vec![];
            for &c in house {
                let k = self.cage_of[c as usize];
                if seen.contains(&k) {
                    continue;
                }
                seen.push(k);
                let meet: Vec<u8> = house
                    .iter()
                    .copied()
                    .filter(|&d| self.cage_of[d as usize] == k)
                    .collect();
                let cage_rest: Vec<u8> = match self.cages.get(k as usize) {
                    Some(info) => self.cells[info.start as usize..][..info.len as usize]
                        .iter()
                        .copied()
                        .filter(|&d| !inside(d))
                        .collect(),
                    None => vec![],
                };
                self.crossings.push(Crossing {
                    start: self.crossing_cells.len() as u16,
                    meet: meet.len() as u8,
                    cage_rest: cage_rest.len() as u8,
                });
                self.crossing_cells.extend(&meet);
                self.crossing_cells.extend(&cage_rest);
            }
            self.crossings_of_house
                .push((first, self.crossings.len() as u16));
        }
    }

    /// The house cells beside real cage `i` (empty when it lies in no single house, or before
    /// `load_rest`).
    #[inline]
    pub(crate) fn rest_of(&self, i: usize) -> &[u8] {
        match self.rest.get(i) {
            Some(&(start, len)) => &self.rest_cells[start as usize..][..len as usize],
            None => &[],
        }
    }

    fn load_virtuals(&mut self, layout: &Layout) {
        self.virtual_of[..layout.cells].fill(0);
        self.virtual_near[..layout.cells].fill(0);
        let deriver = &mut self.deriver;
        deriver.derive(layout, &self.cages, &self.cells);
        for (i, v) in deriver.found.iter().enumerate() {
            let start = self.cells.len() as u16;
            for c in board_cells(&v.cells) {
                self.cells.push(c);
                self.virtual_of[c as usize] |= 1 << i;
                self.virtual_near[c as usize] |= 1 << i;
                for &p in layout.peers(c as usize) {
                    self.virtual_near[p as usize] |= 1 << i;
                }
            }
            self.virtuals.push(CageInfo {
                start,
                len: (self.cells.len() - start as usize) as u8,
                sum: v.sum,
                distinct: v.distinct,
            });
        }
    }

    /// The cells of a cage or derived constraint.
    #[inline]
    pub(crate) fn cells_in(&self, info: CageInfo) -> &[u8] {
        &self.cells[info.start as usize..info.start as usize + info.len as usize]
    }

    /// Does the puzzle have cages?
    pub(crate) fn is_empty(&self) -> bool {
        self.cages.is_empty()
    }
}
