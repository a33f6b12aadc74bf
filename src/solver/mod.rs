//! The solver: counts solutions (0, 1, "2 or more") and solves Sudoku and Killer Sudoku puzzles.

pub mod reference;

use crate::grid::Grid;
use crate::puzzle::Puzzle;

/// Work done by one search.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct SolveStats {
    /// Search nodes visited (propagation rounds).
    pub nodes: u64,
    /// Branching decisions taken (a cell tried with more than one candidate).
    pub guesses: u64,
}

/// The outcome of a search for up to `limit` solutions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SolveReport {
    /// Solutions found, at most `limit`, in search order.
    pub solutions: Vec<Grid>,
    /// Work done.
    pub stats: SolveStats,
}

/// Up to `limit` solutions of `puzzle`, with statistics.
pub fn solve(puzzle: &Puzzle, limit: usize) -> SolveReport {
    // Temporary: the plain search until the fast kernel lands.
    SolveReport {
        solutions: reference::brute_force_solutions(puzzle, limit),
        stats: SolveStats::default(),
    }
}

/// The number of solutions, counted up to `limit` (so `2` with `limit = 2` means "2 or more").
pub fn count_solutions(puzzle: &Puzzle, limit: usize) -> usize {
    solve(puzzle, limit).solutions.len()
}
