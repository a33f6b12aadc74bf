//! Naked and hidden subsets (pairs, triples, quads) in houses.
//!
//! Naked: k cells of a house whose candidates together are k digits hold those digits, so every
//! cell seeing all k of them (the house, a second shared house, or their cage) loses them.
//! Hidden: k digits whose places in a house are the same k cells fill those cells, so the cells
//! lose every other digit.

use super::{digit_list, digits, for_each_subset, house_name, houses, names, Board};
use crate::bitset::DigitSet;
use crate::geometry::{Cell, Digit, House};
use crate::grader::step::{Step, Technique};
use crate::grader::techniques::cage_view::Inline;
use crate::grader::techniques::context::HouseMemo;

/// Naked pair: two cells of a house with the same two candidates.
pub fn find_naked_pair(board: &Board) -> Option<Step> {
    find_naked(board, 2, Technique::NakedPair)
}

/// Naked triple.
pub fn find_naked_triple(board: &Board) -> Option<Step> {
    find_naked(board, 3, Technique::NakedTriple)
}

/// Naked quad.
pub fn find_naked_quad(board: &Board) -> Option<Step> {
    find_naked(board, 4, Technique::NakedQuad)
}

/// Hidden pair: two digits confined to the same two cells of a house.
pub fn find_hidden_pair(board: &Board) -> Option<Step> {
    find_hidden(board, 2, Technique::HiddenPair)
}

/// Hidden triple.
pub fn find_hidden_triple(board: &Board) -> Option<Step> {
    find_hidden(board, 3, Technique::HiddenTriple)
}

/// Hidden quad.
pub fn find_hidden_quad(board: &Board) -> Option<Step> {
    find_hidden(board, 4, Technique::HiddenQuad)
}

fn kind_name(k: usize) -> &'static str {
    match k {
        2 => "pair",
        3 => "triple",
        _ => "quad",
    }
}

fn find_naked(board: &Board, k: usize, technique: Technique) -> Option<Step> {
    find_naked_in(board, k, technique, None)
}

/// A naked subset of `k` cells; with `memo` (per house, the clock when it found nothing there)
/// an unchanged house is not looked at again: what it yields rests on the house's cells, and the
/// cells it clears only lose candidates.
pub fn find_naked_in(
    board: &Board,
    k: usize,
    technique: Technique,
    memo: Option<&mut [u32]>,
) -> Option<Step> {
    let mut memo = HouseMemo(memo);
    let mut peers: Option<Vec<crate::bitset::CellSet>> = None;
    for house in houses(board) {
        if memo.skip(board, house.as_index(), house) {
            continue;
        }
        // Inline, as every look lists them for every house it does not skip.
        let mut cells = Inline::new(Cell::new(0));
        for c in board.house_set(house).iter() {
            if board.is_empty(c) && (2..=k as u32).contains(&board.candidates(c).len()) {
                cells.push(c);
            }
        }
        if cells.len() < k {
            continue;
        }
        let peers = peers.get_or_insert_with(|| super::peer_table(board));
        let found = for_each_subset(cells.len(), k, &mut |idx| {
            let union = idx
                .iter()
                .fold(DigitSet::EMPTY, |u, &i| u.union(board.candidates(cells[i])));
            if union.len() as usize != k {
                return None;
            }
            let subset: Vec<Cell> = idx.iter().map(|&i| cells[i]).collect();
            let seen = subset
                .iter()
                .fold(super::digit_cells_any(board, union), |acc, &x| {
                    acc.intersection(&peers[x.as_index()])
                });
            let eliminations: Vec<(Cell, Digit)> = seen
                .iter()
                .flat_map(|c| {
                    board
                        .candidates(c)
                        .intersection(union)
                        .iter()
                        .map(move |d| (c, d))
                })
                .collect();
            let reason = |cells: &[Cell]| {
                format!(
                    "Naked {} {} in {} ({}): these cells hold exactly these digits",
                    kind_name(k),
                    digit_list(union),
                    names(board, cells),
                    house_name(board, house)
                )
            };
            subset_step(technique, eliminations, reason, subset, house)
        });
        if found.is_some() {
            memo.found(house.as_index());
            return found;
        }
    }
    None
}

/// The step of a naked or hidden subset in `house`, if it removes anything (the reason is
/// worded only then).
fn subset_step(
    technique: Technique,
    eliminations: Vec<(Cell, Digit)>,
    reason: impl FnOnce(&[Cell]) -> String,
    cells: Vec<Cell>,
    house: House,
) -> Option<Step> {
    if eliminations.is_empty() {
        return None;
    }
    let mut step = Step::new(technique);
    step.eliminations = eliminations;
    step.reason = reason(&cells);
    step.cells = cells;
    step.houses = vec![house];
    Some(step)
}

fn find_hidden(board: &Board, k: usize, technique: Technique) -> Option<Step> {
    find_hidden_in(board, k, technique, None)
}

/// A hidden subset of `k` digits, with a memo as `find_naked_in` (the cells it clears are its
/// own).
pub fn find_hidden_in(
    board: &Board,
    k: usize,
    technique: Technique,
    memo: Option<&mut [u32]>,
) -> Option<Step> {
    let mut memo = HouseMemo(memo);
    let planes = board.planes();
    for house in houses(board) {
        if memo.skip(board, house.as_index(), house) {
            continue;
        }
        if board.house_open(house) <= k {
            continue;
        }
        let mut candidates = Inline::new((Digit::new(1), crate::bitset::CellSet::EMPTY));
        for d in digits(board) {
            let places = board.house_set(house).intersection(&planes[d.as_index()]);
            if (2..=k).contains(&places.len()) {
                candidates.push((d, places));
            }
        }
        let found = for_each_subset(candidates.len(), k, &mut |idx| {
            let mut places = crate::bitset::CellSet::EMPTY;
            let mut set = DigitSet::EMPTY;
            for &i in idx {
                places = places.union(&candidates[i].1);
                set.insert(candidates[i].0);
            }
            if places.len() != k {
                return None;
            }
            let cells: Vec<Cell> = places.iter().collect();
            let eliminations: Vec<(Cell, Digit)> = cells
                .iter()
                .flat_map(|&c| {
                    board
                        .candidates(c)
                        .difference(set)
                        .iter()
                        .map(move |d| (c, d))
                })
                .collect();
            let reason = |cells: &[Cell]| {
                format!(
                    "Hidden {} {} in {} ({}): these digits have no other place there",
                    kind_name(k),
                    digit_list(set),
                    names(board, cells),
                    house_name(board, house)
                )
            };
            subset_step(technique, eliminations, reason, cells, house)
        });
        if found.is_some() {
            memo.found(house.as_index());
            return found;
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grader::techniques::plain::test_util::*;

    #[test]
    fn naked_pair_in_a_row_and_box() {
        let p = empty(9);
        let mut b = board(&p);
        set(&mut b, 1, 1, &[1, 2]);
        set(&mut b, 1, 2, &[1, 2]);
        let step = find_naked_pair(&b).unwrap();
        assert_eq!(step.technique, Technique::NakedPair);
        // Row 1 (c3..c9) and box 1 (r2-3 c1-3) lose 1 and 2.
        let mut want = Vec::new();
        for c in 3..=9 {
            want.push((at(&b, 1, c), d(1)));
            want.push((at(&b, 1, c), d(2)));
        }
        for r in 2..=3 {
            for c in 1..=3 {
                want.push((at(&b, r, c), d(1)));
                want.push((at(&b, r, c), d(2)));
            }
        }
        assert_eq!(sorted(step.eliminations), sorted(want));
        assert_eq!(
            step.reason,
            "Naked pair 1/2 in r1c1, r1c2 (row 1): these cells hold exactly these digits"
        );
        assert!(find_naked_triple(&b).is_none());
    }

    #[test]
    fn naked_triple_with_incomplete_cells() {
        let p = empty(9);
        let mut b = board(&p);
        // Column 5: {3,6} {6,9} {3,9} (a triple with no cell holding all three).
        set(&mut b, 2, 5, &[3, 6]);
        set(&mut b, 5, 5, &[6, 9]);
        set(&mut b, 8, 5, &[3, 9]);
        assert!(find_naked_pair(&b).is_none());
        let step = find_naked_triple(&b).unwrap();
        let mut want = Vec::new();
        for r in [1, 3, 4, 6, 7, 9] {
            for v in [3, 6, 9] {
                want.push((at(&b, r, 5), d(v)));
            }
        }
        assert_eq!(sorted(step.eliminations), sorted(want));
    }

    #[test]
    fn hidden_pair_in_a_box() {
        let p = empty(9);
        let mut b = board(&p);
        // 4 and 8 in box 5 only at r4c4 and r6c6.
        for (r, c) in [(4, 5), (4, 6), (5, 4), (5, 5), (5, 6), (6, 4), (6, 5)] {
            b.eliminate(at(&b, r, c), d(4));
            b.eliminate(at(&b, r, c), d(8));
        }
        let step = find_hidden_pair(&b).unwrap();
        assert_eq!(step.technique, Technique::HiddenPair);
        let mut want = Vec::new();
        for v in [1, 2, 3, 5, 6, 7, 9] {
            want.push((at(&b, 4, 4), d(v)));
            want.push((at(&b, 6, 6), d(v)));
        }
        assert_eq!(sorted(step.eliminations), sorted(want));
        assert_eq!(
            step.reason,
            "Hidden pair 4/8 in r4c4, r6c6 (box 5): these digits have no other place there"
        );
    }

    #[test]
    fn hidden_quad_in_a_16x16_row() {
        let p = empty(16);
        let mut b = board(&p);
        // 1, 5, 9, 16 in row 3 only in c2, c7, c11, c15.
        for v in [1, 5, 9, 16] {
            only_in_row(&mut b, v, 3, &[2, 7, 11, 15]);
        }
        assert!(find_hidden_pair(&b).is_none());
        assert!(find_hidden_triple(&b).is_none());
        let step = find_hidden_quad(&b).unwrap();
        assert_eq!(step.eliminations.len(), 4 * 12);
        assert!(step
            .eliminations
            .iter()
            .all(|&(c, v)| b.geometry().row(c) == 2 && ![1, 5, 9, 16].contains(&v.get())));
    }

    #[test]
    fn naked_pair_in_a_row_also_clears_its_cage() {
        // Killer: cage r1c3, r1c4, r2c4; the pair r1c3/r1c4 sits in row 1 across two boxes.
        let p = killer(9, &[(9, &[(1, 3), (1, 4), (2, 4)])]);
        let mut b = board(&p);
        set(&mut b, 1, 3, &[1, 2]);
        set(&mut b, 1, 4, &[1, 2]);
        let step = find_naked_pair(&b).unwrap();
        let mut want = Vec::new();
        for (r, c) in [
            (1, 1),
            (1, 2),
            (1, 5),
            (1, 6),
            (1, 7),
            (1, 8),
            (1, 9),
            (2, 4),
        ] {
            want.push((at(&b, r, c), d(1)));
            want.push((at(&b, r, c), d(2)));
        }
        assert_eq!(sorted(step.eliminations), sorted(want));
    }
}
