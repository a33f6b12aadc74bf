//! `FormatError`: what is wrong with an input, where (line, column or cell), and how to fix it.

use crate::geometry::GeometryError;
use crate::puzzle::PuzzleError;
use thiserror::Error;

/// The longest line read, in bytes: far above any real puzzle, it bounds memory on garbage input.
pub const MAX_LINE: usize = 1 << 20;

/// Why an input could not be read or written.
#[derive(Debug, Error)]
pub enum FormatError {
    /// No puzzle at all.
    #[error("the input is empty: expected at least one puzzle")]
    Empty,
    /// The underlying reader or writer failed.
    #[error("cannot read or write: {0}")]
    Io(#[from] std::io::Error),
    /// A problem located on one line.
    #[error("line {line}: {kind}")]
    At {
        /// 1-based line number.
        line: usize,
        /// What is wrong there.
        kind: ErrorKind,
    },
    /// A puzzle that the chosen output format cannot express.
    #[error("the {format} format cannot hold this puzzle: {reason}")]
    Unrepresentable {
        /// Format name.
        format: &'static str,
        /// What it lacks.
        reason: &'static str,
    },
}

/// What is wrong on a line.
#[derive(Debug, Error)]
pub enum ErrorKind {
    /// Bytes that are not UTF-8 text.
    #[error("not UTF-8 text (is this a binary file?)")]
    NotText,
    /// A line beyond `MAX_LINE`.
    #[error("line longer than {MAX_LINE} bytes: not a puzzle file")]
    TooLong,
    /// The format could not be recognised.
    #[error("cannot tell the format of `{text}`: expected a JSON object, a `3x3::k:` code, a plain puzzle string or a cage count; name it with --format")]
    Unknown {
        /// The start of the line.
        text: String,
    },
    /// A plain string of a length that is no N².
    #[error("{len} characters, a plain puzzle has 16, 36, 64, 81, 144 or 256 (N x N for N = 4, 6, 8, 9, 12, 16)")]
    PlainLength {
        /// Characters found.
        len: usize,
    },
    /// A character that is no digit or empty mark.
    #[error("column {column}: `{ch}` is not a cell: use 1-9, A-G for 10-16, and `.` or `0` for an empty cell")]
    BadChar {
        /// 1-based column (in characters).
        column: usize,
        /// The character.
        ch: char,
    },
    /// A digit larger than the grid allows.
    #[error("column {column}: digit `{ch}` ({value}) is too large for a {size}x{size} grid")]
    DigitTooLarge {
        /// 1-based column.
        column: usize,
        /// The character.
        ch: char,
        /// Its value.
        value: usize,
        /// Grid side.
        size: usize,
    },
    /// Malformed JSON.
    #[error("column {column}: invalid JSON: {message}")]
    Json {
        /// 1-based column.
        column: usize,
        /// The parser's message.
        message: String,
    },
    /// A JSON field missing or of the wrong shape.
    #[error("`{field}` should be {expected}, found {found}")]
    Field {
        /// Field path, e.g. `cages[3].sum`.
        field: String,
        /// What it must be.
        expected: String,
        /// The start of what was there.
        found: String,
    },
    /// A token that is not what the format needs here.
    #[error("expected {expected}, found `{found}`")]
    Expected {
        /// What the format needs.
        expected: String,
        /// The offending text.
        found: String,
    },
    /// The input stops in the middle of a puzzle.
    #[error("the input ends early: expected {expected}")]
    Truncated {
        /// What was still missing.
        expected: String,
    },
    /// A bad geometry (size, boxes, regions).
    #[error(transparent)]
    Geometry(#[from] GeometryError),
    /// A puzzle that breaks a rule (cages, givens).
    #[error(transparent)]
    Puzzle(#[from] PuzzleError),
    /// An error in a seed-format puzzle whose size was guessed from its cages.
    #[error("{inner} (the seed format has no size: this was read as {size}x{size} because its cages cover {covered} cells; if the grid is larger, give --size N)")]
    GuessedSize {
        /// The guessed side.
        size: usize,
        /// Cells the cages cover.
        covered: usize,
        /// The error under that guess.
        inner: Box<ErrorKind>,
    },
}

impl FormatError {
    /// An error on `line`.
    pub fn at(line: usize, kind: impl Into<ErrorKind>) -> Self {
        FormatError::At {
            line,
            kind: kind.into(),
        }
    }
    /// Is this a well-formed puzzle that breaks a rule no solution can keep (a cage sum its cells
    /// cannot make, givens that clash)? Its answer is "no solution"; the input goes on after it.
    pub fn is_unsolvable(&self) -> bool {
        matches!(
            self,
            FormatError::At {
                kind: ErrorKind::Puzzle(
                    PuzzleError::ImpossibleSum { .. }
                        | PuzzleError::GivenConflict { .. }
                        | PuzzleError::CageGivens(_)
                ),
                ..
            }
        )
    }
    /// The line the error is on, if it has one.
    pub fn line(&self) -> Option<usize> {
        match self {
            FormatError::At { line, .. } => Some(*line),
            _ => None,
        }
    }
}

/// At most 40 characters of `text`, for messages (whole characters, never a split one).
pub fn excerpt(text: &str) -> String {
    const LIMIT: usize = 40;
    match text.char_indices().nth(LIMIT) {
        Some((end, _)) => format!("{}...", &text[..end]),
        None => text.to_string(),
    }
}

/// An `Expected` error kind.
pub fn expected(what: impl Into<String>, found: &str) -> ErrorKind {
    ErrorKind::Expected {
        expected: what.into(),
        found: excerpt(found),
    }
}

/// The 1-based cage a puzzle error is about, if it is about one cage.
pub fn cage_of(err: &PuzzleError) -> Option<usize> {
    match *err {
        PuzzleError::CellOutOfRange { cage, .. }
        | PuzzleError::CageTooLarge { cage, .. }
        | PuzzleError::ImpossibleSum { cage, .. }
        | PuzzleError::Overlap { second: cage, .. }
        | PuzzleError::EmptyCage(cage)
        | PuzzleError::Disconnected(cage)
        | PuzzleError::CageGivens(cage) => Some(cage),
        PuzzleError::GivensSize { .. } | PuzzleError::GivenConflict { .. } => None,
    }
}
