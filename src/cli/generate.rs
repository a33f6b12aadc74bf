//! `sudoku-press generate`: settings from defaults, `--config` and flags, then the pipeline with a
//! progress bar on stderr and a summary line per run.

use crate::signals::INTERRUPTED;
use anyhow::bail;
use indicatif::{
    HumanCount, ProgressBar, ProgressDrawTarget, ProgressFinish, ProgressState, ProgressStyle,
};
use std::io::IsTerminal;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use sudoku_press::generator::unique::SOLVER_NODE_BUDGET;
use sudoku_press::generator::Variant;
use sudoku_press::pipeline::{self, Event, RunSummary};
use sudoku_press::settings::{self, Origin, Overrides, Plan, Settings};
use sudoku_press::store::{RegradeProgress, Store};

/// Shown after `generate --help`: where the settings without a flag live.
pub const AFTER_HELP: &str = "The [generator] settings that have no flag (cage_builder, \
max_cage_size, min_cages, max_cages, allow_single_cells, givens, variations_per_seed, box shape) \
are set in a TOML preset given with --config (see config/*.toml). `generate --print-config` prints \
every key with its default and range (config/default.toml, compiled in).

Several generate commands may write one database at once: writers take turns per chunk, and two \
processes running the same command share its work items. Ctrl-C stops after the items in hand; \
run the same command again to continue.";

/// Flags of `generate`. Each overrides the key of the same name in `config/default.toml`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Work items 0..COUNT to run [default: 1000].
    #[arg(short = 'n', long)]
    count: Option<u64>,
    /// The run's seed [default: 1].
    #[arg(long)]
    seed: Option<u64>,
    /// Worker threads, 0 = one per core [default: 0]. Does not change the output.
    #[arg(short = 'j', long)]
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
    /// Make every puzzle of this level: easy, medium, hard, expert or extreme (repeat the flag
    /// for a mix, equally likely; weighted mixes: `levels = { easy = 0.2, hard = 0.8 }` under
    /// [generator] in a --config file), or `any`: each puzzle keeps the level it comes out at.
    /// Without it: the default mix for the variant and size (README, "Levels").
    #[arg(long = "level", value_name = "LEVEL")]
    levels: Vec<String>,
    /// Run only share I of N of the work items (items i with i % N == I) [default: 0/1].
    #[arg(long, value_name = "I/N")]
    shard: Option<String>,
    /// Work items per transaction [default: 1024]. Does not change the output.
    #[arg(long)]
    chunk_size: Option<u32>,
    /// A preset TOML file (see config/); flags override it.
    #[arg(long, value_name = "FILE")]
    config: Option<PathBuf>,
    /// Continue every unfinished run in --db with the settings stored with it.
    #[arg(long, conflicts_with_all = ["count", "seed", "variant", "size", "shard", "config", "levels"])]
    resume: bool,
    /// Print the compiled-in defaults (config/default.toml: every key, its default and range)
    /// and exit.
    #[arg(long)]
    print_config: bool,
}

/// Run `generate`.
pub fn run(args: Args) -> anyhow::Result<std::process::ExitCode> {
    if args.print_config {
        print!("{}", settings::DEFAULT_TOML);
        return Ok(std::process::ExitCode::SUCCESS);
    }
    let overrides = Overrides {
        count: args.count,
        seed: args.seed,
        threads: args.threads,
        db: args.db.clone(),
        shard: args.shard.clone(),
        chunk_size: args.chunk_size,
        variant: args.variant,
        size: args.size,
        levels: (!args.levels.is_empty()).then(|| args.levels.clone()),
    };
    let plans = if args.resume {
        resume_plans(&overrides)?
    } else {
        let batches = settings::load(args.config.as_deref())?;
        let origin = args.config.clone().map_or(Origin::Defaults, Origin::File);
        settings::select(batches, &overrides, &origin)?
    };
    let every = log_every()?;
    let stop = crate::signals::graceful_stop();
    for plan in &plans {
        let mut store = Store::open_or_create_reporting(&plan.db, &mut regrade_meter(&plan.db))?;
        let meter = Meter::new(plan, every);
        let summary = pipeline::run(&mut store, plan, &stop, |event| meter.on(event))?;
        drop(meter);
        if summary.stopped {
            eprintln!(
                "{}: stopped at item {} of {} (committed); run the same command again to continue",
                describe(plan),
                summary.done,
                summary.total
            );
            return Ok(std::process::ExitCode::from(INTERRUPTED));
        }
        eprintln!("{}", summary_line(plan, &summary));
        let made = summary.tally.total();
        if made > 0 && summary.tally.rejected == made {
            bail!(
                "{} [{}]: the generator gave up on every one of the {made} work items (none stored); \
                 these [generator] settings do not produce puzzles: loosen them (a larger max_cage_size, \
                 a wider min_cages..max_cages, givens = \"minimal\") or use the defaults",
                describe(plan),
                plan.name
            );
        }
    }
    Ok(std::process::ExitCode::SUCCESS)
}

/// Progress of the regrade done when a database graded by another grader version is opened
/// for writing: a line on stderr every few seconds and when done.
pub(super) fn regrade_meter(db: &std::path::Path) -> impl FnMut(RegradeProgress) + '_ {
    let mut last: Option<Instant> = None;
    move |p: RegradeProgress| {
        if p.done < p.total && last.is_some_and(|t| t.elapsed() < Duration::from_secs(2)) {
            return;
        }
        last = Some(Instant::now());
        eprintln!(
            "{}: grading rows graded by another grader version: {} of {}",
            db.display(),
            HumanCount(p.done),
            HumanCount(p.total)
        );
    }
}

/// Progress: a bar on a terminal, otherwise a plain line every few seconds (cron, CI, log files).
/// Rate and ETA count only this invocation's items, so a resumed run shows its real speed.
struct Meter {
    bar: ProgressBar,
    log: Option<Mutex<Instant>>,
    every: Duration,
    name: String,
    total: u64,
    started: Instant,
    /// Position when this invocation started.
    first: Arc<AtomicU64>,
    /// Items generated so far (including this invocation's uncommitted ones).
    pos: AtomicU64,
    /// "stored …, duplicates …, rejected …" of the committed chunks.
    tally: Mutex<String>,
}

/// The environment variable that sets how often a plain progress line is written.
const PROGRESS_EVERY: &str = "SUDOKU_PRESS_PROGRESS_EVERY";
/// Its largest value, in seconds (a day).
const PROGRESS_EVERY_MAX: f64 = 86_400.0;

/// How often a plain progress line is written when stderr is not a terminal: every 10 s, or every
/// `SUDOKU_PRESS_PROGRESS_EVERY` seconds, 0 (at every item and commit) to 86400 (a day); unset
/// or empty: the default. Anything else is refused with the variable named.
fn log_every() -> anyhow::Result<Duration> {
    let Some(raw) = std::env::var_os(PROGRESS_EVERY) else {
        return Ok(Duration::from_secs(10));
    };
    let text = raw.to_string_lossy();
    let text = text.trim();
    if text.is_empty() {
        return Ok(Duration::from_secs(10));
    }
    match text.parse::<f64>() {
        Ok(s) if (0.0..=PROGRESS_EVERY_MAX).contains(&s) => Ok(Duration::from_secs_f64(s)),
        _ => bail!(
            "{PROGRESS_EVERY}={text:?}: give seconds between progress lines, a number from 0 (every item) to {PROGRESS_EVERY_MAX} (a day), or unset it for every 10 s"
        ),
    }
}

impl Meter {
    fn new(plan: &Plan, every: Duration) -> Meter {
        let total = plan.shard.positions(plan.count);
        let terminal = std::io::stderr().is_terminal();
        let first = Arc::new(AtomicU64::new(0));
        let bar = if terminal {
            progress_bar(plan, total, Arc::clone(&first))
        } else {
            ProgressBar::hidden()
        };
        Meter {
            bar,
            log: (!terminal).then(|| Mutex::new(Instant::now())),
            every,
            name: describe(plan),
            total,
            started: Instant::now(),
            first,
            pos: AtomicU64::new(0),
            tally: Mutex::new(String::new()),
        }
    }

    fn on(&self, event: Event) {
        match event {
            Event::Started(p) => {
                self.first.store(p.done, Ordering::Relaxed);
                self.pos.store(p.done, Ordering::Relaxed);
                self.bar.set_position(p.done);
            }
            Event::ItemDone => {
                let pos = (self.pos.fetch_add(1, Ordering::Relaxed) + 1).min(self.total);
                self.bar.set_position(pos);
            }
            Event::Committed(p) => {
                let pos = self.pos.fetch_max(p.done, Ordering::Relaxed).max(p.done);
                self.bar.set_position(pos.min(self.total));
                let text = format!(
                    "stored {}, duplicates {}, rejected {}",
                    p.tally.stored, p.tally.duplicates, p.tally.rejected
                );
                self.bar.set_message(text.clone());
                if let Ok(mut t) = self.tally.lock() {
                    *t = text;
                }
            }
        }
        self.maybe_log();
    }

    /// A plain progress line, at most every `self.every`, when there is no terminal.
    fn maybe_log(&self) {
        let Some(last) = &self.log else { return };
        let Ok(mut last) = last.lock() else { return };
        if last.elapsed() < self.every {
            return;
        }
        *last = Instant::now();
        let pos = self.pos.load(Ordering::Relaxed).min(self.total);
        let first = self.first.load(Ordering::Relaxed);
        let (rate, eta) = rate_and_eta(
            pos - first.min(pos),
            self.total - pos,
            self.started.elapsed(),
        );
        let tally = self.tally.lock().map(|t| t.clone()).unwrap_or_default();
        eprintln!(
            "{}: {pos}/{} ({:.1}%), {rate}, ETA {eta}{}{tally}",
            self.name,
            self.total,
            100.0 * pos as f64 / self.total.max(1) as f64,
            if tally.is_empty() { "" } else { ", " }
        );
    }
}

/// "N/s" and the time left, from the items made in `elapsed` and the items still to make.
fn rate_and_eta(made: u64, left: u64, elapsed: Duration) -> (String, String) {
    let secs = elapsed.as_secs_f64();
    if made == 0 || secs <= 0.0 {
        return ("0/s".into(), "unknown".into());
    }
    let per_sec = made as f64 / secs;
    let rate = if per_sec >= 10.0 {
        format!("{per_sec:.0}/s")
    } else {
        format!("{per_sec:.2}/s")
    };
    (rate, human_duration(left as f64 / per_sec))
}

/// 45s, 12m, 3h, 19y, …
fn human_duration(secs: f64) -> String {
    let units = [
        (31_557_600.0, "y"),
        (86_400.0, "d"),
        (3_600.0, "h"),
        (60.0, "m"),
    ];
    for (size, unit) in units {
        if secs >= size {
            return format!("{:.0}{unit}", secs / size);
        }
    }
    format!("{:.0}s", secs.max(0.0))
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

fn progress_bar(plan: &Plan, total: u64, first: Arc<AtomicU64>) -> ProgressBar {
    // Cleared when dropped, so an error prints on a clean line.
    let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr())
        .with_finish(ProgressFinish::AndClear);
    let since = Arc::clone(&first);
    bar.set_style(
        ProgressStyle::with_template("{prefix} [{bar:30}] {pos}/{len} {rate} ETA {left} {msg}")
            .expect("the template is valid")
            .with_key(
                "rate",
                move |state: &ProgressState, w: &mut dyn std::fmt::Write| {
                    let made = state.pos().saturating_sub(first.load(Ordering::Relaxed));
                    let _ = write!(w, "{}", rate_and_eta(made, 0, state.elapsed()).0);
                },
            )
            .with_key(
                "left",
                move |state: &ProgressState, w: &mut dyn std::fmt::Write| {
                    let made = state.pos().saturating_sub(since.load(Ordering::Relaxed));
                    let left = state.len().unwrap_or(0).saturating_sub(state.pos());
                    let _ = write!(w, "{}", rate_and_eta(made, left, state.elapsed()).1);
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
    let rate = rate_and_eta(s.tally.stored, 0, s.elapsed)
        .0
        .replace("/s", "");
    let mut resumed = if s.resumed_at > 0 {
        format!(" (continued at {} of {})", s.resumed_at, s.total)
    } else {
        String::new()
    };
    let others = (s.done - s.resumed_at).saturating_sub(s.tally.total());
    if others > 0 {
        resumed += &format!(" ({others} work items were committed by another process)");
    }
    format!(
        "{} [{}]: stored {}, duplicates skipped {}, rejected {}, {:.1} s, {} puzzles/s{resumed} -> {}",
        describe(plan),
        plan.name,
        s.tally.stored,
        s.tally.duplicates,
        s.tally.rejected,
        secs,
        rate,
        plan.db.display()
    ) + &checks_line(s)
}

/// The summary's second line: how many uniqueness checks the committed work items made
/// (rejected ones too) and how many the generator's node budget cut off undecided.
fn checks_line(s: &RunSummary) -> String {
    let c = &s.checks;
    let percent = match c.undecided_percent() {
        p if c.undecided > 0 && p < 0.01 => "<0.01%".to_string(),
        p => format!("{p:.2}%"),
    };
    let own = if s.resumed_at > 0 {
        " (this invocation's work items)"
    } else {
        ""
    };
    format!(
        "\n  uniqueness checks {}{own}; {} ({percent}) cut off undecided by the {}-node budget",
        HumanCount(c.checks),
        HumanCount(c.undecided),
        HumanCount(SOLVER_NODE_BUDGET)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rate_and_eta_count_only_this_invocation() {
        // A run resumed at 29,440 of 40,000 that made 2,000 items in one second.
        let (rate, eta) = rate_and_eta(2_000, 40_000 - 31_440, Duration::from_secs(1));
        assert_eq!((rate.as_str(), eta.as_str()), ("2000/s", "4s"));
        assert_eq!(rate_and_eta(0, 5, Duration::from_secs(3)).1, "unknown");
        assert_eq!(rate_and_eta(1, 3, Duration::from_secs(40)).0, "0.03/s");
        assert_eq!(human_duration(2.0 * 3600.0), "2h");
    }
}
