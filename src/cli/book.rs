//! `sudoku-press book`: select puzzles from a database and write a print-ready PDF book.

use anyhow::{bail, Context};
use serde::Deserialize;
use std::collections::HashSet;
use std::io::Write;
use std::path::{Path, PathBuf};
use sudoku_press::atomic_file::AtomicFile;
use sudoku_press::print::book::{capitalised, gutter, Answers, BookSettings, Entry, Section, Trim};
use sudoku_press::render::write_book;
use sudoku_press::settings::TomlError;
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
                let error = TomlError::new(&text, &e);
                let line = error
                    .line()
                    .map(|l| format!(" line {l}:"))
                    .unwrap_or_default();
                anyhow::anyhow!("{}:{line} bad book spec: {}", path.display(), error.message)
            })?
        }
        None => Spec::default(),
    };
    if !spec.section.is_empty() && (!args.levels.is_empty() || !args.ids.is_empty()) {
        bail!("give the sections either in the spec file or with --level/--ids, not both");
    }
    let settings = settings(&args, &spec.book)?;
    let out = start_output(&args.output, &args.db)?;
    let mut store = match &args.issue {
        Some(_) if !args.db.is_file() => bail!("{}: no such database", args.db.display()),
        Some(_) => Store::open_or_create(&args.db)?,
        None => Store::open_read_only(&args.db)?,
    };
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
    let mut bytes = Vec::new();
    let pages = write_book(&mut bytes, &settings, &sections)?;
    if let Some(channel) = &args.issue {
        // The PDF is written and synced first, the rows recorded next, then the PDF renamed
        // into place; a refusal or failure at any step leaves neither.
        let entries: Vec<(String, i64, i64)> = chosen
            .iter()
            .flat_map(|(title, puzzles)| puzzles.iter().map(move |p| (title.clone(), p.id)))
            .zip(1..)
            .map(|((title, id), n)| (title, id, n))
            .collect();
        let ids: Vec<i64> = entries.iter().map(|e| e.1).collect();
        let mut out = out;
        out.write_all(&bytes).map_err(|e| out.write_error(e))?;
        out.commit_recorded(
            &mut store,
            |store| match store.issue_book(channel, &entries)? {
                Ok(()) => Ok(()),
                Err(refused) => bail!(
                    "--issue {channel}: puzzle {} was issued before (by the feed or a book, or one equal to it); nothing was recorded or written",
                    refused.iter().map(|i| i.to_string()).collect::<Vec<_>>().join(", ")
                ),
            },
            |store| Ok(store.withdraw_book(channel, &ids)?),
        )?;
    } else {
        finish_output(out, &bytes)?;
    }
    eprintln!(
        "wrote {}: {number} puzzles, {} pages ({}, {} a page, gutter {} in)",
        args.output.display(),
        pages,
        settings.trim.name,
        settings.per_page,
        gutter(pages) / 72.0
    );
    if pages < 24 {
        eprintln!("note: a KDP paperback needs at least 24 pages; this book has {pages}");
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
            let short = if got.len() as u64 != total {
                format!(" ({} left after earlier sections)", got.len())
            } else {
                String::new()
            };
            bail!(
                "section {title:?} asks for {} {what} puzzles, {} has {total}{issued}{short}; generate more or lower the count",
                q.count,
                args.db.display(),
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
        levels: level.into_iter().collect(),
        count,
        exclude_issued: args.exclude_issued || args.issue.is_some(),
        ..Query::default()
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
    parts.extend(q.levels.iter().cloned());
    if parts.is_empty() {
        "matching".into()
    } else {
        parts.join(" ")
    }
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
