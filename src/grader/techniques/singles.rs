//! Singles: full house, cage single, hidden single, naked single. Each finder reports every
//! instance on the board at once (one step per placement, each cell once), which is how people
//! sweep for singles and keeps the grader fast.

use super::context::HouseMemo;
use crate::bitset::{CellSet, DigitSet};
use crate::geometry::{Cell, Digit, House};
use crate::grader::state::Board;
use crate::grader::step::{Step, Technique};
use crate::grader::text::{cage_text, house_name};

/// Houses in the order people scan them for singles: boxes, then rows, then columns.
fn houses_boxes_first(n: usize) -> impl Iterator<Item = House> {
    (2 * n..3 * n).chain(0..2 * n).map(|h| House::new(h as u8))
}

/// (The cells, cages and houses a step rests on are only for explaining: grading skips them.)
fn placement(board: &Board, technique: Technique, cell: Cell, digit: Digit) -> Step {
    let mut step = Step::new(technique);
    step.placements.push((cell, digit));
    if board.explaining() {
        step.cells.push(cell);
    }
    step
}

/// The last empty cell of a house takes the missing digit. (A memo of fruitless houses, as
/// hidden singles keep, costs more here than the scan it saves.)
pub fn full_house(board: &Board, out: &mut Vec<Step>) {
    let n = board.size();
    let mut done = CellSet::EMPTY;
    for house in houses_boxes_first(n) {
        if board.house_open(house) != 1 {
            continue;
        }
        let mut empty = board
            .house_cells(house)
            .iter()
            .copied()
            .filter(|&c| board.is_empty(c));
        let (Some(cell), None) = (empty.next(), empty.next()) else {
            continue;
        };
        let missing = DigitSet::all(n).difference(board.placed_in(house));
        let Some(digit) = missing.first() else {
            continue;
        };
        if done.contains(cell) || !board.candidates(cell).contains(digit) {
            continue;
        }
        done.insert(cell);
        let mut step = placement(board, Technique::FullHouse, cell, digit);
        if board.explaining() {
            step.houses.push(house);
            step.reason = format!(
                "{} is the last empty cell of {}",
                board.cell_name(cell),
                house_name(board.geometry(), house)
            );
        }
        out.push(step);
    }
}

/// The last empty cell of a cage takes the cage sum minus the digits already in it.
pub fn cage_single(board: &Board, out: &mut Vec<Step>) {
    for (k, cage) in board.cages().iter().enumerate() {
        if board.cage_open(k) != 1 {
            continue;
        }
        let mut empty = cage.cells.iter().copied().filter(|&c| board.is_empty(c));
        let (Some(cell), None) = (empty.next(), empty.next()) else {
            continue;
        };
        let placed: i32 = cage
            .cells
            .iter()
            .filter_map(|&c| board.placed(c))
            .map(|d| d.get() as i32)
            .sum();
        let value = cage.sum as i32 - placed;
        let Some(digit) = Digit::new_checked(value.max(0) as usize, board.size()) else {
            continue;
        };
        if !board.candidates(cell).contains(digit) {
            continue;
        }
        let mut step = placement(board, Technique::CageSingle, cell, digit);
        if board.explaining() {
            step.cages.push(k);
            step.reason = match cage.cells.len() {
                1 => format!("{} is a one-cell cage", board.cell_name(cell)),
                _ => format!(
                    "{} is the last empty cell of cage {}: {} - {} = {}",
                    board.cell_name(cell),
                    cage_text(board.geometry(), cage.sum, &cage.cells),
                    cage.sum,
                    placed,
                    value
                ),
            };
        }
        out.push(step);
    }
}

/// A digit with one place left in a house goes there.
pub fn hidden_single(board: &Board, out: &mut Vec<Step>) {
    hidden_single_memo(board, out, None)
}

/// `hidden_single` remembering fruitless houses in `memo` (one slot per house).
pub fn hidden_single_memo(board: &Board, out: &mut Vec<Step>, memo: Option<&mut [u32]>) {
    let n = board.size();
    let mut memo = HouseMemo(memo);
    let mut done = CellSet::EMPTY;
    for house in houses_boxes_first(n) {
        if memo.skip(board, house.as_index(), house) {
            continue;
        }
        // One pass over the house: the digits seen once, the digits seen more than once.
        let (mut once, mut more) = (0u16, 0u16);
        for &cell in board.house_cells(house) {
            if board.is_empty(cell) {
                let c = board.candidates(cell).bits();
                more |= once & c;
                once |= c;
            }
        }
        let mut singles = once & !more;
        if singles != 0 {
            memo.found(house.as_index());
        }
        while singles != 0 {
            let i = singles.trailing_zeros() as usize;
            singles &= singles - 1;
            let Some(cell) = board
                .house_cells(house)
                .iter()
                .copied()
                .find(|&c| board.is_empty(c) && board.candidates(c).bits() & (1 << i) != 0)
            else {
                continue;
            };
            if done.contains(cell) {
                continue;
            }
            done.insert(cell);
            let digit = Digit::new(i as u8 + 1);
            let mut step = placement(board, Technique::HiddenSingle, cell, digit);
            if board.explaining() {
                step.houses.push(house);
                step.reason = format!(
                    "{} is the only place for {} in {}",
                    board.cell_name(cell),
                    digit.get(),
                    house_name(board.geometry(), house)
                );
            }
            out.push(step);
        }
    }
}

/// A cell with one candidate left takes it.
pub fn naked_single(board: &Board, out: &mut Vec<Step>) {
    for cell in board.singles().iter() {
        let Some(digit) = board.candidates(cell).first() else {
            continue;
        };
        let mut step = placement(board, Technique::NakedSingle, cell, digit);
        if board.explaining() {
            step.reason = format!(
                "{} has no candidate left but {}",
                board.cell_name(cell),
                digit.get()
            );
        }
        out.push(step);
    }
}
