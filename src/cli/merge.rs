//! `sudoku-press merge`: join shard databases into one equal to the single run.

use std::path::PathBuf;
use sudoku_press::settings::{Origin, Settings};
use sudoku_press::store;

/// Flags of `merge`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The database to write (must not exist yet).
    #[arg(short, long, value_name = "ALL.db")]
    output: PathBuf,
    /// The shard databases (every shard of every run they hold).
    #[arg(required = true, value_name = "SHARD.db")]
    inputs: Vec<PathBuf>,
}

/// Run `merge`.
pub fn run(args: Args) -> anyhow::Result<()> {
    let origin = Origin::Database(args.output.clone());
    // A merged run is the whole run: its stored settings say shard 0/1, the merged database,
    // and the default thread count (not those of whichever shard came first).
    let whole = |toml: &str| match Settings::from_toml(toml, &origin) {
        Ok(mut s) => {
            s.run.shard = "0/1".into();
            s.run.db = args.output.clone();
            s.run.threads = Settings::default().run.threads;
            s.to_toml()
        }
        Err(_) => toml.to_string(),
    };
    let report = store::merge(&args.output, &args.inputs, &whole)?;
    let issued = match report.issued {
        0 => String::new(),
        n => format!(", {n} issue record(s) of the feed and books"),
    };
    eprintln!(
        "merged {} run(s) from {} database(s): {} puzzles, {} duplicates across shards skipped{issued} -> {}",
        report.runs,
        args.inputs.len(),
        report.puzzles,
        report.duplicates,
        args.output.display()
    );
    Ok(())
}
