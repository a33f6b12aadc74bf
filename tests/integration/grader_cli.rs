//! `rate` and `explain --format jsonl` on the sample killers: both print a grade with the same
//! keys in the same order (one spelling, `grader::json`), and every explained step names the
//! level of its technique as `"level"`, never above the puzzle's.

use crate::common::run;
use serde_json::Value;

/// The levels, easiest first.
const LEVELS: [&str; 5] = ["easy", "medium", "hard", "expert", "extreme"];
/// The keys of a grade, in order, as both commands print them.
const GRADE_KEYS: [&str; 9] = [
    "level",
    "score",
    "minutes",
    "hardest",
    "techniques",
    "trial",
    "hardest_step",
    "level_from",
    "steps",
];

/// One JSON value per line of the command's output (which must succeed).
fn json_lines(args: &[&str]) -> Vec<Value> {
    let out = run(args);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{args:?}: {stderr}");
    let text = String::from_utf8(out.stdout).expect("UTF-8 output");
    text.lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect()
}

fn keys(value: &Value) -> Vec<&str> {
    let object = value.as_object().expect("a JSON object");
    object.keys().map(String::as_str).collect()
}

fn rank(level: &Value) -> usize {
    let name = level.as_str().unwrap_or_else(|| panic!("level {level}"));
    let rank = LEVELS.iter().position(|&l| l == name);
    rank.unwrap_or_else(|| panic!("unknown level {name}"))
}

#[test]
fn explain_and_rate_print_one_grade_and_steps_name_their_level() {
    let killers = format!("{}/samples/killers.jsonl", env!("CARGO_MANIFEST_DIR"));
    let rated = json_lines(&["rate", &killers]);
    let explained = json_lines(&["explain", "--format", "jsonl", &killers]);
    let heads: Vec<&Value> = explained.iter().filter(|v| v["type"] == "grade").collect();
    assert_eq!(
        (heads.len(), rated.len()),
        (7, 7),
        "the seven sample killers"
    );
    for (head, rate) in heads.iter().zip(&rated) {
        let mut want = vec!["type", "puzzle", "id"];
        want.extend(GRADE_KEYS);
        want.push("reason");
        assert_eq!(keys(head), want);
        assert_eq!(head["reason"], Value::Null);
        // `rate` keeps the input's keys, then adds the grade's (no reason when graded).
        let rate_keys = keys(rate);
        assert_eq!(rate_keys[rate_keys.len() - GRADE_KEYS.len()..], GRADE_KEYS);
        for key in GRADE_KEYS {
            assert_eq!(head[key], rate[key], "{key}");
        }
        // The step that made the level is on the path, of the hardest technique, at the cells
        // that step changes; a level above its rung's comes from the work.
        let hardest = &head["hardest_step"];
        let number = hardest["step"].as_u64().unwrap();
        let step = explained
            .iter()
            .find(|v| v["type"] == "step" && v["puzzle"] == head["puzzle"] && v["step"] == number)
            .expect("the hardest step is on the path");
        assert_eq!(step["technique"], head["hardest"]);
        assert_eq!(hardest["technique"], head["hardest"]);
        assert_eq!(step["weight"], hardest["weight"]);
        let cell = |pair: &Value| pair[0].clone();
        let mut changed: Vec<Value> = step["placements"]
            .as_array()
            .unwrap()
            .iter()
            .map(cell)
            .collect();
        changed.extend(step["eliminations"].as_array().unwrap().iter().map(cell));
        for c in hardest["cells"].as_array().unwrap() {
            assert!(changed.contains(c), "{c} is changed by step {number}");
        }
        let from = head["level_from"].as_str().unwrap();
        match rank(&head["level"]) > rank(&hardest["level"]) {
            true => assert_eq!(from, "work"),
            false => assert_eq!(from, "hardest_step"),
        }
        // The score sits in its level's band of 10, the minutes are a range.
        let score = head["score"].as_f64().unwrap();
        assert_eq!(
            (score / 10.0).floor() as usize,
            rank(&head["level"]),
            "{score}"
        );
        let minutes = head["minutes"].as_array().unwrap();
        assert!(minutes[0].as_u64().unwrap() < minutes[1].as_u64().unwrap());
    }
    let steps: Vec<&Value> = explained.iter().filter(|v| v["type"] == "step").collect();
    let total: u64 = heads.iter().map(|h| h["steps"].as_u64().unwrap()).sum();
    assert_eq!(steps.len() as u64, total, "every step of every path");
    for step in steps {
        assert!(step.get("tier").is_none(), "{step}");
        let puzzle = step["puzzle"].as_u64().unwrap() as usize;
        assert!(
            rank(&step["level"]) <= rank(&heads[puzzle]["level"]),
            "{step}"
        );
    }
}
