//! The killer kernel: candidate propagation to a fixpoint, then branching on a copied state.
//!
//! One `u16` candidate set per cell (a single digit: solved), in a fixed-size array copied per
//! branch instead of an undo log (as JSolve, fsss2 and tdoku); per-geometry tables in `Tables`,
//! per-puzzle ones in `CageSet`, so the search never allocates. A search starts light (cheap
//! rules, `branch_light`); past `HEAVY_AFTER` nodes it starts over hard, with exact cages
//! (`sums.rs`, `exact.rs`), linear sums (`linear.rs`), cage crossings, probing (`probe.rs`) and
//! two-way conflict-directed branching after sigh's Interactive Sudoku Solver. Here the search's
//! life; `state.rs` the state and its edits, `propagate.rs` the fixpoint, `boxline.rs` box-line
//! and crossings, `branch.rs` the branching. The rules remove only digits no solution uses and
//! the search is deterministic, so node counts are the benchmark (see `docs/solver-kernel.md`).

mod boxline;
mod branch;
mod exact;
mod linear;
mod probe;
mod propagate;
mod state;
mod sums;

use super::cages::CageSet;
use super::linear::LinearSet;
use super::tables::Tables;
use super::SolveStats;
use crate::geometry::MAX_CELLS;
use crate::grid::Grid;
use crate::solver::quota::Quota;
use boxline::MAX_PARTS;
use state::{State, MUST_CAGES};

/// Houses of the largest grid (3 x 16).
const MAX_HOUSES: usize = 48;
/// Words of the dirty-cage set: up to 256 cages plus the slot of uncaged cells, rounded up to a
/// power of two so that a masked word index needs no bounds check.
const DIRTY_WORDS: usize = 8;
/// Length of the queue of new singles, a power of two above the cell count for the same reason.
const QUEUE: usize = 512;

/// The results of the exact cage rule by their inputs (direct-mapped, `exact::XCACHE` entries),
/// kept by the `Solver` from one hard search to the next: an entry is a function of its inputs
/// alone, so what a search finds does not depend on what an earlier one left there, and a hard
/// search no longer allocates and fills 240 KB.
#[derive(Clone, Debug, Default)]
pub(crate) struct ExactCache(Vec<exact::ExactEntry>);

impl ExactCache {
    /// The entries, for a search to fill (allocated on first use); `keep` takes them back.
    fn lend(&mut self) -> Vec<exact::ExactEntry> {
        if self.0.is_empty() {
            self.0 = vec![exact::ExactEntry::EMPTY; exact::XCACHE];
        }
        std::mem::take(&mut self.0)
    }

    fn keep(&mut self, entries: Vec<exact::ExactEntry>) {
        self.0 = entries;
    }
}

/// A dead end: some cell, house or cage has no possible digit left (for both kernels).
#[derive(Debug)]
pub(crate) struct Contradiction;

type Step = Result<(), Contradiction>;

#[inline(always)]
fn is_single(x: u16) -> bool {
    x & x.wrapping_sub(1) == 0
}

#[inline(always)]
fn digit_of(single: u16) -> usize {
    single.trailing_zeros() as usize + 1
}

/// One search over one puzzle: the tables it reads, its scratch queue and what it found.
pub(crate) struct Search<'a> {
    tables: &'a Tables,
    cages: &'a CageSet,
    killer: bool,
    /// Cells that became single and still have to be removed from their peers.
    queue: [u8; QUEUE],
    qlen: usize,
    /// Cages whose cells changed since they were last examined.
    dirty: [u64; DIRTY_WORDS],
    /// Words of `dirty` and `xdirty` in use: the cages and the slot of uncaged cells.
    dirty_words: usize,
    /// Derived (rule of 45) constraints whose cells changed since they were last examined.
    vdirty: u64,
    /// The derived linear sums, once the search proved hard enough to need them.
    linear_set: Option<&'a LinearSet>,
    /// Linear sums whose cells changed since they were last examined.
    ldirty: [u64; 4],
    /// Candidate changes made so far (to tell whether a linear sum pruned anything).
    edits: u64,
    quota: Quota<'a>,
    /// Per cell, how often setting it led straight to a contradiction (from a start given by
    /// `seed_conflicts`), halved every `HARD_DECAY_INTERVAL` conflicts (the conflict-directed
    /// branching of sigh's Interactive Sudoku Solver: cells that failed before are tried first,
    /// so later dead ends show sooner).
    conflicts: [u32; MAX_CELLS],
    /// Conflicts since the conflict counts were last halved.
    since_decay: u32,
    /// Bounds of small digit sets for the linear sums (empty until they are derived).
    extremes: &'static [[u8; 4]],
    /// Cages changed since the exact cage rule last examined them (hard searches only).
    xdirty: [u64; DIRTY_WORDS],
    /// Whether cages are filtered exactly: hard searches on grids up to 9x9 (`sums::cage_exact`).
    pub(super) exact: bool,
    /// Results of the exact cage rule by its inputs (direct-mapped; empty unless `exact`; lent
    /// by the caller's `ExactCache` for the search).
    xcache: Vec<exact::ExactEntry>,
    /// Houses (bit per house) with a cell changed since hidden singles last looked at them.
    hdirty: u64,
    /// Houses changed since box-line reduction last looked at them (besides `hdirty`, which
    /// hidden singles hand on here when they take them).
    sdirty: u64,
    /// When to probe next (`probe.rs`).
    probe_pace: probe::Pace,
    /// The union of candidates of each part (`Tables::part_cells`): scratch of
    /// `locked_candidates`.
    part_union: [u16; MAX_PARTS],
}

impl<'a> Search<'a> {
    /// Search `givens` for up to `limit` solutions, appending them to `solutions`.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn run(
        tables: &'a Tables,
        cages: &'a CageSet,
        linear_set: Option<&'a LinearSet>,
        givens: &[u8],
        limit: usize,
        max_nodes: u64,
        solutions: &'a mut Vec<Grid>,
        cache: &mut ExactCache,
    ) -> (SolveStats, bool) {
        let mut search = Search::new(tables, cages, linear_set, limit, max_nodes, solutions);
        if search.exact {
            search.xcache = cache.lend();
        }
        if let Ok(mut st) = search.start(givens) {
            if limit > 0 && search.propagate(&mut st).is_ok() {
                search.branch(&st);
            }
        }
        if search.exact {
            cache.keep(std::mem::take(&mut search.xcache));
        }
        search.quota.finish()
    }

    fn new(
        tables: &'a Tables,
        cages: &'a CageSet,
        linear_set: Option<&'a LinearSet>,
        limit: usize,
        max_nodes: u64,
        solutions: &'a mut Vec<Grid>,
    ) -> Self {
        let mut search = Search {
            tables,
            cages,
            killer: !cages.is_empty(),
            queue: [0; QUEUE],
            qlen: 0,
            dirty: [0; DIRTY_WORDS],
            dirty_words: (cages.cages.len() + 1).div_ceil(64).min(DIRTY_WORDS),
            vdirty: 0,
            linear_set,
            ldirty: [0; 4],
            edits: 0,
            quota: Quota::new(limit, max_nodes, solutions),
            conflicts: [0; MAX_CELLS],
            since_decay: 0,
            extremes: match linear_set {
                Some(_) => linear::extremes_table(),
                None => &[],
            },
            xdirty: [0; DIRTY_WORDS],
            exact: linear_set.is_some() && tables.n <= exact::SUBSET_BITS,
            xcache: Vec::new(),
            hdirty: u64::MAX >> (64 - 3 * tables.n),
            sdirty: 0,
            probe_pace: probe::Pace::default(),
            part_union: [0; MAX_PARTS],
        };
        for i in 0..cages.cages.len() {
            search.mark(i);
        }
        if linear_set.is_some() {
            search.seed_conflicts();
        }
        for i in 0..cages.virtuals.len() {
            search.vdirty |= 1 << i;
        }
        if let Some(set) = linear_set {
            for i in 0..set.sums.len() {
                search.ldirty[i >> 6] |= 1 << (i & 63);
            }
        }
        search
    }

    /// The root state: every candidate open, the givens set (not yet propagated).
    fn start(&mut self, givens: &[u8]) -> Result<State, Contradiction> {
        let mut st = State {
            cand: [0; MAX_CELLS],
            placed: [0; MAX_HOUSES],
            must: [0; MUST_CAGES],
        };
        st.cand[..self.tables.cells].fill(self.tables.all);
        for (c, &v) in givens.iter().enumerate() {
            if v != 0 {
                self.set(&mut st, c, 1 << (v - 1))?;
            }
        }
        Ok(st)
    }

    /// The candidates of every cell once the rules reach their fixpoint on `givens` (no
    /// branching), or `None` on a contradiction: for tests of single rules.
    #[cfg(test)]
    pub(crate) fn candidates(
        tables: &'a Tables,
        cages: &'a CageSet,
        linear_set: Option<&'a LinearSet>,
        givens: &[u8],
        solutions: &'a mut Vec<Grid>,
    ) -> Option<Vec<u16>> {
        let mut search = Search::new(tables, cages, linear_set, 1, u64::MAX, solutions);
        if search.exact {
            search.xcache = ExactCache::default().lend();
        }
        let mut st = search.start(givens).ok()?;
        search.propagate(&mut st).ok()?;
        Some(st.cand[..tables.cells].to_vec())
    }
}
