//! A byte scanner for the common shape of a puzzle line, ahead of serde_json: one JSON object
//! whose keys have no escapes, and lists of small whole numbers. It checks the JSON syntax it
//! reads and answers `None` on anything else (escapes, control characters, deep nesting, a
//! number that is not a plain whole number where one is read), and the caller then reads the
//! line through serde_json, whose answer (and error message) stands: so the scanner only ever
//! says what serde_json would say, faster (a third of the reader thread's time on published
//! killers went to serde_json's generic visitors).

use crate::geometry::Cell;
use std::ops::Range;

/// Nesting deeper than this is left to serde_json (which has its own limit).
const MAX_DEPTH: usize = 64;

/// The keys of one JSON object (each range of `text` made a `K` by `key`, in input order) with
/// the ranges of their values, when `text` is exactly one object (blank space around it
/// allowed) of the shape the scanner knows; `None` otherwise.
/// With `typed`, the values of `givens`, `solution` and `cages` are read into it on the way
/// when they have the shape [`Typed`] holds (and skipped otherwise), so a puzzle line is read
/// in one pass.
pub fn object_fields<K>(
    text: &str,
    key: impl Fn(Range<usize>) -> K,
    mut typed: Option<&mut Typed>,
) -> Option<Vec<(K, Range<usize>)>> {
    let mut s = Scanner {
        bytes: text.as_bytes(),
        at: 0,
    };
    s.blank();
    s.eat(b'{')?;
    let mut fields = Vec::with_capacity(16);
    s.blank();
    if !s.eat_if(b'}') {
        loop {
            s.blank();
            let name = s.key()?;
            s.blank();
            s.eat(b':')?;
            s.blank();
            let start = s.at;
            let read = match typed.as_deref_mut() {
                Some(typed) => s.typed_value(&text.as_bytes()[name.clone()], typed),
                None => None,
            };
            if read.is_none() {
                s.at = start;
                s.value(1)?;
            }
            fields.push((key(name), start..s.at));
            s.blank();
            if s.eat_if(b'}') {
                break;
            }
            s.eat(b',')?;
        }
    }
    s.blank();
    (s.at == s.bytes.len()).then_some(fields)
}

/// The puzzle fields [`object_fields`] reads typed, each `None` when absent or of another shape
/// (the last one given, when a key is repeated).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Typed {
    /// `givens`, a list of whole numbers from 0 to 255 (no sign, fraction or exponent).
    pub givens: Option<Vec<u8>>,
    /// `solution` as whole numbers from 0 to 255.
    pub solution: Option<Vec<u8>>,
    /// `cages`, a list of objects with exactly the keys `sum` (0 to 65535) and `cells` (whole
    /// numbers from 0 to 255), in either order, as (sum, cells).
    pub cages: Option<Vec<(u16, Vec<Cell>)>>,
}

/// Room taken at once for a grid's values (a 9x9 grid's cells).
const GRID_ROOM: usize = 81;
/// Room taken at once for a puzzle's cages.
const CAGE_ROOM: usize = 32;

/// A position in a line's bytes.
struct Scanner<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Scanner<'_> {
    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.at).copied()
    }

    /// JSON's blank space: space, tab, line feed, carriage return.
    fn blank(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.at += 1;
        }
    }

    fn eat(&mut self, byte: u8) -> Option<()> {
        self.eat_if(byte).then_some(())
    }

    fn eat_if(&mut self, byte: u8) -> bool {
        let here = self.peek() == Some(byte);
        self.at += here as usize;
        here
    }

    /// A string without escapes or control characters; returns the range of its text.
    fn key(&mut self) -> Option<Range<usize>> {
        self.eat(b'"')?;
        let start = self.at;
        loop {
            match self.peek()? {
                b'"' => break,
                b'\\' | 0..0x20 => return None,
                _ => self.at += 1,
            }
        }
        let end = self.at;
        self.at += 1;
        Some(start..end)
    }

    /// The value of key `name` read into `typed` when it is one of its fields and has the shape
    /// read there; `None` (the position left wherever it stopped) otherwise.
    fn typed_value(&mut self, name: &[u8], typed: &mut Typed) -> Option<()> {
        let grid = |s: &mut Self| s.whole_list(u8::MAX as u32, GRID_ROOM, |v| v as u8);
        // A key given again (refused by the reader) must not leave an earlier value behind.
        match name {
            b"givens" => typed.givens = None,
            b"solution" => typed.solution = None,
            b"cages" => typed.cages = None,
            _ => return None,
        }
        match name {
            b"givens" => typed.givens = Some(grid(self)?),
            b"solution" => typed.solution = Some(grid(self)?),
            b"cages" => typed.cages = Some(self.cages(CAGE_ROOM, Cell::new)?),
            _ => return None,
        }
        Some(())
    }

    /// One JSON value at nesting `depth`, checked and skipped.
    fn value(&mut self, depth: usize) -> Option<()> {
        if depth > MAX_DEPTH {
            return None;
        }
        match self.peek()? {
            b'"' => self.key().map(drop),
            b'{' => {
                self.at += 1;
                self.blank();
                if self.eat_if(b'}') {
                    return Some(());
                }
                loop {
                    self.blank();
                    self.key()?;
                    self.blank();
                    self.eat(b':')?;
                    self.blank();
                    self.value(depth + 1)?;
                    self.blank();
                    if self.eat_if(b'}') {
                        return Some(());
                    }
                    self.eat(b',')?;
                }
            }
            b'[' => {
                self.at += 1;
                self.blank();
                if self.eat_if(b']') {
                    return Some(());
                }
                loop {
                    self.blank();
                    self.value(depth + 1)?;
                    self.blank();
                    if self.eat_if(b']') {
                        return Some(());
                    }
                    self.eat(b',')?;
                }
            }
            b't' => self.literal(b"true"),
            b'f' => self.literal(b"false"),
            b'n' => self.literal(b"null"),
            _ => self.number(),
        }
    }

    fn literal(&mut self, word: &[u8]) -> Option<()> {
        let here = self.bytes.get(self.at..self.at + word.len())? == word;
        self.at += word.len();
        here.then_some(())
    }

    /// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`; what follows it is checked by
    /// the caller (a delimiter), so `01` fails there.
    fn number(&mut self) -> Option<()> {
        self.eat_if(b'-');
        match self.peek()? {
            b'0' => self.at += 1,
            b'1'..=b'9' => self.digits(),
            _ => return None,
        }
        if self.eat_if(b'.') {
            self.some_digits()?;
        }
        if matches!(self.peek(), Some(b'e' | b'E')) {
            self.at += 1;
            if matches!(self.peek(), Some(b'+' | b'-')) {
                self.at += 1;
            }
            self.some_digits()?;
        }
        Some(())
    }

    fn digits(&mut self) {
        while matches!(self.peek(), Some(b'0'..=b'9')) {
            self.at += 1;
        }
    }

    fn some_digits(&mut self) -> Option<()> {
        let start = self.at;
        self.digits();
        (self.at > start).then_some(())
    }

    /// A whole number from 0 to `max` written plainly (no sign, fraction or exponent).
    fn whole(&mut self, max: u32) -> Option<u32> {
        let start = self.at;
        let mut value: u32 = 0;
        while let Some(d @ b'0'..=b'9') = self.peek() {
            // Ten digits or more would overflow before `max` is checked: leave them to serde.
            if self.at - start >= 9 {
                return None;
            }
            value = value * 10 + u32::from(d - b'0');
            self.at += 1;
        }
        let len = self.at - start;
        let plain = len > 0
            && !matches!(self.peek(), Some(b'.' | b'e' | b'E'))
            && (self.bytes[start] != b'0' || len == 1);
        (plain && value <= max).then_some(value)
    }

    fn whole_list<T>(
        &mut self,
        max: u32,
        capacity: usize,
        map: impl Fn(u32) -> T,
    ) -> Option<Vec<T>> {
        self.list(capacity, |s| s.whole(max).map(&map))
    }

    /// A list of cages (see [`Typed::cages`]).
    fn cages<C>(&mut self, capacity: usize, cell: fn(u8) -> C) -> Option<Vec<(u16, Vec<C>)>> {
        self.list(capacity, |s| s.cage(cell))
    }

    /// `[item, item, ...]` with blanks anywhere, each item read by `item`, with room for
    /// `capacity` taken at once; `None` at the first thing that is not.
    fn list<T>(
        &mut self,
        capacity: usize,
        mut item: impl FnMut(&mut Self) -> Option<T>,
    ) -> Option<Vec<T>> {
        self.blank();
        self.eat(b'[')?;
        let mut items = Vec::with_capacity(capacity);
        self.blank();
        if self.eat_if(b']') {
            return Some(items);
        }
        loop {
            self.blank();
            items.push(item(self)?);
            self.blank();
            if self.eat_if(b']') {
                return Some(items);
            }
            self.eat(b',')?;
        }
    }

    /// `{"sum": n, "cells": [..]}`, keys in either order, each once, no others.
    fn cage<C>(&mut self, cell: fn(u8) -> C) -> Option<(u16, Vec<C>)> {
        self.eat(b'{')?;
        let (mut sum, mut cells) = (None, None);
        loop {
            self.blank();
            let key = self.key()?;
            self.blank();
            self.eat(b':')?;
            self.blank();
            match &self.bytes[key] {
                b"sum" if sum.is_none() => sum = Some(self.whole(u16::MAX as u32)? as u16),
                b"cells" if cells.is_none() => {
                    cells = Some(self.whole_list(u8::MAX as u32, 4, |v| cell(v as u8))?)
                }
                _ => return None,
            }
            self.blank();
            if self.eat_if(b'}') {
                return Some((sum?, cells?));
            }
            self.eat(b',')?;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A JSON list of whole numbers from 0 to `max`, each mapped by `map`, with room for
    /// `capacity` taken at once; `None` for anything else.
    fn whole_list<T>(
        raw: &str,
        max: u32,
        capacity: usize,
        map: impl Fn(u32) -> T,
    ) -> Option<Vec<T>> {
        let mut s = Scanner {
            bytes: raw.as_bytes(),
            at: 0,
        };
        let items = s.whole_list(max, capacity, map)?;
        s.blank();
        (s.at == s.bytes.len()).then_some(items)
    }

    /// A JSON list of cage objects, each with exactly the keys `sum` (0 to 65535) and `cells`
    /// (whole numbers from 0 to 255, each mapped by `cell`), in either order, read as
    /// `(sum, cells)`; `None` for anything else.
    fn cage_list<C>(raw: &str, capacity: usize, cell: fn(u8) -> C) -> Option<Vec<(u16, Vec<C>)>> {
        let mut s = Scanner {
            bytes: raw.as_bytes(),
            at: 0,
        };
        let cages = s.cages(capacity, cell)?;
        s.blank();
        (s.at == s.bytes.len()).then_some(cages)
    }
    use proptest::prelude::*;
    use serde_json::value::RawValue;

    /// The scanner's fields, as (key, value) texts.
    fn scanned(text: &str) -> Option<Vec<(&str, &str)>> {
        object_fields(text, |k| k, None).map(|fields| {
            fields
                .into_iter()
                .map(|(k, v)| (&text[k], &text[v]))
                .collect()
        })
    }

    #[test]
    fn reads_a_puzzle_line_and_refuses_what_it_does_not_know() {
        let text =
            r#" {"id": "a b", "size": 4, "x": [1, -2.5e3, {"k": [true, false, null]}], "e": {}} "#;
        assert_eq!(
            scanned(text).unwrap(),
            vec![
                ("id", r#""a b""#),
                ("size", "4"),
                ("x", r#"[1, -2.5e3, {"k": [true, false, null]}]"#),
                ("e", "{}"),
            ]
        );
        assert_eq!(scanned("{}").unwrap(), vec![]);
        // Escapes and control characters go to serde_json; so does anything invalid.
        for text in [
            r#"{"a\u0062": 1}"#,
            r#"{"a": "x\"y"}"#,
            "{\"a\": \"x\ty\"}",
            r#"{"a": 01}"#,
            r#"{"a": 1.}"#,
            r#"{"a": -}"#,
            r#"{"a": tru}"#,
            r#"{"a": 1,}"#,
            r#"{"a": [1,]}"#,
            r#"{"a": 1} x"#,
            r#"[1]"#,
            r#"{"a" 1}"#,
            "",
        ] {
            assert!(scanned(text).is_none(), "{text}");
        }
        let deep = format!("{{\"a\": {}{}}}", "[".repeat(70), "]".repeat(70));
        assert!(scanned(&deep).is_none());
    }

    #[test]
    fn reads_whole_lists_and_cages_or_nothing() {
        assert_eq!(whole_list("[0, 9 ,10]", 10, 3, |v| v), Some(vec![0, 9, 10]));
        assert_eq!(whole_list("[ ]", 10, 3, |v| v), Some(vec![]));
        for raw in [
            "[11]",
            "[1.0]",
            "[-1]",
            "[1e0]",
            "[00]",
            "[\"1\"]",
            "[9999999999]",
        ] {
            assert_eq!(whole_list(raw, 10, 3, |v| v), None, "{raw}");
        }
        assert_eq!(
            cage_list(
                r#"[{"sum": 3, "cells": [0, 1]}, {"cells": [2], "sum": 65535}]"#,
                2,
                |c| c
            ),
            Some(vec![(3, vec![0u8, 1]), (65535, vec![2])])
        );
        for raw in [
            r#"[{"sum": 3}]"#,
            r#"[{"sum": 3, "cells": [0], "id": 1}]"#,
            r#"[{"sum": 3, "sum": 4, "cells": [0]}]"#,
            r#"[{"sum": 65536, "cells": [0]}]"#,
            r#"[{"sum": 3, "cells": [256]}]"#,
        ] {
            assert_eq!(cage_list(raw, 1, |c| c), None, "{raw}");
        }
    }

    /// JSON texts made of the pieces the scanner knows and the ones it must refuse.
    fn json_text() -> impl Strategy<Value = String> {
        let leaf = prop::sample::select(vec![
            "0",
            "7",
            "-0",
            "12",
            "1.5",
            "-3e2",
            "2E+1",
            "01",
            "1.",
            ".5",
            "-",
            "true",
            "nul",
            "null",
            "\"s\"",
            "\"a\\\"b\"",
            "\"\"",
            "1e400",
        ])
        .prop_map(String::from);
        leaf.prop_recursive(4, 24, 4, |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..4)
                    .prop_map(|v| format!("[{}]", v.join(", "))),
                prop::collection::vec(("[a-c]{1,2}", inner), 0..4).prop_map(|v| {
                    let kv: Vec<String> = v.iter().map(|(k, v)| format!("\"{k}\" :{v}")).collect();
                    format!("{{ {} }}", kv.join(","))
                }),
            ]
        })
    }

    proptest! {
        /// Whatever the scanner accepts, serde_json reads to the same keys and value texts.
        #[test]
        fn the_scanner_agrees_with_serde_json(body in json_text()) {
            let text = format!("{{\"k\": {body}}}");
            if let Some(fields) = scanned(&text) {
                // serde_json's raw reading checks the syntax only, as the scanner does.
                let list = format!("[[\"k\", {body}]]");
                let raw = serde_json::from_str::<Vec<(String, &RawValue)>>(&list);
                prop_assert!(raw.is_ok(), "{text}");
                prop_assert_eq!(fields.len(), 1);
                prop_assert_eq!(raw.unwrap()[0].1.get(), fields[0].1);
            }
            if let Some(fast) = whole_list(&body, 255, 1, |v| v as u8) {
                prop_assert_eq!(Some(fast), serde_json::from_str::<Vec<u8>>(&body).ok());
            }
        }
    }
}
