//! The source documents' `ordered` cage builder: scan the grid in reading order and append each
//! cell to the cage on its left or above, or open a new cage, by comparing a uniform draw with a
//! threshold (0.3 in the source; above needs twice the threshold when both are possible).

use super::cage_layout::{CageLayout, LayoutRules};
use crate::geometry::Geometry;
use crate::grid::Grid;
use rand::Rng;

/// A layout by the ordered scan. It may hold single-cell cages; the caller absorbs them when the
/// rules forbid them.
pub fn build_ordered<R: Rng>(
    geometry: &Geometry,
    solution: &Grid,
    rules: &LayoutRules,
    rng: &mut R,
) -> CageLayout {
    let n = geometry.size();
    let t = rules.threshold;
    let mut layout = CageLayout::new(geometry.cell_count());
    for r in 0..n {
        for c in 0..n {
            let cell = geometry.cell_at(r, c);
            let digit = solution.get(cell).expect("complete solution");
            let cage_at = |r: usize, c: usize| layout.cage_of(geometry.cell_at(r, c));
            let left = (c > 0).then(|| cage_at(r, c - 1)).flatten();
            let above = (r > 0).then(|| cage_at(r - 1, c)).flatten();
            let fits = |id: usize| layout.accepts(id, digit, rules.max_size);
            let x: f64 = rng.random();
            let join = match (above, left) {
                (None, None) => None,
                (None, Some(l)) => (x > t && fits(l)).then_some(l),
                (Some(a), None) => (x >= t && fits(a)).then_some(a),
                (Some(a), Some(_)) if x > 2.0 * t && fits(a) => Some(a),
                (Some(_), Some(l)) => (x > t && fits(l)).then_some(l),
            };
            match join {
                Some(id) => layout.push(id, cell, digit),
                None => {
                    layout.open(cell, digit);
                }
            }
        }
    }
    layout
}
