//! The JSON keys of a grade, spelled once for every output that prints one: `rate`,
//! `explain --format jsonl` and the JSON-lines export.
//!
//! The grader owns the words (level names, technique keys) and the score's precision, so their
//! JSON spelling lives here; building a `serde_json` map writes nothing, so this stays in the
//! pure core. The export passes the values it read from the store, which this module does not
//! know (the store is a floor above).

use super::grade::Grade;
use super::level::Level;
use super::step::Technique;
use serde_json::{json, Map, Value};

/// The keys of a grade as `rate` and `explain` print them, in order: `level` (null without a
/// unique solution), then [`insert_score_keys`] (`score`, `hardest`, `techniques` as
/// `{"hidden_single": 12, ...}`, `trial`), then `steps`, then `reason` when there is no level.
pub fn grade_keys(grade: &Grade) -> Map<String, Value> {
    let mut object = Map::new();
    object.insert("level".into(), json!(grade.level.map(Level::as_str)));
    let techniques: Map<String, Value> = grade
        .techniques
        .iter()
        .map(|(t, n)| (t.as_str().to_string(), json!(n)))
        .collect();
    insert_score_keys(
        &mut object,
        grade.score,
        grade.hardest.map(Technique::as_str),
        Value::Object(techniques),
        grade.trial,
    );
    object.insert("steps".into(), json!(grade.steps));
    if let Some(reason) = grade.reason() {
        object.insert("reason".into(), json!(reason));
    }
    object
}

/// Append the keys every printed grade has, live or stored, in order: `score` (rounded to two
/// decimals), `hardest` (a technique key or null), `techniques` (as the caller has them: an
/// object of step counts, or the stored `name:count;...` text) and `trial`.
pub fn insert_score_keys(
    object: &mut Map<String, Value>,
    score: f64,
    hardest: Option<&str>,
    techniques: Value,
    trial: bool,
) {
    object.insert("score".into(), json!(rounded_score(score)));
    object.insert("hardest".into(), json!(hardest));
    object.insert("techniques".into(), techniques);
    object.insert("trial".into(), json!(trial));
}

/// The score as printed: two decimals.
fn rounded_score(score: f64) -> f64 {
    (score * 100.0).round() / 100.0
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grader::grade::Verdict;

    fn graded() -> Grade {
        Grade {
            level: Some(Level::Hard),
            score: 18.7349,
            hardest: Some(Technique::XWing),
            techniques: vec![(Technique::HiddenSingle, 40), (Technique::XWing, 1)],
            trial: false,
            steps: 41,
            verdict: Verdict::Unique,
        }
    }

    #[test]
    fn a_graded_puzzle_prints_its_keys_in_order_without_a_reason() {
        let text = Value::Object(grade_keys(&graded())).to_string();
        assert_eq!(
            text,
            r#"{"level":"hard","score":18.73,"hardest":"x_wing","techniques":{"hidden_single":40,"x_wing":1},"trial":false,"steps":41}"#
        );
    }

    #[test]
    fn an_ungraded_puzzle_prints_a_null_level_and_its_reason() {
        let grade = Grade {
            level: None,
            score: 0.0,
            hardest: None,
            techniques: Vec::new(),
            trial: false,
            steps: 0,
            verdict: Verdict::Several,
        };
        let text = Value::Object(grade_keys(&grade)).to_string();
        assert_eq!(
            text,
            r#"{"level":null,"score":0.0,"hardest":null,"techniques":{},"trial":false,"steps":0,"reason":"several solutions"}"#
        );
    }

    #[test]
    fn stored_grades_keep_their_techniques_text() {
        let mut object = Map::new();
        insert_score_keys(&mut object, 15.666, None, json!("naked_single:3"), true);
        assert_eq!(
            Value::Object(object).to_string(),
            r#"{"score":15.67,"hardest":null,"techniques":"naked_single:3","trial":true}"#
        );
    }
}
