//! Subsets inside a cage, naked and hidden.

use crate::bitset::DigitSet;
use crate::geometry::{Cell, Digit};
use crate::grader::state::Board;
use crate::grader::step::{Step, Technique};
use crate::grader::techniques::cage_view::CageView;
use crate::grader::techniques::context::{Context, Memo};
use crate::grader::text::{cells_text, set_text};

/// Largest cage whose cell subsets are enumerated.
const MAX_SUBSET_CAGE: usize = 10;
/// Largest subset looked for inside a cage.
const MAX_CAGE_SUBSET: usize = 4;

fn bits_of(cells: &[Cell], mask: u32) -> impl Iterator<Item = Cell> + '_ {
    cells
        .iter()
        .enumerate()
        .filter(move |(i, _)| mask & (1 << i) != 0)
        .map(|(_, &c)| c)
}

/// Do all these cells share a row, column or region?
fn share_a_house(board: &Board, cells: &[Cell]) -> bool {
    let g = board.geometry();
    let Some(&first) = cells.first() else {
        return true;
    };
    let same = |f: &dyn Fn(Cell) -> usize| cells.iter().all(|&c| f(c) == f(first));
    same(&|c| g.row(c)) || same(&|c| g.col(c)) || same(&|c| g.region(c))
}

/// Subsets inside a cage. Naked: s cells of a cage whose candidates together are s digits hold
/// them, so the cage's other cells and every cell seeing all s lose them (only when the s cells
/// share no house: otherwise it is a plain naked subset). Hidden: s digits every combination of
/// the cage needs, with places in just s cells of the cage, fill those cells.
pub fn cage_subset(ctx: &mut Context, board: &Board, out: &mut Vec<Step>) {
    let n = board.size();
    // What a cage yields depends on its own cells; the cells a naked subset clears outside it
    // only lose candidates, so a cage that yielded nothing yields nothing while it is unchanged.
    for k in 0..board.cages().len() {
        if ctx.unchanged_cage(board, Memo::CageSubset, k) {
            continue;
        }
        let Some(v) = CageView::of(board, k) else {
            continue;
        };
        let len = v.cells.len();
        if !(2..=MAX_SUBSET_CAGE).contains(&len) {
            continue;
        }
        if let Some(step) = naked_in_cage(ctx, board, &v) {
            out.push(step);
            continue;
        }
        match hidden_in_cage(board, &v, n) {
            Some(step) => out.push(step),
            None => ctx.remember(board, Memo::CageSubset, k),
        }
    }
}

fn naked_in_cage(ctx: &Context, board: &Board, v: &CageView) -> Option<Step> {
    let len = v.cells.len();
    for size in 2..=MAX_CAGE_SUBSET.min(len - 1) {
        for mask in 1u32..1 << len {
            if mask.count_ones() as usize != size {
                continue;
            }
            let union = (0..len)
                .filter(|i| mask & (1 << i) != 0)
                .fold(0u16, |a, i| a | v.cands[i]);
            if union.count_ones() as usize != size {
                continue;
            }
            let cells: Vec<Cell> = bits_of(&v.cells, mask).collect();
            if share_a_house(board, &cells) {
                continue;
            }
            let mut targets = ctx.seen_by_all(cells.iter().copied());
            for (i, &c) in v.cells.iter().enumerate() {
                if mask & (1 << i) == 0 {
                    targets.insert(c);
                }
            }
            let mut step = Step::new(Technique::CageSubset);
            for x in targets.iter().filter(|&x| board.is_empty(x)) {
                let gone = board.candidates(x).bits() & union;
                step.eliminations
                    .extend(DigitSet::from_bits(gone).iter().map(|d| (x, d)));
            }
            if step.eliminations.is_empty() {
                continue;
            }
            if board.explaining() {
                step.reason = format!(
                    "in {}, the cells {} hold only {} between them, so they hold those digits",
                    v.name(board),
                    cells_text(board.geometry(), &cells),
                    set_text(DigitSet::from_bits(union))
                );
            }
            step.cells = cells;
            step.cages.push(v.index);
            return Some(step);
        }
    }
    None
}

fn hidden_in_cage(board: &Board, v: &CageView, n: usize) -> Option<Step> {
    let len = v.cells.len();
    let live = v.live(n);
    let must = live.iter().copied().reduce(|a, b| a & b)?;
    let musts: Vec<u16> = DigitSet::from_bits(must)
        .iter()
        .map(|d| 1 << d.as_index())
        .collect();
    // Places (as a mask over the cage's cells) of each required digit.
    let places = |bit: u16| -> u32 {
        (0..len)
            .filter(|&i| v.cands[i] & bit != 0)
            .fold(0, |a, i| a | 1 << i)
    };
    for size in 1..=MAX_CAGE_SUBSET.min(len - 1).min(musts.len()) {
        for pick in 1u32..1 << musts.len() {
            if pick.count_ones() as usize != size {
                continue;
            }
            let digits = (0..musts.len())
                .filter(|i| pick & (1 << i) != 0)
                .fold(0u16, |a, i| a | musts[i]);
            let spots = (0..musts.len())
                .filter(|i| pick & (1 << i) != 0)
                .fold(0u32, |a, i| a | places(musts[i]));
            if spots.count_ones() as usize != size {
                continue;
            }
            let mut step = Step::new(Technique::CageSubset);
            for (i, &c) in v.cells.iter().enumerate() {
                if spots & (1 << i) == 0 {
                    continue;
                }
                let gone = v.cands[i] & !digits;
                if size == 1 && gone != 0 {
                    step.placements
                        .push((c, Digit::new(digits.trailing_zeros() as u8 + 1)));
                } else {
                    step.eliminations
                        .extend(DigitSet::from_bits(gone).iter().map(|d| (c, d)));
                }
            }
            if !step.is_progress() {
                continue;
            }
            let cells: Vec<Cell> = bits_of(&v.cells, spots).collect();
            if board.explaining() {
                step.reason = format!(
                    "every combination of {} needs {}, and inside the cage they fit only in {}",
                    v.name(board),
                    set_text(DigitSet::from_bits(digits)),
                    cells_text(board.geometry(), &cells)
                );
            }
            step.cells = cells;
            step.cages.push(v.index);
            return Some(step);
        }
    }
    None
}
