//! Single-digit patterns: skyscraper, 2-string kite, simple colouring, X-chains.
//!
//! All rest on strong links of one digit (its only two places in a house, or in a killer its only
//! two places in a cage that must contain it). Skyscraper and kite use rows and columns as
//! SudokuWiki and HoDoKu define them; colouring and X-chains use every strong link.

use super::chains::{search, Mode};
use super::{
    digits, house_kind, house_name, name, names, seeing_all, sees, strong_links, Board, HouseKind,
    LinkVia, StrongLink,
};
use crate::bitset::CellSet;
use crate::geometry::Cell;
use crate::grader::step::{Step, Technique};

/// The strong links of one kind of line among `links`.
fn line_links(board: &Board, links: &[StrongLink], kind: HouseKind) -> Vec<StrongLink> {
    links
        .iter()
        .copied()
        .filter(|l| matches!(l.via, LinkVia::House(h) if house_kind(board, h) == kind))
        .collect()
}

/// Both orientations of a link: (end kept, far end).
fn ends(l: &StrongLink) -> [(Cell, Cell); 2] {
    [(l.a, l.b), (l.b, l.a)]
}

/// Skyscraper: two strong links in parallel lines with one end of each in a common line; one of
/// the two other ends holds the digit.
pub fn find_skyscraper(board: &Board) -> Option<Step> {
    let g = board.geometry();
    for digit in digits(board) {
        let all = strong_links(board, digit);
        for kind in [HouseKind::Row, HouseKind::Column] {
            let links = line_links(board, &all, kind);
            let across = |c: Cell| match kind {
                HouseKind::Row => g.col(c),
                _ => g.row(c),
            };
            for (i, l1) in links.iter().enumerate() {
                for l2 in &links[i + 1..] {
                    for (base1, top1) in ends(l1) {
                        for (base2, top2) in ends(l2) {
                            if across(base1) != across(base2) || across(top1) == across(top2) {
                                continue;
                            }
                            let pattern = [top1, base1, base2, top2];
                            let except: CellSet = pattern.iter().copied().collect();
                            let removed = seeing_all(board, &[top1, top2], digit, &except);
                            if removed.is_empty() {
                                continue;
                            }
                            let reason = format!(
                                "Skyscraper on {}: strong links {}-{} in {} and {}-{} in {}, with {} and {} in one line; {} or {} holds the {}",
                                digit.get(),
                                name(board, top1),
                                name(board, base1),
                                via(board, l1),
                                name(board, base2),
                                name(board, top2),
                                via(board, l2),
                                name(board, base1),
                                name(board, base2),
                                name(board, top1),
                                name(board, top2),
                                digit.get()
                            );
                            return Some(super::elimination_step(
                                Technique::Skyscraper,
                                digit,
                                &removed,
                                pattern.to_vec(),
                                reason,
                            ));
                        }
                    }
                }
            }
        }
    }
    None
}

fn via(board: &Board, l: &StrongLink) -> String {
    super::via_name(board, l.via)
}

/// 2-string kite: a strong link in a row and one in a column, one end of each in the same region
/// (the other ends outside it); one of the two far ends holds the digit.
pub fn find_two_string_kite(board: &Board) -> Option<Step> {
    let g = board.geometry();
    for digit in digits(board) {
        let all = strong_links(board, digit);
        let rows = line_links(board, &all, HouseKind::Row);
        let cols = line_links(board, &all, HouseKind::Column);
        for r in &rows {
            for c in &cols {
                for (near_r, far_r) in ends(r) {
                    for (near_c, far_c) in ends(c) {
                        let region = g.region(near_r);
                        let cells = [far_r, near_r, near_c, far_c];
                        let distinct: CellSet = cells.iter().copied().collect();
                        if distinct.len() != 4
                            || g.region(near_c) != region
                            || g.region(far_r) == region
                            || g.region(far_c) == region
                        {
                            continue;
                        }
                        let removed = seeing_all(board, &[far_r, far_c], digit, &distinct);
                        if removed.is_empty() {
                            continue;
                        }
                        let reason = format!(
                            "2-string kite on {}: strong links {}-{} in {} and {}-{} in {}, joined in {}; {} or {} holds the {}",
                            digit.get(),
                            name(board, far_r),
                            name(board, near_r),
                            via(board, r),
                            name(board, near_c),
                            name(board, far_c),
                            via(board, c),
                            house_name(
                                board,
                                crate::geometry::House::new((2 * board.size() + region) as u8)
                            ),
                            name(board, far_r),
                            name(board, far_c),
                            digit.get()
                        );
                        return Some(super::elimination_step(
                            Technique::TwoStringKite,
                            digit,
                            &removed,
                            cells.to_vec(),
                            reason,
                        ));
                    }
                }
            }
        }
    }
    None
}

/// Simple colouring: the strong links of a digit joined into a two-coloured cluster; one colour
/// holds the digit. Colour wrap (two cells of one colour see each other: that colour is false) and
/// colour trap (a cell seeing both colours loses the digit).
pub fn find_simple_colouring(board: &Board) -> Option<Step> {
    for digit in digits(board) {
        let links = strong_links(board, digit);
        let cells = *board.plane(digit);
        let mut colour: Vec<Option<(usize, bool)>> = vec![None; board.geometry().cell_count()];
        let mut clusters: Vec<Vec<Cell>> = Vec::new();
        for start in cells.iter() {
            if colour[start.as_index()].is_some()
                || !links.iter().any(|l| l.a == start || l.b == start)
            {
                continue;
            }
            let id = clusters.len();
            colour[start.as_index()] = Some((id, true));
            let mut members = vec![start];
            let mut i = 0;
            while i < members.len() {
                let c = members[i];
                let side = colour[c.as_index()].unwrap().1;
                for l in &links {
                    let other = if l.a == c {
                        l.b
                    } else if l.b == c {
                        l.a
                    } else {
                        continue;
                    };
                    if colour[other.as_index()].is_none() {
                        colour[other.as_index()] = Some((id, !side));
                        members.push(other);
                    }
                }
                i += 1;
            }
            clusters.push(members);
        }
        for (id, members) in clusters.iter().enumerate() {
            if members.len() < 3 {
                continue;
            }
            let side_of = |c: Cell| colour[c.as_index()].map(|(_, s)| s).unwrap();
            let on: Vec<Cell> = members.iter().copied().filter(|&c| side_of(c)).collect();
            let off: Vec<Cell> = members.iter().copied().filter(|&c| !side_of(c)).collect();
            // Wrap: a colour with two cells that see each other is false.
            for (group, other) in [(&on, &off), (&off, &on)] {
                let clash = group.iter().enumerate().find_map(|(i, &a)| {
                    group[i + 1..]
                        .iter()
                        .find(|&&b| sees(board, a, b))
                        .map(|&b| (a, b))
                });
                if let Some((a, b)) = clash {
                    let reason = format!(
                        "Simple colouring on {}: strong links colour {} against {}; {} and {} share a colour and see each other, so that colour is false",
                        digit.get(),
                        names(board, group),
                        names(board, other),
                        name(board, a),
                        name(board, b)
                    );
                    return Some(super::elimination_step(
                        Technique::SimpleColouring,
                        digit,
                        group,
                        members.clone(),
                        reason,
                    ));
                }
            }
            // Trap: an uncoloured cell seeing both colours.
            let removed: Vec<Cell> = cells
                .iter()
                .filter(|&c| {
                    colour[c.as_index()].map(|(i, _)| i) != Some(id)
                        && on.iter().any(|&x| sees(board, c, x))
                        && off.iter().any(|&x| sees(board, c, x))
                })
                .collect();
            if !removed.is_empty() {
                let reason = format!(
                    "Simple colouring on {}: strong links colour {} against {}; one colour holds the {}, and these cells see both",
                    digit.get(),
                    names(board, &on),
                    names(board, &off),
                    digit.get()
                );
                return Some(super::elimination_step(
                    Technique::SimpleColouring,
                    digit,
                    &removed,
                    members.clone(),
                    reason,
                ));
            }
        }
    }
    None
}

/// X-chain: an alternating chain of strong and weak links on one digit, strong at both ends; one
/// end holds the digit, so cells seeing both ends lose it.
pub fn find_x_chain(board: &Board) -> Option<Step> {
    search(board, Mode::XChain)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grader::techniques::plain::test_util::*;

    #[test]
    fn skyscraper_in_rows() {
        let p = empty(9);
        let mut b = board(&p);
        // 1 in row 1 at c1, c5 and in row 5 at c1, c6: r1c5 or r5c6 holds the 1.
        only_in_row(&mut b, 1, 1, &[1, 5]);
        only_in_row(&mut b, 1, 5, &[1, 6]);
        let step = find_skyscraper(&b).unwrap();
        // Cells seeing r1c5 and r5c6: r2c6, r3c6 (box 2) and r4c5, r6c5 (box 5).
        assert_eq!(
            step.eliminations,
            cells_digit(&b, &[(2, 6), (3, 6), (4, 5), (6, 5)], 1)
        );
        assert!(
            step.reason.starts_with("Skyscraper on 1"),
            "{}",
            step.reason
        );
    }

    #[test]
    fn two_string_kite() {
        let p = empty(9);
        let mut b = board(&p);
        // 5 in row 2 at c2, c7; in column 3 at r1, r6; r2c2 and r1c3 share box 1.
        only_in_row(&mut b, 5, 2, &[2, 7]);
        only_in_col(&mut b, 5, 3, &[1, 6]);
        assert!(find_skyscraper(&b).is_none());
        let step = find_two_string_kite(&b).unwrap();
        assert_eq!(step.eliminations, cells_digit(&b, &[(6, 7)], 5));
    }

    #[test]
    fn colour_trap_and_wrap() {
        let p = empty(9);
        let mut b = board(&p);
        // A cluster on 3: r1c1 = r1c8 (row 1) = r5c8 (column 8) = r5c2 (row 5).
        only_in_row(&mut b, 3, 1, &[1, 8]);
        only_in_col(&mut b, 3, 8, &[1, 5]);
        only_in_row(&mut b, 3, 5, &[2, 8]);
        let step = find_simple_colouring(&b).unwrap();
        // r1c1 and r5c2 have opposite colours: cells seeing both lose 3.
        assert_eq!(
            step.eliminations,
            cells_digit(&b, &[(2, 2), (3, 2), (4, 1), (6, 1)], 3)
        );
        // Wrap: link r5c2 on to r2c2 (column 2); r2c2 and r1c1 then share a colour and a box.
        let mut b = board(&p);
        only_in_row(&mut b, 3, 1, &[1, 8]);
        only_in_col(&mut b, 3, 8, &[1, 5]);
        only_in_row(&mut b, 3, 5, &[2, 8]);
        only_in_col(&mut b, 3, 2, &[2, 5]);
        let step = find_simple_colouring(&b).unwrap();
        assert_eq!(
            step.eliminations,
            cells_digit(&b, &[(1, 1), (2, 2), (5, 8)], 3)
        );
        assert!(step.reason.contains("see each other"));
    }

    #[test]
    fn x_chain_of_five_links() {
        let p = empty(9);
        let mut b = board(&p);
        // 6: r1c1 = r5c1 - r5c5 = r7c5 - r7c9 = r2c9 (strong links in columns 1, 5, 9).
        only_in_col(&mut b, 6, 1, &[1, 5]);
        only_in_col(&mut b, 6, 5, &[5, 7]);
        only_in_col(&mut b, 6, 9, &[2, 7]);
        assert!(find_skyscraper(&b).is_none());
        assert!(find_simple_colouring(&b).is_none());
        let step = find_x_chain(&b).unwrap();
        assert_eq!(step.technique, Technique::XChain);
        // r1c1 or r2c9 is 6: cells seeing both lose it.
        assert_eq!(
            step.eliminations,
            cells_digit(&b, &[(1, 7), (1, 8), (2, 2), (2, 3)], 6)
        );
    }

    #[test]
    fn x_chain_through_a_killer_cage() {
        // 7(3) at r5c5, r5c6, r6c5 must hold 4; without r5c5 its 4 is at r5c6 or r6c5.
        let p = killer(9, &[(7, &[(5, 5), (5, 6), (6, 5)])]);
        let mut b = board(&p);
        b.eliminate(at(&b, 5, 5), d(4));
        only_in_col(&mut b, 4, 2, &[5, 9]);
        let step = find_x_chain(&b).unwrap();
        // (4) r6c5 =cage= r5c6 - r5c2 = r9c2: r9c5 sees both ends.
        assert_eq!(step.eliminations, cells_digit(&b, &[(9, 5)], 4));
        assert_eq!(step.cages, vec![0]);
        assert!(
            step.reason.contains("=[the 7(3) cage at r5c5]="),
            "{}",
            step.reason
        );
    }
}
