//! `sudoku-press feed`: issue one day's puzzles by a schedule and write the day's files, the
//! archive and the feed index (the nightly job), or take an issued day back (`--withdraw`).

use super::generate::regrade_meter;
use anyhow::{bail, Context};
use std::path::PathBuf;
use sudoku_press::feed::{self, schedule, Date, FeedConfig, FeedReport, WithdrawReport};
use sudoku_press::store::Store;

/// Flags of `feed`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The database the puzzles come from; the issued ones are recorded in it.
    #[arg(long, default_value = "output/puzzles.db")]
    db: PathBuf,
    /// The day to issue, YYYY-MM-DD (a calendar day of the publisher; no clock is read).
    #[arg(
        long,
        required_unless_present = "withdraw",
        conflicts_with = "withdraw"
    )]
    date: Option<String>,
    /// Take back an issued day, YYYY-MM-DD: recorded in the database (its puzzles are never
    /// issued again), its page replaced by a "withdrawn" one, its JSON and PDF removed, and the
    /// archive and feed rebuilt without it.
    #[arg(long, value_name = "DATE")]
    withdraw: Option<String>,
    /// Issue a date more than 366 days after the newest issued day (or the series' first day).
    #[arg(long)]
    force: bool,
    /// Where the output directory is published, e.g. https://puzzles.example.net/daily/ (feed.json
    /// and rss.xml link there) [default: the schedule's base_url].
    #[arg(long, value_name = "URL")]
    base_url: Option<String>,
    /// The feed's title, on every page and in the feed [default: the schedule's title].
    #[arg(long)]
    title: Option<String>,
    /// Where the day's files and the index go.
    #[arg(short = 'o', long, default_value = "output/feed")]
    out: PathBuf,
    /// daily (one puzzle of each level a day), ramp (easy Monday up to expert Sunday), or a
    /// schedule TOML file (see config/feed-daily.toml).
    #[arg(long, default_value = "daily", value_name = "daily|ramp|FILE")]
    schedule: String,
    /// First generate more puzzles for every slot whose pool would not last --stock-days days.
    #[arg(long, conflicts_with = "withdraw")]
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

/// Run `feed`.
pub fn run(args: Args) -> anyhow::Result<()> {
    let date = match (&args.date, &args.withdraw) {
        (Some(text), _) => parse_date("--date", text)?,
        (None, Some(text)) => parse_date("--withdraw", text)?,
        (None, None) => bail!("give --date YYYY-MM-DD (or --withdraw YYYY-MM-DD)"),
    };
    let mut config = FeedConfig::load(&args.schedule)?;
    if let Some(url) = &args.base_url {
        config
            .set_base_url(url)
            .map_err(|e| anyhow::anyhow!("--base-url {url:?}: {e}"))?;
    }
    if let Some(title) = &args.title {
        config
            .set_title(title)
            .map_err(|e| anyhow::anyhow!("--title: {e}"))?;
    }
    if !args.db.is_file() {
        bail!(
            "{}: no such database; make one with `sudoku-press generate --db {}`",
            args.db.display(),
            args.db.display()
        );
    }
    let mut store = Store::open_or_create_reporting(&args.db, &mut regrade_meter(&args.db))?;
    if args.withdraw.is_some() {
        let report = feed::withdraw_day(&mut store, &config, date, &args.out)?;
        print_withdrawal(&config, &report);
        warn_base_url(&config, &args);
        return Ok(());
    }
    feed::check_date(&store, &config, date, args.force)?;
    if args.generate {
        let (db, seed, days) = (&args.db, args.seed, args.stock_days);
        for line in feed::top_up::top_up(&mut store, db, &config, date, seed, days)? {
            eprintln!("{line}");
        }
    }
    let report = feed::run_day(&mut store, &config, date, &args.out)?;
    print_report(&config, &report, args.stock_days);
    warn_base_url(&config, &args);
    Ok(())
}

/// After a run that wrote the feed: say loudly when its base URL cannot be where it is read.
/// A warning, not a refusal: the pages link to each other relatively and work from any folder,
/// and trying the built-in schedules locally should not need an address first.
fn warn_base_url(config: &FeedConfig, args: &Args) {
    if let Some(problem) = schedule::base_url_problem(&config.base_url) {
        let origin = match args.base_url {
            Some(_) => "--base-url".to_string(),
            None => format!("the base_url of schedule {}", args.schedule),
        };
        eprintln!(
            "warning: {origin} {} {problem}: feed.json and rss.xml link there, so feed readers get dead links. Give --base-url https://YOUR.SITE/PATH/ (where the --out folder is published) or set base_url in a copy of the schedule.",
            config.base_url
        );
    }
}

fn parse_date(flag: &str, text: &str) -> anyhow::Result<Date> {
    Date::parse(text)
        .with_context(|| format!("{flag} {text:?}: give a calendar date as YYYY-MM-DD"))
}

fn print_withdrawal(config: &FeedConfig, r: &WithdrawReport) {
    match &r.before {
        Some(at) => eprintln!(
            "{} {}: already withdrawn at {at}; its files rewritten",
            config.name, r.date
        ),
        None => {
            let ids: Vec<String> = r.puzzles.iter().map(|p| p.puzzle.to_string()).collect();
            eprintln!(
                "{} {}: withdrawn; its {} puzzles (ids {}) stay used and are never issued again",
                config.name,
                r.date,
                r.puzzles.len(),
                ids.join(", ")
            );
        }
    }
    for file in &r.removed {
        eprintln!("  removed {}", file.display());
    }
    for file in &r.files {
        eprintln!("  wrote {}", file.display());
    }
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
