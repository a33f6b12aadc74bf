//! Outlines of cell groups (cages, boxes, jigsaw regions) as closed loops, optionally inset.
//!
//! Follows Simon Tatham's Solo (`outline_block_structure` in `solo.c`): walk the boundary keeping the
//! group on one side, emit a corner at every turn, shifted by the inset towards the inside. Unlike
//! Solo, a trace starts from every boundary edge not yet walked, so a group with a hole gets both
//! its outer and its inner loop.

/// A point in cell units: `(x, y)`, origin at the grid's top-left corner, y downwards.
pub type CellPoint = (f32, f32);

/// Direction of a boundary edge, walked clockwise on screen (the group on the right-hand side).
/// 0: +x (a top edge), 1: +y (a right edge), 2: -x (a bottom edge), 3: -y (a left edge).
const STEP: [(i32, i32); 4] = [(1, 0), (0, 1), (-1, 0), (0, -1)];

/// The unit normal of an edge pointing into the group: the direction turned a quarter clockwise.
fn inward(dir: usize) -> (f32, f32) {
    let (dx, dy) = STEP[dir];
    (-dy as f32, dx as f32)
}

/// Every boundary loop of the cells of an `n` x `n` grid for which `inside(row, col)` holds,
/// each loop inset by `inset` (in cell units, `0.0` for the exact boundary). Loops come in a fixed
/// order (by their first edge, row-major), each starting at a corner.
pub fn outline(n: usize, inside: impl Fn(usize, usize) -> bool, inset: f32) -> Vec<Vec<CellPoint>> {
    let side = n + 1;
    let vertex = |x: usize, y: usize| y * side + x;
    // present[v * 4 + dir]: a boundary edge starts at vertex v going in dir.
    let mut present = vec![false; side * side * 4];
    for r in 0..n {
        for c in 0..n {
            if !inside(r, c) {
                continue;
            }
            let out = |dr: i32, dc: i32| {
                let (rr, cc) = (r as i32 + dr, c as i32 + dc);
                rr < 0
                    || cc < 0
                    || rr >= n as i32
                    || cc >= n as i32
                    || !inside(rr as usize, cc as usize)
            };
            if out(-1, 0) {
                present[vertex(c, r) * 4] = true;
            }
            if out(0, 1) {
                present[vertex(c + 1, r) * 4 + 1] = true;
            }
            if out(1, 0) {
                present[vertex(c + 1, r + 1) * 4 + 2] = true;
            }
            if out(0, -1) {
                present[vertex(c, r + 1) * 4 + 3] = true;
            }
        }
    }
    let mut visited = vec![false; present.len()];
    let mut loops = Vec::new();
    for first in 0..present.len() {
        if !present[first] || visited[first] {
            continue;
        }
        let mut edges = Vec::new();
        let mut edge = first;
        loop {
            visited[edge] = true;
            edges.push(edge);
            let (v, dir) = (edge / 4, edge % 4);
            let (x, y) = (
                (v % side) as i32 + STEP[dir].0,
                (v / side) as i32 + STEP[dir].1,
            );
            let end = y as usize * side + x as usize;
            // Where two cells of the group touch only at a corner, turn towards the inside first,
            // so each loop hugs the cell it is walking round and the two never cross.
            let next = [(dir + 1) % 4, dir, (dir + 3) % 4]
                .into_iter()
                .map(|d| end * 4 + d)
                .find(|&e| present[e] && (!visited[e] || e == first));
            match next {
                Some(e) if e != first => edge = e,
                _ => break,
            }
        }
        loops.push(corners(&edges, side, inset));
    }
    loops
}

/// The corners of one loop of edges: at each change of direction, the vertex moved by `inset`
/// along both edges' inward normals (the meeting point of the two inset edges).
fn corners(edges: &[usize], side: usize, inset: f32) -> Vec<CellPoint> {
    let mut points = Vec::new();
    for (i, &edge) in edges.iter().enumerate() {
        let before = edges[(i + edges.len() - 1) % edges.len()];
        let (dir, prev_dir) = (edge % 4, before % 4);
        if dir == prev_dir {
            continue;
        }
        let v = edge / 4;
        let (a, b) = (inward(prev_dir), inward(dir));
        points.push((
            (v % side) as f32 + inset * (a.0 + b.0),
            (v / side) as f32 + inset * (a.1 + b.1),
        ));
    }
    points
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_cell_is_a_square_inset_on_every_side() {
        let loops = outline(3, |r, c| (r, c) == (1, 1), 0.125);
        assert_eq!(
            loops,
            vec![vec![
                (1.125, 1.125),
                (1.875, 1.125),
                (1.875, 1.875),
                (1.125, 1.875)
            ]]
        );
    }

    #[test]
    fn an_l_shape_has_six_corners_and_its_concave_corner_moves_outwards_of_the_notch() {
        // Cells (0,1), (1,0), (1,1): the notch is cell (0,0).
        let loops = outline(2, |r, c| (r, c) != (0, 0), 0.1);
        assert_eq!(loops.len(), 1);
        let l = &loops[0];
        assert_eq!(l.len(), 6);
        assert!(l.contains(&(1.1, 1.1)), "concave corner {l:?}");
        assert!(l.contains(&(1.9, 0.1)) && l.contains(&(0.1, 1.9)));
    }

    #[test]
    fn a_ring_has_an_outer_and_an_inner_loop() {
        let loops = outline(3, |r, c| (r, c) != (1, 1), 0.0);
        assert_eq!(loops.len(), 2);
        assert!(loops.iter().all(|l| l.len() == 4));
        assert!(loops[1].contains(&(1.0, 1.0)) && loops[1].contains(&(2.0, 2.0)));
    }

    #[test]
    fn cells_touching_at_a_corner_give_two_separate_inset_loops() {
        // A diagonal pair in one group (as when a cage wraps round): each cell keeps its own loop.
        let loops = outline(2, |r, c| r == c, 0.125);
        assert_eq!(loops.len(), 2);
        assert!(loops.iter().all(|l| l.len() == 4));
    }

    #[test]
    fn boxes_of_a_full_grid_cover_its_border() {
        let loops = outline(4, |_, _| true, 0.0);
        assert_eq!(
            loops,
            vec![vec![(0.0, 0.0), (4.0, 0.0), (4.0, 4.0), (0.0, 4.0)]]
        );
    }
}
