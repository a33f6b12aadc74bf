//! The law of leftovers: lines against the regions overlapping them most.

use crate::bitset::CellSet;
use crate::geometry::{Cell, Digit, House};
use crate::grader::state::Board;
use crate::grader::step::{Step, Technique};
use crate::grader::techniques::context::Context;
use crate::grader::text::{cells_text, house_name};

/// Largest leftover set (each side) the law of leftovers uses.
const MAX_LEFTOVER: usize = 6;

/// Law of leftovers: k adjacent rows (or columns) and the k regions overlapping them most each
/// hold every digit k times, so the cells of the lines outside the regions hold the same digits
/// (as a multiset) as the cells of the regions outside the lines. A candidate of one side that
/// the other side cannot match that often goes.
pub fn law_of_leftovers(_ctx: &mut Context, board: &Board, out: &mut Vec<Step>) {
    let g = board.geometry();
    let n = board.size();
    for dir in 0..2 {
        for k in 1..n {
            for start in 0..=n - k {
                let lines: Vec<House> = (start..start + k)
                    .map(|i| House::new((dir * n + i) as u8))
                    .collect();
                let set = lines
                    .iter()
                    .fold(CellSet::EMPTY, |a, &h| a.union(board.house_set(h)));
                // The k regions with the largest overlap (lowest index first on ties).
                let mut regions: Vec<(usize, usize)> = (0..n)
                    .map(|r| {
                        let h = House::new((2 * n + r) as u8);
                        (board.house_set(h).intersection(&set).len(), r)
                    })
                    .collect();
                regions.sort_by_key(|&(overlap, r)| (std::cmp::Reverse(overlap), r));
                let chosen: Vec<House> = regions[..k]
                    .iter()
                    .map(|&(_, r)| House::new((2 * n + r) as u8))
                    .collect();
                let other = chosen
                    .iter()
                    .fold(CellSet::EMPTY, |a, &h| a.union(board.house_set(h)));
                let left: Vec<Cell> = set.difference(&other).iter().collect();
                let right: Vec<Cell> = other.difference(&set).iter().collect();
                if left.is_empty() || left.len() > MAX_LEFTOVER {
                    continue;
                }
                let mut step = Step::new(Technique::LawOfLeftovers);
                leftover_eliminations(board, &left, &right, &mut step);
                leftover_eliminations(board, &right, &left, &mut step);
                if step.eliminations.is_empty() {
                    continue;
                }
                if board.explaining() {
                    let names: Vec<String> = lines
                        .iter()
                        .chain(&chosen)
                        .map(|&h| house_name(g, h))
                        .collect();
                    step.reason = format!(
                        "{} hold each digit {k} times over, so the leftovers {} hold the same digits as {}",
                        names.join(", "),
                        cells_text(g, &left),
                        cells_text(g, &right)
                    );
                }
                step.houses = lines.iter().chain(&chosen).copied().collect();
                step.cells = left.iter().chain(&right).copied().collect();
                out.push(step);
            }
        }
    }
}

/// A candidate d of an empty cell of `from` goes when `to` cannot hold d as often as `from` would
/// (its placed d's plus its empty cells with candidate d).
fn leftover_eliminations(board: &Board, from: &[Cell], to: &[Cell], step: &mut Step) {
    let count = |cells: &[Cell], d: Digit| -> (usize, usize) {
        let placed = cells
            .iter()
            .filter(|&&c| board.placed(c) == Some(d))
            .count();
        let open = cells
            .iter()
            .filter(|&&c| board.is_empty(c) && board.candidates(c).contains(d))
            .count();
        (placed, open)
    };
    for &c in from.iter().filter(|&&c| board.is_empty(c)) {
        for d in board.candidates(c).iter() {
            let (placed_from, _) = count(from, d);
            let (placed_to, open_to) = count(to, d);
            if placed_from + 1 > placed_to + open_to {
                step.eliminations.push((c, d));
            }
        }
    }
}
