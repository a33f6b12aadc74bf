//! The sum rules of the killer kernel: cages (and derived sums over cells that see each other)
//! through the digit-combination tables, derived sums over cells that need not differ, and the
//! pointing of digits every remaining combination needs.

use super::{digit_of, is_single, Contradiction, Search, State, Step};
use crate::solver::cages::CageInfo;
use crate::solver::combos::mirror;
use crate::solver::innies::MAX_LOOSE;
use crate::solver::layout::Board;

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
        let (mut allowed, mut required) = (0u16, u16::MAX);
        for &m in self.layout.combos.get(open.len(), s) {
            if m & !union != 0 || must & !m != 0 || xs.iter().any(|&x| x & m == 0) {
                continue;
            }
            allowed |= m;
            required &= m;
        }
        if allowed == 0 {
            return Err(Contradiction);
        }
        for (&x, &c) in xs.iter().zip(open) {
            self.narrow(st, c as usize, x & allowed)?;
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
