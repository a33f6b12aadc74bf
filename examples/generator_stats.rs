//! Measure the generator alone, one thread: rejection rate, solver calls, time per puzzle, cage
//! statistics. `cargo run --release --example generator_stats -- [variant] [size] [count] [seed]
//! [builder] [givens]`, e.g. `-- killer 9 1000 1`.

use std::collections::BTreeMap;
use std::time::Instant;
use sudoku_press::generator::{
    generate_puzzle, CageBuilderKind, GeneratorConfig, GivensPolicy, Outcome, Variant,
};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let arg = |i: usize, default: &str| args.get(i).cloned().unwrap_or_else(|| default.into());
    let quoted = |s: String| format!("\"{s}\"");
    let variant: Variant = serde_json::from_str(&quoted(arg(0, "killer"))).expect("variant");
    let size: u8 = arg(1, "9").parse().expect("size");
    let count: u64 = arg(2, "1000").parse().expect("count");
    let seed: u64 = arg(3, "1").parse().expect("seed");
    let builder: CageBuilderKind = serde_json::from_str(&quoted(arg(4, "book"))).expect("builder");
    let givens: GivensPolicy = serde_json::from_str(&quoted(arg(5, "zero"))).expect("givens");
    let config = GeneratorConfig {
        variant,
        size,
        cage_builder: builder,
        givens,
        ..GeneratorConfig::default()
    };
    let start = Instant::now();
    let (mut ok, mut calls, mut repairs, mut givens_total, mut guesses) = (0u64, 0u64, 0u64, 0, 0);
    let mut sizes = vec![0u64; size as usize + 1];
    let mut counts: Vec<usize> = Vec::new();
    let mut all_guesses: Vec<u64> = Vec::new();
    let mut levels: BTreeMap<String, u64> = BTreeMap::new();
    let mut rejected: BTreeMap<String, u64> = BTreeMap::new();
    let mut slowest = (0.0f64, 0u64);
    for index in 0..count {
        let item_start = Instant::now();
        let outcome = generate_puzzle(&config, seed, index);
        let item_secs = item_start.elapsed().as_secs_f64();
        if item_secs > slowest.0 {
            slowest = (item_secs, index);
        }
        match outcome {
            Outcome::Generated(g) => {
                let m = g.metrics;
                ok += 1;
                calls += m.solver_calls as u64;
                repairs += m.repairs as u64;
                givens_total += m.givens;
                guesses += m.guesses;
                all_guesses.push(m.guesses);
                counts.push(m.cage_count);
                for (k, &c) in m.cage_sizes.iter().enumerate() {
                    sizes[k] += c as u64;
                }
                *levels
                    .entry(m.grade.level.map_or("unrated", |l| l.as_str()).into())
                    .or_default() += 1;
            }
            Outcome::Rejected(r) => {
                let name = format!("{r:?}");
                let name = name.split([' ', '(']).next().unwrap_or("").to_string();
                *rejected.entry(name).or_default() += 1;
            }
        }
    }
    let secs = start.elapsed().as_secs_f64();
    println!("config: {config:?}");
    println!(
        "items {count}: generated {ok}, rejected {:?} ({:.2}%)",
        rejected,
        100.0 * (count - ok) as f64 / count as f64
    );
    println!(
        "time {:.3} s: {:.3} ms per item, {:.3} ms per generated puzzle, {:.0} puzzles/s (one thread)",
        secs,
        1e3 * secs / count as f64,
        1e3 * secs / ok.max(1) as f64,
        ok as f64 / secs
    );
    println!(
        "slowest item: {:.3} ms (index {})",
        1e3 * slowest.0,
        slowest.1
    );
    let per = |x: u64| x as f64 / ok.max(1) as f64;
    println!(
        "per generated puzzle: solver calls {:.2}, repairs {:.2}, givens {:.2}, guesses {:.2}",
        per(calls),
        per(repairs),
        per(givens_total as u64),
        per(guesses)
    );
    let total: u64 = sizes.iter().sum();
    if total > 0 {
        let mean = sizes
            .iter()
            .enumerate()
            .map(|(k, &c)| k as u64 * c)
            .sum::<u64>() as f64
            / total as f64;
        let dist: Vec<String> = sizes
            .iter()
            .enumerate()
            .filter(|(_, &c)| c > 0)
            .map(|(k, &c)| format!("{k}: {:.1}%", 100.0 * c as f64 / total as f64))
            .collect();
        println!("cage sizes: {} | mean size {:.3}", dist.join(", "), mean);
        let (min, max) = (counts.iter().min().unwrap(), counts.iter().max().unwrap());
        let avg = counts.iter().sum::<usize>() as f64 / counts.len() as f64;
        println!("cages per puzzle: mean {avg:.2}, min {min}, max {max}");
    }
    all_guesses.sort_unstable();
    let q = |f: f64| {
        all_guesses
            .get(((all_guesses.len() as f64 - 1.0) * f) as usize)
            .copied()
            .unwrap_or(0)
    };
    println!(
        "solver guesses on the final puzzle: q25 {}, median {}, q75 {}, q90 {}, max {}",
        q(0.25),
        q(0.5),
        q(0.75),
        q(0.9),
        q(1.0)
    );
    println!("levels: {levels:?}");
}
