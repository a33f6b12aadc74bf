//! Cage-aware uniqueness: zero-given killers by reshaping the layout where two solutions differ,
//! and minimal givens (the source documents' removal loop) for plain puzzles or on request.
//!
//! Every check is `solver::solve(puzzle, 2)` on cages and givens together. A layout that admits a
//! second solution is changed where the two solutions differ: moving a differing cell x into a
//! neighbouring cage leaves its old cage short by the alternative's change at x, so that second
//! solution no longer fits, while the intended one (whose digits set the sums) always does. Every
//! alternative found is kept and killed before the solver is asked again.

use super::cage_layout::{CageLayout, LayoutRules};
use super::record::{CheckSubject, Event, Recorder};
use super::repair::repair;
use super::warnsdorff::Grower;
use crate::bitset::DigitSet;
use crate::cage::Cage;
use crate::geometry::{Cell, Geometry, MAX_CELLS, MAX_SIZE};
use crate::grid::Grid;
use crate::puzzle::Puzzle;
use crate::solver::{self, SolveStats};
use rand::seq::SliceRandom;
use rand::Rng;

/// Failed naked-singles shortcuts in a row after which `minimal_givens` stops trying them.
const SINGLES_MISSES: u32 = 6;

/// Solutions asked of each zero-given layout check: two decide uniqueness, a few more teach the
/// repairs more second solutions per call (4 measured fastest: 3.1 calls a 9x9 puzzle against 3.8).
const LAYOUT_SOLUTION_LIMIT: usize = 4;

/// Search nodes one uniqueness check may take before its layout or removal counts as undecided.
/// Published-style 9x9 checks take a few dozen nodes; the budget only cuts the rare runaway search
/// (some random-walk 9x9 layouts and big killers took minutes without it).
pub const SOLVER_NODE_BUDGET: u64 = 200_000;

/// Counts solver calls and keeps the statistics of the last one.
#[derive(Clone, Debug, Default)]
pub struct Checker {
    /// Calls made so far.
    pub calls: u32,
    /// Statistics of the last call.
    pub last: SolveStats,
    /// Search nodes of all calls so far.
    pub nodes: u64,
    /// Calls that ran out of `SOLVER_NODE_BUDGET` undecided.
    pub undecided: u32,
}

/// What one uniqueness check found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Exactly one solution (the intended one).
    Unique,
    /// More than one: the solutions found other than the intended one.
    Multiple(Vec<Grid>),
    /// The node budget ran out before a second solution was found or ruled out.
    Undecided,
}

impl Checker {
    /// Is `solution` the only solution of `puzzle`? (`solution` must solve it.) Asks the solver
    /// for up to `limit` (>= 2) solutions.
    pub fn check(&mut self, puzzle: &Puzzle, solution: &Grid, limit: usize) -> Verdict {
        let report = solver::solve_within(puzzle, limit, SOLVER_NODE_BUDGET);
        self.calls += 1;
        self.last = report.stats;
        self.nodes += report.stats.nodes;
        match (report.solutions.len(), report.complete) {
            (0 | 1, true) => return Verdict::Unique,
            (0 | 1, false) => {
                self.undecided += 1;
                return Verdict::Undecided;
            }
            _ => {}
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
/// `rec` hears of every layout laid, repair and check.
// The recorder is one more argument beside the checker: both are threaded through every stage.
#[allow(clippy::too_many_arguments)]
pub fn unique_zero_given<R: Rng>(
    geometry: &Geometry,
    solution: &Grid,
    mut draw: impl FnMut(&mut R) -> Option<CageLayout>,
    rules: &LayoutRules,
    max_repairs: u32,
    checker: &mut Checker,
    rec: &mut Recorder,
    rng: &mut R,
) -> Result<(Puzzle, u32), ZeroGivenFailure> {
    let mut alternatives: Vec<Grid> = Vec::new();
    let mut repairs = 0u32;
    let mut grower = Grower::new(geometry);
    let mut layout = draw(rng).ok_or(ZeroGivenFailure::NoLayout)?;
    rec.emit(|| laid(&layout, solution, false));
    loop {
        while alternatives.iter().any(|a| layout.admits(solution, a)) {
            if repairs >= max_repairs {
                return Err(ZeroGivenFailure::OutOfRepairs);
            }
            repairs += 1;
            if repair(
                &mut layout,
                geometry,
                &mut grower,
                solution,
                &alternatives,
                rules,
                rng,
            ) {
                rec.emit(|| Event::Repair {
                    cages: layout.to_cages(solution),
                    alternatives: alternatives.len(),
                });
            } else {
                layout = draw(rng).ok_or(ZeroGivenFailure::NoLayout)?;
                rec.emit(|| laid(&layout, solution, true));
            }
        }
        let cages = layout.to_cages(solution);
        let puzzle = Puzzle::new(geometry.clone(), Grid::empty(geometry.size()), cages)
            .expect("a layout over a valid solution makes a valid puzzle");
        let verdict = checker.check(&puzzle, solution, LAYOUT_SOLUTION_LIMIT);
        rec.emit(|| checked(CheckSubject::Layout, &verdict, checker));
        match verdict {
            Verdict::Unique => return Ok((puzzle, repairs)),
            Verdict::Multiple(found) => alternatives.extend(found),
            Verdict::Undecided => {
                // Too hard to decide: a fresh layout costs one repair.
                if repairs >= max_repairs {
                    return Err(ZeroGivenFailure::OutOfRepairs);
                }
                repairs += 1;
                layout = draw(rng).ok_or(ZeroGivenFailure::NoLayout)?;
                rec.emit(|| laid(&layout, solution, true));
            }
        }
    }
}

/// The event of a layout laid.
fn laid(layout: &CageLayout, solution: &Grid, redrawn: bool) -> Event {
    Event::Layout {
        cages: layout.to_cages(solution),
        redrawn,
    }
}

/// The event of the check the checker just made.
fn checked(subject: CheckSubject, verdict: &Verdict, checker: &Checker) -> Event {
    Event::Check {
        subject,
        verdict: verdict.into(),
        nodes: checker.last.nodes,
    }
}

/// Remove givens in random order while the puzzle (with these cages) stays unique: the result is
/// minimal — no single given can go. Returns the puzzle and the statistics of a check of it.
///
/// It is the source documents' removal loop, tried once per cell, with removals tested in batches:
/// fewer givens never make a non-unique puzzle unique, so a batch that stays unique is exactly
/// what one-by-one removal would have accepted. A batch that does not is halved, or cut before
/// the last of its cells where a second solution differs if that is shorter (any longer prefix
/// admits that solution), and tried again, down to the one cell that must stay. The batch doubles
/// after two successes in a row. `rec` hears of every check and of the givens left.
pub fn minimal_givens<R: Rng>(
    geometry: &Geometry,
    solution: &Grid,
    cages: Vec<Cage>,
    checker: &mut Checker,
    rec: &mut Recorder,
    rng: &mut R,
) -> (Puzzle, SolveStats) {
    let mut puzzle = Puzzle::new(geometry.clone(), solution.clone(), cages)
        .expect("givens from a valid solution");
    let mut order: Vec<Cell> = geometry.cells().collect();
    order.shuffle(rng);
    let houses: Vec<[u8; 3]> = geometry
        .cells()
        .map(|c| geometry.houses_of(c).map(|h| h.get()))
        .collect();
    let mut stats: Option<SolveStats> = None;
    let (mut next, mut batch, mut streak, mut misses) = (0, 1, 0, 0);
    while next < order.len() {
        let cells = &order[next..(next + batch).min(order.len())];
        let mut trial = puzzle.clone();
        cells.iter().for_each(|&c| trial.clear_given(c));
        let plain = trial.cages().is_empty();
        if batch == 1
            && plain
            && opens_deadly_rectangle(geometry, trial.givens(), solution, cells[0])
        {
            // A digit swap on an empty rectangle is a second solution: the cell must stay.
            next += 1;
            streak = 0;
            continue;
        }
        // Naked singles fill the grid: unique without asking the solver. Once they have failed a
        // few times in a row they rarely succeed again (fewer givens), so they are not tried.
        let forced = misses < SINGLES_MISSES
            && is_forced_by_singles(&houses, geometry.size(), trial.givens(), solution);
        misses = if forced { 0 } else { misses + 1 };
        if forced {
            stats = None;
        } else {
            let verdict = checker.check(&trial, solution, 2);
            rec.emit(|| {
                let givens = trial.givens().count_filled();
                checked(CheckSubject::Removal { givens }, &verdict, checker)
            });
            match verdict {
                Verdict::Unique => stats = Some(checker.last),
                // Undecided counts as "not unique": the puzzle stays at its last proven state.
                Verdict::Undecided => {
                    next += usize::from(batch == 1);
                    batch = (batch / 2).max(1);
                    streak = 0;
                    continue;
                }
                Verdict::Multiple(alternatives) => {
                    // A second solution fits every prefix of the batch that holds all of the
                    // batch cells where it differs: only a shorter prefix can still be unique.
                    let cut = alternatives
                        .iter()
                        .filter_map(|alt| {
                            cells.iter().rposition(|&c| alt.get(c) != solution.get(c))
                        })
                        .min()
                        .unwrap_or(0);
                    if cut == 0 {
                        next += 1; // the batch's first cell must stay a given
                        batch = 1;
                    } else {
                        batch = cut.min(batch / 2).max(1);
                    }
                    streak = 0;
                    continue;
                }
            }
        }
        puzzle = trial;
        next += cells.len();
        // Grow only after two successes in a row: late on, most single removals fail.
        if streak >= 1 {
            batch *= 2;
        }
        streak += 1;
    }
    let stats = stats.unwrap_or_else(|| {
        let verdict = checker.check(&puzzle, solution, 2);
        rec.emit(|| checked(CheckSubject::Final, &verdict, checker));
        checker.last
    });
    rec.emit(|| Event::Givens {
        givens: puzzle.givens().clone(),
    });
    (puzzle, stats)
}

/// Does emptying `cell` complete an empty rectangle whose two digits can swap — rows r1, r2 and
/// columns c1, c2 with a b / b a at the corners — into a second solution of a plain puzzle? Rows
/// and columns keep their digits under the swap; regions do when the corners changing a → b sit
/// in the same regions as those changing b → a (the classic "deadly pattern").
fn opens_deadly_rectangle(geometry: &Geometry, givens: &Grid, solution: &Grid, cell: Cell) -> bool {
    let n = geometry.size();
    let (r1, c1) = (geometry.row(cell), geometry.col(cell));
    let digit = |c: Cell| solution.values()[c.as_index()];
    let empty = |c: Cell| givens.values()[c.as_index()] == 0;
    let a = digit(cell);
    (0..n).filter(|&r2| r2 != r1).any(|r2| {
        let x = geometry.cell_at(r2, c1);
        let b = digit(x);
        let Some(c2) = (0..n).find(|&c| digit(geometry.cell_at(r1, c)) == b) else {
            return false;
        };
        let (y, z) = (geometry.cell_at(r1, c2), geometry.cell_at(r2, c2));
        let mut to_b = [geometry.region(cell), geometry.region(z)];
        let mut to_a = [geometry.region(x), geometry.region(y)];
        to_b.sort_unstable();
        to_a.sort_unstable();
        empty(x) && empty(y) && empty(z) && digit(z) == a && to_b == to_a
    })
}

/// Do naked singles alone fill the grid from these givens? Then the puzzle is unique (a cheap
/// sufficient test: a forced digit is the solution's digit, so no search is needed). `houses`
/// holds the three house indices of every cell.
fn is_forced_by_singles(houses: &[[u8; 3]], size: usize, givens: &Grid, solution: &Grid) -> bool {
    let mut used = [0u16; 3 * MAX_SIZE];
    let mut open = [0u8; MAX_CELLS];
    let mut count = 0;
    for (cell, (&v, hs)) in givens.values().iter().zip(houses).enumerate() {
        if v == 0 {
            open[count] = cell as u8;
            count += 1;
        } else {
            hs.iter().for_each(|&h| used[h as usize] |= 1 << (v - 1));
        }
    }
    let all = DigitSet::all(size).bits();
    loop {
        let before = count;
        let mut kept = 0;
        for i in 0..count {
            let cell = open[i] as usize;
            let [a, b, c] = houses[cell];
            let free = all & !(used[a as usize] | used[b as usize] | used[c as usize]);
            if free.count_ones() == 1 {
                let bit = 1 << (solution.values()[cell] - 1);
                [a, b, c].iter().for_each(|&h| used[h as usize] |= bit);
            } else {
                open[kept] = cell as u8;
                kept += 1;
            }
        }
        count = kept;
        if count == 0 || count == before {
            return count == 0;
        }
    }
}
