//! `sudoku-press book`: flags into a [`BookRequest`]; the planning, writing and recording are
//! `sudoku_press::publish`'s.

use anyhow::bail;
use std::io::Write;
use std::path::{Path, PathBuf};
use sudoku_press::atomic_file::AtomicFile;
use sudoku_press::print::book::gutter;
use sudoku_press::publish::{plan_book, write_book_file, BookRequest, Spec};
use sudoku_press::store::Store;

/// Flags of `book`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The database to read.
    #[arg(long, default_value = "output/puzzles.db")]
    db: PathBuf,
    /// Only this variant: killer, classic, jigsaw, killer-jigsaw.
    #[arg(long)]
    variant: Option<String>,
    /// Only this grid size (4 to 16).
    #[arg(long)]
    size: Option<usize>,
    /// One section per level, in the order given (repeat the flag: --level easy --level hard).
    #[arg(long = "level", value_name = "LEVEL")]
    levels: Vec<String>,
    /// Puzzles per level (or in all, without --level) [default: 10].
    #[arg(short = 'n', long)]
    count: Option<usize>,
    /// These puzzle ids, in this order (comma-separated or repeated), as one section.
    #[arg(long, value_delimiter = ',', num_args = 1..)]
    ids: Vec<i64>,
    /// A book spec (TOML: a [book] table and [[section]] tables; see config/book-killer.toml).
    #[arg(long, value_name = "FILE")]
    spec: Option<PathBuf>,
    /// Trim size: 6x9, 7x10, 8x10, 8.5x11, a4, a5 [default: 8.5x11].
    #[arg(long)]
    trim: Option<String>,
    /// Puzzles a page: 1, 2, 4 or 6 [default: 2].
    #[arg(long)]
    per_page: Option<usize>,
    /// Shade cages with four light tones, touching cages never alike.
    #[arg(long)]
    shade: bool,
    /// Add 0.125 in of bleed on the top, bottom and outside edges.
    #[arg(long)]
    bleed: bool,
    /// Answer keys at the end of the book or after each section [default: end].
    #[arg(long, value_parser = ["end", "section"])]
    answers: Option<String>,
    /// The title on the title page.
    #[arg(long)]
    title: Option<String>,
    /// Skip puzzles already issued by the feed or earlier books (the database's issued table).
    #[arg(long)]
    exclude_issued: bool,
    /// Record the book's puzzles as issued under this name (implies --exclude-issued), so no
    /// later book or feed day repeats them; all or nothing, in the same run that writes the PDF.
    #[arg(long, value_name = "NAME")]
    issue: Option<String>,
    /// The PDF to write.
    #[arg(short, long, value_name = "BOOK.pdf")]
    output: PathBuf,
}

/// Run `book`.
pub fn run(args: Args) -> anyhow::Result<()> {
    let spec = match &args.spec {
        Some(path) => Spec::load(path)?,
        None => Spec::default(),
    };
    let request = BookRequest {
        variant: args.variant,
        size: args.size,
        levels: args.levels,
        count: args.count,
        ids: args.ids,
        trim: args.trim,
        per_page: args.per_page,
        shade: args.shade,
        bleed: args.bleed,
        answers: args.answers,
        title: args.title,
        exclude_issued: args.exclude_issued,
        issue: args.issue,
    };
    let out = start_output(&args.output, &args.db)?;
    let mut store = match &request.issue {
        Some(_) if !args.db.is_file() => bail!("{}: no such database", args.db.display()),
        Some(_) => Store::open_or_create(&args.db)?,
        None => Store::open_read_only(&args.db)?,
    };
    let plan = plan_book(&request, &spec, &store)
        .map_err(|e| anyhow::anyhow!("{}: {e}", args.db.display()))?;
    let pages = write_book_file(&plan, &mut store, out, request.issue.as_deref())?;
    let count: usize = plan.sections.iter().map(|c| c.puzzles.len()).sum();
    eprintln!(
        "wrote {}: {count} puzzles, {} pages ({}, {} a page, gutter {} in){}",
        args.output.display(),
        pages,
        plan.settings.trim.name,
        plan.settings.per_page,
        gutter(pages) / 72.0,
        match (&request.issue, plan.reissue) {
            (Some(name), true) => format!("; book {name} made again, nothing new recorded"),
            (Some(name), false) => format!("; recorded as issued by book {name}"),
            _ => String::new(),
        }
    );
    if pages < 24 {
        eprintln!("note: a KDP paperback needs at least 24 pages; this book has {pages}");
    }
    Ok(())
}

/// Start the output file (a temporary file beside it, renamed on commit; dropped on error, so
/// nothing half-written is left) before any work, so a path that cannot be written fails at once.
/// The database is protected: `-o` may not name it, by any spelling.
pub(super) fn start_output(path: &Path, db: &Path) -> anyhow::Result<AtomicFile> {
    let dir = path
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    if !dir.is_dir() {
        bail!(
            "{}: the directory {} does not exist; create it or choose another path",
            path.display(),
            dir.display()
        );
    }
    Ok(AtomicFile::create(path, &[db])?)
}

/// Write `bytes` into `out` and rename it into place.
pub(super) fn finish_output(mut out: AtomicFile, bytes: &[u8]) -> anyhow::Result<()> {
    out.write_all(bytes).map_err(|e| out.write_error(e))?;
    Ok(out.commit()?)
}
