//! The search state and its edits: the copied candidate array, and the primitives that narrow
//! it (set, narrow, remove, assign a single to its peers) while marking what changed (queued
//! singles, dirty cages, derived and linear sums, houses) for the propagation to revisit.

use super::{is_single, Contradiction, Search, Step, DIRTY_WORDS, MAX_HOUSES, QUEUE};
use crate::geometry::MAX_CELLS;

/// The search state copied at every branch: candidates of each cell, placed digits per house.
#[derive(Clone, Copy)]
pub(crate) struct State {
    /// Candidates per cell; always 256 long, so indexing by a `u8` cell needs no bounds check
    /// (docs/solver-kernel.md, row K1).
    pub(super) cand: [u16; MAX_CELLS],
    /// Digits placed in each house.
    pub(super) placed: [u16; MAX_HOUSES],
    /// Per real cage (the first `MUST_CAGES`), digits it is known to hold (`crossings`).
    pub(super) must: [u16; MUST_CAGES],
}

/// Cages whose known digits the state keeps (cages past it run their cheap rule at once).
// Tuned: docs/solver-kernel.md, row K14.
pub(super) const MUST_CAGES: usize = 96;

/// `dst |= src` over a 256-bit set.
#[inline(always)]
fn or_into(dst: &mut [u64; 4], src: &[u64; 4]) {
    for (d, s) in dst.iter_mut().zip(src) {
        *d |= s;
    }
}

impl Search<'_> {
    /// Queue cell `c`, which became single, for `assign`.
    #[inline(always)]
    pub(super) fn push(&mut self, c: usize) {
        self.queue[self.qlen & (QUEUE - 1)] = c as u8;
        self.qlen += 1;
    }

    /// Mark cage `cage` for its cheap rule.
    #[inline(always)]
    pub(super) fn mark(&mut self, cage: usize) {
        self.dirty[(cage >> 6) & (DIRTY_WORDS - 1)] |= 1 << (cage & 63);
    }

    /// Mark the constraints holding cell `c` (its cage, derived sums and linear sums).
    #[inline(always)]
    pub(super) fn mark_cell(&mut self, c: usize) {
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
    pub(super) fn narrow_linear(&mut self, st: &mut State, c: usize, y: u16) -> Step {
        let changed = st.cand[c] != y;
        self.narrow(st, c, y)?;
        if changed {
            self.mark(self.cages.cage_of[c] as usize);
        }
        Ok(())
    }

    /// Make `c` hold the single digit `b` (one of its candidates) and queue it.
    #[inline(always)]
    pub(super) fn set(&mut self, st: &mut State, c: usize, b: u16) -> Step {
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
    pub(super) fn narrow(&mut self, st: &mut State, c: usize, y: u16) -> Step {
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
    pub(super) fn remove(&mut self, st: &mut State, c: usize, gone: u16) -> Step {
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
    pub(super) fn assign(&mut self, st: &mut State, c: usize) -> Step {
        let tables = self.tables;
        let b = st.cand[c];
        for &h in &tables.houses_of[c] {
            st.placed[h as usize] |= b;
        }
        self.mark_cell(c);
        self.vdirty |= self.cages.virtual_near[c];
        if let Some(set) = self.linear_set {
            or_into(&mut self.ldirty, &set.of_cell[c]);
        }
        // Branch-free: whether a peer held `b` is unpredictable, so every peer is written and
        // the peers that lost the digit are gathered by advancing their count by 0 or 1 (peers
        // number at most 39, on 16x16). A second loop, over those peers only, queues the ones
        // left single, notices an emptied one and marks their houses and constraints (the dirty
        // sets are read-modify-writes through memory: one per changed peer, not per peer).
        let mut lost = [0u8; 64];
        let mut count = 0;
        for &p in tables.peers(c) {
            let x = st.cand[p as usize];
            let y = x & !b;
            st.cand[p as usize] = y;
            lost[count & 63] = p;
            count += (x != y) as usize;
        }
        // Only a peer that lost the digit can be empty or single now (a live state has no empty
        // cell, and a peer single before was queued then). Queued in peer order, as before.
        let mut emptied = false;
        let mut houses = 0u64;
        for &p in &lost[..count.min(64)] {
            let y = st.cand[p as usize];
            emptied |= y == 0;
            self.queue[self.qlen & (QUEUE - 1)] = p;
            // Branch-free: the length advances by 0 or 1 (row K10 of the notes).
            self.qlen += is_single(y) as usize;
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
        if emptied {
            return Err(Contradiction);
        }
        self.hdirty |= houses;
        Ok(())
    }

    /// Forget queued singles and dirty constraints (after a contradiction).
    pub(super) fn clear_pending(&mut self) {
        self.qlen = 0;
        self.dirty = [0; DIRTY_WORDS];
        self.xdirty = [0; DIRTY_WORDS];
        self.vdirty = 0;
        self.ldirty = [0; 4];
        self.hdirty = 0;
        self.sdirty = 0;
    }
}
