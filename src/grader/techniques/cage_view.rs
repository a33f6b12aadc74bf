//! A cage as the killer finders see it: its empty cells with their candidates, the sum they
//! still need, its live combinations, and where each digit of a combination can go.

use crate::bitset::DigitSet;
use crate::geometry::Cell;
use crate::grader::state::Board;
use crate::grader::step::{Step, Technique};
use crate::grader::text::cage_text;
use crate::solver::combos::Combos;

/// Up to 16 values kept inline (a cage has at most N <= 16 cells), used as a slice: cage views
/// are made for every cage on every look, so they do not allocate.
#[derive(Copy, Clone, Debug)]
pub(crate) struct Inline<T: Copy> {
    items: [T; 16],
    len: u8,
}

impl<T: Copy> Inline<T> {
    pub(crate) fn new(fill: T) -> Self {
        Inline {
            items: [fill; 16],
            len: 0,
        }
    }
    pub(crate) fn push(&mut self, x: T) {
        self.items[self.len as usize] = x;
        self.len += 1;
    }
}

impl<T: Copy> std::ops::Deref for Inline<T> {
    type Target = [T];
    fn deref(&self) -> &[T] {
        &self.items[..self.len as usize]
    }
}

impl<T: Copy> std::ops::DerefMut for Inline<T> {
    fn deref_mut(&mut self) -> &mut [T] {
        &mut self.items[..self.len as usize]
    }
}

/// A cage's empty cells with their candidates, and the sum they still need.
#[derive(Clone, Debug)]
pub(crate) struct CageView {
    pub(crate) index: usize,
    pub(crate) cells: Inline<Cell>,
    pub(crate) cands: Inline<u16>,
    pub(crate) sum: usize,
    /// Digits already placed in the cage.
    pub(crate) placed: u16,
}

impl CageView {
    /// The view of cage `index`; `None` when the cage is complete or its sum is out of reach.
    pub(crate) fn of(board: &Board, index: usize) -> Option<CageView> {
        let cage = &board.cages()[index];
        let mut placed = 0u16;
        let mut used = 0usize;
        let mut cells = Inline::new(Cell::new(0));
        let mut cands = Inline::new(0u16);
        for &c in &cage.cells {
            match board.placed(c) {
                Some(d) => {
                    placed |= 1 << d.as_index();
                    used += d.get() as usize;
                }
                None => {
                    cells.push(c);
                    cands.push(board.candidates(c).bits());
                }
            }
        }
        let sum = (cage.sum as usize).checked_sub(used)?;
        (!cells.is_empty()).then_some(CageView {
            index,
            cells,
            cands,
            sum,
            placed,
        })
    }

    /// Digit sets of the right size and sum that avoid the digits already placed in the cage.
    pub(crate) fn table_combos(&self, n: usize) -> impl Iterator<Item = u16> + '_ {
        let placed = self.placed;
        Combos::of(n)
            .get(self.cells.len(), self.sum)
            .iter()
            .copied()
            .filter(move |&m| m & placed == 0)
    }

    /// Is combination `m` possible as a set: every cell can take one of its digits and every
    /// digit has a cell?
    pub(crate) fn fits(&self, m: u16) -> bool {
        let mut union = 0;
        for &c in self.cands.iter() {
            if c & m == 0 {
                return false;
            }
            union |= c;
        }
        union & m == m
    }

    /// The combinations still possible as sets.
    pub(crate) fn live(&self, n: usize) -> Vec<u16> {
        self.table_combos(n).filter(|&m| self.fits(m)).collect()
    }

    /// The same, appended to `out`.
    pub(crate) fn live_into(&self, n: usize, out: &mut Vec<u16>) {
        out.extend(self.table_combos(n).filter(|&m| self.fits(m)));
    }

    /// The cage as text: "14(2) at r1c1".
    pub(crate) fn name(&self, board: &Board) -> String {
        let cage = &board.cages()[self.index];
        cage_text(board.geometry(), cage.sum, &cage.cells)
    }

    /// A step removing `cands[i] & !keep[i]` from each cell, if that removes anything.
    pub(crate) fn step(
        &self,
        board: &Board,
        technique: Technique,
        keep: &[u16],
        reason: impl FnOnce() -> String,
    ) -> Option<Step> {
        if self.cands.iter().zip(keep).all(|(&c, &k)| c & !k == 0) {
            return None;
        }
        let mut step = Step::new(technique);
        step.eliminations.reserve(self.cells.len() * 4);
        for (i, &c) in self.cells.iter().enumerate() {
            let gone = DigitSet::from_bits(self.cands[i] & !keep[i]);
            step.eliminations.extend(gone.iter().map(|d| (c, d)));
        }
        if step.eliminations.is_empty() {
            return None;
        }
        if board.explaining() {
            step.cells = self.cells.to_vec();
            step.cages.push(self.index);
            step.reason = reason();
        }
        Some(step)
    }
}

/// For each cell of `cands`, the digits of `m` it takes in some one-to-one assignment of the
/// digits of `m` to the cells (`None` when the cage is too large to enumerate, `Some` of all
/// zeros when no assignment exists). Forward and backward reachability over subsets of `m`.
pub(crate) fn placements_of(cands: &[u16], m: u16) -> Option<[u16; 16]> {
    let k = cands.len();
    if k > 10 || m.count_ones() as usize != k {
        return None;
    }
    // The combination's digits (bit positions), and the candidates compressed to bit
    // positions 0..k of those digits; reachability as bit sets over the 2^k subsets (at most
    // 1,024), all on the stack.
    let mut digits = [0u16; 16];
    let mut rest = m;
    for slot in digits.iter_mut().take(k) {
        *slot = rest.trailing_zeros() as u16;
        rest &= rest - 1;
    }
    let mut local = [0u32; 16];
    for (l, &c) in local.iter_mut().zip(cands) {
        for (i, &b) in digits[..k].iter().enumerate() {
            if c & (1 << b) != 0 {
                *l |= 1 << i;
            }
        }
    }
    let get = |set: &[u64; 16], s: usize| set[s >> 6] & (1 << (s & 63)) != 0;
    let full = (1usize << k) - 1;
    let mut fwd = [0u64; 16];
    fwd[0] = 1;
    for s in 0..full {
        if get(&fwd, s) {
            let i = s.count_ones() as usize;
            let mut free = local[i] & !(s as u32);
            while free != 0 {
                let b = free.trailing_zeros();
                free &= free - 1;
                let t = s | 1 << b;
                fwd[t >> 6] |= 1 << (t & 63);
            }
        }
    }
    let mut bwd = [0u64; 16];
    bwd[full >> 6] |= 1 << (full & 63);
    for s in (0..full).rev() {
        let i = s.count_ones() as usize;
        let free = local[i] & !(s as u32);
        if (0..k).any(|b| free & (1 << b) != 0 && get(&bwd, s | 1 << b)) {
            bwd[s >> 6] |= 1 << (s & 63);
        }
    }
    let mut out = [0u16; 16];
    for s in 0..full {
        if !get(&fwd, s) {
            continue;
        }
        let i = s.count_ones() as usize;
        let mut free = local[i] & !(s as u32);
        while free != 0 {
            let b = free.trailing_zeros();
            free &= free - 1;
            if get(&bwd, s | 1 << b) {
                out[i] |= 1 << digits[b as usize];
            }
        }
    }
    Some(out)
}
