//! "How it was made": a stored row's generation re-run with the generator's recording hook, its
//! events put into the words and pictures of the player contract's `making` array.

use super::data::CageData;
use crate::cage::Cage;
use crate::generator::record::{CheckSubject, CheckVerdict, Event, LevelEdit};
use crate::generator::{generate_recorded, GeneratorConfig, Outcome, GENERATOR_VERSION};
use crate::grid::Grid;
use crate::puzzle::Puzzle;
use crate::settings::{Origin, Settings};
use crate::store::{Store, StoreError, StoredPuzzle};
use crate::transform::{Dihedral, GridTransform};
use serde::Serialize;

/// One entry of the contract's `making` array.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MakingStep {
    /// `seed`, `variation`, `cages`, `check`, `repair`, `level`, `givens` or `done`.
    pub stage: &'static str,
    /// What happened, in words.
    pub text: String,
    /// The whole grid, where it changes (seed, variation).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub grid: Option<Vec<u8>>,
    /// The jigsaw regions, where they change (seed, variation of a jigsaw).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub regions: Option<Vec<u8>>,
    /// The whole layout at this point, where it changes and no earlier layout is near it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cages: Option<Vec<CageData>>,
    /// Where the layout changes by a few cages (a repair, a merge, a split): the positions of
    /// the cages of the layout before that go, in that layout's order …
    #[serde(skip_serializing_if = "Option::is_none")]
    pub drop: Option<Vec<usize>>,
    /// … and the cages that come, appended after the ones that stay (see [`layout_at`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub add: Option<Vec<CageData>>,
    /// The givens, where they change.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub givens: Option<Vec<u8>>,
    /// A check's verdict: `unique`, `several` or `undecided`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub verdict: Option<&'static str>,
}

impl MakingStep {
    fn new(stage: &'static str, text: String) -> Self {
        MakingStep {
            stage,
            text,
            grid: None,
            regions: None,
            cages: None,
            drop: None,
            add: None,
            givens: None,
            verdict: None,
        }
    }
}

/// The recording of a stored row, or why there is none (a note for the page).
pub type Making = Result<Vec<MakingStep>, String>;

/// Re-run the generation of `row` (from its run's stored settings, seed and index) with the
/// recording hook. A row made by another generator version, or whose re-run makes another
/// puzzle, has no recording: `Err` says why. Only the database failing is an error.
pub fn making_of(store: &Store, row: &StoredPuzzle) -> Result<Making, StoreError> {
    let run = store.run_state(row.run)?;
    if run.generator_version != GENERATOR_VERSION {
        return Ok(Err(format!(
            "This puzzle was made by generator version {}; this build is version {}, so its making cannot be replayed.",
            run.generator_version, GENERATOR_VERSION
        )));
    }
    let origin = Origin::Database(store.path().to_path_buf());
    let config = Settings::from_toml(&run.settings_toml, &origin)
        .and_then(|s| s.validate(&format!("run {}", row.run), &origin));
    let config = match config {
        Ok(plan) => plan.generator,
        Err(e) => {
            return Ok(Err(format!(
                "The run's stored settings cannot be read ({e}), so its making cannot be replayed."
            )))
        }
    };
    Ok(replay(
        &config,
        row.seed,
        row.index,
        &row.puzzle,
        &row.solution,
    ))
}

/// Item `index` of run `seed` under `config`, recorded, if it makes `puzzle` with `solution`.
pub fn replay(
    config: &GeneratorConfig,
    seed: u64,
    index: u64,
    puzzle: &Puzzle,
    solution: &Grid,
) -> Making {
    let mut events = Vec::new();
    let outcome = generate_recorded(config, seed, index, &mut |e| events.push(e));
    match outcome {
        Outcome::Generated(g) if &g.puzzle == puzzle && &g.solution == solution => {
            let steps: Vec<MakingStep> =
                events.iter().map(|e| step_of(e, puzzle.size())).collect();
            let mut steps = fold_rounds(fold_attempts(&events, steps));
            diff_layouts(&mut steps);
            Ok(steps)
        }
        _ => Err(format!(
            "Re-running item {index} of seed {seed} does not make this puzzle again (it was stored by another build), so its making cannot be replayed."
        )),
    }
}

/// Given-up attempts a recording shows whole: as many as a level item other than a shaped
/// extreme can give up before its sixth layout makes it; past them only the first is shown.
const ATTEMPTS_WHOLE: usize = 5;

/// Tell the given-up attempts after the first in one stage that counts what they did, where
/// there are more than [`ATTEMPTS_WHOLE`]: a shaped extreme tries up to 40 fresh layouts (its
/// page reached 300 KB, three quarters of it such attempts), and each did what the first shows.
/// `steps` are `events`' stages, one each.
fn fold_attempts(events: &[Event], steps: Vec<MakingStep>) -> Vec<MakingStep> {
    let ends: Vec<usize> = (0..events.len())
        .filter(|&i| matches!(events[i], Event::Retry { .. }))
        .collect();
    if ends.len() <= ATTEMPTS_WHOLE {
        return steps;
    }
    let (from, to) = (ends[0] + 1, ends[ends.len() - 1] + 1);
    let folded = &events[from..to];
    let count = |f: fn(&Event) -> bool| folded.iter().filter(|e| f(e)).count();
    let layouts = count(|e| matches!(e, Event::Layout { .. }));
    let repairs = count(|e| matches!(e, Event::Repair { .. }));
    let checks = count(|e| matches!(e, Event::Check { .. }));
    let kept = count(|e| matches!(e, Event::Level { kept: true, .. }));
    let undone = count(|e| matches!(e, Event::Level { kept: false, .. }));
    let text = format!(
        "\u{2026} {} more attempts like it, not shown: {layouts} fresh layouts, {repairs} repairs and {checks} uniqueness checks; {kept} edits kept and {undone} undone, none reaching the target.",
        ends.len() - 1
    );
    let mut out = steps;
    let tail = out.split_off(to);
    out.truncate(from);
    out.push(MakingStep::new("level", text));
    out.extend(tail);
    out
}

/// Repair and check stages in a row beyond which the middle of the run is told in one stage.
const ROUNDS_SHOWN: usize = 12;

/// Fold every run of more than [`ROUNDS_SHOWN`] repair and check stages into its first and last
/// `ROUNDS_SHOWN / 2` and one stage between that counts the rest: a sparse layout is shaped
/// against the solver's second solutions for up to hundreds of rounds (a 12-cage killer's page
/// grew to 1.5 MB), and a person replaying it learns nothing from the 200th round that the 3rd
/// did not show. The layouts after the fold stay whole (the next kept repair carries its own).
fn fold_rounds(steps: Vec<MakingStep>) -> Vec<MakingStep> {
    let round = |s: &MakingStep| s.stage == "repair" || s.stage == "check";
    let mut out = Vec::with_capacity(steps.len().min(4 * ROUNDS_SHOWN));
    let mut run: Vec<MakingStep> = Vec::new();
    let flush = |run: &mut Vec<MakingStep>, out: &mut Vec<MakingStep>| {
        if run.len() <= ROUNDS_SHOWN {
            out.append(run);
            return;
        }
        let half = ROUNDS_SHOWN / 2;
        let middle = &run[half..run.len() - half];
        let repairs = middle.iter().filter(|s| s.stage == "repair").count();
        let checks = middle.len() - repairs;
        let tail = run.split_off(run.len() - half);
        run.truncate(half);
        out.append(run);
        out.push(MakingStep::new(
            "repair",
            format!(
                "\u{2026} {repairs} more repair{} and {checks} more check{} like these, not shown.",
                if repairs == 1 { "" } else { "s" },
                if checks == 1 { "" } else { "s" },
            ),
        ));
        out.extend(tail);
    };
    for step in steps {
        if round(&step) {
            run.push(step);
        } else {
            flush(&mut run, &mut out);
            out.push(step);
        }
    }
    flush(&mut run, &mut out);
    out
}

/// Give each layout after the first as the cages it drops and adds, where that is shorter: a
/// merge changes 3 cages of 30, and an expert's making has dozens of them (some 40 KB of whole
/// layouts on a 150 KB page).
fn diff_layouts(steps: &mut [MakingStep]) {
    let mut current: Vec<CageData> = Vec::new();
    for step in steps.iter_mut() {
        let Some(next) = step.cages.take() else {
            continue;
        };
        let drop: Vec<usize> = (0..current.len())
            .filter(|&k| !next.contains(&current[k]))
            .collect();
        let add: Vec<CageData> = next
            .iter()
            .filter(|c| !current.contains(c))
            .cloned()
            .collect();
        if current.is_empty() || 2 * add.len() > next.len() {
            current = next.clone();
            step.cages = Some(next);
            continue;
        }
        current = current
            .iter()
            .enumerate()
            .filter(|(k, _)| !drop.contains(k))
            .map(|(_, c)| c.clone())
            .chain(add.iter().cloned())
            .collect();
        step.drop = Some(drop);
        step.add = Some(add);
    }
}

/// The layout the player shows at stage `at` of a recording: the latest whole `cages`, changed
/// by the `drop`/`add` of every later stage up to `at` (`None` before the first layout).
pub fn layout_at(steps: &[MakingStep], at: usize) -> Option<Vec<CageData>> {
    let mut layout: Option<Vec<CageData>> = None;
    for step in steps.iter().take(at + 1) {
        if let Some(cages) = &step.cages {
            layout = Some(cages.clone());
        }
        if let (Some(current), Some(drop), Some(add)) = (layout.as_mut(), &step.drop, &step.add) {
            let mut k = 0;
            current.retain(|_| {
                k += 1;
                !drop.contains(&(k - 1))
            });
            current.extend(add.iter().cloned());
        }
    }
    layout
}

fn cages_of(cages: &[Cage]) -> Vec<CageData> {
    cages.iter().map(CageData::from).collect()
}

/// One event in the contract's terms.
fn step_of(event: &Event, n: usize) -> MakingStep {
    match event {
        Event::Seed { grid, regions } => {
            let text = match regions {
                Some(_) => "Seed grid: random jigsaw regions, filled by randomized backtracking.",
                None => "Seed grid: filled by randomized backtracking.",
            };
            MakingStep {
                grid: Some(grid.values().to_vec()),
                regions: regions.clone(),
                ..MakingStep::new("seed", text.into())
            }
        }
        Event::Variation {
            transform,
            grid,
            regions,
        } => MakingStep {
            grid: Some(grid.values().to_vec()),
            regions: regions.clone(),
            ..MakingStep::new("variation", variation_text(transform, n))
        },
        Event::Target { level } => MakingStep::new("level", format!("Aiming at level {level}.")),
        Event::Layout { cages, redrawn } => {
            let text = match redrawn {
                false => format!("Cage layout laid: {} cages.", cages.len()),
                true => format!(
                    "A fresh layout: {} cages (the last one could not be repaired or decided).",
                    cages.len()
                ),
            };
            MakingStep {
                cages: Some(cages_of(cages)),
                ..MakingStep::new("cages", text)
            }
        }
        Event::Check {
            subject,
            verdict,
            nodes,
        } => MakingStep {
            verdict: Some(verdict.as_str()),
            ..MakingStep::new("check", check_text(*subject, *verdict, *nodes))
        },
        Event::Repair {
            cages,
            alternatives,
        } => MakingStep {
            cages: Some(cages_of(cages)),
            ..MakingStep::new(
                "repair",
                format!(
                    "Repair: cells moved between cages where {} other solution{} differ{}: {} cages.",
                    alternatives,
                    if *alternatives == 1 { "" } else { "s" },
                    if *alternatives == 1 { "s" } else { "" },
                    cages.len()
                ),
            )
        },
        Event::Givens { givens } => MakingStep {
            givens: Some(givens.values().to_vec()),
            ..MakingStep::new(
                "givens",
                format!(
                    "Givens removed while the puzzle stays unique: {} left.",
                    givens.count_filled()
                ),
            )
        },
        Event::Level {
            edit,
            level,
            kept,
            cages,
            givens,
        } => MakingStep {
            cages: cages.as_deref().map(cages_of),
            givens: givens.as_ref().map(|g| g.values().to_vec()),
            ..MakingStep::new("level", level_text(*edit, *level, *kept))
        },
        Event::Retry { reason } => MakingStep::new("level", format!("Attempt given up: {reason}.")),
        Event::Fallback {
            cages,
            attempts,
            score,
        } => MakingStep {
            cages: Some(cages_of(cages)),
            ..MakingStep::new(
                "level",
                format!("None of the {attempts} layouts reached trial: the hardest puzzle above expert they met (score {score:.1}) is taken back."),
            )
        },
        Event::Done { level, score } => MakingStep::new(
            "done",
            match level {
                Some(level) => format!("Done: {level}, score {score:.1}."),
                None => "Done (not rated).".into(),
            },
        ),
    }
}

fn variation_text(t: &GridTransform, n: usize) -> String {
    let mut parts = Vec::new();
    let moved = |p: &[u8]| p.iter().enumerate().any(|(i, &v)| i != v as usize);
    if moved(&t.rows) || moved(&t.cols) {
        parts.push("rows and columns shuffled within their bands and stacks".to_string());
    }
    let turn = match t.dihedral {
        Dihedral::Identity => None,
        Dihedral::Rotate90 => Some("a quarter turn clockwise"),
        Dihedral::Rotate180 => Some("a half turn"),
        Dihedral::Rotate270 => Some("a quarter turn anticlockwise"),
        Dihedral::FlipRows => Some("mirrored top to bottom"),
        Dihedral::FlipCols => Some("mirrored left to right"),
        Dihedral::Transpose => Some("mirrored in the main diagonal"),
        Dihedral::AntiTranspose => Some("mirrored in the other diagonal"),
    };
    parts.extend(turn.map(str::to_string));
    if moved(&t.digits.iter().map(|d| d - 1).collect::<Vec<_>>()) {
        let map: Vec<String> = (1..=n)
            .map(|d| format!("{d}→{}", t.digits[d - 1]))
            .collect();
        parts.push(format!("digits relabelled {}", map.join(" ")));
    }
    match parts.is_empty() {
        true => "Variation: the seed grid as it is.".into(),
        false => format!("Variation: {}.", parts.join("; ")),
    }
}

fn check_text(subject: CheckSubject, verdict: CheckVerdict, nodes: u64) -> String {
    let what = match subject {
        CheckSubject::Layout => "the layout".to_string(),
        CheckSubject::Removal { givens } => format!("{givens} givens"),
        CheckSubject::Final => "the final givens".to_string(),
        CheckSubject::Merge => "the merged layout".to_string(),
    };
    let outcome = match (verdict, subject) {
        (CheckVerdict::Unique, _) => "one solution",
        (CheckVerdict::Several, CheckSubject::Layout) => {
            "several solutions: repair where they differ"
        }
        (CheckVerdict::Several, CheckSubject::Removal { .. }) => {
            "several solutions: those givens stay"
        }
        (CheckVerdict::Several, _) => "several solutions: undone",
        (CheckVerdict::Undecided, _) => "undecided within the node budget",
    };
    let unit = if nodes == 1 { "node" } else { "nodes" };
    format!("Uniqueness check of {what}: {outcome} ({nodes} {unit}).")
}

fn level_text(edit: LevelEdit, level: Option<crate::grader::Level>, kept: bool) -> String {
    let what = match edit {
        LevelEdit::Merge { count: 1 } => "Merged two touching cages".to_string(),
        LevelEdit::Merge { count } => format!("Merged {count} pairs of touching cages"),
        LevelEdit::Split => "Split a big cage in two".to_string(),
        LevelEdit::Given => "Added a given from the solution".to_string(),
        LevelEdit::Shape => "Merged two touching cages".to_string(),
    };
    if edit == LevelEdit::Shape {
        return match kept {
            true => "Merged the two touching cages that leave the fewest easy ways in (cages of one digit combination, houses whose rule of 45 isolates one cell); unique, kept.".into(),
            false => "Merged the next such pair: not unique; undone.".into(),
        };
    }
    match (kept, level) {
        (true, Some(level)) => format!("{what}: now {level}; kept."),
        (true, None) => format!("{what}: past the target, kept to come back from above."),
        (false, _) => format!("{what}: past the target, not unique or no closer; undone."),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generator::level::LevelsSetting;

    fn sorted(layout: Option<Vec<CageData>>) -> Option<Vec<(u16, Vec<u8>)>> {
        let mut cages: Vec<_> = layout?.into_iter().map(|c| (c.sum, c.cells)).collect();
        cages.sort();
        Some(cages)
    }

    #[test]
    fn layout_diffs_rebuild_every_recorded_layout() {
        let config = GeneratorConfig {
            levels: Some(LevelsSetting::List(vec!["expert".into()])),
            ..GeneratorConfig::default()
        };
        let mut events = Vec::new();
        generate_recorded(&config, 7, 0, &mut |e| events.push(e));
        let whole: Vec<MakingStep> = events.iter().map(|e| step_of(e, 9)).collect();
        let mut compact = whole.clone();
        diff_layouts(&mut compact);
        let diffs = compact.iter().filter(|s| s.drop.is_some()).count();
        assert!(diffs > 0, "an expert's making merges cages");
        for at in 0..whole.len() {
            assert_eq!(
                sorted(layout_at(&compact, at)),
                sorted(layout_at(&whole, at)),
                "stage {at}"
            );
        }
        let size = |s: &[MakingStep]| serde_json::to_string(s).unwrap().len();
        assert!(size(&compact) < size(&whole));
    }

    /// Eight given-up attempts fold into the first and one stage counting the other seven; the
    /// last attempt, and the layout it ends with, stay whole.
    #[test]
    fn many_given_up_attempts_fold_into_one_stage() {
        let cage = |sum, cells: &[u8]| {
            Cage::new(
                sum,
                cells
                    .iter()
                    .map(|&c| crate::geometry::Cell::new(c))
                    .collect(),
            )
        };
        let layout = |k: u16| vec![cage(3 + k, &[0, 1]), cage(7, &[2, 3])];
        let mut events = vec![Event::Target {
            level: crate::grader::Level::Extreme,
        }];
        for k in 0..8 {
            events.push(Event::Layout {
                cages: layout(k),
                redrawn: false,
            });
            events.push(Event::Check {
                subject: CheckSubject::Merge,
                verdict: CheckVerdict::Unique,
                nodes: 1,
            });
            events.push(Event::Level {
                edit: LevelEdit::Shape,
                level: None,
                kept: false,
                cages: None,
                givens: None,
            });
            events.push(Event::Retry {
                reason: "no edit reached extreme".into(),
            });
        }
        events.push(Event::Layout {
            cages: layout(9),
            redrawn: false,
        });
        events.push(Event::Done {
            level: Some(crate::grader::Level::Extreme),
            score: 45.0,
        });
        let steps: Vec<MakingStep> = events.iter().map(|e| step_of(e, 4)).collect();
        let folded = fold_attempts(&events, steps.clone());
        assert_eq!(folded.len(), 1 + 4 + 1 + 2);
        assert_eq!(folded[..5], steps[..5]);
        assert_eq!(
            folded[5].text,
            "\u{2026} 7 more attempts like it, not shown: 7 fresh layouts, 0 repairs and 7 uniqueness checks; 0 edits kept and 7 undone, none reaching the target."
        );
        assert_eq!(folded[6..], steps[steps.len() - 2..]);
        assert_eq!(
            layout_at(&folded, folded.len() - 1),
            layout_at(&steps, steps.len() - 1)
        );
        // Five given up (the most a level item other than a shaped extreme can): all shown.
        let five = events[..1 + 5 * 4].to_vec();
        let steps: Vec<MakingStep> = five.iter().map(|e| step_of(e, 4)).collect();
        assert_eq!(fold_attempts(&five, steps.clone()), steps);
    }

    #[test]
    fn long_runs_of_rounds_fold_and_keep_their_last_layout() {
        let layout = |k: u8| {
            vec![CageData {
                sum: u16::from(k),
                cells: vec![k],
            }]
        };
        let round = |k: u8| {
            [
                MakingStep {
                    cages: Some(layout(k)),
                    ..MakingStep::new("repair", format!("repair {k}"))
                },
                MakingStep::new("check", format!("check {k}")),
            ]
        };
        let seed = MakingStep::new("seed", "seed".into());
        let done = MakingStep::new("done", "done".into());
        // A short run (a normal item's few repairs) is left alone.
        let short: Vec<MakingStep> = std::iter::once(seed.clone())
            .chain((0..6).flat_map(round))
            .chain(std::iter::once(done.clone()))
            .collect();
        assert_eq!(fold_rounds(short.clone()), short);
        // 40 rounds: the first and last three shown, the 34 between told in one stage.
        let long: Vec<MakingStep> = std::iter::once(seed)
            .chain((0..40).flat_map(round))
            .chain(std::iter::once(done))
            .collect();
        let folded = fold_rounds(long.clone());
        assert_eq!(folded.len(), 1 + ROUNDS_SHOWN + 1 + 1);
        assert_eq!(folded[1..4], long[1..4]);
        assert_eq!(
            folded[1 + ROUNDS_SHOWN / 2].text,
            "\u{2026} 34 more repairs and 34 more checks like these, not shown."
        );
        assert_eq!(folded[folded.len() - 4..], long[long.len() - 4..]);
        let last = |s: &[MakingStep]| layout_at(s, s.len() - 1);
        assert_eq!(last(&folded), last(&long));
        let mut compact = folded.clone();
        diff_layouts(&mut compact);
        assert_eq!(last(&compact), Some(layout(39)));
    }
}
