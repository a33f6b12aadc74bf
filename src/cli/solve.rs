//! `sudoku-press solve` (in progress).

/// Flags of `solve`.
#[derive(clap::Args, Debug)]
pub struct Args {}

/// Run `solve`.
pub fn run(_args: Args) -> anyhow::Result<()> {
    anyhow::bail!("`solve` is not implemented yet")
}
