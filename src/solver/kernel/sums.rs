//! The sum rules of the killer kernel: cages (and derived sums over cells that see each other)
//! through the digit-combination tables, derived sums over cells that need not differ, and the
//! pointing of digits every remaining combination needs.
//!
//! The cheap rule keeps the digits of the combinations every open cell can take part in, tested
//! branch-free over 16-bit lanes. In a hard search on grids up to 9x9 every cage is also filtered
//! exactly (each open cell keeps only the digits of some full assignment: `cage_exact`, over the
//! digit sets reachable cell by cell, cached by input), but only once the cheaper rules reach
//! their fixpoint: a cage changes many times in one propagation, and the exact rule runs once for
//! all of them. Few open cells are checked assignment by assignment (`orders`, and `matchings`:
//! Régin's all-different filtering). Measurements: `docs/solver-kernel.md`, rows S1-S17.

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

/// Entries of the cache of the exact cage rule (a power of two).
// Tuned: docs/solver-kernel.md, row S15.
pub(super) const XCACHE: usize = 1 << 12;

/// The inputs of the exact cage rule: the open cells' candidates (without placed digits, at
/// most nine), the sum left and the digits the cage must hold.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(super) struct ExactKey([u16; 12]);

impl ExactKey {
    /// The key of these inputs, if they fit one (nine open cells or fewer).
    fn new(xs: &[u16], s: usize, must: u16) -> Option<ExactKey> {
        if xs.len() > 9 {
            return None;
        }
        let mut key = [0u16; 12];
        key[..xs.len()].copy_from_slice(xs);
        key[9] = s as u16;
        key[10] = must;
        key[11] = xs.len() as u16;
        Some(ExactKey(key))
    }

    /// Where the key lives in the cache (a multiplicative hash of its words).
    fn slot(&self) -> usize {
        let mut h = 0u64;
        for w in self.0.chunks_exact(4) {
            let v = w.iter().fold(0u64, |v, &x| v << 16 | x as u64);
            h = (h ^ v).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        }
        (h >> 52) as usize & (XCACHE - 1)
    }
}

/// One remembered result of the exact cage rule.
#[derive(Copy, Clone, Debug)]
pub(super) struct ExactEntry {
    key: ExactKey,
    found: Option<([u16; 16], u16)>,
}

impl ExactEntry {
    /// An entry no input matches (no key has zero open cells).
    pub(super) const EMPTY: ExactEntry = ExactEntry {
        key: ExactKey([0; 12]),
        found: None,
    };
}

/// Digit sets of 9x9 grids (9 bits) that `Subsets` can hold.
pub(super) const SUBSET_BITS: usize = 9;

/// For `j < 6`: the bits of a word whose index lacks bit `j`.
const LACKS: [u64; 6] = [
    0x5555_5555_5555_5555,
    0x3333_3333_3333_3333,
    0x0f0f_0f0f_0f0f_0f0f,
    0x00ff_00ff_00ff_00ff,
    0x0000_ffff_0000_ffff,
    0x0000_0000_ffff_ffff,
];

/// For cells with (renumbered) candidates `xs` and the digit sets `combos` they may fill: the
/// digits each cell takes in some assignment of distinct digits filling one of the sets, and the
/// digits every such assignment uses; `None` if there is no such assignment. Backwards, the
/// digit sets the first `i` cells may leave for the rest to complete; forwards, those they can
/// reach that the rest completes.
fn exact_support<const W: usize>(xs: &[u16], combos: &[u16]) -> Option<([u16; 16], u16)> {
    let k = xs.len();
    let mut back = [Subsets::<W>::EMPTY; SUBSET_BITS + 1];
    for &m in combos {
        back[k].insert(m);
    }
    // Not `back[0]`: the first cell's digits are read off `back[1]` one bit each.
    for i in (1..k).rev() {
        let mut b = Subsets::EMPTY;
        let mut ds = xs[i];
        while ds != 0 {
            let j = ds.trailing_zeros() as usize;
            ds &= ds - 1;
            b.or_down(&back[i + 1], j);
        }
        back[i] = b;
    }
    let mut keep = [0u16; 16];
    let mut fwd = Subsets::EMPTY;
    let mut ds = xs[0];
    while ds != 0 {
        let j = ds.trailing_zeros() as usize;
        ds &= ds - 1;
        if back[1].contains(1 << j) {
            keep[0] |= 1 << j;
            fwd.insert(1 << j);
        }
    }
    if keep[0] == 0 {
        return None;
    }
    for i in 1..k {
        let mut next = Subsets::EMPTY;
        let mut ds = xs[i];
        let mut support = 0u16;
        while ds != 0 {
            let j = ds.trailing_zeros() as usize;
            ds &= ds - 1;
            // Branch-free: whether a digit fits is unpredictable (an empty step adds nothing).
            let fits = fwd.up_into(j, &back[i + 1], &mut next);
            support |= u16::from(fits) << j;
        }
        keep[i] = support;
        fwd = next;
    }
    let mut required = u16::MAX;
    fwd.for_each(|m| required &= m);
    Some((keep, required))
}

/// A set of digit sets of up to `64 * W` (bit `m` for the digit set `m`): the states of the
/// exact cage rule, where adding digit `j` to every set lacking it is a shift by `2^j`.
#[derive(Copy, Clone)]
struct Subsets<const W: usize>([u64; W]);

impl<const W: usize> Subsets<W> {
    const EMPTY: Subsets<W> = Subsets([0; W]);

    #[inline(always)]
    fn insert(&mut self, m: u16) {
        self.0[(m >> 6) as usize % W] |= 1 << (m & 63);
    }

    #[inline(always)]
    fn contains(&self, m: u16) -> bool {
        self.0[(m >> 6) as usize % W] >> (m & 63) & 1 != 0
    }

    /// Add to `next` the sets lacking digit `j`, each with `j` added, that `to` holds; whether
    /// there were any (one pass over the words).
    #[inline(always)]
    fn up_into(&self, j: usize, to: &Subsets<W>, next: &mut Subsets<W>) -> bool {
        let mut any = 0u64;
        match j {
            0..=5 => {
                for ((n, &w), &t) in next.0.iter_mut().zip(&self.0).zip(&to.0) {
                    let v = (w & LACKS[j]) << (1 << j) & t;
                    any |= v;
                    *n |= v;
                }
            }
            6 => self.up_words_into::<1>(to, next, &mut any),
            7 => self.up_words_into::<2>(to, next, &mut any),
            _ => self.up_words_into::<4>(to, next, &mut any),
        }
        any != 0
    }

    /// `up_into` for digit `6 + log2(STEP)`: word `w` with bit `STEP` takes word `w - STEP`
    /// (the test of `w` folds away once the loop over the `W` words is unrolled).
    #[inline(always)]
    fn up_words_into<const STEP: usize>(
        &self,
        to: &Subsets<W>,
        next: &mut Subsets<W>,
        any: &mut u64,
    ) {
        for (w, (n, &t)) in next.0.iter_mut().zip(&to.0).enumerate() {
            if w & STEP != 0 {
                let v = self.0[(w ^ STEP) % W] & t;
                *any |= v;
                *n |= v;
            }
        }
    }

    /// Add to `self` the sets of `from` holding digit `j`, each with `j` taken out.
    #[inline(always)]
    fn or_down(&mut self, from: &Subsets<W>, j: usize) {
        match j {
            0..=5 => {
                for (r, &w) in self.0.iter_mut().zip(&from.0) {
                    *r |= (w & !LACKS[j]) >> (1 << j);
                }
            }
            6 => self.or_down_words::<1>(from),
            7 => self.or_down_words::<2>(from),
            _ => self.or_down_words::<4>(from),
        }
    }

    /// `or_down` for digit `6 + log2(STEP)`: word `w` without bit `STEP` takes word
    /// `w + STEP`.
    #[inline(always)]
    fn or_down_words<const STEP: usize>(&mut self, from: &Subsets<W>) {
        for (w, r) in self.0.iter_mut().enumerate() {
            if w & STEP == 0 {
                *r |= from.0[(w ^ STEP) % W];
            }
        }
    }

    /// Call `f` on every digit set held.
    #[inline(always)]
    fn for_each(&self, mut f: impl FnMut(u16)) {
        for (w, &word) in self.0.iter().enumerate() {
            let mut bits = word;
            while bits != 0 {
                f((w * 64 + bits.trailing_zeros() as usize) as u16);
                bits &= bits - 1;
            }
        }
    }
}

/// `matchings` for two or three cells, by trying every order of the digits of `m` (faster:
/// docs/solver-kernel.md, row S16).
#[inline(always)]
fn orders<const K: usize>(xs: &[u16; K], m: u16, support: &mut [u16; 16]) -> bool {
    let a = m & m.wrapping_neg();
    let rest = m ^ a;
    let b = rest & rest.wrapping_neg();
    let c = rest ^ b;
    let mut any = false;
    // Branch-free: whether an order fits is unpredictable.
    let mut try_order = |order: [u16; 3]| {
        let mut fits = true;
        for (x, d) in xs.iter().zip(order) {
            fits &= x & d != 0;
        }
        let mask = 0u16.wrapping_sub(u16::from(fits));
        for (s, d) in support.iter_mut().zip(&order[..K]) {
            *s |= d & mask;
        }
        any |= fits;
    };
    if K == 2 {
        try_order([a, rest, 0]);
        try_order([rest, a, 0]);
    } else {
        for order in [
            [a, b, c],
            [a, c, b],
            [b, a, c],
            [b, c, a],
            [c, a, b],
            [c, b, a],
        ] {
            try_order(order);
        }
    }
    any
}

/// Whether the cells with candidates `xs` can take the digits of `m` (one each, all different:
/// `m` has as many digits as there are cells); if so, adds to `support[i]` every digit cell `i`
/// takes in some such assignment. One matching by augmenting paths, then the alternating cycles
/// through it (Régin's filtering for all-different): cell `i` may also take the digit of cell `j`
/// when each reaches the other in the graph "cell -> cell owning a digit it can take".
fn matchings(xs: &[u16], m: u16, support: &mut [u16; 16]) -> bool {
    let k = xs.len();
    let mut want = [0u16; 16];
    let (mut every, mut covered) = (true, true);
    for (i, &x) in xs.iter().enumerate() {
        want[i] = x & m;
        every &= want[i] == m;
        covered &= want[i] & !support[i] == 0;
    }
    if every {
        // Any cell can take any digit of `m`.
        for s in &mut support[..k] {
            *s |= m;
        }
        return true;
    }
    let mut owner = [u8::MAX; 16];
    let mut digit = [0u16; 16];
    let mut taken = 0u16;
    for i in 0..k {
        let free = want[i] & !taken;
        if free != 0 {
            let d = free & free.wrapping_neg();
            taken |= d;
            owner[d.trailing_zeros() as usize] = i as u8;
            digit[i] = d;
        }
    }
    for i in 0..k {
        if digit[i] != 0 {
            continue;
        }
        let mut visited = 0u16;
        if !augment(i, &want, &mut owner, &mut digit, &mut visited) {
            return false;
        }
    }
    if covered {
        // Nothing this combination allows is in doubt: only its being possible mattered.
        return true;
    }
    // reach[i]: the cells cell i reaches (bit j).
    let mut reach = [0u16; 16];
    for i in 0..k {
        let mut ds = want[i] & !digit[i];
        while ds != 0 {
            let d = ds.trailing_zeros() as usize;
            ds &= ds - 1;
            reach[i] |= 1 << owner[d];
        }
    }
    for t in 0..k {
        let via = reach[t];
        for r in reach[..k].iter_mut() {
            if *r >> t & 1 != 0 {
                *r |= via;
            }
        }
    }
    for i in 0..k {
        let mut got = digit[i];
        let mut js = reach[i];
        while js != 0 {
            let j = js.trailing_zeros() as usize;
            js &= js - 1;
            if reach[j] >> i & 1 != 0 {
                got |= digit[j];
            }
        }
        support[i] |= got & want[i];
    }
    true
}

/// Kuhn's augmenting path from cell `i` over digits not yet `visited`.
fn augment(
    i: usize,
    want: &[u16; 16],
    owner: &mut [u8; 16],
    digit: &mut [u16; 16],
    visited: &mut u16,
) -> bool {
    let mut options = want[i] & !*visited;
    while options != 0 {
        let d = options & options.wrapping_neg();
        options ^= d;
        *visited |= d;
        let o = owner[d.trailing_zeros() as usize];
        if o == u8::MAX || augment(o as usize, want, owner, digit, visited) {
            owner[d.trailing_zeros() as usize] = i as u8;
            digit[i] = d;
            return true;
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::{exact_support, matchings, orders, Lanes};
    use crate::solver::combos::Combos;
    use rand::{Rng, SeedableRng};
    use rand_pcg::Pcg64;

    /// Every assignment of distinct digits to cells with candidates `xs` (1..=9) adding up to
    /// `s`, the slow way: the digits each cell takes in one, and those all of them use.
    fn brute(xs: &[u16], s: usize) -> Option<([u16; 16], u16)> {
        fn walk(
            xs: &[u16],
            i: usize,
            used: u16,
            left: i32,
            got: &mut [u16; 16],
            req: &mut u16,
            path: &mut [u16; 16],
        ) -> bool {
            if i == xs.len() {
                if left != 0 {
                    return false;
                }
                for j in 0..i {
                    got[j] |= path[j];
                }
                *req &= used;
                return true;
            }
            let mut any = false;
            for d in 0..9i32 {
                let b = 1u16 << d;
                if xs[i] & b != 0 && used & b == 0 {
                    path[i] = b;
                    any |= walk(xs, i + 1, used | b, left - d - 1, got, req, path);
                }
            }
            any
        }
        let (mut got, mut req, mut path) = ([0u16; 16], u16::MAX, [0u16; 16]);
        walk(xs, 0, 0, s as i32, &mut got, &mut req, &mut path).then_some((got, req))
    }

    #[test]
    fn exact_support_matches_brute_force() {
        let combos = Combos::of(9);
        let mut rng = Pcg64::seed_from_u64(0x9e37_79b9_7f4a_7c15u64);
        let mut next = || rng.random::<u64>();
        for _ in 0..3000 {
            let k = 1 + (next() % 6) as usize;
            let mut xs = [0u16; 16];
            for x in &mut xs[..k] {
                *x = (next() & 0x1ff) as u16 | 1 << (next() % 9);
            }
            let s = (next() % 46) as usize;
            // Digits 1..=6, 1..=7, 1..=8 and all nine: one, two, four and eight words.
            let width = [6, 7, 8, 9][(next() % 4) as usize];
            let within = (1u16 << width) - 1;
            for x in &mut xs[..k] {
                *x &= within;
            }
            let fit: Vec<u16> = combos
                .get(k, s)
                .iter()
                .copied()
                .filter(|m| m & !within == 0)
                .collect();
            let got = match width {
                6 => exact_support::<1>(&xs[..k], &fit),
                7 => exact_support::<2>(&xs[..k], &fit),
                8 => exact_support::<4>(&xs[..k], &fit),
                _ => exact_support::<8>(&xs[..k], &fit),
            };
            let want = brute(&xs[..k], s);
            match (got, want) {
                (None, None) => {}
                (Some((keep, req)), Some((wk, wr))) => {
                    assert_eq!(&keep[..k], &wk[..k], "xs {:?} sum {s}", &xs[..k]);
                    assert_eq!(req, wr, "xs {:?} sum {s}", &xs[..k]);
                }
                (g, w) => panic!(
                    "xs {:?} sum {s}: {:?} vs {:?}",
                    &xs[..k],
                    g.is_some(),
                    w.is_some()
                ),
            }
        }
    }

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

    #[test]
    fn orders_agree_with_matchings() {
        let mut rng = Pcg64::seed_from_u64(0x51ed_2701_a3b4_c5d6);
        let mut next = || rng.random::<u64>();
        for _ in 0..20_000 {
            let k = 2 + (next() % 2) as usize;
            // Digits of 16x16 grids, sparse enough that some orders fail.
            let xs: Vec<u16> = (0..k).map(|_| (next() | next()) as u16).collect();
            let mut m = 0u16;
            while (m.count_ones() as usize) < k {
                m |= 1 << (next() % 16);
            }
            let (mut want, mut got) = ([0u16; 16], [0u16; 16]);
            let fits = matchings(&xs, m, &mut want);
            let got_fits = match xs[..] {
                [a, b] => orders(&[a, b], m, &mut got),
                [a, b, c] => orders(&[a, b, c], m, &mut got),
                _ => unreachable!(),
            };
            assert_eq!(got_fits, fits, "{xs:?} {m:#x}");
            assert_eq!(got, want, "{xs:?} {m:#x}");
        }
    }

    #[test]
    fn matchings_keep_the_digits_of_some_full_assignment() {
        // Cells {1, 2}, {1, 2}, {1, 2, 3} taking {1, 2, 3}: the first two hold 1 and 2, so the
        // third is 3.
        let mut support = [0u16; 16];
        assert!(matchings(&[0b011, 0b011, 0b111], 0b111, &mut support));
        assert_eq!(&support[..3], &[0b011, 0b011, 0b100]);
        // Every cell can take every digit: all supported.
        let mut support = [0u16; 16];
        assert!(matchings(&[0b111, 0b111, 0b111], 0b111, &mut support));
        assert_eq!(&support[..3], &[0b111; 3]);
        // {1, 4}, {1, 4}, {2, 4} taking {1, 2, 4}: 2 is only in the third cell.
        let mut support = [0u16; 16];
        assert!(matchings(&[0b1001, 0b1001, 0b1010], 0b1011, &mut support));
        assert_eq!(&support[..3], &[0b1001, 0b1001, 0b0010]);
    }

    #[test]
    fn matchings_reject_a_combination_no_assignment_fits() {
        // Two cells can only take 1.
        let mut support = [0u16; 16];
        assert!(!matchings(&[0b001, 0b001, 0b110], 0b111, &mut support));
        assert_eq!(support, [0; 16]);
    }
}
