//! Unit tests of the atomic file writer: replacement, write-through, records, temporaries.

use super::temporaries::{remove_live_temporaries_in, temporary_owner};
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
    assert!(!out.writes_through());
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
    assert!(matches!(b.commit_new(), Err(AtomicFileError::Exists(_))));
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
    assert!(matches!(err, AtomicFileError::Protected { .. }), "{err}");
    #[cfg(unix)]
    {
        let soft = dir.path().join("soft.db");
        std::os::unix::fs::symlink(&db, &soft).unwrap();
        assert!(AtomicFile::create(&soft, &[&db]).is_err());
        assert!(AtomicFile::replace(&soft, &[&db]).is_err());
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
        Err(AtomicFileError::Directory(_))
    ));
}

/// N1: a FIFO is written through (its reader gets the bytes) and stays a FIFO.
#[cfg(unix)]
#[test]
fn a_fifo_is_written_through_not_replaced() {
    use std::os::unix::fs::FileTypeExt;
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("fifo");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap();
    assert!(made.success());
    let reader = {
        let fifo = fifo.clone();
        std::thread::spawn(move || std::fs::read(fifo).unwrap())
    };
    let mut out = AtomicFile::create(&fifo, &[]).unwrap();
    assert!(out.writes_through());
    out.write_all(b"through the pipe").unwrap();
    out.commit().unwrap();
    assert_eq!(reader.join().unwrap(), b"through the pipe");
    let meta = std::fs::symlink_metadata(&fifo).unwrap();
    assert!(meta.file_type().is_fifo());
    assert!(temp_files(dir.path()).is_empty());
}

/// N1: a symlink to a device is written through; a symlink to a regular file keeps its link and
/// the file it names is replaced.
#[cfg(unix)]
#[test]
fn symlinks_keep_their_link() {
    let dir = tempfile::tempdir().unwrap();
    let null = dir.path().join("lnull");
    std::os::unix::fs::symlink("/dev/null", &null).unwrap();
    let mut out = AtomicFile::create(&null, &[]).unwrap();
    out.write_all(b"gone").unwrap();
    out.commit().unwrap();
    assert!(std::fs::symlink_metadata(&null)
        .unwrap()
        .file_type()
        .is_symlink());
    assert!(!std::fs::metadata("/dev/null").unwrap().is_file());

    let real = dir.path().join("real.csv");
    std::fs::write(&real, "old").unwrap();
    let link = dir.path().join("link.csv");
    std::os::unix::fs::symlink(&real, &link).unwrap();
    let mut out = AtomicFile::create(&link, &[]).unwrap();
    out.write_all(b"new").unwrap();
    out.commit().unwrap();
    assert!(std::fs::symlink_metadata(&link)
        .unwrap()
        .file_type()
        .is_symlink());
    assert_eq!(std::fs::read_to_string(&real).unwrap(), "new");
    assert!(temp_files(dir.path()).is_empty());
}

/// A name the program chose never follows a planted link: the link is replaced.
#[cfg(unix)]
#[test]
fn replace_does_not_follow_a_planted_symlink() {
    let dir = tempfile::tempdir().unwrap();
    let victim = dir.path().join("victim");
    std::fs::write(&victim, "keep").unwrap();
    let planted = dir.path().join("2026-12-01.json");
    std::os::unix::fs::symlink(&victim, &planted).unwrap();
    replace_file(&planted, b"day", &[]).unwrap();
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "keep");
    assert_eq!(std::fs::read_to_string(&planted).unwrap(), "day");
    assert!(!std::fs::symlink_metadata(&planted)
        .unwrap()
        .file_type()
        .is_symlink());
}

/// N16: a target name near the 255-byte limit still gets a temporary name that fits.
#[test]
fn a_long_target_name_gets_a_short_temporary_name() {
    let dir = tempfile::tempdir().unwrap();
    let target = dir.path().join(format!("{}.csv", "n".repeat(245)));
    let mut out = AtomicFile::create(&target, &[]).unwrap();
    out.write_all(b"x").unwrap();
    out.commit().unwrap();
    assert_eq!(std::fs::read(&target).unwrap(), b"x");
}

#[test]
fn temporary_names_are_recognized_exactly() {
    assert_eq!(temporary_owner(".e.csv.123-0.tmp"), Some(123));
    assert_eq!(temporary_owner(".all.db.77-3.tmp-wal"), Some(77));
    assert_eq!(temporary_owner(".e.csv.123-0.tmp.bak"), None);
    assert_eq!(temporary_owner("e.csv.123-0.tmp"), None);
    assert_eq!(temporary_owner(".e.csv.12a-0.tmp"), None);
    assert_eq!(temporary_owner("..123-0.tmp"), None);
    assert_eq!(temporary_owner(".notes.tmp"), None);
}

/// N15: the temporaries of a dead process are removed by the next writer into the directory;
/// those of live processes, links and other names stay.
#[cfg(target_os = "linux")]
#[test]
fn stale_temporaries_of_dead_processes_are_removed() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let mut child = std::process::Command::new("true").spawn().unwrap();
    let dead = child.id();
    child.wait().unwrap();
    let stale = d.join(format!(".e.ipuz.{dead}-0.tmp"));
    let stale_side = d.join(format!(".all.db.{dead}-1.tmp-wal"));
    let live = d.join(".e.ipuz.1-0.tmp"); // pid 1 is always alive
    let other = d.join(format!(".e.ipuz.{dead}-0.tmp.keep"));
    let link = d.join(format!(".x.{dead}-2.tmp"));
    for f in [&stale, &stale_side, &live, &other] {
        std::fs::write(f, "x").unwrap();
    }
    std::os::unix::fs::symlink(&other, &link).unwrap();
    let mut out = AtomicFile::create(&d.join("e.ipuz"), &[]).unwrap();
    out.write_all(b"y").unwrap();
    out.commit().unwrap();
    assert!(!stale.exists() && !stale_side.exists());
    assert!(live.exists() && other.exists());
    assert!(std::fs::symlink_metadata(&link).is_ok());
}

/// N15: a signal handler removes the temporaries not yet committed.
#[test]
fn live_temporaries_are_removed_on_request() {
    let dir = tempfile::tempdir().unwrap();
    let mut out = AtomicFile::create(&dir.path().join("big.pdf"), &[]).unwrap();
    out.write_all(b"partial").unwrap();
    let temp = out.temp_path().to_path_buf();
    assert!(temp.exists());
    assert_eq!(remove_live_temporaries_in(Some(dir.path())), 1);
    assert!(!temp.exists());
    drop(out);
    assert!(temp_files(dir.path()).is_empty());
}

/// N4: the record is made after the file is complete and taken back when the rename fails.
#[test]
fn a_failed_rename_takes_the_record_back() {
    let dir = tempfile::tempdir().unwrap();
    let target = dir.path().join("book.pdf");
    let mut out = AtomicFile::create(&target, &[]).unwrap();
    out.write_all(b"%PDF").unwrap();
    // The target becomes a non-empty directory after the output was started: the rename fails.
    std::fs::create_dir(&target).unwrap();
    std::fs::write(target.join("inside"), "x").unwrap();
    let mut rows: Vec<&str> = Vec::new();
    let result = out.commit_recorded(
        &mut rows,
        |r| -> Result<(), String> {
            r.push("issued");
            Ok(())
        },
        |r| {
            r.clear();
            Ok(())
        },
    );
    assert!(matches!(result, Err(RecordedCommitError::File(_))));
    assert!(rows.is_empty());
    assert!(temp_files(dir.path()).is_empty());
}

#[test]
fn a_refused_record_leaves_no_file() {
    let dir = tempfile::tempdir().unwrap();
    let target = dir.path().join("book.pdf");
    let mut out = AtomicFile::create(&target, &[]).unwrap();
    out.write_all(b"%PDF").unwrap();
    let result = out.commit_recorded(&mut (), |_| Err("taken"), |_| Ok(()));
    assert!(matches!(result, Err(RecordedCommitError::Record("taken"))));
    assert!(!target.exists());
    assert!(temp_files(dir.path()).is_empty());
    let mut out = AtomicFile::create(&target, &[]).unwrap();
    out.write_all(b"%PDF").unwrap();
    out.commit_recorded(&mut (), |_| Ok::<(), ()>(()), |_| Ok(()))
        .unwrap();
    assert_eq!(std::fs::read(&target).unwrap(), b"%PDF");
}

/// N2: the writability probe never follows or truncates a planted symlink.
#[cfg(unix)]
#[test]
fn the_probe_never_truncates_through_a_symlink() {
    let dir = tempfile::tempdir().unwrap();
    let victim = dir.path().join("victim");
    std::fs::write(&victim, "data").unwrap();
    let pid = std::process::id();
    let next = SERIAL.load(Ordering::Relaxed);
    for serial in next..next + 64 {
        let name = format!(".sudoku-press-probe.{pid}-{serial}.tmp");
        std::os::unix::fs::symlink(&victim, dir.path().join(name)).unwrap();
    }
    check_dir_writable(dir.path()).unwrap();
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "data");
}
