//! Grading a stream of puzzles in parallel batches, grades handed back in input order.

use super::solve::SolveStreamError;
use super::stream;
use crate::format::{Entry, FormatError};
use crate::grader::{self, Grade};

/// Grade every entry on `threads` workers (0 = one per core), calling `emit` with each entry and
/// its grade in input order. A malformed entry stops the stream after the grades before it.
pub fn rate_stream(
    entries: impl Iterator<Item = Result<Entry, FormatError>> + Send + 'static,
    threads: usize,
    mut emit: impl FnMut(Entry, &Grade) -> std::io::Result<()>,
) -> Result<(), SolveStreamError> {
    let work = |entry: &Entry| grader::grade(&entry.puzzle);
    stream::ordered(entries, threads, work, |entry, grade| emit(entry, &grade)).map_err(Into::into)
}
