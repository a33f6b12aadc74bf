//! Exporters: stored puzzles streamed into any `Write` as CSV or as the puzzle JSON lines of the
//! data sets, and one line a puzzle in the formats of players' tools (f-puzzles, SudokuPad and
//! f-puzzles links, SudokuWiki, SudoCue, ipuz), each written by its codec in `format/`.
//!
//! All take a [`Query`] (variant, size, levels, ids, limit), write rows in id order (work-item
//! order) or the order of the ids asked for, and hold one puzzle in memory at a time. None
//! writes the generation time, so the same run always exports byte for byte the same text.

mod csv;
mod jsonl;
mod lines;

pub use self::csv::{write_csv, CSV_COLUMNS};
pub use self::jsonl::write_jsonl;
pub use self::lines::{
    write_fpuzzles, write_fpuzzles_url, write_ipuz, write_sudocue, write_sudokupad,
    write_sudokuwiki,
};

use crate::format::FormatError;
use crate::store::{Query, Store, StoreError};
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
    /// A stored puzzle the chosen format cannot hold.
    #[error("puzzle id {id}: {error}; choose another --format for this database")]
    Puzzle {
        /// The puzzle's row id.
        id: i64,
        /// Why the format cannot hold it.
        error: FormatError,
    },
}

/// An export format.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum ExportFormat {
    /// One CSV row a puzzle.
    Csv,
    /// One puzzle JSON object a line.
    Jsonl,
    /// One f-puzzles JSON object a line.
    Fpuzzles,
    /// One SudokuPad link a line.
    Sudokupad,
    /// One f-puzzles link a line.
    FpuzzlesUrl,
    /// One SudokuWiki killer string a line (9x9, 6x6, 9x9 killer-jigsaw).
    Sudokuwiki,
    /// One SudoCue `3x3::k:` code a line (9x9 killers).
    Sudocue,
    /// One ipuz object a line.
    Ipuz,
}

/// Write the puzzles `query` selects from `store` to `out` in `format`; returns the number of
/// puzzles written. Unknown filter values and ids are refused before anything is written.
pub fn export<W: Write>(
    store: &Store,
    query: &Query,
    format: ExportFormat,
    out: &mut W,
) -> Result<u64, ExportError> {
    match format {
        ExportFormat::Csv => write_csv(store, query, out),
        ExportFormat::Jsonl => write_jsonl(store, query, out),
        ExportFormat::Fpuzzles => write_fpuzzles(store, query, out),
        ExportFormat::Sudokupad => write_sudokupad(store, query, out),
        ExportFormat::FpuzzlesUrl => write_fpuzzles_url(store, query, out),
        ExportFormat::Sudokuwiki => write_sudokuwiki(store, query, out),
        ExportFormat::Sudocue => write_sudocue(store, query, out),
        ExportFormat::Ipuz => write_ipuz(store, query, out),
    }
}
