//! The killer kernel: candidate propagation (singles, cage and derived sums, box-line locked
//! candidates) to a fixpoint, then most-constrained-cell branching on a copied fixed-size state.
//!
//! Candidates are one `u16` digit set per cell; a cell holding a single digit is solved. The
//! state is a small array copied per branch instead of an undo log (as the fast bitboard solvers
//! JSolve, fsss2 and tdoku do); everything else lives in `Tables` (per geometry) and `CageSet`
//! (per puzzle), so the search never allocates. The sum rules are in `sums.rs`; a hard search
//! (past `HEAVY_AFTER` nodes) also filters cages exactly, uses the derived linear sums
//! (`linear.rs`) and probes its bivalue cells while that pays (`probe.rs`).
//!
//! Counted per node on mathemagic-13 (437k nodes, probe trials included): 22 rounds of the loop
//! in `propagate`, 6.9 `assign`s, 18.7 calls of the cheap cage rule, 4.3 of the exact one (a
//! third from its cache), 21.9 of `point`, 17.7 linear sums, 3.4 passes of hidden singles (30
//! house scans) and of box-line reduction (71 segments). The CPU is spread over them: after the
//! changes measured in `sums.rs` and `locked_candidates`, `propagate` itself (assign, singles,
//! box-line) 25%, the cheap cage rule 19%, the exact one 17%, `point` 14%, `linear` 13%. Fat
//! LTO with one codegen unit made no difference (mathemagic-13, 1.54-1.63 s against 1.55-1.63).
//! Those changes (box-line parts, the exact rule's passes, `orders`), on the 17 hard killers
//! (`scripts/bench_hard.sh --limit 20`, two rounds alternating, loaded machine): 13.68 -> 11.78
//! s of CPU in all, every puzzle with the same nodes; with `--symmetries` (one round) 190.0 ->
//! 175.4 s.
//!
//! Cage crossings (`crossings`, read in the hidden-singles pass of a hard search): a digit the
//! rest of a house cannot hold sits where some cage meets that house, so the rest of the cage
//! loses it and the cage must hold it (`State::must`, read by both cage rules). Box-line
//! reduction is the same rule with a box for the cage; a cage is an all-different region too,
//! and on the hard set most cages cross two rows, two columns and two boxes. It replaced the
//! "rest of the house" of cages lying in one house, a special case. On the 17 hard killers' 16
//! images each (`scripts/bench_hard.sh --symmetries`, sums of the mean nodes): 3.22M -> 2.52M
//! nodes, 174 -> 159-165 s of CPU (per node the rule costs about 18%); published killers
//! unchanged (their light search does not use it). Read separately after the box-line pass,
//! each crossing reading its own cells: 2.95M nodes (without the must digits), 194 s; the must
//! digits applied by marking the cage instead of running its cheap rule at once: +3% CPU.
//!
//! The tree: changes that alter it, all dropped (nodes on the 17 hard killers, 3.78M as it is;
//! each move single puzzles up to 2x either way, as the orientation does: mathemagic-8 takes
//! 1.38 s as published and 0.35 s turned 180 degrees, so judge them with `bench_hard.sh
//! --symmetries`, where the sum of the 17 mean nodes is 3.22M): naked subsets of every size in
//! every house (alldiff GAC on top of the cage rules) 4.18M; linear sums over every pair of
//! boxes as well, mathemagic-13 437k -> 361k but -1 115k -> 121k; the digit tried first in the
//! branching cell by per-(cell, digit) conflicts, most-failed 4.05M, least-failed 3.54M but
//! worse on the 34 turned and mirrored images (24.3 s against 23.9); branching on the probed
//! bivalue cell whose two trials removed most (march-like lookahead) 4.00-4.47M; probe trials
//! without the linear sums or the exact rule 4.04-4.86M; probing also digits with two places in
//! a house 3.96M and slower; ties in the conflict score broken by fewer candidates or by the later
//! cell 3.29M and 3.37M against 3.22M (symmetries); a second search seeded with the first one's
//! final conflict counts (the best a restart could learn) m-10 457k -> 348k but m-13 437k ->
//! 385-473k. The exact rule off: 6.20M nodes, the same CPU (14.1 s against 13.5). Since the
//! cage crossings (symmetries, 2.433M as it is): the two places of a digit a cage must hold
//! (`State::must`) offered to `choose_pair` beside the houses' pairs, 2.521M (fewer on 8 of the
//! 17) and 165.8 s of CPU against 159.3 (alternating). A uniqueness proof by backbones (find one
//! solution, then refute each open cell's other digits by searches with a node budget, doubled
//! each pass, fixing the cell once refuted): on mathemagic-5, 104,723 nodes as it is with the
//! first solution at node 38,726, no cell was refuted within 32,768 nodes in 11 passes (2.66M
//! nodes spent). Taking one digit from one cell leaves a search about as hard as the whole.
//! Singleton arc consistency at the root (every candidate tried, to a fixpoint) removes 0 or 1 of
//! the 605-700 open candidates of mathemagic-1, -2, -5, -13 and Wecoc #1: they are hard deep down.
//!
//! Branching on what a cage holds, dropped: at the nodes of a hard search the cells are mostly
//! open (mathemagic-1: 69.9 of 80 open on average over its 18,090 nodes entered, 13.5 of its 16
//! five-cell cages with their digits undecided), so the decision "the chosen cell's cage holds
//! digit d" (or, on refutation, lacks it) was tried in place of the cell's, d the digit in the
//! most or the fewest of the cage's combinations still possible. As published it looked good
//! (the even split with the failure credited to the cell: mathemagic-1 214,651 -> 177,525 nodes,
//! -2 411,635 -> 171,127, -5 104,723 -> 93,137), but on the 16 images (sum of the 17 means,
//! 2.433M as it is, 170.0 s of CPU run beside another) it took 3.159M nodes and 227.5 s; without
//! the credit 2.796M, the rarest digit with it 2.947M; fewer nodes on 3 or 4 of the 17 only.
//!
//! What fails where (every candidate tried at every 32nd node entered, as published): on
//! mathemagic-1, -5 and -13, 428-451 open candidates a node, 152-162 of them failing on one
//! propagation; of those failures 31-37% come before the first hidden-singles pass (the placed
//! digit, naked singles, the cheap cage rule and the derived cages), 54-61% within one pass, and
//! the linear sums or the exact rule are the rule that fails in 1-2%. The refutations are short
//! and many; no one rule is where they come from.
//!
//! Learning, measured as an oracle (not kept): every propagation failure of a trial, a refutation
//! or a probe learnt as a nogood over the path's literals (the decisions, refuted digits and probe
//! results that hold at the node), shrunk by deleting each literal whose removal still fails when
//! re-propagated from the root (24-28 literals -> 5-8), the last 20,000 kept and applied at every
//! node (all literals held: fail; all but one: its negation holds). Nodes as published, learning's
//! own propagations not counted: mathemagic-2 411,635 -> 120,549, -8 269,679 -> 127,159, -5 104,723
//! -> 51,691, -13 370,557 -> 294,551, Wecoc #2 4,803 -> 3,299 and #1 11,923 -> 12,063. On the 16
//! images (mean nodes): Wecoc #2 5,436 -> 3,814 (-30%), #1 14,735 -> 11,650 (-21%), mathemagic-5
//! 112,820 -> 83,765 (-26%). So explanations at no cost would save about a quarter of the nodes,
//! where every hard killer under 0.5 s would need about three times fewer; the minimisation as done
//! costs 25 propagations per nogood (mathemagic-5 4.6 s of CPU against 0.46). Learning only every
//! 128th failure (282-404 nogoods a search, near the CPU of no learning as published): over the 16
//! images (`cmp.sh`, alternating), 2.433M -> 2.461M nodes and 163.0 -> 202.6 s; as published
//! mathemagic-2 had fallen to 128,755 nodes, the luck of one orientation again. With every nogood
//! kept and Luby restarts (runs of 50, 200 or 1,000 nodes times the sequence; found solutions kept
//! as nogoods), more nodes still: Wecoc #2 3,299 without restarts -> 9,419-9,977, #1 11,779 ->
//! 11,141-32,195. For comparison (this machine, as published): CaDiCaL on a CNF of the cells,
//! houses and each cage's digit combinations needs 12,873-108,742 conflicts and 0.26-4.66 s per
//! puzzle of the 17; OR-tools CP-SAT (one worker, sums and all-different) 51 s on mathemagic-5, 104
//! s on -1, 39 s on Wecoc #2 and over 400 s on -13.
//!
//! Conflicts credited to the constraint that failed (dom/wdeg, Boussemart et al. 2004), dropped:
//! the rule that was running when a failed trial's propagation failed (a real or derived cage, a
//! linear sum, a house, a box-line segment, or a placed cell and the peer it emptied; a field set
//! before each rule) credited each of its cells in `conflict`. On the 17 hard killers' 16 images
//! each (sums of the mean nodes, one run each, loaded machine; 2.52M nodes and 170 s of CPU as
//! it is): +1 per cell of the constraint instead of the decision cell's +1, 6.87M nodes and 461
//! s; +1 per cell besides it, 3.88M and 253 s; the decision cell's +K with the seeds scaled by K
//! (each cell of the constraint gets 1/K of a conflict), K = 4 2.52M, K = 8 2.43M (2.47M without
//! houses and segments), K = 16 2.41M, alternated with the start (`cmp.sh`) 165.6 s against
//! 170.9 (B/A 0.969; per puzzle -25% to +35% nodes). The more weight the constraint gets, the
//! worse: the decision cell's own count is the better signal, and at 1/16 the gain is within
//! the tree's noise.

mod linear;
mod probe;
mod sums;

use super::cages::CageSet;
use super::linear::LinearSet;
use super::tables::Tables;
use super::SolveStats;
use crate::bitset::CellSet;
use crate::geometry::{Cell, MAX_CELLS};
use crate::grid::Grid;
use crate::solver::quota::Quota;

/// Houses of the largest grid (3 x 16).
const MAX_HOUSES: usize = 48;
/// Words of the dirty-cage set: up to 256 cages plus the slot of uncaged cells, rounded up to a
/// power of two so that a masked word index needs no bounds check.
const DIRTY_WORDS: usize = 8;
/// Most parts (box-line meetings, `Tables::part_start`): every cell once along rows and once
/// along columns.
const MAX_PARTS: usize = 2 * MAX_CELLS;
/// Length of the queue of new singles, a power of two above the cell count for the same reason.
const QUEUE: usize = 512;

/// The results of the exact cage rule by their inputs (direct-mapped, `sums::XCACHE` entries),
/// kept by the `Solver` from one hard search to the next: an entry is a function of its inputs
/// alone, so what a search finds does not depend on what an earlier one left there, and a hard
/// search no longer allocates and fills 240 KB.
#[derive(Clone, Debug, Default)]
pub(crate) struct ExactCache(Vec<sums::ExactEntry>);

impl ExactCache {
    /// The entries, for a search to fill (allocated on first use); `keep` takes them back.
    fn lend(&mut self) -> Vec<sums::ExactEntry> {
        if self.0.is_empty() {
            self.0 = vec![sums::ExactEntry::EMPTY; sums::XCACHE];
        }
        std::mem::take(&mut self.0)
    }

    fn keep(&mut self, entries: Vec<sums::ExactEntry>) {
        self.0 = entries;
    }
}

/// A dead end: some cell, house or cage has no possible digit left (for both kernels).
#[derive(Debug)]
pub(crate) struct Contradiction;

type Step = Result<(), Contradiction>;

/// The search state copied at every branch: candidates of each cell, placed digits per house.
#[derive(Clone, Copy)]
pub(crate) struct State {
    /// Candidates per cell; always 256 long, so indexing by a `u8` cell needs no bounds check
    /// (measured: 7% fewer instructions on 9x9 killers than an 81-cell state).
    cand: [u16; MAX_CELLS],
    placed: [u16; MAX_HOUSES],
    /// Per real cage (the first `MUST_CAGES`), digits it is known to hold (`crossings`).
    must: [u16; MUST_CAGES],
}

/// Cages whose known digits the state keeps. 128 (the generator's 16x16 layouts have 81-101
/// cages) made no difference: 40 16x16 killers (seed 6) in 11.06-11.09 s of CPU against
/// 10.92-11.20, the same puzzles.
const MUST_CAGES: usize = 96;

/// `dst |= src` over a 256-bit set.
#[inline(always)]
fn or_into(dst: &mut [u64; 4], src: &[u64; 4]) {
    for (d, s) in dst.iter_mut().zip(src) {
        *d |= s;
    }
}

#[inline(always)]
fn is_single(x: u16) -> bool {
    x & x.wrapping_sub(1) == 0
}

#[inline(always)]
fn digit_of(single: u16) -> usize {
    single.trailing_zeros() as usize + 1
}

/// The union of the candidates `cand` of every part of `tables` (`Tables::part_cells`) into
/// `unions`: for boxes in closed form (row parts are runs of cells, column parts the same
/// columns of a band's rows), which the compiler unrolls for 9x9.
#[inline(always)]
fn read_parts(tables: &Tables, cand: &[u16; MAX_CELLS], unions: &mut [u16; MAX_PARTS]) {
    match tables.box_shape {
        Some((3, 3)) => read_box_parts(cand, unions, 9, 3, 3),
        Some((rows, cols)) => read_box_parts(cand, unions, tables.n, rows, cols),
        None => {
            let chunks = tables.part_cells.chunks_exact(tables.part_len);
            for (u, cells) in unions.iter_mut().zip(chunks) {
                *u = cells.iter().fold(0, |u, &c| u | cand[c as usize]);
            }
        }
    }
}

/// `read_parts` for boxes of `rows` x `cols` cells in a grid of side `n`.
#[inline(always)]
fn read_box_parts(
    cand: &[u16; MAX_CELLS],
    unions: &mut [u16; MAX_PARTS],
    n: usize,
    rows: usize,
    cols: usize,
) {
    let cells = n * n;
    let (row_parts, col_parts) = unions.split_at_mut(cells / cols);
    for (u, run) in row_parts.iter_mut().zip(cand[..cells].chunks_exact(cols)) {
        *u = run.iter().fold(0, |u, &x| u | x);
    }
    for (band, out) in col_parts[..cells / rows].chunks_exact_mut(n).enumerate() {
        let first = band * rows * n;
        out.copy_from_slice(&cand[first..first + n]);
        for i in 1..rows {
            let row = &cand[first + i * n..first + (i + 1) * n];
            for (u, &x) in out.iter_mut().zip(row) {
                *u |= x;
            }
        }
    }
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
    xcache: Vec<sums::ExactEntry>,
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

/// Branches between two halvings of the conflict counts in the cheap first search (2^14, as
/// sigh's solver).
const DECAY_INTERVAL: u32 = 1 << 14;

/// Conflicts between two halvings of the conflict counts in a hard search. With the exact cage
/// rule, on the 17 hard killers (`scripts/bench_hard.sh --limit 15`, nodes in all): 2^12 6.05M
/// with four over the limit, 2^14 6.17M, 2^15 5.75M, 2^16 5.46M, 2^17 5.41M, 2^18 (no halving
/// in these searches) 5.39M. Halving per node instead of per conflict (as sigh's solver): 7.02M.
/// Again with the cage crossings, on the 16 images of each (`bench_hard.sh --symmetries`, sum
/// of the 17 means): 2^15 2.530M, 2^16 2.516M, 2^17 2.522M; flat, so kept.
const HARD_DECAY_INTERVAL: u32 = 1 << 16;

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
            exact: linear_set.is_some() && tables.n <= sums::SUBSET_BITS,
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

    /// Start each cell's conflict count at the priority of the sums holding it (real cages,
    /// derived ones and linear sums: `max(2N - cells, N)` each, sigh's `Sum.priority`), so the
    /// first branches go to cells of small cages and of many sums, and the counts of real
    /// conflicts take over as they grow. Measured with the two-way branching on the 17 hard
    /// killers (10 s CPU limit each): 57-61 s in all with the seeds, 86 s and four over the
    /// limit without. A linear sum whose negation was derived too counts twice
    /// (`Linear::weight`), as when both were in the set. The branching is very sensitive to
    /// these seeds: on the 17 hard killers (one thread, CPU seconds in all, as in this
    /// version: 14.7) counting the 14 twins of each mathemagic killer once but its two
    /// all-positive twins still twice took 8.3 s (worst 0.97), counting every twin once 15.5,
    /// and no seeds from the linear sums 10.2; the 8.3 variant took 7.2 s against 3.2 on eight
    /// generated killers (min_cages 12, max_cages 14, seed 4). 14 of the 17 share one layout:
    /// too narrow a set to choose seeds on. Again with the cage crossings (`bench_hard.sh
    /// --symmetries`, sum of the 17 mean nodes, 2.516M as it is): the real cages' seeds halved
    /// 2.537M, doubled 2.493M; the linear sums' halved 2.488M, doubled 2.439M (fewer on only 10
    /// of the 17, mathemagic-7 +21%; with `SHARE` 3 in `probe.rs` 2.451M against 2.408M); the
    /// derived cages' halved or doubled, the same nodes on every puzzle. Kept as they are.
    fn seed_conflicts(&mut self) {
        let (tables, cages) = (self.tables, self.cages);
        let n = tables.n as u32;
        let priority = |len: usize| (2 * n).saturating_sub(len as u32).max(n);
        for info in cages.cages.iter().chain(&cages.virtuals) {
            for &c in cages.cells_in(*info) {
                self.conflicts[c as usize] += priority(info.len as usize);
            }
        }
        if let Some(set) = self.linear_set {
            for sum in &set.sums {
                for t in &set.terms[sum.start as usize..][..sum.len as usize] {
                    self.conflicts[t.cell as usize] +=
                        priority(sum.len as usize) * u32::from(sum.weight);
                }
            }
        }
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

    #[inline(always)]
    fn push(&mut self, c: usize) {
        self.queue[self.qlen & (QUEUE - 1)] = c as u8;
        self.qlen += 1;
    }

    #[inline(always)]
    fn mark(&mut self, cage: usize) {
        self.dirty[(cage >> 6) & (DIRTY_WORDS - 1)] |= 1 << (cage & 63);
    }

    #[inline(always)]
    fn mark_cell(&mut self, c: usize) {
        if self.killer {
            self.mark(self.cages.cage_of[c] as usize);
            self.vdirty |= self.cages.virtual_of[c];
            if let Some(set) = self.linear_set {
                let of = &set.of_cell[c];
                or_into(&mut self.ldirty, of);
            }
        }
    }

    /// As `narrow`, for a cell of a linear sum (killers only): its cage is marked too.
    #[inline]
    fn narrow_linear(&mut self, st: &mut State, c: usize, y: u16) -> Step {
        let changed = st.cand[c] != y;
        self.narrow(st, c, y)?;
        if changed {
            self.mark(self.cages.cage_of[c] as usize);
        }
        Ok(())
    }

    /// Make `c` hold the single digit `b` (one of its candidates) and queue it.
    #[inline(always)]
    fn set(&mut self, st: &mut State, c: usize, b: u16) -> Step {
        let x = st.cand[c];
        if x & b == 0 {
            return Err(Contradiction);
        }
        if x != b {
            st.cand[c] = b;
            self.edits += 1;
            self.hdirty |= self.tables.cell_houses[c];
            self.push(c);
            self.mark_cell(c);
        }
        Ok(())
    }

    /// Narrow `c` to `y` (a subset of its candidates), queueing it if it became single.
    #[inline(always)]
    fn narrow(&mut self, st: &mut State, c: usize, y: u16) -> Step {
        let x = st.cand[c];
        if y != x {
            if y == 0 {
                return Err(Contradiction);
            }
            st.cand[c] = y;
            self.edits += 1;
            self.hdirty |= self.tables.cell_houses[c];
            if is_single(y) {
                self.push(c);
            }
            self.vdirty |= self.cages.virtual_of[c];
            if let Some(set) = self.linear_set {
                let of = &set.of_cell[c];
                or_into(&mut self.ldirty, of);
            }
        }
        Ok(())
    }

    /// Remove the digits `gone` from cell `c` (not of the cage being examined: its cage is marked).
    #[inline(always)]
    fn remove(&mut self, st: &mut State, c: usize, gone: u16) -> Step {
        let x = st.cand[c];
        if x & gone != 0 {
            let y = x & !gone;
            if y == 0 {
                return Err(Contradiction);
            }
            st.cand[c] = y;
            self.edits += 1;
            self.hdirty |= self.tables.cell_houses[c];
            if is_single(y) {
                self.push(c);
            }
            self.mark_cell(c);
        }
        Ok(())
    }

    /// Remove the digit of the single cell `c` from all its peers.
    #[inline]
    fn assign(&mut self, st: &mut State, c: usize) -> Step {
        let tables = self.tables;
        let b = st.cand[c];
        for &h in &tables.houses_of[c] {
            st.placed[h as usize] |= b;
        }
        self.mark_cell(c);
        // Branch-free: whether a peer held `b` is unpredictable, so every peer is written, a
        // peer that became single is queued by advancing the queue length by 0 or 1, and an
        // emptied peer is noticed once after the loop (peers number at most 39, on 16x16).
        let mut emptied = false;
        self.vdirty |= self.cages.virtual_near[c];
        if let Some(set) = self.linear_set {
            or_into(&mut self.ldirty, &set.of_cell[c]);
        }
        // The peers that lost the digit, gathered branch-free, then marked in a second loop (the
        // dirty sets are read-modify-writes through memory: one per changed peer, not per peer).
        let mut lost = [0u8; 64];
        let mut count = 0;
        for &p in tables.peers(c) {
            let x = st.cand[p as usize];
            let y = x & !b;
            st.cand[p as usize] = y;
            emptied |= y == 0;
            let changed = x != y;
            self.queue[self.qlen & (QUEUE - 1)] = p;
            // `&`, not `&&`: no branch (measured: the short-circuit compiled to one).
            self.qlen += (changed & is_single(y)) as usize;
            lost[count & 63] = p;
            count += changed as usize;
        }
        if emptied {
            return Err(Contradiction);
        }
        let mut houses = 0u64;
        for &p in &lost[..count.min(64)] {
            let p = p as usize;
            houses |= tables.cell_houses[p];
            if self.killer {
                let k = self.cages.cage_of[p] as usize;
                self.dirty[(k >> 6) & (DIRTY_WORDS - 1)] |= 1 << (k & 63);
                if let Some(set) = self.linear_set {
                    or_into(&mut self.ldirty, &set.of_cell[p]);
                }
            }
        }
        self.hdirty |= houses;
        Ok(())
    }

    /// Apply every deduction until none applies (or a contradiction shows).
    fn propagate(&mut self, st: &mut State) -> Step {
        loop {
            while self.qlen > 0 {
                self.qlen -= 1;
                let c = self.queue[self.qlen & (QUEUE - 1)] as usize;
                self.assign(st, c)?;
            }
            if let Some(i) = self.pop_dirty() {
                self.cheap_cage(st, i, 0)?;
                continue;
            }
            if self.vdirty != 0 {
                let i = self.vdirty.trailing_zeros() as usize;
                self.vdirty &= self.vdirty - 1;
                let info = self.cages.virtuals[i];
                if info.distinct {
                    self.cage(st, info)?;
                } else {
                    self.sum_only(st, info)?;
                }
                continue;
            }
            // The linear sums before the exact cage rule: a linear sum costs a fifth of an exact
            // cage, and what it prunes the exact rule then sees at once (the same fixpoint; on
            // the 17 hard killers 29.6 -> 26.8 s of CPU in all, the same nodes on mathemagic).
            // Running every dirty exact cage before returning, instead of stopping at the first
            // that prunes: no change (mathemagic-13). Also dropped, on the 17 hard killers (one
            // round, CPU s in all): every dirty cage examined before the new singles are
            // assigned, same nodes, 12.32 -> 12.75; hidden singles before the cages,
            // 12.47 -> 13.00 and Wecoc #2 4,545 -> 4,547 nodes.
            let before = self.edits;
            self.hidden_singles(st)?;
            if self.qlen == 0
                && self.edits == before
                && !self.locked_candidates(st)?
                && !self.linear_sums(st)?
                && !self.exact_cages(st)?
            {
                return Ok(());
            }
        }
    }

    /// Box-line reduction over every segment: a digit of the intersection missing from the rest
    /// of the box leaves the rest of the line, and one missing from the rest of the line leaves
    /// the rest of the box. All digits at once, from three unions of candidates, each the union
    /// of parts (box-line meetings, each shared by five segments on 9x9), all read once per
    /// call and again after a removal (rare). Measured on mathemagic-13: 71 segments examined
    /// per node, 13% of the CPU when each read its 15 cells; parts read on demand (a bit per
    /// part telling whether its union is read) were slower still (1.75 -> 1.83 s).
    /// True if any candidate was removed.
    fn locked_candidates(&mut self, st: &mut State) -> Result<bool, Contradiction> {
        let tables = self.tables;
        let mut any = false;
        // Only segments whose box or line changed since the last look can find anything new.
        let todo = self.sdirty | self.hdirty;
        self.sdirty = 0;
        if todo == 0 {
            return Ok(false);
        }
        self.read_parts(st);
        for seg in &tables.segments {
            if seg.houses & todo == 0 {
                continue;
            }
            let parts = &tables.segment_parts[seg.parts as usize..];
            let (in_box_parts, rest) = parts[1..].split_at(seg.box_parts as usize);
            let union = |ps: &[u16]| {
                ps.iter()
                    .fold(0, |u, &p| u | self.part_union[p as usize & (MAX_PARTS - 1)])
            };
            let in_meet = self.part_union[parts[0] as usize & (MAX_PARTS - 1)];
            let in_box = union(in_box_parts);
            let in_line = union(&rest[..seg.line_parts as usize]);
            let from_line = in_meet & !in_box & in_line;
            let from_box = in_meet & !in_line & in_box;
            if from_line | from_box == 0 {
                continue;
            }
            let cells = &tables.segment_cells[seg.start as usize..];
            let (meet, rest) = (seg.meet as usize, seg.rest as usize);
            for (gone, part) in [
                (from_line, &cells[meet + rest..meet + 2 * rest]),
                (from_box, &cells[meet..meet + rest]),
            ] {
                if gone != 0 {
                    any = true;
                    for &c in part {
                        self.remove(st, c as usize, gone)?;
                    }
                }
            }
            self.read_parts(st);
        }
        Ok(any)
    }

    /// The union of candidates of every part into `part_union`.
    #[inline]
    fn read_parts(&mut self, st: &State) {
        read_parts(self.tables, &st.cand, &mut self.part_union);
    }

    /// The derived linear sums, last (they cost the most): true once one of them pruned.
    fn linear_sums(&mut self, st: &mut State) -> Result<bool, Contradiction> {
        let Some(set) = self.linear_set else {
            return Ok(false);
        };
        let before = self.edits;
        while let Some(i) = self.pop_linear() {
            self.linear(st, set.sums[i])?;
            if self.edits != before {
                return Ok(true);
            }
        }
        Ok(false)
    }

    /// The cheap rule of real cage `i` (which holds `must`), leaving it to the exact rule when
    /// that could find more.
    #[inline(always)]
    fn cheap_cage(&mut self, st: &mut State, i: usize, must: u16) -> Step {
        if self.real_cage(st, i, must, false)? && self.exact {
            self.xdirty[(i >> 6) & (DIRTY_WORDS - 1)] |= 1 << (i & 63);
        }
        Ok(())
    }

    /// The exact cage rule over the cages changed since it last saw them (hard searches only,
    /// after the cheaper rules): true once one of them pruned.
    fn exact_cages(&mut self, st: &mut State) -> Result<bool, Contradiction> {
        if !self.exact {
            return Ok(false);
        }
        let before = self.edits;
        for w in 0..self.dirty_words {
            while self.xdirty[w] != 0 {
                let tz = self.xdirty[w].trailing_zeros() as usize;
                self.xdirty[w] &= self.xdirty[w] - 1;
                self.real_cage(st, w * 64 + tz, 0, true)?;
                if self.edits != before {
                    return Ok(true);
                }
            }
        }
        Ok(false)
    }

    #[inline]
    fn pop_linear(&mut self) -> Option<usize> {
        for w in 0..4 {
            if self.ldirty[w] != 0 {
                let tz = self.ldirty[w].trailing_zeros() as usize;
                self.ldirty[w] &= self.ldirty[w] - 1;
                return Some(w * 64 + tz);
            }
        }
        None
    }

    #[inline]
    fn pop_dirty(&mut self) -> Option<usize> {
        let count = self.cages.cages.len();
        for w in 0..self.dirty_words {
            while self.dirty[w] != 0 {
                let tz = self.dirty[w].trailing_zeros() as usize;
                self.dirty[w] &= self.dirty[w] - 1;
                let i = w * 64 + tz;
                if i < count {
                    return Some(i);
                }
            }
        }
        None
    }

    /// A digit with one place left in a house goes there; a digit with none is a contradiction.
    /// In a hard search, also the cage crossings (`crossings`).
    fn hidden_singles(&mut self, st: &mut State) -> Step {
        let tables = self.tables;
        let all = tables.all;
        let crossings = self.linear_set.is_some() && !self.cages.crossings_of_house.is_empty();
        // Only houses with a cell changed since the last look can find anything new.
        let mut todo = self.hdirty;
        self.hdirty = 0;
        self.sdirty |= todo;
        while todo != 0 {
            let h = todo.trailing_zeros() as usize;
            todo &= todo - 1;
            let done = st.placed[h];
            if done == all {
                continue;
            }
            if crossings {
                self.crossings(st, h, done)?;
                continue;
            }
            let cells = tables.house(h);
            let (mut ones, mut twos) = (0u16, 0u16);
            for &c in cells {
                let x = st.cand[c as usize];
                twos |= ones & x;
                ones |= x;
            }
            self.place_hidden(st, cells, ones, twos, done)?;
        }
        Ok(())
    }

    /// The hidden singles of a house: `ones` and `twos` are the digits its `cells` hold once
    /// and more than once, `done` those placed.
    #[inline(always)]
    fn place_hidden(
        &mut self,
        st: &mut State,
        cells: &[u8],
        ones: u16,
        twos: u16,
        done: u16,
    ) -> Step {
        if ones != self.tables.all {
            return Err(Contradiction);
        }
        let mut hidden = ones & !twos & !done;
        while hidden != 0 {
            let b = hidden & hidden.wrapping_neg();
            hidden ^= b;
            // An earlier hidden single of this house may have taken the only cell of `b`.
            let c = cells
                .iter()
                .map(|&c| c as usize)
                .find(|&c| st.cand[c] & b != 0)
                .ok_or(Contradiction)?;
            self.set(st, c, b)?;
        }
        Ok(())
    }

    /// Hidden singles of house `h` (`done` its placed digits) read part by part, cage by cage,
    /// and the cage crossings: a digit the rest of a house cannot hold sits where a cage crosses
    /// that house, so it leaves the rest of the cage, and the cage must hold it (`State::must`,
    /// which the cage rules read).
    #[inline(always)]
    fn crossings(&mut self, st: &mut State, h: usize, done: u16) -> Step {
        let cages = self.cages;
        let (first, end) = cages.crossings_of_house[h];
        let parts = &cages.crossings[first as usize..end as usize];
        let mut unions = [0u16; 16];
        let (mut ones, mut twos, mut part_ones, mut part_twos) = (0u16, 0u16, 0u16, 0u16);
        for (u, x) in unions.iter_mut().zip(parts) {
            let cells = &cages.crossing_cells[x.start as usize..][..x.meet as usize];
            let mut union = 0;
            for &c in cells {
                let x = st.cand[c as usize];
                twos |= ones & x;
                ones |= x;
                union |= x;
            }
            *u = union;
            part_twos |= part_ones & union;
            part_ones |= union;
        }
        self.place_hidden(st, self.tables.house(h), ones, twos, done)?;
        // Digits in one part only, but not in one cell only (hidden singles, placed above).
        let once = part_ones & !part_twos & !done & !(ones & !twos);
        if once == 0 {
            return Ok(());
        }
        let real = cages.cages.len() as u16;
        for (&u, x) in unions.iter().zip(parts) {
            let gone = u & once;
            if gone == 0 || x.cage == real {
                continue;
            }
            let at = x.start as usize + x.meet as usize;
            for &c in &cages.crossing_cells[at..][..x.cage_rest as usize] {
                if st.cand[c as usize] & gone != 0 {
                    self.remove(st, c as usize, gone)?;
                }
            }
            let k = x.cage as usize;
            if k >= MUST_CAGES {
                self.cheap_cage(st, k, gone)?;
            } else if gone & !st.must[k] != 0 {
                st.must[k] |= gone;
                self.cheap_cage(st, k, 0)?;
            }
        }
        Ok(())
    }

    /// Branch on a most constrained open cell; true once `limit` solutions are found.
    ///
    /// In a hard search (linear sums on), the bivalue cells are probed first while that pays
    /// (`probe.rs`), then two-way branching: the chosen digit is tried in the chosen cell, then
    /// removed from it and the removal propagated (a refutation), and the next branch is chosen
    /// afresh on what is left. Each trial and each refutation counts as a node
    /// (one propagation from a decision). The cheap first search uses `branch_light`.
    fn branch(&mut self, st: &State) -> bool {
        if self.linear_set.is_none() {
            return self.branch_light(st);
        }
        let mut cur = *st;
        // Probed once per node, not again after each refutation below, and only while probing
        // pays (measured in `probe.rs`).
        if self.probe_pace.due() {
            match self.probe(&mut cur) {
                Ok(true) => {}
                Ok(false) => return true,
                Err(Contradiction) => {
                    self.clear_pending();
                    return false;
                }
            }
        }
        loop {
            let Some((cell, b)) = self.choose(&cur) else {
                return self.record(&cur);
            };
            if !self.quota.spend_node() {
                return true;
            }
            let mut child = cur;
            let ok = self.set(&mut child, cell, b).is_ok() && self.propagate(&mut child).is_ok();
            if ok {
                if self.branch(&child) {
                    return true;
                }
            } else {
                self.conflict(cell);
            }
            if !self.quota.spend_refutation() {
                return true;
            }
            if self.remove(&mut cur, cell, b).is_err() || self.propagate(&mut cur).is_err() {
                self.clear_pending();
                return false;
            }
        }
    }

    /// The branching of the cheap first search (before the linear sums): every candidate of one
    /// cell in turn (or both places of a digit in a house), the conflict counts halved every
    /// `DECAY_INTERVAL` branches. Kept as it was so that the short searches of the published
    /// killers and of the generator's uniqueness checks find what they found before (the
    /// generator's output depends on which second solutions they find).
    fn branch_light(&mut self, st: &State) -> bool {
        let Some((options, count)) = self.choose_options(st) else {
            return self.record(st);
        };
        for &(cell, b) in &options[..count] {
            let cell = cell as usize;
            if !self.quota.spend_node() {
                return true;
            }
            self.since_decay += 1;
            if self.since_decay == DECAY_INTERVAL {
                self.since_decay = 0;
                for x in &mut self.conflicts[..self.tables.cells] {
                    *x >>= 1;
                }
            }
            let mut child = *st;
            let ok = self.set(&mut child, cell, b).is_ok() && self.propagate(&mut child).is_ok();
            if ok {
                if self.branch_light(&child) {
                    return true;
                }
            } else {
                self.conflicts[cell] += 1;
                self.clear_pending();
            }
        }
        false
    }

    /// The options of `branch_light`: each candidate of the chosen cell, or the two places of a
    /// digit (see `choose`).
    fn choose_options(&self, st: &State) -> Option<([(u8, u16); 16], usize)> {
        let best = self.choose_cell(st)?;
        let x = st.cand[best];
        let mut options = [(0u8, 0u16); 16];
        let count = x.count_ones() as usize;
        if count > 2 && self.conflicts[best] > 0 {
            if let Some((a, b, d)) = self.choose_pair(st, self.conflicts[best], count as u32) {
                options[0] = (a as u8, d);
                options[1] = (b as u8, d);
                return Some((options, 2));
            }
        }
        let mut rest = x;
        for option in &mut options[..count] {
            let b = rest & rest.wrapping_neg();
            rest ^= b;
            *option = (best as u8, b);
        }
        Some((options, count))
    }

    /// Note a trial in `cell` that failed at once, and forget the work its propagation left.
    fn conflict(&mut self, cell: usize) {
        self.conflicts[cell] += 1;
        self.clear_pending();
        self.since_decay += 1;
        if self.since_decay == HARD_DECAY_INTERVAL {
            self.since_decay = 0;
            for x in &mut self.conflicts[..self.tables.cells] {
                *x >>= 1;
            }
        }
    }

    /// Forget queued singles and dirty constraints (after a contradiction).
    fn clear_pending(&mut self) {
        self.qlen = 0;
        self.dirty = [0; DIRTY_WORDS];
        self.xdirty = [0; DIRTY_WORDS];
        self.vdirty = 0;
        self.ldirty = [0; 4];
        self.hdirty = 0;
        self.sdirty = 0;
    }

    /// The open cell to branch on, or `None` when every cell is solved. The cell with the most
    /// recent conflicts per candidate wins; before any conflict, the fewest candidates, then the
    /// most unsolved peers (measured on random 16x16 killers: 21 s -> 8 s for 40 puzzles; as in
    /// the plain kernel).
    fn choose(&self, st: &State) -> Option<(usize, u16)> {
        let best = self.choose_cell(st)?;
        let x = st.cand[best];
        let count = x.count_ones();
        if count > 2 && self.conflicts[best] > 0 {
            if let Some((a, _, d)) = self.choose_pair(st, self.conflicts[best], count) {
                return Some((a, d));
            }
        }
        Some((best, x & x.wrapping_neg()))
    }

    /// A digit with two places left in a house, one of them a cell that failed often: branching
    /// on which of the two takes it splits in two where the chosen cell (`score` conflicts over
    /// `count` candidates) would split in more (the house candidate finder of sigh's solver).
    fn choose_pair(&self, st: &State, score: u32, count: u32) -> Option<(usize, usize, u16)> {
        let tables = self.tables;
        let mut found = None;
        // The score to beat as a fraction `top / top_count` (a pair's is its larger conflict
        // count over 2).
        let mut top = score as u64;
        let mut top_count = count as u64;
        for h in 0..3 * tables.n {
            let cells = tables.house(h);
            let (mut ones, mut twos, mut more) = (0u16, 0u16, 0u16);
            for &c in cells {
                let x = st.cand[c as usize];
                if is_single(x) {
                    continue;
                }
                more |= twos & x;
                twos |= ones & x;
                ones |= x;
            }
            let mut pairs = twos & !more;
            while pairs != 0 {
                let d = pairs & pairs.wrapping_neg();
                pairs ^= d;
                let mut two = cells
                    .iter()
                    .map(|&c| c as usize)
                    .filter(|&c| st.cand[c] & d != 0);
                let (Some(a), Some(b)) = (two.next(), two.next()) else {
                    continue;
                };
                let (a, b) = if self.conflicts[b] > self.conflicts[a] {
                    (b, a)
                } else {
                    (a, b)
                };
                // The first pair needs cs / 2 >= the cell's score (ties go to the pair, as in
                // sigh's solver); a later pair replaces it when its cs is at least half the kept
                // one's. This loose preference for later houses (boxes last) measured best on
                // four hard killers: 568k nodes against 739k for the strict best pair.
                let cs = self.conflicts[a] as u64;
                if cs * top_count >= top * 2 {
                    (top, top_count) = (cs, 4);
                    found = Some((a, b, d));
                }
            }
        }
        found
    }

    fn choose_cell(&self, st: &State) -> Option<usize> {
        let cells = self.tables.cells;
        let tables = self.tables;
        let mut fewest = u32::MAX;
        let mut unsolved = CellSet::EMPTY;
        // Best conflict score so far as a fraction `score / count`.
        let (mut top, mut top_count, mut top_cell) = (0u32, 1u32, usize::MAX);
        for (c, &x) in st.cand[..cells].iter().enumerate() {
            if !is_single(x) {
                let count = x.count_ones();
                fewest = fewest.min(count);
                unsolved.insert(Cell::new(c as u8));
                let score = self.conflicts[c];
                if score as u64 * top_count as u64 > top as u64 * count as u64 {
                    (top, top_count, top_cell) = (score, count, c);
                }
            }
        }
        if fewest == u32::MAX {
            return None;
        }
        if top_cell != usize::MAX {
            return Some(top_cell);
        }
        let mut best = usize::MAX;
        let mut most = 0;
        for (c, &x) in st.cand[..cells].iter().enumerate() {
            if x.count_ones() == fewest {
                let (peers, unsolved) = (tables.peer_bits[c].words(), unsolved.words());
                let open = (0..tables.words)
                    .map(|w| (peers[w] & unsolved[w]).count_ones())
                    .sum::<u32>()
                    + 1;
                if open > most {
                    (best, most) = (c, open);
                }
            }
        }
        Some(best)
    }

    /// Keep the solved state; true once enough solutions are kept.
    fn record(&mut self, st: &State) -> bool {
        let values = st.cand[..self.tables.cells]
            .iter()
            .map(|&x| digit_of(x) as u8)
            .collect();
        let grid =
            Grid::from_values(self.tables.n, values).expect("a solved state holds digits 1..=N");
        self.quota.record(grid)
    }
}

#[cfg(test)]
mod tests {
    use super::{read_parts, MAX_PARTS};
    use crate::geometry::{Geometry, MAX_CELLS};
    use crate::solver::tables::Tables;
    use rand::{Rng, SeedableRng};
    use rand_pcg::Pcg64;

    #[test]
    fn parts_of_boxes_in_closed_form_match_their_cells() {
        let mut rng = Pcg64::seed_from_u64(7);
        for (n, rows, cols) in [(9, 3, 3), (12, 3, 4), (16, 4, 4), (6, 2, 3), (8, 4, 2)] {
            let tables = Tables::new(&Geometry::boxed(n, rows, cols).unwrap());
            for _ in 0..20 {
                let mut cand = [0u16; MAX_CELLS];
                for x in &mut cand[..tables.cells] {
                    *x = rng.random::<u16>() & tables.all;
                }
                let mut got = [0u16; MAX_PARTS];
                read_parts(&tables, &cand, &mut got);
                let chunks = tables.part_cells.chunks_exact(tables.part_len);
                assert_eq!(chunks.len(), tables.cells / rows + tables.cells / cols);
                for (p, cells) in chunks.enumerate() {
                    let want = cells.iter().fold(0, |u, &c| u | cand[c as usize]);
                    assert_eq!(got[p], want, "{n}x{n} part {p}");
                }
            }
        }
    }
}
