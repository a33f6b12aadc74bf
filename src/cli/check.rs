//! `sudoku-press check PUZZLE GRID`: list every conflict of a filled or partly filled grid.
//!
//! Exit code: 0 when the grid breaks no rule, 1 when it has conflicts (one per line on stdout),
//! 2 on bad input.

use anyhow::Context;
use std::io::Write;
use std::process::ExitCode;
use sudoku_press::check::find_conflicts;
use sudoku_press::format::{self, Format, FormatError, Reader};

/// Flags of `check`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Format of the puzzle file: seed, plain, jsonl or sudocue [default: detected].
    #[arg(long = "from", visible_alias = "format", value_name = "F")]
    format: Option<Format>,
    /// Grid side N of a seed-format puzzle (the format has no size field).
    #[arg(long, value_name = "N")]
    size: Option<usize>,
    /// File holding exactly one puzzle.
    #[arg(value_name = "PUZZLE")]
    puzzle: String,
    /// The grid: N rows of N digits (space-separated or not), or one line of N² characters;
    /// `.` or `0` marks an empty cell. `-` reads standard input.
    #[arg(value_name = "GRID")]
    grid: String,
}

/// Open a puzzle or grid file (`-`: standard input) with a message that says what is wrong.
pub fn open(path: &str) -> anyhow::Result<Box<dyn std::io::BufRead + Send>> {
    if path != "-" && std::path::Path::new(path).is_dir() {
        anyhow::bail!("{path}: is a directory; give a puzzle file");
    }
    let name = if path == "-" { "<stdin>" } else { path };
    format::open_input(path).with_context(|| format!("cannot open {name}"))
}

/// `n` and its noun, singular for exactly one: `counted(1, "puzzle", "puzzles")` is
/// "1 puzzle", `counted(0, ...)` "0 puzzles". Messages count with it.
pub fn counted(n: usize, one: &str, many: &str) -> String {
    match n {
        1 => format!("1 {one}"),
        n => format!("{n} {many}"),
    }
}

/// Run `check`.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    if args.puzzle == "-" && args.grid == "-" {
        anyhow::bail!(
            "PUZZLE and GRID cannot both be `-` (standard input): put one of them in a file"
        );
    }
    let mut reader = Reader::new(open(&args.puzzle)?, args.format)
        .context(args.puzzle.clone())?
        .with_size(args.size);
    let entry = reader
        .next()
        .unwrap_or(Err(FormatError::Empty))
        .context(args.puzzle.clone())?;
    match reader.next() {
        None => {}
        // Not a second puzzle but something unreadable after the first: say what and where.
        Some(Err(err)) => {
            return Err(err).context(format!(
                "{}: after its puzzle (`check` takes a file with exactly one)",
                args.puzzle
            ))
        }
        Some(Ok(_)) => anyhow::bail!(
            "{}: holds more than one puzzle; `check` takes a file with exactly one",
            args.puzzle
        ),
    }
    let grid =
        format::read_grid(open(&args.grid)?, entry.puzzle.size()).context(args.grid.clone())?;
    let conflicts = find_conflicts(&entry.puzzle, &grid)?;
    let mut out = std::io::stdout().lock();
    for conflict in &conflicts {
        writeln!(out, "{conflict}")?;
    }
    if conflicts.is_empty() {
        let empty = grid.values().iter().filter(|&&v| v == 0).count();
        match empty {
            0 => writeln!(out, "no conflicts: the grid is solved")?,
            _ => writeln!(
                out,
                "no conflicts ({} still empty)",
                counted(empty, "cell", "cells")
            )?,
        }
        return Ok(ExitCode::SUCCESS);
    }
    out.flush()?;
    eprintln!("{}", counted(conflicts.len(), "conflict", "conflicts"));
    Ok(ExitCode::from(1))
}
