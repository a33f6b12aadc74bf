//! The finders of combination blocking: a virtual cage with the real cages holding its cells
//! (`cage_blocking`), and a band, a house or a line and a box with the cages crossing them
//! (`house_blocking`).

use super::search::{Budget, Joint, Sum, Verdict};
use crate::bitset::{CellSet, DigitSet};
use crate::geometry::{Cell, House};
use crate::grader::state::Board;
use crate::grader::step::{Step, Technique};
use crate::grader::techniques::context::{Context, Memo, BLOCKING_REFUND};
use crate::grader::techniques::sums::{source_text, Equations, Source};
use crate::grader::text::{cage_text, house_name};
use std::sync::Arc;

/// Search nodes one candidate's test may spend.
const CANDIDATE_NODES: usize = 10_000;
/// Search nodes one look of a rung (one call, all its joints) may spend; the next look starts
/// where this one stopped.
const LOOK_NODES: usize = 100_000;
/// Most cells a virtual cage and its cages may hold together.
const MAX_CAGE_JOINT: usize = 32;
/// Most cells a house (or a line and a region) and its cages may hold together.
const MAX_HOUSE_JOINT: usize = 36;
/// Most cells a band or stack (the lines of a row or column of boxes) and its cages may hold.
const MAX_BAND_JOINT: usize = 64;

/// Run `look` with the nodes it may spend (those of a look, at most what the puzzle has left)
/// and take what it spent off the puzzle's.
fn with_budget(
    ctx: &mut Context,
    out: &mut Vec<Step>,
    look: impl FnOnce(&mut Context, &mut Budget, &mut Vec<Step>),
) {
    let mut budget = Budget {
        per_candidate: CANDIDATE_NODES,
        left: LOOK_NODES.min(ctx.blocking_left),
    };
    let (before, steps) = (budget.left, out.len());
    look(ctx, &mut budget, out);
    ctx.blocking_left -= before - budget.left;
    // A look that moves earns nodes back: a puzzle these rungs crack keeps going, one they
    // cannot stops at the budget.
    let removed: usize = out[steps..].iter().map(|s| s.eliminations.len()).sum();
    ctx.blocking_left = ctx
        .blocking_left
        .saturating_add(removed.saturating_mul(BLOCKING_REFUND));
}

/// Add cage `k`'s empty cells and the sum they still need; false when the search is full.
pub(super) fn add_cage(board: &Board, joint: &mut Joint, k: usize, limit: usize) -> bool {
    let cage = &board.cages()[k];
    let mut rest = cage.sum as i32;
    let mut terms = Vec::with_capacity(cage.cells.len());
    for &c in &cage.cells {
        match board.placed(c) {
            Some(d) => rest -= d.get() as i32,
            None => {
                if joint.cells.len() == limit && !joint.cells.contains(&c) {
                    return false;
                }
                match joint.index_of(c, board.candidates(c).bits()) {
                    Some(i) => terms.push((i, 1)),
                    None => return false,
                }
            }
        }
    }
    if !terms.is_empty() {
        joint.sums.push(Sum { terms, total: rest });
    }
    true
}

/// Add house `h` (whose empty cells are in the joint) as a sum: its empty cells take the digits
/// not placed there, so each of those digits needs a place (hidden singles inside the search).
pub(super) fn add_house(board: &Board, joint: &mut Joint, h: House) {
    let mut total = (1..=board.size() as i32).sum::<i32>();
    let mut terms = Vec::with_capacity(board.size());
    for &c in board.house_cells(h) {
        match board.placed(c) {
            Some(d) => total -= d.get() as i32,
            None => terms.extend(joint.cells.iter().position(|&x| x == c).map(|i| (i, 1))),
        }
    }
    if terms.len() >= 2 {
        joint.sums.push(Sum { terms, total });
    }
}

/// Cells of the joint that share a house or a cage differ.
pub(super) fn add_differences(board: &Board, joint: &mut Joint) {
    let n = joint.cells.len();
    for a in 0..n {
        for b in a + 1..n {
            if board.sees(joint.cells[a], joint.cells[b]) {
                joint.differ(a, b);
            }
        }
    }
}

/// Most rule-of-45 equations added to a joint beside its own sums.
const MAX_EXTRA: usize = 12;

/// Add the rule-of-45 equations lying wholly in `zone` (whose empty cells are all in the joint):
/// every true sum there narrows the joint further (two rules at once).
pub(super) fn add_equations(
    ctx: &Context,
    board: &Board,
    joint: &mut Joint,
    zone: &CellSet,
    skip: usize,
) {
    let eqs = &ctx.equations;
    let mut added = 0;
    for (j, e) in eqs.list.iter().enumerate() {
        if added == MAX_EXTRA {
            break;
        }
        if j == skip || !eqs.sets[j].is_subset(zone) {
            continue;
        }
        let mut total = e.total;
        let mut terms = Vec::with_capacity(e.terms().len());
        for &(c, k) in e.terms() {
            match board.placed(c) {
                Some(d) => total -= k as i32 * d.get() as i32,
                None => match joint.cells.iter().position(|&x| x == c) {
                    Some(i) => terms.push((i, k)),
                    None => return,
                },
            }
        }
        if terms.len() >= 2 {
            joint.sums.push(Sum { terms, total });
            added += 1;
        }
    }
}

/// Run the joint search of item `slot` (its witnesses carried from look to look) and return the
/// eliminations it proves (`None` when it proves none).
fn eliminations(
    ctx: &mut Context,
    board: &Board,
    joint: &Joint,
    slot: usize,
    technique: Technique,
    budget: &mut Budget,
) -> Option<Step> {
    let seeds: Vec<Vec<u8>> = ctx
        .blocking_witnesses
        .get(&slot)
        .into_iter()
        .flatten()
        .filter_map(|w| {
            joint
                .cells
                .iter()
                .map(|&c| w.iter().find(|x| x.0 == c).map(|x| x.1))
                .collect()
        })
        .collect();
    let mut found = Vec::new();
    let verdict = joint.solve(budget, &seeds, &mut found);
    let kept = found
        .into_iter()
        .map(|values| joint.cells.iter().copied().zip(values).collect())
        .collect();
    ctx.blocking_witnesses.insert(slot, kept);
    let Verdict::Keep(keep) = verdict else {
        return None;
    };
    let mut step = Step::new(technique);
    for (&c, &k) in joint.cells.iter().zip(&keep) {
        let gone = DigitSet::from_bits(board.candidates(c).bits() & !k);
        step.eliminations.extend(gone.iter().map(|d| (c, d)));
    }
    step.is_progress().then_some(step)
}

/// `cells` and then the cells the step removes candidates from, each once.
fn with_eliminated(mut cells: Vec<Cell>, step: &Step) -> Vec<Cell> {
    for &(c, _) in &step.eliminations {
        if !cells.contains(&c) {
            cells.push(c);
        }
    }
    cells
}

/// "15(3) at r3c1 and 12(2) at r2c2".
fn cages_text(board: &Board, cages: &[usize]) -> String {
    let names: Vec<String> = cages
        .iter()
        .map(|&k| {
            let cage = &board.cages()[k];
            cage_text(board.geometry(), cage.sum, &cage.cells)
        })
        .collect();
    match names.len() {
        0 => String::new(),
        1 => names[0].clone(),
        n => format!("{} and {}", names[..n - 1].join(", "), names[n - 1]),
    }
}

/// Combination blocking: the innies/outies of one or several houses form a virtual cage (or a
/// known difference); taken together with the real cages holding its empty cells, a digit stays
/// only where some filling of the virtual cage and of those cages meets all their sums.
pub fn cage_blocking(ctx: &mut Context, board: &Board, out: &mut Vec<Step>) {
    if !ctx.equations.has_multi() {
        ctx.add_multi_equations(board.puzzle());
    }
    let eqs = Arc::clone(&ctx.equations);
    with_budget(ctx, out, |ctx, budget, out| {
        cage_looks(ctx, board, &eqs, budget, out)
    });
}

/// Combination blocking's joints, one per equation, from where the last look stopped.
fn cage_looks(
    ctx: &mut Context,
    board: &Board,
    eqs: &Equations,
    budget: &mut Budget,
    out: &mut Vec<Step>,
) {
    let len = eqs.list.len();
    let start = ctx.blocking_next[0];
    // An equation over several houses of a large grid can meet more cages than an `Inline` holds.
    let mut cages: Vec<usize> = Vec::new();
    for i in (0..len).map(|k| (start + k) % len) {
        if budget.left == 0 {
            // The look's nodes are spent: the next look starts here.
            ctx.blocking_next[0] = i;
            return;
        }
        let e = &eqs.list[i];
        let mut total = e.total;
        cages.clear();
        let mut empty = 0;
        for &(c, k) in e.terms() {
            match board.placed(c) {
                Some(d) => total -= k as i32 * d.get() as i32,
                None => {
                    empty += 1;
                    if let Some(cage) = board.cage_of(c) {
                        if !cages.contains(&cage) {
                            cages.push(cage);
                        }
                    }
                }
            }
        }
        if empty == 0 || cages.is_empty() {
            continue;
        }
        let zone = cages
            .iter()
            .fold(eqs.sets[i], |a, &k| a.union(&ctx.cage_sets[k]));
        if ctx.unchanged(board, Memo::CageBlocking, i, zone.iter()) {
            continue;
        }
        let mut joint = Joint::default();
        let mut terms = Vec::with_capacity(e.terms().len());
        for &(c, k) in e.terms() {
            if board.is_empty(c) {
                let at = joint.index_of(c, board.candidates(c).bits());
                terms.extend(at.map(|at| (at, k)));
            }
        }
        joint.sums.push(Sum { terms, total });
        if !cages
            .iter()
            .all(|&k| add_cage(board, &mut joint, k, MAX_CAGE_JOINT))
        {
            ctx.remember(board, Memo::CageBlocking, i);
            continue;
        }
        add_equations(ctx, board, &mut joint, &zone, i);
        add_differences(board, &mut joint);
        let slot = board.geometry().house_count() + i;
        let found = eliminations(
            ctx,
            board,
            &joint,
            slot,
            Technique::CombinationBlocking,
            budget,
        );
        let Some(mut step) = found else {
            if budget.left > 0 {
                ctx.remember(board, Memo::CageBlocking, i);
            }
            continue;
        };
        if board.explaining() {
            step.reason = format!(
                "virtual cage {} with {}: only fillings that fit them all are left",
                source_text(board, eqs, Source::Equation(i as u32)),
                cages_text(board, &cages)
            );
            // The virtual cage and the cells that lose candidates (the joint's other cells are
            // named by their cages: a page carries every step's cells).
            let mut cells: Vec<Cell> = e.terms().iter().map(|t| t.0).collect();
            cells.retain(|&c| board.is_empty(c));
            step.cells = with_eliminated(cells, &step);
            step.cages = cages.to_vec();
            step.houses = eqs.houses(e).to_vec();
        }
        // One step a look, as a person takes it; the next look starts after this joint.
        out.push(step);
        ctx.blocking_next[0] = (i + 1) % len;
        return;
    }
}

/// Cage interactions: a house holds each digit once, and the cages crossing it must still make
/// their sums outside it; a digit stays only where some filling of the houses (a band or stack:
/// the lines of a row or column of boxes; one house; a line and a box it crosses) and of every
/// cage touching them meets all of that at once.
pub fn house_blocking(ctx: &mut Context, board: &Board, out: &mut Vec<Step>) {
    with_budget(ctx, out, |ctx, budget, out| {
        house_looks(ctx, board, budget, out)
    });
}

/// Cage interactions' joints: the bands and stacks, then (when they give nothing) the houses,
/// then the line-region pairs, each from where the last look stopped.
fn house_looks(ctx: &mut Context, board: &Board, budget: &mut Budget, out: &mut Vec<Step>) {
    // First the bands and stacks (the lines of a row or column of boxes): on the hardest
    // killers they move most for their nodes.
    let bands = bands(board);
    let start = ctx.blocking_next[3];
    for b in (0..bands.len()).map(|k| (start + k) % bands.len().max(1)) {
        if budget.left == 0 {
            ctx.blocking_next[3] = b;
            return;
        }
        let zone = joint_zone(ctx, board, &bands[b]);
        if ctx.unchanged(board, Memo::BandBlocking, b, zone.iter()) {
            continue;
        }
        if look(
            ctx,
            board,
            &bands[b],
            (BAND_SLOTS + b, Memo::BandBlocking, b),
            budget,
            out,
        ) {
            ctx.blocking_next[3] = (b + 1) % bands.len();
            return;
        }
    }
    let count = board.geometry().house_count();
    let start = ctx.blocking_next[1];
    for h in (0..count).map(|k| (start + k) % count) {
        if budget.left == 0 {
            ctx.blocking_next[1] = h;
            return;
        }
        if ctx.unchanged_house_and_cages(board, Memo::HouseBlocking, h) {
            continue;
        }
        if look(
            ctx,
            board,
            &[House::new(h as u8)],
            (h, Memo::HouseBlocking, h),
            budget,
            out,
        ) {
            ctx.blocking_next[1] = (h + 1) % count;
            return;
        }
    }
    // Then a line and a region it crosses, taken together.
    let n = board.geometry().size();
    let pairs: Vec<(House, House)> = (0..2 * n)
        .flat_map(|line| (2 * n..3 * n).map(move |region| (line, region)))
        .map(|(a, b)| (House::new(a as u8), House::new(b as u8)))
        .filter(|&(a, b)| board.house_set(a).intersects(board.house_set(b)))
        .collect();
    let start = ctx.blocking_next[2];
    for p in (0..pairs.len()).map(|k| (start + k) % pairs.len()) {
        if budget.left == 0 {
            ctx.blocking_next[2] = p;
            return;
        }
        let (a, b) = pairs[p];
        let item = a.as_index() * count + b.as_index();
        let zone = joint_zone(ctx, board, &[a, b]);
        if ctx.unchanged(board, Memo::PairBlocking, item, zone.iter()) {
            continue;
        }
        let slot = (PAIR_SLOTS + item, Memo::PairBlocking, item);
        if look(ctx, board, &[a, b], slot, budget, out) {
            ctx.blocking_next[2] = (p + 1) % pairs.len();
            return;
        }
    }
}

/// The cells of `houses` and of every cage meeting them: what a look at them together reads.
fn joint_zone(ctx: &Context, board: &Board, houses: &[House]) -> CellSet {
    let zone = houses
        .iter()
        .fold(CellSet::EMPTY, |a, &h| a.union(board.house_set(h)));
    (0..board.cages().len())
        .filter(|&k| ctx.cage_sets[k].intersects(&zone))
        .fold(zone, |z, k| z.union(&ctx.cage_sets[k]))
}

/// One look at `houses` with the cages crossing them (witness slot, memo kind and item in
/// `slot`): its step into `out` (`true`), or, when the look ran to its end within the budget,
/// the candidates it saw remembered so an unchanged joint is not searched again.
fn look(
    ctx: &mut Context,
    board: &Board,
    houses: &[House],
    (slot, memo, item): (usize, Memo, usize),
    budget: &mut Budget,
    out: &mut Vec<Step>,
) -> bool {
    match houses_step(ctx, board, houses, slot, budget) {
        Some(step) => {
            out.push(step);
            true
        }
        None => {
            if budget.left > 0 {
                ctx.remember(board, memo, item);
            }
            false
        }
    }
}

/// Witness slots of the house pairs start here (after those of the houses and equations).
const PAIR_SLOTS: usize = 1 << 24;
/// Witness slots of the bands and stacks start here (after those of the pairs).
const BAND_SLOTS: usize = 1 << 25;

/// The bands and stacks of a boxed grid: the rows of each row of boxes, the columns of each
/// column of boxes (none on a jigsaw, whose regions do not line up, and none above 9x9: a band
/// there is 36 to 64 cells, and looking at them made the 12x12 default batch cost 1.5x the CPU
/// of the build before bands, against 1.3x without them; they were measured on 9x9 only).
fn bands(board: &Board) -> Vec<Vec<House>> {
    let g = board.geometry();
    let Some((rows, cols)) = g.box_shape() else {
        return Vec::new();
    };
    let n = g.size();
    if n > 9 {
        return Vec::new();
    }
    let rows = (0..n / rows).map(|b| (b * rows..(b + 1) * rows).collect::<Vec<_>>());
    let cols = (0..n / cols).map(|b| (n + b * cols..n + (b + 1) * cols).collect::<Vec<_>>());
    rows.chain(cols)
        .map(|lines| lines.into_iter().map(|h| House::new(h as u8)).collect())
        .collect()
}

/// The step of some houses and the cages crossing them, at the rungs' budget a candidate and
/// without a limit on the look (tests).
#[cfg(test)]
pub(crate) fn houses_joint_step(
    ctx: &mut Context,
    board: &Board,
    houses: &[House],
) -> Option<Step> {
    let mut budget = Budget {
        per_candidate: CANDIDATE_NODES,
        left: usize::MAX / 2,
    };
    houses_step(ctx, board, houses, usize::MAX, &mut budget)
}

/// The step of some houses taken together, if the cages crossing them give one.
pub(super) fn houses_step(
    ctx: &mut Context,
    board: &Board,
    houses: &[House],
    slot: usize,
    budget: &mut Budget,
) -> Option<Step> {
    let limit = match houses.len() {
        1 | 2 => MAX_HOUSE_JOINT,
        _ => MAX_BAND_JOINT,
    };
    let inside = houses
        .iter()
        .fold(CellSet::EMPTY, |a, &h| a.union(board.house_set(h)));
    // A band of a 12x12 or 16x16 grid can meet more cages than an `Inline` holds.
    let mut cages: Vec<usize> = Vec::new();
    let mut crossing = false;
    let mut joint = Joint::default();
    for c in inside.iter() {
        if !board.is_empty(c) {
            continue;
        }
        joint.index_of(c, board.candidates(c).bits())?;
        let Some(k) = board.cage_of(c) else { continue };
        if !cages.contains(&k) {
            cages.push(k);
            crossing |= board.cages()[k]
                .cells
                .iter()
                .any(|&x: &Cell| board.is_empty(x) && !inside.contains(x));
        }
    }
    if !crossing {
        return None;
    }
    for &k in cages.iter() {
        if !add_cage(board, &mut joint, k, limit) {
            return None;
        }
    }
    for &h in houses {
        add_house(board, &mut joint, h);
    }
    let zone = cages
        .iter()
        .fold(inside, |a, &k| a.union(&ctx.cage_sets[k]));
    add_equations(ctx, board, &mut joint, &zone, usize::MAX);
    add_differences(board, &mut joint);
    let mut step = eliminations(ctx, board, &joint, slot, Technique::CageInteraction, budget)?;
    if board.explaining() {
        let names: Vec<String> = houses
            .iter()
            .map(|&h| house_name(board.geometry(), h))
            .collect();
        let names = match names.split_last() {
            Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
            _ => names.concat(),
        };
        step.reason = format!(
            "{} with the cages crossing {} ({}): only fillings that fit them all are left",
            names,
            match houses.len() {
                1 => "it",
                _ => "them",
            },
            cages_text(board, &cages)
        );
        step.cells = with_eliminated(Vec::new(), &step);
        step.cages = cages.to_vec();
        step.houses = houses.to_vec();
    }
    Some(step)
}
