//! `sudoku-press stats`: counts per variant and level, how far they are from the default level
//! mix, cage statistics and generation rate.

use std::io::Write;
use std::path::PathBuf;
use sudoku_press::generator::mix::MixGap;
use sudoku_press::grader::Level;
use sudoku_press::settings;
use sudoku_press::store::{RunState, Store, Summary, VariantCount};

/// Flags of `stats`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The database to summarize.
    #[arg(long, default_value = "output/puzzles.db")]
    db: PathBuf,
}

/// Run `stats`.
pub fn run(args: Args) -> anyhow::Result<()> {
    let store = Store::open_read_only(&args.db)?;
    let s = store.summary()?;
    // Written, not printed: a closed pipe (`stats | head -1`) is an error to end on, not a panic.
    let mut out = std::io::stdout().lock();
    write!(out, "{}", render(&args.db, &s))?;
    write!(out, "{}", render_runs(&store.runs()?))?;
    out.flush()?;
    let problems = store.record_problems()?;
    for p in &problems {
        eprintln!("warning: {}: {p}", args.db.display());
    }
    if !problems.is_empty() {
        eprintln!(
            "run `sudoku-press verify --db {}` for a full check",
            args.db.display()
        );
    }
    Ok(())
}

/// One line per run: its seed, shard, and whether it is complete.
fn render_runs(runs: &[RunState]) -> String {
    let mut out = String::from("\nruns:\n");
    for r in runs {
        let positions = r.shard.positions(r.count);
        let state = if r.is_complete() {
            "complete".to_string()
        } else {
            format!(
                "UNFINISHED at {} of {} ({:.1}%): run its generate command again to continue",
                r.next_pos,
                positions,
                percent(r.next_pos, positions)
            )
        };
        let shard = if r.shard.is_whole() {
            String::new()
        } else {
            format!(", shard {}", r.shard)
        };
        out += &format!(
            "  run {}: seed {}, {} work items{shard}, settings {}: {state}\n",
            r.id, r.seed, r.count, r.settings_hash
        );
    }
    out
}

fn percent(part: u64, whole: u64) -> f64 {
    100.0 * part as f64 / whole.max(1) as f64
}

/// Levels in difficulty order; names this build does not grade (`unrated`, or an older file's)
/// come last.
fn level_rank(name: &str) -> Option<Level> {
    name.parse().ok()
}

/// Per variant and size, each level's share of the graded puzzles beside the default mix's
/// target (what `generate` aims at without `--level`), and the largest gap.
fn render_mix(s: &Summary) -> String {
    let mut lines = Vec::new();
    for v in &s.by_variant {
        let (Ok(variant), Ok(size)) = (settings::parse_variant(&v.variant), u8::try_from(v.size))
        else {
            continue;
        };
        let counts: Vec<(Level, u64)> = s
            .by_level
            .iter()
            .filter(|l| l.variant == v.variant && l.size == v.size)
            .filter_map(|l| Some((l.level.as_deref().and_then(level_rank)?, l.puzzles)))
            .collect();
        let Some(gap) = MixGap::of(variant, size, &counts) else {
            continue;
        };
        let parts: Vec<String> = gap
            .levels
            .iter()
            .map(|l| format!("{} {:.1}/{:.0}", l.level, l.share, l.target))
            .collect();
        let largest = gap.largest();
        lines.push(format!(
            "  {} {size}x{size}: {}; largest gap {} {:+.1} points\n",
            v.variant,
            parts.join(", "),
            largest.level,
            largest.gap()
        ));
    }
    if lines.is_empty() {
        return String::new();
    }
    "\nlevel mix, stored % / default mix % (what generate aims at without --level):\n".to_string()
        + &lines.concat()
}

fn render(db: &std::path::Path, s: &Summary) -> String {
    let mut out = format!(
        "database {}: {} from {}\n",
        db.display(),
        super::check::counted(s.puzzles as usize, "puzzle", "puzzles"),
        super::check::counted(s.runs as usize, "run", "runs"),
    );
    out += &format!(
        "work items: {} (stored {}, duplicates skipped {}, rejected {})\n",
        s.work.total(),
        s.work.stored,
        s.work.duplicates,
        s.work.rejected
    );
    out += &format!(
        "\n{:<14} {:>5} {:>9} {:>8} {:>8}\n",
        "variant", "size", "puzzles", "givens", "cages"
    );
    for v in &s.by_variant {
        out += &format!(
            "{:<14} {:>5} {:>9} {:>8.2} {:>8.2}\n",
            v.variant,
            format!("{0}x{0}", v.size),
            v.puzzles,
            v.givens_mean,
            v.cages_mean
        );
    }
    out += "\nlevels (human-style grade; score mean [min-max]):\n";
    for v in &s.by_variant {
        let mut levels: Vec<&VariantCount> = s
            .by_level
            .iter()
            .filter(|l| l.variant == v.variant && l.size == v.size)
            .collect();
        levels.sort_by_key(|l| {
            let rank = l.level.as_deref().and_then(level_rank);
            (rank.is_none(), rank)
        });
        let parts: Vec<String> = levels
            .iter()
            .map(|l| {
                let name = l.level.as_deref().unwrap_or("?");
                let score = l.score.map_or(String::new(), |(mean, min, max)| {
                    format!(" score {mean:.1} [{min:.1}-{max:.1}]")
                });
                format!(
                    "{name} {} ({:.1}%){score}",
                    l.puzzles,
                    percent(l.puzzles, v.puzzles)
                )
            })
            .collect();
        out += &format!(
            "  {} {}x{}: {}\n",
            v.variant,
            v.size,
            v.size,
            parts.join(", ")
        );
    }
    out += &render_mix(s);
    for v in s.by_variant.iter().filter(|v| !v.cage_sizes.is_empty()) {
        let cages: u64 = v.cage_sizes.iter().map(|&(_, c)| c).sum();
        let cells: u64 = v.cage_sizes.iter().map(|&(k, c)| k as u64 * c).sum();
        out += &format!(
            "\ncages, {} {}x{}: {:.2} per puzzle (min {}, max {}), mean size {:.2}\n",
            v.variant,
            v.size,
            v.size,
            v.cages_mean,
            v.cage_range.0,
            v.cage_range.1,
            cells as f64 / cages.max(1) as f64
        );
        let sizes: Vec<String> = v
            .cage_sizes
            .iter()
            .map(|&(k, c)| format!("{k}: {:.1}%", percent(c, cages)))
            .collect();
        out += &format!("cage sizes: {}\n", sizes.join("  "));
    }
    let wall = s.wall_micros as f64 / 1e6;
    out += &format!(
        "\ngeneration: {:.1} s of committed chunks, {:.0} puzzles/s; {:.2} ms per puzzle on one thread\n",
        wall,
        s.work.stored as f64 / wall.max(1e-9),
        s.gen_micros as f64 / 1e3 / s.puzzles.max(1) as f64
    );
    out
}
