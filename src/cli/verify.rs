//! `sudoku-press verify`: re-check every stored puzzle and the run records of a database.
//!
//! Besides each puzzle (decodes, solves uniquely to its stored solution, canonical key), it
//! recomputes the columns derived from the puzzle (variant, givens and cage counts, cage sizes,
//! and the grade: level, score, hardest, techniques, trial), checks that every issue record
//! points at a stored puzzle with its canonical key, and that each run's settings hash is its
//! settings text's. It never writes to the file.
//!
//! Exit code: 0 when all is well (unfinished runs are listed but are no fault), 1 when a problem
//! or an undecided puzzle was found (each listed on stdout), 2 when the file cannot be read.

use super::check::counted;
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
    #[arg(short = 'j', long, value_name = "N", default_value_t = 0,
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
            eprint!("\rchecked {}", counted(done as usize, "puzzle", "puzzles"));
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
        let many = report.undecided.len() > 1;
        writeln!(
            out,
            "{db}: {} undecided within --max-nodes {} (id{} {:?}{}); raise it to settle {}",
            counted(report.undecided.len(), "puzzle", "puzzles"),
            args.max_nodes,
            if many { "s" } else { "" },
            &report.undecided[..report.undecided.len().min(10)],
            if report.undecided.len() > 10 {
                "…"
            } else {
                ""
            },
            if many { "them" } else { "it" },
        )?;
    }
    let bad = report.problems.len() + report.undecided.len();
    eprintln!(
        "{db}: {} checked, {}, {} undecided",
        counted(report.puzzles as usize, "puzzle", "puzzles"),
        counted(report.problems.len(), "problem", "problems"),
        report.undecided.len()
    );
    Ok(if bad == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}
