//! The exact side of the cage rules: the digits each open cell takes in some full assignment of
//! distinct digits filling one of a cage's combinations, over the digit sets reachable cell by
//! cell (`exact_support`), by every order of a combination's digits for two or three cells
//! (`orders`), or by one matching and its alternating cycles (`matchings`, Régin's filtering for
//! all-different); and the cache of the exact rule's results by input (`ExactKey`).

/// Entries of the cache of the exact cage rule (a power of two).
// Tuned: docs/solver-kernel.md, row S15.
pub(super) const XCACHE: usize = 1 << 12;

/// The inputs of the exact cage rule: the open cells' candidates (without placed digits, at
/// most nine), the sum left and the digits the cage must hold.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(super) struct ExactKey([u16; 12]);

impl ExactKey {
    /// The key of these inputs, if they fit one (nine open cells or fewer).
    pub(super) fn new(xs: &[u16], s: usize, must: u16) -> Option<ExactKey> {
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
    pub(super) fn slot(&self) -> usize {
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
    pub(super) key: ExactKey,
    pub(super) found: Option<([u16; 16], u16)>,
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
pub(super) fn exact_support<const W: usize>(
    xs: &[u16],
    combos: &[u16],
) -> Option<([u16; 16], u16)> {
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
pub(super) fn orders<const K: usize>(xs: &[u16; K], m: u16, support: &mut [u16; 16]) -> bool {
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
pub(super) fn matchings(xs: &[u16], m: u16, support: &mut [u16; 16]) -> bool {
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
    use super::{exact_support, matchings, orders};
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
