//! The feed's files: `<date>.json` (for apps), `<date>.html` (a page with the puzzles drawn as
//! SVG, their links and solutions), `<date>.pdf` (the day printable, with answers), and the index of the recent days, `feed.json` (JSON Feed 1.1) and `rss.xml` (RSS 2.0).
//! Each file is written to a temporary name in the same directory and renamed into place, so a
//! reader sees the old file or the new one, never half of one. Nothing in them depends on the clock.

use super::date::Date;
use super::{DayPuzzle, FeedConfig, FeedError};
use crate::atomic_file::{check_dir_writable, replace_file};
use crate::format::fpuzzles;
use crate::format::jsonl::to_object;
use crate::print::book::{Answers, BookSettings, Entry as BookEntry, Section, Trim};
use crate::print::puzzle_picture;
use crate::render::{to_svg, write_book};
use crate::store::{Store, StoreError};
use serde_json::{json, Value};
use std::path::{Path, PathBuf};

const WEEKDAY_NAMES: [&str; 7] = [
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

/// `&`, `<`, `>`, `"` and `'` escaped for HTML and XML text and attributes.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for ch in text.chars() {
        match ch {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            _ => out.push(ch),
        }
    }
    out
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

/// The links of a day's puzzle (none for sizes f-puzzles lacks).
fn links(config: &FeedConfig, p: &DayPuzzle) -> Value {
    let json = fpuzzles_json(config, p);
    if json.is_empty() {
        return json!({});
    }
    json!({
        "sudokupad": fpuzzles::sudokupad_link(&json),
        "fpuzzles": fpuzzles::fpuzzles_link(&json),
    })
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

/// The day's HTML page: each puzzle with its links, the solution folded away.
pub fn day_html(config: &FeedConfig, date: Date, puzzles: &[DayPuzzle]) -> String {
    let title = day_title(config, date, puzzles);
    let mut html = format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>{t}</title>\n\
         <link rel=\"alternate\" type=\"application/feed+json\" href=\"feed.json\">\n\
         <link rel=\"alternate\" type=\"application/rss+xml\" href=\"rss.xml\">\n\
         <style>body{{font-family:sans-serif;max-width:40em;margin:auto}}svg{{max-width:100%;height:auto}}</style>\n\
         </head>\n<body>\n<h1>{t}</h1>\n",
        t = escape(&title)
    );
    for p in puzzles {
        let s = &p.stored;
        let n = s.puzzle.size();
        html.push_str(&format!(
            "<section id=\"{id}\">\n<h2>{variant} {n}x{n} · {level}</h2>\n",
            id = escape(&puzzle_id(p, date)),
            variant = escape(&s.variant),
            level = escape(&s.level),
        ));
        html.push_str(&to_svg(&puzzle_picture(&s.puzzle, None, 40.0, false)));
        let links = links(config, p);
        if let (Some(pad), Some(fp)) = (links["sudokupad"].as_str(), links["fpuzzles"].as_str()) {
            html.push_str(&format!(
                "<p><a href=\"{}\">Play in SudokuPad</a> · <a href=\"{}\">Open in f-puzzles</a></p>\n",
                escape(pad),
                escape(fp)
            ));
        }
        html.push_str(&format!(
            "<details><summary>Solution</summary>\n{}<pre>{}</pre></details>\n</section>\n",
            to_svg(&puzzle_picture(&s.puzzle, Some(&s.solution), 24.0, false)),
            solution_text(p)
        ));
    }
    html.push_str(&format!(
        "<p><a href=\"{date}.json\">This day as JSON</a></p>\n</body>\n</html>\n"
    ));
    html
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

/// Write the day's JSON, HTML and PDF; returns the paths.
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
        replace_file(
            &out.join(format!("{date}.json")),
            json.as_bytes(),
            protected,
        )?,
        replace_file(
            &out.join(format!("{date}.html")),
            day_html(config, date, puzzles).as_bytes(),
            protected,
        )?,
        replace_file(
            &out.join(format!("{date}.pdf")),
            &day_pdf(config, date, puzzles)?,
            protected,
        )?,
    ])
}

/// One index entry: a day and what it held.
struct Entry {
    date: Date,
    number: i64,
    slots: Vec<String>,
}

impl Entry {
    fn title(&self, config: &FeedConfig) -> String {
        let day = WEEKDAY_NAMES[self.date.weekday()];
        format!("{} #{} — {day} {}", config.title, self.number, self.date)
    }
    fn id(&self, config: &FeedConfig) -> String {
        format!("sudoku-press:{}:{}", config.name, self.date)
    }
    fn url(&self, config: &FeedConfig) -> String {
        format!("{}{}.html", config.base_url, self.date)
    }
    fn summary(&self) -> String {
        format!("Puzzles: {}.", self.slots.join(", "))
    }
}

fn entries(store: &Store, config: &FeedConfig, last: Date) -> Result<Vec<Entry>, StoreError> {
    let dates = store.issued_dates(&config.name, &last.to_string(), config.recent)?;
    dates
        .iter()
        .filter_map(|d| Date::parse(d))
        .map(|date| {
            let rows = store.issued_on(&config.name, &date.to_string())?;
            Ok(Entry {
                date,
                number: rows.first().map_or(config.number(date), |r| r.number),
                slots: rows.into_iter().map(|r| r.slot).collect(),
            })
        })
        .collect()
}

/// JSON Feed 1.1 of the recent days (newest first).
fn json_feed(config: &FeedConfig, entries: &[Entry]) -> Value {
    let items: Vec<Value> = entries
        .iter()
        .map(|e| {
            let url = e.url(config);
            json!({
                "id": e.id(config),
                "url": url,
                "title": e.title(config),
                "content_html": format!("<p>{}</p><p><a href=\"{}\">Play</a></p>", escape(&e.summary()), escape(&url)),
                "date_published": format!("{}T00:00:00Z", e.date),
                "tags": e.slots,
                "_sudoku_press": {"date": e.date.to_string(), "number": e.number, "json": format!("{}.json", e.date)},
            })
        })
        .collect();
    json!({
        "version": "https://jsonfeed.org/version/1.1",
        "title": config.title,
        "home_page_url": config.base_url,
        "feed_url": format!("{}feed.json", config.base_url),
        "items": items,
    })
}

/// RSS 2.0 of the recent days (newest first).
fn rss(config: &FeedConfig, entries: &[Entry]) -> String {
    let mut xml = format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<rss version=\"2.0\">\n<channel>\n\
         <title>{}</title>\n<link>{}</link>\n<description>{}</description>\n",
        escape(&config.title),
        escape(&config.base_url),
        escape(&format!("{}: a new puzzle page every day", config.title)),
    );
    for e in entries {
        xml.push_str(&format!(
            "<item>\n<title>{}</title>\n<link>{}</link>\n<description>{}</description>\n\
             <guid isPermaLink=\"false\">{}</guid>\n<pubDate>{}</pubDate>\n</item>\n",
            escape(&e.title(config)),
            escape(&e.url(config)),
            escape(&e.summary()),
            escape(&e.id(config)),
            e.date.rfc822(),
        ));
    }
    xml.push_str("</channel>\n</rss>\n");
    xml
}

/// Write `feed.json` and `rss.xml`: the latest `config.recent` issued days up to `last`.
pub fn write_index(
    store: &Store,
    out: &Path,
    config: &FeedConfig,
    last: Date,
) -> Result<Vec<PathBuf>, FeedError> {
    let entries = entries(store, config, last)?;
    let protected = [store.path()];
    let mut feed = serde_json::to_string_pretty(&json_feed(config, &entries)).unwrap_or_default();
    feed.push('\n');
    Ok(vec![
        replace_file(&out.join("feed.json"), feed.as_bytes(), &protected)?,
        replace_file(
            &out.join("rss.xml"),
            rss(config, &entries).as_bytes(),
            &protected,
        )?,
    ])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_markup() {
        assert_eq!(
            escape(r#"<a href="x">&'"#),
            "&lt;a href=&quot;x&quot;&gt;&amp;&#39;"
        );
    }
}
