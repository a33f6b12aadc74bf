//! `sudoku-press solve`: solve (or count the solutions of) every puzzle of a file, in parallel,
//! answers streamed in input order.
//!
//! Exit code: 0 when every puzzle has exactly one solution (or always, with `--count`); 1 when
//! some puzzle has no solution or several (each one is marked in the output); 2 on bad input.

use anyhow::Context;
use std::io::{BufWriter, Write};
use std::process::ExitCode;
use sudoku_press::format::{self, jsonl, plain, Entry, Format, Reader};
use sudoku_press::pipeline::solve::{solve_stream, Answer, SolveStreamError};

/// Flags of `solve`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Input format: seed, plain, jsonl or sudocue [default: detected from the first line].
    #[arg(long, value_name = "F")]
    format: Option<Format>,
    /// Print each puzzle's number of solutions: 0, 1, or 2 for "two or more".
    #[arg(long)]
    count: bool,
    /// Add each puzzle's solving time (microseconds) and search nodes.
    #[arg(long)]
    stats: bool,
    /// Worker threads (0 = one per core).
    #[arg(long, value_name = "N", default_value_t = 0)]
    threads: usize,
    /// Puzzle file, `-` for standard input. Line formats hold one puzzle a line.
    #[arg(value_name = "FILE", default_value = "-")]
    file: String,
}

/// Run `solve`.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let name = if args.file == "-" {
        "<stdin>"
    } else {
        &args.file
    };
    let input = format::open_input(&args.file).with_context(|| format!("cannot open {name}"))?;
    let reader = Reader::new(input, args.format).context(name.to_string())?;
    let mut out = BufWriter::new(std::io::stdout().lock());
    let mut printer = Printer {
        format: reader.format(),
        args: &args,
        written: 0,
        not_unique: 0,
    };
    let solved = solve_stream(reader, args.threads, |entry, answer| {
        printer.print(&mut out, entry, answer)
    });
    out.flush()?;
    match solved {
        // Output failures (a closed pipe among them) are not the input's fault.
        Err(SolveStreamError::Output(err)) => return Err(err.into()),
        other => other.with_context(|| name.to_string())?,
    }
    if printer.not_unique > 0 && !args.count {
        eprintln!(
            "{} of {} puzzles have no unique solution",
            printer.not_unique, printer.written
        );
        return Ok(ExitCode::from(1));
    }
    Ok(ExitCode::SUCCESS)
}

/// Writes answers in the input's format.
struct Printer<'a> {
    format: Format,
    args: &'a Args,
    written: usize,
    not_unique: usize,
}

impl Printer<'_> {
    fn print<W: Write>(
        &mut self,
        out: &mut W,
        entry: Entry,
        answer: &Answer,
    ) -> std::io::Result<()> {
        self.not_unique += usize::from(answer.count != 1);
        match self.format {
            Format::Jsonl => self.print_json(out, entry, answer)?,
            Format::Seed => self.print_rows(out, answer)?,
            Format::Plain | Format::Sudocue => self.print_line(out, answer)?,
        }
        self.written += 1;
        Ok(())
    }

    /// "no solution" / "several solutions" for a puzzle without a unique one.
    fn verdict(answer: &Answer) -> &'static str {
        match answer.count {
            0 => "no solution",
            _ => "several solutions",
        }
    }

    fn stats_text(&self, answer: &Answer) -> String {
        format!("time_us={} nodes={}", answer.micros, answer.nodes)
    }

    fn print_json<W: Write>(
        &self,
        out: &mut W,
        entry: Entry,
        answer: &Answer,
    ) -> std::io::Result<()> {
        let mut object = entry
            .object
            .unwrap_or_else(|| jsonl::to_object(&entry.puzzle, None));
        let solution = answer.solution.as_ref().map(|g| g.values().to_vec());
        object.insert("solution".into(), serde_json::json!(solution));
        if self.args.count || answer.count != 1 {
            object.insert("count".into(), answer.count.into());
        }
        if self.args.stats {
            object.insert("time_us".into(), answer.micros.into());
            object.insert("nodes".into(), answer.nodes.into());
        }
        jsonl::write_object(out, &object)?;
        Ok(())
    }

    fn print_line<W: Write>(&self, out: &mut W, answer: &Answer) -> std::io::Result<()> {
        let text = match (&answer.solution, self.args.count) {
            (_, true) => answer.count.to_string(),
            (Some(grid), false) => plain::to_plain(grid),
            (None, false) => Self::verdict(answer).to_string(),
        };
        match self.args.stats {
            true => writeln!(out, "{text} {}", self.stats_text(answer))?,
            false => writeln!(out, "{text}")?,
        }
        Ok(())
    }

    fn print_rows<W: Write>(&self, out: &mut W, answer: &Answer) -> std::io::Result<()> {
        if self.written > 0 {
            writeln!(out)?;
        }
        match (&answer.solution, self.args.count) {
            (_, true) => writeln!(out, "{}", answer.count)?,
            (Some(grid), false) => format::write_rows(out, grid)?,
            (None, false) => writeln!(out, "{}", Self::verdict(answer))?,
        }
        if self.args.stats {
            writeln!(out, "{}", self.stats_text(answer))?;
        }
        Ok(())
    }
}
