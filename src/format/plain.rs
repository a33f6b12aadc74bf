//! Plain puzzle strings: N² characters a line, `.` or `0` empty, `1`-`9` then `A`-`G` for 10-16.

use super::error::{ErrorKind, FormatError};
use super::SIZES;
use crate::geometry::{Geometry, MAX_CELLS};
use crate::grid::Grid;
use crate::puzzle::Puzzle;
use std::io::Write;

/// The character for a cell value: `.` for empty, `1`-`9`, then `A` = 10 .. `G` = 16.
pub fn value_char(value: u8) -> char {
    match value {
        0 => '.',
        1..=9 => (b'0' + value) as char,
        _ => (b'A' + value - 10) as char,
    }
}

/// The value of a cell character (`.`/`0` = 0, digits, `A`-`G` or `a`-`g` = 10-16), if it is one.
pub fn char_value(ch: char) -> Option<usize> {
    match ch {
        '.' => Some(0),
        '0'..='9' => ch.to_digit(10).map(|d| d as usize),
        'A'..='G' | 'a'..='g' => Some(ch.to_ascii_uppercase() as usize - 'A' as usize + 10),
        _ => None,
    }
}

/// The side N of a plain string of `len` characters, when `len` is N² for a supported N.
pub fn size_of_len(len: usize) -> Option<usize> {
    SIZES.into_iter().find(|&n| n * n == len)
}

/// Parse a string of N² cells (surrounding whitespace ignored) into a grid.
pub fn parse_grid(text: &str, line: usize) -> Result<Grid, FormatError> {
    let text = text.trim();
    // Characters first: a line in another format gets the more telling message.
    let values = text
        .chars()
        .take(MAX_CELLS + 1)
        .enumerate()
        .map(|(i, ch)| char_value(ch).ok_or(ErrorKind::BadChar { column: i + 1, ch }))
        .collect::<Result<Vec<usize>, ErrorKind>>()
        .map_err(|kind| FormatError::at(line, kind))?;
    let size = size_of_len(values.len()).ok_or_else(|| {
        let len = text.chars().count();
        FormatError::at(line, ErrorKind::PlainLength { len })
    })?;
    if let Some((i, &value)) = values.iter().enumerate().find(|(_, &v)| v > size) {
        let ch = text.chars().nth(i).unwrap_or('?');
        let kind = ErrorKind::DigitTooLarge {
            column: i + 1,
            ch,
            value,
            size,
        };
        return Err(FormatError::at(line, kind));
    }
    let values = values.into_iter().map(|v| v as u8).collect();
    Ok(Grid::from_values(size, values).expect("length and values checked above"))
}

/// Parse one plain line into a puzzle with standard boxes.
pub fn parse_line(text: &str, line: usize) -> Result<Puzzle, FormatError> {
    let givens = parse_grid(text, line)?;
    let geometry = Geometry::standard(givens.size()).map_err(|e| FormatError::at(line, e))?;
    Puzzle::plain(geometry, givens).map_err(|e| FormatError::at(line, e))
}

/// The plain string of a grid (puzzle givens or a solution).
pub fn to_plain(grid: &Grid) -> String {
    grid.values().iter().map(|&v| value_char(v)).collect()
}

/// Write a puzzle's givens as one plain line (see [`check_representable`]).
pub fn write_puzzle<W: Write>(out: &mut W, puzzle: &Puzzle) -> Result<(), FormatError> {
    check_representable(puzzle)?;
    writeln!(out, "{}", to_plain(puzzle.givens()))?;
    Ok(())
}

/// Can a puzzle be written as a plain string? (Standard boxes, no cages.)
pub fn check_representable(puzzle: &Puzzle) -> Result<(), FormatError> {
    let unrepresentable = |reason| FormatError::Unrepresentable {
        format: "plain",
        reason,
    };
    if puzzle.is_killer() {
        return Err(unrepresentable("it has cages"));
    }
    let standard = Geometry::standard(puzzle.size()).ok();
    if standard.as_ref() != Some(puzzle.geometry()) {
        return Err(unrepresentable(
            "its boxes or regions are not the standard ones",
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_sizes_and_letters() {
        let p = parse_line("1.3.\t", 1);
        assert!(matches!(
            p,
            Err(FormatError::At {
                kind: ErrorKind::PlainLength { len: 4 },
                ..
            })
        ));
        let line = format!("G{}", ".".repeat(255));
        let p = parse_line(&line, 1).unwrap();
        assert_eq!(p.size(), 16);
        assert_eq!(p.givens().values()[0], 16);
        assert_eq!(to_plain(p.givens()), line);
    }

    #[test]
    fn names_bad_characters() {
        let line = format!("12x{}", "0".repeat(78));
        let err = parse_line(&line, 7).unwrap_err().to_string();
        assert!(err.starts_with("line 7: column 3: `x`"), "{err}");
        let line = format!("A{}", "0".repeat(80));
        let err = parse_line(&line, 1).unwrap_err().to_string();
        assert!(err.contains("too large for a 9x9"), "{err}");
    }

    #[test]
    fn reports_conflicting_givens() {
        let line = format!("11{}", ".".repeat(79));
        let err = parse_line(&line, 3).unwrap_err().to_string();
        assert!(err.starts_with("line 3: digit 1 is given twice"), "{err}");
    }
}
