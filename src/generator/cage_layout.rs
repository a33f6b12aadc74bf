//! `CageLayout`: a partition of the grid into connected cages over a known solution, and the edits
//! (move a cell across a boundary, absorb a single cell) that builders and uniqueness repair share.

use crate::bitset::DigitSet;
use crate::cage::Cage;
use crate::geometry::{Cell, Digit, Geometry, MAX_CELLS, MAX_SIZE};
use crate::grid::Grid;

/// What a layout must respect: the largest cage, single cells, and (for `book`) the cage count and
/// the target size distribution.
#[derive(Clone, Debug, PartialEq)]
pub struct LayoutRules {
    /// Largest cage.
    pub max_size: usize,
    /// May a cage have one cell?
    pub allow_singles: bool,
    /// Fewest and most cages (inclusive) of a `book` layout.
    pub cage_count: (usize, usize),
    /// Relative frequency of each target cage size (index = size) of a `book` layout.
    pub size_weights: Vec<u32>,
    /// The `ordered` builder's threshold.
    pub threshold: f64,
}

/// The orthogonal neighbours of every cell of a geometry (in `Geometry::neighbours` order), for
/// the builders and repairs that look them up by the million.
pub struct Adjacency {
    around: [[Cell; 4]; MAX_CELLS],
    len: [u8; MAX_CELLS],
}

impl Adjacency {
    /// The neighbours of the cells of `geometry`.
    pub fn new(geometry: &Geometry) -> Self {
        let mut around = [[Cell::new(0); 4]; MAX_CELLS];
        let mut len = [0u8; MAX_CELLS];
        for c in geometry.cells() {
            let i = c.as_index();
            for nb in geometry.neighbours(c) {
                around[i][len[i] as usize] = nb;
                len[i] += 1;
            }
        }
        Adjacency { around, len }
    }

    /// The orthogonal neighbours of `cell`.
    #[inline]
    pub fn of(&self, cell: Cell) -> &[Cell] {
        &self.around[cell.as_index()][..self.len[cell.as_index()] as usize]
    }
}

/// Marks a cell that belongs to no cage.
const FREE: u16 = u16::MAX;

/// The cells of one cage, in the order they joined it, held inline: a cage has distinct digits,
/// so at most `MAX_SIZE` cells, and the builders and repairs open, fill and empty cages by the
/// thousand a puzzle (a heap list per cage was a tenth of the generator's time in the allocator).
#[derive(Clone, Copy, Debug)]
struct Members {
    cells: [Cell; MAX_SIZE],
    len: u8,
}

/// Two member lists are equal when they list the same cells in the same order (whatever the
/// slots past the end hold).
impl PartialEq for Members {
    fn eq(&self, other: &Self) -> bool {
        self.as_slice() == other.as_slice()
    }
}

impl Eq for Members {}

impl Members {
    const EMPTY: Members = Members {
        cells: [Cell::new(0); MAX_SIZE],
        len: 0,
    };

    fn as_slice(&self) -> &[Cell] {
        &self.cells[..self.len as usize]
    }

    fn len(&self) -> usize {
        self.len as usize
    }

    fn is_empty(&self) -> bool {
        self.len == 0
    }

    fn push(&mut self, cell: Cell) {
        self.cells[self.len as usize] = cell;
        self.len += 1;
    }

    /// Take `cell` out, keeping the others in order.
    fn remove(&mut self, cell: Cell) {
        if let Some(at) = self.as_slice().iter().position(|&c| c == cell) {
            self.cells.copy_within(at + 1..self.len as usize, at);
            self.len -= 1;
        }
    }
}

/// Cages drawn on a complete grid: each cage is a connected set of cells with distinct digits.
/// Cage ids are stable while editing; a cage emptied by an edit stays as an empty slot.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CageLayout {
    owner: Vec<u16>,
    cages: Vec<Members>,
    digits: Vec<DigitSet>,
}

impl CageLayout {
    /// No cages yet on a grid of `cell_count` cells.
    pub fn new(cell_count: usize) -> Self {
        // Room for the cages of a layout of pairs at once (no growing while a builder opens them).
        let room = cell_count.div_ceil(2);
        CageLayout {
            owner: vec![FREE; cell_count],
            cages: Vec::with_capacity(room),
            digits: Vec::with_capacity(room),
        }
    }

    /// The layout of `cages` (complete, each of distinct digits in `solution`) on a grid of
    /// `cell_count` cells; cage ids follow the order of `cages`.
    pub fn from_cages(cell_count: usize, cages: &[Cage], solution: &Grid) -> Self {
        let mut layout = CageLayout::new(cell_count);
        for cage in cages {
            let id = layout.open_empty();
            for &c in &cage.cells {
                layout.push(id, c, solution.get(c).expect("complete solution"));
            }
        }
        layout
    }

    /// The cage id of a cell, if it is caged.
    pub fn cage_of(&self, cell: Cell) -> Option<usize> {
        match self.owner[cell.as_index()] {
            FREE => None,
            id => Some(id as usize),
        }
    }
    /// Is the cell in no cage yet?
    pub fn is_free(&self, cell: Cell) -> bool {
        self.owner[cell.as_index()] == FREE
    }
    /// The cells of cage `id`.
    pub fn cells(&self, id: usize) -> &[Cell] {
        self.cages[id].as_slice()
    }
    /// The solution digits in cage `id`.
    pub fn digits(&self, id: usize) -> DigitSet {
        self.digits[id]
    }
    /// The ids of the non-empty cages.
    pub fn ids(&self) -> impl Iterator<Item = usize> + '_ {
        (0..self.cages.len()).filter(|&i| !self.cages[i].is_empty())
    }
    /// Number of cage slots, empty ones included (ids are `0..slot_count()`).
    pub fn slot_count(&self) -> usize {
        self.cages.len()
    }
    /// Number of non-empty cages.
    pub fn count_cages(&self) -> usize {
        self.ids().count()
    }

    /// Start a new cage holding one free cell; returns its id.
    pub fn open(&mut self, cell: Cell, digit: Digit) -> usize {
        let id = self.cages.len();
        self.cages.push(Members::EMPTY);
        self.digits.push(DigitSet::EMPTY);
        self.push(id, cell, digit);
        id
    }
    /// A new empty cage slot (a split moves cells into it); returns its id.
    pub fn open_empty(&mut self) -> usize {
        self.cages.push(Members::EMPTY);
        self.digits.push(DigitSet::EMPTY);
        self.cages.len() - 1
    }
    /// Add a free cell to cage `id`.
    pub fn push(&mut self, id: usize, cell: Cell, digit: Digit) {
        debug_assert!(self.is_free(cell));
        self.owner[cell.as_index()] = id as u16;
        self.cages[id].push(cell);
        self.digits[id].insert(digit);
    }
    /// Take a cell out of its cage (the cage may become empty or disconnected: callers check).
    pub fn release(&mut self, cell: Cell, digit: Digit) {
        if let Some(id) = self.cage_of(cell) {
            self.cages[id].remove(cell);
            self.digits[id].remove(digit);
            self.owner[cell.as_index()] = FREE;
        }
    }

    /// List the cells of the cages holding `cells` in the order of `cells`, which holds every
    /// cell of those cages once: the order that taking each of them out and putting it back in
    /// turn leaves (as applying and reverting an edit that moves them does).
    pub fn reorder(&mut self, cells: &[Cell]) {
        for &c in cells {
            let id = self.owner[c.as_index()] as usize;
            self.cages[id].len = 0;
        }
        for &c in cells {
            let id = self.owner[c.as_index()] as usize;
            self.cages[id].push(c);
        }
    }

    /// Can `cell` join cage `id` (its digit not there yet, the cage below `max_size`)?
    pub fn accepts(&self, id: usize, digit: Digit, max_size: usize) -> bool {
        self.cages[id].len() < max_size && !self.digits[id].contains(digit)
    }

    /// Is cage `id` orthogonally connected? A search from its first cell over the neighbours
    /// in the same cage (the layout knows each cell's cage): the repairs ask 69,000 times in 300
    /// items, and `Geometry::is_connected`, which divides out every cell's row and column and
    /// compares every pair, took about 300 instructions a test.
    pub fn is_connected(&self, adjacency: &Adjacency, id: usize) -> bool {
        let cells = self.cages[id].as_slice();
        let Some(&first) = cells.first() else {
            return true;
        };
        // Each cell is pushed once: a stack of one slot per cell of the cage.
        let mut seen = [0u64; MAX_CELLS / 64];
        let mut stack = [first; MAX_SIZE];
        let (mut top, mut reached) = (1, 1);
        seen[first.as_index() >> 6] |= 1 << (first.as_index() & 63);
        while top > 0 {
            top -= 1;
            for &nb in adjacency.of(stack[top]) {
                let (i, bit) = (nb.as_index() >> 6, 1 << (nb.as_index() & 63));
                if self.owner[nb.as_index()] as usize == id && seen[i] & bit == 0 {
                    seen[i] |= bit;
                    stack[top] = nb;
                    top += 1;
                    reached += 1;
                }
            }
        }
        reached == cells.len()
    }

    /// The ids of the cages orthogonally next to `cell`, other than its own, without repeats, in
    /// increasing order. (At most four: held inline, as repairs ask for them by the thousand.)
    pub fn neighbour_cages(&self, geometry: &Geometry, cell: Cell) -> impl Iterator<Item = usize> {
        let own = self.cage_of(cell);
        let (mut ids, mut len) = ([usize::MAX; 4], 0);
        for id in geometry.neighbours(cell).filter_map(|c| self.cage_of(c)) {
            if Some(id) != own && !ids[..len].contains(&id) {
                ids[len] = id;
                len += 1;
            }
        }
        ids[..len].sort_unstable();
        ids.into_iter().take(len)
    }

    /// Move every single-cell cage into a neighbouring cage that accepts it (the smallest first),
    /// or else give it a neighbour spared by a larger cage. Returns `false` if some single cell
    /// found neither.
    pub fn absorb_singles(
        &mut self,
        geometry: &Geometry,
        solution: &Grid,
        max_size: usize,
    ) -> bool {
        let singles: Vec<Cell> = self
            .ids()
            .filter(|&id| self.cages[id].len() == 1)
            .map(|id| self.cages[id].cells[0])
            .collect();
        singles.into_iter().all(|cell| {
            // An earlier absorption may have grown this single already.
            let own = self.cage_of(cell).expect("singles are caged");
            if self.cages[own].len() > 1 {
                return true;
            }
            let digit = solution.get(cell).expect("complete solution");
            let home = self
                .neighbour_cages(geometry, cell)
                .filter(|&id| self.accepts(id, digit, max_size))
                .min_by_key(|&id| self.cages[id].len());
            match home {
                Some(id) => {
                    self.release(cell, digit);
                    self.push(id, cell, digit);
                    true
                }
                None => self.steal_partner(geometry, solution, cell),
            }
        })
    }

    /// Pair the single cell `cell` with a neighbour taken from a cage of three or more that stays
    /// connected without it; `false` if no neighbour can be spared.
    fn steal_partner(&mut self, geometry: &Geometry, solution: &Grid, cell: Cell) -> bool {
        let own = self.cage_of(cell).expect("singles are caged");
        let digit = |c: Cell| solution.get(c).expect("complete solution");
        let spare = geometry.neighbours(cell).find(|&y| {
            let Some(id) = self.cage_of(y) else {
                return false;
            };
            let rest: Vec<Cell> = self.cells(id).iter().copied().filter(|&c| c != y).collect();
            id != own && rest.len() >= 2 && digit(y) != digit(cell) && geometry.is_connected(&rest)
        });
        let Some(y) = spare else {
            return false;
        };
        self.release(y, digit(y));
        self.push(own, y, digit(y));
        true
    }

    /// The cages with their sums read from `solution`, ordered by first cell.
    pub fn to_cages(&self, solution: &Grid) -> Vec<Cage> {
        cages_with_sums(self.ids().map(|id| self.cells(id)), solution)
    }

    /// Does `grid` (another complete grid) also satisfy every cage: the same sums and distinct digits?
    pub fn admits(&self, solution: &Grid, grid: &Grid) -> bool {
        self.ids().all(|id| self.cage_admits(id, solution, grid))
    }

    /// Does `grid` satisfy cage `id` (sum read from `solution`, distinct digits)? An empty slot does.
    pub fn cage_admits(&self, id: usize, solution: &Grid, grid: &Grid) -> bool {
        cells_admit(self.cells(id).iter().copied(), solution, grid)
    }
}

/// Does `grid` satisfy a cage of these cells (sum read from `solution`, distinct digits)? An
/// empty list does.
pub fn cells_admit(cells: impl Iterator<Item = Cell>, solution: &Grid, grid: &Grid) -> bool {
    let mut seen = DigitSet::EMPTY;
    let mut delta = 0i32;
    for c in cells {
        let (s, g) = (solution.values()[c.as_index()], grid.values()[c.as_index()]);
        let d = Digit::new(g);
        if seen.contains(d) {
            return false;
        }
        seen.insert(d);
        delta += g as i32 - s as i32;
    }
    delta == 0
}

/// Cages of the cell lists `cells` with their sums read from `solution`, each cage's cells
/// sorted, the cages ordered by first cell.
pub fn cages_with_sums<'a>(cells: impl Iterator<Item = &'a [Cell]>, solution: &Grid) -> Vec<Cage> {
    let mut cages: Vec<Cage> = cells
        .map(|cells| {
            let mut cells = cells.to_vec();
            cells.sort_unstable();
            let sum = cells
                .iter()
                .map(|&c| solution.values()[c.as_index()] as u16)
                .sum();
            Cage::new(sum, cells)
        })
        .collect();
    cages.sort_unstable_by_key(|c| c.cells[0]);
    cages
}

#[cfg(test)]
mod tests {
    use super::*;

    fn grid4() -> Grid {
        Grid::from_values(4, vec![1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 1]).unwrap()
    }

    #[test]
    fn edits_keep_owner_and_digits_in_step() {
        let g = Geometry::standard(4).unwrap();
        let s = grid4();
        let d = |i: u8| s.get(Cell::new(i)).unwrap();
        let mut layout = CageLayout::new(16);
        let a = layout.open(Cell::new(0), d(0));
        layout.push(a, Cell::new(1), d(1));
        let b = layout.open(Cell::new(2), d(2));
        assert_eq!(
            layout.neighbour_cages(&g, Cell::new(1)).collect::<Vec<_>>(),
            vec![b]
        );
        assert!(
            !layout.accepts(a, d(9), 4),
            "digit 1 of r3c2 is already in cage a"
        );
        let adjacency = Adjacency::new(&g);
        assert!(layout.is_connected(&adjacency, a) && layout.is_connected(&adjacency, b));
        layout.push(b, Cell::new(12), d(12));
        assert!(
            !layout.is_connected(&adjacency, b),
            "r1c3 and r4c1 do not touch"
        );
        layout.release(Cell::new(12), d(12));
        assert!(layout.absorb_singles(&g, &s, 4));
        assert_eq!(layout.count_cages(), 1);
        assert_eq!(layout.to_cages(&s)[0].sum, 6);
        assert_eq!(layout.cells(a).len(), 3);
    }
}
