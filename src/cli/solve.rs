//! `sudoku-press solve`: solve (or count the solutions of) every puzzle of a file, in parallel,
//! answers streamed in input order.
//!
//! Exit code: 0 when every puzzle has exactly one solution (or, with `--count`, when every count
//! is settled); 1 when some puzzle has no solution or several, or its search ran out of nodes
//! (`undecided`; each one is marked in the output); 2 on bad input.

use anyhow::Context;
use std::io::{BufWriter, Write};
use std::process::ExitCode;
use sudoku_press::format::{self, jsonl, plain, Format};
use sudoku_press::pipeline::solve::{reason_of, solve_stream, Answer, Item, SolveStreamError};
use sudoku_press::settings::MAX_THREADS;

/// The default node budget per puzzle: seconds of search, far beyond any published puzzle
/// (krazydad killers take a few hundred nodes), but finite.
pub const DEFAULT_MAX_NODES: u64 = 5_000_000;

/// Flags of `solve`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Input format: seed, plain, jsonl or sudocue [default: detected from the first line].
    #[arg(long = "from", visible_alias = "format", value_name = "F")]
    format: Option<Format>,
    /// Print each puzzle's number of solutions: 0, 1, or 2 for "two or more".
    #[arg(long)]
    count: bool,
    /// Grid side N of seed-format input (which has no size field; by default the size is
    /// inferred from the cells the cages cover, see README).
    #[arg(long, value_name = "N")]
    size: Option<usize>,
    /// Add each puzzle's solving time (microseconds) and search nodes.
    #[arg(long)]
    stats: bool,
    /// Worker threads (0 = one per core), up to 1024.
    #[arg(short = 'j', long, value_name = "N", default_value_t = 0,
          value_parser = clap::value_parser!(u32).range(0..=MAX_THREADS as i64))]
    threads: u32,
    /// Search nodes allowed per puzzle (0 = no limit). A puzzle whose count is not settled
    /// within them is answered `undecided` (exit 1) and the others go on. About 0.5-1 M nodes
    /// a second.
    #[arg(long, value_name = "N", default_value_t = DEFAULT_MAX_NODES)]
    max_nodes: u64,
    /// Puzzle file, `-` for standard input. Line formats hold one puzzle a line.
    #[arg(value_name = "FILE", default_value = "-")]
    file: String,
}

/// Run `solve`.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let name = super::input_name(&args.file);
    let reader = super::read_puzzles(&args.file, args.format)?.with_size(args.size);
    let format = reader.format();
    let mut out = BufWriter::new(std::io::stdout().lock());
    let mut printer = Printer {
        format,
        args: &args,
        written: 0,
        not_unique: 0,
        undecided: 0,
        noted: false,
        extra: jsonl::Extra::new(),
    };
    let max_nodes = match args.max_nodes {
        0 => u64::MAX,
        n => n,
    };
    let solved = solve_stream(
        reader.items(),
        args.threads as usize,
        max_nodes,
        |item, answer| printer.print(&mut out, item, answer),
    );
    out.flush()?;
    match solved {
        // Output failures (a closed pipe among them) are not the input's fault.
        Err(SolveStreamError::Output(err)) => return Err(err.into()),
        other => other.with_context(|| name.to_string())?,
    }
    if printer.undecided > 0 {
        eprintln!(
            "{} of {} {} undecided: {} search passed --max-nodes {}; raise it (0 = no limit) to settle {}",
            printer.undecided,
            super::check::counted(printer.written, "puzzle", "puzzles"),
            if printer.undecided == 1 { "is" } else { "are" },
            if printer.undecided == 1 { "its" } else { "their" },
            args.max_nodes,
            if printer.undecided == 1 { "it" } else { "them" },
        );
    }
    if printer.not_unique > 0 && !args.count {
        eprintln!(
            "{} of {} {} no unique solution",
            printer.not_unique,
            super::check::counted(printer.written, "puzzle", "puzzles"),
            if printer.not_unique == 1 {
                "has"
            } else {
                "have"
            },
        );
    }
    if printer.undecided > 0 || (printer.not_unique > 0 && !args.count) {
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
    undecided: usize,
    /// The guessed-size note was shown (once per input).
    noted: bool,
    /// The keys added to each JSON answer, refilled line after line.
    extra: jsonl::Extra,
}

impl Printer<'_> {
    fn print<W: Write>(
        &mut self,
        out: &mut W,
        item: &Item,
        answer: &Answer,
    ) -> std::io::Result<()> {
        if answer.undecided {
            self.undecided += 1;
        } else if answer.count != 1 {
            self.not_unique += 1;
        }
        match item {
            Item::Unsolvable { line, error, .. } => {
                eprintln!("line {line}: no solution: {}", reason_of(error))
            }
            Item::Entry(e)
                if self.format == Format::CageList
                    && self.args.size.is_none()
                    && e.puzzle.size() != 9
                    && !self.noted =>
            {
                self.noted = true;
                eprintln!(
                    "note: line {}: read as {n}x{n} (the seed format has no size; its cages cover {} cells); give --size N if the grid is larger",
                    e.line,
                    e.puzzle.cages().iter().map(|c| c.len()).sum::<usize>(),
                    n = e.puzzle.size()
                );
            }
            _ => {}
        }
        match self.format {
            Format::Jsonl => self.print_json(out, item, answer)?,
            Format::CageList => self.print_rows(out, answer)?,
            Format::Plain | Format::Sudocue => self.print_line(out, answer)?,
        }
        self.written += 1;
        Ok(())
    }

    /// "no solution" / "several solutions" / "undecided" for a puzzle without a unique one.
    fn verdict(answer: &Answer) -> &'static str {
        match answer.count {
            _ if answer.undecided => "undecided",
            0 => "no solution",
            _ => "several solutions",
        }
    }

    /// The count as printed: 0, 1, 2, or `undecided`.
    fn count_text(answer: &Answer) -> String {
        match answer.undecided {
            true => "undecided".into(),
            false => answer.count.to_string(),
        }
    }

    fn stats_text(&self, answer: &Answer) -> String {
        format!("time_us={} nodes={}", answer.micros, answer.nodes)
    }

    fn print_json<W: Write>(
        &mut self,
        out: &mut W,
        item: &Item,
        answer: &Answer,
    ) -> std::io::Result<()> {
        // The new keys are written as JSON text into a buffer kept from line to line.
        let extra = &mut self.extra;
        extra.clear();
        let solution = answer.solution.as_ref().map(|g| g.values());
        extra.set("solution", &solution)?;
        if answer.undecided {
            extra.set("count", &())?;
            extra.set("undecided", &true)?;
        } else if self.args.count || answer.count != 1 {
            extra.set("count", &answer.count)?;
        }
        if self.args.stats {
            extra.set("time_us", &answer.micros)?;
            extra.set("nodes", &answer.nodes)?;
        }
        match item {
            Item::Entry(entry) => {
                jsonl::write_answer_extra(out, entry.object.as_ref(), &entry.puzzle, extra)
            }
            // The input's keys are kept, then why it has no solution; `line` stands in for them
            // when the input had none to keep.
            Item::Unsolvable {
                line,
                error,
                object,
            } => {
                let mut keys = jsonl::Object::new();
                keys.insert("reason".into(), reason_of(error).into());
                keys.extend(extra.to_map());
                match object {
                    Some(object) => object.write_with(out, &keys),
                    None => {
                        let mut answer = jsonl::Object::new();
                        answer.insert("line".into(), (*line).into());
                        answer.extend(keys);
                        jsonl::write_object(out, &answer)
                    }
                }
            }
        }
    }

    fn print_line<W: Write>(&self, out: &mut W, answer: &Answer) -> std::io::Result<()> {
        let text = match (&answer.solution, self.args.count) {
            (_, true) => Self::count_text(answer),
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
            (_, true) => writeln!(out, "{}", Self::count_text(answer))?,
            (Some(grid), false) => format::write_rows(out, grid)?,
            (None, false) => writeln!(out, "{}", Self::verdict(answer))?,
        }
        if self.args.stats {
            writeln!(out, "{}", self.stats_text(answer))?;
        }
        Ok(())
    }
}
