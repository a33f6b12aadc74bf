//! Issue 21 (N12, N14, N16): batches go on past an impossible puzzle and keep each input's
//! `id`; `verify` and `merge` catch hand-edited grades, variants, counts, issue records and
//! settings; ids printed as text cannot act on a terminal; one rule for the grid sizes made.

use crate::common::run_in;
use serde_json::Value;
use std::path::Path;

/// A 4x4 killer with one solution.
const GOOD: &str = r#""size": 4, "givens": [0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0], "cages": [{"sum": 1, "cells": [0]}, {"sum": 5, "cells": [1, 2]}, {"sum": 6, "cells": [3, 7]}, {"sum": 5, "cells": [4, 8]}, {"sum": 5, "cells": [5, 6]}, {"sum": 4, "cells": [9, 13]}, {"sum": 7, "cells": [10, 11]}, {"sum": 4, "cells": [12]}, {"sum": 3, "cells": [14, 15]}]"#;

/// Three killers, the second well-formed but impossible: two distinct digits cannot add up to 2.
fn mixed_jsonl() -> String {
    let bad = GOOD.replace(
        r#"{"sum": 5, "cells": [1, 2]}"#,
        r#"{"sum": 2, "cells": [1, 2]}"#,
    );
    assert_ne!(bad, GOOD);
    format!("{{\"id\": \"k1\", {GOOD}}}\n{{\"id\": \"k2\", {bad}}}\n{{\"id\": \"k3\", {GOOD}}}\n")
}

fn lines(stdout: &[u8]) -> Vec<Value> {
    String::from_utf8_lossy(stdout)
        .lines()
        .map(|l| serde_json::from_str(l).expect("one JSON object a line"))
        .collect()
}

fn setup(files: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for (name, text) in files {
        std::fs::write(dir.path().join(name), text).unwrap();
    }
    dir
}

#[test]
fn rate_answers_an_impossible_line_with_its_id_and_goes_on() {
    let dir = setup(&[("mixed.jsonl", &mixed_jsonl())]);
    let out = run_in(dir.path(), &["rate", "mixed.jsonl"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    let answers = lines(&out.stdout);
    assert_eq!(answers.len(), 3, "every line answered: {answers:?}");
    let ids: Vec<_> = answers.iter().map(|a| a["id"].clone()).collect();
    assert_eq!(ids, ["k1", "k2", "k3"]);
    assert!(answers[0]["level"].is_string() && answers[2]["level"].is_string());
    assert!(answers[1]["level"].is_null());
    let reason = answers[1]["reason"].as_str().unwrap();
    assert!(
        reason.starts_with("no solution") && reason.contains("cannot add up to 2"),
        "{reason}"
    );
    assert!(err.contains("line 2") && err.contains("1 of 3 puzzles has no unique solution"));
}

#[test]
fn rate_answers_an_impossible_plain_line_by_its_line_and_goes_on() {
    let plain = "1...............\n11..............\n12.4341.2.434.21\n";
    let dir = setup(&[("mixed.txt", plain)]);
    let out = run_in(dir.path(), &["rate", "mixed.txt"]);
    assert_eq!(out.status.code(), Some(1));
    let answers = lines(&out.stdout);
    assert_eq!(answers.len(), 3, "{answers:?}");
    assert_eq!(answers[1]["line"], 2);
    assert!(answers[1]["level"].is_null() && answers[1]["reason"].is_string());
    assert!(answers[2]["level"].is_string(), "{:?}", answers[2]);
}

#[test]
fn explain_goes_on_past_an_impossible_puzzle_in_text_and_json() {
    let dir = setup(&[("mixed.jsonl", &mixed_jsonl())]);
    let out = run_in(dir.path(), &["explain", "mixed.jsonl"]);
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("k2: not graded: no solution: "), "{text}");
    let k3 = text.find("\nk3: ").expect("the third puzzle explained");
    assert!(text[k3..].contains("   1. "), "{text}");
    let out = run_in(dir.path(), &["explain", "--format", "jsonl", "mixed.jsonl"]);
    assert_eq!(out.status.code(), Some(1));
    let heads: Vec<Value> = lines(&out.stdout)
        .into_iter()
        .filter(|l| l["type"] == "grade")
        .collect();
    let ids: Vec<_> = heads.iter().map(|h| h["id"].clone()).collect();
    assert_eq!(ids, ["k1", "k2", "k3"]);
    assert_eq!(heads[1]["puzzle"], 1);
    assert!(heads[1]["level"].is_null());
    assert!(heads[1]["reason"]
        .as_str()
        .unwrap()
        .starts_with("no solution: "));
}

#[test]
fn solve_keeps_the_input_keys_on_an_impossible_line() {
    let dir = setup(&[("mixed.jsonl", &mixed_jsonl())]);
    let out = run_in(dir.path(), &["solve", "mixed.jsonl"]);
    assert_eq!(out.status.code(), Some(1));
    let answers = lines(&out.stdout);
    assert_eq!(answers.len(), 3);
    assert_eq!(answers[1]["id"], "k2");
    assert_eq!(answers[1]["count"], 0);
    assert_eq!(
        answers[1]["cages"][1]["sum"], 2,
        "the input's keys are kept"
    );
    assert!(answers[1]["reason"]
        .as_str()
        .unwrap()
        .contains("add up to 2"));
    assert!(answers[2]["solution"].is_array());
}

#[test]
fn explain_text_shows_control_and_bidi_characters_in_ids_escaped() {
    let ids = [
        "\u{1b}[2J\u{1b}[31mred",
        "a\nb\rc\u{0}",
        "\u{202E}evil\u{2066}",
    ];
    let text: String = ids
        .iter()
        .map(|id| {
            format!(
                "{{\"id\": {}, {GOOD}}}\n",
                serde_json::to_string(id).unwrap()
            )
        })
        .collect();
    let dir = setup(&[("ids.jsonl", &text)]);
    let out = run_in(dir.path(), &["explain", "ids.jsonl"]);
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).unwrap();
    for bad in ['\u{1b}', '\r', '\0', '\u{202E}', '\u{2066}'] {
        assert!(!text.contains(bad), "{bad:?} reached the output");
    }
    assert!(text.contains("\\u{1b}[2J\\u{1b}[31mred: "), "{text}");
    assert!(text.contains("a\\u{a}b\\u{d}c\\u{0}: "), "{text}");
    assert!(text.contains("\\u{202e}evil\\u{2066}: "), "{text}");
}

#[test]
fn generate_refuses_sizes_without_real_boxes_and_says_what_is_accepted() {
    let dir = tempfile::tempdir().unwrap();
    for size in ["3", "5", "7", "17"] {
        let out = run_in(
            dir.path(),
            &["generate", "--size", size, "--count", "1", "--db", "s.db"],
        );
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "size {size}: {err}");
        assert!(
            err.contains("4 to 16") && err.contains("4, 6, 8, 9, 10, 12, 14, 15, 16"),
            "size {size}: {err}"
        );
    }
    std::fs::write(
        dir.path().join("rows.toml"),
        "[generator]\nsize = 4\nbox_rows = 1\nbox_cols = 4\n",
    )
    .unwrap();
    let out = run_in(
        dir.path(),
        &[
            "generate",
            "--config",
            "rows.toml",
            "--count",
            "1",
            "--db",
            "s.db",
        ],
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("boxes 1x4") && err.contains("2 or more rows"),
        "{err}"
    );
    let out = run_in(
        dir.path(),
        &[
            "generate",
            "--variant",
            "jigsaw",
            "--size",
            "5",
            "--count",
            "1",
            "--db",
            "j.db",
        ],
    );
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// A small database with one book issue of puzzles 1 and 2.
fn issued_db(dir: &Path) {
    let out = run_in(
        dir,
        &[
            "generate", "--size", "6", "--count", "6", "--seed", "5", "--db", "v.db",
        ],
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let conn = rusqlite::Connection::open(dir.join("v.db")).unwrap();
    conn.execute_batch(
        "INSERT INTO issued (puzzle, canonical_key, source, channel, date, slot, position, number)
         SELECT id, canonical_key, 'book', 'vol1', NULL, 'all', id - 1, id FROM puzzles
         WHERE id IN (1, 2)",
    )
    .unwrap();
}

fn verify(dir: &Path, db: &str) -> (i32, String) {
    let out = run_in(dir, &["verify", "--db", db]);
    (
        out.status.code().unwrap(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

#[test]
fn verify_and_merge_catch_hand_edited_grades_variants_counts_issues_and_settings() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    issued_db(d);
    let (code, report) = verify(d, "v.db");
    assert_eq!(code, 0, "a clean database passes: {report}");
    let edits: [(&str, &str); 12] = [
        (
            "UPDATE puzzles SET level = CASE level WHEN 'extreme' THEN 'easy' ELSE 'extreme' END WHERE id = 3",
            "column `level`",
        ),
        ("UPDATE puzzles SET level = 'ultra' WHERE id = 3", "column `level`"),
        ("UPDATE puzzles SET score = score + 0.5 WHERE id = 3", "column `score`"),
        ("UPDATE puzzles SET hardest = 'x_wing' WHERE id = 3", "column `hardest`"),
        (
            "UPDATE puzzles SET techniques = 'naked_single:999' WHERE id = 3",
            "column `techniques`",
        ),
        ("UPDATE puzzles SET trial = 1 - trial WHERE id = 3", "column `trial`"),
        ("UPDATE puzzles SET variant = 'classic' WHERE id = 3", "column `variant`"),
        ("UPDATE puzzles SET givens_count = givens_count + 1 WHERE id = 3", "column `givens_count`"),
        ("UPDATE puzzles SET cage_count = 1 WHERE id = 3", "column `cage_count`"),
        ("UPDATE puzzles SET cage_sizes = '2:1' WHERE id = 3", "column `cage_sizes`"),
        (
            "UPDATE issued SET canonical_key = (SELECT canonical_key FROM puzzles WHERE id = 4) WHERE puzzle = 2",
            "issued record of puzzle id 2",
        ),
        (
            "INSERT INTO issued (puzzle, canonical_key, source, channel, date, slot, position, number)
             VALUES (999, x'00', 'feed', 'daily', '2026-12-01', 'killer-6-easy', 0, 1)",
            "issued record of puzzle id 999",
        ),
    ];
    let settings = (
        "UPDATE runs SET settings = replace(settings, 'max_repairs = 40', 'max_repairs = 41')",
        "settings hash",
    );
    for (i, (sql, want)) in edits.iter().chain([&settings]).enumerate() {
        let name = format!("e{i}.db");
        std::fs::copy(d.join("v.db"), d.join(&name)).unwrap();
        let conn = rusqlite::Connection::open(d.join(&name)).unwrap();
        // As the sqlite3 shell edits (foreign keys unchecked unless asked for).
        conn.execute_batch("PRAGMA foreign_keys = OFF").unwrap();
        assert_eq!(conn.execute(sql, []).unwrap(), 1, "{sql}");
        drop(conn);
        let before = std::fs::read(d.join(&name)).unwrap();
        let (code, report) = verify(d, &name);
        assert_eq!(code, 1, "{sql}: {report}");
        assert!(report.contains(want), "{sql}: want {want:?} in {report}");
        assert_eq!(
            before,
            std::fs::read(d.join(&name)).unwrap(),
            "verify wrote"
        );
    }
    // merge refuses the rows verify refuses (level and variant edits).
    for i in [0, 6] {
        let out = run_in(
            d,
            &["merge", "-o", &format!("m{i}.db"), &format!("e{i}.db")],
        );
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "e{i}: {err}");
        assert!(err.contains("puzzle id 3: column"), "e{i}: {err}");
    }
}
