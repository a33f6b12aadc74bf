//! Merging shard databases into one equal to the single run: rows in work-item order, first wins.

use super::write::RunState;
use super::{Store, StoreError};
use crate::atomic_file::{AtomicFile, AtomicFileError};
use rusqlite::types::Value;
use rusqlite::{params, params_from_iter, Rows};
use std::path::{Path, PathBuf};

/// What a merge wrote.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct MergeReport {
    /// Whole runs written.
    pub runs: u64,
    /// Puzzles written.
    pub puzzles: u64,
    /// Puzzles skipped because a lower work item (in another shard or run) had the same form.
    pub duplicates: u64,
    /// Issue records (`issued` rows of the feed and books) carried over.
    pub issued: u64,
}

/// Columns copied from shard to output (all but `id` and `run`); `idx` is the second.
const COLUMNS: &str =
    "seed, idx, variant, size, box_rows, box_cols, regions, givens, solution, cages,
    givens_count, cage_count, cage_sizes, nodes, guesses, solver_calls, repairs, gen_micros, level,
    canonical_key, score, hardest, techniques, trial, grader, minutes";
const COLUMN_COUNT: usize = 26;
/// What an input older than schema revision 3 (no grade yet) gives for the last six columns,
/// one of revision 3 (graded, by an unrecorded grader) for `grader`, and one older than 7 for
/// `minutes`: such rows are graded again before the output is moved into place.
const UNGRADED: &str = "NULL, NULL, NULL, NULL, NULL, NULL";
const UNRECORDED_GRADER: &str = "NULL";
/// Rows per output transaction.
const BATCH: usize = 10_000;

/// A shard of one run inside one input.
struct Member {
    input: usize,
    run: RunState,
}

/// Join shard databases into `output`, which must not exist yet. Every run found must be complete
/// in all its shards. Runs are written in order of first appearance; within a run, puzzles in
/// work-item order, skipping any whose canonical form is already written: the result equals the
/// database a single unsharded run would have made. `whole_settings` rewrites a shard's stored
/// settings TOML into the settings of the whole run. The output is built beside `output` and
/// moved into place only when complete; rows are validated first (each decodes, its
/// solution solves it, and the counts match the chunk records).
pub fn merge(
    output: &Path,
    inputs: &[PathBuf],
    whole_settings: &dyn Fn(&str) -> String,
) -> Result<MergeReport, StoreError> {
    if output.exists() {
        return Err(StoreError::Merge(format!(
            "{} exists; merge writes a new database, choose another -o path",
            output.display()
        )));
    }
    // Each input is read in one read transaction (one snapshot), so its runs, chunk records,
    // puzzles and issue records agree even while another process extends a run in it.
    let stores: Vec<Store> = inputs
        .iter()
        .map(|p| Store::open_read_only(p).and_then(Store::into_snapshot))
        .collect::<Result<_, _>>()?;
    let groups = group_runs(&stores)?;
    for group in &groups {
        for m in group {
            stores[m.input].validate_run_rows(&m.run)?;
        }
    }
    // A temporary file of our own beside the output (never a fixed name, never an input),
    // moved into place only when complete and only if no other process made the output meanwhile.
    let protected: Vec<&Path> = inputs.iter().map(PathBuf::as_path).collect();
    let temp = AtomicFile::create(output, &protected).map_err(output_error)?;
    let mut out = Store::open_or_create(temp.temp_path())?;
    let mut report = MergeReport::default();
    for group in &groups {
        let (puzzles, duplicates) = copy_group(&mut out, &stores, group, whole_settings)?;
        report.runs += 1;
        report.puzzles += puzzles;
        report.duplicates += duplicates;
    }
    report.issued = super::merge_issued::copy_issued(&mut out, &stores)?;
    out.grade_ungraded(&mut |_| {})?;
    out.close()?;
    temp.commit_new().map_err(output_error)?;
    Ok(report)
}

fn output_error(e: AtomicFileError) -> StoreError {
    StoreError::Merge(e.to_string())
}

/// Runs of all inputs grouped by identity, each group checked to be a complete set of shards.
fn group_runs(stores: &[Store]) -> Result<Vec<Vec<Member>>, StoreError> {
    let mut groups: Vec<Vec<Member>> = Vec::new();
    for (input, store) in stores.iter().enumerate() {
        for run in store.runs()? {
            let same = |m: &Member| {
                m.run.settings_hash == run.settings_hash
                    && m.run.seed == run.seed
                    && m.run.generator_version == run.generator_version
            };
            match groups.iter_mut().find(|g| same(&g[0])) {
                Some(group) => group.push(Member { input, run }),
                None => groups.push(vec![Member { input, run }]),
            }
        }
    }
    for group in &groups {
        check_group(stores, group)?;
    }
    Ok(groups)
}

fn check_group(stores: &[Store], group: &[Member]) -> Result<(), StoreError> {
    let first = &group[0].run;
    let name = |m: &Member| {
        format!(
            "{} (shard {})",
            stores[m.input].path().display(),
            m.run.shard
        )
    };
    let what = format!("run seed {} settings {}", first.seed, first.settings_hash);
    let n = first.shard.count();
    for m in group {
        if m.run.shard.count() != n || m.run.count != first.count {
            return Err(StoreError::Merge(format!(
                "{what}: {} has {} of {} work items, {} has {} of {}; shards of a run share N and --count",
                name(&group[0]), first.shard, first.count, name(m), m.run.shard, m.run.count
            )));
        }
        if !m.run.is_complete() {
            return Err(StoreError::Merge(format!(
                "{what}: {} is unfinished ({} of {} positions); finish it by running its generate command again",
                name(m),
                m.run.next_pos,
                m.run.shard.positions(m.run.count)
            )));
        }
    }
    for i in 0..n {
        let holders: Vec<&Member> = group.iter().filter(|m| m.run.shard.index() == i).collect();
        match holders.len() {
            1 => {}
            0 => {
                return Err(StoreError::Merge(format!(
                    "{what}: shard {i}/{n} is missing; pass every shard's database"
                )))
            }
            _ => {
                return Err(StoreError::Merge(format!(
                    "{what}: shard {i}/{n} appears twice ({} and {})",
                    name(holders[0]),
                    name(holders[1])
                )))
            }
        }
    }
    Ok(())
}

/// Copy one run's shards into `out` in work-item order; returns (stored, duplicates at merge).
fn copy_group(
    out: &mut Store,
    stores: &[Store],
    group: &[Member],
    whole_settings: &dyn Fn(&str) -> String,
) -> Result<(u64, u64), StoreError> {
    let first = &group[0].run;
    out.conn
        .execute(
            "INSERT INTO runs (seed, settings_hash, settings, generator_version, count, shard_index,
             shard_count) VALUES (?1, ?2, ?3, ?4, ?5, 0, 1)",
            params![
                first.seed as i64,
                first.settings_hash,
                whole_settings(&first.settings_toml),
                first.generator_version,
                first.count as i64
            ],
        )
        .map_err(|e| out.err(e))?;
    let run_id = out.conn.last_insert_rowid();
    let mut stmts = group
        .iter()
        .map(|m| {
            let input = &stores[m.input];
            let columns = match input.schema_version()? {
                7.. => COLUMNS.to_string(),
                4..=6 => COLUMNS.replace(", minutes", ", NULL"),
                3 => COLUMNS.replace(", grader, minutes", &format!(", {UNRECORDED_GRADER}, NULL")),
                _ => COLUMNS.replace(
                    "score, hardest, techniques, trial, grader, minutes",
                    UNGRADED,
                ),
            };
            let select = format!("SELECT {columns} FROM puzzles WHERE run = ?1 ORDER BY idx");
            input.conn.prepare(&select).map_err(|e| input.err(e))
        })
        .collect::<Result<Vec<_>, _>>()?;
    let mut cursors: Vec<Rows> = Vec::with_capacity(group.len());
    for (stmt, m) in stmts.iter_mut().zip(group) {
        cursors.push(stmt.query([m.run.id]).map_err(|e| stores[m.input].err(e))?);
    }
    let mut heads = Vec::with_capacity(group.len());
    for (cursor, m) in cursors.iter_mut().zip(group) {
        heads.push(next_row(cursor, &stores[m.input])?);
    }
    let insert =
        format!(
        "INSERT INTO puzzles (run, {COLUMNS}) VALUES (?1{}) ON CONFLICT (canonical_key) DO NOTHING",
        (2..=COLUMN_COUNT + 1).map(|i| format!(", ?{i}")).collect::<String>()
    );
    let (mut stored, mut duplicates, mut in_batch) = (0u64, 0u64, 0usize);
    out.conn.execute_batch("BEGIN").map_err(|e| out.err(e))?;
    while let Some(k) = lowest_index(&heads) {
        let row = heads[k].take().expect("lowest_index points at a row");
        let inserted = out
            .conn
            .prepare_cached(&insert)
            .and_then(|mut s| {
                s.execute(params_from_iter(
                    std::iter::once(Value::Integer(run_id)).chain(row),
                ))
            })
            .map_err(|e| out.err(e))?;
        if inserted == 1 {
            stored += 1;
        } else {
            duplicates += 1;
        }
        heads[k] = next_row(&mut cursors[k], &stores[group[k].input])?;
        in_batch += 1;
        if in_batch == BATCH {
            out.conn
                .execute_batch("COMMIT; BEGIN")
                .map_err(|e| out.err(e))?;
            in_batch = 0;
        }
    }
    let (mut rejected, mut wall, mut shard_dups) = (0u64, 0u64, 0u64);
    for m in group {
        rejected += m.run.totals.rejected;
        shard_dups += m.run.totals.duplicates;
        wall += stores[m.input].wall_micros(m.run.id)?;
    }
    out.conn
        .execute(
            "INSERT INTO chunks (run, first_pos, end_pos, stored, duplicates, rejected, wall_micros)
             VALUES (?1, 0, ?2, ?3, ?4, ?5, ?6)",
            params![
                run_id,
                first.count as i64,
                stored as i64,
                (shard_dups + duplicates) as i64,
                rejected as i64,
                wall as i64
            ],
        )
        .map_err(|e| out.err(e))?;
    out.conn.execute_batch("COMMIT").map_err(|e| out.err(e))?;
    Ok((stored, duplicates))
}

fn next_row(cursor: &mut Rows, store: &Store) -> Result<Option<Vec<Value>>, StoreError> {
    let Some(row) = cursor.next().map_err(|e| store.err(e))? else {
        return Ok(None);
    };
    (0..COLUMN_COUNT)
        .map(|i| row.get::<_, Value>(i))
        .collect::<Result<Vec<_>, _>>()
        .map(Some)
        .map_err(|e| store.err(e))
}

/// The head with the lowest work-item index (column 1).
fn lowest_index(heads: &[Option<Vec<Value>>]) -> Option<usize> {
    let idx = |row: &Vec<Value>| match row[1] {
        Value::Integer(i) => i,
        _ => i64::MAX,
    };
    heads
        .iter()
        .enumerate()
        .filter_map(|(k, h)| h.as_ref().map(|row| (idx(row), k)))
        .min()
        .map(|(_, k)| k)
}

impl Store {
    /// Wall time of a run's committed chunks, microseconds.
    fn wall_micros(&self, run: i64) -> Result<u64, StoreError> {
        self.conn
            .query_row(
                "SELECT coalesce(sum(wall_micros), 0) FROM chunks WHERE run = ?1",
                [run],
                |r| r.get::<_, i64>(0),
            )
            .map(|v| v as u64)
            .map_err(|e| self.err(e))
    }
}
