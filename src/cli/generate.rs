//! `sudoku-press generate`: settings from defaults, `--config` and flags, then the pipeline with a
//! progress bar on stderr and a summary line per run.

use anyhow::bail;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressFinish, ProgressState, ProgressStyle};
use std::io::IsTerminal;
use std::path::PathBuf;
use std::time::Duration;
use sudoku_press::generator::Variant;
use sudoku_press::pipeline::{self, Progress, RunSummary};
use sudoku_press::settings::{self, Origin, Overrides, Plan, Settings};
use sudoku_press::store::Store;

/// Flags of `generate`. Each overrides the key of the same name in `config/default.toml`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Work items 0..COUNT to run [default: 1000].
    #[arg(long)]
    count: Option<u64>,
    /// The run's seed [default: 1].
    #[arg(long)]
    seed: Option<u64>,
    /// Worker threads, 0 = one per core [default: 0]. Does not change the output.
    #[arg(long)]
    threads: Option<u32>,
    /// The SQLite database [default: output/puzzles.db].
    #[arg(long)]
    db: Option<PathBuf>,
    /// killer, classic, jigsaw or killer-jigsaw [default: killer]. With a preset of [[batch]]
    /// tables: run only the batches of this variant.
    #[arg(long, value_parser = settings::parse_variant)]
    variant: Option<Variant>,
    /// Grid side N [default: 9]. With a preset of [[batch]] tables: run only the batches of this size.
    #[arg(long)]
    size: Option<u8>,
    /// Run only share I of N of the work items (items i with i % N == I) [default: 0/1].
    #[arg(long, value_name = "I/N")]
    shard: Option<String>,
    /// Work items per transaction [default: 256]. Does not change the output.
    #[arg(long)]
    chunk_size: Option<u32>,
    /// A preset TOML file (see config/); flags override it.
    #[arg(long, value_name = "FILE")]
    config: Option<PathBuf>,
    /// Continue every unfinished run in --db with the settings stored with it.
    #[arg(long, conflicts_with_all = ["count", "seed", "variant", "size", "shard", "config"])]
    resume: bool,
}

/// Run `generate`.
pub fn run(args: Args) -> anyhow::Result<()> {
    let overrides = Overrides {
        count: args.count,
        seed: args.seed,
        threads: args.threads,
        db: args.db.clone(),
        shard: args.shard.clone(),
        chunk_size: args.chunk_size,
        variant: args.variant,
        size: args.size,
    };
    let plans = if args.resume {
        resume_plans(&overrides)?
    } else {
        let batches = settings::load(args.config.as_deref())?;
        let origin = args.config.clone().map_or(Origin::Defaults, Origin::File);
        settings::select(batches, &overrides, &origin)?
    };
    for plan in &plans {
        let mut store = Store::open_or_create(&plan.db)?;
        let bar = progress_bar(plan);
        let summary = pipeline::run(&mut store, plan, |p: &Progress| {
            bar.set_position(p.done);
            bar.set_message(format!(
                "stored {}, duplicates {}, rejected {}",
                p.tally.stored, p.tally.duplicates, p.tally.rejected
            ));
        })?;
        drop(bar);
        eprintln!("{}", summary_line(plan, &summary));
    }
    Ok(())
}

/// The plans that finish the incomplete runs of the database (default path unless `--db`).
fn resume_plans(overrides: &Overrides) -> anyhow::Result<Vec<Plan>> {
    let db = overrides
        .db
        .clone()
        .unwrap_or_else(|| Settings::default().run.db);
    if !db.is_file() {
        bail!("--resume: there is no database at {}", db.display());
    }
    let plans = pipeline::resume_plans(&db, overrides)?;
    if plans.is_empty() {
        eprintln!(
            "nothing to resume: every run in {} is complete",
            db.display()
        );
    }
    Ok(plans)
}

fn progress_bar(plan: &Plan) -> ProgressBar {
    let target = if std::io::stderr().is_terminal() {
        ProgressDrawTarget::stderr()
    } else {
        ProgressDrawTarget::hidden()
    };
    // Cleared when dropped, so an error prints on a clean line.
    let bar = ProgressBar::with_draw_target(Some(plan.shard.positions(plan.count)), target)
        .with_finish(ProgressFinish::AndClear);
    bar.set_style(
        ProgressStyle::with_template("{prefix} [{bar:30}] {pos}/{len} {rate} ETA {eta} {msg}")
            .expect("the template is valid")
            .with_key(
                "rate",
                |state: &ProgressState, w: &mut dyn std::fmt::Write| {
                    let _ = write!(w, "{:.0}/s", state.per_sec());
                },
            )
            .progress_chars("=> "),
    );
    bar.set_prefix(describe(plan));
    bar.enable_steady_tick(Duration::from_millis(250));
    bar
}

fn describe(plan: &Plan) -> String {
    let g = &plan.generator;
    let shard = if plan.shard.is_whole() {
        String::new()
    } else {
        format!(" shard {}", plan.shard)
    };
    format!(
        "{} {}x{}{shard}",
        settings::variant_name(g.variant),
        g.size,
        g.size
    )
}

fn summary_line(plan: &Plan, s: &RunSummary) -> String {
    if s.resumed_at >= s.total {
        return format!(
            "{} [{}]: already complete ({} work items of this run in {}), nothing to do",
            describe(plan),
            plan.name,
            s.total,
            plan.db.display()
        );
    }
    let secs = s.elapsed.as_secs_f64();
    let rate = s.tally.stored as f64 / secs.max(1e-9);
    let resumed = if s.resumed_at > 0 {
        format!(" (continued at {} of {})", s.resumed_at, s.total)
    } else {
        String::new()
    };
    format!(
        "{} [{}]: stored {}, duplicates skipped {}, rejected {}, {:.1} s, {:.0} puzzles/s{resumed} -> {}",
        describe(plan),
        plan.name,
        s.tally.stored,
        s.tally.duplicates,
        s.tally.rejected,
        secs,
        rate,
        plan.db.display()
    )
}
