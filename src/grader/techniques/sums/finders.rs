//! The finders of the rule-of-45 techniques and of sum algebra: evaluate the equations whose
//! cells changed, and turn what an evaluation keeps into a step with its reason.

use super::evaluate::{evaluate, Solutions};
use super::{slot, technique_of, Equation, Equations, Kind, Source, MAX_UNKNOWN};
use crate::bitset::{CellSet, DigitSet};
use crate::geometry::{Cell, Digit, House};
use crate::grader::state::Board;
use crate::grader::step::{Step, Technique};
use crate::grader::techniques::context::{Context, Memo};
use crate::grader::text::{cage_text, house_name, signed_sum_text};
use std::sync::Arc;

/// "r1c4 + r1c5 - r2c6 = 9" over all the equation's cells, placed ones included.
fn equation_text(board: &Board, e: &Equation) -> String {
    signed_sum_text(board.geometry(), e.terms(), e.total)
}

fn region_text(board: &Board, houses: &[House]) -> String {
    let names: Vec<String> = houses
        .iter()
        .map(|&h| house_name(board.geometry(), h))
        .collect();
    match names.len() {
        0 => String::new(),
        1 => names[0].clone(),
        _ => format!(
            "{} and {}",
            names[..names.len() - 1].join(", "),
            names[names.len() - 1]
        ),
    }
}

/// Evaluate the equations that `technique` covers, pushing a step for each that removes something.
fn find(ctx: &mut Context, board: &Board, technique: Technique, out: &mut Vec<Step>) {
    let Some(slot) = slot(technique) else {
        return;
    };
    if slot == 3 && !ctx.equations.has_multi() {
        ctx.add_multi_equations(board.puzzle());
    }
    let eqs = Arc::clone(&ctx.equations);
    // An equation none of whose cells changed since this technique's last look ends as it did
    // then (skipped, or found nothing: a step it found was applied and changed its cells), and
    // its memo with it (a look that finds nothing there again remembers nothing new).
    let changed = changes_since_look(board, &mut ctx.equation_look[slot]);
    for &i in &eqs.by_technique[slot] {
        let i = i as usize;
        if !eqs.sets[i].intersects(&changed) {
            continue;
        }
        let e = &eqs.list[i];
        if ctx.unchanged(board, Memo::Equation, i, e.terms().iter().map(|t| t.0)) {
            continue;
        }
        let unknown = e.terms().iter().filter(|t| board.is_empty(t.0)).count();
        if unknown == 0 || technique_of(e, unknown) != technique {
            continue;
        }
        let found = evaluate(board, e, &mut ctx.witnesses[i]);
        match found.and_then(|s| step_of(board, &eqs, e, s, technique)) {
            Some(step) => out.push(step),
            None => ctx.remember(board, Memo::Equation, i),
        }
    }
}

/// The eliminations and placements of an evaluation (`None` when it changes nothing).
fn conclusions(board: &Board, s: &Solutions, technique: Technique) -> Option<Step> {
    let keeps = &s.keep[..s.len];
    if keeps.contains(&0) {
        return None;
    }
    let mut step = Step::new(technique);
    for (&c, &keep) in s.cells[..s.len].iter().zip(keeps) {
        let cands = board.candidates(c).bits();
        if keep.count_ones() == 1 && cands != keep {
            step.placements
                .push((c, Digit::new(keep.trailing_zeros() as u8 + 1)));
        } else {
            step.eliminations
                .extend(DigitSet::from_bits(cands & !keep).iter().map(|d| (c, d)));
        }
    }
    if !step.is_progress() {
        return None;
    }
    if board.explaining() {
        step.cells = s.cells[..s.len].to_vec();
    }
    Some(step)
}

fn step_of(
    board: &Board,
    eqs: &Equations,
    e: &Equation,
    s: Solutions,
    technique: Technique,
) -> Option<Step> {
    let mut step = conclusions(board, &s, technique)?;
    let houses = eqs.houses(e);
    if board.explaining() {
        let n = board.size() as i32;
        let whole = houses.len() as i32 * n * (n + 1) / 2;
        let region = region_text(board, houses);
        let equation = equation_text(board, e);
        step.reason = match e.kind {
            Kind::Innies => format!(
                "{region} totals {whole} and its whole cages {}, so the innies {equation}",
                whole - e.total
            ),
            Kind::Outies => format!(
                "the cages covering {region} total {}, {} more than its {whole}, so the outies {equation}",
                whole + e.total,
                e.total
            ),
            Kind::Difference => format!(
                "the cages over {region} total {} against its {whole}, so outies minus innies: {equation}",
                whole + e.total
            ),
            Kind::Split => format!(
                "splitting a cage at the innies/outies of {region} leaves its rest {equation}"
            ),
            Kind::Algebra => String::new(),
        };
    }
    if board.explaining() {
        step.cages = e.cages(&eqs.regions);
        step.houses = houses.to_vec();
    }
    Some(step)
}

/// Single-cell innie or outie of one house.
pub fn single_innie_outie(ctx: &mut Context, board: &Board, out: &mut Vec<Step>) {
    find(ctx, board, Technique::SingleInnieOutie, out)
}
/// Several innies or outies of one house (a derived cage), and cage splitting.
pub fn multi_innie_outie(ctx: &mut Context, board: &Board, out: &mut Vec<Step>) {
    find(ctx, board, Technique::MultiInnieOutie, out)
}
/// Innies and outies of one house together: a known difference.
pub fn innie_outie_difference(ctx: &mut Context, board: &Board, out: &mut Vec<Step>) {
    find(ctx, board, Technique::InnieOutieDifference, out)
}
/// Words for a sum-algebra parent: "the innies of row 1: r1c8 + r1c9 = 10".
pub(crate) fn source_text(board: &Board, eqs: &Equations, source: Source) -> String {
    match source {
        Source::Cage(k) => {
            let cage = &board.cages()[k as usize];
            let mut terms: Vec<(Cell, i8)> = cage.cells.iter().map(|&c| (c, 1)).collect();
            terms.sort();
            format!(
                "cage {}: {}",
                cage_text(board.geometry(), cage.sum, &cage.cells),
                signed_sum_text(board.geometry(), &terms, cage.sum as i32)
            )
        }
        Source::Equation(i) => {
            let e = &eqs.list[i as usize];
            let region = region_text(board, eqs.houses(e));
            let what = match e.kind {
                Kind::Innies => format!("the innies of {region}"),
                Kind::Outies => format!("the outies of {region}"),
                Kind::Difference => format!("outies minus innies of {region}"),
                Kind::Split | Kind::Algebra => format!("a cage split at {region}"),
            };
            format!("{what}: {}", equation_text(board, e))
        }
    }
}

/// Cages and houses a sum-algebra parent rests on.
fn source_places(eqs: &Equations, source: Source, step: &mut Step) {
    let (cages, houses) = match source {
        Source::Cage(k) => (vec![k as usize], Vec::new()),
        Source::Equation(i) => {
            let e = &eqs.list[i as usize];
            (e.cages(&eqs.regions), eqs.houses(e).to_vec())
        }
    };
    for k in cages {
        if !step.cages.contains(&k) {
            step.cages.push(k);
        }
    }
    for h in houses {
        if !step.houses.contains(&h) {
            step.houses.push(h);
        }
    }
}

/// The cells changed since the board clock in `look` (every cell when it is 0), which becomes
/// the clock now: for a rung that skips what did not change since its last look.
fn changes_since_look(board: &Board, look: &mut u32) -> CellSet {
    let last = std::mem::replace(look, board.clock());
    board.changed_cells(last)
}

/// Sum algebra: two equations of the layout (rule-of-45 innies/outies, splits, cages) added or
/// subtracted so that the cells they share cancel give an equation over the other cells, which
/// the candidates may satisfy in fewer ways than either alone ("the innies of row 1 minus the
/// cage 14(3): r1c7 - r2c9 = 1").
pub fn sum_algebra(ctx: &mut Context, board: &Board, out: &mut Vec<Step>) {
    if !ctx.equations.has_algebra() {
        ctx.add_algebra_equations(board.puzzle());
    }
    let eqs = Arc::clone(&ctx.equations);
    // An equation none of whose cells changed since the last look ends as it did then (skipped,
    // or found nothing: a step it found was applied and changed its cells).
    let changed = changes_since_look(board, &mut ctx.algebra_look);
    for (i, e) in eqs.algebra.iter().enumerate() {
        if !eqs.algebra_cells[i].intersects(&changed) {
            continue;
        }
        let unknown = e.terms().iter().filter(|t| board.is_empty(t.0)).count();
        if unknown == 0 || unknown > MAX_UNKNOWN {
            continue;
        }
        if ctx.unchanged(board, Memo::Algebra, i, e.terms().iter().map(|t| t.0)) {
            continue;
        }
        let found = evaluate(board, e, &mut ctx.algebra_witnesses[i]);
        let Some(mut step) = found.and_then(|s| conclusions(board, &s, Technique::SumAlgebra))
        else {
            ctx.remember(board, Memo::Algebra, i);
            continue;
        };
        let (a, b, sign) = eqs.parents[i];
        if board.explaining() {
            step.reason = format!(
                "{}; {}; {} them: {}",
                source_text(board, &eqs, a),
                source_text(board, &eqs, b),
                match sign > 0 {
                    true => "adding",
                    false => "subtracting",
                },
                equation_text(board, e)
            );
        }
        if board.explaining() {
            source_places(&eqs, a, &mut step);
            source_places(&eqs, b, &mut step);
        }
        out.push(step);
    }
}

/// Innies/outies over 2 to 4 houses.
pub fn multi_house_innie_outie(ctx: &mut Context, board: &Board, out: &mut Vec<Step>) {
    find(ctx, board, Technique::MultiHouseInnieOutie, out)
}
