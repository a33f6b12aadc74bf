//! Provisional difficulty levels from solver effort, cage sizes and givens, until a human-style
//! grader (techniques a person would use) replaces them.
//!
//! The solver's propagation (singles, cage combinations, innies and outies) solves 98-100% of
//! published killers without a single guess (krazydad volume 1 and every Solo level, counting to
//! two), so guesses only separate puzzles harder than published ones; below that, the cage
//! structure and the givens decide:
//!
//! | puzzle | easy | medium | hard | expert |
//! |---|---|---|---|---|
//! | killer, no guess | at most 2 cages of 4+ cells | 3 to 5 | 6 or more | — |
//! | plain, no guess | 30 or more givens | 26 to 29 | 25 or fewer | — |
//! | any, 1 or more guesses | — | — | — | expert |
//!
//! A killer with givens moves down one level (each given is a free placement). For scale: Solo's
//! levels average 1.3 (basic) to 2.0 (unreasonable) cages of 4+ cells, krazydad volume 1 has 5.2,
//! default generated 9x9 killers 5.2. The thresholds follow the solver: a stronger solver guesses
//! less, and the share of expert puzzles drops.

use crate::puzzle::Puzzle;
use crate::solver::SolveStats;
use serde::{Deserialize, Serialize};

/// A provisional difficulty level.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Level {
    /// Propagation alone, few large cages (or many givens).
    Easy,
    /// Propagation alone, some large cages.
    Medium,
    /// Propagation alone, many large cages (or few givens).
    Hard,
    /// The solver had to guess: harder than published puzzles.
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
    if stats.guesses > 0 {
        return Level::Expert;
    }
    let givens = puzzle.givens().count_filled();
    if !puzzle.is_killer() {
        return match givens {
            30.. => Level::Easy,
            26..=29 => Level::Medium,
            _ => Level::Hard,
        };
    }
    let big = puzzle.cages().iter().filter(|c| c.len() >= 4).count();
    let level = match big {
        0..=2 => Level::Easy,
        3..=5 => Level::Medium,
        _ => Level::Hard,
    };
    if givens > 0 {
        level.down()
    } else {
        level
    }
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

    /// A 9x9 solution grid.
    fn solution() -> (Geometry, Grid) {
        let g = Geometry::standard(9).unwrap();
        let grid = crate::generator::fill::random_grid(
            &g,
            &mut <rand_pcg::Pcg64Mcg as rand::SeedableRng>::seed_from_u64(1),
        );
        (g, grid.unwrap())
    }

    /// A killer over `solution` with `big` four-cell cages (rows' first four cells) and pairs elsewhere.
    fn killer(big: usize, givens: usize) -> Puzzle {
        let (g, s) = solution();
        let cage = |cells: Vec<u8>| {
            let sum = cells.iter().map(|&c| s.values()[c as usize] as u16).sum();
            Cage::new(sum, cells.into_iter().map(Cell::new).collect())
        };
        let mut cages = Vec::new();
        for r in 0..9u8 {
            let first = if (r as usize) < big { 4 } else { 0 };
            if first == 4 {
                cages.push(cage((0..4).map(|c| r * 9 + c).collect()));
            }
            for c in (first..8).step_by(2) {
                cages.push(cage(vec![r * 9 + c, r * 9 + c + 1]));
            }
        }
        let mut shown = Grid::empty(9);
        for c in g.cells().take(givens) {
            shown.set(c, s.get(c));
        }
        Puzzle::new(g, shown, cages).unwrap()
    }

    fn plain(givens: usize) -> Puzzle {
        let (g, s) = solution();
        let mut shown = Grid::empty(9);
        for c in g.cells().take(givens) {
            shown.set(c, s.get(c));
        }
        Puzzle::plain(g, shown).unwrap()
    }

    #[test]
    fn thresholds() {
        use Level::*;
        let level = |p: &Puzzle, g| provisional_level(p, stats(g));
        let killers: Vec<Level> = [0, 2, 3, 5, 6, 9].map(|b| level(&killer(b, 0), 0)).to_vec();
        assert_eq!(killers, vec![Easy, Easy, Medium, Medium, Hard, Hard]);
        assert_eq!(level(&killer(6, 3), 0), Medium, "givens move a killer down");
        assert_eq!(level(&killer(0, 0), 1), Expert);
        let plains: Vec<Level> = [30, 29, 26, 25].map(|n| level(&plain(n), 0)).to_vec();
        assert_eq!(plains, vec![Easy, Medium, Medium, Hard]);
        assert_eq!(level(&plain(40), 3), Expert);
        assert_eq!(Expert.as_str(), "expert");
    }
}
