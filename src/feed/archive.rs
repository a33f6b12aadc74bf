//! The feed's index, rebuilt from the database's issued days on every run: the archive
//! `index.html` (every issued day, newest first) and the feed of the `recent` newest days,
//! `feed.json` (JSON Feed 1.1) and `rss.xml` (RSS 2.0), whose items link to our own day page
//! first, then to each puzzle on SudokuPad and f-puzzles. Withdrawn days are not issued days.

use super::date::Date;
use super::output::{item_view, template_error, write_file, WEEKDAY_NAMES};
use super::pages::{self, ArchiveDay, RssItem};
use super::schedule::slot_label;
use super::{FeedConfig, FeedError};
use crate::store::{IssuedDay, Store};
use serde_json::{json, Value};
use std::path::{Path, PathBuf};

/// One day of the feed, with what the items show.
struct Entry {
    date: Date,
    number: i64,
    slots: Vec<String>,
    /// The item's HTML: our page, then the puzzles' links.
    content_html: String,
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
}

/// `Puzzles: Killer 9x9 · easy, 2 × Killer 9x9 · hard.`: the day's slots in words, a slot the
/// day names twice counted once, in the day's order.
fn summary(slots: &[String]) -> String {
    let mut counted: Vec<(&String, usize)> = Vec::new();
    for slot in slots {
        match counted.iter_mut().find(|(s, _)| *s == slot) {
            Some((_, n)) => *n += 1,
            None => counted.push((slot, 1)),
        }
    }
    let named: Vec<String> = counted
        .into_iter()
        .map(|(slot, n)| match n {
            1 => slot_label(slot),
            // A no-break space: "2" never ends a line apart from its "×".
            n => format!("{n}\u{a0}× {}", slot_label(slot)),
        })
        .collect();
    format!("Puzzles: {}.", named.join(", "))
}

/// The recent days as feed entries (their puzzles read to link each one).
fn entries(
    store: &Store,
    config: &FeedConfig,
    days: &[IssuedDay],
) -> Result<Vec<Entry>, FeedError> {
    let mut entries = Vec::with_capacity(days.len());
    for day in days.iter().take(config.recent) {
        let Some(date) = Date::parse(&day.date) else {
            continue;
        };
        let puzzles = super::load(store, date, store.issued_on(&config.name, &day.date)?)?;
        let views: Vec<_> = puzzles.iter().map(|p| item_view(config, date, p)).collect();
        let mut entry = Entry {
            date,
            number: day.number,
            slots: day.slots.clone(),
            content_html: String::new(),
        };
        let (title, url) = (entry.title(config), entry.url(config));
        entry.content_html = pages::item_html(&title, &url, &views).map_err(template_error)?;
        entries.push(entry);
    }
    Ok(entries)
}

/// JSON Feed 1.1 of the recent days (newest first).
fn json_feed(config: &FeedConfig, entries: &[Entry]) -> Value {
    let items: Vec<Value> = entries
        .iter()
        .map(|e| {
            json!({
                "id": e.id(config),
                "url": e.url(config),
                "title": e.title(config),
                "content_html": e.content_html,
                "summary": summary(&e.slots),
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
fn rss(config: &FeedConfig, entries: &[Entry]) -> Result<String, FeedError> {
    let items: Vec<RssItem> = entries
        .iter()
        .map(|e| RssItem {
            title: e.title(config),
            url: e.url(config),
            content_html: e.content_html.clone(),
            id: e.id(config),
            pub_date: e.date.rfc822(),
        })
        .collect();
    pages::rss(&config.title, &config.base_url, &items).map_err(template_error)
}

/// The archive page: every issued day, newest first.
fn archive(config: &FeedConfig, days: &[IssuedDay]) -> Result<String, FeedError> {
    let days: Vec<ArchiveDay> = days
        .iter()
        .filter_map(|d| {
            let date = Date::parse(&d.date)?;
            Some(ArchiveDay {
                date: d.date.clone(),
                number: d.number,
                weekday: WEEKDAY_NAMES[date.weekday()].to_string(),
                summary: summary(&d.slots),
            })
        })
        .collect();
    pages::archive_page(&config.title, &days).map_err(template_error)
}

/// Write `index.html` (every issued day), `feed.json` and `rss.xml` (the `config.recent` newest),
/// as the database holds them now. Call it under `Store::with_write_lock`, so that runs for
/// different days cannot leave an index that misses one of them.
pub fn write_index(
    store: &Store,
    out: &Path,
    config: &FeedConfig,
) -> Result<Vec<PathBuf>, FeedError> {
    let days = store.issued_days(&config.name, usize::MAX)?;
    let entries = entries(store, config, &days)?;
    let protected = [store.path()];
    let mut feed = serde_json::to_string_pretty(&json_feed(config, &entries)).unwrap_or_default();
    feed.push('\n');
    Ok(vec![
        write_file(&out.join("feed.json"), feed.as_bytes(), &protected)?,
        write_file(
            &out.join("rss.xml"),
            rss(config, &entries)?.as_bytes(),
            &protected,
        )?,
        write_file(
            &out.join("index.html"),
            archive(config, &days)?.as_bytes(),
            &protected,
        )?,
    ])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_day_is_summed_up_in_words() {
        let slots = |names: &[&str]| names.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(
            summary(&slots(&["killer-9-easy", "killer-6-hard", "killer-9-easy"])),
            "Puzzles: 2\u{a0}× Killer 9x9 · easy, Killer 6x6 · hard."
        );
        assert_eq!(
            summary(&slots(&["classic-9-medium"])),
            "Puzzles: Sudoku 9x9 · medium."
        );
    }
}
