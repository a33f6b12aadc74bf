//! The solver: counts solutions (0, 1, "2 or more") and solves Sudoku and Killer Sudoku puzzles.
//!
//! Two kernels share the work: puzzles without cages go to `plain` (one candidate bitboard per
//! digit, const-generic over the side N; the standard 9x9 grid takes the faster `band9`, three
//! 27-bit bands per digit), killers to `kernel` (one candidate digit set per cell,
//! with cage combinations and rule-of-45 sums from `innies`). Both search depth first on a state
//! copied per branch, so the solutions they return are distinct.
//!
//! `Solver` keeps the per-geometry tables (houses, peers, cage digit combinations) and reusable
//! per-puzzle buffers, so repeated calls on one geometry allocate nothing but the solutions they
//! return. The free functions `solve` and `count_solutions` use one cached `Solver` per thread.

mod band9;
mod cages;
pub(crate) mod combos;
mod innies;
mod kernel;
mod linear;
mod plain;
mod quota;
pub mod reference;
mod tables;
#[cfg(test)]
mod tests;

use crate::bitset::CellSet;
use crate::geometry::{Cell, Geometry};
use crate::grid::Grid;
use crate::puzzle::Puzzle;
use cages::CageSet;
use kernel::{ExactCache, Search};
use linear::LinearSet;
use plain::PlainSearch;
use std::cell::RefCell;
use tables::Tables;

/// Work done by one search.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct SolveStats {
    /// Search nodes visited: the root plus one per branch tried, and in the killer kernel's hard
    /// searches one per refuted branch too (its digit removed and the removal propagated).
    pub nodes: u64,
    /// Branching decisions taken (each digit tried in a cell that had more than one candidate).
    pub guesses: u64,
}

/// The outcome of a search for up to `limit` solutions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SolveReport {
    /// Solutions found, at most `limit`, in search order; all distinct.
    pub solutions: Vec<Grid>,
    /// Work done.
    pub stats: SolveStats,
    /// False when the node budget ran out first: the solutions found are real, but there may be
    /// more (the count is a lower bound).
    pub complete: bool,
}

/// A reusable solver for puzzles of one geometry.
#[derive(Clone, Debug)]
pub struct Solver {
    geometry: Geometry,
    tables: Tables,
    cages: CageSet,
    linear: LinearSet,
    /// Nodes before the killer search starts over with the linear sums (`HEAVY_AFTER`; tests
    /// lower it to exercise the sums on small puzzles).
    heavy_after: u64,
    /// The exact cage rule's results, reused across hard searches.
    xcache: ExactCache,
}

/// Search nodes a killer search may take with the cheap rules alone before it starts over with
/// the derived linear sums too. The published killers need one or two nodes and never pay for
/// the sums; the hardest public killers need them to finish in well under a second.
// docs/solver-kernel.md, row D1.
const HEAVY_AFTER: u64 = 200;

impl Solver {
    /// A solver for puzzles of `geometry` (builds its tables once).
    pub fn new(geometry: &Geometry) -> Self {
        Solver {
            geometry: geometry.clone(),
            tables: Tables::new(geometry),
            cages: CageSet::default(),
            linear: LinearSet::default(),
            heavy_after: HEAVY_AFTER,
            xcache: ExactCache::default(),
        }
    }

    /// The geometry this solver was built for.
    pub fn geometry(&self) -> &Geometry {
        &self.geometry
    }

    /// Up to `limit` solutions of `puzzle`, with statistics. A puzzle of another geometry than
    /// the solver's first rebuilds the tables for it.
    pub fn solve(&mut self, puzzle: &Puzzle, limit: usize) -> SolveReport {
        self.solve_within(puzzle, limit, u64::MAX)
    }

    /// As `solve`, giving up (`complete: false`) once the search has visited `max_nodes` nodes.
    pub fn solve_within(&mut self, puzzle: &Puzzle, limit: usize, max_nodes: u64) -> SolveReport {
        if puzzle.geometry() != &self.geometry {
            let heavy_after = self.heavy_after;
            *self = Solver::new(puzzle.geometry());
            self.heavy_after = heavy_after;
        }
        self.cages.load(puzzle, &self.tables);
        let mut solutions = Vec::with_capacity(limit.min(16));
        let givens = puzzle.givens().values();
        let (tables, cages) = (&self.tables, &self.cages);
        let (stats, exhausted) = if cages.is_empty() {
            run_plain(tables, givens, limit, max_nodes, &mut solutions)
        } else {
            let first = max_nodes.min(self.heavy_after);
            let xcache = &mut self.xcache;
            let (light, cut) = Search::run(
                tables,
                cages,
                None,
                givens,
                limit,
                first,
                &mut solutions,
                xcache,
            );
            if cut && max_nodes > first {
                solutions.clear();
                self.cages.load_crossings(tables);
                let cages = &self.cages;
                let known: Vec<CellSet> = cages
                    .virtuals
                    .iter()
                    .map(|&v| cages.cells_in(v).iter().map(|&c| Cell::new(c)).collect())
                    .collect();
                self.linear
                    .derive(tables, &cages.cages, &cages.cells, &known);
                let rest = max_nodes - light.nodes;
                let (heavy, cut) = Search::run(
                    tables,
                    cages,
                    Some(&self.linear),
                    givens,
                    limit,
                    rest,
                    &mut solutions,
                    xcache,
                );
                let stats = SolveStats {
                    nodes: light.nodes + heavy.nodes,
                    guesses: light.guesses + heavy.guesses,
                };
                (stats, cut)
            } else {
                (light, cut)
            }
        };
        SolveReport {
            solutions,
            stats,
            complete: !exhausted,
        }
    }

    /// The number of solutions of `puzzle`, counted up to `limit`.
    pub fn count_solutions(&mut self, puzzle: &Puzzle, limit: usize) -> usize {
        self.solve(puzzle, limit).solutions.len()
    }
}

/// The plain kernel, instantiated for the side N and its bitboard width in words.
pub(crate) fn run_plain(
    tables: &Tables,
    givens: &[u8],
    limit: usize,
    max_nodes: u64,
    solutions: &mut Vec<Grid>,
) -> (SolveStats, bool) {
    if band9::fits(tables) {
        return band9::Band9::run(givens, limit, max_nodes, solutions);
    }
    macro_rules! sizes {
        ($($n:literal => $w:literal),*) => {
            match tables.n {
                $($n => PlainSearch::<$n, $w>::run(tables, givens, limit, max_nodes, solutions),)*
                n => unreachable!("geometry sizes are 1..=16, got {n}"),
            }
        };
    }
    sizes!(1 => 1, 2 => 1, 3 => 1, 4 => 1, 5 => 1, 6 => 1, 7 => 1, 8 => 1,
           9 => 2, 10 => 2, 11 => 2, 12 => 3, 13 => 3, 14 => 4, 15 => 4, 16 => 4)
}

thread_local! {
    static CACHED: RefCell<Option<Solver>> = const { RefCell::new(None) };
}

/// Up to `limit` solutions of `puzzle`, with statistics (a cached solver per thread, rebuilt when
/// the geometry changes).
pub fn solve(puzzle: &Puzzle, limit: usize) -> SolveReport {
    solve_within(puzzle, limit, u64::MAX)
}

/// As `solve`, giving up (`complete: false`) once the search has visited `max_nodes` nodes.
pub fn solve_within(puzzle: &Puzzle, limit: usize, max_nodes: u64) -> SolveReport {
    CACHED.with(|cell| {
        cell.borrow_mut()
            .get_or_insert_with(|| Solver::new(puzzle.geometry()))
            .solve_within(puzzle, limit, max_nodes)
    })
}

/// The number of solutions, counted up to `limit` (so `2` with `limit = 2` means "2 or more").
pub fn count_solutions(puzzle: &Puzzle, limit: usize) -> usize {
    solve(puzzle, limit).solutions.len()
}
