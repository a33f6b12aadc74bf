//! Re-checking a whole database (`verify`): every stored puzzle is decoded, solved again (unique
//! within a node budget, the same solution as stored), and its canonical key recomputed; the run
//! and chunk records are checked against the rows. Rows are checked in parallel batches.

use super::{thread_pool, PipelineError};
use crate::canonical::canonical_key;
use crate::fingerprint::fingerprint;
use crate::solver;
use crate::store::{solution_problem, CheckedRow, Store, StoreError};
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
            match finding {
                Finding::Ok => {}
                Finding::Undecided => report.undecided.push(row.id),
                Finding::Problem(p) => report.problems.push(format!("puzzle id {}: {p}", row.id)),
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
    for run in store.runs()?.iter().filter(|r| !r.is_complete()) {
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

enum Finding {
    Ok,
    Undecided,
    Problem(String),
}

fn check_row(row: &CheckedRow, max_nodes: u64) -> Finding {
    let p = match &row.decoded {
        Ok(p) => p,
        Err(e) => return Finding::Problem(short(e)),
    };
    if let Some(problem) = solution_problem(p) {
        return Finding::Problem(problem);
    }
    let key = fingerprint(canonical_key(&p.puzzle).as_bytes()).to_be_bytes();
    if row.canonical_key != key {
        return Finding::Problem("the stored canonical key does not match the puzzle".into());
    }
    let report = solver::solve_within(&p.puzzle, 2, max_nodes);
    match report.solutions.len() {
        2.. => Finding::Problem("the puzzle has more than one solution".into()),
        _ if !report.complete => Finding::Undecided,
        0 => Finding::Problem("the puzzle has no solution".into()),
        _ => Finding::Ok,
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
