//! Plain-sudoku techniques (locked candidates to forcing chains), on any size and jigsaw regions.
//!
//! Every finder is a pure `find_<name>(board) -> Option<Step>`: the first instance it sees, in a
//! fixed order (lowest digit, house and cell first), without changing the board. Killers add one
//! thing: two cells of one cage never hold the same digit (a weak link), and a digit every
//! combination of a cage needs, with exactly two places left in the cage, is a strong link.
//! Definitions follow SudokuWiki and HoDoKu (ideas only, no code).

pub mod locked;
pub mod subsets;

#[cfg(test)]
mod soundness;

pub use locked::find_locked_candidates;
pub use subsets::{
    find_hidden_pair, find_hidden_quad, find_hidden_triple, find_naked_pair, find_naked_quad,
    find_naked_triple,
};

use crate::bitset::DigitSet;
use crate::geometry::{Cell, Digit, House};
use crate::grader::state::Board;
use crate::grader::step::{Step, Technique};
use crate::puzzle::cell_name;

/// A plain finder: the first step of one technique, or `None`.
pub type Finder = for<'a, 'p> fn(&'a Board<'p>) -> Option<Step>;

/// Every plain finder with its technique, easiest first (the grader's ladder may reorder them).
pub const FINDERS: &[(Technique, Finder)] = &[
    (Technique::LockedCandidates, find_locked_candidates),
    (Technique::NakedPair, find_naked_pair),
    (Technique::HiddenPair, find_hidden_pair),
    (Technique::NakedTriple, find_naked_triple),
    (Technique::HiddenTriple, find_hidden_triple),
    (Technique::NakedQuad, find_naked_quad),
    (Technique::HiddenQuad, find_hidden_quad),
];

/// All houses of the board, rows then columns then regions.
pub(crate) fn houses(board: &Board) -> impl Iterator<Item = House> {
    (0..board.geometry().house_count()).map(|h| House::new(h as u8))
}

/// Is the cell still empty?
pub(crate) fn is_open(board: &Board, cell: Cell) -> bool {
    board.placed(cell).is_none()
}

/// The empty cells of the board, in index order.
pub(crate) fn open_cells<'a>(board: &'a Board) -> impl Iterator<Item = Cell> + 'a {
    board.geometry().cells().filter(move |&c| is_open(board, c))
}

/// The empty cells of a house, in index order.
pub(crate) fn open_in(board: &Board, house: House) -> Vec<Cell> {
    board
        .house_set(house)
        .iter()
        .filter(|&c| is_open(board, c))
        .collect()
}

/// Can two different cells not hold the same digit (one house, or one cage)?
pub(crate) fn sees(board: &Board, a: Cell, b: Cell) -> bool {
    if a == b {
        return false;
    }
    let g = board.geometry();
    g.row(a) == g.row(b)
        || g.col(a) == g.col(b)
        || g.region(a) == g.region(b)
        || matches!((board.cage_of(a), board.cage_of(b)), (Some(x), Some(y)) if x == y)
}

/// The digits of an N x N board.
pub(crate) fn digits(board: &Board) -> impl Iterator<Item = Digit> {
    (1..=board.size() as u8).map(Digit::new)
}

/// "row 2", "column 3", "box 4" (or "region 4" on jigsaw grids), 1-based.
pub(crate) fn house_name(board: &Board, house: House) -> String {
    let n = board.size();
    let h = house.as_index();
    let kind = match h / n {
        0 => "row",
        1 => "column",
        _ if board.geometry().is_jigsaw() => "region",
        _ => "box",
    };
    format!("{kind} {}", h % n + 1)
}

/// Is the house a row, a column, or a region?
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum HouseKind {
    Row,
    Column,
    Region,
}

/// The kind of a house.
pub(crate) fn house_kind(board: &Board, house: House) -> HouseKind {
    match house.as_index() / board.size() {
        0 => HouseKind::Row,
        1 => HouseKind::Column,
        _ => HouseKind::Region,
    }
}

/// `r1c1` of a cell.
pub(crate) fn name(board: &Board, cell: Cell) -> String {
    cell_name(board.geometry(), cell)
}

/// `r1c1, r2c3` of a list of cells.
pub(crate) fn names(board: &Board, cells: &[Cell]) -> String {
    cells
        .iter()
        .map(|&c| name(board, c))
        .collect::<Vec<_>>()
        .join(", ")
}

/// `1/2/7` of a digit set.
pub(crate) fn digit_list(set: DigitSet) -> String {
    set.iter()
        .map(|d| d.get().to_string())
        .collect::<Vec<_>>()
        .join("/")
}

/// All `k`-element subsets of `0..n`, in lexicographic order, passed to `visit` until it returns
/// `Some`.
pub(crate) fn for_each_subset<T>(
    n: usize,
    k: usize,
    visit: &mut dyn FnMut(&[usize]) -> Option<T>,
) -> Option<T> {
    if k == 0 || k > n {
        return None;
    }
    let mut idx: Vec<usize> = (0..k).collect();
    loop {
        if let Some(t) = visit(&idx) {
            return Some(t);
        }
        // Advance the rightmost index that can move.
        let mut i = k;
        loop {
            if i == 0 {
                return None;
            }
            i -= 1;
            if idx[i] < n - k + i {
                break;
            }
            if i == 0 {
                return None;
            }
        }
        idx[i] += 1;
        for j in i + 1..k {
            idx[j] = idx[j - 1] + 1;
        }
    }
}

#[cfg(test)]
pub(crate) mod test_util;
