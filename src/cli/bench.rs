//! `sudoku-press bench`: solver throughput (count to 2, one thread) over the standard sets.

use anyhow::Context;
use std::path::{Path, PathBuf};
use std::time::Duration;
use sudoku_press::solver::bench::{measure, BenchResult};
use sudoku_press::{Cage, Cell, Geometry, Grid, Puzzle};

/// Flags of `bench`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Directory holding killer/ and sudoku/ with the standard sets.
    #[arg(long, default_value = "../shared/data")]
    data: PathBuf,
    /// Measure this file instead of the standard sets (repeatable).
    #[arg(long = "file", value_name = "FILE")]
    files: Vec<PathBuf>,
    /// Keep passing over each set until this many seconds have passed.
    #[arg(long, default_value_t = 2.0)]
    min_seconds: f64,
}

/// Run `bench`.
pub fn run(args: Args) -> anyhow::Result<()> {
    let sets = if args.files.is_empty() {
        standard_sets(&args.data)?
    } else {
        args.files
            .iter()
            .map(|f| Ok((f.display().to_string(), load(f)?)))
            .collect::<anyhow::Result<_>>()?
    };
    println!(
        "{:<28} {:>8} {:>8} {:>12} {:>10} {:>10}  counts 0/1/2+",
        "set", "puzzles", "seconds", "puzzles/s", "nodes", "guesses"
    );
    let min_time = Duration::from_secs_f64(args.min_seconds.max(0.0));
    for (name, puzzles) in sets {
        let r: BenchResult = measure(&puzzles, min_time);
        println!(
            "{:<28} {:>8} {:>8.2} {:>12.0} {:>10.2} {:>10.2}  {}/{}/{}",
            name,
            r.puzzles,
            r.seconds,
            r.per_second(),
            r.mean_nodes(),
            r.mean_guesses(),
            r.counts[0],
            r.counts[1],
            r.counts[2]
        );
    }
    Ok(())
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

// TEMPORARY loaders until `format` lands on main; replaced by the format module's reader.
fn load(path: &Path) -> anyhow::Result<Vec<Puzzle>> {
    Ok(load_levels(path)?.into_iter().map(|(_, p)| p).collect())
}

fn load_levels(path: &Path) -> anyhow::Result<Vec<(String, Puzzle)>> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
    let mut out = Vec::new();
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        if line.starts_with('{') {
            let v: serde_json::Value = serde_json::from_str(line)?;
            let size = v["size"].as_u64().context("size")? as usize;
            let geometry = match (v["box_rows"].as_u64(), v["box_cols"].as_u64()) {
                (Some(r), Some(c)) => Geometry::boxed(size, r as usize, c as usize)?,
                _ if size == 6 => Geometry::boxed(6, 2, 3)?,
                _ => Geometry::standard(size)?,
            };
            let givens: Vec<u8> = v["givens"]
                .as_array()
                .context("givens")?
                .iter()
                .map(|x| x.as_u64().unwrap_or(0) as u8)
                .collect();
            let cages = v["cages"]
                .as_array()
                .map(|a| {
                    a.iter()
                        .map(|c| {
                            let cells = c["cells"]
                                .as_array()
                                .into_iter()
                                .flatten()
                                .map(|x| Cell::new(x.as_u64().unwrap_or(0) as u8))
                                .collect();
                            Cage::new(c["sum"].as_u64().unwrap_or(0) as u16, cells)
                        })
                        .collect()
                })
                .unwrap_or_default();
            let grid = Grid::from_values(size, givens).context("givens")?;
            let level = v["level"].as_str().unwrap_or("").to_string();
            out.push((level, Puzzle::new(geometry, grid, cages)?));
        } else {
            let values: Vec<u8> = line
                .trim()
                .chars()
                .map(|c| c.to_digit(10).unwrap_or(0) as u8)
                .collect();
            let grid = Grid::from_values(9, values).context("plain line")?;
            out.push((String::new(), Puzzle::plain(Geometry::standard(9)?, grid)?));
        }
    }
    Ok(out)
}
