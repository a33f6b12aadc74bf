//! f-puzzles JSON, and the links that open it: `https://f-puzzles.com/?load=<lz>` and
//! `https://sudokupad.app/fpuzzles<lz>`, where `<lz>` is lz-string `compressToBase64` of the JSON.
//!
//! Layout as f-puzzles' own `exportPuzzle` writes it (publishing.md §4.1): keys `size, title,
//! author, ruleset, grid, killercage`, then `solution` (read by SudokuPad, ignored by f-puzzles).
//! A grid cell is `{}`, or `{"value":5,"given":true}`; `region` (0-based) is written only where it
//! differs from f-puzzles' default box of that size. Cage cells are `R<row>C<col>`, 1-based, and a
//! cage's `value` is a string. The base64 goes into the links raw: f-puzzles does not URL-decode.

use super::error::expected;
use super::{lzstring, FormatError};
use crate::cage::Cage;
use crate::geometry::{Cell, Geometry};
use crate::grid::Grid;
use crate::puzzle::Puzzle;
use serde_json::{json, Map, Value};

/// The author written into every puzzle.
pub const AUTHOR: &str = "sudoku-press";
/// f-puzzles' link prefix.
pub const FPUZZLES_PREFIX: &str = "https://f-puzzles.com/?load=";
/// SudokuPad's link prefix for an f-puzzles payload.
pub const SUDOKUPAD_PREFIX: &str = "https://sudokupad.app/fpuzzles";

/// The rules shown by SudokuPad for a puzzle.
fn ruleset(puzzle: &Puzzle) -> &'static str {
    if puzzle.is_killer() {
        "Normal sudoku rules apply. Digits in a cage sum to its total and do not repeat."
    } else {
        "Normal sudoku rules apply."
    }
}

/// f-puzzles' default box of a size: `(rows, cols)`; it knows no other sizes we make.
fn default_box(size: usize) -> Option<(usize, usize)> {
    match size {
        4 => Some((2, 2)),
        6 => Some((2, 3)),
        8 => Some((2, 4)),
        9 => Some((3, 3)),
        12 => Some((3, 4)),
        16 => Some((4, 4)),
        _ => None,
    }
}

/// `R<row>C<col>`, 1-based.
fn cell_name(geometry: &Geometry, cell: Cell) -> String {
    format!("R{}C{}", geometry.row(cell) + 1, geometry.col(cell) + 1)
}

/// The f-puzzles object of a puzzle. The solution is kept only up to 9x9: SudokuPad cannot check
/// two-character digits (it maps them to `?`).
pub fn to_value(
    puzzle: &Puzzle,
    solution: Option<&Grid>,
    title: &str,
) -> Result<Value, FormatError> {
    let geometry = puzzle.geometry();
    let n = geometry.size();
    let (box_rows, box_cols) = default_box(n).ok_or(FormatError::Unrepresentable {
        format: "fpuzzles",
        reason: "f-puzzles knows only the sizes 4, 6, 8, 9, 12 and 16",
    })?;
    let default_region = |cell| {
        let (r, c) = (geometry.row(cell), geometry.col(cell));
        (r / box_rows) * box_rows + c / box_cols
    };
    let grid: Vec<Value> = (0..n)
        .map(|r| {
            let row: Vec<Value> = (0..n)
                .map(|c| {
                    let cell = geometry.cell_at(r, c);
                    let mut object = Map::new();
                    if let Some(d) = puzzle.givens().get(cell) {
                        object.insert("value".into(), json!(d.get()));
                        object.insert("given".into(), json!(true));
                    }
                    if geometry.region(cell) != default_region(cell) {
                        object.insert("region".into(), json!(geometry.region(cell)));
                    }
                    Value::Object(object)
                })
                .collect();
            Value::Array(row)
        })
        .collect();
    let mut object = Map::new();
    object.insert("size".into(), json!(n));
    object.insert("title".into(), json!(title));
    object.insert("author".into(), json!(AUTHOR));
    object.insert("ruleset".into(), json!(ruleset(puzzle)));
    object.insert("grid".into(), Value::Array(grid));
    if puzzle.is_killer() {
        let cages: Vec<Value> = puzzle
            .cages()
            .iter()
            .map(|cage| {
                let cells: Vec<String> =
                    cage.cells.iter().map(|&c| cell_name(geometry, c)).collect();
                json!({"cells": cells, "value": cage.sum.to_string()})
            })
            .collect();
        object.insert("killercage".into(), Value::Array(cages));
    }
    if let Some(solution) = solution.filter(|_| n <= 9) {
        object.insert("solution".into(), json!(solution.values()));
    }
    Ok(Value::Object(object))
}

/// The f-puzzles JSON text of a puzzle, compact (no whitespace), as f-puzzles exports it.
pub fn to_json(
    puzzle: &Puzzle,
    solution: Option<&Grid>,
    title: &str,
) -> Result<String, FormatError> {
    Ok(to_value(puzzle, solution, title)?.to_string())
}

/// The f-puzzles link of an f-puzzles JSON text.
pub fn fpuzzles_link(json: &str) -> String {
    format!("{FPUZZLES_PREFIX}{}", lzstring::compress_to_base64(json))
}

/// The SudokuPad link of an f-puzzles JSON text.
pub fn sudokupad_link(json: &str) -> String {
    format!("{SUDOKUPAD_PREFIX}{}", lzstring::compress_to_base64(json))
}

/// Read back an f-puzzles JSON text, or a link of either site (the inverse of the writers, for
/// the puzzles they write: standard sizes, givens, regions, killer cages and solution).
pub fn parse(text: &str) -> Result<(Puzzle, Option<Grid>), FormatError> {
    let bad = |what: &str, found: &str| FormatError::at(1, expected(what, found));
    let text = text.trim();
    let unpacked;
    let json = match [FPUZZLES_PREFIX, SUDOKUPAD_PREFIX]
        .iter()
        .find_map(|p| text.strip_prefix(p))
    {
        Some(packed) => {
            unpacked = lzstring::decompress_from_base64(packed)
                .ok_or_else(|| bad("an lz-string base64 payload", packed))?;
            unpacked.as_str()
        }
        None => text,
    };
    let value: Value =
        serde_json::from_str(json).map_err(|_| bad("an f-puzzles JSON object", json))?;
    let n = value["size"]
        .as_u64()
        .map(|n| n as usize)
        .filter(|&n| default_box(n).is_some())
        .ok_or_else(|| bad("`size` 4, 6, 8, 9, 12 or 16", &value["size"].to_string()))?;
    let (box_rows, box_cols) = default_box(n).unwrap_or((1, 1));
    let rows = value["grid"].as_array().filter(|g| g.len() == n);
    let rows = rows.ok_or_else(|| bad("`grid` with one row per line of the grid", json))?;
    let mut givens = vec![0u8; n * n];
    let mut regions = vec![0u8; n * n];
    for (r, row) in rows.iter().enumerate() {
        let row = row.as_array().filter(|row| row.len() == n);
        let row = row.ok_or_else(|| bad("a grid row of `size` cells", json))?;
        for (c, cell) in row.iter().enumerate() {
            let i = r * n + c;
            givens[i] = cell["value"].as_u64().unwrap_or(0) as u8;
            regions[i] = cell["region"]
                .as_u64()
                .map_or((r / box_rows) * box_rows + c / box_cols, |k| k as usize)
                as u8;
        }
    }
    let standard = Geometry::boxed(n, box_rows, box_cols).map_err(|e| FormatError::at(1, e))?;
    let geometry = if regions == standard.region_map() {
        standard
    } else {
        Geometry::jigsaw(n, regions).map_err(|e| FormatError::at(1, e))?
    };
    let givens = Grid::from_values(n, givens).ok_or_else(|| bad("digits 1 to size", json))?;
    let mut cages = Vec::new();
    for cage in value["killercage"].as_array().into_iter().flatten() {
        let sum = cage["value"].as_str().and_then(|v| v.parse().ok());
        let sum = sum.ok_or_else(|| bad("a cage `value` holding its sum", &cage.to_string()))?;
        let cells = cage["cells"].as_array().into_iter().flatten();
        let cells = cells
            .map(|name| parse_cell(name.as_str().unwrap_or_default(), &geometry))
            .collect::<Option<Vec<Cell>>>()
            .ok_or_else(|| bad("cage cells `R<row>C<col>`", &cage.to_string()))?;
        cages.push(Cage::new(sum, cells));
    }
    let puzzle = Puzzle::new(geometry, givens, cages).map_err(|e| FormatError::at(1, e))?;
    let solution = value["solution"].as_array().map(|values| {
        let values = values.iter().map(|v| v.as_u64().unwrap_or(0) as u8);
        Grid::from_values(n, values.collect())
    });
    Ok((puzzle, solution.flatten()))
}

/// `R<row>C<col>` (1-based) to a cell of this geometry.
fn parse_cell(name: &str, geometry: &Geometry) -> Option<Cell> {
    let (row, col) = name.strip_prefix('R')?.split_once('C')?;
    let (row, col): (usize, usize) = (row.parse().ok()?, col.parse().ok()?);
    let n = geometry.size();
    (1..=n)
        .contains(&row)
        .then_some(())
        .filter(|_| (1..=n).contains(&col))
        .map(|_| geometry.cell_at(row - 1, col - 1))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::worked::k4;

    /// K4 #1 of publishing.md §4.1, exactly as measured there (547 characters).
    const K4_JSON: &str = r#"{"size":4,"title":"K4 #1","author":"sudoku-press","ruleset":"Normal sudoku rules apply. Digits in a cage sum to its total and do not repeat.","grid":[[{},{},{},{}],[{},{},{},{}],[{},{},{},{}],[{},{},{},{}]],"killercage":[{"cells":["R1C1","R2C1","R3C1"],"value":"9"},{"cells":["R1C2","R1C3"],"value":"5"},{"cells":["R1C4","R2C4"],"value":"6"},{"cells":["R2C2","R2C3"],"value":"4"},{"cells":["R3C2","R4C1","R4C2"],"value":"6"},{"cells":["R3C3","R4C3"],"value":"6"},{"cells":["R3C4","R4C4"],"value":"4"}],"solution":[3,4,1,2,2,1,3,4,4,3,2,1,1,2,4,3]}"#;
    /// `LZString.compressToBase64(K4_JSON)` by npm lz-string 1.5.0 (publishing.md §4.1).
    const K4_LZ: &str = "N4IgzglgXgpiBcAWANCALhNAbO8QGlEACAYgEYRUBDAVzQAsB7AJwXBoBNGBrGgWgAOzGGDCUQzGjjAw0bAHIsAtlSxEwnHjSKTpRKgIFYAngDoiAEQgBzTGCIQAdvqIBjKtZjqaSomkYOaPb+aKr6jhxEXESOjGg6MAIwVGim4tbMEBwIANo5wAC+yIXFRYUAusj5ZTWlldWljRVVJa015ZUg3BBYOMzunrmgrjC9YvA5IABKZADCFKhTAEzz4lMAzKudAG6qNLggAJwgZSAjY7nTc0trc+sgO3sHAKwnxWejWOOTM7OIayt/o8sPs2AA2N7DT7faYrG6LFb3YGgvD/U7nL6XDazeHTRCrRb4m7Ig4Q9HQrGbe6E2ZI1C7EGkyEfC4Taabf40oH0p5sNGdMCMEEYRiOXLrZAoMjIJYy5DSiUoFAS2XS6Wy5XlApAA==";

    #[test]
    fn writes_the_worked_example_and_its_links() {
        let (puzzle, solution) = k4();
        let json = to_json(&puzzle, Some(&solution), "K4 #1").unwrap();
        assert_eq!(json, K4_JSON);
        assert_eq!(json.len(), 547);
        assert_eq!(fpuzzles_link(&json), format!("{FPUZZLES_PREFIX}{K4_LZ}"));
        assert_eq!(sudokupad_link(&json), format!("{SUDOKUPAD_PREFIX}{K4_LZ}"));
    }

    #[test]
    fn the_nine_by_nine_example_has_the_measured_lengths() {
        // publishing.md §4.1: K9 #1 gives a 2,005-character JSON and a 1,092-character f-puzzles link.
        let (puzzle, solution) = crate::format::worked::k9();
        let json = to_json(&puzzle, Some(&solution), "K9 #1").unwrap();
        assert_eq!(json.len(), 2005);
        assert_eq!(fpuzzles_link(&json).len(), 1092);
        assert_eq!(
            parse(&sudokupad_link(&json)).unwrap(),
            (puzzle, Some(solution))
        );
    }

    #[test]
    fn links_read_back_to_the_puzzle() {
        let (puzzle, solution) = k4();
        let json = to_json(&puzzle, Some(&solution), "K4 #1").unwrap();
        for text in [json.clone(), fpuzzles_link(&json), sudokupad_link(&json)] {
            assert_eq!(
                parse(&text).unwrap(),
                (puzzle.clone(), Some(solution.clone()))
            );
        }
    }

    #[test]
    fn jigsaw_regions_and_givens_round_trip() {
        #[rustfmt::skip]
        let map = vec![0, 0, 0, 1,  0, 2, 1, 1,  2, 2, 3, 1,  2, 3, 3, 3];
        let geometry = Geometry::jigsaw(4, map).unwrap();
        let givens =
            Grid::from_values(4, vec![1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2]).unwrap();
        let puzzle = Puzzle::plain(geometry, givens).unwrap();
        let json = to_json(&puzzle, None, "J").unwrap();
        assert!(
            json.contains(r#"[{"value":1,"given":true},{},{"region":0},{}]"#),
            "{json}"
        );
        assert!(!json.contains("killercage"));
        assert_eq!(parse(&json).unwrap(), (puzzle, None));
    }

    #[test]
    fn refuses_sizes_fpuzzles_lacks() {
        let puzzle = Puzzle::plain(Geometry::standard(5).unwrap(), Grid::empty(5)).unwrap();
        assert!(to_json(&puzzle, None, "x").is_err());
        assert!(parse(r#"{"size":5}"#).is_err());
        assert!(parse("https://f-puzzles.com/?load=!!!").is_err());
    }
}
