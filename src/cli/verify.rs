//! `sudoku-press verify`: re-check every stored puzzle and the run records of a database.
//!
//! Exit code: 0 when all is well (unfinished runs are listed but are no fault), 1 when a problem
//! or an undecided puzzle was found (each listed on stdout), 2 when the file cannot be read.

use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use sudoku_press::pipeline::verify::verify;
use sudoku_press::settings::MAX_THREADS;
use sudoku_press::store::Store;

/// Flags of `verify`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The database to check (opened read-only; read-only media work).
    #[arg(long, default_value = "output/puzzles.db")]
    db: PathBuf,
    /// Worker threads (0 = one per core), up to 1024.
    #[arg(long, value_name = "N", default_value_t = 0,
          value_parser = clap::value_parser!(u32).range(0..=MAX_THREADS as i64))]
    threads: u32,
    /// Search nodes allowed per uniqueness check (0 = no limit).
    #[arg(long, value_name = "N", default_value_t = super::solve::DEFAULT_MAX_NODES)]
    max_nodes: u64,
}

/// Run `verify`.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let store = Store::open_read_only(&args.db)?;
    let mut out = std::io::stdout().lock();
    if let Err(report) = store.check_integrity()? {
        writeln!(
            out,
            "{}: SQLite integrity check: {report}",
            args.db.display()
        )?;
        return Ok(ExitCode::from(1));
    }
    let max_nodes = match args.max_nodes {
        0 => u64::MAX,
        n => n,
    };
    let terminal = std::io::stderr().is_terminal();
    let report = verify(&store, args.threads as usize, max_nodes, |done| {
        if terminal {
            eprint!("\rchecked {done} puzzles");
        }
    })?;
    if terminal {
        eprint!("\r");
    }
    let db = args.db.display();
    for p in &report.problems {
        writeln!(out, "{db}: {p}")?;
    }
    for run in &report.unfinished {
        writeln!(
            out,
            "{db}: unfinished: {run}; run its generate command again to complete it"
        )?;
    }
    if !report.undecided.is_empty() {
        writeln!(
            out,
            "{db}: {} puzzles undecided within --max-nodes {} (ids {:?}…); raise it to settle them",
            report.undecided.len(),
            args.max_nodes,
            &report.undecided[..report.undecided.len().min(10)]
        )?;
    }
    let bad = report.problems.len() + report.undecided.len();
    eprintln!(
        "{db}: {} puzzles checked, {} problem(s), {} undecided",
        report.puzzles,
        report.problems.len(),
        report.undecided.len()
    );
    Ok(if bad == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}
