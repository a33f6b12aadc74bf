//! JSON-lines export: the puzzle JSON of the data sets, plus `id`, `variant`, `level`, the grade
//! (`score`, `hardest`, `techniques`, `trial`), `seed`, `index` and the metrics as extra keys, so `sudoku-press solve` (and any other reader) takes it.

use super::ExportError;
use crate::format::jsonl::{to_object, write_object};
use crate::grader::json::insert_score_keys;
use crate::store::Store;
use serde_json::json;
use std::io::Write;

/// Write every puzzle of `store` as one JSON object a line; returns the number of puzzles.
pub fn write_jsonl<W: Write>(store: &Store, out: &mut W) -> Result<u64, ExportError> {
    let mut written = 0u64;
    store.for_each_puzzle(|p| -> Result<(), ExportError> {
        let mut object = to_object(&p.puzzle, Some(&p.solution));
        object.insert("id".into(), json!(p.id.to_string()));
        object.insert("variant".into(), json!(p.variant));
        object.insert("level".into(), json!(p.level));
        if let Some(g) = &p.grade {
            let techniques = json!(g.techniques);
            insert_score_keys(
                &mut object,
                g.score,
                g.hardest.as_deref(),
                techniques,
                g.trial,
            );
        }
        object.insert("seed".into(), json!(p.seed));
        object.insert("index".into(), json!(p.index));
        object.insert("cage_sizes".into(), json!(p.cage_sizes));
        object.insert("nodes".into(), json!(p.nodes));
        object.insert("guesses".into(), json!(p.guesses));
        write_object(out, &object)?;
        written += 1;
        Ok(())
    })?;
    out.flush()?;
    Ok(written)
}
