//! Cage shading: a colouring of the cages with at most four tones, no two touching cages alike.
//!
//! Cages are connected groups of cells that touch along edges, so their adjacency graph is planar
//! and four colours always suffice (the four colour theorem). DSatur (Brélaz 1979: colour next the
//! cage whose neighbours already use the most colours) finds a 4-colouring almost always; where it
//! would need a fifth, the same order is searched exhaustively with backtracking, which then
//! always succeeds because a 4-colouring exists. The one colouring of the cage graph: the books'
//! shading and SudokuWiki's cage colours (`format::sudokuwiki`) both use it.

use crate::puzzle::Puzzle;

/// Number of tones: white and three light greys.
pub const TONES: usize = 4;

/// Tones tried before the search gives up; planar cage maps never come near it.
const BUDGET: u32 = 1_000_000;

/// A tone `0..TONES` for each cage of `puzzle` (indices of `puzzle.cages()`), touching cages
/// apart; `None` only if the search runs out of its budget, which planar cage maps do not reach.
pub fn cage_colours(puzzle: &Puzzle) -> Option<Vec<u8>> {
    four_colour(&cage_neighbours(puzzle))
}

/// [`cage_colours`] for drawing: should the search ever give up, a greedy colouring (which may
/// use a fifth tone) rather than a failed book.
pub fn cage_tones(puzzle: &Puzzle) -> Vec<u8> {
    let adj = cage_neighbours(puzzle);
    four_colour(&adj).unwrap_or_else(|| {
        let mut colour = vec![u8::MAX; adj.len()];
        for v in 0..adj.len() {
            colour[v] = (0..u8::MAX)
                .find(|&c| adj[v].iter().all(|&w| colour[w] != c))
                .unwrap_or(0);
        }
        colour
    })
}

/// The cages that share an edge with each cage (indices into `puzzle.cages()`, ascending).
pub fn cage_neighbours(puzzle: &Puzzle) -> Vec<Vec<usize>> {
    let g = puzzle.geometry();
    let n = g.size();
    let mut owner = vec![usize::MAX; g.cell_count()];
    for (k, cage) in puzzle.cages().iter().enumerate() {
        for cell in &cage.cells {
            owner[cell.as_index()] = k;
        }
    }
    let mut adj = vec![Vec::new(); puzzle.cages().len()];
    let mut link = |a: usize, b: usize| {
        if a != b && a != usize::MAX && b != usize::MAX && !adj[a].contains(&b) {
            adj[a].push(b);
            adj[b].push(a);
        }
    };
    for i in 0..n * n {
        if i % n + 1 < n {
            link(owner[i], owner[i + 1]);
        }
        if i + n < n * n {
            link(owner[i], owner[i + n]);
        }
    }
    for list in &mut adj {
        list.sort_unstable();
    }
    adj
}

/// A tone `0..TONES` for each vertex of a planar graph such that neighbours differ, or `None`
/// if `BUDGET` tones were tried first. Deterministic: the same graph always gets the same colours.
pub fn four_colour(adj: &[Vec<usize>]) -> Option<Vec<u8>> {
    let mut colour = vec![u8::MAX; adj.len()];
    let mut budget = BUDGET;
    search(adj, &mut colour, adj.len(), &mut budget).then_some(colour)
}

/// DSatur with backtracking: colour the most constrained uncoloured vertex (most distinct
/// neighbour tones, then most neighbours, then the lowest index) with each free tone in turn.
/// `left` is the number of uncoloured vertices; each tone tried spends one of `budget`.
fn search(adj: &[Vec<usize>], colour: &mut [u8], left: usize, budget: &mut u32) -> bool {
    if left == 0 {
        return true;
    }
    let used = |v: usize, colour: &[u8]| -> u8 {
        adj[v]
            .iter()
            .filter(|&&w| colour[w] != u8::MAX)
            .fold(0u8, |m, &w| m | 1 << colour[w])
    };
    let next = (0..adj.len())
        .filter(|&v| colour[v] == u8::MAX)
        .max_by_key(|&v| {
            (
                used(v, colour).count_ones(),
                adj[v].len(),
                std::cmp::Reverse(v),
            )
        })
        .expect("left > 0 uncoloured vertices");
    let taken = used(next, colour);
    for tone in 0..TONES as u8 {
        if taken & (1 << tone) == 0 {
            if *budget == 0 {
                return false;
            }
            *budget -= 1;
            colour[next] = tone;
            if search(adj, colour, left - 1, budget) {
                return true;
            }
        }
    }
    colour[next] = u8::MAX;
    false
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generator::{generate_puzzle, GeneratorConfig, Outcome};

    fn assert_proper(adj: &[Vec<usize>], colour: &[u8]) {
        for (v, list) in adj.iter().enumerate() {
            assert!(
                (colour[v] as usize) < TONES,
                "vertex {v} has tone {}",
                colour[v]
            );
            for &w in list {
                assert_ne!(
                    colour[v], colour[w],
                    "touching cages {v} and {w} share a tone"
                );
            }
        }
    }

    #[test]
    fn generated_killers_get_four_tones_with_touching_cages_apart() {
        for (size, seed) in [(9u8, 7), (9, 8), (6, 7), (4, 7), (9, 11)] {
            let config = GeneratorConfig {
                size,
                ..GeneratorConfig::default()
            };
            for index in 0..4 {
                let Outcome::Generated(made) = generate_puzzle(&config, seed, index) else {
                    continue;
                };
                let adj = cage_neighbours(&made.puzzle);
                assert!(adj.iter().any(|l| !l.is_empty()));
                assert_proper(&adj, &four_colour(&adj).unwrap());
                assert_eq!(cage_tones(&made.puzzle), four_colour(&adj).unwrap());
            }
        }
    }

    #[test]
    fn a_wheel_that_greedy_colouring_gets_wrong_still_gets_four() {
        // Wheel W5 (hub + odd rim) needs exactly four colours.
        let adj = vec![
            vec![1, 2, 3, 4, 5],
            vec![0, 2, 5],
            vec![0, 1, 3],
            vec![0, 2, 4],
            vec![0, 3, 5],
            vec![0, 1, 4],
        ];
        let colour = four_colour(&adj).unwrap();
        assert_proper(&adj, &colour);
        assert_eq!(colour.iter().copied().max(), Some(3));
    }

    #[test]
    fn random_planar_grid_maps_are_four_coloured() {
        // Maps of random rectangles-and-blobs on a 12x12 grid: adjacency of random region growth.
        use rand::{Rng, SeedableRng};
        for seed in 0..30u64 {
            let mut rng = rand_pcg::Pcg64::seed_from_u64(seed);
            let n = 12usize;
            let mut owner = vec![usize::MAX; n * n];
            let mut regions = 0;
            for start in 0..n * n {
                if owner[start] != usize::MAX {
                    continue;
                }
                owner[start] = regions;
                let mut frontier = vec![start];
                let target = rng.random_range(1..6);
                let mut grown = 1;
                while let Some(cell) = frontier.pop() {
                    for next in [cell + 1, cell + n] {
                        if grown < target
                            && next < n * n
                            && (next != cell + 1 || next % n != 0)
                            && owner[next] == usize::MAX
                        {
                            owner[next] = regions;
                            grown += 1;
                            frontier.push(next);
                        }
                    }
                }
                regions += 1;
            }
            let mut adj = vec![Vec::new(); regions];
            for i in 0..n * n {
                for j in [i + 1, i + n] {
                    if j < n * n
                        && (j != i + 1 || j % n != 0)
                        && owner[i] != owner[j]
                        && !adj[owner[i]].contains(&owner[j])
                    {
                        adj[owner[i]].push(owner[j]);
                        adj[owner[j]].push(owner[i]);
                    }
                }
            }
            assert_proper(&adj, &four_colour(&adj).unwrap());
        }
    }
}
