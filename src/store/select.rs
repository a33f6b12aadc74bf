//! Selection for exports, renders, books and the feed: puzzles by variant, size, levels and ids,
//! in id order (or the order the ids were given), never the same puzzle twice, optionally
//! skipping puzzles already issued. Unknown filter values are refused as unknown.

use super::{Store, StoreError, StoredPuzzle};
use crate::generator::Variant;
use crate::geometry::MAX_SIZE;
use crate::grader::Level;
use crate::settings::{parse_variant, variant_name};
use rusqlite::types::Value;
use std::collections::HashSet;

/// The table of issued puzzles (columns `puzzle` and `canonical_key`, a copy of the puzzle's),
/// written by the feed and by books that record what they print (schema revision 2). Until a
/// database has it, nothing has been issued.
pub const ISSUES_TABLE: &str = "issued";

/// The level stored for a puzzle the grader could not decide.
pub const UNRATED: &str = "unrated";

/// The smallest grid side a database can hold.
pub const MIN_SIZE: usize = 4;

/// Which puzzles to take. Every filter that is set must hold (the levels: any one of them).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Query {
    /// `killer`, `classic`, `jigsaw`, `killer-jigsaw`; any when `None`.
    pub variant: Option<String>,
    /// Side N (4 to 16); any when `None`.
    pub size: Option<usize>,
    /// Levels as stored (`easy`, ..., `extreme`, `unrated`): a puzzle of any one of them; any
    /// level when empty.
    pub levels: Vec<String>,
    /// Only these puzzles, in this order (each once; an id not in the database is an error);
    /// every puzzle, in id order, when empty.
    pub ids: Vec<i64>,
    /// How many (at most); [`Query::all`] sets no limit.
    pub count: usize,
    /// Skip puzzles recorded in the issues table.
    pub exclude_issued: bool,
}

impl Query {
    /// Every puzzle, in id order (no filter, no limit).
    pub fn all() -> Query {
        Query {
            count: usize::MAX,
            ..Query::default()
        }
    }

    /// Refuse a filter value no puzzle can have (a misspelt variant or level, a size outside
    /// 4 to 16, an id named twice), rather than let it select nothing.
    pub fn check(&self) -> Result<(), StoreError> {
        if let Some(v) = &self.variant {
            parse_variant(v).map_err(|_| StoreError::UnknownFilter {
                field: "variant",
                value: v.clone(),
                known: known_variants(),
            })?;
        }
        if let Some(n) = self.size {
            if !(MIN_SIZE..=MAX_SIZE).contains(&n) {
                return Err(StoreError::UnknownFilter {
                    field: "size",
                    value: n.to_string(),
                    known: format!("a side from {MIN_SIZE} to {MAX_SIZE}"),
                });
            }
        }
        for level in &self.levels {
            if !known_levels().contains(&level.as_str()) {
                return Err(StoreError::UnknownFilter {
                    field: "level",
                    value: level.clone(),
                    known: format!("{} (lower case)", known_levels().join(", ")),
                });
            }
        }
        let mut seen = HashSet::new();
        if let Some(&id) = self.ids.iter().find(|&&id| !seen.insert(id)) {
            return Err(StoreError::RepeatedId(id));
        }
        Ok(())
    }

    /// The filters that are set, in words: `killer 9x9 easy/hard`, or `any`.
    pub fn describe(&self) -> String {
        let mut parts = Vec::new();
        if let Some(v) = &self.variant {
            parts.push(v.clone());
        }
        if let Some(n) = self.size {
            parts.push(format!("{n}x{n}"));
        }
        if !self.levels.is_empty() {
            parts.push(self.levels.join("/"));
        }
        if !self.ids.is_empty() {
            let ids: Vec<String> = self.ids.iter().map(i64::to_string).collect();
            parts.push(format!("ids {}", ids.join(",")));
        }
        match parts.is_empty() {
            true => "any".into(),
            false => parts.join(" "),
        }
    }
}

/// The level names a puzzle can have in the store, easiest first, then `unrated`.
pub fn known_levels() -> Vec<&'static str> {
    let mut names: Vec<&'static str> = Level::ALL.iter().map(|l| l.as_str()).collect();
    names.push(UNRATED);
    names
}

fn known_variants() -> String {
    [
        Variant::Killer,
        Variant::Classic,
        Variant::Jigsaw,
        Variant::KillerJigsaw,
    ]
    .map(variant_name)
    .join(", ")
}

impl Store {
    /// Up to `query.count` matching puzzles, leaving out the ids in `taken` (puzzles an earlier
    /// section already holds). Fewer come back when the database runs short.
    pub fn select(
        &self,
        query: &Query,
        taken: &HashSet<i64>,
    ) -> Result<Vec<StoredPuzzle>, StoreError> {
        let mut out = Vec::new();
        self.each_selected(query, taken, |p| -> Result<(), StoreError> {
            out.push(p);
            Ok(())
        })?;
        Ok(out)
    }

    /// Call `f` on each puzzle `query` selects, in its order, one row in memory at a time;
    /// returns how many. Unknown filter values and ids are refused before the first call.
    pub fn for_each_selected<E: From<StoreError>>(
        &self,
        query: &Query,
        f: impl FnMut(StoredPuzzle) -> Result<(), E>,
    ) -> Result<u64, E> {
        self.each_selected(query, &HashSet::new(), f)
    }

    fn each_selected<E: From<StoreError>>(
        &self,
        query: &Query,
        taken: &HashSet<i64>,
        mut f: impl FnMut(StoredPuzzle) -> Result<(), E>,
    ) -> Result<u64, E> {
        query.check()?;
        if query.count == 0 {
            return Ok(0);
        }
        self.check_ids(&query.ids)?;
        let (mut sql, params) = self.where_clause(query, &self.puzzle_columns()?)?;
        let by_id = !query.ids.is_empty();
        match by_id {
            true => sql.push_str(&format!(" AND p.id = ?{}", params.len() + 1)),
            false => sql.push_str(" ORDER BY p.id"),
        }
        let mut stmt = self.conn.prepare(&sql).map_err(|e| self.err(e))?;
        // One statement for the whole table, or one run of it per id in the order given.
        let ids: Vec<Option<i64>> = match by_id {
            true => query.ids.iter().copied().map(Some).collect(),
            false => vec![None],
        };
        let mut written = 0u64;
        for id in ids {
            let mut bound = params.clone();
            bound.extend(id.map(Value::Integer));
            let mut rows = stmt
                .query(rusqlite::params_from_iter(bound))
                .map_err(|e| self.err(e))?;
            while let Some(row) = rows.next().map_err(|e| self.err(e))? {
                let id: i64 = row.get(0).map_err(|e| self.err(e))?;
                if taken.contains(&id) {
                    continue;
                }
                f(self.decode(row)?)?;
                written += 1;
                if written as usize == query.count {
                    return Ok(written);
                }
            }
        }
        Ok(written)
    }

    /// Refuse a query with an unknown filter value or an id this database lacks, before
    /// anything is read (so a caller can refuse before it writes a header).
    pub fn check_query(&self, query: &Query) -> Result<(), StoreError> {
        query.check()?;
        self.check_ids(&query.ids)
    }

    /// `Err` naming the ids that are not in the database.
    fn check_ids(&self, ids: &[i64]) -> Result<(), StoreError> {
        let mut stmt = self
            .conn
            .prepare("SELECT count(*) FROM puzzles WHERE id = ?1")
            .map_err(|e| self.err(e))?;
        let mut missing = Vec::new();
        for &id in ids {
            let n: i64 = stmt
                .query_row([id], |r| r.get(0))
                .map_err(|e| self.err(e))?;
            if n == 0 {
                missing.push(id.to_string());
            }
        }
        match missing.is_empty() {
            true => Ok(()),
            false => Err(StoreError::UnknownIds {
                path: self.path.clone(),
                ids: missing.join(", "),
            }),
        }
    }

    /// How many puzzles match `query` (its count aside).
    pub fn count_matching(&self, query: &Query) -> Result<u64, StoreError> {
        query.check()?;
        let (mut sql, mut params) = self.where_clause(query, "count(*)")?;
        if !query.ids.is_empty() {
            let marks: Vec<String> = (0..query.ids.len())
                .map(|i| format!("?{}", params.len() + 1 + i))
                .collect();
            sql.push_str(&format!(" AND p.id IN ({})", marks.join(", ")));
            params.extend(query.ids.iter().map(|&id| Value::Integer(id)));
        }
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
        if !query.levels.is_empty() {
            let mut marks = Vec::new();
            for level in &query.levels {
                params.push(Value::Text(level.clone()));
                marks.push(format!("?{}", params.len()));
            }
            sql.push_str(&format!(" AND p.level IN ({})", marks.join(", ")));
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
            levels: vec![level.clone()],
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
