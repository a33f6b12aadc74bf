//! Pagination: how many puzzles and answer grids a page holds at a readable size, and which page
//! holds what.

use super::trim::{body_for, gutter, TRIMS};
use super::{Answers, BookSettings, Entry, LayoutError, Rect, Section};
use crate::puzzle::Puzzle;

/// Space between puzzles on a page.
pub(super) const GAP: f32 = 18.0;
/// Caption line above a puzzle ("Puzzle 12", level).
pub(super) const CAPTION: f32 = 15.0;
/// Caption line above an answer grid.
pub(super) const KEY_CAPTION: f32 = 11.0;
/// Space between answer grids.
pub(super) const KEY_GAP: f32 = 14.0;
/// The largest cell of a puzzle grid, so a small grid alone on a page does not sprawl.
pub(super) const MAX_CELL: f32 = 60.0;
/// Smallest killer cell: a 7 pt sum is then at most 0.27 of the cell and clears the dashes.
pub const MIN_KILLER_CELL: f32 = 26.0;
/// Smallest cell of a plain or jigsaw puzzle: givens of 8.4 pt.
pub const MIN_PLAIN_CELL: f32 = 14.0;
/// Puzzles a page that the layout knows.
pub const PER_PAGE: [usize; 4] = [1, 2, 4, 6];

/// What a page holds, before drawing.
pub(super) enum Plan<'s, 'a> {
    Title,
    Rules,
    Puzzles {
        section: &'s Section<'a>,
        entries: &'s [Entry<'a>],
        first: bool,
    },
    Keys {
        title: String,
        entries: Vec<&'s Entry<'a>>,
        first: bool,
    },
}

/// Columns and rows of puzzle slots for `per_page`.
pub(super) fn slot_grid(per_page: usize) -> (usize, usize) {
    match per_page {
        1 => (1, 1),
        2 => (1, 2),
        4 => (2, 2),
        _ => (2, 3),
    }
}

/// The side of a puzzle grid of `per_page` puzzles in `body`, before capping at [`MAX_CELL`].
pub(super) fn slot_side(body: Rect, per_page: usize) -> f32 {
    let (cols, rows) = slot_grid(per_page);
    let w = (body.w - (cols - 1) as f32 * GAP) / cols as f32;
    let h = (body.h - (rows - 1) as f32 * GAP) / rows as f32 - CAPTION;
    w.min(h)
}

/// Answer grids a page (columns, rows) and their cell side, for grids of side `n`.
pub(super) fn key_grid(body: Rect, n: usize) -> Option<(usize, usize, f32)> {
    // The digits of a key are at least 7 pt: 0.6 of a 12 pt cell, or 0.5 of 15 pt for two digits.
    let min = if n > 9 { 15.0 } else { 12.0 };
    let nf = n as f32;
    let cols = ((body.w + KEY_GAP) / (nf * min + KEY_GAP)).floor() as usize;
    let rows = ((body.h + KEY_GAP) / (nf * min + KEY_CAPTION + KEY_GAP)).floor() as usize;
    if cols == 0 || rows == 0 {
        return None;
    }
    let w = (body.w - (cols - 1) as f32 * KEY_GAP) / cols as f32 / nf;
    let h = ((body.h - (rows - 1) as f32 * KEY_GAP) / rows as f32 - KEY_CAPTION) / nf;
    Some((cols, rows, w.min(h).min(20.0)))
}

fn min_cell(puzzle: &Puzzle) -> f32 {
    if puzzle.is_killer() {
        MIN_KILLER_CELL
    } else {
        MIN_PLAIN_CELL
    }
}

pub(super) fn kind(puzzle: &Puzzle) -> String {
    let n = puzzle.size();
    let name = match (puzzle.is_killer(), puzzle.geometry().is_jigsaw()) {
        (true, false) => "killer",
        (true, true) => "killer-jigsaw",
        (false, true) => "jigsaw",
        (false, false) => "classic",
    };
    format!("{name} {n}x{n}")
}

/// Check that every puzzle is readable at `per_page` in `body`; name what fits otherwise.
pub(super) fn check_readable(
    settings: &BookSettings,
    sections: &[Section],
    body: Rect,
) -> Result<(), LayoutError> {
    let worst = sections
        .iter()
        .flat_map(|s| &s.entries)
        .map(|e| e.puzzle)
        .max_by(|a, b| {
            let need = |p: &Puzzle| min_cell(p) * p.size() as f32;
            need(a).total_cmp(&need(b))
        })
        .ok_or(LayoutError::Empty)?;
    let need = min_cell(worst) * worst.size() as f32;
    let side = slot_side(body, settings.per_page);
    if side >= need {
        return Ok(());
    }
    let fits = PER_PAGE
        .iter()
        .rev()
        .find(|&&k| slot_side(body, k) >= need)
        .copied();
    let larger = TRIMS
        .iter()
        .filter(|t| {
            body_for(t, gutter(24)).w >= need && slot_side(body_for(t, gutter(24)), 1) >= need
        })
        .map(|t| t.name)
        .collect::<Vec<_>>();
    let hint = match fits {
        Some(k) => format!("use --per-page {k} or fewer"),
        None if larger.is_empty() => "no trim fits one such puzzle a page".to_string(),
        None => format!(
            "not even one fits this trim; use --trim {}",
            larger.join(" or ")
        ),
    };
    Err(LayoutError::TooSmall {
        per_page: settings.per_page,
        what: kind(worst),
        trim: settings.trim.name,
        cell: side / worst.size() as f32,
        min: min_cell(worst),
        hint,
    })
}

/// The page plan: which page holds what.
pub(super) fn plan<'s, 'a>(
    settings: &BookSettings,
    sections: &'s [Section<'a>],
    keys_a_page: usize,
    title_page: bool,
) -> Vec<Plan<'s, 'a>> {
    let mut plans = if title_page {
        vec![Plan::Title, Plan::Rules]
    } else {
        vec![Plan::Rules]
    };
    let keys = |plans: &mut Vec<Plan<'s, 'a>>, title: String, entries: Vec<&'s Entry<'a>>| {
        for (i, chunk) in entries.chunks(keys_a_page).enumerate() {
            plans.push(Plan::Keys {
                title: title.clone(),
                entries: chunk.to_vec(),
                first: i == 0,
            });
        }
    };
    for section in sections {
        for (i, chunk) in section.entries.chunks(settings.per_page).enumerate() {
            plans.push(Plan::Puzzles {
                section,
                entries: chunk,
                first: i == 0,
            });
        }
        if settings.answers == Answers::Section && !section.entries.is_empty() {
            keys(
                &mut plans,
                format!("Solutions: {}", section.title),
                section.entries.iter().collect(),
            );
        }
    }
    if settings.answers == Answers::End {
        let all = sections.iter().flat_map(|s| &s.entries).collect();
        keys(&mut plans, "Solutions".to_string(), all);
    }
    plans
}

/// The contents: each section's and each key's first page.
pub(super) fn contents(plans: &[Plan]) -> Vec<(String, usize)> {
    plans
        .iter()
        .enumerate()
        .filter_map(|(i, p)| match p {
            Plan::Puzzles {
                section,
                first: true,
                ..
            } => Some((section.title.clone(), i + 1)),
            Plan::Keys {
                title, first: true, ..
            } => Some((title.clone(), i + 1)),
            _ => None,
        })
        .collect()
}
