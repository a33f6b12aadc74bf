//! The reader of puzzle JSON lines: one pass with typed reads in the common case, and a second
//! read as `serde_json::Value`s only to say exactly what is wrong and where.

use super::raw_object::RawObject;
use super::scan;
use crate::cage::Cage;
use crate::format::error::{excerpt, ErrorKind, FormatError};
use crate::geometry::{Cell, Geometry, MAX_CELLS, MAX_SIZE};
use crate::grid::Grid;
use crate::puzzle::Puzzle;
use serde_json::{json, Value};

/// One parsed line: the puzzle, its stored solution if any, and the whole original object.
#[derive(Clone, Debug)]
pub struct JsonPuzzle {
    /// The puzzle.
    pub puzzle: Puzzle,
    /// The `solution` field, when present and not null.
    pub solution: Option<Grid>,
    /// The object as read, extra keys included.
    pub object: RawObject,
}

/// Parse one JSON line. The common case takes one pass over the text and typed reads of the
/// fields; anything unexpected is read again as `serde_json::Value`s to say exactly what is
/// wrong and where.
pub fn parse_line(text: &str, line: usize) -> Result<JsonPuzzle, FormatError> {
    parse_owned_line(text.to_string(), line, None)
}

/// [`parse_line`] of a line the caller owns: its text is kept without a copy. A line whose boxes
/// are those of `like` (often the line before's geometry) takes a copy of it instead of
/// building its own.
pub fn parse_owned_line(
    text: String,
    line: usize,
    like: Option<&Geometry>,
) -> Result<JsonPuzzle, FormatError> {
    parse_keeping_object(text, line, like).map_err(|(err, _)| err)
}

/// [`parse_owned_line`] that hands the object back with an error about the puzzle it holds
/// (`None` when the line is no JSON object), so an answer to an unsolvable puzzle can keep the
/// input's keys.
pub fn parse_keeping_object(
    text: String,
    line: usize,
    like: Option<&Geometry>,
) -> Result<JsonPuzzle, (FormatError, Option<Box<RawObject>>)> {
    let mut typed = scan::Typed::default();
    let object = RawObject::parse_typed(text, Some(&mut typed))
        .map_err(|text| (describe_bad_line(&text, line), None))?;
    if let Some(key) = object.repeated_key() {
        let kind = ErrorKind::Field {
            field: key.to_string(),
            expected: "given once".into(),
            found: "it twice (a reader would silently keep only the last)".into(),
        };
        return Err((FormatError::at(line, kind), None));
    }
    let fields = Fields {
        object: &object,
        line,
        like,
        typed,
    };
    match fields.puzzle() {
        Ok((puzzle, solution)) => Ok(JsonPuzzle {
            puzzle,
            solution,
            object,
        }),
        Err(err) => Err((err, Some(Box::new(object)))),
    }
}

/// Why a line is not one JSON object.
fn describe_bad_line(text: &str, line: usize) -> FormatError {
    match serde_json::from_str::<Value>(text) {
        Ok(value) => field_error(line, "the line", "a JSON object", &value),
        Err(e) => FormatError::at(
            line,
            ErrorKind::Json {
                column: e.column(),
                message: e.to_string(),
            },
        ),
    }
}

fn field_error(line: usize, field: &str, expected: &str, found: &Value) -> FormatError {
    let kind = ErrorKind::Field {
        field: field.to_string(),
        expected: expected.to_string(),
        found: excerpt(&echo(found)),
    };
    FormatError::at(line, kind)
}

/// A value as a message shows it: as JSON, except that `-0` (which JSON readers hold as the
/// float -0.0) is shown as written.
fn echo(value: &Value) -> String {
    match value.as_f64() {
        Some(v) if v == 0.0 && v.is_sign_negative() => "-0".into(),
        _ => value.to_string(),
    }
}

/// A cage as the fast path reads it (anything else goes to the `Value` path for its message).
#[derive(serde::Deserialize)]
struct TypedCage {
    sum: u16,
    #[serde(deserialize_with = "cells")]
    cells: Vec<Cell>,
}

/// A JSON list read item by item (as `U`, kept as `map(U)`) into a `Vec` with room for
/// `capacity` items taken at once: serde_json gives no length to size it by, so reading a `Vec`
/// would grow it step by step. One reader for the grids, the cages and each cage's cells.
fn list<'de, U, T, D>(d: D, capacity: usize, map: fn(U) -> T) -> Result<Vec<T>, D::Error>
where
    U: serde::Deserialize<'de>,
    D: serde::Deserializer<'de>,
{
    struct List<U, T>(usize, fn(U) -> T);
    impl<'de, U: serde::Deserialize<'de>, T> serde::de::Visitor<'de> for List<U, T> {
        type Value = Vec<T>;

        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            f.write_str("a list")
        }

        fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<Vec<T>, A::Error> {
            let mut items = Vec::with_capacity(self.0);
            while let Some(item) = seq.next_element::<U>()? {
                items.push((self.1)(item));
            }
            Ok(items)
        }
    }
    d.deserialize_seq(List(capacity, map))
}

/// [`list`] over the whole of `raw`.
fn list_in<'de, U: serde::Deserialize<'de>, T>(
    raw: &'de str,
    capacity: usize,
    map: fn(U) -> T,
) -> serde_json::Result<Vec<T>> {
    let mut de = serde_json::Deserializer::from_str(raw);
    let items = list(&mut de, capacity, map)?;
    de.end()?;
    Ok(items)
}

/// A cage's cell indices (whole numbers from 0 to 255), read straight into cells.
fn cells<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Vec<Cell>, D::Error> {
    list(d, 4, Cell::new)
}

/// Typed access to the fields of one object, with errors naming the line and field. Each
/// field is read typed first; on failure the `Value` path below finds the exact fault.
struct Fields<'a> {
    object: &'a RawObject,
    line: usize,
    /// A geometry to copy when the line's boxes are the same.
    like: Option<&'a Geometry>,
    /// The fields the scanner read on its way (each taken once).
    typed: scan::Typed,
}

impl Fields<'_> {
    fn puzzle(mut self) -> Result<(Puzzle, Option<Grid>), FormatError> {
        let typed = std::mem::take(&mut self.typed);
        let size = self.whole("size", usize::MAX)?;
        let geometry = self.geometry(size)?;
        // A killer may leave out `givens` (none); a plain puzzle needs them.
        let cages = self.object.raw("cages");
        let givens = match (self.object.raw("givens"), cages) {
            (None, Some(c)) if c.starts_with('[') => Grid::empty(geometry.size()),
            _ => self.grid("givens", typed.givens, &geometry)?,
        };
        let solution = match self.object.raw("solution") {
            None | Some("null") => None,
            Some(_) => Some(self.grid("solution", typed.solution, &geometry)?),
        };
        let cages = match cages {
            None | Some("null") => Vec::new(),
            Some(raw) => self.cages(raw, typed.cages, geometry.cell_count())?,
        };
        let puzzle = Puzzle::new(geometry, givens, cages).map_err(|e| self.at(e))?;
        Ok((puzzle, solution))
    }

    /// The field's value as a tree (the slow path), or an error when it is missing.
    fn get(&self, field: &str) -> Result<Value, FormatError> {
        let raw = self.object.raw(field).ok_or_else(|| {
            let kind = ErrorKind::Field {
                field: field.to_string(),
                expected: "present".to_string(),
                found: "nothing (the key is missing)".to_string(),
            };
            FormatError::at(self.line, kind)
        })?;
        // The raw reading checks the syntax only: a number out of range (`1e400`) fails here,
        // and is named as the whole line's JSON error, as a `Value` reading of the line says it.
        serde_json::from_str(raw).map_err(|_| describe_bad_line(self.object.text(), self.line))
    }

    /// A whole-number field from 0 to `max`.
    fn whole(&self, field: &str, max: usize) -> Result<usize, FormatError> {
        let typed = self.object.raw(field).map(serde_json::from_str::<u64>);
        match typed {
            Some(Ok(v)) if v <= max as u64 => Ok(v as usize),
            _ => self.uint(&self.get(field)?, field, max),
        }
    }

    fn uint(&self, value: &Value, field: &str, max: usize) -> Result<usize, FormatError> {
        match value.as_u64() {
            Some(v) if v <= max as u64 => Ok(v as usize),
            _ if max == usize::MAX => Err(self.error(field, "a whole number", value)),
            _ => Err(self.error(field, &format!("a whole number from 0 to {max}"), value)),
        }
    }

    fn list<'v>(
        &self,
        value: &'v Value,
        field: &str,
        len: Option<usize>,
    ) -> Result<&'v [Value], FormatError> {
        match (value.as_array(), len) {
            (Some(items), Some(n)) if items.len() == n => Ok(items),
            (Some(items), None) => Ok(items),
            (_, Some(n)) => Err(self.error(field, &format!("a list of {n} items"), value)),
            (None, None) => Err(self.error(field, "a list", value)),
        }
    }

    fn error(&self, field: &str, expected: &str, found: &Value) -> FormatError {
        field_error(self.line, field, expected, found)
    }

    fn at(&self, kind: impl Into<ErrorKind>) -> FormatError {
        FormatError::at(self.line, kind)
    }

    fn geometry(&self, size: usize) -> Result<Geometry, FormatError> {
        if self.object.raw("regions").is_some() {
            return self.regions(&self.get("regions")?, size);
        }
        let rows = self.object.raw("box_rows");
        let cols = self.object.raw("box_cols");
        match (rows, cols) {
            (None, None) => Geometry::standard(size).map_err(|e| self.at(e)),
            (Some(_), Some(_)) => {
                let r = self.whole("box_rows", MAX_SIZE)?;
                let c = self.whole("box_cols", MAX_SIZE)?;
                // A geometry that was built from the same boxes is the same geometry.
                let same = |g: &&Geometry| g.size() == size && g.box_shape() == Some((r, c));
                match self.like.filter(same) {
                    Some(like) => Ok(like.clone()),
                    None => Geometry::boxed(size, r, c).map_err(|e| self.at(e)),
                }
            }
            (Some(_), None) | (None, Some(_)) => Err(self.at(ErrorKind::Field {
                field: "box_rows/box_cols".to_string(),
                expected: "both present or both absent".to_string(),
                found: "only one of them".to_string(),
            })),
        }
    }

    fn regions(&self, value: &Value, size: usize) -> Result<Geometry, FormatError> {
        // Check the size first: it bounds every allocation below.
        Geometry::standard(size).map_err(|e| self.at(e))?;
        let n = size * size;
        let lists = self.list(value, "regions", Some(size))?;
        let mut region_of = vec![u8::MAX; n];
        for (r, list) in lists.iter().enumerate() {
            let field = format!("regions[{r}]");
            for cell in self.list(list, &field, None)? {
                let index = self.uint(cell, &field, n - 1)?;
                if region_of[index] != u8::MAX {
                    return Err(self.at(ErrorKind::Field {
                        field,
                        expected: "cells that are in no other region".to_string(),
                        found: format!("cell {index}, already in regions[{}]", region_of[index]),
                    }));
                }
                region_of[index] = r as u8;
            }
        }
        if let Some(missing) = region_of.iter().position(|&r| r == u8::MAX) {
            return Err(self.at(ErrorKind::Field {
                field: "regions".to_string(),
                expected: "lists covering every cell once".to_string(),
                found: format!("cell {missing} in no region"),
            }));
        }
        Geometry::jigsaw(size, region_of).map_err(|e| self.at(e))
    }

    /// The grid of `field`, given what the scanner read of it (`scanned`).
    fn grid(
        &self,
        field: &str,
        scanned: Option<Vec<u8>>,
        geometry: &Geometry,
    ) -> Result<Grid, FormatError> {
        let (size, n) = (geometry.size(), geometry.cell_count());
        // The byte scanner first, serde_json's typed reading second, the `Value` path last.
        let typed = scanned.or_else(|| {
            let raw = self.object.raw(field)?;
            list_in(raw, n.min(MAX_CELLS), |v: u8| v).ok()
        });
        if let Some(values) = typed {
            if values.len() == n && values.iter().all(|&v| v as usize <= size) {
                return Ok(Grid::from_values(size, values).expect("length and values checked"));
            }
        }
        let value = self.get(field)?;
        let items = self.list(&value, field, Some(n))?;
        let values = items
            .iter()
            .enumerate()
            .map(|(i, v)| Ok(self.uint(v, &format!("{field}[{i}]"), size)? as u8))
            .collect::<Result<Vec<u8>, FormatError>>()?;
        Ok(Grid::from_values(size, values).expect("length and values checked above"))
    }

    /// The cages of `raw`, given what the scanner read of them (`scanned`).
    fn cages(
        &self,
        raw: &str,
        scanned: Option<Vec<(u16, Vec<Cell>)>>,
        cell_count: usize,
    ) -> Result<Vec<Cage>, FormatError> {
        let scanned = scanned.map(|cages| {
            let typed = |(sum, cells)| TypedCage { sum, cells };
            cages.into_iter().map(typed).collect()
        });
        if let Some(typed) = scanned.or_else(|| list_in(raw, 32, |c: TypedCage| c).ok()) {
            let in_range = |c: &TypedCage| c.cells.iter().all(|&i| i.as_index() < cell_count);
            if typed.len() <= cell_count && typed.iter().all(in_range) {
                return Ok(typed
                    .into_iter()
                    .map(|c| Cage::new(c.sum, c.cells))
                    .collect());
            }
        }
        // No more cages than cells: checked before anything is allocated per cage.
        let value = self.get("cages")?;
        let items = self.list(&value, "cages", None)?;
        if items.len() > cell_count {
            let expected = format!("a list of at most {cell_count} cages (one per cell)");
            return Err(self.error("cages", &expected, &json!(items.len())));
        }
        items
            .iter()
            .enumerate()
            .map(|(i, cage)| {
                let field = format!("cages[{i}]");
                let Some(obj) = cage.as_object() else {
                    return Err(self.error(&field, "an object {\"sum\", \"cells\"}", cage));
                };
                let member = |key: &str| {
                    obj.get(key).ok_or_else(|| {
                        self.at(ErrorKind::Field {
                            field: key.to_string(),
                            expected: "present".to_string(),
                            found: "nothing (the key is missing)".to_string(),
                        })
                    })
                };
                let sum = self.uint(member("sum")?, &format!("{field}.sum"), u16::MAX as usize)?;
                let cells_field = format!("{field}.cells");
                let cells = self
                    .list(member("cells")?, &cells_field, None)?
                    .iter()
                    .enumerate()
                    .map(|(k, c)| {
                        let at = format!("{cells_field}[{k}]");
                        Ok(Cell::new(self.uint(c, &at, cell_count - 1)? as u8))
                    })
                    .collect::<Result<Vec<Cell>, FormatError>>()?;
                Ok(Cage::new(sum as u16, cells))
            })
            .collect()
    }
}
