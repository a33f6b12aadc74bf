//! Probe the generator at given settings, one thread: rate, rejections, the grader's levels and
//! cage counts of what comes out. `cargo run --release --example level_probe -- count=200
//! seed=1 min_cages=18 max_cages=22 max_cage_size=9 level=hard` (every key optional; `level`
//! may repeat as `level=hard,expert`; without it the probe draws the default level mix of
//! `generator::mix`, as `generate` does, and `level=any` gives the unsteered generator).

use std::collections::BTreeMap;
use std::time::Instant;
use sudoku_press::generator::level::LevelsSetting;
use sudoku_press::generator::{generate_puzzle, GeneratorConfig, Outcome};

fn main() {
    let mut config = GeneratorConfig::default();
    let (mut count, mut seed) = (200u64, 1u64);
    for arg in std::env::args().skip(1) {
        let (key, value) = arg.split_once('=').expect("key=value");
        let num = || value.parse::<u64>().expect("a number");
        match key {
            "count" => count = num(),
            "seed" => seed = num(),
            "min_cages" => config.min_cages = Some(num() as u16),
            "max_cages" => config.max_cages = Some(num() as u16),
            "max_cage_size" => config.max_cage_size = Some(num() as u8),
            "max_repairs" => config.max_repairs = num() as u32,
            "level" => {
                config.levels = Some(LevelsSetting::List(
                    value.split(',').map(String::from).collect(),
                ))
            }
            _ => panic!("unknown key {key}"),
        }
    }
    let resolved = config.validate().expect("valid settings");
    println!("rules: {:?}", resolved.rules);
    let start = Instant::now();
    let mut levels: BTreeMap<String, u64> = BTreeMap::new();
    let mut rejected: BTreeMap<String, u64> = BTreeMap::new();
    let mut cages: BTreeMap<usize, BTreeMap<String, u64>> = BTreeMap::new();
    let mut grading: BTreeMap<String, (u64, f64)> = BTreeMap::new();
    let (mut ok, mut calls, mut repairs) = (0u64, 0u64, 0u64);
    for index in 0..count {
        match generate_puzzle(&config, seed, index) {
            Outcome::Generated(g) => {
                let clock = Instant::now();
                let again = sudoku_press::grader::grade(&g.puzzle);
                let t = clock.elapsed().as_secs_f64();
                let m = g.metrics;
                let e = grading
                    .entry(again.level.map_or("unrated", |l| l.as_str()).to_string())
                    .or_default();
                e.0 += 1;
                e.1 += t;
                ok += 1;
                calls += m.solver_calls as u64;
                repairs += m.repairs as u64;
                let level = m.grade.level.map_or("unrated", |l| l.as_str()).to_string();
                *levels.entry(level.clone()).or_default() += 1;
                *cages
                    .entry(m.cage_count)
                    .or_default()
                    .entry(level)
                    .or_default() += 1;
            }
            Outcome::Rejected(r) => {
                let name = format!("{r:?}");
                let name = name.split([' ', '(']).next().unwrap_or("").to_string();
                *rejected.entry(name).or_default() += 1;
            }
        }
    }
    let regrade: f64 = grading.values().map(|v| v.1).sum();
    let secs = start.elapsed().as_secs_f64() - regrade;
    println!(
        "items {count}: made {ok} in {secs:.2} s = {:.1}/s one thread; rejected {rejected:?}",
        ok as f64 / secs
    );
    let per = |x: u64| x as f64 / ok.max(1) as f64;
    println!(
        "per puzzle: solver calls {:.2}, repairs {:.2}",
        per(calls),
        per(repairs)
    );
    println!("levels: {levels:?}");
    for (l, (n, t)) in &grading {
        println!("  grade {l}: {:.2} ms each", 1e3 * t / *n as f64);
    }
    for (n, by) in &cages {
        println!("  {n} cages: {by:?}");
    }
}
