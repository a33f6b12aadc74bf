//! Branching: the cheap first search tries every candidate of a cell; a hard search branches two
//! ways (a digit set, then refuted) on the cell with the most recent conflicts per candidate, or
//! on the two places of a digit in a house, with paced probing before each node.

use super::{digit_of, is_single, Contradiction, Search, State};
use crate::bitset::CellSet;
use crate::geometry::Cell;
use crate::grid::Grid;

/// Branches between two halvings of the conflict counts in the cheap first search.
// As sigh's solver (docs/solver-kernel.md, row B7).
const DECAY_INTERVAL: u32 = 1 << 14;

/// Conflicts between two halvings of the conflict counts in a hard search.
// Tuned: docs/solver-kernel.md, rows B7 and B8.
const HARD_DECAY_INTERVAL: u32 = 1 << 16;

impl Search<'_> {
    /// Start each cell's conflict count at the priority of the sums holding it (real cages,
    /// derived ones and linear sums: `max(2N - cells, N)` each, sigh's `Sum.priority`), so the
    /// first branches go to cells of small cages and of many sums, and the counts of real
    /// conflicts take over as they grow. A linear sum whose negation was derived too counts
    /// twice (`Linear::weight`), as when both were in the set. The branching is very sensitive
    /// to these seeds; every variant tried is in docs/solver-kernel.md, rows B2-B6.
    pub(super) fn seed_conflicts(&mut self) {
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

    /// Branch on a most constrained open cell; true once `limit` solutions are found.
    ///
    /// In a hard search (linear sums on), the bivalue cells are probed first while that pays
    /// (`probe.rs`), then two-way branching: the chosen digit is tried in the chosen cell, then
    /// removed from it and the removal propagated (a refutation), and the next branch is chosen
    /// afresh on what is left. Each trial and each refutation counts as a node
    /// (one propagation from a decision). The cheap first search uses `branch_light`.
    pub(super) fn branch(&mut self, st: &State) -> bool {
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
    pub(super) fn branch_light(&mut self, st: &State) -> bool {
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
    pub(super) fn choose_options(&self, st: &State) -> Option<([(u8, u16); 16], usize)> {
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
    pub(super) fn conflict(&mut self, cell: usize) {
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

    /// The open cell to branch on, or `None` when every cell is solved. The cell with the most
    /// recent conflicts per candidate wins; before any conflict, the fewest candidates, then the
    /// most unsolved peers (as in the plain kernel; docs/solver-kernel.md, row B1).
    pub(super) fn choose(&self, st: &State) -> Option<(usize, u16)> {
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
    pub(super) fn choose_pair(
        &self,
        st: &State,
        score: u32,
        count: u32,
    ) -> Option<(usize, usize, u16)> {
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

    pub(super) fn choose_cell(&self, st: &State) -> Option<usize> {
        let cells = self.tables.cells;
        let tables = self.tables;
        let mut fewest = u32::MAX;
        let mut unsolved = CellSet::EMPTY;
        // The open cells with `fewest` candidates, for the tie-break below.
        let mut at_fewest = CellSet::EMPTY;
        // Best conflict score so far as a fraction `score / count`.
        let (mut top, mut top_count, mut top_cell) = (0u32, 1u32, usize::MAX);
        for (c, &x) in st.cand[..cells].iter().enumerate() {
            if !is_single(x) {
                let count = x.count_ones();
                let cell = Cell::new(c as u8);
                if count < fewest {
                    fewest = count;
                    at_fewest = CellSet::EMPTY;
                }
                if count == fewest {
                    at_fewest.insert(cell);
                }
                unsolved.insert(cell);
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
        // In ascending order, as a scan of every cell would meet them.
        for c in at_fewest.iter().map(Cell::as_index) {
            let (peers, unsolved) = (tables.peer_bits[c].words(), unsolved.words());
            let open = (0..tables.words)
                .map(|w| (peers[w] & unsolved[w]).count_ones())
                .sum::<u32>()
                + 1;
            if open > most {
                (best, most) = (c, open);
            }
        }
        Some(best)
    }

    /// Keep the solved state; true once enough solutions are kept.
    pub(super) fn record(&mut self, st: &State) -> bool {
        let values = st.cand[..self.tables.cells]
            .iter()
            .map(|&x| digit_of(x) as u8)
            .collect();
        let grid =
            Grid::from_values(self.tables.n, values).expect("a solved state holds digits 1..=N");
        self.quota.record(grid)
    }
}
