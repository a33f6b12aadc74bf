//! The one atomic file writer of every output: a temporary file created exclusively beside the
//! target, renamed over it only when complete (so a reader sees the old file or the new one), and
//! never a file that is (by device and inode) a protected one, such as the database being read.
//! An error, an early drop or a signal leaves no partial file; temporaries of killed processes are
//! removed by the next writer into the same directory.
//!
//! A target the user named that is not a regular file (a FIFO, a device such as `/dev/null`,
//! `/dev/stdout` or a symlink to one) is written *through*, as every Unix tool does: opened for
//! writing, no temporary file, no rename. A symlink to a regular file keeps its link: the file it
//! points to is replaced.
//!
//! ```no_run
//! use std::io::Write;
//! use sudoku_press::atomic_file::AtomicFile;
//! # fn main() -> Result<(), sudoku_press::atomic_file::AtomicFileError> {
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

mod temporaries;

pub(crate) use temporaries::check_dir_writable;
pub use temporaries::remove_live_temporaries;
use temporaries::{lock_live, remove_stale_temporaries, remove_with_side_files, scan_once};

/// Why an output file cannot be written.
#[derive(Debug, Error)]
pub enum AtomicFileError {
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
    /// The temporary file could not be made, written, or renamed (the OS error is part of the
    /// message, not a separate source, so that it is printed once).
    #[error("{target}: cannot write the output ({action}): {cause}")]
    Io {
        /// The output path given.
        target: PathBuf,
        /// What failed.
        action: &'static str,
        /// The I/O error.
        cause: io::Error,
    },
}

/// Why [`AtomicFile::commit_recorded`] did not complete; in every case but `NotUndone` neither
/// the file nor the record is left.
#[derive(Debug, Error)]
pub enum RecordedCommitError<E> {
    /// The file could not be finished or placed (the record was not made, or was taken back).
    #[error("{0}")]
    File(AtomicFileError),
    /// The record refused or failed; the file was not placed.
    #[error("{0}")]
    Record(E),
    /// The file could not be placed and taking the record back failed too.
    #[error("{file}; and the record made for it could not be taken back: {undo}")]
    NotUndone {
        /// Why the file was not placed.
        file: AtomicFileError,
        /// Why the record stays.
        undo: E,
    },
}

/// Where the bytes go.
enum Mode {
    /// A temporary file, renamed onto `place` (the target, or the file a symlink target names).
    Temp { temp: PathBuf, place: PathBuf },
    /// Straight into the target (a FIFO, a device): nothing to rename.
    Through,
}

/// A file being written; see the module docs.
pub struct AtomicFile {
    target: PathBuf,
    mode: Mode,
    out: Option<BufWriter<File>>,
}

/// Distinguishes the temporary files of one process.
static SERIAL: AtomicU64 = AtomicU64::new(0);

/// Longest part of the target's name kept in a temporary name: with the dot, pid, serial,
/// `.tmp` and SQLite's `-journal`, the name stays under the 255 bytes most file systems allow.
const NAME_KEPT: usize = 190;

impl AtomicFile {
    /// Start writing `target`, a path the user named. Refused when `target` is a directory or the
    /// same file as any of `protected` (compared by device and inode, so hard links, symlinks and
    /// `./` spellings are all caught). A regular or new file gets a temporary file beside it,
    /// created exclusively and named `.<name>.<pid>-<serial>.tmp`, so two writers, or an input
    /// that happens to bear a temporary-looking name, are never touched; anything else that
    /// exists there (a FIFO, a device, a symlink to one) is written through.
    pub fn create(target: &Path, protected: &[&Path]) -> Result<AtomicFile, AtomicFileError> {
        check_target(target, protected)?;
        let link = std::fs::symlink_metadata(target).ok();
        let followed = std::fs::metadata(target).ok();
        match (link, followed) {
            (_, Some(f)) if !f.is_file() || is_descriptor_path(target) => Self::through(target),
            (Some(l), Some(_)) if l.file_type().is_symlink() => {
                // Keep the link: replace the file it names.
                let place = std::fs::canonicalize(target)
                    .map_err(|e| io_error(target, "follow the symlink", e))?;
                Self::with_temp(target, place)
            }
            _ => Self::with_temp(target, target.to_path_buf()),
        }
    }

    /// Write straight into `target`. Opened for appending: a device or FIFO does not care, and a
    /// shell's `>>` redirection reached through `/dev/stdout` keeps what it holds.
    fn through(target: &Path) -> Result<AtomicFile, AtomicFileError> {
        let file = OpenOptions::new()
            .append(true)
            .open(target)
            .map_err(|e| io_error(target, "open for writing", e))?;
        Ok(AtomicFile {
            target: target.to_path_buf(),
            mode: Mode::Through,
            out: Some(BufWriter::new(file)),
        })
    }

    /// Start writing `target`, a name the program chose inside a directory the user named (a
    /// feed's day files): whatever is at `target` (a file, a symlink, a FIFO) is replaced by the
    /// rename, never followed or written through, so a link planted in a shared directory
    /// cannot redirect the write.
    pub fn replace(target: &Path, protected: &[&Path]) -> Result<AtomicFile, AtomicFileError> {
        check_target(target, protected)?;
        Self::with_temp(target, target.to_path_buf())
    }

    fn with_temp(target: &Path, place: PathBuf) -> Result<AtomicFile, AtomicFileError> {
        let dir = parent_dir(&place);
        // Once per directory and process: `render` writes thousands of files into one.
        if scan_once(&dir) {
            remove_stale_temporaries(&dir);
        }
        let name = place
            .file_name()
            .map(|n| short_name(&n.to_string_lossy()))
            .unwrap_or_else(|| "output".into());
        loop {
            let serial = SERIAL.fetch_add(1, Ordering::Relaxed);
            let temp = dir.join(format!(".{name}.{}-{serial}.tmp", std::process::id()));
            // `create_new` is O_EXCL: it never follows a symlink planted under this name.
            match OpenOptions::new().write(true).create_new(true).open(&temp) {
                Ok(file) => {
                    lock_live().push(temp.clone());
                    return Ok(AtomicFile {
                        target: target.to_path_buf(),
                        mode: Mode::Temp { temp, place },
                        out: Some(BufWriter::new(file)),
                    });
                }
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists => continue,
                Err(e) => return Err(io_error(target, "create a temporary file beside it", e)),
            }
        }
    }

    /// The file the bytes go to before the commit (for writers that need a path, such as
    /// SQLite): the temporary file, or the target itself when it is written through.
    pub fn temp_path(&self) -> &Path {
        match &self.mode {
            Mode::Temp { temp, .. } => temp,
            Mode::Through => &self.target,
        }
    }

    /// Are the bytes going straight into the target (a FIFO, a device), so that an error can
    /// leave part of them written?
    pub fn writes_through(&self) -> bool {
        matches!(self.mode, Mode::Through)
    }

    /// The final path, as given.
    pub fn target(&self) -> &Path {
        &self.target
    }

    /// Wrap an I/O error of writing into this output's error.
    pub fn write_error(&self, source: io::Error) -> AtomicFileError {
        io_error(&self.target, "write", source)
    }

    /// Flush, sync, and rename over the target (replacing it if it exists).
    pub fn commit(mut self) -> Result<(), AtomicFileError> {
        self.finish()?;
        self.place()
    }

    /// Flush and sync the temporary file, then `record` (say, commit database rows that say the
    /// file exists), then rename it into place. A failure before the record leaves neither; a
    /// refused or failed record leaves no file; a rename that fails after the record runs
    /// `undo` so that the record goes too. `ctx` is what both closures work on (the database).
    /// A target written through has its bytes out before the record is made.
    pub fn commit_recorded<C, E>(
        mut self,
        ctx: &mut C,
        record: impl FnOnce(&mut C) -> Result<(), E>,
        undo: impl FnOnce(&mut C) -> Result<(), E>,
    ) -> Result<(), RecordedCommitError<E>> {
        self.finish().map_err(RecordedCommitError::File)?;
        record(ctx).map_err(RecordedCommitError::Record)?;
        match self.place() {
            Ok(()) => Ok(()),
            Err(file) => match undo(ctx) {
                Ok(()) => Err(RecordedCommitError::File(file)),
                Err(undo) => Err(RecordedCommitError::NotUndone { file, undo }),
            },
        }
    }

    /// Flush, sync, and move to the target only if no file exists there; otherwise
    /// `AtomicFileError::Exists`, with the temporary file removed.
    pub fn commit_new(mut self) -> Result<(), AtomicFileError> {
        self.finish()?;
        let Mode::Temp { temp, place } = &self.mode else {
            return Err(AtomicFileError::Exists(self.target.clone()));
        };
        // A hard link fails if the name is taken: an atomic "rename unless it exists".
        match std::fs::hard_link(temp, place) {
            Ok(()) => {
                let _ = std::fs::remove_file(temp);
                self.forget_temp();
                Ok(())
            }
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists || place.exists() => {
                Err(AtomicFileError::Exists(self.target.clone()))
            }
            // A file system without hard links: check, then rename (not atomic, but rare).
            Err(_) => {
                std::fs::rename(temp, place).map_err(|e| self.io("move into place", e))?;
                self.forget_temp();
                Ok(())
            }
        }
    }

    /// Rename the finished temporary file into place (nothing to do for a written-through one).
    fn place(&mut self) -> Result<(), AtomicFileError> {
        if let Mode::Temp { temp, place } = &self.mode {
            std::fs::rename(temp, place).map_err(|e| self.io("rename into place", e))?;
            self.forget_temp();
        }
        Ok(())
    }

    fn finish(&mut self) -> Result<(), AtomicFileError> {
        let Some(out) = self.out.as_mut() else {
            return Ok(());
        };
        let target = &self.target;
        out.flush().map_err(|e| io_error(target, "write", e))?;
        if let Mode::Temp { place, .. } = &self.mode {
            let file = out.get_ref();
            file.sync_all().map_err(|e| io_error(target, "sync", e))?;
            // Keep an existing target's permissions.
            if let Ok(meta) = std::fs::metadata(place) {
                let _ = file.set_permissions(meta.permissions());
            }
        }
        Ok(())
    }

    /// The temporary file is in place: nothing is left to remove.
    fn forget_temp(&mut self) {
        if let Mode::Temp { temp, .. } = &self.mode {
            lock_live().retain(|p| p != temp);
        }
        self.out = None;
        self.mode = Mode::Through;
    }

    fn io(&self, action: &'static str, source: io::Error) -> AtomicFileError {
        io_error(&self.target, action, source)
    }
}

/// Write `bytes` whole to `target` (a name the program chose; see [`AtomicFile::replace`]) and
/// return the path, for callers that list what they wrote.
pub fn replace_file(
    target: &Path,
    bytes: &[u8],
    protected: &[&Path],
) -> Result<PathBuf, AtomicFileError> {
    let mut file = AtomicFile::replace(target, protected)?;
    file.write_all(bytes).map_err(|e| file.write_error(e))?;
    file.commit()?;
    Ok(target.to_path_buf())
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
        if let Mode::Temp { temp, .. } = &self.mode {
            remove_with_side_files(temp);
            lock_live().retain(|p| p != temp);
        }
    }
}

/// The target's name, cut (at a character boundary) to `NAME_KEPT` bytes.
fn short_name(name: &str) -> String {
    let mut end = name.len().min(NAME_KEPT);
    while !name.is_char_boundary(end) {
        end -= 1;
    }
    name[..end].to_string()
}

fn io_error(target: &Path, action: &'static str, cause: io::Error) -> AtomicFileError {
    AtomicFileError::Io {
        target: target.to_path_buf(),
        action,
        cause,
    }
}

/// `/dev/stdout`, `/dev/stderr`, `/dev/fd/N`, `/proc/...`: names of an open descriptor, which a
/// rename would replace instead of writing to.
fn is_descriptor_path(target: &Path) -> bool {
    target == Path::new("/dev/stdout")
        || target == Path::new("/dev/stderr")
        || target.starts_with("/dev/fd")
        || target.starts_with("/proc")
}

/// Refuse a directory, or a target that is one of `protected`.
fn check_target(target: &Path, protected: &[&Path]) -> Result<(), AtomicFileError> {
    if target.is_dir() || target.as_os_str().to_string_lossy().ends_with('/') {
        return Err(AtomicFileError::Directory(target.to_path_buf()));
    }
    check_not_protected(target, protected)
}

/// The directory a path's file is in (`.` for a bare name).
fn parent_dir(path: &Path) -> PathBuf {
    match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

/// Refuse `target` when it is one of `protected` (or, for a database, its `-wal`/`-shm` files).
pub fn check_not_protected(target: &Path, protected: &[&Path]) -> Result<(), AtomicFileError> {
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
                return Err(AtomicFileError::Protected {
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
mod tests;
