//! The killer code of SudoCue, JSudoku and SudokuSolver: `3x3::k:` then 81 values separated by `:`
//! (a trailing `:` is usual), each `sum * 256 + cage id`; a value below 256 (sum 0) is a cell in no
//! cage. Only 9x9 grids; the `3x3:d:k:` diagonal variant is not supported.
//! (Layout as documented on the SudoCue forum, http://www.sudocue.net/forum/viewtopic.php?f=1&t=519.)

use super::error::{expected, ErrorKind, FormatError};
use crate::cage::Cage;
use crate::geometry::{Cell, Geometry};
use crate::grid::Grid;
use crate::puzzle::{cell_name, Puzzle};
use std::io::Write;

/// The code's prefix for a plain (non-diagonal) 9x9 killer.
pub const PREFIX: &str = "3x3::k:";
const CELLS: usize = 81;

/// Does this line look like a killer code (so detection can pick this format)?
pub fn looks_like(text: &str) -> bool {
    text.trim_start().starts_with("3x3:")
}

/// Parse one killer code.
pub fn parse_line(text: &str, line: usize) -> Result<Puzzle, FormatError> {
    let at = |kind| FormatError::at(line, kind);
    let text = text.trim();
    let mut parts = text.split(':');
    let (shape, flags, kind) = (parts.next(), parts.next(), parts.next());
    if shape != Some("3x3") || kind != Some("k") {
        return Err(at(expected("a killer code starting `3x3::k:`", text)));
    }
    if flags != Some("") {
        let flags = flags.unwrap_or_default();
        return Err(at(expected(
            "no variant flags (`3x3::k:`): variants such as diagonals are not supported",
            flags,
        )));
    }
    let body = text.strip_prefix(PREFIX).unwrap_or_default();
    let body = body.strip_suffix(':').unwrap_or(body);
    let geometry = Geometry::standard(9).map_err(|e| at(e.into()))?;
    // Cage id -> (sum, cells), in order of first appearance.
    let mut by_id: Vec<Option<(u16, Vec<Cell>)>> = vec![None; 256];
    let mut order = Vec::new();
    let mut count = 0;
    for (i, token) in body.split(':').enumerate() {
        if i >= CELLS {
            return Err(at(expected(format!("{CELLS} cell values"), "more")));
        }
        count += 1;
        let cell = Cell::new(i as u8);
        let value: u16 = token.trim().parse().map_err(|_| {
            let what = format!(
                "cell {} ({}): a value sum*256+id below 65536",
                i + 1,
                cell_name(&geometry, cell)
            );
            at(expected(what, token))
        })?;
        let (sum, id) = (value / 256, (value % 256) as usize);
        if sum == 0 {
            continue;
        }
        match &mut by_id[id] {
            Some((first_sum, cells)) if *first_sum == sum => cells.push(cell),
            Some((first_sum, cells)) => {
                let what = format!(
                    "cell {} ({}): the sum {first_sum} that cage id {id} has at {}",
                    i + 1,
                    cell_name(&geometry, cell),
                    cell_name(&geometry, cells[0])
                );
                return Err(at(expected(what, &sum.to_string())));
            }
            slot @ None => {
                *slot = Some((sum, vec![cell]));
                order.push(id);
            }
        }
    }
    if count != CELLS {
        let kind = ErrorKind::Truncated {
            expected: format!("{CELLS} cell values, found {count}"),
        };
        return Err(at(kind));
    }
    let cages = order
        .iter()
        .filter_map(|&id| by_id[id].take())
        .map(|(sum, cells)| Cage::new(sum, cells))
        .collect();
    Puzzle::new(geometry, Grid::empty(9), cages).map_err(|e| at(e.into()))
}

/// Can a puzzle be written as a killer code? (9x9, standard boxes, no givens.)
pub fn check_representable(puzzle: &Puzzle) -> Result<(), FormatError> {
    let unrepresentable = |reason| FormatError::Unrepresentable {
        format: "sudocue",
        reason,
    };
    if Geometry::standard(9).ok().as_ref() != Some(puzzle.geometry()) {
        return Err(unrepresentable("it is not a 9x9 grid with 3x3 boxes"));
    }
    if puzzle.givens().count_filled() > 0 {
        return Err(unrepresentable("it has givens"));
    }
    Ok(())
}

/// The killer code of a puzzle; cages get ids 1, 2, ... in order, uncaged cells the value 0.
pub fn to_code(puzzle: &Puzzle) -> Result<String, FormatError> {
    check_representable(puzzle)?;
    let mut values = vec![0usize; CELLS];
    for (i, cage) in puzzle.cages().iter().enumerate() {
        for cell in &cage.cells {
            values[cell.as_index()] = cage.sum as usize * 256 + i + 1;
        }
    }
    let mut code = String::from(PREFIX);
    for v in values {
        code.push_str(&v.to_string());
        code.push(':');
    }
    Ok(code)
}

/// Write a puzzle as one killer-code line.
pub fn write_puzzle<W: Write>(out: &mut W, puzzle: &Puzzle) -> Result<(), FormatError> {
    writeln!(out, "{}", to_code(puzzle)?)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::worked::{k9, K9_SUDOCUE};

    #[test]
    fn writes_the_worked_example() {
        // The research example numbers cages from 0, our writer from 1: otherwise equal.
        let code = to_code(&k9().0).unwrap();
        let shifted: Vec<String> = K9_SUDOCUE
            .strip_prefix("3x3::k:")
            .unwrap()
            .split_terminator(':')
            .map(|v| (v.parse::<u32>().unwrap() + 1).to_string())
            .collect();
        assert_eq!(code, format!("3x3::k:{}:", shifted.join(":")));
        assert_eq!(parse_line(&code, 1).unwrap(), k9().0);
    }

    /// A 9x9 killer whose cages are the nine boxes, each summing to 45, plus one uncaged cell.
    fn boxes_code() -> String {
        let g = Geometry::standard(9).unwrap();
        let values: Vec<String> = g
            .cells()
            .map(|c| match c.as_index() {
                80 => "0".to_string(),
                _ => (45 * 256 + g.region(c) + 7).to_string(),
            })
            .collect();
        format!("3x3::k:{}:", values.join(":"))
    }

    #[test]
    fn reads_cages_by_id() {
        let err = parse_line(&boxes_code(), 1).unwrap_err().to_string();
        // The last box lost a cell to "no cage": 8 distinct digits cannot make 45.
        assert!(
            err.contains("cage 9: 8 distinct digits cannot add up to 45"),
            "{err}"
        );
        let p = parse_line(&boxes_code().replace(":0:", ":11535:"), 1).unwrap();
        assert_eq!(p.cages().len(), 9);
        assert!(p.cages().iter().all(|c| c.sum == 45 && c.len() == 9));
    }

    #[test]
    fn round_trips() {
        let text = boxes_code().replace(":0:", ":11535:");
        let p = parse_line(&text, 1).unwrap();
        let code = to_code(&p).unwrap();
        assert_eq!(parse_line(&code, 1).unwrap(), p);
    }

    #[test]
    fn errors_name_the_cell() {
        let cases = [
            ("3x3:d:k:1:", "variants such as diagonals are not supported"),
            ("4x4::k:1:", "a killer code starting `3x3::k:`"),
            ("3x3::k", "cell 1 (r1c1)"),
            ("3x3::k:1:2:", "81 cell values, found 2"),
            ("3x3::k:2561:x:", "cell 2 (r1c2)"),
            ("3x3::k:2561:99999:", "cell 2 (r1c2)"),
            (
                "3x3::k:2561:2817:",
                "cell 2 (r1c2): the sum 10 that cage id 1 has at r1c1",
            ),
        ];
        for (text, want) in cases {
            let err = parse_line(text, 4).unwrap_err().to_string();
            assert!(
                err.starts_with("line 4: ") && err.contains(want),
                "{text}: {err}"
            );
        }
        let long = format!("3x3::k:{}", "0:".repeat(82));
        assert!(parse_line(&long, 1)
            .unwrap_err()
            .to_string()
            .contains("81 cell values"));
    }
}
