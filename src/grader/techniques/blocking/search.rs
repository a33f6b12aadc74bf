//! The joint search behind combination blocking: a few cells with their candidates, the sums some
//! groups of them must make (cages, rule-of-45 equations) and which cells must differ; a candidate
//! stays only if some assignment of all the cells satisfies every sum with it.
//!
//! Each candidate is tested by a search for one assignment that gives it (fewest choices first,
//! every sum's bounds checked as cells are filled); the assignment found vouches for the digits it
//! gives the other cells too. A search that runs out of nodes proves nothing, so its candidate
//! stays: only candidates no assignment can give are removed.

use crate::geometry::Cell;
use crate::solver::combos::Combos;

/// Most cells a joint search takes (its masks are `u64`).
pub(crate) const MAX_CELLS: usize = 40;

/// One sum: `Σ coef · value = total` over some of the cells.
#[derive(Clone, Debug)]
pub(crate) struct Sum {
    /// (cell index, coefficient +1 or -1).
    pub(crate) terms: Vec<(usize, i8)>,
    pub(crate) total: i32,
}

/// The cells, candidates, sums and differences of one joint search.
#[derive(Clone, Debug, Default)]
pub(crate) struct Joint {
    pub(crate) cells: Vec<Cell>,
    pub(crate) cands: Vec<u16>,
    /// Per cell, the cells that must hold another digit (bit per cell index).
    pub(crate) sees: Vec<u64>,
    pub(crate) sums: Vec<Sum>,
}

/// The search nodes a look may spend: on one candidate, and left in all (deterministic: nodes,
/// never time).
#[derive(Copy, Clone, Debug)]
pub(crate) struct Budget {
    pub(crate) per_candidate: usize,
    pub(crate) left: usize,
}

/// How a joint search ended.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Verdict {
    /// Per cell, the candidates some assignment gives it (a candidate whose search ran out of
    /// nodes counts as given).
    Keep(Vec<u16>),
    /// No assignment at all: the board is broken (nothing to conclude here).
    Broken,
}

impl Joint {
    /// Index of `cell`, added with its candidates if new (`None` when the search is full).
    pub(crate) fn index_of(&mut self, cell: Cell, cands: u16) -> Option<usize> {
        if let Some(i) = self.cells.iter().position(|&c| c == cell) {
            return Some(i);
        }
        if self.cells.len() == MAX_CELLS {
            return None;
        }
        self.cells.push(cell);
        self.cands.push(cands);
        self.sees.push(0);
        Some(self.cells.len() - 1)
    }

    /// Cells `a` and `b` must differ.
    pub(crate) fn differ(&mut self, a: usize, b: usize) {
        if a != b {
            self.sees[a] |= 1 << b;
            self.sees[b] |= 1 << a;
        }
    }

    /// Does `values` (a digit per cell) meet every candidate, difference and sum?
    fn holds(&self, values: &[u8]) -> bool {
        values.len() == self.cells.len()
            && values.iter().enumerate().all(|(i, &v)| {
                (1..=16).contains(&v)
                    && self.cands[i] & (1 << (v - 1)) != 0
                    && (0..i).all(|j| self.sees[i] & (1 << j) == 0 || values[j] != v)
            })
            && self.sums.iter().all(|s| {
                s.terms
                    .iter()
                    .map(|&(i, k)| k as i32 * values[i] as i32)
                    .sum::<i32>()
                    == s.total
            })
    }

    /// Test every candidate, spending at most `budget.per_candidate` search nodes on each and
    /// `budget.left` in all (taken off it; once it is spent, the untested candidates stay). `seeds` are
    /// assignments known from an earlier look (those that still hold vouch for their digits
    /// without a search); the assignments that vouch now go to `found`. The verdict does not
    /// depend on the seeds: a candidate a seed vouches for has an assignment, so its own search
    /// would keep it too (found, or out of nodes).
    pub(crate) fn solve(
        &self,
        budget: &mut Budget,
        seeds: &[Vec<u8>],
        found: &mut Vec<Vec<u8>>,
    ) -> Verdict {
        let n = self.cells.len();
        let mut by_cell: Vec<Vec<usize>> = vec![Vec::new(); n];
        for (s, sum) in self.sums.iter().enumerate() {
            for &(i, _) in &sum.terms {
                by_cell[i].push(s);
            }
        }
        let mut keep = vec![0u16; n];
        found.clear();
        for seed in seeds.iter().filter(|s| self.holds(s)) {
            if found.len() < MAX_WITNESSES {
                found.push(seed.clone());
            }
            for (k, &v) in keep.iter_mut().zip(seed) {
                *k |= 1 << (v - 1);
            }
        }
        if keep == self.cands {
            return Verdict::Keep(keep);
        }
        let distinct: Vec<bool> = self
            .sums
            .iter()
            .map(|sum| {
                sum.terms.iter().all(|&(i, k)| {
                    k == 1
                        && sum
                            .terms
                            .iter()
                            .all(|&(j, _)| i == j || self.sees[i] & (1 << j) != 0)
                })
            })
            .collect();
        // Digit sets by size and sum, over the digits the cells can hold.
        let top = self.cands.iter().fold(0u16, |a, &c| a | c);
        let combos = Combos::of((16 - top.leading_zeros() as usize).max(1));
        let mut search = Search {
            joint: self,
            combos,
            by_cell: &by_cell,
            distinct: &distinct,
            values: vec![0; n],
            taken: vec![[0u8; 16]; n],
            blocked: vec![0; n],
            nodes: 0,
            budget: 0,
            hint: found.last().cloned().unwrap_or_else(|| vec![0; n]),
        };
        for i in 0..n {
            let mut todo = self.cands[i] & !keep[i];
            while todo != 0 {
                let d = todo.trailing_zeros() as u8 + 1;
                todo &= todo - 1;
                if budget.left == 0 {
                    // Out of the look's nodes: nothing proved, the candidate stays.
                    keep[i] |= 1 << (d - 1);
                    continue;
                }
                search.budget = budget.per_candidate.min(budget.left);
                search.nodes = 0;
                search.values.iter_mut().for_each(|v| *v = 0);
                search.taken.iter_mut().for_each(|t| *t = [0; 16]);
                search.blocked.iter_mut().for_each(|b| *b = 0);
                let ok = search.fix(i, d) && search.go();
                budget.left = budget.left.saturating_sub(search.nodes);
                match ok {
                    true => {
                        for (k, &v) in keep.iter_mut().zip(&search.values) {
                            *k |= 1 << (v - 1);
                        }
                        if found.len() < MAX_WITNESSES {
                            found.push(search.values.clone());
                        }
                        search.hint.clone_from(&search.values);
                        todo &= !keep[i];
                    }
                    // Out of nodes: nothing proved, the candidate stays.
                    false if search.nodes > search.budget => keep[i] |= 1 << (d - 1),
                    false => {}
                }
            }
            if keep[i] == 0 {
                return Verdict::Broken;
            }
        }
        Verdict::Keep(keep)
    }
}

/// Assignments kept per item from one look to the next.
pub(crate) const MAX_WITNESSES: usize = 64;

struct Search<'j> {
    joint: &'j Joint,
    by_cell: &'j [Vec<usize>],
    /// Digit sets by size and sum.
    combos: &'static Combos,
    /// Per sum: are its terms all +1 over cells that must differ (a cage, a house)?
    distinct: &'j [bool],
    /// Digit per cell, 0 while unassigned.
    values: Vec<u8>,
    /// Per cell and digit, how many assigned cells it must differ from hold that digit.
    taken: Vec<[u8; 16]>,
    /// Per cell, the digits some such assigned cell holds (`taken` above zero).
    blocked: Vec<u16>,
    nodes: usize,
    budget: usize,
    /// The last assignment found: each cell tries its digit there first, so a search for the
    /// next candidate mostly repairs that assignment around the new digit.
    hint: Vec<u8>,
}

impl Search<'_> {
    /// The digits cell `i` can still take.
    fn domain(&self, i: usize) -> u16 {
        self.joint.cands[i] & !self.blocked[i]
    }

    /// Assign `d` to cell `i`: false when a neighbour is left without a digit or a sum of the
    /// cell cannot be met any more.
    fn fix(&mut self, i: usize, d: u8) -> bool {
        self.values[i] = d;
        let mut ok = true;
        // Open neighbours that just lost `d`: their sums are checked again too.
        let mut shrunk = 0u64;
        let bit = 1u16 << (d - 1);
        let mut bits = self.joint.sees[i];
        while bits != 0 {
            let j = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            let t = &mut self.taken[j][d as usize - 1];
            *t += 1;
            if *t == 1 {
                self.blocked[j] |= bit;
            }
            if self.values[j] == 0 && *t == 1 && self.joint.cands[j] & bit != 0 {
                shrunk |= 1 << j;
                if ok && self.domain(j) == 0 {
                    ok = false;
                }
            }
        }
        if !ok || !self.by_cell[i].iter().all(|&s| self.sum_open(s)) {
            return false;
        }
        while shrunk != 0 {
            let j = shrunk.trailing_zeros() as usize;
            shrunk &= shrunk - 1;
            if !self.by_cell[j].iter().all(|&s| self.sum_open(s)) {
                return false;
            }
        }
        true
    }

    /// Undo `fix(i, _)`.
    fn unfix(&mut self, i: usize) {
        let d = self.values[i] as usize;
        let mut bits = self.joint.sees[i];
        while bits != 0 {
            let j = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            self.taken[j][d - 1] -= 1;
            if self.taken[j][d - 1] == 0 {
                self.blocked[j] &= !(1 << (d - 1));
            }
        }
        self.values[i] = 0;
    }

    /// Can sum `s` still be met by its unassigned cells (bounds, or the exact digit of the last)?
    fn sum_open(&self, s: usize) -> bool {
        let sum = &self.joint.sums[s];
        let (mut rest, mut lo, mut hi) = (sum.total, 0i32, 0i32);
        let mut last = None;
        let mut open = 0;
        let mut union = 0u16;
        let mut doms = [0u16; MAX_CELLS];
        for &(i, k) in &sum.terms {
            let k = k as i32;
            match self.values[i] {
                0 => {
                    let d = self.domain(i);
                    if d == 0 {
                        return false;
                    }
                    let (min, max) = (d.trailing_zeros() as i32 + 1, 16 - d.leading_zeros() as i32);
                    match k > 0 {
                        true => (lo, hi) = (lo + min, hi + max),
                        false => (lo, hi) = (lo - max, hi - min),
                    }
                    doms[open] = d;
                    open += 1;
                    union |= d;
                    last = Some((d, k));
                }
                v => rest -= k * v as i32,
            }
        }
        if open >= 2 && self.distinct[s] {
            // The open cells take `open` different digits of their domains' union: the
            // smallest and largest such digits bound the sum more tightly than each cell alone.
            if (union.count_ones() as usize) < open {
                return false;
            }
            (lo, hi) = (0, 0);
            let (mut low, mut high) = (union, union);
            for _ in 0..open {
                lo += low.trailing_zeros() as i32 + 1;
                low &= low - 1;
                let top = 15 - high.leading_zeros();
                hi += top as i32 + 1;
                high &= !(1 << top);
            }
            if rest < lo || rest > hi {
                return false;
            }
            // Some set of `open` different digits making `rest` must give every cell a digit of
            // its domain (what a person reads off the cage's combinations).
            let doms = &doms[..open];
            return self
                .combos
                .get(open, rest as usize)
                .iter()
                .any(|&m| m & !union == 0 && doms.iter().all(|&d| d & m != 0));
        }
        if rest < lo || rest > hi {
            return false;
        }
        match (open, last) {
            (1, Some((d, k))) => {
                let v = rest / k;
                rest % k == 0 && (1..=16).contains(&v) && d & (1 << (v - 1)) != 0
            }
            _ => true,
        }
    }

    /// Complete the assignment (fewest choices first); true with `values` set at the first.
    fn go(&mut self) -> bool {
        self.nodes += 1;
        if self.nodes > self.budget {
            return false;
        }
        let mut best = None;
        let mut fewest = u32::MAX;
        for i in 0..self.values.len() {
            if self.values[i] != 0 {
                continue;
            }
            let c = self.domain(i).count_ones();
            if c < fewest {
                fewest = c;
                best = Some(i);
            }
        }
        let Some(i) = best else {
            return true;
        };
        let mut dom = self.domain(i);
        let h = self.hint[i];
        if h != 0 && dom & (1 << (h - 1)) != 0 {
            dom &= !(1 << (h - 1));
            if self.fix(i, h) && self.go() {
                return true;
            }
            self.unfix(i);
            if self.nodes > self.budget {
                return false;
            }
        }
        while dom != 0 {
            let d = dom.trailing_zeros() as u8 + 1;
            dom &= dom - 1;
            if self.fix(i, d) && self.go() {
                return true;
            }
            self.unfix(i);
            if self.nodes > self.budget {
                return false;
            }
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every assignment listed: the candidates some assignment gives each cell.
    fn brute(j: &Joint) -> Option<Vec<u16>> {
        fn go(j: &Joint, i: usize, vals: &mut Vec<u8>, keep: &mut Vec<u16>) {
            if i == j.cells.len() {
                let ok = j.sums.iter().all(|s| {
                    s.terms
                        .iter()
                        .map(|&(c, k)| k as i32 * vals[c] as i32)
                        .sum::<i32>()
                        == s.total
                });
                if ok {
                    for (k, &v) in keep.iter_mut().zip(vals.iter()) {
                        *k |= 1 << (v - 1);
                    }
                }
                return;
            }
            for d in 1..=9u8 {
                if j.cands[i] & (1 << (d - 1)) == 0 {
                    continue;
                }
                if (0..i).any(|x| j.sees[i] & (1 << x) != 0 && vals[x] == d) {
                    continue;
                }
                vals.push(d);
                go(j, i + 1, vals, keep);
                vals.pop();
            }
        }
        let mut keep = vec![0u16; j.cells.len()];
        go(j, 0, &mut Vec::new(), &mut keep);
        (!keep.contains(&0)).then_some(keep)
    }

    #[test]
    fn the_search_keeps_exactly_what_some_assignment_gives() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_pcg::Pcg64::seed_from_u64(25);
        let mut outcomes = [0usize; 2];
        for _ in 0..3_000 {
            let n = rng.random_range(1..=6usize);
            let mut j = Joint::default();
            for i in 0..n {
                let cands = loop {
                    let c = rng.random::<u16>() & 0x1ff;
                    if c != 0 {
                        break c;
                    }
                };
                j.index_of(Cell::new(i as u8), cands);
            }
            for a in 0..n {
                for b in a + 1..n {
                    if rng.random_bool(0.4) {
                        j.differ(a, b);
                    }
                }
            }
            for _ in 0..rng.random_range(0..3) {
                let mut terms: Vec<(usize, i8)> = Vec::new();
                for i in 0..n {
                    if rng.random_bool(0.6) {
                        terms.push((i, if rng.random_bool(0.8) { 1 } else { -1 }));
                    }
                }
                if terms.is_empty() {
                    continue;
                }
                let total = rng.random_range(-5..=30);
                j.sums.push(Sum { terms, total });
            }
            let want = brute(&j);
            outcomes[want.is_some() as usize] += 1;
            match (
                j.solve(
                    &mut Budget {
                        per_candidate: 1_000_000,
                        left: usize::MAX,
                    },
                    &[],
                    &mut Vec::new(),
                ),
                want,
            ) {
                (Verdict::Keep(k), Some(w)) => {
                    assert_eq!(k, w, "{j:?}");
                    // Seeded with the assignments of a look, part of them or all, the verdict
                    // stays.
                    let mut found = Vec::new();
                    j.solve(
                        &mut Budget {
                            per_candidate: 1_000_000,
                            left: usize::MAX,
                        },
                        &[],
                        &mut found,
                    );
                    let half = &found[..found.len() / 2];
                    let mut again = Vec::new();
                    assert_eq!(
                        j.solve(
                            &mut Budget {
                                per_candidate: 1_000_000,
                                left: usize::MAX
                            },
                            half,
                            &mut again
                        ),
                        Verdict::Keep(w)
                    );
                    assert!(again.iter().all(|a| j.holds(a)));
                }
                (Verdict::Broken, None) => {}
                (got, want) => panic!("{j:?}: got {got:?}, want {want:?}"),
            }
        }
        assert!(outcomes[0] > 100 && outcomes[1] > 100, "{outcomes:?}");
    }
}
