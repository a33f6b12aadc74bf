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

use crate::geometry::{Geometry, House};
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

/// The state of a direct solve: placed values, and per cell its cage.
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
        let givens = puzzle.givens();
        let values = geometry
            .cells()
            .map(|c| givens.get(c).map_or(0, |d| d.get()))
            .collect();
        let regions = regions(geometry, &houses, &cages);
        Direct {
            n,
            combos: Combos::of(n),
            cages,
            houses,
            houses_of,
            cage_of,
            regions,
            values,
        }
    }

    /// Solve directly until stuck; the empty cells left.
    fn run(mut self) -> usize {
        loop {
            let allowed = self.allowed();
            let moves = self.moves(&allowed);
            if moves.is_empty() {
                break;
            }
            for (c, v) in moves {
                // Two different digits for one cell only in a puzzle without a solution: stop.
                match self.values[c] {
                    0 => self.values[c] = v,
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

    /// Digits set in `cells`, as a mask (bit `d − 1` for digit `d`), and their sum.
    fn placed(&self, cells: &[usize]) -> (u16, i32) {
        cells
            .iter()
            .fold((0, 0), |(m, s), &c| match self.values[c] {
                0 => (m, s),
                v => (m | 1 << (v - 1), s + i32::from(v)),
            })
    }

    /// What each empty cell allows without marks (0 for a placed cell).
    fn allowed(&self) -> Vec<u16> {
        let full = ((1u32 << self.n) - 1) as u16;
        let house_placed: Vec<u16> = self.houses.iter().map(|h| self.placed(h).0).collect();
        let cage_allows: Vec<(u16, u16)> = self
            .cages
            .iter()
            .map(|(cells, total)| {
                let (placed, sum) = self.placed(cells);
                let empty = cells.iter().filter(|&&c| self.values[c] == 0).count();
                let union = match usize::try_from(total - sum) {
                    Ok(rest) => self
                        .combos
                        .get(empty, rest)
                        .iter()
                        .filter(|&&m| m & placed == 0)
                        .fold(0, |u, &m| u | m),
                    Err(_) => 0,
                };
                (placed, union)
            })
            .collect();
        let mut allowed: Vec<u16> = (0..self.values.len())
            .map(|c| {
                if self.values[c] != 0 {
                    return 0;
                }
                let mut m = full;
                for &h in &self.houses_of[c] {
                    m &= !house_placed[h];
                }
                if let Some(&(placed, union)) = cage_allows.get(self.cage_of[c]) {
                    m &= !placed & union;
                }
                m
            })
            .collect();
        for (cells, total) in &self.cages {
            self.fill_in_head(cells, *total, &mut allowed);
        }
        self.point(&mut allowed);
        allowed
    }

    /// A small cage worked out in the head: each empty cell keeps the digits some filling of
    /// the cage (distinct digits, the right total, each cell within what it allows) gives it.
    fn fill_in_head(&self, cells: &[usize], total: i32, allowed: &mut [u16]) {
        let empty: Vec<usize> = cells
            .iter()
            .copied()
            .filter(|&c| self.values[c] == 0)
            .collect();
        if empty.len() < 2 || empty.len() > HEAD_CAGE_CELLS {
            return;
        }
        let rest = total - self.placed(cells).1;
        let masks: Vec<u16> = empty.iter().map(|&c| allowed[c]).collect();
        let mut kept = vec![0u16; empty.len()];
        let mut chosen = vec![0u8; empty.len()];
        fillings(&masks, 0, rest, 0, &mut chosen, &mut kept);
        for (&c, k) in empty.iter().zip(kept) {
            allowed[c] &= k;
        }
    }

    /// Pointing done in the head: a digit whose places in a box all lie on one row (column)
    /// leaves the rest of that row (column).
    fn point(&self, allowed: &mut [u16]) {
        let n = self.n;
        for b in 2 * n..3 * n {
            for bit in (0..n).map(|d| 1u16 << d) {
                let spots: Vec<usize> = self.houses[b]
                    .iter()
                    .copied()
                    .filter(|&c| allowed[c] & bit != 0)
                    .collect();
                let Some(&first) = spots.first() else {
                    continue;
                };
                for kind in 0..2 {
                    let line = self.houses_of[first][kind];
                    if spots.iter().all(|&c| self.houses_of[c][kind] == line) {
                        for &c in &self.houses[line] {
                            if self.houses_of[c][2] != b {
                                allowed[c] &= !bit;
                            }
                        }
                    }
                }
            }
        }
    }

    /// Every placement a sweep finds: naked singles, hidden singles in houses and in cages
    /// of N cells, and single cells left in a rule-of-45 region.
    fn moves(&self, allowed: &[u16]) -> Vec<(usize, u8)> {
        let mut moves: Vec<(usize, u8)> = (0..allowed.len())
            .filter(|&c| self.values[c] == 0 && allowed[c].count_ones() == 1)
            .map(|c| (c, allowed[c].trailing_zeros() as u8 + 1))
            .collect();
        let whole_cages = self
            .cages
            .iter()
            .map(|(cells, _)| cells)
            .filter(|cells| cells.len() == self.n);
        for cells in self.houses.iter().chain(whole_cages) {
            let placed = self.placed(cells).0;
            for d in 0..self.n {
                let bit = 1u16 << d;
                if placed & bit != 0 {
                    continue;
                }
                let mut spots = cells.iter().filter(|&&c| allowed[c] & bit != 0);
                if let (Some(&c), None) = (spots.next(), spots.next()) {
                    moves.push((c, d as u8 + 1));
                }
            }
        }
        for region in &self.regions {
            let mut empty = region.cells.iter().filter(|&&c| self.values[c] == 0);
            if let (Some(&c), None) = (empty.next(), empty.next()) {
                let rest = region.total - self.placed(&region.cells).1;
                if (1..=self.n as i32).contains(&rest) && allowed[c] & 1 << (rest - 1) != 0 {
                    moves.push((c, rest as u8));
                }
            }
        }
        moves
    }
}

/// Depth-first over the fillings of a small cage: `chosen[..i]` placed so far with digits
/// `used`, `rest` still to make; ORs each complete filling's digits into `kept`.
fn fillings(masks: &[u16], used: u16, rest: i32, i: usize, chosen: &mut [u8], kept: &mut [u16]) {
    if i == masks.len() {
        if rest == 0 {
            for (k, &d) in kept.iter_mut().zip(chosen.iter()) {
                *k |= 1 << (d - 1);
            }
        }
        return;
    }
    let mut free = masks[i] & !used;
    while free != 0 {
        let d = free.trailing_zeros() as u8 + 1;
        free &= free - 1;
        if i32::from(d) > rest {
            break;
        }
        chosen[i] = d;
        fillings(
            masks,
            used | 1 << (d - 1),
            rest - i32::from(d),
            i + 1,
            chosen,
            kept,
        );
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
    let mut out = Vec::new();
    for union in unions {
        let mut inside_union = vec![false; geometry.cell_count()];
        for &h in &union {
            for &c in &houses[h] {
                inside_union[c] = true;
            }
        }
        let total = triangle * union.len() as i32;
        let (mut inside, mut touching) = (Vec::new(), Vec::new());
        for (cells, sum) in cages {
            let within = cells.iter().filter(|&&c| inside_union[c]).count();
            match within {
                0 => {}
                w if w == cells.len() => inside.push((cells, *sum)),
                _ => touching.push((cells, *sum)),
            }
        }
        let mut covered = vec![false; geometry.cell_count()];
        for (cells, _) in inside.iter().chain(&touching) {
            for &c in cells.iter() {
                covered[c] = true;
            }
        }
        if !inside.is_empty() {
            let mut in_cages = vec![false; geometry.cell_count()];
            for (cells, _) in &inside {
                for &c in cells.iter() {
                    in_cages[c] = true;
                }
            }
            let innies: Vec<usize> = (0..geometry.cell_count())
                .filter(|&c| inside_union[c] && !in_cages[c])
                .collect();
            if !innies.is_empty() && innies.len() <= REGION_CELLS {
                let sum: i32 = inside.iter().map(|k| k.1).sum();
                out.push(Region {
                    cells: innies,
                    total: total - sum,
                });
            }
        }
        let all_covered = (0..geometry.cell_count()).all(|c| !inside_union[c] || covered[c]);
        if all_covered && !touching.is_empty() {
            let outies: Vec<usize> = (0..geometry.cell_count())
                .filter(|&c| covered[c] && !inside_union[c])
                .collect();
            if outies.len() <= REGION_CELLS {
                let sum: i32 = inside.iter().chain(&touching).map(|k| k.1).sum();
                out.push(Region {
                    cells: outies,
                    total: sum - total,
                });
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cage::Cage;
    use crate::geometry::Cell;
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
        let mut kept = [0u16; 3];
        let mut chosen = [0u8; 3];
        fillings(&[0b111, 0b111, 0b1_0000], 0, 9, 0, &mut chosen, &mut kept);
        assert_eq!(kept, [0b101, 0b101, 0b1_0000]);
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
