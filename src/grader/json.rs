//! The JSON keys of a grade, spelled once for every output that prints one: `rate`,
//! `explain --format jsonl` and the JSON-lines export.
//!
//! The grader owns the words (level names, technique keys) and the score's precision, so their
//! JSON spelling lives here; building a `serde_json` map writes nothing, so this stays in the
//! pure core. The export passes the values it read from the store, which this module does not
//! know (the store is a floor above).

use super::grade::Grade;
use super::level::Level;
use super::score::{HardestStep, LevelSource, Minutes};
use super::step::Technique;
use crate::geometry::Geometry;
use crate::puzzle::cell_name;
use serde_json::{json, Map, Value};

/// The keys of a grade as `rate` and `explain` print them, in order: `level` (null without a
/// unique solution), then [`insert_score_keys`] (`score`, `minutes`, `hardest`, `techniques` as
/// `{"hidden_single": 12, ...}`, `trial`), then `hardest_step` (see [`hardest_step_value`]),
/// `level_from` (`"hardest_step"` or `"work"`), `steps`, and `reason` when there is no level.
/// `geometry` names the hardest step's cells (`None` only for a grade without a path).
pub fn grade_keys(grade: &Grade, geometry: Option<&Geometry>) -> Map<String, Value> {
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
        grade.minutes,
        grade.hardest.map(Technique::as_str),
        Value::Object(techniques),
        grade.trial,
    );
    let hardest_step = match (&grade.hardest_step, grade.hardest, geometry) {
        (Some(h), Some(t), Some(g)) => hardest_step_value(h, t, g),
        _ => Value::Null,
    };
    object.insert("hardest_step".into(), hardest_step);
    object.insert(
        "level_from".into(),
        json!(grade.level_from.map(LevelSource::as_str)),
    );
    object.insert("steps".into(), json!(grade.steps));
    if let Some(reason) = grade.reason() {
        object.insert("reason".into(), json!(reason));
    }
    object
}

/// The step that made the level: `{"step": 57, "technique": "x_wing", "level": "hard",
/// "weight": 30.0, "cells": ["r4c5", ...]}` (its position on the path from 1, its rung's
/// technique, level and weight, the cells it changes).
pub fn hardest_step_value(step: &HardestStep, technique: Technique, geometry: &Geometry) -> Value {
    let cells: Vec<String> = step.cells.iter().map(|&c| cell_name(geometry, c)).collect();
    json!({
        "step": step.step,
        "technique": technique.as_str(),
        "level": step.level.as_str(),
        "weight": step.weight,
        "cells": cells,
    })
}

/// Append the keys every printed grade has, live or stored, in order: `score` (rounded to two
/// decimals), `minutes` (`[low, high]`, the estimated solving time, or null), `hardest` (a
/// technique key or null), `techniques` (as the caller has them: an object of step counts, or
/// the stored `name:count;...` text) and `trial`.
pub fn insert_score_keys(
    object: &mut Map<String, Value>,
    score: f64,
    minutes: Option<Minutes>,
    hardest: Option<&str>,
    techniques: Value,
    trial: bool,
) {
    object.insert("score".into(), json!(rounded_score(score)));
    object.insert("minutes".into(), json!(minutes.map(|m| [m.low, m.high])));
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

    use crate::geometry::Cell;

    fn graded() -> Grade {
        Grade {
            level: Some(Level::Hard),
            score: 28.7349,
            minutes: Some(Minutes { low: 12, high: 17 }),
            hardest: Some(Technique::XWing),
            hardest_step: Some(Box::new(HardestStep {
                step: 41,
                level: Level::Hard,
                weight: 30.0,
                cells: vec![Cell::new(30), Cell::new(34)],
            })),
            level_from: Some(LevelSource::HardestStep),
            techniques: vec![(Technique::HiddenSingle, 40), (Technique::XWing, 1)],
            trial: false,
            steps: 41,
            verdict: Verdict::Unique,
        }
    }

    #[test]
    fn a_graded_puzzle_prints_its_keys_in_order_without_a_reason() {
        let g = Geometry::standard(9).unwrap();
        let text = Value::Object(grade_keys(&graded(), Some(&g))).to_string();
        assert_eq!(
            text,
            r#"{"level":"hard","score":28.73,"minutes":[12,17],"hardest":"x_wing","techniques":{"hidden_single":40,"x_wing":1},"trial":false,"hardest_step":{"step":41,"technique":"x_wing","level":"hard","weight":30.0,"cells":["r4c4","r4c8"]},"level_from":"hardest_step","steps":41}"#
        );
    }

    #[test]
    fn an_ungraded_puzzle_prints_a_null_level_and_its_reason() {
        let grade = Grade::ungraded(Verdict::Several);
        let text = Value::Object(grade_keys(&grade, None)).to_string();
        assert_eq!(
            text,
            r#"{"level":null,"score":0.0,"minutes":null,"hardest":null,"techniques":{},"trial":false,"hardest_step":null,"level_from":null,"steps":0,"reason":"several solutions"}"#
        );
    }

    #[test]
    fn stored_grades_keep_their_techniques_text() {
        let mut object = Map::new();
        let minutes = Some(Minutes { low: 3, high: 5 });
        insert_score_keys(
            &mut object,
            15.666,
            minutes,
            None,
            json!("naked_single:3"),
            true,
        );
        assert_eq!(
            Value::Object(object).to_string(),
            r#"{"score":15.67,"minutes":[3,5],"hardest":null,"techniques":"naked_single:3","trial":true}"#
        );
    }
}
