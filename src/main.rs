//! The `sudoku-press` binary: parse the command line, run one subcommand, map errors to exit codes.

mod cli;
mod signals;

use std::process::ExitCode;

fn main() -> ExitCode {
    signals::install();
    match cli::run() {
        Ok(code) => code,
        Err(err) if cli::is_broken_pipe(&err) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("error: {err:#}");
            ExitCode::from(2)
        }
    }
}
