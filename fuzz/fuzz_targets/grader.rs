//! Fuzz target: what `rate` and `explain` do with a puzzle read from arbitrary bytes must end
//! (every technique is bounded, trial has a node budget) without a panic; every step of a
//! puzzle with one solution must agree with it, and every step must have words and hints.

#![no_main]

use libfuzzer_sys::fuzz_target;
use sudoku_press::format::Reader;
use sudoku_press::grader::{self, text};

/// Puzzles graded per input, and the largest side graded (bigger grids only slow the fuzzer).
const MAX_ENTRIES: usize = 4;
const MAX_SIZE: usize = 9;

fuzz_target!(|data: &[u8]| {
    let Ok(reader) = Reader::new(data, None) else {
        return;
    };
    for entry in reader.take(MAX_ENTRIES).flatten() {
        let puzzle = &entry.puzzle;
        if puzzle.size() > MAX_SIZE {
            continue;
        }
        let path = grader::solve_logically(puzzle);
        assert_eq!(path.grade.level.is_some(), path.solution.is_some());
        for step in &path.steps {
            if let Some(solution) = &path.solution {
                assert!(grader::is_sound(step, solution), "unsound step {step:?}");
            }
            assert!(!text::step_text(puzzle.geometry(), step).is_empty());
            let hints = text::hints(puzzle.geometry(), puzzle.cages(), step);
            assert!(hints.iter().all(|h| !h.is_empty()));
        }
    }
});
