//! `solve` and `check` through the real binary: every format, JSON echo, counts, conflicts, and
//! bad input (one-line error naming the line, exit code 2, never a panic).

use crate::common;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Output, Stdio};

/// A 4x4 killer with one solution, `1234 3412 2143 4321`, in the seed format.
const SEED_4X4: &str = "9 // cages\n1 1\n0 0\n2 5\n0 1\n0 2\n2 6\n0 3\n1 3\n2 5\n1 0\n2 0\n\
    2 5\n1 1\n1 2\n2 4\n2 1\n3 1\n2 7\n2 2\n2 3\n1 4\n3 0\n2 3\n3 2\n3 3\n";
const SOLUTION_4X4: &str = "1 2 3 4\n3 4 1 2\n2 1 4 3\n4 3 2 1\n";

/// The same killer as a JSON line, with an extra key.
const JSON_4X4: &str = r#"{"id": "k4", "size": 4, "givens": [0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0], "cages": [{"sum": 1, "cells": [0]}, {"sum": 5, "cells": [1, 2]}, {"sum": 6, "cells": [3, 7]}, {"sum": 5, "cells": [4, 8]}, {"sum": 5, "cells": [5, 6]}, {"sum": 4, "cells": [9, 13]}, {"sum": 7, "cells": [10, 11]}, {"sum": 4, "cells": [12]}, {"sum": 3, "cells": [14, 15]}]}"#;

/// Plain 4x4 puzzles: unique, several solutions, none.
const PLAIN: &str = "12.4341.2.434.21\n................\n12....3....3....\n";

/// A valid 9x9 grid: row r is 1..9 shifted by 3r + r/3.
fn grid9() -> Vec<u8> {
    (0..81)
        .map(|i| {
            let (r, c) = (i / 9, i % 9);
            ((r * 3 + r / 3 + c) % 9 + 1) as u8
        })
        .collect()
}

/// A 9x9 killer code: every cell its own cage except one uncaged cell per row.
fn sudocue_9x9() -> String {
    let values: Vec<String> = grid9()
        .iter()
        .enumerate()
        .map(|(i, &d)| match i % 10 {
            0 => "0".to_string(),
            _ => (d as usize * 256 + i % 250 + 1).to_string(),
        })
        .collect();
    format!("3x3::k:{}:", values.join(":"))
}

fn write(dir: &Path, name: &str, text: impl AsRef<[u8]>) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

fn run(args: &[&str]) -> (i32, String, String) {
    into_parts(common::run(args))
}

fn into_parts(out: Output) -> (i32, String, String) {
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    (out.status.code().unwrap_or(-1), stdout, stderr)
}

fn path_str(p: &Path) -> &str {
    p.to_str().unwrap()
}

#[test]
fn solves_the_seed_format() {
    let dir = tempfile::tempdir().unwrap();
    let file = write(dir.path(), "k4.txt", SEED_4X4);
    let note = "note: line 1: read as 4x4 (the seed format has no size; its cages cover 16 cells); give --size N if the grid is larger\n";
    assert_eq!(
        run(&["solve", path_str(&file)]),
        (0, SOLUTION_4X4.to_string(), note.to_string())
    );
    let (code, out, _) = run(&["solve", "--count", "--stats", path_str(&file)]);
    assert_eq!(code, 0);
    assert!(out.starts_with("1\ntime_us="), "{out}");
    // Several seed puzzles in one file: answers separated by a blank line.
    let two = write(
        dir.path(),
        "two.txt",
        format!("{SEED_4X4}\n// next\n{SEED_4X4}"),
    );
    let (code, out, _) = run(&["solve", path_str(&two)]);
    assert_eq!((code, out), (0, format!("{SOLUTION_4X4}\n{SOLUTION_4X4}")));
}

#[test]
#[cfg_attr(
    not(shared_data),
    ignore = "needs ../shared/data or $SUDOKU_PRESS_DATA (absent when built)"
)]
fn solves_the_source_example_to_its_published_solution() {
    let Some(data) = common::shared_data() else {
        return;
    };
    let puzzle = data.join("killer/seed001_example.txt");
    let expected =
        std::fs::read_to_string(data.join("killer/seed001_example.solution.txt")).unwrap();
    let (code, out, err) = run(&["solve", path_str(&puzzle)]);
    assert_eq!((code, err.as_str()), (0, ""));
    assert_eq!(
        out.split_whitespace().collect::<Vec<_>>(),
        expected.split_whitespace().collect::<Vec<_>>()
    );
    let sol = data.join("killer/seed001_example.solution.txt");
    let (code, out, _) = run(&["check", path_str(&puzzle), path_str(&sol)]);
    assert_eq!(
        (code, out.as_str()),
        (0, "no conflicts: the grid is solved\n")
    );
}

#[test]
fn solves_plain_lines_in_order_and_marks_the_rest() {
    let dir = tempfile::tempdir().unwrap();
    let file = write(dir.path(), "p.txt", PLAIN);
    let (code, out, err) = run(&["solve", "--threads", "2", path_str(&file)]);
    assert_eq!(code, 1);
    assert_eq!(out, "1234341221434321\nseveral solutions\nno solution\n");
    assert_eq!(err, "2 of 3 puzzles have no unique solution\n");
    let (code, out, _) = run(&["solve", "--count", path_str(&file)]);
    assert_eq!((code, out.as_str()), (0, "1\n2\n0\n"));
}

#[test]
fn keeps_input_order_across_chunks_and_threads() {
    let dir = tempfile::tempdir().unwrap();
    // 2,500 puzzles (more than one chunk), each a full grid with one cell blanked in turn.
    let solved = "1234341221434321";
    let lines: String = (0..2500)
        .map(|i| {
            let mut line: Vec<char> = solved.chars().collect();
            line[i % 16] = '.';
            line.into_iter().collect::<String>() + "\n"
        })
        .collect();
    let file = write(dir.path(), "many.txt", lines);
    let (code, out, _) = run(&["solve", "--threads", "2", "--stats", path_str(&file)]);
    assert_eq!(code, 0);
    assert_eq!(out.lines().count(), 2500);
    assert!(out
        .lines()
        .all(|l| l.starts_with(&format!("{solved} time_us="))));
}

#[test]
fn echoes_json_lines_with_the_solution() {
    let dir = tempfile::tempdir().unwrap();
    let file = write(dir.path(), "k.jsonl", format!("{JSON_4X4}\n{JSON_4X4}\n"));
    let (code, out, _) = run(&["solve", path_str(&file)]);
    assert_eq!(code, 0);
    for line in out.lines() {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        assert_eq!(v["id"], "k4");
        assert_eq!(
            v["solution"],
            serde_json::json!([1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 1])
        );
        assert!(v.get("count").is_none());
    }
    let (code, out, _) = run(&["solve", "--count", "--stats", path_str(&file)]);
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(out.lines().next().unwrap()).unwrap();
    assert_eq!(
        (
            v["count"].as_u64(),
            v["nodes"].is_u64(),
            v["time_us"].is_u64()
        ),
        (Some(1), true, true)
    );
}

#[test]
fn json_marks_puzzles_without_a_unique_solution() {
    let dir = tempfile::tempdir().unwrap();
    let open = r#"{"size": 4, "givens": [0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0]}"#;
    let file = write(dir.path(), "open.jsonl", format!("{open}\n"));
    let (code, out, _) = run(&["solve", path_str(&file)]);
    let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(
        (code, v["count"].as_u64(), v["solution"].is_null()),
        (1, Some(2), true)
    );
}

#[test]
fn solves_sudocue_codes_and_reads_stdin() {
    let code9 = sudocue_9x9();
    let mut child = common::bin()
        .args(["solve", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(format!("{code9}\n").as_bytes())
        .unwrap();
    let (code, out, err) = into_parts(child.wait_with_output().unwrap());
    let expected: String = grid9().iter().map(|d| d.to_string()).collect();
    assert_eq!((code, out.trim(), err.as_str()), (0, expected.as_str(), ""));
}

#[test]
#[cfg_attr(
    not(shared_data),
    ignore = "needs ../shared/data or $SUDOKU_PRESS_DATA (absent when built)"
)]
fn solves_every_small_solo_killer_to_its_stored_solution() {
    let Some(data) = common::shared_data() else {
        return;
    };
    let file = data.join("killer/solo_small.jsonl");
    let (code, out, _) = run(&["solve", "--count", path_str(&file)]);
    assert_eq!(code, 0);
    let stored = std::fs::read_to_string(&file).unwrap();
    assert_eq!(out.lines().count(), stored.lines().count());
    for (line, input) in out.lines().zip(stored.lines()) {
        let got: serde_json::Value = serde_json::from_str(line).unwrap();
        let want: serde_json::Value = serde_json::from_str(input).unwrap();
        assert_eq!(
            (got["id"].clone(), got["count"].as_u64()),
            (want["id"].clone(), Some(1))
        );
        assert_eq!(got["solution"], want["solution"]);
    }
}

#[test]
fn bench_with_symmetries_measures_every_image_of_a_puzzle() {
    let dir = tempfile::tempdir().unwrap();
    let file = write(dir.path(), "k4.jsonl", JSON_4X4);
    let row = |extra: &[&str]| {
        let mut args = vec!["bench", "--file", path_str(&file), "--min-seconds", "0"];
        args.extend(extra);
        let (code, out, err) = run(&args);
        assert_eq!(code, 0, "{err}");
        let row = out.lines().nth(1).unwrap_or_default().to_string();
        let puzzles = row
            .split_whitespace()
            .nth(1)
            .unwrap_or_default()
            .to_string();
        (puzzles, row)
    };
    let (puzzles, alone) = row(&[]);
    assert!(puzzles == "1" && alone.ends_with("0/1/0"), "{alone}");
    // Eight turns and mirrors of a 4x4 grid, each with and without the digit complement: every
    // image is a killer with exactly one solution.
    let (puzzles, images) = row(&["--symmetries"]);
    assert!(puzzles == "16" && images.ends_with("0/16/0"), "{images}");
}

#[test]
fn bench_without_a_data_folder_measures_generated_puzzles() {
    // In a folder with no ../shared/data beside it, `bench` measures generated sets; a --data
    // folder that holds no set is still an error that names it.
    let dir = tempfile::tempdir().unwrap();
    let work = dir.path().join("work");
    std::fs::create_dir(&work).unwrap();
    let out = common::run_in(&work, &["bench", "--min-seconds", "0"]);
    let (stdout, stderr) = (
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr),
    );
    assert!(out.status.success(), "{stderr}");
    assert!(stderr.contains("generated"), "{stderr}");
    let rows: Vec<&str> = stdout.lines().skip(1).collect();
    assert_eq!(rows.len(), 2, "{stdout}");
    for row in rows {
        assert!(row.starts_with("generated "), "{row}");
        assert!(
            row.ends_with("0/300/0"),
            "every generated puzzle is unique: {row}"
        );
    }
    let out = common::run_in(&work, &["bench", "--data", "nowhere"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("no standard set found under nowhere"),
        "{stderr}"
    );
}

#[test]
fn check_lists_conflicts() {
    let dir = tempfile::tempdir().unwrap();
    let puzzle = write(dir.path(), "k4.txt", SEED_4X4);
    let good = write(dir.path(), "good.txt", SOLUTION_4X4);
    let (code, out, _) = run(&["check", path_str(&puzzle), path_str(&good)]);
    assert_eq!(
        (code, out.as_str()),
        (0, "no conflicts: the grid is solved\n")
    );
    let partial = write(dir.path(), "partial.txt", "1...\n....\n....\n...1\n");
    let (code, out, _) = run(&["check", path_str(&puzzle), path_str(&partial)]);
    assert_eq!(
        (code, out.as_str()),
        (0, "no conflicts (14 cells still empty)\n")
    );
    let bad = write(dir.path(), "bad.txt", "2234341221434321\n");
    let (code, out, err) = run(&["check", path_str(&puzzle), path_str(&bad)]);
    assert_eq!(code, 1);
    assert_eq!(
        out,
        "row 1: digit 2 repeats at r1c1, r1c2\ncolumn 1: digit 2 repeats at r1c1, r3c1\n\
         box 1: digit 2 repeats at r1c1, r1c2\ncage 1 (at r1c1): its digits add up to 2, the cage sum is 1\n"
    );
    assert_eq!(err, "4 conflicts\n");
    let plain = write(dir.path(), "p.txt", "1.3.............\n");
    let (code, out, _) = run(&["check", path_str(&plain), path_str(&bad)]);
    assert_eq!(code, 1);
    assert!(out.contains("r1c1: holds 2, the given there is 1"), "{out}");
}

/// Run `args` (with `{}` replaced by a file holding `input`) and expect one error line, exit 2.
fn expect_error(args: &[&str], input: &[u8], want: &str) {
    let dir = tempfile::tempdir().unwrap();
    let file = write(dir.path(), "input", input);
    let args: Vec<&str> = args
        .iter()
        .map(|&a| if a == "{}" { path_str(&file) } else { a })
        .collect();
    let (code, out, err) = run(&args);
    assert_eq!(code, 2, "{args:?}: {out} {err}");
    assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
    assert!(
        err.starts_with("error: ") && err.contains(want),
        "{args:?}: want `{want}`, got {err}"
    );
    assert!(!err.contains("panicked"), "{err}");
}

#[test]
fn bad_input_gets_one_line_naming_the_place() {
    let solve = ["solve", "{}"];
    let cases: Vec<(&[u8], &str)> = vec![
        (b"", "the input is empty"),
        (b"\n\n  \n", "the input is empty"),
        (b"\x7fELF\x02\x01\x01\x00\x00\xff\xfe", "line 1: not UTF-8 text"),
        (b"1000000000000\n2 3\n0 0\n", "line 1: expected a cage count of at most 256"),
        (b"3\n2 3\n0 0\n0 1\n", "line 5: the input ends early: expected the `cells sum` line of cage 2"),
        (b"1\n2 3\n0 0\n0 x\n", "line 4: expected a cell `row col`"),
        (b"1\n2 3\n0 0\n0 16\n", "line 4: expected a cell `row col` with both from 0 to 15"),
        (b"2\n2 3\n0 0\n0 1\n2 5\n0 1\n0 2\n", "line 5: cell r1c2 is in cage 1 and again in cage 2"),
        (b"1\n2 3\n0 0\n1 1\n", "line 2: cage 1 is not orthogonally connected"),
        (b"1234341221434321\n12343412214343\n", "line 2: 14 characters"),
        (b"1234341221434321\n123434122143432x\n", "line 2: column 16: `x` is not a cell"),
        (b"{\"size\": 4, \"givens\": [0, 0,", "line 1: column 28: invalid JSON"),
        (b"{\"size\": \"nine\"}", "line 1: `size` should be a whole number"),
        (b"{\"size\": 1000000000000, \"givens\": []}", "line 1: grid size 1000000000000 is not supported"),
        (b"{\"size\": 4, \"givens\": [0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0], \"cages\": [{\"sum\": 3, \"cells\": [0, 81]}]}", "line 1: `cages[0].cells[1]` should be a whole number from 0 to 15"),
        (b"3x3::k:1:2:3:", "line 1: the input ends early: expected 81 cell values, found 3"),
        (b"hello world\n", "line 1: cannot tell the format"),
    ];
    for (input, want) in cases {
        expect_error(&solve, input, want);
    }
    let long = vec![b'1'; 3 << 20];
    expect_error(&solve, &long, "line 1: line longer than 1048576 bytes");
    expect_error(
        &["solve", "--format", "plain", "{}"],
        JSON_4X4.as_bytes(),
        "line 1: column 1: `{` is not a cell",
    );
    expect_error(
        &["solve", "/nonexistent/puzzles.txt"],
        b"",
        "cannot open /nonexistent/puzzles.txt",
    );
}

#[test]
fn bad_check_input_is_exit_2() {
    let dir = tempfile::tempdir().unwrap();
    let puzzle = write(dir.path(), "k4.txt", SEED_4X4);
    let p = path_str(&puzzle).to_string();
    expect_error(
        &["check", &p, "{}"],
        b"1 2 3 4\n1 2 3\n",
        "line 2: expected a row of 4 cells",
    );
    expect_error(
        &["check", &p, "{}"],
        b"1 2 3 4\n",
        "line 2: the input ends early: expected row 2 of 4",
    );
    expect_error(&["check", &p, "{}"], b"", "the input is empty");
    let two = write(dir.path(), "two.txt", PLAIN);
    expect_error(
        &["check", path_str(&two), "{}"],
        SOLUTION_4X4.as_bytes(),
        "holds more than one puzzle",
    );
}
