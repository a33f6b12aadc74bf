//! The step engine: solve the way people do (easiest technique first, restarting after every
//! step), record the path, and turn it into a level, a score and technique counts.
//!
//! **Score.** The path is read as *passes* (one look down the ladder and what it yields). Three
//! things make a killer hard for a person, and the score adds them up:
//! `score = 0.5·ln(1 + B) + 3.75·ln(1 + S) − 1.5·ln(1 + U)`, where
//! - B, the *bottleneck work*: the sum of rung weights over the passes where nothing light was
//!   left (no single, cage combination, bound or one-cell rule of 45: a rung weighing at least
//!   `BOTTLENECK_WEIGHT`), i.e. the places a person is stuck and must find a harder idea;
//! - S, the *scan*: the sum over passes of the candidates per cell on the board (scaled to nine
//!   digits), i.e. how much pencil marking a person reads through on the way (SudokuWiki weighs
//!   each step by candidate density in the same spirit);
//! - U, the cages with a single combination: easy ways in, they lower it.
//!
//! The weights were fitted by least squares to Solo's levels on 1,200 generated killers, then
//! rounded, and checked on 1,200 others and on KrazyDad's book order (scripts/grade_calibration.py):
//! Spearman ρ with Solo's level ≈ 0.63, medians rising over basic < intermediate < advanced <
//! unreasonable. A 9x9 killer scores about 15 to 23; hard published killers 26 to 29.
//!
//! **Level.** At least the level of the hardest technique used, and at least the level the score
//! reaches (`LEVEL_SCORES`: medium from 17.5, hard from 18.5, expert from 19.5), as HoDoKu levels
//! a puzzle by its hardest step and by its total work. Extreme comes only from forcing chains or
//! trial. The thresholds sit between the score medians of Solo's levels, so easy, medium, hard and
//! expert correspond roughly to Solo's basic, intermediate, advanced and unreasonable.

use super::level::Level;
use super::state::Board;
use super::step::{Step, Technique};
use super::techniques::{Context, Rung, LADDER, TRIAL_WEIGHT};
use crate::bitset::DigitSet;
use crate::grid::Grid;
use crate::puzzle::Puzzle;
use crate::solver;

/// Search nodes the uniqueness check may spend before the grade gives up ("undecided"); it runs
/// from the position where logic got stuck, which is far easier than the empty grid.
pub const UNIQUENESS_NODES: u64 = 60_000_000;

/// What the uniqueness check said.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Exactly one solution: graded.
    Unique,
    /// No solution.
    NoSolution,
    /// Two or more solutions.
    Several,
    /// The check ran out of its node budget.
    Undecided,
    /// A technique made a step the solution contradicts (a grader bug; never expected).
    Unsound,
}

/// The grade of one puzzle.
#[derive(Clone, Debug, PartialEq)]
pub struct Grade {
    /// The level; `None` when the puzzle has no unique solution (see `verdict`).
    pub level: Option<Level>,
    /// Continuous difficulty for ordering inside a level and across levels (see the module doc).
    pub score: f64,
    /// The hardest technique used (highest level, then highest weight).
    pub hardest: Option<Technique>,
    /// Steps per technique, in ladder order, only those used.
    pub techniques: Vec<(Technique, u32)>,
    /// Was trial needed?
    pub trial: bool,
    /// Steps on the path.
    pub steps: usize,
    /// The uniqueness verdict.
    pub verdict: Verdict,
}

impl Grade {
    fn ungraded(verdict: Verdict) -> Self {
        Grade {
            level: None,
            score: 0.0,
            hardest: None,
            techniques: Vec::new(),
            trial: false,
            steps: 0,
            verdict,
        }
    }
    /// Why there is no level: "no solution", "several solutions", ... (`None` when graded).
    pub fn reason(&self) -> Option<&'static str> {
        match self.verdict {
            Verdict::Unique => None,
            Verdict::NoSolution => Some("no solution"),
            Verdict::Several => Some("several solutions"),
            Verdict::Undecided => Some("uniqueness undecided within the search budget"),
            Verdict::Unsound => Some("internal error: a technique contradicted the solution"),
        }
    }
}

/// A graded puzzle with its whole path, for `explain`.
#[derive(Clone, Debug)]
pub struct Path {
    /// The grade.
    pub grade: Grade,
    /// Every step, in order (empty when not graded).
    pub steps: Vec<Step>,
    /// Candidates on the board before each step (parallel to `steps`).
    pub candidates: Vec<u32>,
    /// The solution, when unique.
    pub solution: Option<Grid>,
}

/// Grade a puzzle: solve it logically; the first time no technique applies, the solver checks
/// uniqueness from that position (every deduction holds in every solution, so the position has
/// the puzzle's solutions) and trial continues from its solution.
pub fn grade(puzzle: &Puzzle) -> Grade {
    walk(puzzle, None, false).grade
}

/// Grade a puzzle and keep every step.
pub fn solve_logically(puzzle: &Puzzle) -> Path {
    walk(puzzle, None, true)
}

/// Does `step` agree with the solution (no true digit removed, no wrong digit placed)?
pub fn is_sound(step: &Step, solution: &Grid) -> bool {
    step.placements
        .iter()
        .all(|&(c, d)| solution.get(c) == Some(d))
        && step
            .eliminations
            .iter()
            .all(|&(c, d)| solution.get(c) != Some(d))
}

/// The solutions of the puzzle restricted to the board's placements (up to 2), or the verdict
/// that stops grading.
fn solve_from(board: &Board) -> Result<Grid, Verdict> {
    let puzzle = board.puzzle();
    let values = board
        .geometry()
        .cells()
        .map(|c| board.placed(c).map_or(0, |d| d.get()))
        .collect();
    let Some(givens) = Grid::from_values(puzzle.size(), values) else {
        return Err(Verdict::NoSolution);
    };
    let Ok(here) = Puzzle::new(puzzle.geometry().clone(), givens, puzzle.cages().to_vec()) else {
        return Err(Verdict::NoSolution);
    };
    let report = solver::solve_within(&here, 2, UNIQUENESS_NODES);
    match (report.solutions.len(), report.complete) {
        (1, true) => Ok(report
            .solutions
            .into_iter()
            .next()
            .unwrap_or_else(|| unreachable!())),
        (0, true) => Err(Verdict::NoSolution),
        (2.., _) => Err(Verdict::Several),
        _ => Err(Verdict::Undecided),
    }
}

fn ungraded(verdict: Verdict, steps: Vec<Step>) -> Path {
    Path {
        grade: Grade::ungraded(verdict),
        candidates: vec![0; steps.len()],
        steps,
        solution: None,
    }
}

/// Solve logically. With `known` (a solution), every step is checked against it and an unsound
/// one stops the walk (`Verdict::Unsound`); without, the solver is asked when trial is needed.
pub fn walk(puzzle: &Puzzle, known: Option<&Grid>, keep: bool) -> Path {
    let mut board = Board::new(puzzle);
    board.set_explaining(keep);
    let mut ctx = Context::new(puzzle);
    let mut solution = known.cloned();
    let cells = board.geometry().cell_count() as f64;
    let mut counts = vec![0u32; Technique::ALL.len()];
    let mut order: Vec<Technique> = Vec::new();
    let mut tally = Tally::default();
    let mut steps = Vec::new();
    let mut before = Vec::new();
    let mut found = Vec::new();
    while !board.is_solved() {
        found.clear();
        let clock = board.clock();
        let mut used: Option<&Rung> = None;
        for r in LADDER {
            r.find(&mut ctx, &board, &mut found);
            if !found.is_empty() {
                used = Some(r);
                break;
            }
        }
        let candidates = board.candidate_count();
        let density = candidates as f64 / cells;
        let (level, weight) = match used {
            Some(r) => (r.level, r.weight),
            None => (Level::Extreme, TRIAL_WEIGHT),
        };
        if used.is_none() {
            // Stuck: trial. A candidate whose assumption the easy rungs refute goes; failing that,
            // the solver's solution (found now if not known) gives the cell's digit. The
            // solution is looked for first: its digits need no refuting (sound techniques never
            // contradict them), which halves the work. When the solver gives no unique
            // solution, trial runs as before and the verdict comes where it always did.
            if solution.is_none() {
                solution = solve_from(&board).ok();
            }
            match refute(&board, &ctx, solution.as_ref()) {
                Some(step) => found.push(step),
                None => {
                    let s = match solution.take() {
                        Some(s) => s,
                        None => match solve_from(&board) {
                            Ok(s) => s,
                            Err(v) => return ungraded(v, steps),
                        },
                    };
                    found.push(trial(&board, &s));
                    solution = Some(s);
                }
            }
        }
        for step in found.drain(..) {
            if let Some(s) = known {
                if !is_sound(&step, s) {
                    let mut path = ungraded(Verdict::Unsound, steps);
                    path.grade.hardest = Some(step.technique);
                    path.steps.push(step);
                    return path;
                }
            }
            if board.apply(&step).is_err() {
                return ungraded(Verdict::NoSolution, steps);
            }
            let t = step.technique;
            if counts[t as usize] == 0 {
                order.push(t);
            }
            counts[t as usize] += 1;
            tally.add(&step, level, weight, density);
            if keep {
                steps.push(step);
                before.push(candidates as u32);
            }
        }
        if board.clock() == clock {
            // Nothing changed (never expected): stop rather than loop.
            return ungraded(Verdict::Unsound, steps);
        }
    }
    if !puzzle.is_solution(&board_grid(&board)) {
        return ungraded(Verdict::NoSolution, steps);
    }
    order.sort_by_key(|&t| {
        LADDER
            .iter()
            .position(|r| r.technique == t)
            .unwrap_or(usize::MAX)
    });
    let techniques = order.iter().map(|&t| (t, counts[t as usize])).collect();
    let score = tally.score(board.size());
    let grade = Grade {
        level: Some(tally.level(score)),
        score,
        hardest: tally.hardest,
        techniques,
        trial: counts[Technique::Trial as usize] > 0,
        steps: tally.steps,
        verdict: Verdict::Unique,
    };
    Path {
        grade,
        steps,
        candidates: before,
        solution: Some(board_grid(&board)),
    }
}

/// The placed digits as a grid.
fn board_grid(board: &Board) -> Grid {
    let values = board
        .geometry()
        .cells()
        .map(|c| board.placed(c).map_or(0, |d| d.get()))
        .collect();
    Grid::from_values(board.size(), values).unwrap_or_else(|| Grid::empty(board.size()))
}

/// Running totals of a path.
///
/// A *pass* is one look down the ladder: every step it yields comes from the same rung on the same
/// board (batch finders report several instances at once), so a new pass starts whenever the
/// technique or the candidate count changes.
#[derive(Debug)]
struct Tally {
    /// The level of the hardest technique so far.
    hardest_level: Level,
    hardest: Option<Technique>,
    hardest_weight: f64,
    steps: usize,
    /// Σ of rung weights over bottleneck passes (rungs weighing `BOTTLENECK_WEIGHT` or more).
    bottleneck: f64,
    /// Σ of candidates per cell over passes: how much pencil marking a person scans.
    scan: f64,
    /// Unique-combination steps: cages with a single combination.
    unique_combinations: u32,
    /// The current pass: its technique and candidate density.
    pass: Option<(Technique, u64)>,
}

impl Default for Tally {
    fn default() -> Self {
        Tally {
            hardest_level: Level::Easy,
            hardest: None,
            hardest_weight: 0.0,
            steps: 0,
            bottleneck: 0.0,
            scan: 0.0,
            unique_combinations: 0,
            pass: None,
        }
    }
}

/// A pass whose rung weighs this much or more is a *bottleneck*: no single, cage-combination,
/// bound or one-cell rule of 45 was left, so a person has to look for something harder.
pub const BOTTLENECK_WEIGHT: f64 = 5.0;

/// Score thresholds: a score at or above `LEVEL_SCORES[i]` makes a puzzle at least
/// `Level::ALL[i + 1]` (medium, hard, expert). Set at the midpoints between the score medians of
/// Solo's basic, intermediate, advanced and unreasonable killers (scripts/grade_calibration.py).
/// Extreme is not reached by score: it means forcing chains or trial.
pub const LEVEL_SCORES: [f64; 3] = [17.5, 18.5, 19.5];

impl Tally {
    fn add(&mut self, step: &Step, level: Level, weight: f64, density: f64) {
        let t = step.technique;
        self.steps += 1;
        let pass = (t, density.to_bits());
        if self.pass != Some(pass) {
            self.pass = Some(pass);
            self.scan += density;
            if weight >= BOTTLENECK_WEIGHT {
                self.bottleneck += weight;
            }
        }
        self.unique_combinations += u32::from(t == Technique::UniqueCombination);
        let harder = level > self.hardest_level
            || (level == self.hardest_level && weight > self.hardest_weight);
        if harder || self.hardest.is_none() {
            self.hardest_level = self.hardest_level.max(level);
            self.hardest = Some(t);
            self.hardest_weight = weight;
        }
    }

    /// The score of a grid of `digits` digits (the module doc explains it):
    /// `0.5·ln(1 + B) + 3.75·ln(1 + S) − 1.5·ln(1 + U)`, where B is the bottleneck work, S the
    /// candidate scan (per cell, scaled to 9 digits so other sizes compare) and U the number of
    /// unique-combination cages used. Fitted by least squares to Solo's levels on 1,200 killers
    /// (`sgt-solo --generate 300 '3x3kd{b,i,a,u}#fit'`), then rounded; checked on 1,200 others
    /// (`#held`), the 160 shared ones and KrazyDad volume 1 (scripts/grade_calibration.py).
    fn score(&self, digits: usize) -> f64 {
        let scan = self.scan * 9.0 / digits.max(1) as f64;
        let raw = 0.5 * self.bottleneck.ln_1p() + 3.75 * scan.ln_1p()
            - 1.5 * f64::from(self.unique_combinations).ln_1p();
        raw.max(0.0)
    }

    /// The level: at least the hardest technique's, raised by the score thresholds (a long or
    /// laborious path of easier techniques is harder for a person, as HoDoKu grades).
    fn level(&self, score: f64) -> Level {
        let reached = LEVEL_SCORES.iter().filter(|&&s| score >= s).count();
        self.hardest_level.max(Level::ALL[reached])
    }
}

/// Cells tried by a trial before it falls back to the solver.
const TRIAL_CELLS: usize = 12;
/// Steps a trial may take to reach a contradiction.
const TRIAL_STEPS: usize = 400;

/// How a trial run ended.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Outcome {
    Solved,
    Stuck,
    Contradiction,
}

/// The highest level a trial follows its assumption with: a person testing a digit follows it
/// with the easy techniques (singles, cage combinations and bounds, innies and outies), as the
/// forcing chains follow theirs with singles; a contradiction only the harder rungs would reach
/// is left to the solver's digit. (Following it with the whole ladder, forcing chains included,
/// cost a quarter of the 12x12 generation time and moved no level: GRADER_VERSION 4.)
const TRIAL_LEVEL: Level = Level::Easy;

/// Run the ladder's rungs up to `TRIAL_LEVEL` (no trial) on `board` until it is solved, stuck or
/// broken.
fn propagate(board: &mut Board, ctx: &mut Context) -> Outcome {
    let mut found = Vec::new();
    for _ in 0..TRIAL_STEPS {
        if board.is_solved() {
            return Outcome::Solved;
        }
        if board.is_broken() {
            return Outcome::Contradiction;
        }
        found.clear();
        for r in LADDER.iter().take_while(|r| r.level <= TRIAL_LEVEL) {
            r.find(ctx, board, &mut found);
            if !found.is_empty() {
                break;
            }
        }
        if found.is_empty() {
            return Outcome::Stuck;
        }
        let clock = board.clock();
        for step in &found {
            if board.apply(step).is_err() {
                return Outcome::Contradiction;
            }
        }
        if board.clock() == clock {
            return Outcome::Stuck;
        }
    }
    Outcome::Stuck
}

/// Trial by contradiction: in the cells with the fewest candidates, a candidate whose assumption
/// the easy rungs break (a cell or a house digit left with no place) is removed. With the solution
/// known, its digit is not tried: the ladder's steps are sound, so assuming it never breaks.
fn refute(board: &Board, ctx: &Context, solution: Option<&Grid>) -> Option<Step> {
    let mut cells: Vec<_> = board
        .empty_cells()
        .filter(|&c| board.candidates(c).len() >= 2)
        .collect();
    cells.sort_by_key(|&c| board.candidates(c).len());
    // One scratch board and context, copied back before each assumption.
    let (mut b, mut c) = (board.clone(), ctx.clone());
    for &cell in cells.iter().take(TRIAL_CELLS) {
        let truth = solution.and_then(|s| s.get(cell));
        for digit in board.candidates(cell).iter() {
            if Some(digit) == truth {
                continue;
            }
            b.copy_from(board);
            c.copy_from(ctx);
            b.place(cell, digit);
            if propagate(&mut b, &mut c) == Outcome::Contradiction {
                let mut step = Step::new(Technique::Trial);
                step.eliminations.push((cell, digit));
                step.cells.push(cell);
                step.reason = format!(
                    "trial: if {} = {}, the easy techniques lead to a contradiction",
                    board.cell_name(cell),
                    digit.get()
                );
                return Some(step);
            }
        }
    }
    None
}

/// The last resort: in the cell with the fewest candidates, every candidate but the solution's
/// leads to a contradiction (the solver's search says so), so the cell takes the solution's digit.
fn trial(board: &Board, solution: &Grid) -> Step {
    let cell = board
        .empty_cells()
        .min_by_key(|&c| board.candidates(c).len())
        .expect("an unsolved board has an empty cell");
    let digit = solution.get(cell).expect("a solution is complete");
    let mut step = Step::new(Technique::Trial);
    step.placements.push((cell, digit));
    step.cells.push(cell);
    let others = board.candidates(cell).difference(DigitSet::single(digit));
    step.reason = format!(
        "trial on {}: every other candidate ({}) leads to a contradiction",
        board.cell_name(cell),
        super::text::digits_text(others)
    );
    step
}
