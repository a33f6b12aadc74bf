//! The frame of the one-line-a-puzzle exports: every stored puzzle, in id order, turned into one
//! line by a format's function; a puzzle the format cannot hold stops the export with its id.

use super::ExportError;
use crate::format::FormatError;
use crate::store::{Store, StoredPuzzle};
use std::io::Write;

/// The title written into exported puzzles: `sudoku-press #<id> (<level>)`.
pub fn title(p: &StoredPuzzle) -> String {
    format!("sudoku-press #{} ({})", p.id, p.level)
}

/// Write `line(puzzle)` and a newline for every puzzle of `store`; returns the number written.
pub fn write_lines<W: Write>(
    store: &Store,
    out: &mut W,
    mut line: impl FnMut(&StoredPuzzle) -> Result<String, FormatError>,
) -> Result<u64, ExportError> {
    let mut written = 0u64;
    store.for_each_puzzle(|p| -> Result<(), ExportError> {
        let text = line(&p).map_err(|error| ExportError::Puzzle { id: p.id, error })?;
        writeln!(out, "{text}")?;
        written += 1;
        Ok(())
    })?;
    out.flush()?;
    Ok(written)
}
