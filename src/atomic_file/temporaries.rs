//! The temporary files of the atomic writer: those of this process (removed by a signal
//! handler), stale ones of dead processes (removed by the next writer into their directory),
//! and the writability probe.

use super::SERIAL;
use std::collections::BTreeSet;
use std::fs::OpenOptions;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::atomic::Ordering;
use std::sync::Mutex;

/// The temporary files of this process not yet committed or dropped, for a signal handler.
static LIVE: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

/// The directories this process has cleaned of stale temporary files.
static SCANNED: Mutex<BTreeSet<PathBuf>> = Mutex::new(BTreeSet::new());

/// SQLite's side files of a database written under a temporary name.
const SIDE_SUFFIXES: [&str; 3] = ["-wal", "-shm", "-journal"];

/// Is this the first time this process writes into `dir`?
pub(super) fn scan_once(dir: &Path) -> bool {
    lock(&SCANNED).insert(dir.to_path_buf())
}

/// Remove the temporary files of this process that are not committed yet: for a signal handler
/// about to end the process (Ctrl-C, SIGTERM). Returns how many were removed.
pub fn remove_live_temporaries() -> usize {
    remove_live_temporaries_in(None)
}

/// [`remove_live_temporaries`], limited to the directory `only` when given.
pub(super) fn remove_live_temporaries_in(only: Option<&Path>) -> usize {
    let mut live = lock_live();
    let (gone, kept): (Vec<PathBuf>, Vec<PathBuf>) = live
        .drain(..)
        .partition(|t| only.is_none_or(|dir| t.parent() == Some(dir)));
    *live = kept;
    drop(live);
    for temp in &gone {
        remove_with_side_files(temp);
    }
    gone.len()
}

pub(super) fn lock_live() -> std::sync::MutexGuard<'static, Vec<PathBuf>> {
    lock(&LIVE)
}

fn lock<T>(mutex: &'static Mutex<T>) -> std::sync::MutexGuard<'static, T> {
    // A panic while the list was held leaves a usable list.
    mutex
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

pub(super) fn remove_with_side_files(temp: &Path) {
    let _ = std::fs::remove_file(temp);
    for suffix in SIDE_SUFFIXES {
        let mut side = temp.as_os_str().to_owned();
        side.push(suffix);
        let _ = std::fs::remove_file(PathBuf::from(side));
    }
}

/// The process id of a temporary file name of ours, `.<name>.<pid>-<serial>.tmp` (or one of its
/// SQLite side files), or `None` for any other name.
pub(super) fn temporary_owner(file_name: &str) -> Option<u32> {
    let rest = file_name.strip_prefix('.')?;
    let stem = ["", "-wal", "-shm", "-journal"]
        .iter()
        .find_map(|side| rest.strip_suffix(&format!(".tmp{side}")))?;
    let (name, tag) = stem.rsplit_once('.')?;
    let (pid, serial) = tag.split_once('-')?;
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    if name.is_empty() || !digits(pid) || !digits(serial) {
        return None;
    }
    pid.parse().ok()
}

/// Is process `pid` running? `None` when this system cannot tell (no `/proc`).
fn is_alive(pid: u32) -> Option<bool> {
    let proc_fs = Path::new("/proc");
    if !proc_fs.join("self").exists() {
        return None;
    }
    Some(proc_fs.join(pid.to_string()).exists())
}

/// Is `meta` a regular file of this process's user? (`/proc` may hide other users' processes,
/// so only our own user's temporaries are judged by it.)
fn is_own_regular_file(meta: &std::fs::Metadata) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        let me = std::fs::metadata("/proc/self").map(|m| m.uid());
        meta.file_type().is_file() && me.is_ok_and(|uid| uid == meta.uid())
    }
    #[cfg(not(unix))]
    {
        meta.file_type().is_file()
    }
}

/// Remove, in `dir`, the regular files of this user named like our temporary files whose
/// process is gone (left by a kill -9 or a crash). Files of live processes, of this process, of
/// other users, other names, links and directories are left alone; so is everything where
/// liveness cannot be told.
pub(super) fn remove_stale_temporaries(dir: &Path) -> usize {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return 0;
    };
    let me = std::process::id();
    let mut removed = 0;
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(pid) = temporary_owner(&name.to_string_lossy()) else {
            continue;
        };
        if pid == me || is_alive(pid) != Some(false) {
            continue;
        }
        let path = entry.path();
        let ours = std::fs::symlink_metadata(&path).is_ok_and(|m| is_own_regular_file(&m));
        if ours && std::fs::remove_file(&path).is_ok() {
            removed += 1;
        }
    }
    removed
}

/// Check that `dir` takes new files, with a probe file created exclusively (never following a
/// symlink planted under its name, never truncating anything) and removed again.
pub(crate) fn check_dir_writable(dir: &Path) -> io::Result<()> {
    loop {
        let serial = SERIAL.fetch_add(1, Ordering::Relaxed);
        let probe = dir.join(format!(
            ".sudoku-press-probe.{}-{serial}.tmp",
            std::process::id()
        ));
        match OpenOptions::new().write(true).create_new(true).open(&probe) {
            Ok(_) => return std::fs::remove_file(&probe),
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(e),
        }
    }
}
