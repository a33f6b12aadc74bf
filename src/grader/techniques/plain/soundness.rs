//! Soundness of every plain finder: on generated puzzles with known solutions, a small driver
//! applies singles, set-level cage combinations and the plain finders until stuck, and checks
//! that no step removes the true digit or places a wrong one, and that every step makes progress.

use super::FINDERS;
use crate::bitset::DigitSet;
use crate::geometry::{Cell, Digit, Geometry, House};
use crate::grader::state::Board;
use crate::grader::step::{Step, Technique};
use crate::grid::Grid;
use crate::puzzle::Puzzle;
use crate::solver::combos::Combos;
use std::collections::BTreeMap;

/// A naked or hidden single, or the last cell of a cage (checked like every other step).
fn single(board: &Board) -> Option<(Cell, Digit)> {
    let g = board.geometry();
    for c in g.cells() {
        if board.placed(c).is_none() && board.candidates(c).len() == 1 {
            return Some((c, board.candidates(c).first().unwrap()));
        }
    }
    for h in 0..g.house_count() {
        let h = House::new(h as u8);
        for d in 1..=board.size() as u8 {
            let d = Digit::new(d);
            let places = board.places_for(h, d);
            if places.len() == 1 {
                return places.iter().next().map(|c| (c, d));
            }
        }
    }
    None
}

/// Digits outside every live combination of a cage (set level), as eliminations.
fn cage_combinations(board: &Board) -> Vec<(Cell, Digit)> {
    let table = Combos::of(board.size());
    let mut out = Vec::new();
    for cage in board.puzzle().cages() {
        let mut placed = DigitSet::EMPTY;
        let mut sum = 0u16;
        let open: Vec<Cell> = cage
            .cells
            .iter()
            .copied()
            .filter(|&c| match board.placed(c) {
                Some(d) => {
                    placed.insert(d);
                    sum += u16::from(d.get());
                    false
                }
                None => true,
            })
            .collect();
        if open.is_empty() || sum > cage.sum {
            continue;
        }
        let union = open
            .iter()
            .fold(DigitSet::EMPTY, |u, &c| u.union(board.candidates(c)));
        let mut may = DigitSet::EMPTY;
        for &m in table.get(open.len(), usize::from(cage.sum - sum)) {
            let m = DigitSet::from_bits(m);
            if m.intersection(placed).is_empty()
                && m.difference(union).is_empty()
                && open
                    .iter()
                    .all(|&c| !board.candidates(c).intersection(m).is_empty())
            {
                may = may.union(m);
            }
        }
        for &c in &open {
            for d in board.candidates(c).difference(may).iter() {
                out.push((c, d));
            }
        }
        if !out.is_empty() {
            return out;
        }
    }
    out
}

fn check(step: &Step, board: &Board, solution: &Grid, puzzle: &Puzzle) {
    assert!(step.is_progress(), "{:?} made no progress", step.technique);
    for &(c, d) in &step.eliminations {
        assert!(
            board.placed(c).is_none() && board.candidates(c).contains(d),
            "{:?} removes {} from {:?}, which is not a candidate: {}",
            step.technique,
            d.get(),
            c,
            step.reason
        );
        assert_ne!(
            solution.get(c),
            Some(d),
            "{:?} removes the true digit {} from {}: {}\npuzzle {:?}",
            step.technique,
            d.get(),
            crate::puzzle::cell_name(board.geometry(), c),
            step.reason,
            puzzle
        );
    }
    for &(c, d) in &step.placements {
        assert_eq!(
            solution.get(c),
            Some(d),
            "{:?} places a wrong digit: {}",
            step.technique,
            step.reason
        );
    }
}

/// Solve as far as singles, cage combinations and the plain finders go; count steps per technique.
fn drive(puzzle: &Puzzle, solution: &Grid, counts: &mut BTreeMap<Technique, usize>) -> bool {
    let mut board = Board::new(puzzle);
    'outer: for _ in 0..10_000 {
        if board.is_solved() {
            return true;
        }
        if let Some((c, d)) = single(&board) {
            assert_eq!(
                solution.get(c),
                Some(d),
                "a single went wrong: the board was broken"
            );
            board.place(c, d);
            continue;
        }
        let cage = cage_combinations(&board);
        if !cage.is_empty() {
            for (c, d) in cage {
                assert_ne!(solution.get(c), Some(d), "cage combinations went wrong");
                board.eliminate(c, d);
            }
            continue;
        }
        for (technique, finder) in FINDERS {
            if let Some(step) = finder(&board) {
                assert_eq!(step.technique, *technique);
                check(&step, &board, solution, puzzle);
                *counts.entry(step.technique).or_default() += 1;
                board
                    .apply(&step)
                    .expect("a sound step keeps the board consistent");
                continue 'outer;
            }
        }
        return false;
    }
    false
}

fn generated(
    variant: crate::generator::Variant,
    size: u8,
    count: u64,
    seed: u64,
) -> Vec<(Puzzle, Grid)> {
    use crate::generator::{generate_puzzle, GeneratorConfig, Outcome};
    let config = GeneratorConfig {
        variant,
        size,
        ..GeneratorConfig::default()
    };
    (0..count)
        .filter_map(|i| match generate_puzzle(&config, seed, i) {
            Outcome::Generated(g) => Some((g.puzzle, g.solution)),
            Outcome::Rejected(_) => None,
        })
        .collect()
}

fn run(label: &str, items: &[(Puzzle, Grid)]) -> BTreeMap<Technique, usize> {
    let mut counts = BTreeMap::new();
    let mut solved = 0;
    for (puzzle, solution) in items {
        if drive(puzzle, solution, &mut counts) {
            solved += 1;
        }
    }
    println!("{label}: {solved}/{} solved, steps {counts:?}", items.len());
    counts
}

#[test]
fn plain_finders_are_sound_on_classic_puzzles() {
    use crate::generator::Variant;
    let mut total: BTreeMap<Technique, usize> = BTreeMap::new();
    for (variant, size, count) in [
        (Variant::Classic, 9, 60),
        (Variant::Classic, 4, 20),
        (Variant::Classic, 6, 20),
        (Variant::Jigsaw, 9, 10),
    ] {
        let items = generated(variant, size, count, 11);
        for (t, n) in run(&format!("{variant:?} {size}"), &items) {
            *total.entry(t).or_default() += n;
        }
    }
    assert!(total.contains_key(&Technique::LockedCandidates));
}

#[test]
fn plain_finders_are_sound_on_killers() {
    use crate::generator::Variant;
    let mut total: BTreeMap<Technique, usize> = BTreeMap::new();
    for (variant, size, count) in [
        (Variant::Killer, 9, 30),
        (Variant::Killer, 4, 20),
        (Variant::Killer, 6, 10),
        (Variant::KillerJigsaw, 9, 5),
    ] {
        let items = generated(variant, size, count, 12);
        for (t, n) in run(&format!("{variant:?} {size}"), &items) {
            *total.entry(t).or_default() += n;
        }
    }
    assert!(!total.is_empty());
}

#[test]
fn plain_finders_are_sound_on_random_partial_killers() {
    use crate::test_support::{random_puzzle, random_solution};
    use rand::SeedableRng;
    let mut rng = rand_pcg::Pcg64::seed_from_u64(5);
    let mut items = Vec::new();
    for (size, count) in [(9, 150), (6, 50), (8, 30), (12, 10)] {
        let g = Geometry::standard(size).unwrap();
        for _ in 0..count {
            let solution = random_solution(&g, &mut rng);
            let puzzle = random_puzzle(&g, &solution, 0.5, 0.25, &mut rng);
            items.push((puzzle, solution));
        }
    }
    let counts = run("random partial killers", &items);
    assert!(!counts.is_empty());
}

/// `../shared/data` (or `SUDOKU_PRESS_DATA`), if present.
fn shared_data() -> Option<std::path::PathBuf> {
    let dir = std::env::var_os("SUDOKU_PRESS_DATA")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| {
            std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/data")
        });
    if dir.is_dir() {
        Some(dir)
    } else {
        eprintln!("skipping: ../shared/data is absent");
        None
    }
}

/// Puzzles of a data file with their solutions (stored, or found by the solver).
fn data_set(path: &std::path::Path) -> Vec<(Puzzle, Grid)> {
    use crate::format::Reader;
    let Ok(file) = std::fs::File::open(path) else {
        eprintln!("skipping: {} is absent", path.display());
        return Vec::new();
    };
    let reader = Reader::new(std::io::BufReader::new(file), None).expect("a readable data file");
    reader
        .map(|entry| {
            let entry = entry.expect("a valid puzzle");
            let solution = entry.solution.unwrap_or_else(|| {
                let report = crate::solver::solve(&entry.puzzle, 2);
                assert_eq!(report.solutions.len(), 1, "line {}: not unique", entry.line);
                report.solutions[0].clone()
            });
            (entry.puzzle, solution)
        })
        .collect()
}

#[test]
fn plain_finders_are_sound_on_the_shared_data_sets() {
    let Some(data) = shared_data() else { return };
    // Every puzzle of the small sets, every fourth of the large ones (the full sets take half a
    // minute: run them by setting PLAIN_SOUNDNESS_ALL=1).
    let all = std::env::var_os("PLAIN_SOUNDNESS_ALL").is_some();
    for (file, step) in [
        ("sudoku/top1465.txt", 4),
        ("killer/solo_small.jsonl", 1),
        ("killer/solo_levels.jsonl", 1),
        ("killer/krazydad_vol1.jsonl", 4),
        ("killer/hard_killers.jsonl", 1),
    ] {
        let items: Vec<_> = data_set(&data.join(file))
            .into_iter()
            .step_by(if all { 1 } else { step })
            .collect();
        run(file, &items);
    }
}
