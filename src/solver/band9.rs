//! The 9x9 plain-Sudoku fast path: per digit, three bands of 27 bits (three rows of nine), so
//! the row and box rules of a band are one table look-up and a mask.
//!
//! The band layout and the "full update" of a band follow JCZSolve (Jasper van Woudenberg) and
//! fsss2 (Mladen Dobrichev); the code is our own. In a band a digit sits once in each row and once
//! in each box, so the nine row-box triads it may use must hold a perfect matching between the
//! three rows and the three boxes: one table maps the triads still open to the cells that lie on
//! some matching (locked candidates and row/box hidden singles in one step). A row left with one
//! cell places the digit: the cell leaves the other digits' boards, the column leaves the other
//! bands. Naked singles come from bit-sliced counts over the digits, column hidden singles from
//! counts over the rows. The search branches on a two-candidate cell with the most unsolved peers.
//!
//! A solved cell keeps its bit in its own digit's band only; `unsolved` holds the cells not
//! placed yet. Cell `c` of the grid is bit `c % 27` of band `c / 27`.

// Word-parallel loops index the bands of several boards at once; an index reads clearer there.
#![allow(clippy::needless_range_loop)]

use super::kernel::Contradiction;
use super::tables::Tables;
use super::SolveStats;
use crate::grid::Grid;
use crate::solver::quota::Quota;

/// The 27 cells of a band.
const BAND: u32 = (1 << 27) - 1;
/// The nine cells of a row.
const ROW: u32 = 0x1FF;
/// A column mask (bits 0..9) repeated over the three rows of a band.
const COLUMNS: u32 = 1 | 1 << 9 | 1 << 18;

/// The first cell of each triad (three cells of a row in one box) of a band.
const TRIAD_HEADS: u32 = 0x49 * COLUMNS;

/// Per row of nine cells: the row itself when it holds one cell, else 0 (bits 0..9), and the
/// boxes where it has a cell (bits 9..12). One look-up a row serves both halves of a band's
/// update (docs/solver-kernel.md, rows PL12 and PL18).
const ROWS: [u16; 512] = {
    let mut t = [0u16; 512];
    let mut row = 0;
    while row < 512 {
        let single = if (row as u32).count_ones() == 1 {
            row
        } else {
            0
        };
        let boxes = (row & 7 != 0) as usize
            | ((row >> 3 & 7 != 0) as usize) << 1
            | ((row >> 6 != 0) as usize) << 2;
        t[row] = (single | boxes << 9) as u16;
        row += 1;
    }
    t
};

/// Per set of open triads (bit `3 * row + box`), the triads on some perfect matching of the
/// three rows to the three boxes; 0 when there is none. The same holds for the three bands and
/// three columns of a stack (bit `3 * band + column`).
const MATCH9: [u16; 512] = {
    const PERMS: [[usize; 3]; 6] = [
        [0, 1, 2],
        [0, 2, 1],
        [1, 0, 2],
        [1, 2, 0],
        [2, 0, 1],
        [2, 1, 0],
    ];
    let mut t = [0u16; 512];
    let mut open = 0;
    while open < 512 {
        let mut on = 0u16;
        let mut p = 0;
        while p < 6 {
            let perm = PERMS[p];
            let (mut fits, mut r) = (true, 0);
            while r < 3 {
                fits &= open >> (3 * r + perm[r]) & 1 != 0;
                r += 1;
            }
            if fits {
                let mut r = 0;
                while r < 3 {
                    on |= 1 << (3 * r + perm[r]);
                    r += 1;
                }
            }
            p += 1;
        }
        t[open] = on;
        open += 1;
    }
    t
};

/// `MATCH9` with each triad spread to its three cells of the band (bit `9 * row + 3 * box`).
const MATCH: [u32; 512] = {
    let mut t = [0u32; 512];
    let mut open = 0;
    while open < 512 {
        let mut triad = 0;
        while triad < 9 {
            if MATCH9[open] >> triad & 1 != 0 {
                t[open] |= 7 << (triad / 3 * 9 + triad % 3 * 3);
            }
            triad += 1;
        }
        open += 1;
    }
    t
};

/// Per cell of a band, the other cells of its row: placing a digit keeps only the cell there.
/// Padded to 32 entries so that an index from `trailing_zeros` needs no bounds check.
const ROW_REST: [u32; 32] = {
    let mut t = [0u32; 32];
    let mut p = 0;
    while p < 27 {
        t[p] = (ROW << (p / 9 * 9)) & !(1 << p);
        p += 1;
    }
    t
};

/// Per cell, its peers in each band (row and box in its own band, column in all three).
const PEERS: [[u32; 3]; 81] = {
    let mut t = [[0u32; 3]; 81];
    let mut c = 0;
    while c < 81 {
        let (band, p) = (c / 27, c % 27);
        let (row, col) = (p / 9, p % 9);
        let mut b = 0;
        while b < 3 {
            let mut mask = COLUMNS << col;
            if b == band {
                mask |= ROW << (9 * row);
                let mut r = 0;
                while r < 3 {
                    mask |= 7 << (9 * r + col / 3 * 3);
                    r += 1;
                }
                mask &= !(1 << p);
            }
            t[c][b] = mask;
            b += 1;
        }
        c += 1;
    }
    t
};

/// The search state, copied per branch.
#[derive(Clone, Copy)]
struct State {
    /// Candidate cells of digit `d` in band `b` at `9 * b + d`.
    cand: [u32; 27],
    /// Cells not yet placed, per band.
    unsolved: [u32; 3],
    /// Bands (bit `9 * b + d`) changed since their last update.
    dirty: u32,
}

impl State {
    /// The state of `givens` (81 values, 0 = empty) before propagation: each given is placed
    /// outright (its cell leaves the other digits, its peers lose its digit) and the bands it
    /// changed are left dirty. Placing through `assign` instead left the same work to a cascade
    /// of band updates, about a third of a 17-clue puzzle's instructions (docs/solver-kernel.md,
    /// row PL7).
    fn from_givens(givens: &[u8]) -> State {
        let mut st = State {
            cand: [BAND; 27],
            unsolved: [BAND; 3],
            dirty: 0,
        };
        for (b, band) in givens.chunks_exact(27).take(3).enumerate() {
            let mut filled = filled(band);
            while filled != 0 {
                let p = filled.trailing_zeros() as usize;
                filled &= filled - 1;
                let d = band[p].wrapping_sub(1) as usize;
                if d >= 9 {
                    continue;
                }
                // All nine boards lose the cell (one vector loop), its digit's gets it back
                // unless an earlier given of that digit took it.
                let own = st.cand[9 * b + d] & 1 << p;
                for y in &mut st.cand[9 * b..9 * b + 9] {
                    *y &= !(1 << p);
                }
                st.cand[9 * b + d] |= own;
                let peers = &PEERS[27 * b + p];
                for k in 0..3 {
                    st.cand[9 * k + d] &= !peers[k];
                }
                st.unsolved[b] &= !(1 << p);
                st.dirty |= ROW << (9 * b) | (1 | 1 << 9 | 1 << 18) << d;
            }
        }
        st
    }

    /// Place digit `d` in cell `p` of band `b` by clearing the rest of its row; the band's
    /// update does the rest (box, column, other digits).
    #[inline(always)]
    fn assign(&mut self, d: usize, b: usize, p: usize) {
        let i = 9 * b + d;
        self.cand[i] &= !ROW_REST[p];
        self.dirty |= 1 << i;
    }
}

/// The cells (bit `p`) of a band's 27 values that are not 0, eight bytes at a time: a test
/// per cell mispredicted about once per given (callgrind's branch model: 28 a puzzle; PL14).
#[inline(always)]
fn filled(band: &[u8]) -> u32 {
    let word = |k: usize| {
        let w = u64::from_le_bytes(band[k..k + 8].try_into().expect("eight bytes"));
        // The top bit of each byte that is not 0, then those eight bits gathered in the top
        // byte by one multiplication (no two partial products meet).
        let high =
            (((w & 0x7F7F_7F7F_7F7F_7F7F) + 0x7F7F_7F7F_7F7F_7F7F) | w) & 0x8080_8080_8080_8080;
        ((high >> 7).wrapping_mul(0x0102_0408_1020_4080) >> 56) as u32
    };
    // Bytes 19..27 overlap 16..24: the same cells, the same bits.
    word(0) | word(8) << 8 | word(16) << 16 | word(19) << 19
}

/// The boards among the nine of a band (bit `d` for `boards[d]`) that hold a cell of `cells`.
#[inline(always)]
fn holding(boards: &[u32], cells: u32) -> u32 {
    // Two SSE2 compares and masks: LLVM vectorises the loop below but then takes the mask apart
    // bit by bit. Callgrind, top1465: 127.9M -> 119.6M instructions (docs/solver-kernel.md, PL9).
    #[cfg(target_arch = "x86_64")]
    #[allow(unsafe_code)]
    {
        use std::arch::x86_64::*;
        let lanes = |k: usize| {
            // SAFETY: SSE2 is part of the x86-64 baseline, so every x86-64 CPU has it.
            unsafe {
                let v = _mm_set_epi32(
                    boards[k + 3] as i32,
                    boards[k + 2] as i32,
                    boards[k + 1] as i32,
                    boards[k] as i32,
                );
                let empty = _mm_cmpeq_epi32(
                    _mm_and_si128(v, _mm_set1_epi32(cells as i32)),
                    _mm_setzero_si128(),
                );
                _mm_movemask_ps(_mm_castsi128_ps(empty)) as u32
            }
        };
        !(lanes(0) | lanes(4) << 4) & 0xFF | ((boards[8] & cells != 0) as u32) << 8
    }
    #[cfg(not(target_arch = "x86_64"))]
    (0..9).fold(0, |m, d| m | ((boards[d] & cells != 0) as u32) << d)
}

/// True when `tables` is the standard 9x9 grid (3x3 boxes), the only one `Band9` solves.
pub(crate) fn fits(tables: &Tables) -> bool {
    tables.n == 9
        && (0..9).all(|b| {
            let (top, left) = (b / 3 * 3, b % 3 * 3);
            let cells = tables.house(18 + b);
            (0..9).all(|i| cells[i] as usize == (top + i / 3) * 9 + left + i % 3)
        })
        && (0..9).all(|r| {
            tables
                .house(r)
                .iter()
                .enumerate()
                .all(|(i, &c)| c as usize == r * 9 + i)
        })
}

/// The instructions the search is compiled for: one copy of it per choice, picked at run time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Isa {
    /// What the build targets (baseline x86-64: SSE2), on any CPU.
    Portable,
    /// x86-64 with POPCNT, BMI1, BMI2, LZCNT and AVX2, used once the CPU reports all five.
    #[cfg(target_arch = "x86_64")]
    Avx2,
}

/// Set (to anything) to keep the search on the portable copy, e.g. to compare the two.
pub(crate) const PORTABLE_VAR: &str = "SUDOKU_PRESS_PORTABLE";

impl Isa {
    /// The copy this process uses: the widest the CPU supports, unless `PORTABLE_VAR` is set.
    /// Decided once per process.
    pub(crate) fn detect() -> Isa {
        static ISA: std::sync::OnceLock<Isa> = std::sync::OnceLock::new();
        *ISA.get_or_init(|| {
            if std::env::var_os(PORTABLE_VAR).is_some() {
                return Isa::Portable;
            }
            #[cfg(target_arch = "x86_64")]
            if Isa::has_avx2() {
                return Isa::Avx2;
            }
            Isa::Portable
        })
    }

    /// True when the CPU has every feature `search_avx2` is compiled for.
    #[cfg(target_arch = "x86_64")]
    pub(crate) fn has_avx2() -> bool {
        is_x86_feature_detected!("popcnt")
            && is_x86_feature_detected!("bmi1")
            && is_x86_feature_detected!("bmi2")
            && is_x86_feature_detected!("lzcnt")
            && is_x86_feature_detected!("avx2")
    }
}

/// One compiled copy of the search (see `Isa`).
trait Kernel {
    /// Propagate `st`, then search below it; true once the search may stop.
    fn search(search: &mut Band9<'_>, st: &mut State) -> bool;
}

/// The copy compiled for the build's target.
struct Portable;

impl Kernel for Portable {
    fn search(search: &mut Band9<'_>, st: &mut State) -> bool {
        search.descend::<Self>(st)
    }
}

/// The copy compiled for POPCNT, BMI and AVX2.
#[cfg(target_arch = "x86_64")]
struct Avx2;

#[cfg(target_arch = "x86_64")]
#[allow(unsafe_code)]
impl Kernel for Avx2 {
    #[inline(always)]
    fn search(search: &mut Band9<'_>, st: &mut State) -> bool {
        // SAFETY: an `Avx2` search is only started by `Band9::run_on`, once `Isa::has_avx2` saw
        // the CPU report every feature `search_avx2` enables; below that, `Avx2::search` is only
        // called from inside `search_avx2` itself.
        unsafe { search_avx2(search, st) }
    }
}

/// The whole search below `st` (propagation, choice and the loop over the children are inlined
/// here) compiled with POPCNT for the branching scores, BMI (TZCNT, BLSR, ANDN) for the bit
/// loops and AVX2 for the loops over boards: BMI alone took 8-9% fewer instructions than the
/// portable copy, 3-6% more puzzles a CPU second (PL5). AVX2 on top was slower while the digit
/// loops were written otherwise (PL4); on today's kernel it takes 6% fewer instructions and
/// 2-3% more puzzles a second on top1465 and its extremes (PL16).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt,bmi1,bmi2,lzcnt,avx2")]
fn search_avx2(search: &mut Band9<'_>, st: &mut State) -> bool {
    search.descend::<Avx2>(st)
}

/// One 9x9 plain search: the budget and the solutions found.
pub(crate) struct Band9<'a> {
    quota: Quota<'a>,
}

impl<'a> Band9<'a> {
    /// Search `givens` (81 values, 0 = empty) for up to `limit` solutions.
    pub(crate) fn run(
        givens: &[u8],
        limit: usize,
        max_nodes: u64,
        solutions: &'a mut Vec<Grid>,
    ) -> (SolveStats, bool) {
        Self::run_on(Isa::detect(), givens, limit, max_nodes, solutions)
    }

    /// As `run`, on the copy of the search compiled for `isa` (the portable one when the CPU
    /// lacks what `isa` needs).
    pub(crate) fn run_on(
        isa: Isa,
        givens: &[u8],
        limit: usize,
        max_nodes: u64,
        solutions: &'a mut Vec<Grid>,
    ) -> (SolveStats, bool) {
        let mut search = Band9 {
            quota: Quota::new(limit, max_nodes, solutions),
        };
        let mut st = State::from_givens(givens);
        if limit > 0 {
            match isa {
                // Checked here too, so no caller can start the copy on a CPU without it.
                #[cfg(target_arch = "x86_64")]
                Isa::Avx2 if Isa::has_avx2() => Avx2::search(&mut search, &mut st),
                _ => Portable::search(&mut search, &mut st),
            };
        }
        search.quota.finish()
    }

    /// Propagate `st`, then branch below it with the copy `K`; true once the search may stop.
    #[inline(always)]
    fn descend<K: Kernel>(&mut self, st: &mut State) -> bool {
        self.propagate(st).is_ok() && self.branch::<K>(st)
    }

    /// Run every rule to a fixed point.
    #[inline(always)]
    fn propagate(&mut self, st: &mut State) -> Result<(), Contradiction> {
        // The boards updated since the column rules last ran: their digits are the ones to
        // look at. It and the queue live in registers, not in the state (PL13).
        let mut seen = 0;
        loop {
            let mut dirty = std::mem::take(&mut st.dirty);
            while dirty != 0 {
                seen |= dirty;
                let i = dirty.trailing_zeros() as usize;
                dirty &= dirty - 1;
                dirty |= Self::update(st, i)?;
            }
            Self::naked_singles(st)?;
            if st.dirty != 0 {
                continue;
            }
            Self::columns(st, (seen | seen >> 9 | seen >> 18) & 0x1FF)?;
            seen = 0;
            if st.dirty != 0 {
                continue;
            }
            Self::triads(st)?;
            if st.dirty == 0 {
                return Ok(());
            }
        }
    }

    /// The full update of band `i`: keep the cells on a row-to-box matching, then place the
    /// digit in every row left with one unsolved cell. Returns the other bands it changed.
    #[inline(always)]
    fn update(st: &mut State, i: usize) -> Result<u32, Contradiction> {
        let (d, b) = (i % 9, i / 9);
        let before = st.cand[i];
        // The masks (no-ops on a band's 27 bits) spare the bounds checks.
        let rows =
            |x: u32| [x & ROW, x >> 9 & ROW, x >> 18 & ROW].map(|row| ROWS[row as usize] as u32);
        let [r0, r1, r2] = rows(before);
        let open = (r0 >> 9 | (r1 >> 9) << 3 | (r2 >> 9) << 6) as usize;
        let x = before & MATCH[open & 0x1FF];
        if x == 0 {
            return Err(Contradiction);
        }
        // The rows left with one cell; looked up again only when the matching took cells.
        let [r0, r1, r2] = if x == before {
            [r0, r1, r2]
        } else {
            st.cand[i] = x;
            rows(x)
        };
        // The unsolved ones (a row holding a placed cell holds only it).
        let placed = ((r0 & ROW) | (r1 & ROW) << 9 | (r2 & ROW) << 18) & st.unsolved[b];
        if placed == 0 {
            return Ok(0);
        }
        st.unsolved[b] &= !placed;
        // Branch-free over the digits of the band and the bands of the digit, then the digit's own
        // board restored (the matching already cleared its box and so its column in the band).
        let boards = &mut st.cand[9 * b..9 * b + 9];
        let mut dirty = holding(boards, placed) << (9 * b);
        for y in boards.iter_mut() {
            *y &= !placed;
        }
        let cols = (placed | placed >> 9 | placed >> 18) & ROW;
        let gone = cols * COLUMNS;
        let mut hit = 0;
        for b2 in 0..3 {
            let j = 9 * b2 + d;
            let y = st.cand[j];
            st.cand[j] = y & !gone;
            hit |= ((y & gone != 0) as u32) << (9 * b2);
        }
        dirty |= hit << d;
        st.cand[i] = x;
        Ok(dirty & !(1 << i))
    }

    /// Place every cell with one candidate; fails on a cell with none.
    #[inline(always)]
    fn naked_singles(st: &mut State) -> Result<(), Contradiction> {
        // The three bands counted first, then one test each for an empty cell and for a
        // single: a test per band mispredicted (callgrind's branch model; PL17).
        let (mut empty, mut singles) = (0, [0u32; 3]);
        for b in 0..3 {
            let (mut ones, mut twos) = (0, 0);
            for d in 0..9 {
                let x = st.cand[9 * b + d];
                twos |= ones & x;
                ones |= x;
            }
            empty |= st.unsolved[b] & !ones;
            singles[b] = st.unsolved[b] & !twos;
        }
        if empty != 0 {
            return Err(Contradiction);
        }
        if singles[0] | singles[1] | singles[2] != 0 {
            for b in 0..3 {
                for d in 0..9 {
                    let mut s = st.cand[9 * b + d] & singles[b];
                    while s != 0 {
                        st.assign(d, b, s.trailing_zeros() as usize);
                        s &= s - 1;
                    }
                }
            }
        }
        Ok(())
    }

    /// Per digit of `digits`, the column rules: in each stack the (band, column) pairs it may use
    /// must hold a perfect matching (box-column locked candidates both ways), and a column left
    /// with one cell places it. Fails on a stack with no matching.
    #[inline(always)]
    fn columns(st: &mut State, mut digits: u32) -> Result<(), Contradiction> {
        while digits != 0 {
            let d = digits.trailing_zeros() as usize;
            digits &= digits - 1;
            let x = [st.cand[d], st.cand[9 + d], st.cand[18 + d]];
            if (x[0] & st.unsolved[0]) | (x[1] & st.unsolved[1]) | (x[2] & st.unsolved[2]) == 0 {
                continue;
            }
            // The columns with two or more cells: two rows of a band, or two bands.
            let (mut twos, mut cols) = (0, [0u32; 3]);
            for b in 0..3 {
                let (r0, r1, r2) = (x[b] & ROW, x[b] >> 9 & ROW, x[b] >> 18);
                cols[b] = r0 | r1 | r2;
                twos |= r0 & r1 | (r0 | r1) & r2;
            }
            twos |= cols[0] & cols[1] | (cols[0] | cols[1]) & cols[2];
            let mut allowed = [0u32; 3];
            for s in [0, 3, 6] {
                let open = (cols[0] >> s & 7) | (cols[1] >> s & 7) << 3 | (cols[2] >> s & 7) << 6;
                let on = MATCH9[open as usize] as u32;
                if on == 0 {
                    return Err(Contradiction);
                }
                allowed[0] |= (on & 7) << s;
                allowed[1] |= (on >> 3 & 7) << s;
                allowed[2] |= (on >> 6) << s;
            }
            let only = (!twos & ROW) * COLUMNS;
            for b in 0..3 {
                let y = x[b] & (allowed[b] * COLUMNS);
                if y != x[b] {
                    st.cand[9 * b + d] = y;
                    st.dirty |= 1 << (9 * b + d);
                }
                let mut s = y & only & st.unsolved[b];
                while s != 0 {
                    st.assign(d, b, s.trailing_zeros() as usize);
                    s &= s - 1;
                }
            }
        }
        Ok(())
    }

    /// Each triad (three cells of a row, or of a column, in one box) holds exactly three digits:
    /// when only three digits can reach a triad they all go there, and when three digits have
    /// nowhere else to go in their row (column) the triad is closed to the rest.
    #[inline(always)]
    fn triads(st: &mut State) -> Result<(), Contradiction> {
        // Per digit: the row triads it can reach (first cell of each triad, band b shifted by
        // b so the three bands share a word) and those it must use; the same for the column
        // triads (bit 9 * band + column).
        // Board by board first, then digit by digit: two loops of independent lanes that LLVM
        // vectorises (one loop over digits and bands did not vectorise; PL10).
        // The boards padded to 32, so that the loop is whole vectors: five empty lanes took
        // fewer instructions than three boards one by one (PL19).
        let mut boards = [0u32; 32];
        boards[..27].copy_from_slice(&st.cand);
        let (mut heads, mut forced, mut col) = ([0u32; 32], [0u32; 32], [0u32; 32]);
        for i in 0..32 {
            let x = boards[i];
            let h = (x | x >> 1 | x >> 2) & TRIAD_HEADS;
            // Rows (flag at their first bit) with two or more triads, then those with one.
            let (a, b3, c6) = (h, h >> 3, h >> 6);
            let many = (a & b3 | a & c6 | b3 & c6) & COLUMNS;
            let one = (a | b3 | c6) & COLUMNS & !many;
            heads[i] = h;
            forced[i] = h & (one | one << 3 | one << 6);
            col[i] = (x | x >> 9 | x >> 18) & ROW;
        }
        let (mut rows, mut rows_forced) = ([0u32; 9], [0u32; 9]);
        let (mut cols, mut cols_forced) = ([0u32; 9], [0u32; 9]);
        let mut per_digit = |d: usize| {
            rows[d] = heads[d] | heads[9 + d] << 1 | heads[18 + d] << 2;
            rows_forced[d] = forced[d] | forced[9 + d] << 1 | forced[18 + d] << 2;
            let (c0, c1, c2) = (col[d], col[9 + d], col[18 + d]);
            let once = (c0 ^ c1 ^ c2) & !(c0 & c1 & c2);
            cols[d] = c0 | c1 << 9 | c2 << 18;
            cols_forced[d] = cols[d] & (once | once << 9 | once << 18);
        };
        // Eight digits in two vectors, then the ninth: LLVM left a loop of nine scalar.
        for d in 0..8 {
            per_digit(d);
        }
        per_digit(8);
        let (row_open, row_full) = Self::triad_counts(&rows, &rows_forced)?;
        let (col_open, col_full) = Self::triad_counts(&cols, &cols_forced)?;
        if row_open | row_full | col_open | col_full == 0 {
            return Ok(());
        }
        for d in 0..9 {
            let (must, closed) = (row_open & !rows_forced[d], row_full & !rows_forced[d]);
            let (col_must, col_closed) = (col_open & !cols_forced[d], col_full & !cols_forced[d]);
            let col_must = col_must & cols[d];
            let col_closed = col_closed & cols[d];
            for b in 0..3 {
                let must = (must >> b) & rows[d] >> b & TRIAD_HEADS;
                let closed = (closed >> b) & rows[d] >> b & TRIAD_HEADS;
                // A triad the digit must use clears the rest of its row.
                let rows_hit = ((must | must >> 3 | must >> 6) & COLUMNS) * ROW;
                let mut gone = (closed * 7) | (rows_hit & !(must * 7));
                // A column triad it must use clears the column in the other bands.
                let elsewhere = (col_must & !(ROW << (9 * b))) | col_closed & (ROW << (9 * b));
                let elsewhere = (elsewhere | elsewhere >> 9 | elsewhere >> 18) & ROW;
                gone |= elsewhere * COLUMNS;
                let i = 9 * b + d;
                if st.cand[i] & gone != 0 {
                    st.cand[i] &= !gone;
                    st.dirty |= 1 << i;
                }
            }
        }
        Ok(())
    }

    /// Over the digits' reachable and forced triads: the triads exactly three digits reach but
    /// not all forced (those digits must go there), and the triads with three forced digits that
    /// others still reach (closed to them). Fails on a triad fewer than three digits reach, or
    /// more than three must use.
    #[inline(always)]
    fn triad_counts(open: &[u32; 9], forced: &[u32; 9]) -> Result<(u32, u32), Contradiction> {
        let count = |words: &[u32; 9]| {
            let (mut ones, mut twos, mut threes, mut fours) = (0, 0, 0, 0);
            for &w in words {
                fours |= threes & w;
                threes |= twos & w;
                twos |= ones & w;
                ones |= w;
            }
            (ones, threes, fours)
        };
        let (all, reach3, reach4) = count(open);
        let (_, forced3, forced4) = count(forced);
        if all & !reach3 != 0 || forced4 != 0 {
            return Err(Contradiction);
        }
        let exactly3 = reach3 & !reach4;
        Ok((exactly3 & !forced3, forced3 & reach4))
    }

    /// The cell to branch on as (band, bit): a two-candidate cell with the most unsolved peers
    /// that hold one of its two digits (either choice removes the most candidates; measured on
    /// top1465: 16.2 nodes a puzzle against 18.2 counting all unsolved peers and 27.9 taking the
    /// first such cell), else one with the fewest candidates; `None` when solved.
    #[inline(always)]
    fn choose(st: &State) -> Option<(usize, usize)> {
        let mut counts = [[0u32; 3]; 3];
        for (b, [ones, twos, threes]) in counts.iter_mut().enumerate() {
            for d in 0..9 {
                let x = st.cand[9 * b + d];
                *threes |= *twos & x;
                *twos |= *ones & x;
                *ones |= x;
            }
        }
        // The best as `score << 7 | (127 - cell)`, so that a plain maximum (no branch to
        // mispredict) keeps the first cell of the best score; 0 while there is none.
        let mut best = 0;
        for b in 0..3 {
            let mut pairs = st.unsolved[b] & !counts[b][2];
            while pairs != 0 {
                let p = pairs.trailing_zeros() as usize;
                pairs &= pairs - 1;
                let peers = &PEERS[27 * b + p];
                let pair = Self::candidates(st, b, p);
                let (d1, d2) = (
                    pair.trailing_zeros() as usize,
                    15 - pair.leading_zeros() as usize,
                );
                let hit = |k: usize| {
                    peers[k] & st.unsolved[k] & (st.cand[9 * k + d1] | st.cand[9 * k + d2])
                };
                let score =
                    1 + (hit(0) as u64 | (hit(1) as u64) << 27).count_ones() + hit(2).count_ones();
                best = best.max(score << 7 | (127 - (27 * b + p) as u32));
            }
        }
        if best != 0 {
            let cell = 127 - (best & 127) as usize;
            return Some((cell / 27, cell % 27));
        }
        Self::fewest(st)
    }

    /// With no unsolved cell of fewer than three candidates: the first unsolved cell in grid
    /// order with the fewest, `None` when solved. Every cell's count at once, as four bit-sliced
    /// binary digits: a tenth of the instructions of counting cell by cell, which the root of a
    /// 17-clue puzzle often needed (docs/solver-kernel.md, row PL8). Kept out of the search's
    /// body, where it is rare: best pass +0.2% to +2.1% (PL19).
    #[inline(never)]
    fn fewest(st: &State) -> Option<(usize, usize)> {
        let mut counts = [[0u32; 4]; 3];
        for (b, [c0, c1, c2, c3]) in counts.iter_mut().enumerate() {
            for d in 0..9 {
                let x = st.cand[9 * b + d];
                let carry = *c0 & x;
                *c0 ^= x;
                let carry2 = *c1 & carry;
                *c1 ^= carry;
                *c3 |= *c2 & carry2;
                *c2 ^= carry2;
            }
        }
        for k in 3..=9 {
            for (b, &c) in counts.iter().enumerate() {
                let digit = |i: usize| c[i] ^ ((k >> i & 1) as u32).wrapping_sub(1);
                let cells = st.unsolved[b] & digit(0) & digit(1) & digit(2) & digit(3);
                if cells != 0 {
                    return Some((b, cells.trailing_zeros() as usize));
                }
            }
        }
        None
    }

    /// The candidates of cell `p` of band `b` as digit bits.
    #[inline(always)]
    fn candidates(st: &State, b: usize, p: usize) -> u16 {
        holding(&st.cand[9 * b..9 * b + 9], 1 << p) as u16
    }

    /// Branch on the chosen cell, each child searched by the copy `K`; true once `limit`
    /// solutions are found or the budget is spent.
    #[inline(always)]
    fn branch<K: Kernel>(&mut self, st: &mut State) -> bool {
        let Some((b, p)) = Self::choose(st) else {
            return self.record(st);
        };
        let mut rest = Self::candidates(st, b, p);
        while rest != 0 {
            let d = rest.trailing_zeros() as usize;
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
            child.assign(d, b, p);
            if K::search(self, child) {
                return true;
            }
        }
        false
    }

    /// Keep the solved state; true once enough solutions are kept.
    fn record(&mut self, st: &State) -> bool {
        let mut values = vec![0u8; 81];
        for (cells, boards) in values.chunks_exact_mut(27).zip(st.cand.chunks_exact(9)) {
            for (d, &x) in boards.iter().enumerate() {
                let mut bits = x;
                while bits != 0 {
                    cells[bits.trailing_zeros() as usize] = d as u8 + 1;
                    bits &= bits - 1;
                }
            }
        }
        let grid = Grid::from_values(9, values).expect("a solved state holds digits 1..=9");
        self.quota.record(grid)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::Geometry;
    use crate::solver::plain::PlainSearch;
    use crate::test_support::{random_boxed_solution, random_puzzle};
    use proptest::prelude::*;
    use rand::SeedableRng;
    use rand_pcg::Pcg64;

    /// Every copy of the band search this CPU can run: the portable one always.
    fn paths() -> Vec<Isa> {
        #[allow(unused_mut)]
        let mut paths = vec![Isa::Portable];
        #[cfg(target_arch = "x86_64")]
        if Isa::has_avx2() {
            paths.push(Isa::Avx2);
        }
        paths
    }

    /// Up to `limit` solutions by the band kernel and by the generic bitboard kernel. Every
    /// copy of the band kernel must give the same solutions in the same order and the same
    /// statistics; the portable copy's are returned.
    fn both(givens: &[u8], limit: usize) -> (Vec<Grid>, Vec<Grid>) {
        let tables = Tables::new(&Geometry::standard(9).unwrap());
        let (mut fast, mut generic) = (Vec::new(), Vec::new());
        let portable = Band9::run_on(Isa::Portable, givens, limit, u64::MAX, &mut fast);
        for isa in paths() {
            let mut other = Vec::new();
            let stats = Band9::run_on(isa, givens, limit, u64::MAX, &mut other);
            assert_eq!(
                (stats, &other),
                (portable, &fast),
                "{isa:?} differs from Portable"
            );
        }
        PlainSearch::<9, 2>::run(&tables, givens, limit, u64::MAX, &mut generic);
        (fast, generic)
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(400))]

        #[test]
        fn agrees_with_the_generic_kernel(seed in any::<u64>(), given in 0.15f64..0.6, limit in 1usize..4) {
            let geometry = Geometry::standard(9).unwrap();
            let mut rng = Pcg64::seed_from_u64(seed);
            let solution = random_boxed_solution(&geometry, &mut rng);
            let puzzle = random_puzzle(&geometry, &solution, 0.0, given, &mut rng);
            let (mut fast, mut generic) = both(puzzle.givens().values(), limit);
            prop_assert!(!fast.is_empty());
            prop_assert_eq!(fast.len(), generic.len());
            prop_assert!(fast.iter().all(|s| puzzle.is_solution(s)));
            fast.sort();
            fast.dedup();
            prop_assert_eq!(fast.len(), generic.len());
            if fast.len() < limit {
                generic.sort();
                prop_assert_eq!(&fast, &generic);
                prop_assert!(fast.contains(&solution));
            }
        }

        #[test]
        fn a_clashing_given_leaves_no_solution(seed in any::<u64>(), cell in 0usize..81, peer in 0usize..20) {
            // A solved grid's givens with one more copy of a digit in a peer of its cell.
            let geometry = Geometry::standard(9).unwrap();
            let mut rng = Pcg64::seed_from_u64(seed);
            let solution = random_boxed_solution(&geometry, &mut rng);
            let mut givens = vec![0u8; 81];
            let peers: Vec<usize> = (0..81).filter(|&p| PEERS[cell][p / 27] >> (p % 27) & 1 != 0).collect();
            givens[cell] = solution.values()[cell];
            givens[peers[peer]] = solution.values()[cell];
            let (fast, generic) = both(&givens, 2);
            prop_assert!(fast.is_empty());
            prop_assert!(generic.is_empty());
        }

        /// The word-at-a-time helpers say what a test per board or per cell says (on x86-64
        /// `holding` takes the SSE2 path, which the scalar fold of other targets defines).
        #[test]
        fn the_word_helpers_agree_with_a_test_each(
            boards in proptest::array::uniform9(0u32..=BAND),
            cells in 0u32..=BAND,
            band in proptest::array::uniform27(prop_oneof![3 => Just(0u8), 1 => 1u8..=9]),
        ) {
            let each = (0..9).fold(0, |m, d| m | u32::from(boards[d] & cells != 0) << d);
            prop_assert_eq!(holding(&boards, cells), each);
            let each = (0..27).fold(0, |m, p| m | u32::from(band[p] != 0) << p);
            prop_assert_eq!(filled(&band), each);
        }
    }

    #[test]
    fn matching_keeps_only_triads_on_a_perfect_matching() {
        // All nine triads open: everything stays.
        assert_eq!(MATCH[0x1FF], BAND);
        // Row 0 only in box 0: boxes 0 leaves rows 1 and 2.
        let open = 0b110_110_001;
        assert_eq!(MATCH[open], 7 | (0o770 << 9) | (0o770 << 18));
        // Rows 0 and 1 both only in box 0: no matching.
        assert_eq!(MATCH[0b111_001_001], 0);
        // A row with no triad: no matching.
        assert_eq!(MATCH[0b111_111_000], 0);
    }

    #[test]
    fn only_the_standard_nine_by_nine_fits() {
        assert!(fits(&Tables::new(&Geometry::standard(9).unwrap())));
        assert!(!fits(&Tables::new(&Geometry::standard(4).unwrap())));
        let rows: Vec<u8> = (0..81).map(|c| (c / 9) as u8).collect();
        assert!(!fits(&Tables::new(&Geometry::jigsaw(9, rows).unwrap())));
    }

    #[test]
    fn peers_are_twenty_cells() {
        for peers in &PEERS {
            assert_eq!(peers.iter().map(|m| m.count_ones()).sum::<u32>(), 20);
        }
    }
}
