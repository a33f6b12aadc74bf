//! `sudoku-press export`: stream a database's puzzles as CSV or JSON lines to a file or stdout.

use anyhow::Context;
use std::io::{BufWriter, Write};
use std::path::PathBuf;
use sudoku_press::atomic_file::AtomicFile;
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
    warn_unfinished(&store)?;
    match args.output.filter(|p| p.as_os_str() != "-") {
        Some(path) => {
            // Written beside the target and renamed when complete: an error leaves no partial
            // file, and the database (by device and inode, so also a hard link) is never the target.
            let mut out = AtomicFile::create(&path, &[args.db.as_path()])?;
            let left = match out.writes_through() {
                true => "the export stopped part way",
                false => "nothing was written",
            };
            export(&store, args.format, &mut out)
                .with_context(|| format!("{}: {left}", path.display()))?;
            out.commit()?;
        }
        None => {
            let mut out = BufWriter::new(std::io::stdout().lock());
            export(&store, args.format, &mut out)?;
            out.flush()?;
        }
    }
    Ok(())
}

/// Say on stderr which runs are unfinished: their export is a prefix of the run.
fn warn_unfinished(store: &Store) -> anyhow::Result<()> {
    for run in store.runs()?.iter().filter(|r| !r.is_complete()) {
        eprintln!(
            "warning: {}: run {} (seed {}) is unfinished: {} of {} work items; run its generate command again (or `generate --resume --db {}`) to complete it",
            store.path().display(),
            run.id,
            run.seed,
            run.next_pos,
            run.shard.positions(run.count),
            store.path().display()
        );
    }
    Ok(())
}
