//! Evaluating one equation: a search per candidate for an assignment of the empty cells (cells
//! that share a house or cage differ) that gives it, within a node budget, with the assignments
//! of the last evaluation carried over as witnesses.

use super::{Equation, MAX_NODES, MAX_UNKNOWN};
use crate::geometry::Cell;
use crate::grader::state::Board;

/// What an evaluation found: per unknown cell, the digits some assignment gives it.
pub(super) struct Solutions {
    pub(super) cells: [Cell; MAX_UNKNOWN],
    pub(super) keep: [u16; MAX_UNKNOWN],
    pub(super) len: usize,
}

/// Assignments an equation's last evaluation found (each satisfies it), kept so that a later look
/// can see whether they still vouch for every candidate: candidates only shrink, so an assignment
/// whose digits are all still candidates (or placed) still satisfies the equation, and when
/// such assignments give every candidate of every empty cell, the search would remove nothing.
#[derive(Debug, Default)]
pub(crate) struct Witnesses {
    /// The equation's empty cells at that evaluation.
    cells: [Option<Cell>; MAX_UNKNOWN],
    /// One digit per cell of `cells`, per assignment.
    values: Vec<[u8; MAX_UNKNOWN]>,
}

impl Clone for Witnesses {
    fn clone(&self) -> Self {
        Witnesses {
            cells: self.cells,
            values: self.values.clone(),
        }
    }
    /// Reuses the assignments' memory (trials copy a context again and again).
    fn clone_from(&mut self, other: &Self) {
        self.cells = other.cells;
        self.values.clone_from(&other.values);
    }
}

/// Enumerate the assignments of the equation's empty cells (`None` if too many cells or nodes);
/// the assignments found go to `seen`.
pub(super) fn evaluate(board: &Board, e: &Equation, seen: &mut Witnesses) -> Option<Solutions> {
    let mut total = e.total;
    let mut cells = [Cell::new(0); MAX_UNKNOWN];
    let mut coefs = [0i32; MAX_UNKNOWN];
    let mut u = 0;
    for &(c, k) in e.terms() {
        match board.placed(c) {
            Some(d) => total -= k as i32 * d.get() as i32,
            None => {
                if u == MAX_UNKNOWN {
                    return None;
                }
                cells[u] = c;
                coefs[u] = k as i32;
                u += 1;
            }
        }
    }
    if u == 0 {
        return None;
    }
    let mut cands = [0u16; MAX_UNKNOWN];
    for (c, &cell) in cands.iter_mut().zip(&cells[..u]) {
        *c = board.candidates(cell).bits();
    }
    // The last evaluation's assignments that still hold, renumbered to today's cells: they stay
    // as witnesses, and when the search cannot run out of nodes (so it would find every digit
    // they give anyway) their digits need no search of their own.
    // Per cell of the last evaluation: the digits that still hold there (the one placed, or
    // its candidates; none when it is empty but no longer among the equation's empty cells)
    // and its place among today's cells, looked up once for all its assignments (looked up
    // per assignment and cell, the evaluation outside its searches took 57.7 M instructions
    // against 44.6 now; 9x9 `--level any`, 300 items).
    let mut holds = [0u16; MAX_UNKNOWN];
    let mut places: [Option<usize>; MAX_UNKNOWN] = [None; MAX_UNKNOWN];
    let mut known = 0;
    for (k, c) in seen.cells.iter().map_while(|c| *c).enumerate() {
        (holds[k], places[k]) = match board.placed(c) {
            Some(d) => (1 << (d.get() - 1), None),
            None => match cells[..u].iter().position(|&x| x == c) {
                Some(p) => (cands_of(board, c), Some(p)),
                None => (0, None),
            },
        };
        known = k + 1;
    }
    let mut carried = [[0u8; MAX_UNKNOWN]; MAX_CARRIED];
    let mut ncarried = 0;
    for values in &seen.values {
        if ncarried == MAX_CARRIED {
            break;
        }
        let mut now = [0u8; MAX_UNKNOWN];
        let valid = (0..known).all(|k| {
            let v = values[k];
            if let Some(p) = places[k] {
                now[p] = v;
            }
            holds[k] & (1 << (v - 1)) != 0
        });
        if valid && now[..u].iter().all(|&v| v != 0) {
            carried[ncarried] = now;
            ncarried += 1;
        }
    }
    let mut seed = [0u16; MAX_UNKNOWN];
    for values in &carried[..ncarried] {
        for (k, &v) in values[..u].iter().enumerate() {
            seed[k] |= 1 << (v - 1);
        }
    }
    if (0..u).all(|k| cands[k] & !seed[k] == 0) {
        // Assignments that still hold give every candidate: the search would remove nothing
        // (nor would a run out of nodes), and the witnesses stay as they are.
        return None;
    }
    // Which cells see which (a house or a cage in common), as bit masks over the cells.
    let mut sees = [0u16; MAX_UNKNOWN];
    for (i, &a) in cells[..u].iter().enumerate() {
        for (j, &b) in cells[..u].iter().enumerate() {
            if board.sees(a, b) {
                sees[i] |= 1 << j;
            }
        }
    }
    // Each candidate of each cell is tested by a search for one assignment that gives it (the
    // assignment found also vouches for the digits it gives the other cells), instead of
    // listing every assignment: far fewer nodes when most candidates survive. The search takes
    // the cell under test first, then the others fewest candidates first.
    let mut by_size = [0usize; MAX_UNKNOWN];
    for (i, slot) in by_size[..u].iter_mut().enumerate() {
        *slot = i;
    }
    by_size[..u].sort_by_key(|&i| (cands[i].count_ones(), i));
    let mut search = Search {
        cands: [0; MAX_UNKNOWN],
        sees: [0; MAX_UNKNOWN],
        coefs: [0; MAX_UNKNOWN],
        len: u,
        suffix: [(0, 0); MAX_UNKNOWN + 1],
        values: [0; MAX_UNKNOWN],
        nodes: 0,
    };
    seen.values.clear();
    // Room for the usual number of assignments at once (a fresh context's lists start empty,
    // and growing them one push at a time was a visible share of the allocator's work).
    seen.values.reserve(MAX_CARRIED);
    seen.values.extend_from_slice(&carried[..ncarried]);
    seen.cells = [None; MAX_UNKNOWN];
    for (slot, &c) in seen.cells.iter_mut().zip(&cells[..u]) {
        *slot = Some(c);
    }
    // The searches, from digits already known to be possible (`None`: out of nodes).
    let mut run =
        |mut keep: [u16; MAX_UNKNOWN], seen: &mut Witnesses| -> Option<[u16; MAX_UNKNOWN]> {
            search.nodes = 0;
            for i in 0..u {
                // A cell with one candidate needs no search of its own: the others' assignments give it,
                // and when there are none every cell is left without a digit anyway.
                if cands[i].count_ones() == 1 && u > 1 {
                    continue;
                }
                let mut todo = cands[i] & !keep[i];
                if todo == 0 {
                    continue;
                }
                // Search position p holds cell order[p]; `sees` is renumbered to positions.
                let mut order = [i; MAX_UNKNOWN];
                for (p, &j) in (1..).zip(by_size[..u].iter().filter(|&&j| j != i)) {
                    order[p] = j;
                }
                let mut at = [0usize; MAX_UNKNOWN];
                for (p, &j) in order[..u].iter().enumerate() {
                    at[j] = p;
                }
                for (p, &j) in order[..u].iter().enumerate() {
                    search.coefs[p] = coefs[j];
                    let mut bits = sees[j];
                    let mut renumbered = 0u16;
                    while bits != 0 {
                        let k = bits.trailing_zeros() as usize;
                        bits &= bits - 1;
                        renumbered |= 1 << at[k];
                    }
                    search.sees[p] = renumbered;
                }
                // Only the cell under test changes from one digit to the next: the other
                // cells' candidates and bounds are set once per cell.
                for (p, &j) in order[..u].iter().enumerate() {
                    search.cands[p] = cands[j];
                }
                search.bounds();
                while todo != 0 {
                    let bit = todo & todo.wrapping_neg();
                    todo &= todo - 1;
                    search.cands[0] = bit;
                    search.bound(0);
                    if search.go(total) {
                        let mut found = [0u8; MAX_UNKNOWN];
                        for (p, &j) in order[..u].iter().enumerate() {
                            keep[j] |= 1 << (search.values[p] - 1);
                            found[j] = search.values[p];
                        }
                        seen.values.push(found);
                        todo &= !keep[i];
                    }
                    if search.nodes > MAX_NODES {
                        return None;
                    }
                }
                if keep[i] == 0 {
                    // No assignment at all: nothing to conclude here (the board is broken).
                    break;
                }
            }
            Some(keep)
        };
    // Seeded with the carried assignments, the searches find the same digits unless they run
    // out of nodes. Only a result that changes the board needs the plain run's word on the
    // node budget (a seeded run that removes nothing stands for any: a run out of nodes
    // removes nothing either), so the grade is the same as with the plain run alone.
    // The plain run cannot run out of nodes when even searching every digit of every cell
    // through whole trees could not: then the seeded run's word is the plain run's.
    let roomy = most_nodes(&cands[..u]) <= MAX_NODES as u64;
    let keep = match run(seed, seen) {
        Some(keep)
            if roomy
                || seed == [0; MAX_UNKNOWN]
                || keep[..u].contains(&0)
                || keep[..u] == cands[..u] =>
        {
            keep
        }
        _ => run([0; MAX_UNKNOWN], seen)?,
    };
    Some(Solutions {
        cells,
        keep,
        len: u,
    })
}

/// An upper bound on the nodes of a plain run over cells with these candidates: one search per
/// digit of each cell, each a tree with that cell fixed and at most `u + 1` levels of at most
/// the product of the other cells' candidate counts nodes each.
fn most_nodes(cands: &[u16]) -> u64 {
    let u = cands.len() as u64;
    let product: u64 = cands.iter().map(|c| u64::from(c.count_ones())).product();
    // Σ_i |c_i| · Π_{j≠i} |c_j| = u · Π |c_j|, times the levels.
    (u + 1) * u * product
}

/// Witness assignments carried from one evaluation of an equation to the next.
const MAX_CARRIED: usize = 32;

fn cands_of(board: &Board, c: Cell) -> u16 {
    board.candidates(c).bits()
}

struct Search {
    /// Candidates per unknown cell (one fixed to the digit under test).
    cands: [u16; MAX_UNKNOWN],
    sees: [u16; MAX_UNKNOWN],
    coefs: [i32; MAX_UNKNOWN],
    len: usize,
    /// Bounds of the suffix sums, for pruning.
    suffix: [(i32, i32); MAX_UNKNOWN + 1],
    values: [u8; MAX_UNKNOWN],
    nodes: usize,
}

impl Search {
    /// Bounds of the sums of cells `i..len`, from their candidates.
    fn bounds(&mut self) {
        let u = self.len;
        self.suffix[u] = (0, 0);
        for i in (0..u).rev() {
            self.bound(i);
        }
    }

    /// Bounds of the sums of cells `i..len`, from those of cells `i + 1..len`.
    fn bound(&mut self, i: usize) {
        let c = self.cands[i];
        let (min, max) = (c.trailing_zeros() as i32 + 1, 16 - c.leading_zeros() as i32);
        let (lo, hi) = match self.coefs[i] > 0 {
            true => (min, max),
            false => (-max, -min),
        };
        self.suffix[i] = (self.suffix[i + 1].0 + lo, self.suffix[i + 1].1 + hi);
    }

    /// Assign every cell, needing `total` from them; true (with `values` set) at the first
    /// assignment that completes.
    ///
    /// A depth-first search over the cells in order, digits ascending, one node per cell entered
    /// (so a node per digit tried). It runs as a loop over an explicit stack of the digits left
    /// per cell: as a recursive call per node, the calls' own entry and exit were a third of the
    /// search's instructions (callgrind, 9x9 `--level any`). Once past the budget it stops: the
    /// recursive form went on counting nodes, but could no longer find anything.
    fn go(&mut self, total: i32) -> bool {
        let len = self.len;
        // Digits left to try, and the sum needed, per open cell (cells `0..depth`).
        let mut left = [0u16; MAX_UNKNOWN];
        let mut needs = [0i32; MAX_UNKNOWN];
        let mut depth = 0;
        let mut rest = total;
        loop {
            // Enter cell `depth`, needing `rest` from it and the cells after it.
            self.nodes += 1;
            if self.nodes > MAX_NODES {
                return false;
            }
            let i = depth;
            if i == len {
                if rest == 0 {
                    return true;
                }
            } else if (self.suffix[i].0..=self.suffix[i].1).contains(&rest) {
                let avail = self.free(i);
                if i + 1 == len {
                    if self.complete(i, avail, rest) {
                        return true;
                    }
                } else if i + 2 == len {
                    if self.last_two(i, avail, rest) {
                        return true;
                    }
                } else {
                    left[i] = avail;
                    needs[i] = rest;
                    depth += 1;
                }
            }
            // The next digit of the deepest open cell that has one left.
            loop {
                let Some(j) = depth.checked_sub(1) else {
                    return false;
                };
                if left[j] != 0 {
                    let d = left[j].trailing_zeros() as i32 + 1;
                    left[j] &= left[j] - 1;
                    self.values[j] = d as u8;
                    rest = needs[j] - self.coefs[j] * d;
                    break;
                }
                depth = j;
            }
        }
    }

    /// The last two cells: each digit of `avail` in turn for cell `i`, then the last cell, as
    /// `go` enters them (a node each, the same checks), with what the last cell's earlier
    /// cells leave it worked out once for all of cell `i`'s digits. Most of a search's nodes
    /// are here (the evaluation's searches: 200 -> 188 M instructions, 9x9 `--level any`, 300
    /// items).
    fn last_two(&mut self, i: usize, avail: u16, rest: i32) -> bool {
        let last = i + 1;
        let before = self.free_of(last, i);
        let sees_i = self.sees[last] & (1 << i) != 0;
        let (lo, hi) = self.suffix[last];
        let k = self.coefs[i];
        let mut left = avail;
        while left != 0 {
            let d = left.trailing_zeros() as i32 + 1;
            left &= left - 1;
            self.values[i] = d as u8;
            let r = rest - k * d;
            self.nodes += 1;
            if self.nodes > MAX_NODES {
                return false;
            }
            if (lo..=hi).contains(&r) {
                let avail = match sees_i {
                    true => before & !(1 << (d - 1)),
                    false => before,
                };
                if self.complete(last, avail, r) {
                    return true;
                }
            }
        }
        false
    }

    /// Cell `i`'s candidates less the digits of the earlier cells it sees.
    fn free(&self, i: usize) -> u16 {
        self.free_of(i, i)
    }

    /// Cell `i`'s candidates less the digits of the cells before `upto` it sees.
    fn free_of(&self, i: usize, upto: usize) -> u16 {
        let mut avail = self.cands[i];
        let mut seen = self.sees[i] & ((1 << upto) - 1);
        while seen != 0 {
            let j = seen.trailing_zeros() as usize;
            seen &= seen - 1;
            avail &= !(1 << (self.values[j] - 1));
        }
        avail
    }

    /// The last cell `i` takes the one digit of `avail` that completes the sum (`rest`); true
    /// (with its value set) if there is one within the budget. The nodes are counted as if each
    /// digit were tried in turn (one node each, up to the one that fits), so the budget runs out
    /// exactly where it did.
    fn complete(&mut self, i: usize, avail: u16, rest: i32) -> bool {
        let k = self.coefs[i];
        let (d, fits) = match k {
            // (Never built: a term's coefficient is not zero. Any digit does then.)
            0 => (avail.trailing_zeros() as i32 + 1, rest == 0 && avail != 0),
            _ => {
                let d = rest / k;
                let fits = rest % k == 0 && (1..=16).contains(&d) && avail & (1 << (d - 1)) != 0;
                (d, fits)
            }
        };
        let tried = match fits {
            true => avail & (((1u32 << d) - 1) as u16),
            false => avail,
        };
        self.nodes += tried.count_ones() as usize;
        if fits {
            self.values[i] = d as u8;
        }
        fits && self.nodes <= MAX_NODES
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};
    use rand_pcg::Pcg64Mcg;

    /// The search as it was before the last cell was solved directly and the recursion became a
    /// loop: every digit of every cell tried, one node per call.
    fn tried_one_by_one(s: &mut Search, i: usize, rest: i32) -> bool {
        s.nodes += 1;
        if s.nodes > MAX_NODES {
            return false;
        }
        if i == s.len {
            return rest == 0;
        }
        if rest < s.suffix[i].0 || rest > s.suffix[i].1 {
            return false;
        }
        let mut avail = s.cands[i];
        let mut seen = s.sees[i] & ((1 << i) - 1);
        while seen != 0 {
            let j = seen.trailing_zeros() as usize;
            seen &= seen - 1;
            avail &= !(1 << (s.values[j] - 1));
        }
        while avail != 0 {
            let b = avail.trailing_zeros();
            avail &= avail - 1;
            let d = b as i32 + 1;
            s.values[i] = d as u8;
            if tried_one_by_one(s, i + 1, rest - s.coefs[i] * d) {
                return true;
            }
        }
        false
    }

    #[test]
    fn solving_the_last_cell_directly_finds_and_counts_as_trying_each_digit() {
        let mut rng = Pcg64Mcg::seed_from_u64(9);
        let mut over_budget = 0;
        for _ in 0..20_000 {
            let len = rng.random_range(1..=MAX_UNKNOWN);
            let digits = *[9u32, 12, 16].get(rng.random_range(0..3)).unwrap_or(&9);
            let mut s = Search {
                cands: [0; MAX_UNKNOWN],
                sees: [0; MAX_UNKNOWN],
                coefs: [0; MAX_UNKNOWN],
                len,
                suffix: [(0, 0); MAX_UNKNOWN + 1],
                values: [0; MAX_UNKNOWN],
                nodes: 0,
            };
            for i in 0..len {
                let all = ((1u32 << digits) - 1) as u16;
                s.cands[i] = loop {
                    let c = rng.random::<u16>() & all;
                    if c != 0 {
                        break c;
                    }
                };
                s.coefs[i] = *[1, 1, 1, -1, 2, -2]
                    .get(rng.random_range(0..6))
                    .unwrap_or(&1);
                for j in 0..i {
                    if rng.random_bool(0.5) {
                        s.sees[i] |= 1 << j;
                        s.sees[j] |= 1 << i;
                    }
                }
            }
            s.bounds();
            let total = rng.random_range(s.suffix[0].0 - 2..=s.suffix[0].1 + 2);
            // Large searches start near the budget, so both sides of it are exercised.
            let start = match len == MAX_UNKNOWN && digits == 16 {
                true => MAX_NODES - rng.random_range(0..2_000),
                false => 0,
            };
            let mut old = Search { ..s };
            s.nodes = start;
            old.nodes = start;
            let found = s.go(total);
            let want = tried_one_by_one(&mut old, 0, total);
            assert_eq!(found, want, "cands {:?} total {total}", &s.cands[..len]);
            assert_eq!(s.nodes > MAX_NODES, old.nodes > MAX_NODES);
            if old.nodes <= MAX_NODES {
                assert_eq!(s.nodes, old.nodes);
            } else {
                over_budget += 1;
            }
            if found {
                assert_eq!(s.values[..len], old.values[..len]);
            }
        }
        assert!(over_budget > 0, "no search ran out of nodes");
    }
}
