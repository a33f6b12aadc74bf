//! `sudoku-press rate`: grade every puzzle of a file the way people solve, in parallel, one JSON
//! line per puzzle in input order (the input's own keys kept, then `level`, `score`, `minutes`
//! (the estimated solving time, `[low, high]`), `hardest`, `techniques`, `trial`, `hardest_step`
//! (the step that made the level: its number, technique, rung level and weight, cells),
//! `level_from` (`hardest_step` or `work`), `steps`; `level: null` and a `reason` when there is
//! no unique solution).
//! A puzzle that breaks a rule no solution can keep (a cage sum its cells cannot make, clashing
//! givens) is answered too (`level: null`, `reason: "no solution: ..."`; `line` when the input
//! has no keys of its own) and the batch goes on, as `solve` does.
//!
//! Exit code: 0 when every puzzle was graded; 1 when some puzzle has no unique solution; 2 on bad
//! input.

use anyhow::Context;
use std::io::{BufWriter, Write};
use std::process::ExitCode;
use sudoku_press::format::{jsonl, Format};
use sudoku_press::grader::json::grade_keys;
use sudoku_press::pipeline::rate::{rate_stream, Unsolvable};
use sudoku_press::pipeline::solve::{Item, SolveStreamError};
use sudoku_press::settings::MAX_THREADS;

/// Flags of `rate`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Input format: seed, plain, jsonl or sudocue [default: detected from the first line].
    #[arg(long = "from", visible_alias = "format", value_name = "F")]
    format: Option<Format>,
    /// Worker threads (0 = one per core), up to 1024.
    #[arg(short = 'j', long, value_name = "N", default_value_t = 0,
          value_parser = clap::value_parser!(u32).range(0..=MAX_THREADS as i64))]
    threads: u32,
    /// Puzzle file, `-` for standard input.
    #[arg(value_name = "FILE", default_value = "-")]
    file: String,
}

/// Run `rate`.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let name = super::input_name(&args.file);
    let items = super::read_puzzles(&args.file, args.format)?.items();
    let mut out = BufWriter::new(std::io::stdout().lock());
    let (mut written, mut ungraded) = (0usize, 0usize);
    let rated = rate_stream(items, args.threads as usize, |item, grade| {
        ungraded += usize::from(grade.level.is_none());
        written += 1;
        match item {
            Item::Entry(entry) => {
                let keys = grade_keys(grade, Some(entry.puzzle.geometry()));
                jsonl::write_answer(&mut out, entry.object.as_ref(), &entry.puzzle, keys)
            }
            Item::Unsolvable {
                line,
                error,
                object,
            } => {
                let answer = Unsolvable::new(line, &error, object);
                eprintln!("{}", answer.message());
                let keys = answer.keys();
                match &answer.object {
                    Some(object) => object.write_with(&mut out, &keys),
                    None => {
                        let mut line = jsonl::Object::new();
                        line.insert("line".into(), answer.line.into());
                        line.extend(keys);
                        jsonl::write_object(&mut out, &line)
                    }
                }
            }
        }
    });
    out.flush()?;
    match rated {
        Err(SolveStreamError::Output(err)) => return Err(err.into()),
        other => other.with_context(|| name.to_string())?,
    }
    if ungraded > 0 {
        eprintln!(
            "{ungraded} of {} {} no unique solution and {} not graded",
            super::check::counted(written, "puzzle", "puzzles"),
            if ungraded == 1 { "has" } else { "have" },
            if ungraded == 1 { "was" } else { "were" },
        );
        return Ok(ExitCode::from(1));
    }
    Ok(ExitCode::SUCCESS)
}
