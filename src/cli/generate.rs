//! `sudoku-press generate` (in progress).

/// Flags of `generate`.
#[derive(clap::Args, Debug)]
pub struct Args {}

/// Run `generate`.
pub fn run(_args: Args) -> anyhow::Result<()> {
    anyhow::bail!("`generate` is not implemented yet")
}
