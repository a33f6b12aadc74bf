//! Killer forcing chains: a cell's candidates (or a digit's places in a house) followed one at a
//! time through every cage, house and rule-of-45 equation of the board at once (the innie/outie
//! sums of single houses and of unions of houses kept as virtual cages, as forum solvers keep
//! them on paper). A branch whose consequences leave a cell, cage, house or equation impossible
//! goes; what every surviving branch removes goes too (premises of at most `MAX_BRANCHES`).
//!
//! This is the plain forcing chain (singles and cage combinations) with the set-theory sums added
//! to what a branch follows: "if r3c4 = 7, the innies of rows 1-4 make 23 in r4c6 + r4c7, so the
//! 11(3) at r4c7 ... and row 5 has no place for 8". Branches run by propagation alone (a sum
//! narrows its cells to its combinations or bounds, a cell down to one digit takes it from its
//! peers, a digit every filling of a house or cage needs goes where it fits), never by search, so
//! a branch is a chain a person can follow. Inside a branch a digit a cage or house needs also
//! leaves every cell that sees all its places (locked candidates: pointing, claiming, a cage's
//! must-contain digit), as a person following the chain would use them: with them tarek_odd went
//! from 15 to 17 of 19 without trial (tarek-15 and tarek-21), for less CPU (shorter chains
//! break sooner). A branch that stalls is probed once more: a digit of
//! a cell of two or three digits that breaks it goes from it, and a cell all of whose digits
//! break it breaks the branch (a short chain inside the chain; without it tarek_odd had 7 of 19
//! without trial, as before the rung, with it 12). On 9x9 only (see `MAX_SIZE`), bounded by
//! `FORCING_WORK` a puzzle.
//!
//! Nested killer forcing chains, the last rung before trial, follow the same premises with every
//! digit a branch's probe tries probed once more before it is judged (Sudoku Explainer's nested
//! forcing chains): at the stalled positions of the seven tarek_odd killers that still needed
//! trial, one level refuted none of their wrong candidates, two levels 2-32 each (and premises
//! over a cage's combinations removed nothing); with the rung tarek_odd has 15 of 19 without
//! trial. Bounded by `NESTED_WORK` a puzzle.

use super::finders::{add_cage, add_differences, add_house};
use super::search::{Broke, Joint, Sum, MAX_CELLS};
use crate::bitset::DigitSet;
use crate::geometry::House;
use crate::grader::state::Board;
use crate::grader::step::{Step, Technique};
use crate::grader::techniques::context::{Context, FORCING_REFUND, NESTED_REFUND};
use crate::grader::techniques::sums::{source_text, Equations, Source};
use crate::grader::text::{cage_text, house_name};
use std::sync::Arc;

/// Most branches of a premise (a cell's candidates, a digit's places in a house) whose shared
/// removals are read off; a premise of more branches only refutes the branches that break.
const MAX_BRANCHES: u32 = 4;

/// Largest grid the rung runs on: a whole 12x12 board is 144 cells, past what a joint holds,
/// and its start (where 9x9 killers stall) would need every one of them.
const MAX_SIZE: usize = 9;

/// Where a sum of the board's joint comes from (for the words of a step).
#[derive(Copy, Clone, Debug)]
enum Origin {
    Cage(usize),
    House(House),
    Equation(usize),
}

/// The whole board as one joint: every empty cell, every cage's and house's sum, every rule-of-45
/// equation with two empty cells or more (`None` when the board does not fit).
fn board_joint(board: &Board, eqs: &Equations) -> Option<(Joint, Vec<Origin>)> {
    let mut joint = Joint::default();
    let mut origins = Vec::new();
    for c in board.empty_cells() {
        joint.index_of(c, board.candidates(c).bits())?;
    }
    for k in 0..board.cages().len() {
        let before = joint.sums.len();
        if !add_cage(board, &mut joint, k, MAX_CELLS) {
            return None;
        }
        origins.extend((before..joint.sums.len()).map(|_| Origin::Cage(k)));
    }
    for h in 0..board.geometry().house_count() {
        let h = House::new(h as u8);
        let before = joint.sums.len();
        add_house(board, &mut joint, h);
        origins.extend((before..joint.sums.len()).map(|_| Origin::House(h)));
    }
    let index: Vec<usize> = {
        let mut at = vec![usize::MAX; board.geometry().cell_count()];
        for (i, c) in joint.cells.iter().enumerate() {
            at[c.as_index()] = i;
        }
        at
    };
    for (e, eq) in eqs.list.iter().enumerate() {
        let mut total = eq.total;
        let mut terms = Vec::with_capacity(eq.terms().len());
        for &(c, k) in eq.terms() {
            match board.placed(c) {
                Some(d) => total -= k as i32 * d.get() as i32,
                None => terms.push((index[c.as_index()], k)),
            }
        }
        if terms.len() >= 2 {
            joint.sums.push(Sum { terms, total });
            origins.push(Origin::Equation(e));
        }
    }
    add_differences(board, &mut joint);
    Some((joint, origins))
}

/// Killer forcing chain: the first premise (a cell's candidates or a digit's places in a house,
/// fewest branches first) where following each branch through the board's cages, houses and
/// rule-of-45 equations removes something.
pub fn killer_forcing(ctx: &mut Context, board: &Board, out: &mut Vec<Step>) {
    let (left, look) = (ctx.forcing_left, ctx.forcing_look);
    let (left, look) = forcing_rung(ctx, board, out, Depth::Chain, left, look);
    (ctx.forcing_left, ctx.forcing_look) = (left, look);
}

/// Nested killer forcing chain: as `killer_forcing`, each branch (and each digit a branch's
/// probe tries) followed with short forcing chains of its own before it is judged.
pub fn nested_killer_forcing(ctx: &mut Context, board: &Board, out: &mut Vec<Step>) {
    let (left, look) = (ctx.nested_left, ctx.nested_look);
    let (left, look) = forcing_rung(ctx, board, out, Depth::Nested, left, look);
    (ctx.nested_left, ctx.nested_look) = (left, look);
}

/// How deep a branch is probed once its propagation stalls.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Depth {
    /// A digit of a small cell that breaks the branch goes (killer forcing chains).
    Chain,
    /// Each such digit is itself probed before it is judged (nested killer forcing chains).
    Nested,
}

impl Depth {
    /// Probe levels a stalled branch gets.
    fn levels(self) -> u8 {
        match self {
            Depth::Chain => 1,
            Depth::Nested => 2,
        }
    }

    /// The rung's technique.
    fn technique(self) -> Technique {
        match self {
            Depth::Chain => Technique::KillerForcingChain,
            Depth::Nested => Technique::NestedKillerForcingChain,
        }
    }

    /// Work earned back per removed candidate.
    fn refund(self) -> usize {
        match self {
            Depth::Chain => FORCING_REFUND,
            Depth::Nested => NESTED_REFUND,
        }
    }
}

/// One look of a forcing rung with `left` work and the clock of its last fruitless `look`: the
/// work and clock after it.
fn forcing_rung(
    ctx: &mut Context,
    board: &Board,
    out: &mut Vec<Step>,
    depth: Depth,
    mut left: usize,
    look_clock: u32,
) -> (usize, u32) {
    if board.size() > MAX_SIZE || left == 0 || look_clock == board.clock() {
        return (left, look_clock);
    }
    if !ctx.equations.has_multi() {
        ctx.add_multi_equations(board.puzzle());
    }
    let eqs = Arc::clone(&ctx.equations);
    let Some((joint, origins)) = board_joint(board, &eqs) else {
        return (left, look_clock);
    };
    let Some(mut forcing) = joint.forcing() else {
        // The board is broken: nothing to conclude here.
        return (left, look_clock);
    };
    let found = look(board, &joint, &mut forcing, left, depth);
    left = left.saturating_sub(forcing.work());
    let Some((premise, broke, mut step)) = found else {
        let clock = if left > 0 { board.clock() } else { look_clock };
        return (left, clock);
    };
    left = left.saturating_add(step.eliminations.len().saturating_mul(depth.refund()));
    if board.explaining() {
        step.reason = reason(board, &eqs, &joint, &origins, &premise, &broke, depth);
        let base: Vec<u16> = joint
            .cells
            .iter()
            .map(|&c| board.candidates(c).bits())
            .collect();
        step.cells = branches(&premise, &joint, &base, board)
            .into_iter()
            .map(|(i, _)| joint.cells[i])
            .collect();
        step.cells.dedup();
        for &(c, _) in &step.eliminations {
            if !step.cells.contains(&c) {
                step.cells.push(c);
            }
        }
    }
    out.push(step);
    (left, look_clock)
}

/// A premise: a cell's candidates, or a digit's places in a house (one branch each), one of
/// which is true.
#[derive(Clone, Debug)]
enum Premise {
    Cell(usize),
    Digit(House, u8),
}

/// The branches of a premise: (cell index, digit).
fn branches(premise: &Premise, joint: &Joint, base: &[u16], board: &Board) -> Vec<(usize, u8)> {
    match *premise {
        Premise::Cell(i) => DigitSet::from_bits(base[i])
            .iter()
            .map(|d| (i, d.get()))
            .collect(),
        Premise::Digit(h, d) => board
            .house_cells(h)
            .iter()
            .filter_map(|&c| joint.cells.iter().position(|&x| x == c))
            .filter(|&i| base[i] & (1 << (d - 1)) != 0)
            .map(|i| (i, d))
            .collect(),
    }
}

/// The premises, fewest branches first (two, then three, ...; cells before digits). Those of
/// more than `MAX_BRANCHES` branches only refute (see `look`).
fn premises(joint: &Joint, base: &[u16], board: &Board) -> Vec<Premise> {
    let mut all: Vec<(usize, Premise)> = (0..joint.cells.len())
        .map(|i| (base[i].count_ones() as usize, Premise::Cell(i)))
        .collect();
    for h in 0..board.geometry().house_count() {
        let h = House::new(h as u8);
        for d in 1..=board.size() as u8 {
            let n = branches(&Premise::Digit(h, d), joint, base, board).len();
            all.push((n, Premise::Digit(h, d)));
        }
    }
    all.retain(|(n, _)| *n >= 2);
    // Stable: cells before digits within a count.
    all.sort_by_key(|(n, _)| *n);
    all.into_iter().map(|(_, p)| p).collect()
}

/// What broke in each refuted branch: (cell index, digit, what).
type Refuted = Vec<(usize, u8, Broke)>;

/// Follow the premises until one removes something, within `work` sums narrowed: the premise,
/// its refuted branches, and the step.
fn look(
    board: &Board,
    joint: &Joint,
    forcing: &mut super::search::Forcing<'_>,
    work: usize,
    depth: Depth,
) -> Option<(Premise, Refuted, Step)> {
    let base = forcing.domains().to_vec();
    let mut keeps = Vec::new();
    let mut union = vec![0u16; joint.cells.len()];
    for premise in premises(joint, &base, board) {
        if forcing.work() >= work {
            return None;
        }
        union.iter_mut().for_each(|u| *u = 0);
        let mut refuted: Refuted = Vec::new();
        let branches = branches(&premise, joint, &base, board);
        for &(i, d) in &branches {
            match forcing.follow(i, 1 << (d - 1), depth.levels(), &mut keeps) {
                Ok(()) => union.iter_mut().zip(&keeps).for_each(|(u, &k)| *u |= k),
                Err(broke) => refuted.push((i, d, broke)),
            }
        }
        if refuted.len() == branches.len() {
            // Every branch breaks: the board is broken (nothing to conclude here).
            return None;
        }
        // What no surviving branch keeps is gone (a refuted branch's digit among it), and
        // what the joint's own consequences removed before any premise. A premise of many
        // branches only refutes: the removals its branches share are not read off.
        let mut step = Step::new(depth.technique());
        if branches.len() > MAX_BRANCHES as usize {
            step.eliminations.extend(
                refuted
                    .iter()
                    .map(|&(i, d, _)| (joint.cells[i], crate::geometry::Digit::new(d))),
            );
            if step.is_progress() {
                return Some((premise, refuted, step));
            }
            continue;
        }
        for (j, (&c, &u)) in joint.cells.iter().zip(&union).enumerate() {
            let gone = board.candidates(c).bits() & !(u & base[j]);
            let gone = DigitSet::from_bits(gone);
            step.eliminations.extend(gone.iter().map(|d| (c, d)));
        }
        if step.is_progress() {
            return Some((premise, refuted, step));
        }
    }
    None
}

/// "following r3c4's candidates through the cages, houses, innie/outie sums and locked
/// candidates: if r3c4 = 7,
/// cage 11(3) at r4c7 has no combination left; r3c4 = 5,6 each lead to the same removals".
fn reason(
    board: &Board,
    eqs: &Equations,
    joint: &Joint,
    origins: &[Origin],
    premise: &Premise,
    refuted: &Refuted,
    depth: Depth,
) -> String {
    let what = |b: &Broke| match *b {
        Broke::Cell(j) => format!("{} has no candidate left", board.cell_name(joint.cells[j])),
        Broke::Nested(j) => format!(
            "each candidate of {} in turn leads to a contradiction{}",
            board.cell_name(joint.cells[j]),
            match depth {
                Depth::Chain => "",
                Depth::Nested => " (each followed by a forcing chain of its own)",
            }
        ),
        Broke::Sum(s) => match origins[s] {
            Origin::Cage(k) => {
                let cage = &board.cages()[k];
                format!(
                    "cage {} has no combination left",
                    cage_text(board.geometry(), cage.sum, &cage.cells)
                )
            }
            Origin::House(h) => format!(
                "{} has no place left for a digit",
                house_name(board.geometry(), h)
            ),
            Origin::Equation(e) => format!(
                "{} cannot be met",
                source_text(board, eqs, Source::Equation(e as u32))
            ),
        },
    };
    let mut parts: Vec<String> = refuted
        .iter()
        .map(|&(i, d, ref b)| format!("if {} = {d}, {}", board.cell_name(joint.cells[i]), what(b)))
        .collect();
    let base: Vec<u16> = joint
        .cells
        .iter()
        .map(|&c| board.candidates(c).bits())
        .collect();
    let alive: Vec<String> = branches(premise, joint, &base, board)
        .into_iter()
        .filter(|&(i, d, ..)| !refuted.iter().any(|r| (r.0, r.1) == (i, d)))
        .map(|(i, d)| format!("{} = {d}", board.cell_name(joint.cells[i])))
        .collect();
    if alive.len() >= 2 && alive.len() + refuted.len() <= MAX_BRANCHES as usize {
        parts.push(format!(
            "{} each lead to the same removals",
            alive.join(", ")
        ));
    }
    let head = match *premise {
        Premise::Cell(i) => format!("{}'s candidates", board.cell_name(joint.cells[i])),
        Premise::Digit(h, d) => format!("the places of {d} in {}", house_name(board.geometry(), h)),
    };
    format!(
        "following {head} through the cages, houses, innie/outie sums and locked candidates: {}",
        parts.join("; ")
    )
}

/// The killer forcing step of a board with a fresh context and no limit on the work (tests).
#[cfg(test)]
pub(crate) fn forcing_step(board: &Board) -> Option<Step> {
    let mut ctx = Context::new(board.puzzle());
    ctx.forcing_left = usize::MAX / 2;
    let mut out = Vec::new();
    killer_forcing(&mut ctx, board, &mut out);
    out.pop()
}

/// The nested killer forcing step of a board with a fresh context and no limit on the work
/// (tests).
#[cfg(test)]
pub(crate) fn nested_step(board: &Board) -> Option<Step> {
    let mut ctx = Context::new(board.puzzle());
    ctx.nested_left = usize::MAX / 2;
    let mut out = Vec::new();
    nested_killer_forcing(&mut ctx, board, &mut out);
    out.pop()
}

#[cfg(test)]
#[path = "forcing_tests.rs"]
mod tests;
