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
