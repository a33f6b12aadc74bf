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
mod grade;
mod issued;
mod merge;
mod merge_issued;
mod read;
mod schema;
mod select;
mod verify;
mod write;

pub use grade::{GradeRow, RegradeProgress};
pub use issued::{DayIssue, IssueRequest, Issued, IssuedDay, Withdrawal};
pub use merge::{merge, MergeReport};
pub use read::{StoredGrade, StoredPuzzle, Summary, VariantCount};
pub use schema::{APPLICATION_ID, SCHEMA_VERSION};
pub use select::{known_levels, Query, ISSUES_TABLE, MIN_SIZE, UNRATED};
pub use verify::{solution_problem, CheckedRow};
pub use write::{Chunk, ChunkTally, Committed, NewRun, PuzzleRow, RowMetrics, RunState};

use rusqlite::{ffi::ErrorCode, Connection, OpenFlags};
use std::path::{Path, PathBuf};
use thiserror::Error;

/// Why a database cannot be opened, read or written.
#[derive(Debug, Error)]
pub enum StoreError {
    /// The file exists but is not a sudoku-press database.
    #[error("{path}: not a sudoku-press database ({reason}); it was left unchanged, choose another path")]
    Foreign {
        /// The file.
        path: PathBuf,
        /// What was found instead.
        reason: String,
    },
    /// A sudoku-press database of another schema revision.
    #[error("{path}: schema revision {found}, this build reads revision {supported}; use a matching sudoku-press")]
    SchemaVersion {
        /// The file.
        path: PathBuf,
        /// Revision in the file.
        found: i32,
        /// Revision this build supports.
        supported: i32,
    },
    /// A database to read that does not exist.
    #[error("{0}: no such database")]
    Missing(PathBuf),
    /// The path names a directory, not a database file.
    #[error("{0}: is a directory; give a database file path, e.g. {0}/puzzles.db")]
    Directory(PathBuf),
    /// The directory for a new database cannot be created.
    #[error("{path}: cannot create the directory")]
    CreateDir {
        /// The directory.
        path: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
    /// The file cannot be opened or created (permissions, missing directory, not a file).
    #[error("{path}: cannot open the database: {detail}; check the path and its permissions")]
    Open {
        /// The file.
        path: PathBuf,
        /// SQLite's explanation.
        detail: String,
    },
    /// The file or its directory is read-only.
    #[error(
        "{path}: read-only (the file or its directory cannot be written); nothing was changed"
    )]
    ReadOnly {
        /// The file.
        path: PathBuf,
    },
    /// The disk (or the database size limit) is full.
    #[error("{path}: disk full; the transaction in flight was rolled back and what was committed before is intact: free space and run the same command again")]
    DiskFull {
        /// The file.
        path: PathBuf,
    },
    /// The operating system failed a read or write (often a full disk: SQLite cannot map its
    /// shared-memory file when no byte is free).
    #[error("{path}: disk I/O error ({detail}); check the free space and the device, then run the same command again")]
    DiskIo {
        /// The file.
        path: PathBuf,
        /// SQLite's explanation.
        detail: String,
    },
    /// Another process held the write lock longer than the busy timeout.
    #[error("{path}: the database is locked: another process held its write lock for over {} s (a large merge, regrade or generate chunk?); nothing of this transaction was written: run the command again when that process is done", BUSY_TIMEOUT.as_secs())]
    Locked {
        /// The file.
        path: PathBuf,
    },
    /// The file is damaged.
    #[error(
        "{path}: the database is corrupt ({detail}); restore it from a copy or choose another path"
    )]
    Corrupt {
        /// The file.
        path: PathBuf,
        /// SQLite's explanation.
        detail: String,
    },
    /// A stored value that does not decode (a row written by something else).
    #[error("{path}: puzzle id {id}: column `{column}` holds an invalid value {value:?}")]
    BadRow {
        /// The file.
        path: PathBuf,
        /// The row.
        id: i64,
        /// The column.
        column: &'static str,
        /// The stored text.
        value: String,
    },
    /// Another process committed to the same run meanwhile.
    #[error("{path}: another process is writing the same run (expected to continue at position {expected}, the database is at {found}); run one writer per database")]
    Concurrent {
        /// The file.
        path: PathBuf,
        /// Where this process meant to continue.
        expected: u64,
        /// Where the database is.
        found: u64,
    },
    /// A selection filter with a value no puzzle can have (see [`Query::check`]).
    #[error("{field} {value:?} is unknown: use {known}")]
    UnknownFilter {
        /// `variant`, `size` or `level`.
        field: &'static str,
        /// The value given.
        value: String,
        /// The values there are.
        known: String,
    },
    /// Puzzle ids asked for that the database does not hold.
    #[error("{path}: no puzzle with id {ids}; `sudoku-press export --db {path} --format csv` lists the ids")]
    UnknownIds {
        /// The file.
        path: PathBuf,
        /// The unknown ids, comma separated.
        ids: String,
    },
    /// A puzzle id named twice in one selection.
    #[error("puzzle id {0} is named twice; name each puzzle once")]
    RepeatedId(i64),
    /// Shard databases that do not add up to whole runs.
    #[error("cannot merge: {0}")]
    Merge(String),
    /// Any other SQLite failure.
    #[error("{path}: database error")]
    Sqlite {
        /// The file.
        path: PathBuf,
        /// The error.
        source: rusqlite::Error,
    },
}

/// How long a writer waits for another process's transaction before giving up.
const BUSY_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(60);

/// An open sudoku-press database.
pub struct Store {
    conn: Connection,
    path: PathBuf,
}

impl Store {
    /// Open a database to write, creating the file (and its directory) when it does not exist.
    /// An existing file must be a sudoku-press database (or empty); anything else is left untouched.
    pub fn open_or_create(path: &Path) -> Result<Store, StoreError> {
        Self::open_or_create_reporting(path, &mut |_| {})
    }

    /// [`Store::open_or_create`], reporting the progress of grading rows graded by another
    /// grader version (done when the file is opened) to `on_regrade`.
    pub fn open_or_create_reporting(
        path: &Path,
        on_regrade: &mut dyn FnMut(RegradeProgress),
    ) -> Result<Store, StoreError> {
        if path.is_dir() {
            return Err(StoreError::Directory(path.to_path_buf()));
        }
        Self::open_writable(path, on_regrade).map_err(|e| match e {
            StoreError::Open { .. } if is_read_only(path) => StoreError::ReadOnly {
                path: path.to_path_buf(),
            },
            e => e,
        })
    }

    fn open_writable(
        path: &Path,
        on_regrade: &mut dyn FnMut(RegradeProgress),
    ) -> Result<Store, StoreError> {
        if path.as_os_str().to_string_lossy().ends_with('/') {
            return Err(StoreError::Directory(path.to_path_buf()));
        }
        let exists = path.exists();
        if !exists {
            if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
                std::fs::create_dir_all(dir).map_err(|source| StoreError::CreateDir {
                    path: dir.to_path_buf(),
                    source,
                })?;
            }
        }
        let flags = if exists {
            OpenFlags::SQLITE_OPEN_READ_WRITE
        } else {
            OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_CREATE
        };
        let store = Self::connect(path, flags)?;
        if store.recognize()? {
            store.upgrade()?;
            // Rows graded by another grader version (or an interrupted upgrade's) are graded
            // again; an up-to-date file costs one index lookup.
            store.grade_ungraded(on_regrade)?;
        } else {
            store.create_schema()?;
        }
        store.configure()?;
        Ok(store)
    }

    /// Close the database, folding the write-ahead log into the file so that the file alone
    /// holds everything.
    pub fn close(self) -> Result<(), StoreError> {
        self.conn
            .execute_batch("PRAGMA wal_checkpoint(TRUNCATE);")
            .map_err(|e| self.err(e))?;
        let path = self.path;
        self.conn.close().map_err(|(_, e)| classify(&path, e))
    }

    /// Open an existing database to read. On read-only media, where SQLite cannot make the
    /// shared-memory file WAL mode needs, a file without pending WAL content is read as immutable.
    pub fn open_read_only(path: &Path) -> Result<Store, StoreError> {
        if path.is_dir() {
            return Err(StoreError::Directory(path.to_path_buf()));
        }
        if !path.is_file() {
            return Err(StoreError::Missing(path.to_path_buf()));
        }
        let store = match Self::connect_recognized(path, OpenFlags::SQLITE_OPEN_READ_ONLY) {
            // SQLite reports a directory it cannot write as CANTOPEN or READONLY.
            Err(StoreError::Open { .. } | StoreError::ReadOnly { .. })
                if !has_pending_wal(path) =>
            {
                let flags = OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_URI;
                Self::connect_recognized(&immutable_uri(path), flags)?
            }
            other => other?,
        };
        Ok(Store {
            path: path.to_path_buf(),
            ..store
        })
    }

    fn connect(path: &Path, flags: OpenFlags) -> Result<Store, StoreError> {
        let conn = Connection::open_with_flags(path, flags).map_err(|e| classify(path, e))?;
        // Wait for another process's transaction (rather than fail) from the first statement on.
        conn.busy_timeout(BUSY_TIMEOUT)
            .map_err(|e| classify(path, e))?;
        Ok(Store {
            conn,
            path: path.to_path_buf(),
        })
    }

    fn connect_recognized(path: &Path, flags: OpenFlags) -> Result<Store, StoreError> {
        let store = Self::connect(path, flags)?;
        if !store.recognize()? {
            return Err(StoreError::Foreign {
                path: store.path.clone(),
                reason: "an empty SQLite file".into(),
            });
        }
        Ok(store)
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

    /// Is this ours (`true`), a new empty file to initialize (`false`), or foreign (error)?
    /// The header fields and the schema are read in one transaction: read statement by statement,
    /// another process creating the schema meanwhile made a new database look foreign.
    fn recognize(&self) -> Result<bool, StoreError> {
        if !self.conn.is_autocommit() {
            return self.recognize_snapshot();
        }
        self.conn.execute_batch("BEGIN").map_err(|e| self.err(e))?;
        let found = self.recognize_snapshot();
        let ended = self.conn.execute_batch("COMMIT").map_err(|e| self.err(e));
        let found = found?;
        ended.map(|()| found)
    }

    fn recognize_snapshot(&self) -> Result<bool, StoreError> {
        let id: i32 = self
            .conn
            .query_row("PRAGMA application_id", [], |r| r.get(0))
            .map_err(|e| self.err(e))?;
        let version: i32 = self
            .conn
            .query_row("PRAGMA user_version", [], |r| r.get(0))
            .map_err(|e| self.err(e))?;
        if id == APPLICATION_ID {
            if !(schema::OLDEST_READABLE..=SCHEMA_VERSION).contains(&version) {
                return Err(StoreError::SchemaVersion {
                    path: self.path.clone(),
                    found: version,
                    supported: SCHEMA_VERSION,
                });
            }
            return Ok(true);
        }
        let tables: i64 = self
            .conn
            .query_row("SELECT count(*) FROM sqlite_master", [], |r| r.get(0))
            .map_err(|e| self.err(e))?;
        if id == 0 && tables == 0 {
            return Ok(false);
        }
        Err(StoreError::Foreign {
            path: self.path.clone(),
            reason: format!(
                "a SQLite database with application_id {id:#x} and {tables} schema objects"
            ),
        })
    }

    fn configure(&self) -> Result<(), StoreError> {
        // WAL + NORMAL: a killed process keeps every committed chunk; one writer, readers allowed.
        // Leaving rollback mode needs the exclusive lock, and SQLite answers BUSY at once (no busy
        // handler) while another process that opened the new file holds its lock: retry until the
        // busy timeout, as a locked statement would wait.
        let started = std::time::Instant::now();
        loop {
            match self
                .conn
                .query_row("PRAGMA journal_mode = WAL", [], |r| r.get::<_, String>(0))
            {
                Ok(_) => break,
                Err(rusqlite::Error::SqliteFailure(f, _))
                    if f.code == ErrorCode::DatabaseBusy && started.elapsed() < BUSY_TIMEOUT =>
                {
                    std::thread::sleep(std::time::Duration::from_millis(5));
                }
                Err(e) => return Err(self.err(e)),
            }
        }
        self.conn
            .execute_batch("PRAGMA synchronous = NORMAL;")
            .map_err(|e| self.err(e))
    }

    /// Create the schema of an empty file. Two processes may both find the file empty: the write
    /// lock is taken first (`BEGIN IMMEDIATE`) and the file looked at again under it, so only one
    /// creates the tables and the other simply opens them.
    fn create_schema(&self) -> Result<(), StoreError> {
        self.conn
            .execute_batch("BEGIN IMMEDIATE")
            .map_err(|e| self.err(e))?;
        let created = match self.recognize() {
            Ok(true) => Ok(()),
            Ok(false) => self
                .conn
                .execute_batch(&format!(
                    "{} {} PRAGMA application_id = {APPLICATION_ID}; PRAGMA user_version = {SCHEMA_VERSION};",
                    schema::CREATE,
                    schema::UPGRADES.iter().map(|(_, sql)| *sql).collect::<String>()
                ))
                .map_err(|e| self.err(e)),
            Err(e) => Err(e),
        };
        let end = if created.is_ok() {
            "COMMIT"
        } else {
            "ROLLBACK"
        };
        let ended = self.conn.execute_batch(end).map_err(|e| self.err(e));
        created.and(ended)
    }

    /// Bring a file of an older schema revision up to this build's, one revision a transaction
    /// (`BEGIN IMMEDIATE`, so two processes opening the same old file upgrade it once).
    fn upgrade(&self) -> Result<(), StoreError> {
        let version: i32 = self
            .conn
            .query_row("PRAGMA user_version", [], |r| r.get(0))
            .map_err(|e| self.err(e))?;
        if version >= SCHEMA_VERSION {
            return Ok(());
        }
        for &(from, sql) in schema::UPGRADES {
            let tx = "BEGIN IMMEDIATE";
            self.conn.execute_batch(tx).map_err(|e| self.err(e))?;
            let version: i32 = self
                .conn
                .query_row("PRAGMA user_version", [], |r| r.get(0))
                .map_err(|e| self.err(e))?;
            let sql = match version == from {
                true => format!("{sql} PRAGMA user_version = {}; COMMIT;", from + 1),
                false => "COMMIT;".to_string(),
            };
            if let Err(e) = self.conn.execute_batch(&sql) {
                let _ = self.conn.execute_batch("ROLLBACK");
                return Err(self.err(e));
            }
        }
        Ok(())
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
}

/// Can neither the file nor its directory be written (read-only media, permissions)?
fn is_read_only(path: &Path) -> bool {
    let file_locked = path.exists() && std::fs::OpenOptions::new().append(true).open(path).is_err();
    let dir = path
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    // SQLite makes its -wal and -shm files beside the database. The probe is created
    // exclusively, so a symlink planted under its name is never followed (nor its target
    // truncated).
    let dir_locked = crate::atomic_file::check_dir_writable(dir).is_err();
    file_locked || dir_locked
}

/// Does a `-wal` file with content sit beside the database (committed pages not yet copied in)?
fn has_pending_wal(path: &Path) -> bool {
    let mut wal = path.as_os_str().to_owned();
    wal.push("-wal");
    std::fs::metadata(wal).is_ok_and(|m| m.len() > 0)
}

/// `file:PATH?immutable=1`, with the characters URIs reserve escaped.
fn immutable_uri(path: &Path) -> PathBuf {
    let mut uri = String::from("file:");
    for ch in path.to_string_lossy().chars() {
        match ch {
            '%' | '?' | '#' => uri.push_str(&format!("%{:02X}", ch as u32)),
            _ => uri.push(ch),
        }
    }
    uri.push_str("?immutable=1");
    PathBuf::from(uri)
}

/// Name the SQLite failures a user can act on.
fn classify(path: &Path, e: rusqlite::Error) -> StoreError {
    let path = path.to_path_buf();
    let code = match &e {
        rusqlite::Error::SqliteFailure(f, _) => Some(f.code),
        _ => None,
    };
    match code {
        Some(ErrorCode::NotADatabase) => StoreError::Foreign {
            path,
            reason: "not a SQLite file".into(),
        },
        Some(ErrorCode::DatabaseCorrupt) => StoreError::Corrupt {
            path,
            detail: e.to_string(),
        },
        Some(ErrorCode::ReadOnly) => StoreError::ReadOnly { path },
        Some(ErrorCode::DiskFull) => StoreError::DiskFull { path },
        Some(ErrorCode::DatabaseBusy | ErrorCode::DatabaseLocked) => StoreError::Locked { path },
        Some(ErrorCode::SystemIoFailure) => StoreError::DiskIo {
            path,
            detail: e.to_string(),
        },
        Some(ErrorCode::CannotOpen | ErrorCode::PermissionDenied) => StoreError::Open {
            path,
            detail: e.to_string(),
        },
        _ => StoreError::Sqlite { path, source: e },
    }
}

#[cfg(test)]
mod tests;
