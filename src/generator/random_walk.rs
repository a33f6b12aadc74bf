//! The source documents' `random-walk` cage builder: from a random free cell, a "snake" steps to a
//! random free neighbour whose digit is not yet in the cage, until it is stuck or at the maximum size.

use super::cage_layout::{CageLayout, LayoutRules};
use crate::geometry::{Cell, Geometry};
use crate::grid::Grid;
use rand::seq::SliceRandom;
use rand::Rng;

/// A layout by random walks. It may hold single-cell cages; the caller absorbs them when the
/// rules forbid them.
pub fn build_random_walk<R: Rng>(
    geometry: &Geometry,
    solution: &Grid,
    rules: &LayoutRules,
    rng: &mut R,
) -> CageLayout {
    let digit = |c: Cell| solution.get(c).expect("complete solution");
    let mut order: Vec<Cell> = geometry.cells().collect();
    order.shuffle(rng);
    let mut layout = CageLayout::new(geometry.cell_count());
    for start in order {
        if !layout.is_free(start) {
            continue;
        }
        let id = layout.open(start, digit(start));
        let mut steps: Vec<Cell> = geometry.neighbours(start).collect();
        while !steps.is_empty() && layout.cells(id).len() < rules.max_size {
            let next = steps.swap_remove(rng.random_range(0..steps.len()));
            if layout.is_free(next) && !layout.digits(id).contains(digit(next)) {
                layout.push(id, next, digit(next));
                steps = geometry.neighbours(next).collect();
            }
        }
    }
    layout
}
