//! The feed as a site (issue 20 item 8, issue 21 N6/N7): the index rebuilt from the issued days
//! on every run (a far-future date refused, an older day issued late, seven feeds at once),
//! `--withdraw`, `--base-url`/`--title`, and a folder whose pages link to each other relatively.

use crate::common::{self, bin};
use serde_json::Value;
use std::path::Path;
use std::process::Stdio;

const SCHEDULE: &str = r#"
[feed]
name = "site"
title = "Site Feed"
base_url = "https://puzzles.test/site/"
epoch = "2026-11-01"
recent = 3
[schedule]
all = ["killer-6-medium"]
"#;

/// A database of 6x6 killers (cheap to draw and print) and the schedule, in a temp directory.
fn setup(recent: usize) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    common::ok(
        d,
        &[
            "generate", "--size", "6", "--level", "medium", "--seed", "5", "--count", "24", "--db",
            "p.db",
        ],
    );
    let schedule = SCHEDULE.replace("recent = 3", &format!("recent = {recent}"));
    std::fs::write(d.join("s.toml"), schedule).unwrap();
    dir
}

/// `feed` on the test database, schedule and `out`, with `extra`.
fn feed<'a>(extra: &[&'a str]) -> Vec<&'a str> {
    let mut args = vec![
        "feed",
        "--db",
        "p.db",
        "--schedule",
        "s.toml",
        "--out",
        "out",
    ];
    args.extend_from_slice(extra);
    args
}

fn ok(d: &Path, extra: &[&str]) -> String {
    common::ok(d, &feed(extra))
}

fn fails(d: &Path, extra: &[&str]) -> String {
    common::one_line(common::fails(d, &feed(extra)))
}

fn read(d: &Path, name: &str) -> String {
    std::fs::read_to_string(d.join("out").join(name)).unwrap()
}

/// The dates `feed.json` lists, in order.
fn feed_dates(d: &Path) -> Vec<String> {
    let feed: Value = serde_json::from_str(&read(d, "feed.json")).unwrap();
    feed["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["_sudoku_press"]["date"].as_str().unwrap().to_string())
        .collect()
}

/// The day pages `index.html` links to, in order.
fn archive_dates(d: &Path) -> Vec<String> {
    let html = read(d, "index.html");
    html.split("<li><a href=\"")
        .skip(1)
        .map(|s| s[..10].to_string())
        .collect()
}

fn count_issued(d: &Path, sql: &str) -> i64 {
    let conn = rusqlite::Connection::open(d.join("p.db")).unwrap();
    conn.query_row(sql, [], |r| r.get(0)).unwrap()
}

#[test]
fn far_dates_are_refused_and_a_withdrawn_day_leaves_the_index() {
    let dir = setup(3);
    let d = dir.path();
    ok(d, &["--date", "2026-11-27"]);
    // N6: a mistyped year is refused (it would sit on top of the index), with the distance.
    let err = fails(d, &["--date", "2062-11-28"]);
    assert!(
        err.contains("13150 days after 2026-11-27 (the newest issued day), more than 366")
            && err.contains("--force"),
        "{err}"
    );
    // Before the series' first day: refused, --force or not (day numbers would be 0 or less).
    for date in ["2026-10-31", "1000-01-01"] {
        let err = fails(d, &["--date", date, "--force"]);
        assert!(
            err.contains("before the feed's first day 2026-11-01"),
            "{err}"
        );
    }
    assert_eq!(count_issued(d, "SELECT count(*) FROM issued"), 1);
    // With --force it is issued, and the index is rebuilt on every run: later runs for
    // earlier days still list every day, newest first (the old index froze here).
    ok(d, &["--date", "2062-11-28", "--force"]);
    for date in ["2026-11-28", "2026-11-29"] {
        ok(d, &["--date", date]);
    }
    assert_eq!(feed_dates(d), ["2062-11-28", "2026-11-29", "2026-11-28"]);
    assert_eq!(
        archive_dates(d),
        ["2062-11-28", "2026-11-29", "2026-11-28", "2026-11-27"]
    );
    let far_ids = count_issued(d, "SELECT puzzle FROM issued WHERE date = '2062-11-28'");

    // Withdraw it: recorded, the puzzle stays used, the day leaves the index and its files go.
    let said = ok(d, &["--withdraw", "2062-11-28"]);
    assert!(
        said.contains("site 2062-11-28: withdrawn; its 1 puzzles"),
        "{said}"
    );
    assert!(said.contains("removed out/2062-11-28.pdf"), "{said}");
    assert_eq!(feed_dates(d), ["2026-11-29", "2026-11-28", "2026-11-27"]);
    assert_eq!(archive_dates(d), ["2026-11-29", "2026-11-28", "2026-11-27"]);
    let page = read(d, "2062-11-28.html");
    assert!(page.contains("were withdrawn") && page.contains("href=\"index.html\""));
    assert!(!d.join("out/2062-11-28.json").exists() && !d.join("out/2062-11-28.pdf").exists());
    assert!(
        !read(d, "2026-11-29.html").contains("2062-11-28"),
        "the next link is gone"
    );
    let withdrawn = "SELECT count(*) FROM withdrawn WHERE channel = 'site' AND date = '2062-11-28'";
    assert_eq!(count_issued(d, withdrawn), 1);
    let kept = format!("SELECT count(*) FROM issued WHERE puzzle = {far_ids} AND date IS NULL");
    assert_eq!(count_issued(d, &kept), 1);
    // The newest issued day is 2026-11-29 again, so the next night is not refused, and the
    // withdrawn puzzle is never drawn again.
    ok(d, &["--date", "2026-11-30"]);
    assert_eq!(
        count_issued(
            d,
            &format!("SELECT count(*) FROM issued WHERE puzzle = {far_ids}")
        ),
        1
    );
    let again = ok(d, &["--withdraw", "2062-11-28"]);
    assert!(again.contains("already withdrawn at"), "{again}");
    let err = fails(d, &["--withdraw", "2026-12-25"]);
    assert!(err.contains("issued nothing on that day"), "{err}");
    assert!(fails(d, &["--withdraw", "2026-13-01"]).contains("--withdraw \"2026-13-01\""));
}

#[test]
fn an_older_day_issued_after_a_newer_one_is_in_the_index() {
    // N7's cause without the race: the old index was written only by a run for the newest day.
    let dir = setup(5);
    let d = dir.path();
    ok(d, &["--date", "2026-12-07"]);
    ok(d, &["--date", "2026-12-01"]);
    assert_eq!(feed_dates(d), ["2026-12-07", "2026-12-01"]);
    assert!(read(d, "rss.xml").contains("2026-12-01.html</link>"));
    // The pages link to each other: the older day was written after the newer one.
    assert!(read(d, "2026-12-07.html").contains("href=\"2026-12-01.html\" rel=\"prev\""));
    assert!(read(d, "2026-12-01.html").contains("href=\"2026-12-07.html\" rel=\"next\""));
}

#[test]
fn seven_feeds_at_once_leave_every_day_in_the_index() {
    // N7 (`feed/race_dates.sh` of the report): seven dates into one folder at once, newest
    // first so that the newest day commits early; three rounds.
    for round in 0..3 {
        let dir = setup(10);
        let d = dir.path();
        let dates: Vec<String> = (1..=7).rev().map(|n| format!("2026-12-0{n}")).collect();
        let children: Vec<_> = dates
            .iter()
            .map(|date| {
                bin()
                    .current_dir(d)
                    .args([
                        "feed",
                        "--db",
                        "p.db",
                        "--schedule",
                        "s.toml",
                        "--out",
                        "out",
                    ])
                    .args(["--date", date])
                    .stdout(Stdio::null())
                    .stderr(Stdio::piped())
                    .spawn()
                    .unwrap()
            })
            .collect();
        for child in children {
            let out = child.wait_with_output().unwrap();
            assert!(
                out.status.success(),
                "{}",
                String::from_utf8_lossy(&out.stderr)
            );
        }
        assert_eq!(feed_dates(d), dates, "round {round}");
        assert_eq!(archive_dates(d), dates, "round {round}");
        assert_eq!(read(d, "rss.xml").matches("<item>").count(), 7);
        // Every page links to its neighbours, whichever run wrote it last.
        for (i, date) in dates.iter().enumerate() {
            let page = read(d, &format!("{date}.html"));
            let newer = i.checked_sub(1).map(|j| &dates[j]);
            let older = dates.get(i + 1);
            assert_eq!(
                newer.is_some_and(|n| page.contains(&format!("href=\"{n}.html\" rel=\"next\""))),
                newer.is_some(),
                "round {round}, {date}: next"
            );
            assert_eq!(
                older.is_some_and(|o| page.contains(&format!("href=\"{o}.html\" rel=\"prev\""))),
                older.is_some(),
                "round {round}, {date}: prev"
            );
        }
    }
}

/// Every `href="…"` and `src="…"` of a page.
fn addresses(html: &str) -> Vec<String> {
    let mut found = Vec::new();
    for attr in ["href=\"", "src=\""] {
        for part in html.split(attr).skip(1) {
            found.push(part.split('"').next().unwrap().replace("&#x2f;", "/"));
        }
    }
    found
}

#[test]
fn the_folder_is_a_site_that_works_from_file_urls() {
    let dir = setup(3);
    let d = dir.path();
    for date in ["2026-11-27", "2026-11-28", "2026-11-29"] {
        ok(d, &["--date", date]);
    }
    let out = d.join("out");
    let mut pages = 0;
    for entry in std::fs::read_dir(&out).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "html") {
            continue;
        }
        pages += 1;
        // The player's page escapes the policy's quotes in its attribute (`&#x27;`).
        let html = std::fs::read_to_string(&path)
            .unwrap()
            .replace("&#x27;", "'");
        let name = path.display();
        assert!(
            html.contains("<meta name=\"viewport\" content=\"width=device-width"),
            "{name}"
        );
        assert!(
            html.contains("Content-Security-Policy\" content=\"default-src 'none'"),
            "{name}"
        );
        // Nothing to load: the day pages' scripts are inline (allowed by their hashes alone).
        assert!(
            !html.contains("<script src") && !html.contains("<img"),
            "{name}: nothing to load"
        );
        let day_page = html.contains("class=\"sp-player\"");
        assert_eq!(
            html.contains("<script"),
            day_page,
            "{name}: scripts on the day pages only"
        );
        if day_page {
            assert!(html.contains("script-src 'sha256-"), "{name}");
            assert!(
                html.contains("id=\"p-2026-11-2"),
                "{name}: a player per puzzle"
            );
        }
        for address in addresses(&html) {
            // Links to the puzzle sites are the only absolute ones; every other is a file here.
            if address.starts_with("https://sudokupad.app/")
                || address.starts_with("https://f-puzzles.com/")
            {
                continue;
            }
            assert!(
                !address.contains(':') && !address.starts_with('/'),
                "{name}: {address}"
            );
            let target = address.split('#').next().unwrap();
            assert!(
                out.join(target).is_file(),
                "{name} links to {address}, which is missing"
            );
        }
    }
    assert_eq!(pages, 4, "three days and the archive");
    let middle = read(d, "2026-11-28.html");
    for link in [
        "2026-11-27.html",
        "2026-11-29.html",
        "index.html",
        "2026-11-28.pdf",
    ] {
        assert!(middle.contains(&format!("href=\"{link}\"")), "{link}");
    }
    assert!(!read(d, "2026-11-27.html").contains("rel=\"prev\""));
    assert!(!read(d, "2026-11-29.html").contains("rel=\"next\""));

    // Feed items link to our own day page first, then to the puzzle sites.
    let feed: Value = serde_json::from_str(&read(d, "feed.json")).unwrap();
    let item = &feed["items"][0];
    assert_eq!(item["url"], "https://puzzles.test/site/2026-11-29.html");
    let content = item["content_html"]
        .as_str()
        .unwrap()
        .replace("&#x2f;", "/");
    let ours = content
        .find("https://puzzles.test/site/2026-11-29.html")
        .unwrap();
    let pad = content.find("https://sudokupad.app/").unwrap();
    assert!(
        ours < pad && content.contains("https://f-puzzles.com/"),
        "{content}"
    );
}

#[test]
fn base_url_and_title_flags_and_placeholder_warnings() {
    let dir = setup(3);
    let d = dir.path();
    let said = ok(
        d,
        &[
            "--date",
            "2026-11-27",
            "--base-url",
            "https://puzzles.test/k",
            "--title",
            "Killer <Daily> & Co",
        ],
    );
    assert!(!said.contains("warning"), "{said}");
    let feed: Value = serde_json::from_str(&read(d, "feed.json")).unwrap();
    assert_eq!(feed["title"], "Killer <Daily> & Co");
    assert_eq!(feed["home_page_url"], "https://puzzles.test/k/");
    assert_eq!(
        feed["items"][0]["url"],
        "https://puzzles.test/k/2026-11-27.html"
    );
    for page in ["2026-11-27.html", "index.html"] {
        let html = read(d, page);
        assert!(
            html.contains("<title>Killer &lt;Daily&gt; &amp; Co"),
            "{page}"
        );
        assert!(!html.contains("<Daily>"), "{page}");
    }
    assert!(read(d, "rss.xml").contains("<title>Killer &lt;Daily&gt; &amp; Co</title>"));

    // Placeholders and this machine: the run goes on, with a loud warning naming the fix.
    let said = ok(
        d,
        &[
            "--date",
            "2026-11-28",
            "--base-url",
            "http://localhost:8000/",
        ],
    );
    assert!(
        said.contains("warning: --base-url http://localhost:8000/ is this machine"),
        "{said}"
    );
    let schedule = std::fs::read_to_string(d.join("s.toml")).unwrap();
    std::fs::write(
        d.join("s.toml"),
        schedule.replace("puzzles.test", "example.org"),
    )
    .unwrap();
    let said = ok(d, &["--date", "2026-11-29"]);
    assert!(
        said.contains(
            "warning: the base_url of schedule s.toml https://example.org/site/ is a placeholder"
        ) && said.contains("--base-url https://YOUR.SITE/PATH/"),
        "{said}"
    );
    // Bad values: one line, nothing issued.
    let before = count_issued(d, "SELECT count(*) FROM issued");
    let err = fails(d, &["--date", "2026-11-30", "--base-url", "puzzles.test/k"]);
    assert!(
        err.contains("--base-url \"puzzles.test/k\"") && err.contains("https://"),
        "{err}"
    );
    let err = fails(d, &["--date", "2026-11-30", "--title", ""]);
    assert!(err.contains("--title"), "{err}");
    assert_eq!(count_issued(d, "SELECT count(*) FROM issued"), before);
}
