//! The production pipeline, the only place that knows rayon: work items generated on every
//! thread with no barrier between chunks (`window.rs`), committed in item order, in chunks, by one
//! writer meanwhile (`solve` holds a similar shape for solving a stream of puzzles; `bench` times
//! the solver).
//!
//! Work item `i` of a run is `generate_puzzle(generator settings, seed, i)` and depends on nothing
//! else, so the stored content is the same for any thread count, chunk size or sharding. Chunks
//! commit in order, each with its progress record: a killed run loses only uncommitted work (the
//! chunk being committed and the items made ahead of it), and running it again continues at the
//! first uncommitted position.

use crate::canonical::canonical_key;
use crate::generator::unique::Checker;
use crate::generator::{
    generate_from_seed_counted, generate_puzzle_counted, seed_grid, seed_group, Generated,
    GeneratorConfig, Outcome, Resolved, SeedGrid, GENERATOR_VERSION,
};
use crate::settings::{variant_name, Origin, Overrides, Plan, Settings, SettingsError};
use crate::store::{Chunk, ChunkTally, GradeRow, NewRun, PuzzleRow, RowMetrics, Store, StoreError};
use std::cell::RefCell;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};
use thiserror::Error;

pub mod bench;
pub mod rate;
pub mod solve;
pub mod stream;
pub mod verify;
mod window;

/// Why a run stopped.
#[derive(Debug, Error)]
pub enum PipelineError {
    /// The database failed.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// The settings stored with a run to resume are unusable.
    #[error(transparent)]
    Settings(#[from] SettingsError),
    /// A run made by another generator version or settings cannot be continued exactly.
    #[error("--resume: run {run} of {db} was made by generator version {version} (settings {hash}); this build cannot continue it exactly: start a new run instead")]
    CannotResume {
        /// The run's id.
        run: i64,
        /// The database.
        db: String,
        /// The run's generator version.
        version: String,
        /// The run's settings hash.
        hash: String,
    },
    /// The worker threads could not be started.
    #[error("cannot start {threads} worker threads: {detail}")]
    Threads {
        /// Threads asked for.
        threads: usize,
        /// The reason.
        detail: String,
    },
}

/// Where a run stands, reported when it starts and after every committed chunk.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Progress {
    /// Positions of this shard committed (including those of earlier invocations).
    pub done: u64,
    /// Positions of this shard in the run.
    pub total: u64,
    /// What this invocation committed so far.
    pub tally: ChunkTally,
}

/// What a run reports as it goes.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Event {
    /// The run starts (or continues) at `done`.
    Started(Progress),
    /// One more work item is generated (not yet committed); reported by the worker threads.
    ItemDone,
    /// A chunk is committed.
    Committed(Progress),
}

/// What one invocation of a run did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RunSummary {
    /// The batch name.
    pub name: String,
    /// Positions committed before this invocation (a resumed run).
    pub resumed_at: u64,
    /// Positions committed when this invocation ended.
    pub done: u64,
    /// Positions of this shard in the run.
    pub total: u64,
    /// What this invocation committed.
    pub tally: ChunkTally,
    /// Wall time of this invocation.
    pub elapsed: Duration,
    /// Stopped early because `stop` was set (the committed chunks are kept).
    pub stopped: bool,
    /// The uniqueness checks of the work items this invocation committed.
    pub checks: CheckTally,
}

/// Uniqueness checks the generator made for work items (stored, duplicate and rejected alike),
/// and how many of them ran out of the node budget (`generator::unique::SOLVER_NODE_BUDGET`)
/// undecided, so that their layout or removal was not taken. Counted per item and summed, so the
/// totals do not depend on the thread count; kept only in memory (not in the database).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct CheckTally {
    /// Uniqueness checks (solver calls) made.
    pub checks: u64,
    /// Checks cut off by the node budget.
    pub undecided: u64,
}

impl CheckTally {
    /// The counts of one work item's checker.
    pub fn of(checker: &Checker) -> CheckTally {
        CheckTally {
            checks: u64::from(checker.calls),
            undecided: u64::from(checker.undecided),
        }
    }

    /// Add another tally.
    pub fn add(&mut self, other: CheckTally) {
        self.checks += other.checks;
        self.undecided += other.undecided;
    }

    /// Undecided checks as a percentage of all checks (0 when none were made).
    pub fn undecided_percent(&self) -> f64 {
        100.0 * self.undecided as f64 / self.checks.max(1) as f64
    }
}

/// One work item as the workers hand it over: its row (`None`: rejected) and its checks.
struct Made {
    row: Option<PuzzleRow>,
    checks: CheckTally,
}

/// The checks of the items a commit took: the last `taken` of the chunk's (the store skips the
/// positions another writer of the same run committed first), rejected items included.
fn committed_checks(checks: &[CheckTally], taken: u64) -> CheckTally {
    let skip = checks.len().saturating_sub(taken as usize);
    let mut sum = CheckTally::default();
    for c in &checks[skip..] {
        sum.add(*c);
    }
    sum
}

/// Aim: a chunk commits about this often, however slow the variant (a slow run loses little when
/// killed, and its progress is visible in the database).
const CHUNK_TARGET: Duration = Duration::from_secs(3);

/// The size of the next chunk: as many items as the measured rate makes in `CHUNK_TARGET`, at
/// least one per thread, at most `max` (the `chunk_size` setting), growing at most fourfold a step.
/// Chunk boundaries never change the output, only how often it is committed.
pub fn next_chunk_size(last: u64, last_wall: Duration, threads: u64, max: u64) -> u64 {
    let floor = threads.max(1).min(max);
    let secs = last_wall.as_secs_f64().max(1e-6);
    let fit = (last as f64 * CHUNK_TARGET.as_secs_f64() / secs) as u64;
    fit.min(last.saturating_mul(4)).clamp(floor, max.max(1))
}

/// Run (or continue) `plan` into `store`, reporting each generated item and each committed chunk
/// to `on_event` (from several threads). Setting `stop` ends the run early: the items in hand are
/// finished, what was made without a gap is committed, and the same plan run again continues
/// after it.
pub fn run(
    store: &mut Store,
    plan: &Plan,
    stop: &AtomicBool,
    on_event: impl Fn(Event) + Sync,
) -> Result<RunSummary, PipelineError> {
    let started = Instant::now();
    let state = store.begin_run(&NewRun {
        seed: plan.seed,
        settings_hash: plan.settings_hash.clone(),
        settings_toml: plan.settings_toml.clone(),
        generator_version: GENERATOR_VERSION.to_string(),
        count: plan.count,
        shard: plan.shard,
    })?;
    let total = plan.shard.positions(plan.count);
    let pool = thread_pool(plan.threads)?;
    let threads = pool.current_num_threads() as u64;
    let mut progress = Progress {
        done: state.next_pos,
        total,
        tally: ChunkTally::default(),
    };
    let mut checks = CheckTally::default();
    on_event(Event::Started(progress));
    let max = plan.chunk_size as u64;
    // Items are made on every thread with no barrier between chunks (`window.rs`), up to two
    // chunks ahead of the first uncommitted one; this thread commits them in order meanwhile.
    let work = |pos| {
        let made = make_item(plan, plan.shard.item_at(pos));
        on_event(Event::ItemDone);
        made
    };
    let stopped = window::in_order(
        &pool,
        (state.next_pos, total),
        max.saturating_mul(2),
        stop,
        work,
        |feed| -> Result<bool, PipelineError> {
            let mut size = threads.min(max).max(1);
            let mut first = state.next_pos;
            let mut since = Instant::now();
            let mut stopped = false;
            while first < total {
                // Once the workers have stopped (Ctrl-C), what they made without a gap is still
                // committed: chunk boundaries never change the output.
                let made = feed.take(size).unwrap_or_else(|| {
                    stopped = true;
                    feed.take_ready()
                });
                if made.is_empty() {
                    break;
                }
                let (rows, item_checks): (Vec<_>, Vec<_>) =
                    made.into_iter().map(|m| (m.row, m.checks)).unzip();
                let end = first + rows.len() as u64;
                // A chunk's wall time is one cycle: from the previous commit's start to its own.
                let wall = since.elapsed();
                since = Instant::now();
                let chunk = Chunk {
                    first_pos: first,
                    end_pos: end,
                    rows,
                    wall_micros: wall.as_micros() as u64,
                };
                let committed = store.commit_chunk(&state, &chunk)?;
                progress.done = committed.next_pos.max(end);
                progress.tally.add(committed.tally);
                checks.add(committed_checks(&item_checks, committed.tally.total()));
                on_event(Event::Committed(progress));
                size = next_chunk_size(end - first, wall, threads, max);
                // Continue after what this process made, or after what another writer of the
                // same run has committed, whichever is further.
                first = progress.done;
                feed.skip_to(first);
            }
            Ok(stopped || (stop.load(Ordering::Relaxed) && first < total))
        },
    )?;
    Ok(RunSummary {
        name: plan.name.clone(),
        resumed_at: state.next_pos,
        done: progress.done,
        total,
        tally: progress.tally,
        elapsed: started.elapsed(),
        stopped,
        checks,
    })
}

/// The plans that finish every incomplete run of the database at `db`, from the settings stored
/// with each run; only `threads` and `chunk_size` of `overrides` apply (they do not change output).
pub fn resume_plans(
    db: &std::path::Path,
    overrides: &Overrides,
) -> Result<Vec<Plan>, PipelineError> {
    let store = Store::open_read_only(db)?;
    let origin = Origin::Database(db.to_path_buf());
    let mut plans = Vec::new();
    for run in store.runs()?.into_iter().filter(|r| !r.is_complete()) {
        let mut settings = Settings::from_toml(&run.settings_toml, &origin)?;
        settings.apply(&Overrides {
            threads: overrides.threads,
            chunk_size: overrides.chunk_size,
            db: Some(db.to_path_buf()),
            count: Some(run.count),
            ..Overrides::default()
        });
        let plan = settings.validate(&format!("run {}", run.id), &origin)?;
        if plan.settings_hash != run.settings_hash || run.generator_version != GENERATOR_VERSION {
            return Err(PipelineError::CannotResume {
                run: run.id,
                db: db.display().to_string(),
                version: run.generator_version,
                hash: run.settings_hash,
            });
        }
        plans.push(plan);
    }
    Ok(plans)
}

/// A local pool of `threads` workers (0 = one per core).
fn thread_pool(threads: usize) -> Result<rayon::ThreadPool, PipelineError> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| PipelineError::Threads {
            threads,
            detail: e.to_string(),
        })
}

/// Work item `index`: its puzzle encoded for the store (`None` if the generator gave up) and the
/// uniqueness checks it made either way.
fn make_item(plan: &Plan, index: u64) -> Made {
    let started = Instant::now();
    let (outcome, checker) = generate_cached(&plan.generator, plan.seed, index);
    let checks = CheckTally::of(&checker);
    let row = match outcome {
        Outcome::Generated(g) => Some(encode(plan, index, &g, started)),
        Outcome::Rejected(_) => None,
    };
    Made { row, checks }
}

/// A worker's last seed grid and what it was made from.
struct SeedCache {
    config: GeneratorConfig,
    seed: u64,
    group: u64,
    resolved: Resolved,
    grid: Option<SeedGrid>,
}

thread_local! {
    /// Consecutive items share a seed grid (`variations_per_seed` of them, 16 by default) and a
    /// worker takes several of a group in turn: it keeps the last grid rather than backtracking
    /// it again for each item (2% of a 9x9 killer's CPU), and the settings it validated.
    static SEED_CACHE: RefCell<Option<SeedCache>> = const { RefCell::new(None) };
}

/// `generate_puzzle_counted(config, seed, index)`, with the item's seed grid taken from this
/// worker's cache when it holds the item's group (the same outcome and checks either way).
fn generate_cached(config: &GeneratorConfig, seed: u64, index: u64) -> (Outcome, Checker) {
    SEED_CACHE.with_borrow_mut(|cache| {
        let group = seed_group(config, index);
        let hit = cache
            .as_ref()
            .is_some_and(|c| c.seed == seed && c.group == group && c.config == *config);
        if !hit {
            let Ok(resolved) = config.validate() else {
                return generate_puzzle_counted(config, seed, index);
            };
            let grid = seed_grid(config, &resolved, seed, group);
            *cache = Some(SeedCache {
                config: config.clone(),
                seed,
                group,
                resolved,
                grid,
            });
        }
        let c = cache.as_ref().expect("the cache was just filled");
        generate_from_seed_counted(config, &c.resolved, c.grid.as_ref(), seed, index)
    })
}

/// A generated puzzle as its row, timed from `started`.
fn encode(plan: &Plan, index: u64, g: &Generated, started: Instant) -> PuzzleRow {
    let micros = started.elapsed().as_micros() as u64;
    let metrics = RowMetrics {
        cage_sizes: g.metrics.cage_sizes.clone(),
        nodes: g.metrics.nodes,
        guesses: g.metrics.guesses,
        solver_calls: g.metrics.solver_calls,
        repairs: g.metrics.repairs,
        micros,
        grade: GradeRow::from_grade(&g.metrics.grade),
    };
    let key = canonical_key(&g.puzzle);
    PuzzleRow::encode(
        index,
        variant_name(plan.generator.variant),
        &g.puzzle,
        &g.solution,
        &metrics,
        &key,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chunks_shrink_for_slow_items_and_grow_for_fast_ones() {
        let s = Duration::from_secs;
        // 16x16 killers: 2 items took 60 s on 2 threads; never below one item per thread.
        assert_eq!(next_chunk_size(2, s(60), 2, 256), 2);
        // 8 items in 20 s: about 3 s worth is one item, so one per thread.
        assert_eq!(next_chunk_size(8, s(20), 2, 256), 2);
        // 100 items in 10 s: 30 fit in 3 s.
        assert_eq!(next_chunk_size(100, s(10), 4, 256), 30);
        // Fast items grow at most fourfold a step, up to chunk_size.
        assert_eq!(next_chunk_size(2, Duration::from_millis(1), 2, 256), 8);
        assert_eq!(
            next_chunk_size(200, Duration::from_millis(100), 2, 256),
            256
        );
        // chunk_size 1 is honoured even with many threads.
        assert_eq!(next_chunk_size(1, s(1), 8, 1), 1);
    }

    #[test]
    fn a_commit_counts_the_checks_of_the_items_it_took_rejected_ones_too() {
        let c = |checks, undecided| CheckTally { checks, undecided };
        let chunk = [c(3, 0), c(40, 2), c(1, 0), c(7, 1)];
        assert_eq!(committed_checks(&chunk, 4), c(51, 3));
        // Another writer of the run had committed the first two positions: only the rest count.
        assert_eq!(committed_checks(&chunk, 2), c(8, 1));
        assert_eq!(committed_checks(&chunk, 0), c(0, 0));
        assert_eq!(c(51, 3).undecided_percent(), 100.0 * 3.0 / 51.0);
        assert_eq!(c(0, 0).undecided_percent(), 0.0);
    }

    #[test]
    fn a_rejected_item_hands_over_its_checks() {
        let mut plan = Settings::default()
            .validate("test", &Origin::Defaults)
            .unwrap();
        // Without repairs, an item whose first layout is ambiguous is rejected after one check.
        plan.generator.max_repairs = 0;
        plan.generator.levels = Some(crate::generator::level::LevelsSetting::any());
        let items: Vec<Made> = (0..20).map(|i| make_item(&plan, i)).collect();
        assert!(items.iter().any(|m| m.row.is_none()));
        assert!(items.iter().all(|m| m.checks.checks == 1));
    }
}
