//! Solving a stream of puzzles in parallel batches, answers handed back in input order.

use super::stream::{self, Stop};
use super::PipelineError;
use crate::format::FormatError;
use crate::grid::Grid;
use crate::puzzle::Puzzle;
use crate::solver;
use std::time::Instant;
use thiserror::Error;

/// The outcome for one puzzle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Answer {
    /// Solutions found, up to 2 ("two or more"); a lower bound when `undecided`.
    pub count: usize,
    /// The solution, when it is unique.
    pub solution: Option<Grid>,
    /// The node budget ran out before the count was settled.
    pub undecided: bool,
    /// Solving time in microseconds.
    pub micros: u64,
    /// Search nodes.
    pub nodes: u64,
}

pub use crate::format::Item;

/// Why an unsolvable item has no solution, without its line (e.g. "cage 1: 2 distinct digits
/// cannot add up to 2").
pub fn reason_of(error: &FormatError) -> String {
    match error {
        FormatError::At { kind, .. } => kind.to_string(),
        other => other.to_string(),
    }
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

/// Count the solutions of one puzzle (up to 2) within `max_nodes` search nodes, and keep the
/// solution when it is unique.
pub fn solve_one(puzzle: &Puzzle, max_nodes: u64) -> Answer {
    let start = Instant::now();
    let report = solver::solve_within(puzzle, 2, max_nodes);
    let count = report.solutions.len();
    let undecided = !report.complete && count < 2;
    Answer {
        count,
        solution: report
            .solutions
            .into_iter()
            .next()
            .filter(|_| count == 1 && !undecided),
        undecided,
        micros: start.elapsed().as_micros() as u64,
        nodes: report.stats.nodes,
    }
}

/// Solve every item ([`crate::format::Reader::items`]) on `threads` workers (0 = one per core),
/// each within `max_nodes` search nodes, calling `emit` with each item and its answer in input
/// order. A well-formed puzzle that breaks a rule is answered 0 and the stream goes on; a
/// malformed entry stops the stream after the answers before it. The input is read on a thread
/// of its own, ahead of the solving, and the items are freed there once handed back.
pub fn solve_stream(
    items: impl Iterator<Item = Result<Item, FormatError>> + Send + 'static,
    threads: usize,
    max_nodes: u64,
    mut emit: impl FnMut(&Item, &Answer) -> std::io::Result<()>,
) -> Result<(), SolveStreamError> {
    let work = move |item: &Item| match item {
        Item::Entry(e) => solve_one(&e.puzzle, max_nodes),
        Item::Unsolvable { .. } => Answer {
            count: 0,
            solution: None,
            undecided: false,
            micros: 0,
            nodes: 0,
        },
    };
    stream::ordered_by_ref(items, threads, work, |item, answer| emit(item, &answer))
        .map_err(Into::into)
}

impl From<Stop<FormatError>> for SolveStreamError {
    fn from(stop: Stop<FormatError>) -> Self {
        match stop {
            Stop::Input(err) => SolveStreamError::Input(err),
            Stop::Output(err) => SolveStreamError::Output(err),
            Stop::Pipeline(err) => SolveStreamError::Pipeline(err),
        }
    }
}
