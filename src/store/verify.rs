//! Re-reading a database for `verify` and `merge`: every row decoded on its own (a bad row is
//! reported, not fatal), stored solutions checked against their puzzle, the columns derived
//! from a puzzle (variant, counts, grade) recomputed from it, and the run, chunk and issue
//! records checked against the rows they account for.

use super::codec;
use super::grade::GradeRow;
use super::read::{StoredPuzzle, DECODED_COLUMNS};
use super::write::RunState;
use super::{Store, StoreError};
use crate::check::find_conflicts;
use crate::geometry::Regions;
use crate::grader::{self, GRADER_VERSION};

/// One stored row as `verify` sees it.
#[derive(Debug)]
pub struct CheckedRow {
    /// Row id.
    pub id: i64,
    /// The decoded row, or why it does not decode.
    pub decoded: Result<StoredPuzzle, StoreError>,
    /// The stored canonical-key fingerprint (16 bytes when written by sudoku-press).
    pub canonical_key: Vec<u8>,
    /// The stored `givens_count` and `cage_count` (`None` when not whole numbers).
    pub counts: (Option<i64>, Option<i64>),
    /// The grader version that made the stored grade (`None`: none recorded, or an older file).
    pub grader: Option<i64>,
}

impl CheckedRow {
    /// The stored columns that do not match what the decoded puzzle gives, one line each:
    /// `variant`, `givens_count`, `cage_count`, `cage_sizes`, and, when this build's grader made
    /// the stored grade, `level`, `score`, `hardest`, `techniques`, `trial` and `minutes` (grading is
    /// deterministic; a row graded by another version is graded again when the file is next
    /// opened for writing). Empty when the row does not decode (that is reported on its own).
    pub fn column_problems(&self) -> Vec<String> {
        let Ok(p) = &self.decoded else {
            return Vec::new();
        };
        let mut problems = Vec::new();
        let mut compare = |column: &str, stored: String, computed: String| {
            if stored != computed {
                problems.push(format!(
                    "column `{column}` holds {stored}, but the puzzle gives {computed}"
                ));
            }
        };
        compare("variant", quoted(&p.variant), quoted(variant_of(p)));
        let puzzle = &p.puzzle;
        let whole =
            |n: Option<i64>| n.map_or("a value that is no whole number".into(), |n| n.to_string());
        compare(
            "givens_count",
            whole(self.counts.0),
            puzzle.givens().count_filled().to_string(),
        );
        compare(
            "cage_count",
            whole(self.counts.1),
            puzzle.cages().len().to_string(),
        );
        let mut sizes = vec![0u32; puzzle.size() + 1];
        for cage in puzzle.cages() {
            sizes[cage.len()] += 1;
        }
        compare(
            "cage_sizes",
            quoted(&p.cage_sizes),
            quoted(&codec::histogram_to_text(&sizes)),
        );
        if let (Some(stored), Some(GRADER_VERSION)) = (&p.grade, self.grader) {
            let g = GradeRow::from_grade(&grader::grade(puzzle));
            compare("level", quoted(&p.level), quoted(g.level));
            compare("score", stored.score.to_string(), g.score.to_string());
            let hardest = |h: Option<&str>| h.map_or("NULL".into(), quoted);
            compare(
                "hardest",
                hardest(stored.hardest.as_deref()),
                hardest(g.hardest),
            );
            compare(
                "techniques",
                quoted(&stored.techniques),
                quoted(&g.techniques),
            );
            compare("trial", stored.trial.to_string(), g.trial.to_string());
            let minutes = |m: Option<String>| m.map_or("NULL".into(), |m| quoted(&m));
            compare(
                "minutes",
                minutes(stored.minutes.map(|m| m.to_string())),
                minutes(g.minutes),
            );
        }
        problems
    }
}

/// The variant a puzzle is: cages or not, boxes or irregular regions.
fn variant_of(p: &StoredPuzzle) -> &'static str {
    let jigsaw = matches!(p.puzzle.geometry().regions(), Regions::Jigsaw(_));
    match (p.puzzle.cages().is_empty(), jigsaw) {
        (false, false) => "killer",
        (true, false) => "classic",
        (true, true) => "jigsaw",
        (false, true) => "killer-jigsaw",
    }
}

/// A stored text as a message shows it (quoted, escaped).
fn quoted(text: &str) -> String {
    format!("{text:?}")
}

/// What is wrong with a stored solution, if anything: not filled, or breaks a rule or a given.
pub fn solution_problem(p: &StoredPuzzle) -> Option<String> {
    if p.solution.values().contains(&0) {
        return Some("the stored solution has empty cells".into());
    }
    match find_conflicts(&p.puzzle, &p.solution) {
        Ok(c) if c.is_empty() => None,
        Ok(c) => Some(format!("the stored solution is wrong: {}", c[0])),
        Err(e) => Some(format!("the stored solution does not fit: {e}")),
    }
}

impl Store {
    /// Call `f` on every row (of run `run`, or of all runs) in id order, with the row decoded or
    /// the reason it does not decode.
    pub fn for_each_checked_row<E: From<StoreError>>(
        &self,
        run: Option<i64>,
        mut f: impl FnMut(CheckedRow) -> Result<(), E>,
    ) -> Result<(), E> {
        let filter = if run.is_some() {
            "WHERE p.run = ?1"
        } else {
            ""
        };
        let columns = self.puzzle_columns()?;
        let grader = match self.schema_version()? >= 4 {
            true => "p.grader",
            false => "NULL",
        };
        let sql = format!(
            "SELECT {columns}, p.canonical_key, p.givens_count, p.cage_count, {grader}
             FROM puzzles p {filter} ORDER BY p.id"
        );
        let mut stmt = self.conn.prepare(&sql).map_err(|e| self.err(e))?;
        let mut rows = match run {
            Some(id) => stmt.query([id]),
            None => stmt.query([]),
        }
        .map_err(|e| self.err(e))?;
        while let Some(row) = rows.next().map_err(|e| self.err(e))? {
            let id: i64 = row.get(0).map_err(|e| self.err(e))?;
            let canonical_key = row.get::<_, Vec<u8>>(DECODED_COLUMNS).unwrap_or_default();
            // A hand-edited text or real in a number column reads as `None`: reported, not fatal.
            let number = |i| row.get::<_, i64>(DECODED_COLUMNS + i).ok();
            f(CheckedRow {
                id,
                decoded: self.decode(row),
                canonical_key,
                counts: (number(1), number(2)),
                grader: number(3),
            })?;
        }
        Ok(())
    }

    /// Check one run's rows before they are copied (`merge`): each decodes, its solution solves
    /// it, its derived columns and grade match it ([`CheckedRow::column_problems`]), and their
    /// number is the number its chunk records say were stored.
    pub fn validate_run_rows(&self, run: &RunState) -> Result<(), StoreError> {
        let mut rows = 0u64;
        self.for_each_checked_row(Some(run.id), |row| {
            rows += 1;
            let columns = row.column_problems();
            let p = row.decoded?;
            let found = solution_problem(&p).or_else(|| columns.into_iter().next());
            if let Some(problem) = found {
                return Err(StoreError::Merge(format!(
                    "{}: puzzle id {}: {problem}; run `sudoku-press verify --db {}` for the full list",
                    self.path.display(),
                    p.id,
                    self.path.display()
                )));
            }
            Ok(())
        })?;
        if rows != run.totals.stored {
            return Err(StoreError::Merge(format!(
                "{}: run {} holds {rows} puzzles but its chunk records say {} were stored (rows deleted or added by hand?); run `sudoku-press verify --db {}`",
                self.path.display(),
                run.id,
                run.totals.stored,
                self.path.display()
            )));
        }
        Ok(())
    }

    /// Problems with the run and chunk records: chunks that leave gaps or overlap, progress past
    /// the run's end, row counts that differ from the chunks' totals, rows outside their run's
    /// committed positions or shard, rows of no run. Empty when all is consistent.
    pub fn record_problems(&self) -> Result<Vec<String>, StoreError> {
        let mut problems = Vec::new();
        for run in self.runs()? {
            self.run_problems(&run, &mut problems)?;
        }
        let orphans = self.count(
            "SELECT count(*) FROM puzzles WHERE run NOT IN (SELECT id FROM runs)",
            None,
        )?;
        if orphans > 0 {
            problems.push(format!("{orphans} puzzles belong to no recorded run"));
        }
        if self.schema_version()? >= 2 {
            self.issued_problems(&mut problems)?;
        }
        Ok(problems)
    }

    /// Issue records that point at no stored puzzle, or whose canonical key is not their
    /// puzzle's (the stored key is itself checked against the puzzle, row by row).
    fn issued_problems(&self, problems: &mut Vec<String>) -> Result<(), StoreError> {
        let mut stmt = self
            .conn
            .prepare(
                "SELECT i.puzzle, i.source, i.channel, coalesce(i.date, ''), i.slot,
                        p.id IS NULL, p.id IS NOT NULL AND i.canonical_key IS NOT p.canonical_key
                 FROM issued i LEFT JOIN puzzles p ON p.id = i.puzzle
                 WHERE p.id IS NULL OR i.canonical_key IS NOT p.canonical_key
                 ORDER BY i.puzzle",
            )
            .map_err(|e| self.err(e))?;
        let rows = stmt
            .query_map([], |r| {
                let record = format!(
                    "issued record of puzzle id {} ({} {:?}{}, slot {:?})",
                    r.get::<_, i64>(0)?,
                    r.get::<_, String>(1)?,
                    r.get::<_, String>(2)?,
                    match r.get::<_, String>(3)? {
                        date if date.is_empty() => String::new(),
                        date => format!(" {date}"),
                    },
                    r.get::<_, String>(4)?,
                );
                Ok(match (r.get::<_, bool>(5)?, r.get::<_, bool>(6)?) {
                    (true, _) => format!("{record}: no such puzzle is stored"),
                    _ => format!("{record}: its canonical key is not its puzzle's (edited by hand, or the puzzle was replaced?)"),
                })
            })
            .map_err(|e| self.err(e))?;
        for row in rows {
            problems.push(row.map_err(|e| self.err(e))?);
        }
        Ok(())
    }

    fn run_problems(&self, run: &RunState, problems: &mut Vec<String>) -> Result<(), StoreError> {
        let name = format!("run {} (seed {}, shard {})", run.id, run.seed, run.shard);
        let spans: Vec<(i64, i64)> = {
            let mut stmt = self
                .conn
                .prepare("SELECT first_pos, end_pos FROM chunks WHERE run = ?1 ORDER BY first_pos")
                .map_err(|e| self.err(e))?;
            let rows = stmt
                .query_map([run.id], |r| Ok((r.get(0)?, r.get(1)?)))
                .map_err(|e| self.err(e))?;
            rows.collect::<Result<_, _>>().map_err(|e| self.err(e))?
        };
        let mut at = 0i64;
        for (first, end) in spans {
            if first != at || end <= first {
                problems.push(format!(
                    "{name}: chunk records are not contiguous (expected one starting at position {at}, found {first}..{end})"
                ));
            }
            at = at.max(end);
        }
        let positions = run.shard.positions(run.count);
        if run.next_pos > positions {
            problems.push(format!(
                "{name}: progress says {} positions, the run has only {positions}",
                run.next_pos
            ));
        }
        let rows = self.count("SELECT count(*) FROM puzzles WHERE run = ?1", Some(run.id))?;
        if rows != run.totals.stored {
            problems.push(format!(
                "{name}: {rows} puzzles stored, but the chunk records say {} (rows deleted or added by hand?)",
                run.totals.stored
            ));
        }
        let (i, n) = (run.shard.index() as i64, run.shard.count() as i64);
        let outside = self.count(
            &format!(
                "SELECT count(*) FROM puzzles WHERE run = ?1 AND (idx % {n} != {i} OR idx / {n} >= {})",
                run.next_pos
            ),
            Some(run.id),
        )?;
        if outside > 0 {
            problems.push(format!(
                "{name}: {outside} puzzles have a work item outside the run's shard or committed positions"
            ));
        }
        Ok(())
    }

    fn count(&self, sql: &str, run: Option<i64>) -> Result<u64, StoreError> {
        let result = match run {
            Some(id) => self.conn.query_row(sql, [id], |r| r.get::<_, i64>(0)),
            None => self.conn.query_row(sql, [], |r| r.get::<_, i64>(0)),
        };
        result.map(|v| v as u64).map_err(|e| self.err(e))
    }
}
