//! Fuzz target: every parser (each format, detection, grids) on arbitrary bytes must return a
//! value or an error, never panic; every puzzle read must survive a JSON-lines round trip.

#![no_main]

use libfuzzer_sys::fuzz_target;
use sudoku_press::format::{self, jsonl, Format, Reader};

/// Entries read per format: enough to reach every parser state, bounded per input.
const MAX_ENTRIES: usize = 16;

fuzz_target!(|data: &[u8]| {
    let formats = [None].into_iter().chain(Format::ALL.into_iter().map(Some));
    for format in formats {
        let Ok(reader) = Reader::new(data, format) else {
            continue;
        };
        for entry in reader.take(MAX_ENTRIES).flatten() {
            let mut out = Vec::new();
            jsonl::write_jsonl(&mut out, &entry.puzzle, entry.solution.as_ref()).unwrap();
            let text = std::str::from_utf8(&out).unwrap();
            let again = jsonl::parse_line(text.trim_end(), 1).unwrap();
            assert_eq!(again.puzzle, entry.puzzle);
            assert_eq!(again.solution, entry.solution);
        }
    }
    for size in [4, 9, 16] {
        let _ = format::read_grid(data, size);
    }
});
