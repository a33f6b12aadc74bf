//! Sum algebra: two equations of the layout (or an equation and a cage) added or subtracted so
//! that the cells they share cancel, derived once per puzzle when the finder first runs.

use super::{inline_terms, Equation, Equations, Fx, Key, Kind, Source};
use super::{MAX_ALGEBRA, MAX_ALGEBRA_TERMS};
use crate::bitset::CellSet;
use crate::geometry::Cell;
use crate::puzzle::Puzzle;
use std::collections::HashSet;
use std::hash::BuildHasherDefault;

/// An equation as sets: its + cells, its - cells, its total.
#[derive(Copy, Clone, Debug)]
struct Signed {
    plus: CellSet,
    minus: CellSet,
    total: i32,
}

impl Signed {
    /// The key of the equation or of its negation, whichever puts the lowest cell first (an
    /// equation and its negation say the same).
    fn key(&self) -> Key {
        let first = |s: &CellSet| s.iter().next().map_or(usize::MAX, |c| c.as_index());
        match first(&self.minus) < first(&self.plus) {
            true => (self.minus, self.plus, -self.total),
            false => (self.plus, self.minus, self.total),
        }
    }
    fn cells(&self) -> CellSet {
        self.plus.union(&self.minus)
    }
    /// `self + sign * other` when that cancels every cell they share (`None` otherwise).
    fn combine(&self, other: &Signed, sign: i8) -> Option<Signed> {
        let shared = self.cells().intersection(&other.cells());
        let (oplus, ominus) = match sign > 0 {
            true => (other.plus, other.minus),
            false => (other.minus, other.plus),
        };
        // Shared cells must carry opposite coefficients to cancel.
        let cancel = self
            .plus
            .intersection(&ominus)
            .union(&self.minus.intersection(&oplus));
        if cancel != shared {
            return None;
        }
        Some(Signed {
            plus: self.plus.union(&oplus).difference(&shared),
            minus: self.minus.union(&ominus).difference(&shared),
            total: self.total + sign as i32 * other.total,
        })
    }
}

impl Equations {
    /// Derive the sum-algebra equations (once; after `add_multi`): every pair of an equation
    /// and another equation or a cage that share cells, added or subtracted so that the shared
    /// cells cancel, when the result is small and new (not a cage, a derived equation or an
    /// earlier combination). The sum of two true equations is true, so they are sound.
    pub(crate) fn add_algebra(&mut self, puzzle: &Puzzle, cage_sets: &[CellSet]) {
        if self.algebra_done {
            return;
        }
        self.algebra_done = true;
        let as_signed = |e: &Equation| {
            let (mut plus, mut minus) = (CellSet::EMPTY, CellSet::EMPTY);
            for &(c, k) in e.terms() {
                match k > 0 {
                    true => plus.insert(c),
                    false => minus.insert(c),
                }
            }
            Signed {
                plus,
                minus,
                total: e.total,
            }
        };
        let mut sources: Vec<(Signed, Source)> = self
            .list
            .iter()
            .enumerate()
            .map(|(i, e)| (as_signed(e), Source::Equation(i as u32)))
            .collect();
        sources.extend(
            cage_sets
                .iter()
                .zip(puzzle.cages())
                .enumerate()
                .map(|(k, (set, cage))| {
                    let eq = Signed {
                        plus: *set,
                        minus: CellSet::EMPTY,
                        total: cage.sum as i32,
                    };
                    (eq, Source::Cage(k as u32))
                }),
        );
        let mut seen: HashSet<Key, BuildHasherDefault<Fx>> =
            sources.iter().map(|(e, _)| e.key()).collect();
        // The sources at each cell, in source order: cell `c`'s at `at[starts[c]..starts[c + 1]]`
        // (one flat list instead of a list per cell).
        let cells = puzzle.geometry().cell_count();
        let mut starts = vec![0usize; cells + 1];
        for (e, _) in &sources {
            for c in e.cells().iter() {
                starts[c.as_index() + 1] += 1;
            }
        }
        for c in 0..cells {
            starts[c + 1] += starts[c];
        }
        let mut at = vec![0u32; starts[cells]];
        let mut fill = starts.clone();
        for (i, (e, _)) in sources.iter().enumerate() {
            for c in e.cells().iter() {
                at[fill[c.as_index()]] = i as u32;
                fill[c.as_index()] += 1;
            }
        }
        let mut found: Vec<(Signed, Source, Source, i8)> = Vec::new();
        'cells: for (cell, here) in starts.windows(2).map(|w| &at[w[0]..w[1]]).enumerate() {
            for (x, &a) in here.iter().enumerate() {
                for &b in &here[x + 1..] {
                    let (ea, sa) = &sources[a as usize];
                    let (eb, sb) = &sources[b as usize];
                    let shared = ea.cells().intersection(&eb.cells());
                    // Each pair once: at the first cell the two share.
                    if shared.iter().next().map(|c| c.as_index()) != Some(cell) {
                        continue;
                    }
                    let sign = match ea.plus.contains(Cell::new(cell as u8))
                        == eb.plus.contains(Cell::new(cell as u8))
                    {
                        true => -1,
                        false => 1,
                    };
                    let Some(r) = ea.combine(eb, sign) else {
                        continue;
                    };
                    let len = r.plus.len() + r.minus.len();
                    if len == 0 || len > MAX_ALGEBRA_TERMS || !seen.insert(r.key()) {
                        continue;
                    }
                    found.push((r, *sa, *sb, sign));
                    if found.len() == MAX_ALGEBRA {
                        break 'cells;
                    }
                }
            }
        }
        // Fewest cells first (the order is the search order, so the easiest step is found
        // first); ties keep the derivation order.
        found.sort_by_key(|(r, ..)| r.plus.len() + r.minus.len());
        let mut terms: Vec<(Cell, i8)> = Vec::with_capacity(MAX_ALGEBRA_TERMS);
        for (mut r, a, b, sign) in found {
            // Written with more + cells than - cells ("a + b - c = 5", not "c - a - b = -5").
            if r.minus.len() > r.plus.len() {
                r = Signed {
                    plus: r.minus,
                    minus: r.plus,
                    total: -r.total,
                };
            }
            // Ascending by cell (the sets are disjoint).
            terms.clear();
            terms.extend(
                r.cells()
                    .iter()
                    .map(|c| (c, if r.plus.contains(c) { 1 } else { -1 })),
            );
            let Some((inline, len)) = inline_terms(&terms) else {
                continue;
            };
            self.algebra_cells.push(r.plus.union(&r.minus));
            self.algebra.push(Equation {
                terms: inline,
                len,
                houses: 0,
                total: r.total,
                kind: Kind::Algebra,
                region: u32::MAX,
                chosen: 0,
                split: usize::MAX,
            });
            self.parents.push((a, b, sign));
        }
    }
}
