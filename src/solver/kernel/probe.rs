//! Failed-literal probing of the bivalue cells in a hard search: before each branch, each cell
//! with two candidates left has both digits tried (set and propagated on a copy); a digit whose
//! trial fails leaves the cell, the other digit's propagated state is kept, and both trials
//! failing refutes the node. A failed trial counts as a conflict of its cell, as a failed branch
//! does, so the branching goes sooner to the cells that fail.
//!
//! Each trial counts as a node (a refutation, not a guess), so the node budget bounds the work
//! as before. Measured on the 17 hard killers (`scripts/bench_hard.sh --limit 10`, one thread,
//! loaded machine, same session), nodes (probes counted) and CPU seconds in all, worst puzzle:
//! without probing 5.46M, 24.4 s, worst 3.1 s; probing on entering each node (before the pacing
//! below) 4.80M, 21.5 s, worst 2.2 s; probing again after each refutation of the node 5.26M,
//! 21.7 s, worst 2.9 s; that without the conflict credit 5.43M, 22.6 s, worst 3.1 s. Dropped
//! (probes not yet counted as nodes, so CPU only): probing only to depth 0-1 (no change), 4
//! (28.7 s), 8 or 12 (27-31 s), repeating the pass until nothing changes, narrowing each cell to
//! the union of the two trials' candidates (more CPU for a few nodes fewer).
//!
//! Probing on every node made the easier hard killers much slower (mathemagic-5 70k -> 408k
//! nodes), so a pass is now paced (`Pace`): none while the trials made exceed `SHARE` per node
//! entered, and while fewer than one recent trial in `RATE` failed, only one pass every `RETRY`
//! nodes. Same bench, nodes in all: every node 4.80M; paced 3.78M (mathemagic-5 78k, -4 109k,
//! -2 113k, -1 115k). Tried (nodes): the rate and retry without the share cap 3.96M (RATE 6:
//! 3.92M, but mathemagic-1 and -2 stay at 2x their nodes; RETRY 4, 16, 128: 4.14-4.48M), the
//! share cap alone 4.30-5.14M (0.5-2 trials per node), with the rate a share of 1.5, 2.5, 3 or
//! 4: 3.98-4.31M; doubling the nodes skipped after each pass that found nothing (up to 8-32,
//! no rate) 4.40-4.50M. Per-puzzle times swing widely with these settings.
//!
//! Re-tuned once the cage crossings (`Search::crossings`) made propagation stronger, on the 16
//! images of each hard killer (`scripts/bench_hard.sh --limit 60 --symmetries`, sums of the 17 mean
//! nodes and of the CPU seconds; loaded machine: the same binary took 161.9, 173.2, 169.9 and 168.7
//! s in four runs). `SHARE` 2 -> 3: 2.516M -> 2.408M nodes, fewer on 11 of the 17 (mathemagic-5
//! -21%, -14 -16%, -9 -12%; -2 +16%, and the three Wecoc killers, the only other layouts, +6-11%);
//! CPU 173.2 -> 160.5, 169.9 -> 158.7 and 168.7 -> 156.1 s in three alternating pairs; the
//! published killers unchanged (light searches only); 5,000 generated killers (seed 7) the same but
//! for the nodes stored for the one whose check went hard. Again on the rule as merged (main
//! 2d6928a): 2.519M -> 2.433M nodes (fewer on 11), CPU 169.7 and 170.8 s against 160.6 and 161.6
//! (order 2, 3, 3, 2). Tried (nodes): `SHARE` 1 2.734M, 2.5 2.449M, 4 2.471M, 6 2.593M; `RATE` 4
//! 2.617M, 16 2.553M; `RETRY` 16 2.432M (but 166.2 s), 256 2.598M; `SHARE` 3 with `RETRY` 16
//! 2.451M.
//!
//! 43% of the branching decisions are on bivalue cells (mathemagic-1: 26,408 of 61,406), whose two
//! branches a probe pass at the same node may have propagated already. Keeping the states of the
//! pairs whose trials both held (since the pass last narrowed the node) and taking them for the
//! branch and its refutation gives the same tree, but the first decision of a node found such a
//! pair only 1,646 times on mathemagic-1 (3,176 on -2, 1,086 on -5), about 1.5% of the
//! propagations: 0.92-0.96 s either way. Dropped.

use super::{Contradiction, Search, State};

/// Probe trials allowed per node entered, in all: probing stops while it has taken more (3
/// since the cage crossings, 2 before: measured above).
const SHARE: u64 = 3;
/// Probing goes on while at least one recent trial in `RATE` failed...
const RATE: u32 = 8;
/// ...and otherwise once every `RETRY` nodes entered, to see whether it pays again.
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
