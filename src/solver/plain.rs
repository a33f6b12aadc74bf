//! The plain-Sudoku kernel (no cages): one bitboard of candidate cells per digit, so placing a
//! digit is a handful of word operations instead of a walk over the peers.
//!
//! The layout follows the fast bitboard solvers (fsss2 by Mladen Dobrichev, and the survey in
//! tdoku by Tom Dillion): a solved cell keeps its bit in its own digit's board only; naked
//! singles come from bit-sliced counting over the digit boards; hidden singles are checked per
//! digit in the houses that still lack that digit and changed since they were last checked;
//! when singles stall, box-line locked candidates run for the digits whose board changed. The
//! state (boards, unsolved cells, open houses per digit) is copied per branch.

// Word-parallel loops index several W-word boards at once; an index reads clearer there.
#![allow(clippy::needless_range_loop)]

use super::kernel::Contradiction;
use super::tables::Tables;
use super::SolveStats;
use crate::grid::Grid;
use crate::solver::quota::Quota;

#[derive(Clone, Copy)]
struct State<const N: usize, const W: usize> {
    /// Candidate cells of each digit (a solved cell only in its own digit's board).
    dig: [[u64; W]; N],
    /// Cells not yet placed.
    unsolved: [u64; W],
    /// Per digit, the houses (bit per house) that do not hold it yet.
    open: [u64; N],
}

/// One plain search: its tables, the houses to re-examine per digit, and what it found.
pub(crate) struct PlainSearch<'a, const N: usize, const W: usize> {
    tables: &'a Tables,
    /// Per digit, houses whose candidates for it changed since hidden singles were last sought.
    dirty: [u64; N],
    /// Digits whose board changed since locked candidates were last sought.
    locked_dirty: u32,
    quota: Quota<'a>,
}

/// Where the first set bit of a board is, if it has exactly one.
enum Count {
    Zero,
    One(usize),
    Many,
}

#[inline(always)]
fn count<const W: usize>(x: &[u64; W]) -> Count {
    let mut found = Count::Zero;
    for (i, &v) in x.iter().enumerate() {
        if v != 0 {
            if !matches!(found, Count::Zero) || v & (v - 1) != 0 {
                return Count::Many;
            }
            found = Count::One(i * 64 + v.trailing_zeros() as usize);
        }
    }
    found
}

impl<'a, const N: usize, const W: usize> PlainSearch<'a, N, W> {
    /// Search `givens` (N² values, 0 = empty) for up to `limit` solutions.
    pub(crate) fn run(
        tables: &'a Tables,
        givens: &[u8],
        limit: usize,
        max_nodes: u64,
        solutions: &'a mut Vec<Grid>,
    ) -> (SolveStats, bool) {
        let all_houses = (1u64 << (3 * N)) - 1;
        let mut search = PlainSearch {
            tables,
            dirty: [all_houses; N],
            locked_dirty: (1 << N) - 1,
            quota: Quota::new(limit, max_nodes, solutions),
        };
        let mut cells = [0u64; W];
        for c in 0..N * N {
            cells[c >> 6] |= 1 << (c & 63);
        }
        let mut st = State {
            dig: [cells; N],
            unsolved: cells,
            open: [all_houses; N],
        };
        let consistent = givens.iter().enumerate().all(|(c, &v)| {
            let d = (v as usize).wrapping_sub(1);
            let (w, bit) = (c >> 6, 1u64 << (c & 63));
            match v {
                0 => true,
                _ if st.dig[d][w] & st.unsolved[w] & bit != 0 => {
                    search.place(&mut st, c, d);
                    true
                }
                _ => false,
            }
        });
        if limit > 0 && consistent && search.propagate(&mut st).is_ok() {
            search.branch(&mut st);
        }
        search.quota.finish()
    }

    /// Put digit `d` in the unsolved cell `c`, where it is a candidate.
    #[inline(always)]
    fn place(&mut self, st: &mut State<N, W>, c: usize, d: usize) {
        let tables = self.tables;
        let c = c as u8 as usize;
        let (w, bit) = (c >> 6, 1u64 << (c & 63));
        let houses = tables.cell_houses[c];
        let mut had = 1 << d;
        for e in 0..N {
            had |= (((st.dig[e][w] >> (c & 63)) & 1) as u32) << e;
            st.dig[e][w] &= !bit;
            self.dirty[e] |= houses;
        }
        self.locked_dirty |= had;
        let peers = tables.peer_bits[c].words();
        for i in 0..W {
            st.dig[d][i] &= !peers[i];
        }
        st.dig[d][w] |= bit;
        st.unsolved[w] &= !bit;
        st.open[d] &= !houses;
        self.dirty[d] |= tables.peer_houses[c];
    }

    fn propagate(&mut self, st: &mut State<N, W>) -> Result<(), Contradiction> {
        loop {
            if self.naked_singles(st)? {
                continue;
            }
            if self.hidden_singles(st)? {
                continue;
            }
            if !self.locked_candidates(st) {
                return Ok(());
            }
        }
    }

    /// Place every cell with one candidate left; true if any was placed.
    #[inline(always)]
    fn naked_singles(&mut self, st: &mut State<N, W>) -> Result<bool, Contradiction> {
        let (mut ones, mut twos) = ([0u64; W], [0u64; W]);
        for board in &st.dig {
            for i in 0..W {
                twos[i] |= ones[i] & board[i];
                ones[i] |= board[i];
            }
        }
        let mut singles = [0u64; W];
        let mut any = 0;
        for i in 0..W {
            if st.unsolved[i] & !ones[i] != 0 {
                return Err(Contradiction);
            }
            singles[i] = st.unsolved[i] & !twos[i];
            any |= singles[i];
        }
        if any == 0 {
            return Ok(false);
        }
        for e in 0..N {
            // Re-read the board after each placement: a single may lose its digit to a peer.
            'cells: loop {
                for i in 0..W {
                    let s = st.dig[e][i] & singles[i] & st.unsolved[i];
                    if s != 0 {
                        self.place(st, i * 64 + s.trailing_zeros() as usize, e);
                        continue 'cells;
                    }
                }
                break;
            }
        }
        Ok(true)
    }

    /// Place every digit that has one cell left in a house; true if any was placed.
    #[inline(always)]
    fn hidden_singles(&mut self, st: &mut State<N, W>) -> Result<bool, Contradiction> {
        let tables = self.tables;
        let mut any = false;
        for e in 0..N {
            let mut houses = self.dirty[e] & st.open[e];
            self.dirty[e] = 0;
            while houses != 0 {
                let h = houses.trailing_zeros() as usize;
                houses &= houses - 1;
                let hb = tables.house_bits[h & 63].words();
                let x: [u64; W] = std::array::from_fn(|i| st.dig[e][i] & hb[i]);
                match count(&x) {
                    Count::Zero => return Err(Contradiction),
                    Count::One(c) => {
                        self.place(st, c, e);
                        houses &= st.open[e];
                        any = true;
                    }
                    Count::Many => {}
                }
            }
        }
        Ok(any)
    }

    /// Box-line reduction: a digit confined to the intersection in one of the two houses leaves
    /// the rest of the other. True if any candidate was removed.
    fn locked_candidates(&mut self, st: &mut State<N, W>) -> bool {
        let mut any = false;
        let mut digits = std::mem::take(&mut self.locked_dirty);
        let tables = self.tables;
        while digits != 0 {
            let e = digits.trailing_zeros() as usize;
            digits &= digits - 1;
            let open = st.open[e];
            let unsolved = st.unsolved;
            let x = &mut st.dig[e];
            let mut changed = 0;
            let mut boxes = open >> (2 * N);
            while boxes != 0 {
                let b = boxes.trailing_zeros() as usize;
                boxes &= boxes - 1;
                let range = tables.segment_start[b] as usize..tables.segment_start[b + 1] as usize;
                // Branch-free (the outcome is unpredictable): a segment whose line already holds
                // the digit can only "remove" the placed cell itself, which `unsolved` protects,
                // and any real removal shows in `changed`.
                for seg in &tables.segments[range] {
                    let (mut in_box, mut in_line) = (0, 0);
                    let (box_rest, line_rest) = (seg.box_rest.words(), seg.line_rest.words());
                    for i in 0..W {
                        in_box |= x[i] & box_rest[i];
                        in_line |= x[i] & line_rest[i];
                    }
                    let from_line = ((in_box == 0) & (in_line != 0)) as u64;
                    let from_box = ((in_line == 0) & (in_box != 0)) as u64;
                    let (from_line, from_box) = (from_line.wrapping_neg(), from_box.wrapping_neg());
                    for i in 0..W {
                        let gone =
                            (line_rest[i] & from_line | box_rest[i] & from_box) & unsolved[i];
                        changed |= x[i] & gone;
                        x[i] &= !gone;
                    }
                }
            }
            if changed != 0 {
                self.dirty[e] = u64::MAX;
                self.locked_dirty |= 1 << e;
                any = true;
            }
        }
        any
    }

    /// The candidates of cell `c` as a digit set.
    #[inline(always)]
    fn candidates(st: &State<N, W>, c: usize) -> u16 {
        let (w, shift) = (c >> 6, c & 63);
        let mut mask = 0u16;
        for (e, board) in st.dig.iter().enumerate() {
            mask |= (((board[w] >> shift) & 1) as u16) << e;
        }
        mask
    }

    /// The unsolved cell to branch on: among the cells with two candidates, the one with the most
    /// unsolved peers (its choice settles the most; measured: top1465 nodes 60 -> 26 against
    /// the first such cell); without one, the first cell with three, else the fewest.
    fn choose(&self, st: &State<N, W>) -> Option<usize> {
        let (mut ones, mut twos, mut threes, mut fours) =
            ([0u64; W], [0u64; W], [0u64; W], [0u64; W]);
        for board in &st.dig {
            for i in 0..W {
                fours[i] |= threes[i] & board[i];
                threes[i] |= twos[i] & board[i];
                twos[i] |= ones[i] & board[i];
                ones[i] |= board[i];
            }
        }
        let mut best = None;
        let mut best_score = 0;
        for i in 0..W {
            let mut pairs = st.unsolved[i] & !threes[i];
            while pairs != 0 {
                let c = i * 64 + pairs.trailing_zeros() as usize;
                pairs &= pairs - 1;
                let peers = self.tables.peer_bits[c].words();
                let score = 1
                    + (0..W)
                        .map(|j| (peers[j] & st.unsolved[j]).count_ones())
                        .sum::<u32>();
                if score > best_score {
                    (best, best_score) = (Some(c), score);
                }
            }
        }
        if best.is_some() {
            return best;
        }
        if let Some(i) = (0..W).find(|&i| st.unsolved[i] & !fours[i] != 0) {
            return Some(i * 64 + (st.unsolved[i] & !fours[i]).trailing_zeros() as usize);
        }
        (0..N * N)
            .filter(|&c| st.unsolved[c >> 6] & (1 << (c & 63)) != 0)
            .min_by_key(|&c| Self::candidates(st, c).count_ones())
    }

    /// Branch on a most constrained cell; true once `limit` solutions are found.
    fn branch(&mut self, st: &mut State<N, W>) -> bool {
        let Some(c) = self.choose(st) else {
            return self.record(st);
        };
        let mut rest = Self::candidates(st, c);
        while rest != 0 {
            let e = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            if !self.quota.spend_node() {
                return true;
            }
            // The last alternative reuses the parent's state: it is not needed afterwards.
            let mut copy;
            let child = if rest == 0 {
                &mut *st
            } else {
                copy = *st;
                &mut copy
            };
            self.place(child, c, e);
            if self.propagate(child).is_ok() {
                if self.branch(child) {
                    return true;
                }
            } else {
                self.dirty = [0; N];
                self.locked_dirty = 0;
            }
        }
        false
    }

    /// Keep the solved state; true once enough solutions are kept.
    fn record(&mut self, st: &State<N, W>) -> bool {
        let mut values = vec![0u8; N * N];
        for (e, board) in st.dig.iter().enumerate() {
            for (i, &word) in board.iter().enumerate() {
                let mut bits = word;
                while bits != 0 {
                    values[i * 64 + bits.trailing_zeros() as usize] = e as u8 + 1;
                    bits &= bits - 1;
                }
            }
        }
        let grid = Grid::from_values(N, values).expect("a solved state holds digits 1..=N");
        self.quota.record(grid)
    }
}
