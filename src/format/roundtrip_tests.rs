//! Property tests: export -> import gives back the same puzzle, in every format that can hold it.

use super::*;
use crate::cage::Cage;
use crate::geometry::Geometry;
use crate::test_support::{self, random_boxed_solution};
use proptest::prelude::*;
use rand::SeedableRng;
use rand_pcg::Pcg64;

/// A random valid puzzle: a size, givens drawn from a solution, and (if `killer`) cages.
fn random_puzzle(seed: u64, size: usize, killer: bool, givens: bool, cover: f64) -> Puzzle {
    let mut rng = Pcg64::seed_from_u64(seed);
    let geometry = Geometry::standard(size).unwrap();
    let solution = random_boxed_solution(&geometry, &mut rng);
    let cover = if killer { cover } else { 0.0 };
    let given = if givens { 0.3 } else { 0.0 };
    test_support::random_puzzle(&geometry, &solution, cover, given, &mut rng)
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
        jsonl::write_puzzle(&mut out, &puzzle, Some(puzzle.givens())).unwrap();
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
    fn cage_list_round_trips(seed: u64, size in any_size()) {
        let puzzle = random_puzzle(seed, size, true, false, 1.0);
        let mut out = Vec::new();
        write_puzzle(&mut out, &puzzle, Format::CageList).unwrap();
        prop_assert_eq!(read_one(&out, Format::CageList), puzzle);
    }

    #[test]
    fn cage_list_round_trips_partial_9x9(seed: u64, cover in 0.3f64..1.0) {
        let puzzle = random_puzzle(seed, 9, true, false, cover);
        let mut out = Vec::new();
        write_puzzle(&mut out, &puzzle, Format::CageList).unwrap();
        prop_assert_eq!(read_one(&out, Format::CageList), puzzle);
    }
}

#[test]
fn formats_refuse_what_they_cannot_hold() {
    let with_givens = random_puzzle(1, 9, true, true, 1.0);
    assert!(with_givens.givens().count_filled() > 0);
    assert!(cage_list::write_puzzle(&mut Vec::new(), &with_givens).is_err());
    assert!(
        sudocue::write_puzzle(&mut Vec::new(), &random_puzzle(1, 6, true, false, 1.0)).is_err()
    );
    let killer = random_puzzle(1, 9, true, false, 1.0);
    assert!(write_puzzle(&mut Vec::new(), &killer, Format::Plain).is_err());
    let partial = random_puzzle(3, 6, true, false, 0.5);
    let covered: usize = partial.cages().iter().map(Cage::len).sum();
    assert!(covered < 36);
    assert!(cage_list::write_puzzle(&mut Vec::new(), &partial).is_err());
}
