//! Unit tests of the store: recognizing files, committing chunks, failures, merging.

use super::*;
use crate::cage::Cage;
use crate::geometry::{Cell, Geometry};
use crate::grid::Grid;
use crate::puzzle::Puzzle;
use crate::shard::Shard;
use std::fs;

const SOLUTION: [u8; 16] = [1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 1];

/// Work item `index`: a 4x4 killer of horizontal pairs, with canonical key `key`. Its grade is
/// computed once per test process: every row is the same puzzle, and the pairs leave it with
/// several solutions, which the grader's top rungs search at length (a test of 2,000 rows took
/// minutes grading the same puzzle 2,000 times).
fn row(index: u64, key: &str) -> PuzzleRow {
    static GRADE: std::sync::OnceLock<GradeRow> = std::sync::OnceLock::new();
    let solution = Grid::from_values(4, SOLUTION.to_vec()).unwrap();
    let cages = (0..8u8)
        .map(|p| {
            let cells = vec![Cell::new(2 * p), Cell::new(2 * p + 1)];
            let sum = cells.iter().map(|c| SOLUTION[c.as_index()] as u16).sum();
            Cage::new(sum, cells)
        })
        .collect();
    let puzzle = Puzzle::new(Geometry::standard(4).unwrap(), Grid::empty(4), cages).unwrap();
    let metrics = RowMetrics {
        cage_sizes: vec![0, 0, 8],
        nodes: 3,
        guesses: 1,
        solver_calls: 2,
        repairs: 0,
        micros: 10,
        grade: GRADE
            .get_or_init(|| GradeRow::from_grade(&crate::grader::grade(&puzzle)))
            .clone(),
    };
    PuzzleRow::encode(index, "killer", &puzzle, &solution, &metrics, key)
}

fn new_run(shard: Shard, count: u64) -> NewRun {
    NewRun {
        seed: 7,
        settings_hash: "00000000000000aa".into(),
        settings_toml: "[run]\n".into(),
        generator_version: "test".into(),
        count,
        shard,
    }
}

/// Commit positions `first..end` of `run`, work item `i` keyed by `keys(i)`; `None` = rejected.
fn commit(
    store: &mut Store,
    run: &RunState,
    first: u64,
    end: u64,
    keys: impl Fn(u64) -> Option<String>,
) -> ChunkTally {
    let rows = (first..end)
        .map(|p| {
            let item = run.shard.item_at(p);
            keys(item).map(|k| row(item, &k))
        })
        .collect();
    let chunk = Chunk {
        first_pos: first,
        end_pos: end,
        rows,
        wall_micros: 5,
    };
    store.commit_chunk(run, &chunk).unwrap().tally
}

fn indices(store: &Store) -> Vec<(i64, u64)> {
    let mut out = Vec::new();
    store
        .for_each_puzzle(|p| -> Result<(), StoreError> {
            out.push((p.id, p.index));
            Ok(())
        })
        .unwrap();
    out
}

#[test]
fn creates_recognizes_and_resumes() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("sub/dir/p.db");
    let mut store = Store::open_or_create(&path).unwrap();
    let run = store.begin_run(&new_run(Shard::default(), 6)).unwrap();
    assert_eq!((run.next_pos, run.is_complete()), (0, false));
    let t = commit(&mut store, &run, 0, 3, |i| {
        (i != 1).then(|| format!("k{i}"))
    });
    assert_eq!((t.stored, t.duplicates, t.rejected), (2, 0, 1));
    drop(store);
    let mut store = Store::open_or_create(&path).unwrap();
    let run = store.begin_run(&new_run(Shard::default(), 6)).unwrap();
    assert_eq!((run.id, run.next_pos, run.totals.stored), (1, 3, 2));
    // Item 4 repeats item 0's form: skipped and counted.
    let t = commit(&mut store, &run, 3, 6, |i| Some(format!("k{}", i % 4)));
    assert_eq!((t.stored, t.duplicates), (2, 1));
    assert!(store.run_state(run.id).unwrap().is_complete());
    assert_eq!(indices(&store), vec![(1, 0), (2, 2), (3, 3), (4, 5)]);
    assert_eq!(store.check_integrity().unwrap(), Ok(()));
    let decoded = {
        let mut first = None;
        store
            .for_each_puzzle(|p| -> Result<(), StoreError> {
                first.get_or_insert(p);
                Ok(())
            })
            .unwrap();
        first.unwrap()
    };
    assert_eq!(decoded.solution.values(), &SOLUTION);
    assert!(decoded.puzzle.is_solution(&decoded.solution));
}

#[test]
fn rows_of_another_grader_version_are_graded_again_when_opened_for_writing() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("p.db");
    let mut store = Store::open_or_create(&path).unwrap();
    let run = store.begin_run(&new_run(Shard::default(), 3)).unwrap();
    commit(&mut store, &run, 0, 3, |i| Some(format!("k{i}")));
    let graded = |store: &Store| -> Vec<(String, f64, Option<i64>)> {
        let mut stmt = store
            .conn
            .prepare("SELECT level, score, grader FROM puzzles ORDER BY id")
            .unwrap();
        let rows = stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)));
        rows.unwrap().map(Result::unwrap).collect()
    };
    let fresh = graded(&store);
    assert!(fresh
        .iter()
        .all(|g| g.2 == Some(crate::grader::GRADER_VERSION)));
    // An older grader's grades (and one row of a file that recorded none) ...
    store
        .conn
        .execute_batch(
            "UPDATE puzzles SET level = 'extreme', score = 99, grader = 1;
             UPDATE puzzles SET grader = NULL WHERE id = 2;",
        )
        .unwrap();
    drop(store);
    // ... are read as they are, and made again by the first writer.
    let reader = Store::open_read_only(&path).unwrap();
    assert_eq!(graded(&reader)[0].0, "extreme");
    drop(reader);
    let store = Store::open_or_create(&path).unwrap();
    assert_eq!(graded(&store), fresh);
}

#[test]
fn a_chunk_committed_by_another_writer_is_skipped_and_a_gap_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let mut store = Store::open_or_create(&dir.path().join("p.db")).unwrap();
    let run = store.begin_run(&new_run(Shard::default(), 10)).unwrap();
    commit(&mut store, &run, 0, 2, |i| Some(format!("k{i}")));
    let chunk = |first: u64, end: u64| Chunk {
        first_pos: first,
        end_pos: end,
        rows: (first..end)
            .map(|i| Some(row(i, &format!("k{i}"))))
            .collect(),
        wall_micros: 0,
    };
    // Positions 0..2 are already there (the same items): nothing more is written.
    let done = store.commit_chunk(&run, &chunk(0, 2)).unwrap();
    assert_eq!((done.tally.total(), done.next_pos), (0, 2));
    // 1..4 overlaps: only 2..4 is committed.
    let done = store.commit_chunk(&run, &chunk(1, 4)).unwrap();
    assert_eq!((done.tally.stored, done.next_pos), (2, 4));
    assert_eq!(
        indices(&store).iter().map(|r| r.1).collect::<Vec<_>>(),
        vec![0, 1, 2, 3]
    );
    assert!(store.record_problems().unwrap().is_empty());
    assert!(matches!(
        store.commit_chunk(&run, &chunk(6, 8)),
        Err(StoreError::Concurrent {
            expected: 6,
            found: 4,
            ..
        })
    ));
    assert_eq!(indices(&store).len(), 4);
}

#[test]
fn foreign_files_are_refused_and_left_alone() {
    let dir = tempfile::tempdir().unwrap();
    let text = dir.path().join("notes.db");
    fs::write(
        &text,
        "this is not a database, just some text that is long enough ....",
    )
    .unwrap();
    let before = fs::read(&text).unwrap();
    assert!(matches!(
        Store::open_or_create(&text),
        Err(StoreError::Foreign { .. })
    ));
    assert!(matches!(
        Store::open_read_only(&text),
        Err(StoreError::Foreign { .. })
    ));
    assert_eq!(fs::read(&text).unwrap(), before);

    let other = dir.path().join("other.db");
    rusqlite::Connection::open(&other)
        .unwrap()
        .execute_batch("CREATE TABLE t (x); INSERT INTO t VALUES (1);")
        .unwrap();
    let before = fs::read(&other).unwrap();
    let err = Store::open_or_create(&other).err().unwrap();
    assert!(
        err.to_string().contains("not a sudoku-press database"),
        "{err}"
    );
    assert_eq!(fs::read(&other).unwrap(), before);

    let newer = dir.path().join("newer.db");
    drop(Store::open_or_create(&newer).unwrap());
    rusqlite::Connection::open(&newer)
        .unwrap()
        .execute_batch("PRAGMA user_version = 99")
        .unwrap();
    assert!(matches!(
        Store::open_or_create(&newer),
        Err(StoreError::SchemaVersion { found: 99, .. })
    ));
    assert!(matches!(
        Store::open_read_only(&dir.path().join("absent.db")),
        Err(StoreError::Missing(_))
    ));
    assert!(matches!(
        Store::open_or_create(dir.path()),
        Err(StoreError::Directory(_))
    ));
}

#[test]
fn a_directory_in_place_of_the_write_ahead_log_is_named_and_nothing_is_written() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("p.db");
    drop(Store::open_or_create(&db).unwrap());
    let before = fs::read(&db).unwrap();
    for suffix in ["-wal", "-shm"] {
        let sidecar = dir.path().join(format!("p.db{suffix}"));
        let _ = fs::remove_file(&sidecar);
        fs::create_dir(&sidecar).unwrap();
        for result in [Store::open_or_create(&db), Store::open_read_only(&db)] {
            let err = result.err().expect("a directory sidecar is refused");
            let text = err.to_string();
            assert!(matches!(err, StoreError::Sidecar { .. }), "{text}");
            assert!(
                text.contains(&format!("p.db{suffix}: a directory")),
                "{text}"
            );
            assert!(text.contains("move it away"), "{text}");
        }
        fs::remove_dir(&sidecar).unwrap();
    }
    assert_eq!(fs::read(&db).unwrap(), before);
    // A new database beside a stray directory is refused before the file is made.
    let fresh = dir.path().join("q.db");
    fs::create_dir(dir.path().join("q.db-wal")).unwrap();
    assert!(matches!(
        Store::open_or_create(&fresh),
        Err(StoreError::Sidecar { .. })
    ));
    assert!(!fresh.exists());
}

#[test]
fn a_full_disk_rolls_back_the_chunk_and_keeps_the_rest() {
    let dir = tempfile::tempdir().unwrap();
    let mut store = Store::open_or_create(&dir.path().join("p.db")).unwrap();
    let run = store
        .begin_run(&new_run(Shard::default(), 100_000))
        .unwrap();
    commit(&mut store, &run, 0, 10, |i| Some(format!("k{i}")));
    let pages: i64 = store
        .conn
        .query_row("PRAGMA page_count", [], |r| r.get(0))
        .unwrap();
    // Simulate a full disk: the file may not grow past its current size.
    store
        .conn
        .execute_batch(&format!("PRAGMA max_page_count = {pages}"))
        .unwrap();
    let big = Chunk {
        first_pos: 10,
        end_pos: 2010,
        rows: (10..2010)
            .map(|i| Some(row(i, &format!("key-{i:0>200}"))))
            .collect(),
        wall_micros: 0,
    };
    let err = store.commit_chunk(&run, &big).unwrap_err();
    assert!(matches!(err, StoreError::DiskFull { .. }), "{err}");
    assert!(err.to_string().contains("intact"));
    assert_eq!(indices(&store).len(), 10);
    assert_eq!(store.run_state(run.id).unwrap().next_pos, 10);
    assert_eq!(store.check_integrity().unwrap(), Ok(()));
}

#[test]
fn merged_shards_equal_the_single_run() {
    let dir = tempfile::tempdir().unwrap();
    // Items 0..9; item 7 repeats item 2's form, item 5 is rejected.
    let key = |i: u64| (i != 5).then(|| format!("k{}", if i == 7 { 2 } else { i }));
    let single_path = dir.path().join("single.db");
    let mut single = Store::open_or_create(&single_path).unwrap();
    let run = single.begin_run(&new_run(Shard::default(), 9)).unwrap();
    commit(&mut single, &run, 0, 9, key);
    let mut shard_paths = Vec::new();
    for i in 0..3 {
        let path = dir.path().join(format!("s{i}.db"));
        let mut s = Store::open_or_create(&path).unwrap();
        let shard = Shard::new(i, 3).unwrap();
        let run = s.begin_run(&new_run(shard, 9)).unwrap();
        commit(&mut s, &run, 0, shard.positions(9), key);
        shard_paths.push(path);
    }
    let out = dir.path().join("all.db");
    let report = merge(&out, &shard_paths, &|t| t.to_string()).unwrap();
    assert_eq!((report.runs, report.puzzles, report.duplicates), (1, 7, 1));
    let merged = Store::open_read_only(&out).unwrap();
    assert_eq!(indices(&merged), indices(&single));
    let (a, b) = (merged.summary().unwrap(), single.summary().unwrap());
    assert_eq!((a.work, &a.by_variant), (b.work, &b.by_variant));
    assert_eq!(a.by_variant[0].cage_sizes, vec![(2, 7 * 8)]);
    assert!(merged.runs().unwrap()[0].is_complete());

    // Refusals: an existing output, a missing shard, an unfinished shard.
    assert!(merge(&out, &shard_paths, &|t| t.to_string()).is_err());
    let err = merge(&dir.path().join("x.db"), &shard_paths[..2], &|t| {
        t.to_string()
    })
    .unwrap_err();
    assert!(err.to_string().contains("shard 2/3 is missing"), "{err}");
    let partial = dir.path().join("partial.db");
    let mut p = Store::open_or_create(&partial).unwrap();
    let run = p.begin_run(&new_run(Shard::new(2, 3).unwrap(), 9)).unwrap();
    commit(&mut p, &run, 0, 1, key);
    drop(p);
    let inputs = [shard_paths[0].clone(), shard_paths[1].clone(), partial];
    let err = merge(&dir.path().join("y.db"), &inputs, &|t| t.to_string()).unwrap_err();
    assert!(err.to_string().contains("unfinished"), "{err}");
    assert!(!dir.path().join("y.db").exists());
}

/// N9: the regrade on open commits in small transactions, reports each, and another writer
/// gets the write lock between them at once.
#[test]
fn the_regrade_on_open_lets_other_writers_in_between_batches() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("p.db");
    let mut store = Store::open_or_create(&path).unwrap();
    let run = store.begin_run(&new_run(Shard::default(), 40)).unwrap();
    commit(&mut store, &run, 0, 40, |i| Some(format!("k{i}")));
    store
        .conn
        .execute_batch("UPDATE puzzles SET grader = 1")
        .unwrap();
    drop(store);
    let mut reports = Vec::new();
    let store = Store::open_or_create_reporting(&path, &mut |p| {
        let other = rusqlite::Connection::open(&path).unwrap();
        other.busy_timeout(std::time::Duration::ZERO).unwrap();
        other.execute_batch("BEGIN IMMEDIATE; COMMIT").unwrap();
        reports.push(p);
    })
    .unwrap();
    assert!(reports.len() >= 2, "{reports:?}");
    assert_eq!(
        reports.last(),
        Some(&RegradeProgress {
            done: 40,
            total: 40
        })
    );
    let left: i64 = store
        .conn
        .query_row(
            "SELECT count(*) FROM puzzles WHERE grader IS NOT ?1",
            [crate::grader::GRADER_VERSION],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(left, 0);
}

/// N5: a store read as one snapshot does not see what a writer commits meanwhile, so its run
/// records and its puzzles agree.
#[test]
fn a_snapshot_sees_one_state_of_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("p.db");
    let mut writer = Store::open_or_create(&path).unwrap();
    let run = writer.begin_run(&new_run(Shard::default(), 3)).unwrap();
    commit(&mut writer, &run, 0, 3, |i| Some(format!("k{i}")));
    let reader = Store::open_read_only(&path)
        .unwrap()
        .into_snapshot()
        .unwrap();
    let before = reader.runs().unwrap();
    // The run is extended and committed while the reader is open.
    let run = writer.begin_run(&new_run(Shard::default(), 6)).unwrap();
    commit(&mut writer, &run, 3, 6, |i| Some(format!("k{i}")));
    assert_eq!(reader.runs().unwrap(), before);
    assert_eq!((before[0].count, before[0].next_pos), (3, 3));
    assert_eq!(indices(&reader).len(), 3);
    let fresh = Store::open_read_only(&path).unwrap();
    assert_eq!(indices(&fresh).len(), 6);
}
