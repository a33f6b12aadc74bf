//! Almost locked sets, XZ rule.
//!
//! An ALS is n cells of one house (or one killer cage) holding n + 1 digits between them. Two
//! disjoint ALSs A and B that share a digit x whose cells in A all see its cells in B (x is
//! "restricted": at most one of them holds it) lock the rest: one of them is a locked set without
//! x, so for any other shared digit z, a cell seeing every z of A and of B loses z. Sizes are
//! bounded (four cells up to 9x9, three beyond) to keep the search cheap.

use super::{digit_list, houses, is_open, names, peer_table, Board};
use crate::bitset::{CellSet, DigitSet};
use crate::geometry::Cell;
use crate::grader::step::{Step, Technique};
use std::collections::HashSet;

struct Als {
    cells: Vec<Cell>,
    set: CellSet,
    digits: DigitSet,
    /// Cells of the set holding each digit (index digit - 1).
    by_digit: [CellSet; 16],
}

fn max_size(n: usize) -> usize {
    if n <= 9 {
        4
    } else {
        3
    }
}

/// Every ALS of the board (houses, then cages), each cell set once.
fn all_als(board: &Board) -> Vec<Als> {
    let mut groups: Vec<Vec<Cell>> = houses(board)
        .map(|h| {
            board
                .house_set(h)
                .iter()
                .filter(|&c| is_open(board, c))
                .collect()
        })
        .collect();
    for cage in board.puzzle().cages() {
        groups.push(
            cage.cells
                .iter()
                .copied()
                .filter(|&c| is_open(board, c))
                .collect(),
        );
    }
    let limit = max_size(board.size());
    let mut out: Vec<Als> = Vec::new();
    let mut seen: HashSet<CellSet> = HashSet::new();
    for group in groups {
        for k in 1..=limit.min(group.len()) {
            super::for_each_subset::<()>(group.len(), k, &mut |idx| {
                let digits = idx
                    .iter()
                    .fold(DigitSet::EMPTY, |u, &i| u.union(board.candidates(group[i])));
                if digits.len() as usize != k + 1 {
                    return None;
                }
                let set: CellSet = idx.iter().map(|&i| group[i]).collect();
                if !seen.insert(set) {
                    return None;
                }
                let cells: Vec<Cell> = idx.iter().map(|&i| group[i]).collect();
                let mut by_digit = [CellSet::EMPTY; 16];
                for &c in &cells {
                    for d in board.candidates(c).iter() {
                        by_digit[d.as_index()].insert(c);
                    }
                }
                out.push(Als {
                    cells,
                    set,
                    digits,
                    by_digit,
                });
                None
            });
        }
    }
    out
}

/// Cells that see every cell of `cells` (through the peer table).
fn common_peers(peers: &[CellSet], cells: &CellSet) -> CellSet {
    let mut it = cells.iter();
    let Some(first) = it.next() else {
        return CellSet::EMPTY;
    };
    it.fold(peers[first.as_index()], |acc, c| {
        acc.intersection(&peers[c.as_index()])
    })
}

/// ALS-XZ: two almost locked sets joined by a restricted common digit.
pub fn find_als_xz(board: &Board) -> Option<Step> {
    let all = all_als(board);
    let peers = peer_table(board);
    for (i, a) in all.iter().enumerate() {
        // Per digit x of A: the cells that see every x of A (found when first needed).
        let mut a_peers: [Option<CellSet>; 16] = [None; 16];
        for b in &all[i + 1..] {
            if a.set.intersects(&b.set) {
                continue;
            }
            let common = a.digits.intersection(b.digits);
            if common.len() < 2 {
                continue;
            }
            for x in common.iter() {
                let ax = &a.by_digit[x.as_index()];
                let bx = &b.by_digit[x.as_index()];
                let seen_by_ax =
                    *a_peers[x.as_index()].get_or_insert_with(|| common_peers(&peers, ax));
                // Restricted: every x of B sees every x of A.
                if !bx.difference(&seen_by_ax).is_empty() {
                    continue;
                }
                for z in common.iter().filter(|&z| z != x) {
                    let zs = a.by_digit[z.as_index()].union(&b.by_digit[z.as_index()]);
                    let removed: Vec<Cell> = common_peers(&peers, &zs)
                        .difference(&a.set.union(&b.set))
                        .iter()
                        .filter(|&c| is_open(board, c) && board.candidates(c).contains(z))
                        .collect();
                    if removed.is_empty() {
                        continue;
                    }
                    let reason = format!(
                        "ALS-XZ: {} ({}) and {} ({}) share {} in cells that see each other, so only one can hold it and the other holds the {}",
                        names(board, &a.cells),
                        digit_list(a.digits),
                        names(board, &b.cells),
                        digit_list(b.digits),
                        x.get(),
                        z.get()
                    );
                    let mut cells = a.cells.clone();
                    cells.extend(&b.cells);
                    return Some(super::elimination_step(
                        Technique::AlsXz,
                        z,
                        &removed,
                        cells,
                        reason,
                    ));
                }
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grader::techniques::plain::test_util::*;

    #[test]
    fn als_xz_with_a_bivalue_cell_and_three_cells_of_a_box() {
        let p = empty(9);
        let mut b = board(&p);
        // A = r1c1 {1,2}; B = r4c1 {1,3}, r5c2 {3,4}, r6c3 {2,4} in box 4. x = 1 (r1c1 and r4c1
        // share column 1), z = 2: cells seeing r1c1 and r6c3 lose 2.
        set(&mut b, 1, 1, &[1, 2]);
        set(&mut b, 4, 1, &[1, 3]);
        set(&mut b, 5, 2, &[3, 4]);
        set(&mut b, 6, 3, &[2, 4]);
        let step = find_als_xz(&b).unwrap();
        assert_eq!(step.technique, Technique::AlsXz);
        assert_eq!(
            step.eliminations,
            cells_digit(&b, &[(1, 3), (2, 3), (3, 3), (5, 1), (6, 1)], 2)
        );
    }

    #[test]
    fn no_als_on_an_empty_board() {
        let p = empty(4);
        assert!(find_als_xz(&board(&p)).is_none());
    }
}
