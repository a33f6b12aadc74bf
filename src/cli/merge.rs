//! `sudoku-press merge` (in progress).

/// Flags of `merge`.
#[derive(clap::Args, Debug)]
pub struct Args {}

/// Run `merge`.
pub fn run(_args: Args) -> anyhow::Result<()> {
    anyhow::bail!("`merge` is not implemented yet")
}
