//! Shared helpers for the integration tests.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The built `sudoku-press` binary.
pub fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_sudoku-press"))
}

/// Run the binary with these arguments (no stdin) and capture its output.
pub fn run(args: &[&str]) -> Output {
    bin()
        .args(args)
        .output()
        .expect("failed to start sudoku-press")
}

/// Run the binary in `dir` with these arguments (no stdin) and capture its output.
pub fn run_in(dir: &Path, args: &[&str]) -> Output {
    bin()
        .current_dir(dir)
        .args(args)
        .output()
        .expect("failed to start sudoku-press")
}

/// Run in `dir` and require success; returns stderr.
pub fn ok(dir: &Path, args: &[&str]) -> String {
    let out = run_in(dir, args);
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(out.status.success(), "{args:?} failed: {stderr}");
    stderr
}

/// Run in `dir` and require the usage/input error exit code 2 without a panic; returns stderr.
pub fn fails(dir: &Path, args: &[&str]) -> String {
    let out = run_in(dir, args);
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(
        out.status.code(),
        Some(2),
        "{args:?} should fail with 2: {stderr}"
    );
    assert!(!stderr.contains("panicked"), "{stderr}");
    stderr
}

/// `stderr` after checking that it is one line (a refusal says what and how in one line).
pub fn one_line(stderr: String) -> String {
    assert_eq!(stderr.trim().lines().count(), 1, "one line: {stderr}");
    stderr
}

/// `generate --variant V --size N --count C [--seed S]`.
pub fn gen<'a>(
    variant: &'a str,
    size: &'a str,
    count: &'a str,
    seed: Option<&'a str>,
) -> Vec<&'a str> {
    let mut args = vec![
        "generate",
        "--variant",
        variant,
        "--size",
        size,
        "--count",
        count,
    ];
    if let Some(seed) = seed {
        args.extend(["--seed", seed]);
    }
    args
}

/// A database `p.db` in a new temp directory, made by one `generate --seed 7` run per
/// `(variant, size, count, level)`: the shared database of a test file, made once.
pub fn seven_db(runs: &[(&str, &str, &str, Option<&str>)]) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    for &(variant, size, count, level) in runs {
        let mut args = gen(variant, size, count, Some("7"));
        args.extend(["--db", "p.db"]);
        if let Some(level) = level {
            args.extend(["--level", level]);
        }
        ok(dir.path(), &args);
    }
    let path = dir.path().join("p.db");
    (dir, path)
}

/// `$SUDOKU_PRESS_DATA`, else `../shared/data` beside the project, or `None` (after printing
/// "skipping: <path> absent") when it is absent. Tests that need it are also marked
/// `#[cfg_attr(not(shared_data), ignore = ...)]` (see `build.rs`), so cargo shows them ignored.
pub fn shared_data() -> Option<PathBuf> {
    let dir = std::env::var_os("SUDOKU_PRESS_DATA")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/data"));
    if dir.is_dir() {
        Some(dir)
    } else {
        eprintln!("skipping: {} absent", dir.display());
        None
    }
}

/// The file `relative` of the shared data, or `None` (after printing "skipping: <path> absent")
/// when the data or just that file is absent: a partly filled data folder says what it skipped.
pub fn shared_file(relative: &str) -> Option<PathBuf> {
    let path = shared_data()?.join(relative);
    if path.is_file() {
        Some(path)
    } else {
        eprintln!("skipping: {} absent", path.display());
        None
    }
}
