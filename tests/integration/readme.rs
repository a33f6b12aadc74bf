//! The README's examples run in a fresh clone: every `sudoku-press solve`/`check` line of its
//! shell blocks reads only files shipped in the repository, and gives a non-error answer.

use crate::common::bin;
use std::path::Path;

/// The README's `sudoku-press solve|check` example lines (comments and redirections cut).
fn examples() -> Vec<Vec<String>> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
    let mut in_block = false;
    let mut found = Vec::new();
    for line in readme.lines() {
        if line.starts_with("```") {
            in_block = line.starts_with("```sh") && !in_block;
            continue;
        }
        let command = line.split(" #").next().unwrap().split(" >").next().unwrap();
        let words: Vec<String> = command.split_whitespace().map(String::from).collect();
        let runs_here = words.len() > 1
            && words[0] == "sudoku-press"
            && ["solve", "check"].contains(&words[1].as_str())
            && !line.contains('|');
        if in_block && runs_here {
            found.push(words[1..].to_vec());
        }
    }
    found
}

#[test]
fn readme_solve_and_check_examples_run_on_the_shipped_samples() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let all = examples();
    assert!(all.len() >= 6, "{all:?}");
    for args in all {
        assert!(
            !args.iter().any(|a| a.contains("shared")),
            "README example needs ../shared: {args:?}"
        );
        let out = bin().current_dir(root).args(&args).output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(0), "{args:?}: {err}");
        assert!(!out.stdout.is_empty(), "{args:?}");
    }
}
