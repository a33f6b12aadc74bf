//! `sudoku-press feed` through the binary: the day's files, idempotent re-runs, no repeats, a short
//! pool, bad input, an old database upgraded, and two processes issuing the same day at once.

use crate::common::{self, bin, ok, one_line};
use serde_json::Value;
use std::collections::HashSet;
use std::path::Path;
use std::process::Output;
use sudoku_press::format::{fpuzzles, jsonl};
use sudoku_press::store::Store;
use sudoku_press::Grid;

const SCHEDULE: &str = r#"
[feed]
name = "test"
title = "Test Feed"
base_url = "https://example.org/t/"
epoch = "2026-11-01"
recent = 3
[schedule]
all = ["killer-9-medium", "killer-9-hard"]
sun = ["killer-9-extreme", "killer-9-extreme"]
"#;

fn fails(dir: &Path, args: &[&str]) -> String {
    one_line(common::fails(dir, args))
}

/// A database of 100 9x9 killers (seed 3: 5 easy, 76 medium, 12 hard, 7 extreme when graded on
/// 2026-11-26) and the test schedule, in a temp directory.
fn setup() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    ok(
        d,
        &["generate", "--seed", "3", "--count", "100", "--db", "p.db"],
    );
    std::fs::write(d.join("s.toml"), SCHEDULE).unwrap();
    dir
}

fn feed<'a>(date: &'a str, out: &'a str) -> Vec<&'a str> {
    vec![
        "feed",
        "--db",
        "p.db",
        "--schedule",
        "s.toml",
        "--date",
        date,
        "--out",
        out,
    ]
}

/// Every file of a directory, by name.
fn files(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut all: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap())
        .map(|e| {
            (
                e.file_name().to_string_lossy().into_owned(),
                std::fs::read(e.path()).unwrap(),
            )
        })
        .collect();
    all.sort();
    all
}

fn issued(db: &Path) -> Vec<(i64, Option<String>, String)> {
    let conn = rusqlite::Connection::open(db).unwrap();
    let mut stmt = conn
        .prepare("SELECT puzzle, date, slot FROM issued ORDER BY date, position")
        .unwrap();
    let rows = stmt
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
        .unwrap();
    rows.map(|r| r.unwrap()).collect()
}

#[test]
fn a_day_is_written_reissued_identically_and_never_repeats() {
    let dir = setup();
    let d = dir.path();
    let report = ok(d, &feed("2026-11-27", "out"));
    assert!(
        report.contains("test 2026-11-27 #27: issued 2 puzzles"),
        "{report}"
    );
    assert!(report.contains("stock (unissued)"), "{report}");
    let names: Vec<String> = files(&d.join("out")).into_iter().map(|f| f.0).collect();
    assert_eq!(
        names,
        [
            "2026-11-27.html",
            "2026-11-27.json",
            "2026-11-27.pdf",
            "feed.json",
            "index.html",
            "rss.xml"
        ]
    );

    let day: Value =
        serde_json::from_slice(&std::fs::read(d.join("out/2026-11-27.json")).unwrap()).unwrap();
    assert_eq!(day["date"], "2026-11-27");
    let puzzles = day["puzzles"].as_array().unwrap();
    assert_eq!(puzzles.len(), 2);
    for (p, level) in puzzles.iter().zip(["medium", "hard"]) {
        assert_eq!(p["level"], level);
        assert_eq!(p["number"], 27);
        assert!(p["id"]
            .as_str()
            .unwrap()
            .starts_with("2026-11-27-killer-9-"));
        let puzzle = jsonl::parse_line(&p["puzzle"].to_string(), 1)
            .unwrap()
            .puzzle;
        let values: Vec<u8> = p["solution"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_u64().unwrap() as u8)
            .collect();
        assert!(puzzle.is_solution(&Grid::from_values(9, values).unwrap()));
        for link in ["sudokupad", "fpuzzles"] {
            let (linked, _) = fpuzzles::parse(p["links"][link].as_str().unwrap()).unwrap();
            assert_eq!(linked, puzzle);
        }
    }
    let html = std::fs::read_to_string(d.join("out/2026-11-27.html")).unwrap();
    // Templates escape every value, `/` as `&#x2f;` too.
    assert!(html.contains("https:&#x2f;&#x2f;sudokupad.app&#x2f;fpuzzles"));
    // A player per puzzle (the player's own page), each with its data: the solution and the
    // grader's path, keyed by the day's puzzle id.
    assert_eq!(html.matches("<section class=\"sp-player\"").count(), 2);
    assert_eq!(html.matches("class=\"sp-data\"").count(), 2);
    for p in puzzles {
        let id = p["id"].as_str().unwrap();
        assert!(html.contains(&format!("id=\"p-{id}\"")), "{id}");
        // The estimated solving time: a field of the JSON, and beside the level on the page.
        let (low, high) = (p["minutes"][0].as_u64(), p["minutes"][1].as_u64());
        let (Some(low), Some(high)) = (low, high) else {
            panic!("minutes [low, high]: {}", p["minutes"]);
        };
        assert!(0 < low && low <= high, "{low}-{high}");
        let meta = format!("{}, score ", p["level"].as_str().unwrap());
        let minutes = format!(", about {low}\u{2013}{high} min</p>");
        assert!(
            html.contains(&meta) && html.contains(&minutes),
            "{meta} … {minutes}"
        );
    }
    assert!(html.contains("\"path\":[{") && html.contains("script-src &#x27;sha256-"));
    let pdf = std::fs::read(d.join("out/2026-11-27.pdf")).unwrap();
    assert!(pdf.starts_with(b"%PDF-"));
    let feed_json: Value =
        serde_json::from_slice(&std::fs::read(d.join("out/feed.json")).unwrap()).unwrap();
    assert_eq!(feed_json["version"], "https://jsonfeed.org/version/1.1");
    assert_eq!(feed_json["items"][0]["id"], "sudoku-press:test:2026-11-27");

    // The same date again: the same bytes, no new rows.
    let before = files(&d.join("out"));
    let rows = issued(&d.join("p.db"));
    let again = ok(d, &feed("2026-11-27", "out"));
    assert!(again.contains("already issued; re-emitted"), "{again}");
    assert_eq!(files(&d.join("out")), before);
    assert_eq!(issued(&d.join("p.db")), rows);
    // Into a fresh directory too (the day is rebuilt from the database alone).
    ok(d, &feed("2026-11-27", "out2"));
    assert_eq!(files(&d.join("out2")), before);

    // More days, Sunday with two extremes: every puzzle once, and once per canonical form.
    for date in ["2026-11-28", "2026-11-29", "2026-11-30", "2026-12-01"] {
        ok(d, &feed(date, "out"));
    }
    let rows = issued(&d.join("p.db"));
    assert_eq!(rows.len(), 10);
    let sunday: Vec<_> = rows
        .iter()
        .filter(|r| r.1.as_deref() == Some("2026-11-29"))
        .map(|r| r.2.as_str())
        .collect();
    assert_eq!(sunday, ["killer-9-extreme", "killer-9-extreme"]);
    let ids: HashSet<i64> = rows.iter().map(|r| r.0).collect();
    assert_eq!(ids.len(), rows.len());
    let conn = rusqlite::Connection::open(d.join("p.db")).unwrap();
    let keys: i64 = conn
        .query_row("SELECT count(DISTINCT p.canonical_key) FROM issued i JOIN puzzles p ON p.id = i.puzzle", [], |r| r.get(0))
        .unwrap();
    assert_eq!(keys, 10);
    // The feed holds the 3 newest days; re-running an older day rebuilds the same index.
    let index = std::fs::read_to_string(d.join("out/rss.xml")).unwrap();
    assert_eq!(index.matches("<item>").count(), 3);
    assert!(index.contains("2026-12-01") && !index.contains("2026-11-28"));
    ok(d, &feed("2026-11-27", "out"));
    assert_eq!(
        std::fs::read_to_string(d.join("out/rss.xml")).unwrap(),
        index
    );
}

#[test]
fn a_short_pool_issues_nothing_and_bad_input_is_one_line() {
    let dir = setup();
    let d = dir.path();
    // A schedule that asks for more extremes in one day than the database holds.
    let greedy = SCHEDULE.replace(
        r#"sun = ["killer-9-extreme", "killer-9-extreme"]"#,
        &format!("sun = [{}]", vec!["\"killer-9-extreme\""; 40].join(", ")),
    );
    std::fs::write(d.join("greedy.toml"), greedy).unwrap();
    let args = [
        "feed",
        "--db",
        "p.db",
        "--schedule",
        "greedy.toml",
        "--date",
        "2026-11-29",
        "--out",
        "out",
    ];
    let err = fails(d, &args);
    assert!(
        err.contains("2026-11-29: no unissued killer-9-extreme puzzle left")
            && err.contains("needs 40"),
        "{err}"
    );
    assert!(issued(&d.join("p.db")).is_empty());
    assert!(files(&d.join("out")).is_empty());

    // The stock line warns ahead of time.
    let report = ok(
        d,
        &[
            "feed",
            "--db",
            "p.db",
            "--schedule",
            "greedy.toml",
            "--date",
            "2026-11-28",
            "--out",
            "out",
        ],
    );
    assert!(report.contains("warning: the pool runs short: 0 more days after 2026-11-28 (killer-9-extreme runs out first)"), "{report}");

    assert!(fails(d, &feed("2026-02-30", "out")).contains("YYYY-MM-DD"));
    assert!(
        fails(d, &["feed", "--db", "none.db", "--date", "2026-11-27"])
            .contains("none.db: no such database")
    );
    assert!(fails(
        d,
        &[
            "feed",
            "--db",
            "p.db",
            "--date",
            "2026-11-27",
            "--schedule",
            "nope.toml"
        ]
    )
    .contains("nope.toml: cannot read"));
    std::fs::write(
        d.join("bad.toml"),
        SCHEDULE.replace("killer-9-hard", "killer-9-tough"),
    )
    .unwrap();
    let err = fails(
        d,
        &[
            "feed",
            "--db",
            "p.db",
            "--date",
            "2026-11-27",
            "--schedule",
            "bad.toml",
        ],
    );
    assert!(
        err.contains("bad.toml") && err.contains("level \"tough\""),
        "{err}"
    );
    // An output path that is a file: refused before anything is issued.
    std::fs::write(d.join("file"), "x").unwrap();
    let before = issued(&d.join("p.db"));
    assert!(fails(d, &feed("2026-11-30", "file")).contains("cannot write"));
    assert_eq!(issued(&d.join("p.db")), before);
}

#[test]
fn a_revision_one_database_is_upgraded_and_books_share_the_table() {
    let dir = setup();
    let d = dir.path();
    let db = d.join("p.db");
    {
        let conn = rusqlite::Connection::open(&db).unwrap();
        conn.execute_batch(
            "DROP VIEW readable_puzzles; DROP VIEW readable_issued; DROP TABLE withdrawn; DROP TABLE issued; DROP INDEX puzzles_by_level; DROP INDEX puzzles_by_grader;
             ALTER TABLE puzzles DROP COLUMN grader; ALTER TABLE puzzles DROP COLUMN score; ALTER TABLE puzzles DROP COLUMN hardest;
             ALTER TABLE puzzles DROP COLUMN techniques; ALTER TABLE puzzles DROP COLUMN trial;
             ALTER TABLE puzzles DROP COLUMN minutes; PRAGMA user_version = 1;",
        )
        .unwrap();
    }
    // Read-only commands still read it as it is.
    ok(d, &["stats", "--db", "p.db"]);
    // A book reserves the first medium and the first hard puzzle; the feed skips both.
    {
        let mut store = Store::open_or_create(&db).unwrap();
        let first = |level: &str| -> i64 {
            let conn = rusqlite::Connection::open(&db).unwrap();
            conn.query_row(
                "SELECT min(id) FROM puzzles WHERE level = ?1",
                [level],
                |r| r.get(0),
            )
            .unwrap()
        };
        let (m, h) = (first("medium"), first("hard"));
        let entries = vec![("Medium".to_string(), m, 1), ("Hard".to_string(), h, 2)];
        assert_eq!(store.issue_book("vol1", &entries).unwrap(), Ok(()));
        assert_eq!(
            store.issue_book("vol2", &entries[..1]).unwrap(),
            Err(vec![m])
        );
        assert_eq!(store.issued_ids().unwrap(), vec![m.min(h), m.max(h)]);
        drop(store);
        ok(d, &feed("2026-11-27", "out"));
        let rows = issued(&db);
        let feed_ids: Vec<i64> = rows
            .iter()
            .filter(|r| r.1.as_deref() == Some("2026-11-27"))
            .map(|r| r.0)
            .collect();
        assert_eq!(feed_ids.len(), 2);
        assert!(
            !feed_ids.contains(&m) && !feed_ids.contains(&h),
            "{feed_ids:?} vs {m}, {h}"
        );
    }
    let conn = rusqlite::Connection::open(&db).unwrap();
    let version: i32 = conn
        .query_row("PRAGMA user_version", [], |r| r.get(0))
        .unwrap();
    assert_eq!(version, sudoku_press::store::SCHEMA_VERSION);
}

#[test]
fn two_processes_issuing_the_same_day_at_once_issue_it_once() {
    let dir = setup();
    let d = dir.path();
    // Start both before waiting for either.
    let children: Vec<_> = ["a", "b"]
        .iter()
        .map(|out| {
            bin()
                .current_dir(d)
                .args(feed("2026-11-28", out))
                .output_spawn()
        })
        .collect();
    let outputs: Vec<Output> = children
        .into_iter()
        .map(|c| c.wait_with_output().unwrap())
        .collect();
    for out in &outputs {
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let said: Vec<String> = outputs
        .iter()
        .map(|o| String::from_utf8_lossy(&o.stderr).into_owned())
        .collect();
    assert_eq!(
        said.iter()
            .filter(|s| s.contains(": issued 2 puzzles"))
            .count(),
        1,
        "{said:?}"
    );
    assert_eq!(
        said.iter()
            .filter(|s| s.contains("already issued; re-emitted"))
            .count(),
        1,
        "{said:?}"
    );
    assert_eq!(issued(&d.join("p.db")).len(), 2);
    assert_eq!(files(&d.join("a")), files(&d.join("b")));
}

/// Spawn with captured output (both children run at the same time).
trait SpawnCaptured {
    fn output_spawn(&mut self) -> std::process::Child;
}

impl SpawnCaptured for std::process::Command {
    fn output_spawn(&mut self) -> std::process::Child {
        self.stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap()
    }
}

#[test]
fn generate_tops_up_a_short_pool_the_same_way_twice() {
    let days: Vec<Vec<(String, Vec<u8>)>> = (0..2)
        .map(|_| {
            let dir = tempfile::tempdir().unwrap();
            let d = dir.path();
            ok(
                d,
                &["generate", "--seed", "3", "--count", "4", "--db", "p.db"],
            );
            // Sunday's pair from a 6x6 pool the database lacks: made in a blink, where the
            // shaped 9x9 extremes of the shared schedule cost seconds each, 64 of them a run.
            let schedule = SCHEDULE.replace("killer-9-extreme", "killer-6-hard");
            std::fs::write(d.join("s.toml"), schedule).unwrap();
            let short = fails(d, &feed("2026-11-29", "out"));
            assert!(short.contains("no unissued killer-6-hard"), "{short}");
            let mut args = feed("2026-11-29", "out");
            args.extend(["--generate", "--seed", "11"]);
            let report = ok(d, &args);
            assert!(
                report.contains("--generate: killer 6x6 hard seed 11, items 0..64"),
                "{report}"
            );
            assert!(
                report.contains("test 2026-11-29 #29: issued 2 puzzles"),
                "{report}"
            );
            // Stock now covers the next --stock-days (14) days: no generation the second time.
            let again = ok(d, &args);
            assert!(!again.contains("--generate:"), "{again}");
            files(&d.join("out"))
        })
        .collect();
    assert_eq!(days[0], days[1]);
}
