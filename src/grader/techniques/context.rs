//! Per-puzzle tables the killer finders share (peer sets, cage cell sets, derived sum equations)
//! and the memory that lets a finder skip a cage or equation whose cells have not changed.

use super::sums::{Equations, Witnesses};
use crate::bitset::CellSet;
use crate::geometry::{Cell, House};
use crate::grader::houses::Houses;
use crate::grader::state::Board;
use crate::puzzle::Puzzle;
use std::sync::Arc;

/// Search nodes combination blocking and cage interactions may spend on one puzzle before they
/// earn any back (see `BLOCKING_REFUND`): what keeps a puzzle they cannot crack from costing
/// seconds (nodes, never time, so a grade is the same on every machine), and what they add to
/// every batch that holds extremes. With the propagating search, bands first and the refund, the
/// default 9x9 batch (`generate -n 3000 --seed 5`, 151 extremes) has 1 extreme needing trial (33
/// with the earlier search at this budget) at 0.88x the CPU of that build (48d7e8a).
pub(crate) const BLOCKING_NODES: usize = 30_000;

/// Search nodes a step of those rungs earns back per candidate it removes: a puzzle they crack
/// keeps going, one they cannot stops at `BLOCKING_NODES` (at most `BLOCKING_NODES` plus this
/// times the candidates in all). On tarek_odd (walks without forcing chains), 0 gives 6 of 19
/// without trial, 2,000 gives 7.
pub(crate) const BLOCKING_REFUND: usize = 2_000;

/// Sums a puzzle's killer forcing chains may narrow before they earn any back (see
/// `FORCING_REFUND`): deterministic work, never time. What bounds a puzzle they cannot crack. On
/// tarek_odd 1,000,000, 2,000,000 and 5,000,000 all give 12 of 19 without trial (`rate -j1`
/// 4.1, 4.5 and 6.4 s CPU; 1.9 s without the rung); at 100,000,000 the other seven still need one
/// or two trials each.
pub(crate) const FORCING_WORK: usize = 1_000_000;

/// Sums a killer forcing step earns back per candidate it removes: a puzzle the rung cracks
/// keeps going.
pub(crate) const FORCING_REFUND: usize = 500_000;

/// Sums a puzzle's nested killer forcing chains may narrow before they earn any back (see
/// `NESTED_REFUND`); a nested branch costs some hundred times a plain one. On tarek_odd 2,000,000
/// and 5,000,000 give 12 of 19 without trial (as without the rung), 20,000,000 gives 15
/// (`rate -j1` 19 s CPU against 4 s), 100,000,000 gives 16 at 27 s.
pub(crate) const NESTED_WORK: usize = 20_000_000;

/// Sums a nested killer forcing step earns back per candidate it removes.
pub(crate) const NESTED_REFUND: usize = 2_000_000;

/// Finders that remember, per item, the clock of their last fruitless look.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Memo {
    UniqueCombination,
    CageBounds,
    CageCombination,
    CagePermutation,
    Equation,
    KillerPair,
    KillerTriple,
    HousePartition,
    Algebra,
    CageSubset,
    CagePointing,
    CageHouseOverlap,
    CombinationClash,
    Locked,
    NakedPair,
    NakedTriple,
    HiddenPair,
    HiddenTriple,
    HiddenSingle,
    CageBlocking,
    HouseBlocking,
    PairBlocking,
    BandBlocking,
}

const MEMOS: usize = 23;

impl Memo {
    /// Is the memo kept per house (else per cage, or per equation)?
    fn per_house(self) -> bool {
        matches!(
            self,
            Memo::KillerPair
                | Memo::KillerTriple
                | Memo::HousePartition
                | Memo::CageHouseOverlap
                | Memo::NakedPair
                | Memo::NakedTriple
                | Memo::HiddenPair
                | Memo::HiddenTriple
                | Memo::HiddenSingle
                | Memo::HouseBlocking
                | Memo::BandBlocking
        )
    }
}

/// Tables built once per puzzle.
#[derive(Clone, Debug)]
pub struct Context {
    /// Cells sharing a row, column or region with each cell (not the cell itself).
    pub(crate) peers: Arc<Vec<CellSet>>,
    /// Cells of every cage.
    pub(crate) cage_sets: Arc<Vec<CellSet>>,
    /// Cells of every house.
    houses: Arc<Vec<CellSet>>,
    /// Per house, the cells outside it of the cages that touch it.
    pub(crate) beyond: Arc<Vec<CellSet>>,
    /// Rule-of-45 equations derived from the cage layout (those of several houses on demand).
    pub(crate) equations: Arc<Equations>,
    /// Per memo kind and item: the board clock when the finder last found nothing there.
    memo: [Vec<u32>; MEMOS],
    /// Per equation of `equations.list`: the assignments its last evaluation found.
    pub(crate) witnesses: Vec<Witnesses>,
    /// Per sum-algebra equation: the same.
    pub(crate) algebra_witnesses: Vec<Witnesses>,
    /// The board clock when sum algebra last looked at its equations (0: never).
    pub(crate) algebra_look: u32,
    /// The same for each technique's list of rule-of-45 equations (see `sums::slot`).
    pub(crate) equation_look: [u32; 4],
    /// Cage/house overlap, per house and digit (`house * 16 + digit index`): the board clock when
    /// the cage holding all the digit's places there last yielded nothing, and that cage (what it
    /// yields rests on the cage's cells alone).
    pub(crate) overlap: Vec<(u32, u32)>,
    /// Combination blocking's assignments from its last look, per house (house index) and per
    /// rule-of-45 equation (house count + equation index) and per house pair, each a digit per
    /// cell. Only a cache:
    /// the search checks them before use and its verdict does not depend on them, so trial
    /// copies do not carry them.
    pub(crate) blocking_witnesses: std::collections::HashMap<usize, Vec<Vec<(Cell, u8)>>>,
    /// Where the next look of combination blocking (equations), cage interactions (houses),
    /// their house pairs and their bands starts: after the item where the previous look spent
    /// its nodes.
    pub(crate) blocking_next: [usize; 4],
    /// Search nodes combination blocking and cage interactions may still spend on this puzzle.
    pub(crate) blocking_left: usize,
    /// Sums killer forcing chains may still narrow on this puzzle.
    pub(crate) forcing_left: usize,
    /// The board clock when killer forcing chains last found nothing (0: never).
    pub(crate) forcing_look: u32,
    /// Sums nested killer forcing chains may still narrow on this puzzle.
    pub(crate) nested_left: usize,
    /// The board clock when nested killer forcing chains last found nothing (0: never).
    pub(crate) nested_look: u32,
}

impl Context {
    /// Build the tables of a puzzle.
    pub fn new(puzzle: &Puzzle) -> Self {
        let g = puzzle.geometry();
        let tables = Houses::of(g);
        let houses = &tables.sets;
        let cage_sets: Vec<CellSet> = puzzle
            .cages()
            .iter()
            .map(|k| k.cells.iter().copied().collect())
            .collect();
        let mut cage_of = vec![usize::MAX; g.cell_count()];
        for (k, set) in cage_sets.iter().enumerate() {
            for c in set.iter() {
                cage_of[c.as_index()] = k;
            }
        }
        let beyond: Vec<CellSet> = houses
            .iter()
            .map(|h| {
                h.iter()
                    .filter_map(|c| cage_sets.get(cage_of[c.as_index()]))
                    .fold(CellSet::EMPTY, |a, k| a.union(k))
                    .difference(h)
            })
            .collect();
        let equations = Equations::new(puzzle, houses, &cage_sets);
        const KINDS: [Memo; MEMOS] = [
            Memo::UniqueCombination,
            Memo::CageBounds,
            Memo::CageCombination,
            Memo::CagePermutation,
            Memo::Equation,
            Memo::KillerPair,
            Memo::KillerTriple,
            Memo::HousePartition,
            Memo::Algebra,
            Memo::CageSubset,
            Memo::CagePointing,
            Memo::CageHouseOverlap,
            Memo::CombinationClash,
            Memo::Locked,
            Memo::NakedPair,
            Memo::NakedTriple,
            Memo::HiddenPair,
            Memo::HiddenTriple,
            Memo::HiddenSingle,
            Memo::CageBlocking,
            Memo::HouseBlocking,
            Memo::PairBlocking,
            Memo::BandBlocking,
        ];
        let memo = std::array::from_fn(|m| {
            let len = match KINDS[m] {
                Memo::Equation | Memo::CageBlocking => equations.list.len(),
                Memo::Algebra => 0,
                Memo::PairBlocking => houses.len() * houses.len(),
                Memo::Locked => super::plain::locked::locked_memo_len(houses.len()),
                kind if kind.per_house() => houses.len(),
                _ => cage_sets.len(),
            };
            vec![0; len]
        });
        Context {
            witnesses: vec![Witnesses::default(); equations.list.len()],
            algebra_witnesses: Vec::new(),
            algebra_look: 0,
            equation_look: [0; 4],
            overlap: vec![(0, 0); houses.len() * 16],
            blocking_witnesses: Default::default(),
            blocking_next: [0; 4],
            blocking_left: BLOCKING_NODES,
            forcing_left: FORCING_WORK,
            forcing_look: 0,
            nested_left: NESTED_WORK,
            nested_look: 0,
            peers: Arc::clone(&tables.peers),
            cage_sets: Arc::new(cage_sets),
            houses: Arc::clone(houses),
            beyond: Arc::new(beyond),
            equations: Arc::new(equations),
            memo,
        }
    }

    /// Become a copy of `other` (of the same puzzle), reusing this context's memory: for trials
    /// that follow an assumption on a scratch board, one after another.
    pub fn copy_from(&mut self, other: &Context) {
        let Context {
            peers,
            cage_sets,
            houses,
            beyond,
            equations,
            memo,
            witnesses,
            algebra_witnesses,
            algebra_look,
            equation_look,
            overlap,
            blocking_witnesses: _,
            blocking_next,
            blocking_left,
            forcing_left,
            forcing_look,
            nested_left,
            nested_look,
        } = other;
        self.forcing_left = *forcing_left;
        self.forcing_look = *forcing_look;
        self.nested_left = *nested_left;
        self.nested_look = *nested_look;
        self.blocking_next = *blocking_next;
        self.blocking_left = *blocking_left;
        self.peers.clone_from(peers);
        self.cage_sets.clone_from(cage_sets);
        self.houses.clone_from(houses);
        self.beyond.clone_from(beyond);
        self.equations.clone_from(equations);
        for (mine, theirs) in self.memo.iter_mut().zip(memo) {
            mine.clone_from(theirs);
        }
        self.witnesses.clone_from(witnesses);
        self.algebra_witnesses.clone_from(algebra_witnesses);
        self.algebra_look = *algebra_look;
        self.equation_look = *equation_look;
        self.overlap.clone_from(overlap);
    }

    /// Derive the sum-algebra equations (once, with those of several houses first).
    pub(crate) fn add_algebra_equations(&mut self, puzzle: &Puzzle) {
        self.add_multi_equations(puzzle);
        if self.equations.has_algebra() {
            return;
        }
        let mut eqs = (*self.equations).clone();
        eqs.add_algebra(puzzle, &self.cage_sets);
        self.memo[Memo::Algebra as usize].resize(eqs.algebra.len(), 0);
        self.algebra_witnesses
            .resize(eqs.algebra.len(), Witnesses::default());
        self.equations = Arc::new(eqs);
    }

    /// Derive the equations of several houses (once), when a finder first needs them.
    pub(crate) fn add_multi_equations(&mut self, puzzle: &Puzzle) {
        if self.equations.has_multi() {
            return;
        }
        let mut eqs = (*self.equations).clone();
        eqs.add_multi(puzzle, &self.houses, &self.cage_sets);
        self.memo[Memo::Equation as usize].resize(eqs.list.len(), 0);
        self.memo[Memo::CageBlocking as usize].resize(eqs.list.len(), 0);
        self.witnesses.resize(eqs.list.len(), Witnesses::default());
        self.equations = Arc::new(eqs);
    }

    /// Has nothing in `cells` changed since the finder last found nothing for this item?
    pub(crate) fn unchanged(
        &self,
        board: &Board,
        memo: Memo,
        item: usize,
        cells: impl IntoIterator<Item = Cell>,
    ) -> bool {
        let since = self.memo[memo as usize][item];
        since != 0 && !cells.into_iter().any(|c| board.changed_since(c, since))
    }

    /// Has nothing a house finder reads changed since it last found nothing there: the house's
    /// cells, and whether the cells of the cages touching it outside it are placed (a cage with
    /// an empty cell outside the house is not one of its units, so their candidates do not
    /// matter)?
    pub(crate) fn unchanged_house(&self, board: &Board, memo: Memo, house: usize) -> bool {
        let since = self.memo[memo as usize][house];
        since != 0
            && !board.house_changed_since(House::new(house as u8), since)
            && !self.beyond[house]
                .iter()
                .any(|c| board.placed_since(c, since))
    }

    /// Has nothing changed since the finder last found nothing in this house, in its cells or in
    /// those of the cages touching it?
    pub(crate) fn unchanged_house_and_cages(
        &self,
        board: &Board,
        memo: Memo,
        house: usize,
    ) -> bool {
        let since = self.memo[memo as usize][house];
        since != 0
            && !board.house_changed_since(House::new(house as u8), since)
            && !self.beyond[house]
                .iter()
                .any(|c| board.changed_since(c, since))
    }

    /// Has nothing in cage `k` changed since the finder last found nothing there?
    pub(crate) fn unchanged_cage(&self, board: &Board, memo: Memo, k: usize) -> bool {
        let since = self.memo[memo as usize][k];
        since != 0 && !board.cage_changed_since(k, since)
    }

    /// The memo of one kind, for finders that keep it themselves.
    pub(crate) fn memo_mut(&mut self, memo: Memo) -> &mut [u32] {
        &mut self.memo[memo as usize]
    }

    /// The clock at which the finder last found nothing for this item (0: never).
    pub(crate) fn memo_clock(&self, memo: Memo, item: usize) -> u32 {
        self.memo[memo as usize][item]
    }

    /// Remember that the finder found nothing for this item at the board's current clock.
    pub(crate) fn remember(&mut self, board: &Board, memo: Memo, item: usize) {
        self.memo[memo as usize][item] = board.clock();
    }

    /// Cells that see every cell of `cells` through a row, column or region.
    pub(crate) fn seen_by_all(&self, cells: impl IntoIterator<Item = Cell>) -> CellSet {
        let mut it = cells.into_iter();
        let Some(first) = it.next() else {
            return CellSet::EMPTY;
        };
        it.fold(self.peers[first.as_index()], |acc, c| {
            acc.intersection(&self.peers[c.as_index()])
        })
    }
}

/// Per-house memory of the plain finders' fruitless looks: each slot holds the board clock when a
/// look found nothing there (0: look). What such a finder yields in a house rests on the house's
/// cells alone (the cells it clears only lose candidates), so an unchanged house is skipped.
/// Without a memo (`None`) every house is looked at.
pub(crate) struct HouseMemo<'m>(pub(crate) Option<&'m mut [u32]>);

impl HouseMemo<'_> {
    /// Skip `slot` (of `house`): nothing there changed since a look found nothing? Otherwise the
    /// look is noted now as fruitless, to be undone by `found` if it yields a step.
    pub(crate) fn skip(&mut self, board: &Board, slot: usize, house: House) -> bool {
        let Some(m) = self.0.as_deref_mut() else {
            return false;
        };
        if m[slot] != 0 && !board.house_changed_since(house, m[slot]) {
            return true;
        }
        m[slot] = board.clock();
        false
    }

    /// The look at `slot` yielded a step: look there again next time.
    pub(crate) fn found(&mut self, slot: usize) {
        if let Some(m) = self.0.as_deref_mut() {
            m[slot] = 0;
        }
    }
}
