//! Canonical keys: one string per class of puzzles equal up to rotation, reflection and the digit
//! complement d → N+1−d, so a store can refuse duplicates with a UNIQUE column.
//!
//! The key of a puzzle is the smallest encoding among its images under [`PuzzleSymmetry::group`]
//! (16 maps for square boxes and jigsaw, 8 for non-square boxes). An encoding names everything the
//! puzzle is: `<N>|<shape>|<givens>|<cages>` where shape is `b<rows>x<cols>` or `j` plus the region
//! of every cell (regions renumbered by first appearance, one base-36 character each), givens are
//! N² characters (`.` empty, `1`-`9`, then `A`-`G` for 10-16), and cages are `<sum>=<cell>.<cell>;`
//! with cells ascending and cages ordered by first cell.

use crate::geometry::{Regions, MAX_CELLS};
use crate::puzzle::Puzzle;
use crate::transform::PuzzleSymmetry;
use std::fmt::Write;

/// The canonical key of a puzzle: equal for a puzzle and all its symmetric images, different for
/// puzzles that are not images of each other.
pub fn canonical_key(puzzle: &Puzzle) -> String {
    PuzzleSymmetry::group(puzzle.geometry())
        .into_iter()
        .map(|s| encode_image(puzzle, s))
        .min()
        .expect("the group holds the identity")
}

/// The encoding of the image of `puzzle` under `symmetry`, computed without building the image.
pub fn encode_image(puzzle: &Puzzle, symmetry: PuzzleSymmetry) -> String {
    let g = puzzle.geometry();
    let n = g.size();
    let cells = g.cell_count();
    let to = |i: usize| {
        symmetry
            .dihedral
            .map_cell(n, crate::geometry::Cell::new(i as u8))
            .as_index()
    };
    let mut key = String::with_capacity(8 + 2 * cells + 5 * puzzle.cages().len());
    write!(key, "{n}|").expect("writing to a String");
    match g.regions() {
        Regions::Boxes { rows, cols } => {
            // Non-square boxes only meet axis-keeping maps, so the shape is unchanged.
            write!(key, "b{rows}x{cols}|").expect("writing to a String");
        }
        Regions::Jigsaw(map) => {
            let mut moved = [0u8; MAX_CELLS];
            for (i, &r) in map.iter().enumerate() {
                moved[to(i)] = r;
            }
            let mut label = [u8::MAX; 16];
            let mut next = 0u8;
            key.push('j');
            for &r in &moved[..cells] {
                if label[r as usize] == u8::MAX {
                    label[r as usize] = next;
                    next += 1;
                }
                key.push(char::from_digit(label[r as usize] as u32, 36).expect("< 16"));
            }
            key.push('|');
        }
    }
    let mut givens = [0u8; MAX_CELLS];
    for (i, &v) in puzzle.givens().values().iter().enumerate() {
        givens[to(i)] = match v {
            0 => 0,
            v if symmetry.complement => n as u8 + 1 - v,
            v => v,
        };
    }
    key.extend(givens[..cells].iter().map(|&v| {
        match v {
            0 => '.',
            v => char::from_digit(v as u32, 36)
                .expect("digits <= 16")
                .to_ascii_uppercase(),
        }
    }));
    key.push('|');
    let mut cages: Vec<(Vec<usize>, u16)> = puzzle
        .cages()
        .iter()
        .map(|cage| {
            let image = symmetry.map_cage(n, cage);
            let mut cells: Vec<usize> = image.cells.iter().map(|c| c.as_index()).collect();
            cells.sort_unstable();
            (cells, image.sum)
        })
        .collect();
    cages.sort_unstable();
    for (cells, sum) in cages {
        write!(key, "{sum}=").expect("writing to a String");
        for (k, c) in cells.iter().enumerate() {
            let sep = if k + 1 == cells.len() { ';' } else { '.' };
            write!(key, "{c}{sep}").expect("writing to a String");
        }
    }
    key
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cage::Cage;
    use crate::generator::Variant;
    use crate::generator::{generate_puzzle, Generated, GeneratorConfig, GivensPolicy, Outcome};
    use crate::geometry::{Cell, Geometry};
    use crate::grid::Grid;
    use proptest::prelude::*;

    fn sample() -> Puzzle {
        let g = Geometry::standard(4).unwrap();
        let givens = Grid::from_values(4, vec![1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
        let cage = Cage::new(7, vec![Cell::new(1), Cell::new(2)]);
        Puzzle::new(g, givens.unwrap(), vec![cage]).unwrap()
    }

    #[test]
    fn encoding_names_every_part() {
        let key = encode_image(
            &sample(),
            PuzzleSymmetry {
                dihedral: crate::transform::Dihedral::Identity,
                complement: false,
            },
        );
        assert_eq!(key, "4|b2x2|1...............|7=1.2;");
    }

    #[test]
    fn key_matches_the_built_image_and_is_invariant() {
        let p = sample();
        let key = canonical_key(&p);
        for s in PuzzleSymmetry::group(p.geometry()) {
            assert_eq!(encode_image(&p, s), encode_image(&s.apply(&p), id()));
            assert_eq!(canonical_key(&s.apply(&p)), key);
        }
    }

    fn id() -> PuzzleSymmetry {
        PuzzleSymmetry {
            dihedral: crate::transform::Dihedral::Identity,
            complement: false,
        }
    }

    /// Generator settings covering every geometry kind: square and non-square boxes, jigsaw,
    /// with cages or givens or both.
    fn configs() -> Vec<GeneratorConfig> {
        let c = |variant, size, givens| GeneratorConfig {
            variant,
            size,
            givens,
            ..GeneratorConfig::default()
        };
        vec![
            c(Variant::Killer, 4, GivensPolicy::Zero),
            c(Variant::Killer, 6, GivensPolicy::Zero),
            c(Variant::Killer, 6, GivensPolicy::Minimal),
            c(Variant::Classic, 6, GivensPolicy::Zero),
            c(Variant::Jigsaw, 5, GivensPolicy::Zero),
            c(Variant::KillerJigsaw, 6, GivensPolicy::Zero),
            c(Variant::Killer, 9, GivensPolicy::Zero),
        ]
    }

    fn generated(which: usize, seed: u64, index: u64) -> Option<Generated> {
        match generate_puzzle(&configs()[which], seed, index) {
            Outcome::Generated(g) => Some(g),
            Outcome::Rejected(_) => None,
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(48))]

        #[test]
        fn key_is_invariant_under_every_symmetry(
            which in 0usize..7, seed in any::<u64>(), index in 0u64..1000,
        ) {
            let Some(g) = generated(which, seed, index) else { return Ok(()) };
            let key = canonical_key(&g.puzzle);
            let group = PuzzleSymmetry::group(g.puzzle.geometry());
            prop_assert!(group.len() == 8 || group.len() == 16);
            for s in group {
                let image = s.apply(&g.puzzle);
                prop_assert_eq!(canonical_key(&image), key.clone());
                prop_assert_eq!(encode_image(&g.puzzle, s), encode_image(&image, id()));
            }
        }

        #[test]
        fn keys_differ_exactly_between_different_orbits(
            which in 0usize..7, seed in any::<u64>(), index in 0u64..1000,
        ) {
            let Some(a) = generated(which, seed, index) else { return Ok(()) };
            let Some(b) = generated(which, seed, index + 1) else { return Ok(()) };
            let orbit: Vec<String> = PuzzleSymmetry::group(a.puzzle.geometry())
                .into_iter()
                .map(|s| encode_image(&a.puzzle, s))
                .collect();
            let same_orbit = orbit.contains(&encode_image(&b.puzzle, id()));
            prop_assert_eq!(canonical_key(&a.puzzle) == canonical_key(&b.puzzle), same_orbit);
            // A one-cell change (a given added) always leaves the orbit.
            let cell = Cell::new((seed % a.puzzle.geometry().cell_count() as u64) as u8);
            if a.puzzle.givens().get(cell).is_none() {
                let mut givens = a.puzzle.givens().clone();
                givens.set(cell, a.solution.get(cell));
                let g = a.puzzle.geometry().clone();
                let more = Puzzle::new(g, givens, a.puzzle.cages().to_vec()).unwrap();
                prop_assert_ne!(canonical_key(&more), canonical_key(&a.puzzle));
            }
        }
    }

    #[test]
    fn a_batch_has_as_many_keys_as_orbits() {
        // Minimal 4x4 puzzles: few enough up to symmetry that a batch repeats orbits.
        let config = GeneratorConfig {
            variant: Variant::Classic,
            size: 4,
            ..GeneratorConfig::default()
        };
        let puzzles: Vec<Puzzle> = (0..60)
            .filter_map(|i| match generate_puzzle(&config, 77, i) {
                Outcome::Generated(g) => Some(g.puzzle),
                Outcome::Rejected(_) => None,
            })
            .collect();
        let mut keys: Vec<String> = puzzles.iter().map(canonical_key).collect();
        keys.sort();
        keys.dedup();
        // Orbits by plain comparison of the images (cages in sorted order).
        let plain = |p: &Puzzle| {
            let mut cages = p.cages().to_vec();
            cages.sort();
            (p.givens().clone(), cages)
        };
        let mut orbits: Vec<Puzzle> = Vec::new();
        for p in &puzzles {
            let group = PuzzleSymmetry::group(p.geometry());
            if !orbits
                .iter()
                .any(|q| group.iter().any(|s| plain(&s.apply(p)) == plain(q)))
            {
                orbits.push(p.clone());
            }
        }
        assert!(
            orbits.len() < puzzles.len(),
            "4x4 batches repeat some orbit"
        );
        assert_eq!(keys.len(), orbits.len());
    }
}
