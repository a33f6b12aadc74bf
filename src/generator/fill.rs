//! Seed grids: a complete valid grid for any geometry by randomized backtracking over bitsets.
//!
//! The source documents fill cells in reading order with a shuffled digit list; here the next cell
//! is the one with the fewest candidates (most-constrained first), which keeps 16x16 and jigsaw
//! fills from thrashing, and candidates come from row/column/region bitsets instead of rescans.

use crate::geometry::Geometry;
use crate::grid::Grid;
use rand::seq::SliceRandom;
use rand::Rng;

/// A random complete grid for `geometry`, or `None` if `node_limit` placements were not enough
/// (possible for unlucky jigsaw regions, or regions that admit no grid at all).
pub fn fill_grid<R: Rng>(geometry: &Geometry, node_limit: u64, rng: &mut R) -> Option<Grid> {
    let mut filler = Filler::new(geometry, node_limit);
    filler.search(rng).then(|| {
        Grid::from_values(geometry.size(), filler.values).expect("digits placed are 1..=N")
    })
}

/// Fill attempts `random_grid` makes before giving up.
const RESTARTS: usize = 32;
/// Placements per cell allowed in each attempt: backtracking times are heavy-tailed (a 16x16
/// fill usually needs about one placement per cell, rarely a thousand times more), so short
/// attempts restarted with fresh randomness beat one long search.
const NODES_PER_CELL: u64 = 10;

/// A random complete grid for `geometry` by restarted fills, or `None` if every attempt ran out
/// of nodes (regions that admit no grid, or extremely unlucky draws).
pub fn random_grid<R: Rng>(geometry: &Geometry, rng: &mut R) -> Option<Grid> {
    let limit = NODES_PER_CELL * geometry.cell_count() as u64;
    (0..RESTARTS).find_map(|_| fill_grid(geometry, limit, rng))
}

struct Filler {
    size: usize,
    houses: Vec<[u8; 3]>,
    used: Vec<u16>,
    values: Vec<u8>,
    empty: Vec<u8>,
    nodes_left: u64,
}

impl Filler {
    fn new(geometry: &Geometry, node_limit: u64) -> Self {
        let houses = geometry
            .cells()
            .map(|c| geometry.houses_of(c).map(|h| h.get()))
            .collect();
        Filler {
            size: geometry.size(),
            houses,
            used: vec![0; geometry.house_count()],
            values: vec![0; geometry.cell_count()],
            empty: (0..geometry.cell_count() as u16).map(|i| i as u8).collect(),
            nodes_left: node_limit,
        }
    }

    fn candidates(&self, cell: usize) -> u16 {
        let [a, b, c] = self.houses[cell];
        let all = if self.size >= 16 {
            u16::MAX
        } else {
            (1u16 << self.size) - 1
        };
        all & !(self.used[a as usize] | self.used[b as usize] | self.used[c as usize])
    }

    /// Place digits until the grid is full; `false` when stuck everywhere or out of nodes.
    fn search<R: Rng>(&mut self, rng: &mut R) -> bool {
        if self.empty.is_empty() {
            return true;
        }
        // Most-constrained empty cell.
        let (slot, cell, cands) = {
            let mut best = (0usize, 0usize, 0u16, u32::MAX);
            for (slot, &cell) in self.empty.iter().enumerate() {
                let cands = self.candidates(cell as usize);
                let count = cands.count_ones();
                if count < best.3 {
                    best = (slot, cell as usize, cands, count);
                    if count <= 1 {
                        break;
                    }
                }
            }
            (best.0, best.1, best.2)
        };
        if cands == 0 {
            return false;
        }
        self.empty.swap_remove(slot);
        let mut digits: Vec<u8> = (0..16u8).filter(|d| cands & (1 << d) != 0).collect();
        digits.shuffle(rng);
        for d in digits {
            if self.nodes_left == 0 {
                break;
            }
            self.nodes_left -= 1;
            self.place(cell, d, true);
            if self.search(rng) {
                return true;
            }
            self.place(cell, d, false);
        }
        // Restore the cell to its slot so the empty list is unchanged for the caller.
        self.empty.push(cell as u8);
        let last = self.empty.len() - 1;
        self.empty.swap(slot, last);
        false
    }

    fn place(&mut self, cell: usize, bit: u8, on: bool) {
        for h in self.houses[cell] {
            self.used[h as usize] ^= 1 << bit;
        }
        self.values[cell] = if on { bit + 1 } else { 0 };
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand_pcg::Pcg64Mcg;

    #[test]
    fn fills_every_standard_size() {
        let mut rng = Pcg64Mcg::seed_from_u64(1);
        for n in 1..=16 {
            let geometry = Geometry::standard(n).unwrap();
            for _ in 0..10 {
                let grid = random_grid(&geometry, &mut rng).unwrap();
                assert!(grid.is_solved(&geometry), "size {n}");
            }
        }
    }

    #[test]
    fn same_stream_same_grid_and_streams_differ() {
        let g = Geometry::standard(9).unwrap();
        let a = fill_grid(&g, u64::MAX, &mut Pcg64Mcg::seed_from_u64(5));
        let b = fill_grid(&g, u64::MAX, &mut Pcg64Mcg::seed_from_u64(5));
        let c = fill_grid(&g, u64::MAX, &mut Pcg64Mcg::seed_from_u64(6));
        assert_eq!(a, b);
        assert_ne!(a, c);
    }

    #[test]
    fn node_limit_is_respected() {
        let g = Geometry::standard(9).unwrap();
        assert_eq!(fill_grid(&g, 10, &mut Pcg64Mcg::seed_from_u64(1)), None);
    }
}
