//! Checking a filled or partly filled grid against a puzzle: every broken rule, as typed conflicts.

use crate::geometry::{Cell, Digit, Geometry, House};
use crate::grid::Grid;
use crate::puzzle::Puzzle;
use std::fmt;
use thiserror::Error;

/// A cell position for messages: shown 1-based as `r<row>c<col>`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Position {
    /// 0-based row.
    pub row: usize,
    /// 0-based column.
    pub col: usize,
}

impl Position {
    /// The position of a cell in a geometry.
    pub fn of(geometry: &Geometry, cell: Cell) -> Self {
        Position {
            row: geometry.row(cell),
            col: geometry.col(cell),
        }
    }
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "r{}c{}", self.row + 1, self.col + 1)
    }
}

/// The kind and 1-based number of a house, for messages.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum HouseName {
    /// Row n.
    Row(usize),
    /// Column n.
    Column(usize),
    /// Box n (boxes numbered left to right, top to bottom).
    Box(usize),
    /// Jigsaw region n.
    Region(usize),
}

impl HouseName {
    /// The name of a house of a geometry.
    pub fn of(geometry: &Geometry, house: House) -> Self {
        let n = geometry.size();
        let (kind, i) = (house.as_index() / n, house.as_index() % n + 1);
        match kind {
            0 => HouseName::Row(i),
            1 => HouseName::Column(i),
            _ if geometry.is_jigsaw() => HouseName::Region(i),
            _ => HouseName::Box(i),
        }
    }
}

impl fmt::Display for HouseName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HouseName::Row(i) => write!(f, "row {i}"),
            HouseName::Column(i) => write!(f, "column {i}"),
            HouseName::Box(i) => write!(f, "box {i}"),
            HouseName::Region(i) => write!(f, "region {i}"),
        }
    }
}

/// One broken rule. Cages are numbered from 1 in the puzzle's order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Conflict {
    /// A digit more than once in a row, column or box.
    HouseRepeat {
        /// The house.
        house: HouseName,
        /// The digit.
        digit: u8,
        /// Every cell of the house holding it.
        cells: Vec<Position>,
    },
    /// A digit more than once in a cage.
    CageRepeat {
        /// Cage number.
        cage: usize,
        /// The digit.
        digit: u8,
        /// Every cell of the cage holding it.
        cells: Vec<Position>,
    },
    /// A full cage whose digits do not add up to its sum.
    WrongSum {
        /// Cage number.
        cage: usize,
        /// Its first cell.
        at: Position,
        /// The required sum.
        sum: usize,
        /// The digits' total.
        total: usize,
    },
    /// A partly filled cage whose digits already exceed its sum.
    SumExceeded {
        /// Cage number.
        cage: usize,
        /// Its first cell.
        at: Position,
        /// The required sum.
        sum: usize,
        /// The total so far.
        total: usize,
    },
    /// A given replaced by another digit.
    ChangedGiven {
        /// The cell.
        at: Position,
        /// The given digit.
        given: u8,
        /// The digit found instead.
        found: u8,
    },
}

fn list(cells: &[Position]) -> String {
    let names: Vec<String> = cells.iter().map(Position::to_string).collect();
    names.join(", ")
}

impl fmt::Display for Conflict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Conflict::HouseRepeat { house, digit, cells } => {
                write!(f, "{house}: digit {digit} repeats at {}", list(cells))
            }
            Conflict::CageRepeat { cage, digit, cells } => {
                write!(f, "cage {cage}: digit {digit} repeats at {}", list(cells))
            }
            Conflict::WrongSum { cage, at, sum, total } => {
                write!(f, "cage {cage} (at {at}): its digits add up to {total}, the cage sum is {sum}")
            }
            Conflict::SumExceeded { cage, at, sum, total } => write!(
                f,
                "cage {cage} (at {at}): its digits already add up to {total}, more than the cage sum {sum}"
            ),
            Conflict::ChangedGiven { at, given, found } => {
                write!(f, "{at}: holds {found}, the given there is {given}")
            }
        }
    }
}

/// Why a grid cannot be checked against a puzzle.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum CheckError {
    /// Grid and puzzle of different sizes.
    #[error("the grid is {grid}x{grid}, the puzzle is {puzzle}x{puzzle}")]
    SizeMismatch {
        /// Grid side.
        grid: usize,
        /// Puzzle side.
        puzzle: usize,
    },
}

/// Every cell among `cells` holding each digit that occurs more than once there.
fn repeats(geometry: &Geometry, grid: &Grid, cells: &[Cell]) -> Vec<(Digit, Vec<Position>)> {
    let mut by_digit: Vec<Vec<Position>> = vec![Vec::new(); grid.size()];
    for &cell in cells {
        if let Some(d) = grid.get(cell) {
            by_digit[d.as_index()].push(Position::of(geometry, cell));
        }
    }
    by_digit
        .into_iter()
        .enumerate()
        .filter(|(_, at)| at.len() > 1)
        .map(|(i, at)| (Digit::new(i as u8 + 1), at))
        .collect()
}

/// Every conflict of `grid` with `puzzle`: house repeats, cage repeats and sums, changed givens.
/// Empty cells break no rule.
pub fn find_conflicts(puzzle: &Puzzle, grid: &Grid) -> Result<Vec<Conflict>, CheckError> {
    let geometry = puzzle.geometry();
    if grid.size() != geometry.size() {
        return Err(CheckError::SizeMismatch {
            grid: grid.size(),
            puzzle: geometry.size(),
        });
    }
    let mut conflicts = Vec::new();
    for h in 0..geometry.house_count() {
        let house = House::new(h as u8);
        let cells = geometry.house_cells(house);
        for (digit, cells) in repeats(geometry, grid, &cells) {
            let house = HouseName::of(geometry, house);
            let digit = digit.get();
            conflicts.push(Conflict::HouseRepeat {
                house,
                digit,
                cells,
            });
        }
    }
    for (i, cage) in puzzle.cages().iter().enumerate() {
        let cage_number = i + 1;
        for (digit, cells) in repeats(geometry, grid, &cage.cells) {
            let digit = digit.get();
            conflicts.push(Conflict::CageRepeat {
                cage: cage_number,
                digit,
                cells,
            });
        }
        let digits: Vec<usize> = cage
            .cells
            .iter()
            .filter_map(|&c| grid.get(c))
            .map(|d| d.get() as usize)
            .collect();
        let (sum, total) = (cage.sum as usize, digits.iter().sum());
        let at = Position::of(geometry, cage.cells[0]);
        if digits.len() == cage.len() && total != sum {
            conflicts.push(Conflict::WrongSum {
                cage: cage_number,
                at,
                sum,
                total,
            });
        } else if digits.len() < cage.len() && total > sum {
            conflicts.push(Conflict::SumExceeded {
                cage: cage_number,
                at,
                sum,
                total,
            });
        }
    }
    for cell in geometry.cells() {
        if let (Some(given), Some(found)) = (puzzle.givens().get(cell), grid.get(cell)) {
            if given != found {
                let at = Position::of(geometry, cell);
                let (given, found) = (given.get(), found.get());
                conflicts.push(Conflict::ChangedGiven { at, given, found });
            }
        }
    }
    Ok(conflicts)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cage::Cage;

    /// 4x4, r1c1 given 1, cage 1 = r1c3+r1c4 = 7, cage 2 = r2c3+r2c4 = 3.
    fn puzzle() -> Puzzle {
        let givens = Grid::from_values(4, [vec![1], vec![0; 15]].concat()).unwrap();
        let cage = |sum, a, b| Cage::new(sum, vec![Cell::new(a), Cell::new(b)]);
        let cages = vec![cage(7, 2, 3), cage(3, 6, 7)];
        Puzzle::new(Geometry::standard(4).unwrap(), givens, cages).unwrap()
    }

    fn grid(values: [u8; 16]) -> Grid {
        Grid::from_values(4, values.to_vec()).unwrap()
    }

    #[test]
    fn a_solution_and_an_empty_grid_have_no_conflicts() {
        let solution = grid([1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 1]);
        assert!(puzzle().is_solution(&solution));
        assert_eq!(find_conflicts(&puzzle(), &solution), Ok(vec![]));
        assert_eq!(find_conflicts(&puzzle(), &Grid::empty(4)), Ok(vec![]));
    }

    #[test]
    fn lists_every_conflict() {
        let bad = grid([2, 2, 3, 3, 0, 0, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
        let found: Vec<String> = find_conflicts(&puzzle(), &bad)
            .unwrap()
            .iter()
            .map(Conflict::to_string)
            .collect();
        assert_eq!(
            found,
            [
                "row 1: digit 2 repeats at r1c1, r1c2",
                "row 1: digit 3 repeats at r1c3, r1c4",
                "box 1: digit 2 repeats at r1c1, r1c2",
                "box 2: digit 3 repeats at r1c3, r1c4",
                "cage 1: digit 3 repeats at r1c3, r1c4",
                "cage 1 (at r1c3): its digits add up to 6, the cage sum is 7",
                "cage 2 (at r2c3): its digits already add up to 4, more than the cage sum 3",
                "r1c1: holds 2, the given there is 1",
            ]
        );
    }

    #[test]
    fn size_mismatch_is_an_error() {
        assert_eq!(
            find_conflicts(&puzzle(), &Grid::empty(9)),
            Err(CheckError::SizeMismatch { grid: 9, puzzle: 4 })
        );
    }
}
