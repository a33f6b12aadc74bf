//! ipuz v2 sudoku (plain, killer, jigsaw), one compact JSON object a puzzle.
//!
//! Kinds `http://ipuz.org/sudoku#1`, plus `.../sudoku/killersudoku#1` with cages and
//! `.../sudoku/jigsawsudoku#1` with `zones`. Cells are `[column, row]`, 1-based, as pencilmark
//! writes them (its output passes the PyPI `ipuz` validator; publishing.md §4.6). Digits above 9
//! are integers too, with `charset` naming the symbols.

use super::error::expected;
use super::FormatError;
use crate::cage::Cage;
use crate::geometry::{Cell, Geometry};
use crate::grid::Grid;
use crate::puzzle::Puzzle;
use serde_json::{json, Map, Value};

const VERSION: &str = "http://ipuz.org/v2";
const SUDOKU: &str = "http://ipuz.org/sudoku#1";
const KILLER: &str = "http://ipuz.org/sudoku/killersudoku#1";
const JIGSAW: &str = "http://ipuz.org/sudoku/jigsawsudoku#1";

/// `[column, row]`, 1-based.
fn position(geometry: &Geometry, cell: Cell) -> Value {
    json!([geometry.col(cell) + 1, geometry.row(cell) + 1])
}

/// The rows of a grid, 0 for an empty cell.
fn rows(grid: &Grid) -> Value {
    let n = grid.size();
    let values = grid.values();
    Value::Array((0..n).map(|r| json!(values[r * n..(r + 1) * n])).collect())
}

/// The ipuz object of a puzzle (and its solution, if given).
pub fn to_value(puzzle: &Puzzle, solution: Option<&Grid>) -> Value {
    let geometry = puzzle.geometry();
    let n = geometry.size();
    let mut kind = vec![SUDOKU];
    if puzzle.is_killer() {
        kind.push(KILLER);
    }
    if geometry.is_jigsaw() {
        kind.push(JIGSAW);
    }
    let mut object = Map::new();
    object.insert("version".into(), json!(VERSION));
    object.insert("kind".into(), json!(kind));
    if n > 9 {
        object.insert("charset".into(), json!(&"123456789ABCDEFG"[..n]));
    }
    // ipuz's `boxes` (default true) says the grid has boxes as a rule, drawn in the usual way.
    // A jigsaw has regions instead (its `zones`), and a 1xN "box" is only a row again, no
    // box at all: both say false (omitting it would mean true).
    let real_boxes = geometry.box_shape().is_some_and(|(r, c)| r >= 2 && c >= 2);
    object.insert("boxes".into(), json!(real_boxes));
    object.insert("puzzle".into(), rows(puzzle.givens()));
    if let Some(solution) = solution {
        object.insert("solution".into(), rows(solution));
    }
    if geometry.is_jigsaw() {
        let zones: Vec<Value> = (0..n)
            .map(|region| {
                let cells = geometry.cells().filter(|&c| geometry.region(c) == region);
                let cells: Vec<Value> = cells.map(|c| position(geometry, c)).collect();
                json!({ "cells": cells })
            })
            .collect();
        object.insert("zones".into(), Value::Array(zones));
    }
    if puzzle.is_killer() {
        let cages: Vec<Value> = puzzle
            .cages()
            .iter()
            .map(|cage| {
                let cells: Vec<Value> = cage.cells.iter().map(|&c| position(geometry, c)).collect();
                json!({"cells": cells, "value": cage.sum})
            })
            .collect();
        object.insert("cages".into(), Value::Array(cages));
        object.insert("showoperators".into(), json!(false));
        object.insert("cageborder".into(), json!("dashed"));
    }
    Value::Object(object)
}

/// The ipuz text of a puzzle, compact.
pub fn to_json(puzzle: &Puzzle, solution: Option<&Grid>) -> String {
    to_value(puzzle, solution).to_string()
}

/// Read back what [`to_json`] writes: size from `puzzle`, standard boxes or `zones`, cages.
pub fn parse(text: &str) -> Result<(Puzzle, Option<Grid>), FormatError> {
    let bad = |what: &str, found: &str| FormatError::at(1, expected(what, found));
    let value: Value = serde_json::from_str(text).map_err(|_| bad("an ipuz JSON object", text))?;
    let grid = |key: &str| -> Option<Grid> {
        let rows = value[key].as_array()?;
        let n = rows.len();
        let mut values = Vec::with_capacity(n * n);
        for row in rows {
            let row = row.as_array().filter(|r| r.len() == n)?;
            values.extend(row.iter().map(|v| v.as_u64().unwrap_or(0) as u8));
        }
        Grid::from_values(n, values)
    };
    let givens = grid("puzzle").ok_or_else(|| bad("`puzzle`: N rows of N digits", text))?;
    let n = givens.size();
    let cell = |pos: &Value| -> Option<Cell> {
        let (c, r) = (pos[0].as_u64()? as usize, pos[1].as_u64()? as usize);
        ((1..=n).contains(&c) && (1..=n).contains(&r))
            .then(|| Cell::new(((r - 1) * n + c - 1) as u8))
    };
    let geometry = match value["zones"].as_array() {
        None => Geometry::standard(n),
        Some(zones) => {
            let mut map = vec![u8::MAX; n * n];
            for (region, zone) in zones.iter().enumerate() {
                for pos in zone["cells"].as_array().into_iter().flatten() {
                    let c = cell(pos).ok_or_else(|| bad("zone cells [column, row]", text))?;
                    map[c.as_index()] = region as u8;
                }
            }
            Geometry::jigsaw(n, map)
        }
    }
    .map_err(|e| FormatError::at(1, e))?;
    let mut cages = Vec::new();
    for cage in value["cages"].as_array().into_iter().flatten() {
        let sum = cage["value"]
            .as_u64()
            .ok_or_else(|| bad("a cage `value`", text))?;
        let cells = cage["cells"].as_array().into_iter().flatten().map(cell);
        let cells = cells.collect::<Option<Vec<Cell>>>();
        let cells = cells.ok_or_else(|| bad("cage cells [column, row]", text))?;
        cages.push(Cage::new(sum as u16, cells));
    }
    let puzzle = Puzzle::new(geometry, givens, cages).map_err(|e| FormatError::at(1, e))?;
    Ok((puzzle, grid("solution")))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::worked::{digits, k4, k9};

    /// K4 #1 as pencilmark writes it (publishing.md §4.6), which passes `ipuz.read()`.
    const K4_IPUZ: &str = r#"{"version":"http://ipuz.org/v2","kind":["http://ipuz.org/sudoku#1","http://ipuz.org/sudoku/killersudoku#1"],"boxes":true,"puzzle":[[0,0,0,0],[0,0,0,0],[0,0,0,0],[0,0,0,0]],"solution":[[3,4,1,2],[2,1,3,4],[4,3,2,1],[1,2,4,3]],"cages":[{"cells":[[1,1],[1,2],[1,3]],"value":9},{"cells":[[2,1],[3,1]],"value":5},{"cells":[[4,1],[4,2]],"value":6},{"cells":[[2,2],[3,2]],"value":4},{"cells":[[2,3],[1,4],[2,4]],"value":6},{"cells":[[3,3],[3,4]],"value":6},{"cells":[[4,3],[4,4]],"value":4}],"showoperators":false,"cageborder":"dashed"}"#;

    #[test]
    fn boxes_of_one_row_are_no_boxes() {
        let geometry = crate::geometry::Geometry::boxed(3, 1, 3).unwrap();
        let givens = Grid::empty(3);
        let puzzle = Puzzle::new(geometry, givens, Vec::new()).unwrap();
        assert_eq!(to_value(&puzzle, None)["boxes"], json!(false));
        let (k4, _) = k4();
        assert_eq!(to_value(&k4, None)["boxes"], json!(true));
    }

    #[test]
    fn writes_the_worked_example() {
        let (puzzle, solution) = k4();
        assert_eq!(to_json(&puzzle, Some(&solution)), K4_IPUZ);
        assert_eq!(parse(K4_IPUZ).unwrap(), (puzzle, Some(solution)));
    }

    #[test]
    fn plain_killer_and_jigsaw_round_trip() {
        let (killer, solution) = k9();
        let text = to_json(&killer, Some(&solution));
        assert_eq!(parse(&text).unwrap(), (killer, Some(solution)));

        let map: Vec<u8> = (0..81).map(|i| (i / 9) as u8).collect();
        let givens = digits(9, &format!("{}{}", "123456789", "0".repeat(72)));
        let jigsaw = Puzzle::plain(Geometry::jigsaw(9, map).unwrap(), givens).unwrap();
        let text = to_json(&jigsaw, None);
        assert!(text.contains(JIGSAW) && text.contains("\"zones\"") && !text.contains(KILLER));
        assert_eq!(parse(&text).unwrap(), (jigsaw, None));

        let big = Puzzle::plain(Geometry::standard(16).unwrap(), Grid::empty(16)).unwrap();
        let text = to_json(&big, None);
        assert!(text.contains(r#""charset":"123456789ABCDEFG""#));
        assert_eq!(parse(&text).unwrap().0, big);
        assert!(parse("[1]").is_err());
    }
}
