//! `Grid`: a value (or nothing) for every cell of an N x N grid.

use crate::bitset::DigitSet;
use crate::geometry::{Cell, Digit, Geometry, MAX_SIZE};

/// Digits placed on an N x N grid; an empty cell holds no digit.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Grid {
    size: u8,
    values: Vec<u8>,
}

impl Grid {
    /// An empty grid of side `size` (callers guarantee `size <= MAX_SIZE`).
    pub fn empty(size: usize) -> Self {
        Grid {
            size: size as u8,
            values: vec![0; size * size],
        }
    }
    /// A grid from N² raw values, `0` = empty; `None` if a value exceeds `size` or the length is wrong.
    pub fn from_values(size: usize, values: Vec<u8>) -> Option<Self> {
        let ok = values.len() == size * size && values.iter().all(|&v| (v as usize) <= size);
        ok.then_some(Grid {
            size: size as u8,
            values,
        })
    }
    /// Side length N.
    pub fn size(&self) -> usize {
        self.size as usize
    }
    /// Raw values in cell order, `0` = empty.
    pub fn values(&self) -> &[u8] {
        &self.values
    }
    /// The digit in a cell, if any.
    pub fn get(&self, cell: Cell) -> Option<Digit> {
        match self.values[cell.as_index()] {
            0 => None,
            v => Some(Digit::new(v)),
        }
    }
    /// Put a digit in a cell, or clear it.
    pub fn set(&mut self, cell: Cell, digit: Option<Digit>) {
        self.values[cell.as_index()] = digit.map_or(0, Digit::get);
    }
    /// Number of filled cells.
    pub fn count_filled(&self) -> usize {
        self.values.iter().filter(|&&v| v != 0).count()
    }
    /// Is every cell filled?
    pub fn is_complete(&self) -> bool {
        self.values.iter().all(|&v| v != 0)
    }
    /// Does no house hold a digit twice? (Empty cells are ignored.) One pass over the cells,
    /// with no lists of house cells built: it runs for every puzzle read.
    pub fn is_consistent(&self, geometry: &Geometry) -> bool {
        let mut seen = [DigitSet::EMPTY; 3 * MAX_SIZE];
        for cell in geometry.cells() {
            let Some(digit) = self.get(cell) else {
                continue;
            };
            for house in geometry.houses_of(cell) {
                let digits = &mut seen[house.as_index()];
                if digits.contains(digit) {
                    return false;
                }
                digits.insert(digit);
            }
        }
        true
    }
    /// Is this a complete grid with every house a permutation of 1..=N?
    pub fn is_solved(&self, geometry: &Geometry) -> bool {
        self.size() == geometry.size() && self.is_complete() && self.is_consistent(geometry)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    proptest::proptest! {
        /// `is_consistent` (which `Puzzle::new` runs on the givens) says what a check of every pair
        /// of cells says, on boxed and jigsaw grids with few or many givens.
        #[test]
        fn consistency_matches_a_check_of_every_pair(
            shape in 0usize..4,
            values in proptest::collection::vec(0u8..=16, 256),
            density in 1usize..6,
        ) {
            let geometry = match shape {
                0 => Geometry::standard(4).unwrap(),
                1 => Geometry::boxed(6, 3, 2).unwrap(),
                2 => Geometry::standard(9).unwrap(),
                _ => Geometry::jigsaw(4, vec![0, 0, 1, 1, 0, 0, 1, 1, 2, 3, 3, 3, 2, 2, 2, 3]).unwrap(),
            };
            let n = geometry.size();
            let cells = geometry.cell_count();
            let grid_values: Vec<u8> = (0..cells)
                .map(|i| if i % density == 0 { values[i] % (n as u8 + 1) } else { 0 })
                .collect();
            let givens = Grid::from_values(n, grid_values).unwrap();
            let cells: Vec<Cell> = geometry.cells().collect();
            let clash = cells.iter().any(|&a| {
                cells.iter().any(|&b| {
                    a != b
                        && givens.get(a).is_some()
                        && givens.get(a) == givens.get(b)
                        && geometry.houses_of(a).into_iter().any(|h| geometry.houses_of(b).into_iter().any(|k| k == h))
                })
            });
            proptest::prop_assert_eq!(givens.is_consistent(&geometry), !clash);
        }
    }

    #[test]
    fn solved_4x4() {
        let g = Geometry::standard(4).unwrap();
        let grid =
            Grid::from_values(4, vec![1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 1]).unwrap();
        assert!(grid.is_solved(&g));
        let mut bad = grid.clone();
        bad.set(Cell::new(0), Some(Digit::new(2)));
        assert!(!bad.is_solved(&g));
        assert!(Grid::from_values(4, vec![5; 16]).is_none());
    }
}
