//! The killer kernel: candidate propagation (singles, cage and derived sums, box-line locked
//! candidates, cage crossings) to a fixpoint, then branching on a copied fixed-size state.
//!
//! Candidates are one `u16` digit set per cell; a cell holding a single digit is solved. The
//! state is a small array copied per branch instead of an undo log (as the bitboard solvers
//! JSolve, fsss2 and tdoku do); everything else lives in `Tables` (per geometry) and `CageSet`
//! (per puzzle), so the search never allocates. A search starts light (the cheap rules and
//! `branch_light`); past `HEAVY_AFTER` nodes it starts over hard: exact cage filtering
//! (`sums.rs`), the derived linear sums (`linear.rs`), cage crossings, paced probing
//! (`probe.rs`) and two-way conflict-directed branching after sigh's Interactive Sudoku Solver.
//! Every rule removes only digits no solution below the node uses, and the search is
//! deterministic, so node counts are reproducible; they and the CPU of what was tried, kept and
//! dropped are in `docs/solver-kernel.md`.

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
    /// (docs/solver-kernel.md, row K1).
    cand: [u16; MAX_CELLS],
    placed: [u16; MAX_HOUSES],
    /// Per real cage (the first `MUST_CAGES`), digits it is known to hold (`crossings`).
    must: [u16; MUST_CAGES],
}

/// Cages whose known digits the state keeps (cages past it run their cheap rule at once).
// Tuned: docs/solver-kernel.md, row K14.
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

/// Branches between two halvings of the conflict counts in the cheap first search.
// As sigh's solver (docs/solver-kernel.md, row B7).
const DECAY_INTERVAL: u32 = 1 << 14;

/// Conflicts between two halvings of the conflict counts in a hard search.
// Tuned: docs/solver-kernel.md, rows B7 and B8.
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
    /// conflicts take over as they grow. A linear sum whose negation was derived too counts
    /// twice (`Linear::weight`), as when both were in the set. The branching is very sensitive
    /// to these seeds; every variant tried is in docs/solver-kernel.md, rows B2-B6.
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
            // `&`, not `&&`: no branch (the short-circuit compiled to one; row K10 of the notes).
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
            // cage, and what it prunes the exact rule then sees at once (the same fixpoint).
            // This order, cheapest first: docs/solver-kernel.md, rows K6-K9.
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
    /// call and again after a removal (rare; docs/solver-kernel.md, row K5).
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
        // pays (docs/solver-kernel.md, rows P2 and P4).
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
    /// most unsolved peers (as in the plain kernel; docs/solver-kernel.md, row B1).
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
                // one's. This loose preference for later houses (boxes last) measured best
                // (docs/solver-kernel.md, row B9).
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
