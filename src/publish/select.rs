//! Choosing a book's puzzles, and a feed day's (`publish::issue_day` fills the day's slots as
//! sections): filters checked before any query, sections filled in id order through the store's
//! `Query`, never twice, issued puzzles and their equals left out ([`excluded_ids`], minus a
//! channel's own), and a shortfall told with what was found.

use super::error::id_list;
use super::PublishError;
use crate::geometry::MAX_SIZE;
use crate::grader::Level;
use crate::settings::parse_variant;
use crate::store::{Issued, Query, Store, StoredPuzzle};
use std::collections::HashSet;

/// A section asked for: its title and which puzzles.
#[derive(Clone, Debug)]
pub struct Wanted {
    /// Section title.
    pub title: String,
    /// Its filters and count (`exclude_issued` unused: see [`excluded_ids`]).
    pub query: Query,
}

/// A section chosen: its title and puzzles.
#[derive(Debug)]
pub struct Chosen {
    /// Section title.
    pub title: String,
    /// Its puzzles, in book order.
    pub puzzles: Vec<StoredPuzzle>,
}

/// Refuse a variant, size or level no puzzle can have; `at` says where it was given.
pub fn check_filters(
    variant: Option<&str>,
    size: Option<usize>,
    level: Option<&str>,
    at: &str,
) -> Result<(), PublishError> {
    let unknown = |what: String| PublishError::UnknownFilter {
        at: at.to_string(),
        what,
    };
    if let Some(v) = variant {
        parse_variant(v).map_err(|e| unknown(format!("unknown variant {e}")))?;
    }
    if let Some(n) = size {
        if !(1..=MAX_SIZE).contains(&n) {
            return Err(unknown(format!(
                "no grid has size {n}: use a size from 1 to {MAX_SIZE} (4, 6, 8, 9, 12 and 16 are the usual ones)"
            )));
        }
    }
    if let Some(l) = level {
        l.parse::<Level>().map_err(|e| unknown(e.to_string()))?;
    }
    Ok(())
}

/// Ids of the puzzles issued so far (by the feed or any book) or equal to one issued, except
/// `own` (the puzzles the book or day being made again issued itself).
pub fn excluded_ids(store: &Store, own: &[i64]) -> Result<HashSet<i64>, PublishError> {
    let own: HashSet<i64> = own.iter().copied().collect();
    Ok(store
        .issued_ids()?
        .into_iter()
        .filter(|id| !own.contains(id))
        .collect())
}

/// Fill each wanted section in order from `store`, in id order, leaving out `excluded` and the
/// puzzles of earlier sections; a section that cannot be filled is an error saying what was found.
pub fn select_sections(
    store: &Store,
    wanted: &[Wanted],
    excluded: &HashSet<i64>,
) -> Result<Vec<Chosen>, PublishError> {
    let mut taken = excluded.clone();
    let mut out = Vec::new();
    for w in wanted {
        let q = &w.query;
        let got = store.select(q, &taken)?;
        if got.len() < q.count {
            return Err(shortfall(store, w, got.len())?);
        }
        taken.extend(got.iter().map(|p| p.id));
        out.push(Chosen {
            title: w.title.clone(),
            puzzles: got,
        });
    }
    Ok(out)
}

fn shortfall(store: &Store, w: &Wanted, found: usize) -> Result<PublishError, PublishError> {
    let q = &w.query;
    let total = store.count_matching(q)? as usize;
    let note = if total > found {
        format!(" ({total} in the database, the others issued already or in earlier sections)")
    } else {
        String::new()
    };
    Ok(PublishError::Short {
        title: w.title.clone(),
        asked: q.count,
        what: describe(q),
        found,
        note,
    })
}

/// `killer 9x9 hard`, from the filters that are set ([`Query::describe`]), or `matching`.
fn describe(q: &Query) -> String {
    match q.describe() {
        any if any == "any" => "matching".into(),
        what => what,
    }
}

/// The puzzles named by `--ids`, in that order, as one section.
pub(super) fn by_ids(store: &Store, ids: &[i64]) -> Result<Chosen, PublishError> {
    let mut seen = HashSet::new();
    if let Some(&id) = ids.iter().find(|&&id| !seen.insert(id)) {
        return Err(PublishError::IdTwice(id));
    }
    match store.select_ids(ids)? {
        Ok(puzzles) => Ok(Chosen {
            title: "Puzzles".into(),
            puzzles,
        }),
        Err(missing) => Err(PublishError::NoSuchIds {
            ids: id_list(&missing),
        }),
    }
}

/// A book issued before as `name` (`own`, in book order) must be the one chosen now: the same
/// puzzles in the same sections and order.
pub(super) fn check_same_book(
    name: &str,
    own: &[Issued],
    chosen: &[Chosen],
) -> Result<(), PublishError> {
    let before: Vec<(&str, i64)> = own.iter().map(|i| (i.slot.as_str(), i.puzzle)).collect();
    let now: Vec<(&str, i64)> = chosen
        .iter()
        .flat_map(|c| c.puzzles.iter().map(|p| (c.title.as_str(), p.id)))
        .collect();
    if before == now {
        return Ok(());
    }
    let show = |rows: &[(&str, i64)]| {
        let ids: Vec<i64> = rows.iter().map(|r| r.1).collect();
        let shown = if ids.len() > 8 {
            format!("{}, ...", id_list(&ids[..8]))
        } else {
            id_list(&ids)
        };
        let plural = if ids.len() == 1 { "" } else { "s" };
        format!("{} puzzle{plural} ({shown})", ids.len())
    };
    Err(PublishError::OtherBook {
        name: name.to_string(),
        before: show(&before),
        now: show(&now),
    })
}
