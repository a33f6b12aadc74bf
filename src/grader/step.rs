//! One deduction of the human-style grader: what it places or removes, where, and why.

use crate::geometry::{Cell, Digit, House};

/// Difficulty tiers; a puzzle's level is the lowest tier whose techniques solve it.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Tier {
    /// Singles and the simplest cage facts.
    Easy,
    /// Rule of 45 on one house, must-contain digits, locked candidates, pairs.
    Medium,
    /// Multi-house innies/outies, triples/quads, basic fish and wings.
    Hard,
    /// Chains, ALS, combination/permutation analysis over several cages.
    Expert,
    /// Forcing chains and trial.
    Extreme,
}

/// Every technique the grader knows, easiest first within its family.
///
/// The ladder (order tried, tier, weight) lives in `techniques::LADDER`; this enum only names.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Technique {
    // Singles.
    /// The last empty cell of a house.
    FullHouse,
    /// The last empty cell of a cage (its digit is the cage sum minus the rest).
    CageSingle,
    /// The only place for a digit in a house.
    HiddenSingle,
    /// The only digit left in a cell.
    NakedSingle,
    // Cage logic.
    /// A cage with exactly one digit combination.
    UniqueCombination,
    /// Digits that fit no remaining combination of a cage are removed.
    CageCombination,
    /// Min/max sum bounds inside a cage remove too-small or too-large digits.
    CageBounds,
    /// Rule of 45: one cell sticks out of (or into) a house covered by whole cages.
    SingleInnieOutie,
    /// A digit every combination of a cage needs, confined to one house: removed elsewhere there.
    MustContain,
    /// Naked/hidden subsets among the cells of one cage.
    CageSubset,
    /// Several innie (outie) cells of one house form a derived cage.
    MultiInnieOutie,
    /// Innie minus outie of one house is a known difference.
    InnieOutieDifference,
    /// Two or three cages/derived cages that together must hold some digits in one house.
    KillerSubset,
    /// Innies/outies over 2 to 4 houses.
    MultiHouseInnieOutie,
    /// Combinations of overlapping cages that clash in a house are removed.
    CombinationClash,
    /// Positional analysis of the permutations of one cage against its cells' candidates.
    CagePermutation,
    /// Partition of a house into cages and cells: which combinations can fill it.
    HousePartition,
    /// Law of leftovers: the leftover cells of a set of houses hold the same digits.
    LawOfLeftovers,
    /// Sum algebra over several derived sums.
    SumAlgebra,
    // Plain logic.
    /// Pointing / claiming (box–line reduction).
    LockedCandidates,
    /// Two cells of a house hold the same two digits.
    NakedPair,
    /// Two digits confined to the same two cells of a house.
    HiddenPair,
    /// Naked triple.
    NakedTriple,
    /// Hidden triple.
    HiddenTriple,
    /// Naked quad.
    NakedQuad,
    /// Hidden quad.
    HiddenQuad,
    /// X-wing (fish of size 2).
    XWing,
    /// Swordfish (size 3).
    Swordfish,
    /// Jellyfish (size 4).
    Jellyfish,
    /// Skyscraper.
    Skyscraper,
    /// 2-string kite.
    TwoStringKite,
    /// XY-wing.
    XyWing,
    /// XYZ-wing.
    XyzWing,
    /// W-wing.
    WWing,
    /// Simple colouring (single-digit chains).
    SimpleColouring,
    /// X-chain.
    XChain,
    /// XY-chain.
    XyChain,
    /// Alternating inference chain (with cage links in killers).
    Aic,
    /// Almost locked sets, XZ rule.
    AlsXz,
    /// Bounded forcing chains (cell or digit forcing).
    ForcingChain,
    /// Trial and error: a guess tested by the solver (the last resort).
    Trial,
}

/// A found deduction: placements and/or eliminations, the places involved, and the reason.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step {
    /// Which technique found it.
    pub technique: Technique,
    /// Digits placed.
    pub placements: Vec<(Cell, Digit)>,
    /// Candidates removed.
    pub eliminations: Vec<(Cell, Digit)>,
    /// Cells the reasoning rests on (for highlighting and hint text).
    pub cells: Vec<Cell>,
    /// Cages (indices into `Puzzle::cages`) the reasoning rests on.
    pub cages: Vec<usize>,
    /// Houses the reasoning rests on.
    pub houses: Vec<House>,
    /// The reason in words people use, r1c1 notation, without the list of removals
    /// (which `explain` renders from `eliminations`), e.g. "innies of row 1: r1c4 + r1c5 = 9".
    pub reason: String,
}

impl Step {
    /// A step with no places or reason yet.
    pub fn new(technique: Technique) -> Self {
        Step {
            technique,
            placements: Vec::new(),
            eliminations: Vec::new(),
            cells: Vec::new(),
            cages: Vec::new(),
            houses: Vec::new(),
            reason: String::new(),
        }
    }
    /// Does the step change anything?
    pub fn is_progress(&self) -> bool {
        !self.placements.is_empty() || !self.eliminations.is_empty()
    }
}
