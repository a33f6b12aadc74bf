//! The step engine: solve the way people do (easiest technique first, restarting after every
//! step), record the path, and turn it into a grade: level, score, estimated minutes, the step
//! that made the level, and technique counts (the numbers are read off the path by
//! `score::Tally`; its module doc explains them).

use super::level::Level;
use super::score::{HardestStep, LevelSource, Minutes, Tally};
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
    /// Continuous difficulty, inside the level's band of 10 (easy 0–10 .. extreme 40–50): orders
    /// puzzles inside a level and across levels (see `score`'s module doc).
    pub score: f64,
    /// Estimated solving time for a typical solver (`None` when not graded).
    pub minutes: Option<Minutes>,
    /// The hardest technique used (highest level, then highest weight).
    pub hardest: Option<Technique>,
    /// Where the hardest technique was first needed (its step, rung and cells); boxed to keep a
    /// `Grade` small (the generator passes it around in enums).
    pub hardest_step: Option<Box<HardestStep>>,
    /// Whether the level is the hardest step's or the whole path's work raised it.
    pub level_from: Option<LevelSource>,
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
    /// The grade of a puzzle that is not graded: no level, nothing solved.
    pub fn ungraded(verdict: Verdict) -> Self {
        Grade {
            level: None,
            score: 0.0,
            minutes: None,
            hardest: None,
            hardest_step: None,
            level_from: None,
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
    /// The weight of the rung of each step (parallel to `steps`).
    pub weights: Vec<f64>,
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
        weights: vec![0.0; steps.len()],
        steps,
        solution: None,
    }
}

/// Solve logically. With `known` (a solution), every step is checked against it and an unsound
/// one stops the walk (`Verdict::Unsound`); without, the solver is asked when trial is needed.
pub fn walk(puzzle: &Puzzle, known: Option<&Grid>, keep: bool) -> Path {
    walk_within(puzzle, known, keep, Level::Extreme)
        .unwrap_or_else(|| unreachable!("every path is within extreme"))
}

/// The grade of `puzzle`, or `None` as soon as its path needs a rung above `ceiling` (trial
/// counts as extreme): such a step makes the puzzle's level above the ceiling, so the rest of the
/// walk would not change the answer "harder than `ceiling`". The rungs above the ceiling never
/// run (the ladder is ordered by level), so a grade it returns is `grade`'s, and a "no" costs
/// nothing of the dear rungs (issue 25's set-theory searches). For steering to a target level,
/// where most probes overshoot and only the on-target grades are kept. With `known` as in
/// [`walk`].
pub fn grade_within(puzzle: &Puzzle, known: Option<&Grid>, ceiling: Level) -> Option<Grade> {
    walk_within(puzzle, known, false, ceiling).map(|path| path.grade)
}

/// [`walk`] with the rungs up to `ceiling` only: `None` at the first step that needs one above.
fn walk_within(puzzle: &Puzzle, known: Option<&Grid>, keep: bool, ceiling: Level) -> Option<Path> {
    Walk::new(puzzle, known, keep).run(ceiling)
}

/// A grading walk that can stop at a ceiling and later go on under a higher one from the step
/// where it stopped, so a probe that only asked "above the ceiling?" hands its work to the full
/// grade instead of that grade walking the same steps again (the steering's extreme targets).
pub struct Walk<'p> {
    puzzle: &'p Puzzle,
    known: Option<&'p Grid>,
    keep: bool,
    board: Board<'p>,
    ctx: Context,
    /// The solution, when known or once trial has asked the solver.
    solution: Option<Grid>,
    cells: f64,
    counts: Vec<u32>,
    order: Vec<Technique>,
    tally: Tally,
    steps: Vec<Step>,
    before: Vec<u32>,
    weights: Vec<f64>,
    found: Vec<Step>,
    /// The ladder index where the current step's look goes on: the rungs before it found
    /// nothing on this board (0 but after a stop at a ceiling).
    from_rung: usize,
}

impl<'p> Walk<'p> {
    /// A walk at the puzzle's start. With `known` (a solution), every step is checked against it;
    /// `keep` keeps every step for the path.
    pub fn new(puzzle: &'p Puzzle, known: Option<&'p Grid>, keep: bool) -> Self {
        let mut board = Board::new(puzzle);
        board.set_explaining(keep);
        let cells = board.geometry().cell_count() as f64;
        Walk {
            puzzle,
            known,
            keep,
            board,
            ctx: Context::new(puzzle),
            solution: known.cloned(),
            cells,
            counts: vec![0u32; Technique::ALL.len()],
            order: Vec::new(),
            tally: Tally::default(),
            steps: Vec::new(),
            before: Vec::new(),
            weights: Vec::new(),
            found: Vec::new(),
            from_rung: 0,
        }
    }

    /// Walk on with the rungs up to `ceiling`: the finished path, or `None` at the first step that
    /// needs a rung above it (trial counts as extreme). After `None` the walk waits at that step,
    /// its cheaper rungs already looked at, and a `run` under a higher ceiling goes on from there
    /// exactly as one walk under that ceiling from the start would.
    pub fn run(&mut self, ceiling: Level) -> Option<Path> {
        match self.walk_on(ceiling) {
            End::Above => None,
            End::Ungraded(path) => Some(path),
            End::Solved => Some(self.finish()),
        }
    }

    /// Walk on as [`Walk::run`] does, but read the level only: `Some(level)` of the finished
    /// path (`Some(None)` when it is not graded), `None` at a rung above `ceiling`. The level
    /// does not need the score's cage facts (their direct solve), so a probe that only asks
    /// where a layout stands skips them; [`Walk::grade`] then reads the whole grade of a
    /// finished walk, the same as `run` would have given.
    pub fn run_to_level(&mut self, ceiling: Level) -> Option<Option<Level>> {
        match self.walk_on(ceiling) {
            End::Above => None,
            End::Ungraded(_) => Some(None),
            End::Solved if !self.puzzle.is_solution(&board_grid(&self.board)) => Some(None),
            End::Solved => Some(Some(self.tally.level(self.puzzle.size()))),
        }
    }

    /// The board where the walk stands: after a `None` from [`Walk::run`], the candidates and
    /// placements just before the step that needed a rung above the ceiling.
    pub fn board(&self) -> &Board<'p> {
        &self.board
    }

    /// The grade of a walk that [`Walk::run_to_level`] finished with a level.
    pub fn grade(mut self) -> Grade {
        self.finish().grade
    }

    /// Take steps with the rungs up to `ceiling` until the board is solved or the walk stops.
    fn walk_on(&mut self, ceiling: Level) -> End {
        while !self.board.is_solved() {
            match self.step(ceiling) {
                None => {}
                Some(None) => return End::Above,
                Some(Some(path)) => return End::Ungraded(path),
            }
        }
        End::Solved
    }

    /// One step of the walk: `None` to go on, `Some(None)` at a rung above `ceiling`,
    /// `Some(Some(path))` when grading ends early (an ungraded verdict).
    fn step(&mut self, ceiling: Level) -> Option<Option<Path>> {
        let board = &self.board;
        let ctx = &mut self.ctx;
        let found = &mut self.found;
        found.clear();
        let clock = board.clock();
        let mut used: Option<&Rung> = None;
        let mut at = self.from_rung;
        while let Some(r) = LADDER.get(at).filter(|r| r.level <= ceiling) {
            r.find(ctx, board, found);
            if !found.is_empty() {
                used = Some(r);
                break;
            }
            at += 1;
        }
        let candidates = board.candidate_count();
        let density = candidates as f64 / self.cells;
        let (level, weight) = match used {
            Some(r) => (r.level, r.weight),
            None => (Level::Extreme, TRIAL_WEIGHT),
        };
        if level > ceiling {
            // The rungs up to here found nothing on this board: a higher ceiling goes on after them.
            self.from_rung = at;
            return Some(None);
        }
        self.from_rung = 0;
        let steps = &mut self.steps;
        if used.is_none() {
            // Stuck: trial. A candidate whose assumption the easy rungs refute goes; failing that,
            // the solver's solution (found now if not known) gives the cell's digit. The
            // solution is looked for first: its digits need no refuting (sound techniques never
            // contradict them), which halves the work. When the solver gives no unique
            // solution, trial runs as before and the verdict comes where it always did.
            if self.solution.is_none() {
                self.solution = solve_from(board).ok();
            }
            match refute(board, ctx, self.solution.as_ref()) {
                Some(step) => found.push(step),
                None => {
                    let s = match self.solution.take() {
                        Some(s) => s,
                        None => match solve_from(board) {
                            Ok(s) => s,
                            Err(v) => return Some(Some(ungraded(v, std::mem::take(steps)))),
                        },
                    };
                    found.push(trial(board, &s));
                    self.solution = Some(s);
                }
            }
        }
        for step in found.drain(..) {
            if let Some(s) = self.known {
                if !is_sound(&step, s) {
                    let mut path = ungraded(Verdict::Unsound, std::mem::take(steps));
                    path.grade.hardest = Some(step.technique);
                    path.steps.push(step);
                    return Some(Some(path));
                }
            }
            if self.board.apply(&step).is_err() {
                return Some(Some(ungraded(Verdict::NoSolution, std::mem::take(steps))));
            }
            let t = step.technique;
            if self.counts[t as usize] == 0 {
                self.order.push(t);
            }
            self.counts[t as usize] += 1;
            self.tally.add(&step, level, weight, density);
            if self.keep {
                steps.push(step);
                self.before.push(candidates as u32);
                self.weights.push(weight);
            }
        }
        if self.board.clock() == clock {
            // Nothing changed (never expected): stop rather than loop.
            return Some(Some(ungraded(Verdict::Unsound, std::mem::take(steps))));
        }
        None
    }

    /// The path of a solved board.
    fn finish(&mut self) -> Path {
        let steps = std::mem::take(&mut self.steps);
        let solved = board_grid(&self.board);
        if !self.puzzle.is_solution(&solved) {
            return ungraded(Verdict::NoSolution, steps);
        }
        let mut order = std::mem::take(&mut self.order);
        order.sort_by_key(|&t| {
            LADDER
                .iter()
                .position(|r| r.technique == t)
                .unwrap_or(usize::MAX)
        });
        let counts = &self.counts;
        let techniques = order.iter().map(|&t| (t, counts[t as usize])).collect();
        let trial = counts[Technique::Trial as usize] > 0;
        let tally = std::mem::take(&mut self.tally);
        let (hardest, steps_taken) = (tally.hardest, tally.steps);
        let reading = tally.read(self.puzzle);
        let grade = Grade {
            level: Some(reading.level),
            score: reading.score,
            minutes: Some(reading.minutes),
            hardest,
            hardest_step: reading.hardest_step.map(Box::new),
            level_from: Some(reading.level_from),
            techniques,
            trial,
            steps: steps_taken,
            verdict: Verdict::Unique,
        };
        Path {
            grade,
            steps,
            candidates: std::mem::take(&mut self.before),
            weights: std::mem::take(&mut self.weights),
            solution: Some(solved),
        }
    }
}

/// Where [`Walk::walk_on`] stopped.
enum End {
    /// At a step that needs a rung above the ceiling.
    Above,
    /// Grading ended early (an ungraded verdict).
    Ungraded(Path),
    /// The board is solved.
    Solved,
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generator::level::LevelsSetting;
    use crate::generator::{generate_puzzle, GeneratorConfig, Outcome};

    /// Under every ceiling, `grade_within` gives the full grade when the level is at most the
    /// ceiling, and otherwise either `None` or that same grade (whose level is above it): the
    /// steering's probes see exactly what the full grade would have told them.
    #[test]
    fn a_ceiling_stops_only_walks_whose_level_is_above_it() {
        let config = GeneratorConfig {
            levels: Some(LevelsSetting::any()),
            ..GeneratorConfig::default()
        };
        let (mut stopped, mut levels) = (0, std::collections::BTreeSet::new());
        for index in 0..60 {
            let Outcome::Generated(g) = generate_puzzle(&config, 7, index) else {
                continue;
            };
            let full = grade(&g.puzzle);
            let level = full.level.expect("generated puzzles are unique");
            levels.insert(level);
            for ceiling in Level::ALL {
                match grade_within(&g.puzzle, Some(&g.solution), ceiling) {
                    Some(within) => assert_eq!(within, full, "item {index}, ceiling {ceiling}"),
                    None => {
                        assert!(
                            level > ceiling,
                            "item {index}: {level} stopped at {ceiling}"
                        );
                        stopped += 1;
                    }
                }
            }
        }
        assert!(levels.len() >= 3, "levels {levels:?}");
        assert!(stopped > 0, "no walk was stopped");
    }

    /// Under every ceiling, `run_to_level` stops where `run` stops and otherwise gives the
    /// level of `run`'s grade, and `grade` after it gives that whole grade (the steering's
    /// probes read their level so and the on-target one its grade).
    #[test]
    fn a_walk_to_the_level_agrees_with_the_whole_grade() {
        let config = GeneratorConfig {
            levels: Some(LevelsSetting::any()),
            ..GeneratorConfig::default()
        };
        let mut levels = std::collections::BTreeSet::new();
        for index in 0..30 {
            let Outcome::Generated(g) = generate_puzzle(&config, 11, index) else {
                continue;
            };
            for ceiling in Level::ALL {
                let known = Some(&g.solution);
                let whole = Walk::new(&g.puzzle, known, false).run(ceiling);
                let mut walk = Walk::new(&g.puzzle, known, false);
                let level = walk.run_to_level(ceiling);
                match (whole, level) {
                    (None, None) => {}
                    (Some(path), Some(level)) => {
                        assert_eq!(level, path.grade.level, "item {index}, ceiling {ceiling}");
                        if level.is_some() {
                            levels.extend(level);
                            assert_eq!(walk.grade(), path.grade, "item {index}, ceiling {ceiling}");
                        }
                    }
                    (whole, level) => panic!(
                        "item {index}, ceiling {ceiling}: run {:?}, run_to_level {level:?}",
                        whole.map(|p| p.grade.level)
                    ),
                }
            }
        }
        assert!(levels.len() >= 3, "levels {levels:?}");
    }

    /// A walk stopped at a ceiling and run on under a higher one ends exactly as one walk under
    /// the higher ceiling from the start: the same grade, steps, candidates and weights (the
    /// steering's extreme probes hand their walk to the kept grade this way).
    #[test]
    fn a_stopped_walk_goes_on_as_a_walk_from_the_start() {
        let config = GeneratorConfig {
            levels: Some(LevelsSetting::List(vec!["extreme".into(), "expert".into()])),
            ..GeneratorConfig::default()
        };
        let (mut resumed, mut extremes) = (0, 0);
        for index in 0..6 {
            let Outcome::Generated(g) = generate_puzzle(&config, 3, index) else {
                continue;
            };
            let known = Some(&g.solution);
            let whole = walk(&g.puzzle, known, true);
            extremes += usize::from(whole.grade.level == Some(Level::Extreme));
            for (low, high) in [
                (Level::Easy, Level::Extreme),
                (Level::Medium, Level::Hard),
                (Level::Hard, Level::Extreme),
                (Level::Expert, Level::Extreme),
            ] {
                let mut stepwise = Walk::new(&g.puzzle, known, true);
                let first = stepwise.run(low);
                let from_start = walk_within(&g.puzzle, known, true, high);
                let Some(path) = first.or_else(|| {
                    resumed += 1;
                    stepwise.run(high)
                }) else {
                    assert!(from_start.is_none(), "item {index}: {low} then {high}");
                    continue;
                };
                let path_then = from_start.expect("the same walk stops at the same step");
                assert_eq!(
                    path.grade, path_then.grade,
                    "item {index}: {low} then {high}"
                );
                assert_eq!(path.steps.len(), path_then.steps.len());
                assert_eq!(path.candidates, path_then.candidates);
                assert_eq!(path.weights, path_then.weights);
                assert_eq!(path.solution, path_then.solution);
            }
        }
        assert!(extremes >= 2, "only {extremes} extremes");
        assert!(
            resumed >= 8,
            "only {resumed} walks were stopped and resumed"
        );
    }
}
