//! Command-line front end: one file per subcommand; this file only dispatches.

mod bench;
mod book;
mod check;
mod explain;
mod export;
mod feed;
mod generate;
mod merge;
mod rate;
mod render;
mod solve;
mod stats;
mod verify;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

/// Bulk generator of unique Killer Sudoku puzzles (and plain and jigsaw Sudoku).
#[derive(Parser, Debug)]
#[command(name = "sudoku-press", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Generate unique puzzles into a SQLite database (output/puzzles.db).
    #[command(after_help = generate::AFTER_HELP)]
    Generate(generate::Args),
    /// Solve puzzles (or count their solutions); one answer a line on stdout.
    Solve(solve::Args),
    /// Check a filled or partly filled grid against a puzzle and list every conflict.
    Check(check::Args),
    /// Merge shard databases into one new database (-o).
    Merge(merge::Args),
    /// Export puzzles: CSV, JSON lines, f-puzzles, player links, SudokuWiki, SudoCue, ipuz (stdout
    /// or -o).
    Export(export::Args),
    /// Summarize a database: counts per variant and level, cages, runs.
    Stats(stats::Args),
    /// Re-check every stored puzzle (valid, unique, solution, canonical key) and the run records.
    Verify(verify::Args),
    /// Issue one day's puzzles: its playable page, JSON and PDF, the archive and the feeds (--out).
    Feed(feed::Args),
    /// The step-by-step path (or graded hints) a person could take through each puzzle.
    Explain(explain::Args),
    /// Grade puzzles the way people solve them: level, score, techniques.
    Rate(rate::Args),
    /// Measure solver throughput (puzzles/s, one thread) on the standard puzzle sets.
    Bench(bench::Args),
    /// Write a print-ready PDF book (puzzles, rules, answer keys) from a database (-o).
    Book(book::Args),
    /// Write one file per puzzle into a directory: an SVG picture, or a playable HTML page.
    Render(render::Args),
}

/// Parse arguments and run the chosen subcommand.
/// Commands whose answer can be "no" (`solve`: not unique; `check`: conflicts) return exit code 1.
pub fn run() -> anyhow::Result<ExitCode> {
    let done = |result: anyhow::Result<()>| result.map(|()| ExitCode::SUCCESS);
    match Cli::parse().command {
        Command::Generate(args) => generate::run(args),
        Command::Solve(args) => solve::run(args),
        Command::Check(args) => check::run(args),
        Command::Merge(args) => done(merge::run(args)),
        Command::Export(args) => done(export::run(args)),
        Command::Stats(args) => done(stats::run(args)),
        Command::Verify(args) => verify::run(args),
        Command::Feed(args) => done(feed::run(args)),
        Command::Bench(args) => done(bench::run(args)),
        Command::Book(args) => done(book::run(args)),
        Command::Render(args) => done(render::run(args)),
        Command::Rate(args) => rate::run(args),
        Command::Explain(args) => explain::run(args),
    }
}

/// Is this error (anywhere in its chain) a broken pipe on output? That is a normal end.
/// The puzzles of FILE (`-`: standard input, with a note when that is a terminal) as a reader
/// of `format` (detected when `None`); errors name the file. `solve`, `rate` and `explain` read
/// their input this way.
pub fn read_puzzles(
    file: &str,
    format: Option<sudoku_press::format::Format>,
) -> anyhow::Result<sudoku_press::format::Reader<Box<dyn std::io::BufRead + Send>>> {
    use anyhow::Context;
    use std::io::IsTerminal;
    if file == "-" && std::io::stdin().is_terminal() {
        eprintln!("reading puzzles from standard input (end with Ctrl-D; give a FILE to read one)");
    }
    let input = check::open(file)?;
    sudoku_press::format::Reader::new(input, format).context(input_name(file).to_string())
}

/// How messages name FILE: `<stdin>` for `-`.
pub fn input_name(file: &str) -> &str {
    if file == "-" {
        "<stdin>"
    } else {
        file
    }
}

/// Is this error a closed stdout (a normal end, e.g. `| head`)?
pub fn is_broken_pipe(err: &anyhow::Error) -> bool {
    err.chain().any(|e| {
        e.downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
    })
}
