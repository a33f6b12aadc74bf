//! Throughput measurement: count solutions (up to 2) over a set of puzzles, one thread, repeated
//! until a minimum time has passed so short sets still give a stable figure.

use crate::puzzle::Puzzle;
use crate::solver::Solver;
use std::time::{Duration, Instant};

/// What one measured set gave.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct BenchResult {
    /// Puzzles in the set.
    pub puzzles: usize,
    /// Passes over the whole set.
    pub rounds: usize,
    /// Wall time of all passes.
    pub seconds: f64,
    /// Wall time of the fastest pass (the least disturbed by other work on the machine).
    pub best_pass: f64,
    /// Search nodes of one pass.
    pub nodes: u64,
    /// Guesses of one pass.
    pub guesses: u64,
    /// Puzzles with no solution, exactly one, and two or more (one pass).
    pub counts: [usize; 3],
}

impl BenchResult {
    /// Puzzles solved per second.
    pub fn per_second(&self) -> f64 {
        (self.puzzles * self.rounds) as f64 / self.seconds.max(f64::MIN_POSITIVE)
    }
    /// Puzzles solved per second in the fastest pass.
    pub fn best_per_second(&self) -> f64 {
        self.puzzles as f64 / self.best_pass.max(f64::MIN_POSITIVE)
    }
    /// Mean search nodes per puzzle.
    pub fn mean_nodes(&self) -> f64 {
        self.nodes as f64 / self.puzzles.max(1) as f64
    }
    /// Mean guesses per puzzle.
    pub fn mean_guesses(&self) -> f64 {
        self.guesses as f64 / self.puzzles.max(1) as f64
    }
}

/// Count the solutions of every puzzle (limit 2) in passes until `min_time` has passed
/// (at least one pass). Puzzles of several geometries are allowed (the solver rebuilds its tables).
pub fn measure(puzzles: &[Puzzle], min_time: Duration) -> BenchResult {
    let mut result = BenchResult {
        puzzles: puzzles.len(),
        ..BenchResult::default()
    };
    let Some(first) = puzzles.first() else {
        return result;
    };
    let mut solver = Solver::new(first.geometry());
    let start = Instant::now();
    result.best_pass = f64::INFINITY;
    loop {
        let pass = Instant::now();
        for puzzle in puzzles {
            let report = solver.solve(puzzle, 2);
            if result.rounds == 0 {
                result.nodes += report.stats.nodes;
                result.guesses += report.stats.guesses;
                result.counts[report.solutions.len().min(2)] += 1;
            }
        }
        result.rounds += 1;
        result.best_pass = result.best_pass.min(pass.elapsed().as_secs_f64());
        if start.elapsed() >= min_time {
            break;
        }
    }
    result.seconds = start.elapsed().as_secs_f64();
    result
}
