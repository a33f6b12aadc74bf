//! Exporters: stored puzzles streamed out as CSV or as the puzzle JSON lines of the data sets.
//!
//! Both write rows in id order (work-item order) and hold one puzzle in memory at a time. Neither
//! writes the generation time, so the same run always exports byte for byte the same text.

mod csv;
mod jsonl;

pub use self::csv::write_csv;
pub use self::jsonl::write_jsonl;

use crate::store::{Store, StoreError};
use std::io::Write;
use thiserror::Error;

/// Why an export stopped.
#[derive(Debug, Error)]
pub enum ExportError {
    /// Reading the database failed.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// Writing the output failed.
    #[error("cannot write the export")]
    Io(#[from] std::io::Error),
}

/// An export format.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum ExportFormat {
    /// One CSV row a puzzle.
    Csv,
    /// One puzzle JSON object a line.
    Jsonl,
}

/// Write every puzzle of `store` to `out` in `format`; returns the number of puzzles written.
pub fn export<W: Write>(
    store: &Store,
    format: ExportFormat,
    out: &mut W,
) -> Result<u64, ExportError> {
    match format {
        ExportFormat::Csv => write_csv(store, out),
        ExportFormat::Jsonl => write_jsonl(store, out),
    }
}
