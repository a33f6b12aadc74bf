//! Provisional difficulty levels from solver effort and cage sizes, until a human-style grader
//! (techniques a person would use) replaces them.
//!
//! The effort measure is the solver's guesses (branch points) while counting up to two solutions,
//! which includes proving that no second solution exists. Thresholds:
//!
//! | guesses | level |
//! |---|---|
//! | 0 (propagation alone) | easy |
//! | 1 to 8 | medium |
//! | 9 to 40 | hard |
//! | 41 or more | expert |
//!
//! Calibration (the solver of this crate, count to two): published killers need a median of 2
//! guesses in the easiest quarter of krazydad volume 1 and 10 to 12 in the hardest half; Solo's
//! basic level 0, its intermediate and advanced 4 to 5, its unreasonable level 16.5. Default
//! generated 9x9 killers spread as 4 / 18 / 56 guesses at their quartiles.
//!
//! A killer whose mean cage size is 3.5 or more moves up one level (large cages hide their digits),
//! and a killer with givens moves down one level (each given is a free placement).

use crate::puzzle::Puzzle;
use crate::solver::SolveStats;
use serde::{Deserialize, Serialize};

/// A provisional difficulty level.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Level {
    /// Solved by propagation alone.
    Easy,
    /// A few guesses.
    Medium,
    /// Up to a few dozen guesses.
    Hard,
    /// Many guesses.
    Expert,
}

impl Level {
    /// Lower-case name, as stored and exported.
    pub fn as_str(self) -> &'static str {
        match self {
            Level::Easy => "easy",
            Level::Medium => "medium",
            Level::Hard => "hard",
            Level::Expert => "expert",
        }
    }
    fn up(self) -> Level {
        match self {
            Level::Easy => Level::Medium,
            Level::Medium => Level::Hard,
            _ => Level::Expert,
        }
    }
    fn down(self) -> Level {
        match self {
            Level::Expert => Level::Hard,
            Level::Hard => Level::Medium,
            _ => Level::Easy,
        }
    }
}

/// The provisional level of a puzzle, given the statistics of a `solve(puzzle, 2)` on it.
pub fn provisional_level(puzzle: &Puzzle, stats: SolveStats) -> Level {
    let mut level = match stats.guesses {
        0 => Level::Easy,
        1..=8 => Level::Medium,
        9..=40 => Level::Hard,
        _ => Level::Expert,
    };
    if puzzle.is_killer() {
        let caged: usize = puzzle.cages().iter().map(|c| c.len()).sum();
        if 2 * caged >= 7 * puzzle.cages().len() {
            level = level.up();
        }
        if puzzle.givens().count_filled() > 0 {
            level = level.down();
        }
    }
    level
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cage::Cage;
    use crate::geometry::{Cell, Geometry};
    use crate::grid::Grid;

    fn stats(guesses: u64) -> SolveStats {
        SolveStats { nodes: 0, guesses }
    }

    #[test]
    fn thresholds() {
        let plain = Puzzle::plain(Geometry::standard(4).unwrap(), Grid::empty(4)).unwrap();
        let levels: Vec<Level> = [0, 1, 8, 9, 40, 41]
            .into_iter()
            .map(|g| provisional_level(&plain, stats(g)))
            .collect();
        use Level::*;
        assert_eq!(levels, vec![Easy, Medium, Medium, Hard, Hard, Expert]);
        let big_cage = Cage::new(10, (0..4).map(Cell::new).collect());
        let killer = Puzzle::new(
            Geometry::standard(4).unwrap(),
            Grid::empty(4),
            vec![big_cage],
        );
        assert_eq!(provisional_level(&killer.unwrap(), stats(0)), Medium);
        assert_eq!(Expert.as_str(), "expert");
    }
}
