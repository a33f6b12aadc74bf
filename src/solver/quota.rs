//! What both kernels share about a search's end: where solutions go, how many are wanted, and the
//! node budget after which the search gives up undecided.

use super::SolveStats;
use crate::grid::Grid;

/// A search's solutions, statistics and stopping rules.
pub(crate) struct Quota<'a> {
    limit: usize,
    max_nodes: u64,
    exhausted: bool,
    solutions: &'a mut Vec<Grid>,
    stats: SolveStats,
}

impl<'a> Quota<'a> {
    /// Up to `limit` solutions into `solutions`, at most `max_nodes` nodes (the root is the first).
    pub(crate) fn new(limit: usize, max_nodes: u64, solutions: &'a mut Vec<Grid>) -> Self {
        Quota {
            limit,
            max_nodes,
            exhausted: false,
            solutions,
            stats: SolveStats {
                nodes: 1,
                guesses: 0,
            },
        }
    }

    /// Count one more branch; false (and the search must stop) once the budget is spent.
    #[inline(always)]
    pub(crate) fn spend_node(&mut self) -> bool {
        let spent = self.spend_refutation();
        self.stats.guesses += spent as u64;
        spent
    }

    /// Count one refutation (a digit removed after its trial, and the removal propagated) as a
    /// node but not a guess; false once the budget is spent.
    #[inline(always)]
    pub(crate) fn spend_refutation(&mut self) -> bool {
        if self.stats.nodes >= self.max_nodes {
            self.exhausted = true;
            return false;
        }
        self.stats.nodes += 1;
        true
    }

    /// Keep a solution; true once `limit` are kept.
    pub(crate) fn record(&mut self, grid: Grid) -> bool {
        self.solutions.push(grid);
        self.solutions.len() >= self.limit
    }

    /// The statistics, and whether the budget ran out.
    pub(crate) fn finish(self) -> (SolveStats, bool) {
        (self.stats, self.exhausted)
    }
}
