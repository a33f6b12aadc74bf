//! Why a database cannot be opened, read or written: one error type for the store, and the
//! mapping of SQLite's failures to the cases a user can act on.

use rusqlite::ffi::ErrorCode;
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
    /// A file SQLite keeps beside the database (its write-ahead log, shared memory or rollback
    /// journal) is something else: a directory, a FIFO, a device.
    #[error("{sidecar}: {found}, where SQLite keeps the {role} of {path}; move it away (e.g. mv {sidecar} {sidecar}.old), then run the same command again; the database was not opened")]
    Sidecar {
        /// The database.
        path: PathBuf,
        /// The file beside it.
        sidecar: PathBuf,
        /// What the sidecar's name holds ("a directory", "not a regular file").
        found: &'static str,
        /// What SQLite keeps there ("write-ahead log").
        role: &'static str,
    },
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
pub(super) const BUSY_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(60);

/// Name the SQLite failures a user can act on.
pub(super) fn classify(path: &Path, e: rusqlite::Error) -> StoreError {
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
