//! Bounded forcing chains: cell forcing (every digit of a cell) and digit forcing (every place of
//! a digit in a house).
//!
//! Each branch places one choice and follows singles (naked, hidden, and in killers the digits no
//! live cage combination allows) for a bounded number of rounds. A branch that breaks a rule
//! proves its choice false; when every branch survives, whatever all of them remove is removed.
//! Premises are tried smallest first: bivalue cells, digits with two places, then three.

use super::{cage_live, cage_name, digits, house_name, houses, is_open, name, open_cells, Board};
use crate::bitset::DigitSet;
use crate::geometry::{Cell, Digit, House};
use crate::grader::step::{Step, Technique};

/// Why a branch broke.
type Broken = String;

/// Propagation rounds a branch may take (each round places all singles it sees).
const MAX_ROUNDS: usize = 40;

/// Follow singles and cage combinations from a board; `Err` says which rule broke.
///
/// `closed` holds, per cage, the clock at which the cage's combinations last removed all they
/// could (0: never): a cage none of whose cells changed since then is not looked at again (its
/// live combinations, and so what they allow, are the same).
fn propagate(board: &mut Board, closed: &mut [u32]) -> Result<(), Broken> {
    let all = crate::bitset::DigitSet::all(board.size()).bits();
    closed.fill(0);
    let mut singles: Vec<(Cell, Digit)> = Vec::new();
    for _ in 0..MAX_ROUNDS {
        if let Some(c) = open_cells(board).find(|&c| board.candidates(c).is_empty()) {
            return Err(format!("{} has no candidate left", name(board, c)));
        }
        singles.clear();
        singles.extend(
            open_cells(board)
                .filter(|&c| board.candidates(c).len() == 1)
                .map(|c| (c, board.candidates(c).first().unwrap())),
        );
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
        for &(c, d) in &singles {
            if is_open(board, c) && board.candidates(c).contains(d) {
                board.place(c, d);
                changed = true;
            } else if is_open(board, c) {
                return Err(format!("{} cannot hold {}", name(board, c), d.get()));
            }
        }
        for (k, done) in closed.iter_mut().enumerate() {
            let cells = &board.puzzle().cages()[k].cells;
            let since = *done;
            if since != 0 && !cells.iter().any(|&c| board.changed_since(c, since)) {
                continue;
            }
            let Some((_, may)) = cage_live(board, k) else {
                return Err(format!("{} has no combination left", cage_name(board, k)));
            };
            for &c in cells {
                if !is_open(board, c) {
                    continue;
                }
                for d in board.candidates(c).difference(may).iter() {
                    board.eliminate(c, d);
                    changed = true;
                }
            }
            *done = board.clock();
        }
        if !changed {
            return Ok(());
        }
    }
    Ok(())
}

/// One premise: a set of choices exactly one of which is true (a cell's digits, or a digit's
/// places in a house), named only when a step needs its words.
struct Premise {
    choices: [(Cell, Digit); 3],
    len: usize,
    /// The house of a digit premise (`None` for a cell's digits).
    house: Option<House>,
}

impl Premise {
    fn choices(&self) -> &[(Cell, Digit)] {
        &self.choices[..self.len]
    }
    fn what(&self, board: &Board) -> String {
        let choices = self.choices();
        let (c, d) = choices[0];
        match self.house {
            None => format!(
                "{} is {}",
                name(board, c),
                super::digit_list(board.candidates(c)).replace('/', " or ")
            ),
            Some(h) => {
                let cells: Vec<Cell> = choices.iter().map(|&(c, _)| c).collect();
                format!(
                    "the {} of {} is in {}",
                    d.get(),
                    house_name(board, h),
                    super::names(board, &cells).replace(", ", " or ")
                )
            }
        }
    }
}

/// The premises of `width` choices, in order: cells, then house digits.
fn premises(board: &Board, width: u32, out: &mut Vec<Premise>) {
    out.clear();
    let mut choices = [(Cell::new(0), Digit::new(1)); 3];
    for c in open_cells(board) {
        let cand = board.candidates(c);
        if cand.len() == width {
            for (slot, d) in choices.iter_mut().zip(cand.iter()) {
                *slot = (c, d);
            }
            out.push(Premise {
                choices,
                len: width as usize,
                house: None,
            });
        }
    }
    for h in houses(board) {
        for d in digits(board) {
            let places = board.places_for(h, d);
            if places.len() as u32 == width {
                for (slot, c) in choices.iter_mut().zip(places.iter()) {
                    *slot = (c, d);
                }
                out.push(Premise {
                    choices,
                    len: width as usize,
                    house: Some(h),
                });
            }
        }
    }
}

/// What following one choice gave: the candidates it left, or why it broke. A choice appears in
/// several premises (its cell's, and its digit's in each of its houses); it is followed once.
enum Branch {
    Survived(Vec<DigitSet>),
    Broke(Broken),
}

/// A bounded cell or digit forcing chain.
pub fn find_forcing_chain(board: &Board) -> Option<Step> {
    let n = board.size();
    let cells = board.geometry().cell_count();
    // Per (cell, digit): index into `branches` of the choice followed from this board.
    let mut followed: Vec<u32> = vec![u32::MAX; cells * n];
    let mut branches: Vec<Branch> = Vec::new();
    let mut scratch = board.clone();
    let mut closed = vec![0u32; board.puzzle().cages().len()];
    let mut list = Vec::new();
    for width in [2, 3] {
        premises(board, width, &mut list);
        for premise in &list {
            let mut outcomes = [usize::MAX; 3];
            for (slot, &(c, d)) in outcomes.iter_mut().zip(premise.choices()) {
                let key = c.as_index() * n + d.as_index();
                if followed[key] == u32::MAX {
                    scratch.copy_from(board);
                    scratch.place(c, d);
                    let branch = match propagate(&mut scratch, &mut closed) {
                        Ok(()) => Branch::Survived(
                            board
                                .geometry()
                                .cells()
                                .map(|x| scratch.candidates(x))
                                .collect(),
                        ),
                        Err(why) => Branch::Broke(why),
                    };
                    followed[key] = branches.len() as u32;
                    branches.push(branch);
                }
                let i = followed[key] as usize;
                match &branches[i] {
                    Branch::Survived(_) => *slot = i,
                    Branch::Broke(why) => {
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
            let outcomes: Vec<&[DigitSet]> = outcomes[..premise.len]
                .iter()
                .filter_map(|&i| match &branches[i] {
                    Branch::Survived(cands) => Some(cands.as_slice()),
                    Branch::Broke(_) => None,
                })
                .collect();
            // A candidate no choice leaves goes: per cell, what lies outside the union of what
            // the choices leave there.
            let mut eliminations = Vec::new();
            for c in open_cells(board) {
                let left = outcomes
                    .iter()
                    .fold(DigitSet::EMPTY, |a, b| a.union(b[c.as_index()]));
                eliminations.extend(board.candidates(c).difference(left).iter().map(|d| (c, d)));
            }
            if eliminations.is_empty() {
                continue;
            }
            let mut step = Step::new(Technique::ForcingChain);
            step.cells = premise.choices().iter().map(|&(c, _)| c).collect();
            step.reason = format!(
                "Forcing chains: {}, and every choice followed through singles removes the same candidates",
                premise.what(board)
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
