//! `merge` carries the `issued` table over: the union of the inputs' rows keyed by canonical
//! form, each pointed at the output's row of that form; a form issued differently in two inputs,
//! or one day's place filled by different puzzles, is refused (merge never picks a side).

use super::{Store, StoreError};
use rusqlite::params;
use std::collections::btree_map::{BTreeMap, Entry};

/// One `issued` row as the inputs hold it (its puzzle named by canonical key, not by id).
#[derive(Clone, Debug, PartialEq, Eq)]
struct IssuedRow {
    source: String,
    channel: String,
    date: Option<String>,
    slot: String,
    position: i64,
    number: i64,
}

impl IssuedRow {
    /// `feed daily 2026-12-01 killer-9-hard #3 position 0` / `book vol1 Easy #12`.
    fn describe(&self) -> String {
        let date = self
            .date
            .as_deref()
            .map_or(String::new(), |d| format!(" {d}"));
        format!(
            "{} {}{date} {} #{} position {}",
            self.source, self.channel, self.slot, self.number, self.position
        )
    }
}

/// A row with the input it came from and when it was issued.
struct Found {
    row: IssuedRow,
    issued_at: String,
    input: usize,
}

/// Copy the `issued` rows of every input into `out` (whose puzzles are already written), in one
/// transaction; returns how many rows the output holds.
pub(super) fn copy_issued(out: &mut Store, inputs: &[Store]) -> Result<u64, StoreError> {
    let mut by_key: BTreeMap<Vec<u8>, Found> = BTreeMap::new();
    for (input, store) in inputs.iter().enumerate() {
        for (key, found) in store.issued_rows(input)? {
            match by_key.entry(key) {
                Entry::Vacant(e) => {
                    e.insert(found);
                }
                Entry::Occupied(mut e) => {
                    let held = e.get();
                    if held.row != found.row {
                        return Err(StoreError::Merge(format!(
                            "a puzzle was issued differently in two inputs: {} has {}, {} has {}; \
                             merge keeps issue records as they are, so merge the inputs that agree",
                            inputs[held.input].path().display(),
                            held.row.describe(),
                            store.path().display(),
                            found.row.describe()
                        )));
                    }
                    if found.issued_at < held.issued_at {
                        e.get_mut().issued_at = found.issued_at;
                    }
                }
            }
        }
    }
    // One day's place (channel, date, slot, position) holds one puzzle.
    let mut places: BTreeMap<(String, String, String, i64), &Found> = BTreeMap::new();
    for found in by_key.values() {
        let r = &found.row;
        let Some(date) = &r.date else { continue };
        let place = (r.channel.clone(), date.clone(), r.slot.clone(), r.position);
        if let Some(held) = places.insert(place, found) {
            return Err(StoreError::Merge(format!(
                "{} and {} issued different puzzles as {}; merge the inputs that agree",
                inputs[held.input].path().display(),
                inputs[found.input].path().display(),
                r.describe()
            )));
        }
    }
    let path = out.path.clone();
    let err = |e| super::classify(&path, e);
    let tx = out.conn.transaction().map_err(err)?;
    for (key, found) in &by_key {
        let r = &found.row;
        let inserted = tx
            .execute(
                "INSERT INTO issued (puzzle, canonical_key, source, channel, date, slot, position,
                 number, issued_at)
                 SELECT id, canonical_key, ?2, ?3, ?4, ?5, ?6, ?7, ?8 FROM puzzles
                 WHERE canonical_key = ?1",
                params![
                    key,
                    r.source,
                    r.channel,
                    r.date,
                    r.slot,
                    r.position,
                    r.number,
                    found.issued_at
                ],
            )
            .map_err(err)?;
        if inserted == 0 {
            return Err(StoreError::Merge(format!(
                "{}: issued row {} names a puzzle that is in none of its runs; run `verify` on it",
                inputs[found.input].path().display(),
                r.describe()
            )));
        }
    }
    tx.commit().map_err(err)?;
    Ok(by_key.len() as u64)
}

impl Store {
    /// This input's `issued` rows by canonical key (none for a file older than revision 2).
    fn issued_rows(&self, input: usize) -> Result<Vec<(Vec<u8>, Found)>, StoreError> {
        if !self.has_issues_table()? {
            return Ok(Vec::new());
        }
        let mut stmt = self
            .conn
            .prepare(
                "SELECT canonical_key, source, channel, date, slot, position, number, issued_at
                 FROM issued ORDER BY rowid",
            )
            .map_err(|e| self.err(e))?;
        let rows = stmt
            .query_map([], |r| {
                Ok((
                    r.get(0)?,
                    Found {
                        row: IssuedRow {
                            source: r.get(1)?,
                            channel: r.get(2)?,
                            date: r.get(3)?,
                            slot: r.get(4)?,
                            position: r.get(5)?,
                            number: r.get(6)?,
                        },
                        issued_at: r.get(7)?,
                        input,
                    },
                ))
            })
            .map_err(|e| self.err(e))?;
        rows.collect::<rusqlite::Result<_>>()
            .map_err(|e| self.err(e))
    }
}
