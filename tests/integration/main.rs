//! The one integration test binary: runs the real CLI in temp directories, and the data-set checks.

mod book_cli;
mod checks_cli;
mod checks_robustness;
mod common;
mod data_sets;
mod export_filters;
mod export_links_cli;
mod feed_cli;
mod feed_site;
mod generate_cli;
mod grader_cli;
mod grader_soundness;
mod play_cli;
mod readme;
mod robustness;
mod solve_cli;
