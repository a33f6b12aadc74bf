//! The `issued` table: which puzzles the feed and the books have given out, and the feed days
//! withdrawn since (`withdrawn`). Everything is issued through [`Store::record_issued`], all or
//! none; every withdrawal happens in one `BEGIN IMMEDIATE` transaction, and a feed day is drawn
//! and recorded under [`Store::with_write_lock`], so two processes issuing the same day cannot
//! both draw.

use super::{Store, StoreError};
use rusqlite::params;

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

fn row_to_issued(row: &rusqlite::Row) -> rusqlite::Result<Issued> {
    Ok(Issued {
        puzzle: row.get(0)?,
        date: row.get(1)?,
        slot: row.get(2)?,
        position: row.get(3)?,
        number: row.get(4)?,
    })
}

/// Why [`Store::record_issued`]'s transaction ended without a commit.
enum Recording {
    /// Puzzles that cannot be issued (these ids).
    Refused(Vec<i64>),
    /// The database failed.
    Failed(StoreError),
}

impl From<StoreError> for Recording {
    fn from(e: StoreError) -> Self {
        Recording::Failed(e)
    }
}

impl Store {
    /// Record `entries` (`(slot or section, puzzle id, number)`, in order: the position is the
    /// place in the list) as issued by `channel`: the feed day `date`, or a book when `date` is
    /// `None`. The one path by which anything is issued. All or none, in one write transaction
    /// (or a savepoint of the caller's, under [`Store::with_write_lock`]): `Ok(Err(ids))` names
    /// the puzzles refused (unknown ids, puzzles issued before, or equal under the canonical form
    /// to one issued before), and nothing is recorded then.
    pub fn record_issued(
        &self,
        channel: &str,
        date: Option<&str>,
        entries: &[(String, i64, i64)],
    ) -> Result<Result<Vec<Issued>, Vec<i64>>, StoreError> {
        let source = if date.is_some() { "feed" } else { "book" };
        let recorded = self.transaction(|store| {
            let mut rows = Vec::with_capacity(entries.len());
            let mut refused = Vec::new();
            for (position, (slot, puzzle, number)) in entries.iter().enumerate() {
                let inserted = store
                    .conn
                    .execute(
                        "INSERT OR IGNORE INTO issued (puzzle, canonical_key, source, channel, date, slot, position, number)
                         SELECT id, canonical_key, ?2, ?3, ?4, ?5, ?6, ?7 FROM puzzles WHERE id = ?1",
                        params![puzzle, source, channel, date, slot, position as i64, number],
                    )
                    .map_err(|e| store.err(e))?;
                match inserted {
                    0 => refused.push(*puzzle),
                    _ => rows.push(Issued {
                        puzzle: *puzzle,
                        date: date.map(str::to_string),
                        slot: slot.clone(),
                        position: position as u32,
                        number: *number,
                    }),
                }
            }
            match refused.is_empty() {
                true => Ok(rows),
                // An error, so that the transaction takes back the rows inserted before.
                false => Err(Recording::Refused(refused)),
            }
        });
        match recorded {
            Ok(rows) => Ok(Ok(rows)),
            Err(Recording::Refused(ids)) => Ok(Err(ids)),
            Err(Recording::Failed(e)) => Err(e),
        }
    }

    /// The puzzles feed `channel` issued on `date` (empty when the day is not issued).
    pub fn issued_on(&self, channel: &str, date: &str) -> Result<Vec<Issued>, StoreError> {
        if !self.has_issues_table()? {
            return Ok(Vec::new());
        }
        let mut stmt = self
            .conn
            .prepare(
                "SELECT puzzle, date, slot, position, number FROM issued
                 WHERE channel = ?1 AND date = ?2 ORDER BY position",
            )
            .map_err(|e| self.err(e))?;
        let rows = stmt
            .query_map(params![channel, date], row_to_issued)
            .map_err(|e| self.err(e))?;
        rows.collect::<rusqlite::Result<_>>()
            .map_err(|e| self.err(e))
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

    /// Run `f` holding the database's write lock (`BEGIN IMMEDIATE`, then `COMMIT`; `ROLLBACK`
    /// when `f` fails), so that no other process issues or withdraws a day meanwhile. A day is
    /// drawn under it, and the feed rebuilds its index under it: every run commits its day before
    /// it takes the lock again, so the last run to write the index has seen every day. `f` should
    /// be quick (it draws a day or writes a few small files).
    pub fn with_write_lock<T, E: From<StoreError>>(
        &mut self,
        f: impl FnOnce(&Store) -> Result<T, E>,
    ) -> Result<T, E> {
        self.transaction(f)
    }

    /// Withdraw the day `date` of feed `channel`: its puzzles stay issued (never drawn again),
    /// their `date` becomes NULL (the day leaves the index and may be issued afresh later) and
    /// the withdrawal is recorded in `withdrawn`. All in one transaction.
    pub fn withdraw_day(&mut self, channel: &str, date: &str) -> Result<Withdrawal, StoreError> {
        if !self.has_issues_table()? {
            return Ok(Withdrawal::NotIssued);
        }
        self.transaction(|store| {
            let rows = store.issued_on(channel, date)?;
            if rows.is_empty() {
                let before = store.withdrawn_at(channel, date)?;
                return Ok(before.map_or(Withdrawal::NotIssued, Withdrawal::Already));
            }
            for sql in [
                "INSERT INTO withdrawn (puzzle, channel, date)
                 SELECT puzzle, channel, date FROM issued WHERE channel = ?1 AND date = ?2",
                "UPDATE issued SET date = NULL WHERE channel = ?1 AND date = ?2",
            ] {
                store
                    .conn
                    .execute(sql, params![channel, date])
                    .map_err(|e| store.err(e))?;
            }
            Ok(Withdrawal::Withdrawn(rows))
        })
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

    /// Record the puzzles of book `channel` as issued (`(section, puzzle id, number)` in book
    /// order), all or none, as [`Store::record_issued`] does.
    pub fn issue_book(
        &mut self,
        channel: &str,
        entries: &[(String, i64, i64)],
    ) -> Result<Result<(), Vec<i64>>, StoreError> {
        Ok(self.record_issued(channel, None, entries)?.map(drop))
    }

    /// Take back what [`Store::issue_book`] recorded for `puzzles` of book `channel` (the book
    /// could not be put in place), in one transaction.
    pub fn withdraw_book(&mut self, channel: &str, puzzles: &[i64]) -> Result<(), StoreError> {
        self.transaction(|store| {
            for puzzle in puzzles {
                store
                    .conn
                    .execute(
                        "DELETE FROM issued WHERE source = 'book' AND channel = ?1 AND puzzle = ?2",
                        params![channel, puzzle],
                    )
                    .map_err(|e| store.err(e))?;
            }
            Ok(())
        })
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
        let b = Store::open_or_create(&path).unwrap();
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
            b.record_issued("f", Some("2026-12-01"), &[]).unwrap(),
            Ok(Vec::new())
        );
        log.lock().unwrap().push("day issued");
        assert_eq!(holder.join().unwrap(), Vec::new());
        assert_eq!(
            *log.lock().unwrap(),
            ["index read", "index written", "day issued"]
        );
    }
}
