//! sudoku-press: bulk generation of unique Killer Sudoku (and plain and jigsaw Sudoku) puzzles.
//!
//! Three floors (see README): the pure core (`geometry` .. `rating`), the library adapters
//! (`format`, `settings`, `store`, `export`, `pipeline`), and the thin binary in `src/cli/`.

// Pure core: no files, threads or terminal.
pub mod bitset;
pub mod cage;
pub mod canonical;
pub mod check;
pub mod generator;
pub mod geometry;
pub mod grid;
pub mod puzzle;
pub mod rating;
pub mod solver;
pub mod transform;

// Library adapters.
pub mod export;
pub mod format;
pub mod pipeline;
pub mod settings;
pub mod store;

pub use cage::Cage;
pub use geometry::{Cell, Digit, Geometry, House};
pub use grid::Grid;
pub use puzzle::{Puzzle, PuzzleError};
