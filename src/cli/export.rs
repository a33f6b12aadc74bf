//! `sudoku-press export`: stream a database's puzzles (all, or a selection) as CSV, JSON lines or
//! one line a puzzle for players' tools, to a file or stdout. Also the selection flags `render`
//! shares.

use anyhow::Context;
use std::io::{BufWriter, Write};
use std::path::PathBuf;
use sudoku_press::atomic_file::AtomicFile;
use sudoku_press::export::{export, ExportFormat};
use sudoku_press::store::{Query, Store};

/// Which puzzles: the flags `export` and `render` share, turned into one store [`Query`].
#[derive(clap::Args, Debug, Default)]
pub struct Selection {
    /// Only this variant: killer, classic, jigsaw, killer-jigsaw.
    #[arg(long, value_name = "VARIANT")]
    variant: Option<String>,
    /// Only this grid size (side 4 to 16).
    #[arg(long, value_name = "N")]
    size: Option<usize>,
    /// Only these levels: easy, medium, hard, expert, extreme, unrated (repeat the flag for several).
    #[arg(long = "level", value_name = "LEVEL")]
    levels: Vec<String>,
    /// Only these puzzle ids, in this order (comma list: --ids 3,17,42).
    #[arg(long, value_delimiter = ',', value_name = "ID,...")]
    ids: Vec<i64>,
    /// At most this many puzzles (1 to 1000000000).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..=1_000_000_000))]
    limit: Option<u64>,
}

impl Selection {
    /// The store query, with `more_ids` (positional ids) after those of `--ids`.
    pub fn to_query(&self, more_ids: &[i64]) -> Query {
        Query {
            variant: self.variant.clone(),
            size: self.size,
            levels: self.levels.clone(),
            ids: self.ids.iter().chain(more_ids).copied().collect(),
            count: self.limit.map_or(usize::MAX, |n| n as usize),
            exclude_issued: false,
        }
    }

    /// Was any filter or limit given?
    pub fn is_empty(&self) -> bool {
        self.variant.is_none()
            && self.size.is_none()
            && self.levels.is_empty()
            && self.ids.is_empty()
            && self.limit.is_none()
    }
}

/// Flags of `export`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The database to read.
    #[arg(long, default_value = "output/puzzles.db")]
    db: PathBuf,
    /// csv (one row a puzzle) or jsonl (the puzzle JSON of the data sets); one line a puzzle:
    /// fpuzzles (f-puzzles JSON), sudokupad or fpuzzles-url (links that open the puzzle),
    /// sudokuwiki (killer string), sudocue (`3x3::k:` code), ipuz.
    #[arg(long, visible_alias = "to", value_parser = parse_format)]
    format: ExportFormat,
    /// Output file; `-` or absent: stdout.
    #[arg(short, long, value_name = "FILE")]
    output: Option<PathBuf>,
    /// Which puzzles (all, in id order, without these flags).
    #[command(flatten)]
    selection: Selection,
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
    let query = args.selection.to_query(&[]);
    // Refused before an output is started: a misspelt filter or an unknown id leaves nothing
    // behind, not even a CSV header on stdout.
    store.check_query(&query)?;
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
            let written = export(&store, &query, args.format, &mut out)
                .with_context(|| format!("{}: {left}", path.display()))?;
            out.commit()?;
            note_empty(&store, &query, written)?;
        }
        None => {
            let mut out = BufWriter::new(std::io::stdout().lock());
            let written = export(&store, &query, args.format, &mut out)?;
            out.flush()?;
            note_empty(&store, &query, written)?;
        }
    }
    Ok(())
}

/// A selection of known values that matched nothing is no error, but say so, with what the
/// database holds.
pub fn note_empty(store: &Store, query: &Query, written: u64) -> anyhow::Result<()> {
    if written > 0 {
        return Ok(());
    }
    let holds: Vec<String> = store
        .summary()?
        .by_level
        .iter()
        .map(|v| {
            let level = v.level.as_deref().unwrap_or("?");
            format!("{} {}x{} {level}: {}", v.variant, v.size, v.size, v.puzzles)
        })
        .collect();
    let holds = match holds.is_empty() {
        true => "no puzzles".to_string(),
        false => holds.join(", "),
    };
    eprintln!(
        "note: no puzzle in {} matches {}; it holds {holds}",
        store.path().display(),
        query.describe()
    );
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
