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

/// `$SUDOKU_PRESS_DATA`, else `../shared/data` beside the project, or `None` (with a message)
/// when it is absent.
pub fn shared_data() -> Option<PathBuf> {
    let dir = std::env::var_os("SUDOKU_PRESS_DATA")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/data"));
    if dir.is_dir() {
        Some(dir)
    } else {
        eprintln!("skipping: ../shared/data is absent");
        None
    }
}
