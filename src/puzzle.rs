//! `Puzzle`: a geometry, its givens and (for killers) its cages, validated when built.

use crate::bitset::{CellSet, DigitSet};
use crate::cage::{is_reachable, max_sum, min_sum, Cage};
use crate::geometry::{Cell, Geometry};
use crate::grid::Grid;
use thiserror::Error;

/// Why a puzzle is not well formed. Cells are reported as `r<row>c<col>`, 1-based.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum PuzzleError {
    /// Givens of another size than the geometry.
    #[error("the givens are for a {got}x{got} grid, the geometry is {expected}x{expected}")]
    GivensSize {
        /// Geometry side.
        expected: usize,
        /// Givens side.
        got: usize,
    },
    /// The same digit given twice in one house.
    #[error("digit {digit} is given twice in one row, column or box (at {cell})")]
    GivenConflict {
        /// The repeated digit.
        digit: u8,
        /// Where, as r<row>c<col>.
        cell: String,
    },
    /// A cage cell outside the grid.
    #[error("cage {cage}: cell index {index} is outside the {size}x{size} grid (0 to {max})")]
    CellOutOfRange {
        /// Cage number, 1-based.
        cage: usize,
        /// The offending index.
        index: usize,
        /// Grid side.
        size: usize,
        /// Highest index allowed.
        max: usize,
    },
    /// A cage with no cells.
    #[error("cage {0} has no cells")]
    EmptyCage(usize),
    /// A cage larger than N.
    #[error("cage {cage} has {cells} cells, a cage can hold at most {size} (one of each digit)")]
    CageTooLarge {
        /// Cage number, 1-based.
        cage: usize,
        /// Its cell count.
        cells: usize,
        /// Grid side.
        size: usize,
    },
    /// A cell in two cages (or twice in one).
    #[error("cell {cell} is in cage {first} and again in cage {second}: cages must not overlap")]
    Overlap {
        /// The cell, r<row>c<col>.
        cell: String,
        /// First cage, 1-based.
        first: usize,
        /// Second cage, 1-based.
        second: usize,
    },
    /// A cage that is not one orthogonally connected group.
    #[error("cage {0} is not orthogonally connected")]
    Disconnected(usize),
    /// A sum no set of distinct digits can make.
    #[error(
        "cage {cage}: {cells} distinct digits cannot add up to {sum} (possible: {min} to {max})"
    )]
    ImpossibleSum {
        /// Cage number, 1-based.
        cage: usize,
        /// Its cell count.
        cells: usize,
        /// The sum given.
        sum: usize,
        /// Smallest possible total.
        min: usize,
        /// Largest possible total.
        max: usize,
    },
    /// Givens inside a cage that repeat a digit or overshoot its sum.
    #[error("cage {0}: its givens repeat a digit or exceed its sum")]
    CageGivens(usize),
}

/// A Sudoku or Killer Sudoku puzzle: geometry, givens, and cages (empty for a plain puzzle).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Puzzle {
    geometry: Geometry,
    givens: Grid,
    cages: Vec<Cage>,
}

/// `r<row>c<col>`, 1-based, for messages.
pub fn cell_name(geometry: &Geometry, cell: Cell) -> String {
    format!("r{}c{}", geometry.row(cell) + 1, geometry.col(cell) + 1)
}

impl Puzzle {
    /// Build and validate a puzzle. Cage cells are sorted; cages need not cover every cell.
    pub fn new(
        geometry: Geometry,
        givens: Grid,
        mut cages: Vec<Cage>,
    ) -> Result<Self, PuzzleError> {
        let n = geometry.size();
        if givens.size() != n {
            return Err(PuzzleError::GivensSize {
                expected: n,
                got: givens.size(),
            });
        }
        if !givens.is_consistent(&geometry) {
            return Err(Self::find_given_conflict(&geometry, &givens));
        }
        let mut owner = vec![0usize; geometry.cell_count()];
        for (i, cage) in cages.iter_mut().enumerate() {
            let number = i + 1;
            if cage.cells.is_empty() {
                return Err(PuzzleError::EmptyCage(number));
            }
            for &cell in &cage.cells {
                if cell.as_index() >= geometry.cell_count() {
                    return Err(PuzzleError::CellOutOfRange {
                        cage: number,
                        index: cell.as_index(),
                        size: n,
                        max: geometry.cell_count() - 1,
                    });
                }
                let seen = &mut owner[cell.as_index()];
                if *seen != 0 {
                    return Err(PuzzleError::Overlap {
                        cell: cell_name(&geometry, cell),
                        first: *seen,
                        second: number,
                    });
                }
                *seen = number;
            }
            let k = cage.cells.len();
            if k > n {
                return Err(PuzzleError::CageTooLarge {
                    cage: number,
                    cells: k,
                    size: n,
                });
            }
            if !is_reachable(k, cage.sum as usize, n) {
                return Err(PuzzleError::ImpossibleSum {
                    cage: number,
                    cells: k,
                    sum: cage.sum as usize,
                    min: min_sum(k),
                    max: max_sum(k, n),
                });
            }
            if !geometry.is_connected(&cage.cells) {
                return Err(PuzzleError::Disconnected(number));
            }
            cage.cells.sort_unstable();
            let mut digits = DigitSet::EMPTY;
            let mut total = 0usize;
            for d in cage.cells.iter().filter_map(|&c| givens.get(c)) {
                if digits.contains(d) {
                    return Err(PuzzleError::CageGivens(number));
                }
                digits.insert(d);
                total += d.get() as usize;
            }
            let complete = digits.len() as usize == k;
            if total > cage.sum as usize || (complete && total != cage.sum as usize) {
                return Err(PuzzleError::CageGivens(number));
            }
        }
        Ok(Puzzle {
            geometry,
            givens,
            cages,
        })
    }

    fn find_given_conflict(geometry: &Geometry, givens: &Grid) -> PuzzleError {
        for h in 0..geometry.house_count() {
            let mut seen = DigitSet::EMPTY;
            for c in geometry.house_cells(crate::geometry::House::new(h as u8)) {
                if let Some(d) = givens.get(c) {
                    if seen.contains(d) {
                        return PuzzleError::GivenConflict {
                            digit: d.get(),
                            cell: cell_name(geometry, c),
                        };
                    }
                    seen.insert(d);
                }
            }
        }
        unreachable!("find_given_conflict is only called on inconsistent givens")
    }

    /// A plain puzzle (no cages).
    pub fn plain(geometry: Geometry, givens: Grid) -> Result<Self, PuzzleError> {
        Self::new(geometry, givens, Vec::new())
    }
    /// The geometry.
    pub fn geometry(&self) -> &Geometry {
        &self.geometry
    }
    /// Side length N.
    pub fn size(&self) -> usize {
        self.geometry.size()
    }
    /// The givens.
    pub fn givens(&self) -> &Grid {
        &self.givens
    }
    /// Remove the given in `cell`, if any (fewer givens keep a puzzle well formed, so no check).
    pub fn clear_given(&mut self, cell: Cell) {
        self.givens.set(cell, None);
    }
    /// The cages (empty for a plain puzzle).
    pub fn cages(&self) -> &[Cage] {
        &self.cages
    }
    /// Is this a killer (has cages)?
    pub fn is_killer(&self) -> bool {
        !self.cages.is_empty()
    }
    /// The cells covered by some cage.
    pub fn caged_cells(&self) -> CellSet {
        self.cages
            .iter()
            .flat_map(|c| c.cells.iter().copied())
            .collect()
    }
    /// Does a complete grid satisfy every rule of this puzzle (houses, givens, cages)?
    pub fn is_solution(&self, grid: &Grid) -> bool {
        grid.is_solved(&self.geometry)
            && self
                .geometry
                .cells()
                .all(|c| self.givens.get(c).is_none() || self.givens.get(c) == grid.get(c))
            && self.cages.iter().all(|cage| {
                let digits: DigitSet = cage.cells.iter().filter_map(|&c| grid.get(c)).collect();
                let total: usize = cage
                    .cells
                    .iter()
                    .filter_map(|&c| grid.get(c))
                    .map(|d| d.get() as usize)
                    .sum();
                digits.len() as usize == cage.len() && total == cage.sum as usize
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn g4() -> Geometry {
        Geometry::standard(4).unwrap()
    }

    #[test]
    fn rejects_bad_cages() {
        let e = Grid::empty(4);
        let cage =
            |sum, cells: &[u8]| Cage::new(sum, cells.iter().map(|&i| Cell::new(i)).collect());
        assert_eq!(
            Puzzle::new(g4(), e.clone(), vec![cage(3, &[0, 1]), cage(3, &[1, 2])]).unwrap_err(),
            PuzzleError::Overlap {
                cell: "r1c2".into(),
                first: 1,
                second: 2
            }
        );
        assert_eq!(
            Puzzle::new(g4(), e.clone(), vec![cage(3, &[0, 2])]).unwrap_err(),
            PuzzleError::Disconnected(1)
        );
        assert!(matches!(
            Puzzle::new(g4(), e.clone(), vec![cage(9, &[0, 1])]).unwrap_err(),
            PuzzleError::ImpossibleSum { min: 3, max: 7, .. }
        ));
        assert!(matches!(
            Puzzle::new(g4(), e.clone(), vec![cage(3, &[0, 16])]).unwrap_err(),
            PuzzleError::CellOutOfRange { .. }
        ));
        assert!(matches!(
            Puzzle::new(g4(), e, vec![cage(10, &[0, 1, 2, 3, 7])]).unwrap_err(),
            PuzzleError::CageTooLarge { .. }
        ));
    }

    #[test]
    fn rejects_conflicting_givens() {
        let givens =
            Grid::from_values(4, vec![1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]).unwrap();
        assert!(matches!(
            Puzzle::plain(g4(), givens),
            Err(PuzzleError::GivenConflict { digit: 1, .. })
        ));
    }
}
