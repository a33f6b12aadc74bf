//! `sudoku-press solve`: solve (or count the solutions of) every puzzle of a file, in parallel,
//! answers streamed in input order.
//!
//! Exit code: 0 when every puzzle has exactly one solution (or always, with `--count`); 1 when
//! some puzzle has no solution or several (each one is marked in the output); 2 on bad input.

use anyhow::Context;
use rayon::prelude::*;
use std::io::{BufWriter, Write};
use std::process::ExitCode;
use std::time::Instant;
use sudoku_press::format::{self, jsonl, plain, Entry, Format, Reader};
use sudoku_press::{solver, Grid, Puzzle};

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

/// Puzzles solved per parallel batch: bounds memory whatever the input's length.
const CHUNK: usize = 1024;

/// The outcome for one puzzle.
struct Answer {
    /// Solutions found, up to 2 ("two or more").
    count: usize,
    /// The solution, when it is unique.
    solution: Option<Grid>,
    /// Solving time in microseconds.
    micros: u128,
    /// Search nodes.
    nodes: u64,
}

fn solve_one(puzzle: &Puzzle) -> Answer {
    let start = Instant::now();
    let report = solver::solve(puzzle, 2);
    let count = report.solutions.len();
    Answer {
        count,
        solution: report.solutions.into_iter().next().filter(|_| count == 1),
        micros: start.elapsed().as_micros(),
        nodes: report.stats.nodes,
    }
}

/// Run `solve`.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let name = if args.file == "-" {
        "<stdin>"
    } else {
        &args.file
    };
    let input = format::open_input(&args.file).with_context(|| format!("cannot open {name}"))?;
    let mut reader = Reader::new(input, args.format).context(name.to_string())?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(args.threads)
        .build()?;
    let mut out = BufWriter::new(std::io::stdout().lock());
    let mut printer = Printer {
        format: reader.format(),
        args: &args,
        written: 0,
        not_unique: 0,
    };
    loop {
        let mut chunk: Vec<Entry> = Vec::with_capacity(CHUNK);
        let mut failure = None;
        for item in reader.by_ref().take(CHUNK) {
            match item {
                Ok(entry) => chunk.push(entry),
                Err(err) => failure = Some(err),
            }
        }
        let answers: Vec<Answer> =
            pool.install(|| chunk.par_iter().map(|e| solve_one(&e.puzzle)).collect());
        for (entry, answer) in chunk.into_iter().zip(&answers) {
            printer.print(&mut out, entry, answer)?;
        }
        if let Some(err) = failure {
            out.flush()?;
            return Err(anyhow::Error::new(err).context(name.to_string()));
        }
        if answers.len() < CHUNK {
            break;
        }
    }
    out.flush()?;
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
    ) -> anyhow::Result<()> {
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
    ) -> anyhow::Result<()> {
        let mut object = entry
            .object
            .unwrap_or_else(|| jsonl::to_object(&entry.puzzle, None));
        let solution = answer.solution.as_ref().map(|g| g.values().to_vec());
        object.insert("solution".into(), serde_json::json!(solution));
        if self.args.count || answer.count != 1 {
            object.insert("count".into(), answer.count.into());
        }
        if self.args.stats {
            object.insert("time_us".into(), serde_json::json!(answer.micros as u64));
            object.insert("nodes".into(), answer.nodes.into());
        }
        jsonl::write_object(out, &object)?;
        Ok(())
    }

    fn print_line<W: Write>(&self, out: &mut W, answer: &Answer) -> anyhow::Result<()> {
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

    fn print_rows<W: Write>(&self, out: &mut W, answer: &Answer) -> anyhow::Result<()> {
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
