//! Puzzle JSON lines: one object a line with `size`, `box_rows`/`box_cols` or `regions`, `givens`,
//! optional `solution` and `cages` (`[{"sum", "cells"}]`, 0-based cell indices); other keys are kept.
//! The reader is `read.rs`, the writer `write.rs`; `raw_object.rs` keeps an input line's object as
//! its text, so keys a command does not use are written back as they came.

pub mod raw_object;
mod read;
mod scan;
mod write;

pub use raw_object::{Extra, RawObject};
pub use read::{parse_keeping_object, parse_line, parse_owned_line, JsonPuzzle};
pub use write::{to_object, write_answer, write_answer_extra, write_object, write_puzzle};

use serde_json::{Map, Value};

/// A JSON object, keys in sorted order.
pub type Object = Map<String, Value>;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::Geometry;
    use crate::grid::Grid;
    use crate::puzzle::Puzzle;
    use serde_json::json;

    const SMALL: &str = r#"{"id": "x", "size": 4, "givens": [0,0,0,0, 0,0,0,0, 0,0,0,0, 0,0,0,0],
        "solution": [2,3,1,4, 4,1,2,3, 3,2,4,1, 1,4,3,2],
        "cages": [{"sum": 5, "cells": [0, 1]}, {"sum": 7, "cells": [4, 5, 6]}]}"#;

    fn line(text: &str) -> String {
        text.replace('\n', " ")
    }

    #[test]
    fn a_repeated_key_is_named_not_silently_dropped() {
        let twice = line(SMALL).replacen(r#""id": "x","#, r#""id": "x", "size": 9,"#, 1);
        let err = parse_line(&twice, 3).unwrap_err().to_string();
        assert!(
            err.contains("line 3") && err.contains("`size` should be given once"),
            "{err}"
        );
        assert!(parse_line(&line(SMALL), 3).is_ok());
    }

    #[test]
    fn reads_standard_boxes_when_absent_and_keeps_extra_keys() {
        let parsed = parse_line(&line(SMALL), 1).unwrap();
        assert_eq!(parsed.puzzle.geometry(), &Geometry::standard(4).unwrap());
        assert_eq!(parsed.puzzle.cages().len(), 2);
        assert_eq!(parsed.solution.unwrap().values()[0], 2);
        assert_eq!(parsed.object.get("id"), Some(json!("x")));
    }

    #[test]
    fn round_trips_boxes_and_regions() {
        let parsed = parse_line(&line(SMALL), 1).unwrap();
        let mut out = Vec::new();
        write_puzzle(&mut out, &parsed.puzzle, parsed.solution.as_ref()).unwrap();
        let again = parse_line(std::str::from_utf8(&out).unwrap().trim_end(), 1).unwrap();
        assert_eq!(again.puzzle, parsed.puzzle);
        assert_eq!(again.solution, parsed.solution);

        let rows: Vec<u8> = (0..16).map(|i| (i / 4) as u8).collect();
        let jigsaw = Puzzle::plain(Geometry::jigsaw(4, rows).unwrap(), Grid::empty(4)).unwrap();
        let text = serde_json::to_string(&to_object(&jigsaw, None)).unwrap();
        assert_eq!(parse_line(&text, 1).unwrap().puzzle, jigsaw);
    }

    #[test]
    fn names_the_field_at_fault() {
        let cases = [
            (r#"[1, 2]"#, "`the line` should be a JSON object"),
            (r#"{"size": 4}"#, "`givens` should be present"),
            (
                r#"{"size": 1000000000000, "givens": []}"#,
                "grid size 1000000000000 is not supported",
            ),
            (
                r#"{"size": 4, "givens": [1, 2]}"#,
                "`givens` should be a list of 16 items",
            ),
            (
                r#"{"size": 4, "box_rows": 2, "givens": []}"#,
                "both present or both absent",
            ),
            // Regression: a box shape whose product overflows must be refused, not multiplied.
            (
                r#"{"size": 4, "box_rows": 4294967296, "box_cols": 4294967296, "givens": []}"#,
                "`box_rows` should be a whole number from 0 to 16",
            ),
            (
                r#"{"size": 4, "givens": [0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,"x"]}"#,
                "`givens[15]` should be a whole number from 0 to 4",
            ),
            (
                r#"{"size": 4, "givens": [0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0], "cages": [{"sum": 3, "cells": [0, 16]}]}"#,
                "`cages[0].cells[1]` should be a whole number from 0 to 15",
            ),
            (
                r#"{"size": 4, "givens": [0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0], "cages": [{"sum": 30, "cells": [0, 1]}]}"#,
                "cage 1: 2 distinct digits cannot add up to 30",
            ),
            (
                r#"{"size": 4, "givens": [0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0], "regions": [[0], [1]]}"#,
                "`regions` should be a list of 4 items",
            ),
            (r#"{"size": 4, "#, "invalid JSON"),
            // Valid syntax, but a number no reader can hold: an error, not a panic.
            (r#"{"size": 1e400, "givens": []}"#, "number out of range"),
            (
                r#"{"size": 4, "givens": [], "regions": [[0,1,2,3],[0,5,6,7],[8,9,10,11],[12,13,14,15]]}"#,
                "`regions[1]` should be cells that are in no other region, found cell 0, already in regions[0]",
            ),
            (
                r#"{"size": 4, "givens": [], "regions": [[0,1,2,3],[4,5,6],[8,9,10,11],[12,13,14,15]]}"#,
                "found cell 7 in no region",
            ),
            (
                r#"{"size": 4, "givens": [], "regions": [[0,1,4,5],[2,3,6,7],[8,9,12,13],[10,11,14],[15]]}"#,
                "`regions` should be a list of 4 items",
            ),
        ];
        for (text, want) in cases {
            let err = parse_line(text, 9).unwrap_err().to_string();
            assert!(
                err.starts_with("line 9: ") && err.contains(want),
                "{text}: {err}"
            );
        }
    }
}
