//! The feed site's pages from templates (`index.html` and `withdrawn.html`, which extend
//! `base.html`'s head and body, the feed items' `item.html` and `rss.xml`, beside this file), rendered by minijinja, the template crate the
//! player page uses: every value is escaped for HTML/XML by default (the templates are named
//! `*.html`/`*.xml`). The day pages are the player's own pages (`play::write_page`, see
//! `output::day_html`), so the day's players have one skeleton and one CSP wherever they are.
//!
//! Every link between the site's pages is relative (`2026-11-27.html`, `index.html`), so the
//! folder works from `file://` or any address; only `feed.json` and `rss.xml` use the base URL,
//! as feed readers need absolute links. These pages load and run nothing: their
//! Content-Security-Policy allows no request and no script (inline style and `data:` images
//! only). The policy, a constant, is the one value marked `| safe`.

use minijinja::value::{Serde, Value};
use minijinja::Environment;
use serde::Serialize;

/// The Content-Security-Policy of the feed's pages: nothing loads, no script runs.
pub const CSP: &str =
    "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'";

/// The style sheet of the feed's pages (phones first: the grids shrink to the screen's width).
const CSS: &str = "body{font-family:system-ui,sans-serif;max-width:40em;margin:auto;padding:0 1em;line-height:1.4}\
nav{display:flex;justify-content:space-between;gap:1em;padding:.5em 0}\
a{color:#0645ad}ol.days{padding-left:1.5em}ol.days li{margin:.3em 0}ol.days span{color:#444}\
@media print{nav{display:none}}";

/// Why a page could not be rendered (a mistake in a template, caught by the first test).
pub type TemplateError = minijinja::Error;

/// One puzzle of a feed item.
#[derive(Clone, Debug, Default, Serialize)]
pub struct PuzzleView {
    /// The puzzle's id (`2026-11-27-killer-9-hard-1`).
    pub id: String,
    /// `Killer 9x9 · hard` (`schedule::slot_label`).
    pub heading: String,
    /// Its SudokuPad link, when f-puzzles has its size.
    pub sudokupad: Option<String>,
    /// Its f-puzzles link.
    pub fpuzzles: Option<String>,
}

/// One day of the archive.
#[derive(Clone, Debug, Serialize)]
pub struct ArchiveDay {
    /// `YYYY-MM-DD`.
    pub date: String,
    /// Its number in the series.
    pub number: i64,
    /// `Friday`.
    pub weekday: String,
    /// `Puzzles: Killer 9x9 · medium, Killer 9x9 · hard.`
    pub summary: String,
}

/// One item of `rss.xml`.
#[derive(Clone, Debug, Serialize)]
pub struct RssItem {
    /// The day's title.
    pub title: String,
    /// The day page's absolute address.
    pub url: String,
    /// The item's HTML (our page first, then each puzzle's SudokuPad and f-puzzles links).
    pub content_html: String,
    /// The item's stable id.
    pub id: String,
    /// RFC 822 date.
    pub pub_date: String,
}

fn environment() -> Result<Environment<'static>, TemplateError> {
    let mut env = Environment::new();
    let syntax = minijinja::syntax::SyntaxConfig::builder()
        .trim_blocks(true)
        .lstrip_blocks(true)
        .keep_trailing_newline(true)
        .build()?;
    env.set_syntax(syntax);
    env.add_template("base.html", include_str!("base.html"))?;
    env.add_template("index.html", include_str!("index.html"))?;
    env.add_template("withdrawn.html", include_str!("withdrawn.html"))?;
    env.add_template("item.html", include_str!("item.html"))?;
    env.add_template("rss.xml", include_str!("rss.xml"))?;
    Ok(env)
}

fn render<S: Serialize>(name: &str, view: &S) -> Result<String, TemplateError> {
    let env = environment()?;
    let page = Value::from(Serde(view));
    let base = Value::from(Serde(serde_json::json!({"csp": CSP, "css": CSS})));
    env.get_template(name)?
        .render(minijinja::context! { ..page, ..base })
}

/// The archive (`index.html`): every issued day, newest first.
pub fn archive_page(title: &str, days: &[ArchiveDay]) -> Result<String, TemplateError> {
    render(
        "index.html",
        &serde_json::json!({"title": title, "days": days}),
    )
}

/// The page that replaces a withdrawn day's.
pub fn withdrawn_page(title: &str, date: &str) -> Result<String, TemplateError> {
    render(
        "withdrawn.html",
        &serde_json::json!({"title": title, "date": date}),
    )
}

/// A feed item's HTML: a link to our day page, then each puzzle's links elsewhere.
pub fn item_html(title: &str, url: &str, puzzles: &[PuzzleView]) -> Result<String, TemplateError> {
    render(
        "item.html",
        &serde_json::json!({"title": title, "url": url, "puzzles": puzzles}),
    )
}

/// `rss.xml` (RSS 2.0).
pub fn rss(title: &str, base_url: &str, entries: &[RssItem]) -> Result<String, TemplateError> {
    render(
        "rss.xml",
        &serde_json::json!({"title": title, "base_url": base_url, "entries": entries}),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn puzzle(heading: &str) -> PuzzleView {
        PuzzleView {
            id: "2026-11-27-killer-9-hard-0".into(),
            heading: heading.into(),
            sudokupad: Some("https://sudokupad.app/fpuzzles?a=1&b=2".into()),
            fpuzzles: Some("https://f-puzzles.com/?load=x".into()),
        }
    }

    #[test]
    fn archive_lists_days_in_the_given_order() {
        let day = |date: &str, number| ArchiveDay {
            date: date.into(),
            number,
            weekday: "Friday".into(),
            summary: "Puzzles: Killer 9x9 · hard.".into(),
        };
        let html = archive_page("T", &[day("2026-11-28", 2), day("2026-11-27", 1)]).unwrap();
        let (a, b) = (
            html.find("2026-11-28.html").unwrap(),
            html.find("2026-11-27.html").unwrap(),
        );
        assert!(a < b);
        assert!(html.contains("2 days, newest first"));
        assert!(archive_page("T", &[])
            .unwrap()
            .contains("No day is issued yet"));
        let gone = withdrawn_page("T <x>", "2026-11-27").unwrap();
        assert!(gone.contains("T &lt;x&gt;") && gone.contains("were withdrawn"));
        // Both pages have base.html's head, with their own links, and one body.
        for (page, link) in [(&html, "rel=\"alternate\""), (&gone, "rel=\"index\"")] {
            assert!(page.starts_with("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n"));
            assert!(page.ends_with("</body>\n</html>\n"), "{page}");
            assert_eq!(page.matches("Content-Security-Policy").count(), 1);
            let head = &page[..page.find("</head>").unwrap()];
            assert!(head.contains(link) && head.contains("<style>"), "{head}");
        }
    }

    #[test]
    fn rss_escapes_the_item_html_once_more() {
        let content = item_html("Day & night", "https://x.test/d.html", &[puzzle("p")]).unwrap();
        assert!(
            content.starts_with(
                "<p><a href=\"https:&#x2f;&#x2f;x.test&#x2f;d.html\">Play Day &amp; night</a></p>"
            ),
            "{content}"
        );
        let item = RssItem {
            title: "Day".into(),
            url: "https://x.test/d.html".into(),
            content_html: content,
            id: "sudoku-press:t:d".into(),
            pub_date: "Fri, 27 Nov 2026 00:00:00 GMT".into(),
        };
        let xml = rss("T", "https://x.test/", &[item]).unwrap();
        assert!(
            xml.starts_with("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<rss version=\"2.0\">")
        );
        assert!(xml.contains("<description>&lt;p&gt;&lt;a href="), "{xml}");
        assert_eq!(xml.matches("<item>").count(), 1);
    }
}
