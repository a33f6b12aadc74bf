//! Validity-preserving maps: symmetries of whole puzzles, and relabelings of complete grids only.
//!
//! The types keep the two apart. A [`PuzzleSymmetry`] (a rotation or reflection, optionally with the
//! digit complement d → N+1−d) maps a whole puzzle — geometry, givens and cages, a k-cell cage sum S
//! becoming k(N+1)−S under the complement — to an equivalent puzzle. A [`GridTransform`] also swaps
//! rows within bands, bands, columns within stacks, stacks, and relabels digits: that keeps a
//! complete grid valid but changes cage sums, so it only takes a [`Grid`] (the variation algorithm of
//! the source documents, which builds cages afterwards).

use crate::cage::Cage;
use crate::geometry::{Cell, Geometry, Regions};
use crate::grid::Grid;
use crate::puzzle::Puzzle;
use rand::seq::SliceRandom;
use rand::Rng;

/// One of the eight symmetries of the square, acting on the (row, col) positions of an N x N grid.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Dihedral {
    /// Leave every cell in place.
    Identity,
    /// Quarter turn clockwise.
    Rotate90,
    /// Half turn.
    Rotate180,
    /// Quarter turn anticlockwise.
    Rotate270,
    /// Mirror top to bottom (row r goes to row N−1−r).
    FlipRows,
    /// Mirror left to right (column c goes to column N−1−c).
    FlipCols,
    /// Mirror in the main diagonal (row and column swap).
    Transpose,
    /// Mirror in the anti-diagonal.
    AntiTranspose,
}

impl Dihedral {
    /// All eight symmetries.
    pub const ALL: [Dihedral; 8] = [
        Dihedral::Identity,
        Dihedral::Rotate90,
        Dihedral::Rotate180,
        Dihedral::Rotate270,
        Dihedral::FlipRows,
        Dihedral::FlipCols,
        Dihedral::Transpose,
        Dihedral::AntiTranspose,
    ];

    /// Where `(row, col)` of an `n x n` grid goes.
    pub fn map(self, n: usize, row: usize, col: usize) -> (usize, usize) {
        let (r, c, m) = (row, col, n - 1);
        match self {
            Dihedral::Identity => (r, c),
            Dihedral::Rotate90 => (c, m - r),
            Dihedral::Rotate180 => (m - r, m - c),
            Dihedral::Rotate270 => (m - c, r),
            Dihedral::FlipRows => (m - r, c),
            Dihedral::FlipCols => (r, m - c),
            Dihedral::Transpose => (c, r),
            Dihedral::AntiTranspose => (m - c, m - r),
        }
    }

    /// The symmetry that undoes this one.
    pub fn inverse(self) -> Dihedral {
        match self {
            Dihedral::Rotate90 => Dihedral::Rotate270,
            Dihedral::Rotate270 => Dihedral::Rotate90,
            other => other,
        }
    }

    /// Where a cell of an `n x n` grid goes.
    pub fn map_cell(self, n: usize, cell: Cell) -> Cell {
        let (r, c) = self.map(n, cell.as_index() / n, cell.as_index() % n);
        Cell::new((r * n + c) as u8)
    }

    /// Does it exchange rows with columns (so `r x c` boxes become `c x r` boxes)?
    pub fn swaps_axes(self) -> bool {
        matches!(
            self,
            Dihedral::Rotate90
                | Dihedral::Rotate270
                | Dihedral::Transpose
                | Dihedral::AntiTranspose
        )
    }

    /// The symmetries that keep a geometry's kind: all eight for square boxes and jigsaw regions
    /// (whose map moves with the grid), the four that keep the axes for non-square boxes.
    pub fn preserving(geometry: &Geometry) -> Vec<Dihedral> {
        let square = match geometry.regions() {
            Regions::Boxes { rows, cols } => rows == cols,
            Regions::Jigsaw(_) => true,
        };
        Self::ALL
            .into_iter()
            .filter(|d| square || !d.swaps_axes())
            .collect()
    }

    /// The image of a geometry: boxes change shape when the axes swap, jigsaw regions move.
    pub fn map_geometry(self, geometry: &Geometry) -> Geometry {
        let n = geometry.size();
        match geometry.regions() {
            Regions::Boxes { rows, cols } if self.swaps_axes() => {
                Geometry::boxed(n, *cols as usize, *rows as usize)
                    .expect("a transposed box shape still tiles the grid")
            }
            Regions::Boxes { .. } => geometry.clone(),
            Regions::Jigsaw(map) => {
                let mut moved = vec![0u8; map.len()];
                for (i, &region) in map.iter().enumerate() {
                    moved[self.map_cell(n, Cell::new(i as u8)).as_index()] = region;
                }
                Geometry::jigsaw(n, moved).expect("a symmetry keeps regions connected")
            }
        }
    }

    /// The image of a grid (complete or not).
    pub fn map_grid(self, grid: &Grid) -> Grid {
        let n = grid.size();
        let mut values = vec![0u8; n * n];
        for (i, &v) in grid.values().iter().enumerate() {
            values[self.map_cell(n, Cell::new(i as u8)).as_index()] = v;
        }
        Grid::from_values(n, values).expect("same size, same values")
    }
}

/// A symmetry of whole puzzles: a rotation or reflection, then optionally the digit complement.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PuzzleSymmetry {
    /// The geometric part.
    pub dihedral: Dihedral,
    /// Replace every digit d by N+1−d (and every k-cell cage sum S by k(N+1)−S).
    pub complement: bool,
}

impl PuzzleSymmetry {
    /// The symmetries that keep a geometry's kind: 16 for square boxes and jigsaw, 8 otherwise.
    pub fn group(geometry: &Geometry) -> Vec<PuzzleSymmetry> {
        Dihedral::preserving(geometry)
            .into_iter()
            .flat_map(|dihedral| {
                [false, true].map(|complement| PuzzleSymmetry {
                    dihedral,
                    complement,
                })
            })
            .collect()
    }

    /// The image of a grid (complete or not; empty cells stay empty).
    pub fn map_grid(self, grid: &Grid) -> Grid {
        let moved = self.dihedral.map_grid(grid);
        if !self.complement {
            return moved;
        }
        let n = grid.size() as u8;
        let values = moved
            .values()
            .iter()
            .map(|&v| if v == 0 { 0 } else { n + 1 - v })
            .collect();
        Grid::from_values(grid.size(), values).expect("complement stays in range")
    }

    /// The image of a cage in an `n x n` grid.
    pub fn map_cage(self, n: usize, cage: &Cage) -> Cage {
        let cells = cage
            .cells
            .iter()
            .map(|&c| self.dihedral.map_cell(n, c))
            .collect();
        let sum = if self.complement {
            cage.len() as u16 * (n as u16 + 1) - cage.sum
        } else {
            cage.sum
        };
        Cage::new(sum, cells)
    }

    /// The image of a puzzle: an equivalent puzzle whose solutions are the images of the original's.
    pub fn apply(self, puzzle: &Puzzle) -> Puzzle {
        let n = puzzle.size();
        let cages = puzzle
            .cages()
            .iter()
            .map(|cage| self.map_cage(n, cage))
            .collect();
        Puzzle::new(
            self.dihedral.map_geometry(puzzle.geometry()),
            self.map_grid(puzzle.givens()),
            cages,
        )
        .expect("a symmetry maps a valid puzzle to a valid puzzle")
    }
}

/// A validity-preserving rearrangement of a complete grid (the variation algorithm): rows permuted
/// within bands and bands permuted, the same for columns and stacks, then a rotation or reflection,
/// then a relabeling of the digits. It changes cage sums, so it applies to grids, never to puzzles.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GridTransform {
    /// Row `i` of the rearranged grid is row `rows[i]` of the original.
    pub rows: Vec<u8>,
    /// Column `j` of the rearranged grid is column `cols[j]` of the original.
    pub cols: Vec<u8>,
    /// Applied after the row and column permutations.
    pub dihedral: Dihedral,
    /// Digit `d` becomes `digits[d - 1]`.
    pub digits: Vec<u8>,
}

impl GridTransform {
    /// The transform that changes nothing.
    pub fn identity(size: usize) -> Self {
        let ids: Vec<u8> = (0..size as u8).collect();
        GridTransform {
            rows: ids.clone(),
            cols: ids,
            dihedral: Dihedral::Identity,
            digits: (1..=size as u8).collect(),
        }
    }

    /// A uniformly drawn transform that keeps `geometry`'s kind: band and stack moves only for
    /// boxes, axis swaps only for square boxes and jigsaw regions.
    pub fn random<R: Rng>(geometry: &Geometry, rng: &mut R) -> Self {
        let n = geometry.size();
        let mut t = Self::identity(n);
        if let Some((box_rows, box_cols)) = geometry.box_shape() {
            t.rows = banded_permutation(n, box_rows, rng);
            t.cols = banded_permutation(n, box_cols, rng);
        }
        let allowed = Dihedral::preserving(geometry);
        t.dihedral = allowed[rng.random_range(0..allowed.len())];
        t.digits.shuffle(rng);
        t
    }

    /// The rearranged geometry and grid. The grid must be complete and valid for `geometry`; the
    /// result is then complete and valid for the returned geometry.
    pub fn apply(&self, geometry: &Geometry, grid: &Grid) -> (Geometry, Grid) {
        let n = grid.size();
        let mut permuted = vec![0u8; n * n];
        for (r, &from_r) in self.rows.iter().enumerate() {
            for (c, &from_c) in self.cols.iter().enumerate() {
                let v = grid.values()[from_r as usize * n + from_c as usize];
                permuted[r * n + c] = if v == 0 {
                    0
                } else {
                    self.digits[v as usize - 1]
                };
            }
        }
        let permuted = Grid::from_values(n, permuted).expect("same size, digits permuted");
        (
            self.dihedral.map_geometry(geometry),
            self.dihedral.map_grid(&permuted),
        )
    }
}

/// A permutation of `0..n` that moves whole groups of `group` consecutive indices and shuffles
/// indices within each group (rows within bands and bands, or columns within stacks and stacks).
fn banded_permutation<R: Rng>(n: usize, group: usize, rng: &mut R) -> Vec<u8> {
    let mut groups: Vec<usize> = (0..n / group).collect();
    groups.shuffle(rng);
    let mut order = Vec::with_capacity(n);
    for g in groups {
        let mut inner: Vec<u8> = (0..group).map(|i| (g * group + i) as u8).collect();
        inner.shuffle(rng);
        order.extend(inner);
    }
    order
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generator::fill::fill_grid;
    use crate::generator::jigsaw::random_jigsaw;
    use crate::generator::{generate_puzzle, GeneratorConfig, Outcome, Variant};
    use crate::solver;
    use proptest::prelude::*;
    use rand::SeedableRng;
    use rand_pcg::Pcg64Mcg;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(40))]

        #[test]
        fn symmetries_keep_uniqueness_and_map_the_solution(
            which in 0usize..4, seed in any::<u64>(), index in 0u64..1000,
        ) {
            let (variant, size) = [
                (Variant::Killer, 4),
                (Variant::Killer, 6),
                (Variant::KillerJigsaw, 5),
                (Variant::Classic, 9),
            ][which];
            let config = GeneratorConfig { variant, size, ..GeneratorConfig::default() };
            let Outcome::Generated(g) = generate_puzzle(&config, seed, index) else {
                return Ok(());
            };
            for s in PuzzleSymmetry::group(g.puzzle.geometry()) {
                let image = s.apply(&g.puzzle);
                let report = solver::solve(&image, 2);
                prop_assert_eq!(report.solutions, vec![s.map_grid(&g.solution)]);
            }
        }

        #[test]
        fn grid_transforms_keep_boxed_and_jigsaw_grids_valid(seed in any::<u64>(), which in 0usize..6) {
            let mut rng = Pcg64Mcg::seed_from_u64(seed);
            let (geometry, grid) = match which {
                0 => (Geometry::boxed(6, 3, 2).unwrap(), None),
                1 => (Geometry::boxed(8, 2, 4).unwrap(), None),
                2 => (Geometry::standard(9).unwrap(), None),
                3 => (Geometry::boxed(12, 4, 3).unwrap(), None),
                _ => {
                    let (g, grid) = random_jigsaw(3 + which, &mut rng).unwrap();
                    (g, Some(grid))
                }
            };
            let grid = grid.unwrap_or_else(|| fill_grid(&geometry, u64::MAX, &mut rng).unwrap());
            let t = GridTransform::random(&geometry, &mut rng);
            let (g2, grid2) = t.apply(&geometry, &grid);
            prop_assert!(grid2.is_solved(&g2));
            prop_assert_eq!(g2.is_jigsaw(), geometry.is_jigsaw());
            prop_assert_eq!(g2.box_shape(), geometry.box_shape());
        }
    }

    #[test]
    fn dihedral_maps_are_bijections_and_compose_as_expected() {
        for n in [1, 4, 9] {
            for d in Dihedral::ALL {
                let mut seen = vec![false; n * n];
                for i in 0..n * n {
                    let j = d.map_cell(n, Cell::new(i as u8)).as_index();
                    assert!(!seen[j]);
                    seen[j] = true;
                }
            }
        }
        let c = Cell::new(5);
        let twice = Dihedral::Rotate90.map_cell(9, Dihedral::Rotate90.map_cell(9, c));
        assert_eq!(twice, Dihedral::Rotate180.map_cell(9, c));
        for d in Dihedral::ALL {
            for i in 0..81 {
                let c = Cell::new(i);
                assert_eq!(d.inverse().map_cell(9, d.map_cell(9, c)), c);
            }
        }
    }

    #[test]
    fn random_grid_transforms_keep_grids_valid() {
        let mut rng = Pcg64Mcg::seed_from_u64(7);
        for (n, r, c) in [(4, 2, 2), (6, 2, 3), (8, 4, 2), (9, 3, 3), (12, 3, 4)] {
            let geometry = Geometry::boxed(n, r, c).unwrap();
            let grid = fill_grid(&geometry, u64::MAX, &mut rng).unwrap();
            for _ in 0..20 {
                let t = GridTransform::random(&geometry, &mut rng);
                let (g2, grid2) = t.apply(&geometry, &grid);
                assert_eq!(g2, geometry, "the box shape is kept");
                assert!(grid2.is_solved(&g2));
            }
        }
    }

    #[test]
    fn non_square_boxes_keep_their_shape_only_under_four_maps() {
        let g = Geometry::boxed(6, 2, 3).unwrap();
        assert_eq!(Dihedral::preserving(&g).len(), 4);
        assert_eq!(PuzzleSymmetry::group(&g).len(), 8);
        assert_eq!(
            Dihedral::Transpose.map_geometry(&g).box_shape(),
            Some((3, 2))
        );
        assert_eq!(
            PuzzleSymmetry::group(&Geometry::standard(9).unwrap()).len(),
            16
        );
    }
}
