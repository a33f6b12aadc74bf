//! The edits the sparse merge-down search tries on a unique layout: two touching cages merged
//! (evicting a shared-digit cell where needed), one cage dissolved into its neighbours, or one
//! cell shifted out of a cage; each returns whole layouts with their new cages' sums.

use crate::cage::Cage;
use crate::generator::cage_layout::CageLayout;
use crate::geometry::{Cell, Geometry};
use crate::grid::Grid;
use rand::Rng;

/// Random ways each cage is tried dissolved into its neighbours.
const DISSOLVE_DRAWS: usize = 2;

/// Layouts with the same cages but one cell moved out of a cage of three or more (that stays
/// connected) into a touching cage lacking its digit, each with the source cage's size.
pub(super) fn shifts(
    g: &Geometry,
    cages: &[Cage],
    solution: &Grid,
    max_size: usize,
) -> Vec<(usize, Vec<Cage>)> {
    let layout = CageLayout::from_cages(g.cell_count(), cages, solution);
    let mut out = Vec::new();
    for (a, cage) in cages.iter().enumerate().filter(|(_, c)| c.len() >= 3) {
        for &x in &cage.cells {
            let rest: Vec<Cell> = cage.cells.iter().copied().filter(|&y| y != x).collect();
            if !g.is_connected(&rest) {
                continue;
            }
            for k in homes(g, &layout, solution, x, max_size, &[]) {
                let mut home = cages[k].cells.clone();
                home.push(x);
                out.push((
                    cage.len(),
                    replaced(cages, &[a, k], vec![rest.clone(), home]),
                ));
            }
        }
    }
    let (lens, next): (Vec<usize>, Vec<_>) = out.into_iter().unzip();
    lens.into_iter()
        .zip(with_sums(next, solution))
        .map(|(len, (_, cages))| (len, cages))
        .collect()
}

/// Layouts with one cage fewer: cage `a` dissolved into its neighbours, each of its cells
/// joining a touching cage (or one its earlier cells joined) that lacks the cell's digit and has
/// room; `DISSOLVE_DRAWS` random ways per cage. Each comes with the index of the first changed
/// cage (the changed ones are last).
pub(super) fn dissolutions<R: Rng>(
    g: &Geometry,
    cages: &[Cage],
    solution: &Grid,
    max_size: usize,
    rng: &mut R,
) -> Vec<(usize, Vec<Cage>)> {
    let digit = |c: Cell| solution.get(c).expect("complete solution");
    let start = CageLayout::from_cages(g.cell_count(), cages, solution);
    let mut out = Vec::new();
    for a in 0..cages.len() {
        for _ in 0..DISSOLVE_DRAWS {
            let mut layout = start.clone();
            // The cages that took cells, in the order they first did.
            let mut grown: Vec<usize> = Vec::new();
            let mut left = cages[a].cells.clone();
            while !left.is_empty() {
                let mut options = Vec::new();
                for (xi, &x) in left.iter().enumerate() {
                    for k in g.neighbours(x).filter_map(|y| layout.cage_of(y)) {
                        if k != a
                            && !options.contains(&(xi, k))
                            && layout.accepts(k, digit(x), max_size)
                        {
                            options.push((xi, k));
                        }
                    }
                }
                let Some(&(xi, k)) = options.get(rng.random_range(0..options.len().max(1))) else {
                    break;
                };
                let x = left.swap_remove(xi);
                layout.release(x, digit(x));
                layout.push(k, x, digit(x));
                if !grown.contains(&k) {
                    grown.push(k);
                }
            }
            if left.is_empty() {
                let mut drop = grown.clone();
                drop.push(a);
                out.push(replaced(
                    cages,
                    &drop,
                    grown.iter().map(|&k| layout.cells(k).to_vec()).collect(),
                ));
            }
        }
    }
    with_sums(out, solution)
}

/// Layouts with one cage fewer: two touching cages merged where their digits differ; where they
/// share one digit, the cell of the second cage holding it moves first into another touching
/// cage that lacks the digit (an eviction), if both cages stay connected. Each comes with the
/// index of the merged cage.
pub(super) fn merge_candidates(
    g: &Geometry,
    cages: &[Cage],
    solution: &Grid,
    max_size: usize,
) -> Vec<(usize, Vec<Cage>)> {
    let digit = |c: Cell| solution.get(c).expect("complete solution");
    let layout = CageLayout::from_cages(g.cell_count(), cages, solution);
    let mut out = Vec::new();
    for (i, cage) in cages.iter().enumerate() {
        let mut seen = Vec::new();
        for &c in &cage.cells {
            for j in g.neighbours(c).filter_map(|nb| layout.cage_of(nb)) {
                if j == i || seen.contains(&j) {
                    continue;
                }
                seen.push(j);
                let shared = layout.digits(i).intersection(layout.digits(j));
                if shared.is_empty() {
                    if i < j && cage.len() + cages[j].len() <= max_size {
                        let mut cells = cage.cells.clone();
                        cells.extend_from_slice(&cages[j].cells);
                        out.push(replaced(cages, &[i, j], vec![cells]));
                    }
                    continue;
                }
                if shared.len() != 1 || cage.len() + cages[j].len() > max_size + 1 {
                    continue;
                }
                // Evict j's cell x holding the shared digit into a third cage k.
                let Some(&x) = cages[j].cells.iter().find(|&&x| shared.contains(digit(x))) else {
                    continue;
                };
                let rest: Vec<Cell> = cages[j].cells.iter().copied().filter(|&y| y != x).collect();
                let mut cells = cage.cells.clone();
                cells.extend_from_slice(&rest);
                if rest.is_empty() || !g.is_connected(&cells) {
                    continue;
                }
                for k in homes(g, &layout, solution, x, max_size, &[i]) {
                    let mut home = cages[k].cells.clone();
                    home.push(x);
                    out.push(replaced(cages, &[i, j, k], vec![cells.clone(), home]));
                }
            }
        }
    }
    with_sums(out, solution)
}

/// The cages next to `x` (not its own, nor those of `skip`; each once, in neighbour order) that
/// could take it: below `max_size` and lacking its digit.
fn homes(
    g: &Geometry,
    layout: &CageLayout,
    solution: &Grid,
    x: Cell,
    max_size: usize,
    skip: &[usize],
) -> Vec<usize> {
    let digit = solution.get(x).expect("complete solution");
    let own = layout.cage_of(x);
    let mut found = Vec::new();
    for k in g.neighbours(x).filter_map(|y| layout.cage_of(y)) {
        if Some(k) != own
            && !skip.contains(&k)
            && !found.contains(&k)
            && layout.accepts(k, digit, max_size)
        {
            found.push(k);
        }
    }
    found
}

/// The new cages' sums read from `solution` (their cells sorted).
fn with_sums(out: Vec<(usize, Vec<Cage>)>, solution: &Grid) -> Vec<(usize, Vec<Cage>)> {
    let sum = |cells: &[Cell]| {
        cells
            .iter()
            .map(|&c| solution.get(c).expect("complete solution").get() as u16)
            .sum::<u16>()
    };
    out.into_iter()
        .map(|(at, next)| {
            let next = next
                .into_iter()
                .map(|c| {
                    let mut cells = c.cells;
                    cells.sort_unstable();
                    Cage::new(sum(&cells), cells)
                })
                .collect();
            (at, next)
        })
        .collect()
}

/// `cages` without those at `drop`, then `new` (as cells; sums filled in later); returns the
/// index of the first new cage.
fn replaced(cages: &[Cage], drop: &[usize], new: Vec<Vec<Cell>>) -> (usize, Vec<Cage>) {
    let mut next: Vec<Cage> = cages
        .iter()
        .enumerate()
        .filter(|(k, _)| !drop.contains(k))
        .map(|(_, c)| c.clone())
        .collect();
    let at = next.len();
    next.extend(new.into_iter().map(|cells| Cage::new(0, cells)));
    (at, next)
}
