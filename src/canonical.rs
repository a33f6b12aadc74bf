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
    use crate::geometry::{Cell, Geometry};
    use crate::grid::Grid;

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
}
