//! Where a big grid's generation time goes, one thread: seed fills, layouts and uniqueness checks,
//! grading (with and without the known solution), solver calls, nodes, budget triggers.
//! `cargo run --release --example bigrid_probe -- [size] [count] [seed] [grade|nograde]`, e.g.
//! `-- 12 200 1`. With `rungs` as the fourth argument, it also times every rung of the grader's
//! ladder (calls, hits, time) on the generated puzzles, walking the way the grader does.

use std::time::{Duration, Instant};
use sudoku_press::generator::{generate_from_seed, seed_grid, GeneratorConfig, Outcome};
use sudoku_press::grader::techniques::{Context, LADDER};
use sudoku_press::grader::{self, grade::walk, Board};
use sudoku_press::grid::Grid;
use sudoku_press::puzzle::Puzzle;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let arg = |i: usize, default: &str| args.get(i).cloned().unwrap_or_else(|| default.into());
    let size: u8 = arg(0, "12").parse().expect("size");
    let count: u64 = arg(1, "100").parse().expect("count");
    let seed: u64 = arg(2, "1").parse().expect("seed");
    // "nograde": skip timing the grade again (the generator grades every puzzle anyway).
    let regrade = arg(3, "grade") != "nograde";
    let rungs = arg(3, "grade") == "rungs";
    let mut per_rung = vec![(0u64, 0u64, Duration::ZERO); LADDER.len() + 1];
    let mut stuck = 0u64;
    let config = GeneratorConfig {
        size,
        ..GeneratorConfig::default()
    };
    let resolved = config.validate().expect("valid config");
    let vps = config.variations_per_seed as u64;
    let (mut t_seed, mut t_item, mut t_grade, mut t_known) = (
        Duration::ZERO,
        Duration::ZERO,
        Duration::ZERO,
        Duration::ZERO,
    );
    let (mut ok, mut calls, mut nodes, mut undecided, mut repairs) = (0u64, 0u64, 0u64, 0u64, 0u64);
    let mut rejected = 0u64;
    let mut max_nodes_item = 0u64;
    let mut same = true;
    let mut current = None;
    for index in 0..count {
        let group = index / vps;
        if current.as_ref().is_none_or(|(g, _)| *g != group) {
            let t = Instant::now();
            let s = seed_grid(&config, &resolved, seed, group).expect("seed grid");
            t_seed += t.elapsed();
            current = Some((group, s));
        }
        let (_, s) = current.as_ref().expect("set above");
        let t = Instant::now();
        let outcome = generate_from_seed(&config, &resolved, s, seed, index);
        t_item += t.elapsed();
        let Outcome::Generated(g) = outcome else {
            rejected += 1;
            continue;
        };
        ok += 1;
        calls += g.metrics.solver_calls as u64;
        nodes += g.metrics.search_nodes;
        max_nodes_item = max_nodes_item.max(g.metrics.search_nodes);
        undecided += g.metrics.undecided as u64;
        repairs += g.metrics.repairs as u64;
        if rungs {
            stuck += time_rungs(&g.puzzle, &g.solution, &mut per_rung);
        }
        if !regrade {
            continue;
        }
        let t = Instant::now();
        let again = grader::grade(&g.puzzle);
        t_grade += t.elapsed();
        let t = Instant::now();
        let known = walk(&g.puzzle, Some(&g.solution), false).grade;
        t_known += t.elapsed();
        same &= again == g.metrics.grade && known == again;
    }
    let ms = |d: Duration| 1e3 * d.as_secs_f64() / count as f64;
    let per = |x: u64| x as f64 / ok.max(1) as f64;
    println!("size {size}, items {count}, seed {seed}: generated {ok}, rejected {rejected}");
    println!(
        "ms per item: seed fill {:.3}, item (layout + uniqueness + grade) {:.3}, grade {:.3}, grade with known solution {:.3}; without grade {:.3}",
        ms(t_seed),
        ms(t_item),
        ms(t_grade),
        ms(t_known),
        ms(t_item) - ms(t_grade)
    );
    println!(
        "per puzzle: solver calls {:.2}, nodes {:.0} (max item {}), repairs {:.2}; budget triggers {} in all",
        per(calls),
        per(nodes),
        max_nodes_item,
        per(repairs),
        undecided
    );
    println!("grades equal with and without the known solution: {same}");
    if rungs {
        println!("rung: calls, hits, ms per puzzle (stuck {stuck} times in all)");
        println!(
            "board and context set-up: {:.4} ms",
            ms(per_rung[LADDER.len()].2)
        );
        for (r, (calls, hits, t)) in LADDER.iter().zip(&per_rung) {
            println!(
                "{:>24} {:>8} {:>7} {:>8.4}",
                format!("{:?}", r.technique),
                calls,
                hits,
                ms(*t)
            );
        }
    }
}

/// Walk the ladder as the grader does (easiest rung first, restarting after every step), timing
/// each rung; where every rung is stuck the solution's digit goes in the emptiest cell. Returns
/// how often it was stuck.
fn time_rungs(puzzle: &Puzzle, solution: &Grid, per_rung: &mut [(u64, u64, Duration)]) -> u64 {
    let t = Instant::now();
    let mut board = Board::new(puzzle);
    board.set_explaining(false);
    let mut ctx = Context::new(puzzle);
    per_rung[LADDER.len()].2 += t.elapsed();
    let mut found = Vec::new();
    let mut stuck = 0;
    while !board.is_solved() {
        found.clear();
        for (i, r) in LADDER.iter().enumerate() {
            let t = Instant::now();
            r.find(&mut ctx, &board, &mut found);
            let e = &mut per_rung[i];
            e.2 += t.elapsed();
            e.0 += 1;
            if !found.is_empty() {
                e.1 += 1;
                break;
            }
        }
        if found.is_empty() {
            stuck += 1;
            let Some(cell) = board
                .empty_cells()
                .min_by_key(|&c| board.candidates(c).len())
            else {
                break;
            };
            let Some(d) = solution.get(cell) else { break };
            board.place(cell, d);
            continue;
        }
        for step in &found {
            if board.apply(step).is_err() {
                return stuck;
            }
        }
    }
    stuck
}
