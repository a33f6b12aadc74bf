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

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    /// One puzzle of the 4x4 killers of `level`, titled `title`.
    fn slot(title: &str, level: &str) -> Wanted {
        Wanted {
            title: title.into(),
            query: Query {
                variant: Some("killer".into()),
                size: Some(4),
                levels: vec![level.into()],
                count: 1,
                ..Query::default()
            },
        }
    }

    #[test]
    fn a_day_takes_the_next_unissued_puzzles_of_its_pools_once() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("d.db");
        crate::test_support::generate_4x4_killers(&path, 16, 5);
        let mut store = Store::open_or_create(&path).unwrap();
        let all = store.select(&Query::all(), &HashSet::new()).unwrap();
        // The commonest level is the pool.
        let level = all
            .iter()
            .map(|p| &p.level)
            .max_by_key(|l| all.iter().filter(|p| &p.level == *l).count())
            .unwrap()
            .clone();
        let pool: Vec<i64> = all
            .iter()
            .filter(|p| p.level == level)
            .map(|p| p.id)
            .collect();
        assert!(pool.len() >= 4, "{pool:?}");
        let ids = |rows: &[Issued]| rows.iter().map(|r| r.puzzle).collect::<Vec<_>>();
        let a = slot("a", &level);

        // A slot named twice takes the pool's first two puzzles, in the day's order.
        let day1 = match issue_day(&mut store, "f", "2026-12-01", 1, &[a.clone(), a.clone()]) {
            Ok(DayIssue::Drawn(rows)) => rows,
            other => panic!("{other:?}"),
        };
        assert_eq!(ids(&day1), pool[..2]);
        assert_eq!(day1.iter().map(|r| r.position).collect::<Vec<_>>(), [0, 1]);
        // The same day again is the day as issued; the next day goes on in the pool.
        let again = issue_day(&mut store, "f", "2026-12-01", 1, std::slice::from_ref(&a)).unwrap();
        assert_eq!(again, DayIssue::Existing(day1));
        let day2 = issue_day(&mut store, "f", "2026-12-02", 2, std::slice::from_ref(&a)).unwrap();
        assert!(matches!(&day2, DayIssue::Drawn(rows) if ids(rows) == pool[2..3]));

        // A day that needs more than the pool holds is short by the whole need; nothing is kept.
        let need = vec![a.clone(); pool.len()];
        match issue_day(&mut store, "f", "2026-12-03", 3, &need) {
            Err(PublishError::Short {
                title,
                asked,
                found,
                ..
            }) => assert_eq!(
                (title.as_str(), asked, found),
                ("a", pool.len(), pool.len() - 3)
            ),
            other => panic!("{other:?}"),
        }
        assert!(store.issued_on("f", "2026-12-03").unwrap().is_empty());
        // A book cannot take a puzzle the feed gave out.
        let refused = store.issue_book("b", &[("S".into(), pool[0], 1)]).unwrap();
        assert_eq!(refused, Err(vec![pool[0]]));
    }
}
