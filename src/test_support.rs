//! Test support: random solved grids and random valid puzzles over them, for property tests,
//! and small databases made by the real pipeline, for the store's tests.

use crate::cage::Cage;
use crate::geometry::{Cell, Geometry};
use crate::grid::Grid;
use crate::puzzle::Puzzle;
use rand::seq::{IndexedRandom, SliceRandom};
use rand::Rng;
use rand_pcg::Pcg64;

/// A solved boxed grid: the usual pattern, then a random digit relabelling and random row, band,
/// column and stack permutations (each keeps every house a permutation of 1..=N).
pub fn random_boxed_solution(geometry: &Geometry, rng: &mut Pcg64) -> Grid {
    let n = geometry.size();
    let (r, c) = geometry.box_shape().expect("a boxed geometry");
    let mut digits: Vec<u8> = (1..=n as u8).collect();
    digits.shuffle(rng);
    let shuffle_in_groups = |group: usize, rng: &mut Pcg64| {
        let mut groups: Vec<usize> = (0..n / group).collect();
        groups.shuffle(rng);
        groups
            .into_iter()
            .flat_map(|g| {
                let mut inner: Vec<usize> = (0..group).map(|i| g * group + i).collect();
                inner.shuffle(rng);
                inner
            })
            .collect::<Vec<usize>>()
    };
    let rows = shuffle_in_groups(r, rng);
    let cols = shuffle_in_groups(c, rng);
    let values = (0..n * n)
        .map(|i| {
            let (row, col) = (rows[i / n], cols[i % n]);
            digits[((row % r) * c + row / r + col) % n]
        })
        .collect();
    Grid::from_values(n, values).expect("digits 1..=N")
}

/// A solved grid of any geometry: one of the first solutions of the empty grid, relabelled.
pub fn random_solution(geometry: &Geometry, rng: &mut Pcg64) -> Grid {
    if geometry.box_shape().is_some() {
        return random_boxed_solution(geometry, rng);
    }
    let empty = Puzzle::plain(geometry.clone(), Grid::empty(geometry.size())).unwrap();
    let some = crate::solver::reference::brute_force_solutions(&empty, 20);
    let base = &some[rng.random_range(0..some.len())];
    let mut digits: Vec<u8> = (1..=geometry.size() as u8).collect();
    digits.shuffle(rng);
    let values = base
        .values()
        .iter()
        .map(|&v| digits[v as usize - 1])
        .collect();
    Grid::from_values(geometry.size(), values).unwrap()
}

/// Random connected cages without repeated digits grown on `solution`, covering each cell
/// with probability `cover`, and givens with probability `given`.
pub fn random_puzzle(
    geometry: &Geometry,
    solution: &Grid,
    cover: f64,
    given: f64,
    rng: &mut Pcg64,
) -> Puzzle {
    let n = geometry.size();
    let mut caged = vec![false; geometry.cell_count()];
    let mut order: Vec<Cell> = geometry.cells().collect();
    order.shuffle(rng);
    let mut cages = Vec::new();
    for start in order {
        if caged[start.as_index()] || !rng.random_bool(cover) {
            continue;
        }
        let target = rng.random_range(1..=n.min(5));
        let mut cells = vec![start];
        caged[start.as_index()] = true;
        while cells.len() < target {
            let digits: Vec<u8> = cells
                .iter()
                .map(|&c| solution.values()[c.as_index()])
                .collect();
            let options: Vec<Cell> = cells
                .iter()
                .flat_map(|&c| geometry.neighbours(c))
                .filter(|&c| {
                    !caged[c.as_index()] && !digits.contains(&solution.values()[c.as_index()])
                })
                .collect();
            let Some(&next) = options.choose(rng) else {
                break;
            };
            caged[next.as_index()] = true;
            cells.push(next);
        }
        let sum = cells
            .iter()
            .map(|&c| solution.values()[c.as_index()] as u16)
            .sum();
        cages.push(Cage::new(sum, cells));
    }
    let givens = solution
        .values()
        .iter()
        .map(|&v| if rng.random_bool(given) { v } else { 0 })
        .collect();
    let givens = Grid::from_values(n, givens).unwrap();
    Puzzle::new(geometry.clone(), givens, cages).expect("cages grown on a solution are valid")
}

/// A fresh database at `path` of `count` 4x4 killers of the run with seed `seed`, made by the
/// real pipeline (default settings otherwise) and closed.
pub fn generate_4x4_killers(path: &std::path::Path, count: u64, seed: u64) {
    use crate::settings::{Origin, Settings};
    let mut settings = Settings::default();
    settings.run.count = count;
    settings.run.seed = seed;
    settings.generator.size = 4;
    settings.run.db = path.to_path_buf();
    let plan = settings.validate("test", &Origin::Defaults).unwrap();
    let mut store = crate::store::Store::open_or_create(path).unwrap();
    let never = std::sync::atomic::AtomicBool::new(false);
    crate::pipeline::run(&mut store, &plan, &never, |_| {}).expect("generate");
    store.close().unwrap();
}
