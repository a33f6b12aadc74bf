//! `sudoku-press feed`: issue one day's puzzles by a schedule and write the day's files and the
//! feed index; the nightly job.

use super::generate::regrade_meter;
use anyhow::{bail, Context};
use std::path::PathBuf;
use sudoku_press::feed::{self, schedule, Date, FeedConfig, FeedReport};
use sudoku_press::store::Store;

/// Flags of `feed`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The database the puzzles come from; the issued ones are recorded in it.
    #[arg(long, default_value = "output/puzzles.db")]
    db: PathBuf,
    /// The day to issue, YYYY-MM-DD (a calendar day of the publisher; no clock is read).
    #[arg(long)]
    date: String,
    /// Where the day's files and the index go.
    #[arg(long, default_value = "output/feed")]
    out: PathBuf,
    /// daily (one puzzle of each level a day), ramp (easy Monday up to expert Sunday), or a
    /// schedule TOML file (see config/feed-daily.toml).
    #[arg(long, default_value = "daily", value_name = "daily|ramp|FILE")]
    schedule: String,
    /// First generate more puzzles for every slot whose pool would not last --stock-days days.
    #[arg(long)]
    generate: bool,
    /// The seed of the runs --generate makes [default: the date as YYYYMMDD].
    #[arg(long, requires = "generate")]
    seed: Option<u64>,
    /// Days of stock --generate keeps ahead, and below which a warning is printed: 0 to 36500
    /// (the stock count's horizon, 100 years).
    #[arg(long, default_value_t = 14,
          value_parser = clap::value_parser!(u64).range(0..=feed::STOCK_HORIZON))]
    stock_days: u64,
}

fn load_schedule(name: &str) -> anyhow::Result<FeedConfig> {
    let (text, origin) = match name {
        "daily" => (schedule::DAILY.to_string(), "the daily preset".to_string()),
        "ramp" => (schedule::RAMP.to_string(), "the ramp preset".to_string()),
        path => {
            let text = std::fs::read_to_string(path).with_context(|| {
                format!("{path}: cannot read the schedule; give daily, ramp or a TOML file")
            })?;
            (text, path.to_string())
        }
    };
    FeedConfig::parse(&text).map_err(|e| anyhow::anyhow!("{origin}: {e}"))
}

/// Run `feed`.
pub fn run(args: Args) -> anyhow::Result<()> {
    let Some(date) = Date::parse(&args.date) else {
        bail!("--date {:?}: give a calendar date as YYYY-MM-DD", args.date);
    };
    let config = load_schedule(&args.schedule)?;
    if !args.db.is_file() {
        bail!(
            "{}: no such database; make one with `sudoku-press generate --db {}`",
            args.db.display(),
            args.db.display()
        );
    }
    let mut store = Store::open_or_create_reporting(&args.db, &mut regrade_meter(&args.db))?;
    if args.generate {
        let seed = args.seed.unwrap_or_else(|| date_seed(date));
        for line in
            feed::top_up::top_up(&mut store, &args.db, &config, date, seed, args.stock_days)?
        {
            eprintln!("{line}");
        }
    }
    let report = feed::run_day(&mut store, &config, date, &args.out)?;
    print_report(&config, &report, args.stock_days);
    Ok(())
}

/// The date as the number YYYYMMDD.
fn date_seed(date: Date) -> u64 {
    let (y, m, d) = date.ymd();
    (y * 10_000 + m * 100 + d) as u64
}

fn print_report(config: &FeedConfig, r: &FeedReport, stock_days: u64) {
    let what = if r.drawn {
        "issued"
    } else {
        "already issued; re-emitted"
    };
    let ids: Vec<String> = r.puzzles.iter().map(|p| p.stored.id.to_string()).collect();
    eprintln!(
        "{} {} #{}: {what} {} puzzles (ids {})",
        config.name,
        r.date,
        r.number,
        r.puzzles.len(),
        ids.join(", ")
    );
    if r.schedule_changed {
        eprintln!(
            "warning: the schedule changed since this day was issued; the day keeps its puzzles"
        );
    }
    for file in &r.files {
        eprintln!("  wrote {}", file.display());
    }
    let stock: Vec<String> = r
        .stock
        .iter()
        .map(|(slot, n)| format!("{slot} {n}"))
        .collect();
    eprintln!("stock (unissued): {}", stock.join(", "));
    match &r.days_left {
        None => eprintln!("the stock lasts more than {} days", feed::STOCK_HORIZON),
        Some((days, slot)) if *days < stock_days => eprintln!(
            "warning: the pool runs short: {days} more days after {} ({slot} runs out first); run `sudoku-press generate` or `feed --generate`",
            r.date
        ),
        Some((days, slot)) => eprintln!("the stock lasts {days} more days ({slot} runs out first)"),
    }
}
