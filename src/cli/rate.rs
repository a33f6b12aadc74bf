//! `sudoku-press rate`: grade every puzzle of a file the way people solve, in parallel, one JSON
//! line per puzzle in input order (the input's own keys kept, then `level`, `score`, `hardest`,
//! `techniques`, `trial`, `steps`; `level: null` and a `reason` when there is no unique solution).
//!
//! Exit code: 0 when every puzzle was graded; 1 when some puzzle has no unique solution; 2 on bad
//! input.

use anyhow::Context;
use std::io::{BufWriter, Write};
use std::process::ExitCode;
use sudoku_press::format::{jsonl, Format};
use sudoku_press::grader::json::grade_keys;
use sudoku_press::pipeline::rate::rate_stream;
use sudoku_press::pipeline::solve::SolveStreamError;
use sudoku_press::settings::MAX_THREADS;

/// Flags of `rate`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Input format: seed, plain, jsonl or sudocue [default: detected from the first line].
    #[arg(long, value_name = "F")]
    format: Option<Format>,
    /// Worker threads (0 = one per core), up to 1024.
    #[arg(long, value_name = "N", default_value_t = 0,
          value_parser = clap::value_parser!(u32).range(0..=MAX_THREADS as i64))]
    threads: u32,
    /// Puzzle file, `-` for standard input.
    #[arg(value_name = "FILE", default_value = "-")]
    file: String,
}

/// Run `rate`.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let name = super::input_name(&args.file);
    let reader = super::read_puzzles(&args.file, args.format)?;
    let mut out = BufWriter::new(std::io::stdout().lock());
    let (mut written, mut ungraded) = (0usize, 0usize);
    let rated = rate_stream(reader, args.threads as usize, |entry, grade| {
        ungraded += usize::from(grade.level.is_none());
        written += 1;
        jsonl::write_answer(
            &mut out,
            entry.object.as_ref(),
            &entry.puzzle,
            grade_keys(grade),
        )
    });
    out.flush()?;
    match rated {
        Err(SolveStreamError::Output(err)) => return Err(err.into()),
        other => other.with_context(|| name.to_string())?,
    }
    if ungraded > 0 {
        eprintln!("{ungraded} of {written} puzzles have no unique solution and were not graded");
        return Ok(ExitCode::from(1));
    }
    Ok(ExitCode::SUCCESS)
}
