//! Puzzle text formats, one module per format holding both directions (the reader and the
//! writer of one puzzle), and the streaming reader of the four input formats (`Format`: cage
//! list, plain, JSON lines, SudoCue) with their detection. f-puzzles, SudokuWiki and ipuz are
//! written by `export` and read back by tests and other tools; `rows` is the solution grid.

pub mod cage_list;
pub mod error;
pub mod fpuzzles;
pub mod ipuz;
pub mod jsonl;
pub mod lines;
pub mod lzstring;
pub mod plain;
pub mod rows;
pub mod sudocue;
pub mod sudokuwiki;
#[cfg(test)]
mod worked;

pub use error::{ErrorKind, FormatError};
pub use jsonl::{Object, RawObject};
pub use rows::{read_grid, write_rows};

use crate::geometry::Geometry;
use crate::grid::Grid;
use crate::puzzle::Puzzle;
use lines::{Line, Lines};
use std::io::BufRead;

/// The grid sides the formats read: 4x4 (2x2 boxes), 6x6, 8x8, 9x9, 12x12, 16x16.
pub const SIZES: [usize; 6] = [4, 6, 8, 9, 12, 16];

/// A puzzle file format.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Format {
    /// The cage list of the source documents (`seed` on the command line): cage count, then
    /// "cells sum" and "row col" lines.
    CageList,
    /// N² characters a line, `.` or `0` empty.
    Plain,
    /// One puzzle JSON object a line.
    Jsonl,
    /// The SudoCue / JSudoku / SudokuSolver killer code `3x3::k:...`, one a line.
    Sudocue,
}

impl Format {
    /// Every format, in the order `--format` lists them.
    pub const ALL: [Format; 4] = [
        Format::CageList,
        Format::Plain,
        Format::Jsonl,
        Format::Sudocue,
    ];

    /// The format's name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Format::CageList => "seed",
            Format::Plain => "plain",
            Format::Jsonl => "jsonl",
            Format::Sudocue => "sudocue",
        }
    }
}

impl std::fmt::Display for Format {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for Format {
    type Err = String;

    fn from_str(name: &str) -> Result<Self, Self::Err> {
        Format::ALL
            .into_iter()
            .find(|f| f.name() == name)
            .ok_or_else(|| format!("unknown format `{name}`: use seed, plain, jsonl or sudocue"))
    }
}

/// Guess the format from the first line of the input that is not blank or a comment.
pub fn detect(first_line: &str) -> Option<Format> {
    let text = first_line.trim();
    let is_plain = |t: &str| !t.is_empty() && t.chars().all(|c| plain::char_value(c).is_some());
    if text.starts_with('{') {
        Some(Format::Jsonl)
    } else if sudocue::looks_like(text) {
        Some(Format::Sudocue)
    } else if is_plain(text) && plain::size_of_len(text.len()).is_some() {
        Some(Format::Plain)
    } else if cage_list::strip_comment(text)
        .bytes()
        .all(|b| b.is_ascii_digit())
    {
        // A lone whole number: a cage list's cage count.
        Some(Format::CageList)
    } else if is_plain(text) {
        // Plain characters of the wrong length: let the plain reader say what is wrong.
        Some(Format::Plain)
    } else {
        None
    }
}

/// One puzzle read from an input.
#[derive(Clone, Debug)]
pub struct Entry {
    /// The line the puzzle starts on (1-based).
    pub line: usize,
    /// The puzzle.
    pub puzzle: Puzzle,
    /// A solution stored with it, if the format has one.
    pub solution: Option<Grid>,
    /// For JSON lines: the original object, extra keys included.
    pub object: Option<RawObject>,
}

/// Reads the entries of an input one at a time (bounded memory, whatever the file's length).
pub struct Reader<R> {
    lines: Lines<R>,
    format: Format,
    pending: Option<Line>,
    failed: bool,
    size: Option<usize>,
    /// The geometry of the last JSON line, lent to the next one.
    geometry: Option<Geometry>,
    /// The object of the last JSON line whose puzzle was refused, for [`Reader::items`].
    refused: Option<RawObject>,
}

/// One item of an input read by [`Reader::items`].
#[derive(Debug)]
pub enum Item {
    /// A puzzle.
    Entry(Entry),
    /// A well-formed puzzle that breaks a rule no solution can keep
    /// ([`FormatError::is_unsolvable`]): the input goes on after it.
    Unsolvable {
        /// The line it starts on.
        line: usize,
        /// The rule it breaks.
        error: FormatError,
        /// For JSON lines: the object as read, so that its answer keeps the input's keys.
        object: Option<RawObject>,
    },
}

/// Is a line more than blank space or a comment (`#` or `//` to the end of the line)?
pub fn is_content(text: &str) -> bool {
    // A line that starts (after blank space) with neither `/` nor `#` keeps that character
    // whatever follows: no need to look for a comment in a long JSON line.
    match text.trim_start().as_bytes().first() {
        None => return false,
        Some(b'/' | b'#') => {}
        Some(_) => return true,
    }
    let text = cage_list::strip_comment(text);
    !text.is_empty() && !text.starts_with('#')
}

impl<R: BufRead> Reader<R> {
    /// A reader of `input` in `format`, or in the format detected from its first line.
    pub fn new(input: R, format: Option<Format>) -> Result<Self, FormatError> {
        let mut lines = Lines::new(input);
        let first = lines.next_matching(is_content)?.ok_or(FormatError::Empty)?;
        let format = match format {
            Some(f) => f,
            None => detect(&first.text).ok_or_else(|| {
                let text = error::excerpt(first.text.trim());
                FormatError::at(first.number, ErrorKind::Unknown { text })
            })?,
        };
        Ok(Reader {
            lines,
            format,
            pending: Some(first),
            failed: false,
            size: None,
            geometry: None,
            refused: None,
        })
    }

    /// Read cage lists (`--format seed`) on a grid of side `size` instead of inferring it from the
    /// cages (the format has no size field). Other formats carry their size and ignore this.
    pub fn with_size(mut self, size: Option<usize>) -> Self {
        self.size = size;
        self
    }

    /// The format being read.
    pub fn format(&self) -> Format {
        self.format
    }

    fn next_line(&mut self) -> Result<Option<Line>, FormatError> {
        match self.pending.take() {
            Some(line) => Ok(Some(line)),
            None => self.lines.next_matching(is_content),
        }
    }

    fn next_entry(&mut self) -> Result<Option<Entry>, FormatError> {
        let Some(line) = self.next_line()? else {
            return Ok(None);
        };
        let number = line.number;
        let single = |puzzle| Entry {
            line: number,
            puzzle,
            solution: None,
            object: None,
        };
        let entry = match self.format {
            Format::CageList => single(cage_list::parse_sized(line, &mut self.lines, self.size)?),
            Format::Sudocue => single(sudocue::parse_line(&line.text, number)?),
            Format::Plain => single(plain::parse_line(&line.text, number)?),
            Format::Jsonl => {
                let parsed = jsonl::parse_keeping_object(line.text, number, self.geometry.as_ref())
                    .map_err(|(err, object)| {
                        self.refused = object.map(|o| *o);
                        err
                    })?;
                // Keep the geometry for the next lines (most files hold one grid shape).
                if self.geometry.as_ref() != Some(parsed.puzzle.geometry()) {
                    self.geometry = Some(parsed.puzzle.geometry().clone());
                }
                Entry {
                    line: number,
                    puzzle: parsed.puzzle,
                    solution: parsed.solution,
                    object: Some(parsed.object),
                }
            }
        };
        Ok(Some(entry))
    }
}

impl<R: BufRead> Reader<R> {
    /// The items of the input: each unsolvable puzzle is an item with the object it was read
    /// from, not an error; a malformed entry is an error and the last item.
    pub fn items(mut self) -> impl Iterator<Item = Result<Item, FormatError>> {
        std::iter::from_fn(move || {
            self.refused = None;
            Some(match self.next()? {
                Ok(entry) => Ok(Item::Entry(entry)),
                Err(error) if error.is_unsolvable() => Ok(Item::Unsolvable {
                    line: error.line().unwrap_or(0),
                    error,
                    object: self.refused.take(),
                }),
                Err(error) => Err(error),
            })
        })
    }
}

impl<R: BufRead> Iterator for Reader<R> {
    type Item = Result<Entry, FormatError>;

    /// The next entry; after an error the reader stops, except after an unsolvable but
    /// well-formed puzzle (`FormatError::is_unsolvable`), whose text has been read whole.
    fn next(&mut self) -> Option<Self::Item> {
        if self.failed {
            return None;
        }
        let result = self.next_entry();
        self.failed = result.as_ref().is_err_and(|e| !e.is_unsolvable());
        result.transpose()
    }
}

/// Write one puzzle in `format`: the plain string of its givens, its JSON line, its killer code,
/// or its cage list. Fails when the format cannot hold the puzzle (see each module).
pub fn write_puzzle<W: std::io::Write>(
    out: &mut W,
    puzzle: &Puzzle,
    format: Format,
) -> Result<(), FormatError> {
    match format {
        Format::CageList => cage_list::write_puzzle(out, puzzle),
        Format::Sudocue => sudocue::write_puzzle(out, puzzle),
        Format::Jsonl => Ok(jsonl::write_puzzle(out, puzzle, None)?),
        Format::Plain => plain::write_puzzle(out, puzzle),
    }
}

/// Open a puzzle or grid file for reading; `-` is standard input.
pub fn open_input(path: &str) -> std::io::Result<Box<dyn BufRead + Send>> {
    if path == "-" {
        // Not `stdin().lock()`: the reader may run on a thread of its own.
        return Ok(Box::new(std::io::BufReader::new(std::io::stdin())));
    }
    let file = std::fs::File::open(path)?;
    Ok(Box::new(std::io::BufReader::new(file)))
}

/// Read every entry of a text (for small inputs and tests).
pub fn read_all(text: &str, format: Option<Format>) -> Result<Vec<Entry>, FormatError> {
    Reader::new(text.as_bytes(), format)?.collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn detects_and_streams_line_formats() {
        let text = format!("\n# a comment\n{}\n\n{}\n", ".".repeat(81), "1".repeat(16));
        let mut reader = Reader::new(text.as_bytes(), None).unwrap();
        assert_eq!(reader.format(), Format::Plain);
        let first = reader.next().unwrap().unwrap();
        assert_eq!((first.line, first.puzzle.size()), (3, 9));
        let err = reader.next().unwrap().unwrap_err();
        assert_eq!(err.line(), Some(5));
        assert!(reader.next().is_none());
    }

    #[test]
    fn each_json_line_keeps_its_own_boxes() {
        // 6x6 grids with 2x3 and 3x2 boxes, then a jigsaw: a geometry is lent to the next line
        // only when its boxes are the same.
        let givens = format!("[{}]", vec!["0"; 36].join(", "));
        let boxed = |r, c| {
            format!(r#"{{"size": 6, "box_rows": {r}, "box_cols": {c}, "givens": {givens}}}"#)
        };
        let rows: Vec<Vec<usize>> = (0..6).map(|r| (6 * r..6 * r + 6).collect()).collect();
        let jigsaw = format!(r#"{{"size": 6, "regions": {rows:?}, "givens": {givens}}}"#);
        let text = [boxed(2, 3), boxed(2, 3), boxed(3, 2), jigsaw, boxed(2, 3)].join("\n");
        let shapes: Vec<_> = read_all(&text, None)
            .unwrap()
            .iter()
            .map(|e| e.puzzle.geometry().box_shape())
            .collect();
        let (a, b) = (Some((2, 3)), Some((3, 2)));
        assert_eq!(shapes, [a, a, b, None, a]);
        let entries = read_all(&text, None).unwrap();
        assert_eq!(
            entries[2].puzzle.geometry(),
            &Geometry::boxed(6, 3, 2).unwrap()
        );
        assert_eq!(
            entries[4].puzzle.geometry(),
            &Geometry::boxed(6, 2, 3).unwrap()
        );
    }

    #[test]
    fn empty_and_unknown_inputs_are_errors() {
        assert!(matches!(read_all("", None), Err(FormatError::Empty)));
        assert!(matches!(read_all(" \n\n", None), Err(FormatError::Empty)));
        let err = read_all("hello world", None).unwrap_err().to_string();
        assert!(err.starts_with("line 1: cannot tell the format"), "{err}");
    }
}

#[cfg(test)]
mod roundtrip_tests;
