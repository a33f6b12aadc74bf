//! Killer forcing chains: where they are the only move, locked candidates inside a branch, and
//! soundness on random and published killers (every removed candidate checked against the known
//! solution).

use super::*;
use crate::geometry::Geometry;
use crate::grader::grade::walk;
use crate::grader::is_sound;
use crate::grader::techniques::plain::soundness::{data_set, shared_file};
use crate::grader::techniques::LADDER;
use crate::grader::Verdict;
use crate::grid::Grid;
use crate::puzzle::Puzzle;

/// Apply the rungs below `top` until none moves (the forcing rungs with no limit on their work);
/// `false` when the board got solved on the way (the only-move tests).
fn close_below(p: &Puzzle, board: &mut Board, top: Technique) -> bool {
    let mut ctx = Context::new(p);
    ctx.forcing_left = usize::MAX / 2;
    'pass: while !board.is_solved() {
        for r in LADDER.iter().take_while(|r| r.technique != top) {
            let mut out = Vec::new();
            r.find(&mut ctx, board, &mut out);
            if !out.is_empty() {
                for s in &out {
                    board.apply(s).expect("sound steps keep the board possible");
                }
                continue 'pass;
            }
        }
        return true;
    }
    false
}

/// Random killers (part-caged, a few givens, often many solutions): each step the rung takes,
/// followed to its end from the first board, agrees with the solution the cages were grown on
/// (a sound step removes only what no solution has, so any solution checks it).
#[test]
fn killer_forcing_is_sound_on_random_layouts() {
    let fired = sound_on_random_layouts(forcing_step, 60);
    assert!(fired > 100, "{fired} steps");
}

/// The same for nested killer forcing chains (fewer layouts: with no limit on its work, a nested
/// look at a wide-open random board costs seconds).
#[test]
fn nested_killer_forcing_is_sound_on_random_layouts() {
    let fired = sound_on_random_layouts(nested_step, 20);
    assert!(fired > 10, "{fired} steps");
}

/// Steps of `rung` taken from the first board of `rounds` random killers, each checked against
/// the solution the cages were grown on: how many.
fn sound_on_random_layouts(rung: fn(&Board) -> Option<Step>, rounds: usize) -> usize {
    use crate::test_support::{random_puzzle, random_solution};
    use rand::SeedableRng;
    let g = Geometry::standard(9).unwrap();
    let mut rng = rand_pcg::Pcg64::seed_from_u64(2026);
    let mut fired = 0;
    for round in 0..rounds {
        let solution = random_solution(&g, &mut rng);
        let cover = [1.0, 0.7, 0.4][round % 3];
        let p = random_puzzle(&g, &solution, cover, 0.05, &mut rng);
        let mut board = Board::new(&p);
        for _ in 0..40 {
            let Some(step) = rung(&board) else {
                break;
            };
            assert!(is_sound(&step, &solution), "{step:?}");
            fired += 1;
            board.apply(&step).unwrap();
        }
    }
    fired
}

/// The walk with the known solution stops at the first wrong step (`Verdict::Unsound`); on
/// every other killer of tarek's odd half none is wrong, and both forcing rungs take steps there
/// (`hard_killers.jsonl` is walked whole, with its solutions, by the integration test
/// `grader_soundness`).
#[test]
#[cfg_attr(
    not(shared_data),
    ignore = "needs ../shared/data or $SUDOKU_PRESS_DATA (absent when built)"
)]
fn killer_forcing_is_sound_on_published_hard_killers() {
    let Some(path) = shared_file("killer/tarek_odd.jsonl") else {
        return;
    };
    let mut fired = [0; 2];
    for (p, solution) in data_set(&path).iter().step_by(2) {
        let path = walk(p, Some(solution), false);
        assert_ne!(path.grade.verdict, Verdict::Unsound, "{:?}", path.grade);
        let count = |t: Technique| {
            path.grade
                .techniques
                .iter()
                .find(|x| x.0 == t)
                .map_or(0, |x| x.1)
        };
        fired[0] += count(Technique::KillerForcingChain);
        fired[1] += count(Technique::NestedKillerForcingChain);
    }
    assert!(fired[0] > 0 && fired[1] > 0, "{fired:?}");
}

/// tarek-5 closed below the rung (every cheaper rung, the plain forcing chains and the joints
/// included, is stuck): the killer forcing chain moves, each of its steps is sound, and followed
/// by the cheaper rungs it finishes the puzzle without trial.
#[test]
#[cfg_attr(
    not(shared_data),
    ignore = "needs ../shared/data or $SUDOKU_PRESS_DATA (absent when built)"
)]
fn killer_forcing_is_the_only_move_on_tarek_5() {
    let Some(path) = shared_file("killer/tarek_odd.jsonl") else {
        return;
    };
    let items = data_set(&path);
    let (p, solution) = &items[2];
    let mut board = Board::new(p);
    board.set_explaining(true);
    assert!(
        close_below(p, &mut board, Technique::KillerForcingChain),
        "tarek-5 is stuck below the rung"
    );
    let step = forcing_step(&board).expect("the rung moves");
    assert!(is_sound(&step, solution), "{step:?}");
    assert!(
        step.reason
            .contains("through the cages, houses, innie/outie sums and locked candidates"),
        "{}",
        step.reason
    );
    let path = walk(p, Some(solution), false);
    assert_eq!(path.grade.verdict, Verdict::Unique);
    assert!(!path.grade.trial, "{:?}", path.grade.techniques);
}

/// tarek-11 closed below the nested rung (every cheaper rung stuck, killer forcing chains with no
/// limit on their work included): the nested killer forcing chain moves, its step is sound, and
/// the walk finishes the puzzle without trial (it needed 11 trial steps before the rung).
#[test]
#[cfg_attr(
    not(shared_data),
    ignore = "needs ../shared/data or $SUDOKU_PRESS_DATA (absent when built)"
)]
fn nested_killer_forcing_is_the_only_move_on_tarek_11() {
    let Some(path) = shared_file("killer/tarek_odd.jsonl") else {
        return;
    };
    let items = data_set(&path);
    let (p, solution) = &items[5];
    let mut board = Board::new(p);
    board.set_explaining(true);
    assert!(
        close_below(p, &mut board, Technique::NestedKillerForcingChain),
        "tarek-11 is stuck below the rung"
    );
    assert!(forcing_step(&board).is_none());
    let step = nested_step(&board).expect("the rung moves");
    assert_eq!(step.technique, Technique::NestedKillerForcingChain);
    assert!(is_sound(&step, solution), "{step:?}");
    assert!(
        step.reason.contains("forcing chain of its own"),
        "{}",
        step.reason
    );
    let path = walk(p, Some(solution), false);
    assert_eq!(path.grade.verdict, Verdict::Unique);
    assert!(!path.grade.trial, "{:?}", path.grade.techniques);
}

/// A constructed position: a 3(2) and a 4(2) in columns 1-2 (rows 1 and 4), the rest uncaged.
/// The rung's first step (from a fresh board) removes only what no solution has: each removal
/// outside the cages, given as a digit, leaves the puzzle without a solution (the solver says
/// so); inside them, no digit of the cage's one combination goes.
#[test]
fn every_removal_of_a_constructed_position_is_impossible() {
    let cell = |r: usize, c: usize| crate::geometry::Cell::new((r * 9 + c) as u8);
    let cage = |sum: u16, cells: &[(usize, usize)]| {
        crate::cage::Cage::new(sum, cells.iter().map(|&(r, c)| cell(r, c)).collect())
    };
    let g = Geometry::standard(9).unwrap();
    let cages = vec![cage(3, &[(0, 0), (0, 1)]), cage(4, &[(3, 0), (3, 1)])];
    let p = Puzzle::new(g.clone(), Grid::empty(9), cages.clone()).unwrap();
    let mut board = Board::new(&p);
    board.set_explaining(true);
    let step = forcing_step(&board).expect("a step");
    assert_eq!(step.technique, Technique::KillerForcingChain);
    assert!(step.reason.starts_with("following "), "{}", step.reason);
    for &(c, d) in &step.eliminations {
        // A caged cell takes no given: its cage's digits are what some solution has there.
        let caged: Option<&[u8]> = match (c.as_index() / 9, c.as_index() % 9) {
            (0, 0) | (0, 1) => Some(&[1, 2]),
            (3, 0) | (3, 1) => Some(&[1, 3]),
            _ => None,
        };
        if let Some(digits) = caged {
            assert!(!digits.contains(&d.get()), "{c:?} {d:?}: {}", step.reason);
            continue;
        }
        let mut values = vec![0u8; 81];
        values[c.as_index()] = d.get();
        let givens = Grid::from_values(9, values).unwrap();
        let with = Puzzle::new(g.clone(), givens, cages.clone()).unwrap();
        assert!(
            crate::solver::solve(&with, 1).solutions.is_empty(),
            "{c:?} = {d:?} has a solution: {}",
            step.reason
        );
    }
}

/// Locked candidates inside a branch: a 3(2) cage (cells 0 and 1, {1,2}) and a cell that sees
/// both (cell 2, {1,2,3}). Each cage digit is needed and has two places, so neither the cage's
/// combinations nor singles narrow cell 2; both places lie in its sight, so it keeps only 3.
#[test]
fn a_branch_takes_a_needed_digit_from_the_cells_that_see_all_its_places() {
    use super::super::search::{Joint, Sum};
    use crate::geometry::Cell;
    let mut joint = Joint::default();
    for (i, cands) in [0b011u16, 0b011, 0b111].into_iter().enumerate() {
        joint.index_of(Cell::new(i as u8), cands);
    }
    joint.differ(0, 1);
    joint.differ(0, 2);
    joint.differ(1, 2);
    joint.sums.push(Sum {
        terms: vec![(0, 1), (1, 1)],
        total: 3,
    });
    let forcing = joint.forcing().expect("possible");
    assert_eq!(forcing.domains(), &[0b011, 0b011, 0b100]);
    // Seen from one place only, the digit stays: cell 2 no longer sees cell 1.
    joint.sees[1] &= !0b100;
    joint.sees[2] &= !0b010;
    let forcing = joint.forcing().expect("possible");
    assert_eq!(forcing.domains(), &[0b011, 0b011, 0b111]);
}

/// tarek-21 needed one trial step with the chains following cages, houses and innie/outie sums
/// alone; with locked candidates inside each branch the walk finishes it without trial, its
/// hardest steps killer forcing chains and nested ones.
#[test]
#[cfg_attr(
    not(shared_data),
    ignore = "needs ../shared/data or $SUDOKU_PRESS_DATA (absent when built)"
)]
fn locked_candidates_in_the_chains_finish_tarek_21_without_trial() {
    let Some(path) = shared_file("killer/tarek_odd.jsonl") else {
        return;
    };
    let items = data_set(&path);
    let (p, solution) = &items[10];
    let path = walk(p, Some(solution), false);
    assert_eq!(path.grade.verdict, Verdict::Unique);
    assert!(!path.grade.trial, "{:?}", path.grade.techniques);
    assert!(path
        .grade
        .techniques
        .iter()
        .any(|&(t, n)| t == Technique::NestedKillerForcingChain && n > 0));
}
