//! The SQLite store: the only place that speaks SQL. Opens, recognizes, writes and reads databases.
//!
//! # Schema (revision 7; `PRAGMA application_id = 0x53507273` "SPrs", `PRAGMA user_version = 7`)
//!
//! `runs` — one row per (generator settings, seed, generator version, shard):
//! `id`, `seed`, `settings_hash` (16 hex digits, see `settings::settings_hash`),
//! `settings` (the whole run settings as TOML), `generator_version`, `count` (work items
//! `0..count` of the whole run), `shard_index`, `shard_count` (`0`, `1` when unsharded),
//! `created` (UTC, ISO 8601). UNIQUE (settings_hash, seed, generator_version, shard_index, shard_count).
//!
//! `puzzles` — one row per stored puzzle, `id` ascending in work-item order:
//! `id`, `run` (→ runs), `seed`, `idx` (the work item index; `(seed, idx, settings)` regenerates the
//! row), `variant` (`killer`, `classic`, `jigsaw`, `killer-jigsaw`), `size`, `box_rows`, `box_cols`
//! (NULL for jigsaw), `regions` (jigsaw only), `givens`, `solution`, `cages` (text forms of
//! [`codec`]), `givens_count`, `cage_count`, `cage_sizes` (histogram `size:count;...`), `nodes`,
//! `guesses` (solver work of the final count-to-two check), `solver_calls`, `repairs` (layout
//! repairs of a zero-given killer), `gen_micros` (generation time of this puzzle on one thread),
//! `level` (the human-style grader's: `easy`, `medium`, `hard`, `expert`, `extreme`, or `unrated`),
//! `score`, `hardest`, `techniques`, `trial` (revision 3, see `schema::ADD_GRADE`), `minutes`
//! (revision 7, see `schema::ADD_MINUTES`), `canonical_key` (UNIQUE, 16 bytes:
//! the FNV-1a-128 fingerprint of `canonical::canonical_key`, the puzzle's least form under the 8
//! symmetries of the square and the digit complement; the full form runs to 400 characters for
//! a 9x9 killer, and storing it twice, in the row and its index, would double the file).
//! UNIQUE (run, idx).
//!
//! `chunks` — the progress record, written in the same transaction as the chunk's puzzles:
//! `run`, `first_pos`, `end_pos` (positions in the shard's sequence, end exclusive; position `p` of
//! shard `I/N` is work item `p * N + I`), `stored`, `duplicates`, `rejected`, `wall_micros`.
//!
//! `issued` (revision 2) — the puzzles given out by the feed or a book, at most once each and once
//! per canonical form: `puzzle` (key), `canonical_key` (UNIQUE), `source` (`feed`/`book`), `channel`,
//! `date` (feed days), `slot`, `position`, `number`, `issued_at`. See `schema::CREATE_ISSUED`.
//!
//! `withdrawn` (revision 5) — feed days taken back by `feed --withdraw`: `puzzle` (key, → issued),
//! `channel`, `date`, `withdrawn_at`; the puzzles stay in `issued` with a NULL `date`. See
//! `schema::ADD_WITHDRAWN`.
//!
//! View `puzzle_origin` (id, seed, idx, settings_hash, generator_version, shard_index, shard_count).
//!
//! Views `readable_puzzles` and `readable_issued` (revision 6), for `sqlite3` and BI tools: grids as
//! text rows, cages as JSON with `r1c1` cell names, no binary key. See `schema::ADD_READABLE_VIEWS`.
//!
//! The file runs in WAL mode with `synchronous = NORMAL`: a killed process loses only the
//! transaction in flight (a chunk that is redone on resume), never a committed chunk.

pub mod codec;
mod error;
mod grade;
mod issued;
mod merge;
mod merge_issued;
mod open;
mod read;
mod schema;
mod select;
mod verify;
mod write;

pub use error::StoreError;
pub use grade::{GradeRow, RegradeProgress};
pub use issued::{Issued, IssuedDay, Withdrawal};
pub use merge::{merge, MergeReport};
pub use read::{StoredGrade, StoredPuzzle, Summary, VariantCount};
pub use schema::{APPLICATION_ID, SCHEMA_VERSION};
pub use select::{known_levels, Query, ISSUES_TABLE, MIN_SIZE, UNRATED};
pub use verify::{solution_problem, CheckedRow};
pub use write::{Chunk, ChunkTally, Committed, NewRun, PuzzleRow, RowMetrics, RunState};

use error::classify;
use rusqlite::Connection;
use std::path::{Path, PathBuf};

/// An open sudoku-press database.
pub struct Store {
    conn: Connection,
    path: PathBuf,
}

impl Store {
    /// Close the database, folding the write-ahead log into the file so that the file alone
    /// holds everything.
    pub fn close(self) -> Result<(), StoreError> {
        self.conn
            .execute_batch("PRAGMA wal_checkpoint(TRUNCATE);")
            .map_err(|e| self.err(e))?;
        let path = self.path;
        self.conn.close().map_err(|(_, e)| classify(&path, e))
    }

    /// Hold one read transaction from now on, so that everything read through this store comes
    /// from one snapshot of the file (a writer may go on meanwhile; `merge` reads its inputs so).
    pub fn into_snapshot(self) -> Result<Store, StoreError> {
        self.conn
            .execute_batch("BEGIN; SELECT count(*) FROM sqlite_master;")
            .map_err(|e| self.err(e))?;
        Ok(self)
    }

    /// The database file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// `PRAGMA integrity_check`: `Ok(())` or the problems SQLite lists.
    pub fn check_integrity(&self) -> Result<Result<(), String>, StoreError> {
        let report: String = self
            .conn
            .query_row("PRAGMA integrity_check", [], |r| r.get(0))
            .map_err(|e| self.err(e))?;
        Ok(if report == "ok" { Ok(()) } else { Err(report) })
    }

    /// The schema revision of the open file.
    pub(super) fn schema_version(&self) -> Result<i32, StoreError> {
        self.conn
            .query_row("PRAGMA user_version", [], |r| r.get(0))
            .map_err(|e| self.err(e))
    }

    /// Map a SQLite error on this file to a `StoreError`.
    fn err(&self, e: rusqlite::Error) -> StoreError {
        classify(&self.path, e)
    }

    /// Run `f` in one write transaction: `BEGIN IMMEDIATE` .. `COMMIT`, or `ROLLBACK` when `f`
    /// fails; inside a transaction already open (under [`Store::with_write_lock`]), a savepoint
    /// released or rolled back the same way, so that `f` is all or none either way.
    fn transaction<T, E: From<StoreError>>(
        &self,
        f: impl FnOnce(&Store) -> Result<T, E>,
    ) -> Result<T, E> {
        let (begin, commit, rollback) = match self.conn.is_autocommit() {
            true => ("BEGIN IMMEDIATE", "COMMIT", "ROLLBACK"),
            false => (
                "SAVEPOINT nested",
                "RELEASE nested",
                "ROLLBACK TO nested; RELEASE nested",
            ),
        };
        self.conn.execute_batch(begin).map_err(|e| self.err(e))?;
        let result = f(self);
        let end = if result.is_ok() { commit } else { rollback };
        let ended = self.conn.execute_batch(end).map_err(|e| self.err(e));
        let value = result?;
        ended?;
        Ok(value)
    }
}

#[cfg(test)]
mod tests;
