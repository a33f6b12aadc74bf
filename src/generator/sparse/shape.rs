//! A sparse layout shaped against a pool of known second grids: cells move across cage
//! boundaries (tabu search, min-conflicts) until every grid of the pool breaks some cage.
//!
//! A second grid `alt` fits a layout when every cage keeps its sum and distinct digits under it;
//! a cage that does not "kills" it. The pool starts with the solution's small unavoidable sets
//! (`unavoidable.rs`) and grows by the second solutions the solver finds (a counter-example
//! loop). Each step takes one grid the layout still admits and makes the move, among those
//! touching the cages where it differs, that leaves the fewest grids of the pool admitted (then
//! the most informative sums; a moved cell may not move again for a few steps: tabu search,
//! Glover 1986). A move keeps every cage connected, of distinct digits and of 2 to `max_size`
//! cells, and the cage count unchanged.

use crate::geometry::{Cell, Geometry};
use crate::grid::Grid;
use crate::solver::combos::Combos;
use rand::Rng;
use std::collections::HashSet;

/// Steps a moved cell waits before it may move again (plus a random 0-3).
const TABU_TENURE: u32 = 6;

/// What one cage holds of one pool grid, counted over the cells where the grid differs from the
/// solution only: a move of a cell where the grid agrees with the solution leaves it unchanged.
#[derive(Clone, Copy, Debug, Default)]
struct Tally {
    /// The grid's sum in the cage minus the solution's.
    delta: i16,
    /// The grid's digits at differing cells that repeat one already counted there.
    dups: u8,
    /// The grid's digits at differing cells (bit `d` for digit `d`).
    added: u32,
    /// The solution's digits at those cells.
    removed: u32,
}

impl Tally {
    /// Does a cage holding the solution digits `digits` with this tally kill its grid: a digit
    /// repeats (among the differing cells, or with a solution digit kept) or the sum changes?
    fn kills(self, digits: u32) -> bool {
        self.delta != 0 || self.dups > 0 || self.added & digits & !self.removed != 0
    }

    /// The tally once a differing cell (grid digit `alt`, solution digit `sol`) leaves;
    /// `count` is how often the cage held `alt` at differing cells before.
    fn without(mut self, alt: u8, sol: u8, count: u8) -> Tally {
        self.delta -= alt as i16 - sol as i16;
        if count > 1 {
            self.dups -= 1;
        } else {
            self.added &= !(1 << alt);
        }
        self.removed &= !(1 << sol);
        self
    }

    /// The tally once a differing cell joins (as [`Tally::without`]).
    fn with(mut self, alt: u8, sol: u8, count: u8) -> Tally {
        self.delta += alt as i16 - sol as i16;
        if count > 0 {
            self.dups += 1;
        } else {
            self.added |= 1 << alt;
        }
        self.removed |= 1 << sol;
        self
    }
}

/// A layout of connected cages with distinct digits over a solution, and the pool of second
/// grids with the cages that kill each.
pub(super) struct Shaper<'a> {
    g: &'a Geometry,
    solution: &'a [u8],
    max_size: usize,
    owner: Vec<usize>,
    cages: Vec<Vec<Cell>>,
    /// The solution digits of each cage, bit `d` for digit `d`.
    digits: Vec<u32>,
    /// Per cell, each pool grid's digit there (a move reads one cell of every grid in order).
    columns: Vec<Vec<u8>>,
    /// The pool's grids, for spotting repeats.
    known: HashSet<Vec<u8>>,
    /// Per grid of the pool, bit `k` when cage `k` kills it.
    kills: Vec<u64>,
    /// Per cage, each pool grid's tally there (cage-major: a move reads two cages of every grid
    /// in order).
    tallies: Vec<Vec<Tally>>,
    /// Per cage, grid and digit (index `grid * (N + 1) + digit`), how often the grid holds the
    /// digit at the cage's differing cells.
    counts: Vec<Vec<u8>>,
    /// Per cell, the step before which it may not move.
    tabu: Vec<u32>,
    /// Steps taken so far (the clock the tabu list reads).
    pub(super) step: u32,
    combos: &'static Combos,
}

impl<'a> Shaper<'a> {
    /// A shaper of the layout `cages` (cell lists covering the grid, each connected with
    /// distinct digits in `solution`; at most 64 cages) with an empty pool.
    pub(super) fn new(
        g: &'a Geometry,
        solution: &'a Grid,
        cages: Vec<Vec<Cell>>,
        max_size: usize,
    ) -> Self {
        let values = solution.values();
        let mut owner = vec![usize::MAX; g.cell_count()];
        let mut digits = vec![0u32; cages.len()];
        for (k, cage) in cages.iter().enumerate() {
            for &c in cage {
                owner[c.as_index()] = k;
                digits[k] |= 1 << values[c.as_index()];
            }
        }
        debug_assert!(cages.len() <= 64 && owner.iter().all(|&k| k != usize::MAX));
        let n = cages.len();
        Shaper {
            g,
            solution: values,
            max_size,
            owner,
            cages,
            digits,
            columns: vec![Vec::new(); g.cell_count()],
            known: HashSet::new(),
            kills: Vec::new(),
            tallies: vec![Vec::new(); n],
            counts: vec![Vec::new(); n],
            tabu: vec![0; g.cell_count()],
            step: 0,
            combos: Combos::of(g.size()),
        }
    }

    /// The cages as cell lists.
    pub(super) fn cages(&self) -> &[Vec<Cell>] {
        &self.cages
    }

    /// Grids in the pool.
    pub(super) fn pool_len(&self) -> usize {
        self.kills.len()
    }

    /// Grids of the pool the layout admits.
    #[cfg(test)]
    pub(super) fn count_admitted(&self) -> usize {
        self.kills.iter().filter(|&&k| k == 0).count()
    }

    /// Add `alt` (a valid grid other than the solution) to the pool, unless it is there.
    pub(super) fn add(&mut self, alt: &Grid) {
        let values = alt.values();
        if self.known.contains(values) {
            return;
        }
        self.known.insert(values.to_vec());
        let nd = self.g.size() + 1;
        for k in 0..self.cages.len() {
            self.tallies[k].push(Tally::default());
            let len = self.counts[k].len() + nd;
            self.counts[k].resize(len, 0);
        }
        let i = self.kills.len();
        for (c, (&alt, &sol)) in values.iter().zip(self.solution).enumerate() {
            self.columns[c].push(alt);
            if alt != sol {
                let k = self.owner[c];
                let count = &mut self.counts[k][i * nd + alt as usize];
                self.tallies[k][i] = self.tallies[k][i].with(alt, sol, *count);
                *count += 1;
            }
        }
        let kills = (0..self.cages.len())
            .filter(|&k| self.tallies[k][i].kills(self.digits[k]))
            .fold(0u64, |m, k| m | 1 << k);
        self.kills.push(kills);
    }

    /// Up to `steps` moves towards a layout that kills every grid of the pool; true when it
    /// does. A step takes a pool grid the layout admits at random and makes the best allowed
    /// move from or into a cage where it differs: fewest pool grids admitted after it, then the
    /// two changed cages' sums leaving the fewest digit sets (sums that tell most), then at
    /// random.
    pub(super) fn shape<R: Rng>(&mut self, steps: u32, rng: &mut R) -> bool {
        // Only grids killed by at most two cages can change state in one move.
        let mut fragile: Vec<usize> = Vec::new();
        for _ in 0..steps {
            fragile.clear();
            fragile.extend((0..self.kills.len()).filter(|&i| self.kills[i].count_ones() <= 2));
            let admitted: Vec<usize> = fragile
                .iter()
                .copied()
                .filter(|&i| self.kills[i] == 0)
                .collect();
            let Some(&target) = admitted.get(rng.random_range(0..admitted.len().max(1))) else {
                return true;
            };
            self.step += 1;
            let touched = self.touched(target);
            if let Some((x, to)) = self.best_move(touched, &fragile, admitted.len(), rng) {
                self.apply(x, to);
                self.tabu[x.as_index()] = self.step + TABU_TENURE + rng.random_range(0..4);
            }
        }
        self.kills.iter().all(|&k| k != 0)
    }

    /// The cages (as a bit mask) holding a cell where pool grid `i` differs.
    fn touched(&self, i: usize) -> u64 {
        (0..self.columns.len())
            .filter(|&c| self.columns[c][i] != self.solution[c])
            .fold(0, |m, c| m | 1 << self.owner[c])
    }

    /// The allowed move (a cell and the cage it joins) from or into a cage of `touched` that
    /// leaves the fewest pool grids admitted (now `admitted`); ties broken at random.
    fn best_move<R: Rng>(
        &self,
        touched: u64,
        fragile: &[usize],
        admitted: usize,
        rng: &mut R,
    ) -> Option<(Cell, usize)> {
        let mut best: Option<(usize, i64, u32, (Cell, usize))> = None;
        for x in self.g.cells() {
            let from = self.owner[x.as_index()];
            if self.tabu[x.as_index()] > self.step || self.cages[from].len() <= 2 {
                continue;
            }
            let bit = 1u32 << self.solution[x.as_index()];
            let mut seen = 0u64;
            for y in self.g.neighbours(x) {
                let to = self.owner[y.as_index()];
                if to == from || seen & 1 << to != 0 {
                    continue;
                }
                seen |= 1 << to;
                if (touched >> from | touched >> to) & 1 == 0
                    || self.digits[to] & bit != 0
                    || self.cages[to].len() >= self.max_size
                {
                    continue;
                }
                let rest: Vec<Cell> = self.cages[from]
                    .iter()
                    .copied()
                    .filter(|&c| c != x)
                    .collect();
                if !self.g.is_connected(&rest) {
                    continue;
                }
                let after = self.admitted_after(x, from, to, fragile, admitted);
                let told = self.told_after(x, from, to);
                let key = (after, told, rng.random::<u32>(), (x, to));
                if best.is_none_or(|b| (key.0, key.1, key.2) < (b.0, b.1, b.2)) {
                    best = Some(key);
                }
            }
        }
        best.map(|b| b.3)
    }

    /// How much less the two cages' sums tell once `x` moves from `from` to `to`: the change in
    /// the log of their digit-set counts (thousandths).
    fn told_after(&self, x: Cell, from: usize, to: usize) -> i64 {
        let v = self.solution[x.as_index()] as usize;
        let sum = |k: usize| {
            self.cages[k]
                .iter()
                .map(|c| self.solution[c.as_index()] as usize)
                .sum::<usize>()
        };
        let ln = |len: usize, s: usize| (self.combos.get(len, s).len().max(1) as f64).ln();
        let (a, b) = (self.cages[from].len(), self.cages[to].len());
        let (sa, sb) = (sum(from), sum(to));
        let before = ln(a, sa) + ln(b, sb);
        let after = ln(a - 1, sa - v) + ln(b + 1, sb + v);
        ((after - before) * 1000.0) as i64
    }

    /// Pool grids admitted (now `admitted`) once `x` moves from cage `from` to cage `to`;
    /// `fragile` lists the grids killed by at most two cages.
    fn admitted_after(
        &self,
        x: Cell,
        from: usize,
        to: usize,
        fragile: &[usize],
        admitted: usize,
    ) -> usize {
        let both = 1u64 << from | 1u64 << to;
        let nd = self.g.size() + 1;
        let xi = x.as_index();
        let sx = self.solution[xi];
        let bit = 1u32 << sx;
        let (rest, joined) = (self.digits[from] & !bit, self.digits[to] | bit);
        let mut after = admitted;
        for &i in fragile {
            let k = self.kills[i];
            if k & !both != 0 {
                continue;
            }
            let (mut a, mut b) = (self.tallies[from][i], self.tallies[to][i]);
            let v = self.columns[xi][i];
            if v != sx {
                let j = i * nd + v as usize;
                a = a.without(v, sx, self.counts[from][j]);
                b = b.with(v, sx, self.counts[to][j]);
            }
            let killed = a.kills(rest) || b.kills(joined);
            match (k == 0, killed) {
                (true, true) => after -= 1,
                (false, false) => after += 1,
                _ => {}
            }
        }
        after
    }

    /// Move `x` into cage `to`, updating the pool's kills of the two cages.
    fn apply(&mut self, x: Cell, to: usize) {
        let xi = x.as_index();
        let from = self.owner[xi];
        let sx = self.solution[xi];
        let bit = 1u32 << sx;
        self.cages[from].retain(|&c| c != x);
        self.digits[from] &= !bit;
        self.cages[to].push(x);
        self.digits[to] |= bit;
        self.owner[xi] = to;
        let nd = self.g.size() + 1;
        let (df, dt) = (self.digits[from], self.digits[to]);
        let others = !(1u64 << from | 1u64 << to);
        let (tf, tt) = pair_mut(&mut self.tallies, from, to);
        let (cf, ct) = pair_mut(&mut self.counts, from, to);
        for (i, &v) in self.columns[xi].iter().enumerate() {
            if v != sx {
                // The grid differs at `x`: its difference moves between the two tallies.
                let j = i * nd + v as usize;
                tf[i] = tf[i].without(v, sx, cf[j]);
                cf[j] -= 1;
                tt[i] = tt[i].with(v, sx, ct[j]);
                ct[j] += 1;
            } else if (tf[i].added | tt[i].added) & bit == 0 {
                // Only the solution digit at `x` moved, and the grid adds it in neither cage.
                continue;
            }
            let k = self.kills[i] & others;
            self.kills[i] =
                k | u64::from(tf[i].kills(df)) << from | u64::from(tt[i].kills(dt)) << to;
        }
    }
}

/// The two distinct items `a` and `b` of `v`, both mutable.
fn pair_mut<T>(v: &mut [T], a: usize, b: usize) -> (&mut T, &mut T) {
    debug_assert_ne!(a, b);
    if a < b {
        let (head, tail) = v.split_at_mut(b);
        (&mut head[a], &mut tail[0])
    } else {
        let (head, tail) = v.split_at_mut(a);
        (&mut tail[0], &mut head[b])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generator::cage_layout::LayoutRules;
    use crate::generator::fill::random_grid;
    use crate::generator::sparse::unavoidable::small_alternatives;
    use crate::generator::warnsdorff::build_warnsdorff;
    use crate::generator::GeneratorConfig;
    use rand::SeedableRng;
    use rand_pcg::Pcg64;

    /// Does the cage of `cells` rule out `alt`: its digits repeat there, or their sum differs from
    /// the solution's?
    fn kills(cells: impl Iterator<Item = usize>, solution: &[u8], alt: &[u8]) -> bool {
        let mut seen = 0u32;
        let mut delta = 0i32;
        for c in cells {
            let v = alt[c];
            if seen & 1 << v != 0 {
                return true;
            }
            seen |= 1 << v;
            delta += v as i32 - solution[c] as i32;
        }
        delta != 0
    }

    /// Shaping a 12-cage layout against the small unavoidable sets kills every one of them and
    /// keeps the layout valid: the same cage count, each cage connected, of distinct digits and
    /// 2 to 9 cells, every cell in one cage.
    #[test]
    fn shaping_kills_the_pool_and_keeps_the_layout_valid() {
        let config = GeneratorConfig {
            max_cages: Some(12),
            ..GeneratorConfig::default()
        };
        let rules: LayoutRules = config.validate().unwrap().rules;
        let g = Geometry::standard(9).unwrap();
        let rng = &mut Pcg64::seed_from_u64(3);
        let solution = random_grid(&g, rng).unwrap();
        let layout = build_warnsdorff(&g, &solution, &rules, rng).unwrap();
        let cages: Vec<Vec<Cell>> = layout.ids().map(|id| layout.cells(id).to_vec()).collect();
        let count = cages.len();
        let mut shaper = Shaper::new(&g, &solution, cages, rules.max_size);
        for alt in small_alternatives(&g, &solution) {
            shaper.add(&alt);
        }
        assert!(shaper.pool_len() > 36);
        assert!(
            shaper.shape(2_000, rng),
            "{} admitted",
            shaper.count_admitted()
        );
        assert!(shaper.step > 0);
        let mut covered = [0; 81];
        assert_eq!(shaper.cages().len(), count);
        for cage in shaper.cages() {
            assert!(
                (2..=9).contains(&cage.len()) && g.is_connected(cage),
                "{cage:?}"
            );
            let digits = cage
                .iter()
                .fold(0u32, |m, c| m | 1 << solution.values()[c.as_index()]);
            assert_eq!(digits.count_ones() as usize, cage.len(), "{cage:?}");
            cage.iter().for_each(|c| covered[c.as_index()] += 1);
        }
        assert!(covered.iter().all(|&n| n == 1));
        // The kills kept move by move agree with kills counted afresh.
        for alt in small_alternatives(&g, &solution) {
            let killed = shaper.cages().iter().any(|cage| {
                kills(
                    cage.iter().map(|c| c.as_index()),
                    solution.values(),
                    alt.values(),
                )
            });
            assert!(killed);
        }
    }
}
