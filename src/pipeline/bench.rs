//! Throughput measurement: count solutions (up to 2) over a set of puzzles, one thread, repeated
//! until a minimum time has passed so short sets still give a stable figure; the sets come from
//! the data folder, from files, or (with no data folder at hand) from the generator.

use crate::format::{Entry, FormatError, Reader};
use crate::generator::level::LevelsSetting;
use crate::generator::{generate_puzzle, GeneratorConfig, GivensPolicy, Outcome, Variant};
use crate::puzzle::Puzzle;
use crate::solver::Solver;
use rayon::prelude::*;
use std::fs::File;
use std::io::BufReader;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// What one measured set gave.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct BenchResult {
    /// Puzzles in the set.
    pub puzzles: usize,
    /// Passes over the whole set.
    pub rounds: usize,
    /// Wall time of all passes.
    pub seconds: f64,
    /// Wall time of the fastest pass (the least disturbed by other work on the machine).
    pub best_pass: f64,
    /// Search nodes of one pass.
    pub nodes: u64,
    /// Guesses of one pass.
    pub guesses: u64,
    /// Puzzles with no solution, exactly one, and two or more (one pass).
    pub counts: [usize; 3],
}

impl BenchResult {
    /// Puzzles solved per second.
    pub fn per_second(&self) -> f64 {
        (self.puzzles * self.rounds) as f64 / self.seconds.max(f64::MIN_POSITIVE)
    }
    /// Puzzles solved per second in the fastest pass.
    pub fn best_per_second(&self) -> f64 {
        self.puzzles as f64 / self.best_pass.max(f64::MIN_POSITIVE)
    }
    /// Mean search nodes per puzzle.
    pub fn mean_nodes(&self) -> f64 {
        self.nodes as f64 / self.puzzles.max(1) as f64
    }
    /// Mean guesses per puzzle.
    pub fn mean_guesses(&self) -> f64 {
        self.guesses as f64 / self.puzzles.max(1) as f64
    }
}

/// Count the solutions of every puzzle (limit 2) in passes until `min_time` has passed
/// (at least one pass). Puzzles of several geometries are allowed (the solver rebuilds its tables).
pub fn measure(puzzles: &[Puzzle], min_time: Duration) -> BenchResult {
    let mut result = BenchResult {
        puzzles: puzzles.len(),
        ..BenchResult::default()
    };
    let Some(first) = puzzles.first() else {
        return result;
    };
    let mut solver = Solver::new(first.geometry());
    let start = Instant::now();
    result.best_pass = f64::INFINITY;
    loop {
        let pass = Instant::now();
        for puzzle in puzzles {
            let report = solver.solve(puzzle, 2);
            if result.rounds == 0 {
                result.nodes += report.stats.nodes;
                result.guesses += report.stats.guesses;
                result.counts[report.solutions.len().min(2)] += 1;
            }
        }
        result.rounds += 1;
        result.best_pass = result.best_pass.min(pass.elapsed().as_secs_f64());
        if start.elapsed() >= min_time {
            break;
        }
    }
    result.seconds = start.elapsed().as_secs_f64();
    result
}

/// A named set of puzzles to measure.
#[derive(Clone, Debug)]
pub struct BenchSet {
    /// The name printed in the report (a file name, `solo advanced`, `generated killer 9x9`…).
    pub name: String,
    /// Its puzzles, in file order.
    pub puzzles: Vec<Puzzle>,
}

/// Why a set could not be read.
#[derive(Debug, thiserror::Error)]
pub enum BenchSetError {
    /// The file could not be opened.
    #[error("cannot open {}: {source}", path.display())]
    Open {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// A line of the file is not a puzzle.
    #[error("reading {}: {source}", path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// Where and why.
        source: FormatError,
    },
}

/// Every puzzle of a file in any format the reader detects, with the file's name.
pub fn load_set(path: &Path) -> Result<BenchSet, BenchSetError> {
    let name = path.file_name().unwrap_or(path.as_os_str());
    Ok(BenchSet {
        name: name.to_string_lossy().into_owned(),
        puzzles: read_entries(path)?.into_iter().map(|e| e.puzzle).collect(),
    })
}

/// The standard sets found under `data` (the data folder of `../shared/data`'s layout):
/// krazydad_vol1, each Solo level, 17_clue and top1465; empty when none is there.
pub fn standard_sets(data: &Path) -> Result<Vec<BenchSet>, BenchSetError> {
    let mut sets = Vec::new();
    let killer = data.join("killer/krazydad_vol1.jsonl");
    if killer.exists() {
        sets.push(BenchSet {
            name: "krazydad_vol1".into(),
            ..load_set(&killer)?
        });
    }
    for file in ["killer/solo_levels.jsonl", "killer/solo_small.jsonl"] {
        let path = data.join(file);
        if path.exists() {
            let mut levels: Vec<BenchSet> = Vec::new();
            for entry in read_entries(&path)? {
                let level = entry.object.as_ref().and_then(|o| o.get("level"));
                let level = level.as_ref().and_then(|l| l.as_str()).unwrap_or_default();
                let name = format!("solo {level}");
                match levels.iter_mut().find(|set| set.name == name) {
                    Some(set) => set.puzzles.push(entry.puzzle),
                    None => levels.push(BenchSet {
                        name,
                        puzzles: vec![entry.puzzle],
                    }),
                }
            }
            sets.extend(levels);
        }
    }
    for (name, file) in [
        ("17_clue", "sudoku/17_clue.txt"),
        ("top1465", "sudoku/top1465.txt"),
    ] {
        let path = data.join(file);
        if path.exists() {
            sets.push(BenchSet {
                name: name.into(),
                ..load_set(&path)?
            });
        }
    }
    Ok(sets)
}

/// Puzzles of each generated set when no data folder is at hand.
pub const GENERATED_SET_SIZE: u64 = 300;
/// The seed of the generated sets (fixed, so every machine measures the same puzzles).
pub const GENERATED_SET_SEED: u64 = 1;

/// Sets made on the spot with the generator when no data folder is at hand, the same on every
/// machine: `GENERATED_SET_SIZE` zero-given 9x9 killers and as many minimal plain 9x9 puzzles,
/// both from seed `GENERATED_SET_SEED` and the default settings of their variant, without a
/// target level (the sets stay those of generator version 15: no item is rejected off-level).
pub fn generated_sets() -> Vec<BenchSet> {
    let any = GeneratorConfig {
        levels: Some(LevelsSetting::any()),
        ..GeneratorConfig::default()
    };
    let classic = GeneratorConfig {
        variant: Variant::Classic,
        givens: GivensPolicy::Minimal,
        ..any.clone()
    };
    let killer = any;
    [
        ("generated killer 9x9", killer),
        ("generated classic 9x9", classic),
    ]
    .into_iter()
    .map(|(name, config)| BenchSet {
        name: name.into(),
        puzzles: (0..GENERATED_SET_SIZE)
            .into_par_iter()
            .filter_map(|i| match generate_puzzle(&config, GENERATED_SET_SEED, i) {
                Outcome::Generated(g) => Some(g.puzzle),
                Outcome::Rejected(_) => None,
            })
            .collect(),
    })
    .collect()
}

fn read_entries(path: &Path) -> Result<Vec<Entry>, BenchSetError> {
    let file = File::open(path).map_err(|source| BenchSetError::Open {
        path: path.to_path_buf(),
        source,
    })?;
    Reader::new(BufReader::new(file), None)
        .and_then(|reader| reader.collect::<Result<Vec<_>, _>>())
        .map_err(|source| BenchSetError::Read {
            path: path.to_path_buf(),
            source,
        })
}
