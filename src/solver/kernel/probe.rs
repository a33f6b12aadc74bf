//! Failed-literal probing of the bivalue cells in a hard search: before each branch, each cell
//! with two candidates left has both digits tried (set and propagated on a copy); a digit whose
//! trial fails leaves the cell, the other digit's propagated state is kept, and both trials
//! failing refutes the node. A failed trial counts as a conflict of its cell, as a failed branch
//! does, so the branching goes sooner to the cells that fail.
//!
//! Each trial counts as a node (a refutation, not a guess), so the node budget bounds the work.
//! Probing on every node makes the easier hard killers much slower, so passes are paced (`Pace`,
//! as SAT solvers pace failed-literal probing). Measurements: `docs/solver-kernel.md`, P1-P10.

use super::{Contradiction, Search, State};

/// Probe trials allowed per node entered, in all: probing stops while it has taken more.
// Tuned: docs/solver-kernel.md, rows P4, P7-P9 (2 before the cage crossings, 3 since).
const SHARE: u64 = 3;
/// Probing goes on while at least one recent trial in `RATE` failed...
// Tuned: docs/solver-kernel.md, rows P4, P5 and P9.
const RATE: u32 = 8;
/// ...and otherwise once every `RETRY` nodes entered, to see whether it pays again.
// Tuned: docs/solver-kernel.md, rows P4, P5 and P9.
const RETRY: u32 = 64;

/// When to probe (adaptive, as SAT solvers pace failed-literal probing): only while it pays.
#[derive(Default)]
pub(super) struct Pace {
    /// Nodes entered by the hard search.
    nodes: u64,
    /// Probe trials made in all.
    spent: u64,
    /// Trials and failed trials of the recent passes (each less a sixteenth after every pass).
    trials: u32,
    fails: u32,
    /// Nodes to skip before the next pass while the failure rate is low.
    wait: u32,
}

impl Pace {
    /// Whether to probe on entering a node (called once per node entered).
    pub(super) fn due(&mut self) -> bool {
        self.nodes += 1;
        if self.spent > SHARE * self.nodes {
            return false;
        }
        if self.fails * RATE >= self.trials {
            return true;
        }
        if self.wait > 0 {
            self.wait -= 1;
            false
        } else {
            self.wait = RETRY;
            true
        }
    }

    /// Note a pass of `trials` trials of which `fails` failed.
    fn done(&mut self, trials: u32, fails: u32) {
        self.spent += u64::from(trials);
        self.trials = self.trials - (self.trials >> 4) + trials;
        self.fails = self.fails - (self.fails >> 4) + fails;
    }
}

impl Search<'_> {
    /// One pass of probing over the bivalue cells of `st`, narrowing it in place. `Ok(false)`
    /// once the node budget is spent; `Err` when some cell has neither digit left.
    pub(super) fn probe(&mut self, st: &mut State) -> Result<bool, Contradiction> {
        let (mut trials, mut fails) = (0, 0);
        let r = self.probe_pass(st, &mut trials, &mut fails);
        self.probe_pace.done(trials, fails);
        r
    }

    fn probe_pass(
        &mut self,
        st: &mut State,
        trials: &mut u32,
        fails: &mut u32,
    ) -> Result<bool, Contradiction> {
        for c in 0..self.tables.cells {
            let x = st.cand[c];
            if x.count_ones() != 2 {
                continue;
            }
            if !self.quota.spend_refutation() || !self.quota.spend_refutation() {
                return Ok(false);
            }
            let lo = x & x.wrapping_neg();
            let first = self.trial(st, c, lo);
            let second = self.trial(st, c, x ^ lo);
            *trials += 2;
            *fails += u32::from(first.is_none()) + u32::from(second.is_none());
            match (first, second) {
                (None, None) => return Err(Contradiction),
                (Some(kept), None) | (None, Some(kept)) => *st = kept,
                // Both digits hold: nothing learnt.
                (Some(_), Some(_)) => {}
            }
        }
        Ok(true)
    }

    /// `st` with digit `b` set in cell `c` and propagated, or `None` (a conflict of `c`).
    fn trial(&mut self, st: &State, c: usize, b: u16) -> Option<State> {
        let mut trial = *st;
        if self.set(&mut trial, c, b).is_ok() && self.propagate(&mut trial).is_ok() {
            Some(trial)
        } else {
            self.conflict(c);
            None
        }
    }
}
