//! `feed --generate`: before a day is issued, grow the pools that would not last the coming days,
//! by extending one generation run per short slot (variant, size and target level) with the given
//! seed (work items `0..count` of that seed, `count` doubling until the stock suffices), so the
//! same database and seed always top up to the same puzzles.

use super::{stock, Date, FeedConfig, FeedError, Slot};
use crate::pipeline;
use crate::settings::{self, Origin, Overrides, Settings};
use crate::store::Store;
use std::collections::BTreeMap;
use std::path::Path;

/// Rounds of doubling before giving up on a rare level (64 items grow to at most 2048).
const ROUNDS: u32 = 6;

/// Puzzles each slot needs for `date` and the `days` after it.
pub fn demand(config: &FeedConfig, date: Date, days: u64) -> BTreeMap<String, u64> {
    let mut need = BTreeMap::new();
    for day in 0..=days {
        for slot in config.slots(date.add_days(day as i64)) {
            *need.entry(slot.to_string()).or_insert(0) += 1;
        }
    }
    need
}

/// Generate until every slot of the schedule has stock for `date` and the `days` after it (or
/// `ROUNDS` doublings pass); returns one line per generation run made.
pub fn top_up(
    store: &mut Store,
    db: &Path,
    config: &FeedConfig,
    date: Date,
    seed: u64,
    days: u64,
) -> Result<Vec<String>, FeedError> {
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
        let deficit = short(&stock(store, config)?);
        if deficit == 0 {
            continue;
        }
        let Slot {
            variant,
            size,
            level,
        } = slot;
        let mut count = (4 * deficit).max(64);
        for _ in 0..ROUNDS {
            let summary = generate(store, db, slot, seed, count)?;
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

/// Run (or extend) the run of `seed` for a slot's variant, size and level to `count` work items.
fn generate(
    store: &mut Store,
    db: &Path,
    slot: &Slot,
    seed: u64,
    count: u64,
) -> Result<pipeline::RunSummary, FeedError> {
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
    let plan = settings
        .validate("feed --generate", &Origin::Defaults)
        .map_err(|e| fail(e.to_string()))?;
    let never = std::sync::atomic::AtomicBool::new(false);
    pipeline::run(store, &plan, &never, |_| {}).map_err(|e| fail(e.to_string()))
}
