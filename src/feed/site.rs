//! The feed as a site: the day pages linked to their neighbours and the index rebuilt from the
//! issued days under the database's write lock, the guard against mistyped dates, and taking a
//! day back (`feed --withdraw`).

use super::output::{self, Neighbours};
use super::{archive, load, Date, FeedConfig, FeedError};
use crate::play;
use crate::store::{Issued, Store, Withdrawal};
use std::path::{Path, PathBuf};

/// How many days after the newest issued day (or the first day, before any) a new date may be
/// without `--force`.
pub const MAX_DAYS_AHEAD: i64 = 366;

/// What `withdraw_day` did.
#[derive(Clone, Debug)]
pub struct WithdrawReport {
    /// The date.
    pub date: Date,
    /// The puzzles withdrawn now (empty when the day was withdrawn before).
    pub puzzles: Vec<Issued>,
    /// When the day was withdrawn before (UTC), if it was.
    pub before: Option<String>,
    /// The files written (the "withdrawn" page, neighbours, the index).
    pub files: Vec<PathBuf>,
    /// The day's files removed (its JSON and PDF).
    pub removed: Vec<PathBuf>,
}

/// Check a date before it is issued: never before the series' first day, and (unless `force`)
/// at most `MAX_DAYS_AHEAD` days after the newest issued day, or after the first day when
/// nothing is issued yet. An issued day may always be re-emitted.
pub fn check_date(
    store: &Store,
    config: &FeedConfig,
    date: Date,
    force: bool,
) -> Result<(), FeedError> {
    if !store.issued_on(&config.name, &date.to_string())?.is_empty() {
        return Ok(());
    }
    if date < config.epoch {
        return Err(FeedError::BeforeEpoch {
            date,
            epoch: config.epoch,
        });
    }
    let newest = store.issued_dates(&config.name, "9999-12-31", 1)?;
    let (reference, what) = match newest.first().and_then(|d| Date::parse(d)) {
        Some(day) => (day, "the newest issued day"),
        None => (config.epoch, "the feed's first day; nothing is issued yet"),
    };
    let days = date.days_since(reference);
    if days > MAX_DAYS_AHEAD && !force {
        return Err(FeedError::FarAhead {
            date,
            reference,
            what,
            days,
        });
    }
    Ok(())
}

/// Withdraw an issued day: recorded in the database (its puzzles are never issued again), its
/// page replaced by one that says so, its JSON and PDF removed, and its neighbours' pages and
/// the index rebuilt without it. Withdrawing a withdrawn day again only rewrites the files.
pub fn withdraw_day(
    store: &mut Store,
    config: &FeedConfig,
    date: Date,
    out: &Path,
) -> Result<WithdrawReport, FeedError> {
    output::prepare_dir(out)?;
    let day = date.to_string();
    let (puzzles, before) = match store.withdraw_day(&config.name, &day)? {
        Withdrawal::Withdrawn(rows) => (rows, None),
        Withdrawal::Already(at) => (Vec::new(), Some(at)),
        Withdrawal::NotIssued => {
            return Err(FeedError::NotIssued {
                date,
                feed: config.name.clone(),
            })
        }
    };
    let (files, removed) = store.with_write_lock(|store| {
        let protected = [store.path()];
        let (page, removed) = output::write_withdrawn(out, config, date, &protected)?;
        let mut files = vec![page];
        files.extend(rewrite_neighbours(store, config, date, out)?);
        files.extend(archive::write_index(store, out, config)?);
        Ok::<_, FeedError>((files, removed))
    })?;
    Ok(WithdrawReport {
        date,
        puzzles,
        before,
        files,
        removed,
    })
}

/// The day page of `date` and the pages of the issued days around it (whose previous/next
/// links may have changed), then the index; run under the database's write lock.
pub(super) fn write_site(
    store: &Store,
    config: &FeedConfig,
    date: Date,
    out: &Path,
) -> Result<Vec<PathBuf>, FeedError> {
    let mut files = vec![write_page(store, config, date, out)?];
    files.extend(rewrite_neighbours(store, config, date, out)?);
    files.extend(archive::write_index(store, out, config)?);
    Ok(files)
}

/// Rewrite the pages of the issued days before and after `date` that are in `out`.
fn rewrite_neighbours(
    store: &Store,
    config: &FeedConfig,
    date: Date,
    out: &Path,
) -> Result<Vec<PathBuf>, FeedError> {
    let (prev, next) = store.issued_neighbours(&config.name, &date.to_string())?;
    let mut files = Vec::new();
    for day in [prev, next].into_iter().flatten() {
        let Some(day) = Date::parse(&day) else {
            continue;
        };
        if out.join(format!("{day}.html")).is_file() {
            files.push(write_page(store, config, day, out)?);
        }
    }
    Ok(files)
}

/// Write the page of an issued day, linked to its neighbours as the database holds them now:
/// one player per puzzle, with the grader's path and the generator's making replayed.
fn write_page(
    store: &Store,
    config: &FeedConfig,
    date: Date,
    out: &Path,
) -> Result<PathBuf, FeedError> {
    let day = date.to_string();
    let puzzles = load(store, date, store.issued_on(&config.name, &day)?)?;
    let (prev, next) = store.issued_neighbours(&config.name, &day)?;
    let around = Neighbours { prev, next };
    let players = puzzles
        .iter()
        .map(|p| play::store_player(store, &p.stored))
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| FeedError::Play { date, cause: e })?;
    output::write_day_page(
        out,
        config,
        date,
        &puzzles,
        players,
        &around,
        &[store.path()],
    )
}
