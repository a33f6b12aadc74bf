//! The production pipeline, the only place that knows rayon: work items in chunks, generated in
//! parallel, committed in item order by one writer while the next chunk is being generated
//! (`solve` holds the same shape for solving a stream of puzzles; `bench` times the solver).
//!
//! Work item `i` of a run is `generate_puzzle(generator settings, seed, i)` and depends on nothing
//! else, so the stored content is the same for any thread count, chunk size or sharding. Chunks
//! commit in order, each with its progress record: a killed run loses only uncommitted work (the
//! chunk being committed and the one being generated), and running it again continues at the
//! first uncommitted position.

use crate::canonical::canonical_key;
use crate::generator::{generate_puzzle, Outcome, GENERATOR_VERSION};
use crate::settings::{variant_name, Origin, Overrides, Plan, Settings, SettingsError};
use crate::store::{Chunk, ChunkTally, NewRun, PuzzleRow, RowMetrics, Store, StoreError};
use rayon::prelude::*;
use std::time::{Duration, Instant};
use thiserror::Error;

pub mod bench;
pub mod rate;
pub mod solve;

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

/// Where a run stands, reported after every committed chunk.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Progress {
    /// Positions of this shard committed (including those of earlier invocations).
    pub done: u64,
    /// Positions of this shard in the run.
    pub total: u64,
    /// What this invocation committed so far.
    pub tally: ChunkTally,
}

/// What one invocation of a run did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RunSummary {
    /// The batch name.
    pub name: String,
    /// Positions committed before this invocation (a resumed run).
    pub resumed_at: u64,
    /// Positions of this shard in the run.
    pub total: u64,
    /// What this invocation committed.
    pub tally: ChunkTally,
    /// Wall time of this invocation.
    pub elapsed: Duration,
}

/// Run (or continue) `plan` into `store`, calling `on_progress` after every committed chunk.
pub fn run(
    store: &mut Store,
    plan: &Plan,
    mut on_progress: impl FnMut(&Progress),
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
    let mut progress = Progress {
        done: state.next_pos,
        total,
        tally: ChunkTally::default(),
    };
    let span = |first: u64| (first, (first + plan.chunk_size as u64).min(total));
    let mut since = Instant::now();
    let mut next =
        (state.next_pos < total).then(|| pool.install(|| make_chunk(plan, span(state.next_pos))));
    while let Some(mut chunk) = next.take() {
        let end = chunk.end_pos;
        let mut following = None;
        // A chunk's wall time is one cycle: from the previous commit's start to its own.
        chunk.wall_micros = since.elapsed().as_micros() as u64;
        since = Instant::now();
        // The writer commits this chunk while the pool generates the next one.
        let committed = pool.in_place_scope(|scope| {
            if end < total {
                scope.spawn(|_| following = Some(make_chunk(plan, span(end))));
            }
            store.commit_chunk(&state, &chunk)
        })?;
        next = following;
        progress.done = end;
        progress.tally.add(committed);
        on_progress(&progress);
    }
    Ok(RunSummary {
        name: plan.name.clone(),
        resumed_at: state.next_pos,
        total,
        tally: progress.tally,
        elapsed: started.elapsed(),
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

/// Generate positions `first..end` of the plan's shard, in parallel, kept in position order.
fn make_chunk(plan: &Plan, (first, end): (u64, u64)) -> Chunk {
    let rows = (first..end)
        .into_par_iter()
        .map(|pos| make_row(plan, plan.shard.item_at(pos)))
        .collect();
    Chunk {
        first_pos: first,
        end_pos: end,
        rows,
        wall_micros: 0,
    }
}

/// Work item `index`: its puzzle encoded for the store, or `None` if the generator gave up.
fn make_row(plan: &Plan, index: u64) -> Option<PuzzleRow> {
    let started = Instant::now();
    let Outcome::Generated(g) = generate_puzzle(&plan.generator, plan.seed, index) else {
        return None;
    };
    let micros = started.elapsed().as_micros() as u64;
    let metrics = RowMetrics {
        cage_sizes: g.metrics.cage_sizes.clone(),
        nodes: g.metrics.nodes,
        guesses: g.metrics.guesses,
        solver_calls: g.metrics.solver_calls,
        repairs: g.metrics.repairs,
        micros,
        level: g.metrics.level.as_str(),
    };
    let key = canonical_key(&g.puzzle);
    Some(PuzzleRow::encode(
        index,
        variant_name(plan.generator.variant),
        &g.puzzle,
        &g.solution,
        &metrics,
        &key,
    ))
}
