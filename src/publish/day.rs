//! Giving a feed day out: under the database's write lock, the day's puzzles as issued before,
//! or its slots filled by the books' selection ([`select_sections`]: in id order, issued puzzles
//! and their equals left out) and recorded by the store's one path ([`Store::record_issued`]) in
//! the same transaction, so two processes issuing the same day cannot both draw, and runs for
//! different days never draw the same puzzle.

use super::error::id_list;
use super::{excluded_ids, select_sections, PublishError, Wanted};
use crate::store::{Issued, Query, Store};

/// What [`issue_day`] did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DayIssue {
    /// The day was issued before: its puzzles, as stored (nothing was drawn).
    Existing(Vec<Issued>),
    /// The day's puzzles, drawn now and recorded.
    Drawn(Vec<Issued>),
}

/// Issue the day `date` of feed `channel`, numbered `number`: the stored puzzles when the day was
/// issued before, else `slots` (in the day's order; each slot's title is recorded with its
/// puzzles, and a slot named twice takes the next puzzles of its pool). A slot whose pool is
/// short is [`PublishError::Short`], with nothing recorded.
pub fn issue_day(
    store: &mut Store,
    channel: &str,
    date: &str,
    number: i64,
    slots: &[Wanted],
) -> Result<DayIssue, PublishError> {
    store.with_write_lock(|store| {
        let existing = store.issued_on(channel, date)?;
        if !existing.is_empty() {
            return Ok(DayIssue::Existing(existing));
        }
        // One section per pool, asking for every puzzle the day takes from it, so that a
        // shortfall counts the whole day's need.
        let mut pools: Vec<Wanted> = Vec::new();
        let pool_of: Vec<usize> = slots
            .iter()
            .map(|s| match pools.iter().position(|p| same_pool(p, s)) {
                Some(k) => {
                    pools[k].query.count += s.query.count;
                    k
                }
                None => {
                    pools.push(s.clone());
                    pools.len() - 1
                }
            })
            .collect();
        let chosen = select_sections(store, &pools, &excluded_ids(store, &[])?)?;
        let mut picks: Vec<_> = chosen.into_iter().map(|c| c.puzzles.into_iter()).collect();
        let mut entries = Vec::new();
        for (slot, &k) in slots.iter().zip(&pool_of) {
            for p in picks[k].by_ref().take(slot.query.count) {
                entries.push((slot.title.clone(), p.id, number));
            }
        }
        match store.record_issued(channel, Some(date), &entries)? {
            Ok(rows) => Ok(DayIssue::Drawn(rows)),
            Err(refused) => Err(PublishError::DrawnMeanwhile {
                channel: channel.to_string(),
                date: date.to_string(),
                ids: id_list(&refused),
            }),
        }
    })
}

/// Do two slots draw from the same pool (the same title and filters)?
fn same_pool(a: &Wanted, b: &Wanted) -> bool {
    let filters = |w: &Wanted| Query {
        count: 0,
        ..w.query.clone()
    };
    a.title == b.title && filters(a) == filters(b)
}
