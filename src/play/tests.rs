//! Tests of the player data, the recording replay and the page: the contract's fields on every
//! size, jigsaw and plain puzzles, escaping, and the CSP hashes of the inline blocks.

use super::data::{key_hex, player_data, to_script_json, Source};
use super::making::{layout_at, replay};
use super::page::{csp_hash, page_html, page_script, PageInfo, PLAYER_CSS};
use super::PlayerData;
use crate::generator::{generate_puzzle, GeneratorConfig, GivensPolicy, Outcome, Variant};
use crate::geometry::Geometry;
use crate::grader::solve_logically;
use crate::grid::Grid;
use crate::puzzle::Puzzle;
use crate::test_support::{random_boxed_solution, random_puzzle};
use rand::SeedableRng;
use rand_pcg::Pcg64;
use serde_json::Value;

fn source(id: &str, puzzle: &Puzzle) -> Source {
    Source {
        id: id.into(),
        title: super::data::default_title(puzzle, id),
        level: "hard".into(),
        score: 18.734,
    }
}

/// The player of a puzzle, with its path and (when given) the generator config to replay.
fn player(puzzle: &Puzzle, solution: &Grid, made: Option<(&GeneratorConfig, u64)>) -> PlayerData {
    let path = solve_logically(puzzle);
    let (making, note) = match made.map(|(c, i)| replay(c, 7, i, puzzle, solution)) {
        Some(Ok(steps)) => (steps, None),
        Some(Err(note)) => (Vec::new(), Some(note)),
        None => (Vec::new(), Some("not generated".into())),
    };
    player_data(source("42", puzzle), puzzle, solution, &path, making, note)
}

fn generated(config: &GeneratorConfig, index: u64) -> (Puzzle, Grid) {
    match generate_puzzle(config, 7, index) {
        Outcome::Generated(g) => (g.puzzle, g.solution),
        other => panic!("{config:?} item {index}: {other:?}"),
    }
}

fn numbers(v: &Value) -> Vec<u64> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_u64().unwrap())
        .collect()
}

/// Every field the contract names, checked against the puzzle.
fn check_contract(json: &Value, puzzle: &Puzzle, solution: &Grid) {
    let g = puzzle.geometry();
    let n = g.size();
    assert_eq!(json["id"], "42");
    assert_eq!(json["key"].as_str().unwrap().len(), 32);
    assert_eq!(json["key"], key_hex(puzzle));
    assert_eq!(json["size"], n);
    match g.box_shape() {
        Some((r, c)) => assert_eq!(
            (json["boxRows"].as_u64(), json["boxCols"].as_u64()),
            (Some(r as u64), Some(c as u64))
        ),
        None => assert!(json["boxRows"].is_null() && json["boxCols"].is_null()),
    }
    let regions = numbers(&json["regions"]);
    assert_eq!(regions.len(), n * n);
    for cell in g.cells() {
        assert_eq!(regions[cell.as_index()], g.region(cell) as u64);
    }
    let givens = numbers(&json["givens"]);
    let sol = numbers(&json["solution"]);
    assert_eq!((givens.len(), sol.len()), (n * n, n * n));
    for (i, (&gv, &s)) in givens.iter().zip(&sol).enumerate() {
        assert_eq!(s, solution.values()[i] as u64);
        assert!(gv == 0 || gv == s, "a given is the solution's digit");
    }
    let cages = json["cages"].as_array().unwrap();
    assert_eq!(cages.len(), puzzle.cages().len());
    for cage in cages {
        let cells = numbers(&cage["cells"]);
        let sum: u64 = cells.iter().map(|&c| sol[c as usize]).sum();
        assert_eq!(cage["sum"].as_u64().unwrap(), sum);
    }
    assert_eq!(json["level"], "hard");
    assert_eq!(json["score"], 18.73);
    let title = json["title"].as_str().unwrap();
    assert!(title.ends_with(&format!("{n}x{n} · #42")), "{title}");
    let none = Value::Array(Vec::new());
    for step in json["path"].as_array().unwrap() {
        for key in ["technique", "text", "place"] {
            assert!(step[key].as_str().is_some_and(|s| !s.is_empty()), "{key}");
        }
        let info = &json["techniques"][step["technique"].as_str().unwrap()];
        assert!(info["name"].as_str().is_some_and(|s| !s.is_empty()));
        assert!(["easy", "medium", "hard", "expert", "extreme"]
            .contains(&info["level"].as_str().unwrap()));
        assert!(step.get("hints").is_none(), "the player builds the hints");
        let name = info["name"].as_str().unwrap();
        assert!(
            !step["text"]
                .as_str()
                .unwrap()
                .starts_with(&format!("{name}: ")),
            "the player puts the name in front of the text"
        );
        let placements = step.get("placements").unwrap_or(&none);
        let eliminations = step.get("eliminations").unwrap_or(&none);
        assert!(
            placements != &none || eliminations != &none,
            "every step makes progress"
        );
        for [cell, digit] in placements
            .as_array()
            .unwrap()
            .iter()
            .map(|p| <[u64; 2]>::try_from(numbers(p)).unwrap())
        {
            assert_eq!(
                sol[cell as usize], digit,
                "a placement is the solution's digit"
            );
        }
        for [cell, digit] in eliminations
            .as_array()
            .unwrap()
            .iter()
            .map(|p| <[u64; 2]>::try_from(numbers(p)).unwrap())
        {
            assert_ne!(
                sol[cell as usize], digit,
                "an elimination is never the solution's digit"
            );
        }
    }
}

#[test]
fn contract_fields_on_every_size_with_random_cages() {
    let mut rng = Pcg64::seed_from_u64(20);
    for n in [4, 6, 8, 9, 10, 12, 16] {
        let g = Geometry::standard(n).unwrap();
        let solution = random_boxed_solution(&g, &mut rng);
        // Many givens on big grids keep the grader's uniqueness check short.
        let given = if n >= 10 { 0.6 } else { 0.1 };
        let puzzle = random_puzzle(&g, &solution, 1.0, given, &mut rng);
        let data = player(&puzzle, &solution, None);
        let json = serde_json::to_value(&data).unwrap();
        check_contract(&json, &puzzle, &solution);
        assert_eq!(json["variant"], "killer");
        assert_eq!(json["makingNote"], "not generated");
        assert!(json["making"].as_array().unwrap().is_empty());
        // Either a graded path or an empty one with its reason.
        let path = json["path"].as_array().unwrap();
        assert_eq!(path.is_empty(), json.get("pathNote").is_some(), "{n}x{n}");
    }
}

#[test]
fn generated_killers_have_a_path_and_a_replayed_making() {
    for (size, index) in [(4u8, 0u64), (6, 1), (9, 0)] {
        let config = GeneratorConfig {
            size,
            levels: Some(crate::generator::level::LevelsSetting::any()),
            ..GeneratorConfig::default()
        };
        let (puzzle, solution) = generated(&config, index);
        let data = player(&puzzle, &solution, Some((&config, index)));
        let json = serde_json::to_value(&data).unwrap();
        check_contract(&json, &puzzle, &solution);
        assert!(!data.path.is_empty() && data.path_note.is_none());
        assert!(data.making_note.is_none(), "{:?}", data.making_note);
        let stages: Vec<&str> = data.making.iter().map(|s| s.stage).collect();
        assert_eq!(&stages[..2], ["seed", "variation"], "{stages:?}");
        assert!(stages.contains(&"cages") && stages.contains(&"check"));
        assert_eq!(stages.last(), Some(&"done"));
        // The last check before the end found the puzzle unique, and the last layout is its own.
        let last_check = data
            .making
            .iter()
            .rev()
            .find(|s| s.stage == "check")
            .unwrap();
        assert_eq!(last_check.verdict, Some("unique"));
        let last_cages = layout_at(&data.making, data.making.len() - 1).unwrap();
        let mut laid: Vec<_> = last_cages
            .iter()
            .map(|c| (c.sum, c.cells.clone()))
            .collect();
        let mut own: Vec<_> = data
            .cages
            .iter()
            .map(|c| (c.sum, c.cells.clone()))
            .collect();
        laid.sort();
        own.sort();
        assert_eq!(laid, own);
        assert_eq!(
            data.making[1].grid.as_deref(),
            Some(solution.values()),
            "the variation is the solution"
        );
    }
}

#[test]
fn jigsaw_and_plain_puzzles_have_regions_givens_and_no_cages() {
    for variant in [Variant::Jigsaw, Variant::Classic] {
        let config = GeneratorConfig {
            variant,
            size: 6,
            givens: GivensPolicy::Minimal,
            ..GeneratorConfig::default()
        };
        let (puzzle, solution) = generated(&config, 2);
        let data = player(&puzzle, &solution, Some((&config, 2)));
        let json = serde_json::to_value(&data).unwrap();
        check_contract(&json, &puzzle, &solution);
        assert_eq!(json["cages"], serde_json::json!([]));
        assert!(data.givens.iter().any(|&v| v != 0));
        let jigsaw = variant == Variant::Jigsaw;
        assert_eq!(json["variant"], if jigsaw { "jigsaw" } else { "classic" });
        assert_eq!(json["boxRows"].is_null(), jigsaw);
        let givens = data.making.iter().find(|s| s.stage == "givens").unwrap();
        assert_eq!(givens.givens.as_deref(), Some(puzzle.givens().values()));
        assert_eq!(
            data.making[0].regions.is_some(),
            jigsaw,
            "the seed of a jigsaw carries its regions"
        );
    }
}

#[test]
fn a_level_target_records_the_steering() {
    let config = GeneratorConfig {
        levels: Some(crate::generator::level::LevelsSetting::List(vec![
            "hard".into()
        ])),
        ..GeneratorConfig::default()
    };
    let (puzzle, solution) = generated(&config, 3);
    let data = player(&puzzle, &solution, Some((&config, 3)));
    assert!(data.making_note.is_none());
    let level: Vec<&str> = data
        .making
        .iter()
        .filter(|s| s.stage == "level")
        .map(|s| s.text.as_str())
        .collect();
    assert_eq!(level.first(), Some(&"Aiming at level hard."));
    assert!(data.making.last().unwrap().text.starts_with("Done: hard"));
}

#[test]
fn a_replay_that_makes_another_puzzle_is_refused_with_a_reason() {
    let config = GeneratorConfig {
        size: 6,
        ..GeneratorConfig::default()
    };
    let (puzzle, solution) = generated(&config, 0);
    let note = replay(&config, 7, 1, &puzzle, &solution).unwrap_err();
    assert!(note.contains("does not make this puzzle again"), "{note}");
}

#[test]
fn the_page_escapes_text_and_hashes_its_inline_blocks() {
    let config = GeneratorConfig {
        size: 4,
        ..GeneratorConfig::default()
    };
    let (puzzle, solution) = generated(&config, 0);
    let mut data = player(&puzzle, &solution, Some((&config, 0)));
    data.title = "</script><b>x</b> & \"q\"".into();
    let json = to_script_json(&data);
    assert!(!json.contains('<'));
    let back: Value = serde_json::from_str(&json).unwrap();
    assert_eq!(back["title"], data.title.as_str());
    let info = PageInfo {
        title: "A <page>".into(),
        ..PageInfo::default()
    };
    let html = page_html(&[data.clone(), data], &info).unwrap();
    assert!(html.contains("<title>A &lt;page&gt;</title>"));
    assert!(html.contains(
        "<h2 id=\"p-42-title\">&lt;&#x2f;script&gt;&lt;b&gt;x&lt;&#x2f;b&gt; &amp; &quot;q&quot;</h2>"
    ));
    assert_eq!(html.matches("class=\"sp-data\"").count(), 2);
    // Two data blocks and the player: three script elements, each closed once.
    assert_eq!(html.matches("</script>").count(), 3);
    let script = page_script();
    assert!(html.contains(&format!("<script>{script}</script>")));
    assert!(html.contains(&format!("<style>{PLAYER_CSS}</style>")));
    let csp = format!(
        "default-src 'none'; script-src {}; style-src {}; img-src data:; base-uri 'none'; form-action 'none'",
        csp_hash(&script),
        csp_hash(PLAYER_CSS)
    );
    // The template escapes the attribute: `'` as `&#x27;`, `/` as `&#x2f;`.
    let escaped = csp.replace('\'', "&#x27;").replace('/', "&#x2f;");
    assert!(html.contains(&format!("content=\"{escaped}\"")), "CSP");
    assert!(!html.contains("http:") && !html.contains("https:"));
    assert!(html.contains("name=\"viewport\""));
}

#[test]
fn csp_hash_is_the_base64_sha256_of_the_text() {
    // sha256("") = e3b0c442…, base64 47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=.
    assert_eq!(
        csp_hash(""),
        "'sha256-47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU='"
    );
}
