//! The stand-in for "pencilmark can finish this killer": its deliberately weak exhaustive search.
//!
//! pencilmark (PyPI, 1.0.0rc1) rates a killer by solving it with human techniques; where none
//! applies it falls back on a proof by full search (its "Trial and error", an Extreme step), and
//! where that search gives up (2,000,000 nodes) its card says "Unknown" and has no rating. Its
//! search is `pencilmark.solver.brute_solve` (the C++ `cbackend.brute_solve` is its port): depth
//! first, the cell with the fewest candidates first, digits in increasing order; at each node
//! naked and hidden singles on rows, columns and boxes to a fixed point (cages are only peers),
//! then one pass of cage sum bounds (a digit stays if the cage's other free digits can make up
//! the rest). No combination tables, no rule of 45: far weaker than our solver, which is the
//! point. Ported here from its Python text, so the generator can keep only layouts it solves.
//! Measured beside pencilmark's own search (2M nodes): it solves 14 of tarek_odd's 19 and 1 of
//! the first 12 shaped extremes of seed 31 (generator 19); this port agrees on every one.

use crate::bitset::DigitSet;
use crate::geometry::House;
use crate::grader;
use crate::puzzle::Puzzle;

/// pencilmark's node limit: past it, its search gives up and the card says "Unknown".
pub const PENCILMARK_NODES: u64 = 2_000_000;

/// One cage: its cells and total.
struct SumCage {
    cells: Vec<usize>,
    total: u32,
}

/// The puzzle as the search sees it: houses, peers (houses and cages) and cages.
struct Board {
    size: usize,
    cells: usize,
    full: u16,
    houses: Vec<Vec<usize>>,
    peers: Vec<Vec<usize>>,
    cages: Vec<SumCage>,
}

/// Cells of the largest grid searched (16x16): states are fixed arrays, copied at each node.
const MAX_CELLS: usize = 256;

/// A search state: placed digits (0 = empty) and candidate masks (bit `d - 1` for digit `d`).
#[derive(Clone, Copy)]
struct State {
    vals: [u8; MAX_CELLS],
    cand: [u16; MAX_CELLS],
}

/// Where the search starts: every cell's placed digit (0 = empty) and candidates.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Start {
    vals: Vec<u8>,
    cand: Vec<u16>,
}

impl Start {
    /// The empty grid with the puzzle's givens: pencilmark's search from scratch.
    pub fn empty(puzzle: &Puzzle) -> Start {
        let n = puzzle.size();
        let vals = puzzle.givens().values().to_vec();
        let cand = vec![DigitSet::all(n).bits(); vals.len()];
        Start { vals, cand }
    }

    /// The grader's board as it stands (its placements and eliminations): started where our
    /// techniques stall, the search is pencilmark's trial step at its own stall, which its
    /// route needs to finish (docs/grading.md, "Which routes have a trial step").
    pub fn at(board: &grader::Board) -> Start {
        let cells = board.geometry().cells();
        let (vals, cand) = cells
            .map(|c| match board.placed(c) {
                Some(d) => (d.get(), 0),
                None => (0, board.candidates(c).bits()),
            })
            .unzip();
        Start { vals, cand }
    }
}

/// Nodes pencilmark's search takes to find `puzzle`'s first solution from `start`, or `None`
/// when it gives up past `limit` nodes (or finds no solution), or on a grid above 16x16. Node
/// for node its `brute_solve(limit=1, start=...)`: the start's placed digits are placed again,
/// removed from their peers (houses and cages) as `Solver._place` does.
pub fn nodes_from(puzzle: &Puzzle, start: &Start, limit: u64) -> Option<u64> {
    let n = puzzle.size();
    if n * n > MAX_CELLS || start.vals.len() != n * n {
        return None;
    }
    let board = Board::of(puzzle);
    let mut state = State {
        vals: [0; MAX_CELLS],
        cand: [0; MAX_CELLS],
    };
    state.cand[..n * n].copy_from_slice(&start.cand);
    for (i, &v) in start.vals.iter().enumerate() {
        if v != 0 {
            board.place(&mut state, i, v);
        }
    }
    let mut search = Search {
        board: &board,
        nodes: 0,
        limit,
        solved: false,
    };
    search.node(state);
    (search.solved && search.nodes <= limit).then_some(search.nodes)
}

impl Board {
    fn of(puzzle: &Puzzle) -> Board {
        let g = puzzle.geometry();
        let n = g.size();
        let houses: Vec<Vec<usize>> = (0..g.house_count())
            .map(|h| {
                g.house_cells(House::new(h as u8))
                    .iter()
                    .map(|c| c.as_index())
                    .collect()
            })
            .collect();
        let cages: Vec<SumCage> = puzzle
            .cages()
            .iter()
            .map(|c| SumCage {
                cells: c.cells.iter().map(|x| x.as_index()).collect(),
                total: u32::from(c.sum),
            })
            .collect();
        let mut peers = vec![Vec::new(); n * n];
        for group in houses.iter().chain(cages.iter().map(|c| &c.cells)) {
            for &a in group {
                peers[a].extend(group.iter().copied().filter(|&b| b != a));
            }
        }
        for p in &mut peers {
            p.sort_unstable();
            p.dedup();
        }
        Board {
            size: n,
            cells: n * n,
            full: ((1u32 << n) - 1) as u16,
            houses,
            peers,
            cages,
        }
    }

    fn place(&self, s: &mut State, cell: usize, digit: u8) {
        s.vals[cell] = digit;
        s.cand[cell] = 0;
        let b = 1u16 << (digit - 1);
        for &q in &self.peers[cell] {
            s.cand[q] &= !b;
        }
    }

    /// Naked and hidden singles on the houses to a fixed point; `false` on a contradiction.
    fn singles(&self, s: &mut State) -> bool {
        let mut changed = true;
        while changed {
            changed = false;
            for c in 0..self.cells {
                if s.vals[c] == 0 {
                    let m = s.cand[c];
                    if m == 0 {
                        return false;
                    }
                    if m & (m - 1) == 0 {
                        self.place(s, c, m.trailing_zeros() as u8 + 1);
                        changed = true;
                    }
                }
            }
            for house in &self.houses {
                let (mut once, mut twice) = self.tally(s, house);
                if once != self.full {
                    return false;
                }
                for d in 1..=self.size as u8 {
                    let b = 1u16 << (d - 1);
                    if once & !twice & b == 0 {
                        continue;
                    }
                    let only = house.iter().copied().find(|&c| mask(s, c) & b != 0);
                    if let Some(only) = only.filter(|&c| s.vals[c] == 0) {
                        self.place(s, only, d);
                        changed = true;
                        // The placed cell's other candidates are gone: count the house again.
                        (once, twice) = self.tally(s, house);
                    }
                }
            }
        }
        true
    }

    /// The digits of a house's cells (candidates, or the placed digit) seen at least once and
    /// at least twice: a digit seen once has one place left.
    fn tally(&self, s: &State, house: &[usize]) -> (u16, u16) {
        let (mut once, mut twice) = (0u16, 0u16);
        for &c in house {
            let m = mask(s, c);
            twice |= once & m;
            once |= m;
        }
        (once, twice)
    }

    /// Cage totals: a full cage must add up, a partial one stay below; then each free cell keeps
    /// the digits the cage's other unused digits can complete. `false` on a contradiction.
    fn cage_bounds(&self, s: &mut State) -> bool {
        for cage in &self.cages {
            let sum: u32 = cage.cells.iter().map(|&c| u32::from(s.vals[c])).sum();
            let full = cage.cells.iter().all(|&c| s.vals[c] != 0);
            if (full && sum != cage.total) || (!full && sum >= cage.total) {
                return false;
            }
        }
        for cage in &self.cages {
            let (mut placed, mut used, mut k) = (0u32, 0u16, 0usize);
            for &c in &cage.cells {
                match s.vals[c] {
                    0 => k += 1,
                    v => {
                        placed += u32::from(v);
                        used |= 1 << (v - 1);
                    }
                }
            }
            if k == 0 {
                continue;
            }
            let rest = i64::from(cage.total - placed);
            // The cage's unused digits, ascending.
            let mut avail = [0u32; 16];
            let mut count = 0;
            for d in 1..=self.size as u32 {
                if used & (1 << (d - 1)) == 0 {
                    avail[count] = d;
                    count += 1;
                }
            }
            if count < k {
                return false;
            }
            let avail = &avail[..count];
            for &c in cage.cells.iter().filter(|&&c| s.vals[c] == 0) {
                let mut keep = 0u16;
                let mut digits = s.cand[c];
                while digits != 0 {
                    let d = digits.trailing_zeros() + 1;
                    digits &= digits - 1;
                    // The k - 1 smallest and largest of the other unused digits.
                    let lo: u32 = avail.iter().filter(|&&x| x != d).take(k - 1).sum();
                    let hi: u32 = avail.iter().rev().filter(|&&x| x != d).take(k - 1).sum();
                    let need = rest - i64::from(d);
                    if i64::from(lo) <= need && need <= i64::from(hi) {
                        keep |= 1 << (d - 1);
                    }
                }
                if keep == 0 {
                    return false;
                }
                s.cand[c] = keep;
            }
        }
        true
    }
}

/// A cell's candidates, or its placed digit's bit.
fn mask(s: &State, c: usize) -> u16 {
    match s.vals[c] {
        0 => s.cand[c],
        v => 1 << (v - 1),
    }
}

/// The depth-first search with its node count.
struct Search<'a> {
    board: &'a Board,
    nodes: u64,
    limit: u64,
    solved: bool,
}

impl Search<'_> {
    fn node(&mut self, mut s: State) {
        self.nodes += 1;
        if self.nodes > self.limit || self.solved {
            return;
        }
        if !self.board.singles(&mut s) || !self.board.cage_bounds(&mut s) {
            return;
        }
        let next = (0..self.board.cells)
            .filter(|&c| s.vals[c] == 0)
            .min_by_key(|&c| s.cand[c].count_ones());
        let Some(cell) = next else {
            self.solved = true;
            return;
        };
        let mut digits = s.cand[cell];
        while digits != 0 {
            let d = digits.trailing_zeros() as u8 + 1;
            digits &= digits - 1;
            let mut child = s;
            self.board.place(&mut child, cell, d);
            self.node(child);
            if self.solved || self.nodes > self.limit {
                return;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::killer4;
    use super::*;
    use crate::geometry::{Cell, Digit};

    /// Nodes from the empty grid.
    fn from_empty(puzzle: &Puzzle, limit: u64) -> Option<u64> {
        nodes_from(puzzle, &Start::empty(puzzle), limit)
    }

    /// Vertical pairs over the solution 1234 / 3412 / 2143 / 4321: sums alone leave choices.
    fn pairs() -> Puzzle {
        killer4(&[
            (4, &[0, 4]),
            (6, &[1, 5]),
            (4, &[2, 6]),
            (6, &[3, 7]),
            (6, &[8, 12]),
            (4, &[9, 13]),
            (6, &[10, 14]),
            (4, &[11, 15]),
        ])
    }

    /// One-cell cages are read by their sums' bounds, which run after the singles: the first
    /// node narrows every cell to its digit, the second places them all.
    #[test]
    fn one_cell_cages_solve_at_the_second_node() {
        let solution = [1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 1];
        let cells: Vec<[u8; 1]> = (0..16).map(|c| [c]).collect();
        let cages: Vec<(u16, &[u8])> = cells
            .iter()
            .zip(solution)
            .map(|(c, v)| (v, &c[..]))
            .collect();
        assert_eq!(from_empty(&killer4(&cages), 10), Some(2));
    }

    /// A puzzle that needs branching: its node count is exact, and one node less gives up.
    #[test]
    fn the_node_limit_is_where_it_gives_up() {
        let nodes = from_empty(&pairs(), PENCILMARK_NODES).expect("solvable");
        assert!(nodes > 1, "{nodes}");
        assert_eq!(from_empty(&pairs(), nodes), Some(nodes));
        assert_eq!(from_empty(&pairs(), nodes - 1), None);
    }

    /// The grader's starting board is the empty grid; after a placement the search starts from
    /// it, placed and removed from its peers, and needs no more nodes than from scratch.
    #[test]
    fn starts_where_the_grader_stands() {
        let puzzle = pairs();
        let mut board = grader::Board::new(&puzzle);
        assert_eq!(Start::at(&board), Start::empty(&puzzle));
        let scratch = from_empty(&puzzle, PENCILMARK_NODES).expect("solvable");
        board.place(Cell::new(0), Digit::new(1));
        let start = Start::at(&board);
        assert_eq!(start.cand[1] & 1, 0, "1 is gone from r1c2, in r1c1's row");
        let nodes = nodes_from(&puzzle, &start, PENCILMARK_NODES).expect("solvable");
        assert!(nodes <= scratch, "{nodes} > {scratch}");
    }

    /// Two cages of 1 + 2 in one box: no solution, whatever the limit.
    #[test]
    fn a_contradiction_has_no_solution() {
        let cages = [(3u16, &[0u8, 1][..]), (3, &[4, 5][..])];
        assert_eq!(from_empty(&killer4(&cages), PENCILMARK_NODES), None);
    }
}
