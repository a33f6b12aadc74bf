//! Grading a stream of puzzles in parallel batches, grades handed back in input order.

use super::solve::SolveStreamError;
use super::thread_pool;
use crate::format::{Entry, FormatError};
use crate::grader::{self, Grade};
use rayon::prelude::*;

/// Puzzles graded per parallel batch: bounds memory whatever the input's length.
const BATCH: usize = 1024;

/// Grade every entry on `threads` workers (0 = one per core), calling `emit` with each entry and
/// its grade in input order. A malformed entry stops the stream after the grades before it.
pub fn rate_stream(
    entries: impl Iterator<Item = Result<Entry, FormatError>>,
    threads: usize,
    mut emit: impl FnMut(Entry, &Grade) -> std::io::Result<()>,
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
        let grades: Vec<Grade> =
            pool.install(|| batch.par_iter().map(|e| grader::grade(&e.puzzle)).collect());
        for (entry, grade) in batch.into_iter().zip(&grades) {
            emit(entry, grade)?;
        }
        if let Some(err) = failure {
            return Err(err.into());
        }
        if !full {
            return Ok(());
        }
    }
}
