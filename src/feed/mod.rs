//! The nightly feed: a day's puzzles drawn from the store by a schedule, recorded in `issued` so
//! none (nor any puzzle equal under the canonical form) is ever given out twice, and written as
//! the day's JSON, HTML (a player for every puzzle) and PDF plus the archive `index.html` and a JSON
//! Feed 1.1 and RSS 2.0 index of the recent days: a static site that works from any folder.
//!
//! A run is a pure function of (database, schedule, date): no clock is read, so re-running an
//! issued date re-emits the same bytes, and an issued date is never drawn again. Every run
//! rebuilds the index and the neighbouring day pages from the database's issued days, under the
//! database's write lock, so a run for any day (or for several at once) leaves it complete.

mod archive;
pub mod date;
mod output;
mod pages;
pub mod schedule;
mod site;
pub mod top_up;

pub use date::Date;
pub use schedule::{FeedConfig, Slot};
pub use site::{check_date, withdraw_day, WithdrawReport, MAX_DAYS_AHEAD};

use crate::publish::{self, DayIssue, PublishError, Wanted};
use crate::store::{Issued, Query, Store, StoreError, StoredPuzzle};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use thiserror::Error;

/// Why a feed run stopped.
#[derive(Debug, Error)]
pub enum FeedError {
    /// The database failed.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// A pool ran out; nothing was issued.
    #[error("{date}: no unissued {slot} puzzle left ({available} in the database, the day needs {wanted}); nothing was issued: run `sudoku-press generate` for more, or `feed --generate`")]
    Short {
        /// The date asked for.
        date: Date,
        /// The slot that ran out.
        slot: String,
        /// Puzzles of that slot the day needs.
        wanted: usize,
        /// Unissued puzzles of that slot.
        available: u64,
    },
    /// An issued puzzle that is no longer in the database.
    #[error("{date}: issued puzzle id {id} is missing from the database; restore the database")]
    Missing {
        /// The date.
        date: Date,
        /// The puzzle id.
        id: i64,
    },
    /// The day could not be drawn (see [`publish::issue_day`]).
    #[error(transparent)]
    Publish(PublishError),
    /// `--generate` could not make puzzles.
    #[error("--generate: {0}")]
    Generate(String),
    /// A puzzle of the day cannot be made playable (e.g. a row with no unique solution).
    #[error("{date}: the day page's player: {cause}")]
    Play {
        /// The day.
        date: Date,
        /// Why.
        cause: crate::play::PlayError,
    },
    /// The day's PDF cannot be laid out or written.
    #[error("the day's PDF: {0}")]
    Render(String),
    /// An output file that cannot be written.
    #[error(transparent)]
    Output(#[from] crate::atomic_file::AtomicFileError),
    /// A date before the series' first day.
    #[error("--date {date} is before the feed's first day {epoch} (feed.epoch of the schedule), where day numbers start at 1; give a later date or change feed.epoch")]
    BeforeEpoch {
        /// The date asked for.
        date: Date,
        /// The series' first day.
        epoch: Date,
    },
    /// A new date far after the newest issued day (or the first day): a mistyped year?
    #[error("--date {date} is {days} days after {reference} ({what}), more than {MAX_DAYS_AHEAD}: a mistyped date? Nothing was issued; pass --force to issue it anyway")]
    FarAhead {
        /// The date asked for.
        date: Date,
        /// The day it is measured from.
        reference: Date,
        /// What `reference` is.
        what: &'static str,
        /// Days from `reference` to `date`.
        days: i64,
    },
    /// `--withdraw` of a day that was never issued.
    #[error("--withdraw {date}: feed {feed:?} issued nothing on that day; nothing was changed")]
    NotIssued {
        /// The date.
        date: Date,
        /// The feed's name.
        feed: String,
    },
    /// An output directory that cannot be written.
    #[error("{path}: cannot write ({cause}); choose another --out or fix its permissions")]
    Write {
        /// The file or directory.
        path: PathBuf,
        /// The I/O error (in the message, not a separate source, so it is printed once).
        cause: std::io::Error,
    },
}

/// A day's puzzle with its record.
#[derive(Clone, Debug)]
pub struct DayPuzzle {
    /// The `issued` row.
    pub issued: Issued,
    /// The stored puzzle.
    pub stored: StoredPuzzle,
}

/// What a feed run did.
#[derive(Clone, Debug)]
pub struct FeedReport {
    /// The date.
    pub date: Date,
    /// Its number in the series.
    pub number: i64,
    /// `true` if drawn now, `false` if re-emitted from an earlier run.
    pub drawn: bool,
    /// The day's puzzles.
    pub puzzles: Vec<DayPuzzle>,
    /// The files written.
    pub files: Vec<PathBuf>,
    /// Unissued puzzles left per slot of the schedule.
    pub stock: BTreeMap<String, u64>,
    /// Full days after `date` the stock serves, and the slot that runs out first (`None` when
    /// the stock lasts beyond `STOCK_HORIZON` days).
    pub days_left: Option<(u64, String)>,
    /// The schedule asks for other slots than the day was issued with (kept as issued).
    pub schedule_changed: bool,
}

/// Days ahead the stock count looks (100 years).
pub const STOCK_HORIZON: u64 = 36_500;

/// The day's slots as the sections [`publish::issue_day`] fills: one puzzle each, titled with
/// the slot's name.
pub fn wanted(slots: &[Slot]) -> Vec<Wanted> {
    slots
        .iter()
        .map(|s| Wanted {
            title: s.to_string(),
            query: s.query(1),
        })
        .collect()
}

/// Issue (or re-read) the puzzles of `date` and write the day's files and the index into `out`.
/// A pool too small for the day is an error before anything is recorded or written.
pub fn run_day(
    store: &mut Store,
    config: &FeedConfig,
    date: Date,
    out: &Path,
) -> Result<FeedReport, FeedError> {
    output::prepare_dir(out)?;
    let wanted = wanted(config.slots(date));
    let number = config.number(date);
    let day = date.to_string();
    let (drawn, rows) = match publish::issue_day(store, &config.name, &day, number, &wanted) {
        Ok(DayIssue::Drawn(rows)) => (true, rows),
        Ok(DayIssue::Existing(rows)) => (false, rows),
        Err(PublishError::Short {
            title,
            asked,
            found,
            ..
        }) => {
            return Err(FeedError::Short {
                date,
                slot: title,
                wanted: asked,
                available: found as u64,
            })
        }
        Err(PublishError::Store(e)) => return Err(FeedError::Store(e)),
        Err(e) => return Err(FeedError::Publish(e)),
    };
    let schedule_changed = rows
        .iter()
        .map(|r| &r.slot)
        .ne(wanted.iter().map(|w| &w.title));
    let puzzles = load(store, date, rows)?;
    let mut files = output::write_day(out, config, date, &puzzles, &[store.path()])?;
    files.extend(store.with_write_lock(|store| site::write_site(store, config, date, out))?);
    let stock = stock(store, config)?;
    let days_left = days_left(config, date, &stock);
    Ok(FeedReport {
        date,
        number: puzzles.first().map_or(number, |p| p.issued.number),
        drawn,
        puzzles,
        files,
        stock,
        days_left,
        schedule_changed,
    })
}

fn load(store: &Store, date: Date, rows: Vec<Issued>) -> Result<Vec<DayPuzzle>, FeedError> {
    rows.into_iter()
        .map(|issued| {
            let stored = store.puzzle_by_id(issued.puzzle)?;
            let stored = stored.ok_or(FeedError::Missing {
                date,
                id: issued.puzzle,
            })?;
            Ok(DayPuzzle { issued, stored })
        })
        .collect()
}

/// Unissued puzzles per slot named anywhere in the schedule.
pub fn stock(store: &Store, config: &FeedConfig) -> Result<BTreeMap<String, u64>, StoreError> {
    let mut stock = BTreeMap::new();
    for slot in config.days.iter().flatten() {
        if let std::collections::btree_map::Entry::Vacant(e) = stock.entry(slot.to_string()) {
            let unissued = Query {
                exclude_issued: true,
                ..slot.query(usize::MAX)
            };
            e.insert(store.count_matching(&unissued)?);
        }
    }
    Ok(stock)
}

/// How many days after `date` the stock serves in full, and the slot that runs out first.
pub fn days_left(
    config: &FeedConfig,
    date: Date,
    stock: &BTreeMap<String, u64>,
) -> Option<(u64, String)> {
    let mut left = stock.clone();
    for day in 1..=STOCK_HORIZON {
        for slot in config.slots(date.add_days(day as i64)) {
            let name = slot.to_string();
            match left.get_mut(&name) {
                Some(n) if *n > 0 => *n -= 1,
                _ => return Some((day - 1, name)),
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn days_left_follows_the_weekday_ramp() {
        let ramp = FeedConfig::parse(schedule::RAMP).unwrap();
        let sunday = Date::parse("2026-11-29").unwrap();
        let stock = |e, m, h, x| {
            BTreeMap::from([
                ("killer-9-easy".to_string(), e),
                ("killer-9-medium".to_string(), m),
                ("killer-9-hard".to_string(), h),
                ("killer-9-expert".to_string(), x),
            ])
        };
        // Mon, Tue easy; Wed, Thu medium; Fri, Sat hard; Sun expert.
        let left = |e, m, h, x| days_left(&ramp, sunday, &stock(e, m, h, x));
        assert_eq!(left(2, 2, 2, 1), Some((7, "killer-9-easy".into())));
        assert_eq!(left(4, 2, 2, 1), Some((9, "killer-9-medium".into())));
        assert_eq!(left(9, 9, 9, 0), Some((6, "killer-9-expert".into())));
        assert_eq!(left(0, 9, 9, 9), Some((0, "killer-9-easy".into())));
        let plenty = u64::MAX / 2;
        assert_eq!(left(plenty, plenty, plenty, plenty), None);
    }
}
