//! `generate`, `merge`, `export` and `stats` through the real binary, in temp directories.

use crate::common::{bin, run_in};
use std::path::Path;
use std::time::{Duration, Instant};
use sudoku_press::canonical::canonical_key;
use sudoku_press::format::jsonl::parse_line;
use sudoku_press::solver::{count_solutions, solve};

/// `generate --variant V --size N --count C [--seed S]`.
fn gen<'a>(variant: &'a str, size: &'a str, count: &'a str, seed: Option<&'a str>) -> Vec<&'a str> {
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

/// Run and require success; returns stderr.
fn ok(dir: &Path, args: &[&str]) -> String {
    let out = run_in(dir, args);
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(out.status.success(), "{args:?} failed: {stderr}");
    stderr
}

/// Run and require the usage/input error exit code 2; returns stderr.
fn fails(dir: &Path, args: &[&str]) -> String {
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

fn export(dir: &Path, db: &str, format: &str) -> String {
    let out = run_in(dir, &["export", "--db", db, "--format", format]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

fn integrity(path: &Path) -> String {
    let conn = rusqlite::Connection::open(path).unwrap();
    conn.query_row("PRAGMA integrity_check", [], |r| r.get(0))
        .unwrap()
}

#[test]
fn generated_batches_are_unique_and_solve_back_to_their_solution() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let batches: [(&str, &[&str]); 6] = [
        ("k9.db", &["--count", "20"]),
        ("kj9.db", &["--variant", "killer-jigsaw", "--count", "4"]),
        ("k4.db", &["--size", "4", "--count", "24"]),
        ("k6.db", &["--size", "6", "--count", "8"]),
        (
            "c4.db",
            &["--variant", "classic", "--size", "4", "--count", "12"],
        ),
        (
            "j6.db",
            &["--variant", "jigsaw", "--size", "6", "--count", "6"],
        ),
    ];
    for (db, args) in batches {
        let mut all = vec!["generate", "--seed", "11", "--db", db];
        all.extend_from_slice(args);
        let summary = ok(d, &all);
        assert!(summary.contains("stored"), "{summary}");
        let text = export(d, db, "jsonl");
        let mut keys = std::collections::HashSet::new();
        for (i, line) in text.lines().enumerate() {
            let parsed = parse_line(line, i + 1).unwrap();
            let puzzle = &parsed.puzzle;
            let solution = parsed.solution.expect("exports carry the solution");
            if puzzle.is_killer() {
                assert_eq!(
                    puzzle.givens().count_filled(),
                    0,
                    "{db}: zero givens by default"
                );
            }
            assert_eq!(
                count_solutions(puzzle, 2),
                1,
                "{db} line {}: not unique",
                i + 1
            );
            assert_eq!(
                solve(puzzle, 1).solutions[0],
                solution,
                "{db} line {}",
                i + 1
            );
            assert!(
                keys.insert(canonical_key(puzzle)),
                "{db}: a canonical duplicate was stored"
            );
        }
        assert!(!keys.is_empty(), "{db}: nothing stored");
        let stats = String::from_utf8(run_in(d, &["stats", "--db", db]).stdout).unwrap();
        assert!(
            stats.contains(&format!("{} puzzles", keys.len())),
            "{stats}"
        );
        if db.starts_with('k') {
            let cages = stats.contains("per puzzle (min") && stats.contains("cage sizes: 2: ");
            assert!(cages, "{stats}");
        }
    }
}

#[test]
fn output_is_the_same_with_one_or_two_threads_and_any_chunk_size() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // 6x6 killers draw a level per item from the default mix.
    for (variant, size) in [("killer", "4"), ("classic", "4"), ("killer", "6")] {
        let common = gen(variant, size, "40", Some("3"));
        let mut one = common.to_vec();
        one.extend(["--threads", "1", "--chunk-size", "7", "--db", "one.db"]);
        let mut two = common.to_vec();
        two.extend(["--threads", "2", "--chunk-size", "16", "--db", "two.db"]);
        ok(d, &one);
        ok(d, &two);
        for format in ["csv", "jsonl"] {
            let (a, b) = (export(d, "one.db", format), export(d, "two.db", format));
            assert!(a.lines().count() > 1);
            assert_eq!(a, b, "{variant} {size} {format}");
        }
        std::fs::remove_file(d.join("one.db")).unwrap();
        std::fs::remove_file(d.join("two.db")).unwrap();
    }
}

/// Without --level a 6x6 killer batch spans the default mix and `stats` sets its shares beside
/// the targets; `--level any` keeps each puzzle's own level (nearly all easy on 6x6).
#[test]
fn the_default_batch_spans_the_mix_and_stats_measures_the_gap() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let mut mixed = gen("killer", "6", "60", Some("2"));
    mixed.extend(["--db", "mix.db"]);
    ok(d, &mixed);
    let mut any = gen("killer", "6", "60", Some("2"));
    any.extend(["--db", "any.db", "--level", "any"]);
    ok(d, &any);
    let level_line = |db: &str| {
        let stats = String::from_utf8(run_in(d, &["stats", "--db", db]).stdout).unwrap();
        let mix = stats
            .split("default mix %")
            .nth(1)
            .unwrap_or_else(|| panic!("{stats}"));
        mix.lines().nth(1).unwrap().to_string()
    };
    let (mixed, any) = (level_line("mix.db"), level_line("any.db"));
    assert!(
        mixed.starts_with("  killer 6x6: easy ") && mixed.contains("; largest gap "),
        "{mixed}"
    );
    let easy_share = |line: &str| -> f64 {
        let after = line.split("easy ").nth(1).unwrap();
        after.split('/').next().unwrap().parse().unwrap()
    };
    assert!(easy_share(&mixed) < 70.0, "{mixed}");
    assert!(easy_share(&any) > 90.0, "{any}");
    let mut bad = gen("killer", "6", "5", None);
    bad.extend(["--level", "any", "--level", "hard"]);
    let err = fails(d, &bad);
    assert!(err.contains("stands alone"), "{err}");
}

#[test]
fn canonical_duplicates_are_skipped_and_counted() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // 4x4 sudoku has few puzzles: a batch of 200 repeats some (sizes below 4 are refused).
    let summary = ok(d, &gen("classic", "4", "200", None));
    let dups: u64 = summary
        .split("duplicates skipped ")
        .nth(1)
        .and_then(|s| s.split(',').next())
        .and_then(|n| n.parse().ok())
        .expect("summary names duplicates");
    assert!(dups > 0, "{summary}");
    let csv = export(d, "output/puzzles.db", "csv");
    assert_eq!(csv.lines().count() as u64 - 1 + dups, 200, "{summary}");
    let stats = String::from_utf8(run_in(d, &["stats"]).stdout).unwrap();
    assert!(
        stats.contains(&format!("duplicates skipped {dups}")),
        "{stats}"
    );
    // The same run again adds nothing; a second seed skips what is already stored.
    let again = ok(d, &gen("classic", "4", "200", None));
    assert!(again.contains("already complete"), "{again}");
    let other = ok(d, &gen("classic", "4", "200", Some("2")));
    assert!(!other.contains("duplicates skipped 0,"), "{other}");
}

#[test]
fn shards_merge_into_the_single_run() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // 200 4x4 classics repeat some puzzles across shards; sizes below 4 are refused.
    for (variant, size, count) in [("classic", "4", "200"), ("killer", "4", "31")] {
        let common = gen(variant, size, count, Some("9"));
        let mut single = common.to_vec();
        single.extend(["--db", "single.db"]);
        ok(d, &single);
        let mut shards = Vec::new();
        for i in 0..3 {
            let (db, shard) = (format!("s{i}.db"), format!("{i}/3"));
            let mut args = common.to_vec();
            args.extend(["--db", &db, "--shard", &shard]);
            ok(d, &args);
            shards.push(db);
        }
        let mut merge = vec!["merge", "-o", "all.db"];
        merge.extend(shards.iter().map(String::as_str));
        ok(d, &merge);
        assert_eq!(
            export(d, "all.db", "csv"),
            export(d, "single.db", "csv"),
            "{variant}"
        );
        assert_eq!(integrity(&d.join("all.db")), "ok");
        // A merged run is the whole run: the single run's command continues it, adding nothing.
        let mut again = common.to_vec();
        again.extend(["--db", "all.db"]);
        assert!(ok(d, &again).contains("already complete"));
        // An incomplete set of shards is refused.
        let err = fails(d, &["merge", "-o", "part.db", "s0.db", "s1.db"]);
        assert!(err.contains("shard 2/3 is missing"), "{err}");
        assert!(!d.join("part.db").exists());
        for f in ["single.db", "all.db", "s0.db", "s1.db", "s2.db"] {
            std::fs::remove_file(d.join(f)).unwrap();
        }
    }
}

/// Start `args --db db`, SIGKILL it once a few chunks are committed; returns the chunks committed.
fn kill_mid_run(d: &Path, args: &[&str], db: &str) -> i64 {
    let mut child = bin()
        .current_dir(d)
        .args(args)
        .args(["--db", db])
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let path = d.join(db);
    let committed = || -> i64 {
        let flags = rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY;
        let Ok(conn) = rusqlite::Connection::open_with_flags(&path, flags) else {
            return 0;
        };
        conn.query_row("SELECT count(*) FROM chunks", [], |r| r.get(0))
            .unwrap_or(0)
    };
    let started = Instant::now();
    while committed() < 3 && started.elapsed() < Duration::from_secs(60) {
        std::thread::sleep(Duration::from_millis(2));
    }
    assert!(
        child.try_wait().unwrap().is_none(),
        "the run ended before it could be killed"
    );
    child.kill().unwrap(); // SIGKILL on Unix
    child.wait().unwrap();
    committed()
}

#[test]
fn a_killed_run_resumes_with_no_gap_and_no_duplicate() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let args = [
        "generate",
        "--count",
        "600",
        "--chunk-size",
        "6",
        "--threads",
        "1",
    ];
    let mut clean = args.to_vec();
    clean.extend(["--db", "clean.db"]);
    ok(d, &clean);
    let expected = export(d, "clean.db", "csv");

    // Continued by --resume (settings from the database) or by the same command again.
    for (db, how) in [("a.db", "resume"), ("b.db", "same command")] {
        let chunks = kill_mid_run(d, &args, db);
        assert!(
            (3..100).contains(&chunks),
            "killed mid-run: {chunks} chunks"
        );
        let mut again = args.to_vec();
        again.extend(["--db", db]);
        let resumed = match how {
            "resume" => ok(d, &["generate", "--resume", "--db", db]),
            _ => ok(d, &again),
        };
        assert!(resumed.contains("continued at"), "{how}: {resumed}");
        assert_eq!(integrity(&d.join(db)), "ok");
        assert_eq!(export(d, db, "csv"), expected, "{how}");
        let stats = String::from_utf8(run_in(d, &["stats", "--db", db]).stdout).unwrap();
        assert!(stats.contains("work items: 600 "), "{stats}");
    }
    let nothing = ok(d, &["generate", "--resume", "--db", "a.db"]);
    assert!(nothing.contains("nothing to resume"), "{nothing}");
}

#[test]
fn export_goes_to_a_file_or_stdout_and_stops_quietly_on_a_closed_pipe() {
    use std::io::{BufRead, BufReader};
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    ok(d, &["generate", "--count", "300", "--db", "p.db"]);
    let stdout = export(d, "p.db", "jsonl");
    assert!(stdout.len() > 1 << 17, "more than a pipe buffer");
    ok(
        d,
        &[
            "export",
            "--db",
            "p.db",
            "--format",
            "jsonl",
            "-o",
            "out.jsonl",
        ],
    );
    assert_eq!(
        std::fs::read_to_string(d.join("out.jsonl")).unwrap(),
        stdout
    );
    let err = fails(
        d,
        &["export", "--db", "p.db", "--format", "csv", "-o", "./p.db"],
    );
    assert!(err.contains("is the same file as"), "{err}");
    assert_eq!(export(d, "p.db", "jsonl"), stdout);
    let dash = run_in(
        d,
        &["export", "--db", "p.db", "--format", "jsonl", "-o", "-"],
    );
    assert_eq!(String::from_utf8(dash.stdout).unwrap(), stdout);
    let csv = export(d, "p.db", "csv");
    assert!(csv.starts_with("id,variant,size,box_rows,box_cols,regions,givens,solution,cages,"));
    assert_eq!(csv.lines().count(), stdout.lines().count() + 1);

    // `export | head -1`: the reader goes away, the exporter ends with success.
    let mut child = bin()
        .current_dir(d)
        .args(["export", "--db", "p.db", "--format", "csv"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    assert!(first.starts_with("id,"));
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn bad_settings_and_files_fail_with_exit_2_and_leave_data_intact() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    ok(
        d,
        &["generate", "--size", "4", "--count", "10", "--db", "p.db"],
    );
    let before = export(d, "p.db", "csv");
    let with_db = |extra: &[&'static str]| {
        let mut a = vec!["generate", "--size", "4", "--count", "20", "--db", "p.db"];
        a.extend_from_slice(extra);
        a
    };

    std::fs::write(d.join("typo.toml"), "[run]\ncount = 5\ncuont = 6\n").unwrap();
    let err = fails(d, &with_db(&["--config", "typo.toml"]));
    assert!(
        err.contains("typo.toml") && err.contains("cuont") && err.contains("line 3"),
        "{err}"
    );
    std::fs::write(
        d.join("range.toml"),
        "[generator]\nvariations_per_seed = 0\n",
    )
    .unwrap();
    let err = fails(d, &with_db(&["--config", "range.toml"]));
    assert!(
        err.contains("range.toml") && err.contains("variations_per_seed"),
        "{err}"
    );
    let err = fails(d, &["generate", "--count", "0", "--db", "p.db"]);
    assert!(
        err.contains("count = 0 on the command line") && err.contains("1 to"),
        "{err}"
    );
    for shard in ["3/3", "1/0", "x/2", "1"] {
        let err = fails(d, &with_db(&["--shard", shard]));
        assert!(err.contains("shard"), "{err}");
    }
    fails(d, &with_db(&["--variant", "sudoku"]));
    fails(d, &with_db(&["--config", "absent.toml"]));
    fails(d, &with_db(&["--resume"]));
    assert_eq!(export(d, "p.db", "csv"), before);

    // Foreign and corrupt files are refused and left as they were.
    std::fs::write(
        d.join("notes.txt"),
        "some text, not a database\n".repeat(40),
    )
    .unwrap();
    let corrupt = d.join("corrupt.db");
    std::fs::copy(d.join("p.db"), &corrupt).unwrap();
    let mut bytes = std::fs::read(&corrupt).unwrap();
    bytes[16..100].fill(0xAB);
    std::fs::write(&corrupt, &bytes).unwrap();
    let truncated = d.join("truncated.db");
    let whole = std::fs::read(d.join("p.db")).unwrap();
    std::fs::write(&truncated, &whole[..whole.len() / 2]).unwrap();
    for file in ["notes.txt", "corrupt.db", "truncated.db"] {
        let content = std::fs::read(d.join(file)).unwrap();
        let err = fails(
            d,
            &["generate", "--size", "4", "--count", "5", "--db", file],
        );
        assert!(err.contains(file), "{err}");
        fails(d, &["export", "--db", file, "--format", "csv"]);
        fails(d, &["stats", "--db", file]);
        assert_eq!(
            std::fs::read(d.join(file)).unwrap(),
            content,
            "{file} was changed"
        );
    }
    fails(d, &["export", "--db", "absent.db", "--format", "csv"]);
    read_only_paths_are_refused(d, &before);
}

/// A read-only directory (or, as root, a path the kernel refuses) gives a clear error.
fn read_only_paths_are_refused(d: &Path, before: &str) {
    use std::os::unix::fs::PermissionsExt;
    let ro = d.join("ro");
    std::fs::create_dir(&ro).unwrap();
    std::fs::copy(d.join("p.db"), ro.join("p.db")).unwrap();
    std::fs::set_permissions(ro.join("p.db"), std::fs::Permissions::from_mode(0o444)).unwrap();
    std::fs::set_permissions(&ro, std::fs::Permissions::from_mode(0o555)).unwrap();
    let enforced = std::fs::write(ro.join("probe"), "x").is_err();
    if enforced {
        let err = fails(
            d,
            &[
                "generate", "--size", "4", "--count", "20", "--db", "ro/p.db",
            ],
        );
        assert!(
            err.contains("ro/p.db") && err.contains("read-only"),
            "{err}"
        );
        fails(
            d,
            &[
                "generate",
                "--size",
                "4",
                "--count",
                "20",
                "--db",
                "ro/new.db",
            ],
        );
        assert_eq!(export(d, "ro/p.db", "csv"), before);
    } else if Path::new("/sys/kernel").is_dir() {
        eprintln!("running as root: checking the read-only /sys instead of a chmod'ed directory");
        let err = fails(
            d,
            &["generate", "--count", "5", "--db", "/sys/sudoku-press.db"],
        );
        assert!(
            err.contains("/sys/sudoku-press.db") && err.contains("read-only"),
            "{err}"
        );
    } else {
        eprintln!("skipping the read-only directory check: permissions are not enforced here");
    }
    std::fs::set_permissions(&ro, std::fs::Permissions::from_mode(0o755)).unwrap();
}
