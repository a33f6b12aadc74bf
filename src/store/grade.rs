//! The grade columns of a puzzle row (schema revision 3): how a `grader::Grade` is stored, and
//! the grading of rows that have none yet (rows of an older file, or merged from one).

use super::{Store, StoreError};
use crate::grader::{self, Grade};
use rusqlite::params;

/// Rows graded per transaction when an older file is brought up to date.
const BATCH: usize = 2_000;

/// A grade in the form the `puzzles` table stores it.
#[derive(Clone, Debug, PartialEq)]
pub struct GradeRow {
    /// `easy` .. `extreme`, or `unrated` when the grader could not decide.
    pub level: &'static str,
    /// Continuous score.
    pub score: f64,
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
            hardest: grade.hardest.map(|t| t.as_str()),
            techniques,
            trial: grade.trial,
        }
    }
}

impl Store {
    /// Grade every row not graded by this build's grader (`score` or `grader` NULL, or another
    /// `grader` version), in batches of one transaction each (the write lock
    /// is taken per batch, so an interrupted pass keeps what it did and the next open goes on).
    pub(super) fn grade_ungraded(&self) -> Result<(), StoreError> {
        let columns = self.puzzle_columns()?;
        loop {
            self.conn
                .execute_batch("BEGIN IMMEDIATE")
                .map_err(|e| self.err(e))?;
            let done = self.grade_batch(&columns);
            let end = if done.is_ok() { "COMMIT" } else { "ROLLBACK" };
            let ended = self.conn.execute_batch(end).map_err(|e| self.err(e));
            if done? == 0 {
                return ended;
            }
            ended?;
        }
    }

    /// Grade up to `BATCH` rows not graded by this grader; how many were graded.
    fn grade_batch(&self, columns: &str) -> Result<usize, StoreError> {
        // Three indexable terms (the `grader` index), not `IS NOT`, so that an up-to-date file
        // is checked without a scan.
        let sql = format!(
            "SELECT {columns} FROM puzzles p WHERE p.grader IS NULL OR p.grader < {v} \
             OR p.grader > {v} LIMIT {BATCH}",
            v = grader::GRADER_VERSION
        );
        let mut stmt = self.conn.prepare(&sql).map_err(|e| self.err(e))?;
        let mut rows = stmt.query([]).map_err(|e| self.err(e))?;
        let mut graded = Vec::new();
        while let Some(row) = rows.next().map_err(|e| self.err(e))? {
            let stored = self.decode(row)?;
            graded.push((
                stored.id,
                GradeRow::from_grade(&grader::grade(&stored.puzzle)),
            ));
        }
        let mut update = self
            .conn
            .prepare(
                "UPDATE puzzles SET level = ?2, score = ?3, hardest = ?4, techniques = ?5,
                 trial = ?6, grader = ?7 WHERE id = ?1",
            )
            .map_err(|e| self.err(e))?;
        for (id, g) in &graded {
            update
                .execute(params![
                    id,
                    g.level,
                    g.score,
                    g.hardest,
                    g.techniques,
                    g.trial,
                    grader::GRADER_VERSION
                ])
                .map_err(|e| self.err(e))?;
        }
        Ok(graded.len())
    }
}
