//! CSV export: one row a puzzle, grids and cages in the store's compact text forms.
//!
//! Columns: `id, variant, size, box_rows, box_cols, regions, givens, solution, cages,
//! givens_count, cage_count, cage_sizes, nodes, guesses, solver_calls, repairs, level, score,
//! minutes, hardest, techniques, trial, seed, idx`: the names of the database's `puzzles` columns, with the
//! database's values (`trial` 0/1, `box_rows`/`box_cols` empty for jigsaw), so a CSV loaded into
//! SQLite or a spreadsheet reads like the table.
//! `regions` the region of every cell (jigsaw only); grids are N² characters (`.` empty, `1`-`9`,
//! `A`-`G`); `cages` is `sum:cell.cell;...` with 0-based cells `row * N + col`; `cage_sizes` is
//! `size:count;...`; `score` has two decimals; `minutes` is the estimated solving time,
//! `LOW-HIGH` in whole minutes.

use super::ExportError;
use crate::store::{codec, Query, Store};
use std::io::Write;

/// The header row (exported for the tests and the README check).
pub const CSV_COLUMNS: [&str; 24] = [
    "id",
    "variant",
    "size",
    "box_rows",
    "box_cols",
    "regions",
    "givens",
    "solution",
    "cages",
    "givens_count",
    "cage_count",
    "cage_sizes",
    "nodes",
    "guesses",
    "solver_calls",
    "repairs",
    "level",
    "score",
    "minutes",
    "hardest",
    "techniques",
    "trial",
    "seed",
    "idx",
];

/// Write every puzzle `query` selects as CSV (with a header row); returns the number of puzzles.
pub fn write_csv<W: Write>(store: &Store, query: &Query, out: &mut W) -> Result<u64, ExportError> {
    let mut writer = ::csv::Writer::from_writer(out);
    writer.write_record(CSV_COLUMNS).map_err(io)?;
    let written = store.for_each_selected(query, |p| -> Result<(), ExportError> {
        let geometry = p.puzzle.geometry();
        let grade = p.grade.as_ref();
        let shape = geometry.box_shape();
        let regions = match shape {
            None => codec::regions_to_text(geometry.region_map()),
            Some(_) => String::new(),
        };
        writer
            .write_record([
                p.id.to_string(),
                p.variant,
                geometry.size().to_string(),
                shape.map_or(String::new(), |(r, _)| r.to_string()),
                shape.map_or(String::new(), |(_, c)| c.to_string()),
                regions,
                codec::grid_to_text(p.puzzle.givens()),
                codec::grid_to_text(&p.solution),
                codec::cages_to_text(p.puzzle.cages()),
                p.puzzle.givens().count_filled().to_string(),
                p.puzzle.cages().len().to_string(),
                p.cage_sizes,
                p.nodes.to_string(),
                p.guesses.to_string(),
                p.solver_calls.to_string(),
                p.repairs.to_string(),
                p.level,
                grade.map_or(String::new(), |g| format!("{:.2}", g.score)),
                grade
                    .and_then(|g| g.minutes)
                    .map_or(String::new(), |m| m.to_string()),
                grade.and_then(|g| g.hardest.clone()).unwrap_or_default(),
                grade.map_or(String::new(), |g| g.techniques.clone()),
                grade.map_or(String::new(), |g| u8::from(g.trial).to_string()),
                p.seed.to_string(),
                p.index.to_string(),
            ])
            .map_err(io)?;
        Ok(())
    })?;
    writer.flush()?;
    Ok(written)
}

/// The I/O error inside a CSV error (the only kind a `String` record can raise).
fn io(e: ::csv::Error) -> ExportError {
    match e.into_kind() {
        ::csv::ErrorKind::Io(e) => ExportError::Io(e),
        other => ExportError::Io(std::io::Error::other(format!("{other:?}"))),
    }
}
