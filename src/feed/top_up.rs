//! `feed --generate`: before a day is issued, grow the pools that would not last the coming days,
//! by extending one generation run per short slot (variant, size and target level) with the given
//! seed (work items `0..count` of that seed, `count` doubling until the stock suffices), so the
//! same database and seed always top up to the same puzzles. A top-up that was interrupted left
//! its run unfinished: the next one finishes that run first, at the count it had reached, and
//! then doubles from there if the stock is still short. The result equals the uninterrupted
//! top-up whenever the finished run covers the need (the usual case: the first round does);
//! when more rounds are needed, up to `ROUNDS` more follow, which can differ from the rounds
//! the uninterrupted top-up had left.

use super::{stock, Date, FeedConfig, FeedError, Slot, STOCK_HORIZON};
use crate::generator::GENERATOR_VERSION;
use crate::pipeline;
use crate::settings::{self, Origin, Overrides, Plan, Settings};
use crate::store::Store;
use std::collections::BTreeMap;
use std::path::Path;
use std::sync::atomic::AtomicBool;

/// Rounds of doubling before giving up on a rare level (64 items grow to at most 2048).
const ROUNDS: u32 = 6;

/// Puzzles each slot needs for `date` and the `days` after it (at most `STOCK_HORIZON` days are
/// counted).
pub fn demand(config: &FeedConfig, date: Date, days: u64) -> BTreeMap<String, u64> {
    let mut need = BTreeMap::new();
    for day in 0..=days.min(STOCK_HORIZON) {
        for slot in config.slots(date.add_days(day as i64)) {
            *need.entry(slot.to_string()).or_insert(0) += 1;
        }
    }
    need
}

/// Generate until every slot of the schedule has stock for `date` and the `days` after it (or
/// `ROUNDS` doublings pass), with runs of `seed` (`None`: the date as YYYYMMDD, so each night's
/// top-up has its own seed and a re-run of a night makes the same puzzles); returns one line per
/// generation run made.
pub fn top_up(
    store: &mut Store,
    db: &Path,
    config: &FeedConfig,
    date: Date,
    seed: Option<u64>,
    days: u64,
) -> Result<Vec<String>, FeedError> {
    let seed = seed.unwrap_or_else(|| date.to_yyyymmdd());
    let need = demand(config, date, days);
    let mut lines = Vec::new();
    let mut slots: Vec<&Slot> = config.days.iter().flatten().collect();
    slots.sort();
    slots.dedup();
    for slot in slots {
        let name = slot.to_string();
        let short = |stock: &BTreeMap<String, u64>| -> u64 {
            need.get(&name)
                .copied()
                .unwrap_or(0)
                .saturating_sub(stock[&name])
        };
        let Slot {
            variant,
            size,
            level,
        } = slot;
        // An earlier `--generate` with this seed that was interrupted (Ctrl-C, kill, a full
        // disk) left its run unfinished: finish it first at the count it had reached, as
        // `generate` resumes, so the database ends as the uninterrupted run would leave it.
        let resumed = unfinished_run(store, db, slot, seed)?;
        if let Some(count) = resumed {
            let summary = generate(store, db, slot, seed, count, &never())?;
            lines.push(format!(
                "--generate: {variant} {size}x{size} {level} seed {seed}, items 0..{count}: finished an interrupted run, stored {} new",
                summary.tally.stored
            ));
        }
        let deficit = short(&stock(store, config)?);
        if deficit == 0 {
            continue;
        }
        // After a finished interrupted round, the next round doubles it, as it would have.
        let mut count = resumed.map_or((4 * deficit).max(64), |c| c.saturating_mul(2));
        for _ in 0..ROUNDS {
            let summary = generate(store, db, slot, seed, count, &never())?;
            lines.push(format!(
                "--generate: {variant} {size}x{size} {level} seed {seed}, items 0..{count}: stored {} new",
                summary.tally.stored
            ));
            let left = short(&stock(store, config)?);
            if left == 0 {
                break;
            }
            if left == deficit && count >= 512 {
                lines.push(format!(
                    "--generate: {count} {variant} {size}x{size} items aimed at {level} made none; the generator rarely reaches that level with these settings"
                ));
                break;
            }
            count *= 2;
        }
    }
    Ok(lines)
}

/// A stop flag that is never set.
fn never() -> AtomicBool {
    AtomicBool::new(false)
}

/// The count of the run of `seed` for a slot, when an interrupted `--generate` left it
/// unfinished.
fn unfinished_run(
    store: &Store,
    db: &Path,
    slot: &Slot,
    seed: u64,
) -> Result<Option<u64>, FeedError> {
    let plan = plan(db, slot, seed, 1)?;
    Ok(store
        .runs()?
        .into_iter()
        .find(|r| {
            r.settings_hash == plan.settings_hash
                && r.seed == seed
                && r.shard == plan.shard
                && r.generator_version == GENERATOR_VERSION
                && !r.is_complete()
        })
        .map(|r| r.count))
}

/// Run (or extend) the run of `seed` for a slot's variant, size and level to `count` work items
/// (stopping early, with what was made committed, when `stop` is set).
fn generate(
    store: &mut Store,
    db: &Path,
    slot: &Slot,
    seed: u64,
    count: u64,
    stop: &AtomicBool,
) -> Result<pipeline::RunSummary, FeedError> {
    let plan = plan(db, slot, seed, count)?;
    pipeline::run(store, &plan, stop, |_| {}).map_err(|e| FeedError::Generate(e.to_string()))
}

/// The generation plan of a slot's run of `seed` with `count` work items.
fn plan(db: &Path, slot: &Slot, seed: u64, count: u64) -> Result<Plan, FeedError> {
    let fail = |e: String| FeedError::Generate(e);
    let mut settings = Settings::default();
    settings.apply(&Overrides {
        count: Some(count),
        seed: Some(seed),
        db: Some(db.to_path_buf()),
        variant: Some(settings::parse_variant(&slot.variant).map_err(fail)?),
        size: Some(slot.size as u8),
        levels: Some(vec![slot.level.clone()]),
        ..Overrides::default()
    });
    settings
        .validate("feed --generate", &Origin::Defaults)
        .map_err(|e| fail(e.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pipeline::Event;
    use std::sync::atomic::Ordering;

    const SCHEDULE: &str = r#"
[feed]
name = "test"
title = "Test Feed"
base_url = "https://example.org/t/"
epoch = "2026-11-01"
[schedule]
all = ["killer-9-medium"]
sun = ["killer-6-hard", "killer-6-hard"]
"#;

    /// A database of 4 killers (seed 3) in `dir`.
    fn start(dir: &Path) -> (Store, std::path::PathBuf) {
        let db = dir.join("p.db");
        let mut store = Store::open_or_create(&db).unwrap();
        let mut settings = Settings::default();
        settings.apply(&Overrides {
            count: Some(4),
            seed: Some(3),
            db: Some(db.clone()),
            ..Overrides::default()
        });
        let plan = settings.validate("test", &Origin::Defaults).unwrap();
        pipeline::run(&mut store, &plan, &never(), |_| {}).unwrap();
        (store, db)
    }

    /// Runs (seed, settings, count, complete) and puzzles (run, idx, key) in id order.
    type Content = (Vec<(u64, String, u64, bool)>, Vec<(i64, i64, Vec<u8>)>);

    fn content(db: &Path) -> Content {
        let store = Store::open_read_only(db).unwrap();
        let runs = store
            .runs()
            .unwrap()
            .into_iter()
            .map(|r| (r.seed, r.settings_hash.clone(), r.count, r.is_complete()))
            .collect();
        let conn = rusqlite::Connection::open(db).unwrap();
        let mut stmt = conn
            .prepare("SELECT run, idx, canonical_key FROM puzzles ORDER BY id")
            .unwrap();
        let rows = stmt
            .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
            .unwrap();
        (runs, rows.map(|r| r.unwrap()).collect())
    }

    /// N8: a `--generate` interrupted in its first run is finished by the next one, and the
    /// database equals that of an uninterrupted top-up.
    #[test]
    fn an_interrupted_top_up_is_finished_by_the_next() {
        let config = FeedConfig::parse(SCHEDULE).unwrap();
        let sunday = Date::parse("2026-11-29").unwrap();
        let whole = tempfile::tempdir().unwrap();
        let (mut store, db) = start(whole.path());
        top_up(&mut store, &db, &config, sunday, Some(11), 7).unwrap();
        drop(store);
        let reference = content(&db);
        assert!(reference.0.iter().all(|r| r.3), "{:?}", reference.0);

        let cut = tempfile::tempdir().unwrap();
        let (mut store, db) = start(cut.path());
        // The first short slot (killer-6-hard) is interrupted after its first chunk.
        let first = config.days.iter().flatten().min().unwrap().clone();
        let plan = plan(&db, &first, 11, 64).unwrap();
        let stop = never();
        let summary = pipeline::run(&mut store, &plan, &stop, |e| {
            if matches!(e, Event::Committed(_)) {
                stop.store(true, Ordering::SeqCst);
            }
        })
        .unwrap();
        assert!(summary.done < summary.total, "{summary:?}");
        let lines = top_up(&mut store, &db, &config, sunday, Some(11), 7).unwrap();
        assert!(
            lines[0].contains("finished an interrupted run"),
            "{lines:?}"
        );
        drop(store);
        assert_eq!(content(&db), reference);
    }

    #[test]
    fn without_a_seed_the_runs_take_the_date_as_yyyymmdd() {
        let config = FeedConfig::parse(&SCHEDULE.replace(
            "all = [\"killer-9-medium\"]\nsun = [\"killer-6-hard\", \"killer-6-hard\"]",
            "all = [\"killer-4-easy\"]",
        ))
        .unwrap();
        let dir = tempfile::tempdir().unwrap();
        let (mut store, db) = start(dir.path());
        let sunday = Date::parse("2026-11-29").unwrap();
        let lines = top_up(&mut store, &db, &config, sunday, None, 2).unwrap();
        assert!(
            !lines.is_empty() && lines.iter().all(|l| l.contains(" seed 20261129, ")),
            "{lines:?}"
        );
        let seeds: Vec<u64> = store.runs().unwrap().iter().map(|r| r.seed).collect();
        assert_eq!(seeds[1..], vec![20_261_129; seeds.len() - 1]);
    }

    #[test]
    fn demand_counts_at_most_the_horizon() {
        let config = FeedConfig::parse(SCHEDULE).unwrap();
        let day = Date::parse("2026-11-29").unwrap();
        let need = demand(&config, day, u64::MAX);
        let most = demand(&config, day, STOCK_HORIZON);
        assert_eq!(need, most);
    }
}
