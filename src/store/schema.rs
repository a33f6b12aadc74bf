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
///
/// A file of an older revision is read as it is and upgraded in place (in one transaction) the
/// first time it is opened for writing. A new file gets `CREATE` and then every upgrade. To add a
/// revision: bump this and push `(old revision, SQL)` onto `UPGRADES`.
pub const SCHEMA_VERSION: i32 = 5;

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

/// The SQL that brings a file of revision `.0` to revision `.0 + 1`, in order.
pub const UPGRADES: &[(i32, &str)] = &[
    (1, CREATE_ISSUED),
    (2, ADD_GRADE),
    (3, ADD_GRADER),
    (4, ADD_WITHDRAWN),
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
