//! Cage-aware uniqueness: zero-given killers by reshaping the layout where two solutions differ,
//! and minimal givens (the source documents' removal loop) for plain puzzles or on request.
//!
//! Every check is `solver::solve(puzzle, 2)` on cages and givens together. A layout that admits a
//! second solution is changed where the two solutions differ: moving a differing cell x into a
//! neighbouring cage leaves its old cage short by the alternative's change at x, so that second
//! solution no longer fits, while the intended one (whose digits set the sums) always does. Every
//! alternative found is kept and killed before the solver is asked again.

use super::layout::{CageLayout, LayoutRules};
use super::repair::repair;
use crate::bitset::DigitSet;
use crate::cage::Cage;
use crate::geometry::{Cell, Geometry};
use crate::grid::Grid;
use crate::puzzle::Puzzle;
use crate::solver::{self, SolveStats};
use rand::seq::SliceRandom;
use rand::Rng;

/// Solutions asked of each check: two decide uniqueness; a few more teach the repairs more
/// second solutions per call.
const SOLUTION_LIMIT: usize = 4;

/// Counts solver calls and keeps the statistics of the last one.
#[derive(Clone, Debug, Default)]
pub struct Checker {
    /// Calls made so far.
    pub calls: u32,
    /// Statistics of the last call.
    pub last: SolveStats,
}

/// What one uniqueness check found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Exactly one solution (the intended one).
    Unique,
    /// More than one: the solutions found other than the intended one.
    Multiple(Vec<Grid>),
}

impl Checker {
    /// Is `solution` the only solution of `puzzle`? (`solution` must solve it.)
    pub fn check(&mut self, puzzle: &Puzzle, solution: &Grid) -> Verdict {
        let report = solver::solve(puzzle, SOLUTION_LIMIT);
        self.calls += 1;
        self.last = report.stats;
        if report.solutions.len() < 2 {
            return Verdict::Unique;
        }
        Verdict::Multiple(
            report
                .solutions
                .into_iter()
                .filter(|g| g != solution)
                .collect(),
        )
    }
}

/// Why no unique zero-given killer came out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ZeroGivenFailure {
    /// The layout builder met no layout within its rules.
    NoLayout,
    /// The repair bound was reached (a redrawn layout counts as a repair).
    OutOfRepairs,
}

/// Reshape layouts until the zero-given killer over `solution` is unique; returns the puzzle and the
/// number of repairs. When no edit rules out a second solution, a fresh layout is drawn with
/// `draw`; second solutions already found are ruled out before the solver is asked again.
pub fn unique_zero_given<R: Rng>(
    geometry: &Geometry,
    solution: &Grid,
    mut draw: impl FnMut(&mut R) -> Option<CageLayout>,
    rules: &LayoutRules,
    max_repairs: u32,
    checker: &mut Checker,
    rng: &mut R,
) -> Result<(Puzzle, u32), ZeroGivenFailure> {
    let mut alternatives: Vec<Grid> = Vec::new();
    let mut repairs = 0u32;
    let mut layout = draw(rng).ok_or(ZeroGivenFailure::NoLayout)?;
    loop {
        while alternatives.iter().any(|a| layout.admits(solution, a)) {
            if repairs >= max_repairs {
                return Err(ZeroGivenFailure::OutOfRepairs);
            }
            repairs += 1;
            if !repair(&mut layout, geometry, solution, &alternatives, rules, rng) {
                layout = draw(rng).ok_or(ZeroGivenFailure::NoLayout)?;
            }
        }
        let puzzle = killer(geometry, Grid::empty(geometry.size()), &layout, solution);
        match checker.check(&puzzle, solution) {
            Verdict::Unique => return Ok((puzzle, repairs)),
            Verdict::Multiple(found) => alternatives.extend(found),
        }
    }
}

/// The killer puzzle of a layout over `solution` with these givens.
pub fn killer(geometry: &Geometry, givens: Grid, layout: &CageLayout, solution: &Grid) -> Puzzle {
    Puzzle::new(geometry.clone(), givens, layout.to_cages(solution))
        .expect("a layout over a valid solution makes a valid puzzle")
}

/// Remove givens in random order while the puzzle (with these cages) stays unique: the result is
/// minimal — no single given can go. Returns the puzzle and the statistics of a check of it.
pub fn minimal_givens<R: Rng>(
    geometry: &Geometry,
    solution: &Grid,
    cages: Vec<Cage>,
    checker: &mut Checker,
    rng: &mut R,
) -> (Puzzle, SolveStats) {
    let mut givens = solution.clone();
    let mut order: Vec<Cell> = geometry.cells().collect();
    order.shuffle(rng);
    let mut stats: Option<SolveStats> = None;
    for cell in order {
        let digit = givens.get(cell);
        givens.set(cell, None);
        if is_pinned_by_givens(geometry, &givens, solution) {
            // Every empty cell has one candidate left: unique without asking the solver.
            stats = None;
            continue;
        }
        let puzzle = Puzzle::new(geometry.clone(), givens.clone(), cages.clone())
            .expect("givens from a valid solution");
        match checker.check(&puzzle, solution) {
            Verdict::Unique => stats = Some(checker.last),
            Verdict::Multiple(_) => givens.set(cell, digit),
        }
    }
    let puzzle =
        Puzzle::new(geometry.clone(), givens, cages).expect("givens from a valid solution");
    let stats = stats.unwrap_or_else(|| {
        checker.check(&puzzle, solution);
        checker.last
    });
    (puzzle, stats)
}

/// Does every empty cell see, among the givens of its houses, every digit but its own? Then the
/// givens force the rest and the puzzle is unique (a cheap sufficient test, no search).
fn is_pinned_by_givens(geometry: &Geometry, givens: &Grid, solution: &Grid) -> bool {
    let mut used = vec![DigitSet::EMPTY; geometry.house_count()];
    for cell in geometry.cells() {
        if let Some(d) = givens.get(cell) {
            for h in geometry.houses_of(cell) {
                used[h.as_index()].insert(d);
            }
        }
    }
    let all = DigitSet::all(geometry.size());
    geometry
        .cells()
        .filter(|&c| givens.get(c).is_none())
        .all(|c| {
            let seen = geometry
                .houses_of(c)
                .iter()
                .fold(DigitSet::EMPTY, |s, h| s.union(used[h.as_index()]));
            let own = DigitSet::single(solution.get(c).expect("complete solution"));
            all.difference(seen) == own
        })
}
