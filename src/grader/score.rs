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
//! **Score** (grader version 5, scripts/score_calibration.py): level-anchored. The level sets the
//! band, `10 × level` (easy 0–10, medium 10–20, hard 20–30, expert 30–40, extreme 40–50), and the
//! *effort* orders puzzles inside it: `effort = ln(1 + M) + 3.75·H − 0.4·ln(1 + U)`, where
//! - H, the *hardest steps*: `ln(Σ w⁸) / 8` over the passes' rung weights w, a soft maximum: the
//!   hardest rung's weight, and a little more for each other pass nearly as hard (Sudoku
//!   Explainer and the publishers' ladders rate by the hardest step);
//! - M, the *marks read*: the candidates per cell (scaled to nine digits) summed over the passes
//!   of rungs weighing 1 or more, i.e. what a person scans on the way (the last cell of a house or
//!   a cage is seen without reading pencil marks);
//! - U, the cages with a single combination: easy ways in.
//!
//! The band position is `10·(1 − e^(−effort/20))`, so a score never leaves its level's band and a
//! higher level always scores higher. The three constants were chosen by a grid search on the
//! two plain sets (Sudoku Explainer ratings, Cloud Sudoku mean times) and Solo's and KrazyDad's
//! killers together, and checked by 5-fold cross-validation (scripts/score_calibration.py).
//!
//! **Minutes**: `ln(seconds) = 4.3189 + 0.6765·ln(1 + M) + 0.0682·H`, least squares on the 766
//! Cloud Sudoku mean solving times (plain 9x9, mostly easy), shown as the range of the fit's
//! middle half of residuals (the 25th to the 75th percentile: half of puzzles like it took the
//! players' average inside the range). Killers have no public human times: theirs is an
//! extrapolation.

use super::level::Level;
use super::step::{Step, Technique};
use crate::geometry::Cell;

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
/// Weight of H against the marks read (scripts/score_calibration.py).
const HARDEST_FACTOR: f64 = 3.75;
/// Weight of the unique-combination cages, which lower the effort.
const UNIQUE_FACTOR: f64 = 0.4;
/// Rungs lighter than this (full house, cage single) are seen without reading pencil marks.
const MARKS_WEIGHT: f64 = 1.0;

/// The time model, fitted by scripts/score_calibration.py on `cloud_fit.csv`:
/// `ln(seconds) = MINUTES_FIT[0] + MINUTES_FIT[1]·ln(1 + M) + MINUTES_FIT[2]·H`.
const MINUTES_FIT: [f64; 3] = [4.3189, 0.6765, 0.0682];
/// The 25th and 75th percentiles of that fit's residuals (natural log of seconds).
const MINUTES_SPREAD: [f64; 2] = [-0.189, 0.127];

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
    /// Σ of candidates per cell over passes of rungs weighing `MARKS_WEIGHT` or more.
    marks: f64,
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
            marks: 0.0,
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
            if weight >= MARKS_WEIGHT {
                self.marks += density;
            }
            if weight >= BOTTLENECK_WEIGHT {
                self.bottleneck += weight;
            }
            self.power += weight.powi(HARDEST_POWER);
        }
        self.unique_combinations += u32::from(t == Technique::UniqueCombination);
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

    /// ln(1 + M): the marks read, per cell, scaled to nine digits.
    fn marks_term(&self, digits: usize) -> f64 {
        (self.marks * 9.0 / digits.max(1) as f64).ln_1p()
    }

    /// H: the soft maximum of the passes' rung weights.
    fn hardest_term(&self) -> f64 {
        match self.power > 0.0 {
            true => self.power.ln() / f64::from(HARDEST_POWER),
            false => 0.0,
        }
    }

    /// The effort that orders puzzles inside a level's band.
    fn effort(&self, digits: usize) -> f64 {
        let u = f64::from(self.unique_combinations).ln_1p();
        let e = self.marks_term(digits) + HARDEST_FACTOR * self.hardest_term() - UNIQUE_FACTOR * u;
        e.max(0.0)
    }

    /// The estimated solving time (the module doc's time model).
    fn minutes(&self, digits: usize) -> Minutes {
        let [a, b, c] = MINUTES_FIT;
        let ln_seconds = a + b * self.marks_term(digits) + c * self.hardest_term();
        let at = |spread: f64| ((ln_seconds + spread).exp() / 60.0).round().max(1.0) as u32;
        let low = at(MINUTES_SPREAD[0]);
        Minutes {
            low,
            high: at(MINUTES_SPREAD[1]).max(low + 1),
        }
    }

    /// Level, score, minutes and the step that made the level, for a grid of `digits` digits.
    pub fn read(self, digits: usize) -> Reading {
        let reached = LEVEL_SCORES
            .iter()
            .filter(|&&s| self.work(digits) >= s)
            .count();
        let level = self.hardest_level.max(Level::ALL[reached]);
        let level_from = match level > self.hardest_level {
            true => LevelSource::Work,
            false => LevelSource::HardestStep,
        };
        let band = Level::ALL.iter().position(|&l| l == level).unwrap_or(0) as f64;
        let inside = BAND * (1.0 - (-self.effort(digits) / BAND_EFFORT).exp());
        Reading {
            level,
            level_from,
            score: BAND * band + inside,
            minutes: self.minutes(digits),
            hardest_step: self.hardest_step,
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
        let (s, w) = (singles.read(9), wing.read(9));
        assert!(s.level < w.level);
        assert!(s.score < BAND && w.score >= 2.0 * BAND && w.score < 3.0 * BAND);
        assert_eq!(w.level_from, LevelSource::HardestStep);
        let hardest = w.hardest_step.unwrap();
        assert_eq!((hardest.step, hardest.level), (2, Level::Hard));
        assert_eq!(hardest.cells, vec![Cell::new(40)]);
    }

    #[test]
    fn more_marks_read_scores_higher_inside_a_level() {
        let path = |passes: usize| {
            let mut t = Tally::default();
            for i in 0..passes {
                t.add(
                    &step(Technique::HiddenSingle),
                    Level::Easy,
                    1.0,
                    1.0 - i as f64 / 1000.0,
                );
            }
            t.read(9)
        };
        let (short, long) = (path(20), path(60));
        assert_eq!((short.level, long.level), (Level::Easy, Level::Easy));
        assert!(short.score < long.score);
        assert!(short.minutes.high <= long.minutes.high && short.minutes.low < long.minutes.low);
    }

    #[test]
    fn minutes_print_and_parse_back() {
        let m = Minutes { low: 15, high: 25 };
        assert_eq!(m.to_string(), "15-25");
        assert_eq!("15-25".parse::<Minutes>(), Ok(m));
        assert!("25-15".parse::<Minutes>().is_err());
        assert!("15".parse::<Minutes>().is_err());
        assert!("a-b".parse::<Minutes>().is_err());
    }

    #[test]
    fn the_range_is_the_middle_half_of_the_fits_residuals() {
        let mut t = Tally::default();
        t.add(&step(Technique::HiddenSingle), Level::Easy, 1.0, 4.0);
        let m = t.read(9).minutes;
        // ln(1 + 4) and H = ln(1): e^(4.3189 + 0.6765·ln 5) ≈ 222 s ≈ 3.7 min.
        assert_eq!((m.low, m.high), (3, 4));
    }
}
