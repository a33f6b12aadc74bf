//! Grid geometry: sizes, box shapes or jigsaw regions, and the typed `Cell`, `Digit` and `House`.

use crate::bitset::CellSet;
use thiserror::Error;

/// The largest supported side length (16x16 grids, digits 1..=16).
pub const MAX_SIZE: usize = 16;
/// The largest number of cells in a grid (16 x 16).
pub const MAX_CELLS: usize = MAX_SIZE * MAX_SIZE;

/// A cell position, `row * size + col`, 0-based.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Cell(u8);

impl Cell {
    /// The cell with this 0-based index (callers guarantee `index < MAX_CELLS`).
    pub const fn new(index: u8) -> Self {
        Cell(index)
    }
    /// The cell with this index, if it lies inside a grid of `cell_count` cells.
    pub fn new_checked(index: usize, cell_count: usize) -> Option<Self> {
        (index < cell_count && index < MAX_CELLS).then_some(Cell(index as u8))
    }
    /// The raw index.
    pub const fn get(self) -> u8 {
        self.0
    }
    /// The index as `usize`, for indexing per-cell arrays.
    pub const fn as_index(self) -> usize {
        self.0 as usize
    }
}

/// A digit `1..=N`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Digit(u8);

impl Digit {
    /// The digit with this value (callers guarantee `1 <= value <= MAX_SIZE`).
    pub const fn new(value: u8) -> Self {
        Digit(value)
    }
    /// The digit with this value, if `1 <= value <= size`.
    pub fn new_checked(value: usize, size: usize) -> Option<Self> {
        (value >= 1 && value <= size && value <= MAX_SIZE).then_some(Digit(value as u8))
    }
    /// The digit's value, `1..=N`.
    pub const fn get(self) -> u8 {
        self.0
    }
    /// `value - 1`, for indexing per-digit arrays and bitsets.
    pub const fn as_index(self) -> usize {
        self.0 as usize - 1
    }
}

/// A house: rows are `0..N`, columns `N..2N`, boxes or regions `2N..3N`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct House(u8);

impl House {
    /// The house with this index (callers guarantee `index < 3 * MAX_SIZE`).
    pub const fn new(index: u8) -> Self {
        House(index)
    }
    /// The house with this index, if it is one of the `3 * size` houses.
    pub fn new_checked(index: usize, size: usize) -> Option<Self> {
        (index < 3 * size).then_some(House(index as u8))
    }
    /// The raw index.
    pub const fn get(self) -> u8 {
        self.0
    }
    /// The index as `usize`.
    pub const fn as_index(self) -> usize {
        self.0 as usize
    }
}

/// How the third kind of house is shaped.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Regions {
    /// Rectangular boxes of `rows x cols` cells (`rows * cols == size`).
    Boxes {
        /// Box height in cells.
        rows: u8,
        /// Box width in cells.
        cols: u8,
    },
    /// Jigsaw regions: the region index `0..N` of every cell.
    Jigsaw(Vec<u8>),
}

/// Why a geometry cannot be built.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum GeometryError {
    /// Side length outside 1..=16.
    #[error("grid size {0} is not supported: use a size from 1 to {MAX_SIZE}")]
    BadSize(usize),
    /// Box shape that does not tile the grid.
    #[error("box shape {rows}x{cols} does not tile a {size}x{size} grid: box rows x box cols must equal the size")]
    BadBoxShape {
        /// Grid side.
        size: usize,
        /// Box height.
        rows: usize,
        /// Box width.
        cols: usize,
    },
    /// Region map of the wrong length.
    #[error("jigsaw regions cover {got} cells, a {size}x{size} grid has {expected}")]
    RegionCount {
        /// Grid side.
        size: usize,
        /// Cells expected.
        expected: usize,
        /// Cells given.
        got: usize,
    },
    /// A region index out of range or a region of the wrong size.
    #[error("jigsaw region {region} has {cells} cells, every region must have exactly {size}")]
    RegionSize {
        /// Grid side.
        size: usize,
        /// Region index.
        region: usize,
        /// Its number of cells.
        cells: usize,
    },
    /// A region index outside `0..N`.
    #[error("cell {cell} is in region {region}, regions are numbered 0 to {max}")]
    RegionIndex {
        /// The cell.
        cell: usize,
        /// Its region number.
        region: usize,
        /// Highest region number allowed.
        max: usize,
    },
    /// A region that is not orthogonally connected.
    #[error("jigsaw region {0} is not orthogonally connected")]
    RegionDisconnected(usize),
}

/// The shape of an N x N grid: its side, its boxes or regions, and the cells of every house.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Geometry {
    size: u8,
    regions: Regions,
    region_of: Vec<u8>,
}

impl Geometry {
    /// A grid with rectangular `box_rows x box_cols` boxes.
    pub fn boxed(size: usize, box_rows: usize, box_cols: usize) -> Result<Self, GeometryError> {
        if size == 0 || size > MAX_SIZE {
            return Err(GeometryError::BadSize(size));
        }
        if box_rows * box_cols != size {
            return Err(GeometryError::BadBoxShape {
                size,
                rows: box_rows,
                cols: box_cols,
            });
        }
        let region_of = (0..size * size)
            .map(|i| {
                let (r, c) = (i / size, i % size);
                ((r / box_rows) * (size / box_cols) + c / box_cols) as u8
            })
            .collect();
        Ok(Geometry {
            size: size as u8,
            regions: Regions::Boxes {
                rows: box_rows as u8,
                cols: box_cols as u8,
            },
            region_of,
        })
    }

    /// The usual box shape for a size: 4 -> 2x2, 6 -> 2x3, 8 -> 2x4, 9 -> 3x3, 12 -> 3x4, 16 -> 4x4
    /// (the most square factorisation, boxes no taller than wide).
    pub fn standard(size: usize) -> Result<Self, GeometryError> {
        if size == 0 || size > MAX_SIZE {
            return Err(GeometryError::BadSize(size));
        }
        let rows = (1..=size)
            .filter(|r| size.is_multiple_of(*r) && r * r <= size)
            .max()
            .unwrap_or(1);
        Self::boxed(size, rows, size / rows)
    }

    /// A jigsaw grid from the region index of every cell; regions must be connected and of N cells.
    pub fn jigsaw(size: usize, region_of: Vec<u8>) -> Result<Self, GeometryError> {
        if size == 0 || size > MAX_SIZE {
            return Err(GeometryError::BadSize(size));
        }
        let n = size * size;
        if region_of.len() != n {
            return Err(GeometryError::RegionCount {
                size,
                expected: n,
                got: region_of.len(),
            });
        }
        let mut counts = vec![0usize; size];
        for (cell, &r) in region_of.iter().enumerate() {
            let r = r as usize;
            if r >= size {
                return Err(GeometryError::RegionIndex {
                    cell,
                    region: r,
                    max: size - 1,
                });
            }
            counts[r] += 1;
        }
        if let Some((region, &cells)) = counts.iter().enumerate().find(|(_, &c)| c != size) {
            return Err(GeometryError::RegionSize {
                size,
                region,
                cells,
            });
        }
        let geometry = Geometry {
            size: size as u8,
            regions: Regions::Jigsaw(region_of.clone()),
            region_of,
        };
        for region in 0..size {
            let cells = geometry.house_cells(House::new((2 * size + region) as u8));
            if !geometry.is_connected(&cells) {
                return Err(GeometryError::RegionDisconnected(region));
            }
        }
        Ok(geometry)
    }

    /// Side length N.
    pub fn size(&self) -> usize {
        self.size as usize
    }
    /// Number of cells, N².
    pub fn cell_count(&self) -> usize {
        self.size() * self.size()
    }
    /// Box shape or jigsaw regions.
    pub fn regions(&self) -> &Regions {
        &self.regions
    }
    /// `(box_rows, box_cols)` for boxed grids, `None` for jigsaw.
    pub fn box_shape(&self) -> Option<(usize, usize)> {
        match self.regions {
            Regions::Boxes { rows, cols } => Some((rows as usize, cols as usize)),
            Regions::Jigsaw(_) => None,
        }
    }
    /// Is this a jigsaw geometry?
    pub fn is_jigsaw(&self) -> bool {
        matches!(self.regions, Regions::Jigsaw(_))
    }
    /// All cells, in index order.
    pub fn cells(&self) -> impl Iterator<Item = Cell> + '_ {
        (0..self.cell_count()).map(|i| Cell::new(i as u8))
    }
    /// Row of a cell.
    pub fn row(&self, cell: Cell) -> usize {
        cell.as_index() / self.size()
    }
    /// Column of a cell.
    pub fn col(&self, cell: Cell) -> usize {
        cell.as_index() % self.size()
    }
    /// Box or region index of a cell.
    pub fn region(&self, cell: Cell) -> usize {
        self.region_of[cell.as_index()] as usize
    }
    /// The region index of every cell.
    pub fn region_map(&self) -> &[u8] {
        &self.region_of
    }
    /// The cell at `(row, col)` (callers guarantee both `< N`).
    pub fn cell_at(&self, row: usize, col: usize) -> Cell {
        Cell::new((row * self.size() + col) as u8)
    }
    /// Number of houses, 3N.
    pub fn house_count(&self) -> usize {
        3 * self.size()
    }
    /// The three houses (row, column, box) of a cell.
    pub fn houses_of(&self, cell: Cell) -> [House; 3] {
        let n = self.size();
        [
            House::new(self.row(cell) as u8),
            House::new((n + self.col(cell)) as u8),
            House::new((2 * n + self.region(cell)) as u8),
        ]
    }
    /// The cells of a house, in index order.
    pub fn house_cells(&self, house: House) -> Vec<Cell> {
        let n = self.size();
        let h = house.as_index();
        match h / n {
            0 => (0..n).map(|c| self.cell_at(h, c)).collect(),
            1 => (0..n).map(|r| self.cell_at(r, h - n)).collect(),
            _ => self
                .cells()
                .filter(|&c| self.region(c) == h - 2 * n)
                .collect(),
        }
    }
    /// The orthogonal neighbours of a cell.
    pub fn neighbours(&self, cell: Cell) -> impl Iterator<Item = Cell> + '_ {
        let (r, c, n) = (self.row(cell), self.col(cell), self.size());
        let up = (r > 0).then(|| self.cell_at(r - 1, c));
        let down = (r + 1 < n).then(|| self.cell_at(r + 1, c));
        let left = (c > 0).then(|| self.cell_at(r, c - 1));
        let right = (c + 1 < n).then(|| self.cell_at(r, c + 1));
        [up, down, left, right].into_iter().flatten()
    }
    /// Are these cells one orthogonally connected group? (The empty set counts as connected.)
    pub fn is_connected(&self, cells: &[Cell]) -> bool {
        if cells.len() <= 32 {
            are_connected(self.size(), cells)
        } else {
            self.is_connected_set(cells)
        }
    }

    /// `is_connected` by a search over the grid's neighbours within the set of the cells.
    fn is_connected_set(&self, cells: &[Cell]) -> bool {
        let Some(&start) = cells.first() else {
            return true;
        };
        let members: CellSet = cells.iter().copied().collect();
        let mut seen = CellSet::single(start);
        // Each cell is pushed at most once: a fixed stack of one slot per cell, no allocation.
        let mut stack = [start; MAX_CELLS];
        let mut top = 1;
        while top > 0 {
            top -= 1;
            for next in self.neighbours(stack[top]) {
                if members.contains(next) && !seen.contains(next) {
                    seen.insert(next);
                    stack[top] = next;
                    top += 1;
                }
            }
        }
        seen.len() == members.len()
    }
}

/// Are these (at most 32) cells of an `n x n` grid one orthogonally connected group? A search
/// over a bitmask of their places in the list, with no set of the whole grid to build: for cages
/// and regions (profiled: 4% of `solve`'s CPU on published killers with grid-wide sets). A
/// repeated cell counts as touching its twin, as a set counts it once.
pub fn are_connected(n: usize, cells: &[Cell]) -> bool {
    let k = cells.len();
    debug_assert!(k <= 32);
    // Row and column of each cell, divided out once (not once per pair).
    let mut at = [(0usize, 0usize); 32];
    for (slot, &c) in at.iter_mut().zip(cells) {
        *slot = (c.as_index() / n, c.as_index() % n);
    }
    let all = if k >= 32 { u32::MAX } else { (1u32 << k) - 1 };
    let (mut seen, mut todo) = (1u32 & all, 1u32 & all);
    while todo != 0 {
        let (ra, ca) = at[todo.trailing_zeros() as usize];
        todo &= todo - 1;
        for (j, &(rb, cb)) in at[..k].iter().enumerate() {
            if seen & (1 << j) == 0 && ra.abs_diff(rb) + ca.abs_diff(cb) <= 1 {
                seen |= 1 << j;
                todo |= 1 << j;
            }
        }
    }
    seen == all
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_small_connectivity_test_agrees_with_the_set_search() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_pcg::Pcg64::seed_from_u64(9);
        let mut answers = [0; 2];
        for n in [4, 9, 16] {
            let g = Geometry::standard(n).unwrap();
            for _ in 0..3000 {
                let len = rng.random_range(0..=32);
                // Cells near one another (so that both answers occur), repeats allowed.
                let (r0, c0) = (rng.random_range(0..n), rng.random_range(0..n));
                let cells: Vec<Cell> = (0..len)
                    .map(|_| {
                        let r = (r0 + rng.random_range(0..4)).min(n - 1);
                        let c = (c0 + rng.random_range(0..4)).min(n - 1);
                        Cell::new((r * n + c) as u8)
                    })
                    .collect();
                let small = are_connected(n, &cells);
                assert_eq!(small, g.is_connected_set(&cells), "{n}x{n}: {cells:?}");
                answers[small as usize] += 1;
            }
        }
        assert!(answers.iter().all(|&a| a > 1000), "{answers:?}");
    }

    #[test]
    fn standard_shapes() {
        for (n, r, c) in [
            (4, 2, 2),
            (6, 2, 3),
            (8, 2, 4),
            (9, 3, 3),
            (12, 3, 4),
            (16, 4, 4),
        ] {
            assert_eq!(Geometry::standard(n).unwrap().box_shape(), Some((r, c)));
        }
    }

    #[test]
    fn every_house_has_n_cells_and_each_cell_three_houses() {
        let g = Geometry::boxed(6, 2, 3).unwrap();
        for h in 0..g.house_count() {
            assert_eq!(g.house_cells(House::new(h as u8)).len(), 6);
        }
        let c = g.cell_at(3, 4);
        let [row, col, boxh] = g.houses_of(c);
        assert_eq!(
            (row.as_index(), col.as_index(), boxh.as_index()),
            (3, 10, 12 + 3)
        );
    }

    #[test]
    fn jigsaw_validation() {
        let rows: Vec<u8> = (0..16).map(|i| (i / 4) as u8).collect();
        assert!(Geometry::jigsaw(4, rows).is_ok());
        let split: Vec<u8> = vec![0, 1, 0, 1, 1, 0, 1, 0, 2, 2, 2, 2, 3, 3, 3, 3];
        assert_eq!(
            Geometry::jigsaw(4, split),
            Err(GeometryError::RegionDisconnected(0))
        );
        assert!(matches!(
            Geometry::jigsaw(4, vec![0; 16]),
            Err(GeometryError::RegionSize { .. })
        ));
        assert!(Geometry::boxed(9, 2, 4).is_err());
        assert!(Geometry::standard(17).is_err());
    }
}
