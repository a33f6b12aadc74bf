//! Must-contain digits: a digit every combination of a cage needs, confined to cells that all
//! see some other cell, leaves that cell (cage pointing); and a digit whose places in a house all
//! lie in one cage must be in that cage (cage/house overlap), which kills the cage's combinations
//! without it and removes it from the cage's cells outside the house.

use super::cage_view::CageView;
use super::context::{Context, Memo};
use crate::bitset::DigitSet;
use crate::geometry::{Digit, House};
use crate::grader::state::Board;
use crate::grader::step::{Step, Technique};
use crate::grader::text::{house_name, set_text};

/// Cage pointing: a digit in every combination of a cage leaves the cells that see all its places
/// in the cage.
pub fn cage_pointing(ctx: &mut Context, board: &Board, out: &mut Vec<Step>) {
    let n = board.size();
    // What a cage yields depends on its own cells; the cells it clears only lose candidates, so
    // a cage that yielded nothing yields nothing while it is unchanged.
    for k in 0..board.cages().len() {
        if ctx.unchanged_cage(board, Memo::CagePointing, k) {
            continue;
        }
        let Some(v) = CageView::of(board, k) else {
            continue;
        };
        let before = out.len();
        let live = v.live(n);
        let Some(must) = live.iter().copied().reduce(|a, b| a & b) else {
            continue;
        };
        for d in DigitSet::from_bits(must).iter() {
            let spots: Vec<_> = v
                .cells
                .iter()
                .zip(v.cands.iter())
                .filter(|(_, &c)| c & (1 << d.as_index()) != 0)
                .map(|(&c, _)| c)
                .collect();
            let targets: Vec<_> = ctx
                .seen_by_all(spots.iter().copied())
                .difference(&ctx.cage_sets[k])
                .iter()
                .filter(|&x| board.is_empty(x) && board.candidates(x).contains(d))
                .collect();
            if targets.is_empty() {
                continue;
            }
            let mut step = Step::new(Technique::MustContain);
            step.eliminations = targets.iter().map(|&x| (x, d)).collect();
            if board.explaining() {
                step.cells = spots;
                step.cages.push(k);
                step.reason = format!(
                    "every combination of {} holds a {}, and its {} can only be in {}",
                    v.name(board),
                    d.get(),
                    d.get(),
                    crate::grader::text::cells_text(board.geometry(), &step.cells)
                );
            }
            out.push(step);
        }
        if out.len() == before {
            ctx.remember(board, Memo::CagePointing, k);
        }
    }
}

/// Cage/house overlap: the places of a digit in a house all lie in one cage, so that cage holds
/// the digit there: its combinations without it die, and its cells outside the house lose it.
pub fn cage_house_overlap(ctx: &mut Context, board: &Board, out: &mut Vec<Step>) {
    let n = board.size();
    for h in 0..3 * n {
        if ctx.unchanged_house_and_cages(board, Memo::CageHouseOverlap, h) {
            continue;
        }
        let before = out.len();
        let house = House::new(h as u8);
        // One pass: per digit, the single cage holding all its places (or none).
        let mut owner = [None::<usize>; 16];
        let mut mixed = 0u16;
        for c in board.house_set(house).iter() {
            if !board.is_empty(c) {
                continue;
            }
            let k = board.cage_of(c);
            for d in board.candidates(c).iter() {
                let i = d.as_index();
                match (k, owner[i]) {
                    (None, _) => mixed |= 1 << i,
                    (Some(k), None) => owner[i] = Some(k),
                    (Some(k), Some(o)) if k != o => mixed |= 1 << i,
                    _ => {}
                }
            }
        }
        for (i, o) in owner.iter().enumerate().take(n) {
            let Some(k) = *o else { continue };
            if mixed & (1 << i) != 0 {
                continue;
            }
            // The cage yielded nothing for this digit here and has not changed since.
            let slot = h * 16 + i;
            let (at, was) = ctx.overlap[slot];
            if at != 0 && was as usize == k && !board.cage_changed_since(k, at) {
                continue;
            }
            match overlap_step(board, house, Digit::new(i as u8 + 1), k) {
                Some(step) => out.push(step),
                None => ctx.overlap[slot] = (board.clock(), k as u32),
            }
        }
        if out.len() == before {
            ctx.remember(board, Memo::CageHouseOverlap, h);
        }
    }
}

fn overlap_step(board: &Board, house: House, d: Digit, k: usize) -> Option<Step> {
    let v = CageView::of(board, k)?;
    let bit = 1u16 << d.as_index();
    if v.placed & bit != 0 {
        return None;
    }
    let live = v.live(board.size());
    let with: Vec<u16> = live.iter().copied().filter(|m| m & bit != 0).collect();
    let may = with.iter().fold(0, |a, &m| a | m);
    let inside = board.house_set(house);
    let mut step = Step::new(Technique::MustContain);
    for (&c, &cands) in v.cells.iter().zip(v.cands.iter()) {
        let mut gone = cands & !may;
        if !inside.contains(c) {
            gone |= cands & bit;
        }
        step.eliminations
            .extend(DigitSet::from_bits(gone).iter().map(|x| (c, x)));
    }
    if step.eliminations.is_empty() {
        return None;
    }
    if !board.explaining() {
        return Some(step);
    }
    let dead: Vec<String> = live
        .iter()
        .filter(|&&m| m & bit == 0)
        .map(|&m| set_text(DigitSet::from_bits(m)))
        .collect();
    step.cells = v.cells.to_vec();
    step.cages.push(k);
    step.houses.push(house);
    step.reason = format!(
        "the {} of {} can only go in {}, so that cage holds it{}",
        d.get(),
        house_name(board.geometry(), house),
        v.name(board),
        match dead.is_empty() {
            true => String::new(),
            false => format!(" ({} impossible)", dead.join(", ")),
        }
    );
    Some(step)
}
