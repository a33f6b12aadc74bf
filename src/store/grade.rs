//! The grade columns of a puzzle row (schema revisions 3, 4 and 7): how a `grader::Grade` is stored, and
//! the grading of rows that have none yet (rows of an older file, or merged from one).

use super::{Store, StoreError};
use crate::grader::{self, Grade};
use rusqlite::params;
use std::time::{Duration, Instant};

/// Grading time aimed at per batch (each batch is then written in one short transaction).
const GRADE_TARGET: Duration = Duration::from_millis(250);
/// Rows of the first batch, before the rate is known.
const FIRST_BATCH: usize = 8;
/// Rows a batch at most.
const MAX_BATCH: usize = 2_000;

/// Rows not graded by this build's grader: three indexable terms (the `grader` index), not
/// `IS NOT`, so that an up-to-date file is checked without a scan.
fn ungraded() -> String {
    format!(
        "(p.grader IS NULL OR p.grader < {v} OR p.grader > {v})",
        v = grader::GRADER_VERSION
    )
}

/// A grade in the form the `puzzles` table stores it.
#[derive(Clone, Debug, PartialEq)]
pub struct GradeRow {
    /// `easy` .. `extreme`, or `unrated` when the grader could not decide.
    pub level: &'static str,
    /// Continuous score.
    pub score: f64,
    /// The estimated solving time, `LOW-HIGH` minutes (`None` when not graded).
    pub minutes: Option<String>,
    /// The hardest technique's key (`hidden_single`, ...).
    pub hardest: Option<&'static str>,
    /// Steps per technique, `name:count` joined by `;`.
    pub techniques: String,
    /// Was trial needed?
    pub trial: bool,
}

impl GradeRow {
    /// The stored form of a grade.
    pub fn from_grade(grade: &Grade) -> Self {
        let techniques = grade
            .techniques
            .iter()
            .map(|(t, n)| format!("{}:{n}", t.as_str()))
            .collect::<Vec<_>>()
            .join(";");
        GradeRow {
            level: grade.level.map_or("unrated", |l| l.as_str()),
            score: grade.score,
            minutes: grade.minutes.map(|m| m.to_string()),
            hardest: grade.hardest.map(|t| t.as_str()),
            techniques,
            trial: grade.trial,
        }
    }
}

/// How far the grading of rows graded by another grader version has got (reported after each
/// small transaction, so that a long regrade on open is visible).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct RegradeProgress {
    /// Rows graded so far by this process.
    pub done: u64,
    /// Rows that needed grading when it started.
    pub total: u64,
}

impl Store {
    /// Grade every row not graded by this build's grader (`score` or `grader` NULL, or another
    /// `grader` version), reporting progress to `on_progress` after each write. Rows are read and
    /// graded outside any write transaction, in batches sized to take about `GRADE_TARGET`, and
    /// each batch's grades are written in one short transaction: the write lock is held for
    /// milliseconds at a time, so other writers (a `generate`, a `feed`) get in between, and an
    /// interrupted pass keeps what it wrote and the next open goes on. Two processes regrading
    /// at once write the same grades (grading is deterministic).
    pub(super) fn grade_ungraded(
        &self,
        on_progress: &mut dyn FnMut(RegradeProgress),
    ) -> Result<(), StoreError> {
        let columns = self.puzzle_columns()?;
        let total = self.count_ungraded()?;
        let mut progress = RegradeProgress { done: 0, total };
        let mut batch = FIRST_BATCH;
        while progress.total > 0 {
            let started = Instant::now();
            let graded = self.grade_batch(&columns, batch)?;
            if graded.is_empty() {
                break;
            }
            batch = next_batch(graded.len(), started.elapsed());
            self.write_grades(&graded)?;
            progress.done += graded.len() as u64;
            progress.total = progress.total.max(progress.done);
            on_progress(progress);
        }
        Ok(())
    }

    /// Rows not graded by this grader.
    fn count_ungraded(&self) -> Result<u64, StoreError> {
        let sql = format!("SELECT count(*) FROM puzzles p WHERE {}", ungraded());
        self.conn
            .query_row(&sql, [], |r| r.get::<_, i64>(0))
            .map(|n| n as u64)
            .map_err(|e| self.err(e))
    }

    /// Read and grade up to `limit` rows not graded by this grader (no transaction held while
    /// grading).
    fn grade_batch(&self, columns: &str, limit: usize) -> Result<Vec<(i64, GradeRow)>, StoreError> {
        let sql = format!(
            "SELECT {columns} FROM puzzles p WHERE {} ORDER BY p.id LIMIT {limit}",
            ungraded()
        );
        let stored = {
            let mut stmt = self.conn.prepare(&sql).map_err(|e| self.err(e))?;
            let mut rows = stmt.query([]).map_err(|e| self.err(e))?;
            let mut stored = Vec::new();
            while let Some(row) = rows.next().map_err(|e| self.err(e))? {
                stored.push(self.decode(row)?);
            }
            stored
        };
        Ok(stored
            .iter()
            .map(|p| (p.id, GradeRow::from_grade(&grader::grade(&p.puzzle))))
            .collect())
    }

    /// Write one batch of grades in one short `BEGIN IMMEDIATE` transaction.
    fn write_grades(&self, graded: &[(i64, GradeRow)]) -> Result<(), StoreError> {
        self.conn
            .execute_batch("BEGIN IMMEDIATE")
            .map_err(|e| self.err(e))?;
        let written = self.update_grades(graded);
        let end = if written.is_ok() {
            "COMMIT"
        } else {
            "ROLLBACK"
        };
        let ended = self.conn.execute_batch(end).map_err(|e| self.err(e));
        written.and(ended)
    }

    fn update_grades(&self, graded: &[(i64, GradeRow)]) -> Result<(), StoreError> {
        let mut update = self
            .conn
            .prepare_cached(
                "UPDATE puzzles SET level = ?2, score = ?3, hardest = ?4, techniques = ?5,
                 trial = ?6, grader = ?7, minutes = ?8 WHERE id = ?1",
            )
            .map_err(|e| self.err(e))?;
        for (id, g) in graded {
            update
                .execute(params![
                    id,
                    g.level,
                    g.score,
                    g.hardest,
                    g.techniques,
                    g.trial,
                    grader::GRADER_VERSION,
                    g.minutes,
                ])
                .map_err(|e| self.err(e))?;
        }
        Ok(())
    }
}

/// The size of the next batch: as many rows as the measured rate grades in `GRADE_TARGET`,
/// growing at most fourfold a step, between 1 and `MAX_BATCH`.
fn next_batch(last: usize, took: Duration) -> usize {
    let secs = took.as_secs_f64().max(1e-6);
    let fit = (last as f64 * GRADE_TARGET.as_secs_f64() / secs) as usize;
    fit.min(last.saturating_mul(4)).clamp(1, MAX_BATCH)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn batches_take_a_fraction_of_a_second() {
        let ms = Duration::from_millis;
        // 16x16 killers at 100 ms a row: two rows a batch.
        assert_eq!(next_batch(8, ms(800)), 2);
        // A 5 s row: one row a batch.
        assert_eq!(next_batch(1, ms(5_000)), 1);
        // Fast rows grow fourfold a step, up to the cap.
        assert_eq!(next_batch(8, ms(1)), 32);
        assert_eq!(next_batch(1_500, ms(10)), MAX_BATCH);
    }
}
