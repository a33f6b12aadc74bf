//! Grading a stream of puzzles in parallel batches, grades handed back in input order; and the
//! answer `rate` and `explain` give a puzzle that breaks a rule no solution can keep.

use super::solve::{reason_of, Item, SolveStreamError};
use super::stream;
use crate::format::{FormatError, RawObject};
use crate::grader::json::grade_keys;
use crate::grader::{self, Grade, Verdict};
use serde_json::{Map, Value};

/// Grade every item ([`crate::format::Reader::items`]) on `threads` workers (0 = one per core),
/// calling `emit` with each item and its grade in input order. A well-formed puzzle that breaks
/// a rule (an impossible cage sum, clashing givens) is not graded (verdict "no solution") and
/// the stream goes on; a malformed entry stops the stream after the grades before it.
pub fn rate_stream(
    items: impl Iterator<Item = Result<Item, FormatError>> + Send + 'static,
    threads: usize,
    mut emit: impl FnMut(Item, &Grade) -> std::io::Result<()>,
) -> Result<(), SolveStreamError> {
    let work = |item: &Item| match item {
        Item::Entry(entry) => grader::grade(&entry.puzzle),
        Item::Unsolvable { .. } => no_solution(),
    };
    stream::ordered(items, threads, work, |item, grade| emit(item, &grade)).map_err(Into::into)
}

/// The grade of a puzzle that has no solution: no level, nothing solved.
pub fn no_solution() -> Grade {
    Grade::ungraded(Verdict::NoSolution)
}

/// A puzzle that breaks a rule no solution can keep (an [`Item::Unsolvable`]), as `rate` and
/// `explain` answer it: not graded, with the reason, and the batch goes on.
#[derive(Debug)]
pub struct Unsolvable {
    /// The line it starts on.
    pub line: usize,
    /// "no solution: " and the rule it breaks.
    pub reason: String,
    /// For JSON lines: the object as read, so that the answer keeps the input's keys.
    pub object: Option<RawObject>,
    /// Its grade: no level, verdict "no solution".
    pub grade: Grade,
}

impl Unsolvable {
    /// The answer for the parts of an [`Item::Unsolvable`].
    pub fn new(line: usize, error: &FormatError, object: Option<RawObject>) -> Self {
        Unsolvable {
            line,
            reason: format!("no solution: {}", reason_of(error)),
            object,
            grade: no_solution(),
        }
    }

    /// What to tell the user on stderr: "line 3: no solution: ...".
    pub fn message(&self) -> String {
        format!("line {}: {}", self.line, self.reason)
    }

    /// The input's `id`, if it has one: a string as it is, anything else as its JSON text.
    pub fn id(&self) -> Option<String> {
        self.object.as_ref().and_then(id_in)
    }

    /// The grade's keys ([`grade_keys`]) with this reason as `reason`.
    pub fn keys(&self) -> Map<String, Value> {
        let mut keys = grade_keys(&self.grade, None);
        keys.insert("reason".into(), self.reason.clone().into());
        keys
    }
}

/// The `id` of a JSON line, if it has one: a string as it is, anything else as its JSON text.
pub fn id_in(object: &RawObject) -> Option<String> {
    let id = object.get("id")?;
    Some(id.as_str().map_or_else(|| id.to_string(), str::to_string))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::{Format, Reader};

    #[test]
    fn an_unsolvable_puzzle_is_answered_with_its_line_id_and_reason() {
        // Cage 1 sums to 50 over two cells: no digits make it.
        let text =
            r#"{"id":"k7","size":4,"box_rows":2,"box_cols":2,"cages":[{"sum":50,"cells":[0,1]}]}"#;
        let reader =
            Reader::new(std::io::Cursor::new(text), Some(Format::Jsonl)).expect("a reader");
        let item = reader
            .items()
            .next()
            .expect("one item")
            .expect("well formed");
        let Item::Unsolvable {
            line,
            error,
            object,
        } = item
        else {
            panic!("expected an unsolvable item");
        };
        let answer = Unsolvable::new(line, &error, object);
        assert_eq!(answer.id().as_deref(), Some("k7"));
        assert!(answer.message().starts_with("line 1: no solution: "));
        let keys = answer.keys();
        assert_eq!(keys["level"], Value::Null);
        assert_eq!(keys["reason"], Value::from(answer.reason.clone()));
    }
}
