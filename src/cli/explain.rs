//! `sudoku-press explain`: the step-by-step path a person could take through each puzzle of a
//! file, one step a line in words people use (r1c1 notation), with the candidates each step
//! removes; `--hints` gives three graded hints per step (a nudge, the technique and where, the
//! step); `--format jsonl` gives the steps as data (one object a line) for apps and answer pages.
//!
//! Exit code: 0 when every puzzle was explained; 1 when some puzzle has no unique solution; 2 on
//! bad input.

use anyhow::Context;
use serde_json::{json, Map, Value};
use std::io::{BufWriter, Write};
use std::process::ExitCode;
use sudoku_press::format::{Entry, Format};
use sudoku_press::grader::json::grade_keys;
use sudoku_press::grader::techniques::level_of;
use sudoku_press::grader::text::{hints, house_name, step_text};
use sudoku_press::grader::{solve_logically, Path};
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
    #[arg(long, value_name = "F", value_enum, default_value_t = Output::Text)]
    format: Output,
    /// Input format: seed, plain, jsonl or sudocue [default: detected from the first line].
    #[arg(long, value_name = "F")]
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
    let reader = super::read_puzzles(&args.file, args.input_format)?;
    let mut out = BufWriter::new(std::io::stdout().lock());
    let mut ungraded = 0;
    for (index, entry) in reader.enumerate() {
        let entry = entry.context(name.to_string())?;
        let path = solve_logically(&entry.puzzle);
        ungraded += usize::from(path.grade.level.is_none());
        match args.format {
            Output::Text => write_text(&mut out, index, &entry, &path, args.hints)?,
            Output::Jsonl => write_jsonl(&mut out, index, &entry, &path)?,
        }
    }
    out.flush()?;
    if ungraded > 0 {
        eprintln!("{ungraded} puzzles have no unique solution and were not explained");
        return Ok(ExitCode::from(1));
    }
    Ok(ExitCode::SUCCESS)
}

/// The entry's `id`, if its JSON has one.
fn id_of(entry: &Entry) -> Option<String> {
    let id = entry.object.as_ref()?.get("id")?;
    Some(id.as_str().map_or_else(|| id.to_string(), str::to_string))
}

fn write_text<W: Write>(
    out: &mut W,
    index: usize,
    entry: &Entry,
    path: &Path,
    with_hints: bool,
) -> std::io::Result<()> {
    let g = &path.grade;
    if index > 0 {
        writeln!(out)?;
    }
    let title = id_of(entry).unwrap_or_else(|| format!("puzzle {}", index + 1));
    let Some(level) = g.level else {
        return writeln!(out, "{title}: not graded: {}", g.reason().unwrap_or("?"));
    };
    writeln!(
        out,
        "{title}: {level}, score {:.2}, hardest: {}, {} steps{}",
        g.score,
        g.hardest.map_or("-", |t| t.name()),
        g.steps,
        if g.trial { ", needs trial" } else { "" }
    )?;
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
    let g = &path.grade;
    let geometry = entry.puzzle.geometry();
    let mut head = Map::new();
    head.insert("type".into(), json!("grade"));
    head.insert("puzzle".into(), json!(index));
    head.insert("id".into(), json!(id_of(entry)));
    head.extend(grade_keys(g));
    // Last, and null when graded (`rate` leaves it out then).
    head.insert("reason".into(), json!(g.reason()));
    serde_json::to_writer(&mut *out, &Value::Object(head))?;
    writeln!(out)?;
    for (i, step) in path.steps.iter().enumerate() {
        let cell = |c| cell_name(geometry, c);
        let hint = hints(geometry, entry.puzzle.cages(), step);
        let line = json!({
            "type": "step", "puzzle": index, "step": i + 1,
            "technique": step.technique.as_str(), "name": step.technique.name(),
            "level": level_of(step.technique).as_str(),
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
