//! Basic fish: X-wing (2), swordfish (3), jellyfish (4).
//!
//! k rows whose places for a digit lie in the same k columns hold the digit once each, in those
//! columns, so the rest of those columns loses it (and the same with rows and columns swapped).
//! Rows and columns only: jigsaw regions do not change the pattern.

use super::{digits, is_open, Board};
use crate::geometry::{Cell, Digit};
use crate::grader::step::{Step, Technique};

/// X-wing: two rows (columns) whose places for a digit are in the same two columns (rows).
pub fn find_x_wing(board: &Board) -> Option<Step> {
    find_fish(board, 2, Technique::XWing, "X-wing")
}

/// Swordfish: the same with three lines.
pub fn find_swordfish(board: &Board) -> Option<Step> {
    find_fish(board, 3, Technique::Swordfish, "Swordfish")
}

/// Jellyfish: the same with four lines.
pub fn find_jellyfish(board: &Board) -> Option<Step> {
    find_fish(board, 4, Technique::Jellyfish, "Jellyfish")
}

/// A cell of line `line`, position `pos`: rows as base when `by_rows`, else columns.
fn cell_of(board: &Board, by_rows: bool, line: usize, pos: usize) -> Cell {
    let g = board.geometry();
    if by_rows {
        g.cell_at(line, pos)
    } else {
        g.cell_at(pos, line)
    }
}

fn line_list(lines: &[usize]) -> String {
    let v: Vec<String> = lines.iter().map(|l| (l + 1).to_string()).collect();
    match v.len() {
        0 => String::new(),
        1 => v[0].clone(),
        n => format!("{} and {}", v[..n - 1].join(", "), v[n - 1]),
    }
}

fn find_fish(board: &Board, k: usize, technique: Technique, label: &str) -> Option<Step> {
    let n = board.size();
    for digit in digits(board) {
        for by_rows in [true, false] {
            // Positions of the digit in every base line, as a bit mask over the cover lines.
            let masks: Vec<u32> = (0..n)
                .map(|line| {
                    (0..n)
                        .filter(|&pos| {
                            let c = cell_of(board, by_rows, line, pos);
                            is_open(board, c) && board.candidates(c).contains(digit)
                        })
                        .fold(0u32, |m, pos| m | 1 << pos)
                })
                .collect();
            let base: Vec<usize> = (0..n)
                .filter(|&l| (2..=k as u32).contains(&masks[l].count_ones()))
                .collect();
            let found = super::for_each_subset(base.len(), k, &mut |idx| {
                let lines: Vec<usize> = idx.iter().map(|&i| base[i]).collect();
                let cover = lines.iter().fold(0u32, |m, &l| m | masks[l]);
                if cover.count_ones() as usize != k {
                    return None;
                }
                fish_step(board, digit, by_rows, &lines, cover, technique, label)
            });
            if found.is_some() {
                return found;
            }
        }
    }
    None
}

fn fish_step(
    board: &Board,
    digit: Digit,
    by_rows: bool,
    lines: &[usize],
    cover: u32,
    technique: Technique,
    label: &str,
) -> Option<Step> {
    let n = board.size();
    let covers: Vec<usize> = (0..n).filter(|p| cover & (1 << p) != 0).collect();
    let mut eliminations = Vec::new();
    for &pos in &covers {
        for line in (0..n).filter(|l| !lines.contains(l)) {
            let c = cell_of(board, by_rows, line, pos);
            if is_open(board, c) && board.candidates(c).contains(digit) {
                eliminations.push((c, digit));
            }
        }
    }
    if eliminations.is_empty() {
        return None;
    }
    eliminations.sort();
    let (base_kind, cover_kind) = if by_rows {
        ("rows", "columns")
    } else {
        ("columns", "rows")
    };
    let mut step = Step::new(technique);
    step.cells = lines
        .iter()
        .flat_map(|&l| covers.iter().map(move |&p| (l, p)))
        .map(|(l, p)| cell_of(board, by_rows, l, p))
        .filter(|&c| is_open(board, c) && board.candidates(c).contains(digit))
        .collect();
    step.houses = lines
        .iter()
        .map(|&l| crate::geometry::House::new((if by_rows { l } else { n + l }) as u8))
        .collect();
    step.reason = format!(
        "{label} on {} in {base_kind} {}, {cover_kind} {}: each of those {base_kind} holds its {} in these {cover_kind}",
        digit.get(),
        line_list(lines),
        line_list(&covers),
        digit.get()
    );
    step.eliminations = eliminations;
    Some(step)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grader::techniques::plain::test_util::*;

    #[test]
    fn x_wing_in_rows() {
        let p = empty(9);
        let mut b = board(&p);
        only_in_row(&mut b, 7, 2, &[3, 6]);
        only_in_row(&mut b, 7, 8, &[3, 6]);
        let step = find_x_wing(&b).unwrap();
        let want: Vec<(usize, usize)> = [1, 3, 4, 5, 6, 7, 9]
            .iter()
            .flat_map(|&r| [(r, 3), (r, 6)])
            .collect();
        assert_eq!(step.eliminations, cells_digit(&b, &want, 7));
        assert_eq!(
            step.reason,
            "X-wing on 7 in rows 2 and 8, columns 3 and 6: each of those rows holds its 7 in these columns"
        );
        assert!(crate::grader::techniques::plain::find_locked_candidates(&b).is_none());
    }

    #[test]
    fn swordfish_in_columns() {
        let p = empty(9);
        let mut b = board(&p);
        // 4 in columns 1, 5, 9 only in rows 2, 5, 8 (2-2-3 shape).
        only_in_col(&mut b, 4, 1, &[2, 5]);
        only_in_col(&mut b, 4, 5, &[5, 8]);
        only_in_col(&mut b, 4, 9, &[2, 5, 8]);
        assert!(find_x_wing(&b).is_none());
        let step = find_swordfish(&b).unwrap();
        let want: Vec<(usize, usize)> = [2, 5, 8]
            .iter()
            .flat_map(|&r| [2, 3, 4, 6, 7, 8].map(|c| (r, c)))
            .collect();
        assert_eq!(step.eliminations, cells_digit(&b, &want, 4));
        assert!(step
            .reason
            .starts_with("Swordfish on 4 in columns 1, 5 and 9, rows 2, 5 and 8"));
    }

    #[test]
    fn jellyfish_on_16x16() {
        let p = empty(16);
        let mut b = board(&p);
        for (r, cols) in [(1, [2, 6]), (4, [6, 10]), (9, [10, 14]), (13, [14, 2])] {
            only_in_row(&mut b, 11, r, &cols);
        }
        assert!(find_x_wing(&b).is_none());
        assert!(find_swordfish(&b).is_none());
        let step = find_jellyfish(&b).unwrap();
        assert_eq!(step.eliminations.len(), 4 * 12);
        assert!(step.eliminations.iter().all(|&(c, v)| v == d(11)
            && [2, 6, 10, 14].contains(&(b.geometry().col(c) + 1))
            && ![1, 4, 9, 13].contains(&(b.geometry().row(c) + 1))));
    }
}
