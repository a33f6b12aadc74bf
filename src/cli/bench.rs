//! `sudoku-press bench` (in progress).

/// Flags of `bench`.
#[derive(clap::Args, Debug)]
pub struct Args {}

/// Run `bench`.
pub fn run(_args: Args) -> anyhow::Result<()> {
    anyhow::bail!("`bench` is not implemented yet")
}
