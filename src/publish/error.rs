//! Why a book cannot be planned or given out, or a feed day drawn.

use crate::atomic_file::AtomicFileError;
use crate::print::book::LayoutError;
use crate::render::RenderError;
use crate::store::StoreError;
use std::path::PathBuf;
use thiserror::Error;

/// Why a book cannot be planned, written or recorded.
#[derive(Debug, Error)]
pub enum PublishError {
    /// The spec file cannot be read.
    #[error("{path}: cannot read the book spec: {cause}")]
    SpecRead {
        /// The spec path.
        path: PathBuf,
        /// The I/O error.
        cause: std::io::Error,
    },
    /// The spec file is not a valid spec.
    #[error("{path}:{line} bad book spec: {message}")]
    Spec {
        /// The spec path.
        path: PathBuf,
        /// ` line N:` when known.
        line: String,
        /// What is wrong.
        message: String,
    },
    /// Sections given both in the spec and by flags.
    #[error("give the sections either in the spec file or with --level/--ids, not both")]
    SectionsTwice,
    /// `--ids` with a selecting flag.
    #[error("--ids names the puzzles of the book; {0} would select among them: leave it out, or drop --ids and select with --variant/--size/--level/--count")]
    IdsWith(&'static str),
    /// A filter value no puzzle can have.
    #[error("{at}: {what}")]
    UnknownFilter {
        /// Where it was given.
        at: String,
        /// What is wrong and what to use.
        what: String,
    },
    /// A title the PDF cannot print (see [`super::check_printable`]).
    #[error("{at}: {problem}")]
    Unprintable {
        /// Which title (`--title`, the spec's section 2 title, ...).
        at: String,
        /// The character, why, and what to write instead.
        problem: String,
    },
    /// `answers` neither `end` nor `section`.
    #[error("answers = {0:?} in the spec: use \"end\" or \"section\"")]
    Answers(String),
    /// An id named twice in `--ids`.
    #[error("--ids: puzzle {0} is named twice; a book never prints the same puzzle twice")]
    IdTwice(i64),
    /// Ids not in the database.
    #[error("--ids: no puzzle with id {ids} in this database; `sudoku-press export --format csv` lists the ids")]
    NoSuchIds {
        /// The missing ids, comma-separated.
        ids: String,
    },
    /// Too few puzzles for a section.
    #[error("section {title:?} asks for {asked} {what} puzzles, found {found}{note}; generate more or lower the count")]
    Short {
        /// The section title.
        title: String,
        /// How many it asks for.
        asked: usize,
        /// `killer 9x9 hard`.
        what: String,
        /// How many it got.
        found: usize,
        /// What the database holds besides.
        note: String,
    },
    /// `--issue NAME` was recorded before with other puzzles.
    #[error("--issue {name}: a book of that name was issued before with {before}; this command selects {now}. Run the command that made it to print it again, or choose another name")]
    OtherBook {
        /// The name.
        name: String,
        /// What was issued under it.
        before: String,
        /// What this command selects.
        now: String,
    },
    /// Some of the book's puzzles were issued before (by the feed, another book, or an equal).
    #[error("--issue {name}: puzzle {ids} was issued before (by the feed or a book, or one equal to it); nothing was recorded or written")]
    IssuedBefore {
        /// The name.
        name: String,
        /// The refused ids, comma-separated.
        ids: String,
    },
    /// A feed day's puzzles were issued by another process between the draw and the record
    /// (the draw holds the write lock, so only a writer that ignores it gets here).
    #[error("{channel} {date}: puzzle {ids} was issued meanwhile by another process; nothing was recorded: run the same command again")]
    DrawnMeanwhile {
        /// The feed.
        channel: String,
        /// The day.
        date: String,
        /// The refused ids, comma-separated.
        ids: String,
    },
    /// The layout is impossible.
    #[error(transparent)]
    Layout(#[from] LayoutError),
    /// The PDF cannot be drawn.
    #[error(transparent)]
    Render(#[from] RenderError),
    /// The database failed.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// The output file failed.
    #[error(transparent)]
    File(#[from] AtomicFileError),
    /// The PDF could not be placed and its record could not be taken back.
    #[error("{0}")]
    NotUndone(String),
}

/// Ids as `3, 17, 42`.
pub(super) fn id_list(ids: &[i64]) -> String {
    ids.iter()
        .map(|i| i.to_string())
        .collect::<Vec<_>>()
        .join(", ")
}
