//! Reading: puzzles streamed back in id order, and the aggregate figures of `stats`.

use super::{codec, Store, StoreError};
use crate::geometry::Geometry;
use crate::grader::Minutes;
use crate::grid::Grid;
use crate::puzzle::Puzzle;
use rusqlite::Row;

/// A stored puzzle, decoded.
#[derive(Clone, Debug, PartialEq)]
pub struct StoredPuzzle {
    /// Row id (ascending in work-item order).
    pub id: i64,
    /// Its run's row id.
    pub run: i64,
    /// The run's seed.
    pub seed: u64,
    /// The work item index.
    pub index: u64,
    /// `killer`, `classic`, `jigsaw` or `killer-jigsaw`.
    pub variant: String,
    /// The puzzle.
    pub puzzle: Puzzle,
    /// Its unique solution.
    pub solution: Grid,
    /// Cage size histogram, text form (`size:count;...`).
    pub cage_sizes: String,
    /// Solver nodes of the final uniqueness check.
    pub nodes: u64,
    /// Solver guesses of the final uniqueness check.
    pub guesses: u64,
    /// Solver calls spent making it.
    pub solver_calls: u32,
    /// Layout repairs made.
    pub repairs: u32,
    /// Generation time, microseconds.
    pub micros: u64,
    /// Level (`easy` .. `extreme`, or `unrated`); older files keep the level they were made with.
    pub level: String,
    /// The grade beside the level; `None` in a file older than schema revision 3.
    pub grade: Option<StoredGrade>,
}

/// The human-style grade stored beside a puzzle (schema revision 3).
#[derive(Clone, Debug, PartialEq)]
pub struct StoredGrade {
    /// Continuous score (orders puzzles inside a level).
    pub score: f64,
    /// The estimated solving time (`None` in a file older than schema revision 7, until its
    /// rows are graded again).
    pub minutes: Option<Minutes>,
    /// The hardest technique used, if any.
    pub hardest: Option<String>,
    /// Steps per technique, `name:count` joined by `;`, in ladder order.
    pub techniques: String,
    /// Was trial needed?
    pub trial: bool,
}

/// Puzzles of one variant and size (or of one level of them).
#[derive(Clone, Debug, PartialEq)]
pub struct VariantCount {
    /// Variant name.
    pub variant: String,
    /// Side N.
    pub size: u32,
    /// Level, for per-level counts.
    pub level: Option<String>,
    /// Puzzles.
    pub puzzles: u64,
    /// Mean givens.
    pub givens_mean: f64,
    /// Mean cage count.
    pub cages_mean: f64,
    /// Fewest and most cages of one puzzle.
    pub cage_range: (u64, u64),
    /// Cages of each size over these puzzles: `(size, cages)`, ascending (per variant only).
    pub cage_sizes: Vec<(usize, u64)>,
    /// Mean, least and greatest grade score (`None` in a file older than schema revision 3).
    pub score: Option<(f64, f64, f64)>,
}

/// Aggregate figures of a database.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Summary {
    /// Runs recorded.
    pub runs: u64,
    /// Puzzles stored.
    pub puzzles: u64,
    /// Per variant and size, with cage statistics.
    pub by_variant: Vec<VariantCount>,
    /// Per variant, size and level.
    pub by_level: Vec<VariantCount>,
    /// Work items committed, duplicates skipped, rejected.
    pub work: super::ChunkTally,
    /// Wall time of all committed chunks, microseconds.
    pub wall_micros: u64,
    /// Generation time of all stored puzzles (one thread each), microseconds.
    pub gen_micros: u64,
}

/// The columns `decode` reads, in order, before the grade's (table alias `p`).
const BASE_COLUMNS: &str = "p.id, p.run, p.seed, p.idx, p.variant, p.size, p.box_rows, p.box_cols,
    p.regions, p.givens, p.solution, p.cages, p.cage_sizes, p.nodes, p.guesses, p.solver_calls,
    p.repairs, p.gen_micros, p.level";
/// How many columns `decode` reads.
pub(super) const DECODED_COLUMNS: usize = 24;

impl Store {
    /// The columns `decode` reads (table alias `p`): a file older than schema revision 3 has no
    /// grade columns, and reads NULL for them.
    pub(super) fn puzzle_columns(&self) -> Result<String, StoreError> {
        let grade = match self.schema_version()? {
            7.. => "p.score, p.hardest, p.techniques, p.trial, p.minutes",
            3..=6 => "p.score, p.hardest, p.techniques, p.trial, NULL",
            _ => "NULL, NULL, NULL, NULL, NULL",
        };
        Ok(format!("{BASE_COLUMNS}, {grade}"))
    }

    /// Call `f` on every puzzle in id order, one row in memory at a time.
    pub fn for_each_puzzle<E: From<StoreError>>(
        &self,
        mut f: impl FnMut(StoredPuzzle) -> Result<(), E>,
    ) -> Result<(), E> {
        let sql = format!(
            "SELECT {} FROM puzzles p ORDER BY p.id",
            self.puzzle_columns()?
        );
        let mut stmt = self.conn.prepare(&sql).map_err(|e| self.err(e))?;
        let mut rows = stmt.query([]).map_err(|e| self.err(e))?;
        while let Some(row) = rows.next().map_err(|e| self.err(e))? {
            f(self.decode(row)?)?;
        }
        Ok(())
    }

    /// The puzzle with this row id, if there is one.
    pub fn puzzle_by_id(&self, id: i64) -> Result<Option<StoredPuzzle>, StoreError> {
        let sql = format!(
            "SELECT {} FROM puzzles p WHERE p.id = ?1",
            self.puzzle_columns()?
        );
        let mut stmt = self.conn.prepare(&sql).map_err(|e| self.err(e))?;
        let mut rows = stmt.query([id]).map_err(|e| self.err(e))?;
        match rows.next().map_err(|e| self.err(e))? {
            Some(row) => Ok(Some(self.decode(row)?)),
            None => Ok(None),
        }
    }

    /// Decode a row selected with the columns of `puzzle_columns` (in that order).
    pub(super) fn decode(&self, row: &Row) -> Result<StoredPuzzle, StoreError> {
        let get_err = |e| self.err(e);
        let id: i64 = row.get(0).map_err(get_err)?;
        let bad = |column, value: String| StoreError::BadRow {
            path: self.path.clone(),
            id,
            column,
            value,
        };
        let size: i64 = row.get(5).map_err(get_err)?;
        let box_rows: Option<i64> = row.get(6).map_err(get_err)?;
        let box_cols: Option<i64> = row.get(7).map_err(get_err)?;
        let regions: Option<String> = row.get(8).map_err(get_err)?;
        let n = usize::try_from(size).map_err(|_| bad("size", size.to_string()))?;
        let geometry = match (box_rows, box_cols, regions) {
            (Some(r), Some(c), None) => Geometry::boxed(n, r as usize, c as usize)
                .map_err(|_| bad("box_rows", format!("{r}x{c}")))?,
            (None, None, Some(text)) => codec::regions_from_text(&text)
                .and_then(|map| Geometry::jigsaw(n, map).ok())
                .ok_or_else(|| bad("regions", text))?,
            _ => return Err(bad("regions", "neither a box shape nor regions".into())),
        };
        let grid = |col, column| -> Result<Grid, StoreError> {
            let text: String = row.get(col).map_err(get_err)?;
            codec::grid_from_text(n, &text).ok_or_else(|| bad(column, text))
        };
        let givens = grid(9, "givens")?;
        let solution = grid(10, "solution")?;
        let cages_text: String = row.get(11).map_err(get_err)?;
        let cages =
            codec::cages_from_text(&cages_text).ok_or_else(|| bad("cages", cages_text.clone()))?;
        let puzzle =
            Puzzle::new(geometry, givens, cages).map_err(|e| bad("cages", e.to_string()))?;
        let int = |col| -> Result<u64, StoreError> {
            Ok(row.get::<_, i64>(col).map_err(get_err)? as u64)
        };
        Ok(StoredPuzzle {
            id,
            run: row.get(1).map_err(get_err)?,
            seed: int(2)?,
            index: int(3)?,
            variant: row.get(4).map_err(get_err)?,
            puzzle,
            solution,
            cage_sizes: row.get(12).map_err(get_err)?,
            nodes: int(13)?,
            guesses: int(14)?,
            solver_calls: int(15)? as u32,
            repairs: int(16)? as u32,
            micros: int(17)?,
            level: row.get(18).map_err(get_err)?,
            grade: match row.get::<_, Option<f64>>(19).map_err(get_err)? {
                None => None,
                Some(score) => Some(StoredGrade {
                    score,
                    hardest: row.get(20).map_err(get_err)?,
                    techniques: row
                        .get::<_, Option<String>>(21)
                        .map_err(get_err)?
                        .unwrap_or_default(),
                    trial: row
                        .get::<_, Option<bool>>(22)
                        .map_err(get_err)?
                        .unwrap_or(false),
                    minutes: match row.get::<_, Option<String>>(23).map_err(get_err)? {
                        Some(text) => Some(text.parse().map_err(|_| bad("minutes", text))?),
                        None => None,
                    },
                }),
            },
        })
    }

    /// Counts per variant and level, cage statistics and generation time.
    pub fn summary(&self) -> Result<Summary, StoreError> {
        let one = |sql: &str| -> Result<u64, StoreError> {
            self.conn
                .query_row(sql, [], |r| r.get::<_, i64>(0))
                .map(|v| v as u64)
                .map_err(|e| self.err(e))
        };
        let mut s = Summary {
            runs: one("SELECT count(*) FROM runs")?,
            puzzles: one("SELECT count(*) FROM puzzles")?,
            wall_micros: one("SELECT coalesce(sum(wall_micros), 0) FROM chunks")?,
            gen_micros: one("SELECT coalesce(sum(gen_micros), 0) FROM puzzles")?,
            by_variant: self.variant_counts(false)?,
            by_level: self.variant_counts(true)?,
            ..Summary::default()
        };
        s.work.stored = one("SELECT coalesce(sum(stored), 0) FROM chunks")?;
        s.work.duplicates = one("SELECT coalesce(sum(duplicates), 0) FROM chunks")?;
        s.work.rejected = one("SELECT coalesce(sum(rejected), 0) FROM chunks")?;
        for v in &mut s.by_variant {
            v.cage_sizes = self.cage_size_totals(&v.variant, v.size)?;
        }
        Ok(s)
    }

    fn variant_counts(&self, per_level: bool) -> Result<Vec<VariantCount>, StoreError> {
        let (level, group) = if per_level {
            ("level", ", level")
        } else {
            ("NULL", "")
        };
        let score = match self.schema_version()? >= 3 {
            true => "avg(score), min(score), max(score)",
            false => "NULL, NULL, NULL",
        };
        let sql = format!(
            "SELECT variant, size, {level}, count(*), avg(givens_count), avg(cage_count),
                    min(cage_count), max(cage_count), {score}
             FROM puzzles GROUP BY variant, size{group} ORDER BY variant, size{group}"
        );
        let mut stmt = self.conn.prepare(&sql).map_err(|e| self.err(e))?;
        let rows = stmt
            .query_map([], |r| {
                Ok(VariantCount {
                    variant: r.get(0)?,
                    size: r.get(1)?,
                    level: r.get(2)?,
                    puzzles: r.get::<_, i64>(3)? as u64,
                    givens_mean: r.get(4)?,
                    cages_mean: r.get(5)?,
                    cage_range: (r.get::<_, i64>(6)? as u64, r.get::<_, i64>(7)? as u64),
                    cage_sizes: Vec::new(),
                    score: match (r.get(8)?, r.get(9)?, r.get(10)?) {
                        (Some(mean), Some(min), Some(max)) => Some((mean, min, max)),
                        _ => None,
                    },
                })
            })
            .map_err(|e| self.err(e))?;
        rows.collect::<Result<_, _>>().map_err(|e| self.err(e))
    }

    /// Cages of each size over the puzzles of one variant and size.
    fn cage_size_totals(&self, variant: &str, size: u32) -> Result<Vec<(usize, u64)>, StoreError> {
        let mut stmt = self
            .conn
            .prepare(
                "SELECT cage_sizes, count(*), min(id) FROM puzzles
                 WHERE variant = ?1 AND size = ?2 AND cage_count > 0 GROUP BY cage_sizes",
            )
            .map_err(|e| self.err(e))?;
        let mut rows = stmt
            .query(rusqlite::params![variant, size])
            .map_err(|e| self.err(e))?;
        let mut totals: Vec<u64> = Vec::new();
        while let Some(row) = rows.next().map_err(|e| self.err(e))? {
            let text: String = row.get(0).map_err(|e| self.err(e))?;
            let times = row.get::<_, i64>(1).map_err(|e| self.err(e))? as u64;
            let id: i64 = row.get(2).map_err(|e| self.err(e))?;
            let pairs = codec::histogram_from_text(&text).ok_or_else(|| StoreError::BadRow {
                path: self.path.clone(),
                id,
                column: "cage_sizes",
                value: text.clone(),
            })?;
            for (k, count) in pairs {
                if totals.len() <= k {
                    totals.resize(k + 1, 0);
                }
                totals[k] += count * times;
            }
        }
        Ok(totals
            .into_iter()
            .enumerate()
            .filter(|&(_, c)| c > 0)
            .collect())
    }
}
