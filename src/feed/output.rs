//! The feed's files: `<date>.json` (for apps), `<date>.html` (the day page: a player for every
//! puzzle, their links elsewhere, the previous and next days), `<date>.pdf` (the day printable,
//! with answers), the archive `index.html` (every issued day) and the feed of the recent days,
//! `feed.json` (JSON Feed 1.1) and `rss.xml` (RSS 2.0); pages come from `pages`' templates.
//! Each file is written to a temporary name in the same directory and renamed into place, so a
//! reader sees the old file or the new one, never half of one. Nothing in them depends on the clock.

use super::date::Date;
use super::pages::{self, PuzzleView};
use super::schedule::slot_label;
use super::{DayPuzzle, FeedConfig, FeedError};
use crate::atomic_file::{check_dir_writable, replace_file};
use crate::format::fpuzzles;
use crate::format::jsonl::to_object;
use crate::play::{page_html, Link, PageInfo, PlayerData};
use crate::print::book::{Answers, BookSettings, Entry as BookEntry, Section, Trim};
use crate::render::write_book;
use serde_json::{json, Value};
use std::collections::BTreeMap;
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

/// A day's puzzle as a feed item shows it: its slot in words and its links.
pub(super) fn item_view(config: &FeedConfig, date: Date, p: &DayPuzzle) -> PuzzleView {
    let (sudokupad, fpuzzles) = link_pair(config, p).unzip();
    PuzzleView {
        id: puzzle_id(p, date),
        heading: slot_label(&p.issued.slot),
        sudokupad,
        fpuzzles,
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

/// The day's HTML page: the player's page (`play::write_page`, its skeleton and strict CSP)
/// with one player per puzzle, each followed by its SudokuPad and f-puzzles links, and the
/// feed's navigation in the header: the previous and next issued days, the archive, the day's
/// PDF and JSON. Every link between the site's pages is relative. `players` are the puzzles'
/// players in the order of `puzzles`.
pub fn day_html(
    config: &FeedConfig,
    date: Date,
    puzzles: &[DayPuzzle],
    players: Vec<PlayerData>,
    around: &Neighbours,
) -> Result<String, FeedError> {
    let link = |label: String, href: String, rel: Option<&str>| Link {
        label,
        href,
        rel: rel.map(str::to_string),
    };
    let mut links = Vec::new();
    if let Some(prev) = &around.prev {
        links.push(link(
            format!("← {prev}"),
            format!("{prev}.html"),
            Some("prev"),
        ));
    }
    links.push(link("All days".into(), "index.html".into(), Some("index")));
    if let Some(next) = &around.next {
        links.push(link(
            format!("{next} →"),
            format!("{next}.html"),
            Some("next"),
        ));
    }
    links.push(link(
        "Print this day (PDF, answers at the end)".into(),
        format!("{date}.pdf"),
        None,
    ));
    links.push(link(
        "This day as JSON".into(),
        format!("{date}.json"),
        None,
    ));
    let mut player_links = BTreeMap::new();
    let mut day_players = Vec::with_capacity(players.len());
    for (k, (p, mut player)) in puzzles.iter().zip(players).enumerate() {
        player.id = puzzle_id(p, date);
        // "Killer 9x9 · #42" -> "Puzzle 2 · Killer 9x9" (the level is on the player's next line).
        let kind = player
            .title
            .split(" · ")
            .next()
            .unwrap_or_default()
            .to_string();
        player.title = format!("Puzzle {} · {kind}", k + 1);
        if let Some((pad, fp)) = link_pair(config, p) {
            let elsewhere = vec![
                link("Play in SudokuPad".into(), pad, None),
                link("Open in f-puzzles".into(), fp, None),
            ];
            player_links.insert(player.id.clone(), elsewhere);
        }
        day_players.push(player);
    }
    let info = PageInfo {
        title: day_title(config, date, puzzles),
        intro: Some(
            "Every puzzle plays on this page, offline: your progress stays in this browser.".into(),
        ),
        links,
        player_links,
        ..PageInfo::default()
    };
    page_html(&day_players, &info).map_err(|e| FeedError::Render(e.to_string()))
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
    players: Vec<PlayerData>,
    around: &Neighbours,
    protected: &[&Path],
) -> Result<PathBuf, FeedError> {
    let html = day_html(config, date, puzzles, players, around)?;
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
