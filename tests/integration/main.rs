//! The one integration test binary: runs the real CLI in temp directories, and the data-set checks.

mod common;
mod data_sets;
mod generate_cli;
mod grader_soundness;
mod solve_cli;
