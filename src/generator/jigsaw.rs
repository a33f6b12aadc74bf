//! Jigsaw regions: N random connected regions of N cells that admit a solution grid.
//!
//! Start from the standard boxes (rows for prime sizes) and many times trade a border cell of one
//! region for a border cell of a neighbouring region, keeping a trade only when both regions stay
//! connected; then fill a grid with
//! bounded backtracking, which both proves the regions admit a solution and gives the seed grid.

use super::fill::fill_grid;
use crate::geometry::{Cell, Geometry};
use crate::grid::Grid;
use rand::Rng;

/// Region maps drawn before giving up.
const ATTEMPTS: usize = 64;
/// Successful swaps per cell: enough to forget the starting boxes.
const SWAPS_PER_CELL: usize = 4;
/// Backtracking placements allowed per cell when filling a candidate region map.
const FILL_NODES_PER_CELL: u64 = 200;

/// Random jigsaw regions for an `size x size` grid and a solution grid on them, or `None` if no
/// fillable map turned up in `ATTEMPTS` draws.
pub fn random_jigsaw<R: Rng>(size: usize, rng: &mut R) -> Option<(Geometry, Grid)> {
    let base = Geometry::standard(size).ok()?;
    let cells = base.cell_count();
    (0..ATTEMPTS).find_map(|_| {
        let map = shuffled_regions(&base, rng);
        if map == base.region_map() && size > 3 {
            return None; // the boxes themselves are no jigsaw
        }
        let geometry = Geometry::jigsaw(size, map).ok()?;
        let grid = fill_grid(&geometry, FILL_NODES_PER_CELL * cells as u64, rng)?;
        Some((geometry, grid))
    })
}

/// The standard region map after random connectivity-keeping trades of border cells.
fn shuffled_regions<R: Rng>(base: &Geometry, rng: &mut R) -> Vec<u8> {
    let n = base.size();
    let cells = base.cell_count();
    let mut map = base.region_map().to_vec();
    if n < 2 {
        return map;
    }
    let target = SWAPS_PER_CELL * cells;
    let mut done = 0;
    for _ in 0..target * 20 {
        if done == target {
            break;
        }
        // Cell a leaves region A for a neighbouring region B; a cell b of B next to A takes its place.
        let a = Cell::new(rng.random_range(0..cells) as u8);
        let ra = map[a.as_index()];
        let across: Vec<u8> = base
            .neighbours(a)
            .map(|c| map[c.as_index()])
            .filter(|&r| r != ra)
            .collect();
        if across.is_empty() {
            continue;
        }
        let rb = across[rng.random_range(0..across.len())];
        let swaps: Vec<Cell> = base
            .cells()
            .filter(|&b| {
                map[b.as_index()] == rb
                    && base
                        .neighbours(b)
                        .any(|c| c != a && map[c.as_index()] == ra)
            })
            .collect();
        if swaps.is_empty() {
            continue;
        }
        let b = swaps[rng.random_range(0..swaps.len())];
        map[a.as_index()] = rb;
        map[b.as_index()] = ra;
        if is_region_connected(base, &map, ra) && is_region_connected(base, &map, rb) {
            done += 1;
        } else {
            map[a.as_index()] = ra;
            map[b.as_index()] = rb;
        }
    }
    map
}

fn is_region_connected(base: &Geometry, map: &[u8], region: u8) -> bool {
    let cells: Vec<Cell> = base
        .cells()
        .filter(|c| map[c.as_index()] == region)
        .collect();
    base.is_connected(&cells)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand_pcg::Pcg64Mcg;

    #[test]
    fn jigsaw_regions_are_valid_and_filled() {
        let mut rng = Pcg64Mcg::seed_from_u64(11);
        for size in [4, 5, 6, 9] {
            let (geometry, grid) = random_jigsaw(size, &mut rng).unwrap();
            assert!(geometry.is_jigsaw());
            assert!(grid.is_solved(&geometry));
            assert_ne!(
                geometry.region_map(),
                Geometry::standard(size).unwrap().region_map(),
                "size {size}: the regions moved away from the boxes"
            );
        }
    }
}
