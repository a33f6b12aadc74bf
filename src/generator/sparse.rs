//! Sparse zero-given killers (few, big cages: `max_cages = 12` on 9x9): a unique layout with
//! more cages, merged down while it stays unique.
//!
//! Drawing a sparse layout and repairing it does not work: a 12-cage layout admits thousands of
//! second solutions, and each repair rules out a handful. Merging goes the other way: every
//! merge keeps the intended solution (the merged sum is the two sums) and is checked by the
//! solver. A step removes one cage: two touching cages merged (evicting one shared-digit cell
//! where needed), or one cage dissolved into its neighbours. Candidates are tried most
//! informative first — the changed cages' sums allow the smallest share of the digit sets of
//! their size (a 9-cell cage always sums to 45; 15 in five cells is 1+2+3+4+5). A candidate that
//! admits second solutions gets a few repairs that keep the cage count (repair.rs). Where no
//! candidate stays unique the search moves one cell out of a small cage and goes on, or backs
//! up to the previous layout's next candidate (depth first, bounded by solver calls). The
//! candidate layouts are built in `sparse/candidates.rs`.
//!
//! Measured at the stall of `max_cages = 12`: the 12-cage candidates of a unique 13-cage layout
//! admit 50 to over 1,000 solutions, out of reach of a few repairs: most starts fail there (2 of
//! 8 items made at seed 1, ~23 s of one thread each; 14 cages: 20 of 20, 16 cages: 20 of 20).
//! Where the checks go (issue 24, seed 1, 10 items, 4 stored, 18,600 checks, none out of node
//! budget): 3,400 checks of 12-cage layouts (0.1% unique), 6,500 of 13 (0.4%), 4,900 of 14
//! (0.9%), 460 nodes each on average; most unique verdicts at 13 and 14 cages come after a
//! repair. A check asking for 2 solutions costs as many nodes as one asking for 32 (the search
//! to the first solution dominates), so counting less saves nothing. Tried and dropped, all
//! within the seed spread (1-4 of 8 stored): a pool of every second solution found, filtering
//! candidates before the solver (siblings rarely share second solutions: each admits a shifted
//! split of its own merged pair); candidates ordered by the cell pairs they newly force apart
//! (better from 17 to 15 cages, not at 13 and 12); 14 or 30 repairs a candidate instead of 6.
//! Starting the killer search with the derived sums at once (no light first pass) takes 20-35%
//! fewer nodes on these checks, and was not taken (a solver change, and sparse output changes).

mod candidates;

use super::cage_layout::CageLayout;
use super::cage_layout::LayoutRules;
use super::repair::repair;
use super::unique::{Checker, Verdict};
use crate::cage::Cage;
use crate::geometry::Geometry;
use crate::grid::Grid;
use crate::puzzle::Puzzle;
use crate::solver::combos::Combos;
use candidates::{dissolutions, merge_candidates, shifts};
use rand::Rng;

/// Merge candidates checked per merge before the layout is given up.
const TRIES_PER_MERGE: usize = 48;
/// Solutions asked of each check of a merged layout: the repairs learn from all of them.
const SOLUTIONS_PER_CHECK: usize = 32;
/// Cell shifts one path of the merge search may make where it stalls.
const MAX_SHIFTS: usize = 4;
/// Shifts tried where the merge search stalls.
const SHIFT_TRIES: usize = 8;
/// Solver calls the merge search from one starting layout may make.
const CALLS_PER_START: u32 = 600;
/// Repairs a merged layout may take to become unique again.
const REPAIRS_PER_MERGE: usize = 6;
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
/// keeping it unique; `None` if the search ran out of candidates or of its solver calls.
pub fn merge_down<R: Rng>(
    puzzle: Puzzle,
    solution: &Grid,
    rules: &LayoutRules,
    checker: &mut Checker,
    rng: &mut R,
) -> Option<Puzzle> {
    let mut search = Search {
        g: puzzle.geometry().clone(),
        combos: Combos::of(puzzle.size()),
        solution,
        rules,
        end: checker.calls.saturating_add(CALLS_PER_START),
    };
    search.descend(puzzle, MAX_SHIFTS, checker, rng)
}

/// A depth-first search over merge sequences, bounded by solver calls.
struct Search<'a> {
    g: Geometry,
    combos: &'static Combos,
    solution: &'a Grid,
    rules: &'a LayoutRules,
    /// The checker's call count at which the search gives up.
    end: u32,
}

impl Search<'_> {
    /// `puzzle` (unique) merged down to the target, backing up to the previous layout's next
    /// candidate when no candidate of this one stays unique.
    fn descend<R: Rng>(
        &mut self,
        puzzle: Puzzle,
        shifts_left: usize,
        checker: &mut Checker,
        rng: &mut R,
    ) -> Option<Puzzle> {
        if puzzle.cages().len() <= self.rules.cage_count.1 {
            return Some(puzzle);
        }
        let cages = puzzle.cages();
        let mut candidates = merge_candidates(&self.g, cages, self.solution, self.rules.max_size);
        candidates.extend(dissolutions(
            &self.g,
            cages,
            self.solution,
            self.rules.max_size,
            rng,
        ));
        // Most informative changed cages first, a random order among equals.
        let mut keyed: Vec<(u64, u32, Vec<Cage>)> = candidates
            .into_iter()
            .map(|(at, next)| {
                let share = next[at..]
                    .iter()
                    .map(|c| share(self.combos, c.len(), c.sum))
                    .max()
                    .unwrap_or(0);
                (share, rng.random::<u32>(), next)
            })
            .collect();
        keyed.sort_unstable_by_key(|k| (k.0, k.1));
        for (_, _, next) in keyed.into_iter().take(TRIES_PER_MERGE) {
            if checker.calls >= self.end {
                return None;
            }
            let Some(merged) = repaired(&self.g, next, self.solution, self.rules, checker, rng)
            else {
                continue;
            };
            if let Some(done) = self.descend(merged, shifts_left, checker, rng) {
                return Some(done);
            }
        }
        // No merge stays unique: move one cell out of a small cage (the layout staying unique)
        // and merge on from there; a small cage shrunk is easier to dissolve.
        if shifts_left == 0 {
            return None;
        }
        let mut keyed: Vec<(usize, u32, Vec<Cage>)> =
            shifts(&self.g, cages, self.solution, self.rules.max_size)
                .into_iter()
                .map(|(len, next)| (len, rng.random::<u32>(), next))
                .collect();
        keyed.sort_unstable_by_key(|k| (k.0, k.1));
        for (_, _, next) in keyed.into_iter().take(SHIFT_TRIES) {
            if checker.calls >= self.end {
                return None;
            }
            let Ok(p) = Puzzle::new(self.g.clone(), Grid::empty(self.g.size()), next) else {
                continue;
            };
            if checker.check(&p, self.solution, 2) != Verdict::Unique {
                continue;
            }
            if let Some(done) = self.descend(p, shifts_left - 1, checker, rng) {
                return Some(done);
            }
        }
        None
    }
}

/// The layout `cages` if it is unique, or made unique by up to `REPAIRS_PER_MERGE` repairs
/// that do not add cages (boundary moves and exchanges where a second solution differs), each
/// check asking for `SOLUTIONS_PER_CHECK` solutions so the repairs see many at once.
fn repaired<R: Rng>(
    g: &Geometry,
    cages: Vec<Cage>,
    solution: &Grid,
    rules: &LayoutRules,
    checker: &mut Checker,
    rng: &mut R,
) -> Option<Puzzle> {
    let n = cages.len();
    let capped = LayoutRules {
        cage_count: (rules.cage_count.0.min(n), n),
        ..rules.clone()
    };
    let mut layout = CageLayout::from_cages(g.cell_count(), &cages, solution);
    let mut alternatives: Vec<Grid> = Vec::new();
    let mut edits = REPAIRS_PER_MERGE;
    loop {
        let cages = layout.to_cages(solution);
        let puzzle = Puzzle::new(g.clone(), Grid::empty(g.size()), cages).ok()?;
        match checker.check(&puzzle, solution, SOLUTIONS_PER_CHECK) {
            Verdict::Unique => return Some(puzzle),
            Verdict::Undecided => return None,
            Verdict::Multiple(found) => alternatives.extend(found),
        }
        while alternatives.iter().any(|a| layout.admits(solution, a)) {
            if edits == 0 || !repair(&mut layout, g, solution, &alternatives, &capped, rng) {
                return None;
            }
            edits -= 1;
        }
    }
}

/// The share (parts per million) of all `len`-digit sets of `combos` that add up to `sum`: how
/// little the sum tells (a 9-cell cage's 45: everything, nothing told).
fn share(combos: &Combos, len: usize, sum: u16) -> u64 {
    let count = |s: usize| combos.get(len, s).len() as u64;
    let all: u64 = (0..=combos.max_sum()).map(count).sum();
    count(sum as usize) * 1_000_000 / all.max(1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bitset::DigitSet;
    use crate::generator::{generate_puzzle, GeneratorConfig, Outcome};
    use crate::solver;
    use rand::SeedableRng;
    use rand_pcg::Pcg64;

    /// Every cage of `cages` over `solution`: at most `max_size` connected cells of distinct
    /// digits adding up to its sum, the cages covering the grid once.
    fn assert_valid(g: &Geometry, cages: &[Cage], solution: &Grid, max_size: usize) {
        let mut covered = vec![0; g.cell_count()];
        for cage in cages {
            assert!((2..=max_size).contains(&cage.len()), "{cage:?}");
            assert!(g.is_connected(&cage.cells), "{cage:?}");
            let digits: DigitSet = cage
                .cells
                .iter()
                .map(|&c| solution.get(c).unwrap())
                .collect();
            assert_eq!(
                digits.len() as usize,
                cage.len(),
                "repeated digit in {cage:?}"
            );
            let sum: u16 = digits.iter().map(|d| d.get() as u16).sum();
            assert_eq!(sum, cage.sum);
            cage.cells.iter().for_each(|c| covered[c.as_index()] += 1);
        }
        assert!(covered.iter().all(|&n| n == 1), "every cell in one cage");
    }

    /// Merges and dissolutions of a fixed unique layout: one cage fewer, every cage valid.
    #[test]
    fn candidates_have_one_cage_fewer_and_valid_cages() {
        let config = GeneratorConfig {
            max_cages: Some(24),
            ..GeneratorConfig::default()
        };
        let Outcome::Generated(made) = generate_puzzle(&config, 3, 0) else {
            panic!("a 24-cage layout");
        };
        let (g, solution) = (made.puzzle.geometry(), &made.solution);
        let cages = made.puzzle.cages();
        assert_valid(g, cages, solution, 9);
        let mut rng = Pcg64::seed_from_u64(5);
        let merged = merge_candidates(g, cages, solution, 9);
        let dissolved = dissolutions(g, cages, solution, 9, &mut rng);
        assert!(!merged.is_empty() && !dissolved.is_empty());
        for (at, next) in merged.iter().chain(&dissolved) {
            assert_eq!(next.len(), cages.len() - 1);
            assert!(*at < next.len());
            assert_valid(g, next, solution, 9);
        }
    }

    /// `max_cages = 14` (cages up to 9 cells): unique, zero givens, at most 14 valid cages.
    #[test]
    fn fourteen_cages_stay_unique_with_zero_givens() {
        let config = GeneratorConfig {
            max_cages: Some(14),
            ..GeneratorConfig::default()
        };
        let made = (0..3).find_map(|i| match generate_puzzle(&config, 1, i) {
            Outcome::Generated(g) => Some(g),
            Outcome::Rejected(_) => None,
        });
        let made = made.expect("one of three items makes a 14-cage killer");
        let p = &made.puzzle;
        assert_eq!(p.givens().count_filled(), 0);
        assert!(p.cages().len() <= 14, "{} cages", p.cages().len());
        assert_valid(p.geometry(), p.cages(), &made.solution, 9);
        assert_eq!(solver::solve(p, 2).solutions, vec![made.solution.clone()]);
    }

    #[test]
    fn combinations_of_nine_digits() {
        let c = Combos::of(9);
        let count = |len: usize, sum: usize| c.get(len, sum).len();
        assert_eq!(count(2, 3), 1); // 1+2
        assert_eq!(count(2, 10), 4); // 1+9 2+8 3+7 4+6
        assert_eq!(count(5, 15), 1);
        assert_eq!(count(9, 45), 1);
        assert_eq!(count(3, 15), 8);
        assert_eq!(count(2, 2), 0);
        let all: usize = (0..=45).map(|s| count(4, s)).sum();
        assert_eq!(all, 126); // 9 choose 4
        assert_eq!(share(c, 9, 45), 1_000_000);
        assert!(share(c, 5, 15) < share(c, 2, 10));
    }
}
