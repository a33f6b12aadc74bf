//! Sparse zero-given killers (few, big cages: `max_cages = 12` on 9x9), shaped against the
//! solution grid's unavoidable sets.
//!
//! A sparse layout admits second solutions mostly by digit swaps inside cages that no sum can
//! see. So the layout is drawn at the target's cage count (`warnsdorff.rs`), and cells then move
//! across cage boundaries (`sparse/shape.rs`) until every grid of a pool breaks some cage (a sum
//! changed or a digit repeated). The pool starts with the solution's small unavoidable sets —
//! every two-digit swap on a linked component (the deadly rectangle and its kin) and every
//! three-digit re-filling no two-digit swap explains (`sparse/unavoidable.rs`; 1,300-2,000 grids
//! on a 9x9 solution) — and grows by the second solutions each solver check finds (a
//! counter-example loop: up to `SHAPE_CHECKS` checks, `SOLUTIONS_PER_CHECK` solutions each).
//! Among the moves that leave the fewest pool grids admitted, the one whose two changed cages'
//! sums leave the fewest digit sets is taken. Every puzzle returned was proved unique by the
//! solver within `unique::SOLVER_NODE_BUDGET`.
//!
//! Measured (issue 24, third round; seed-1 grids 0-5, one thread, load 9-14): a 12-cage layout
//! that kills every small unavoidable set is never unique at once (it admits 1,400 to 5,000+
//! solutions); shaping on against the solver's second solutions made 5 of 6 unique (without the
//! tie-break on informative sums 5 of 6 in more checks; without the seeded sets 2 of 6).
//! Splitting each second solution into its closed groups of changed cells added 3% to the pool
//! and nothing to the rate. Fourth round (`sparse4`): a layout is made unique within ~70 checks
//! or mostly never, and one check's solutions usually fall to a single move, so a layout now gets
//! `SHAPE_CHECKS` = 70 checks of 64 solutions and rounds of 40 moves, then a fresh layout (was
//! 400 checks of 32 and rounds of 400: failed layouts grew 14,000-grid pools that every move
//! read). The pool's tallies count only the cells where a grid differs, cage-major, so a move
//! reads two cages of every grid in order. `scripts/bench_sparse.sh` figures are in the README.

//! Before (issues 6 and 24, measured and dropped): merging a unique layout with more cages down
//! one cage at a time. The 12-cage candidates of unique 13-cage layouts all admitted 32 or more
//! solutions (8 layouts, 35 candidates), relabelling the digits for the most informative sums
//! left them there (46% of their second solutions kept every cage's digit set), and repairs,
//! bigger repair budgets and trading givens stayed at 2-11 of 20 items at 12-27 CPU s a stored
//! puzzle.

mod shape;
mod unavoidable;

use super::cage_layout::{cages_with_sums, LayoutRules};
use super::record::{CheckSubject, Event, Recorder};
use super::unique::{Checker, Verdict, ZeroGivenFailure};
use crate::cage::Cage;
use crate::geometry::{Cell, Geometry};
use crate::grid::Grid;
use crate::puzzle::Puzzle;
use rand::Rng;
use shape::Shaper;

/// Solutions asked of each check: the pool learns from all of them. Most of a check's solutions
/// differ in one region, so one move often kills them all; with checks capped at `SHAPE_CHECKS`,
/// 64 took the fewest checks and CPU (12 items, one thread: 64 18.4 s, 32 23.6 s, 16 20.1 s,
/// 128 34.0 s; noisy, load 8-10).
const SOLUTIONS_PER_CHECK: usize = 64;
/// Moves one shaping round may make before its layout goes to the solver anyway: a round that
/// has not killed the pool by then seldom does, and every move reads the whole pool (10 items,
/// one thread, load 7-9: 400 moves 13.0 CPU s, 100 10.1 s, 40 7.8-8.1 s, 15 9.7-9.8 s).
const SHAPE_STEPS: u32 = 40;
/// Solver checks one drawn layout may take before it is given up for a fresh one (with a fresh
/// pool). A layout is made unique within ~70 checks or mostly never: at 400, two of the first
/// four seed-1 layouts used all 400 and a pool of 14,700 grids; 150, 100, 70 and 45 took 7.6
/// (8 items), 27.8, 23.6 and 24.8 CPU s on 12 items (45 lost one item).
const SHAPE_CHECKS: u32 = 70;

/// Is this a sparse target: more than four cells a cage on average even at the most cages?
pub fn is_sparse(rules: &LayoutRules, cell_count: usize) -> bool {
    rules.cage_count.1 * 4 < cell_count
}

/// A unique zero-given killer over `solution` with a cage count in `rules.cage_count`: a layout
/// drawn at that count, shaped against the solution's small unavoidable sets and the solver's
/// second solutions. `Err(OutOfRepairs)` when `SHAPE_CHECKS` checks did not get there (or a
/// check ran out of node budget: such a layout is dropped, never stored unproven). `rec` hears
/// of the layout drawn, each shaped layout and each check.
pub fn shaped<R: Rng>(
    g: &Geometry,
    solution: &Grid,
    rules: &LayoutRules,
    checker: &mut Checker,
    rec: &mut Recorder,
    rng: &mut R,
) -> Result<Puzzle, ZeroGivenFailure> {
    let layout = super::warnsdorff::build_warnsdorff(g, solution, rules, rng)
        .ok_or(ZeroGivenFailure::NoLayout)?;
    let cages: Vec<Vec<Cell>> = layout.ids().map(|id| layout.cells(id).to_vec()).collect();
    rec.emit(|| Event::Layout {
        cages: with_sums(&cages, solution),
        redrawn: false,
    });
    let mut shaper = Shaper::new(g, solution, cages, rules.max_size);
    for alt in unavoidable::small_alternatives(g, solution) {
        shaper.add(&alt);
    }
    for _ in 0..SHAPE_CHECKS {
        // A round that does not kill the whole pool still goes to the solver: its second
        // solutions steer the next round.
        shaper.shape(SHAPE_STEPS, rng);
        let cages = with_sums(shaper.cages(), solution);
        rec.emit(|| Event::Repair {
            cages: cages.clone(),
            alternatives: shaper.pool_len(),
        });
        let puzzle = Puzzle::new(g.clone(), Grid::empty(g.size()), cages)
            .expect("a shaped layout over a valid solution makes a valid puzzle");
        let verdict = checker.check(&puzzle, solution, SOLUTIONS_PER_CHECK);
        rec.emit(|| Event::Check {
            subject: CheckSubject::Layout,
            verdict: (&verdict).into(),
            nodes: checker.last.nodes,
        });
        match verdict {
            Verdict::Unique => return Ok(puzzle),
            Verdict::Undecided => break,
            Verdict::Multiple(found) => found.iter().for_each(|alt| shaper.add(alt)),
        }
    }
    Err(ZeroGivenFailure::OutOfRepairs)
}

/// The cages of `cells` with their sums read from `solution` (see [`cages_with_sums`]).
fn with_sums(cells: &[Vec<Cell>], solution: &Grid) -> Vec<Cage> {
    cages_with_sums(cells.iter().map(Vec::as_slice), solution)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bitset::DigitSet;
    use crate::generator::{generate_puzzle, GeneratorConfig, Outcome};
    use crate::solver;

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
}
