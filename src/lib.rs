//! sudoku-press: bulk generation of unique Killer Sudoku (and plain and jigsaw Sudoku) puzzles.
//!
//! Three floors (see README, "How it is built"): the pure core (geometry, grids, cages, the
//! solver, generator, grader and the print display lists), the library adapters (`format`,
//! `export`, `render`, `settings`, `store`, `pipeline`, `feed`), and the thin binary in `src/cli/`.
//!
//! Generate one puzzle (item 0 of seed 7) and check it with the solver:
//!
//! ```
//! use sudoku_press::generator::{generate_puzzle, GeneratorConfig, Outcome};
//! use sudoku_press::solver;
//!
//! let config = GeneratorConfig::default(); // a zero-given 9x9 killer with book-like cages
//! let Outcome::Generated(made) = generate_puzzle(&config, 7, 0) else {
//!     panic!("the default generator does not give up on 9x9")
//! };
//! assert_eq!(made.puzzle.givens().count_filled(), 0);
//! let report = solver::solve(&made.puzzle, 2);
//! assert_eq!(report.solutions, vec![made.solution]);
//! ```
#![warn(missing_docs)]

// Pure core: no files, threads or terminal.
pub mod bitset;
pub mod cage;
pub mod canonical;
pub mod check;
pub mod fingerprint;
pub mod generator;
pub mod geometry;
pub mod grader;
pub mod grid;
pub mod print;
pub mod puzzle;
pub mod shard;
pub mod solver;
pub mod transform;

#[cfg(test)]
mod test_support;

// Library adapters.
pub mod atomic_file;
pub mod export;
pub mod feed;
pub mod format;
pub mod pipeline;
pub mod play;
pub mod publish;
pub mod render;
pub mod settings;
pub mod store;

pub use cage::Cage;
pub use geometry::{Cell, Digit, Geometry, House};
pub use grid::Grid;
pub use puzzle::{Puzzle, PuzzleError};
