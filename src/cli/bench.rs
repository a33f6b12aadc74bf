//! `sudoku-press bench`: solver throughput (count to 2, one thread) over the standard sets.

use anyhow::Context;
use std::fs::File;
use std::io::{BufReader, Write};
use std::path::{Path, PathBuf};
use std::time::Duration;
use sudoku_press::format::{Entry, Reader};
use sudoku_press::pipeline::bench::{measure, BenchResult};
use sudoku_press::transform::PuzzleSymmetry;
use sudoku_press::Puzzle;

/// Flags of `bench`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Directory holding killer/ and sudoku/ with the standard sets.
    #[arg(long, default_value = "../shared/data")]
    data: PathBuf,
    /// Measure this file instead of the standard sets (repeatable).
    #[arg(long = "file", value_name = "FILE")]
    files: Vec<PathBuf>,
    /// Keep passing over each set until this many seconds have passed (0: one pass).
    #[arg(long, default_value_t = 2.0, value_parser = seconds)]
    min_seconds: f64,
    /// Measure every image of each puzzle under the symmetries of its grid instead (turns,
    /// mirrors and the digit complement: 16 for square boxes and jigsaw, 8 otherwise): the search's
    /// tie-breaks follow cell order, so a change to it is judged on all orientations of the same
    /// puzzles, not the luck of one.
    #[arg(long)]
    symmetries: bool,
}

fn seconds(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(s) if s.is_finite() && (0.0..=86_400.0).contains(&s) => Ok(s),
        _ => Err(format!(
            "`{text}` is not a number of seconds from 0 to 86400"
        )),
    }
}

/// Run `bench`.
pub fn run(args: Args) -> anyhow::Result<()> {
    let sets = if args.files.is_empty() {
        standard_sets(&args.data)?
    } else {
        args.files
            .iter()
            .map(|f| {
                let name = f.file_name().unwrap_or(f.as_os_str());
                Ok((name.to_string_lossy().into_owned(), load(f)?))
            })
            .collect::<anyhow::Result<_>>()?
    };
    let mut out = std::io::stdout().lock();
    writeln!(
        out,
        "{:<16} {:>7} {:>7} {:>10} {:>10} {:>8} {:>8}  counts 0/1/2+",
        "set", "puzzles", "seconds", "puzzles/s", "best pass", "nodes", "guesses"
    )?;
    let min_time = Duration::from_secs_f64(args.min_seconds);
    for (name, mut puzzles) in sets {
        if args.symmetries {
            puzzles = puzzles.iter().flat_map(images).collect();
        }
        let r: BenchResult = measure(&puzzles, min_time);
        writeln!(
            out,
            "{:<16} {:>7} {:>7.2} {:>10.0} {:>10.0} {:>8.2} {:>8.2}  {}/{}/{}",
            name,
            r.puzzles,
            r.seconds,
            r.per_second(),
            r.best_per_second(),
            r.mean_nodes(),
            r.mean_guesses(),
            r.counts[0],
            r.counts[1],
            r.counts[2]
        )?;
        out.flush()?;
    }
    Ok(())
}

/// `puzzle` under each symmetry of its grid (the identity first).
fn images(puzzle: &Puzzle) -> Vec<Puzzle> {
    PuzzleSymmetry::group(puzzle.geometry())
        .into_iter()
        .map(|symmetry| symmetry.apply(puzzle))
        .collect()
}

/// krazydad_vol1, each Solo level, 17_clue and top1465, those present under `data`.
fn standard_sets(data: &Path) -> anyhow::Result<Vec<(String, Vec<Puzzle>)>> {
    let mut sets = Vec::new();
    let killer = data.join("killer/krazydad_vol1.jsonl");
    if killer.exists() {
        sets.push(("krazydad_vol1".to_string(), load(&killer)?));
    }
    for file in ["killer/solo_levels.jsonl", "killer/solo_small.jsonl"] {
        let path = data.join(file);
        if path.exists() {
            let mut levels: Vec<(String, Vec<Puzzle>)> = Vec::new();
            for (level, puzzle) in load_levels(&path)? {
                match levels.iter_mut().find(|(l, _)| *l == level) {
                    Some((_, v)) => v.push(puzzle),
                    None => levels.push((level, vec![puzzle])),
                }
            }
            sets.extend(levels.into_iter().map(|(l, v)| (format!("solo {l}"), v)));
        }
    }
    for (name, file) in [
        ("17_clue", "sudoku/17_clue.txt"),
        ("top1465", "sudoku/top1465.txt"),
    ] {
        let path = data.join(file);
        if path.exists() {
            sets.push((name.to_string(), load(&path)?));
        }
    }
    anyhow::ensure!(
        !sets.is_empty(),
        "no standard set found under {}",
        data.display()
    );
    Ok(sets)
}

/// Every puzzle of a file in any format the reader detects.
fn load(path: &Path) -> anyhow::Result<Vec<Puzzle>> {
    Ok(read_entries(path)?.into_iter().map(|e| e.puzzle).collect())
}

/// The puzzles of a JSON-lines file with their `level` field (empty when absent).
fn load_levels(path: &Path) -> anyhow::Result<Vec<(String, Puzzle)>> {
    Ok(read_entries(path)?
        .into_iter()
        .map(|e| {
            let level = e.object.as_ref().and_then(|o| o.get("level"));
            let level = level.as_ref().and_then(|l| l.as_str()).unwrap_or_default();
            (level.to_string(), e.puzzle)
        })
        .collect())
}

fn read_entries(path: &Path) -> anyhow::Result<Vec<Entry>> {
    let file = File::open(path).with_context(|| format!("cannot open {}", path.display()))?;
    Reader::new(BufReader::new(file), None)
        .and_then(|reader| reader.collect::<Result<Vec<_>, _>>())
        .with_context(|| format!("reading {}", path.display()))
}
