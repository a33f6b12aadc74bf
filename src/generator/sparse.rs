//! Sparse zero-given killers (few, big cages: `max_cages = 12` on 9x9): a unique layout with
//! more cages, merged down one pair of touching cages at a time while it stays unique.
//!
//! Drawing a sparse layout and repairing it does not work: a 12-cage layout admits thousands of
//! second solutions, and each repair rules out a handful. Merging goes the other way: every
//! merge keeps the intended solution (the merged sum is the two sums) and is checked by the
//! solver (cheap on these puzzles: tens of nodes); the first candidate that stays unique is
//! taken. Candidates are tried most informative first — the merged cage's sum allows the smallest
//! share of the digit sets of its size (a 9-cell cage always sums to 45 and tells nothing but
//! distinct digits; 15 in five cells is 1+2+3+4+5) — so the layout keeps its uniqueness.

use super::layout::LayoutRules;
use super::unique::{Checker, Verdict};
use crate::bitset::DigitSet;
use crate::cage::Cage;
use crate::geometry::{Cell, Geometry};
use crate::grid::Grid;
use crate::puzzle::Puzzle;
use rand::Rng;

/// Merge candidates checked per merge before the layout is given up.
const TRIES_PER_MERGE: usize = 48;
/// Cages the unique starting layout has beyond the target's most.
const START_EXTRA: (usize, usize) = (6, 10);

/// Is this a sparse target: more than four cells a cage on average even at the most cages?
pub fn is_sparse(rules: &LayoutRules, cell_count: usize) -> bool {
    rules.cage_count.1 * 4 < cell_count
}

/// The rules of the unique layout a sparse target starts from: a few more cages, sizes tilted
/// to match.
pub fn start_rules(rules: &LayoutRules, cell_count: usize) -> LayoutRules {
    let max = rules.cage_count.1;
    let range = (max + START_EXTRA.0, max + START_EXTRA.1);
    let mean = 2.0 * cell_count as f64 / (range.0 + range.1) as f64;
    LayoutRules {
        cage_count: range,
        size_weights: super::config::weights_for_mean(rules.max_size, mean),
        ..rules.clone()
    }
}

/// Merge the cages of the unique zero-given `puzzle` down to at most `rules.cage_count.1`,
/// keeping it unique; `None` if no candidate of some merge stays unique.
pub fn merge_down<R: Rng>(
    puzzle: Puzzle,
    solution: &Grid,
    rules: &LayoutRules,
    checker: &mut Checker,
    rng: &mut R,
) -> Option<Puzzle> {
    let g = puzzle.geometry().clone();
    let combos = Combinations::new(g.size());
    let mut cages = puzzle.cages().to_vec();
    while cages.len() > rules.cage_count.1 {
        // Most informative merged cage first, a random order among equals.
        let mut keyed: Vec<(u64, u32, Vec<Cage>)> =
            merge_candidates(&g, &cages, solution, rules.max_size)
                .into_iter()
                .map(|(merged, next)| {
                    let cage = &next[merged];
                    (
                        combos.share(cage.len(), cage.sum),
                        rng.random::<u32>(),
                        next,
                    )
                })
                .collect();
        keyed.sort_unstable_by_key(|k| (k.0, k.1));
        let merged = keyed
            .into_iter()
            .take(TRIES_PER_MERGE)
            .find_map(|(_, _, next)| {
                let p = Puzzle::new(g.clone(), Grid::empty(g.size()), next).ok()?;
                (checker.check(&p, solution, 2) == Verdict::Unique).then_some(p)
            })?;
        cages = merged.cages().to_vec();
    }
    Puzzle::new(g.clone(), Grid::empty(g.size()), cages).ok()
}

/// Layouts with one cage fewer: two touching cages merged where their digits differ; where they
/// share one digit, the cell of the second cage holding it moves first into another touching
/// cage that lacks the digit (an eviction), if both cages stay connected. Each comes with the
/// index of the merged cage.
fn merge_candidates(
    g: &Geometry,
    cages: &[Cage],
    solution: &Grid,
    max_size: usize,
) -> Vec<(usize, Vec<Cage>)> {
    let mut owner = vec![usize::MAX; g.cell_count()];
    for (i, cage) in cages.iter().enumerate() {
        for c in &cage.cells {
            owner[c.as_index()] = i;
        }
    }
    let digit = |c: Cell| solution.get(c).expect("complete solution");
    let digits: Vec<DigitSet> = cages
        .iter()
        .map(|cage| cage.cells.iter().map(|&c| digit(c)).collect())
        .collect();
    let sum = |cells: &[Cell]| cells.iter().map(|&c| digit(c).get() as u16).sum::<u16>();
    let mut out = Vec::new();
    for (i, cage) in cages.iter().enumerate() {
        let mut seen = Vec::new();
        for &c in &cage.cells {
            for nb in g.neighbours(c) {
                let j = owner[nb.as_index()];
                if j == usize::MAX || j == i || seen.contains(&j) {
                    continue;
                }
                seen.push(j);
                let shared = digits[i].intersection(digits[j]);
                if shared.is_empty() {
                    if i < j && cage.len() + cages[j].len() <= max_size {
                        let mut cells = cage.cells.clone();
                        cells.extend_from_slice(&cages[j].cells);
                        out.push(replaced(cages, &[i, j], vec![cells]));
                    }
                    continue;
                }
                if shared.len() != 1 || cage.len() + cages[j].len() > max_size + 1 {
                    continue;
                }
                // Evict j's cell x holding the shared digit into a third cage k.
                let Some(&x) = cages[j].cells.iter().find(|&&x| shared.contains(digit(x))) else {
                    continue;
                };
                let rest: Vec<Cell> = cages[j].cells.iter().copied().filter(|&y| y != x).collect();
                let mut cells = cage.cells.clone();
                cells.extend_from_slice(&rest);
                if rest.is_empty() || !g.is_connected(&cells) {
                    continue;
                }
                for k in g.neighbours(x).map(|y| owner[y.as_index()]) {
                    if k == i
                        || k == j
                        || cages[k].len() >= max_size
                        || digits[k].contains(digit(x))
                    {
                        continue;
                    }
                    let mut home = cages[k].cells.clone();
                    home.push(x);
                    out.push(replaced(cages, &[i, j, k], vec![cells.clone(), home]));
                }
            }
        }
    }
    // Sums from the solution; the merged cage is the first new one.
    out.into_iter()
        .map(|(at, next)| {
            let next = next
                .into_iter()
                .map(|c| {
                    let mut cells = c.cells;
                    cells.sort_unstable();
                    Cage::new(sum(&cells), cells)
                })
                .collect();
            (at, next)
        })
        .collect()
}

/// `cages` without those at `drop`, then `new` (as cells; sums filled in later); returns the
/// index of the first new cage.
fn replaced(cages: &[Cage], drop: &[usize], new: Vec<Vec<Cell>>) -> (usize, Vec<Cage>) {
    let mut next: Vec<Cage> = cages
        .iter()
        .enumerate()
        .filter(|(k, _)| !drop.contains(k))
        .map(|(_, c)| c.clone())
        .collect();
    let at = next.len();
    next.extend(new.into_iter().map(|cells| Cage::new(0, cells)));
    (at, next)
}

/// How many sets of `len` distinct digits 1..=n add up to each sum.
struct Combinations {
    /// `table[len][sum]`.
    table: Vec<Vec<u64>>,
}

impl Combinations {
    fn new(n: usize) -> Self {
        let max_sum = n * (n + 1) / 2;
        let mut table = vec![vec![0u64; max_sum + 1]; n + 1];
        table[0][0] = 1;
        for d in 1..=n {
            for len in (1..=d).rev() {
                for sum in (d..=max_sum).rev() {
                    table[len][sum] += table[len - 1][sum - d];
                }
            }
        }
        Combinations { table }
    }

    /// The share (parts per million) of all `len`-digit sets that add up to `sum`: how little
    /// the sum tells (a 9-cell cage's 45: everything, nothing told).
    fn share(&self, len: usize, sum: u16) -> u64 {
        let all: u64 = self.table.get(len).map_or(0, |row| row.iter().sum());
        self.count(len, sum) * 1_000_000 / all.max(1)
    }

    fn count(&self, len: usize, sum: u16) -> u64 {
        self.table
            .get(len)
            .and_then(|row| row.get(sum as usize))
            .copied()
            .unwrap_or(0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn combinations_of_nine_digits() {
        let c = Combinations::new(9);
        assert_eq!(c.count(2, 3), 1); // 1+2
        assert_eq!(c.count(2, 10), 4); // 1+9 2+8 3+7 4+6
        assert_eq!(c.count(5, 15), 1);
        assert_eq!(c.count(9, 45), 1);
        assert_eq!(c.count(3, 15), 8);
        assert_eq!(c.count(2, 2), 0);
        let all: u64 = (0..=45).map(|s| c.count(4, s)).sum();
        assert_eq!(all, 126); // 9 choose 4
        assert_eq!(c.share(9, 45), 1_000_000);
        assert!(c.share(5, 15) < c.share(2, 10));
    }
}
