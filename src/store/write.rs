//! Writing: runs, and chunks of puzzles committed in one transaction with their progress record.

use super::{codec, GradeRow, Store, StoreError};
use crate::fingerprint::fingerprint;
use crate::geometry::Regions;
use crate::grid::Grid;
use crate::puzzle::Puzzle;
use crate::shard::Shard;
use rusqlite::{params, OptionalExtension, TransactionBehavior};

/// The identity and settings of a run to start or continue.
#[derive(Clone, Debug)]
pub struct NewRun {
    /// The run's seed.
    pub seed: u64,
    /// Hash of the settings that affect output.
    pub settings_hash: String,
    /// The whole settings, as TOML.
    pub settings_toml: String,
    /// The generator's version.
    pub generator_version: String,
    /// Work items `0..count` of the whole (unsharded) run.
    pub count: u64,
    /// Which share of the work items this database holds.
    pub shard: Shard,
}

/// A run as stored, with its progress.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RunState {
    /// Row id in `runs`.
    pub id: i64,
    /// The run's seed.
    pub seed: u64,
    /// Hash of the output-affecting settings.
    pub settings_hash: String,
    /// The generator's version.
    pub generator_version: String,
    /// Work items of the whole run.
    pub count: u64,
    /// The share this database holds.
    pub shard: Shard,
    /// The run's settings as TOML.
    pub settings_toml: String,
    /// Positions `0..next_pos` of the shard's sequence are committed.
    pub next_pos: u64,
    /// Totals of the committed chunks.
    pub totals: ChunkTally,
}

impl RunState {
    /// Has every position of the shard been committed?
    pub fn is_complete(&self) -> bool {
        self.next_pos >= self.shard.positions(self.count)
    }
}

/// What became of a chunk's work items.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct ChunkTally {
    /// New puzzles stored.
    pub stored: u64,
    /// Puzzles skipped because their canonical form was already stored.
    pub duplicates: u64,
    /// Work items for which the generator gave up.
    pub rejected: u64,
}

impl ChunkTally {
    /// Work items accounted for.
    pub fn total(&self) -> u64 {
        self.stored + self.duplicates + self.rejected
    }
    /// Add another tally.
    pub fn add(&mut self, other: ChunkTally) {
        self.stored += other.stored;
        self.duplicates += other.duplicates;
        self.rejected += other.rejected;
    }
}

/// What committing a chunk did.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Committed {
    /// What became of the positions this call committed (none, when another process writing the
    /// same run had committed them all).
    pub tally: ChunkTally,
    /// Positions `0..next_pos` of the run are committed now.
    pub next_pos: u64,
}

/// One puzzle encoded for its row (built by the workers, so encoding runs in parallel).
#[derive(Clone, Debug, PartialEq)]
pub struct PuzzleRow {
    index: u64,
    variant: &'static str,
    size: u8,
    box_shape: Option<(u8, u8)>,
    regions: Option<String>,
    givens: String,
    solution: String,
    cages: String,
    givens_count: u32,
    cage_count: u32,
    cage_sizes: String,
    nodes: u64,
    guesses: u64,
    solver_calls: u32,
    repairs: u32,
    micros: u64,
    grade: GradeRow,
    canonical_key: [u8; 16],
}

/// The measurements stored beside a puzzle.
#[derive(Clone, Debug, PartialEq)]
pub struct RowMetrics {
    /// `sizes[k]`: cages of `k` cells.
    pub cage_sizes: Vec<u32>,
    /// Solver nodes of the final uniqueness check.
    pub nodes: u64,
    /// Solver guesses of the final uniqueness check.
    pub guesses: u64,
    /// Solver calls spent making the puzzle.
    pub solver_calls: u32,
    /// Layout repairs made (zero-given killers).
    pub repairs: u32,
    /// Generation time on one thread, microseconds.
    pub micros: u64,
    /// The human-style grade.
    pub grade: GradeRow,
}

impl PuzzleRow {
    /// Encode work item `index`: a puzzle of this variant, its solution, metrics, and its canonical
    /// form (`canonical::canonical_key`), stored as its 128-bit fingerprint.
    pub fn encode(
        index: u64,
        variant: &'static str,
        puzzle: &Puzzle,
        solution: &Grid,
        metrics: &RowMetrics,
        canonical_key: &str,
    ) -> PuzzleRow {
        let geometry = puzzle.geometry();
        let (box_shape, regions) = match geometry.regions() {
            Regions::Boxes { rows, cols } => (Some((*rows, *cols)), None),
            Regions::Jigsaw(map) => (None, Some(codec::regions_to_text(map))),
        };
        PuzzleRow {
            index,
            variant,
            size: geometry.size() as u8,
            box_shape,
            regions,
            givens: codec::grid_to_text(puzzle.givens()),
            solution: codec::grid_to_text(solution),
            cages: codec::cages_to_text(puzzle.cages()),
            givens_count: puzzle.givens().count_filled() as u32,
            cage_count: puzzle.cages().len() as u32,
            cage_sizes: codec::histogram_to_text(&metrics.cage_sizes),
            nodes: metrics.nodes,
            guesses: metrics.guesses,
            solver_calls: metrics.solver_calls,
            repairs: metrics.repairs,
            micros: metrics.micros,
            grade: metrics.grade.clone(),
            canonical_key: fingerprint(canonical_key.as_bytes()).to_be_bytes(),
        }
    }
}

/// A chunk of consecutive positions of a shard's sequence, in position order.
#[derive(Clone, Debug, Default)]
pub struct Chunk {
    /// First position.
    pub first_pos: u64,
    /// One past the last position.
    pub end_pos: u64,
    /// One entry per position: the puzzle, or `None` when the generator gave up.
    pub rows: Vec<Option<PuzzleRow>>,
    /// Wall time spent on the chunk, microseconds.
    pub wall_micros: u64,
}

const INSERT_PUZZLE: &str =
    "INSERT INTO puzzles (run, seed, idx, variant, size, box_rows, box_cols,
    regions, givens, solution, cages, givens_count, cage_count, cage_sizes, nodes, guesses,
    solver_calls, repairs, gen_micros, level, canonical_key, score, hardest, techniques, trial,
    grader, minutes)
    VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19,
    ?20, ?21, ?22, ?23, ?24, ?25, ?26, ?27)
    ON CONFLICT (canonical_key) DO NOTHING";

impl Store {
    /// Find the run with this identity (continuing it, and raising its count if asked for more),
    /// or record a new one. Done under the write lock, so two processes starting the same run at
    /// once find or create one row between them.
    pub fn begin_run(&mut self, run: &NewRun) -> Result<RunState, StoreError> {
        let path = self.path.clone();
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(|e| super::classify(&path, e))?;
        let found: Option<(i64, i64)> = tx
            .query_row(
                "SELECT id, count FROM runs WHERE settings_hash = ?1 AND seed = ?2
                 AND generator_version = ?3 AND shard_index = ?4 AND shard_count = ?5",
                params![
                    run.settings_hash,
                    run.seed as i64,
                    run.generator_version,
                    run.shard.index(),
                    run.shard.count()
                ],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .optional()
            .map_err(|e| super::classify(&path, e))?;
        let id = match found {
            Some((id, count)) if count as u64 >= run.count => id,
            Some((id, _)) => {
                tx.execute(
                    "UPDATE runs SET count = ?1, settings = ?2 WHERE id = ?3",
                    params![run.count as i64, run.settings_toml, id],
                )
                .map_err(|e| super::classify(&path, e))?;
                id
            }
            None => {
                tx.execute(
                    "INSERT INTO runs (seed, settings_hash, settings, generator_version, count,
                         shard_index, shard_count) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
                    params![
                        run.seed as i64,
                        run.settings_hash,
                        run.settings_toml,
                        run.generator_version,
                        run.count as i64,
                        run.shard.index(),
                        run.shard.count()
                    ],
                )
                .map_err(|e| super::classify(&path, e))?;
                tx.last_insert_rowid()
            }
        };
        tx.commit().map_err(|e| super::classify(&path, e))?;
        self.run_state(id)
    }

    /// The run with this row id and its progress.
    pub fn run_state(&self, id: i64) -> Result<RunState, StoreError> {
        let (state, shard) = self
            .conn
            .query_row(
                "SELECT r.seed, r.settings_hash, r.generator_version, r.count, r.settings,
                        r.shard_index, r.shard_count, coalesce(max(c.end_pos), 0),
                        coalesce(sum(c.stored), 0), coalesce(sum(c.duplicates), 0),
                        coalesce(sum(c.rejected), 0)
                 FROM runs r LEFT JOIN chunks c ON c.run = r.id WHERE r.id = ?1 GROUP BY r.id",
                [id],
                |r| {
                    let state = RunState {
                        id,
                        seed: r.get::<_, i64>(0)? as u64,
                        settings_hash: r.get(1)?,
                        generator_version: r.get(2)?,
                        count: r.get::<_, i64>(3)? as u64,
                        settings_toml: r.get(4)?,
                        shard: Shard::default(),
                        next_pos: r.get::<_, i64>(7)? as u64,
                        totals: ChunkTally {
                            stored: r.get::<_, i64>(8)? as u64,
                            duplicates: r.get::<_, i64>(9)? as u64,
                            rejected: r.get::<_, i64>(10)? as u64,
                        },
                    };
                    Ok((state, (r.get::<_, i64>(5)?, r.get::<_, i64>(6)?)))
                },
            )
            .map_err(|e| self.err(e))?;
        let shard = u32::try_from(shard.0)
            .ok()
            .zip(u32::try_from(shard.1).ok())
            .and_then(|(i, n)| Shard::new(i, n))
            .ok_or_else(|| StoreError::Corrupt {
                path: self.path.clone(),
                detail: format!("run {id} has shard {}/{}", shard.0, shard.1),
            })?;
        Ok(RunState { shard, ..state })
    }

    /// Every run of this database with its progress, oldest first.
    pub fn runs(&self) -> Result<Vec<RunState>, StoreError> {
        let ids: Vec<i64> = {
            let mut stmt = self
                .conn
                .prepare("SELECT id FROM runs ORDER BY id")
                .map_err(|e| self.err(e))?;
            let rows = stmt.query_map([], |r| r.get(0)).map_err(|e| self.err(e))?;
            rows.collect::<Result<_, _>>().map_err(|e| self.err(e))?
        };
        ids.into_iter().map(|id| self.run_state(id)).collect()
    }

    /// Commit a chunk of run `run` and its progress record in one transaction. Puzzles whose
    /// canonical key is already stored are skipped and counted, in position order.
    ///
    /// The write lock is taken first (`BEGIN IMMEDIATE`), so writers of other runs wait their
    /// turn. When another process writing the same run has already committed some or all of the
    /// chunk's positions (its content is the same, item by item), only the rest is committed;
    /// `Committed::next_pos` says where the run stands afterwards.
    pub fn commit_chunk(&mut self, run: &RunState, chunk: &Chunk) -> Result<Committed, StoreError> {
        let path = self.path.clone();
        let fail = |e| super::classify(&path, e);
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(fail)?;
        let next = tx
            .query_row(
                "SELECT coalesce(max(end_pos), 0) FROM chunks WHERE run = ?1",
                [run.id],
                |r| r.get::<_, i64>(0),
            )
            .map_err(fail)? as u64;
        if next < chunk.first_pos {
            return Err(StoreError::Concurrent {
                path: path.clone(),
                expected: chunk.first_pos,
                found: next,
            });
        }
        if next >= chunk.end_pos {
            return Ok(Committed {
                tally: ChunkTally::default(),
                next_pos: next,
            });
        }
        let skip = (next - chunk.first_pos) as usize;
        let mut tally = ChunkTally::default();
        let seed: i64 = tx
            .query_row("SELECT seed FROM runs WHERE id = ?1", [run.id], |r| {
                r.get(0)
            })
            .map_err(fail)?;
        {
            let mut insert = tx.prepare_cached(INSERT_PUZZLE).map_err(fail)?;
            for row in chunk.rows.iter().skip(skip) {
                let Some(p) = row else {
                    tally.rejected += 1;
                    continue;
                };
                let inserted = insert
                    .execute(params![
                        run.id,
                        seed,
                        p.index as i64,
                        p.variant,
                        p.size,
                        p.box_shape.map(|b| b.0),
                        p.box_shape.map(|b| b.1),
                        p.regions,
                        p.givens,
                        p.solution,
                        p.cages,
                        p.givens_count,
                        p.cage_count,
                        p.cage_sizes,
                        p.nodes as i64,
                        p.guesses as i64,
                        p.solver_calls,
                        p.repairs,
                        p.micros as i64,
                        p.grade.level,
                        &p.canonical_key[..],
                        p.grade.score,
                        p.grade.hardest,
                        p.grade.techniques,
                        p.grade.trial,
                        crate::grader::GRADER_VERSION,
                        p.grade.minutes,
                    ])
                    .map_err(fail)?;
                if inserted == 1 {
                    tally.stored += 1;
                } else {
                    tally.duplicates += 1;
                }
            }
        }
        tx.execute(
            "INSERT INTO chunks (run, first_pos, end_pos, stored, duplicates, rejected, wall_micros)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
            params![
                run.id,
                next as i64,
                chunk.end_pos as i64,
                tally.stored as i64,
                tally.duplicates as i64,
                tally.rejected as i64,
                chunk.wall_micros as i64
            ],
        )
        .map_err(fail)?;
        tx.commit().map_err(fail)?;
        Ok(Committed {
            tally,
            next_pos: chunk.end_pos,
        })
    }
}
