//! Jigsaw regions: N random connected regions of N cells that admit a solution grid.
//!
//! Start from a complete grid on the standard boxes (rows for prime sizes) and many times let a
//! border cell of one region and a cell of a neighbouring region holding the same digit change
//! regions, keeping a trade only when both regions stay connected. Every region still holds each
//! digit once, so the grid stays a solution: the regions always admit one, with no search. A fresh
//! grid is then filled on the new regions by bounded backtracking (the traded grid, valid for
//! boxes too, is the fallback).

use super::fill::{fill_grid, random_grid};
use crate::geometry::{are_connected, Cell, Geometry};
use crate::grid::Grid;
use rand::Rng;

/// Starting grids tried before giving up.
const ATTEMPTS: usize = 32;
/// Successful trades per cell: enough to forget the starting boxes.
const TRADES_PER_CELL: usize = 4;
/// Trade attempts allowed per successful trade wanted.
const TRIES_PER_TRADE: usize = 40;
/// Backtracking placements allowed per cell for the fresh grid.
const FILL_NODES_PER_CELL: u64 = 100;

/// Random jigsaw regions for a `size x size` grid and a solution grid on them, or `None` if no
/// starting grid allowed a trade in `ATTEMPTS` tries.
pub fn random_jigsaw<R: Rng>(size: usize, rng: &mut R) -> Option<(Geometry, Grid)> {
    let base = Geometry::standard(size).ok()?;
    // Some small grids allow no trade at all: start again from another grid.
    let (grid, map) = (0..ATTEMPTS).find_map(|_| {
        let grid = random_grid(&base, rng)?;
        let map = traded_regions(&base, &grid, rng);
        (map != base.region_map() || size < 4).then_some((grid, map))
    })?;
    let geometry = Geometry::jigsaw(size, map).ok()?;
    let limit = FILL_NODES_PER_CELL * geometry.cell_count() as u64;
    let fresh = fill_grid(&geometry, limit, rng).unwrap_or(grid);
    Some((geometry, fresh))
}

/// The region map of `base` after random connectivity-keeping, digit-keeping trades.
fn traded_regions<R: Rng>(base: &Geometry, grid: &Grid, rng: &mut R) -> Vec<u8> {
    let (n, cells) = (base.size(), base.cell_count());
    let mut map = base.region_map().to_vec();
    // holder[region * n + digit index] = the cell of that region holding that digit.
    let mut holder = vec![Cell::new(0); n * n];
    for c in base.cells() {
        let d = grid.values()[c.as_index()] as usize - 1;
        holder[map[c.as_index()] as usize * n + d] = c;
    }
    let target = TRADES_PER_CELL * cells;
    let mut done = 0;
    for _ in 0..target * TRIES_PER_TRADE {
        if done == target || n < 2 {
            break;
        }
        let a = Cell::new(rng.random_range(0..cells) as u8);
        let ra = map[a.as_index()];
        let Some(b_side) = base
            .neighbours(a)
            .filter(|c| map[c.as_index()] != ra)
            .nth(rng.random_range(0..4))
        else {
            continue;
        };
        let rb = map[b_side.as_index()];
        let d = grid.values()[a.as_index()] as usize - 1;
        let b = holder[rb as usize * n + d];
        let touches_a = base
            .neighbours(b)
            .any(|c| c != a && map[c.as_index()] == ra);
        if !touches_a {
            continue;
        }
        holder[ra as usize * n + d] = b;
        holder[rb as usize * n + d] = a;
        let region = |r: u8| &holder[r as usize * n..(r as usize + 1) * n];
        if are_connected(n, region(ra)) && are_connected(n, region(rb)) {
            map[a.as_index()] = rb;
            map[b.as_index()] = ra;
            done += 1;
        } else {
            holder[ra as usize * n + d] = a;
            holder[rb as usize * n + d] = b;
        }
    }
    map
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand_pcg::Pcg64Mcg;

    #[test]
    fn jigsaw_regions_are_valid_and_filled() {
        let mut rng = Pcg64Mcg::seed_from_u64(11);
        for size in [4, 5, 6, 7, 9, 12] {
            for _ in 0..5 {
                let (geometry, grid) = random_jigsaw(size, &mut rng).unwrap();
                assert!(geometry.is_jigsaw());
                assert!(grid.is_solved(&geometry));
                let boxes = Geometry::standard(size).unwrap();
                assert_ne!(geometry.region_map(), boxes.region_map(), "size {size}");
            }
        }
    }
}
