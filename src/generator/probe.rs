//! A bounded grade for generation to a target level: the grader's ladder, easiest first, with
//! every rung above a ceiling tier cut off.
//!
//! Below the ceiling this walk takes exactly the grader's path (the same finders in the same
//! order on the same board), so when it solves the puzzle it returns the tier of the hardest
//! technique the grader uses — the grader's level is that tier, raised by its score band — and
//! when it gets stuck, the grader would go on with a rung above the ceiling (or trial), so the
//! puzzle is harder than the ceiling, or has no unique solution. A puzzle the walk solves is
//! unique: every step is a sound deduction, so the placed digits are forced. So an off-level
//! candidate costs only the cheap rungs, never the chains and trial of the expert and extreme
//! tiers, and the full grade (which then follows the same path) runs only on puzzles within the
//! ceiling.

use crate::grader::techniques::{tier_of, Context, LADDER};
use crate::grader::{self, Board, Level};
use crate::grid::Grid;
use crate::puzzle::Puzzle;

/// What the bounded walk found.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Probe {
    /// Solved by rungs up to the ceiling: unique, and this is the tier of the hardest technique
    /// the grader uses (its level is at least this).
    Level(Level),
    /// Stuck at the ceiling: harder than it, or not uniquely solvable.
    Beyond,
}

/// The tier of the hardest technique `puzzle` needs if it is at most `ceiling` (and the puzzle
/// is unique), else `Beyond`. With the ceiling at extreme (no rung cut) the full grader decides.
pub fn level_within(puzzle: &Puzzle, ceiling: Level) -> Probe {
    if ceiling == Level::Extreme {
        let graded = grader::grade(puzzle);
        return match graded.level {
            Some(_) => Probe::Level(graded.hardest.map_or(Level::Easy, tier_of)),
            None => Probe::Beyond,
        };
    }
    // Rungs past the last one within the ceiling never need to run: reaching them means the
    // grader's path leaves the ceiling.
    let Some(last) = LADDER.iter().rposition(|r| r.tier <= ceiling) else {
        return Probe::Beyond;
    };
    let mut board = Board::new(puzzle);
    board.set_explaining(false);
    let mut ctx = Context::new(puzzle);
    let mut level = Level::Easy;
    let mut found = Vec::new();
    while !board.is_solved() {
        found.clear();
        let clock = board.clock();
        for rung in &LADDER[..=last] {
            rung.find(&mut ctx, &board, &mut found);
            if !found.is_empty() {
                if rung.tier > ceiling {
                    return Probe::Beyond;
                }
                level = level.max(rung.tier);
                break;
            }
        }
        if found.is_empty() {
            return Probe::Beyond;
        }
        for step in &found {
            if board.apply(step).is_err() {
                return Probe::Beyond;
            }
        }
        if board.clock() == clock {
            return Probe::Beyond;
        }
    }
    let values = board
        .geometry()
        .cells()
        .map(|c| board.placed(c).map_or(0, |d| d.get()))
        .collect();
    match Grid::from_values(puzzle.size(), values) {
        Some(grid) if puzzle.is_solution(&grid) => Probe::Level(level),
        _ => Probe::Beyond,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generator::{generate_puzzle, GeneratorConfig, Outcome};
    use crate::grader::Tier;

    /// Under every ceiling, the bounded walk agrees with the full grader: the tier of the
    /// grader's hardest technique when that is within the ceiling, `Beyond` when it is above.
    #[test]
    fn agrees_with_the_grader_under_every_ceiling() {
        let configs = [
            GeneratorConfig::default(),
            GeneratorConfig {
                min_cages: Some(19),
                max_cages: Some(23),
                ..GeneratorConfig::default()
            },
        ];
        let mut seen = Vec::new();
        for config in &configs {
            for index in 0..12 {
                let Outcome::Generated(g) = generate_puzzle(config, 4, index) else {
                    continue;
                };
                let graded = grader::grade(&g.puzzle);
                let level = graded.hardest.map_or(Tier::Easy, tier_of);
                assert!(graded.level.expect("generated puzzles are unique") >= level);
                seen.push(level);
                for ceiling in Tier::ALL {
                    let want = if level <= ceiling {
                        Probe::Level(level)
                    } else {
                        Probe::Beyond
                    };
                    assert_eq!(level_within(&g.puzzle, ceiling), want, "{ceiling:?}");
                }
            }
        }
        seen.sort();
        seen.dedup();
        assert!(seen.len() >= 3, "levels seen: {seen:?}");
    }

    #[test]
    fn a_puzzle_with_two_solutions_is_beyond_every_ceiling() {
        let g = crate::geometry::Geometry::standard(4).unwrap();
        let empty = Puzzle::plain(g, Grid::empty(4)).unwrap();
        for ceiling in Tier::ALL {
            assert_eq!(level_within(&empty, ceiling), Probe::Beyond);
        }
    }
}
