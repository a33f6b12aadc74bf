//! Per-puzzle cage tables, rebuilt in place for each puzzle (no allocation once warm).

use super::innies::Deriver;
use super::tables::Tables;
use crate::geometry::{Cell, MAX_CELLS};
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

/// Where a cage meets a house (or the house's uncaged cells, which have no cage): a digit the
/// rest of the house cannot hold sits in the meet, so the cage holds it and the rest of the cage
/// cannot.
#[derive(Copy, Clone, Debug)]
pub(crate) struct Crossing {
    /// Offset of its cells in `CageSet::crossing_cells`: the meet, then the rest of the cage.
    pub(crate) start: u16,
    /// The cage (`cages.len()` for the uncaged cells).
    pub(crate) cage: u16,
    /// Cells of the meet.
    pub(crate) meet: u8,
    /// Cells of the cage outside the house.
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
    /// Each house's cells cage by cage (hard searches only, `load_crossings`), house after house.
    pub(crate) crossings: Vec<Crossing>,
    /// The cells of the crossings: per crossing its meet, then the rest of its cage.
    pub(crate) crossing_cells: Vec<u8>,
    /// Per house, its range in `crossings` (empty before `load_crossings`).
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
    pub(crate) fn load(&mut self, puzzle: &Puzzle, tables: &Tables) {
        self.cells.clear();
        self.cages.clear();
        self.virtuals.clear();
        self.crossings.clear();
        self.crossing_cells.clear();
        self.crossings_of_house.clear();
        if puzzle.cages().is_empty() {
            return;
        }
        self.cage_of[..tables.cells].fill(puzzle.cages().len() as u16);
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
        self.load_virtuals(tables);
    }

    /// The crossings of cages and houses (see `crossings`): for hard searches only, so that the
    /// published killers (one or two nodes each) do not pay for them.
    pub(crate) fn load_crossings(&mut self, tables: &Tables) {
        self.crossings.clear();
        self.crossing_cells.clear();
        self.crossings_of_house.clear();
        for h in 0..3 * tables.n {
            let first = self.crossings.len() as u16;
            let bits = &tables.house_bits[h];
            let inside = |c: u8| bits.contains(Cell::new(c));
            let house = tables.house(h);
            // The house's cells by cage (uncaged cells together, with no rest of cage).
            for &c in house {
                let k = self.cage_of[c as usize];
                if self.crossings[first as usize..].iter().any(|x| x.cage == k) {
                    continue;
                }
                let (cage_of, out) = (&self.cage_of, &mut self.crossing_cells);
                let start = out.len();
                out.extend(house.iter().filter(|&&d| cage_of[d as usize] == k));
                let meet = out.len() - start;
                if let Some(info) = self.cages.get(k as usize) {
                    let cells = &self.cells[info.start as usize..][..info.len as usize];
                    out.extend(cells.iter().filter(|&&d| !inside(d)));
                }
                self.crossings.push(Crossing {
                    start: start as u16,
                    cage: k,
                    meet: meet as u8,
                    cage_rest: (out.len() - start - meet) as u8,
                });
            }
            self.crossings_of_house
                .push((first, self.crossings.len() as u16));
        }
    }

    fn load_virtuals(&mut self, tables: &Tables) {
        self.virtual_of[..tables.cells].fill(0);
        self.virtual_near[..tables.cells].fill(0);
        let deriver = &mut self.deriver;
        deriver.derive(tables, &self.cages, &self.cells);
        for (i, v) in deriver.found.iter().enumerate() {
            let start = self.cells.len() as u16;
            for c in v.cells.iter().map(Cell::get) {
                self.cells.push(c);
                self.virtual_of[c as usize] |= 1 << i;
                self.virtual_near[c as usize] |= 1 << i;
                for &p in tables.peers(c as usize) {
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
