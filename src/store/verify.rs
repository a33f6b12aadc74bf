//! Re-reading a database for `verify` and `merge`: every row decoded on its own (a bad row is
//! reported, not fatal), stored solutions checked against their puzzle, and the run and chunk
//! records checked against the rows they account for.

use super::read::{StoredPuzzle, DECODED_COLUMNS};
use super::write::RunState;
use super::{Store, StoreError};
use crate::check::find_conflicts;

/// One stored row as `verify` sees it.
#[derive(Debug)]
pub struct CheckedRow {
    /// Row id.
    pub id: i64,
    /// The decoded row, or why it does not decode.
    pub decoded: Result<StoredPuzzle, StoreError>,
    /// The stored canonical-key fingerprint (16 bytes when written by sudoku-press).
    pub canonical_key: Vec<u8>,
}

/// What is wrong with a stored solution, if anything: not filled, or breaks a rule or a given.
pub fn solution_problem(p: &StoredPuzzle) -> Option<String> {
    if p.solution.values().contains(&0) {
        return Some("the stored solution has empty cells".into());
    }
    match find_conflicts(&p.puzzle, &p.solution) {
        Ok(c) if c.is_empty() => None,
        Ok(c) => Some(format!("the stored solution is wrong: {}", c[0])),
        Err(e) => Some(format!("the stored solution does not fit: {e}")),
    }
}

impl Store {
    /// Call `f` on every row (of run `run`, or of all runs) in id order, with the row decoded or
    /// the reason it does not decode.
    pub fn for_each_checked_row<E: From<StoreError>>(
        &self,
        run: Option<i64>,
        mut f: impl FnMut(CheckedRow) -> Result<(), E>,
    ) -> Result<(), E> {
        let filter = if run.is_some() {
            "WHERE p.run = ?1"
        } else {
            ""
        };
        let columns = self.puzzle_columns()?;
        let sql =
            format!("SELECT {columns}, p.canonical_key FROM puzzles p {filter} ORDER BY p.id");
        let mut stmt = self.conn.prepare(&sql).map_err(|e| self.err(e))?;
        let mut rows = match run {
            Some(id) => stmt.query([id]),
            None => stmt.query([]),
        }
        .map_err(|e| self.err(e))?;
        while let Some(row) = rows.next().map_err(|e| self.err(e))? {
            let id: i64 = row.get(0).map_err(|e| self.err(e))?;
            let canonical_key = row.get::<_, Vec<u8>>(DECODED_COLUMNS).unwrap_or_default();
            f(CheckedRow {
                id,
                decoded: self.decode(row),
                canonical_key,
            })?;
        }
        Ok(())
    }

    /// Check one run's rows before they are copied (`merge`): each decodes, its solution solves
    /// it, and their number is the number its chunk records say were stored.
    pub fn validate_run_rows(&self, run: &RunState) -> Result<(), StoreError> {
        let mut rows = 0u64;
        self.for_each_checked_row(Some(run.id), |row| {
            rows += 1;
            let p = row.decoded?;
            if let Some(problem) = solution_problem(&p) {
                return Err(StoreError::Merge(format!(
                    "{}: puzzle id {}: {problem}; run `sudoku-press verify --db {}` for the full list",
                    self.path.display(),
                    p.id,
                    self.path.display()
                )));
            }
            Ok(())
        })?;
        if rows != run.totals.stored {
            return Err(StoreError::Merge(format!(
                "{}: run {} holds {rows} puzzles but its chunk records say {} were stored (rows deleted or added by hand?); run `sudoku-press verify --db {}`",
                self.path.display(),
                run.id,
                run.totals.stored,
                self.path.display()
            )));
        }
        Ok(())
    }

    /// Problems with the run and chunk records: chunks that leave gaps or overlap, progress past
    /// the run's end, row counts that differ from the chunks' totals, rows outside their run's
    /// committed positions or shard, rows of no run. Empty when all is consistent.
    pub fn record_problems(&self) -> Result<Vec<String>, StoreError> {
        let mut problems = Vec::new();
        for run in self.runs()? {
            self.run_problems(&run, &mut problems)?;
        }
        let orphans = self.count(
            "SELECT count(*) FROM puzzles WHERE run NOT IN (SELECT id FROM runs)",
            None,
        )?;
        if orphans > 0 {
            problems.push(format!("{orphans} puzzles belong to no recorded run"));
        }
        Ok(problems)
    }

    fn run_problems(&self, run: &RunState, problems: &mut Vec<String>) -> Result<(), StoreError> {
        let name = format!("run {} (seed {}, shard {})", run.id, run.seed, run.shard);
        let spans: Vec<(i64, i64)> = {
            let mut stmt = self
                .conn
                .prepare("SELECT first_pos, end_pos FROM chunks WHERE run = ?1 ORDER BY first_pos")
                .map_err(|e| self.err(e))?;
            let rows = stmt
                .query_map([run.id], |r| Ok((r.get(0)?, r.get(1)?)))
                .map_err(|e| self.err(e))?;
            rows.collect::<Result<_, _>>().map_err(|e| self.err(e))?
        };
        let mut at = 0i64;
        for (first, end) in spans {
            if first != at || end <= first {
                problems.push(format!(
                    "{name}: chunk records are not contiguous (expected one starting at position {at}, found {first}..{end})"
                ));
            }
            at = at.max(end);
        }
        let positions = run.shard.positions(run.count);
        if run.next_pos > positions {
            problems.push(format!(
                "{name}: progress says {} positions, the run has only {positions}",
                run.next_pos
            ));
        }
        let rows = self.count("SELECT count(*) FROM puzzles WHERE run = ?1", Some(run.id))?;
        if rows != run.totals.stored {
            problems.push(format!(
                "{name}: {rows} puzzles stored, but the chunk records say {} (rows deleted or added by hand?)",
                run.totals.stored
            ));
        }
        let (i, n) = (run.shard.index() as i64, run.shard.count() as i64);
        let outside = self.count(
            &format!(
                "SELECT count(*) FROM puzzles WHERE run = ?1 AND (idx % {n} != {i} OR idx / {n} >= {})",
                run.next_pos
            ),
            Some(run.id),
        )?;
        if outside > 0 {
            problems.push(format!(
                "{name}: {outside} puzzles have a work item outside the run's shard or committed positions"
            ));
        }
        Ok(())
    }

    fn count(&self, sql: &str, run: Option<i64>) -> Result<u64, StoreError> {
        let result = match run {
            Some(id) => self.conn.query_row(sql, [id], |r| r.get::<_, i64>(0)),
            None => self.conn.query_row(sql, [], |r| r.get::<_, i64>(0)),
        };
        result.map(|v| v as u64).map_err(|e| self.err(e))
    }
}
