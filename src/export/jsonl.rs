//! JSON-lines export: the puzzle JSON of the data sets, plus `id`, `variant`, `level`, the grade
//! (`score`, `hardest`, `techniques`, `trial`), `seed`, `idx` and the metrics as extra keys, so
//! `sudoku-press solve` (and any other reader) takes it. Keys are the database's column names and
//! `id` its row id (a number); `trial` is JSON's boolean, as `rate` prints it.

use super::ExportError;
use crate::format::jsonl::{to_object, write_object};
use crate::grader::json::insert_score_keys;
use crate::store::{Query, Store};
use serde_json::json;
use std::io::Write;

/// Write every puzzle `query` selects as one JSON object a line; returns the number of puzzles.
pub fn write_jsonl<W: Write>(
    store: &Store,
    query: &Query,
    out: &mut W,
) -> Result<u64, ExportError> {
    let written = store.for_each_selected(query, |p| -> Result<(), ExportError> {
        let mut object = to_object(&p.puzzle, Some(&p.solution));
        object.insert("id".into(), json!(p.id));
        object.insert("variant".into(), json!(p.variant));
        object.insert("level".into(), json!(p.level));
        if let Some(g) = &p.grade {
            let techniques = json!(g.techniques);
            insert_score_keys(
                &mut object,
                g.score,
                g.minutes,
                g.hardest.as_deref(),
                techniques,
                g.trial,
            );
        }
        object.insert("seed".into(), json!(p.seed));
        object.insert("idx".into(), json!(p.index));
        object.insert("cage_sizes".into(), json!(p.cage_sizes));
        object.insert("nodes".into(), json!(p.nodes));
        object.insert("guesses".into(), json!(p.guesses));
        write_object(out, &object)?;
        Ok(())
    })?;
    out.flush()?;
    Ok(written)
}
