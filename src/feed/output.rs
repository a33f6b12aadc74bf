//! The feed's files: `<date>.json` (for apps), `<date>.html` (the day page: the puzzles drawn as
//! SVG, their links and solutions, the previous and next days), `<date>.pdf` (the day printable,
//! with answers), the archive `index.html` (every issued day) and the feed of the recent days,
//! `feed.json` (JSON Feed 1.1) and `rss.xml` (RSS 2.0); pages come from `pages`' templates.
//! Each file is written to a temporary name in the same directory and renamed into place, so a
//! reader sees the old file or the new one, never half of one. Nothing in them depends on the clock.

use super::date::Date;
use super::pages::{self, DayView, PuzzleView};
use super::{DayPuzzle, FeedConfig, FeedError};
use crate::atomic_file::{check_dir_writable, replace_file};
use crate::format::fpuzzles;
use crate::format::jsonl::to_object;
use crate::print::book::{Answers, BookSettings, Entry as BookEntry, Section, Trim};
use crate::print::puzzle_picture;
use crate::render::{to_svg, write_book};
use serde_json::{json, Value};
use std::path::{Path, PathBuf};

pub(super) const WEEKDAY_NAMES: [&str; 7] = [
    "Monday",
    "Tuesday",
    "Wednesday",
    "Thursday",
    "Friday",
    "Saturday",
    "Sunday",
];

fn write_error(path: &Path) -> impl FnOnce(std::io::Error) -> FeedError + '_ {
    move |cause| FeedError::Write {
        path: path.to_path_buf(),
        cause,
    }
}

/// Create the output directory and check that it takes files (before anything is issued), with
/// a probe that never follows a symlink planted in the directory.
pub fn prepare_dir(dir: &Path) -> Result<(), FeedError> {
    std::fs::create_dir_all(dir).map_err(write_error(dir))?;
    check_dir_writable(dir).map_err(write_error(dir))
}

/// Write `bytes` to `path` through the one atomic writer; `protected` (the database) is never
/// overwritten.
pub(super) fn write_file(
    path: &Path,
    bytes: &[u8],
    protected: &[&Path],
) -> Result<PathBuf, FeedError> {
    Ok(replace_file(path, bytes, protected)?)
}

/// The id of a day's puzzle, stable for all time: `<date>-<slot>-<position>`.
fn puzzle_id(p: &DayPuzzle, date: Date) -> String {
    format!("{date}-{}-{}", p.issued.slot, p.issued.position)
}

/// The f-puzzles JSON of a day's puzzle, titled with the feed, number and level.
fn fpuzzles_json(config: &FeedConfig, p: &DayPuzzle) -> String {
    let title = format!("{} #{} ({})", config.title, p.issued.number, p.stored.level);
    // Only f-puzzles' sizes reach the feed's links; others get none.
    fpuzzles::to_json(&p.stored.puzzle, Some(&p.stored.solution), &title).unwrap_or_default()
}

/// The SudokuPad and f-puzzles links of a day's puzzle (none for sizes f-puzzles lacks).
fn link_pair(config: &FeedConfig, p: &DayPuzzle) -> Option<(String, String)> {
    let json = fpuzzles_json(config, p);
    (!json.is_empty()).then(|| {
        (
            fpuzzles::sudokupad_link(&json),
            fpuzzles::fpuzzles_link(&json),
        )
    })
}

/// The links of a day's puzzle as the day's JSON gives them.
fn links(config: &FeedConfig, p: &DayPuzzle) -> Value {
    match link_pair(config, p) {
        Some((pad, fp)) => json!({"sudokupad": pad, "fpuzzles": fp}),
        None => json!({}),
    }
}

/// The day's JSON: `date`, `number`, and `puzzles` with `id`, `level`, `puzzle`, `solution`, `links`.
pub fn day_json(config: &FeedConfig, date: Date, puzzles: &[DayPuzzle]) -> Value {
    let items: Vec<Value> = puzzles
        .iter()
        .map(|p| {
            let s = &p.stored;
            json!({
                "id": puzzle_id(p, date),
                "db_id": s.id,
                "date": date.to_string(),
                "number": p.issued.number,
                "slot": p.issued.slot,
                "variant": s.variant,
                "size": s.puzzle.size(),
                "level": s.level,
                "puzzle": Value::Object(to_object(&s.puzzle, None)),
                "solution": s.solution.values(),
                "links": links(config, p),
            })
        })
        .collect();
    json!({
        "feed": config.name,
        "title": config.title,
        "date": date.to_string(),
        "weekday": super::date::WEEKDAYS[date.weekday()],
        "number": puzzles.first().map_or(config.number(date), |p| p.issued.number),
        "puzzles": items,
    })
}

/// The solution as rows of digits (two characters a digit past 9).
fn solution_text(p: &DayPuzzle) -> String {
    let n = p.stored.puzzle.size();
    let width = if n > 9 { 3 } else { 2 };
    p.stored
        .solution
        .values()
        .chunks(n)
        .map(|row| {
            row.iter()
                .map(|d| format!("{d:>w$}", w = width))
                .collect::<String>()
                .trim_start()
                .to_string()
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// "Title #number — Weekday date", the heading of the day's page and PDF.
fn day_title(config: &FeedConfig, date: Date, puzzles: &[DayPuzzle]) -> String {
    let number = puzzles
        .first()
        .map_or(config.number(date), |p| p.issued.number);
    format!(
        "{} #{number} — {} {date}",
        config.title,
        WEEKDAY_NAMES[date.weekday()]
    )
}

/// A day's puzzle as a feed item shows it: its heading and links, no pictures.
pub(super) fn item_view(config: &FeedConfig, date: Date, p: &DayPuzzle) -> PuzzleView {
    let n = p.stored.puzzle.size();
    let (sudokupad, fpuzzles) = link_pair(config, p).unzip();
    PuzzleView {
        id: puzzle_id(p, date),
        heading: format!("{} {n}x{n} · {}", p.stored.variant, p.stored.level),
        sudokupad,
        fpuzzles,
        ..PuzzleView::default()
    }
}

/// A day's puzzle as the day page shows it: drawn, with its links and solution.
fn puzzle_view(config: &FeedConfig, date: Date, p: &DayPuzzle) -> PuzzleView {
    let s = &p.stored;
    PuzzleView {
        picture: to_svg(&puzzle_picture(&s.puzzle, None, 40.0, false)),
        solution_picture: to_svg(&puzzle_picture(&s.puzzle, Some(&s.solution), 24.0, false)),
        solution_text: solution_text(p),
        ..item_view(config, date, p)
    }
}

/// The issued days before and after a day (the day page's links).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Neighbours {
    /// The issued day before.
    pub prev: Option<String>,
    /// The issued day after.
    pub next: Option<String>,
}

/// The day's HTML page: each puzzle with its links, the solution folded away, links to the
/// previous and next issued days, the archive and the day's PDF.
// The seam for the player: once play-page's `play::store_player(store, row)` and
// `play::write_page(w, &players, &PageInfo)` are on main, `site::write_page` (which has the store)
// builds one player per puzzle and this function passes them to `write_page` with `PageInfo`
// links to `prev`, `next`, `index.html` and `<date>.pdf` (relative), instead of the pictures.
pub fn day_html(
    config: &FeedConfig,
    date: Date,
    puzzles: &[DayPuzzle],
    around: &Neighbours,
) -> Result<String, FeedError> {
    let view = DayView {
        title: day_title(config, date, puzzles),
        date: date.to_string(),
        prev: around.prev.clone(),
        next: around.next.clone(),
        puzzles: puzzles
            .iter()
            .map(|p| puzzle_view(config, date, p))
            .collect(),
    };
    pages::day_page(&view).map_err(template_error)
}

pub(super) fn template_error(e: pages::TemplateError) -> FeedError {
    FeedError::Render(format!("a page template failed: {e}"))
}

/// The day as a printable PDF (8.5x11 in, as many puzzles a page as stay readable, answers at
/// the end), drawn by the book renderer.
pub fn day_pdf(
    config: &FeedConfig,
    date: Date,
    puzzles: &[DayPuzzle],
) -> Result<Vec<u8>, FeedError> {
    let title = day_title(config, date, puzzles);
    let entries: Vec<BookEntry> = puzzles
        .iter()
        .enumerate()
        .map(|(i, p)| BookEntry {
            number: i + 1,
            level: p.stored.level.clone(),
            puzzle: &p.stored.puzzle,
            solution: &p.stored.solution,
        })
        .collect();
    let sections = [Section {
        title: date.to_string(),
        entries,
    }];
    let trim = Trim::parse("8.5x11").map_err(|e| FeedError::Render(e.to_string()))?;
    let mut last = String::new();
    for per_page in [4, 2, 1] {
        let settings = BookSettings {
            title: title.clone(),
            trim: trim.clone(),
            per_page,
            bleed: false,
            shade: false,
            answers: Answers::End,
        };
        let mut bytes = Vec::new();
        match write_book(&mut bytes, &settings, &sections) {
            Ok(_) => return Ok(bytes),
            Err(e) => last = e.to_string(),
        }
    }
    Err(FeedError::Render(last))
}

/// Write the day's JSON and PDF (the files that depend on the day alone); returns the paths.
pub fn write_day(
    out: &Path,
    config: &FeedConfig,
    date: Date,
    puzzles: &[DayPuzzle],
    protected: &[&Path],
) -> Result<Vec<PathBuf>, FeedError> {
    let mut json = day_json(config, date, puzzles).to_string();
    json.push('\n');
    Ok(vec![
        write_file(
            &out.join(format!("{date}.json")),
            json.as_bytes(),
            protected,
        )?,
        write_file(
            &out.join(format!("{date}.pdf")),
            &day_pdf(config, date, puzzles)?,
            protected,
        )?,
    ])
}

/// Write the day page `<date>.html`, linked to its neighbours among the issued days.
pub fn write_day_page(
    out: &Path,
    config: &FeedConfig,
    date: Date,
    puzzles: &[DayPuzzle],
    around: &Neighbours,
    protected: &[&Path],
) -> Result<PathBuf, FeedError> {
    let html = day_html(config, date, puzzles, around)?;
    write_file(
        &out.join(format!("{date}.html")),
        html.as_bytes(),
        protected,
    )
}

/// Replace a withdrawn day's page by one that says so, and remove its JSON and PDF; returns
/// the page and the files removed.
pub fn write_withdrawn(
    out: &Path,
    config: &FeedConfig,
    date: Date,
    protected: &[&Path],
) -> Result<(PathBuf, Vec<PathBuf>), FeedError> {
    let title = format!("{} — {date} withdrawn", config.title);
    let html = pages::withdrawn_page(&title, &date.to_string()).map_err(template_error)?;
    let page = write_file(
        &out.join(format!("{date}.html")),
        html.as_bytes(),
        protected,
    )?;
    let mut removed = Vec::new();
    for ext in ["json", "pdf"] {
        let path = out.join(format!("{date}.{ext}"));
        match std::fs::remove_file(&path) {
            Ok(()) => removed.push(path),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => return Err(write_error(&path)(e)),
        }
    }
    Ok((page, removed))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn atomic_write_replaces_whole_files_and_leaves_no_temporaries() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.json");
        write_file(&path, b"one", &[]).unwrap();
        write_file(&path, b"two", &[]).unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"two");
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
        let missing = dir.path().join("no/such/dir/b.json");
        assert!(matches!(
            write_file(&missing, b"x", &[]),
            Err(FeedError::Output(_))
        ));
        assert!(matches!(
            write_file(&path, b"x", &[path.as_path()]),
            Err(FeedError::Output(_))
        ));
    }
}
