//! Selection for books (and the feed): puzzles by variant, size and level in id order, or by id,
//! never the same puzzle twice, optionally skipping puzzles already issued.

use super::{Store, StoreError, StoredPuzzle};
use rusqlite::types::Value;
use std::collections::HashSet;

/// The table of issued puzzles (columns `puzzle` and `canonical_key`, a copy of the puzzle's),
/// written by the feed and by books that record what they print (schema revision 2). Until a
/// database has it, nothing has been issued.
pub const ISSUES_TABLE: &str = "issued";

/// Which puzzles to take.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Query {
    /// `killer`, `classic`, `jigsaw`, `killer-jigsaw`; any when `None`.
    pub variant: Option<String>,
    /// Side N; any when `None`.
    pub size: Option<usize>,
    /// Level text as stored (`easy`, ..., `extreme`); any when `None`.
    pub level: Option<String>,
    /// How many (at most).
    pub count: usize,
    /// Skip puzzles recorded in the issues table.
    pub exclude_issued: bool,
}

impl Store {
    /// Up to `query.count` matching puzzles in id order, leaving out the ids in `taken` (puzzles an
    /// earlier section already holds). Fewer come back when the database runs short.
    pub fn select(
        &self,
        query: &Query,
        taken: &HashSet<i64>,
    ) -> Result<Vec<StoredPuzzle>, StoreError> {
        if query.count == 0 {
            return Ok(Vec::new());
        }
        let (sql, params) = self.where_clause(query, &self.puzzle_columns()?)?;
        let mut stmt = self
            .conn
            .prepare(&format!("{sql} ORDER BY p.id"))
            .map_err(|e| self.err(e))?;
        let mut rows = stmt
            .query(rusqlite::params_from_iter(params))
            .map_err(|e| self.err(e))?;
        let mut out = Vec::new();
        while let Some(row) = rows.next().map_err(|e| self.err(e))? {
            let id: i64 = row.get(0).map_err(|e| self.err(e))?;
            if taken.contains(&id) {
                continue;
            }
            out.push(self.decode(row)?);
            if out.len() == query.count {
                break;
            }
        }
        Ok(out)
    }

    /// How many puzzles match `query` (its count aside).
    pub fn count_matching(&self, query: &Query) -> Result<u64, StoreError> {
        let (sql, params) = self.where_clause(query, "count(*)")?;
        self.conn
            .query_row(&sql, rusqlite::params_from_iter(params), |r| {
                r.get::<_, i64>(0)
            })
            .map(|n| n as u64)
            .map_err(|e| self.err(e))
    }

    /// The puzzles with these ids, in the order given; `Err` with the unknown ids listed.
    pub fn select_ids(
        &self,
        ids: &[i64],
    ) -> Result<Result<Vec<StoredPuzzle>, Vec<i64>>, StoreError> {
        let mut stmt = self
            .conn
            .prepare(&format!(
                "SELECT {} FROM puzzles p WHERE p.id = ?1",
                self.puzzle_columns()?
            ))
            .map_err(|e| self.err(e))?;
        let (mut found, mut missing) = (Vec::new(), Vec::new());
        for &id in ids {
            let mut rows = stmt.query([id]).map_err(|e| self.err(e))?;
            match rows.next().map_err(|e| self.err(e))? {
                Some(row) => found.push(self.decode(row)?),
                None => missing.push(id),
            }
        }
        Ok(if missing.is_empty() {
            Ok(found)
        } else {
            Err(missing)
        })
    }

    /// Does this database have the issues table yet?
    pub fn has_issues_table(&self) -> Result<bool, StoreError> {
        self.conn
            .query_row(
                "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = ?1",
                [ISSUES_TABLE],
                |r| r.get::<_, i64>(0),
            )
            .map(|n| n > 0)
            .map_err(|e| self.err(e))
    }

    fn where_clause(&self, query: &Query, what: &str) -> Result<(String, Vec<Value>), StoreError> {
        let mut sql = format!("SELECT {what} FROM puzzles p WHERE 1");
        let mut params: Vec<Value> = Vec::new();
        if let Some(v) = &query.variant {
            params.push(Value::Text(v.clone()));
            sql.push_str(&format!(" AND p.variant = ?{}", params.len()));
        }
        if let Some(n) = query.size {
            params.push(Value::Integer(n as i64));
            sql.push_str(&format!(" AND p.size = ?{}", params.len()));
        }
        if let Some(l) = &query.level {
            params.push(Value::Text(l.clone()));
            sql.push_str(&format!(" AND p.level = ?{}", params.len()));
        }
        if query.exclude_issued && self.has_issues_table()? {
            sql.push_str(&format!(
                // Equal under the canonical form counts as issued too.
                " AND NOT EXISTS (SELECT 1 FROM {ISSUES_TABLE} i WHERE i.canonical_key = p.canonical_key)"
            ));
        }
        Ok((sql, params))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pipeline;
    use crate::settings::{Origin, Settings};

    fn store_with(count: u64, dir: &std::path::Path) -> Store {
        let path = dir.join("sel.db");
        let mut settings = Settings::default();
        settings.run.count = count;
        settings.run.seed = 7;
        settings.generator.size = 4;
        settings.run.db = path.clone();
        let plan = settings.validate("test", &Origin::Defaults).unwrap();
        let mut store = Store::open_or_create(&path).unwrap();
        let never = std::sync::atomic::AtomicBool::new(false);
        pipeline::run(&mut store, &plan, &never, |_| {}).expect("generate");
        drop(store);
        Store::open_read_only(&path).unwrap()
    }

    #[test]
    fn selection_is_in_id_order_never_repeats_and_respects_filters() {
        let dir = tempfile::tempdir().unwrap();
        let store = store_with(12, dir.path());
        let all = Query {
            count: 100,
            ..Query::default()
        };
        let every = store.select(&all, &HashSet::new()).unwrap();
        assert!(every.len() >= 10);
        assert!(every.windows(2).all(|w| w[0].id < w[1].id));
        assert_eq!(store.count_matching(&all).unwrap(), every.len() as u64);
        let level = every[0].level.clone();
        let q = Query {
            level: Some(level.clone()),
            count: 2,
            ..Query::default()
        };
        let first = store.select(&q, &HashSet::new()).unwrap();
        assert!(first.iter().all(|p| p.level == level));
        let taken: HashSet<i64> = first.iter().map(|p| p.id).collect();
        let second = store.select(&q, &taken).unwrap();
        assert!(second.iter().all(|p| !taken.contains(&p.id)));
        let none = Query {
            variant: Some("jigsaw".into()),
            count: 5,
            ..Query::default()
        };
        assert!(store.select(&none, &HashSet::new()).unwrap().is_empty());
        assert_eq!(
            store
                .select(
                    &Query {
                        size: Some(4),
                        count: 3,
                        ..Query::default()
                    },
                    &HashSet::new()
                )
                .unwrap()
                .len(),
            3
        );
    }

    #[test]
    fn ids_come_back_in_the_order_given_and_unknown_ids_are_named() {
        let dir = tempfile::tempdir().unwrap();
        let store = store_with(4, dir.path());
        let got = store.select_ids(&[3, 1]).unwrap().unwrap();
        assert_eq!(got.iter().map(|p| p.id).collect::<Vec<_>>(), vec![3, 1]);
        assert_eq!(
            store.select_ids(&[1, 999, 1000]).unwrap(),
            Err(vec![999, 1000])
        );
    }

    #[test]
    fn issued_puzzles_and_their_equals_are_skipped_on_request() {
        let dir = tempfile::tempdir().unwrap();
        let store = store_with(4, dir.path());
        let q = Query {
            count: 10,
            exclude_issued: true,
            ..Query::default()
        };
        let before = store.select(&q, &HashSet::new()).unwrap().len();
        drop(store);
        let path = dir.path().join("sel.db");
        let mut store = Store::open_or_create(&path).unwrap();
        store
            .issue_book("vol1", &[("Easy".into(), 1, 1)])
            .unwrap()
            .unwrap();
        drop(store);
        let store = Store::open_read_only(&path).unwrap();
        let after = store.select(&q, &HashSet::new()).unwrap();
        assert_eq!(after.len(), before - 1);
        assert!(after.iter().all(|p| p.id != 1));
    }
}
