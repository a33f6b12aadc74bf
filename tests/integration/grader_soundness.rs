//! Grader soundness on published puzzles (ignored without ../shared/data): on every killer with a
//! stored solution, no step of the human-style grader removes the true digit or places a wrong
//! one, and the path ends on the stored solution; plus thousands of generated puzzles.

use crate::common::shared_file;
use std::fs::File;
use std::io::BufReader;
use sudoku_press::format::{Entry, Reader};
use sudoku_press::grader::grade::{walk, Verdict};

fn entries(path: &std::path::Path) -> Vec<Entry> {
    let file = File::open(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    Reader::new(BufReader::new(file), None)
        .and_then(|reader| reader.collect::<Result<Vec<_>, _>>())
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The published killer sets (every puzzle with its solution) and how many puzzles each holds.
const PUBLISHED: [(&str, usize); 4] = [
    ("killer/krazydad_vol1.jsonl", 800),
    ("killer/solo_levels.jsonl", 160),
    ("killer/solo_small.jsonl", 40),
    ("killer/hard_killers.jsonl", 17),
];

#[test]
#[cfg_attr(
    not(shared_data),
    ignore = "needs ../shared/data or $SUDOKU_PRESS_DATA (absent when built)"
)]
fn grader_steps_agree_with_every_published_solution() {
    let mut checked = 0;
    for (name, count) in PUBLISHED {
        // An absent file is said ("skipping: <path> absent") and skipped; a present one is whole.
        let Some(path) = shared_file(name) else {
            continue;
        };
        let entries = entries(&path);
        assert_eq!(entries.len(), count, "{name}: puzzles read");
        for entry in entries {
            let solution = entry.solution.as_ref();
            let solution =
                solution.unwrap_or_else(|| panic!("{name} line {}: no solution", entry.line));
            let path = walk(&entry.puzzle, Some(solution), true);
            assert_ne!(
                path.grade.verdict,
                Verdict::Unsound,
                "{name} line {}: unsound step {:?}",
                entry.line,
                path.steps.last()
            );
            assert_eq!(
                path.grade.verdict,
                Verdict::Unique,
                "{name} line {}",
                entry.line
            );
            assert_eq!(
                path.solution.as_ref(),
                Some(solution),
                "{name} line {}",
                entry.line
            );
            checked += 1;
        }
    }
    eprintln!("{checked} published puzzles graded soundly");
}

#[test]
fn grader_steps_agree_with_thousands_of_generated_solutions() {
    use sudoku_press::generator::{generate_puzzle, GeneratorConfig, Outcome, Variant};
    let mut checked = 0;
    for (variant, size, count) in [
        (Variant::Killer, 9u8, 1500u64),
        (Variant::Killer, 6, 300),
        (Variant::Killer, 4, 200),
        (Variant::KillerJigsaw, 9, 150),
        (Variant::Classic, 9, 100),
    ] {
        let config = GeneratorConfig {
            variant,
            size,
            ..GeneratorConfig::default()
        };
        for index in 0..count {
            let Outcome::Generated(g) = generate_puzzle(&config, 77, index) else {
                continue;
            };
            let path = walk(&g.puzzle, Some(&g.solution), false);
            assert_eq!(
                path.grade.verdict,
                Verdict::Unique,
                "{variant:?} {size} item {index}: {:?}",
                path.grade.hardest
            );
            checked += 1;
        }
    }
    assert!(checked >= 2000, "only {checked} generated");
}
