//! The sum rules of the killer kernel: cages (and derived sums over cells that see each other)
//! through the digit-combination tables, derived sums over cells that need not differ, and the
//! pointing of digits every remaining combination needs.
//!
//! The cheap rule keeps the digits of the combinations every open cell can take part in, tested
//! branch-free over 16-bit lanes. In a hard search on grids up to 9x9 every cage is also filtered
//! exactly (each open cell keeps only the digits of some full assignment: `cage_exact`, over the
//! digit sets reachable cell by cell, cached by input), but only once the cheaper rules reach
//! their fixpoint: a cage changes many times in one propagation, and the exact rule runs once for
//! all of them (the assignment-level filtering is in `exact.rs`). Measurements:
//! `docs/solver-kernel.md`, rows S1-S17.

use super::exact::{exact_support, matchings, orders, ExactEntry, ExactKey};
use super::{digit_of, is_single, Contradiction, Search, State, Step};
use crate::solver::cages::CageInfo;
use crate::solver::combos::mirror;
use crate::solver::innies::MAX_LOOSE;

/// Most open cells of a cage checked assignment by assignment (`matchings`).
// Tuned: docs/solver-kernel.md, rows S2, S3 and S5.
const EXACT_CELLS: usize = 3;

impl Search<'_> {
    /// Restrict the open cells of a derived cage to the digits of the combinations still possible.
    pub(super) fn cage(&mut self, st: &mut State, info: CageInfo) -> Step {
        let cages = self.cages;
        self.cage_over(st, cages.cells_in(info), info.sum)
    }

    /// As `cage`, for real cage `i`, which holds the digits `must` (and those the state knows
    /// it holds, `State::must`), exactly if `exact`. True if the exact rule could still find
    /// more: the cage has more than `EXACT_CELLS` open cells (with fewer, the cheap rules of a
    /// hard search already keep exactly the digits of some full assignment, so the exact pass
    /// would find nothing; docs/solver-kernel.md, row S2).
    pub(super) fn real_cage(
        &mut self,
        st: &mut State,
        i: usize,
        must: u16,
        exact: bool,
    ) -> Result<bool, Contradiction> {
        let cages = self.cages;
        let info = cages.cages[i];
        let must = must | st.must.get(i).copied().unwrap_or(0);
        let open = self.cage_open(st, cages.cells_in(info), info.sum, must, exact)?;
        Ok(open > EXACT_CELLS)
    }

    /// Restrict the open cells of `cells` (distinct digits adding up to `sum`) to the digits of
    /// the combinations still possible, exactly in a hard search.
    pub(super) fn cage_over(&mut self, st: &mut State, cells: &[u8], sum: u16) -> Step {
        self.cage_open(st, cells, sum, 0, true).map(|_| ())
    }

    /// As `cage_over`, returning how many of the cells were open; `must` are digits the cage
    /// holds, and the exact rule is asked for with `exact`.
    #[inline(always)]
    fn cage_open(
        &mut self,
        st: &mut State,
        cells: &[u8],
        sum: u16,
        must: u16,
        exact: bool,
    ) -> Result<usize, Contradiction> {
        let tables = self.tables;
        let mut used = 0u16;
        let mut placed_sum = 0usize;
        let mut open = [0u8; 16];
        let mut k = 0;
        for &c in cells {
            let x = st.cand[c as usize];
            if is_single(x) {
                if used & x != 0 {
                    return Err(Contradiction);
                }
                used |= x;
                placed_sum += digit_of(x);
            } else {
                open[k] = c;
                k += 1;
            }
        }
        let s = (sum as usize)
            .checked_sub(placed_sum)
            .ok_or(Contradiction)?;
        match k {
            0 if s == 0 => Ok(()),
            0 => Err(Contradiction),
            1 => {
                if s == 0 || s > tables.n {
                    return Err(Contradiction);
                }
                self.set(st, open[0] as usize, (1 << (s - 1)) & !used)
            }
            2 if must & !used == 0 => {
                self.cage_pair(st, open[0] as usize, open[1] as usize, s, used)
            }
            _ => self.cage_combos(st, &open[..k], s, used, must, exact),
        }?;
        Ok(k)
    }

    /// A derived sum over one or two cells that need not differ (they do not see each other):
    /// one open cell takes the rest of the sum, two keep the digits whose partner the other has.
    pub(super) fn sum_only(&mut self, st: &mut State, info: CageInfo) -> Step {
        let mut s = info.sum as usize;
        let mut open = [0usize; MAX_LOOSE];
        let mut k = 0;
        for &c in self.cages.cells_in(info) {
            let x = st.cand[c as usize];
            if is_single(x) {
                s = s.checked_sub(digit_of(x)).ok_or(Contradiction)?;
            } else {
                open[k] = c as usize;
                k += 1;
            }
        }
        let n = self.tables.n;
        match k {
            0 if s == 0 => Ok(()),
            1 if (1..=n).contains(&s) => self.set(st, open[0], 1 << (s - 1)),
            2 if (2..=2 * n).contains(&s) => {
                let (a, b) = (open[0], open[1]);
                let ya = st.cand[a] & mirror(st.cand[b], s);
                self.narrow(st, a, ya)?;
                let yb = st.cand[b] & mirror(ya, s);
                self.narrow(st, b, yb)
            }
            _ => Err(Contradiction),
        }
    }

    /// Two open cells summing to `s`: each keeps the digits whose partner the other still has.
    fn cage_pair(&mut self, st: &mut State, a: usize, b: usize, s: usize, used: u16) -> Step {
        if s < 3 || s > 2 * self.tables.n - 1 {
            return Err(Contradiction);
        }
        let mut distinct = !used;
        if s.is_multiple_of(2) {
            distinct &= !(1 << (s / 2 - 1));
        }
        let xa = st.cand[a] & distinct;
        let xb = st.cand[b] & distinct;
        let ya = xa & mirror(xb, s);
        let yb = xb & mirror(ya, s);
        self.narrow(st, a, ya)?;
        self.narrow(st, b, yb)?;
        if ya == yb && ya.count_ones() == 2 {
            // One pair left: both digits are locked in these two cells.
            self.point(st, &[a as u8, b as u8], ya)?;
        }
        Ok(())
    }

    /// Three or more open cells (or two that must hold some digits): keep the combinations that
    /// avoid placed digits, that every open cell can take part in and that hold the digits
    /// `must`. With `exact_wanted` in a hard search on a grid up to 9x9, the exact rule
    /// (`cage_exact`) instead.
    fn cage_combos(
        &mut self,
        st: &mut State,
        open: &[u8],
        s: usize,
        used: u16,
        must: u16,
        exact_wanted: bool,
    ) -> Step {
        let mut xs = [0u16; 16];
        let mut union = 0u16;
        for (x, &c) in xs.iter_mut().zip(open) {
            *x = st.cand[c as usize] & !used;
            union |= *x;
        }
        // The digits the cage must hold among its open cells.
        let must = must & !used;
        let xs = &xs[..open.len()];
        if exact_wanted && self.exact {
            return self.cage_exact(st, open, xs, s, union, must);
        }
        // In a hard search, three open cells keep only the digits of some full assignment (measured
        // on the hard set: more cells cost more than the nodes they save).
        let exact = self.linear_set.is_some() && open.len() <= EXACT_CELLS;
        let (mut allowed, mut required) = (0u16, u16::MAX);
        let mut support = [0u16; 16];
        let combos = self.tables.combos.get(open.len(), s);
        if exact {
            for &m in combos {
                if !fits(m, union, must, xs) {
                    continue;
                }
                let fits = match *xs {
                    [a, b] => orders(&[a, b], m, &mut support),
                    [a, b, c] => orders(&[a, b, c], m, &mut support),
                    _ => matchings(xs, m, &mut support),
                };
                if fits {
                    allowed |= m;
                    required &= m;
                }
            }
        } else {
            // Branch-free: whether a combination fits is unpredictable. Only the words of lanes
            // holding cells are tested (the rest pass every combination).
            let lanes = Lanes::new(xs);
            (allowed, required) = match xs.len() {
                0..=4 => lanes.filter::<1>(combos, union, must),
                5..=8 => lanes.filter::<2>(combos, union, must),
                9..=12 => lanes.filter::<3>(combos, union, must),
                _ => lanes.filter::<4>(combos, union, must),
            };
        }
        if allowed == 0 {
            return Err(Contradiction);
        }
        for (i, (&x, &c)) in xs.iter().zip(open).enumerate() {
            let keep = if exact { support[i] } else { allowed };
            self.narrow(st, c as usize, x & keep)?;
        }
        self.point(st, open, required)
    }

    /// The exact rule of a cage in a hard search on grids up to 9x9: each open cell keeps the
    /// digits it takes in some full assignment of distinct digits adding up to `s`, found over
    /// the digit sets reachable cell by cell (see `Subsets`, in `exact_of`). The result is a
    /// function of the open candidates, the sum and the digits the cage must hold, and the same
    /// inputs recur across branches: it is kept in a direct-mapped cache (`xcache`).
    fn cage_exact(
        &mut self,
        st: &mut State,
        open: &[u8],
        xs: &[u16],
        s: usize,
        union: u16,
        must: u16,
    ) -> Step {
        let found = match ExactKey::new(xs, s, must) {
            Some(key) => {
                let slot = key.slot();
                if self.xcache[slot].key == key {
                    self.xcache[slot].found
                } else {
                    let found = self.exact_of(xs, s, union, must);
                    self.xcache[slot] = ExactEntry { key, found };
                    found
                }
            }
            None => self.exact_of(xs, s, union, must),
        };
        let (keep, required) = found.ok_or(Contradiction)?;
        for (i, &c) in open.iter().enumerate() {
            self.narrow(st, c as usize, keep[i])?;
        }
        self.point(st, open, required)
    }

    /// What `cage_exact` keeps of `xs`: the digits of each open cell, those every assignment
    /// uses; `None` if no assignment is left.
    fn exact_of(&self, xs: &[u16], s: usize, union: u16, must: u16) -> Option<([u16; 16], u16)> {
        // Digits renumbered from the smallest of `union`, so that open digits spanning six or
        // fewer fit one word (renumbering the open digits densely instead measured no faster).
        let low = union.trailing_zeros();
        let span = 16 - union.leading_zeros() - low;
        let pack = |x: u16| x >> low;
        let mut packed = [0u16; 16];
        for (p, &x) in packed.iter_mut().zip(xs) {
            *p = pack(x);
        }
        let k = xs.len();
        // At most 12 combinations share a size and sum of digits 1..=9.
        let mut combos = [0u16; 16];
        let mut count = 0;
        for &m in self.tables.combos.get(k, s) {
            if !fits(m, union, must, xs) {
                continue;
            }
            combos[count] = pack(m);
            count += 1;
        }
        if count == 0 {
            return None;
        }
        let (mut keep, required) = match span {
            0..=6 => exact_support::<1>(&packed[..k], &combos[..count]),
            7 => exact_support::<2>(&packed[..k], &combos[..count]),
            8 => exact_support::<4>(&packed[..k], &combos[..count]),
            _ => exact_support::<8>(&packed[..k], &combos[..count]),
        }?;
        for x in &mut keep[..k] {
            *x <<= low;
        }
        Some((keep, required << low))
    }

    /// Each digit of `required` must sit in one of `open`: if only one cell can take it, it goes
    /// there; otherwise it leaves every cell that sees all the cells that can take it.
    fn point(&mut self, st: &mut State, open: &[u8], required: u16) -> Step {
        let tables = self.tables;
        let mut req = required;
        while req != 0 {
            let b = req & req.wrapping_neg();
            req ^= b;
            let mut count = 0;
            let mut last = 0;
            let mut common = tables.grid;
            for &c in open {
                let c = c as usize;
                if st.cand[c] & b != 0 {
                    count += 1;
                    last = c;
                    common = common.intersection(&tables.peer_bits[c]);
                }
            }
            match count {
                0 => return Err(Contradiction),
                1 => self.set(st, last, b)?,
                _ => {
                    for (w, &word) in common.words()[..tables.words].iter().enumerate() {
                        let mut bits = word;
                        while bits != 0 {
                            let p = w * 64 + bits.trailing_zeros() as usize;
                            bits &= bits - 1;
                            if st.cand[p] & b != 0 {
                                self.remove(st, p, b)?;
                            }
                        }
                    }
                }
            }
        }
        Ok(())
    }
}

/// Whether combination `m` lies within the open digits `union`, holds the digits `must` and
/// gives every cell (candidates `xs`) one of its digits (`Lanes::filter` tests the same, for
/// all cells at once).
#[inline(always)]
fn fits(m: u16, union: u16, must: u16, xs: &[u16]) -> bool {
    m & !union == 0 && must & !m == 0 && xs.iter().all(|&x| x & m != 0)
}

/// The candidates of up to 16 cells in 16-bit lanes, four to a word (lanes past the cells hold
/// every digit), to test a digit set against all of them at once.
struct Lanes([u64; 4]);

/// Each lane's low 15 bits, and its top bit.
const LANE_LOW: u64 = 0x7fff_7fff_7fff_7fff;
const LANE_TOP: u64 = 0x8000_8000_8000_8000;

impl Lanes {
    #[inline(always)]
    fn new(xs: &[u16]) -> Lanes {
        let mut words = [u64::MAX; 4];
        for (i, &x) in xs.iter().enumerate().take(16) {
            let shift = 16 * (i & 3);
            words[i >> 2] &= !(0xffff << shift) | (x as u64) << shift;
        }
        Lanes(words)
    }

    /// Whether every cell can take some digit of `m` (not empty).
    #[cfg(test)]
    fn all_meet(&self, m: u16) -> bool {
        self.all_meet_in::<4>(m)
    }

    /// Whether every cell, all in the first `W` words, can take some digit of `m` (not empty): a
    /// lane is not zero when its low bits plus `0x7fff` carry into its top bit or the top bit is
    /// set already.
    #[inline(always)]
    fn all_meet_in<const W: usize>(&self, m: u16) -> bool {
        let spread = m as u64 * 0x0001_0001_0001_0001;
        let mut met = LANE_TOP;
        for &w in &self.0[..W] {
            let t = w & spread;
            met &= ((t & LANE_LOW) + LANE_LOW) | t;
        }
        met & LANE_TOP == LANE_TOP
    }

    /// The union and intersection of the `combos` within `union`, holding `must`, that every
    /// cell (all in the first `W` words) can take part in; `(0, u16::MAX)` if none.
    #[inline(always)]
    fn filter<const W: usize>(&self, combos: &[u16], union: u16, must: u16) -> (u16, u16) {
        let (mut allowed, mut required) = (0u16, u16::MAX);
        for &m in combos {
            let fits = (m & !union == 0) & (must & !m == 0) & self.all_meet_in::<W>(m);
            let mask = 0u16.wrapping_sub(fits as u16);
            allowed |= m & mask;
            required &= m | !mask;
        }
        (allowed, required)
    }
}

#[cfg(test)]
mod tests {
    use super::Lanes;
    use rand::{Rng, SeedableRng};
    use rand_pcg::Pcg64;

    #[test]
    fn lanes_tell_whether_every_cell_meets_a_digit_set() {
        let mut rng = Pcg64::seed_from_u64(0x9e37_79b9_7f4a_7c15u64);
        let mut next = || rng.random::<u64>();
        for _ in 0..20_000 {
            let k = 1 + (next() % 16) as usize;
            // Sparse sets (a few of 16 digits), so that some cells miss `m`.
            let xs: Vec<u16> = (0..k).map(|_| (next() & next() & next()) as u16).collect();
            let m = (next() as u16) | 1 << (next() % 16);
            let want = xs.iter().all(|&x| x & m != 0);
            let lanes = Lanes::new(&xs);
            assert_eq!(lanes.all_meet(m), want, "{xs:?} {m:#x}");
            // The words past the cells pass every set: testing only the cells' words agrees.
            let got = match k.div_ceil(4) {
                1 => lanes.all_meet_in::<1>(m),
                2 => lanes.all_meet_in::<2>(m),
                3 => lanes.all_meet_in::<3>(m),
                _ => lanes.all_meet_in::<4>(m),
            };
            assert_eq!(got, want, "{xs:?} {m:#x}");
        }
    }
}
