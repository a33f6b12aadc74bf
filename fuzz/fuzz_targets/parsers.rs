//! Fuzz target: every parser (each format, detection, grids) on arbitrary bytes must return a
//! value or an error, never panic; every puzzle read must come back the same from every format
//! that can hold it (export -> detect -> import).

#![no_main]

use libfuzzer_sys::fuzz_target;
use sudoku_press::format::{self, Format, Reader};
use sudoku_press::{Cage, Puzzle};

/// Entries read per format: enough to reach every parser state, bounded per input.
const MAX_ENTRIES: usize = 16;

/// Cages in a canonical order (a killer code lists cages by their first cell).
fn sorted_cages(puzzle: &Puzzle) -> Vec<Cage> {
    let mut cages = puzzle.cages().to_vec();
    cages.sort();
    cages
}

fn round_trip(puzzle: &Puzzle) {
    for format in Format::ALL {
        let mut out = Vec::new();
        if format::write_puzzle(&mut out, puzzle, format).is_err() {
            continue;
        }
        let mut reader = Reader::new(&out[..], None).expect("own output has a puzzle");
        assert_eq!(reader.format(), format, "detected format of our own output");
        let again = reader
            .next()
            .expect("one entry")
            .expect("own output parses");
        assert!(reader.next().is_none(), "exactly one entry");
        assert_eq!(again.puzzle.geometry(), puzzle.geometry());
        assert_eq!(again.puzzle.givens(), puzzle.givens());
        assert_eq!(sorted_cages(&again.puzzle), sorted_cages(puzzle));
    }
}

fuzz_target!(|data: &[u8]| {
    let formats = [None].into_iter().chain(Format::ALL.into_iter().map(Some));
    for format in formats {
        let Ok(reader) = Reader::new(data, format) else {
            continue;
        };
        for entry in reader.take(MAX_ENTRIES).flatten() {
            round_trip(&entry.puzzle);
        }
    }
    for size in [4, 9, 16] {
        let _ = format::read_grid(data, size);
    }
});
