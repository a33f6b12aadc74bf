//! Words for steps: house names, cell lists and digit lists in the r1c1 notation people use.

use crate::bitset::DigitSet;
use crate::geometry::{Cell, Geometry, House};
use crate::grader::grade::Grade;
use crate::grader::score::LevelSource;
use crate::grader::step::Step;
use crate::puzzle::cell_name;

/// "row 3", "column 5", "box 4" (or "region 4" on a jigsaw), 1-based.
pub fn house_name(geometry: &Geometry, house: House) -> String {
    let n = geometry.size();
    let h = house.as_index();
    match h / n {
        0 => format!("row {}", h + 1),
        1 => format!("column {}", h - n + 1),
        _ if geometry.is_jigsaw() => format!("region {}", h - 2 * n + 1),
        _ => format!("box {}", h - 2 * n + 1),
    }
}

/// "r1c1, r1c2" for a list of cells.
pub fn cells_text(geometry: &Geometry, cells: &[Cell]) -> String {
    let names: Vec<String> = cells.iter().map(|&c| cell_name(geometry, c)).collect();
    names.join(", ")
}

/// "1,2,4" for a digit set.
pub fn digits_text(digits: DigitSet) -> String {
    let names: Vec<String> = digits.iter().map(|d| d.get().to_string()).collect();
    names.join(",")
}

/// "{1,2,4}" for a digit set.
pub fn set_text(digits: DigitSet) -> String {
    format!("{{{}}}", digits_text(digits))
}

/// "the 14 cage at r1c1" (a cage named by its sum and its first cell).
pub fn cage_text(geometry: &Geometry, sum: u16, cells: &[Cell]) -> String {
    match cells.first() {
        Some(&c) => format!("{sum}({}) at {}", cells.len(), cell_name(geometry, c)),
        None => format!("{sum}(0)"),
    }
}

/// "r1c4 + r1c5 - r2c6 = 9": a signed sum of cells (coefficients +1 and -1) and its total.
pub fn signed_sum_text(geometry: &Geometry, terms: &[(Cell, i8)], total: i32) -> String {
    let mut text = String::new();
    for (i, &(c, k)) in terms.iter().enumerate() {
        match (i, k > 0) {
            (0, true) => {}
            (0, false) => text.push('-'),
            (_, true) => text.push_str(" + "),
            (_, false) => text.push_str(" - "),
        }
        text.push_str(&cell_name(geometry, c));
    }
    format!("{text} = {total}")
}

/// What a step concludes: "r1c1 = 5; r1c2, r1c3 ≠ 7,8" (placements, then removals grouped by
/// the digits removed, cells in order of first appearance).
pub fn conclusions_text(geometry: &Geometry, step: &Step) -> String {
    let mut parts: Vec<String> = step
        .placements
        .iter()
        .map(|&(c, d)| format!("{} = {}", cell_name(geometry, c), d.get()))
        .collect();
    let mut per_cell: Vec<(Cell, DigitSet)> = Vec::new();
    for &(c, d) in &step.eliminations {
        match per_cell.iter_mut().find(|(x, _)| *x == c) {
            Some((_, set)) => set.insert(d),
            None => per_cell.push((c, DigitSet::single(d))),
        }
    }
    let mut groups: Vec<(DigitSet, Vec<Cell>)> = Vec::new();
    for (c, set) in per_cell {
        match groups.iter_mut().find(|(s, _)| *s == set) {
            Some((_, cells)) => cells.push(c),
            None => groups.push((set, vec![c])),
        }
    }
    parts.extend(
        groups
            .into_iter()
            .map(|(set, cells)| format!("{} ≠ {}", cells_text(geometry, &cells), digits_text(set))),
    );
    parts.join("; ")
}

/// One line for a step: "Innies/outies: innies of row 1: r1c4 + r1c5 = 9, so r1c4 ≠ 1,2".
pub fn step_text(geometry: &Geometry, step: &Step) -> String {
    let what = conclusions_text(geometry, step);
    match step.reason.is_empty() {
        true => format!("{}: {what}", step.technique.name()),
        false => format!("{}: {}, so {what}", step.technique.name(), step.reason),
    }
}

/// Where a step happens, for the second hint: its houses, else its cages, else its cells.
pub fn place_text(geometry: &Geometry, cages: &[crate::cage::Cage], step: &Step) -> String {
    if !step.houses.is_empty() {
        let names: Vec<String> = step
            .houses
            .iter()
            .map(|&h| house_name(geometry, h))
            .collect();
        return names.join(", ");
    }
    if !step.cages.is_empty() {
        let names: Vec<String> = step
            .cages
            .iter()
            .filter_map(|&k| cages.get(k))
            .map(|k| format!("cage {}", cage_text(geometry, k.sum, &k.cells)))
            .collect();
        return names.join(", ");
    }
    cells_text(geometry, &step.cells)
}

/// Three graded hints for a step: a nudge (the technique), the technique and where, the step.
pub fn hints(geometry: &Geometry, cages: &[crate::cage::Cage], step: &Step) -> [String; 3] {
    let name = step.technique.name();
    [
        format!("Look for a step of the kind \"{name}\"."),
        format!("{name} in {}.", place_text(geometry, cages, step)),
        step_text(geometry, step),
    ]
}

/// Cells a level line names before it says "and N more".
const LEVEL_CELLS: usize = 9;

/// Why a puzzle has its level, for `explain`: "level hard: step 57, X-wing (a hard rung), at
/// r4c5, r4c8", or, when the work of the whole path raised it, "level expert: the work of the
/// whole path; its hardest step, 38, Innies/outies (an easy rung), at r7c3". `None` without a
/// level or a hardest step.
pub fn level_text(grade: &Grade, geometry: Option<&Geometry>) -> Option<String> {
    let (level, from) = (grade.level?, grade.level_from?);
    let (step, technique, geometry) = (grade.hardest_step.as_ref()?, grade.hardest?, geometry?);
    let mut cells = cells_text(geometry, &step.cells[..step.cells.len().min(LEVEL_CELLS)]);
    if step.cells.len() > LEVEL_CELLS {
        cells.push_str(&format!(" and {} more", step.cells.len() - LEVEL_CELLS));
    }
    let rung = format!(
        "{} ({} {} rung), at {cells}",
        technique.name(),
        article(step.level.as_str()),
        step.level
    );
    Some(match from {
        LevelSource::HardestStep => format!("level {level}: step {}, {rung}", step.step),
        LevelSource::Work => format!(
            "level {level}: the work of the whole path; its hardest step, {}, {rung}",
            step.step
        ),
    })
}

/// "a" or "an" before a word.
fn article(word: &str) -> &'static str {
    match word.starts_with(['a', 'e', 'i', 'o', 'u']) {
        true => "an",
        false => "a",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::Digit;

    #[test]
    fn names() {
        let g = Geometry::standard(9).unwrap();
        assert_eq!(house_name(&g, House::new(2)), "row 3");
        assert_eq!(house_name(&g, House::new(13)), "column 5");
        assert_eq!(house_name(&g, House::new(21)), "box 4");
        let d: DigitSet = [1, 2, 4].into_iter().map(Digit::new).collect();
        assert_eq!(set_text(d), "{1,2,4}");
        assert_eq!(
            cage_text(&g, 14, &[Cell::new(10), Cell::new(11)]),
            "14(2) at r2c2"
        );
        assert_eq!(cells_text(&g, &[Cell::new(0), Cell::new(80)]), "r1c1, r9c9");
    }
}
