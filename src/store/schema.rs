//! The SQL schema of a sudoku-press database, and the marks that recognize one.

/// `PRAGMA application_id` of every sudoku-press database: the bytes `SPrs`.
pub const APPLICATION_ID: i32 = 0x5350_7273;
/// `PRAGMA user_version`: the schema revision this build reads and writes.
///
/// Revisions (each adds to the one before; none changes an existing table):
/// - 1: `runs`, `puzzles`, `chunks`, view `puzzle_origin`.
/// - 2: `issued`, the puzzles given out by the feed or a book (see [`UPGRADES`]).
/// - 3: the human-style grade of every puzzle: `score`, `hardest`, `techniques`, `trial` (see
///   [`ADD_GRADE`]); the rows of an older file are graded in the upgrade (`level` is rewritten).
/// - 4: `grader`, the version of the grader that made a row's grade (see [`ADD_GRADER`]).
/// - 5: `withdrawn`, the feed days taken back by `feed --withdraw` (see [`ADD_WITHDRAWN`]).
/// - 6: views `readable_puzzles` and `readable_issued` for `sqlite3` and BI tools (see
///   [`ADD_READABLE_VIEWS`]).
/// - 7: `minutes`, the estimated solving time (see [`ADD_MINUTES`]); `readable_puzzles` shows it.
///
/// A file of an older revision is read as it is and upgraded in place (in one transaction) the
/// first time it is opened for writing. A new file gets `CREATE` and then every upgrade. To add a
/// revision: bump this and push `(old revision, SQL)` onto `UPGRADES`.
pub const SCHEMA_VERSION: i32 = 7;

/// The oldest revision this build can still read (and upgrade when it writes).
pub const OLDEST_READABLE: i32 = 1;

/// Revision 2: puzzles issued by a feed or a book. A puzzle is issued at most once anywhere
/// (`puzzle` is the key) and so is its canonical form (`canonical_key` UNIQUE, a copy of
/// `puzzles.canonical_key`, so the rule survives a database rebuilt with other ids).
/// `source` is `feed` or `book`; `channel` the feed's or the book's name; `date` the feed's day
/// (`YYYY-MM-DD`, NULL for books); `slot` the feed slot (`killer-9-hard`) or the book section;
/// `position` is the puzzle's place in its day or book, from 0; `number` is the feed's day number or the
/// book's puzzle number.
pub const CREATE_ISSUED: &str = "
CREATE TABLE issued (
    puzzle        INTEGER PRIMARY KEY REFERENCES puzzles (id),
    canonical_key BLOB    NOT NULL UNIQUE,
    source        TEXT    NOT NULL CHECK (source IN ('feed', 'book')),
    channel       TEXT    NOT NULL,
    date          TEXT,
    slot          TEXT    NOT NULL,
    position      INTEGER NOT NULL,
    number        INTEGER NOT NULL,
    issued_at     TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now')),
    UNIQUE (channel, date, slot, position)
);
CREATE INDEX issued_by_date ON issued (channel, date);
";

/// Revision 3: the grade beside `puzzles.level` (`easy` .. `extreme`, or `unrated` when the
/// grader could not decide). `score` orders puzzles (inside a level too), `hardest` names the
/// hardest technique used, `techniques` counts the steps per technique (`name:count;...`, ladder
/// order), `trial` is 1 when the logical path needed trial. NULL `score`: not graded yet (rows of
/// an older file, graded when it is upgraded).
pub const ADD_GRADE: &str = "
ALTER TABLE puzzles ADD COLUMN score REAL;
ALTER TABLE puzzles ADD COLUMN hardest TEXT;
ALTER TABLE puzzles ADD COLUMN techniques TEXT;
ALTER TABLE puzzles ADD COLUMN trial INTEGER;
CREATE INDEX puzzles_by_level ON puzzles (variant, size, level, score);
";

/// Revision 4: `grader`, the `grader::GRADER_VERSION` that graded the row (NULL: none or an older
/// file's). When a file is opened for writing, rows graded by another version are graded again,
/// so that one level means one thing in a file after the grader is recalibrated.
pub const ADD_GRADER: &str = "
ALTER TABLE puzzles ADD COLUMN grader INTEGER;
CREATE INDEX puzzles_by_grader ON puzzles (grader);
";

/// Revision 5: feed days withdrawn by `feed --withdraw`, one row per puzzle the day held.
/// `puzzle` (→ `issued.puzzle`), `channel` and `date` (the feed and the day it was issued on),
/// `withdrawn_at`. Withdrawing keeps the puzzle's `issued` row (so neither it nor its canonical
/// form is ever issued again) and sets its `date` to NULL, which frees the date: a later run for
/// it draws new puzzles. A feed row (`source = 'feed'`) with a NULL `date` is a withdrawn one.
pub const ADD_WITHDRAWN: &str = "
CREATE TABLE withdrawn (
    puzzle       INTEGER PRIMARY KEY REFERENCES issued (puzzle),
    channel      TEXT    NOT NULL,
    date         TEXT    NOT NULL,
    withdrawn_at TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))
);
CREATE INDEX withdrawn_by_date ON withdrawn (channel, date);
";

/// The `SELECT` of view `readable_puzzles`; `$minutes` is `""` (revision 6) or `"p.minutes, "`
/// (revision 7 on), so both revisions share one text.
macro_rules! readable_puzzles {
    ($minutes:literal) => {
        concat!("
CREATE VIEW readable_puzzles AS
SELECT
    p.id, p.variant, p.size, p.box_rows, p.box_cols,
    (SELECT group_concat(substr(p.regions, r.key * p.size + 1, p.size), '|')
       FROM json_each('[0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15]') r
      WHERE r.key < p.size AND p.regions IS NOT NULL) AS regions,
    (SELECT group_concat(substr(p.givens, r.key * p.size + 1, p.size), '|')
       FROM json_each('[0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15]') r
      WHERE r.key < p.size) AS givens,
    (SELECT group_concat(substr(p.solution, r.key * p.size + 1, p.size), '|')
       FROM json_each('[0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15]') r
      WHERE r.key < p.size) AS solution,
    (SELECT json_group_array(json_object(
                'sum', json_extract(c.value, '$[0]'),
                'cells', (SELECT json_group_array('r' || (x.value / p.size + 1) || 'c' || (x.value % p.size + 1))
                            FROM json_each(c.value, '$[1]') x)))
       FROM json_each(CASE p.cages WHEN '' THEN '[]' ELSE
                '[[' || replace(replace(replace(p.cages, '.', ','), ':', ',['), ';', ']],[') || ']]]'
            END) c) AS cages,
    p.givens_count, p.cage_count, p.cage_sizes,
    p.level, p.score, ", $minutes, "p.hardest, p.techniques, p.trial, p.grader,
    EXISTS (SELECT 1 FROM issued i WHERE i.puzzle = p.id) AS issued,
    p.nodes, p.guesses, p.solver_calls, p.repairs, p.gen_micros,
    p.run, p.seed, p.idx
FROM puzzles p;
")
    };
}

/// Revision 6: views for people reading the file with `sqlite3` or a BI tool (nothing in
/// sudoku-press reads them). `readable_puzzles` has one row per puzzle: the grids as text rows
/// (`5.3|...|..9`, top to bottom, `.` empty, `A`-`G` for 10 to 16), `regions` likewise (jigsaw),
/// `cages` as JSON (`[{"sum":15,"cells":["r1c1","r1c2"]},...]`, rows and columns from 1), the
/// grade and the stored metrics under their column names, `issued` 0/1; the binary
/// `canonical_key` is left out. `readable_issued` has one row per issued puzzle with its
/// withdrawal (NULLs when it stands) and the puzzle's variant, size, level and score.
/// Only functions of SQLite 3.9 with JSON1 (built in since 3.38) are used, so an older
/// `sqlite3` still reads the file.
pub const ADD_READABLE_VIEWS: &str = concat!(
    readable_puzzles!(""),
    "
CREATE VIEW readable_issued AS
SELECT
    i.puzzle, i.source, i.channel, coalesce(i.date, w.date) AS date, i.slot, i.position, i.number,
    i.issued_at, w.withdrawn_at,
    p.variant, p.size, p.level, p.score
FROM issued i
JOIN puzzles p ON p.id = i.puzzle
LEFT JOIN withdrawn w ON w.puzzle = i.puzzle;
"
);

/// Revision 7: `minutes`, the grader's estimated solving time for a typical solver, `LOW-HIGH`
/// in whole minutes (`15-25`; NULL: not graded by grader version 5 or later yet — the rows are
/// graded again when the file is opened for writing, which fills it). `readable_puzzles` is made
/// again with `minutes` after `score`.
pub const ADD_MINUTES: &str = concat!(
    "
ALTER TABLE puzzles ADD COLUMN minutes TEXT;
DROP VIEW readable_puzzles;
",
    readable_puzzles!("p.minutes, ")
);

/// The SQL that brings a file of revision `.0` to revision `.0 + 1`, in order.
pub const UPGRADES: &[(i32, &str)] = &[
    (1, CREATE_ISSUED),
    (2, ADD_GRADE),
    (3, ADD_GRADER),
    (4, ADD_WITHDRAWN),
    (5, ADD_READABLE_VIEWS),
    (6, ADD_MINUTES),
];

/// Creates every table, index and view (run once, on an empty file, inside a transaction).
pub const CREATE: &str = "
CREATE TABLE runs (
    id                INTEGER PRIMARY KEY,
    seed              INTEGER NOT NULL,
    settings_hash     TEXT    NOT NULL,
    settings          TEXT    NOT NULL,
    generator_version TEXT    NOT NULL,
    count             INTEGER NOT NULL,
    shard_index       INTEGER NOT NULL,
    shard_count       INTEGER NOT NULL,
    created           TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now')),
    UNIQUE (settings_hash, seed, generator_version, shard_index, shard_count)
);
CREATE TABLE puzzles (
    id            INTEGER PRIMARY KEY,
    run           INTEGER NOT NULL REFERENCES runs (id),
    seed          INTEGER NOT NULL,
    idx           INTEGER NOT NULL,
    variant       TEXT    NOT NULL,
    size          INTEGER NOT NULL,
    box_rows      INTEGER,
    box_cols      INTEGER,
    regions       TEXT,
    givens        TEXT    NOT NULL,
    solution      TEXT    NOT NULL,
    cages         TEXT    NOT NULL,
    givens_count  INTEGER NOT NULL,
    cage_count    INTEGER NOT NULL,
    cage_sizes    TEXT    NOT NULL,
    nodes         INTEGER NOT NULL,
    guesses       INTEGER NOT NULL,
    solver_calls  INTEGER NOT NULL,
    repairs       INTEGER NOT NULL,
    gen_micros    INTEGER NOT NULL,
    level         TEXT    NOT NULL,
    canonical_key BLOB    NOT NULL UNIQUE,
    UNIQUE (run, idx)
);
CREATE TABLE chunks (
    run         INTEGER NOT NULL REFERENCES runs (id),
    first_pos   INTEGER NOT NULL,
    end_pos     INTEGER NOT NULL,
    stored      INTEGER NOT NULL,
    duplicates  INTEGER NOT NULL,
    rejected    INTEGER NOT NULL,
    wall_micros INTEGER NOT NULL,
    PRIMARY KEY (run, first_pos)
);
CREATE VIEW puzzle_origin AS
    SELECT p.id, p.seed, p.idx, r.settings_hash, r.generator_version, r.shard_index, r.shard_count
    FROM puzzles p JOIN runs r ON r.id = p.run;
";

#[cfg(test)]
mod tests {
    use crate::store::{codec, Query, Store};
    use rusqlite::Connection;

    /// A fresh database of a few 4x4 killers.
    fn generated(path: &std::path::Path) {
        crate::test_support::generate_4x4_killers(path, 4, 11);
    }

    fn view_names(conn: &Connection) -> Vec<String> {
        let mut stmt = conn
            .prepare("SELECT name FROM sqlite_master WHERE type = 'view' ORDER BY name")
            .unwrap();
        let names = stmt.query_map([], |r| r.get(0)).unwrap();
        names.collect::<Result<_, _>>().unwrap()
    }

    #[test]
    fn the_readable_view_spells_grids_as_rows_and_cages_with_cell_names() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("v.db");
        generated(&path);
        let store = Store::open_read_only(&path).unwrap();
        let first = store.select(&Query::all(), &Default::default()).unwrap();
        let p = &first[0];
        let conn = Connection::open(&path).unwrap();
        let columns: Vec<String> = conn
            .prepare("SELECT * FROM readable_puzzles")
            .unwrap()
            .column_names()
            .into_iter()
            .map(String::from)
            .collect();
        assert!(
            !columns.iter().any(|c| c.contains("canonical")),
            "{columns:?}"
        );
        for wanted in [
            "id", "givens", "solution", "cages", "level", "score", "grader",
        ] {
            assert!(columns.iter().any(|c| c == wanted), "{wanted}: {columns:?}");
        }
        let (givens, solution, cages, level, issued): (String, String, String, String, i64) = conn
            .query_row(
                "SELECT givens, solution, cages, level, issued FROM readable_puzzles WHERE id = ?1",
                [p.id],
                |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?)),
            )
            .unwrap();
        let rows = |text: &str| {
            text.as_bytes()
                .chunks(4)
                .map(|c| String::from_utf8(c.to_vec()).unwrap())
                .collect::<Vec<_>>()
                .join("|")
        };
        assert_eq!(givens, rows(&codec::grid_to_text(p.puzzle.givens())));
        assert_eq!(solution, rows(&codec::grid_to_text(&p.solution)));
        assert_eq!((level, issued), (p.level.clone(), 0));
        let json: serde_json::Value = serde_json::from_str(&cages).unwrap();
        let cages_back: Vec<(u64, Vec<String>)> = json
            .as_array()
            .unwrap()
            .iter()
            .map(|c| {
                let cells = c["cells"].as_array().unwrap();
                let names = cells.iter().map(|n| n.as_str().unwrap().to_string());
                (c["sum"].as_u64().unwrap(), names.collect())
            })
            .collect();
        let expected: Vec<(u64, Vec<String>)> = p
            .puzzle
            .cages()
            .iter()
            .map(|c| {
                let names = c.cells.iter().map(|cell| {
                    let i = cell.get() as usize;
                    format!("r{}c{}", i / 4 + 1, i % 4 + 1)
                });
                (c.sum as u64, names.collect())
            })
            .collect();
        assert!(!expected.is_empty());
        assert_eq!(cages_back, expected);
        let count: i64 = conn
            .query_row("SELECT count(*) FROM readable_puzzles", [], |r| r.get(0))
            .unwrap();
        assert_eq!(count as usize, first.len());
        // An issued puzzle shows in both views.
        drop(store);
        let mut store = Store::open_or_create(&path).unwrap();
        let entries = [("Easy".to_string(), p.id, 1)];
        store.issue_book("vol1", &entries).unwrap().unwrap();
        store.close().unwrap();
        let (issued, channel, size): (i64, String, i64) = conn
            .query_row(
                "SELECT r.issued, i.channel, i.size FROM readable_puzzles r
                 JOIN readable_issued i ON i.puzzle = r.id WHERE r.id = ?1",
                [p.id],
                |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
            )
            .unwrap();
        assert_eq!((issued, channel.as_str(), size), (1, "vol1", 4));
    }

    #[test]
    fn a_revision_6_file_gets_minutes_when_opened_for_writing() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("six.db");
        generated(&path);
        {
            // As grader version 4 left it: no minutes column, the revision-6 views.
            let conn = Connection::open(&path).unwrap();
            conn.execute_batch(
                "DROP VIEW readable_puzzles; DROP VIEW readable_issued;
                 ALTER TABLE puzzles DROP COLUMN minutes; UPDATE puzzles SET grader = 4;
                 PRAGMA user_version = 6;",
            )
            .unwrap();
            conn.execute_batch(super::ADD_READABLE_VIEWS).unwrap();
        }
        Store::open_or_create(&path).unwrap().close().unwrap();
        let conn = Connection::open(&path).unwrap();
        let version: i32 = conn
            .query_row("PRAGMA user_version", [], |r| r.get(0))
            .unwrap();
        assert_eq!(version, super::SCHEMA_VERSION);
        let mut stmt = conn
            .prepare("SELECT minutes FROM readable_puzzles ORDER BY id")
            .unwrap();
        let minutes: Vec<String> = stmt
            .query_map([], |r| r.get(0))
            .unwrap()
            .map(Result::unwrap)
            .collect();
        assert!(!minutes.is_empty());
        for m in minutes {
            let range: crate::grader::Minutes = m.parse().unwrap();
            assert!(range.low >= 1 && range.low < range.high, "{m}");
        }
    }

    #[test]
    fn an_older_file_is_read_as_it_is_and_gets_the_views_when_opened_for_writing() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("old.db");
        generated(&path);
        {
            let conn = Connection::open(&path).unwrap();
            conn.execute_batch(
                "DROP VIEW readable_puzzles; DROP VIEW readable_issued;
                 ALTER TABLE puzzles DROP COLUMN minutes; PRAGMA user_version = 5;",
            )
            .unwrap();
        }
        let store = Store::open_read_only(&path).unwrap();
        assert!(!store
            .select(&Query::all(), &Default::default())
            .unwrap()
            .is_empty());
        drop(store);
        assert_eq!(
            view_names(&Connection::open(&path).unwrap()),
            ["puzzle_origin"]
        );
        Store::open_or_create(&path).unwrap().close().unwrap();
        let conn = Connection::open(&path).unwrap();
        assert_eq!(
            view_names(&conn),
            ["puzzle_origin", "readable_issued", "readable_puzzles"]
        );
        let version: i32 = conn
            .query_row("PRAGMA user_version", [], |r| r.get(0))
            .unwrap();
        assert_eq!(version, super::SCHEMA_VERSION);
    }
}
