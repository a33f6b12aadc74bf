//! The linear-sum rule of the killer kernel (for the derived sums of `solver::linear`): bounds on
//! the total from each group's smallest and largest distinct digits, each open cell kept within
//! the slack they leave, and two open cells matched digit by digit.
//!
//! A sum is examined whenever one of its cells changes, after the cheaper rules and before the
//! exact cage rule, and the propagation goes back to the cheaper rules as soon as one prunes.
//! Measurements: `docs/solver-kernel.md`, rows L1-L5.

use super::{digit_of, is_single, Contradiction, Search, State, Step};
use crate::solver::combos::mirror;
use crate::solver::linear::{Linear, Term};
use std::sync::OnceLock;

/// Digits `1..=m` as bits (none for `m <= 0`, all sixteen for `m >= 16`).
#[inline]
fn up_to(m: i32) -> u16 {
    if m <= 0 {
        0
    } else if m >= 16 {
        u16::MAX
    } else {
        (1u16 << m) - 1
    }
}

/// `{ n + 1 - d : d in set }` for digits of 1..=n.
#[inline]
fn reverse(set: u16, n: i32) -> u16 {
    set.reverse_bits() >> (16 - n)
}

/// Digits `m..=16` as bits.
#[inline]
fn from(m: i32) -> u16 {
    !up_to(m - 1)
}

/// The sum of the `t` smallest digits of `set` and the `t`-th smallest itself (`None` if `set`
/// holds fewer than `t`).
#[inline]
fn smallest(mut set: u16, t: usize) -> Option<(i32, i32)> {
    let (mut total, mut last) = (0, 0);
    for _ in 0..t {
        if set == 0 {
            return None;
        }
        last = digit_of(set & set.wrapping_neg()) as i32;
        total += last;
        set &= set - 1;
    }
    Some((total, last))
}

/// The sum of the `t` largest digits of `set` and the `t`-th largest itself.
#[inline]
fn largest(mut set: u16, t: usize) -> Option<(i32, i32)> {
    let (mut total, mut last) = (0, 0);
    for _ in 0..t {
        if set == 0 {
            return None;
        }
        let top = 15 - set.leading_zeros() as usize;
        last = top as i32 + 1;
        total += last;
        set &= !(1 << top);
    }
    Some((total, last))
}

/// Digit sets of grids up to 9x9 fit in 9 bits: `extremes` reads their bounds from a table.
const SMALL_BITS: usize = 9;

/// For each `t <= 9` and 9-bit digit set (at `t * 512 + set`): the sum of its `t` smallest
/// digits, the `t`-th smallest, the sum of its `t` largest and the `t`-th largest; all `u8::MAX`
/// when the set holds fewer than `t` digits.
pub(super) fn extremes_table() -> &'static [[u8; 4]] {
    static TABLE: OnceLock<Vec<[u8; 4]>> = OnceLock::new();
    TABLE.get_or_init(|| {
        let sets = 1usize << SMALL_BITS;
        (0..=SMALL_BITS * sets + sets - 1)
            .map(|i| {
                let (t, set) = (i / sets, (i % sets) as u16);
                match (smallest(set, t), largest(set, t)) {
                    (Some((s, ks)), Some((l, kl))) => [s as u8, ks as u8, l as u8, kl as u8],
                    _ => [u8::MAX; 4],
                }
            })
            .collect()
    })
}

/// The sum of the `t` smallest digits of `set`, the `t`-th smallest, the sum of the `t` largest
/// and the `t`-th largest (`None` if `set` holds fewer than `t`); from the table when `small`.
#[inline]
fn extremes(table: &[[u8; 4]], small: bool, set: u16, t: usize) -> Option<[i32; 4]> {
    if small {
        let [s, ks, l, kl] = table[t << SMALL_BITS | set as usize];
        (s != u8::MAX).then_some([s as i32, ks as i32, l as i32, kl as i32])
    } else {
        let (s, ks) = smallest(set, t)?;
        let (l, kl) = largest(set, t)?;
        Some([s, ks, l, kl])
    }
}

/// The digits each of three cells (candidates `xs`, all digits of 1..=n) takes in some solution
/// of `a + b + c = rest`, where `distinct` says whether (a, b), (a, c) and (b, c) must differ.
/// Per digit of the first cell, the pairs of the other two completing the sum come at once: the
/// third cell's digits whose partner the second has (`mirror`), and back.
fn triple_support(xs: [u16; 3], distinct: [bool; 3], rest: i32, n: i32) -> [u16; 3] {
    let [xa, xb, xc] = xs;
    let [ab, ac, bc] = distinct;
    let (mut sa, mut sb, mut sc) = (0u16, 0u16, 0u16);
    let mut ra = xa;
    while ra != 0 {
        let da = ra & ra.wrapping_neg();
        ra ^= da;
        let s2 = rest - digit_of(da) as i32;
        if !(2..=2 * n).contains(&s2) {
            continue;
        }
        let s2 = s2 as usize;
        let xb = if ab { xb & !da } else { xb };
        let xc = if ac { xc & !da } else { xc };
        let mut pc = xc & mirror(xb, s2);
        let mut pb = xb & mirror(xc, s2);
        if bc && s2.is_multiple_of(2) {
            // The second and third cells cannot both take half of `s2`.
            let half = !(1u16 << (s2 / 2 - 1));
            pc &= half;
            pb &= half;
        }
        if pc != 0 {
            sa |= da;
            sb |= pb;
            sc |= pc;
        }
    }
    [sa, sb, sc]
}

/// The group of `terms` starting at `start`: where it ends, the digits its open cells may take
/// (its placed digits removed), how many cells are open and the sum of its placed digits.
#[inline(always)]
fn group_at(
    st: &State,
    terms: &[Term],
    start: usize,
) -> Result<(usize, u16, usize, i32), Contradiction> {
    let g = terms[start].group;
    let (mut placed, mut union, mut fixed, mut t) = (0u16, 0u16, 0i32, 0usize);
    let mut i = start;
    while i < terms.len() && terms[i].group == g {
        let x = st.cand[terms[i].cell as usize];
        if is_single(x) {
            if placed & x != 0 {
                return Err(Contradiction);
            }
            placed |= x;
            fixed += digit_of(x) as i32;
        } else {
            union |= x;
            t += 1;
        }
        i += 1;
    }
    Ok((i, union & !placed, t, fixed))
}

impl Search<'_> {
    /// Enforce the linear sum `sum`.
    #[inline(never)]
    pub(super) fn linear(&mut self, st: &mut State, sum: Linear) -> Step {
        let set = self
            .linear_set
            .expect("linear sums are enforced only when derived");
        if let Some(info) = sum.cage {
            return self.cage_over(st, set.cells_in(info), info.sum);
        }
        let terms: &[Term] = &set.terms[sum.start as usize..][..sum.len as usize];
        let small_grid = self.tables.n <= SMALL_BITS;
        let table = self.extremes;
        let (mut lo, mut hi) = (0i32, 0i32);
        let mut opens = 0;
        // The least slack above and below the bounds that leaves every group's digits whole.
        let (mut need_up, mut need_down) = (0i32, 0i32);
        let mut i = 0;
        while i < terms.len() {
            let (end, open, t, fixed) = group_at(st, terms, i)?;
            let [small, kth_small, large, kth_large] =
                extremes(table, small_grid, open, t).ok_or(Contradiction)?;
            let (glo, ghi) = (fixed + small, fixed + large);
            let negative = terms[i].negative;
            if negative {
                lo -= ghi;
                hi -= glo;
            } else {
                lo += glo;
                hi += ghi;
            }
            if t > 0 {
                opens += t;
                // Digits above the t-th smallest go once the slack above falls below this,
                // digits below the t-th largest once the slack below does.
                let above = 16 - open.leading_zeros() as i32 - kth_small;
                let below = kth_large - (open.trailing_zeros() as i32 + 1);
                let (up, down) = if negative {
                    (below, above)
                } else {
                    (above, below)
                };
                need_up = need_up.max(up);
                need_down = need_down.max(down);
            }
            i = end;
        }
        let target = sum.sum as i32;
        if target < lo || target > hi {
            return Err(Contradiction);
        }
        if opens == 2 {
            return self.linear_pair(st, terms, target);
        }
        if opens == 3 {
            return self.linear_triple(st, terms, target);
        }
        let (up, down) = (target - lo, hi - target);
        if up >= need_up && down >= need_down {
            return Ok(());
        }
        self.linear_narrow(st, terms, up, down)
    }

    /// The pruning of `linear` once the slack `up` above its lower bound or `down` below its
    /// upper bound is too small for some group (rare: the groups are read again).
    #[cold]
    fn linear_narrow(&mut self, st: &mut State, terms: &[Term], up: i32, down: i32) -> Step {
        let small_grid = self.tables.n <= SMALL_BITS;
        let mut i = 0;
        while i < terms.len() {
            let start = i;
            let (end, open, t, _) = group_at(st, terms, start)?;
            i = end;
            if t == 0 {
                continue;
            }
            let [_, kth_small, _, kth_large] =
                extremes(self.extremes, small_grid, open, t).ok_or(Contradiction)?;
            let (above, below) = if terms[start].negative {
                (down, up)
            } else {
                (up, down)
            };
            let keep = open & up_to(kth_small + above) & from(kth_large - below);
            if keep == open {
                continue;
            }
            for t in &terms[start..end] {
                let c = t.cell as usize;
                let x = st.cand[c];
                if !is_single(x) {
                    self.narrow_linear(st, c, x & keep)?;
                }
            }
        }
        Ok(())
    }

    /// Exactly three open cells: each keeps the digits that two digits of the others complete
    /// (digits of one group distinct). A cell with coefficient -1 is read reversed (d as N+1-d),
    /// which turns the sum into one of positive terms (as sigh's solver does for its sums).
    fn linear_triple(&mut self, st: &mut State, terms: &[Term], target: i32) -> Step {
        let n = self.tables.n as i32;
        let mut rest = target;
        let mut open = [(0usize, false, 0u8, 0u16); 3];
        let mut k = 0;
        for t in terms {
            let x = st.cand[t.cell as usize];
            if is_single(x) {
                let d = digit_of(x) as i32;
                rest -= if t.negative { -d } else { d };
            } else if k < 3 {
                let x = if t.negative { reverse(x, n) } else { x };
                if t.negative {
                    rest += n + 1;
                }
                open[k] = (t.cell as usize, t.negative, t.group, x);
                k += 1;
            }
        }
        let [(a, na, ga, xa), (b, nb, gb, xb), (c, nc, gc, xc)] = open;
        let [sa, sb, sc] = triple_support([xa, xb, xc], [ga == gb, ga == gc, gb == gc], rest, n);
        let back = |s: u16, neg: bool| if neg { reverse(s, n) } else { s };
        self.narrow_linear(st, a, back(sa, na))?;
        self.narrow_linear(st, b, back(sb, nb))?;
        self.narrow_linear(st, c, back(sc, nc))
    }

    /// Exactly two open cells: each keeps the digits the other can complete.
    fn linear_pair(&mut self, st: &mut State, terms: &[Term], target: i32) -> Step {
        // The rest of the total, with the placed digits taken off.
        let mut rest = target;
        let mut open = [(0usize, false, 0u8); 2];
        let mut k = 0;
        for t in terms {
            let x = st.cand[t.cell as usize];
            let d = if is_single(x) { digit_of(x) as i32 } else { 0 };
            if d > 0 {
                rest -= if t.negative { -d } else { d };
            } else if k < 2 {
                open[k] = (t.cell as usize, t.negative, t.group);
                k += 1;
            }
        }
        let [(a, na, ga), (b, nb, gb)] = open;
        let (xa, xb) = (st.cand[a], st.cand[b]);
        let (ya, yb) = match (na, nb) {
            (false, false) | (true, true) => {
                // a + b = s (both negated: a + b = -rest).
                let s = if na { -rest } else { rest };
                if !(2..=32).contains(&s) {
                    return Err(Contradiction);
                }
                let s = s as usize;
                let mut ya = xa & mirror(xb, s);
                if ga == gb && s.is_multiple_of(2) {
                    ya &= !(1 << (s / 2 - 1));
                }
                let yb = xb & mirror(ya, s);
                (ya, yb)
            }
            _ => {
                // positive - negative = rest: the positive cell is the other shifted up.
                let (xp, xq) = if na { (xb, xa) } else { (xa, xb) };
                let shift = |x: u16, by: i32| -> u16 {
                    if by >= 16 || by <= -16 {
                        0
                    } else if by >= 0 {
                        x << by
                    } else {
                        x >> -by
                    }
                };
                let yp = xp & shift(xq, rest);
                let yq = xq & shift(yp, -rest);
                if na {
                    (yq, yp)
                } else {
                    (yp, yq)
                }
            }
        };
        self.narrow_linear(st, a, ya)?;
        self.narrow_linear(st, b, yb)
    }
}

#[cfg(test)]
mod tests {
    use super::triple_support;
    use rand::{Rng, SeedableRng};
    use rand_pcg::Pcg64;

    /// `triple_support` the slow way: every digit of every cell tried.
    fn brute(xs: [u16; 3], distinct: [bool; 3], rest: i32, n: i32) -> [u16; 3] {
        let mut got = [0u16; 3];
        for a in 1..=n {
            for b in 1..=n {
                for c in 1..=n {
                    let bits = [a, b, c].map(|d| 1u16 << (d - 1));
                    let fits = (0..3).all(|i| xs[i] & bits[i] != 0)
                        && a + b + c == rest
                        && !(distinct[0] && a == b)
                        && !(distinct[1] && a == c)
                        && !(distinct[2] && b == c);
                    if fits {
                        for i in 0..3 {
                            got[i] |= bits[i];
                        }
                    }
                }
            }
        }
        got
    }

    #[test]
    fn triple_support_matches_brute_force() {
        let mut rng = Pcg64::seed_from_u64(0x2545_f491_4f6c_dd1du64);
        let mut next = || rng.random::<u64>();
        for _ in 0..20_000 {
            let n = [4, 6, 9, 12, 16][(next() % 5) as usize];
            let all = ((1u32 << n) - 1) as u16;
            let xs = [0; 3].map(|_: u16| (next() as u16) & all);
            let distinct = [0; 3].map(|_: u8| next() % 2 == 0);
            let rest = (next() % (3 * n as u64 + 6)) as i32 - 2;
            assert_eq!(
                triple_support(xs, distinct, rest, n),
                brute(xs, distinct, rest, n),
                "{xs:?} {distinct:?} {rest} n {n}"
            );
        }
    }
}
