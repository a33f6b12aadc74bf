//! The solve without pencil marks: how much of a killer a person fills in from the placed digits
//! and the cage sums alone, before having to write candidates (the score's term P).
//!
//! Killer solvers start "directly": no marks, only what the placed digits and a cage's total
//! leave a cell, a digit with one place left in a house, the rule of 45 giving a single cell,
//! and what a small cage or a box pointing at a line allows, worked out in the head. Once that
//! stalls they pencil-mark the grid, and from then on every step is read off the marks: the
//! cells still empty at that point are the ones solved the slow way. pencilmark (PyPI, its
//! `solver.py` phase 1) grades killers this way, and inside each of our generated levels the
//! share of the grid it leaves to marks orders its difficulty more than any fact of our own path
//! (scripts/score_calibration.py). The deductions only ever shrink what a cell allows, so where
//! the direct solve stalls does not depend on the order of its moves: every move found in a
//! sweep is made at once.

use crate::bitset::CellSet;
use crate::geometry::{Cell, Geometry, House};
use crate::puzzle::Puzzle;
use crate::solver::combos::Combos;
use std::cell::RefCell;

/// Cages with more empty cells than this are not worked out in the head (their combinations
/// are many); the others keep only the digits some way of filling the cage uses.
const HEAD_CAGE_CELLS: usize = 4;
/// The most houses of a kind a rule-of-45 region joins (pencilmark's unions: up to three).
const UNION_HOUSES: usize = 3;
/// A rule-of-45 region gives a placement when one of at most this many cells is left in it.
const REGION_CELLS: usize = 4;

thread_local! {
    /// Each thread's direct solve, kept between puzzles: a grid shape's tables are built when
    /// the shape changes only, and the buffers are reused (a generator thread grades thousands
    /// of killers of one shape, and building both cost about a third of the direct solve).
    static DIRECT: RefCell<Direct> = RefCell::new(Direct::default());
}

/// The empty cells a killer still has when its direct solve stalls (0 when it solves it
/// outright; 0 for a puzzle without cages, which this measure is not for).
pub(crate) fn cells_left_for_marks(puzzle: &Puzzle) -> usize {
    if puzzle.cages().is_empty() {
        return 0;
    }
    DIRECT.with_borrow_mut(|direct| {
        direct.load(puzzle);
        direct.run()
    })
}

/// What a grid shape gives every direct solve on it: its houses and the unions of houses the
/// rule of 45 looks at.
#[derive(Default)]
struct Shape {
    /// The geometry these tables are of.
    geometry: Option<Geometry>,
    /// Per house (rows, columns, boxes or regions): its N cells, house `h` at `h * N`.
    houses: Vec<usize>,
    /// Per cell: its three houses.
    houses_of: Vec<[usize; 3]>,
    /// Per union of houses: its cells, how many houses it joins, their kind (0 rows, 1
    /// columns, 2 boxes or regions) and which houses of that kind (bit `i` for the `i`-th).
    unions: Vec<Union>,
}

/// A union of houses of one kind.
#[derive(Copy, Clone)]
struct Union {
    area: CellSet,
    houses: i32,
    kind: usize,
    members: u16,
}

impl Shape {
    fn of(geometry: &Geometry) -> Self {
        let houses: Vec<usize> = (0..geometry.house_count())
            .flat_map(|h| geometry.house_cells(House::new(h as u8)))
            .map(|c| c.as_index())
            .collect();
        let houses_of = geometry
            .cells()
            .map(|c| geometry.houses_of(c).map(|h| h.as_index()))
            .collect();
        let n = geometry.size();
        let house_sets: Vec<CellSet> = houses.chunks(n).map(set_of).collect();
        let unions = unions(geometry)
            .into_iter()
            .map(|union| Union {
                area: union
                    .iter()
                    .fold(CellSet::default(), |a, &h| a.union(&house_sets[h])),
                houses: union.len() as i32,
                kind: union[0] / n,
                members: union.iter().fold(0, |m, &h| m | 1 << (h % n)),
            })
            .collect();
        Shape {
            geometry: Some(geometry.clone()),
            houses,
            houses_of,
            unions,
        }
    }
}

/// The state of a direct solve: placed values, what each house and cage holds, and the
/// rule-of-45 regions. Lists of lists are kept flat, item `i` at `starts[i]..starts[i + 1]`.
struct Direct {
    n: usize,
    combos: &'static Combos,
    shape: Shape,
    /// The cells of every cage, flat, with their starts, and each cage's total.
    cage_cells: Vec<usize>,
    cage_starts: Vec<usize>,
    cage_total: Vec<i32>,
    /// Per cell: its cage (`usize::MAX` when in none).
    cage_of: Vec<usize>,
    /// The rule-of-45 regions: cells outside the cages wholly inside a union of houses
    /// (innies), or cells of the cages touching it that lie outside it (outies), flat, with
    /// their starts and what each adds up to.
    region_cells: Vec<usize>,
    region_starts: Vec<usize>,
    region_total: Vec<i32>,
    /// Per cage, while the regions are found: its cells, its total, and the houses of each
    /// kind it meets (bit `i` for the `i`-th).
    cage_sets: Vec<(CellSet, i32, [u16; 3])>,
    values: Vec<u8>,
    /// Per house and per cage: the digits placed in it (bit `d − 1` for digit `d`).
    house_placed: Vec<u16>,
    cage_placed: Vec<u16>,
    /// Per cage: the sum of its placed digits and its empty cells.
    cage_sum: Vec<i32>,
    cage_empty: Vec<usize>,
    /// Per cage: the digits its combinations still allow, and whether a placement in it since
    /// they were worked out asks for them again.
    cage_union: Vec<u16>,
    cage_stale: Vec<bool>,
    /// What each cell allows this sweep (0 once placed), and the moves found.
    allowed: Vec<u16>,
    /// Per cage: the last small-cage fillings worked out (what its empty cells allowed, the
    /// rest of its total, what they kept), as most sweeps leave most cages as they were.
    head: Vec<([u16; HEAD_CAGE_CELLS], i32, [u16; HEAD_CAGE_CELLS])>,
    moves: Vec<(usize, u8)>,
}

impl Default for Direct {
    fn default() -> Self {
        Direct {
            n: 0,
            combos: Combos::of(9),
            shape: Shape::default(),
            cage_cells: Vec::new(),
            cage_starts: Vec::new(),
            cage_total: Vec::new(),
            cage_of: Vec::new(),
            region_cells: Vec::new(),
            region_starts: Vec::new(),
            region_total: Vec::new(),
            cage_sets: Vec::new(),
            values: Vec::new(),
            house_placed: Vec::new(),
            cage_placed: Vec::new(),
            cage_sum: Vec::new(),
            cage_empty: Vec::new(),
            cage_union: Vec::new(),
            cage_stale: Vec::new(),
            allowed: Vec::new(),
            head: Vec::new(),
            moves: Vec::new(),
        }
    }
}

/// `v` replaced by `len` copies of `x` (its allocation kept).
fn refill<T: Clone>(v: &mut Vec<T>, len: usize, x: T) {
    v.clear();
    v.resize(len, x);
}

impl Direct {
    /// Set up the solve of `puzzle` with its givens placed (the shape's tables kept when its
    /// geometry is the last one's).
    fn load(&mut self, puzzle: &Puzzle) {
        let geometry = puzzle.geometry();
        if self.shape.geometry.as_ref() != Some(geometry) {
            self.shape = Shape::of(geometry);
        }
        let n = geometry.size();
        let cells = geometry.cell_count();
        self.n = n;
        self.combos = Combos::of(n);
        let cages = puzzle.cages();
        self.cage_cells.clear();
        self.cage_starts.clear();
        self.cage_total.clear();
        refill(&mut self.cage_of, cells, usize::MAX);
        self.cage_starts.push(0);
        for (k, cage) in cages.iter().enumerate() {
            for c in &cage.cells {
                self.cage_cells.push(c.as_index());
                self.cage_of[c.as_index()] = k;
            }
            self.cage_starts.push(self.cage_cells.len());
            self.cage_total.push(i32::from(cage.sum));
        }
        self.find_regions(puzzle);
        let k = cages.len();
        refill(&mut self.values, cells, 0);
        refill(&mut self.allowed, cells, 0);
        refill(&mut self.house_placed, geometry.house_count(), 0);
        refill(&mut self.cage_placed, k, 0);
        refill(&mut self.cage_sum, k, 0);
        self.cage_empty.clear();
        self.cage_empty
            .extend(cages.iter().map(|cage| cage.cells.len()));
        refill(&mut self.cage_union, k, 0);
        refill(&mut self.cage_stale, k, true);
        refill(
            &mut self.head,
            k,
            ([0; HEAD_CAGE_CELLS], -1, [0; HEAD_CAGE_CELLS]),
        );
        self.moves.clear();
        let givens = puzzle.givens();
        for c in geometry.cells() {
            if let Some(d) = givens.get(c) {
                self.place(c.as_index(), d.get());
            }
        }
    }

    /// The rule-of-45 regions of the shape's unions of houses under `puzzle`'s cages.
    fn find_regions(&mut self, puzzle: &Puzzle) {
        let n = self.n;
        let triangle = (n * (n + 1) / 2) as i32;
        // Per cage: its cells, its total, and the houses of each kind it meets (a union meets
        // a cage when they share a house of the union's kind, and holds it when the cage meets
        // no other house of that kind).
        let houses_of = &self.shape.houses_of;
        self.cage_sets.clear();
        self.cage_sets.extend(puzzle.cages().iter().map(|k| {
            let mut meets = [0u16; 3];
            for c in &k.cells {
                for (kind, h) in houses_of[c.as_index()].into_iter().enumerate() {
                    meets[kind] |= 1 << (h % n);
                }
            }
            (k.cells.iter().copied().collect(), i32::from(k.sum), meets)
        }));
        self.region_cells.clear();
        self.region_starts.clear();
        self.region_total.clear();
        self.region_starts.push(0);
        for u in 0..self.shape.unions.len() {
            let Union {
                area,
                houses,
                kind,
                members,
            } = self.shape.unions[u];
            let total = triangle * houses;
            let (mut inside, mut inside_sum) = (CellSet::default(), 0);
            let (mut all, mut all_sum, mut touching) = (CellSet::default(), 0, false);
            for (cage, sum, meets) in &self.cage_sets {
                if meets[kind] & members == 0 {
                    continue;
                }
                if meets[kind] & !members == 0 {
                    inside = inside.union(cage);
                    inside_sum += sum;
                } else {
                    touching = true;
                }
                all = all.union(cage);
                all_sum += sum;
            }
            let innies = area.difference(&inside);
            if inside_sum > 0 && !innies.is_empty() && innies.len() <= REGION_CELLS {
                self.push_region(innies, total - inside_sum);
            }
            let outies = all.difference(&area);
            if touching && area.is_subset(&all) && outies.len() <= REGION_CELLS {
                self.push_region(outies, all_sum - total);
            }
        }
    }

    fn push_region(&mut self, cells: CellSet, total: i32) {
        self.region_cells.extend(cells.iter().map(|c| c.as_index()));
        self.region_starts.push(self.region_cells.len());
        self.region_total.push(total);
    }

    fn cage(&self, k: usize) -> &[usize] {
        &self.cage_cells[self.cage_starts[k]..self.cage_starts[k + 1]]
    }

    /// Put `v` in the empty cell `c`.
    fn place(&mut self, c: usize, v: u8) {
        let bit = 1u16 << (v - 1);
        self.values[c] = v;
        for h in self.shape.houses_of[c] {
            self.house_placed[h] |= bit;
        }
        let k = self.cage_of[c];
        if let Some(placed) = self.cage_placed.get_mut(k) {
            *placed |= bit;
            self.cage_sum[k] += i32::from(v);
            self.cage_empty[k] -= 1;
            self.cage_stale[k] = true;
        }
    }

    /// Solve directly until stuck; the empty cells left.
    fn run(&mut self) -> usize {
        loop {
            self.sweep_allowed();
            self.find_moves();
            if self.moves.is_empty() {
                break;
            }
            for i in 0..self.moves.len() {
                let (c, v) = self.moves[i];
                // Two different digits for one cell only in a puzzle without a solution: stop.
                match self.values[c] {
                    0 => self.place(c, v),
                    w if w == v => {}
                    _ => return self.empty(),
                }
            }
        }
        self.empty()
    }

    fn empty(&self) -> usize {
        self.values.iter().filter(|&&v| v == 0).count()
    }

    /// What each empty cell allows without marks, into `allowed` (0 for a placed cell).
    fn sweep_allowed(&mut self) {
        let full = ((1u32 << self.n) - 1) as u16;
        for c in 0..self.values.len() {
            self.allowed[c] = match self.values[c] {
                0 => self.shape.houses_of[c]
                    .iter()
                    .fold(full, |m, &h| m & !self.house_placed[h]),
                _ => 0,
            };
        }
        for k in 0..self.cage_total.len() {
            let rest = self.cage_total[k] - self.cage_sum[k];
            if self.cage_stale[k] {
                let placed = self.cage_placed[k];
                self.cage_union[k] = match usize::try_from(rest) {
                    Ok(rest) => self
                        .combos
                        .get(self.cage_empty[k], rest)
                        .iter()
                        .filter(|&&m| m & placed == 0)
                        .fold(0, |u, &m| u | m),
                    Err(_) => 0,
                };
                self.cage_stale[k] = false;
            }
            let union = self.cage_union[k];
            for i in self.cage_starts[k]..self.cage_starts[k + 1] {
                self.allowed[self.cage_cells[i]] &= union;
            }
            if (2..=HEAD_CAGE_CELLS).contains(&self.cage_empty[k]) {
                self.fill_in_head(k, rest);
            }
        }
        self.point();
    }

    /// A small cage worked out in the head: each empty cell keeps the digits some filling of
    /// the cage (distinct digits, the right total, each cell within what it allows) gives it.
    fn fill_in_head(&mut self, cage: usize, rest: i32) {
        let mut empty = [0usize; HEAD_CAGE_CELLS];
        let mut masks = [0u16; HEAD_CAGE_CELLS];
        let mut len = 0;
        for &c in self.cage(cage) {
            if self.values[c] == 0 {
                (empty[len], masks[len]) = (c, self.allowed[c]);
                len += 1;
            }
        }
        let kept = match self.head[cage] {
            (seen, r, kept) if seen == masks && r == rest => kept,
            _ => {
                let kept = head_fillings(self.combos, &masks[..len], rest);
                self.head[cage] = (masks, rest, kept);
                kept
            }
        };
        for i in 0..len {
            self.allowed[empty[i]] &= kept[i];
        }
    }

    /// Pointing done in the head: a digit whose places in a box all lie on one row (column)
    /// leaves the rest of that row (column).
    fn point(&mut self) {
        let n = self.n;
        for b in 2 * n..3 * n {
            // Per digit of the box: the row and the column of its first place, and whether
            // every place shares them (one pass over the box; the box's own cells keep what
            // they allow, so its digits can be read before any of them strikes).
            let mut first = [[usize::MAX; 2]; 16];
            let (mut one_row, mut one_col) = (0u16, 0u16);
            let mut seen = 0u16;
            for &c in &self.shape.houses[b * n..(b + 1) * n] {
                let [r, k, _] = self.shape.houses_of[c];
                let mut bits = self.allowed[c];
                while bits != 0 {
                    let d = bits.trailing_zeros() as usize;
                    let bit = 1u16 << d;
                    bits &= bits - 1;
                    if seen & bit == 0 {
                        seen |= bit;
                        first[d] = [r, k];
                        one_row |= bit;
                        one_col |= bit;
                    } else {
                        if first[d][0] != r {
                            one_row &= !bit;
                        }
                        if first[d][1] != k {
                            one_col &= !bit;
                        }
                    }
                }
            }
            for (lines, at) in [(one_row, 0), (one_col, 1)] {
                let mut lines = lines;
                while lines != 0 {
                    let d = lines.trailing_zeros() as usize;
                    lines &= lines - 1;
                    let line = first[d][at];
                    for i in line * n..(line + 1) * n {
                        let c = self.shape.houses[i];
                        if self.shape.houses_of[c][2] != b {
                            self.allowed[c] &= !(1u16 << d);
                        }
                    }
                }
            }
        }
    }

    /// Every placement a sweep finds, into `moves`: naked singles, hidden singles in houses
    /// and in cages of N cells, and single cells left in a rule-of-45 region.
    fn find_moves(&mut self) {
        let n = self.n;
        let allowed = &self.allowed;
        let values = &self.values;
        let moves = &mut self.moves;
        moves.clear();
        moves.extend(
            (0..allowed.len())
                .filter(|&c| values[c] == 0 && allowed[c].count_ones() == 1)
                .map(|c| (c, allowed[c].trailing_zeros() as u8 + 1)),
        );
        let whole_cages = (0..self.cage_total.len())
            .map(|k| {
                let cells = &self.cage_cells[self.cage_starts[k]..self.cage_starts[k + 1]];
                (cells, self.cage_placed[k])
            })
            .filter(|(cells, _)| cells.len() == n);
        let houses = self
            .shape
            .houses
            .chunks(n)
            .zip(self.house_placed.iter().copied());
        for (cells, placed) in houses.chain(whole_cages) {
            // Digits seen in one cell only: once and not twice.
            let (mut once, mut twice) = (0u16, 0u16);
            for &c in cells {
                twice |= once & allowed[c];
                once |= allowed[c];
            }
            let mut hidden = once & !twice & !placed;
            while hidden != 0 {
                let bit = hidden & hidden.wrapping_neg();
                hidden &= hidden - 1;
                if let Some(&c) = cells.iter().find(|&&c| allowed[c] & bit != 0) {
                    moves.push((c, bit.trailing_zeros() as u8 + 1));
                }
            }
        }
        for (r, &total) in self.region_total.iter().enumerate() {
            let cells = &self.region_cells[self.region_starts[r]..self.region_starts[r + 1]];
            let mut empty = cells.iter().filter(|&&c| values[c] == 0);
            if let (Some(&c), None) = (empty.next(), empty.next()) {
                let placed: i32 = cells.iter().map(|&c| i32::from(values[c])).sum();
                let rest = total - placed;
                if (1..=n as i32).contains(&rest) && allowed[c] & 1 << (rest - 1) != 0 {
                    moves.push((c, rest as u8));
                }
            }
        }
    }
}

/// The cells of `cells` (cell indices) as a set.
fn set_of(cells: &[usize]) -> CellSet {
    cells.iter().map(|&c| Cell::new(c as u8)).collect()
}

/// What each cell of a small cage (cells allowing `masks`, 2 to `HEAD_CAGE_CELLS`) keeps:
/// the digits some filling with distinct digits adding up to `rest` gives it.
fn head_fillings(combos: &Combos, masks: &[u16], rest: i32) -> [u16; HEAD_CAGE_CELLS] {
    debug_assert!((2..=HEAD_CAGE_CELLS).contains(&masks.len()));
    let mut kept = [0u16; HEAD_CAGE_CELLS];
    let mut chosen = [0u16; HEAD_CAGE_CELLS];
    let within = masks.iter().fold(0, |u, &m| u | m);
    let sets = usize::try_from(rest).map_or(&[][..], |r| combos.get(masks.len(), r));
    for &digits in sets.iter().filter(|&&m| m & !within == 0) {
        // A combination can only add digits it holds to cells allowing them: none left to add.
        if masks.iter().zip(&kept).all(|(&m, &k)| m & digits & !k == 0) {
            continue;
        }
        fillings(masks, digits, 0, &mut chosen, &mut kept);
    }
    kept
}

/// Depth-first over the fillings of a small cage (at least two cells) with the digit set `left`
/// (one of the cage's combinations, so the total is met once every cell has a digit):
/// `chosen[..i]` the digits placed so far (as bits); ORs each complete filling's digits into
/// `kept`. The last two cells take the two digits left, one way round or the other, without
/// going deeper (the commonest cage, a pair, is only that): the recursion's last two levels
/// were most of its calls (the direct solve 77.1 -> 56.8 M instructions, 9x9 `--level any`, 300
/// items).
fn fillings(masks: &[u16], left: u16, i: usize, chosen: &mut [u16], kept: &mut [u16]) {
    if i + 2 == masks.len() {
        let x = left & left.wrapping_neg();
        let y = left & !x;
        for (p, q) in [(x, y), (y, x)] {
            if masks[i] & p != 0 && masks[i + 1] & q != 0 {
                for (k, &d) in kept[..i].iter_mut().zip(&chosen[..i]) {
                    *k |= d;
                }
                kept[i] |= p;
                kept[i + 1] |= q;
            }
        }
        return;
    }
    let mut free = masks[i] & left;
    while free != 0 {
        let bit = free & free.wrapping_neg();
        free &= free - 1;
        chosen[i] = bit;
        fillings(masks, left & !bit, i + 1, chosen, kept);
    }
}

/// The unions of up to `UNION_HOUSES` neighbouring houses of one kind the rule of 45 looks at
/// (consecutive rows, consecutive columns, boxes next to each other in a band or a stack), as
/// lists of house indices.
fn unions(geometry: &Geometry) -> Vec<Vec<usize>> {
    let n = geometry.size();
    let mut unions: Vec<Vec<usize>> = Vec::new();
    for k in 1..=UNION_HOUSES.min(n) {
        for first in 0..=n - k {
            unions.push((first..first + k).collect());
            unions.push((n + first..n + first + k).collect());
        }
    }
    match geometry.box_shape() {
        Some((rows, cols)) => {
            let (across, down) = (n / cols, n / rows);
            for k in 1..=UNION_HOUSES {
                for band in 0..down {
                    for first in (0..across).take_while(|f| f + k <= across) {
                        unions.push(
                            (first..first + k)
                                .map(|b| 2 * n + band * across + b)
                                .collect(),
                        );
                    }
                }
                for stack in 0..across {
                    for first in (0..down).take_while(|f| f + k <= down) {
                        if k > 1 {
                            unions.push(
                                (first..first + k)
                                    .map(|b| 2 * n + b * across + stack)
                                    .collect(),
                            );
                        }
                    }
                }
            }
        }
        None => unions.extend((2 * n..3 * n).map(|h| vec![h])),
    }
    unions
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cage::Cage;
    use crate::grid::Grid;

    /// A 4x4 killer of pairs (cells 2k, 2k+1) with these sums, nothing given.
    fn pairs_4x4(sums: [u16; 8]) -> Puzzle {
        let cages = (0..8)
            .map(|k| {
                Cage::new(
                    sums[k],
                    vec![Cell::new(2 * k as u8), Cell::new(2 * k as u8 + 1)],
                )
            })
            .collect();
        Puzzle::new(Geometry::standard(4).unwrap(), Grid::empty(4), cages).unwrap()
    }

    #[test]
    fn pairs_that_never_narrow_a_cell_to_one_digit_leave_every_cell() {
        // Pairs of sum 5 ({1,4} or {2,3}) allow every digit everywhere.
        assert_eq!(cells_left_for_marks(&pairs_4x4([5; 8])), 16);
        // Over 1234/3412/2143/4321, sums 3 and 7 leave {1,2} or {3,4} in every cell, each
        // digit two places in every house, and the rule of 45 only whole pairs: marks from the
        // start.
        let solution = [1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 1];
        let sums: [u16; 8] = std::array::from_fn(|k| solution[2 * k] + solution[2 * k + 1]);
        assert_eq!(cells_left_for_marks(&pairs_4x4(sums)), 16);
    }

    #[test]
    fn a_plain_puzzle_has_no_direct_measure() {
        let plain = Puzzle::new(Geometry::standard(4).unwrap(), Grid::empty(4), Vec::new());
        assert_eq!(cells_left_for_marks(&plain.unwrap()), 0);
    }

    #[test]
    fn a_small_cage_is_worked_out_in_the_head() {
        // Cells allowing {1,2,3}, {1,2,3}, {5}, total 9 with distinct digits: 1+3+5 only.
        let kept = head_fillings(Combos::of(9), &[0b111, 0b111, 0b1_0000], 9);
        assert_eq!(kept, [0b101, 0b101, 0b1_0000, 0]);
        // Digits 1-4 in four cells make 10 only as {1,2,3,4}; a cell allowing only 9 breaks it.
        let none = head_fillings(Combos::of(9), &[0b1111, 0b1111, 0b1111, 1 << 8], 10);
        assert_eq!(none, [0; 4]);
        // A pair of total 4 over {1,2,3} and {3}: 1 then 3 only (3 + 1 needs a 1 in the second).
        let pair = head_fillings(Combos::of(9), &[0b111, 0b100], 4);
        assert_eq!(pair, [0b1, 0b100, 0, 0]);
        // Total 5 over {1,...,4} twice: both orders of {1,4} and of {2,3}.
        let both = head_fillings(Combos::of(9), &[0b1111, 0b1111], 5);
        assert_eq!(both, [0b1111, 0b1111, 0, 0]);
    }

    #[test]
    fn solo_killers_stall_where_the_reference_emulation_does() {
        // The cells left by a Python emulation of the same rules (pencilmark's phase 1 as read
        // from its solver.py) on the grader's Solo fixture: half are solved without marks.
        let text = include_str!("fixtures/solo_killers.jsonl");
        let left: Vec<usize> = text
            .lines()
            .enumerate()
            .map(|(i, line)| {
                let parsed = crate::format::jsonl::parse_line(line, i + 1).unwrap();
                cells_left_for_marks(&parsed.puzzle)
            })
            .collect();
        assert_eq!(left, vec![66, 0, 80, 0, 76, 0, 70, 0]);
    }
}
