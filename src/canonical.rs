//! Canonical keys: one string per class of puzzles equal up to rotation, reflection and the digit
//! complement d → N+1−d, so a store can refuse duplicates with a UNIQUE column.
//!
//! The key of a puzzle is the encoding of its least image under [`PuzzleSymmetry::group`] (16 maps
//! for square boxes and jigsaw, 8 for non-square boxes), images being compared by a compact code:
//! region labels, givens, cage labels (each by first appearance in cell order) and cage sums. An
//! encoding names everything the puzzle is: `<N>|<shape>|<givens>|<cages>` where shape is `b<rows>x<cols>` or `j` plus the region
//! of every cell (regions renumbered by first appearance, one base-36 character each), givens are
//! N² characters (`.` empty, `1`-`9`, then `A`-`G` for 10-16), and cages are `<sum>=<cell>.<cell>;`
//! with cells ascending and cages ordered by first cell.

use crate::geometry::{Cell, Regions, MAX_CELLS};
use crate::puzzle::Puzzle;
use crate::transform::PuzzleSymmetry;
use std::fmt::Write;

/// The canonical key of a puzzle: equal for a puzzle and all its symmetric images, different for
/// puzzles that are not images of each other.
pub fn canonical_key(puzzle: &Puzzle) -> String {
    let cage_of = cage_index(puzzle);
    let least = PuzzleSymmetry::group(puzzle.geometry())
        .into_iter()
        .map(|s| image_code(puzzle, &cage_of, s))
        .min()
        .expect("the group holds the identity");
    encode(puzzle, &least)
}

/// A compact code of the image of `puzzle` under `symmetry` (`cage_of`: the cage index of every
/// cell, `u16::MAX` if uncaged): equal codes mean equal images. One pass over the image's cells
/// in order, reading each from its source cell.
fn image_code(puzzle: &Puzzle, cage_of: &[u16; MAX_CELLS], symmetry: PuzzleSymmetry) -> Vec<u16> {
    let g = puzzle.geometry();
    let (n, cells) = (g.size(), g.cell_count());
    let back = symmetry.dihedral.inverse();
    let jigsaw = g.is_jigsaw();
    let mut code = vec![u16::MAX; 3 * cells + puzzle.cages().len()];
    let (regions, rest) = code.split_at_mut(cells);
    let (givens, rest) = rest.split_at_mut(cells);
    let (labels, sums) = rest.split_at_mut(cells);
    let mut region_label = [u16::MAX; MAX_CELLS];
    let mut cage_label = [u16::MAX; MAX_CELLS];
    let (mut next_region, mut next_cage) = (0, 0);
    for j in 0..cells {
        let i = back.map_cell(n, Cell::new(j as u8)).as_index();
        if jigsaw {
            // Boxes look the same in every image of the group: only jigsaw regions need labels.
            let r = g.region_map()[i] as usize;
            if region_label[r] == u16::MAX {
                region_label[r] = next_region;
                next_region += 1;
            }
            regions[j] = region_label[r];
        }
        givens[j] = match puzzle.givens().values()[i] {
            v if v != 0 && symmetry.complement => (n as u8 + 1 - v) as u16,
            v => v as u16,
        };
        let c = cage_of[i];
        if c != u16::MAX {
            if cage_label[c as usize] == u16::MAX {
                cage_label[c as usize] = next_cage;
                let cage = &puzzle.cages()[c as usize];
                sums[next_cage as usize] = if symmetry.complement {
                    cage.len() as u16 * (n as u16 + 1) - cage.sum
                } else {
                    cage.sum
                };
                next_cage += 1;
            }
            labels[j] = cage_label[c as usize];
        }
    }
    code
}

/// The encoding of the image of `puzzle` under `symmetry`, computed without building the image.
pub fn encode_image(puzzle: &Puzzle, symmetry: PuzzleSymmetry) -> String {
    encode(puzzle, &image_code(puzzle, &cage_index(puzzle), symmetry))
}

/// The cage index of every cell, `u16::MAX` if uncaged.
fn cage_index(puzzle: &Puzzle) -> [u16; MAX_CELLS] {
    let mut cage_of = [u16::MAX; MAX_CELLS];
    for (k, cage) in puzzle.cages().iter().enumerate() {
        cage.cells
            .iter()
            .for_each(|c| cage_of[c.as_index()] = k as u16);
    }
    cage_of
}

/// The text form of an image's code (see the module documentation).
fn encode(puzzle: &Puzzle, code: &[u16]) -> String {
    let g = puzzle.geometry();
    let (n, cells) = (g.size(), g.cell_count());
    let (regions, rest) = code.split_at(cells);
    let (givens, rest) = rest.split_at(cells);
    let (labels, sums) = rest.split_at(cells);
    let digit = |v: u16| {
        char::from_digit(v as u32, 36)
            .expect("below 36")
            .to_ascii_uppercase()
    };
    let mut key = String::with_capacity(16 + 2 * cells + 4 * cells + 3 * sums.len());
    write!(key, "{n}|").expect("writing to a String");
    match g.regions() {
        Regions::Boxes { rows, cols } => {
            // Non-square boxes only meet axis-keeping maps, so the shape is unchanged.
            write!(key, "b{rows}x{cols}|").expect("writing to a String");
        }
        Regions::Jigsaw(_) => {
            key.push('j');
            key.extend(regions.iter().map(|&r| digit(r).to_ascii_lowercase()));
            key.push('|');
        }
    }
    key.extend(givens.iter().map(|&v| if v == 0 { '.' } else { digit(v) }));
    key.push('|');
    // Cells of each cage in ascending order, cages in label (= first cell) order.
    let mut start = vec![0usize; sums.len() + 1];
    labels
        .iter()
        .filter(|&&l| l != u16::MAX)
        .for_each(|&l| start[l as usize + 1] += 1);
    for k in 1..start.len() {
        start[k] += start[k - 1];
    }
    let mut members = vec![0usize; start[sums.len()]];
    let mut fill = start.clone();
    for (j, &l) in labels.iter().enumerate().filter(|(_, &l)| l != u16::MAX) {
        members[fill[l as usize]] = j;
        fill[l as usize] += 1;
    }
    for (k, sum) in sums.iter().enumerate() {
        write!(key, "{sum}=").expect("writing to a String");
        let cage = &members[start[k]..start[k + 1]];
        for (m, c) in cage.iter().enumerate() {
            let sep = if m + 1 == cage.len() { ';' } else { '.' };
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
