//! Soundness of every plain finder: on generated and published puzzles with known solutions, a
//! small driver applies the grader's ladder (singles, cage logic) and then the plain finders until
//! stuck, and checks that no step removes the true digit or places a wrong one, and that every
//! step makes progress.

use super::FINDERS;
use crate::geometry::Geometry;
use crate::grader::level::Level;
use crate::grader::state::Board;
use crate::grader::step::{Step, Technique};
use crate::grader::techniques::{Context, LADDER};
use crate::grid::Grid;
use crate::puzzle::Puzzle;
use std::collections::BTreeMap;

/// Every step must be sound; a plain step (`fresh`) must also remove only live candidates (the
/// ladder's batch steps may overlap one another).
fn check(step: &Step, board: &Board, solution: &Grid, puzzle: &Puzzle, fresh: bool) {
    assert!(step.is_progress(), "{:?} made no progress", step.technique);
    for &(c, d) in &step.eliminations {
        assert!(
            !fresh || (board.placed(c).is_none() && board.candidates(c).contains(d)),
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

/// Where the plain finders sit in the driver's ladder.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Order {
    /// After every cage technique (as in the grader): plain steps where cage logic is stuck.
    Last,
    /// Right after the easy rungs (singles, first cage facts): plain steps on killer boards that
    /// cage logic would have cleared, for more varied positions.
    Early,
}

/// Solve as far as the grader's ladder (singles and cage logic) and the plain finders go, each
/// step checked against the solution; count plain steps per technique.
fn drive(
    puzzle: &Puzzle,
    solution: &Grid,
    order: Order,
    counts: &mut BTreeMap<Technique, usize>,
) -> bool {
    let mut board = Board::new(puzzle);
    let mut ctx = Context::new(puzzle);
    let mut found = Vec::new();
    let cage_rungs: Vec<_> = LADDER
        .iter()
        .filter(|r| !FINDERS.iter().any(|(t, _)| *t == r.technique))
        .collect();
    let split = match order {
        Order::Last => cage_rungs.len(),
        Order::Early => cage_rungs
            .iter()
            .position(|r| r.level > Level::Easy)
            .unwrap_or(cage_rungs.len()),
    };
    'outer: for _ in 0..10_000 {
        if board.is_solved() {
            return true;
        }
        for (i, rung) in cage_rungs.iter().enumerate() {
            if i == split && plain_step(&mut board, solution, puzzle, counts) {
                continue 'outer;
            }
            found.clear();
            rung.find(&mut ctx, &board, &mut found);
            if !found.is_empty() {
                for step in found.drain(..) {
                    check(&step, &board, solution, puzzle, false);
                    board
                        .apply(&step)
                        .expect("a sound step keeps the board consistent");
                }
                continue 'outer;
            }
        }
        if split == cage_rungs.len() && plain_step(&mut board, solution, puzzle, counts) {
            continue 'outer;
        }
        return false;
    }
    false
}

/// The first plain step, checked and applied; false when no finder sees one.
fn plain_step(
    board: &mut Board,
    solution: &Grid,
    puzzle: &Puzzle,
    counts: &mut BTreeMap<Technique, usize>,
) -> bool {
    for (technique, finder) in FINDERS {
        if let Some(step) = finder(board) {
            assert_eq!(step.technique, *technique);
            check(&step, board, solution, puzzle, true);
            *counts.entry(step.technique).or_default() += 1;
            board
                .apply(&step)
                .expect("a sound step keeps the board consistent");
            return true;
        }
    }
    false
}

/// 10 with `PLAIN_SOUNDNESS_ALL` set (a long run over ten times the generated puzzles and every
/// puzzle of the shared sets), else 1.
fn scale() -> usize {
    if std::env::var_os("PLAIN_SOUNDNESS_ALL").is_some() {
        10
    } else {
        1
    }
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

/// Drive every item with the plain finders last, then (killers) early; plain step counts.
fn run(label: &str, items: &[(Puzzle, Grid)]) -> BTreeMap<Technique, usize> {
    let mut counts = BTreeMap::new();
    for order in [Order::Last, Order::Early] {
        let mut solved = 0;
        let mut these = BTreeMap::new();
        let killers: Vec<_> = items
            .iter()
            .filter(|(p, _)| order == Order::Last || p.is_killer())
            .collect();
        if killers.is_empty() {
            continue;
        }
        for (puzzle, solution) in &killers {
            if drive(puzzle, solution, order, &mut these) {
                solved += 1;
            }
        }
        println!(
            "{label}, plain finders {order:?}: {solved}/{} solved, plain steps {these:?}",
            killers.len()
        );
        for (t, n) in these {
            *counts.entry(t).or_default() += n;
        }
    }
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
        let items = generated(variant, size, count * scale() as u64, 11);
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
        let items = generated(variant, size, count * scale() as u64, 12);
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
    for (size, count) in [(9, 150), (6, 50), (8, 30), (12, 10), (16, 4)] {
        let count = count * scale();
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

/// The file `relative` of the shared data (`$SUDOKU_PRESS_DATA`, else `../shared/data`), or
/// `None` after printing "skipping: <path> absent" (the folder or just the file): the same rule
/// as the integration tests' `shared_file` (tests/integration/common.rs), which a unit test of
/// the library cannot call.
pub(crate) fn shared_file(relative: &str) -> Option<std::path::PathBuf> {
    let dir = std::env::var_os("SUDOKU_PRESS_DATA")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| {
            std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/data")
        });
    let path = dir.join(relative);
    if !dir.is_dir() {
        eprintln!("skipping: {} absent", dir.display());
        None
    } else if !path.is_file() {
        eprintln!("skipping: {} absent", path.display());
        None
    } else {
        Some(path)
    }
}

/// Puzzles of a data file with their solutions (stored, or found by the solver).
pub(crate) fn data_set(path: &std::path::Path) -> Vec<(Puzzle, Grid)> {
    use crate::format::Reader;
    let file = std::fs::File::open(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
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
#[cfg_attr(
    not(shared_data),
    ignore = "needs ../shared/data or $SUDOKU_PRESS_DATA (absent when built)"
)]
fn plain_finders_are_sound_on_the_shared_data_sets() {
    // Every puzzle of the small sets, every fourth of the large ones (the full sets take half a
    // minute: run them by setting PLAIN_SOUNDNESS_ALL=1).
    let all = std::env::var_os("PLAIN_SOUNDNESS_ALL").is_some();
    for (file, count, step) in [
        ("sudoku/top1465.txt", 1465, 4),
        ("killer/solo_small.jsonl", 40, 1),
        ("killer/solo_levels.jsonl", 160, 1),
        ("killer/krazydad_vol1.jsonl", 800, 4),
        ("killer/hard_killers.jsonl", 17, 1),
    ] {
        let Some(path) = shared_file(file) else {
            continue;
        };
        let items = data_set(&path);
        assert_eq!(items.len(), count, "{file}: puzzles read");
        let items: Vec<_> = items
            .into_iter()
            .step_by(if all { 1 } else { step })
            .collect();
        run(file, &items);
    }
}
