//! `sudoku-press export`: stream a database's puzzles as CSV or JSON lines to a file or stdout.

use anyhow::{bail, Context};
use std::io::{BufWriter, Write};
use std::path::PathBuf;
use sudoku_press::export::{export, ExportFormat};
use sudoku_press::store::Store;

/// Flags of `export`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The database to read.
    #[arg(long, default_value = "output/puzzles.db")]
    db: PathBuf,
    /// csv (one row a puzzle) or jsonl (the puzzle JSON of the data sets); one line a puzzle:
    /// fpuzzles (f-puzzles JSON), sudokupad or fpuzzles-url (links that open the puzzle),
    /// sudokuwiki (killer string), sudocue (`3x3::k:` code), ipuz.
    #[arg(long, value_parser = parse_format)]
    format: ExportFormat,
    /// Output file; `-` or absent: stdout.
    #[arg(short, long, value_name = "FILE")]
    output: Option<PathBuf>,
}

fn parse_format(name: &str) -> Result<ExportFormat, String> {
    match name {
        "csv" => Ok(ExportFormat::Csv),
        "jsonl" => Ok(ExportFormat::Jsonl),
        "fpuzzles" => Ok(ExportFormat::Fpuzzles),
        "sudokupad" => Ok(ExportFormat::Sudokupad),
        "fpuzzles-url" => Ok(ExportFormat::FpuzzlesUrl),
        "sudokuwiki" => Ok(ExportFormat::Sudokuwiki),
        "sudocue" => Ok(ExportFormat::Sudocue),
        "ipuz" => Ok(ExportFormat::Ipuz),
        _ => Err(format!(
            "{name:?}: use csv, jsonl, fpuzzles, sudokupad, fpuzzles-url, sudokuwiki, sudocue or ipuz"
        )),
    }
}

/// Run `export`.
pub fn run(args: Args) -> anyhow::Result<()> {
    let store = Store::open_read_only(&args.db)?;
    match args.output.filter(|p| p.as_os_str() != "-") {
        Some(path) => {
            let same = |a: &PathBuf, b: &PathBuf| {
                a.canonicalize()
                    .ok()
                    .is_some_and(|a| b.canonicalize().ok() == Some(a))
            };
            if same(&path, &args.db) {
                bail!(
                    "{}: -o names the database itself; choose another file",
                    path.display()
                );
            }
            let file = std::fs::File::create(&path)
                .with_context(|| format!("{}: cannot create the export file", path.display()))?;
            let mut out = BufWriter::new(file);
            export(&store, args.format, &mut out)?;
            out.flush()
                .with_context(|| format!("{}: cannot write the export file", path.display()))?;
        }
        None => {
            let mut out = BufWriter::new(std::io::stdout().lock());
            export(&store, args.format, &mut out)?;
            out.flush()?;
        }
    }
    Ok(())
}
