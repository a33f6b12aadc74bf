//! Failed-literal probing of the bivalue cells in a hard search: before each branch, each cell
//! with two candidates left has both digits tried (set and propagated on a copy); a digit whose
//! trial fails leaves the cell, the other digit's propagated state is kept, and both trials
//! failing refutes the node. A failed trial counts as a conflict of its cell, as a failed branch
//! does, so the branching goes sooner to the cells that fail.
//!
//! Each trial counts as a node (a refutation, not a guess), so the node budget bounds the work
//! as before. Measured on the 17 hard killers (`scripts/bench_hard.sh --limit 10`, one thread,
//! loaded machine, same session), nodes (probes counted) and CPU seconds in all, worst puzzle:
//! without probing 5.46M, 24.4 s, worst 3.1 s; probing on entering each node (as here) 4.80M,
//! 21.5 s, worst 2.2 s; probing again after each refutation of the node 5.26M, 21.7 s, worst
//! 2.9 s; that without the conflict credit 5.43M, 22.6 s, worst 3.1 s. Dropped (probes not yet
//! counted as nodes, so CPU only): probing only to depth 0-1 (no change), 4 (28.7 s), 8 or 12
//! (27-31 s), repeating the pass until nothing changes, narrowing each cell to the union of the
//! two trials' candidates (more CPU for a few nodes fewer).

use super::{Contradiction, Search, State};

impl Search<'_> {
    /// One pass of probing over the bivalue cells of `st`, narrowing it in place. `Ok(false)`
    /// once the node budget is spent; `Err` when some cell has neither digit left.
    pub(super) fn probe(&mut self, st: &mut State) -> Result<bool, Contradiction> {
        for c in 0..self.layout.cells {
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
