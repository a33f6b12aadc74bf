//! CSV export: one row a puzzle, grids and cages in the store's compact text forms.
//!
//! Columns: `id, variant, size, box, regions, givens, solution, cages, givens_count, cage_count,
//! cage_sizes, nodes, guesses, solver_calls, repairs, level, score, hardest, techniques, trial, seed,
//! index`.
//! `box` is `RxC` (empty for jigsaw); `regions` the region of every cell (jigsaw only); grids are
//! N² characters (`.` empty, `1`-`9`, `A`-`G`); `cages` is `sum:cell.cell;...` with 0-based cells
//! `row * N + col`; `cage_sizes` is `size:count;...`.

use super::ExportError;
use crate::store::{codec, Store};
use std::io::Write;

const HEADER: [&str; 22] = [
    "id",
    "variant",
    "size",
    "box",
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
    "hardest",
    "techniques",
    "trial",
    "seed",
    "index",
];

/// Write every puzzle of `store` as CSV (with a header row); returns the number of puzzles.
pub fn write_csv<W: Write>(store: &Store, out: &mut W) -> Result<u64, ExportError> {
    let mut writer = ::csv::Writer::from_writer(out);
    writer.write_record(HEADER).map_err(io)?;
    let mut written = 0u64;
    store.for_each_puzzle(|p| -> Result<(), ExportError> {
        let geometry = p.puzzle.geometry();
        let grade = p.grade.as_ref();
        let shape = geometry.box_shape().map(|(r, c)| format!("{r}x{c}"));
        let regions = match shape {
            None => codec::regions_to_text(geometry.region_map()),
            Some(_) => String::new(),
        };
        writer
            .write_record([
                p.id.to_string(),
                p.variant,
                geometry.size().to_string(),
                shape.unwrap_or_default(),
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
                grade.and_then(|g| g.hardest.clone()).unwrap_or_default(),
                grade.map_or(String::new(), |g| g.techniques.clone()),
                grade.map_or(String::new(), |g| g.trial.to_string()),
                p.seed.to_string(),
                p.index.to_string(),
            ])
            .map_err(io)?;
        written += 1;
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
