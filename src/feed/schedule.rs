//! The feed's settings and schedule (TOML): which puzzles (variant, size, level) each weekday
//! gets, the series' first day, and the index's title and address. Two presets ship in `config/`:
//! `daily` (one puzzle of each level every day) and `ramp` (easy on Monday up to expert on Sunday).

use super::date::{Date, WEEKDAYS};
use crate::play::data::variant_title;
use crate::publish::check_printable;
use crate::store::Query;
use serde::Deserialize;
use std::collections::BTreeMap;
use std::fmt;

/// The `daily` preset: one 9x9 killer of each level every day (easy, medium, hard, extreme: the
/// grader rates almost no generated killer `expert`).
pub const DAILY: &str = include_str!("../../config/feed-daily.toml");
/// The `ramp` preset: easy Monday and Tuesday, medium Wednesday and Thursday, hard Friday and
/// Saturday, extreme Sunday (after the SudokuWiki Daily Killer scheme).
pub const RAMP: &str = include_str!("../../config/feed-ramp.toml");

/// The variants a slot may name.
pub const VARIANTS: [&str; 4] = ["killer", "classic", "jigsaw", "killer-jigsaw"];
/// The levels a slot may name: the grader's (`grader::Level`).
pub const LEVELS: [&str; 5] = ["easy", "medium", "hard", "expert", "extreme"];

/// One puzzle a day asks for: `<variant>-<size>-<level>`, e.g. `killer-9-hard`.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Slot {
    /// `killer`, `classic`, `jigsaw` or `killer-jigsaw`.
    pub variant: String,
    /// Side N.
    pub size: u32,
    /// `easy`, `medium`, `hard` or `expert`.
    pub level: String,
}

impl Slot {
    /// Parse `<variant>-<size>-<level>`.
    pub fn parse(text: &str) -> Result<Slot, String> {
        let how = "write slots as <variant>-<size>-<level>, e.g. killer-9-hard";
        let mut parts = text.rsplitn(3, '-');
        let (level, size, variant) = (parts.next(), parts.next(), parts.next());
        let (Some(level), Some(size), Some(variant)) = (level, size, variant) else {
            return Err(format!("slot {text:?}: {how}"));
        };
        if !VARIANTS.contains(&variant) {
            return Err(format!(
                "slot {text:?}: variant {variant:?} is none of {VARIANTS:?}"
            ));
        }
        if !LEVELS.contains(&level) {
            return Err(format!(
                "slot {text:?}: level {level:?} is none of {LEVELS:?}"
            ));
        }
        let size = size.parse().ok().filter(|n| (4..=16).contains(n));
        let size = size.ok_or_else(|| format!("slot {text:?}: the size must be 4 to 16; {how}"))?;
        Ok(Slot {
            variant: variant.into(),
            size,
            level: level.into(),
        })
    }

    /// The store's selection of this slot's pool: `count` puzzles of its variant, size and level.
    pub fn query(&self, count: usize) -> Query {
        Query {
            variant: Some(self.variant.clone()),
            size: Some(self.size as usize),
            levels: vec![self.level.clone()],
            count,
            ..Query::default()
        }
    }
}

/// How the feed's pages and items name a slot: `killer-6-medium` is `Killer 6x6 · medium`
/// (a stored name that is not a slot is shown as it is).
pub fn slot_label(slot: &str) -> String {
    match Slot::parse(slot) {
        Ok(Slot {
            variant,
            size,
            level,
        }) => format!("{} {size}x{size} · {level}", variant_title(&variant)),
        Err(_) => slot.to_string(),
    }
}

impl fmt::Display for Slot {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}-{}-{}", self.variant, self.size, self.level)
    }
}

/// A feed's settings, validated.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FeedConfig {
    /// Short name (`daily`).
    pub name: String,
    /// The index's title.
    pub title: String,
    /// Where the output directory is published (ends with `/`); links in the index start here.
    pub base_url: String,
    /// Day 1 of the series: a date's number is `date - epoch + 1`.
    pub epoch: Date,
    /// Days listed in `feed.json` and `rss.xml`.
    pub recent: usize,
    /// The slots of each weekday, Monday first.
    pub days: [Vec<Slot>; 7],
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Raw {
    feed: RawFeed,
    schedule: BTreeMap<String, Vec<String>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawFeed {
    name: String,
    title: String,
    base_url: String,
    epoch: String,
    #[serde(default = "default_recent")]
    recent: usize,
}

fn default_recent() -> usize {
    30
}

impl FeedConfig {
    /// Parse a feed TOML text; errors say which key is wrong and how to fix it.
    pub fn parse(text: &str) -> Result<FeedConfig, String> {
        let raw: Raw = toml::from_str(text)
            .map_err(|e| crate::settings::TomlError::new(text, &e).to_string())?;
        let epoch = Date::parse(&raw.feed.epoch)
            .ok_or_else(|| format!("feed.epoch {:?}: use a date YYYY-MM-DD", raw.feed.epoch))?;
        for key in raw.schedule.keys() {
            if key != "all" && !WEEKDAYS.contains(&key.as_str()) {
                return Err(format!(
                    "schedule.{key}: use all, mon, tue, wed, thu, fri, sat or sun"
                ));
            }
        }
        let slots = |key: &str| -> Result<Option<Vec<Slot>>, String> {
            raw.schedule
                .get(key)
                .map(|list| list.iter().map(|s| Slot::parse(s)).collect())
                .transpose()
        };
        let all = slots("all")?;
        let mut days: [Vec<Slot>; 7] = Default::default();
        for (i, day) in WEEKDAYS.iter().enumerate() {
            days[i] = match (slots(day)?, &all) {
                (Some(list), _) => list,
                (None, Some(list)) => list.clone(),
                (None, None) => Vec::new(),
            };
            if days[i].is_empty() {
                return Err(format!(
                    "the schedule gives no puzzle on {day}: add `{day} = [\"killer-9-easy\"]` or `all = [...]`"
                ));
            }
        }
        let base_url =
            normalize_base_url(&raw.feed.base_url).map_err(|e| format!("feed.base_url: {e}"))?;
        let title = check_title(&raw.feed.title).map_err(|e| format!("feed.title: {e}"))?;
        if raw.feed.recent == 0 {
            return Err("feed.recent must be at least 1".into());
        }
        Ok(FeedConfig {
            name: raw.feed.name,
            title,
            base_url,
            epoch,
            recent: raw.feed.recent,
            days,
        })
    }

    /// Publish at `url` instead (`http://` or `https://` and a host; a `/` is added at the end).
    pub fn set_base_url(&mut self, url: &str) -> Result<(), String> {
        self.base_url = normalize_base_url(url)?;
        Ok(())
    }

    /// Title the feed `title` instead (1 to 200 characters, no control characters).
    pub fn set_title(&mut self, title: &str) -> Result<(), String> {
        self.title = check_title(title)?;
        Ok(())
    }

    /// The slots of a date.
    pub fn slots(&self, date: Date) -> &[Slot] {
        &self.days[date.weekday()]
    }

    /// The number of a date in the series (day 1 is the epoch; earlier dates are 0 or less).
    pub fn number(&self, date: Date) -> i64 {
        date.days_since(self.epoch) + 1
    }
}

/// `url` as a base URL: `http://` or `https://`, a host, no spaces; ends with `/`.
fn normalize_base_url(url: &str) -> Result<String, String> {
    let how = "give the address the output folder is published at, e.g. https://puzzles.example.net/daily/";
    let rest = url
        .strip_prefix("https://")
        .or_else(|| url.strip_prefix("http://"))
        .ok_or_else(|| format!("{url:?} is not an http:// or https:// address; {how}"))?;
    let host = rest.split(['/', '?', '#']).next().unwrap_or_default();
    if host.is_empty() || url.chars().any(|c| c.is_whitespace() || c.is_control()) {
        return Err(format!("{url:?} has no host or has spaces; {how}"));
    }
    let mut url = url.to_string();
    if !url.ends_with('/') {
        url.push('/');
    }
    Ok(url)
}

/// `title` if it is 1 to 200 characters without control characters that the day's PDF can
/// print (its heading is the title).
fn check_title(title: &str) -> Result<String, String> {
    let n = title.chars().count();
    if title.trim().is_empty() || n > 200 || title.chars().any(char::is_control) {
        return Err(format!(
            "{title:?}: give 1 to 200 characters without line breaks or control characters"
        ));
    }
    check_printable(title).map_err(|e| format!("the day's PDF is headed by the title: {e}"))?;
    Ok(title.to_string())
}

/// Why `base_url` cannot be where a feed is published, if it cannot: a placeholder domain
/// (example.org, .com, .net and their subdomains, RFC 2606) or this machine (localhost,
/// 127.x.x.x, [::1]), which no feed reader elsewhere can reach.
pub fn base_url_problem(base_url: &str) -> Option<&'static str> {
    let rest = base_url.split_once("://").map_or(base_url, |(_, r)| r);
    let authority = rest.split(['/', '?', '#']).next().unwrap_or_default();
    let host = authority.rsplit('@').next().unwrap_or_default();
    let host = match host.strip_prefix('[') {
        Some(v6) => v6.split(']').next().unwrap_or_default(),
        None => host.split(':').next().unwrap_or_default(),
    };
    let host = host.trim_end_matches('.').to_ascii_lowercase();
    let under = |domain: &str| host == domain || host.ends_with(&format!(".{domain}"));
    if ["example.org", "example.com", "example.net", "example"]
        .iter()
        .any(|d| under(d))
    {
        return Some("is a placeholder (example.org, .com and .net are reserved for examples)");
    }
    if under("localhost") || host.starts_with("127.") || host == "::1" || host == "0.0.0.0" {
        return Some("is this machine (localhost), which no feed reader elsewhere can reach");
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn presets_parse_and_ramp_from_easy_to_expert() {
        let daily = FeedConfig::parse(DAILY).unwrap();
        let levels = |day: &[Slot]| day.iter().map(|s| s.level.clone()).collect::<Vec<_>>();
        let five = ["easy", "medium", "hard", "expert", "extreme"];
        assert!(daily.days.iter().all(|d| levels(d) == five));
        let grader_levels: Vec<&str> = crate::grader::Level::ALL
            .iter()
            .map(|l| l.as_str())
            .collect();
        assert_eq!(grader_levels, LEVELS);
        let ramp = FeedConfig::parse(RAMP).unwrap();
        let monday = Date::parse("2026-11-30").unwrap();
        assert_eq!(levels(ramp.slots(monday)), ["easy"]);
        assert_eq!(levels(ramp.slots(monday.add_days(6))), ["expert"]);
        assert_eq!(ramp.slots(monday)[0].to_string(), "killer-9-easy");
    }

    #[test]
    fn slots_are_named_in_words() {
        assert_eq!(slot_label("killer-6-medium"), "Killer 6x6 · medium");
        assert_eq!(
            slot_label("killer-jigsaw-9-hard"),
            "Killer jigsaw 9x9 · hard"
        );
        assert_eq!(slot_label("classic-16-extreme"), "Sudoku 16x16 · extreme");
        assert_eq!(slot_label("Puzzles"), "Puzzles", "not a slot: as it is");
    }

    #[test]
    fn slots_and_bad_settings_are_named() {
        let slot = Slot::parse("killer-jigsaw-9-hard").unwrap();
        assert_eq!((slot.variant.as_str(), slot.size), ("killer-jigsaw", 9));
        for (bad, want) in [
            ("killer-9-tough", "level \"tough\""),
            ("sudoku-9-easy", "variant \"sudoku\""),
            ("killer-99-easy", "size must be 4 to 16"),
            ("easy", "<variant>-<size>-<level>"),
        ] {
            assert!(Slot::parse(bad).unwrap_err().contains(want), "{bad}");
        }
        let head = "[feed]\nname='d'\ntitle='t'\nbase_url='https://p.test/u'\nepoch='2026-01-01'\n[schedule]\n";
        let err = |body: &str| FeedConfig::parse(&format!("{head}{body}")).unwrap_err();
        assert!(err("mon = ['killer-9-easy']").contains("no puzzle on tue"));
        assert!(err("all = ['killer-9-easy']\nmonday = []").contains("schedule.monday"));
        let ok = FeedConfig::parse(&format!("{head}all = ['killer-9-easy']")).unwrap();
        assert_eq!((ok.base_url.as_str(), ok.recent), ("https://p.test/u/", 30));
        assert_eq!(ok.number(Date::parse("2026-01-03").unwrap()), 3);
        let bad_url = FeedConfig::parse(&format!(
            "{}all = ['killer-9-easy']",
            head.replace("https://p.test/u", "u")
        ))
        .unwrap_err();
        assert!(
            bad_url.contains("feed.base_url: \"u\" is not an http"),
            "{bad_url}"
        );
        let bad_title = FeedConfig::parse(&format!(
            "{}all = ['killer-9-easy']",
            head.replace("'t'", "''")
        ))
        .unwrap_err();
        assert!(bad_title.contains("feed.title"), "{bad_title}");
        let emoji_title = FeedConfig::parse(&format!(
            "{}all = ['killer-9-easy']",
            head.replace("'t'", "'Daily \u{1F9E9}'")
        ))
        .unwrap_err();
        assert!(
            emoji_title.starts_with("feed.title: the day's PDF is headed by the title: ")
                && emoji_title.contains("U+1F9E9")
                && emoji_title.contains("without emoji"),
            "{emoji_title}"
        );
    }

    #[test]
    fn base_url_and_title_overrides_are_checked() {
        let mut config = FeedConfig::parse(DAILY).unwrap();
        config.set_base_url("https://puzzles.test/daily").unwrap();
        assert_eq!(config.base_url, "https://puzzles.test/daily/");
        for bad in [
            "puzzles.test/daily",
            "https://",
            "https:///x",
            "https://a b/",
            "ftp://x/",
        ] {
            assert!(config.set_base_url(bad).is_err(), "{bad}");
        }
        config.set_title("Killer <of> the Day").unwrap();
        assert_eq!(config.title, "Killer <of> the Day");
        for bad in ["", "  ", "a\nb", &"x".repeat(201)] {
            assert!(config.set_title(bad).is_err(), "{bad:?}");
        }
        let rtl = config.set_title("مرحبا Killer 2026").unwrap_err();
        assert!(
            rtl.contains("'م' (U+0645) is right-to-left") && rtl.contains("transliteration"),
            "{rtl}"
        );
        assert_eq!(
            config.title, "Killer <of> the Day",
            "a refused title changes nothing"
        );
    }

    #[test]
    fn placeholder_and_local_base_urls_are_named() {
        for url in [
            "https://example.org/sudoku/",
            "http://www.example.com/",
            "https://EXAMPLE.NET./x/",
            "http://localhost:8000/",
            "http://127.0.0.1/feed/",
            "http://[::1]:80/",
            "https://user@example.org/",
        ] {
            assert!(base_url_problem(url).is_some(), "{url}");
        }
        for url in [
            "https://puzzles.test/",
            "https://example.organic.com/",
            "https://notexample.org/",
            "https://sudoku.localhosting.net/",
        ] {
            assert_eq!(base_url_problem(url), None, "{url}");
        }
        let daily = FeedConfig::parse(DAILY).unwrap();
        assert!(
            base_url_problem(&daily.base_url).is_some(),
            "the preset says to change it"
        );
    }
}
