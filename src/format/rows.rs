//! Grids as text: N rows of N values (space-separated numbers, or N plain characters a row), or one
//! plain line of N² characters. `.` or `0` is an empty cell.

use super::error::{excerpt, expected, ErrorKind, FormatError};
use super::lines::Lines;
use super::plain;
use crate::grid::Grid;
use std::io::{BufRead, Write};

/// Write a grid as N rows of N space-separated values (`0` for an empty cell).
pub fn write_rows<W: Write>(out: &mut W, grid: &Grid) -> std::io::Result<()> {
    for row in grid.values().chunks(grid.size()) {
        let cells: Vec<String> = row.iter().map(u8::to_string).collect();
        writeln!(out, "{}", cells.join(" "))?;
    }
    Ok(())
}

/// Read an N x N grid (N = `size`) written as rows or as one plain line; `#` and `//` comment
/// lines and blank lines are skipped.
pub fn read_grid<R: BufRead>(input: R, size: usize) -> Result<Grid, FormatError> {
    let mut lines = Lines::new(input);
    let keep = |t: &str| super::is_content(t);
    let first = lines.next_matching(keep)?.ok_or(FormatError::Empty)?;
    let text = first.text.trim();
    if !text.contains(char::is_whitespace) && text.chars().count() == size * size {
        let grid = plain::parse_grid(text, first.number)?;
        return match lines.next_matching(keep)? {
            None => Ok(grid),
            Some(extra) => Err(FormatError::at(
                extra.number,
                expected("the end of the grid", &extra.text),
            )),
        };
    }
    let len = text.chars().count();
    if !text.contains(char::is_whitespace) && len > size + 1 {
        // Longer than a row: a whole-grid line of the wrong length.
        let what = format!(
            "the whole grid as one line of {} characters (or {size} rows); this line has {len}",
            size * size
        );
        return Err(FormatError::at(first.number, expected(what, text)));
    }
    let mut values = Vec::with_capacity(size * size);
    let mut line = Some(first);
    for row in 1..=size {
        let Some(current) = line.take() else {
            let what = format!(
                "row {row} of {size} (or the whole grid as one line of {} characters)",
                size * size
            );
            return Err(FormatError::at(
                lines.number() + 1,
                ErrorKind::Truncated { expected: what },
            ));
        };
        values.extend(
            parse_row(&current.text, size).map_err(|kind| FormatError::at(current.number, kind))?,
        );
        line = lines.next_matching(keep)?;
    }
    if let Some(extra) = line {
        return Err(FormatError::at(
            extra.number,
            expected(
                format!("the end of the grid after {size} rows"),
                &extra.text,
            ),
        ));
    }
    Ok(Grid::from_values(size, values).expect("every row checked"))
}

/// One row: N space-separated numbers (or `.`), or N plain characters.
fn parse_row(text: &str, size: usize) -> Result<Vec<u8>, ErrorKind> {
    let text = text.trim();
    let tokens: Vec<&str> = if text.contains(char::is_whitespace) {
        text.split_whitespace().take(size + 1).collect()
    } else {
        text.char_indices()
            .take(size + 1)
            .map(|(i, c)| &text[i..i + c.len_utf8()])
            .collect()
    };
    let what = || format!("a row of {size} cells (numbers 1 to {size}, `.` or 0 for empty)");
    if tokens.len() != size {
        return Err(expected(what(), text));
    }
    tokens
        .iter()
        .map(|&t| {
            let value = match t {
                "." => Some(0),
                _ => t.parse::<usize>().ok().or_else(|| {
                    let mut chars = t.chars();
                    chars
                        .next()
                        .filter(|_| chars.next().is_none())
                        .and_then(plain::char_value)
                }),
            };
            match value {
                Some(v) if v <= size => Ok(v as u8),
                Some(v) => Err(ErrorKind::Expected {
                    expected: format!("a value from 1 to {size} (or `.`/0 for empty); {t} is {v}"),
                    found: excerpt(t),
                }),
                _ => Err(ErrorKind::Expected {
                    expected: what(),
                    found: excerpt(t),
                }),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_rows_and_plain_lines() {
        let grid =
            Grid::from_values(4, vec![1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 0]).unwrap();
        let mut out = Vec::new();
        write_rows(&mut out, &grid).unwrap();
        assert_eq!(
            std::str::from_utf8(&out).unwrap(),
            "1 2 3 4\n3 4 1 2\n2 1 4 3\n4 3 2 0\n"
        );
        assert_eq!(read_grid(&out[..], 4).unwrap(), grid);
        assert_eq!(
            read_grid(&b"# solved\n1234\n3412\n\n2143\n432.\n"[..], 4).unwrap(),
            grid
        );
        assert_eq!(read_grid(&b"123434122143432.\n"[..], 4).unwrap(), grid);
        let sixteen = format!("{}\n", "10 . . . . . . . . . . . . . . 16\n".repeat(16));
        assert_eq!(read_grid(sixteen.as_bytes(), 16).unwrap().values()[15], 16);
    }

    #[test]
    fn names_the_bad_row() {
        let cases: [(&[u8], usize, &str); 5] = [
            (b"1 2 3 4\n1 2 3\n", 2, "a row of 4 cells"),
            (b"1 2 3 4\n1 2 3 5\n", 2, "found `5`"),
            (b"1234\n1234\n", 3, "row 3 of 4"),
            (
                b"1234\n1234\n1234\n1234\n1234\n",
                5,
                "the end of the grid after 4 rows",
            ),
            (b"1234\n\xff\n", 2, "not UTF-8"),
        ];
        for (text, line, want) in cases {
            let err = read_grid(text, 4).unwrap_err();
            assert_eq!(err.line(), Some(line), "{err}");
            assert!(err.to_string().contains(want), "{err}");
        }
        assert!(matches!(read_grid(&b""[..], 4), Err(FormatError::Empty)));
    }
}
