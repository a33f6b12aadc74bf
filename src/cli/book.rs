//! `sudoku-press book`: select puzzles from a database and write a print-ready PDF book.

use anyhow::{bail, Context};
use serde::Deserialize;
use std::collections::HashSet;
use std::io::Write;
use std::path::{Path, PathBuf};
use sudoku_press::layout::book::{
    capitalised, gutter, layout_book, Answers, BookSettings, Entry, Section, Trim,
};
use sudoku_press::render::write_pdf;
use sudoku_press::store::{Query, Store, StoredPuzzle};

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
    /// Puzzles per level (or in all, without --level); default 10.
    #[arg(long)]
    count: Option<usize>,
    /// These puzzle ids, in this order (comma-separated or repeated), as one section.
    #[arg(long, value_delimiter = ',', num_args = 1..)]
    ids: Vec<i64>,
    /// A book spec (TOML: a [book] table and [[section]] tables; see config/book-killer.toml).
    #[arg(long, value_name = "FILE")]
    spec: Option<PathBuf>,
    /// Trim size: 6x9, 7x10, 8x10, 8.5x11, a4, a5 (default 8.5x11).
    #[arg(long)]
    trim: Option<String>,
    /// Puzzles a page: 1, 2, 4 or 6 (default 2).
    #[arg(long)]
    per_page: Option<usize>,
    /// Shade cages with four light tones, touching cages never alike.
    #[arg(long)]
    shade: bool,
    /// Add 0.125 in of bleed on the top, bottom and outside edges.
    #[arg(long)]
    bleed: bool,
    /// Answer keys at the end of the book or after each section (default end).
    #[arg(long, value_parser = ["end", "section"])]
    answers: Option<String>,
    /// The title on the title page.
    #[arg(long)]
    title: Option<String>,
    /// Skip puzzles already issued by the feed or earlier books (the database's issues table).
    #[arg(long)]
    exclude_issued: bool,
    /// The PDF to write.
    #[arg(short, long, value_name = "BOOK.pdf")]
    output: PathBuf,
}

/// A book spec file.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct Spec {
    #[serde(default)]
    book: SpecBook,
    #[serde(default)]
    section: Vec<SpecSection>,
}

/// The `[book]` table: defaults for the whole book, overridden by flags.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct SpecBook {
    title: Option<String>,
    trim: Option<String>,
    per_page: Option<usize>,
    answers: Option<String>,
    shade: Option<bool>,
    bleed: Option<bool>,
    variant: Option<String>,
    size: Option<usize>,
}

/// One `[[section]]`: a title and which puzzles.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct SpecSection {
    title: Option<String>,
    level: Option<String>,
    count: usize,
    variant: Option<String>,
    size: Option<usize>,
}

/// Run `book`.
pub fn run(args: Args) -> anyhow::Result<()> {
    let spec = match &args.spec {
        Some(path) => {
            let text = std::fs::read_to_string(path)
                .with_context(|| format!("{}: cannot read the book spec", path.display()))?;
            toml::from_str::<Spec>(&text).map_err(|e| {
                anyhow::anyhow!("{}: bad book spec: {}", path.display(), e.message())
            })?
        }
        None => Spec::default(),
    };
    if !spec.section.is_empty() && (!args.levels.is_empty() || !args.ids.is_empty()) {
        bail!("give the sections either in the spec file or with --level/--ids, not both");
    }
    let settings = settings(&args, &spec.book)?;
    check_output(&args.output, &args.db)?;
    let store = Store::open_read_only(&args.db)?;
    let chosen = choose(&args, &spec, &store)?;
    let mut number = 0;
    let sections: Vec<Section> = chosen
        .iter()
        .map(|(title, puzzles)| Section {
            title: title.clone(),
            entries: puzzles
                .iter()
                .map(|p| {
                    number += 1;
                    Entry {
                        number,
                        level: p.level.clone(),
                        puzzle: &p.puzzle,
                        solution: &p.solution,
                    }
                })
                .collect(),
        })
        .collect();
    let pages = layout_book(&settings, &sections)?;
    let bytes = write_pdf(&pages, &settings.title)?;
    write_atomic(&args.output, &bytes)?;
    eprintln!(
        "wrote {}: {number} puzzles, {} pages ({}, {} a page, gutter {} in)",
        args.output.display(),
        pages.len(),
        settings.trim.name,
        settings.per_page,
        gutter(pages.len()) / 72.0
    );
    if pages.len() < 24 {
        eprintln!(
            "note: a KDP paperback needs at least 24 pages; this book has {}",
            pages.len()
        );
    }
    Ok(())
}

/// Flags over the spec's `[book]` table over the defaults.
fn settings(args: &Args, book: &SpecBook) -> anyhow::Result<BookSettings> {
    let trim = Trim::parse(
        args.trim
            .as_deref()
            .or(book.trim.as_deref())
            .unwrap_or("8.5x11"),
    )?;
    let answers = match args
        .answers
        .as_deref()
        .or(book.answers.as_deref())
        .unwrap_or("end")
    {
        "end" => Answers::End,
        "section" => Answers::Section,
        other => bail!("answers = {other:?} in the spec: use \"end\" or \"section\""),
    };
    let variant = args.variant.as_deref().or(book.variant.as_deref());
    let default_title = match variant {
        Some("classic") => "Sudoku".to_string(),
        Some(v) => format!("{} Sudoku", capitalised(v)),
        None => "Killer Sudoku".to_string(),
    };
    Ok(BookSettings {
        title: args
            .title
            .clone()
            .or(book.title.clone())
            .unwrap_or(default_title),
        trim,
        per_page: args.per_page.or(book.per_page).unwrap_or(2),
        bleed: args.bleed || book.bleed.unwrap_or(false),
        shade: args.shade || book.shade.unwrap_or(false),
        answers,
    })
}

/// The sections' titles and puzzles: from `--ids`, the spec's sections, `--level`s, or any level.
fn choose(
    args: &Args,
    spec: &Spec,
    store: &Store,
) -> anyhow::Result<Vec<(String, Vec<StoredPuzzle>)>> {
    if !args.ids.is_empty() {
        let mut seen = HashSet::new();
        if let Some(id) = args.ids.iter().find(|&&id| !seen.insert(id)) {
            bail!("--ids: puzzle {id} is named twice; a book never prints the same puzzle twice");
        }
        return match store.select_ids(&args.ids)? {
            Ok(found) => Ok(vec![("Puzzles".to_string(), found)]),
            Err(missing) => bail!(
                "--ids: no puzzle with id {} in {}; `sudoku-press export --db {} --format csv` lists the ids",
                missing.iter().map(|i| i.to_string()).collect::<Vec<_>>().join(", "),
                args.db.display(),
                args.db.display()
            ),
        };
    }
    let variant = args.variant.clone().or(spec.book.variant.clone());
    let size = args.size.or(spec.book.size);
    let count = args.count.unwrap_or(10);
    let wanted: Vec<(String, Query)> = if !spec.section.is_empty() {
        spec.section
            .iter()
            .map(|s| {
                let title = s
                    .title
                    .clone()
                    .or(s.level.as_deref().map(capitalised))
                    .unwrap_or("Puzzles".into());
                (
                    title,
                    query(
                        s.variant.clone().or(variant.clone()),
                        s.size.or(size),
                        s.level.clone(),
                        s.count,
                        args,
                    ),
                )
            })
            .collect()
    } else if args.levels.is_empty() {
        vec![(
            "Puzzles".to_string(),
            query(variant, size, None, count, args),
        )]
    } else {
        args.levels
            .iter()
            .map(|l| {
                (
                    capitalised(l),
                    query(variant.clone(), size, Some(l.clone()), count, args),
                )
            })
            .collect()
    };
    let mut taken = HashSet::new();
    let mut out = Vec::new();
    for (title, q) in wanted {
        let got = store.select(&q, &taken)?;
        if got.len() < q.count {
            let what = describe(&q);
            let total = store.count_matching(&q)?;
            let issued = if q.exclude_issued { " unissued" } else { "" };
            bail!(
                "section {title:?}: {} asks for {} {what} puzzles, {} has {total}{issued}{}; generate more or lower the count",
                if q.level.is_some() { "level" } else { "it" },
                q.count,
                args.db.display(),
                if got.len() as u64 != total { format!(" ({} left after earlier sections)", got.len()) } else { String::new() },
            );
        }
        taken.extend(got.iter().map(|p| p.id));
        out.push((title, got));
    }
    Ok(out)
}

fn query(
    variant: Option<String>,
    size: Option<usize>,
    level: Option<String>,
    count: usize,
    args: &Args,
) -> Query {
    Query {
        variant,
        size,
        level,
        count,
        exclude_issued: args.exclude_issued,
    }
}

/// `killer 9x9 hard`, from the filters that are set.
fn describe(q: &Query) -> String {
    let mut parts = Vec::new();
    if let Some(v) = &q.variant {
        parts.push(v.clone());
    }
    if let Some(n) = q.size {
        parts.push(format!("{n}x{n}"));
    }
    if let Some(l) = &q.level {
        parts.push(l.clone());
    }
    if parts.is_empty() {
        "matching".into()
    } else {
        parts.join(" ")
    }
}

/// Fail early, before any work, when the output cannot be written where asked.
pub(super) fn check_output(path: &Path, db: &Path) -> anyhow::Result<()> {
    if path.is_dir() {
        bail!(
            "{}: is a directory; give a file path, e.g. {}/book.pdf",
            path.display(),
            path.display()
        );
    }
    let same = path
        .canonicalize()
        .ok()
        .is_some_and(|a| db.canonicalize().ok() == Some(a));
    if same {
        bail!(
            "{}: -o names the database itself; choose another file",
            path.display()
        );
    }
    let dir = parent(path);
    if !dir.is_dir() {
        bail!(
            "{}: the directory {} does not exist; create it or choose another path",
            path.display(),
            dir.display()
        );
    }
    Ok(())
}

fn parent(path: &Path) -> &Path {
    path.parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."))
}

/// Write `bytes` to `path` whole or not at all: a temporary file in the same directory, synced,
/// then renamed over `path`.
pub(super) fn write_atomic(path: &Path, bytes: &[u8]) -> anyhow::Result<()> {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let tmp = parent(path).join(format!(".{name}.{}.tmp", std::process::id()));
    let result = (|| -> std::io::Result<()> {
        let mut file = std::fs::File::create(&tmp)?;
        file.write_all(bytes)?;
        file.sync_all()?;
        std::fs::rename(&tmp, path)
    })();
    if let Err(e) = result {
        let _ = std::fs::remove_file(&tmp);
        return Err(e).with_context(|| format!("{}: cannot write the output file", path.display()));
    }
    Ok(())
}
