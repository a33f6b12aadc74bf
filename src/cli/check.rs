//! `sudoku-press check` (in progress).

/// Flags of `check`.
#[derive(clap::Args, Debug)]
pub struct Args {}

/// Run `check`.
pub fn run(_args: Args) -> anyhow::Result<()> {
    anyhow::bail!("`check` is not implemented yet")
}
