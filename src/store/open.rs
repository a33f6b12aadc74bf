//! Opening a database: creating a new file's schema, recognizing an existing one (or refusing a
//! foreign file), upgrading an older revision, and reading files on read-only media.

use super::error::{classify, BUSY_TIMEOUT};
use super::schema::{self, APPLICATION_ID, SCHEMA_VERSION};
use super::{RegradeProgress, Store, StoreError};
use rusqlite::{ffi::ErrorCode, Connection, OpenFlags};
use std::path::{Path, PathBuf};

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
        check_sidecars(path)?;
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

    /// Open an existing database to read. On read-only media, where SQLite cannot make the
    /// shared-memory file WAL mode needs, a file without pending WAL content is read as immutable.
    pub fn open_read_only(path: &Path) -> Result<Store, StoreError> {
        if path.is_dir() {
            return Err(StoreError::Directory(path.to_path_buf()));
        }
        if !path.is_file() {
            return Err(StoreError::Missing(path.to_path_buf()));
        }
        check_sidecars(path)?;
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
        self.transaction(|store| match store.recognize()? {
            true => Ok(()),
            false => store
                .conn
                .execute_batch(&format!(
                    "{} {} PRAGMA application_id = {APPLICATION_ID}; PRAGMA user_version = {SCHEMA_VERSION};",
                    schema::CREATE,
                    schema::UPGRADES.iter().map(|(_, sql)| *sql).collect::<String>()
                ))
                .map_err(|e| store.err(e)),
        })
    }

    /// Bring a file of an older schema revision up to this build's, one revision a transaction
    /// (`BEGIN IMMEDIATE`, so two processes opening the same old file upgrade it once).
    fn upgrade(&self) -> Result<(), StoreError> {
        if self.schema_version()? >= SCHEMA_VERSION {
            return Ok(());
        }
        for &(from, sql) in schema::UPGRADES {
            // The revision is read again under the lock: another process may have upgraded.
            self.transaction(|store| match store.schema_version()? == from {
                true => store
                    .conn
                    .execute_batch(&format!("{sql} PRAGMA user_version = {};", from + 1))
                    .map_err(|e| store.err(e)),
                false => Ok(()),
            })?;
        }
        Ok(())
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

/// SQLite's files beside a database: suffix and what it keeps there.
const SIDECARS: [(&str, &str); 3] = [
    ("-wal", "write-ahead log"),
    ("-shm", "shared memory index"),
    ("-journal", "rollback journal"),
];

/// Refuse, before SQLite sees it, a database whose `-wal`, `-shm` or `-journal` name holds
/// something other than a regular file (SQLite would report a bare "disk I/O error"). A link is
/// judged by what it points to; an absent sidecar is fine (SQLite makes it).
fn check_sidecars(path: &Path) -> Result<(), StoreError> {
    for (suffix, role) in SIDECARS {
        let mut name = path.as_os_str().to_owned();
        name.push(suffix);
        let sidecar = PathBuf::from(name);
        let Ok(meta) = std::fs::metadata(&sidecar) else {
            continue;
        };
        let found = match () {
            _ if meta.is_dir() => "a directory",
            _ if !meta.is_file() => "not a regular file",
            _ => continue,
        };
        return Err(StoreError::Sidecar {
            path: path.to_path_buf(),
            sidecar,
            found,
            role,
        });
    }
    Ok(())
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
