//! The SQL schema of a sudoku-press database, and the marks that recognize one.

/// `PRAGMA application_id` of every sudoku-press database: the bytes `SPrs`.
pub const APPLICATION_ID: i32 = 0x5350_7273;
/// `PRAGMA user_version`: the schema revision this build reads and writes.
pub const SCHEMA_VERSION: i32 = 1;

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
