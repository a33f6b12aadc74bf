//! The finders of combination blocking: a virtual cage with the real cages holding its cells
//! (`cage_blocking`), and a house with the cages crossing it (`house_blocking`).

use super::search::{Joint, Sum, Verdict};
use crate::bitset::{CellSet, DigitSet};
use crate::geometry::{Cell, House};
use crate::grader::state::Board;
use crate::grader::step::{Step, Technique};
use crate::grader::techniques::cage_view::Inline;
use crate::grader::techniques::context::{Context, Memo};
use crate::grader::techniques::sums::{source_text, Source};
use crate::grader::text::{cage_text, house_name};
use std::sync::Arc;

/// Search nodes one candidate's test may spend.
const NODES: usize = 10_000;
/// Most cells a virtual cage and its cages may hold together.
const MAX_CAGE_JOINT: usize = 32;
/// Most cells a house and its cages may hold together.
const MAX_HOUSE_JOINT: usize = 36;

/// Add cage `k`'s empty cells and the sum they still need; false when the search is full.
fn add_cage(board: &Board, joint: &mut Joint, k: usize, limit: usize) -> bool {
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

/// Cells of the joint that share a house or a cage differ.
fn add_differences(board: &Board, joint: &mut Joint) {
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
fn add_equations(ctx: &Context, board: &Board, joint: &mut Joint, zone: &CellSet, skip: usize) {
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
    let verdict = joint.solve(NODES, &seeds, &mut found);
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
    for (i, e) in eqs.list.iter().enumerate() {
        let mut total = e.total;
        let mut cages = Inline::new(0usize);
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
        let Some(mut step) = eliminations(ctx, board, &joint, slot, Technique::CombinationBlocking)
        else {
            ctx.remember(board, Memo::CageBlocking, i);
            continue;
        };
        if board.explaining() {
            step.reason = format!(
                "{} is a virtual cage; with {} holding its cells, only the combinations that fit \
                 all of them together are left",
                source_text(board, &eqs, Source::Equation(i as u32)),
                cages_text(board, &cages)
            );
            step.cells = joint.cells.clone();
            step.cages = cages.to_vec();
            step.houses = eqs.houses(e).to_vec();
        }
        out.push(step);
    }
}

/// Cage interactions: a house holds each digit once, and the cages crossing it must still make
/// their sums outside it; a digit stays only where some filling of the house and of every cage
/// touching it meets all of that at once.
pub fn house_blocking(ctx: &mut Context, board: &Board, out: &mut Vec<Step>) {
    let count = board.geometry().house_count();
    for h in 0..count {
        let house = House::new(h as u8);
        if ctx.unchanged_house_and_cages(board, Memo::HouseBlocking, h) {
            continue;
        }
        match houses_step(ctx, board, &[house], h) {
            Some(step) => out.push(step),
            None => ctx.remember(board, Memo::HouseBlocking, h),
        }
    }
    if !out.is_empty() {
        return;
    }
    // Then a line and a region it crosses, taken together.
    let g = board.geometry();
    let n = g.size();
    for line in 0..2 * n {
        for region in 2 * n..3 * n {
            let (a, b) = (House::new(line as u8), House::new(region as u8));
            if !board.house_set(a).intersects(board.house_set(b)) {
                continue;
            }
            let item = line * count + region;
            let zone = board.house_set(a).union(board.house_set(b));
            let zone = (0..board.cages().len())
                .filter(|&k| ctx.cage_sets[k].intersects(&zone))
                .fold(zone, |z, k| z.union(&ctx.cage_sets[k]));
            if ctx.unchanged(board, Memo::PairBlocking, item, zone.iter()) {
                continue;
            }
            match houses_step(ctx, board, &[a, b], PAIR_SLOTS + item) {
                Some(step) => out.push(step),
                None => ctx.remember(board, Memo::PairBlocking, item),
            }
        }
    }
}

/// Witness slots of the house pairs start here (after those of the houses and equations).
const PAIR_SLOTS: usize = 1 << 24;

/// The step of some houses taken together, if the cages crossing them give one.
fn houses_step(ctx: &mut Context, board: &Board, houses: &[House], slot: usize) -> Option<Step> {
    let inside = houses
        .iter()
        .fold(CellSet::EMPTY, |a, &h| a.union(board.house_set(h)));
    let mut cages = Inline::new(0usize);
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
        if !add_cage(board, &mut joint, k, MAX_HOUSE_JOINT) {
            return None;
        }
    }
    let zone = cages
        .iter()
        .fold(inside, |a, &k| a.union(&ctx.cage_sets[k]));
    add_equations(ctx, board, &mut joint, &zone, usize::MAX);
    add_differences(board, &mut joint);
    let mut step = eliminations(ctx, board, &joint, slot, Technique::CageInteraction)?;
    if board.explaining() {
        let names: Vec<String> = houses
            .iter()
            .map(|&h| house_name(board.geometry(), h))
            .collect();
        step.reason = format!(
            "{} {} each digit once and {} must still make their sums; only the combinations \
             that fit all of them together are left",
            names.join(" and "),
            match houses.len() {
                1 => "holds",
                _ => "hold",
            },
            cages_text(board, &cages)
        );
        step.cells = joint.cells.clone();
        step.cages = cages.to_vec();
        step.houses = houses.to_vec();
    }
    Some(step)
}
