//! A deliberately plain exhaustive search: cells in index order, every rule checked on placement.
//! It is the test oracle for the fast solver (small grids only), never used in production.

use crate::geometry::{Cell, Digit};
use crate::grid::Grid;
use crate::puzzle::Puzzle;

/// Up to `limit` solutions of `puzzle`, found by plain backtracking in cell order.
pub fn brute_force_solutions(puzzle: &Puzzle, limit: usize) -> Vec<Grid> {
    let mut cage_of = vec![usize::MAX; puzzle.geometry().cell_count()];
    for (i, cage) in puzzle.cages().iter().enumerate() {
        for &c in &cage.cells {
            cage_of[c.as_index()] = i;
        }
    }
    let mut grid = puzzle.givens().clone();
    let mut found = Vec::new();
    if limit > 0 {
        search(puzzle, &cage_of, &mut grid, 0, limit, &mut found);
    }
    found
}

fn search(
    puzzle: &Puzzle,
    cage_of: &[usize],
    grid: &mut Grid,
    from: usize,
    limit: usize,
    found: &mut Vec<Grid>,
) {
    let n = puzzle.geometry().cell_count();
    let Some(index) = (from..n).find(|&i| grid.values()[i] == 0) else {
        if puzzle.is_solution(grid) {
            found.push(grid.clone());
        }
        return;
    };
    let cell = Cell::new(index as u8);
    for v in 1..=puzzle.size() {
        let d = Digit::new(v as u8);
        if allowed(puzzle, cage_of, grid, cell, d) {
            grid.set(cell, Some(d));
            search(puzzle, cage_of, grid, index + 1, limit, found);
            grid.set(cell, None);
            if found.len() >= limit {
                return;
            }
        }
    }
}

fn allowed(puzzle: &Puzzle, cage_of: &[usize], grid: &Grid, cell: Cell, d: Digit) -> bool {
    let g = puzzle.geometry();
    let [row, col, region] = g.houses_of(cell);
    let clash = g.cells().any(|o| {
        o != cell && grid.get(o) == Some(d) && {
            let h = g.houses_of(o);
            h[0] == row || h[1] == col || h[2] == region
        }
    });
    if clash {
        return false;
    }
    let Some(cage) = puzzle.cages().get(cage_of[cell.as_index()]) else {
        return true;
    };
    let mut total = d.get() as usize;
    let mut empty = 0;
    for &o in cage.cells.iter().filter(|&&o| o != cell) {
        match grid.get(o) {
            Some(x) if x == d => return false,
            Some(x) => total += x.get() as usize,
            None => empty += 1,
        }
    }
    if empty == 0 {
        total == cage.sum as usize
    } else {
        total + empty <= cage.sum as usize
    }
}
