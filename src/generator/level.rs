//! Generation to a target level: the finished puzzle's layout is steered by the grader, merging
//! neighbouring cages while it is too easy and splitting cages while it is too hard.
//!
//! Solo makes harder killers by merging cages until its grader reaches the target; here each
//! edit keeps the solution: a merge keeps it (the merged cage's sum is the two sums) but may
//! admit a second solution, so the solver checks it; a split only adds constraints, so the
//! puzzle stays unique. An edit that jumps past the target is undone and another is tried.
//! Plain puzzles are only made easier, by adding givens of the solution.

use super::cage_layout::LayoutRules;
use super::record::{CheckSubject, CheckVerdict, Event, LevelEdit, Recorder};
use super::GeneratorConfig;
use crate::bitset::{CellSet, DigitSet};
use crate::cage::Cage;
use crate::geometry::Cell;
use crate::grader::{self, Grade, Level};
use crate::grid::Grid;
use crate::puzzle::Puzzle;
use crate::solver;
use rand::seq::IndexedRandom;
use rand::Rng;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Edits tried (kept or undone) before the item gives up on its target.
const MAX_EDITS: u32 = 80;
/// Bounded grades a targeted attempt spends on one layout before a fresh one is drawn (a layout
/// whose merges all overshoot is better replaced than edited further).
const REACH_PROBES: u32 = 40;
/// Search nodes a merged layout's uniqueness check may spend (undecided = not taken).
const MERGE_CHECK_NODES: u64 = 100_000;

/// The name that asks for no target: each puzzle keeps the level it comes out at
/// (`--level any`, `levels = ["any"]`).
pub const ANY_LEVEL: &str = "any";

/// `[generator] levels`: a list of levels (equally likely), a mix `{ easy = 0.2, hard = 0.8 }`,
/// or `["any"]` alone for no target. Unset: the default mix of `super::mix`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum LevelsSetting {
    /// Levels drawn with equal weight.
    List(Vec<String>),
    /// Levels with weights (any positive numbers; they are normalized).
    Mix(BTreeMap<String, f64>),
}

impl LevelsSetting {
    /// `["any"]`: no target, each puzzle keeps the level it comes out at.
    pub fn any() -> LevelsSetting {
        LevelsSetting::List(vec![ANY_LEVEL.into()])
    }

    /// The levels with their weights (empty for `["any"]`: no target), or the first name or
    /// weight that does not work.
    pub fn to_mix(&self) -> Result<Vec<(Level, f64)>, String> {
        let pairs: Vec<(String, f64)> = match self {
            LevelsSetting::List(names) => names.iter().map(|n| (n.clone(), 1.0)).collect(),
            LevelsSetting::Mix(map) => map.iter().map(|(n, &w)| (n.clone(), w)).collect(),
        };
        if pairs.is_empty() {
            return Err(
                "an empty list: name one or more of easy, medium, hard, expert, extreme (or any alone)"
                    .into(),
            );
        }
        let is_any = |name: &str| name.trim().eq_ignore_ascii_case(ANY_LEVEL);
        if pairs.iter().any(|(n, _)| is_any(n)) {
            return match (self, pairs.len()) {
                (LevelsSetting::List(_), 1) => Ok(Vec::new()),
                _ => Err(format!(
                    "{ANY_LEVEL:?} (no target) stands alone: use levels = [\"{ANY_LEVEL}\"] (--level {ANY_LEVEL}), or name levels without it"
                )),
            };
        }
        let mut mix = Vec::with_capacity(pairs.len());
        for (name, weight) in pairs {
            let level: Level = name.parse().map_err(|_| {
                format!("unknown level {name:?}: use easy, medium, hard, expert, extreme or any")
            })?;
            if !(weight.is_finite() && weight > 0.0) {
                return Err(format!("weight {weight} for {name}: use a number above 0"));
            }
            mix.push((level, weight));
        }
        mix.sort_by_key(|&(l, _)| l);
        Ok(mix)
    }
}

/// Layout rules for an easy, medium or hard target: the configuration's, with cages of at most
/// `easy` cells for easy (two from 12x12 up, three from 9x9, four below), one more for medium,
/// and one more for hard from 9x9 up, with the cage-count range that goes with them; `None` for
/// other targets, or where the grid is too small to differ. Measured (generator version 17):
/// book layouts (cages up to seven) come out 56% expert on 9x9, so a hard item was split cage
/// after cage down to hard (4.9 edits an item, 1.8 of them splits that stayed too hard); from
/// cages of at most four, 4.5 edits and 0.62x the CPU. On 12x12 cages of three never came out
/// easy (38% of easy items rejected), and medium and hard items took 11 and 16 edits: with
/// pairs for easy and cages of three for medium and hard, 2%, 9% and 1% are rejected, with 1.5
/// and 3.2 edits an item for medium and hard (the 12x12 mix: 0.37x the CPU).
pub fn small_cage_rules(config: &GeneratorConfig, target: Level) -> Option<LayoutRules> {
    let easy = if config.size >= 12 {
        2
    } else if config.size >= 9 {
        3
    } else {
        4
    };
    let small = match target {
        Level::Easy => easy,
        Level::Medium => easy + 1,
        Level::Hard if config.size >= 9 => easy + 1,
        _ => return None,
    };
    let config = GeneratorConfig {
        max_cage_size: Some(small.min(config.size)),
        min_cages: None,
        max_cages: None,
        ..config.clone()
    };
    config.validate().ok().map(|r| r.rules)
}

/// Draw the item's target level from the mix.
pub fn draw_target<R: Rng>(mix: &[(Level, f64)], rng: &mut R) -> Level {
    let total: f64 = mix.iter().map(|&(_, w)| w).sum();
    let mut x = rng.random::<f64>() * total;
    for &(level, w) in mix {
        if x < w {
            return level;
        }
        x -= w;
    }
    mix[mix.len() - 1].0
}

/// Where a candidate of `reach` stands against the target.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Probe {
    /// Graded at this level, at most the target.
    Level(Level),
    /// Past the target, or not uniquely solvable.
    Beyond,
}

/// What a targeted attempt ended with.
#[derive(Debug)]
pub enum Reached {
    /// A puzzle at the target level (graded by the full grader).
    OnLevel(Puzzle, Grade),
    /// No edit reached the target.
    Off,
}

/// Steer a unique puzzle to `target` with the grader: merge touching
/// cages while it is too easy (a merge that leaves the target or the unique puzzles is undone),
/// split cages while it is too hard (a split keeps the puzzle unique). `max_size` bounds merged
/// cages. `rec` hears of every edit, its uniqueness check and its grade.
pub fn reach<R: Rng>(
    puzzle: Puzzle,
    solution: &Grid,
    target: Level,
    max_size: usize,
    rec: &mut Recorder,
    rng: &mut R,
) -> Reached {
    // The level: the grade, kept for the puzzle; a level past the target is `Beyond`. The walk
    // runs the rungs up to the target only and stops at the first step that needs one above (that
    // step alone makes the level higher; the whole path's work can raise it further, never
    // lower it), and it knows the solution (every probed puzzle is unique), so trial needs no
    // search for it. (A walk that never ran the rungs above the target was tried and dropped:
    // with score thresholds most hard and expert puzzles are raised by score, which that walk
    // cannot see.) An extreme target walks to expert only: a path's work raises its level to
    // expert at most, so "needs a rung above expert" is "extreme", and the dear extreme rungs
    // (issue 25's set theory) run once, for the grade of the puzzle kept.
    // The probe of an extreme target that stops above expert goes on to the full grade from the
    // step where it stopped (the walk up to there is the same), and that grade is the one kept.
    let ceiling = target.min(Level::Expert);
    // Only the grade of an on-target probe is kept, so the others read their level alone
    // (without the score's direct solve).
    let assess = |p: &Puzzle| -> (Probe, Option<Grade>) {
        let mut walk = grader::grade::Walk::new(p, Some(solution), false);
        match walk.run_to_level(ceiling) {
            Some(Some(level)) if level == target => (Probe::Level(level), Some(walk.grade())),
            Some(Some(level)) if level < target => (Probe::Level(level), None),
            Some(_) => (Probe::Beyond, None),
            None if target == Level::Extreme => (
                Probe::Level(Level::Extreme),
                walk.run(Level::Extreme).map(|path| path.grade),
            ),
            None => (Probe::Beyond, None),
        }
    };
    let mut puzzle = puzzle;
    let (mut state, mut graded) = assess(&puzzle);
    // Merges per probe: doubled after a batch that stays below the target, halved after one
    // that overshoots (most puzzles need several merges, each probe costs a grading walk).
    let mut batch = 1;
    for _ in 0..REACH_PROBES {
        match state {
            Probe::Level(level) if level == target => {
                let grade = graded
                    .unwrap_or_else(|| grader::grade::walk(&puzzle, Some(solution), false).grade);
                return Reached::OnLevel(puzzle, grade);
            }
            Probe::Level(_) => {
                let mut merged = puzzle.clone();
                for _ in 0..batch {
                    match merge_cages(&merged, solution, max_size, rng) {
                        Some(next) => merged = next,
                        None => break,
                    }
                }
                let count = puzzle.cages().len() - merged.cages().len();
                if count == 0 {
                    break;
                }
                // The solver checks uniqueness, with a small budget, before the grader runs.
                let check = MergeCheck::of(&merged);
                check.tell(rec);
                let (next, grade) = if !check.unique {
                    (Probe::Beyond, None)
                } else {
                    assess(&merged)
                };
                let edit = LevelEdit::Merge { count };
                match next {
                    Probe::Level(level) => {
                        // Extreme grades are dear and grow with the merges: one at a time.
                        if level < target && target < Level::Extreme {
                            batch *= 2;
                        }
                        rec.emit(|| kept_cages(edit, Some(level), &merged));
                        (puzzle, state, graded) = (merged, next, grade);
                    }
                    // A single merge past the target is kept if the puzzle stays unique: the
                    // next edits split back down towards it (the target is reached from above).
                    Probe::Beyond if batch == 1 && target < Level::Extreme => {
                        // The check above stands: the solver would say the same again.
                        if check.unique {
                            rec.emit(|| kept_cages(edit, None, &merged));
                            (puzzle, state, graded) = (merged, next, grade);
                        } else {
                            rec.emit(|| undone(edit));
                        }
                    }
                    Probe::Beyond => {
                        rec.emit(|| undone(edit));
                        batch = (batch / 2).max(1);
                    }
                }
            }
            Probe::Beyond => {
                let Some(split) = split_cage(&puzzle, solution, rng) else {
                    break;
                };
                // A split only adds constraints: still unique, maybe within the target now (or
                // past it: then the next edits merge back from below).
                (state, graded) = assess(&split);
                rec.emit(|| {
                    let level = match state {
                        Probe::Level(level) => Some(level),
                        Probe::Beyond => None,
                    };
                    kept_cages(LevelEdit::Split, level, &split)
                });
                puzzle = split;
                batch = 1;
            }
        }
    }
    Reached::Off
}

/// The event of a kept cage edit graded `level` (`None`: past the target).
pub(super) fn kept_cages(edit: LevelEdit, level: Option<Level>, puzzle: &Puzzle) -> Event {
    Event::Level {
        edit,
        level,
        kept: true,
        cages: Some(puzzle.cages().to_vec()),
        givens: None,
    }
}

/// The event of an edit undone (past the target, or not unique).
pub(super) fn undone(edit: LevelEdit) -> Event {
    Event::Level {
        edit,
        level: None,
        kept: false,
        cages: None,
        givens: None,
    }
}

/// Steer a unique puzzle (graded `grade`) to `target`; `None` if no edit sequence within the
/// budget reached it. `max_size` bounds merged cages. Plain puzzles only get easier (givens).
/// `rec` hears of every edit and its grade.
pub fn steer<R: Rng>(
    puzzle: Puzzle,
    grade: Grade,
    solution: &Grid,
    target: Level,
    max_size: usize,
    rec: &mut Recorder,
    rng: &mut R,
) -> Option<(Puzzle, Grade)> {
    if puzzle.is_killer() {
        return match reach(puzzle, solution, target, max_size, rec, rng) {
            Reached::OnLevel(p, g) => Some((p, g)),
            Reached::Off => None,
        };
    }
    let (mut puzzle, mut grade) = (puzzle, grade);
    for _ in 0..MAX_EDITS {
        let level = grade.level?;
        if level == target {
            return Some((puzzle, grade));
        }
        if level < target {
            return None;
        }
        let edited = add_given(&puzzle, solution, rng)?;
        let graded = grader::grade(&edited);
        match graded.level {
            Some(l) if distance(l, target) <= distance(level, target) => {
                rec.emit(|| Event::Level {
                    edit: LevelEdit::Given,
                    level: Some(l),
                    kept: true,
                    cages: None,
                    givens: Some(edited.givens().clone()),
                });
                puzzle = edited;
                grade = graded;
            }
            _ => rec.emit(|| undone(LevelEdit::Given)),
        }
    }
    (grade.level == Some(target)).then_some((puzzle, grade))
}

fn distance(a: Level, b: Level) -> usize {
    (a as usize).abs_diff(b as usize)
}

/// The solver's word on a merged layout, within `MERGE_CHECK_NODES`.
#[derive(Copy, Clone, Debug)]
pub(super) struct MergeCheck {
    /// Exactly one solution, proven.
    pub(super) unique: bool,
    verdict: CheckVerdict,
    nodes: u64,
}

impl MergeCheck {
    /// Check `puzzle` (count to two within `MERGE_CHECK_NODES`).
    pub(super) fn of(puzzle: &Puzzle) -> Self {
        let report = solver::solve_within(puzzle, 2, MERGE_CHECK_NODES);
        MergeCheck {
            unique: report.complete && report.solutions.len() == 1,
            verdict: match (report.solutions.len(), report.complete) {
                (2.., _) => CheckVerdict::Several,
                (_, false) => CheckVerdict::Undecided,
                _ => CheckVerdict::Unique,
            },
            nodes: report.stats.nodes,
        }
    }

    /// Tell the recorder of the check.
    pub(super) fn tell(&self, rec: &mut Recorder) {
        rec.emit(|| Event::Check {
            subject: CheckSubject::Merge,
            verdict: self.verdict,
            nodes: self.nodes,
        });
    }
}

fn digits_of(cage: &Cage, solution: &Grid) -> DigitSet {
    cage.cells.iter().filter_map(|&c| solution.get(c)).collect()
}

/// Two touching cages whose digits differ and whose union fits `max_size`, merged.
fn merge_cages<R: Rng>(
    puzzle: &Puzzle,
    solution: &Grid,
    max_size: usize,
    rng: &mut R,
) -> Option<Puzzle> {
    let &(i, j) = merge_pairs(puzzle, solution, max_size).choose(rng)?;
    merge_pair(puzzle, i, j)
}

/// The pairs `(i, j)`, `i < j`, of touching cages whose digits differ and whose union fits
/// `max_size`: the merges that keep the solution.
pub(super) fn merge_pairs(
    puzzle: &Puzzle,
    solution: &Grid,
    max_size: usize,
) -> Vec<(usize, usize)> {
    let g = puzzle.geometry();
    let cages = puzzle.cages();
    let mut owner = vec![usize::MAX; g.cell_count()];
    for (i, cage) in cages.iter().enumerate() {
        for c in &cage.cells {
            owner[c.as_index()] = i;
        }
    }
    let mut pairs = Vec::new();
    for (i, cage) in cages.iter().enumerate() {
        let digits = digits_of(cage, solution);
        let mut seen = Vec::new();
        for &c in &cage.cells {
            for nb in g.neighbours(c) {
                let j = owner[nb.as_index()];
                if j == usize::MAX || j <= i || seen.contains(&j) {
                    continue;
                }
                seen.push(j);
                let fits = cage.len() + cages[j].len() <= max_size;
                if fits
                    && digits
                        .intersection(digits_of(&cages[j], solution))
                        .is_empty()
                {
                    pairs.push((i, j));
                }
            }
        }
    }
    pairs
}

/// The puzzle with cages `i` and `j` (a pair of [`merge_pairs`]) merged into one, placed last.
pub(super) fn merge_pair(puzzle: &Puzzle, i: usize, j: usize) -> Option<Puzzle> {
    let cages = puzzle.cages();
    let mut cells = cages[i].cells.clone();
    cells.extend_from_slice(&cages[j].cells);
    cells.sort();
    let merged = Cage::new(cages[i].sum + cages[j].sum, cells);
    let mut next: Vec<Cage> = cages
        .iter()
        .enumerate()
        .filter(|&(k, _)| k != i && k != j)
        .map(|(_, c)| c.clone())
        .collect();
    next.push(merged);
    Puzzle::new(puzzle.geometry().clone(), puzzle.givens().clone(), next).ok()
}

/// A cage of four or more cells cut into two connected parts of two or more cells.
fn split_cage<R: Rng>(puzzle: &Puzzle, solution: &Grid, rng: &mut R) -> Option<Puzzle> {
    let g = puzzle.geometry();
    let cages = puzzle.cages();
    let big: Vec<usize> = (0..cages.len()).filter(|&i| cages[i].len() >= 4).collect();
    for _ in 0..8 {
        let &i = big.choose(rng)?;
        let cells = &cages[i].cells;
        let members: CellSet = cells.iter().copied().collect();
        // Grow a random connected part from a random cell.
        let k = rng.random_range(2..=cells.len() - 2);
        let mut part = vec![*cells.choose(rng)?];
        while part.len() < k {
            let frontier: Vec<Cell> = part
                .iter()
                .flat_map(|&c| g.neighbours(c))
                .filter(|c| members.contains(*c) && !part.contains(c))
                .collect();
            part.push(*frontier.choose(rng)?);
        }
        let rest: Vec<Cell> = cells
            .iter()
            .copied()
            .filter(|c| !part.contains(c))
            .collect();
        if !g.is_connected(&rest) {
            continue;
        }
        part.sort();
        let sum = |cs: &[Cell]| {
            cs.iter()
                .filter_map(|&c| solution.get(c))
                .map(|d| d.get() as u16)
                .sum()
        };
        let mut next: Vec<Cage> = cages
            .iter()
            .enumerate()
            .filter(|&(k, _)| k != i)
            .map(|(_, c)| c.clone())
            .collect();
        next.push(Cage::new(sum(&part), part));
        next.push(Cage::new(sum(&rest), rest));
        return Puzzle::new(g.clone(), puzzle.givens().clone(), next).ok();
    }
    None
}

/// One more given, taken from the solution at a random empty cell.
fn add_given<R: Rng>(puzzle: &Puzzle, solution: &Grid, rng: &mut R) -> Option<Puzzle> {
    let empty: Vec<Cell> = puzzle
        .geometry()
        .cells()
        .filter(|&c| puzzle.givens().get(c).is_none())
        .collect();
    let &cell = empty.choose(rng)?;
    let mut givens = puzzle.givens().clone();
    givens.set(cell, solution.get(cell));
    Puzzle::new(puzzle.geometry().clone(), givens, puzzle.cages().to_vec()).ok()
}
