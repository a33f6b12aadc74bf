//! The `issued` table: which puzzles the feed and the books have given out, and the feed days
//! withdrawn since (`withdrawn`). Every draw and withdrawal happens in one `BEGIN IMMEDIATE`
//! transaction, so two processes issuing the same day cannot both draw.

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

/// One issued feed day, as the feed's index lists it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IssuedDay {
    /// The day, `YYYY-MM-DD`.
    pub date: String,
    /// Its number in the series.
    pub number: i64,
    /// Its slots in order.
    pub slots: Vec<String>,
}

/// What `withdraw_day` did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Withdrawal {
    /// The day's puzzles, withdrawn now (they stay issued; the day leaves the index).
    Withdrawn(Vec<Issued>),
    /// The day was withdrawn before (at this UTC time) and not issued again since.
    Already(String),
    /// Nothing was issued on that day.
    NotIssued,
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
            .query_map(
                params![channel, last, i64::try_from(limit).unwrap_or(i64::MAX)],
                |r| r.get(0),
            )
            .map_err(|e| self.err(e))?;
        rows.collect::<rusqlite::Result<_>>()
            .map_err(|e| self.err(e))
    }

    /// The `limit` newest days feed `channel` issued (withdrawn days are not issued), newest
    /// first, with their numbers and slots.
    pub fn issued_days(&self, channel: &str, limit: usize) -> Result<Vec<IssuedDay>, StoreError> {
        if !self.has_issues_table()? {
            return Ok(Vec::new());
        }
        let mut days = Vec::new();
        for date in self.issued_dates(channel, "9999-12-31", limit)? {
            let rows = self.issued_on(channel, &date)?;
            days.push(IssuedDay {
                number: rows.first().map_or(0, |r| r.number),
                slots: rows.into_iter().map(|r| r.slot).collect(),
                date,
            });
        }
        Ok(days)
    }

    /// The issued days of feed `channel` just before and just after `date` (either may be absent).
    pub fn issued_neighbours(
        &self,
        channel: &str,
        date: &str,
    ) -> Result<(Option<String>, Option<String>), StoreError> {
        if !self.has_issues_table()? {
            return Ok((None, None));
        }
        let one = |sql: &str| -> Result<Option<String>, StoreError> {
            self.conn
                .query_row(sql, params![channel, date], |r| r.get(0))
                .map_err(|e| self.err(e))
        };
        let feed = "FROM issued WHERE channel = ?1 AND source = 'feed'";
        Ok((
            one(&format!("SELECT max(date) {feed} AND date < ?2"))?,
            one(&format!("SELECT min(date) {feed} AND date > ?2"))?,
        ))
    }

    /// Run `f` holding the database's write lock (`BEGIN IMMEDIATE`, then `COMMIT`), so that no
    /// other process issues or withdraws a day meanwhile. The feed rebuilds its index under it:
    /// every run commits its day before it takes the lock, so the last run to write the index
    /// has seen every day. `f` should be quick (it writes a few small files).
    pub fn with_write_lock<T, E: From<StoreError>>(
        &mut self,
        f: impl FnOnce(&Store) -> Result<T, E>,
    ) -> Result<T, E> {
        self.conn
            .execute_batch("BEGIN IMMEDIATE")
            .map_err(|e| self.err(e))?;
        let result = f(self);
        let end = if result.is_ok() { "COMMIT" } else { "ROLLBACK" };
        let ended = self.conn.execute_batch(end).map_err(|e| self.err(e));
        let value = result?;
        ended?;
        Ok(value)
    }

    /// Withdraw the day `date` of feed `channel`: its puzzles stay issued (never drawn again),
    /// their `date` becomes NULL (the day leaves the index and may be issued afresh later) and
    /// the withdrawal is recorded in `withdrawn`. All in one transaction.
    pub fn withdraw_day(&mut self, channel: &str, date: &str) -> Result<Withdrawal, StoreError> {
        if !self.has_issues_table()? {
            return Ok(Withdrawal::NotIssued);
        }
        let path = self.path.clone();
        let err = |e| super::classify(&path, e);
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(err)?;
        let rows = Self::day_rows(&tx, channel, date).map_err(err)?;
        if rows.is_empty() {
            let before: Option<String> = tx
                .query_row(
                    "SELECT max(withdrawn_at) FROM withdrawn WHERE channel = ?1 AND date = ?2",
                    params![channel, date],
                    |r| r.get(0),
                )
                .map_err(err)?;
            return Ok(before.map_or(Withdrawal::NotIssued, Withdrawal::Already));
        }
        tx.execute(
            "INSERT INTO withdrawn (puzzle, channel, date)
             SELECT puzzle, channel, date FROM issued WHERE channel = ?1 AND date = ?2",
            params![channel, date],
        )
        .map_err(err)?;
        tx.execute(
            "UPDATE issued SET date = NULL WHERE channel = ?1 AND date = ?2",
            params![channel, date],
        )
        .map_err(err)?;
        tx.commit().map_err(err)?;
        Ok(Withdrawal::Withdrawn(rows))
    }

    /// When the day `date` of feed `channel` was last withdrawn (UTC), if ever.
    pub fn withdrawn_at(&self, channel: &str, date: &str) -> Result<Option<String>, StoreError> {
        let exists: i64 = self
            .conn
            .query_row(
                "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'withdrawn'",
                [],
                |r| r.get(0),
            )
            .map_err(|e| self.err(e))?;
        if exists == 0 {
            return Ok(None);
        }
        self.conn
            .query_row(
                "SELECT max(withdrawn_at) FROM withdrawn WHERE channel = ?1 AND date = ?2",
                params![channel, date],
                |r| r.get(0),
            )
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

    /// The puzzles book `channel` issued, in book order (empty when no book has that name).
    pub fn book_issued(&self, channel: &str) -> Result<Vec<Issued>, StoreError> {
        if !self.has_issues_table()? {
            return Ok(Vec::new());
        }
        let mut stmt = self
            .conn
            .prepare(
                "SELECT puzzle, date, slot, position, number FROM issued
                 WHERE source = 'book' AND channel = ?1 ORDER BY position",
            )
            .map_err(|e| self.err(e))?;
        let rows = stmt
            .query_map([channel], row_to_issued)
            .map_err(|e| self.err(e))?;
        rows.collect::<rusqlite::Result<_>>()
            .map_err(|e| self.err(e))
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

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::{mpsc, Arc, Mutex};
    use std::time::Duration;

    #[test]
    fn no_day_is_issued_while_the_write_lock_is_held() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("p.db");
        let mut a = Store::open_or_create(&path).unwrap();
        let mut b = Store::open_or_create(&path).unwrap();
        let log = Arc::new(Mutex::new(Vec::new()));
        let (locked, wait) = mpsc::channel();
        let holder = {
            let log = Arc::clone(&log);
            std::thread::spawn(move || {
                a.with_write_lock(|store| {
                    log.lock().unwrap().push("index read");
                    locked.send(()).unwrap();
                    std::thread::sleep(Duration::from_millis(300));
                    let days = store.issued_days("f", 10)?;
                    log.lock().unwrap().push("index written");
                    Ok::<_, StoreError>(days)
                })
                .unwrap()
            })
        };
        wait.recv().unwrap();
        // Another process's draw waits for the lock (an empty day still takes it).
        assert_eq!(
            b.issue_day("f", "2026-12-01", 1, &[]).unwrap(),
            DayIssue::Drawn(Vec::new())
        );
        log.lock().unwrap().push("day issued");
        assert_eq!(holder.join().unwrap(), Vec::new());
        assert_eq!(
            *log.lock().unwrap(),
            ["index read", "index written", "day issued"]
        );
    }
}
