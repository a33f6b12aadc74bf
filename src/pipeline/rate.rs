//! Grading a stream of puzzles in parallel batches, grades handed back in input order.

use super::solve::{Item, SolveStreamError};
use super::stream;
use crate::format::FormatError;
use crate::grader::{self, Grade, Verdict};

/// Grade every item ([`crate::format::Reader::items`]) on `threads` workers (0 = one per core),
/// calling `emit` with each item and its grade in input order. A well-formed puzzle that breaks
/// a rule (an impossible cage sum, clashing givens) is not graded (verdict "no solution") and
/// the stream goes on; a malformed entry stops the stream after the grades before it.
pub fn rate_stream(
    items: impl Iterator<Item = Result<Item, FormatError>> + Send + 'static,
    threads: usize,
    mut emit: impl FnMut(Item, &Grade) -> std::io::Result<()>,
) -> Result<(), SolveStreamError> {
    let work = |item: &Item| match item {
        Item::Entry(entry) => grader::grade(&entry.puzzle),
        Item::Unsolvable { .. } => no_solution(),
    };
    stream::ordered(items, threads, work, |item, grade| emit(item, &grade)).map_err(Into::into)
}

/// The grade of a puzzle that has no solution: no level, nothing solved.
pub fn no_solution() -> Grade {
    Grade {
        level: None,
        score: 0.0,
        hardest: None,
        techniques: Vec::new(),
        trial: false,
        steps: 0,
        verdict: Verdict::NoSolution,
    }
}
