//! Output files written safely: a temporary file created exclusively beside the target, renamed
//! over it only when complete, and never a file that is (by device and inode) a protected one,
//! such as the database being read. An error or an early drop leaves no partial file.
//!
//! ```no_run
//! use std::io::Write;
//! use sudoku_press::output::AtomicFile;
//! # fn main() -> Result<(), sudoku_press::output::OutputError> {
//! let db = std::path::Path::new("output/puzzles.db");
//! let mut out = AtomicFile::create("puzzles.csv".as_ref(), &[db])?;
//! writeln!(out, "id,variant").map_err(|e| out.write_error(e))?;
//! out.commit()?; // renamed into place; dropping `out` instead removes the temporary file
//! # Ok(()) }
//! ```

use std::fs::{File, OpenOptions};
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use thiserror::Error;

/// Why an output file cannot be written.
#[derive(Debug, Error)]
pub enum OutputError {
    /// The target is (by device and inode) a file that must not be overwritten.
    #[error("{target}: is the same file as {protected} (the same device and inode); choose another output path")]
    Protected {
        /// The output path given.
        target: PathBuf,
        /// The protected path it is.
        protected: PathBuf,
    },
    /// The target names a directory.
    #[error("{0}: is a directory; give a file path")]
    Directory(PathBuf),
    /// The target exists and the caller asked for a new file only.
    #[error("{0}: exists (written meanwhile by another process?); choose another output path")]
    Exists(PathBuf),
    /// The temporary file could not be made, written, or renamed.
    #[error("{target}: cannot write the output ({action}): {source}")]
    Io {
        /// The output path given.
        target: PathBuf,
        /// What failed.
        action: &'static str,
        /// The I/O error.
        source: io::Error,
    },
}

/// A file being written under a temporary name in the target's directory; see the module docs.
pub struct AtomicFile {
    target: PathBuf,
    temp: PathBuf,
    out: Option<BufWriter<File>>,
}

/// Distinguishes the temporary files of one process.
static SERIAL: AtomicU64 = AtomicU64::new(0);

impl AtomicFile {
    /// Start writing `target`. Refused when `target` is a directory or the same file as any of
    /// `protected` (compared by device and inode, so hard links, symlinks and `./` spellings are
    /// all caught). The temporary file is new (created exclusively) and named
    /// `.<name>.<pid>-<serial>.tmp`, so two writers, or an input that happens to bear a
    /// temporary-looking name, are never touched.
    pub fn create(target: &Path, protected: &[&Path]) -> Result<AtomicFile, OutputError> {
        if target.is_dir() || target.as_os_str().to_string_lossy().ends_with('/') {
            return Err(OutputError::Directory(target.to_path_buf()));
        }
        check_not_protected(target, protected)?;
        let io_err = |action, source| OutputError::Io {
            target: target.to_path_buf(),
            action,
            source,
        };
        let dir = parent_dir(target);
        let name = target
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| "output".into());
        loop {
            let serial = SERIAL.fetch_add(1, Ordering::Relaxed);
            let temp = dir.join(format!(".{name}.{}-{serial}.tmp", std::process::id()));
            match OpenOptions::new().write(true).create_new(true).open(&temp) {
                Ok(file) => {
                    return Ok(AtomicFile {
                        target: target.to_path_buf(),
                        temp,
                        out: Some(BufWriter::new(file)),
                    })
                }
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists => continue,
                Err(e) => return Err(io_err("create a temporary file beside it", e)),
            }
        }
    }

    /// The temporary file (for writers that need a path, such as SQLite).
    pub fn temp_path(&self) -> &Path {
        &self.temp
    }

    /// The final path.
    pub fn target(&self) -> &Path {
        &self.target
    }

    /// Wrap an I/O error of writing into this output's error.
    pub fn write_error(&self, source: io::Error) -> OutputError {
        OutputError::Io {
            target: self.target.clone(),
            action: "write",
            source,
        }
    }

    /// Flush, sync, and rename over the target (replacing it if it exists).
    pub fn commit(mut self) -> Result<(), OutputError> {
        self.finish()?;
        std::fs::rename(&self.temp, &self.target).map_err(|e| self.io("rename into place", e))?;
        self.out = None;
        Ok(())
    }

    /// Flush, sync, and move to the target only if no file exists there; otherwise
    /// `OutputError::Exists`, with the temporary file removed.
    pub fn commit_new(mut self) -> Result<(), OutputError> {
        self.finish()?;
        // A hard link fails if the name is taken: an atomic "rename unless it exists".
        match std::fs::hard_link(&self.temp, &self.target) {
            Ok(()) => {
                let _ = std::fs::remove_file(&self.temp);
                self.out = None;
                Ok(())
            }
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists || self.target.exists() => {
                Err(OutputError::Exists(self.target.clone()))
            }
            // A file system without hard links: check, then rename (not atomic, but rare).
            Err(_) => {
                std::fs::rename(&self.temp, &self.target)
                    .map_err(|e| self.io("move into place", e))?;
                self.out = None;
                Ok(())
            }
        }
    }

    fn finish(&mut self) -> Result<(), OutputError> {
        let target = self.target.clone();
        let io = |action, source| OutputError::Io {
            target: target.clone(),
            action,
            source,
        };
        let Some(out) = self.out.as_mut() else {
            return Ok(());
        };
        out.flush().map_err(|e| io("write", e))?;
        let file = out.get_ref();
        file.sync_all().map_err(|e| io("sync", e))?;
        // Keep an existing target's permissions.
        if let Ok(meta) = std::fs::metadata(&target) {
            let _ = file.set_permissions(meta.permissions());
        }
        Ok(())
    }

    fn io(&self, action: &'static str, source: io::Error) -> OutputError {
        OutputError::Io {
            target: self.target.clone(),
            action,
            source,
        }
    }
}

impl Write for AtomicFile {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match self.out.as_mut() {
            Some(out) => out.write(buf),
            None => Err(io::Error::other("the output file is already committed")),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        match self.out.as_mut() {
            Some(out) => out.flush(),
            None => Ok(()),
        }
    }
}

impl Drop for AtomicFile {
    /// Not committed: remove the temporary file (and any SQLite side files made beside it).
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.temp);
        for suffix in ["-wal", "-shm", "-journal"] {
            let mut side = self.temp.as_os_str().to_owned();
            side.push(suffix);
            let _ = std::fs::remove_file(PathBuf::from(side));
        }
    }
}

/// The directory a path's file is in (`.` for a bare name).
fn parent_dir(path: &Path) -> PathBuf {
    match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

/// Refuse `target` when it is one of `protected` (or, for a database, its `-wal`/`-shm` files).
pub fn check_not_protected(target: &Path, protected: &[&Path]) -> Result<(), OutputError> {
    let Ok(meta) = std::fs::metadata(target) else {
        return Ok(()); // a new file cannot be an existing one
    };
    for &p in protected {
        let mut candidates = vec![p.to_path_buf()];
        for suffix in ["-wal", "-shm"] {
            let mut side = p.as_os_str().to_owned();
            side.push(suffix);
            candidates.push(PathBuf::from(side));
        }
        for c in candidates {
            if std::fs::metadata(&c).is_ok_and(|m| same_file(&meta, &m)) {
                return Err(OutputError::Protected {
                    target: target.to_path_buf(),
                    protected: c,
                });
            }
        }
    }
    Ok(())
}

/// Do two metadata describe the same file?
pub fn same_file(a: &std::fs::Metadata, b: &std::fs::Metadata) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        a.dev() == b.dev() && a.ino() == b.ino()
    }
    #[cfg(not(unix))]
    {
        // Without inode numbers: the same length and modification time is the best guess.
        a.len() == b.len() && a.modified().ok() == b.modified().ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp_files(dir: &Path) -> Vec<String> {
        std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|n| n.ends_with(".tmp"))
            .collect()
    }

    #[test]
    fn commit_replaces_and_drop_leaves_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("out.csv");
        std::fs::write(&target, "old").unwrap();
        let mut out = AtomicFile::create(&target, &[]).unwrap();
        out.write_all(b"half").unwrap();
        drop(out);
        assert_eq!(std::fs::read_to_string(&target).unwrap(), "old");
        assert!(temp_files(dir.path()).is_empty());
        let mut out = AtomicFile::create(&target, &[]).unwrap();
        out.write_all(b"new").unwrap();
        out.commit().unwrap();
        assert_eq!(std::fs::read_to_string(&target).unwrap(), "new");
        assert!(temp_files(dir.path()).is_empty());
    }

    #[test]
    fn two_writers_never_share_a_temporary_file_and_commit_new_refuses_the_second() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("all.db");
        let mut a = AtomicFile::create(&target, &[]).unwrap();
        let mut b = AtomicFile::create(&target, &[]).unwrap();
        assert_ne!(a.temp_path(), b.temp_path());
        a.write_all(b"a").unwrap();
        b.write_all(b"b").unwrap();
        a.commit_new().unwrap();
        assert!(matches!(b.commit_new(), Err(OutputError::Exists(_))));
        assert_eq!(std::fs::read_to_string(&target).unwrap(), "a");
        assert!(temp_files(dir.path()).is_empty());
    }

    #[test]
    fn a_hard_link_or_symlink_of_a_protected_file_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let db = dir.path().join("e.db");
        std::fs::write(&db, "database").unwrap();
        let hard = dir.path().join("hard.db");
        std::fs::hard_link(&db, &hard).unwrap();
        let err = AtomicFile::create(&hard, &[&db]).err().unwrap();
        assert!(matches!(err, OutputError::Protected { .. }), "{err}");
        #[cfg(unix)]
        {
            let soft = dir.path().join("soft.db");
            std::os::unix::fs::symlink(&db, &soft).unwrap();
            assert!(AtomicFile::create(&soft, &[&db]).is_err());
        }
        let dotted = dir.path().join(".").join("e.db");
        assert!(AtomicFile::create(&dotted, &[&db]).is_err());
        assert!(AtomicFile::create(&dir.path().join("other.csv"), &[&db]).is_ok());
        assert_eq!(std::fs::read_to_string(&db).unwrap(), "database");
    }

    #[test]
    fn a_directory_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        assert!(matches!(
            AtomicFile::create(dir.path(), &[]),
            Err(OutputError::Directory(_))
        ));
    }
}
