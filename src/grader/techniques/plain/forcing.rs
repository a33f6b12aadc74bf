//! Bounded forcing chains: cell forcing (every digit of a cell) and digit forcing (every place of
//! a digit in a house).
//!
//! Each branch places one choice and follows singles (naked, hidden, and in killers the digits no
//! live cage combination allows) for a bounded number of rounds. A branch that breaks a rule
//! proves its choice false; when every branch survives, whatever all of them remove is removed.
//! Premises are tried smallest first: bivalue cells, digits with two places, then three.

use super::{cage_live, cage_name, digits, house_name, houses, is_open, name, open_cells, Board};
use crate::geometry::{Cell, Digit};
use crate::grader::step::{Step, Technique};

/// Why a branch broke.
type Broken = String;

/// Propagation rounds a branch may take (each round places all singles it sees).
const MAX_ROUNDS: usize = 40;

/// Follow singles and cage combinations from a board; `Err` says which rule broke.
fn propagate(board: &mut Board) -> Result<(), Broken> {
    let all = crate::bitset::DigitSet::all(board.size()).bits();
    for _ in 0..MAX_ROUNDS {
        if let Some(c) = open_cells(board).find(|&c| board.candidates(c).is_empty()) {
            return Err(format!("{} has no candidate left", name(board, c)));
        }
        let mut singles: Vec<(Cell, Digit)> = open_cells(board)
            .filter(|&c| board.candidates(c).len() == 1)
            .map(|c| (c, board.candidates(c).first().unwrap()))
            .collect();
        // Hidden singles and digits without a place, per house: the digits its open cells hold
        // at least once and at least twice.
        for h in houses(board) {
            let (mut placed, mut once, mut twice) = (0u16, 0u16, 0u16);
            for &c in board.house_cells(h) {
                match board.placed(c) {
                    Some(d) => placed |= 1 << d.as_index(),
                    None => {
                        let b = board.candidates(c).bits();
                        twice |= once & b;
                        once |= b;
                    }
                }
            }
            let missing = all & !placed & !once;
            if missing != 0 {
                return Err(format!(
                    "{} has no place left for {}",
                    house_name(board, h),
                    missing.trailing_zeros() + 1
                ));
            }
            let mut single = once & !twice & !placed;
            while single != 0 {
                let b = single.trailing_zeros();
                single &= single - 1;
                let d = Digit::new(b as u8 + 1);
                let place = board
                    .house_cells(h)
                    .iter()
                    .copied()
                    .filter(|&c| is_open(board, c) && board.candidates(c).contains(d))
                    .min_by_key(|c| c.as_index());
                if let Some(c) = place {
                    singles.push((c, d));
                }
            }
        }
        let mut changed = false;
        for (c, d) in singles {
            if is_open(board, c) && board.candidates(c).contains(d) {
                board.place(c, d);
                changed = true;
            } else if is_open(board, c) {
                return Err(format!("{} cannot hold {}", name(board, c), d.get()));
            }
        }
        for k in 0..board.puzzle().cages().len() {
            let Some((_, may)) = cage_live(board, k) else {
                return Err(format!("{} has no combination left", cage_name(board, k)));
            };
            for &c in &board.puzzle().cages()[k].cells {
                if !is_open(board, c) {
                    continue;
                }
                for d in board.candidates(c).difference(may).iter() {
                    board.eliminate(c, d);
                    changed = true;
                }
            }
        }
        if !changed {
            return Ok(());
        }
    }
    Ok(())
}

/// One premise: a set of choices exactly one of which is true, and how to name it.
struct Premise {
    choices: Vec<(Cell, Digit)>,
    what: String,
}

fn premises(board: &Board, width: u32) -> Vec<Premise> {
    let mut out = Vec::new();
    for c in open_cells(board) {
        let cand = board.candidates(c);
        if cand.len() == width {
            out.push(Premise {
                choices: cand.iter().map(|d| (c, d)).collect(),
                what: format!(
                    "{} is {}",
                    name(board, c),
                    super::digit_list(cand).replace('/', " or ")
                ),
            });
        }
    }
    for h in houses(board) {
        for d in digits(board) {
            let places = board.places_for(h, d);
            if places.len() as u32 == width {
                let cells: Vec<Cell> = places.iter().collect();
                out.push(Premise {
                    what: format!(
                        "the {} of {} is in {}",
                        d.get(),
                        house_name(board, h),
                        super::names(board, &cells).replace(", ", " or ")
                    ),
                    choices: cells.into_iter().map(|c| (c, d)).collect(),
                });
            }
        }
    }
    out
}

/// A bounded cell or digit forcing chain.
pub fn find_forcing_chain(board: &Board) -> Option<Step> {
    for width in [2, 3] {
        for premise in premises(board, width) {
            let mut outcomes: Vec<Board> = Vec::with_capacity(premise.choices.len());
            for &(c, d) in &premise.choices {
                let mut branch = board.clone();
                branch.place(c, d);
                match propagate(&mut branch) {
                    Ok(()) => outcomes.push(branch),
                    Err(why) => {
                        let mut step = Step::new(Technique::ForcingChain);
                        step.eliminations = vec![(c, d)];
                        step.cells = vec![c];
                        step.reason = format!(
                            "Forcing chain: if {} were {}, singles lead to a contradiction ({why})",
                            name(board, c),
                            d.get()
                        );
                        return Some(step);
                    }
                }
            }
            let mut eliminations = Vec::new();
            for c in open_cells(board) {
                for d in board.candidates(c).iter() {
                    if outcomes.iter().all(|b| !b.candidates(c).contains(d)) {
                        eliminations.push((c, d));
                    }
                }
            }
            if eliminations.is_empty() {
                continue;
            }
            let mut step = Step::new(Technique::ForcingChain);
            step.cells = premise.choices.iter().map(|&(c, _)| c).collect();
            step.reason = format!(
                "Forcing chains: {}, and every choice followed through singles removes the same candidates",
                premise.what
            );
            step.eliminations = eliminations;
            return Some(step);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grader::techniques::plain::test_util::*;

    #[test]
    fn a_choice_that_breaks_a_house_is_removed() {
        let p = empty(4);
        let mut b = board(&p);
        // r1c1 {1,2}; if it were 1, r1c2 {1,3} would be 3 and r1c3 {1,3} would be left empty.
        set(&mut b, 1, 1, &[1, 2]);
        set(&mut b, 1, 2, &[1, 3]);
        set(&mut b, 1, 3, &[1, 3]);
        let step = find_forcing_chain(&b).unwrap();
        assert_eq!(step.eliminations, vec![(at(&b, 1, 1), d(1))]);
        assert!(
            step.reason.starts_with("Forcing chain: if r1c1 were 1"),
            "{}",
            step.reason
        );
    }

    #[test]
    fn both_choices_agree() {
        let p = empty(9);
        let mut b = board(&p);
        // r1c1 {1,2}. If 1: r1c5 {1,7} is 7. If 2: r5c1 {2,7} is 7, so r5c5 {5,7}... keep it to
        // one house: r1c5 {1,7} and r2c1 {2,7}: either way a 7 lands in row 1 or box 1, and the
        // cells seeing both r1c5 and r2c1 (r1c1 itself aside) are r2c5 and r1c... check by value.
        set(&mut b, 1, 1, &[1, 2]);
        set(&mut b, 1, 5, &[1, 7]);
        set(&mut b, 2, 1, &[2, 7]);
        let step = find_forcing_chain(&b).unwrap();
        // If r1c1 = 1 then r1c5 = 7; if 2 then r2c1 = 7. Cells seeing r1c5 and r2c1: r1c2, r1c3
        // (row 1 / box 1) and r2c4, r2c5, r2c6 (row 2 / box 2).
        let want = cells_digit(&b, &[(1, 2), (1, 3), (2, 4), (2, 5), (2, 6)], 7);
        assert_eq!(step.eliminations, want);
    }
}
