//! `export --format fpuzzles|sudokupad|fpuzzles-url|sudokuwiki|sudocue|ipuz` through the binary:
//! one line a puzzle, each reading back to the stored puzzle.

use crate::common::run_in;
use std::path::Path;
use sudoku_press::format::{fpuzzles, ipuz, jsonl, sudocue, sudokuwiki};

fn lines(dir: &Path, db: &str, format: &str) -> Vec<String> {
    let out = run_in(dir, &["export", "--db", db, "--format", format]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{format}: {stderr}");
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(String::from)
        .collect()
}

#[test]
fn every_link_format_reads_back_to_the_stored_puzzles() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    for (db, variant, size) in [("k9.db", "killer", "9"), ("k6.db", "killer", "6")] {
        let args = [
            "generate",
            "--variant",
            variant,
            "--size",
            size,
            "--count",
            "3",
        ];
        let out = run_in(d, &[&args[..], &["--seed", "7", "--db", db]].concat());
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    for db in ["k9.db", "k6.db"] {
        let stored: Vec<_> = lines(d, db, "jsonl")
            .iter()
            .map(|l| jsonl::parse_line(l, 1).unwrap())
            .collect();
        // Cages in one order: sudokuwiki stores a cage per cell, so reads them back by first
        // cell, while a steered layout keeps its merged cages last.
        let sorted = |p: &sudoku_press::Puzzle| {
            let mut cages = p.cages().to_vec();
            cages.sort();
            (p.geometry().clone(), p.givens().clone(), cages)
        };
        let puzzles: Vec<_> = stored.iter().map(|j| sorted(&j.puzzle)).collect();
        let check = |format: &str, read: &dyn Fn(&str) -> sudoku_press::Puzzle| {
            let got: Vec<_> = lines(d, db, format)
                .iter()
                .map(|l| sorted(&read(l)))
                .collect();
            assert_eq!(got, puzzles, "{db} {format}");
        };
        check("fpuzzles", &|l| fpuzzles::parse(l).unwrap().0);
        check("sudokupad", &|l| {
            assert!(l.starts_with("https://sudokupad.app/fpuzzles"));
            fpuzzles::parse(l).unwrap().0
        });
        check("fpuzzles-url", &|l| {
            assert!(l.starts_with("https://f-puzzles.com/?load="));
            fpuzzles::parse(l).unwrap().0
        });
        check("sudokuwiki", &|l| sudokuwiki::parse(l).unwrap());
        check("ipuz", &|l| ipuz::parse(l).unwrap().0);
        if db == "k9.db" {
            check("sudocue", &|l| sudocue::parse_line(l, 1).unwrap());
        }
    }
    // A format that cannot hold a puzzle: one line naming the puzzle, exit 2, no panic.
    let out = run_in(d, &["export", "--db", "k6.db", "--format", "sudocue"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("puzzle id 1: the sudocue format cannot hold"),
        "{stderr}"
    );
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
}
