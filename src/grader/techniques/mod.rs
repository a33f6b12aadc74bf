//! The technique ladder: one finder function per technique, tried easiest first.
//!
//! A finder looks at a `Board` and returns the first step it sees (or `None`); it never changes
//! the board. Finders are grouped by family, one file each. Batch finders report every instance
//! they see at once (singles, one step per cage), each instance its own step.
//!
//! Each rung has a level (a puzzle's level is at least the highest level of the rungs its
//! easiest-first path needs) and a weight (the work one step costs a person: the score adds up
//! the weights at the bottlenecks, see `grade`'s module doc). Multi-cell innies/outies of one house are easy: every
//! Solo killer, basic ones included, needs them (Solo's `split_block`).

pub mod blocking;
pub(crate) mod cage_view;
pub mod cages;
pub(crate) mod context;
pub mod must;
pub mod plain;
pub mod sets;
pub mod singles;
pub mod sums;

pub use context::Context;

use crate::grader::level::Level;
use crate::grader::state::Board;
use crate::grader::step::{Step, Technique};
use plain::subsets;

/// How a rung looks for steps.
#[derive(Copy, Clone)]
pub enum Finder {
    /// Returns one step (the plain-logic families).
    One(fn(&Board) -> Option<Step>),
    /// Pushes every instance on the board.
    All(fn(&Board, &mut Vec<Step>)),
    /// Killer finders that use the per-puzzle tables and memory.
    Cages(fn(&mut Context, &Board, &mut Vec<Step>)),
}

impl std::fmt::Debug for Finder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Finder::One(_) => "One",
            Finder::All(_) => "All",
            Finder::Cages(_) => "Cages",
        })
    }
}

/// One rung of the ladder.
#[derive(Copy, Clone, Debug)]
pub struct Rung {
    /// The technique its steps are credited to.
    pub technique: Technique,
    /// Its difficulty level.
    pub level: Level,
    /// Work for the score, counted once per bottleneck pass (see `grade`'s module doc).
    pub weight: f64,
    /// The finder.
    pub finder: Finder,
    /// Only meaningful on killers.
    pub killer_only: bool,
}

impl Rung {
    /// Run the finder, pushing what it finds into `out`.
    pub fn find(&self, ctx: &mut Context, board: &Board, out: &mut Vec<Step>) {
        if self.killer_only && board.cages().is_empty() {
            return;
        }
        match self.finder {
            Finder::One(f) => out.extend(f(board)),
            Finder::All(f) => f(board, out),
            Finder::Cages(f) => f(ctx, board, out),
        }
    }
}

const fn rung(technique: Technique, level: Level, weight: f64, finder: Finder) -> Rung {
    Rung {
        technique,
        level,
        weight,
        finder,
        killer_only: false,
    }
}

const fn one(f: fn(&Board) -> Option<Step>) -> Finder {
    Finder::One(f)
}

const fn cage_rung(
    technique: Technique,
    level: Level,
    weight: f64,
    f: fn(&mut Context, &Board, &mut Vec<Step>),
) -> Rung {
    Rung {
        technique,
        level,
        weight,
        finder: Finder::Cages(f),
        killer_only: true,
    }
}

use Level::{Easy, Expert, Extreme, Hard, Medium};
use Technique as T;

/// The ladder, easiest first. Trial (always available, always last) is not a rung: the engine
/// takes it from the known solution when every rung is stuck.
pub static LADDER: &[Rung] = &[
    rung(T::FullHouse, Easy, 0.5, Finder::All(singles::full_house)),
    rung(T::CageSingle, Easy, 0.5, Finder::All(singles::cage_single)),
    rung(T::HiddenSingle, Easy, 1.0, Finder::Cages(hidden_single)),
    // A naked single weighs more than a hidden one (Sudoku Explainer: 2.3 against 1.2-1.5): it
    // is only looked for when no hidden single is left, and finding it means reading a cell's
    // marks (the score's hardest steps feel it; the level does not, below the bottleneck weight).
    rung(
        T::NakedSingle,
        Easy,
        1.5,
        Finder::All(singles::naked_single),
    ),
    cage_rung(T::UniqueCombination, Easy, 1.5, cages::unique_combination),
    cage_rung(T::CageBounds, Easy, 2.0, cages::cage_bounds),
    cage_rung(T::CageCombination, Easy, 3.0, cages::cage_combination),
    cage_rung(T::SingleInnieOutie, Easy, 4.0, sums::single_innie_outie),
    cage_rung(T::MultiInnieOutie, Easy, 20.0, sums::multi_innie_outie),
    rung(
        T::LockedCandidates,
        Medium,
        10.0,
        Finder::Cages(locked_candidates),
    ),
    cage_rung(T::MustContain, Medium, 12.0, must::cage_pointing),
    rung(T::NakedPair, Medium, 12.0, Finder::Cages(naked_pair)),
    rung(T::HiddenPair, Medium, 15.0, Finder::Cages(hidden_pair)),
    cage_rung(T::CageSubset, Medium, 15.0, sets::cage_subset),
    cage_rung(T::MustContain, Medium, 20.0, must::cage_house_overlap),
    cage_rung(T::KillerSubset, Medium, 20.0, sets::killer_pair),
    rung(T::NakedTriple, Medium, 20.0, Finder::Cages(naked_triple)),
    cage_rung(
        T::InnieOutieDifference,
        Medium,
        25.0,
        sums::innie_outie_difference,
    ),
    rung(T::HiddenTriple, Medium, 25.0, Finder::Cages(hidden_triple)),
    cage_rung(
        T::MultiHouseInnieOutie,
        Hard,
        35.0,
        sums::multi_house_innie_outie,
    ),
    cage_rung(T::CagePermutation, Hard, 40.0, cages::cage_permutation),
    rung(T::XWing, Hard, 30.0, one(plain::find_x_wing)),
    rung(T::Skyscraper, Hard, 40.0, one(plain::find_skyscraper)),
    rung(
        T::TwoStringKite,
        Hard,
        40.0,
        one(plain::find_two_string_kite),
    ),
    cage_rung(T::CombinationClash, Hard, 45.0, cages::combination_clash),
    cage_rung(T::KillerSubset, Hard, 45.0, sets::killer_triple),
    cage_rung(T::HousePartition, Hard, 50.0, sets::house_partition),
    rung(T::Swordfish, Hard, 50.0, one(plain::find_swordfish)),
    rung(T::XyWing, Hard, 50.0, one(plain::find_xy_wing)),
    rung(T::XyzWing, Hard, 60.0, one(plain::find_xyz_wing)),
    rung(T::WWing, Hard, 60.0, one(plain::find_w_wing)),
    rung(
        T::SimpleColouring,
        Hard,
        60.0,
        one(plain::find_simple_colouring),
    ),
    rung(
        T::LawOfLeftovers,
        Hard,
        60.0,
        Finder::Cages(sets::law_of_leftovers),
    ),
    rung(T::NakedQuad, Hard, 50.0, one(plain::find_naked_quad)),
    rung(T::HiddenQuad, Hard, 60.0, one(plain::find_hidden_quad)),
    rung(T::Jellyfish, Hard, 80.0, one(plain::find_jellyfish)),
    cage_rung(T::SumAlgebra, Expert, 90.0, sums::sum_algebra),
    rung(T::XChain, Expert, 100.0, one(plain::find_x_chain)),
    rung(T::XyChain, Expert, 100.0, one(plain::find_xy_chain)),
    rung(T::Aic, Expert, 130.0, one(plain::find_aic)),
    rung(T::AlsXz, Expert, 150.0, one(plain::find_als_xz)),
    // The heavy set theory (issue 25): several cages and a virtual cage or a house filled
    // together, two rules at once. What pencilmark rates Very Hard/Extreme, tarek's killers, needs
    // it; our one-forcing-chain extremes, which it rates Hard, need only the rungs above. Last
    // before the chains, and dearest: a look runs only when everything cheaper is stuck.
    cage_rung(T::CageInteraction, Extreme, 160.0, blocking::house_blocking),
    cage_rung(
        T::CombinationBlocking,
        Extreme,
        170.0,
        blocking::cage_blocking,
    ),
    rung(
        T::ForcingChain,
        Extreme,
        200.0,
        one(plain::find_forcing_chain),
    ),
    // Issue 25: a forcing chain that follows the set-theory sums too (every cage, house and
    // innie/outie equation of the board at once), where the plain chains and the joints above
    // are stuck: what the forum solves tarek's killers with instead of trial. 9x9 only.
    cage_rung(
        T::KillerForcingChain,
        Extreme,
        250.0,
        blocking::killer_forcing,
    ),
    // The same chains where they are stuck, each branch followed with short forcing chains of
    // its own (Sudoku Explainer's "nested forcing chains"): tarek's killers that the rung above
    // leaves to trial. Dearer than it, cheaper than trial.
    cage_rung(
        T::NestedKillerForcingChain,
        Extreme,
        280.0,
        blocking::nested_killer_forcing,
    ),
];

// Plain finders that remember, per house, where they found nothing (see `Context`).
fn hidden_single(ctx: &mut Context, board: &Board, out: &mut Vec<Step>) {
    let memo = ctx.memo_mut(context::Memo::HiddenSingle);
    singles::hidden_single_memo(board, out, Some(memo));
}
fn locked_candidates(ctx: &mut Context, board: &Board, out: &mut Vec<Step>) {
    let memo = ctx.memo_mut(context::Memo::Locked);
    out.extend(plain::locked::find_locked_candidates_memo(
        board,
        Some(memo),
    ));
}
fn naked_pair(ctx: &mut Context, board: &Board, out: &mut Vec<Step>) {
    let memo = Some(ctx.memo_mut(context::Memo::NakedPair));
    out.extend(subsets::find_naked_in(board, 2, Technique::NakedPair, memo));
}
fn naked_triple(ctx: &mut Context, board: &Board, out: &mut Vec<Step>) {
    let memo = Some(ctx.memo_mut(context::Memo::NakedTriple));
    out.extend(subsets::find_naked_in(
        board,
        3,
        Technique::NakedTriple,
        memo,
    ));
}
fn hidden_pair(ctx: &mut Context, board: &Board, out: &mut Vec<Step>) {
    let memo = Some(ctx.memo_mut(context::Memo::HiddenPair));
    out.extend(subsets::find_hidden_in(
        board,
        2,
        Technique::HiddenPair,
        memo,
    ));
}
fn hidden_triple(ctx: &mut Context, board: &Board, out: &mut Vec<Step>) {
    let memo = Some(ctx.memo_mut(context::Memo::HiddenTriple));
    out.extend(subsets::find_hidden_in(
        board,
        3,
        Technique::HiddenTriple,
        memo,
    ));
}

/// The level of a technique (its first rung's), Extreme for trial.
pub fn level_of(technique: Technique) -> Level {
    LADDER
        .iter()
        .find(|r| r.technique == technique)
        .map_or(Level::Extreme, |r| r.level)
}

/// Score weight of one trial step.
pub const TRIAL_WEIGHT: f64 = 300.0;

#[cfg(test)]
mod tests;
