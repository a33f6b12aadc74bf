//! `sudoku-press stats` (in progress).

/// Flags of `stats`.
#[derive(clap::Args, Debug)]
pub struct Args {}

/// Run `stats`.
pub fn run(_args: Args) -> anyhow::Result<()> {
    anyhow::bail!("`stats` is not implemented yet")
}
