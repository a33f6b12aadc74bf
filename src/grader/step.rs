//! One deduction of the human-style grader: what it places or removes, where, and why.

use crate::geometry::{Cell, Digit, House};

/// Every technique the grader knows, easiest first within its family.
///
/// The ladder (order tried, level, weight) lives in `techniques::LADDER`; this enum only names.
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
    /// A virtual cage (innies/outies) and the real cages holding its cells, filled together.
    CombinationBlocking,
    /// A house and the cages crossing it, filled together.
    CageInteraction,
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
    /// Forcing chains followed through every cage, house and innie/outie sum of the board.
    KillerForcingChain,
    /// Killer forcing chains whose branches are followed with short forcing chains of their own
    /// (nested forcing chains).
    NestedKillerForcingChain,
    /// Trial and error: a guess tested by the solver (the last resort).
    Trial,
}

impl Technique {
    /// Every technique, in declaration order.
    pub const ALL: [Technique; 45] = [
        Technique::FullHouse,
        Technique::CageSingle,
        Technique::HiddenSingle,
        Technique::NakedSingle,
        Technique::UniqueCombination,
        Technique::CageCombination,
        Technique::CageBounds,
        Technique::SingleInnieOutie,
        Technique::MustContain,
        Technique::CageSubset,
        Technique::MultiInnieOutie,
        Technique::InnieOutieDifference,
        Technique::KillerSubset,
        Technique::MultiHouseInnieOutie,
        Technique::CombinationClash,
        Technique::CagePermutation,
        Technique::HousePartition,
        Technique::LawOfLeftovers,
        Technique::SumAlgebra,
        Technique::CombinationBlocking,
        Technique::CageInteraction,
        Technique::LockedCandidates,
        Technique::NakedPair,
        Technique::HiddenPair,
        Technique::NakedTriple,
        Technique::HiddenTriple,
        Technique::NakedQuad,
        Technique::HiddenQuad,
        Technique::XWing,
        Technique::Swordfish,
        Technique::Jellyfish,
        Technique::Skyscraper,
        Technique::TwoStringKite,
        Technique::XyWing,
        Technique::XyzWing,
        Technique::WWing,
        Technique::SimpleColouring,
        Technique::XChain,
        Technique::XyChain,
        Technique::Aic,
        Technique::AlsXz,
        Technique::ForcingChain,
        Technique::KillerForcingChain,
        Technique::NestedKillerForcingChain,
        Technique::Trial,
    ];
    /// Snake-case key, as in JSON output ("hidden_single").
    pub fn as_str(self) -> &'static str {
        use Technique::*;
        match self {
            FullHouse => "full_house",
            CageSingle => "cage_single",
            HiddenSingle => "hidden_single",
            NakedSingle => "naked_single",
            UniqueCombination => "unique_combination",
            CageCombination => "cage_combination",
            CageBounds => "cage_bounds",
            SingleInnieOutie => "innie_outie",
            MustContain => "must_contain",
            CageSubset => "cage_subset",
            MultiInnieOutie => "multi_innie_outie",
            InnieOutieDifference => "innie_outie_difference",
            KillerSubset => "killer_subset",
            MultiHouseInnieOutie => "multi_house_innie_outie",
            CombinationClash => "combination_clash",
            CagePermutation => "cage_permutation",
            HousePartition => "house_partition",
            LawOfLeftovers => "law_of_leftovers",
            SumAlgebra => "sum_algebra",
            CombinationBlocking => "combination_blocking",
            CageInteraction => "cage_interaction",
            LockedCandidates => "locked_candidates",
            NakedPair => "naked_pair",
            HiddenPair => "hidden_pair",
            NakedTriple => "naked_triple",
            HiddenTriple => "hidden_triple",
            NakedQuad => "naked_quad",
            HiddenQuad => "hidden_quad",
            XWing => "x_wing",
            Swordfish => "swordfish",
            Jellyfish => "jellyfish",
            Skyscraper => "skyscraper",
            TwoStringKite => "two_string_kite",
            XyWing => "xy_wing",
            XyzWing => "xyz_wing",
            WWing => "w_wing",
            SimpleColouring => "simple_colouring",
            XChain => "x_chain",
            XyChain => "xy_chain",
            Aic => "aic",
            AlsXz => "als_xz",
            ForcingChain => "forcing_chain",
            KillerForcingChain => "killer_forcing_chain",
            NestedKillerForcingChain => "nested_killer_forcing_chain",
            Trial => "trial",
        }
    }
    /// The name people use ("Hidden single").
    pub fn name(self) -> &'static str {
        use Technique::*;
        match self {
            FullHouse => "Full house",
            CageSingle => "Cage single",
            HiddenSingle => "Hidden single",
            NakedSingle => "Naked single",
            UniqueCombination => "Unique combination",
            CageCombination => "Cage combinations",
            CageBounds => "Cage min/max",
            SingleInnieOutie => "Innie/outie",
            MustContain => "Must-contain digit",
            CageSubset => "Subset in a cage",
            MultiInnieOutie => "Innies/outies",
            InnieOutieDifference => "Innie-outie difference",
            KillerSubset => "Killer subset",
            MultiHouseInnieOutie => "Innies/outies of several houses",
            CombinationClash => "Combination clash",
            CagePermutation => "Cage permutations",
            HousePartition => "House partition",
            LawOfLeftovers => "Law of leftovers",
            SumAlgebra => "Sum algebra",
            CombinationBlocking => "Combination blocking",
            CageInteraction => "Cage interactions",
            LockedCandidates => "Locked candidates",
            NakedPair => "Naked pair",
            HiddenPair => "Hidden pair",
            NakedTriple => "Naked triple",
            HiddenTriple => "Hidden triple",
            NakedQuad => "Naked quad",
            HiddenQuad => "Hidden quad",
            XWing => "X-wing",
            Swordfish => "Swordfish",
            Jellyfish => "Jellyfish",
            Skyscraper => "Skyscraper",
            TwoStringKite => "2-string kite",
            XyWing => "XY-wing",
            XyzWing => "XYZ-wing",
            WWing => "W-wing",
            SimpleColouring => "Simple colouring",
            XChain => "X-chain",
            XyChain => "XY-chain",
            Aic => "Alternating inference chain",
            AlsXz => "ALS-XZ",
            ForcingChain => "Forcing chain",
            KillerForcingChain => "Killer forcing chain",
            NestedKillerForcingChain => "Nested killer forcing chain",
            Trial => "Trial",
        }
    }
}

impl std::fmt::Display for Technique {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
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
