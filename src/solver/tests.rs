//! Solver tests: fixed cases and property tests against the plain exhaustive search.

use super::band9::{Band9, Isa};
use super::cages::CageSet;
use super::kernel::Search;
use super::linear::LinearSet;
use super::reference::brute_force_solutions;
use super::tables::Tables;
use super::{count_solutions, run_plain, solve, Solver};
use crate::cage::Cage;
use crate::geometry::{Cell, Geometry};
use crate::grid::Grid;
use crate::puzzle::Puzzle;
use crate::test_support::{random_boxed_solution, random_puzzle, random_solution};
use proptest::prelude::*;
use rand::SeedableRng;
use rand_pcg::Pcg64;

fn jigsaw(size: usize, rows: &[&str]) -> Geometry {
    let map = rows
        .iter()
        .flat_map(|r| r.bytes().map(|b| b - b'0'))
        .collect();
    Geometry::jigsaw(size, map).unwrap()
}

/// A 9x9 jigsaw (regions of nine connected cells).
const NINE_JIGSAW: [&str; 9] = [
    "000011222",
    "000111222",
    "001111222",
    "333444455",
    "333444555",
    "333445555",
    "666777788",
    "666777888",
    "666778888",
];

fn small_geometries() -> Vec<Geometry> {
    vec![
        Geometry::boxed(1, 1, 1).unwrap(),
        Geometry::boxed(2, 1, 2).unwrap(),
        Geometry::boxed(3, 1, 3).unwrap(),
        Geometry::standard(4).unwrap(),
        Geometry::boxed(4, 1, 4).unwrap(),
        Geometry::boxed(5, 1, 5).unwrap(),
        Geometry::standard(6).unwrap(),
        Geometry::boxed(6, 3, 2).unwrap(),
        jigsaw(4, &["0001", "2011", "2231", "2333"]),
        jigsaw(5, &["00011", "02011", "22231", "42333", "44443"]),
        jigsaw(
            6,
            &["000111", "002211", "302221", "334255", "334455", "344455"],
        ),
    ]
}

/// The fast solver agrees with the exhaustive search on the count (up to 3) and its solutions
/// are distinct and obey every rule; the planted solution is among them when there are few.
fn check_against_reference(puzzle: &Puzzle, planted: &Grid) {
    let fast = solve(puzzle, 3);
    let slow = brute_force_solutions(puzzle, 3);
    assert_eq!(
        fast.solutions.len(),
        slow.len(),
        "count differs on {puzzle:?}"
    );
    for (i, s) in fast.solutions.iter().enumerate() {
        assert!(puzzle.is_solution(s), "not a solution: {s:?}");
        assert!(!fast.solutions[..i].contains(s), "repeated solution");
    }
    if fast.solutions.len() < 3 {
        assert!(fast.solutions.contains(planted));
    }
}

/// As `check_against_reference`, with the linear sums from the root on.
fn check_heavy_against_reference(puzzle: &Puzzle, planted: &Grid) {
    let mut solver = Solver::new(puzzle.geometry());
    solver.heavy_after = 0;
    let fast = solver.solve(puzzle, 3);
    let slow = brute_force_solutions(puzzle, 3);
    assert_eq!(
        fast.solutions.len(),
        slow.len(),
        "count differs on {puzzle:?}"
    );
    for (i, s) in fast.solutions.iter().enumerate() {
        assert!(puzzle.is_solution(s), "not a solution: {s:?}");
        assert!(!fast.solutions[..i].contains(s), "repeated solution");
    }
    if fast.solutions.len() < 3 {
        assert!(fast.solutions.contains(planted));
    }
}

/// A random puzzle on small geometry `which` (cages over `cover` of the cells, `given` of the
/// cells given), with its planted solution.
fn small_case(which: usize, seed: u64, cover: f64, given: f64) -> (Puzzle, Grid) {
    let geometry = &small_geometries()[which];
    let mut rng = Pcg64::seed_from_u64(seed);
    let solution = random_solution(geometry, &mut rng);
    // 6x6 with almost nothing to go on makes the exhaustive search slow: give it some help.
    let given = if geometry.size() == 6 {
        given.max(0.2)
    } else {
        given
    };
    let puzzle = random_puzzle(geometry, &solution, cover, given, &mut rng);
    (puzzle, solution)
}

/// A random killer on geometry `which` of 6x6, 9x9, 12x12 and 16x16 (cages over 90% of the
/// cells, no givens), with its planted solution and its derived linear sums.
fn derived_sums(which: usize, seed: u64) -> (Grid, super::linear::LinearSet) {
    let geometry = [6, 9, 12, 16].map(|n| Geometry::standard(n).unwrap())[which].clone();
    let mut rng = Pcg64::seed_from_u64(seed);
    let solution = random_solution(&geometry, &mut rng);
    let puzzle = random_puzzle(&geometry, &solution, 0.9, 0.0, &mut rng);
    let tables = Tables::new(&geometry);
    let mut cages = CageSet::default();
    cages.load(&puzzle, &tables);
    let mut set = super::linear::LinearSet::default();
    set.derive(&tables, &cages.cages, &cages.cells, &[]);
    (solution, set)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn linear_sums_agree_with_exhaustive_search(
        seed in any::<u64>(),
        which in 0usize..11,
        cover in 0.5f64..=1.0,
        given in 0.0f64..0.4,
    ) {
        let (puzzle, solution) = small_case(which, seed, cover, given);
        check_heavy_against_reference(&puzzle, &solution);
    }

    #[test]
    fn no_linear_sum_is_kept_beside_its_negation(seed in any::<u64>(), which in 0usize..4) {
        // A sum and its negation are one equation: the set keeps one of them (both when one is
        // all positive, as it may be cage-like), and weighs it 2 for the conflict seeds.
        let (_, set) = derived_sums(which, seed);
        let key = |sum: &super::linear::Linear| {
            let mut cells: Vec<(u8, bool)> = set.terms[sum.start as usize..][..sum.len as usize]
                .iter()
                .map(|t| (t.cell, t.negative))
                .collect();
            cells.sort();
            (cells, sum.sum)
        };
        let keys: Vec<_> = set.sums.iter().map(key).collect();
        for (sum, (cells, total)) in set.sums.iter().zip(&keys) {
            prop_assert!((1..=2).contains(&sum.weight));
            // An all-positive sum stays beside its all-negative twin (it may be cage-like).
            let negatives = cells.iter().filter(|&&(_, negative)| negative).count();
            if negatives == 0 || negatives == cells.len() {
                continue;
            }
            let negation = (cells.iter().map(|&(c, n)| (c, !n)).collect::<Vec<_>>(), -total);
            prop_assert!(!keys.contains(&negation), "{cells:?} = {total} kept twice");
        }
    }

    #[test]
    fn linear_sums_hold_on_the_planted_grid(seed in any::<u64>(), which in 0usize..4) {
        // Every derived sum is an identity of the puzzle: the planted solution satisfies it.
        let (solution, set) = derived_sums(which, seed);
        let digit = |c: u8| solution.values()[c as usize] as i64;
        for sum in &set.sums {
            let terms = &set.terms[sum.start as usize..][..sum.len as usize];
            let total: i64 = terms
                .iter()
                .map(|t| if t.negative { -digit(t.cell) } else { digit(t.cell) })
                .sum();
            prop_assert_eq!(total, sum.sum as i64);
            for (i, a) in terms.iter().enumerate() {
                for b in &terms[i + 1..] {
                    if a.group == b.group {
                        prop_assert!(a.negative == b.negative);
                        prop_assert_ne!(digit(a.cell), digit(b.cell));
                    }
                }
            }
            if let Some(info) = sum.cage {
                let cells = set.cells_in(info);
                prop_assert_eq!(cells.iter().map(|&c| digit(c)).sum::<i64>(), info.sum as i64);
            }
        }
    }

    #[test]
    fn small_grids_agree_with_exhaustive_search(
        seed in any::<u64>(),
        which in 0usize..11,
        cover in 0.0f64..=1.0,
        given in 0.0f64..0.5,
    ) {
        let (puzzle, solution) = small_case(which, seed, cover, given);
        check_against_reference(&puzzle, &solution);
    }

    #[test]
    fn nine_by_nine_agrees_with_exhaustive_search(
        seed in any::<u64>(),
        cover in 0.0f64..=1.0,
        given in 0.45f64..0.7,
    ) {
        let geometry = Geometry::standard(9).unwrap();
        let mut rng = Pcg64::seed_from_u64(seed);
        let solution = random_solution(&geometry, &mut rng);
        let puzzle = random_puzzle(&geometry, &solution, cover, given, &mut rng);
        check_against_reference(&puzzle, &solution);
    }

    #[test]
    fn plain_nine_by_nine_agrees_with_exhaustive_search_on_every_copy(
        seed in any::<u64>(),
        given in 0.45f64..0.7,
    ) {
        // The band kernel's portable copy (what CI runs whatever its CPU) and the copy this
        // CPU picks, each against the oracle.
        let geometry = Geometry::standard(9).unwrap();
        let mut rng = Pcg64::seed_from_u64(seed);
        let solution = random_solution(&geometry, &mut rng);
        let puzzle = random_puzzle(&geometry, &solution, 0.0, given, &mut rng);
        let mut slow = brute_force_solutions(&puzzle, 3);
        slow.sort();
        for isa in [Isa::Portable, Isa::detect()] {
            let mut fast = Vec::new();
            let (_, cut) = Band9::run_on(isa, puzzle.givens().values(), 3, u64::MAX, &mut fast);
            prop_assert!(!cut);
            prop_assert_eq!(fast.len(), slow.len(), "{:?}", isa);
            prop_assert!(fast.iter().all(|s| puzzle.is_solution(s)));
            fast.sort();
            fast.dedup();
            prop_assert_eq!(fast.len(), slow.len(), "repeated solution on {:?}", isa);
            if slow.len() < 3 {
                prop_assert_eq!(&fast, &slow);
            }
        }
    }

    #[test]
    fn plain_small_grids_agree_with_exhaustive_search(
        seed in any::<u64>(),
        which in 0usize..11,
        given in 0.0f64..0.6,
    ) {
        let geometry = &small_geometries()[which];
        let mut rng = Pcg64::seed_from_u64(seed);
        let solution = random_solution(geometry, &mut rng);
        let given = if geometry.size() == 6 { given.max(0.25) } else { given };
        let puzzle = random_puzzle(geometry, &solution, 0.0, given, &mut rng);
        check_against_reference(&puzzle, &solution);
    }

    #[test]
    fn plain_kernel_agrees_with_cell_kernel(
        seed in any::<u64>(),
        which in 0usize..4,
        given in 0.2f64..0.55,
    ) {
        // The bitboard kernel against the cage kernel run without cages, on grids too large
        // for the exhaustive search, jigsaw included.
        let geometry = match which {
            0 => Geometry::standard(9).unwrap(),
            1 => jigsaw(9, &NINE_JIGSAW),
            2 => Geometry::standard(12).unwrap(),
            _ => Geometry::standard(16).unwrap(),
        };
        let mut rng = Pcg64::seed_from_u64(seed);
        let solution = match geometry.box_shape() {
            Some(_) => random_boxed_solution(&geometry, &mut rng),
            None => {
                let empty = Puzzle::plain(geometry.clone(), Grid::empty(9)).unwrap();
                solve(&empty, 1).solutions.remove(0)
            }
        };
        // Larger grids with few givens sit in the hard middle ground of random puzzles.
        let given = given + 0.1 * (geometry.size() as f64 - 9.0) / 3.5;
        let puzzle = random_puzzle(&geometry, &solution, 0.0, given, &mut rng);
        let tables = Tables::new(&geometry);
        let (mut by_plain, mut by_cells) = (Vec::new(), Vec::new());
        run_plain(&tables, puzzle.givens().values(), 3, u64::MAX, &mut by_plain);
        Search::run(&tables, &CageSet::default(), None, puzzle.givens().values(), 3, u64::MAX, &mut by_cells, &mut Default::default());
        prop_assert_eq!(by_plain.len(), by_cells.len());
        prop_assert!(by_plain.iter().chain(&by_cells).all(|s| puzzle.is_solution(s)));
        if by_plain.len() < 3 {
            // All solutions found: the same set, the planted one among them.
            by_plain.sort();
            by_cells.sort();
            prop_assert_eq!(&by_plain, &by_cells);
            prop_assert!(by_plain.contains(&solution));
        }
    }

    #[test]
    fn full_cage_cover_of_every_size_finds_the_planted_grid(
        seed in any::<u64>(),
        which in 0usize..4,
    ) {
        // Large grids: no exhaustive oracle, but every solution found must be valid and the
        // planted one must be found when it is the only one.
        let geometry = [8, 9, 12, 16].map(|n| Geometry::standard(n).unwrap())[which].clone();
        let mut rng = Pcg64::seed_from_u64(seed);
        let solution = random_solution(&geometry, &mut rng);
        let puzzle = random_puzzle(&geometry, &solution, 1.0, 0.3, &mut rng);
        let report = solve(&puzzle, 2);
        prop_assert!(!report.solutions.is_empty());
        prop_assert!(report.solutions.iter().all(|s| puzzle.is_solution(s)));
        if report.solutions.len() == 2 {
            prop_assert_ne!(&report.solutions[0], &report.solutions[1]);
        } else {
            prop_assert_eq!(&report.solutions[0], &solution);
        }
    }
}

#[test]
fn empty_four_by_four_has_288_solutions() {
    let puzzle = Puzzle::plain(Geometry::standard(4).unwrap(), Grid::empty(4)).unwrap();
    assert_eq!(count_solutions(&puzzle, 1000), 288);
    assert_eq!(count_solutions(&puzzle, 2), 2);
    assert_eq!(count_solutions(&puzzle, 0), 0);
}

#[test]
fn impossible_cages_have_no_solution() {
    // Two 2-cell cages in row 1 of a 4x4 both need {1, 2}.
    let cells = |v: &[u8]| v.iter().map(|&i| Cell::new(i)).collect();
    let cages = vec![Cage::new(3, cells(&[0, 1])), Cage::new(3, cells(&[2, 3]))];
    let puzzle = Puzzle::new(Geometry::standard(4).unwrap(), Grid::empty(4), cages).unwrap();
    let report = solve(&puzzle, 2);
    assert!(report.solutions.is_empty());
    assert!(report.stats.nodes >= 1);
}

#[test]
fn plain_seventeen_clue_puzzle_is_unique() {
    let text = ".................1.....2.3......3.2...1.4......5....6..3......4.7..8...962...7...";
    let values = text
        .bytes()
        .map(|b| if b == b'.' { 0 } else { b - b'0' })
        .collect();
    let geometry = Geometry::standard(9).unwrap();
    let puzzle = Puzzle::plain(geometry.clone(), Grid::from_values(9, values).unwrap()).unwrap();
    let mut solver = Solver::new(&geometry);
    let report = solver.solve(&puzzle, 2);
    assert_eq!(report.solutions.len(), 1);
    assert!(puzzle.is_solution(&report.solutions[0]));
    assert_eq!(solver.count_solutions(&puzzle, 2), 1);
}

#[test]
fn a_node_budget_stops_the_search_undecided() {
    let geometry = Geometry::standard(9).unwrap();
    let empty = Puzzle::plain(geometry, Grid::empty(9)).unwrap();
    let cut = super::solve_within(&empty, 1000, 50);
    assert!(!cut.complete);
    assert!(cut.solutions.len() < 1000);
    assert!(cut.solutions.iter().all(|g| empty.is_solution(g)));
    let whole = super::solve_within(&empty, 3, 1_000_000);
    assert!(whole.complete);
    assert_eq!(whole.solutions.len(), 3);
}

/// The candidates at the root fixpoint of the killer kernel (no branching), with the linear sums
/// (and the rules of a hard search).
fn root_candidates(puzzle: &Puzzle) -> Option<Vec<u16>> {
    let tables = Tables::new(puzzle.geometry());
    let mut cages = CageSet::default();
    cages.load(puzzle, &tables);
    cages.load_crossings(&tables);
    let mut linear = LinearSet::default();
    linear.derive(&tables, &cages.cages, &cages.cells, &[]);
    let mut solutions = Vec::new();
    let givens = puzzle.givens().values();
    Search::candidates(&tables, &cages, Some(&linear), givens, &mut solutions)
}

#[test]
fn a_cage_keeps_the_digits_the_rest_of_its_house_cannot_hold() {
    // 6x6 (2x3 boxes): cage {r1c1, r1c2} = 7 is {1, 6}, {2, 5} or {3, 4}. The given 6s at r2c4
    // and r3c3 take 6 from r1c3..r1c6, so row 1's 6 is in the cage: {1, 6}. (The rest of the
    // row is four cells: no innie says so.)
    let cells = |v: &[u8]| v.iter().map(|&i| Cell::new(i)).collect();
    let mut givens = vec![0; 36];
    givens[9] = 6;
    givens[14] = 6;
    let givens = Grid::from_values(6, givens).unwrap();
    let cages = vec![Cage::new(7, cells(&[0, 1]))];
    let puzzle = Puzzle::new(Geometry::standard(6).unwrap(), givens, cages).unwrap();
    let cand = root_candidates(&puzzle).expect("no contradiction");
    assert_eq!((cand[0], cand[1]), (0b10_0001, 0b10_0001));
}

#[test]
fn a_digit_a_house_holds_only_where_a_cage_crosses_it_leaves_the_rest_of_the_cage() {
    // 9x9, cage {r1c3, r1c4, r2c3} = 15, which crosses row 1 over two boxes. The given 9s at
    // r3c7, r4c1, r5c5, r7c2 and r8c6 leave row 1 its 9 only at r1c3 or r1c4, both in the cage,
    // so r2c3 (the rest of the cage) cannot hold 9. Then row 2's 9 is at r2c4, box 2's at r2c4,
    // so r1c4 loses 9 and r1c3 is 9. Without the rule the 9s of rows 1 and 2 could be either
    // way round (no box-line reduction, no cage rule tells).
    let cells = |v: &[u8]| v.iter().map(|&i| Cell::new(i)).collect();
    let mut givens = vec![0; 81];
    for (row, col) in [(3, 7), (4, 1), (5, 5), (7, 2), (8, 6)] {
        givens[(row - 1) * 9 + col - 1] = 9;
    }
    let givens = Grid::from_values(9, givens).unwrap();
    let cages = vec![Cage::new(15, cells(&[2, 3, 11]))];
    let puzzle = Puzzle::new(Geometry::standard(9).unwrap(), givens, cages).unwrap();
    let cand = root_candidates(&puzzle).expect("no contradiction");
    let nine = 1 << 8;
    assert_eq!(cand[11] & nine, 0, "r2c3 keeps 9");
    assert_eq!(cand[2], nine, "r1c3 is not 9");
    assert_eq!(cand[12] & nine, nine, "r2c4 lost 9");
}
