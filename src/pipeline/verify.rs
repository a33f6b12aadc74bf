//! Re-checking a whole database (`verify`): every stored puzzle is decoded, solved again (unique
//! within a node budget, the same solution as stored), its canonical key recomputed, and its
//! variant, counts and grade recomputed and compared; the run and chunk records are checked
//! against the rows, the issue records against their puzzles, and each run's settings hash
//! against its settings text. Rows are checked in parallel batches. Nothing is written.

use super::{thread_pool, PipelineError};
use crate::canonical::canonical_key;
use crate::fingerprint::fingerprint;
use crate::generator::GENERATOR_VERSION;
use crate::settings::{settings_hash, Origin, Settings};
use crate::solver;
use crate::store::{solution_problem, CheckedRow, RunState, Store, StoreError};
use rayon::prelude::*;

/// Rows checked per parallel batch.
const BATCH: usize = 1024;

/// What `verify` found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct VerifyReport {
    /// Rows read.
    pub puzzles: u64,
    /// One line per problem found: `puzzle id N: ...` or a record problem.
    pub problems: Vec<String>,
    /// Puzzles whose uniqueness could not be settled within the node budget.
    pub undecided: Vec<i64>,
    /// Unfinished runs, one line each (not an error: the run can be continued).
    pub unfinished: Vec<String>,
}

/// Check every row of `store` and its run records; `max_nodes` bounds each uniqueness search.
/// `on_batch` is told how many rows have been checked so far.
pub fn verify(
    store: &Store,
    threads: usize,
    max_nodes: u64,
    mut on_batch: impl FnMut(u64),
) -> Result<VerifyReport, PipelineError> {
    let pool = thread_pool(threads)?;
    let mut report = VerifyReport::default();
    let mut batch: Vec<CheckedRow> = Vec::with_capacity(BATCH);
    let mut flush = |batch: &mut Vec<CheckedRow>, report: &mut VerifyReport| {
        let found: Vec<Finding> =
            pool.install(|| batch.par_iter().map(|r| check_row(r, max_nodes)).collect());
        for (row, finding) in batch.iter().zip(found) {
            if finding.undecided {
                report.undecided.push(row.id);
            }
            for p in finding.problems {
                report.problems.push(format!("puzzle id {}: {p}", row.id));
            }
        }
        report.puzzles += batch.len() as u64;
        batch.clear();
        on_batch(report.puzzles);
    };
    store.for_each_checked_row(None, |row| -> Result<(), StoreError> {
        batch.push(row);
        if batch.len() == BATCH {
            flush(&mut batch, &mut report);
        }
        Ok(())
    })?;
    flush(&mut batch, &mut report);
    report.problems.extend(store.record_problems()?);
    let runs = store.runs()?;
    report
        .problems
        .extend(runs.iter().filter_map(|run| settings_problem(store, run)));
    for run in runs.iter().filter(|r| !r.is_complete()) {
        report.unfinished.push(format!(
            "run {} (seed {}, shard {}): {} of {} work items committed",
            run.id,
            run.seed,
            run.shard,
            run.next_pos,
            run.shard.positions(run.count)
        ));
    }
    Ok(report)
}

/// What the check of one row found.
#[derive(Default)]
struct Finding {
    /// Its uniqueness search ran out of nodes.
    undecided: bool,
    /// One line per problem.
    problems: Vec<String>,
}

fn check_row(row: &CheckedRow, max_nodes: u64) -> Finding {
    let p = match &row.decoded {
        Ok(p) => p,
        Err(e) => return Finding::problem(short(e)),
    };
    if let Some(problem) = solution_problem(p) {
        return Finding::problem(problem);
    }
    let mut found = Finding {
        undecided: false,
        problems: row.column_problems(),
    };
    let key = fingerprint(canonical_key(&p.puzzle).as_bytes()).to_be_bytes();
    if row.canonical_key != key {
        found
            .problems
            .push("the stored canonical key does not match the puzzle".into());
    }
    let report = solver::solve_within(&p.puzzle, 2, max_nodes);
    match report.solutions.len() {
        2.. => found
            .problems
            .push("the puzzle has more than one solution".into()),
        _ if !report.complete => found.undecided = true,
        0 => found.problems.push("the puzzle has no solution".into()),
        _ => {}
    }
    found
}

impl Finding {
    fn problem(problem: String) -> Self {
        Finding {
            undecided: false,
            problems: vec![problem],
        }
    }
}

/// Does a run's stored settings hash belong to its stored settings text? Checked for runs of
/// this generator version (an older version's settings may lack keys added since, which would
/// change the hash without anyone editing it).
fn settings_problem(store: &Store, run: &RunState) -> Option<String> {
    if run.generator_version != GENERATOR_VERSION {
        return None;
    }
    let name = format!("run {} (seed {}, shard {})", run.id, run.seed, run.shard);
    let origin = Origin::Database(store.path().to_path_buf());
    match Settings::from_toml(&run.settings_toml, &origin) {
        Err(e) => Some(format!("{name}: its stored settings do not read: {e}")),
        Ok(s) if settings_hash(&s.generator) != run.settings_hash => Some(format!(
            "{name}: the stored settings hash {:?} is not the hash of its stored settings ({:?}); the settings or the hash were edited",
            run.settings_hash,
            settings_hash(&s.generator)
        )),
        Ok(_) => None,
    }
}

/// A row error without the file name (the report names the file once).
fn short(e: &StoreError) -> String {
    match e {
        StoreError::BadRow { column, value, .. } => {
            format!("column `{column}` holds an invalid value {value:?}")
        }
        other => other.to_string(),
    }
}
