//! Small unavoidable sets of a solution grid, as the second grids they allow: the digit swaps a
//! sparse layout must cut unevenly (some cage's sum or distinct digits broken) to be unique.
//!
//! An unavoidable set is a set of cells whose digits can be rearranged into another valid grid
//! (McGuire, Tugemann and Civario, "There is no 16-clue Sudoku", 2012, section 4, find them by
//! re-filling the cells of a few digits). Over two digits a and b they are exact: link the a-cell
//! and the b-cell of every house; swapping a and b on a connected component keeps every house
//! whole, and the components are the minimal two-digit sets (4 cells for the deadly rectangle,
//! up to 2N). Over three digits every re-filling of their 3N cells (each row's three cells
//! permuted, columns and regions kept whole) is listed by a small search; those that are not a
//! union of two-digit swaps are kept.

use crate::geometry::{Cell, Geometry};
use crate::grid::Grid;

/// Search nodes the three-digit re-filling of one digit triple may take (a 9x9 triple takes a
/// few dozen; the bound only keeps big grids cheap).
const TRIPLE_NODES: u32 = 20_000;

/// The second grids of `solution` that differ from it on one minimal two-digit set (a swap of
/// two digits on one linked component) or on a three-digit re-filling that no two-digit swap
/// explains; smallest difference first.
pub(super) fn small_alternatives(g: &Geometry, solution: &Grid) -> Vec<Grid> {
    let n = g.size();
    let values = solution.values();
    // where_[d][h]: the cell of house h holding digit d + 1.
    let mut where_ = vec![vec![0usize; g.house_count()]; n];
    for c in g.cells() {
        let d = values[c.as_index()] as usize - 1;
        for h in g.houses_of(c) {
            where_[d][h.get() as usize] = c.as_index();
        }
    }
    let mut out: Vec<Grid> = Vec::new();
    for a in 0..n {
        for b in a + 1..n {
            out.extend(two_digit_swaps(g, solution, &where_, a, b));
        }
    }
    let two: Vec<Vec<usize>> = out.iter().map(|alt| differing(solution, alt)).collect();
    let mut three = Vec::new();
    for a in 0..n {
        for b in a + 1..n {
            for c in b + 1..n {
                three.extend(three_digit_refills(g, solution, &where_, [a, b, c]));
            }
        }
    }
    // Unions of two-digit swaps are many; the few a layout killing their parts still admits
    // come back as the solver's second solutions.
    three.retain(|alt| !is_union_of(&differing(solution, alt), &two));
    out.extend(three);
    out.sort_by_key(|alt| differing(solution, alt).len());
    out.dedup();
    out
}

/// The cell indices where `alt` differs from `solution`.
fn differing(solution: &Grid, alt: &Grid) -> Vec<usize> {
    (0..solution.values().len())
        .filter(|&i| solution.values()[i] != alt.values()[i])
        .collect()
}

/// Is `diff` exactly a union of some of the sets in `parts`?
fn is_union_of(diff: &[usize], parts: &[Vec<usize>]) -> bool {
    let mut covered: Vec<usize> = parts
        .iter()
        .filter(|p| p.iter().all(|i| diff.binary_search(i).is_ok()))
        .flatten()
        .copied()
        .collect();
    covered.sort_unstable();
    covered.dedup();
    covered.len() == diff.len()
}

/// Digits `a + 1` and `b + 1` swapped on each linked component of their cells (one grid each; a
/// single component covering all 2N cells is the whole-grid relabelling, kept too).
fn two_digit_swaps(
    g: &Geometry,
    solution: &Grid,
    where_: &[Vec<usize>],
    a: usize,
    b: usize,
) -> Vec<Grid> {
    let cells = g.cell_count();
    let mut parent: Vec<usize> = (0..cells).collect();
    fn root(parent: &mut [usize], mut x: usize) -> usize {
        while parent[x] != x {
            parent[x] = parent[parent[x]];
            x = parent[x];
        }
        x
    }
    for (&xa, &xb) in where_[a].iter().zip(&where_[b]) {
        let (x, y) = (root(&mut parent, xa), root(&mut parent, xb));
        parent[x] = y;
    }
    let members: Vec<usize> = (0..cells)
        .filter(|&i| {
            let v = solution.values()[i] as usize;
            v == a + 1 || v == b + 1
        })
        .collect();
    let mut roots: Vec<usize> = members.iter().map(|&i| root(&mut parent, i)).collect();
    roots.sort_unstable();
    roots.dedup();
    roots
        .into_iter()
        .map(|r| {
            let mut values = solution.values().to_vec();
            for &i in &members {
                if root(&mut parent, i) == r {
                    values[i] = if values[i] as usize == a + 1 {
                        b + 1
                    } else {
                        a + 1
                    } as u8;
                }
            }
            Grid::from_values(g.size(), values).expect("a digit swap keeps the values in range")
        })
        .collect()
}

/// Every re-filling of the cells of the three digits `ds` (0-based) other than the solution's
/// own: row by row, the row's three cells get a permutation of the digits that repeats none in
/// a column or region; up to `TRIPLE_NODES` search nodes.
fn three_digit_refills(
    g: &Geometry,
    solution: &Grid,
    where_: &[Vec<usize>],
    ds: [usize; 3],
) -> Vec<Grid> {
    const PERMS: [[usize; 3]; 6] = [
        [0, 1, 2],
        [0, 2, 1],
        [1, 0, 2],
        [1, 2, 0],
        [2, 0, 1],
        [2, 1, 0],
    ];
    let n = g.size();
    // rows[r][k]: the cell of row r holding digit ds[k]; its column and region houses.
    let rows: Vec<[usize; 3]> = (0..n).map(|r| ds.map(|d| where_[d][r])).collect();
    let house = |c: usize, k: usize| g.houses_of(Cell::new(c as u8))[k].get() as usize;
    let mut used = vec![0u8; g.house_count()];
    let mut choice = vec![0usize; n];
    let mut found = Vec::new();
    let mut nodes = 0u32;
    // Iterative depth-first search over rows: choice[r] is the next permutation to try.
    let mut r = 0usize;
    loop {
        if r == n {
            if choice.iter().any(|&p| p != 1) {
                let mut values = solution.values().to_vec();
                for (row, &p) in rows.iter().zip(&choice) {
                    let perm = PERMS[p - 1];
                    for k in 0..3 {
                        values[row[k]] = ds[perm[k]] as u8 + 1;
                    }
                }
                found.push(Grid::from_values(n, values).expect("digits in range"));
            }
            r -= 1;
            undo(&rows[r], PERMS[choice[r] - 1], &mut used, house);
        }
        nodes += 1;
        if nodes > TRIPLE_NODES {
            break;
        }
        if choice[r] == PERMS.len() {
            choice[r] = 0;
            if r == 0 {
                break;
            }
            r -= 1;
            undo(&rows[r], PERMS[choice[r] - 1], &mut used, house);
            continue;
        }
        let perm = PERMS[choice[r]];
        choice[r] += 1;
        let fits = (0..3).all(|k| {
            let bit = 1u8 << perm[k];
            used[house(rows[r][k], 1)] & bit == 0 && used[house(rows[r][k], 2)] & bit == 0
        });
        if fits {
            for k in 0..3 {
                let bit = 1u8 << perm[k];
                used[house(rows[r][k], 1)] |= bit;
                used[house(rows[r][k], 2)] |= bit;
            }
            r += 1;
        }
    }
    found
}

/// Take back row `row`'s permutation `perm` from the column and region marks.
fn undo(
    row: &[usize; 3],
    perm: [usize; 3],
    used: &mut [u8],
    house: impl Fn(usize, usize) -> usize,
) {
    for k in 0..3 {
        let bit = 1u8 << perm[k];
        used[house(row[k], 1)] &= !bit;
        used[house(row[k], 2)] &= !bit;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generator::fill::random_grid;
    use rand::SeedableRng;
    use rand_pcg::Pcg64;

    /// Every grid listed is a valid grid other than the solution; the two-digit swaps of each
    /// digit pair split its 2N cells into disjoint sets (each of 4 or more cells).
    #[test]
    fn small_alternatives_are_valid_grids() {
        let g = Geometry::standard(9).unwrap();
        let solution = random_grid(&g, &mut Pcg64::seed_from_u64(7)).unwrap();
        let alts = small_alternatives(&g, &solution);
        assert!(alts.len() > 36, "{} grids", alts.len());
        for alt in &alts {
            assert!(alt.is_solved(&g) && alt != &solution);
            assert!(differing(&solution, alt).len() >= 4);
        }
        let values = solution.values();
        for (a, b) in [(1u8, 2u8), (4, 9)] {
            let mut covered = vec![0; 81];
            for alt in alts.iter().filter(|alt| {
                differing(&solution, alt)
                    .iter()
                    .all(|&i| [a, b].contains(&values[i]) && [a, b].contains(&alt.values()[i]))
            }) {
                differing(&solution, alt)
                    .iter()
                    .for_each(|&i| covered[i] += 1);
            }
            for i in 0..81 {
                let expect = usize::from([a, b].contains(&values[i]));
                assert_eq!(covered[i], expect, "cell {i}, digits {a} {b}");
            }
        }
    }

    /// A deadly rectangle (two rows, two columns, two boxes, digits a b / b a) is found as a
    /// four-cell swap.
    #[test]
    fn the_deadly_rectangle_is_a_four_cell_set() {
        let g = Geometry::standard(9).unwrap();
        // Rows 1-2 of this grid hold 1 2 / 2 1 in columns 1 and 4 (boxes 1 and 2).
        let rows = [
            "123456789",
            "456789123",
            "789123456",
            "214365897",
            "365897214",
            "897214365",
            "531642978",
            "642978531",
            "978531642",
        ];
        let values: Vec<u8> = rows.concat().bytes().map(|b| b - b'0').collect();
        let solution = Grid::from_values(9, values).unwrap();
        assert!(solution.is_solved(&g));
        let alts = small_alternatives(&g, &solution);
        assert_eq!(differing(&solution, &alts[0]).len(), 4);
        assert!(alts.iter().all(|alt| alt.is_solved(&g)));
    }
}
