//! Property tests: export -> import gives back the same puzzle, in every format that can hold it.

use super::*;
use crate::cage::Cage;
use crate::geometry::{Cell, Geometry};
use proptest::prelude::*;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64;

/// A solved grid for a boxed geometry: the shifted-rows pattern, digits relabelled at random.
fn solved_grid(geometry: &Geometry, rng: &mut Pcg64) -> Grid {
    let n = geometry.size();
    let (rows, cols) = geometry.box_shape().expect("boxed geometry");
    let mut labels: Vec<u8> = (1..=n as u8).collect();
    labels.shuffle(rng);
    let values = (0..n * n)
        .map(|i| {
            let (r, c) = (i / n, i % n);
            labels[(r * cols + r / rows + c) % n]
        })
        .collect();
    Grid::from_values(n, values).expect("pattern digits are in range")
}

/// Random connected cages with distinct digits in `solution`, covering each cell with probability
/// `cover` (all cells when `cover` is 1), sums taken from the solution.
fn random_cages(geometry: &Geometry, solution: &Grid, cover: f64, rng: &mut Pcg64) -> Vec<Cage> {
    let mut taken = vec![false; geometry.cell_count()];
    let mut order: Vec<Cell> = geometry.cells().collect();
    order.shuffle(rng);
    let mut cages = Vec::new();
    for start in order {
        if taken[start.as_index()] || !rng.random_bool(cover) {
            continue;
        }
        taken[start.as_index()] = true;
        let mut cells = vec![start];
        let target = rng.random_range(1..=4);
        while cells.len() < target {
            let digits: Vec<_> = cells.iter().map(|&c| solution.get(c)).collect();
            let next = cells
                .iter()
                .flat_map(|&c| geometry.neighbours(c))
                .find(|&c| !taken[c.as_index()] && !digits.contains(&solution.get(c)));
            let Some(next) = next else { break };
            taken[next.as_index()] = true;
            cells.push(next);
        }
        let sum = cells
            .iter()
            .filter_map(|&c| solution.get(c))
            .map(|d| d.get() as u16)
            .sum();
        cages.push(Cage::new(sum, cells));
    }
    cages
}

/// A random valid puzzle: a size, givens drawn from a solution, and (if `killer`) cages.
fn random_puzzle(seed: u64, size: usize, killer: bool, givens: bool, cover: f64) -> Puzzle {
    let mut rng = Pcg64::seed_from_u64(seed);
    let geometry = Geometry::standard(size).unwrap();
    let solution = solved_grid(&geometry, &mut rng);
    let values = solution
        .values()
        .iter()
        .map(|&v| if givens && rng.random_bool(0.3) { v } else { 0 })
        .collect();
    let cages = match killer {
        true => random_cages(&geometry, &solution, cover, &mut rng),
        false => Vec::new(),
    };
    Puzzle::new(geometry, Grid::from_values(size, values).unwrap(), cages).unwrap()
}

fn read_one(text: &[u8], format: Format) -> Puzzle {
    let mut reader = Reader::new(text, None).unwrap();
    assert_eq!(reader.format(), format, "detected format");
    let entry = reader.next().unwrap().unwrap();
    assert!(reader.next().is_none());
    entry.puzzle
}

/// The cages in a canonical order: a killer code lists cages by their first cell, not as written.
fn sorted_cages(puzzle: &Puzzle) -> Vec<Cage> {
    let mut cages = puzzle.cages().to_vec();
    cages.sort();
    cages
}

fn any_size() -> impl Strategy<Value = usize> {
    prop::sample::select(SIZES.to_vec())
}

proptest! {
    #[test]
    fn plain_round_trips(seed: u64, size in any_size()) {
        let puzzle = random_puzzle(seed, size, false, true, 0.0);
        let mut out = Vec::new();
        write_puzzle(&mut out, &puzzle, Format::Plain).unwrap();
        prop_assert_eq!(read_one(&out, Format::Plain), puzzle);
    }

    #[test]
    fn jsonl_round_trips(seed: u64, size in any_size(), killer: bool, cover in 0.5f64..=1.0) {
        let puzzle = random_puzzle(seed, size, killer, true, cover);
        let mut out = Vec::new();
        write_jsonl(&mut out, &puzzle, Some(puzzle.givens())).unwrap();
        prop_assert_eq!(read_one(&out, Format::Jsonl), puzzle);
    }

    #[test]
    fn sudocue_round_trips(seed: u64, cover in 0.5f64..=1.0) {
        let puzzle = random_puzzle(seed, 9, true, false, cover);
        let mut out = Vec::new();
        write_puzzle(&mut out, &puzzle, Format::Sudocue).unwrap();
        let again = read_one(&out, Format::Sudocue);
        prop_assert_eq!(again.geometry(), puzzle.geometry());
        prop_assert_eq!(again.givens(), puzzle.givens());
        prop_assert_eq!(sorted_cages(&again), sorted_cages(&puzzle));
    }

    #[test]
    fn seed_round_trips(seed: u64, size in any_size()) {
        let puzzle = random_puzzle(seed, size, true, false, 1.0);
        let mut out = Vec::new();
        write_puzzle(&mut out, &puzzle, Format::Seed).unwrap();
        prop_assert_eq!(read_one(&out, Format::Seed), puzzle);
    }

    #[test]
    fn seed_round_trips_partial_9x9(seed: u64, cover in 0.3f64..1.0) {
        let puzzle = random_puzzle(seed, 9, true, false, cover);
        let mut out = Vec::new();
        write_puzzle(&mut out, &puzzle, Format::Seed).unwrap();
        prop_assert_eq!(read_one(&out, Format::Seed), puzzle);
    }
}

#[test]
fn formats_refuse_what_they_cannot_hold() {
    let with_givens = random_puzzle(1, 9, true, true, 1.0);
    assert!(with_givens.givens().count_filled() > 0);
    assert!(write_seed(&mut Vec::new(), &with_givens).is_err());
    assert!(write_sudocue(&mut Vec::new(), &random_puzzle(1, 6, true, false, 1.0)).is_err());
    let killer = random_puzzle(1, 9, true, false, 1.0);
    assert!(write_puzzle(&mut Vec::new(), &killer, Format::Plain).is_err());
    let partial = random_puzzle(3, 6, true, false, 0.5);
    let covered: usize = partial.cages().iter().map(Cage::len).sum();
    assert!(covered < 36);
    assert!(write_seed(&mut Vec::new(), &partial).is_err());
}
