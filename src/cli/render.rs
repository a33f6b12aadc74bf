//! `sudoku-press render`: one SVG per puzzle (and per solution) for web pages, drawn by the same
//! code as the books, or (`--format html`) one self-contained playable page per puzzle.

use super::book::{finish_output, start_output};
use super::export::{note_empty, Selection};
use anyhow::{bail, Context};
use std::path::PathBuf;
use sudoku_press::play::write_store_pages;
use sudoku_press::print::puzzle_picture;
use sudoku_press::render::to_svg;
use sudoku_press::store::{Store, StoredPuzzle};

/// Flags of `render`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The database to read.
    #[arg(long, default_value = "output/puzzles.db")]
    db: PathBuf,
    /// Output format: svg (a picture) or html (a playable page with hints and how it was made).
    #[arg(long, visible_alias = "to", value_parser = ["svg", "html"], default_value = "svg")]
    format: String,
    /// Also write each solution as ID-solution.svg (svg only).
    #[arg(long)]
    solution: bool,
    /// Shade cages with four light tones.
    #[arg(long)]
    shade: bool,
    /// Cell side in SVG units (points).
    #[arg(long, default_value_t = 40.0)]
    cell: f32,
    /// The puzzle ids (or select with --ids, --variant, --size, --level, --limit).
    #[arg(value_name = "ID")]
    ids: Vec<i64>,
    /// Which puzzles, as for `export`.
    #[command(flatten)]
    selection: Selection,
    /// The directory to write ID.svg (or ID.html) files into (created if missing).
    #[arg(short, long, value_name = "DIR")]
    output: PathBuf,
}

/// Run `render`.
pub fn run(args: Args) -> anyhow::Result<()> {
    if args.ids.is_empty() && args.selection.is_empty() {
        bail!("name the puzzles to render: ids (render 3 17 -o DIR), or --ids, --variant, --size, --level, --limit (render --level hard --limit 5 -o DIR)");
    }
    if args.format == "html" {
        return run_html(&args);
    }
    if !(10.0..=200.0).contains(&args.cell) {
        bail!("--cell {}: use a cell side from 10 to 200", args.cell);
    }
    let store = Store::open_read_only(&args.db)?;
    let puzzles = select(&store, &args)?;
    let mut files = Vec::new();
    for p in &puzzles {
        let picture = puzzle_picture(&p.puzzle, None, args.cell, args.shade);
        files.push((format!("{}.svg", p.id), to_svg(&picture)));
        if args.solution {
            let picture = puzzle_picture(&p.puzzle, Some(&p.solution), args.cell, false);
            files.push((format!("{}-solution.svg", p.id), to_svg(&picture)));
        }
    }
    std::fs::create_dir_all(&args.output).with_context(|| {
        format!(
            "{}: cannot create the output directory",
            args.output.display()
        )
    })?;
    for (name, text) in &files {
        let path = args.output.join(name);
        finish_output(start_output(&path, &args.db)?, text.as_bytes())?;
    }
    let plural = if files.len() == 1 { "" } else { "s" };
    eprintln!(
        "wrote {} SVG file{plural} into {}",
        files.len(),
        args.output.display()
    );
    Ok(())
}

/// `render --format html`: the pages are made by the library, all or nothing.
fn run_html(args: &Args) -> anyhow::Result<()> {
    if args.solution || args.shade {
        bail!("--solution and --shade apply to --format svg; the html page holds the solution and draws its own cages");
    }
    let ids: Vec<i64> = select(&Store::open_read_only(&args.db)?, args)?
        .iter()
        .map(|p| p.id)
        .collect();
    let written = write_store_pages(&args.db, &ids, &args.output)?;
    let plural = if written.len() == 1 { "" } else { "s" };
    eprintln!(
        "wrote {} HTML page{plural} into {}",
        written.len(),
        args.output.display()
    );
    Ok(())
}

/// The selected puzzles (positional ids after `--ids`); nothing is written when an id or a
/// filter value is unknown.
fn select(store: &Store, args: &Args) -> anyhow::Result<Vec<StoredPuzzle>> {
    let query = args.selection.to_query(&args.ids);
    let puzzles = store
        .select(&query, &Default::default())
        .map_err(|e| anyhow::anyhow!("{e}; nothing was written"))?;
    note_empty(store, &query, puzzles.len() as u64)?;
    Ok(puzzles)
}
