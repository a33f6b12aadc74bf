//! `export` and `render` selections through the binary (issue 21, the database user): filters in
//! every format, ids in the order given, a limit, unknown values refused as unknown, and one
//! name and one type per field across CSV, JSON lines and the database.

use crate::common::run_in;
use std::path::Path;
use std::sync::OnceLock;

/// A database of 10 4x4 killers and 4 6x6 killers (made once for the tests of this file).
fn db() -> &'static Path {
    static DB: OnceLock<tempfile::TempDir> = OnceLock::new();
    DB.get_or_init(|| {
        let dir = tempfile::tempdir().unwrap();
        // 6x6 items aimed at hard or expert are sometimes rejected off-level: 6 make 4 or more.
        for (size, count) in [("4", "10"), ("6", "6")] {
            let args = ["generate", "--size", size, "--count", count, "--seed", "5"];
            let out = run_in(dir.path(), &[&args[..], &["--db", "f.db"]].concat());
            assert!(out.status.success(), "{}", text(&out.stderr));
        }
        dir
    })
    .path()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// `export --db f.db` with these arguments: (exit code, stdout, stderr).
fn export(dir: &Path, args: &[&str]) -> (Option<i32>, String, String) {
    let db = db().join("f.db");
    let out = run_in(
        dir,
        &[&["export", "--db", db.to_str().unwrap()][..], args].concat(),
    );
    (out.status.code(), text(&out.stdout), text(&out.stderr))
}

/// The JSON lines of `export --format jsonl` with these filters.
fn objects(args: &[&str]) -> Vec<serde_json::Value> {
    let (code, out, err) = export(db(), &[&["--format", "jsonl"][..], args].concat());
    assert_eq!(code, Some(0), "{err}");
    out.lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

fn ids(objects: &[serde_json::Value]) -> Vec<i64> {
    objects.iter().map(|o| o["id"].as_i64().unwrap()).collect()
}

#[test]
fn filters_select_the_same_puzzles_in_every_format() {
    let all = objects(&[]);
    let small = objects(&["--size", "4"]);
    let fours: Vec<_> = all.iter().filter(|o| o["size"] == 4).cloned().collect();
    assert!(small.len() >= 4, "{}", small.len());
    assert_eq!(ids(&small), ids(&fours));
    let level = all[0]["level"].as_str().unwrap().to_string();
    let one_level = objects(&["--level", &level]);
    assert!(!one_level.is_empty() && one_level.iter().all(|o| o["level"] == *level));
    // Repeated --level: any of them, still in id order.
    let other = all
        .iter()
        .map(|o| o["level"].as_str().unwrap())
        .find(|l| *l != level)
        .unwrap_or("extreme")
        .to_string();
    let two = objects(&["--level", &level, "--level", &other, "--variant", "killer"]);
    let expected: Vec<i64> = ids(&all
        .iter()
        .filter(|o| o["level"] == *level || o["level"] == *other)
        .cloned()
        .collect::<Vec<_>>());
    assert_eq!(ids(&two), expected);
    // --limit keeps the first N in id order.
    assert_eq!(
        ids(&objects(&["--size", "4", "--limit", "3"])),
        ids(&small)[..3]
    );
    // Every format writes the same selection: one line a puzzle (CSV: plus its header).
    for format in [
        "csv",
        "fpuzzles",
        "sudokupad",
        "fpuzzles-url",
        "ipuz",
        "sudokuwiki",
    ] {
        let (code, out, err) = export(db(), &["--format", format, "--size", "6"]);
        assert_eq!(code, Some(0), "{format}: {err}");
        let header = usize::from(format == "csv");
        assert_eq!(
            out.lines().count(),
            all.len() - small.len() + header,
            "{format}"
        );
    }
    // A format that cannot hold a 4x4 works on the 6x6 selection, and stops on the whole file.
    let (code, _, err) = export(db(), &["--format", "sudokuwiki"]);
    assert_eq!(code, Some(2), "{err}");
}

#[test]
fn ids_come_in_the_order_given_and_combine_with_the_filters() {
    let all = ids(&objects(&[]));
    assert!(all.len() >= 12 && all[..12] == (1..=12).collect::<Vec<i64>>()[..]);
    let got = ids(&objects(&["--ids", "7,2", "--ids", "12"]));
    assert_eq!(got, [7, 2, 12]);
    let sixes: Vec<i64> = ids(&objects(&["--size", "6"]));
    let mixed = ids(&objects(&[
        "--ids",
        &format!("1,{}", sixes[0]),
        "--size",
        "6",
    ]));
    assert_eq!(mixed, [sixes[0]]);
    assert_eq!(ids(&objects(&["--ids", "3,1,2", "--limit", "2"])), [3, 1]);
}

#[test]
fn unknown_values_are_refused_as_unknown_and_nothing_is_written() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    for (args, says) in [
        (&["--level", "ultra"][..], "level \"ultra\" is unknown"),
        (&["--level", "Easy"][..], "level \"Easy\" is unknown"),
        (
            &["--variant", "samurai"][..],
            "variant \"samurai\" is unknown",
        ),
        (&["--size", "17"][..], "size \"17\" is unknown"),
        (&["--size", "0"][..], "size \"0\" is unknown"),
        (&["--ids", "3,999,1000"][..], "no puzzle with id 999, 1000"),
        (&["--ids", "3,3"][..], "puzzle id 3 is named twice"),
        (&["--ids", "3,x"][..], "--ids"),
        (&["--limit", "0"][..], "--limit"),
    ] {
        let full = [&["--format", "csv", "-o", "out.csv"][..], args].concat();
        let (code, _, err) = export(d, &full);
        assert_eq!(code, Some(2), "{args:?}: {err}");
        assert!(err.contains(says), "{args:?}: {err}");
        assert!(!d.join("out.csv").exists(), "{args:?}");
    }
    // Nor on stdout: not even the CSV header.
    let (code, out, _) = export(d, &["--format", "csv", "--ids", "1,999"]);
    assert_eq!((code, out.as_str()), (Some(2), ""));
    // A known value that no puzzle has is no error: an empty export and a note on what there is.
    let (code, out, err) = export(d, &["--format", "csv", "--variant", "jigsaw"]);
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(out.lines().count(), 1);
    assert!(
        err.contains("no puzzle") && err.contains("matches jigsaw") && err.contains("killer 4x4"),
        "{err}"
    );
}

#[test]
fn csv_json_lines_and_the_database_name_and_type_each_field_alike() {
    let (code, csv, err) = export(db(), &["--format", "csv", "--ids", "1"]);
    assert_eq!(code, Some(0), "{err}");
    let mut lines = csv.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    assert_eq!(header, sudoku_press::export::CSV_COLUMNS);
    let row: Vec<&str> = lines.next().unwrap().split(',').collect();
    let field = |name: &str| row[header.iter().position(|h| *h == name).unwrap()];
    let json = &objects(&["--ids", "1"])[0];
    let conn = rusqlite::Connection::open(db().join("f.db")).unwrap();
    let (idx, trial, box_rows, seed): (i64, i64, i64, i64) = conn
        .query_row(
            "SELECT idx, trial, box_rows, seed FROM puzzles WHERE id = 1",
            [],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)),
        )
        .unwrap();
    assert_eq!(field("id"), "1");
    assert_eq!(json["id"], 1);
    assert_eq!(field("idx"), idx.to_string());
    assert_eq!(json["idx"], idx);
    assert!(json.get("index").is_none());
    assert_eq!(field("trial"), trial.to_string());
    assert_eq!(json["trial"], trial == 1);
    assert_eq!((field("box_rows"), field("box_cols")), ("2", "2"));
    assert_eq!(json["box_rows"], box_rows);
    assert_eq!(field("seed"), seed.to_string());
    // The README lists the CSV columns as they are.
    let readme =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md")).unwrap();
    let listed = sudoku_press::export::CSV_COLUMNS.join(", ");
    assert!(
        readme
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
            .contains(&listed),
        "README: {listed}"
    );
}

#[test]
fn render_takes_the_same_selection_as_export() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let db = db().join("f.db");
    let db = db.to_str().unwrap();
    let render = |args: &[&str]| run_in(d, &[&["render", "--db", db][..], args].concat());
    let out = render(&["--size", "6", "--limit", "2", "-o", "svg"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let sixes = ids(&objects(&["--size", "6"]));
    let mut names: Vec<String> = std::fs::read_dir(d.join("svg"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    let mut wanted = vec![format!("{}.svg", sixes[0]), format!("{}.svg", sixes[1])];
    wanted.sort();
    assert_eq!(names, wanted);
    // Positional ids still work, together with --ids; html takes the selection too.
    let out = render(&["--format", "html", "2", "--ids", "3", "-o", "html"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(d.join("html/2.html").is_file() && d.join("html/3.html").is_file());
    // No selection at all, or an unknown value: refused, nothing written.
    let out = render(&["-o", "none"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("name the puzzles"));
    let out = render(&["--level", "ultra", "-o", "none"]);
    assert!(text(&out.stderr).contains("level \"ultra\" is unknown"));
    assert!(!d.join("none").exists());
}
