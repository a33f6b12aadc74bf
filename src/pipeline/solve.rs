//! Solving a stream of puzzles in parallel batches, answers handed back in input order.

use super::{thread_pool, PipelineError};
use crate::format::{Entry, FormatError};
use crate::grid::Grid;
use crate::puzzle::Puzzle;
use crate::solver;
use rayon::prelude::*;
use std::time::Instant;
use thiserror::Error;

/// Puzzles solved per parallel batch: bounds memory whatever the input's length.
const BATCH: usize = 1024;

/// The outcome for one puzzle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Answer {
    /// Solutions found, up to 2 ("two or more").
    pub count: usize,
    /// The solution, when it is unique.
    pub solution: Option<Grid>,
    /// Solving time in microseconds.
    pub micros: u64,
    /// Search nodes.
    pub nodes: u64,
}

/// Why a stream could not be solved to its end.
#[derive(Debug, Error)]
pub enum SolveStreamError {
    /// An entry of the input is malformed (the answers before it were handed back).
    #[error(transparent)]
    Input(#[from] FormatError),
    /// The worker threads could not be started.
    #[error(transparent)]
    Pipeline(#[from] PipelineError),
    /// Handing an answer back failed (e.g. writing it out).
    #[error(transparent)]
    Output(#[from] std::io::Error),
}

/// Count the solutions of one puzzle (up to 2) and keep the solution when it is unique.
pub fn solve_one(puzzle: &Puzzle) -> Answer {
    let start = Instant::now();
    let report = solver::solve(puzzle, 2);
    let count = report.solutions.len();
    Answer {
        count,
        solution: report.solutions.into_iter().next().filter(|_| count == 1),
        micros: start.elapsed().as_micros() as u64,
        nodes: report.stats.nodes,
    }
}

/// Solve every entry on `threads` workers (0 = one per core), calling `emit` with each entry and
/// its answer in input order. A malformed entry stops the stream after the answers before it.
pub fn solve_stream(
    entries: impl Iterator<Item = Result<Entry, FormatError>>,
    threads: usize,
    mut emit: impl FnMut(Entry, &Answer) -> std::io::Result<()>,
) -> Result<(), SolveStreamError> {
    let pool = thread_pool(threads)?;
    let mut entries = entries.fuse();
    loop {
        let mut batch: Vec<Entry> = Vec::with_capacity(BATCH);
        let mut failure = None;
        for item in entries.by_ref().take(BATCH) {
            match item {
                Ok(entry) => batch.push(entry),
                Err(err) => {
                    failure = Some(err);
                    break;
                }
            }
        }
        let full = batch.len() == BATCH;
        let answers: Vec<Answer> =
            pool.install(|| batch.par_iter().map(|e| solve_one(&e.puzzle)).collect());
        for (entry, answer) in batch.into_iter().zip(&answers) {
            emit(entry, answer)?;
        }
        if let Some(err) = failure {
            return Err(err.into());
        }
        if !full {
            return Ok(());
        }
    }
}
