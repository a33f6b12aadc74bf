//! `sudoku-press export` (in progress).

/// Flags of `export`.
#[derive(clap::Args, Debug)]
pub struct Args {}

/// Run `export`.
pub fn run(_args: Args) -> anyhow::Result<()> {
    anyhow::bail!("`export` is not implemented yet")
}
