//! The player's data: one puzzle, its solution, the grader's path and the generator's recording,
//! as the JSON object of the player contract (`sp-data`, see the module doc of `play`).

use super::making::MakingStep;
use crate::cage::Cage;
use crate::canonical::canonical_key;
use crate::fingerprint::fingerprint;
use crate::grader::techniques::level_of;
use crate::grader::text::{place_text, step_text};
use crate::grader::Path;
use crate::grid::Grid;
use crate::puzzle::Puzzle;
use serde::Serialize;
use std::collections::BTreeMap;

/// One player's data, serialized as the contract's JSON object (field names in camelCase).
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PlayerData {
    /// The store id (or the input's id) as a string.
    pub id: String,
    /// The puzzle's canonical key (FNV-1a-128 of `canonical::canonical_key`, 32 hex digits):
    /// progress is kept under "sudoku-press:" + key.
    pub key: String,
    /// "Killer 9x9 · #42".
    pub title: String,
    /// `killer`, `classic`, `jigsaw` or `killer-jigsaw`.
    pub variant: &'static str,
    /// Side N.
    pub size: usize,
    /// Box height (`None` for jigsaw).
    pub box_rows: Option<usize>,
    /// Box width (`None` for jigsaw).
    pub box_cols: Option<usize>,
    /// The box or jigsaw region of each cell (N*N).
    pub regions: Vec<u8>,
    /// Givens, 0 = empty (N*N).
    pub givens: Vec<u8>,
    /// Cages (empty for plain and jigsaw).
    pub cages: Vec<CageData>,
    /// The solution (N*N).
    pub solution: Vec<u8>,
    /// The level (`easy` .. `extreme`, or `unrated`).
    pub level: String,
    /// The grader's score, two decimals.
    pub score: f64,
    /// The grader's path, step by step (empty when the puzzle has none: see `path_note`).
    pub path: Vec<PathStep>,
    /// The name and tier of every technique the path uses, by its key (kept here once rather
    /// than in every step: a long 9x9 path is some 300 steps, and the page has 150 KB).
    pub techniques: BTreeMap<&'static str, TechniqueInfo>,
    /// Why `path` is empty, for the page to say (absent when it is not).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub path_note: Option<String>,
    /// How the generator made it (empty when it cannot be replayed: see `making_note`).
    pub making: Vec<MakingStep>,
    /// Why `making` is empty, for the page to say (absent when it is not).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub making_note: Option<String>,
}

/// A cage: its sum and its cells (0-based `row*N + col`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct CageData {
    /// The sum.
    pub sum: u16,
    /// The cells.
    pub cells: Vec<u8>,
}

impl From<&Cage> for CageData {
    fn from(cage: &Cage) -> Self {
        CageData {
            sum: cage.sum,
            cells: cage.cells.iter().map(|c| c.as_index() as u8).collect(),
        }
    }
}

/// One step of the grader's path, with the words `explain` prints and its hints, in a compact
/// form the player expands (`SudokuRules.expand`): the technique's name (in
/// [`PlayerData::techniques`]) is left off the front of `text`, and the two hints `explain
/// --hints` prints before the step, `Look for a step of the kind "NAME".` and `NAME in PLACE.`,
/// are given by their `place` only. Empty lists are left out (the player reads them as empty).
/// A long 9x9 path is some 300 steps: this keeps its page under the 150 KB of issue 20.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PathStep {
    /// Snake-case technique key ("hidden_single").
    pub technique: &'static str,
    /// The whole step in words (`explain`'s third hint) after "NAME: ".
    pub text: String,
    /// Where the step happens (its houses, else its cages, else its cells), for the second hint.
    pub place: String,
    /// The cells the step rests on (to highlight).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub cells: Vec<u8>,
    /// `[cell, digit]` placed.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub placements: Vec<[u8; 2]>,
    /// `[cell, digit]` removed.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub eliminations: Vec<[u8; 2]>,
}

/// A technique's name and tier, once per page.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct TechniqueInfo {
    /// The name people use ("Hidden single").
    pub name: &'static str,
    /// The technique's tier (`easy` .. `extreme`).
    pub level: &'static str,
}

/// What a page says about a puzzle beside its cells: where it comes from and how hard it is.
#[derive(Clone, Debug, PartialEq)]
pub struct Source {
    /// The id shown and used in the element id (`p-ID`).
    pub id: String,
    /// The title ("Killer 9x9 · #42").
    pub title: String,
    /// The level word.
    pub level: String,
    /// The score.
    pub score: f64,
}

/// The contract's variant word for a puzzle.
pub fn variant_of(puzzle: &Puzzle) -> &'static str {
    match (puzzle.is_killer(), puzzle.geometry().is_jigsaw()) {
        (true, true) => "killer-jigsaw",
        (true, false) => "killer",
        (false, true) => "jigsaw",
        (false, false) => "classic",
    }
}

/// The heading word of a variant: `Killer`, `Killer jigsaw`, `Jigsaw`, `Sudoku` (classic).
pub fn variant_title(variant: &str) -> &'static str {
    match variant {
        "killer-jigsaw" => "Killer jigsaw",
        "killer" => "Killer",
        "jigsaw" => "Jigsaw",
        _ => "Sudoku",
    }
}

/// "Killer 9x9 · #42".
pub fn default_title(puzzle: &Puzzle, id: &str) -> String {
    let kind = variant_title(variant_of(puzzle));
    let n = puzzle.size();
    format!("{kind} {n}x{n} · #{id}")
}

/// The canonical key of a puzzle as 32 hex digits (the store's `canonical_key` column).
pub fn key_hex(puzzle: &Puzzle) -> String {
    format!("{:032x}", fingerprint(canonical_key(puzzle).as_bytes()))
}

/// The player data of `puzzle` with `solution`, the grader's `path` (an ungraded path, one of
/// a puzzle with no unique solution, gives an empty `path` with its reason) and the recording.
pub fn player_data(
    source: Source,
    puzzle: &Puzzle,
    solution: &Grid,
    path: &Path,
    making: Vec<MakingStep>,
    making_note: Option<String>,
) -> PlayerData {
    let g = puzzle.geometry();
    let (box_rows, box_cols) = g.box_shape().unzip();
    let (steps, path_note) = match path.grade.level {
        Some(_) => (path_steps(puzzle, path), None),
        None => (
            Vec::new(),
            Some(format!(
                "No hints: {}.",
                path.grade.reason().unwrap_or("the puzzle was not graded")
            )),
        ),
    };
    PlayerData {
        id: source.id,
        key: key_hex(puzzle),
        title: source.title,
        variant: variant_of(puzzle),
        size: g.size(),
        box_rows,
        box_cols,
        regions: g.region_map().to_vec(),
        givens: puzzle.givens().values().to_vec(),
        cages: puzzle.cages().iter().map(CageData::from).collect(),
        solution: solution.values().to_vec(),
        level: source.level,
        score: (source.score * 100.0).round() / 100.0,
        techniques: techniques_of(path, path_note.is_none()),
        path: steps,
        path_note,
        making,
        making_note,
    }
}

/// The steps of a graded path, in the words of `explain --hints` (the same code).
fn path_steps(puzzle: &Puzzle, path: &Path) -> Vec<PathStep> {
    let g = puzzle.geometry();
    let pair = |&(c, d): &(crate::Cell, crate::Digit)| [c.as_index() as u8, d.get()];
    path.steps
        .iter()
        .map(|step| {
            let full = step_text(g, step);
            let prefix = format!("{}: ", step.technique.name());
            PathStep {
                technique: step.technique.as_str(),
                // `step_text` always begins with the name; the player puts it back.
                text: full.strip_prefix(&prefix).unwrap_or(&full).to_string(),
                place: place_text(g, puzzle.cages(), step),
                cells: step.cells.iter().map(|c| c.as_index() as u8).collect(),
                placements: step.placements.iter().map(pair).collect(),
                eliminations: step.eliminations.iter().map(pair).collect(),
            }
        })
        .collect()
}

/// The name and tier of each technique of a graded path (none for an ungraded one).
fn techniques_of(path: &Path, graded: bool) -> BTreeMap<&'static str, TechniqueInfo> {
    let steps = path.steps.iter().filter(|_| graded);
    steps
        .map(|s| {
            let info = TechniqueInfo {
                name: s.technique.name(),
                level: level_of(s.technique).as_str(),
            };
            (s.technique.as_str(), info)
        })
        .collect()
}

/// The JSON of a player, escaped for a `<script>` element (`<` as `\u003c`, so no `</script>`
/// or `<!--` can appear inside it).
pub fn to_script_json(data: &PlayerData) -> String {
    let json = serde_json::to_string(data).expect("player data always serializes");
    json.replace('<', "\\u003c")
}
