//! The one-line-a-puzzle exports: every stored puzzle, in id order, turned into one line by its
//! format's codec in `format/`; a puzzle the format cannot hold stops the export with its id.

use super::ExportError;
use crate::format::{fpuzzles, ipuz, sudocue, sudokuwiki, FormatError};
use crate::store::{Query, Store, StoredPuzzle};
use std::io::Write;

/// The title written into exported puzzles: `sudoku-press #<id> (<level>)`.
pub fn title(p: &StoredPuzzle) -> String {
    format!("sudoku-press #{} ({})", p.id, p.level)
}

/// Write `line(puzzle)` and a newline for every puzzle `query` selects; returns the number written.
pub fn write_lines<W: Write>(
    store: &Store,
    query: &Query,
    out: &mut W,
    mut line: impl FnMut(&StoredPuzzle) -> Result<String, FormatError>,
) -> Result<u64, ExportError> {
    let written = store.for_each_selected(query, |p| -> Result<(), ExportError> {
        let text = line(&p).map_err(|error| ExportError::Puzzle { id: p.id, error })?;
        writeln!(out, "{text}")?;
        Ok(())
    })?;
    out.flush()?;
    Ok(written)
}

/// The f-puzzles JSON of a stored puzzle (with its solution), titled by [`title`].
fn fpuzzles_json(p: &StoredPuzzle) -> Result<String, FormatError> {
    fpuzzles::to_json(&p.puzzle, Some(&p.solution), &title(p))
}

/// Write every puzzle `query` selects as one f-puzzles JSON line.
pub fn write_fpuzzles<W: Write>(
    store: &Store,
    query: &Query,
    out: &mut W,
) -> Result<u64, ExportError> {
    write_lines(store, query, out, fpuzzles_json)
}

/// Write every puzzle `query` selects as one SudokuPad link a line.
pub fn write_sudokupad<W: Write>(
    store: &Store,
    query: &Query,
    out: &mut W,
) -> Result<u64, ExportError> {
    write_lines(store, query, out, |p| {
        Ok(fpuzzles::sudokupad_link(&fpuzzles_json(p)?))
    })
}

/// Write every puzzle `query` selects as one f-puzzles link a line.
pub fn write_fpuzzles_url<W: Write>(
    store: &Store,
    query: &Query,
    out: &mut W,
) -> Result<u64, ExportError> {
    write_lines(store, query, out, |p| {
        Ok(fpuzzles::fpuzzles_link(&fpuzzles_json(p)?))
    })
}

/// Write every puzzle `query` selects as one SudokuWiki string a line.
pub fn write_sudokuwiki<W: Write>(
    store: &Store,
    query: &Query,
    out: &mut W,
) -> Result<u64, ExportError> {
    write_lines(store, query, out, |p| sudokuwiki::to_string(&p.puzzle))
}

/// Write every puzzle `query` selects as a `3x3::k:` code line (9x9 zero-given killers only).
pub fn write_sudocue<W: Write>(
    store: &Store,
    query: &Query,
    out: &mut W,
) -> Result<u64, ExportError> {
    write_lines(store, query, out, |p| sudocue::to_code(&p.puzzle))
}

/// Write every puzzle `query` selects (with its solution) as one ipuz object a line.
pub fn write_ipuz<W: Write>(store: &Store, query: &Query, out: &mut W) -> Result<u64, ExportError> {
    write_lines(store, query, out, |p| {
        Ok(ipuz::to_json(&p.puzzle, Some(&p.solution)))
    })
}
