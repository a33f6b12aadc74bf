//! Each killer technique on a small constructed position that needs it.

use super::{blocking, cages, must, sets, sums, Context, LADDER};
use crate::cage::Cage;
use crate::geometry::{Cell, Digit, Geometry};
use crate::grader::state::Board;
use crate::grader::step::{Step, Technique};
use crate::grid::Grid;
use crate::puzzle::Puzzle;

fn cell(r: usize, c: usize) -> Cell {
    Cell::new((r * 9 + c) as u8)
}

fn cage(sum: u16, cells: &[(usize, usize)]) -> Cage {
    Cage::new(sum, cells.iter().map(|&(r, c)| cell(r, c)).collect())
}

fn puzzle(cages: Vec<Cage>) -> Puzzle {
    Puzzle::new(Geometry::standard(9).unwrap(), Grid::empty(9), cages).unwrap()
}

type CageFinder = fn(&mut Context, &Board, &mut Vec<Step>);

fn run(p: &Puzzle, prepare: impl Fn(&mut Board), f: CageFinder) -> Vec<Step> {
    let mut board = Board::new(p);
    prepare(&mut board);
    let mut ctx = Context::new(p);
    let mut out = Vec::new();
    f(&mut ctx, &board, &mut out);
    out
}

fn removed(steps: &[Step], c: Cell) -> Vec<u8> {
    let mut v: Vec<u8> = steps
        .iter()
        .flat_map(|s| s.eliminations.iter())
        .filter(|e| e.0 == c)
        .map(|e| e.1.get())
        .collect();
    v.sort();
    v
}

fn keep_only(board: &mut Board, c: Cell, digits: &[u8]) {
    for d in 1..=9u8 {
        if !digits.contains(&d) {
            board.eliminate(c, Digit::new(d));
        }
    }
}

#[test]
fn unique_combination_keeps_the_one_set() {
    let p = puzzle(vec![cage(3, &[(0, 0), (0, 1)])]);
    let steps = run(&p, |_| {}, cages::unique_combination);
    assert_eq!(steps.len(), 1);
    assert_eq!(steps[0].technique, Technique::UniqueCombination);
    assert_eq!(removed(&steps, cell(0, 0)), vec![3, 4, 5, 6, 7, 8, 9]);
}

#[test]
fn bounds_and_combinations() {
    let p = puzzle(vec![
        cage(15, &[(0, 0), (0, 1)]),
        cage(10, &[(4, 4), (4, 5)]),
    ]);
    let steps = run(&p, |_| {}, cages::cage_bounds);
    assert_eq!(removed(&steps, cell(0, 0)), vec![1, 2, 3, 4, 5]);
    // 10(2): bounds leave 1..9, the combinations {1,9},{2,8},{3,7},{4,6} exclude 5.
    assert!(removed(&steps, cell(4, 4)).is_empty());
    let steps = run(&p, |_| {}, cages::cage_combination);
    assert_eq!(removed(&steps, cell(4, 4)), vec![5]);
    assert_eq!(steps[0].technique, Technique::CageCombination);
}

#[test]
fn permutation_analysis_sees_what_sets_miss() {
    let p = puzzle(vec![cage(6, &[(0, 0), (0, 1), (1, 0)])]);
    let prepare = |b: &mut Board| {
        keep_only(b, cell(0, 0), &[1, 2]);
        keep_only(b, cell(0, 1), &[1, 2]);
        keep_only(b, cell(1, 0), &[1, 2, 3]);
    };
    assert!(run(&p, prepare, cages::cage_combination).is_empty());
    let steps = run(&p, prepare, cages::cage_permutation);
    assert_eq!(removed(&steps, cell(1, 0)), vec![1, 2]);
}

#[test]
fn combination_clash_with_a_cell_that_sees_the_cage() {
    // 10(2) in row 1 = {1,9},{2,8},{3,7},{4,6}; r1c9 (same row) holds only {4,6}: {4,6} dies.
    let p = puzzle(vec![cage(10, &[(0, 0), (0, 1)])]);
    let prepare = |b: &mut Board| {
        keep_only(b, cell(0, 8), &[4, 6]);
        for c in [cell(0, 0), cell(0, 1)] {
            keep_only(b, c, &[1, 9, 2, 8, 3, 7, 4, 6]);
        }
    };
    let steps = run(&p, prepare, cages::combination_clash);
    assert_eq!(removed(&steps, cell(0, 0)), vec![4, 6]);
}

#[test]
fn single_innie_of_a_row() {
    let p = puzzle(vec![
        cage(10, &[(0, 0), (0, 1), (0, 2), (0, 3)]),
        cage(26, &[(0, 4), (0, 5), (0, 6), (0, 7)]),
    ]);
    let steps = run(&p, |_| {}, sums::single_innie_outie);
    let placed: Vec<_> = steps.iter().flat_map(|s| s.placements.clone()).collect();
    assert!(placed.contains(&(cell(0, 8), Digit::new(9))), "{steps:?}");
}

#[test]
fn multi_cell_innies_and_outies() {
    // Row 1 minus r1c8, r1c9 is caged with 42: the innies r1c8 + r1c9 = 3 = {1,2}.
    let p = puzzle(vec![
        cage(15, &[(0, 0), (0, 1), (0, 2)]),
        cage(27, &[(0, 3), (0, 4), (0, 5), (0, 6)]),
    ]);
    let steps = run(&p, |_| {}, sums::multi_innie_outie);
    assert_eq!(removed(&steps, cell(0, 7)), vec![3, 4, 5, 6, 7, 8, 9]);
    assert_eq!(steps[0].technique, Technique::MultiInnieOutie);
}

#[test]
fn innie_outie_difference_in_a_box() {
    // Box 1 = three cages; the 3-cell cage of row 1 sticks out to r1c4 and leaves r3c3 out:
    // r1c4 - r3c3 = (14 + 17 + 15) - 45 = 1.
    let p = puzzle(vec![
        cage(14, &[(0, 1), (0, 2), (0, 3)]),
        cage(17, &[(0, 0), (1, 0), (2, 0)]),
        cage(15, &[(1, 1), (1, 2), (2, 1)]),
    ]);
    let prepare = |b: &mut Board| keep_only(b, cell(2, 2), &[8, 9]);
    let steps = run(&p, prepare, sums::innie_outie_difference);
    let placed: Vec<_> = steps.iter().flat_map(|s| s.placements.clone()).collect();
    assert!(placed.contains(&(cell(0, 3), Digit::new(9))), "{steps:?}");
    assert!(placed.contains(&(cell(2, 2), Digit::new(8))), "{steps:?}");
}

#[test]
fn innies_of_two_rows() {
    let p = puzzle(vec![
        cage(
            45,
            &[
                (0, 0),
                (0, 1),
                (0, 2),
                (0, 3),
                (0, 4),
                (0, 5),
                (0, 6),
                (0, 7),
                (0, 8),
            ],
        ),
        cage(
            40,
            &[
                (1, 0),
                (1, 1),
                (1, 2),
                (1, 3),
                (1, 4),
                (1, 5),
                (1, 6),
                (1, 7),
            ],
        ),
    ]);
    // Row 2 alone already gives r2c9 = 5 (one house): the two-row region adds nothing new, so
    // the single-house finder takes it and the multi-house one finds nothing after it.
    let steps = run(&p, |_| {}, sums::single_innie_outie);
    assert!(steps
        .iter()
        .any(|s| s.placements == vec![(cell(1, 8), Digit::new(5))]));
    let p = puzzle(vec![
        cage(12, &[(0, 8), (1, 8)]),
        cage(33, &[(0, 0), (0, 1), (0, 2), (0, 3), (0, 4), (0, 5)]),
        cage(35, &[(1, 0), (1, 1), (1, 2), (1, 3), (1, 4), (1, 5)]),
        cage(7, &[(0, 6), (1, 6)]),
    ]);
    // Rows 1-2 total 90; their whole cages 12 + 33 + 35 + 7 = 87 leave r1c8 + r2c8 = 3.
    let steps = run(&p, |_| {}, sums::multi_house_innie_outie);
    assert_eq!(
        removed(&steps, cell(0, 7)),
        vec![3, 4, 5, 6, 7, 8, 9],
        "{steps:?}"
    );
}

#[test]
fn must_contain_pointing_and_overlap() {
    // 3(2) = {1,2} in row 1: the rest of row 1 and of box 1 lose 1 and 2.
    let p = puzzle(vec![cage(3, &[(0, 0), (0, 1)])]);
    let prepare = |b: &mut Board| {
        keep_only(b, cell(0, 0), &[1, 2]);
        keep_only(b, cell(0, 1), &[1, 2]);
    };
    let steps = run(&p, prepare, must::cage_pointing);
    assert_eq!(removed(&steps, cell(0, 5)), vec![1, 2]);
    assert_eq!(removed(&steps, cell(2, 2)), vec![1, 2]);
    assert!(removed(&steps, cell(3, 0)).is_empty());
    // Overlap: the 9 of row 5 can only be in the 15(3) at r5c1, which also has r6c1: only
    // {1,5,9} and {2,4,9} survive, and r6c1 (outside row 5) cannot be the 9.
    let p = puzzle(vec![cage(15, &[(4, 0), (4, 1), (5, 0)])]);
    let prepare = |b: &mut Board| {
        for c in 2..9 {
            b.eliminate(cell(4, c), Digit::new(9));
        }
    };
    let steps = run(&p, prepare, must::cage_house_overlap);
    assert_eq!(
        removed(&steps, cell(5, 0)),
        vec![3, 6, 7, 8, 9],
        "{steps:?}"
    );
}

/// The technique of the first rung of the ladder that finds a step on the prepared board (the
/// engine's choice when it is the only move).
fn first_rung(p: &Puzzle, prepare: impl Fn(&mut Board)) -> Option<Technique> {
    let mut board = Board::new(p);
    prepare(&mut board);
    let mut ctx = Context::new(p);
    for r in LADDER {
        let mut out = Vec::new();
        r.find(&mut ctx, &board, &mut out);
        if !out.is_empty() {
            return Some(r.technique);
        }
    }
    None
}

/// 20(4) at r1c3, r1c4, r2c4, r2c5 with r1c3 and r2c4 = {1,2}: the two share no house, but the
/// cage makes them a naked pair.
fn cage_subset_position() -> (Puzzle, impl Fn(&mut Board)) {
    let p = puzzle(vec![cage(20, &[(0, 2), (0, 3), (1, 3), (1, 4)])]);
    let prepare = |b: &mut Board| {
        keep_only(b, cell(0, 2), &[1, 2]);
        keep_only(b, cell(1, 3), &[1, 2]);
    };
    (p, prepare)
}

#[test]
fn naked_pair_inside_a_cage() {
    let (p, prepare) = cage_subset_position();
    let steps = run(&p, &prepare, sets::cage_subset);
    assert_eq!(steps.len(), 1, "{steps:?}");
    assert_eq!(steps[0].technique, Technique::CageSubset);
    // The cage's other cells and the cells seeing both lose 1 and 2.
    for c in [(0, 3), (1, 4), (0, 4), (0, 5), (1, 0), (1, 1), (1, 2)] {
        assert_eq!(removed(&steps, cell(c.0, c.1)), vec![1, 2], "{c:?}");
    }
    assert_eq!(steps[0].eliminations.len(), 14);
    // The plain naked pair does not see it (the cells share no house).
    let mut board = Board::new(&p);
    prepare(&mut board);
    assert!(super::plain::find_naked_pair(&board).is_none());
    assert_eq!(first_rung(&p, prepare), Some(Technique::CageSubset));
}

#[test]
fn hidden_single_and_pair_inside_a_cage() {
    // 7(3) = {1,2,4}: must-digits 1, 2, 4; the 4 fits only r1c1, so it goes there.
    let p = puzzle(vec![cage(7, &[(0, 0), (0, 1), (1, 1)])]);
    let prepare = |b: &mut Board| {
        keep_only(b, cell(0, 0), &[1, 2, 4]);
        keep_only(b, cell(0, 1), &[1, 2]);
        keep_only(b, cell(1, 1), &[1, 2]);
    };
    let steps = run(&p, prepare, sets::cage_subset);
    let placed: Vec<_> = steps.iter().flat_map(|s| s.placements.clone()).collect();
    assert_eq!(placed, vec![(cell(0, 0), Digit::new(4))], "{steps:?}");
}

#[test]
fn killer_pair_in_a_row() {
    // 10(2) at r5c1 with {1,2,8,9}: {1,9} or {2,8}, so it holds a 1 or a 2; r5c5 = {1,2}.
    let p = puzzle(vec![cage(10, &[(4, 0), (4, 1)])]);
    let prepare = |b: &mut Board| {
        keep_only(b, cell(4, 0), &[1, 2, 8, 9]);
        keep_only(b, cell(4, 1), &[1, 2, 8, 9]);
        keep_only(b, cell(4, 4), &[1, 2]);
    };
    let steps = run(&p, prepare, sets::killer_pair);
    assert_eq!(steps.len(), 1, "{steps:?}");
    for c in [2, 3, 5, 6, 7, 8] {
        assert_eq!(removed(&steps, cell(4, c)), vec![1, 2], "column {}", c + 1);
    }
    assert_eq!(steps[0].eliminations.len(), 12);
    assert!(run(&p, prepare, sets::killer_triple).is_empty());
    assert_eq!(first_rung(&p, prepare), Some(Technique::KillerSubset));
}

#[test]
fn killer_triple_in_a_row() {
    // Two 10(2) cages with {1,9},{2,8},{3,7} each hold one of 1,2,3; so does r1c9 = {1,2,3}.
    let p = puzzle(vec![
        cage(10, &[(0, 0), (0, 1)]),
        cage(10, &[(0, 3), (0, 4)]),
    ]);
    let prepare = |b: &mut Board| {
        for c in [0, 1, 3, 4] {
            keep_only(b, cell(0, c), &[1, 2, 3, 7, 8, 9]);
        }
        keep_only(b, cell(0, 8), &[1, 2, 3]);
    };
    assert!(run(&p, prepare, sets::killer_pair).is_empty());
    let steps = run(&p, prepare, sets::killer_triple);
    assert_eq!(steps.len(), 1, "{steps:?}");
    for c in [2, 5, 6, 7] {
        assert_eq!(
            removed(&steps, cell(0, c)),
            vec![1, 2, 3],
            "column {}",
            c + 1
        );
    }
}

/// Row 1 = 9(3) + 10(2) + 11(2) + 15(2), candidates trimmed to each cage's digits: no pair of
/// cages clashes, but the four together cannot share out 1..9 with 9(3) = {1,2,6} or with 10(2)
/// = {3,7}, 11(2) = {3,8}.
fn partition_position() -> (Puzzle, impl Fn(&mut Board)) {
    let p = puzzle(vec![
        cage(9, &[(0, 0), (0, 1), (0, 2)]),
        cage(10, &[(0, 3), (0, 4)]),
        cage(11, &[(0, 5), (0, 6)]),
        cage(15, &[(0, 7), (0, 8)]),
    ]);
    let prepare = |b: &mut Board| {
        for c in 0..3 {
            keep_only(b, cell(0, c), &[1, 2, 3, 4, 5, 6]);
        }
        for c in 3..5 {
            keep_only(b, cell(0, c), &[1, 2, 3, 4, 6, 7, 8, 9]);
        }
        for c in 5..7 {
            keep_only(b, cell(0, c), &[2, 3, 4, 5, 6, 7, 8, 9]);
        }
        for c in 7..9 {
            keep_only(b, cell(0, c), &[6, 7, 8, 9]);
        }
    };
    (p, prepare)
}

#[test]
fn house_partition_of_a_row() {
    let (p, prepare) = partition_position();
    let steps = run(&p, &prepare, sets::house_partition);
    assert_eq!(steps.len(), 1, "{steps:?}");
    assert_eq!(steps[0].technique, Technique::HousePartition);
    assert_eq!(removed(&steps, cell(0, 0)), vec![6]);
    assert_eq!(removed(&steps, cell(0, 3)), vec![3, 7]);
    assert_eq!(removed(&steps, cell(0, 5)), vec![3, 8]);
    assert!(removed(&steps, cell(0, 7)).is_empty());
    // Pairwise clashes and killer subsets see nothing here.
    assert!(run(&p, &prepare, cages::combination_clash).is_empty());
    assert!(run(&p, &prepare, sets::killer_pair).is_empty());
    assert!(run(&p, &prepare, sets::killer_triple).is_empty());
    assert_eq!(first_rung(&p, prepare), Some(Technique::HousePartition));
}

/// A 4x4 jigsaw whose rows 1-2 hold all of region 1 and three cells of region 2:
///   1 1 1 2
///   1 3 2 2
///   3 3 4 2
///   3 4 4 4
/// Rows 1-2 and regions 1-2 each hold every digit twice, so r2c2 (in the rows, not the regions)
/// equals r3c4 (in the regions, not the rows).
fn leftover_position() -> Puzzle {
    let regions = vec![0, 0, 0, 1, 0, 2, 1, 1, 2, 2, 3, 1, 2, 3, 3, 3];
    Puzzle::plain(Geometry::jigsaw(4, regions).unwrap(), Grid::empty(4)).unwrap()
}

#[test]
fn law_of_leftovers_on_a_jigsaw() {
    let p = leftover_position();
    let g = p.geometry().clone();
    let prepare = |b: &mut Board| {
        let c = b.geometry().cell_at(2, 3);
        b.eliminate(c, Digit::new(3));
        b.eliminate(c, Digit::new(4));
    };
    // Rows 1-2 against regions 1-2, and rows 3-4 against regions 3-4, both say it.
    let steps = run(&p, prepare, sets::law_of_leftovers);
    assert_eq!(steps.len(), 2, "{steps:?}");
    let r2c2 = g.cell_at(1, 1);
    for step in &steps {
        assert_eq!(step.technique, Technique::LawOfLeftovers);
        assert_eq!(
            step.eliminations,
            vec![(r2c2, Digit::new(3)), (r2c2, Digit::new(4))]
        );
    }
    assert_eq!(first_rung(&p, prepare), Some(Technique::LawOfLeftovers));
}

/// Apply the rungs before `stop` until none finds anything (the board a person reaches with the
/// easier techniques).
fn close_below(p: &Puzzle, board: &mut Board, stop: Technique) {
    let mut ctx = Context::new(p);
    'pass: loop {
        for r in LADDER.iter().take_while(|r| r.technique != stop) {
            let mut out = Vec::new();
            r.find(&mut ctx, board, &mut out);
            if !out.is_empty() {
                for s in &out {
                    board
                        .apply(s)
                        .expect("the easier steps keep the board possible");
                }
                continue 'pass;
            }
        }
        return;
    }
}

/// Row 1 = 30(6) + r1c7 + r1c8 + r1c9, so those innies total 15; column 9 = 35(7) + r1c9 +
/// r2c9, so those total 10. Subtracting: r1c7 + r1c8 - r2c9 = 5 (three cells of box 3). With
/// r1c7 = {3,4,5,7}, r1c8 = {4,6,8,9} and r2c9 = {2,7,8,9}: r1c7 = 5 needs r1c8 = r2c9, and
/// r2c9 = 9 needs r1c7 + r1c8 = 14 = 5 + 9; both go, though each equation alone (through r1c9)
/// still fits them.
fn algebra_position() -> (Puzzle, impl Fn(&mut Board)) {
    let p = puzzle(vec![
        cage(30, &[(0, 0), (0, 1), (0, 2), (0, 3), (0, 4), (0, 5)]),
        cage(
            35,
            &[(2, 8), (3, 8), (4, 8), (5, 8), (6, 8), (7, 8), (8, 8)],
        ),
    ]);
    let prepare = |b: &mut Board| {
        keep_only(b, cell(0, 6), &[3, 4, 5, 7]);
        keep_only(b, cell(0, 7), &[4, 6, 8, 9]);
        keep_only(b, cell(1, 8), &[2, 7, 8, 9]);
    };
    (p, prepare)
}

#[test]
fn sum_algebra_subtracts_two_houses_innies() {
    let (p, prepare) = algebra_position();
    let steps = run(&p, &prepare, sums::sum_algebra);
    assert_eq!(steps.len(), 1, "{steps:?}");
    let step = &steps[0];
    assert_eq!(step.technique, Technique::SumAlgebra);
    assert_eq!(removed(&steps, cell(0, 6)), vec![5]);
    assert_eq!(removed(&steps, cell(1, 8)), vec![9]);
    assert!(removed(&steps, cell(0, 7)).is_empty());
    assert!(
        step.cages.contains(&0) && step.cages.contains(&1),
        "{step:?}"
    );
    assert!(
        step.reason.contains("subtracting") && step.reason.contains("r1c7 + r1c8 - r2c9 = 5"),
        "{}",
        step.reason
    );
}

#[test]
fn sum_algebra_is_found_when_it_is_the_only_move() {
    let (p, prepare) = algebra_position();
    let close = |b: &mut Board| {
        prepare(b);
        close_below(&p, b, Technique::SumAlgebra);
    };
    let mut board = Board::new(&p);
    close(&mut board);
    // The easier techniques (each equation alone among them) keep r1c7 = 5 and r2c9 = 9 ...
    assert!(board.candidates(cell(0, 6)).contains(Digit::new(5)));
    assert!(board.candidates(cell(1, 8)).contains(Digit::new(9)));
    // ... and sum algebra is the first rung that moves.
    assert_eq!(first_rung(&p, close), Some(Technique::SumAlgebra));
    let steps = run(&p, close, sums::sum_algebra);
    assert_eq!(removed(&steps, cell(0, 6)), vec![5], "{steps:?}");
    assert_eq!(removed(&steps, cell(1, 8)), vec![9], "{steps:?}");
}

/// A zero-given killer whose 27 cages (found by a search over random layouts) stall every rung
/// below combination blocking with r7c1 still holding 5 and 7, though the innies of column 1
/// (a virtual cage of five cells) and the four cages holding them cannot fill together with
/// either; and then, with blocking done, stall everything below cage interactions.
fn blocking_position() -> Puzzle {
    puzzle(vec![
        cage(26, &[(0, 2), (1, 1), (1, 2), (2, 1), (2, 2)]),
        cage(24, &[(6, 0), (6, 1), (6, 2), (6, 3), (7, 1)]),
        cage(5, &[(4, 1), (4, 2)]),
        cage(24, &[(0, 4), (0, 5), (0, 6)]),
        cage(13, &[(1, 5), (2, 5), (2, 6)]),
        cage(29, &[(7, 0), (8, 0), (8, 1), (8, 2), (8, 3)]),
        cage(16, &[(4, 8), (5, 8), (6, 8)]),
        cage(15, &[(3, 7), (4, 7), (5, 7)]),
        cage(20, &[(5, 6), (6, 6), (6, 7), (7, 6), (7, 7)]),
        cage(15, &[(0, 0), (1, 0), (2, 0)]),
        cage(25, &[(7, 4), (8, 4), (8, 5), (8, 6), (8, 7)]),
        cage(26, &[(3, 0), (3, 1), (3, 2), (3, 3)]),
        cage(7, &[(7, 2), (7, 3)]),
        cage(25, &[(5, 0), (5, 1), (5, 2), (5, 3)]),
        cage(15, &[(1, 4), (2, 3), (2, 4), (3, 4)]),
        cage(13, &[(1, 8), (2, 8)]),
        cage(17, &[(6, 4), (6, 5), (7, 5)]),
        cage(7, &[(3, 8)]),
        cage(1, &[(1, 6)]),
        cage(7, &[(0, 3), (1, 3)]),
        cage(30, &[(4, 3), (4, 4), (4, 5), (5, 4), (5, 5)]),
        cage(4, &[(0, 1)]),
        cage(3, &[(8, 8)]),
        cage(18, &[(0, 7), (0, 8), (1, 7), (2, 7)]),
        cage(15, &[(3, 5), (3, 6), (4, 6)]),
        cage(1, &[(4, 0)]),
        cage(4, &[(7, 8)]),
    ])
}

/// Every solution of `p` (up to 50) agrees with the steps.
fn assert_sound_for_every_solution(p: &Puzzle, steps: &[Step]) {
    let report = crate::solver::solve_within(p, 50, 50_000_000);
    assert!(!report.solutions.is_empty());
    for solution in &report.solutions {
        for step in steps {
            assert!(crate::grader::is_sound(step, solution), "{step:?}");
        }
    }
}

/// Combination blocking on the position every rung below the set-theory pair leaves: the virtual
/// cage of column 1 removes r7c1's 5 and 7. (Cage interactions, now tried first, also move here:
/// a band holds the same cages.)
#[test]
fn combination_blocking_removes_what_the_virtual_cage_and_its_cages_rule_out() {
    let p = blocking_position();
    let close = |b: &mut Board| close_below(&p, b, Technique::CageInteraction);
    let steps = run(&p, close, blocking::cage_blocking);
    assert_eq!(removed(&steps[..1], cell(6, 0)), vec![5, 7], "{steps:?}");
    let step = &steps[0];
    assert!(
        step.reason.contains("innies of column 1")
            && step.reason.contains("virtual cage")
            && step.reason.contains("24(5) at r7c1"),
        "{}",
        step.reason
    );
    assert_sound_for_every_solution(&p, &steps);
}

#[test]
fn cage_interaction_is_found_when_it_is_the_only_move() {
    let p = blocking_position();
    let close = |b: &mut Board| close_below(&p, b, Technique::CageInteraction);
    assert_eq!(first_rung(&p, close), Some(Technique::CageInteraction));
    let steps = run(&p, close, blocking::house_blocking);
    assert!(!steps.is_empty());
    assert!(
        steps[0]
            .reason
            .contains("column 1, column 2 and column 3 with the cages crossing them"),
        "{}",
        steps[0].reason
    );
    assert_sound_for_every_solution(&p, &steps);
}

/// Random zero-given killer layouts, each closed below a blocking rung: every step the rung then
/// finds agrees with the solution the cage sums were taken from.
#[test]
fn blocking_rungs_are_sound_on_random_layouts() {
    use crate::grader::is_sound;
    use crate::test_support::{random_puzzle, random_solution};
    use rand::SeedableRng;
    let g = Geometry::standard(9).unwrap();
    let mut rng = rand_pcg::Pcg64::seed_from_u64(2025);
    let mut fired = [0usize; 2];
    for _ in 0..300 {
        let solution = random_solution(&g, &mut rng);
        let p = random_puzzle(&g, &solution, 1.0, 0.0, &mut rng);
        // Closed below the first of the two (cage interactions), each then looks.
        let mut board = Board::new(&p);
        close_below(&p, &mut board, Technique::CageInteraction);
        let rungs = [Technique::CombinationBlocking, Technique::CageInteraction];
        for (k, stop) in rungs.into_iter().enumerate() {
            let mut ctx = Context::new(&p);
            let mut out = Vec::new();
            let rung = LADDER.iter().find(|r| r.technique == stop).unwrap();
            rung.find(&mut ctx, &board, &mut out);
            for step in &out {
                assert_eq!(step.technique, stop);
                assert!(is_sound(step, &solution), "{step:?}");
            }
            fired[k] += out.len();
        }
    }
    // Both rungs fire on these layouts, so the check means something.
    assert!(fired.iter().all(|&n| n > 0), "{fired:?}");
}

/// Generated extremes closed below cage interactions: where a band (three rows or three columns
/// and the cages crossing them) removes a candidate that none of its houses, nor any line and box
/// pair, removes alone (each at the rung's node budget a candidate), the band is the only move of
/// its kind there; every step agrees with the solution.
#[test]
fn a_band_moves_where_its_houses_and_pairs_do_not() {
    use crate::generator::level::LevelsSetting;
    use crate::generator::{generate_puzzle, GeneratorConfig, Outcome};
    use crate::geometry::House;
    use crate::grader::is_sound;
    let config = GeneratorConfig {
        levels: Some(LevelsSetting::List(vec!["extreme".into()])),
        ..GeneratorConfig::default()
    };
    let h = |i: usize| House::new(i as u8);
    let (mut bands, mut only) = (0, 0);
    for index in 0..40 {
        if only >= 2 {
            break;
        }
        let Outcome::Generated(g) = generate_puzzle(&config, 31, index) else {
            continue;
        };
        let (p, solution) = (&g.puzzle, &g.solution);
        let mut board = Board::new(p);
        close_below(p, &mut board, Technique::CageInteraction);
        let mut ctx = Context::new(p);
        // Each house, and each line with each box it crosses, alone.
        let mut smaller = std::collections::HashSet::new();
        let mut singles: Vec<Vec<House>> = (0..27).map(|i| vec![h(i)]).collect();
        for line in 0..18 {
            for b in 18..27 {
                if board.house_set(h(line)).intersects(board.house_set(h(b))) {
                    singles.push(vec![h(line), h(b)]);
                }
            }
        }
        for houses in &singles {
            if let Some(step) = blocking::houses_joint_step(&mut ctx, &board, houses) {
                assert!(is_sound(&step, solution), "{step:?}");
                smaller.extend(step.eliminations);
            }
        }
        for first in [0, 3, 6, 9, 12, 15] {
            let band = [h(first), h(first + 1), h(first + 2)];
            let Some(step) = blocking::houses_joint_step(&mut ctx, &board, &band) else {
                continue;
            };
            assert!(is_sound(&step, solution), "{step:?}");
            bands += 1;
            if step.eliminations.iter().any(|e| !smaller.contains(e)) {
                only += 1;
            }
        }
    }
    assert!(only >= 2, "{only} band-only steps among {bands} band steps");
}

/// A band of a 12x12 grid meets more cages than a cage view holds inline (here 24: the dominoes
/// of rows 1–2 and those crossing into row 3); the joint is looked at without a panic, and any
/// step it gives agrees with the solution (a 12x12 default batch died here).
#[test]
fn a_band_meeting_more_than_sixteen_cages_is_looked_at() {
    use crate::geometry::House;
    use crate::grader::is_sound;
    use crate::test_support::random_solution;
    use rand::SeedableRng;
    let g = Geometry::boxed(12, 3, 4).unwrap();
    let solution = random_solution(&g, &mut rand_pcg::Pcg64::seed_from_u64(12));
    let cages: Vec<Cage> = (0..6)
        .flat_map(|pair| (0..12).map(move |col| (2 * pair, col)))
        .map(|(row, col)| {
            let cells = vec![
                Cell::new((row * 12 + col) as u8),
                Cell::new(((row + 1) * 12 + col) as u8),
            ];
            let sum = cells
                .iter()
                .map(|&c| u16::from(solution.values()[c.as_index()]))
                .sum();
            Cage::new(sum, cells)
        })
        .collect();
    // Rows 0-1 and 2-3 paired: the band of rows 0-2 meets 24 cages, 12 of them crossing out.
    let p = Puzzle::new(g.clone(), Grid::empty(12), cages).unwrap();
    let board = Board::new(&p);
    let mut ctx = Context::new(&p);
    let band = [House::new(0), House::new(1), House::new(2)];
    if let Some(step) = blocking::houses_joint_step(&mut ctx, &board, &band) {
        assert!(is_sound(&step, &solution), "{step:?}");
    }
}
