//! Data-set checks (ignored without ../shared/data; a file absent from it is skipped with
//! "skipping: <path> absent"): the source example, the published and Solo killers against their
//! stored solutions, the first 1,000 17-clue puzzles, and `bench` over all. Each check asserts it
//! read the whole set (its known count), so a truncated file fails instead of passing.

use crate::common::{run, shared_data, shared_file};
use std::fs::File;
use std::io::BufReader;
use std::path::Path;
use sudoku_press::format::write_rows;
use sudoku_press::format::{Entry, Reader};
use sudoku_press::solver::{solve, Solver};

fn entries(path: &Path) -> Vec<Entry> {
    let file = File::open(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    Reader::new(BufReader::new(file), None)
        .and_then(|reader| reader.collect::<Result<Vec<_>, _>>())
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Every entry has exactly one solution, equal to the one stored with it.
fn assert_unique_and_stored(entries: &[Entry]) {
    let mut solver = Solver::new(entries[0].puzzle.geometry());
    for entry in entries {
        let report = solver.solve(&entry.puzzle, 2);
        assert_eq!(report.solutions.len(), 1, "line {}: not unique", entry.line);
        let stored = entry.solution.as_ref().expect("a stored solution");
        assert_eq!(&report.solutions[0], stored, "line {}", entry.line);
    }
}

#[test]
#[cfg_attr(
    not(shared_data),
    ignore = "needs ../shared/data or $SUDOKU_PRESS_DATA (absent when built)"
)]
fn source_example_solves_to_its_published_solution() {
    let Some(puzzle_file) = shared_file("killer/seed001_example.txt") else {
        return;
    };
    let Some(solution_file) = shared_file("killer/seed001_example.solution.txt") else {
        return;
    };
    let entries = entries(&puzzle_file);
    assert_eq!(entries.len(), 1);
    let report = solve(&entries[0].puzzle, 2);
    assert_eq!(report.solutions.len(), 1, "the example is unique");
    let mut printed = Vec::new();
    write_rows(&mut printed, &report.solutions[0]).unwrap();
    let expected = std::fs::read_to_string(solution_file).unwrap();
    assert_eq!(String::from_utf8(printed).unwrap(), expected);
}

#[test]
#[cfg_attr(
    not(shared_data),
    ignore = "needs ../shared/data or $SUDOKU_PRESS_DATA (absent when built)"
)]
fn krazydad_killers_are_unique_and_match_their_solutions() {
    let Some(path) = shared_file("killer/krazydad_vol1.jsonl") else {
        return;
    };
    let entries = entries(&path);
    assert_eq!(entries.len(), 800);
    assert_unique_and_stored(&entries);
}

#[test]
#[cfg_attr(
    not(shared_data),
    ignore = "needs ../shared/data or $SUDOKU_PRESS_DATA (absent when built)"
)]
fn solo_killers_are_unique_and_match_their_solutions() {
    for (file, count) in [
        ("killer/solo_levels.jsonl", 160),
        ("killer/solo_small.jsonl", 40),
    ] {
        let Some(path) = shared_file(file) else {
            continue;
        };
        let entries = entries(&path);
        assert_eq!(entries.len(), count, "{file}");
        assert_unique_and_stored(&entries);
    }
}

#[test]
#[cfg_attr(
    not(shared_data),
    ignore = "needs ../shared/data or $SUDOKU_PRESS_DATA (absent when built)"
)]
fn first_thousand_seventeen_clue_puzzles_are_unique() {
    let Some(path) = shared_file("sudoku/17_clue.txt") else {
        return;
    };
    let entries = entries(&path);
    assert_eq!(entries.len(), 49_158);
    let mut solver = Solver::new(entries[0].puzzle.geometry());
    for entry in entries.iter().take(1000) {
        let report = solver.solve(&entry.puzzle, 2);
        assert_eq!(report.solutions.len(), 1, "line {}", entry.line);
        assert!(entry.puzzle.is_solution(&report.solutions[0]));
    }
}

#[test]
#[cfg_attr(
    not(shared_data),
    ignore = "needs ../shared/data or $SUDOKU_PRESS_DATA (absent when built)"
)]
fn bench_counts_every_standard_set() {
    let Some(data) = shared_data() else { return };
    let out = run(&[
        "bench",
        "--data",
        data.to_str().unwrap(),
        "--min-seconds",
        "0",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let table = String::from_utf8(out.stdout).unwrap();
    for (set, file, counts) in [
        ("krazydad_vol1", "killer/krazydad_vol1.jsonl", "0/800/0"),
        ("solo 3x3kdu", "killer/solo_levels.jsonl", "0/40/0"),
        ("solo 2x2kdb", "killer/solo_small.jsonl", "0/20/0"),
        ("17_clue", "sudoku/17_clue.txt", "0/49158/0"),
        ("top1465", "sudoku/top1465.txt", "0/1465/0"),
    ] {
        // `bench` leaves out the sets it does not find; so does this check, saying so.
        if shared_file(file).is_none() {
            continue;
        }
        let row = table.lines().find(|l| l.starts_with(set));
        let row = row.unwrap_or_else(|| panic!("no row for {set} in\n{table}"));
        assert!(row.ends_with(counts), "{row}");
    }
}

#[test]
#[cfg_attr(
    not(shared_data),
    ignore = "needs ../shared/data or $SUDOKU_PRESS_DATA (absent when built)"
)]
fn hardest_killers_match_their_solutions() {
    // The seven quickest of the hard set, 3k-160k nodes each (the rest take up to 3 s each;
    // scripts/bench_hard.sh times them).
    let Some(quick) = hard_killers(&[
        "Wecoc #1",
        "Wecoc #1 [mod A]",
        "Wecoc #2",
        "mathemagic-1",
        "mathemagic-2",
        "mathemagic-4",
        "mathemagic-5",
    ]) else {
        return;
    };
    assert_unique_and_stored(&quick);
}

#[test]
#[cfg_attr(
    not(shared_data),
    ignore = "needs ../shared/data or $SUDOKU_PRESS_DATA (absent when built)"
)]
fn a_solver_reused_on_hard_killers_finds_what_fresh_ones_find() {
    // The solver keeps the exact cage rule's results from one hard search to the next: a search
    // must find the same (solutions and nodes) whatever earlier searches left there.
    let Some(quick) = hard_killers(&["Wecoc #1", "Wecoc #2", "mathemagic-5"]) else {
        return;
    };
    let mut reused = Solver::new(quick[0].puzzle.geometry());
    for round in 0..2 {
        for entry in &quick {
            let fresh = Solver::new(entry.puzzle.geometry()).solve(&entry.puzzle, 2);
            let again = reused.solve(&entry.puzzle, 2);
            assert_eq!(again, fresh, "{} (round {round})", id_of(entry));
        }
    }
}

/// The puzzles of `killer/hard_killers.jsonl` with these ids (all of them must be there), or
/// `None` (after saying so) when the shared data or the file is absent.
fn hard_killers(ids: &[&str]) -> Option<Vec<Entry>> {
    let path = shared_file("killer/hard_killers.jsonl")?;
    let all = entries(&path);
    assert_eq!(all.len(), 17, "{}", path.display());
    let found: Vec<Entry> = all
        .into_iter()
        .filter(|e| ids.contains(&id_of(e).as_str()))
        .collect();
    assert_eq!(found.len(), ids.len(), "ids {ids:?}");
    Some(found)
}

fn id_of(entry: &Entry) -> String {
    let id = entry.object.as_ref().and_then(|o| o.get("id"));
    id.as_ref()
        .and_then(|v| v.as_str())
        .unwrap_or_default()
        .to_string()
}
