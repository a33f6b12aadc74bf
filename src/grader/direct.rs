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

/// Cages with more empty cells than this are not worked out in the head (their combinations
/// are many); the others keep only the digits some way of filling the cage uses.
const HEAD_CAGE_CELLS: usize = 4;
/// The most houses of a kind a rule-of-45 region joins (pencilmark's unions: up to three).
const UNION_HOUSES: usize = 3;
/// A rule-of-45 region gives a placement when one of at most this many cells is left in it.
const REGION_CELLS: usize = 4;

/// The empty cells a killer still has when its direct solve stalls (0 when it solves it
/// outright; 0 for a puzzle without cages, which this measure is not for).
pub(crate) fn cells_left_for_marks(puzzle: &Puzzle) -> usize {
    if puzzle.cages().is_empty() {
        return 0;
    }
    Direct::new(puzzle).run()
}

/// A rule-of-45 region: cells outside the cages wholly inside a union of houses (innies), or
/// cells of the cages touching it that lie outside it (outies), and what they add up to.
struct Region {
    cells: Vec<usize>,
    total: i32,
}

/// The state of a direct solve: placed values, what each house and cage holds, and the regions.
struct Direct {
    n: usize,
    combos: &'static Combos,
    /// Per cage: its cells and total.
    cages: Vec<(Vec<usize>, i32)>,
    /// Per house: its cells.
    houses: Vec<Vec<usize>>,
    /// Per cell: its three houses and its cage (`usize::MAX` when in none).
    houses_of: Vec<[usize; 3]>,
    cage_of: Vec<usize>,
    regions: Vec<Region>,
    values: Vec<u8>,
    /// Per house and per cage: the digits placed in it (bit `d − 1` for digit `d`).
    house_placed: Vec<u16>,
    cage_placed: Vec<u16>,
    /// Per cage: the sum of its placed digits and its empty cells.
    cage_sum: Vec<i32>,
    cage_empty: Vec<usize>,
    /// What each cell allows this sweep (0 once placed), and the moves found.
    allowed: Vec<u16>,
    /// Per cage: the last small-cage fillings worked out (what its empty cells allowed, the
    /// rest of its total, what they kept), as most sweeps leave most cages as they were.
    head: Vec<([u16; HEAD_CAGE_CELLS], i32, [u16; HEAD_CAGE_CELLS])>,
    moves: Vec<(usize, u8)>,
}

impl Direct {
    fn new(puzzle: &Puzzle) -> Self {
        let geometry = puzzle.geometry();
        let n = geometry.size();
        let cells = geometry.cell_count();
        let houses: Vec<Vec<usize>> = (0..geometry.house_count())
            .map(|h| {
                geometry
                    .house_cells(House::new(h as u8))
                    .iter()
                    .map(|c| c.as_index())
                    .collect()
            })
            .collect();
        let houses_of = geometry
            .cells()
            .map(|c| geometry.houses_of(c).map(|h| h.as_index()))
            .collect();
        let cages: Vec<(Vec<usize>, i32)> = puzzle
            .cages()
            .iter()
            .map(|k| {
                let cells = k.cells.iter().map(|c| c.as_index()).collect();
                (cells, i32::from(k.sum))
            })
            .collect();
        let mut cage_of = vec![usize::MAX; cells];
        for (i, (cs, _)) in cages.iter().enumerate() {
            for &c in cs {
                cage_of[c] = i;
            }
        }
        let regions = regions(geometry, &houses, &cages);
        let mut direct = Direct {
            n,
            combos: Combos::of(n),
            house_placed: vec![0; houses.len()],
            cage_placed: vec![0; cages.len()],
            cage_sum: vec![0; cages.len()],
            cage_empty: cages.iter().map(|k| k.0.len()).collect(),
            head: vec![([0; HEAD_CAGE_CELLS], -1, [0; HEAD_CAGE_CELLS]); cages.len()],
            cages,
            houses,
            houses_of,
            cage_of,
            regions,
            values: vec![0; cells],
            allowed: vec![0; cells],
            moves: Vec::new(),
        };
        let givens = puzzle.givens();
        for c in geometry.cells() {
            if let Some(d) = givens.get(c) {
                direct.place(c.as_index(), d.get());
            }
        }
        direct
    }

    /// Put `v` in the empty cell `c`.
    fn place(&mut self, c: usize, v: u8) {
        let bit = 1u16 << (v - 1);
        self.values[c] = v;
        for h in self.houses_of[c] {
            self.house_placed[h] |= bit;
        }
        if let Some(k) = self.cage_placed.get_mut(self.cage_of[c]) {
            *k |= bit;
            self.cage_sum[self.cage_of[c]] += i32::from(v);
            self.cage_empty[self.cage_of[c]] -= 1;
        }
    }

    /// Solve directly until stuck; the empty cells left.
    fn run(mut self) -> usize {
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
                0 => self.houses_of[c]
                    .iter()
                    .fold(full, |m, &h| m & !self.house_placed[h]),
                _ => 0,
            };
        }
        for k in 0..self.cages.len() {
            let rest = self.cages[k].1 - self.cage_sum[k];
            let placed = self.cage_placed[k];
            let union = match usize::try_from(rest) {
                Ok(rest) => self
                    .combos
                    .get(self.cage_empty[k], rest)
                    .iter()
                    .filter(|&&m| m & placed == 0)
                    .fold(0, |u, &m| u | m),
                Err(_) => 0,
            };
            for &c in &self.cages[k].0 {
                self.allowed[c] &= union;
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
        for &c in &self.cages[cage].0 {
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
            for bit in (0..n).map(|d| 1u16 << d) {
                // The row and the column of the digit's first place, and whether all share them.
                let mut first: Option<[usize; 3]> = None;
                let (mut one_row, mut one_col) = (true, true);
                for &c in &self.houses[b] {
                    if self.allowed[c] & bit != 0 {
                        let here = self.houses_of[c];
                        let at = *first.get_or_insert(here);
                        one_row &= here[0] == at[0];
                        one_col &= here[1] == at[1];
                    }
                }
                let Some([r, k, _]) = first else {
                    continue;
                };
                let row = one_row.then_some(r);
                let col = one_col.then_some(k);
                for line in [row, col].into_iter().flatten() {
                    for i in 0..self.houses[line].len() {
                        let c = self.houses[line][i];
                        if self.houses_of[c][2] != b {
                            self.allowed[c] &= !bit;
                        }
                    }
                }
            }
        }
    }

    /// Every placement a sweep finds, into `moves`: naked singles, hidden singles in houses
    /// and in cages of N cells, and single cells left in a rule-of-45 region.
    fn find_moves(&mut self) {
        let allowed = &self.allowed;
        let values = &self.values;
        let moves = &mut self.moves;
        moves.clear();
        moves.extend(
            (0..allowed.len())
                .filter(|&c| values[c] == 0 && allowed[c].count_ones() == 1)
                .map(|c| (c, allowed[c].trailing_zeros() as u8 + 1)),
        );
        let whole_cages = self
            .cages
            .iter()
            .zip(&self.cage_placed)
            .filter(|(k, _)| k.0.len() == self.n)
            .map(|(k, &placed)| (&k.0, placed));
        let houses = self.houses.iter().zip(self.house_placed.iter().copied());
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
        for region in &self.regions {
            let mut empty = region.cells.iter().filter(|&&c| values[c] == 0);
            if let (Some(&c), None) = (empty.next(), empty.next()) {
                let placed: i32 = region.cells.iter().map(|&c| i32::from(values[c])).sum();
                let rest = region.total - placed;
                if (1..=self.n as i32).contains(&rest) && allowed[c] & 1 << (rest - 1) != 0 {
                    moves.push((c, rest as u8));
                }
            }
        }
    }
}

/// What each cell of a small cage (cells allowing `masks`, at most `HEAD_CAGE_CELLS`) keeps:
/// the digits some filling with distinct digits adding up to `rest` gives it.
fn head_fillings(combos: &Combos, masks: &[u16], rest: i32) -> [u16; HEAD_CAGE_CELLS] {
    let mut kept = [0u16; HEAD_CAGE_CELLS];
    let mut chosen = [0u16; HEAD_CAGE_CELLS];
    let within = masks.iter().fold(0, |u, &m| u | m);
    let sets = usize::try_from(rest).map_or(&[][..], |r| combos.get(masks.len(), r));
    for &digits in sets.iter().filter(|&&m| m & !within == 0) {
        fillings(masks, digits, 0, &mut chosen, &mut kept);
    }
    kept
}

/// Depth-first over the fillings of a small cage with the digit set `left` (one of the cage's
/// combinations, so the total is met once every cell has a digit): `chosen[..i]` the digits
/// placed so far (as bits); ORs each complete filling's digits into `kept`.
fn fillings(masks: &[u16], left: u16, i: usize, chosen: &mut [u16], kept: &mut [u16]) {
    if i == masks.len() {
        for (k, &d) in kept.iter_mut().zip(chosen.iter()) {
            *k |= d;
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

/// The rule-of-45 regions of unions of up to `UNION_HOUSES` neighbouring houses of one kind
/// (consecutive rows, consecutive columns, boxes next to each other in a band or a stack).
fn regions(geometry: &Geometry, houses: &[Vec<usize>], cages: &[(Vec<usize>, i32)]) -> Vec<Region> {
    let n = geometry.size();
    let triangle = (n * (n + 1) / 2) as i32;
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
    let set = |cells: &[usize]| {
        cells.iter().fold(CellSet::default(), |mut s, &c| {
            s.insert(Cell::new(c as u8));
            s
        })
    };
    let house_sets: Vec<CellSet> = houses.iter().map(|h| set(h)).collect();
    let cage_sets: Vec<(CellSet, i32)> = cages.iter().map(|(cs, sum)| (set(cs), *sum)).collect();
    let cells_of = |s: CellSet| s.iter().map(|c| c.as_index()).collect::<Vec<usize>>();
    let mut out = Vec::new();
    for union in unions {
        let area = union
            .iter()
            .fold(CellSet::default(), |a, &h| a.union(&house_sets[h]));
        let total = triangle * union.len() as i32;
        let (mut inside, mut inside_sum) = (CellSet::default(), 0);
        let (mut all, mut all_sum, mut touching) = (CellSet::default(), 0, false);
        for (cage, sum) in &cage_sets {
            if !cage.intersects(&area) {
                continue;
            }
            if cage.is_subset(&area) {
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
            out.push(Region {
                cells: cells_of(innies),
                total: total - inside_sum,
            });
        }
        let outies = all.difference(&area);
        if touching && area.is_subset(&all) && outies.len() <= REGION_CELLS {
            out.push(Region {
                cells: cells_of(outies),
                total: all_sum - total,
            });
        }
    }
    out
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
