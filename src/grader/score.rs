//! The grade's numbers, read off the path: the level's work measure, the score, the estimated
//! solving time, and the step that made the level.
//!
//! The path is read as *passes* (one look down the ladder and what it yields: every step of a
//! pass comes from the same rung on the same board, so a new pass starts whenever the technique
//! or the candidate count changes).
//!
//! **Level** (unchanged since grader version 2, so the generator's steering keeps its meaning):
//! at least the hardest rung's level, raised by the *work* `0.5·ln(1 + B) + 3.75·ln(1 + S) −
//! 1.5·ln(1 + U)` reaching `LEVEL_SCORES` — B the rung weights of the bottleneck passes (no
//! single, cage combination, bound or one-cell rule of 45 left), S the candidates per cell summed
//! over passes, U the cages with a single combination. Fitted to Solo's levels
//! (scripts/grade_calibration.py).
//!
//! **Score** (grader version 10, scripts/score_calibration.py): level-anchored. The level sets the
//! band, `10 × level` (easy 0–10, medium 10–20, hard 20–30, expert 30–40, extreme 40–50), and the
//! *effort* orders puzzles inside it: `effort = λ·ln(1 + C) + 3.75·H − 0.4·ln(1 + U) − σ·T +
//! 4·K + ½·Z + ½·P`, where
//! - H, the *hardest steps*: `ln(Σ w⁸) / 8` over the passes' rung weights w, a soft maximum: the
//!   hardest rung's weight, and a little more for each other pass nearly as hard (Sudoku
//!   Explainer and the publishers' ladders rate by the hardest step). Among singles the naked
//!   single weighs most (the ladder's weights), so a path that needs one scores higher;
//! - C, the *cells looked over*: the empty cells summed over the passes of rungs weighing 1 or
//!   more, as a share of the grid, i.e. what a person scans on the way to each move (the last cell
//!   of a house or a cage is seen without a search). Someone hunting singles scans cells and
//!   houses, not marks. λ is 1, or ½ when the hardest step made the level (a rung above easy):
//!   then finding that step is what orders puzzles, as Sudoku Explainer rates them, and the
//!   scanning around it less (plain puzzles' levels come from their hardest step, most killers'
//!   from the work);
//! - U, the cages with a single combination: easy ways in;
//! - T, *how early the hardest step comes*: the share of the path walked before its first use.
//!   A step needed early, with more of the grid open, is harder to find; σ is 0.75, and 2.75 when
//!   the hardest rung is expert or above (chains and set theory are searched over every candidate
//!   on the board: Sudoku Explainer rates those needed early higher);
//! - K, *what the cage sums leave open*: `ln(D / N)`, D the digits its cage's sum allows an empty
//!   cell, averaged over the grid (0 for a plain puzzle); and Z, `ln` of the cages' mean size
//!   (0 without cages): fewer, larger cages whose sums allow more digits give fewer ways in;
//! - P, *the share of the grid left for pencil marks*: `ln(1 + E / N²)`, E the cells still empty
//!   when a solve without marks stalls (placed digits, cage sums, the rule of 45 for one cell and
//!   small cages and pointing worked out in the head: `direct`; 0 for a plain puzzle). Killer
//!   solvers fill what they can that way, then mark the grid and read every later step off the
//!   marks. pencilmark grades killers so, and inside our generated medium, hard and expert levels
//!   this share orders its ratings at ρ 0.5–0.75 where no fact of our path passes 0.4
//!   (K, Z and P are killer-only: the plain ratings cannot see them).
//!
//! The band position is `10·(1 − e^(−effort/20))`, so a score never leaves its level's band and a
//! higher level always scores higher. The factors were chosen on the two plain sets (Sudoku
//! Explainer ratings, Cloud Sudoku mean times), Solo's fit killers (seeds `fit`, `fit2`, `fit4`,
//! `fit5`) and KrazyDad's, and pencilmark's ratings of generated killers (seeds 31 and 32), and
//! checked by 5-fold cross-validation, on Solo's `#held` killers and on generated killers of other
//! seeds (scripts/score_calibration.py).
//!
//! **Minutes**: `ln(seconds) = 4.6497 + 0.8655·ln(1 + C) + 0.0487·H`, least squares on the 766
//! Cloud Sudoku mean solving times (plain 9x9, mostly easy), shown as the range of the fit's
//! middle half of residuals (the 25th to the 75th percentile: half of puzzles like it took the
//! players' average inside the range). Killers have no public human times: theirs is an
//! extrapolation.

use super::direct::cells_left_for_marks;
use super::level::Level;
use super::step::{Step, Technique};
use crate::geometry::Cell;
use crate::puzzle::Puzzle;
use crate::solver::combos::Combos;

/// A pass whose rung weighs this much or more is a *bottleneck*: no single, cage-combination,
/// bound or one-cell rule of 45 was left, so a person has to look for something harder.
pub const BOTTLENECK_WEIGHT: f64 = 5.0;

/// Work thresholds: work at or above `LEVEL_SCORES[i]` makes a puzzle at least
/// `Level::ALL[i + 1]` (medium, hard, expert). Set at the midpoints between the work medians of
/// Solo's basic, intermediate, advanced and unreasonable killers (scripts/grade_calibration.py).
/// Extreme is not reached by work: it means forcing chains or trial.
pub const LEVEL_SCORES: [f64; 3] = [17.5, 18.5, 19.5];

/// Width of a level's score band: a puzzle of level `l` scores in `[10·l, 10·(l + 1))`.
pub const BAND: f64 = 10.0;
/// The effort that takes a puzzle 63% (1 − 1/e) up its band: wide enough that the longest
/// paths (trial, effort about 26) still spread out below the band's top.
const BAND_EFFORT: f64 = 20.0;

/// The power of the soft maximum of rung weights (H in the module doc).
const HARDEST_POWER: i32 = 8;
/// Weight of H against the cells looked over (scripts/score_calibration.py).
const HARDEST_FACTOR: f64 = 3.75;
/// Weight of the unique-combination cages, which lower the effort.
const UNIQUE_FACTOR: f64 = 0.4;
/// Weight of the cells looked over when the hardest step set the level (a rung above easy): then
/// finding that step is what orders, as Sudoku Explainer rates.
const HARDEST_LEVEL_CELLS: f64 = 0.5;
/// Weight of T, the share of the path before the hardest step: a step needed early, with more
/// of the grid open, is harder to find.
const EARLY_FACTOR: f64 = 0.75;
/// T's extra weight when the hardest rung is expert or above (chains, set theory), which are
/// searched over every candidate on the board.
const EARLY_CHAIN_FACTOR: f64 = 2.0;
/// Weight of K, what the cage sums leave open. K, Z and P's factors were chosen together on fit
/// data only: the highest mean Solo ρ over four fit seeds (`fit`, `fit2`, `fit4`, `fit5`: 4,800
/// killers) that keeps pencilmark's order inside each of medium, hard and expert at 0.60 or more
/// on seeds 31–32 and KrazyDad at 0.30 or more (scripts/score_calibration.py).
const OPEN_FACTOR: f64 = 4.0;
/// Weight of Z, the cages' mean size.
const SIZE_FACTOR: f64 = 0.5;
/// Weight of P, the share of the grid left for pencil marks (`direct`).
const MARKS_FACTOR: f64 = 0.5;
/// Rungs lighter than this (full house, cage single) are seen without a search.
const LOOK_WEIGHT: f64 = 1.0;

/// The time model, fitted by scripts/score_calibration.py on `cloud_fit.csv`:
/// `ln(seconds) = MINUTES_FIT[0] + MINUTES_FIT[1]·ln(1 + C) + MINUTES_FIT[2]·H`.
const MINUTES_FIT: [f64; 3] = [4.6497, 0.8655, 0.0487];
/// The 25th and 75th percentiles of that fit's residuals (natural log of seconds).
const MINUTES_SPREAD: [f64; 2] = [-0.185, 0.115];

/// Where a puzzle's level comes from.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum LevelSource {
    /// The hardest step's rung alone sets it.
    HardestStep,
    /// The work of the whole path raised it above the hardest rung's level.
    Work,
}

impl LevelSource {
    /// Snake-case key, as in JSON output ("hardest_step", "work").
    pub fn as_str(self) -> &'static str {
        match self {
            LevelSource::HardestStep => "hardest_step",
            LevelSource::Work => "work",
        }
    }
}

/// The step of the hardest rung the path needs (its first use): what made the level.
#[derive(Clone, Debug, PartialEq)]
pub struct HardestStep {
    /// Its position on the path, from 1.
    pub step: usize,
    /// Its rung's level.
    pub level: Level,
    /// Its rung's weight.
    pub weight: f64,
    /// The cells it changes (placements and removals), in cell order.
    pub cells: Vec<Cell>,
}

/// An estimated solving time for a typical solver, in whole minutes, `low` ≤ `high`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Minutes {
    /// The low end of the range.
    pub low: u32,
    /// The high end of the range.
    pub high: u32,
}

impl std::fmt::Display for Minutes {
    /// "15-25", as stored and exported (the text output adds " min").
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}-{}", self.low, self.high)
    }
}

impl Minutes {
    /// "15–25 min", as people read it (`explain`, books, the feed and the player).
    pub fn label(&self) -> String {
        format!("{}–{} min", self.low, self.high)
    }
}

/// Text that is not a stored minutes range ("15-25").
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("not a minutes range {0:?}: expected LOW-HIGH in whole minutes, e.g. 15-25")]
pub struct BadMinutes(pub String);

impl std::str::FromStr for Minutes {
    type Err = BadMinutes;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let bad = || BadMinutes(s.to_string());
        let (low, high) = s.split_once('-').ok_or_else(bad)?;
        let low = low.trim().parse().map_err(|_| bad())?;
        let high = high.trim().parse().map_err(|_| bad())?;
        match low <= high {
            true => Ok(Minutes { low, high }),
            false => Err(bad()),
        }
    }
}

/// Running totals of a path (see the module doc for what each feeds).
#[derive(Debug)]
pub(crate) struct Tally {
    /// The level of the hardest rung so far.
    hardest_level: Level,
    /// The hardest technique so far.
    pub hardest: Option<Technique>,
    hardest_weight: f64,
    hardest_step: Option<HardestStep>,
    /// Steps so far.
    pub steps: usize,
    /// Σ of rung weights over bottleneck passes (rungs weighing `BOTTLENECK_WEIGHT` or more).
    bottleneck: f64,
    /// Σ of candidates per cell over passes.
    scan: f64,
    /// Passes of rungs weighing `LOOK_WEIGHT` or more.
    looks: u32,
    /// Σ over those passes of the digits placed before the pass (with the placements of the
    /// whole path, this gives the empty cells each of them looked over).
    placed_before_looks: u64,
    /// Digits placed so far.
    placed: u32,
    /// Σ over passes of the rung weight to the power `HARDEST_POWER`.
    power: f64,
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
            hardest_step: None,
            steps: 0,
            bottleneck: 0.0,
            scan: 0.0,
            looks: 0,
            placed_before_looks: 0,
            placed: 0,
            power: 0.0,
            unique_combinations: 0,
            pass: None,
        }
    }
}

/// What a finished tally gives the grade.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Reading {
    pub level: Level,
    pub level_from: LevelSource,
    pub score: f64,
    pub minutes: Minutes,
    pub hardest_step: Option<HardestStep>,
}

impl Tally {
    /// Count one applied step of a rung of `level` and `weight`, on a board with `density`
    /// candidates per cell.
    pub fn add(&mut self, step: &Step, level: Level, weight: f64, density: f64) {
        let t = step.technique;
        self.steps += 1;
        let pass = (t, density.to_bits());
        if self.pass != Some(pass) {
            self.pass = Some(pass);
            self.scan += density;
            if weight >= LOOK_WEIGHT {
                self.looks += 1;
                self.placed_before_looks += u64::from(self.placed);
            }
            if weight >= BOTTLENECK_WEIGHT {
                self.bottleneck += weight;
            }
            self.power += weight.powi(HARDEST_POWER);
        }
        self.unique_combinations += u32::from(t == Technique::UniqueCombination);
        self.placed += step.placements.len() as u32;
        let harder = level > self.hardest_level
            || (level == self.hardest_level && weight > self.hardest_weight);
        if harder || self.hardest.is_none() {
            self.hardest_level = self.hardest_level.max(level);
            self.hardest = Some(t);
            self.hardest_weight = weight;
            // The cells it changes: a step's other cells are recorded only when explaining, and
            // the grade must not depend on that.
            let mut cells: Vec<Cell> = step.placements.iter().map(|&(c, _)| c).collect();
            cells.extend(step.eliminations.iter().map(|&(c, _)| c));
            cells.sort_unstable();
            cells.dedup();
            self.hardest_step = Some(HardestStep {
                step: self.steps,
                level,
                weight,
                cells,
            });
        }
    }

    /// The level's work measure on a grid of `digits` digits (the module doc explains it).
    fn work(&self, digits: usize) -> f64 {
        let scan = self.scan * 9.0 / digits.max(1) as f64;
        let raw = 0.5 * self.bottleneck.ln_1p() + 3.75 * scan.ln_1p()
            - 1.5 * f64::from(self.unique_combinations).ln_1p();
        raw.max(0.0)
    }

    /// ln(1 + C): the cells looked over, as a share of the grid. A solved path places a digit
    /// in every cell that was empty, so the cells still empty at a pass are the path's
    /// placements less those made before it.
    fn cells_term(&self, digits: usize) -> f64 {
        let cells = (digits * digits).max(1) as f64;
        let looked = u64::from(self.looks) * u64::from(self.placed) - self.placed_before_looks;
        (looked as f64 / cells).ln_1p()
    }

    /// H: the soft maximum of the passes' rung weights.
    fn hardest_term(&self) -> f64 {
        match self.power > 0.0 {
            true => self.power.ln() / f64::from(HARDEST_POWER),
            false => 0.0,
        }
    }

    /// T: the share of the path walked before the hardest step's first use (0 for the first
    /// step, near 1 for the last).
    fn early_term(&self) -> f64 {
        match &self.hardest_step {
            Some(h) if self.steps > 0 => (h.step - 1) as f64 / self.steps as f64,
            _ => 0.0,
        }
    }

    /// The effort that orders puzzles inside a level's band, for a level `level` and a puzzle
    /// with cages `cages`.
    fn effort(&self, digits: usize, level: Level, cages: CageFacts) -> f64 {
        let cells = match level > Level::Easy && level == self.hardest_level {
            true => HARDEST_LEVEL_CELLS,
            false => 1.0,
        };
        let early = match self.hardest_level >= Level::Expert {
            true => EARLY_FACTOR + EARLY_CHAIN_FACTOR,
            false => EARLY_FACTOR,
        };
        let u = f64::from(self.unique_combinations).ln_1p();
        let e = cells * self.cells_term(digits) + HARDEST_FACTOR * self.hardest_term()
            - UNIQUE_FACTOR * u
            - early * self.early_term()
            + OPEN_FACTOR * cages.openness
            + SIZE_FACTOR * cages.size
            + MARKS_FACTOR * cages.marks;
        e.max(0.0)
    }

    /// The estimated solving time (the module doc's time model).
    fn minutes(&self, digits: usize) -> Minutes {
        let [a, b, c] = MINUTES_FIT;
        let ln_seconds = a + b * self.cells_term(digits) + c * self.hardest_term();
        let at = |spread: f64| ((ln_seconds + spread).exp() / 60.0).round().max(1.0) as u32;
        let low = at(MINUTES_SPREAD[0]);
        Minutes {
            low,
            high: at(MINUTES_SPREAD[1]).max(low + 1),
        }
    }

    /// The level of the path on a grid of `digits` digits, as [`Tally::read`] gives it: the
    /// cages' facts (the score's K, Z and P) do not enter it, so it costs no direct solve.
    pub fn level(&self, digits: usize) -> Level {
        let reached = LEVEL_SCORES
            .iter()
            .filter(|&&s| self.work(digits) >= s)
            .count();
        self.hardest_level.max(Level::ALL[reached])
    }

    /// Level, score, minutes and the step that made the level of `puzzle`'s path.
    pub fn read(self, puzzle: &Puzzle) -> Reading {
        self.read_with(puzzle.size(), CageFacts::of(puzzle))
    }

    /// [`Tally::read`] for a grid of `digits` digits with cages `cages`.
    fn read_with(self, digits: usize, cages: CageFacts) -> Reading {
        let level = self.level(digits);
        let level_from = match level > self.hardest_level {
            true => LevelSource::Work,
            false => LevelSource::HardestStep,
        };
        let band = Level::ALL.iter().position(|&l| l == level).unwrap_or(0) as f64;
        let effort = self.effort(digits, level, cages);
        let inside = BAND * (1.0 - (-effort / BAND_EFFORT).exp());
        Reading {
            level,
            level_from,
            score: BAND * band + inside,
            minutes: self.minutes(digits),
            hardest_step: self.hardest_step,
        }
    }
}

/// What a puzzle's cages give the score (the module doc's K and Z; both 0 for a plain puzzle).
#[derive(Copy, Clone, Debug, Default, PartialEq)]
pub(crate) struct CageFacts {
    /// K, what the cage sums leave open: `ln(D / N)`, D the digits the sum of its cage allows a
    /// cell, averaged over the empty cells (a cell in no cage allows all N); below 0 for a
    /// killer whose sums pin digits down.
    pub openness: f64,
    /// Z, `ln` of the cages' mean size in cells.
    pub size: f64,
    /// P, the share of the grid left for pencil marks: `ln(1 + E / N²)`, E the cells still
    /// empty when a solve without marks stalls (`direct`).
    pub marks: f64,
}

impl CageFacts {
    /// The facts of `puzzle`'s cages.
    pub(crate) fn of(puzzle: &Puzzle) -> Self {
        let cages = puzzle.cages();
        if cages.is_empty() {
            return CageFacts::default();
        }
        let n = puzzle.size();
        let table = Combos::of(n);
        let mut allowed = vec![n as u32; n * n];
        for cage in cages {
            let union = table
                .get(cage.cells.len(), usize::from(cage.sum))
                .iter()
                .fold(0u16, |u, &m| u | m);
            for &c in &cage.cells {
                allowed[c.as_index()] = union.count_ones();
            }
        }
        let givens = puzzle.givens();
        let (mut total, mut open) = (0u32, 0u32);
        for c in puzzle
            .geometry()
            .cells()
            .filter(|&c| givens.get(c).is_none())
        {
            total += allowed[c.as_index()];
            open += 1;
        }
        let cells: usize = cages.iter().map(|k| k.cells.len()).sum();
        CageFacts {
            openness: match open {
                0 => 0.0,
                _ => (f64::from(total) / f64::from(open) / n as f64).ln(),
            },
            size: (cells as f64 / cages.len() as f64).ln(),
            marks: (cells_left_for_marks(puzzle) as f64 / (n * n) as f64).ln_1p(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn step(t: Technique) -> Step {
        let mut s = Step::new(t);
        s.eliminations
            .push((Cell::new(40), crate::geometry::Digit::new(5)));
        s
    }

    #[test]
    fn a_higher_level_always_scores_higher() {
        // A long path of singles against one short path with an X-wing.
        let mut singles = Tally::default();
        for i in 0..30 {
            singles.add(
                &step(Technique::HiddenSingle),
                Level::Easy,
                1.0,
                2.0 - i as f64 / 40.0,
            );
        }
        let mut wing = Tally::default();
        wing.add(&step(Technique::HiddenSingle), Level::Easy, 1.0, 3.0);
        wing.add(&step(Technique::XWing), Level::Hard, 30.0, 2.0);
        let (s, w) = (
            singles.read_with(9, CageFacts::default()),
            wing.read_with(9, CageFacts::default()),
        );
        assert!(s.level < w.level);
        assert!(s.score < BAND && w.score >= 2.0 * BAND && w.score < 3.0 * BAND);
        assert_eq!(w.level_from, LevelSource::HardestStep);
        let hardest = w.hardest_step.unwrap();
        assert_eq!((hardest.step, hardest.level), (2, Level::Hard));
        assert_eq!(hardest.cells, vec![Cell::new(40)]);
    }

    /// A hidden single placing one digit (a new cell each time, as on a real path).
    fn single(i: usize, t: Technique) -> Step {
        let mut s = Step::new(t);
        s.placements
            .push((Cell::new(i as u8), crate::geometry::Digit::new(1)));
        s
    }

    /// `passes` passes of one placement each, the `i`th with rung weight `weight(i)`.
    fn singles_path(passes: usize, weight: impl Fn(usize) -> f64) -> Tally {
        let mut t = Tally::default();
        for i in 0..passes {
            let density = 1.0 - i as f64 / 1000.0;
            t.add(
                &single(i, Technique::HiddenSingle),
                Level::Easy,
                weight(i),
                density,
            );
        }
        t
    }

    #[test]
    fn more_cells_looked_over_scores_higher_inside_a_level() {
        let (short, long) = (
            singles_path(20, |_| 1.0).read_with(9, CageFacts::default()),
            singles_path(60, |_| 1.0).read_with(9, CageFacts::default()),
        );
        assert_eq!((short.level, long.level), (Level::Easy, Level::Easy));
        assert!(short.score < long.score);
        assert!(short.minutes.high <= long.minutes.high && short.minutes.low < long.minutes.low);
    }

    #[test]
    fn the_cells_looked_over_are_the_empty_cells_at_each_pass() {
        // Three passes placing one digit each look over 3, 2 and 1 empty cells.
        let t = singles_path(3, |_| 1.0);
        assert!((t.cells_term(9) - (6.0f64 / 81.0).ln_1p()).abs() < 1e-12);
        // A pass of a rung lighter than LOOK_WEIGHT (a full house) is seen without a search.
        let t = singles_path(3, |i| if i == 0 { 0.5 } else { 1.0 });
        assert!((t.cells_term(9) - (3.0f64 / 81.0).ln_1p()).abs() < 1e-12);
    }

    #[test]
    fn a_heavier_single_scores_higher() {
        // The same path with one pass of a heavier single (the ladder's naked single).
        let hidden = singles_path(30, |_| 1.0).read_with(9, CageFacts::default());
        let naked = singles_path(30, |i| if i == 10 { 1.5 } else { 1.0 })
            .read_with(9, CageFacts::default());
        assert_eq!(naked.level, Level::Easy);
        assert!(hidden.score < naked.score);
    }

    #[test]
    fn minutes_print_and_parse_back() {
        let m = Minutes { low: 15, high: 25 };
        assert_eq!(m.to_string(), "15-25");
        assert_eq!(m.label(), "15–25 min");
        assert_eq!("15-25".parse::<Minutes>(), Ok(m));
        assert!("25-15".parse::<Minutes>().is_err());
        assert!("15".parse::<Minutes>().is_err());
        assert!("a-b".parse::<Minutes>().is_err());
    }

    #[test]
    fn the_range_is_the_middle_half_of_the_fits_residuals() {
        let m = singles_path(40, |_| 1.0)
            .read_with(9, CageFacts::default())
            .minutes;
        // C = (40 + 39 + ... + 1) / 81 and H = ln(40) / 8:
        // e^(4.6497 + 0.8655·ln(1 + C) + 0.0487·H) ≈ 860 s; e^-0.185 and e^0.115 of it ≈ 11.9 and
        // 16.1 min.
        assert_eq!((m.low, m.high), (12, 16));
    }

    /// A 4x4 killer of pairs over the solution 1234/3412/2143/4321, with `given` digits given.
    fn pairs_4x4(given: &[usize]) -> Puzzle {
        use crate::cage::Cage;
        use crate::geometry::Geometry;
        use crate::grid::Grid;
        let solution = [1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 1];
        let cages = (0..8)
            .map(|k| {
                let cells = [2 * k, 2 * k + 1];
                let sum = cells.iter().map(|&c| solution[c] as u16).sum();
                Cage::new(sum, cells.iter().map(|&c| Cell::new(c as u8)).collect())
            })
            .collect();
        let values = (0..16)
            .map(|c| if given.contains(&c) { solution[c] } else { 0 })
            .collect();
        let givens = Grid::from_values(4, values).unwrap();
        Puzzle::new(Geometry::standard(4).unwrap(), givens, cages).unwrap()
    }

    #[test]
    fn cage_facts_measure_what_the_sums_leave_open() {
        // Sums 3, 7, 7, 3, 3, 7, 7, 3: each allows two of the four digits ({1,2} or {3,4}).
        let facts = CageFacts::of(&pairs_4x4(&[]));
        assert!((facts.openness - (2.0f64 / 4.0).ln()).abs() < 1e-12);
        assert!((facts.size - 2.0f64.ln()).abs() < 1e-12);
        // Given cells are not open: the mean runs over the empty ones only.
        assert_eq!(CageFacts::of(&pairs_4x4(&[0, 1])).openness, facts.openness);
        // A plain puzzle has neither.
        let plain = Puzzle::new(
            crate::geometry::Geometry::standard(4).unwrap(),
            crate::grid::Grid::empty(4),
            Vec::new(),
        )
        .unwrap();
        assert_eq!(CageFacts::of(&plain), CageFacts::default());
    }

    #[test]
    fn cages_that_leave_more_open_or_more_to_mark_score_higher_inside_a_level() {
        let tight = CageFacts {
            openness: -0.1,
            size: 1.0,
            marks: 0.2,
        };
        let open = CageFacts {
            openness: -0.05,
            ..tight
        };
        let bigger = CageFacts { size: 1.3, ..tight };
        let marked = CageFacts {
            marks: 0.5,
            ..tight
        };
        let read = |facts| singles_path(30, |_| 1.0).read_with(9, facts);
        let (t, o, b, m) = (read(tight), read(open), read(bigger), read(marked));
        assert_eq!(
            (t.level, o.level, b.level, m.level),
            (Level::Easy, Level::Easy, Level::Easy, Level::Easy)
        );
        assert!(t.score < o.score && t.score < b.score && t.score < m.score);
        assert_eq!((t.minutes, t.minutes), (o.minutes, m.minutes));
    }

    #[test]
    fn a_hardest_step_needed_earlier_scores_higher() {
        // The same X-wing as the 6th or the 26th of 30 passes.
        let path = |at: usize| {
            let mut t = Tally::default();
            for i in 0..30 {
                let (tech, level, weight) = match i == at {
                    true => (Technique::XWing, Level::Hard, 30.0),
                    false => (Technique::HiddenSingle, Level::Easy, 1.0),
                };
                t.add(&single(i, tech), level, weight, 2.0 - i as f64 / 40.0);
            }
            t.read_with(9, CageFacts::default())
        };
        let (early, late) = (path(5), path(25));
        assert_eq!((early.level, late.level), (Level::Hard, Level::Hard));
        assert!(early.score > late.score);
        assert_eq!(early.minutes, late.minutes);
    }

    #[test]
    fn the_cells_count_half_when_the_hardest_step_made_the_level() {
        // 40 passes of singles and one X-wing: the X-wing makes the level hard, and the same
        // path's cells weigh half of what they weigh in an easy path.
        let mut t = singles_path(40, |_| 1.0);
        let easy_cells = t.cells_term(9);
        t.add(&step(Technique::XWing), Level::Hard, 30.0, 2.0);
        let hard = t.effort(9, Level::Hard, CageFacts::default());
        let raised = t.effort(9, Level::Expert, CageFacts::default());
        assert!(easy_cells > 0.0);
        assert!((raised - hard - 0.5 * t.cells_term(9)).abs() < 1e-9);
    }
}
