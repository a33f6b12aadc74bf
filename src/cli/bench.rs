//! `sudoku-press bench`: solver throughput (count to 2, one thread) over the standard sets.

use anyhow::bail;
use std::io::Write;
use std::path::PathBuf;
use std::time::Duration;
use sudoku_press::pipeline::bench::{
    generated_sets, load_set, measure, standard_sets, BenchResult, BenchSet, GENERATED_SET_SEED,
    GENERATED_SET_SIZE,
};
use sudoku_press::transform::PuzzleSymmetry;
use sudoku_press::Puzzle;

/// Flags of `bench`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Directory holding killer/ and sudoku/ with the standard sets [default: ../shared/data;
    /// when that is absent, generated 9x9 killers and plain puzzles are measured instead].
    #[arg(long)]
    data: Option<PathBuf>,
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

/// Where the standard sets are looked for without `--data`.
const DEFAULT_DATA: &str = "../shared/data";

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
    let sets = if !args.files.is_empty() {
        args.files
            .iter()
            .map(|f| load_set(f))
            .collect::<Result<Vec<_>, _>>()?
    } else {
        let data = args
            .data
            .clone()
            .unwrap_or_else(|| PathBuf::from(DEFAULT_DATA));
        let sets = standard_sets(&data)?;
        match (sets.is_empty(), &args.data) {
            (false, _) => sets,
            (true, Some(_)) => bail!(
                "no standard set found under {} (it should hold killer/krazydad_vol1.jsonl, \
                 sudoku/17_clue.txt, ...); name the folder of the data sets, or leave --data out \
                 to measure generated puzzles",
                data.display()
            ),
            (true, None) => {
                eprintln!(
                    "bench: no data sets under {DEFAULT_DATA}: measuring {GENERATED_SET_SIZE} \
                     generated 9x9 killers and {GENERATED_SET_SIZE} plain puzzles (seed \
                     {GENERATED_SET_SEED}) instead; --data DIR names the data folder"
                );
                generated_sets()
            }
        }
    };
    let mut out = std::io::stdout().lock();
    writeln!(
        out,
        "{:<22} {:>7} {:>7} {:>10} {:>10} {:>8} {:>8}  counts 0/1/2+",
        "set", "puzzles", "seconds", "puzzles/s", "best pass", "nodes", "guesses"
    )?;
    let min_time = Duration::from_secs_f64(args.min_seconds);
    for BenchSet { name, mut puzzles } in sets {
        if args.symmetries {
            puzzles = puzzles.iter().flat_map(images).collect();
        }
        let r: BenchResult = measure(&puzzles, min_time);
        writeln!(
            out,
            "{:<22} {:>7} {:>7.2} {:>10.0} {:>10.0} {:>8.2} {:>8.2}  {}/{}/{}",
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
