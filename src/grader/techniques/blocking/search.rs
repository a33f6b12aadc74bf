//! The joint search behind combination blocking: a few cells with their candidates, the sums some
//! groups of them must make (cages, rule-of-45 equations) and which cells must differ; a candidate
//! stays only if some assignment of all the cells satisfies every sum with it.
//!
//! Each candidate is tested by a search for one assignment that gives it (fewest choices first,
//! with propagation after every choice: a cell down to one digit takes it from the cells it must
//! differ from, and every sum narrows its cells to what its combinations or bounds still allow);
//! the assignment found vouches for the digits it gives the other cells too, and a candidate
//! refuted is gone for the tests after it. A search that runs out of nodes proves nothing, so its
//! candidate stays: only candidates no assignment can give are removed. (Propagating instead of
//! only checking sums took a band of tarek's killers from 10^5-10^7 nodes to 10^3-10^5.)

use crate::geometry::Cell;
use crate::solver::combos::Combos;
use std::collections::VecDeque;

/// Most cells a joint search takes (its masks are `u128`: a whole 9x9 board fits).
pub(crate) const MAX_CELLS: usize = 128;

/// One sum: `Σ coef · value = total` over some of the cells.
#[derive(Clone, Debug)]
pub(crate) struct Sum {
    /// (cell index, coefficient +1 or -1).
    pub(crate) terms: Vec<(usize, i8)>,
    pub(crate) total: i32,
}

/// The cells, candidates, sums and differences of one joint search.
#[derive(Clone, Debug, Default)]
pub(crate) struct Joint {
    pub(crate) cells: Vec<Cell>,
    pub(crate) cands: Vec<u16>,
    /// Per cell, the cells that must hold another digit (bit per cell index).
    pub(crate) sees: Vec<u128>,
    pub(crate) sums: Vec<Sum>,
}

/// The search nodes a look may spend: on one candidate, and left in all (deterministic: nodes,
/// never time).
#[derive(Copy, Clone, Debug)]
pub(crate) struct Budget {
    pub(crate) per_candidate: usize,
    pub(crate) left: usize,
}

/// How a joint search ended.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Verdict {
    /// Per cell, the candidates some assignment gives it (a candidate whose search ran out of
    /// nodes counts as given).
    Keep(Vec<u16>),
    /// No assignment at all: the board is broken (nothing to conclude here).
    Broken,
}

impl Joint {
    /// Index of `cell`, added with its candidates if new (`None` when the search is full).
    pub(crate) fn index_of(&mut self, cell: Cell, cands: u16) -> Option<usize> {
        if let Some(i) = self.cells.iter().position(|&c| c == cell) {
            return Some(i);
        }
        if self.cells.len() == MAX_CELLS {
            return None;
        }
        self.cells.push(cell);
        self.cands.push(cands);
        self.sees.push(0);
        Some(self.cells.len() - 1)
    }

    /// Cells `a` and `b` must differ.
    pub(crate) fn differ(&mut self, a: usize, b: usize) {
        if a != b {
            self.sees[a] |= 1 << b;
            self.sees[b] |= 1 << a;
        }
    }

    /// Does `values` (a digit per cell) meet every candidate, difference and sum?
    fn holds(&self, values: &[u8]) -> bool {
        values.len() == self.cells.len()
            && values.iter().enumerate().all(|(i, &v)| {
                (1..=16).contains(&v)
                    && self.cands[i] & (1 << (v - 1)) != 0
                    && (0..i).all(|j| self.sees[i] & (1u128 << j) == 0 || values[j] != v)
            })
            && self.sums.iter().all(|s| {
                s.terms
                    .iter()
                    .map(|&(i, k)| k as i32 * values[i] as i32)
                    .sum::<i32>()
                    == s.total
            })
    }

    /// Test every candidate, spending at most `budget.per_candidate` search nodes on each and
    /// `budget.left` in all (taken off it; once it is spent, the untested candidates stay). `seeds` are
    /// assignments known from an earlier look (those that still hold vouch for their digits
    /// without a search); the assignments that vouch now go to `found`. The verdict does not
    /// depend on the seeds: a candidate a seed vouches for has an assignment, so its own search
    /// would keep it too (found, or out of nodes).
    pub(crate) fn solve(
        &self,
        budget: &mut Budget,
        seeds: &[Vec<u8>],
        found: &mut Vec<Vec<u8>>,
    ) -> Verdict {
        self.solve_waking(Wake::Bounds, budget, seeds, found)
    }

    /// `solve` with its propagation waking sums as `wake` says (the same verdict, witnesses and
    /// nodes either way).
    fn solve_waking(
        &self,
        wake: Wake,
        budget: &mut Budget,
        seeds: &[Vec<u8>],
        found: &mut Vec<Vec<u8>>,
    ) -> Verdict {
        let n = self.cells.len();
        let mut keep = vec![0u16; n];
        found.clear();
        for seed in seeds.iter().filter(|s| self.holds(s)) {
            if found.len() < MAX_WITNESSES {
                found.push(seed.clone());
            }
            for (k, &v) in keep.iter_mut().zip(seed) {
                *k |= 1 << (v - 1);
            }
        }
        if keep == self.cands {
            return Verdict::Keep(keep);
        }
        let mut search = self.search(wake);
        if let Some(hint) = found.last() {
            search.hint.clone_from(hint);
        }
        // The joint's own consequences first: what propagation alone removes is removed for
        // every candidate test after it.
        for s in 0..self.sums.len() {
            search.enqueue(s);
        }
        search
            .singles
            .extend((0..n).filter(|&i| self.cands[i].count_ones() == 1));
        if !search.propagate() {
            return Verdict::Broken;
        }
        search.trail.clear();
        for i in 0..n {
            let mut todo = search.dom[i] & !keep[i];
            while todo != 0 {
                let d = todo.trailing_zeros() as u8 + 1;
                todo &= todo - 1;
                let bit = 1u16 << (d - 1);
                if search.dom[i] & bit == 0 {
                    // Removed by an earlier refutation's propagation.
                    continue;
                }
                if budget.left == 0 {
                    // Out of the look's nodes: nothing proved, the candidate stays.
                    keep[i] |= bit;
                    continue;
                }
                search.budget = budget.per_candidate.min(budget.left);
                search.nodes = 1;
                let ok = search.narrow(i, bit) && search.propagate() && search.go();
                budget.left = budget.left.saturating_sub(search.nodes);
                if ok {
                    let values: Vec<u8> = search
                        .doms()
                        .iter()
                        .map(|&m| m.trailing_zeros() as u8 + 1)
                        .collect();
                    debug_assert!(self.holds(&values), "{self:?} {values:?}");
                    for (k, &v) in keep.iter_mut().zip(&values) {
                        *k |= 1 << (v - 1);
                    }
                    if found.len() < MAX_WITNESSES {
                        found.push(values.clone());
                    }
                    search.hint = values;
                    search.undo(0);
                    todo &= !keep[i];
                    continue;
                }
                search.undo(0);
                if search.nodes > search.budget {
                    // Out of nodes: nothing proved, the candidate stays.
                    keep[i] |= bit;
                    continue;
                }
                // Refuted: gone for every later test too (its consequences with it).
                if !(search.narrow(i, search.dom[i] & !bit) && search.propagate()) {
                    return Verdict::Broken;
                }
                search.trail.clear();
            }
            if keep[i] & search.dom[i] == 0 {
                return Verdict::Broken;
            }
        }
        // A candidate kept untested may since have been refuted through another's propagation.
        for (k, &d) in keep.iter_mut().zip(search.doms()) {
            *k &= d;
        }
        Verdict::Keep(keep)
    }
}

impl Joint {
    /// A search over the joint, nothing narrowed yet, its sums woken as `wake` says.
    fn search(&self, wake: Wake) -> Search<'_> {
        let n = self.cells.len();
        let mut counts = vec![0u32; n + 1];
        for sum in &self.sums {
            for &(i, _) in &sum.terms {
                counts[i + 1] += 1;
            }
        }
        for i in 0..n {
            counts[i + 1] += counts[i];
        }
        let distinct: Vec<bool> = self
            .sums
            .iter()
            .map(|sum| {
                sum.terms.iter().all(|&(i, k)| {
                    k == 1
                        && sum
                            .terms
                            .iter()
                            .all(|&(j, _)| i == j || self.sees[i] & (1u128 << j) != 0)
                })
            })
            .collect();
        let mut next = counts.clone();
        let mut sums_of = vec![0u32; counts[n] as usize];
        for (s, sum) in self.sums.iter().enumerate() {
            for &(i, _) in &sum.terms {
                sums_of[next[i] as usize] = s as u32 | if distinct[s] { DISTINCT } else { 0 };
                next[i] += 1;
            }
        }
        let mut sums_at = [0u32; MAX_CELLS + 1];
        sums_at[..=n].copy_from_slice(&counts);
        let mut dom = [0u16; MAX_CELLS];
        dom[..n].copy_from_slice(&self.cands);
        let (sets_at, sets) = self.digit_sets(&distinct);
        let live = sets_at
            .windows(2)
            .map(|w| match (w[1] - w[0]) as usize {
                0 => 0,
                len => u64::MAX >> (64 - len.min(TRACKED)),
            })
            .collect();
        let mut terms_at = Vec::with_capacity(self.sums.len() + 1);
        let mut term_cells = Vec::new();
        let mut term_signs = Vec::new();
        terms_at.push(0);
        for sum in &self.sums {
            term_cells.extend(sum.terms.iter().map(|&(i, _)| i as u8));
            term_signs.extend(sum.terms.iter().map(|&(_, k)| k));
            terms_at.push(term_cells.len() as u32);
        }
        Search {
            joint: self,
            terms_at,
            term_cells,
            term_signs,
            sets_at,
            sets,
            live,
            sums_at,
            sums_of,
            wake,
            distinct,
            n,
            dom,
            trail: Vec::new(),
            queued: vec![false; self.sums.len()],
            queue: Queue {
                stack: Vec::new(),
                later: VecDeque::new(),
                split: wake == Wake::Bounds,
            },
            singles: Vec::new(),
            nodes: 0,
            budget: 0,
            hint: vec![0; n],
            revisions: 0,
            broke: None,
            locked: false,
        }
    }
}

impl Joint {
    /// Per sum over distinct cells, the digit sets of the cage combination table that could fill
    /// it from the cells' candidates: no digit outside them, a digit of every cell, every digit
    /// of a cell down to one. Candidates only shrink, so a set that fails this now fails in
    /// every later state too, and a revision need only look at these (sum `s`'s are
    /// `sets[at[s]..at[s + 1]]`; none for the other sums).
    fn digit_sets(&self, distinct: &[bool]) -> (Vec<u32>, Vec<u16>) {
        // Digit sets by size and sum, over the digits the cells can hold.
        let top = self.cands.iter().fold(0u16, |a, &c| a | c);
        let combos = Combos::of((16 - top.leading_zeros() as usize).max(1));
        let mut at = Vec::with_capacity(self.sums.len() + 1);
        let mut sets = Vec::new();
        at.push(0);
        for (sum, &distinct) in self.sums.iter().zip(distinct) {
            if !distinct {
                at.push(sets.len() as u32);
                continue;
            }
            let doms: Vec<u16> = sum.terms.iter().map(|&(i, _)| self.cands[i]).collect();
            let union = doms.iter().fold(0, |a, &d| a | d);
            let fixed = doms
                .iter()
                .filter(|d| d.count_ones() == 1)
                .fold(0, |a, &d| a | d);
            if let Ok(total) = usize::try_from(sum.total) {
                sets.extend(
                    combos
                        .get(doms.len(), total)
                        .iter()
                        .filter(|&&m| m & !union == 0 && fits(m, &doms, fixed)),
                );
            }
            at.push(sets.len() as u32);
        }
        (at, sets)
    }
}

/// Does digit set `m` hold every digit of `fixed` and a digit of every cell of `doms`?
#[inline]
fn fits(m: u16, doms: &[u16], fixed: u16) -> bool {
    m & fixed == fixed && doms.iter().all(|&d| d & m != 0)
}

/// Most digits a cell may have to be probed inside a branch.
const PROBE_WIDTH: u32 = 3;

/// Premises followed one at a time from a joint's own consequences, each by propagation alone
/// (no search): what a forcing chain through the joint's sums reads.
pub(crate) struct Forcing<'j> {
    search: Search<'j>,
}

impl Joint {
    /// The joint's own consequences, ready to follow premises from (`None` when they break it).
    pub(crate) fn forcing(&self) -> Option<Forcing<'_>> {
        // The forcing rungs count sums narrowed as their work: every sum wakes, as it always did.
        let mut search = self.search(Wake::Every);
        search.locked = true;
        for s in 0..self.sums.len() {
            search.enqueue(s);
        }
        search
            .singles
            .extend((0..self.cells.len()).filter(|&i| self.cands[i].count_ones() == 1));
        if !search.propagate() {
            return None;
        }
        search.trail.clear();
        Some(Forcing { search })
    }
}

impl Forcing<'_> {
    /// The digits each cell keeps after the joint's own consequences.
    pub(crate) fn domains(&self) -> &[u16] {
        self.search.doms()
    }

    /// Sums narrowed so far, by the joint's own consequences and every premise followed.
    pub(crate) fn work(&self) -> usize {
        self.search.revisions
    }

    /// Follow "cell `i` holds one of `mask`": the digits each cell keeps then (into `keeps`), or
    /// what broke. A branch that stalls is also probed `depth` levels deep: a
    /// digit of a cell of at most `PROBE_WIDTH` digits that breaks the branch goes from it (a
    /// chain inside the chain; at depth 2 each such digit is itself probed before it is judged),
    /// and a cell whose every digit breaks it breaks the branch.
    pub(crate) fn follow(
        &mut self,
        i: usize,
        mask: u16,
        depth: u8,
        keeps: &mut Vec<u16>,
    ) -> Result<(), Broke> {
        self.search.broke = None;
        let mut ok = self.search.narrow(i, mask) && self.search.propagate();
        let mut broke = self.search.broke;
        if ok && depth > 0 {
            if let Err(b) = self.probe(depth) {
                (ok, broke) = (false, Some(b));
            }
        }
        if ok {
            keeps.clear();
            keeps.extend_from_slice(self.search.doms());
        }
        self.search.undo(0);
        match ok {
            true => Ok(()),
            false => Err(broke.unwrap_or(Broke::Cell(i))),
        }
    }

    /// Probe every cell of two or three digits (`PROBE_WIDTH`) of the current state until
    /// nothing changes, `depth` levels deep: a digit that breaks the state goes; a cell whose
    /// every digit breaks it breaks the state.
    fn probe(&mut self, depth: u8) -> Result<(), Broke> {
        loop {
            let mut changed = false;
            for j in 0..self.search.n {
                let all = self.search.dom[j];
                if all.count_ones() < 2 || all.count_ones() > PROBE_WIDTH {
                    continue;
                }
                let mut alive = 0u16;
                let mut todo = all;
                while todo != 0 {
                    let bit = todo & todo.wrapping_neg();
                    todo &= todo - 1;
                    let mark = self.search.trail.len();
                    if self.search.narrow(j, bit)
                        && self.search.propagate()
                        && (depth < 2 || self.probe(depth - 1).is_ok())
                    {
                        alive |= bit;
                    }
                    self.search.undo(mark);
                }
                if alive == 0 {
                    return Err(Broke::Nested(j));
                }
                if alive != all {
                    let s = &mut self.search;
                    if !(s.narrow(j, alive) && s.propagate()) {
                        return Err(s.broke.unwrap_or(Broke::Cell(j)));
                    }
                    changed = true;
                }
            }
            if !changed {
                return Ok(());
            }
        }
    }
}

/// Assignments kept per item from one look to the next.
pub(crate) const MAX_WITNESSES: usize = 64;

/// A depth-first search with propagation: every cell keeps the digits it can still take, a cell
/// left with one digit takes it from the cells it must differ from, and every sum narrows its
/// cells to the digits some filling of it still allows (the cage combination table for sums over
/// distinct cells, with a digit every combination needs placed where only one cell can take it;
/// bounds for the rest).
struct Search<'j> {
    joint: &'j Joint,
    /// The sums cell `i` is a term of are `sums_of[sums_at[i]..sums_at[i + 1]]`, in sum order,
    /// each with `DISTINCT` set when it is over distinct cells (a narrowing wakes those without
    /// reading `distinct`).
    sums_at: [u32; MAX_CELLS + 1],
    sums_of: Vec<u32>,
    /// Sum `s`'s terms are cells `term_cells[terms_at[s]..terms_at[s + 1]]` (indices, as `u8`:
    /// at most `MAX_CELLS`) with coefficients `term_signs[..]` at the same places: the sums'
    /// terms laid out flat, read by the revisions.
    terms_at: Vec<u32>,
    term_cells: Vec<u8>,
    term_signs: Vec<i8>,
    /// Which sums a narrowed cell wakes.
    wake: Wake,
    /// Per sum over distinct cells, the digit sets that could fill it (see `digit_sets`).
    sets_at: Vec<u32>,
    sets: Vec<u16>,
    /// Per sum of at most `TRACKED` such sets, those that can still fill it (bit per set): a set
    /// that cannot stays unable while the search goes deeper, so a revision tries only these.
    live: Vec<u64>,
    /// Per sum: are its terms all +1 over cells that must differ (a cage, a house)?
    distinct: Vec<bool>,
    /// The number of cells.
    n: usize,
    /// The digits each cell can still take (the first `n`; a fixed array, indexed through `at`,
    /// needs neither its length read nor a bounds check in the hot loops).
    dom: [u16; MAX_CELLS],
    /// What a change replaced, to undo back to a mark: (cell, its digits) for a cell,
    /// (`MAX_CELLS` + sum, its live sets) for a sum.
    trail: Vec<(usize, u64)>,
    /// Sums waiting to narrow their cells again.
    queued: Vec<bool>,
    queue: Queue,
    /// Cells just left with one digit, still to take it from their neighbours.
    singles: Vec<usize>,
    nodes: usize,
    budget: usize,
    /// The last assignment found: each cell tries its digit there first, so a search for the
    /// next candidate mostly repairs that assignment around the new digit.
    hint: Vec<u8>,
    /// Sums narrowed so far (the work of a forcing branch).
    revisions: usize,
    /// What the last failed propagation broke.
    broke: Option<Broke>,
    /// Also take a digit every filling of a cage or house needs from the cells that see all its
    /// places (locked candidates: pointing, claiming, a cage's must-contain digit). Forcing
    /// chains only: the joint search's verdicts do not depend on it.
    locked: bool,
}

/// The sums waiting to be revised: one stack (last in first out), or with `split` the linear
/// sums on the stack and those over distinct cells in `later`, first in first out, revised once
/// no linear sum waits. A candidate search needs only the fixpoint, which any order reaches
/// (see `Wake::Bounds`): split, it revised 16% fewer sums over distinct cells (the costly
/// revisions) than with one stack, with the same nodes and verdicts (12x12 `--level any`, 100
/// items, `--seed 5`). The forcing rungs count every revision as their work, so they keep the
/// one stack.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Queue {
    stack: Vec<usize>,
    later: VecDeque<usize>,
    split: bool,
}

impl Queue {
    /// Sum `s` (over distinct cells or not) waits.
    #[inline(always)]
    fn push(&mut self, s: usize, distinct: bool) {
        match distinct && self.split {
            true => self.later.push_back(s),
            false => self.stack.push(s),
        }
    }

    /// The next sum to revise.
    #[inline(always)]
    fn pop(&mut self) -> Option<usize> {
        self.stack.pop().or_else(|| self.later.pop_front())
    }
}

/// Which sums a narrowed cell wakes (puts back on the queue).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Wake {
    /// Every sum it is a term of, whatever changed: the order and number of sums narrowed stay
    /// those the forcing rungs count as their work.
    Every,
    /// Its sums over distinct cells always, a linear sum only when the cell's least or greatest
    /// digit moved. A linear sum narrows by its terms' bounds alone, so one that was settled stays
    /// settled when no bound moved; propagation then ends in the same state (every sum narrows
    /// monotonically, so the state where none narrows further is the same in any order), with
    /// fewer sums narrowed on the way. For the same reason a sum over distinct cells is not woken
    /// by its own narrowing to the digits its fillings allow (it would narrow nothing more).
    Bounds,
}

/// What a propagation found impossible.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Broke {
    /// The cell (index) was left without a digit.
    Cell(usize),
    /// The sum (index) was left without a filling.
    Sum(usize),
    /// Every digit of the cell (index) broke the branch in turn (a chain inside the chain).
    Nested(usize),
}

/// The flag of a `sums_of` entry whose sum is over distinct cells.
const DISTINCT: u32 = 1 << 31;

/// Cell index `i` (always below `MAX_CELLS`) as an index into the search's fixed arrays: the
/// modulo (an AND) lets the compiler drop the bounds check.
#[inline(always)]
fn at(i: usize) -> usize {
    i % MAX_CELLS
}

impl Search<'_> {
    /// The digits each cell can still take.
    fn doms(&self) -> &[u16] {
        &self.dom[..self.n]
    }

    fn enqueue(&mut self, s: usize) {
        if !self.queued[s] {
            self.queued[s] = true;
            self.queue.push(s, self.distinct[s]);
        }
    }

    /// Cell `i` keeps only `mask` of its digits: false when none are left.
    #[inline]
    fn narrow(&mut self, i: usize, mask: u16) -> bool {
        // Most calls remove nothing: that test stays inline, the change does not.
        self.dom[at(i)] & !mask == 0 || self.change(i, mask)
    }

    /// `narrow` when some digit goes: record it, wake the cell's sums and, down to one digit,
    /// the cell's neighbours.
    #[inline(never)]
    fn change(&mut self, i: usize, mask: u16) -> bool {
        let old = self.dom[at(i)];
        let new = old & mask;
        if new == 0 {
            self.broke = Some(Broke::Cell(i));
            return false;
        }
        self.trail.push((i, u64::from(old)));
        self.dom[at(i)] = new;
        let moved = self.wake == Wake::Every
            || new.trailing_zeros() != old.trailing_zeros()
            || new.leading_zeros() != old.leading_zeros();
        let wakes = if moved { 0 } else { DISTINCT };
        let sums = self.sums_at[at(i)] as usize..self.sums_at[at(i) + 1] as usize;
        for &e in &self.sums_of[sums] {
            let s = (e & !DISTINCT) as usize;
            if e & wakes == wakes && !self.queued[s] {
                self.queued[s] = true;
                self.queue.push(s, e & DISTINCT != 0);
            }
        }
        if is_single(new) {
            self.singles.push(i);
        }
        true
    }

    /// Undo the changes after trail position `mark`.
    fn undo(&mut self, mark: usize) {
        while self.trail.len() > mark {
            let (i, old) = self.trail.pop().unwrap_or_else(|| unreachable!());
            match i < MAX_CELLS {
                true => self.dom[at(i)] = old as u16,
                false => self.live[i - MAX_CELLS] = old,
            }
        }
    }

    /// Narrow until nothing changes: false when some cell or sum is left impossible.
    fn propagate(&mut self) -> bool {
        let ok = loop {
            if let Some(i) = self.singles.pop() {
                let bit = self.dom[at(i)];
                let seen = self.joint.sees[i];
                let mut ok = true;
                // The cells it sees in index order, a 64-bit half at a time (a `u128`'s bit
                // loop costs several times more on the build's target, and most joints fit
                // the low half).
                for (mut bits, base) in [(seen as u64, 0), ((seen >> 64) as u64, 64)] {
                    while bits != 0 && ok {
                        let j = base + bits.trailing_zeros() as usize;
                        bits &= bits - 1;
                        ok = self.dom[at(j)] & bit == 0 || self.narrow(j, !bit);
                    }
                }
                if !ok {
                    break false;
                }
                continue;
            }
            match self.queue.pop() {
                Some(s) => {
                    self.queued[s] = false;
                    self.revisions += 1;
                    self.broke = None;
                    if !self.revise(s) {
                        // A sum that empties a cell broke there; one with no filling at all, itself.
                        self.broke.get_or_insert(Broke::Sum(s));
                        break false;
                    }
                }
                None => break true,
            }
        };
        if !ok {
            for s in self.queue.stack.drain(..).chain(self.queue.later.drain(..)) {
                self.queued[s] = false;
            }
            self.singles.clear();
        }
        ok
    }

    /// Narrow the cells of sum `s` to what some filling of it allows.
    fn revise(&mut self, s: usize) -> bool {
        if self.distinct[s] {
            return self.revise_distinct(s);
        }
        let terms = self.terms_at[s] as usize..self.terms_at[s + 1] as usize;
        let (mut lo, mut hi, mut span) = (0i32, 0i32, 0i32);
        let cells = &self.term_cells[terms.clone()];
        for (&i, &k) in cells.iter().zip(&self.term_signs[terms.clone()]) {
            let d = self.dom[at(i as usize)];
            let (min, max) = (d.trailing_zeros() as i32 + 1, 16 - d.leading_zeros() as i32);
            match k > 0 {
                true => (lo, hi) = (lo + min, hi + max),
                false => (lo, hi) = (lo - max, hi - min),
            }
            span = span.max(max - min);
        }
        let total = self.joint.sums[s].total;
        if total < lo || total > hi {
            return false;
        }
        if hi - total >= span && total - lo >= span {
            // Every term's range fits in the slack on both sides: nothing narrows.
            return true;
        }
        for t in terms {
            let (i, k) = (self.term_cells[t] as usize, self.term_signs[t]);
            let d = self.dom[at(i)];
            let (min, max) = (d.trailing_zeros() as i32 + 1, 16 - d.leading_zeros() as i32);
            // The other terms make between these; this one takes the rest.
            let (from, to) = match k > 0 {
                true => (total - (hi - max), total - (lo - min)),
                false => ((lo + max) - total, (hi + min) - total),
            };
            if !self.narrow(i, range_mask(from, to)) {
                return false;
            }
        }
        true
    }

    /// `revise` for a sum over distinct cells: the cage combination table.
    fn revise_distinct(&mut self, s: usize) -> bool {
        let terms = self.terms_at[s] as usize..self.terms_at[s + 1] as usize;
        let k = terms.len();
        let sets = &self.sets[self.sets_at[s] as usize..self.sets_at[s + 1] as usize];
        if sets.is_empty() || k > MAX_DISTINCT {
            // No filling (a set has at most 16 digits).
            return false;
        }
        let mut doms = [0u16; MAX_DISTINCT];
        let (mut union, mut fixed) = (0u16, 0u16);
        for (d, &i) in doms.iter_mut().zip(&self.term_cells[terms.clone()]) {
            *d = self.dom[at(i as usize)];
            union |= *d;
            if is_single(*d) {
                fixed |= *d;
            }
        }
        let doms = &doms[..k];
        let (allowed, required) = match sets.len() <= TRACKED {
            true => {
                let live = self.live[s];
                let (mut allowed, mut required, mut still) = (0u16, u16::MAX, live);
                let mut todo = live;
                while todo != 0 {
                    let t = todo.trailing_zeros() as usize;
                    todo &= todo - 1;
                    let m = sets[t];
                    if m & !union == 0 && fits(m, doms, fixed) {
                        allowed |= m;
                        required &= m;
                    } else {
                        still &= !(1 << t);
                    }
                }
                if still != live {
                    self.trail.push((MAX_CELLS + s, live));
                    self.live[s] = still;
                }
                (allowed, required)
            }
            false => fillings(sets, doms, union, fixed),
        };
        if allowed == 0 {
            return false;
        }
        if allowed != union {
            // Narrowed to `allowed`, the sum's cells still fit every set that fitted them, so
            // reading the sum again would narrow nothing by itself: a candidate search, which
            // only needs the fixpoint, does not wake it for these (its digits placed below
            // still do).
            let quiet = self.wake == Wake::Bounds && !self.queued[s];
            self.queued[s] |= quiet;
            for t in terms.clone() {
                if !self.narrow(self.term_cells[t] as usize, allowed) {
                    self.queued[s] &= !quiet;
                    return false;
                }
            }
            self.queued[s] &= !quiet;
        }
        let need = required & !fixed;
        if self.locked {
            return self.place_or_lock(s, need);
        }
        // A digit every filling needs, with one cell left to take it (digits in increasing
        // order, each against the cells as the digits before it left them).
        let mut need = need;
        while need != 0 {
            let (mut once, mut twice) = (0u16, 0u16);
            for &i in &self.term_cells[terms.clone()] {
                let d = self.dom[at(i as usize)];
                twice |= once & d;
                once |= d;
            }
            // Digits of two places or more narrow nothing: the first digit of none or one.
            let hit = need & !twice;
            if hit == 0 {
                break;
            }
            let bit = hit & hit.wrapping_neg();
            need &= !(bit | (bit - 1));
            if once & bit == 0 {
                return false;
            }
            let place = self.term_cells[terms.clone()]
                .iter()
                .find(|&&i| self.dom[at(i as usize)] & bit != 0);
            if let Some(&i) = place {
                if !self.narrow(i as usize, bit) {
                    return false;
                }
            }
        }
        true
    }

    /// The forcing chains' reading of the digits `need` every filling of distinct sum `s` needs,
    /// in increasing order: a digit with one place goes there, a digit with more leaves every
    /// cell that sees all its places (locked candidates); false when one has no place left or a
    /// cell empties.
    fn place_or_lock(&mut self, s: usize, mut need: u16) -> bool {
        let terms = &self.joint.sums[s].terms;
        while need != 0 {
            let bit = need & need.wrapping_neg();
            need &= need - 1;
            let mut place = None;
            let mut places = 0;
            for &(i, _) in terms {
                if self.dom[i] & bit != 0 {
                    places += 1;
                    place = Some(i);
                }
            }
            match (places, place) {
                (0, _) => return false,
                (1, Some(i)) if !self.narrow(i, bit) => return false,
                (1, _) => {}
                _ if !self.lock(s, bit) => return false,
                _ => {}
            }
        }
        true
    }

    /// Take `bit`, which every filling of distinct sum `s` needs, from every cell that must
    /// differ from all of its places in `s`: false when that empties a cell.
    fn lock(&mut self, s: usize, bit: u16) -> bool {
        let mut seen = u128::MAX;
        for &(i, _) in &self.joint.sums[s].terms {
            if self.dom[i] & bit != 0 {
                seen &= self.joint.sees[i];
            }
        }
        while seen != 0 {
            let j = seen.trailing_zeros() as usize;
            seen &= seen - 1;
            if self.dom[j] & bit != 0 && !self.narrow(j, !bit) {
                return false;
            }
        }
        true
    }

    /// Complete the assignment (fewest choices first); true with every cell down to one digit.
    fn go(&mut self) -> bool {
        self.nodes += 1;
        if self.nodes > self.budget {
            return false;
        }
        let mut best = None;
        let mut fewest = u32::MAX;
        for (i, &d) in self.doms().iter().enumerate() {
            if is_single(d) {
                continue;
            }
            let c = count_digits(d);
            if c < fewest {
                fewest = c;
                best = Some(i);
                if c == 2 {
                    // No cell has fewer: the first of two is the choice.
                    break;
                }
            }
        }
        let Some(i) = best else {
            return true;
        };
        let mut dom = self.dom[i];
        let h = self.hint[i];
        let mark = self.trail.len();
        if h != 0 && dom & (1 << (h - 1)) != 0 {
            dom &= !(1 << (h - 1));
            if self.narrow(i, 1 << (h - 1)) && self.propagate() && self.go() {
                return true;
            }
            self.undo(mark);
            if self.nodes > self.budget {
                return false;
            }
        }
        while dom != 0 {
            let bit = dom & dom.wrapping_neg();
            dom &= dom - 1;
            if self.narrow(i, bit) && self.propagate() && self.go() {
                return true;
            }
            self.undo(mark);
            if self.nodes > self.budget {
                return false;
            }
        }
        false
    }
}

/// Is `d` one digit or none? (`count_ones() <= 1` without POPCNT, which the build's target
/// lacks: a search cell is never left with none.)
#[inline(always)]
fn is_single(d: u16) -> bool {
    d & d.wrapping_sub(1) == 0
}

/// Set bits per byte value, for `count_digits`.
const BYTE_BITS: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut b = 1;
    while b < 256 {
        t[b] = (b & 1) as u8 + t[b >> 1];
        b += 1;
    }
    t
};

/// The number of digits in `d` (`count_ones` by two table reads: without POPCNT the build's
/// bit-twiddling count costs several times more in the choice of a cell).
#[inline(always)]
fn count_digits(d: u16) -> u32 {
    u32::from(BYTE_BITS[usize::from(d & 0xff)] + BYTE_BITS[usize::from(d >> 8)])
}

/// Most digit sets of a sum whose live sets a search tracks (a bit each in a `u64`).
const TRACKED: usize = 64;

/// Most terms of a sum over distinct cells (digits go up to 16).
const MAX_DISTINCT: usize = 16;

/// The digits some filling of distinct cells with candidates `doms` (their union `union`, the
/// digits of those down to one `fixed`) may use (`allowed`), and those every filling uses
/// (`required`; no digit allowed when there is none). A filling is one of `sets` (digit sets of the right
/// size and sum) with no digit outside the union, every fixed digit, and a digit of every cell.
fn fillings(sets: &[u16], doms: &[u16], union: u16, fixed: u16) -> (u16, u16) {
    let (mut allowed, mut required) = (0u16, u16::MAX);
    for &m in sets {
        if m & !union == 0 && fits(m, doms, fixed) {
            allowed |= m;
            required &= m;
        }
    }
    (allowed, required)
}

/// The digits from `from` to `to` (1-based, clipped to 1..=16) as a mask.
fn range_mask(from: i32, to: i32) -> u16 {
    let (from, to) = (from.max(1), to.min(16));
    if from > to {
        return 0;
    }
    let width = (to - from + 1) as u32;
    let ones = if width >= 16 {
        u16::MAX
    } else {
        (1u16 << width) - 1
    };
    ones << (from - 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every assignment listed: the candidates some assignment gives each cell.
    fn brute(j: &Joint) -> Option<Vec<u16>> {
        fn go(j: &Joint, i: usize, vals: &mut Vec<u8>, keep: &mut Vec<u16>) {
            if i == j.cells.len() {
                let ok = j.sums.iter().all(|s| {
                    s.terms
                        .iter()
                        .map(|&(c, k)| k as i32 * vals[c] as i32)
                        .sum::<i32>()
                        == s.total
                });
                if ok {
                    for (k, &v) in keep.iter_mut().zip(vals.iter()) {
                        *k |= 1 << (v - 1);
                    }
                }
                return;
            }
            for d in 1..=9u8 {
                if j.cands[i] & (1 << (d - 1)) == 0 {
                    continue;
                }
                if (0..i).any(|x| j.sees[i] & (1 << x) != 0 && vals[x] == d) {
                    continue;
                }
                vals.push(d);
                go(j, i + 1, vals, keep);
                vals.pop();
            }
        }
        let mut keep = vec![0u16; j.cells.len()];
        go(j, 0, &mut Vec::new(), &mut keep);
        (!keep.contains(&0)).then_some(keep)
    }

    /// A random joint for the brute-force tests: `cells` cells of random candidates (digits
    /// 1-9), each pair told to differ with probability `differ`, and a number in `sums` of
    /// random signed sums over them.
    fn random_joint(
        rng: &mut rand_pcg::Pcg64,
        cells: std::ops::RangeInclusive<usize>,
        differ: f64,
        sums: std::ops::Range<usize>,
    ) -> Joint {
        use rand::Rng;
        let n = rng.random_range(cells);
        let mut j = Joint::default();
        for i in 0..n {
            let cands = loop {
                let c = rng.random::<u16>() & 0x1ff;
                if c != 0 {
                    break c;
                }
            };
            j.index_of(Cell::new(i as u8), cands);
        }
        for a in 0..n {
            for b in a + 1..n {
                if rng.random_bool(differ) {
                    j.differ(a, b);
                }
            }
        }
        for _ in 0..rng.random_range(sums) {
            let mut terms: Vec<(usize, i8)> = Vec::new();
            for i in 0..n {
                if rng.random_bool(0.6) {
                    terms.push((i, if rng.random_bool(0.8) { 1 } else { -1 }));
                }
            }
            if !terms.is_empty() {
                let total = rng.random_range(-5..=30);
                j.sums.push(Sum { terms, total });
            }
        }
        j
    }

    #[test]
    fn the_search_keeps_exactly_what_some_assignment_gives() {
        use rand::SeedableRng;
        let mut rng = rand_pcg::Pcg64::seed_from_u64(25);
        let mut outcomes = [0usize; 2];
        for _ in 0..3_000 {
            let j = random_joint(&mut rng, 1..=6, 0.4, 0..3);
            let want = brute(&j);
            outcomes[want.is_some() as usize] += 1;
            match (
                j.solve(
                    &mut Budget {
                        per_candidate: 1_000_000,
                        left: usize::MAX,
                    },
                    &[],
                    &mut Vec::new(),
                ),
                want,
            ) {
                (Verdict::Keep(k), Some(w)) => {
                    assert_eq!(k, w, "{j:?}");
                    // Seeded with the assignments of a look, part of them or all, the verdict
                    // stays.
                    let mut found = Vec::new();
                    j.solve(
                        &mut Budget {
                            per_candidate: 1_000_000,
                            left: usize::MAX,
                        },
                        &[],
                        &mut found,
                    );
                    let half = &found[..found.len() / 2];
                    let mut again = Vec::new();
                    assert_eq!(
                        j.solve(
                            &mut Budget {
                                per_candidate: 1_000_000,
                                left: usize::MAX
                            },
                            half,
                            &mut again
                        ),
                        Verdict::Keep(w)
                    );
                    assert!(again.iter().all(|a| j.holds(a)));
                }
                (Verdict::Broken, None) => {}
                (got, want) => panic!("{j:?}: got {got:?}, want {want:?}"),
            }
        }
        assert!(outcomes[0] > 100 && outcomes[1] > 100, "{outcomes:?}");
    }

    /// A branch the forcing propagation breaks has no assignment, and what the surviving
    /// branches of a cell keep covers every assignment (random joints against the brute force),
    /// at every probe depth: propagation alone, probed (killer forcing chains), probed with
    /// probes inside (nested ones); each depth refutes more than the one before.
    #[test]
    fn forcing_refutes_only_what_no_assignment_gives() {
        use rand::SeedableRng;
        let mut rng = rand_pcg::Pcg64::seed_from_u64(26);
        let mut refuted = [0; 3];
        for _ in 0..2_000 {
            let j = random_joint(&mut rng, 2..=7, 0.5, 1..4);
            let n = j.cells.len();
            let want = brute(&j);
            let Some(mut forcing) = j.forcing() else {
                assert!(want.is_none(), "{j:?}");
                continue;
            };
            let Some(want) = want else { continue };
            let base = forcing.domains().to_vec();
            for (w, b) in want.iter().zip(&base) {
                assert_eq!(w & !b, 0, "{j:?}");
            }
            let mut keeps = Vec::new();
            for depth in 0..=2u8 {
                for i in 0..n {
                    let mut union = vec![0u16; n];
                    let mut todo = base[i];
                    while todo != 0 {
                        let bit = todo & todo.wrapping_neg();
                        todo &= todo - 1;
                        match forcing.follow(i, bit, depth, &mut keeps) {
                            Ok(()) => union.iter_mut().zip(&keeps).for_each(|(u, &k)| *u |= k),
                            Err(_) => {
                                refuted[depth as usize] += 1;
                                assert_eq!(want[i] & bit, 0, "depth {depth}: {j:?}");
                            }
                        }
                    }
                    for (w, u) in want.iter().zip(&union) {
                        assert_eq!(w & !u, 0, "depth {depth}: {j:?}");
                    }
                }
            }
        }
        assert!(
            refuted[0] > 100 && refuted[1] > refuted[0] && refuted[2] > refuted[1],
            "{refuted:?}"
        );
    }

    /// A random joint around a hidden assignment (`digits` digits): candidates that hold its
    /// digit and others, cages of cells it gives distinct digits (cells told to differ, summing
    /// to its sum), signed sums through the cells; a total is now and then off by one.
    fn planted_joint(rng: &mut rand_pcg::Pcg64, digits: u32) -> Joint {
        use rand::Rng;
        let n = rng.random_range(3..=10);
        let all = (1u16 << digits) - 1;
        let values: Vec<u8> = (0..n).map(|_| rng.random_range(1..=digits as u8)).collect();
        let mut j = Joint::default();
        for (i, &v) in values.iter().enumerate() {
            let cands = (rng.random::<u16>() & rng.random::<u16>() & all) | 1 << (v - 1);
            j.index_of(Cell::new(i as u8), cands);
        }
        let off = |rng: &mut rand_pcg::Pcg64| match rng.random_bool(0.1) {
            true => rng.random_range(-1..=1),
            false => 0,
        };
        for _ in 0..rng.random_range(1..=4) {
            let mut cage: Vec<usize> = Vec::new();
            for i in 0..n {
                if rng.random_bool(0.4) && cage.iter().all(|&c| values[c] != values[i]) {
                    cage.push(i);
                }
            }
            for (x, &a) in cage.iter().enumerate() {
                for &b in &cage[x + 1..] {
                    j.differ(a, b);
                }
            }
            if !cage.is_empty() {
                let total = cage.iter().map(|&c| values[c] as i32).sum::<i32>() + off(rng);
                let terms = cage.iter().map(|&c| (c, 1)).collect();
                j.sums.push(Sum { terms, total });
            }
        }
        for _ in 0..rng.random_range(0..=2) {
            let mut terms: Vec<(usize, i8)> = Vec::new();
            for i in 0..n {
                if rng.random_bool(0.5) {
                    terms.push((i, if rng.random_bool(0.7) { 1 } else { -1 }));
                }
            }
            if !terms.is_empty() {
                let total = terms
                    .iter()
                    .map(|&(c, k)| k as i32 * values[c] as i32)
                    .sum::<i32>()
                    + off(rng);
                j.sums.push(Sum { terms, total });
            }
        }
        j
    }

    /// Waking a linear sum only when a bound of a term moves, and a cage or house not by its own
    /// narrowing to its fillings' digits, leaves every search as it was: the same verdict, the
    /// same witnesses and the same nodes spent, also when the nodes run out. (Fails when the
    /// cage or house also stays asleep for the digits it places.)
    #[test]
    fn waking_by_bounds_finds_what_waking_every_sum_finds() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_pcg::Pcg64::seed_from_u64(27);
        let mut outcomes = [0usize; 3];
        for round in 0..4_000 {
            let j = match round % 2 {
                0 => planted_joint(&mut rng, if round % 4 == 0 { 9 } else { 12 }),
                _ => random_joint(&mut rng, 2..=8, 0.5, 1..4),
            };
            let budget = Budget {
                per_candidate: rng.random_range(1..=60),
                left: rng.random_range(1..=400),
            };
            let (mut a, mut b) = (budget, budget);
            let (mut found_a, mut found_b) = (Vec::new(), Vec::new());
            let got_a = j.solve_waking(Wake::Every, &mut a, &[], &mut found_a);
            let got_b = j.solve_waking(Wake::Bounds, &mut b, &[], &mut found_b);
            assert_eq!(got_a, got_b, "{j:?}");
            assert_eq!((a.left, &found_a), (b.left, &found_b), "{j:?}");
            // Seeded with half the witnesses, at the full budget.
            let half = found_a[..found_a.len() / 2].to_vec();
            let (mut a, mut b) = (budget, budget);
            a.left = 1_000_000;
            b.left = 1_000_000;
            let again_a = j.solve_waking(Wake::Every, &mut a, &half, &mut found_a);
            let again_b = j.solve_waking(Wake::Bounds, &mut b, &half, &mut found_b);
            assert_eq!(again_a, again_b, "{j:?}");
            assert_eq!((a.left, &found_a), (b.left, &found_b), "{j:?}");
            outcomes[match again_a {
                Verdict::Broken => 0,
                Verdict::Keep(k) if k == j.cands => 1,
                Verdict::Keep(_) => 2,
            }] += 1;
        }
        assert!(outcomes.iter().all(|&o| o > 50), "{outcomes:?}");
    }

    /// `revise_distinct` as it read the whole cage combination table for every revision.
    fn revise_by_table(search: &mut Search<'_>, s: usize) -> bool {
        let sum = &search.joint.sums[s];
        let total = sum.total;
        if total < 0 {
            return false;
        }
        let top = search.joint.cands.iter().fold(0u16, |a, &c| a | c);
        let combos = Combos::of((16 - top.leading_zeros() as usize).max(1));
        let (mut union, mut fixed) = (0u16, 0u16);
        for &(i, _) in &sum.terms {
            let d = search.dom[i];
            union |= d;
            if d.count_ones() == 1 {
                fixed |= d;
            }
        }
        let (mut allowed, mut required) = (0u16, u16::MAX);
        for &m in combos.get(sum.terms.len(), total as usize) {
            if m & !union == 0
                && m & fixed == fixed
                && sum.terms.iter().all(|&(i, _)| search.dom[i] & m != 0)
            {
                allowed |= m;
                required &= m;
            }
        }
        if allowed == 0 {
            return false;
        }
        for t in 0..sum.terms.len() {
            if !search.narrow(sum.terms[t].0, allowed) {
                return false;
            }
        }
        let mut need = required & !fixed;
        while need != 0 {
            let bit = need & need.wrapping_neg();
            need &= need - 1;
            let places: Vec<usize> = sum
                .terms
                .iter()
                .filter(|&&(i, _)| search.dom[i] & bit != 0)
                .map(|&(i, _)| i)
                .collect();
            match places[..] {
                [] => return false,
                [i] if !search.narrow(i, bit) => return false,
                _ => {}
            }
        }
        true
    }

    /// A revision of a sum over distinct cells narrows exactly what reading the whole table did,
    /// cell after cell in the same order (the forcing rungs count the sums these wake), along
    /// random paths of narrowed cells with steps undone (the live sets carried and restored).
    #[test]
    fn revise_distinct_narrows_as_the_whole_table_did() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_pcg::Pcg64::seed_from_u64(28);
        let (mut revised, mut narrowed, mut failed) = (0, 0, 0);
        for round in 0..3_000 {
            let j = planted_joint(&mut rng, if round % 2 == 0 { 9 } else { 12 });
            let n = j.cells.len();
            let (mut new, mut old) = (j.search(Wake::Every), j.search(Wake::Every));
            let cages: Vec<usize> = (0..j.sums.len()).filter(|&s| new.distinct[s]).collect();
            let cells = |search: &Search<'_>| -> Vec<(usize, u64)> {
                search.trail.iter().filter(|t| t.0 < n).copied().collect()
            };
            let mut marks: Vec<(usize, usize)> = Vec::new();
            for _ in 0..8 {
                if !marks.is_empty() && rng.random_bool(0.3) {
                    let (a, b) = marks.pop().unwrap_or_default();
                    new.undo(a);
                    old.undo(b);
                    assert_eq!(new.dom, old.dom);
                    continue;
                }
                marks.push((new.trail.len(), old.trail.len()));
                let i = rng.random_range(0..n);
                let mask = rng.random::<u16>() | rng.random::<u16>();
                let mut ok = new.narrow(i, mask);
                assert_eq!(ok, old.narrow(i, mask));
                for &s in &cages {
                    if !ok {
                        break;
                    }
                    ok = new.revise_distinct(s);
                    assert_eq!(ok, revise_by_table(&mut old, s), "{j:?} sum {s}");
                    assert_eq!(new.broke, old.broke);
                    revised += 1;
                    if !ok {
                        failed += 1;
                        break;
                    }
                    assert_eq!(new.dom, old.dom, "{j:?} sum {s}");
                    assert_eq!(cells(&new), old.trail);
                    assert_eq!(new.queue, old.queue);
                    assert_eq!(new.singles, old.singles);
                }
                narrowed = narrowed.max(old.trail.len());
                if !ok {
                    // Broken: back to before this step.
                    let (a, b) = marks.pop().unwrap_or_default();
                    new.undo(a);
                    old.undo(b);
                    new.broke = None;
                    old.broke = None;
                }
            }
        }
        assert!(
            revised > 10_000 && narrowed > 5 && failed > 500,
            "{revised} {narrowed} {failed}"
        );
    }
}
