//! The writer of puzzle JSON lines: a puzzle's object in the data-set layout, and the answers of
//! `solve` and `rate` (an input's own object with keys added).

use super::raw_object::{Extra, RawObject};
use super::Object;
use crate::geometry::Cell;
use crate::grid::Grid;
use crate::puzzle::Puzzle;
use serde_json::{json, Value};
use std::io::Write;

/// The JSON object of a puzzle (and its solution, if given), in the data-set layout.
pub fn to_object(puzzle: &Puzzle, solution: Option<&Grid>) -> Object {
    let geometry = puzzle.geometry();
    let mut object = Object::new();
    object.insert("size".into(), json!(geometry.size()));
    match geometry.box_shape() {
        Some((rows, cols)) => {
            object.insert("box_rows".into(), json!(rows));
            object.insert("box_cols".into(), json!(cols));
        }
        None => {
            let regions: Vec<Vec<usize>> = (0..geometry.size())
                .map(|r| {
                    geometry
                        .cells()
                        .filter(|&c| geometry.region(c) == r)
                        .map(Cell::as_index)
                        .collect()
                })
                .collect();
            object.insert("regions".into(), json!(regions));
        }
    }
    object.insert("givens".into(), json!(puzzle.givens().values()));
    let cages: Vec<Value> = puzzle
        .cages()
        .iter()
        .map(|cage| {
            let cells: Vec<usize> = cage.cells.iter().map(|c| c.as_index()).collect();
            json!({"sum": cage.sum, "cells": cells})
        })
        .collect();
    object.insert("cages".into(), Value::Array(cages));
    if let Some(grid) = solution {
        object.insert("solution".into(), json!(grid.values()));
    }
    object
}

/// Write an object as one JSON line.
pub fn write_object<W: Write>(out: &mut W, object: &Object) -> std::io::Result<()> {
    serde_json::to_writer(&mut *out, object)?;
    writeln!(out)
}

/// Write an input's object (`None` for formats without one: the puzzle's object) with `extra`'s
/// keys set, as one JSON line: what `solve` and `rate` answer.
pub fn write_answer<W: Write>(
    out: &mut W,
    object: Option<&RawObject>,
    puzzle: &Puzzle,
    extra: Object,
) -> std::io::Result<()> {
    match object {
        Some(object) => object.write_with(out, &extra),
        None => {
            let mut object = to_object(puzzle, None);
            object.extend(extra);
            write_object(out, &object)
        }
    }
}

/// [`write_answer`] with the new keys' values already written as JSON text (no tree of values
/// for an input object).
pub fn write_answer_extra<W: Write>(
    out: &mut W,
    object: Option<&RawObject>,
    puzzle: &Puzzle,
    extra: &Extra,
) -> std::io::Result<()> {
    match object {
        Some(object) => object.write_with_extra(out, extra),
        None => write_answer(out, None, puzzle, extra.to_map()),
    }
}

/// Write a puzzle (and its solution, if given) as one JSON line.
pub fn write_puzzle<W: Write>(
    out: &mut W,
    puzzle: &Puzzle,
    solution: Option<&Grid>,
) -> std::io::Result<()> {
    write_object(out, &to_object(puzzle, solution))
}
