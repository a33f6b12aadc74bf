//! The worked examples of publishing.md §4 (made by this project: `generate --seed 7`, item 0),
//! shared by the format tests.

use crate::cage::Cage;
use crate::format::sudocue;
use crate::geometry::{Cell, Geometry};
use crate::grid::Grid;
use crate::puzzle::Puzzle;

/// K4 #1: a 4x4 zero-given killer and its solution.
pub fn k4() -> (Puzzle, Grid) {
    let cages: [(u16, &[u8]); 7] = [
        (9, &[0, 4, 8]),
        (5, &[1, 2]),
        (6, &[3, 7]),
        (4, &[5, 6]),
        (6, &[9, 12, 13]),
        (6, &[10, 14]),
        (4, &[11, 15]),
    ];
    let cages = cages
        .iter()
        .map(|(sum, cells)| Cage::new(*sum, cells.iter().map(|&i| Cell::new(i)).collect()))
        .collect();
    let puzzle = Puzzle::new(Geometry::standard(4).unwrap(), Grid::empty(4), cages).unwrap();
    let solution = digits(4, "3412213443211243");
    assert!(puzzle.is_solution(&solution));
    (puzzle, solution)
}

/// K9 #1 as the SudoCue code of publishing.md §4.5 (cage ids 0..34 in the generator's order).
pub const K9_SUDOCUE: &str = "3x3::k:3840:4609:4609:4609:4609:2818:2818:3075:3075:3840:3840:5380:5380:5380:1797:1797:1797:3846:6151:6151:6151:6151:6151:2056:2056:5897:3846:4362:4362:3083:3596:2573:2062:2319:5897:1296:2065:4362:3083:3596:2573:2062:2319:5897:1296:2065:2066:2066:3091:3091:2580:2580:5897:1301:3862:4887:4887:1560:3865:3865:2330:1051:1301:3862:3862:4887:1560:3356:3356:2330:1051:3869:2334:2334:1311:1311:2080:2080:3873:3873:3869:";

/// K9 #1: the 9x9 zero-given killer (34 cages) and its solution.
pub fn k9() -> (Puzzle, Grid) {
    let puzzle = sudocue::parse_line(K9_SUDOCUE, 1).unwrap();
    let solution = digits(
        9,
        "491623875385794126267185349934576281158932764726841953873469512619258437542317698",
    );
    assert_eq!(puzzle.cages().len(), 34);
    assert!(puzzle.is_solution(&solution));
    (puzzle, solution)
}

/// A grid from a string of digits.
pub fn digits(size: usize, text: &str) -> Grid {
    Grid::from_values(size, text.bytes().map(|b| b - b'0').collect()).unwrap()
}
