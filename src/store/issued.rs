//! The `issued` table: which puzzles the feed and the books have given out. Every draw happens in
//! one `BEGIN IMMEDIATE` transaction, so two processes issuing the same day cannot both draw.

use super::{Store, StoreError};
use rusqlite::{params, OptionalExtension, TransactionBehavior};

/// A pool of puzzles a feed slot draws from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IssueRequest {
    /// The slot's name (`killer-9-hard`), stored with the puzzle.
    pub slot: String,
    /// Variant of the pool.
    pub variant: String,
    /// Side N of the pool.
    pub size: u32,
    /// Level of the pool.
    pub level: String,
}

/// One issued puzzle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Issued {
    /// The puzzle's row id.
    pub puzzle: i64,
    /// The feed day (`YYYY-MM-DD`), `None` for a book.
    pub date: Option<String>,
    /// Slot or book section.
    pub slot: String,
    /// Place in the day or book, from 0.
    pub position: u32,
    /// The day's number in the series, or the book's puzzle number.
    pub number: i64,
}

/// What `issue_day` did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DayIssue {
    /// The day was issued before: its puzzles, as stored (nothing was drawn).
    Existing(Vec<Issued>),
    /// The day's puzzles, drawn now and recorded.
    Drawn(Vec<Issued>),
    /// A pool had too few unissued puzzles; nothing was recorded.
    Short {
        /// The slot that ran out.
        slot: String,
        /// Puzzles of that slot the day needs.
        wanted: usize,
        /// Unissued puzzles of that slot in the database.
        available: u64,
    },
}

const UNISSUED: &str = "FROM puzzles p WHERE p.variant = ?1 AND p.size = ?2 AND p.level = ?3
    AND NOT EXISTS (SELECT 1 FROM issued i WHERE i.canonical_key = p.canonical_key)";

fn row_to_issued(row: &rusqlite::Row) -> rusqlite::Result<Issued> {
    Ok(Issued {
        puzzle: row.get(0)?,
        date: row.get(1)?,
        slot: row.get(2)?,
        position: row.get(3)?,
        number: row.get(4)?,
    })
}

impl Store {
    /// Issue the puzzles of feed `channel` for `date`: the stored ones when the day was issued
    /// before, else the first unissued puzzle (in id order) of each slot's pool, recorded with
    /// `number`. All in one `BEGIN IMMEDIATE` transaction; a short pool records nothing.
    pub fn issue_day(
        &mut self,
        channel: &str,
        date: &str,
        number: i64,
        slots: &[IssueRequest],
    ) -> Result<DayIssue, StoreError> {
        let path = self.path.clone();
        let err = |e| super::classify(&path, e);
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(err)?;
        let existing = Self::day_rows(&tx, channel, date).map_err(err)?;
        if !existing.is_empty() {
            tx.commit().map_err(err)?;
            return Ok(DayIssue::Existing(existing));
        }
        let mut drawn = Vec::with_capacity(slots.len());
        for (position, slot) in slots.iter().enumerate() {
            let pool = params![slot.variant, slot.size, slot.level];
            let pick: Option<(i64, Vec<u8>)> = tx
                .query_row(
                    &format!("SELECT p.id, p.canonical_key {UNISSUED} ORDER BY p.id LIMIT 1"),
                    pool,
                    |r| Ok((r.get(0)?, r.get(1)?)),
                )
                .optional()
                .map_err(err)?;
            let Some((puzzle, key)) = pick else {
                let available: i64 = tx
                    .query_row(&format!("SELECT count(*) {UNISSUED}"), pool, |r| r.get(0))
                    .map_err(err)?;
                let same = |s: &&IssueRequest| s.slot == slot.slot;
                let drawn_before = slots[..position].iter().filter(same).count() as u64;
                // Nothing is kept: dropping `tx` rolls the day back.
                return Ok(DayIssue::Short {
                    slot: slot.slot.clone(),
                    wanted: slots.iter().filter(same).count(),
                    available: available as u64 + drawn_before,
                });
            };
            tx.execute(
                "INSERT INTO issued (puzzle, canonical_key, source, channel, date, slot, position, number)
                 VALUES (?1, ?2, 'feed', ?3, ?4, ?5, ?6, ?7)",
                params![puzzle, key, channel, date, slot.slot, position as i64, number],
            )
            .map_err(err)?;
            drawn.push(Issued {
                puzzle,
                date: Some(date.to_string()),
                slot: slot.slot.clone(),
                position: position as u32,
                number,
            });
        }
        tx.commit().map_err(err)?;
        Ok(DayIssue::Drawn(drawn))
    }

    fn day_rows(
        conn: &rusqlite::Connection,
        channel: &str,
        date: &str,
    ) -> rusqlite::Result<Vec<Issued>> {
        let mut stmt = conn.prepare(
            "SELECT puzzle, date, slot, position, number FROM issued
             WHERE channel = ?1 AND date = ?2 ORDER BY position",
        )?;
        let rows = stmt.query_map(params![channel, date], row_to_issued)?;
        rows.collect()
    }

    /// The puzzles feed `channel` issued on `date` (empty when the day is not issued).
    pub fn issued_on(&self, channel: &str, date: &str) -> Result<Vec<Issued>, StoreError> {
        if !self.has_issues_table()? {
            return Ok(Vec::new());
        }
        Self::day_rows(&self.conn, channel, date).map_err(|e| self.err(e))
    }

    /// The latest `limit` dates feed `channel` issued, up to and including `last`, newest first.
    pub fn issued_dates(
        &self,
        channel: &str,
        last: &str,
        limit: usize,
    ) -> Result<Vec<String>, StoreError> {
        if !self.has_issues_table()? {
            return Ok(Vec::new());
        }
        let mut stmt = self
            .conn
            .prepare(
                "SELECT DISTINCT date FROM issued WHERE channel = ?1 AND source = 'feed'
                 AND date <= ?2 ORDER BY date DESC LIMIT ?3",
            )
            .map_err(|e| self.err(e))?;
        let rows = stmt
            .query_map(params![channel, last, limit as i64], |r| r.get(0))
            .map_err(|e| self.err(e))?;
        rows.collect::<rusqlite::Result<_>>()
            .map_err(|e| self.err(e))
    }

    /// Unissued puzzles (no puzzle of the same canonical form issued) of a variant, size and level.
    pub fn count_unissued(&self, variant: &str, size: u32, level: &str) -> Result<u64, StoreError> {
        let sql = match self.has_issues_table()? {
            true => format!("SELECT count(*) {UNISSUED}"),
            false => "SELECT count(*) FROM puzzles p WHERE p.variant = ?1 AND p.size = ?2 AND p.level = ?3".into(),
        };
        let n: i64 = self
            .conn
            .query_row(&sql, params![variant, size, level], |r| r.get(0))
            .map_err(|e| self.err(e))?;
        Ok(n as u64)
    }

    /// Record the puzzles of book `channel` as issued (`(section, puzzle id, number)` in book
    /// order), all or none: `Ok(Err(ids))` names the puzzles refused (unknown ids, or puzzles
    /// issued before, or equal under the canonical form to one issued before).
    pub fn issue_book(
        &mut self,
        channel: &str,
        entries: &[(String, i64, i64)],
    ) -> Result<Result<(), Vec<i64>>, StoreError> {
        let path = self.path.clone();
        let err = |e| super::classify(&path, e);
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(err)?;
        let mut taken = Vec::new();
        for (position, (section, puzzle, number)) in entries.iter().enumerate() {
            let inserted = tx
                .execute(
                    "INSERT OR IGNORE INTO issued (puzzle, canonical_key, source, channel, date, slot, position, number)
                     SELECT id, canonical_key, 'book', ?2, NULL, ?3, ?4, ?5 FROM puzzles WHERE id = ?1",
                    params![puzzle, channel, section, position as i64, number],
                )
                .map_err(err)?;
            if inserted == 0 {
                taken.push(*puzzle);
            }
        }
        if !taken.is_empty() {
            return Ok(Err(taken));
        }
        tx.commit().map_err(err)?;
        Ok(Ok(()))
    }

    /// Take back what [`Store::issue_book`] recorded for `puzzles` of book `channel` (the book
    /// could not be put in place), in one transaction.
    pub fn withdraw_book(&mut self, channel: &str, puzzles: &[i64]) -> Result<(), StoreError> {
        let path = self.path.clone();
        let err = |e| super::classify(&path, e);
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(err)?;
        for puzzle in puzzles {
            tx.execute(
                "DELETE FROM issued WHERE source = 'book' AND channel = ?1 AND puzzle = ?2",
                params![channel, puzzle],
            )
            .map_err(err)?;
        }
        tx.commit().map_err(err)
    }

    /// Ids of the stored puzzles issued so far, or equal under the canonical form to one issued.
    pub fn issued_ids(&self) -> Result<Vec<i64>, StoreError> {
        if !self.has_issues_table()? {
            return Ok(Vec::new());
        }
        let mut stmt = self
            .conn
            .prepare("SELECT p.id FROM puzzles p JOIN issued i ON i.canonical_key = p.canonical_key ORDER BY p.id")
            .map_err(|e| self.err(e))?;
        let rows = stmt.query_map([], |r| r.get(0)).map_err(|e| self.err(e))?;
        rows.collect::<rusqlite::Result<_>>()
            .map_err(|e| self.err(e))
    }
}
