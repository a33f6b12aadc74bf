//! The sum rules of the killer kernel: cages (and derived sums over cells that see each other)
//! through the digit-combination tables, derived sums over cells that need not differ, and the
//! pointing of digits every remaining combination needs.

use super::{digit_of, is_single, Contradiction, Search, State, Step};
use crate::solver::cages::CageInfo;
use crate::solver::combos::mirror;
use crate::solver::innies::MAX_LOOSE;
use crate::solver::layout::Board;

/// Most open cells of a cage checked assignment by assignment (`matchings`).
const EXACT_CELLS: usize = 3;

impl Search<'_> {
    /// Restrict the open cells of a derived cage to the digits of the combinations still possible.
    pub(super) fn cage(&mut self, st: &mut State, info: CageInfo) -> Step {
        let cages = self.cages;
        self.cage_over(st, cages.cells_in(info), info.sum, &[])
    }

    /// As `cage`, for real cage `i`: in a hard search (the linear sums in use), with the rest of
    /// its house when it lies in one (measured: 7-11% off the rate of the published killers,
    /// which need one or two nodes, when used from the start).
    pub(super) fn real_cage(&mut self, st: &mut State, i: usize) -> Step {
        let cages = self.cages;
        let info = cages.cages[i];
        let rest = match self.linear_set {
            Some(_) => cages.rest_of(i),
            None => &[],
        };
        self.cage_over(st, cages.cells_in(info), info.sum, rest)
    }

    /// Restrict the open cells of `cells` (distinct digits adding up to `sum`) to the digits of
    /// the combinations still possible; `rest` is the rest of a house holding `cells` (or empty),
    /// where the digits a combination leaves out must still fit.
    pub(super) fn cage_over(
        &mut self,
        st: &mut State,
        cells: &[u8],
        sum: u16,
        rest: &[u8],
    ) -> Step {
        let layout = self.layout;
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
                if s == 0 || s > layout.n {
                    return Err(Contradiction);
                }
                self.set(st, open[0] as usize, (1 << (s - 1)) & !used)
            }
            2 if rest.is_empty() => self.cage_pair(st, open[0] as usize, open[1] as usize, s, used),
            _ => self.cage_combos(st, &open[..k], s, used, rest),
        }
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
        let n = self.layout.n;
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
        if s < 3 || s > 2 * self.layout.n - 1 {
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

    /// Three or more open cells (or two beside the `rest` of their house): keep the
    /// combinations that avoid placed digits, that every open cell can take part in and whose
    /// left-out digits the rest of the house can still hold.
    fn cage_combos(
        &mut self,
        st: &mut State,
        open: &[u8],
        s: usize,
        used: u16,
        rest: &[u8],
    ) -> Step {
        let mut xs = [0u16; 16];
        let mut union = 0u16;
        for (x, &c) in xs.iter_mut().zip(open) {
            *x = st.cand[c as usize] & !used;
            union |= *x;
        }
        // Digits the rest of the house cannot hold must be in the cage.
        let must = if rest.is_empty() {
            0
        } else {
            let outside = rest.iter().fold(0, |u, &c| u | st.cand[c as usize]);
            self.layout.all & !outside & !used
        };
        let xs = &xs[..open.len()];
        // In a hard search, three open cells keep only the digits of some full assignment (measured
        // on the hard set: more cells cost more than the nodes they save).
        let exact = self.linear_set.is_some() && open.len() <= EXACT_CELLS;
        let (mut allowed, mut required) = (0u16, u16::MAX);
        let mut support = [0u16; 16];
        for &m in self.layout.combos.get(open.len(), s) {
            if m & !union != 0 || must & !m != 0 || xs.iter().any(|&x| x & m == 0) {
                continue;
            }
            if exact && !matchings(xs, m, &mut support) {
                continue;
            }
            allowed |= m;
            required &= m;
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

    /// Each digit of `required` must sit in one of `open`: if only one cell can take it, it goes
    /// there; otherwise it leaves every cell that sees all the cells that can take it.
    fn point(&mut self, st: &mut State, open: &[u8], required: u16) -> Step {
        let layout = self.layout;
        let mut req = required;
        while req != 0 {
            let b = req & req.wrapping_neg();
            req ^= b;
            let mut count = 0;
            let mut last = 0;
            let mut common: Board = [u64::MAX; 4];
            for &c in open {
                let c = c as usize;
                if st.cand[c] & b != 0 {
                    count += 1;
                    last = c;
                    let peers = &layout.peer_bits[c];
                    for w in 0..layout.words {
                        common[w] &= peers[w];
                    }
                }
            }
            match count {
                0 => return Err(Contradiction),
                1 => self.set(st, last, b)?,
                _ => {
                    for (w, &word) in common[..layout.words].iter().enumerate() {
                        let mut bits = word;
                        while bits != 0 {
                            let p = w * 64 + bits.trailing_zeros() as usize;
                            bits &= bits - 1;
                            self.remove(st, p, b)?;
                        }
                    }
                }
            }
        }
        Ok(())
    }
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
    use super::matchings;

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
