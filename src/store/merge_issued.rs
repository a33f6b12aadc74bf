//! `merge` carries the `issued` table over: the union of the inputs' rows keyed by canonical
//! form, each pointed at the output's row of that form; a form issued differently in two inputs,
//! or one day's place filled by different puzzles, is refused (merge never picks a side). The
//! `withdrawn` rows of withdrawn feed days go the same way: a union keyed by canonical form, a form
//! withdrawn from different days in two inputs refused.

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

/// A `withdrawn` row as the inputs hold it (its puzzle named by canonical key).
struct WithdrawnRow {
    channel: String,
    date: String,
    withdrawn_at: String,
    input: usize,
}

/// The `withdrawn` rows of every input by canonical key, earliest `withdrawn_at` kept.
fn withdrawn_union(inputs: &[Store]) -> Result<BTreeMap<Vec<u8>, WithdrawnRow>, StoreError> {
    let mut by_key: BTreeMap<Vec<u8>, WithdrawnRow> = BTreeMap::new();
    for (input, store) in inputs.iter().enumerate() {
        for (key, row) in store.withdrawn_rows(input)? {
            match by_key.entry(key) {
                Entry::Vacant(e) => {
                    e.insert(row);
                }
                Entry::Occupied(mut e) => {
                    let held = e.get();
                    if (&held.channel, &held.date) != (&row.channel, &row.date) {
                        return Err(StoreError::Merge(format!(
                            "a puzzle was withdrawn from different days: {} has {} {}, {} has {} {}; \
                             merge the inputs that agree",
                            inputs[held.input].path().display(),
                            held.channel,
                            held.date,
                            store.path().display(),
                            row.channel,
                            row.date
                        )));
                    }
                    if row.withdrawn_at < held.withdrawn_at {
                        e.get_mut().withdrawn_at = row.withdrawn_at;
                    }
                }
            }
        }
    }
    Ok(by_key)
}

/// Copy the `issued` and `withdrawn` rows of every input into `out` (whose puzzles are already
/// written), in one transaction; returns how many `issued` rows the output holds.
pub(super) fn copy_issued(out: &mut Store, inputs: &[Store]) -> Result<u64, StoreError> {
    let withdrawn = withdrawn_union(inputs)?;
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
    for (key, w) in &withdrawn {
        let inserted = tx
            .execute(
                "INSERT INTO withdrawn (puzzle, channel, date, withdrawn_at)
                 SELECT i.puzzle, ?2, ?3, ?4 FROM issued i WHERE i.canonical_key = ?1",
                params![key, w.channel, w.date, w.withdrawn_at],
            )
            .map_err(err)?;
        if inserted == 0 {
            return Err(StoreError::Merge(format!(
                "{}: the withdrawn row of {} {} names a puzzle that was never issued; run `verify` on it",
                inputs[w.input].path().display(),
                w.channel,
                w.date
            )));
        }
    }
    tx.commit().map_err(err)?;
    Ok(by_key.len() as u64)
}

impl Store {
    /// This input's `withdrawn` rows by canonical key (none for a file older than revision 5).
    fn withdrawn_rows(&self, input: usize) -> Result<Vec<(Vec<u8>, WithdrawnRow)>, StoreError> {
        let has_table: i64 = self
            .conn
            .query_row(
                "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'withdrawn'",
                [],
                |r| r.get(0),
            )
            .map_err(|e| self.err(e))?;
        if has_table == 0 {
            return Ok(Vec::new());
        }
        let mut stmt = self
            .conn
            .prepare(
                "SELECT i.canonical_key, w.channel, w.date, w.withdrawn_at
                 FROM withdrawn w JOIN issued i ON i.puzzle = w.puzzle ORDER BY w.rowid",
            )
            .map_err(|e| self.err(e))?;
        let rows = stmt
            .query_map([], |r| {
                Ok((
                    r.get(0)?,
                    WithdrawnRow {
                        channel: r.get(1)?,
                        date: r.get(2)?,
                        withdrawn_at: r.get(3)?,
                        input,
                    },
                ))
            })
            .map_err(|e| self.err(e))?;
        rows.collect::<rusqlite::Result<_>>()
            .map_err(|e| self.err(e))
    }

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

#[cfg(test)]
mod tests {
    use crate::store::merge;
    use rusqlite::Connection;

    /// A database of 6 4x4 killers whose puzzle 2 was issued on a feed day later withdrawn.
    fn withdrawn_input(path: &std::path::Path, date: &str) {
        crate::test_support::generate_4x4_killers(path, 6, 3);
        Connection::open(path)
            .unwrap()
            .execute_batch(&format!(
                "INSERT INTO issued (puzzle, canonical_key, source, channel, date, slot, position, number)
                 SELECT id, canonical_key, 'feed', 'daily', NULL, 'killer-4-easy', 0, 1 FROM puzzles WHERE id = 2;
                 INSERT INTO withdrawn (puzzle, channel, date) VALUES (2, 'daily', '{date}');"
            ))
            .unwrap();
    }

    fn withdrawn(path: &std::path::Path) -> Vec<(i64, String, String)> {
        let conn = Connection::open(path).unwrap();
        let mut stmt = conn
            .prepare("SELECT puzzle, channel, date FROM withdrawn ORDER BY puzzle")
            .unwrap();
        let rows = stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)));
        rows.unwrap().map(Result::unwrap).collect()
    }

    #[test]
    fn withdrawn_days_are_carried_over_and_conflicts_refused() {
        let dir = tempfile::tempdir().unwrap();
        let input = dir.path().join("in.db");
        withdrawn_input(&input, "2026-12-01");
        let out = dir.path().join("out.db");
        let report = merge(&out, std::slice::from_ref(&input), &|s| s.to_string()).unwrap();
        assert_eq!(report.issued, 1);
        let expected = vec![(2, "daily".to_string(), "2026-12-01".to_string())];
        assert_eq!(withdrawn(&out), expected);
        // The same puzzles (as another run) withdrawn from another day: refused, no output.
        let other = dir.path().join("other.db");
        std::fs::copy(&input, &other).unwrap();
        Connection::open(&other)
            .unwrap()
            .execute_batch(
                "UPDATE runs SET seed = 99; UPDATE puzzles SET seed = 99;
                 UPDATE withdrawn SET date = '2026-12-05';",
            )
            .unwrap();
        let both = dir.path().join("both.db");
        let err = merge(&both, &[input, other], &|s| s.to_string()).unwrap_err();
        assert!(
            err.to_string().contains("withdrawn from different days"),
            "{err}"
        );
        assert!(!both.exists());
    }
}
