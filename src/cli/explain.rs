//! `sudoku-press explain`: the step-by-step path a person could take through each puzzle of a
//! file, one step a line in words people use (r1c1 notation), with the candidates each step
//! removes; `--hints` gives three graded hints per step (a nudge, the technique and where, the
//! step); `--format jsonl` gives the steps as data (one object a line) for apps and answer pages.
//!
//! A puzzle that breaks a rule no solution can keep (a cage sum its cells cannot make, clashing
//! givens) is answered "not graded: no solution: ..." and the batch goes on, as `solve` does.
//! Ids are printed as text with control characters, bidi overrides and escapes shown as `\u{..}`
//! (the JSON output escapes them as JSON does).
//!
//! Exit code: 0 when every puzzle was explained; 1 when some puzzle has no unique solution; 2 on
//! bad input.

use anyhow::Context;
use serde_json::{json, Map, Value};
use std::io::{BufWriter, Write};
use std::process::ExitCode;
use sudoku_press::format::{Entry, Format, Item};
use sudoku_press::geometry::Geometry;
use sudoku_press::grader::json::grade_keys;
use sudoku_press::grader::techniques::level_of;
use sudoku_press::grader::text::{hints, house_name, level_text, step_text};
use sudoku_press::grader::{solve_logically, Grade, Path};
use sudoku_press::pipeline::rate::{id_in, Unsolvable};
use sudoku_press::puzzle::cell_name;

/// How `explain` writes.
#[derive(Copy, Clone, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Output {
    /// One numbered line a step.
    Text,
    /// One JSON object a step (and one per puzzle with its grade).
    Jsonl,
}

/// Flags of `explain`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Output: text (one line a step) or jsonl (steps as data).
    #[arg(long, visible_alias = "to", value_name = "F", value_enum, default_value_t = Output::Text)]
    format: Output,
    /// Input format: seed, plain, jsonl or sudocue [default: detected from the first line].
    #[arg(long = "from", visible_alias = "input-format", value_name = "F")]
    input_format: Option<Format>,
    /// Three graded hints per step instead of the bare step.
    #[arg(long)]
    hints: bool,
    /// Puzzle file, `-` for standard input.
    #[arg(value_name = "FILE", default_value = "-")]
    file: String,
}

/// Run `explain`.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let name = super::input_name(&args.file);
    let items = super::read_puzzles(&args.file, args.input_format)?.items();
    let mut out = BufWriter::new(std::io::stdout().lock());
    let (mut written, mut ungraded) = (0, 0);
    for (index, item) in items.enumerate() {
        match item.context(name.to_string())? {
            Item::Entry(entry) => {
                let path = solve_logically(&entry.puzzle);
                ungraded += usize::from(path.grade.level.is_none());
                match args.format {
                    Output::Text => write_text(&mut out, index, &entry, &path, args.hints)?,
                    Output::Jsonl => write_jsonl(&mut out, index, &entry, &path)?,
                }
            }
            Item::Unsolvable {
                line,
                error,
                object,
            } => {
                let answer = Unsolvable::new(line, &error, object);
                eprintln!("{}", answer.message());
                ungraded += 1;
                let head = Head {
                    index,
                    id: answer.id(),
                    grade: &answer.grade,
                    geometry: None,
                    reason: &answer.reason,
                };
                match args.format {
                    Output::Text => write_text_head(&mut out, &head)?,
                    Output::Jsonl => write_jsonl_head(&mut out, &head)?,
                }
            }
        }
        written += 1;
    }
    out.flush()?;
    if ungraded > 0 {
        eprintln!(
            "{ungraded} of {} {} no unique solution and {} not explained",
            super::check::counted(written, "puzzle", "puzzles"),
            if ungraded == 1 { "has" } else { "have" },
            if ungraded == 1 { "was" } else { "were" },
        );
        return Ok(ExitCode::from(1));
    }
    Ok(ExitCode::SUCCESS)
}

/// The first line of a puzzle's answer: its number, id and grade.
struct Head<'a> {
    /// 0-based position in the input.
    index: usize,
    /// The input's `id`, if any.
    id: Option<String>,
    /// The grade.
    grade: &'a Grade,
    /// The puzzle's geometry (names the hardest step's cells; `None` without a puzzle).
    geometry: Option<&'a Geometry>,
    /// Why it has no level (used when `grade.level` is `None`).
    reason: &'a str,
}

/// `text` safe to print on a terminal or in a log: control characters (ANSI escapes start with
/// one), bidi embeddings, overrides and isolates (U+202A-U+202E, U+2066-U+2069) and direction
/// marks are shown as `\u{..}` instead of acting on the screen.
fn printable(text: &str) -> std::borrow::Cow<'_, str> {
    let acts = |c: char| {
        c.is_control()
            || matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
            || matches!(c, '\u{200E}' | '\u{200F}' | '\u{061C}')
    };
    if !text.chars().any(acts) {
        return text.into();
    }
    text.chars()
        .map(|c| match acts(c) {
            true => format!("\\u{{{:x}}}", c as u32),
            false => c.to_string(),
        })
        .collect::<String>()
        .into()
}

fn write_text_head<W: Write>(out: &mut W, head: &Head) -> std::io::Result<()> {
    let g = head.grade;
    if head.index > 0 {
        writeln!(out)?;
    }
    let title = match &head.id {
        Some(id) => printable(id).into_owned(),
        None => format!("puzzle {}", head.index + 1),
    };
    let Some(level) = g.level else {
        return writeln!(out, "{title}: not graded: {}", head.reason);
    };
    let minutes = g.minutes.map_or(String::new(), |m| {
        format!(", about {}–{} min", m.low, m.high)
    });
    writeln!(
        out,
        "{title}: {level}, score {:.2}{minutes}, hardest: {}, {} steps{}",
        g.score,
        g.hardest.map_or("-", |t| t.name()),
        g.steps,
        if g.trial { ", needs trial" } else { "" }
    )?;
    match (head.geometry, level_text(g, head.geometry)) {
        (Some(_), Some(why)) => writeln!(out, "      {why}"),
        _ => Ok(()),
    }
}

fn write_jsonl_head<W: Write>(out: &mut W, head: &Head) -> std::io::Result<()> {
    let mut line = Map::new();
    line.insert("type".into(), json!("grade"));
    line.insert("puzzle".into(), json!(head.index));
    line.insert("id".into(), json!(head.id));
    line.extend(grade_keys(head.grade, head.geometry));
    // Last, and null when graded (`rate` leaves it out then).
    let reason = head.grade.level.is_none().then_some(head.reason);
    line.insert("reason".into(), json!(reason));
    serde_json::to_writer(&mut *out, &Value::Object(line))?;
    writeln!(out)
}

fn head<'a>(index: usize, entry: &'a Entry, grade: &'a Grade) -> Head<'a> {
    Head {
        index,
        id: entry.object.as_ref().and_then(id_in),
        grade,
        geometry: Some(entry.puzzle.geometry()),
        reason: grade.reason().unwrap_or("?"),
    }
}

fn write_text<W: Write>(
    out: &mut W,
    index: usize,
    entry: &Entry,
    path: &Path,
    with_hints: bool,
) -> std::io::Result<()> {
    write_text_head(out, &head(index, entry, &path.grade))?;
    if path.grade.level.is_none() {
        return Ok(());
    }
    let geometry = entry.puzzle.geometry();
    for (i, step) in path.steps.iter().enumerate() {
        if with_hints {
            let [nudge, place, full] = hints(geometry, entry.puzzle.cages(), step);
            writeln!(out, "{:>4}. hint 1: {nudge}", i + 1)?;
            writeln!(out, "      hint 2: {place}")?;
            writeln!(out, "      hint 3: {full}")?;
        } else {
            writeln!(out, "{:>4}. {}", i + 1, step_text(geometry, step))?;
        }
    }
    Ok(())
}

fn write_jsonl<W: Write>(
    out: &mut W,
    index: usize,
    entry: &Entry,
    path: &Path,
) -> std::io::Result<()> {
    write_jsonl_head(out, &head(index, entry, &path.grade))?;
    let geometry = entry.puzzle.geometry();
    for (i, step) in path.steps.iter().enumerate() {
        let cell = |c| cell_name(geometry, c);
        let hint = hints(geometry, entry.puzzle.cages(), step);
        let line = json!({
            "type": "step", "puzzle": index, "step": i + 1,
            "technique": step.technique.as_str(), "name": step.technique.name(),
            "level": level_of(step.technique).as_str(), "weight": path.weights.get(i),
            "placements": step.placements.iter().map(|&(c, d)| json!([cell(c), d.get()])).collect::<Vec<_>>(),
            "eliminations": step.eliminations.iter().map(|&(c, d)| json!([cell(c), d.get()])).collect::<Vec<_>>(),
            "cells": step.cells.iter().map(|&c| cell(c)).collect::<Vec<_>>(),
            "cages": step.cages,
            "houses": step.houses.iter().map(|&h| house_name(geometry, h)).collect::<Vec<_>>(),
            "reason": step.reason, "text": hint[2], "hints": hint,
            "candidates": path.candidates.get(i),
        });
        serde_json::to_writer(&mut *out, &line)?;
        writeln!(out)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::printable;

    #[test]
    fn ids_that_would_act_on_a_terminal_are_shown_escaped() {
        assert_eq!(printable("killer-12 é 🧩"), "killer-12 é 🧩");
        assert_eq!(printable("a\u{1b}[31mred"), "a\\u{1b}[31mred");
        assert_eq!(printable("x\ny\rz\0"), "x\\u{a}y\\u{d}z\\u{0}");
        assert_eq!(printable("\u{202E}cba"), "\\u{202e}cba");
        assert_eq!(printable("\u{2066}a\u{2069}"), "\\u{2066}a\\u{2069}");
        assert_eq!(printable("\u{9b}2J"), "\\u{9b}2J");
    }
}
