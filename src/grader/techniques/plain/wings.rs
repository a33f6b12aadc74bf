//! Wings: XY-wing, XYZ-wing and W-wing.
//!
//! XY-wing: a pivot {x,y} sees wings {x,z} and {y,z}; whichever digit the pivot takes, one wing
//! is z, so cells seeing both wings lose z. XYZ-wing: the pivot is {x,y,z} and the cells must also
//! see the pivot. W-wing: two {x,y} cells that do not see each other, joined by a strong link on
//! x (each end seeing one of them): one of them is y.

use super::{digit_list, name, open_cells, seeing_all, sees, strong_links, via_name, Board};
use crate::bitset::CellSet;
use crate::geometry::{Cell, Digit};
use crate::grader::step::{Step, Technique};

fn bivalue(board: &Board) -> Vec<Cell> {
    open_cells(board)
        .filter(|&c| board.candidates(c).len() == 2)
        .collect()
}

/// XY-wing: pivot {x,y}, wings {x,z} and {y,z} seen by the pivot.
pub fn find_xy_wing(board: &Board) -> Option<Step> {
    let cells = bivalue(board);
    for &pivot in &cells {
        let pc = board.candidates(pivot);
        let wings: Vec<Cell> = cells
            .iter()
            .copied()
            .filter(|&w| sees(board, pivot, w) && board.candidates(w).intersection(pc).len() == 1)
            .collect();
        for (i, &w1) in wings.iter().enumerate() {
            for &w2 in &wings[i + 1..] {
                let (c1, c2) = (board.candidates(w1), board.candidates(w2));
                let z = c1.intersection(c2);
                if z.len() != 1 || !z.intersection(pc).is_empty() {
                    continue;
                }
                // The wings share z and hold different pivot digits.
                if c1.intersection(pc) == c2.intersection(pc) {
                    continue;
                }
                let z = z.first().unwrap();
                let step = wing_step(board, Technique::XyWing, [pivot, w1, w2], z, &[w1, w2]);
                if step.is_some() {
                    return step;
                }
            }
        }
    }
    None
}

/// XYZ-wing: pivot {x,y,z}, wings {x,z} and {y,z} seen by the pivot; cells seeing all three lose z.
pub fn find_xyz_wing(board: &Board) -> Option<Step> {
    let cells = bivalue(board);
    for pivot in open_cells(board).filter(|&c| board.candidates(c).len() == 3) {
        let pc = board.candidates(pivot);
        let wings: Vec<Cell> = cells
            .iter()
            .copied()
            .filter(|&w| sees(board, pivot, w) && board.candidates(w).difference(pc).is_empty())
            .collect();
        for (i, &w1) in wings.iter().enumerate() {
            for &w2 in &wings[i + 1..] {
                let (c1, c2) = (board.candidates(w1), board.candidates(w2));
                if c1 == c2 {
                    continue;
                }
                let z: Digit = c1.intersection(c2).first().unwrap();
                let trio = [pivot, w1, w2];
                let step = wing_step(board, Technique::XyzWing, trio, z, &trio);
                if step.is_some() {
                    return step;
                }
            }
        }
    }
    None
}

/// The step of an XY- or XYZ-wing `[pivot, wing, wing]` on `z`: the cells that see every cell
/// of `seen` lose z (`None` when none has it).
fn wing_step(
    board: &Board,
    technique: Technique,
    [pivot, w1, w2]: [Cell; 3],
    z: Digit,
    seen: &[Cell],
) -> Option<Step> {
    let except: CellSet = [pivot, w1, w2].into_iter().collect();
    let removed = seeing_all(board, seen, z, &except);
    if removed.is_empty() {
        return None;
    }
    let (label, one) = match technique {
        Technique::XyWing => ("XY-wing", "one wing"),
        _ => ("XYZ-wing", "one of the three"),
    };
    let reason = format!(
        "{label}: pivot {} ({}) with wings {} ({}) and {} ({}); {one} is {}",
        name(board, pivot),
        digit_list(board.candidates(pivot)),
        name(board, w1),
        digit_list(board.candidates(w1)),
        name(board, w2),
        digit_list(board.candidates(w2)),
        z.get()
    );
    Some(super::elimination_step(
        technique,
        z,
        &removed,
        vec![pivot, w1, w2],
        reason,
    ))
}

/// W-wing: two {x,y} cells that do not see each other, each seen by one end of a strong link on x.
pub fn find_w_wing(board: &Board) -> Option<Step> {
    let cells = bivalue(board);
    let mut links: Vec<Option<Vec<super::StrongLink>>> = vec![None; board.size()];
    for (i, &a) in cells.iter().enumerate() {
        for &b in &cells[i + 1..] {
            let pair = board.candidates(a);
            if board.candidates(b) != pair || sees(board, a, b) {
                continue;
            }
            for x in pair.iter() {
                let y = pair
                    .difference(crate::bitset::DigitSet::single(x))
                    .first()
                    .unwrap();
                let of_x = links[x.as_index()].get_or_insert_with(|| strong_links(board, x));
                for &link in of_x.iter() {
                    for (e1, e2) in [(link.a, link.b), (link.b, link.a)] {
                        if [a, b].contains(&e1)
                            || [a, b].contains(&e2)
                            || !sees(board, e1, a)
                            || !sees(board, e2, b)
                        {
                            continue;
                        }
                        let except: CellSet = [a, b, e1, e2].into_iter().collect();
                        let removed = seeing_all(board, &[a, b], y, &except);
                        if removed.is_empty() {
                            continue;
                        }
                        let reason = format!(
                            "W-wing: {} and {} are both {}, joined by the strong link on {} {}-{} in {}; one of them is {}",
                            name(board, a),
                            name(board, b),
                            digit_list(pair),
                            x.get(),
                            name(board, e1),
                            name(board, e2),
                            via_name(board, link.via),
                            y.get()
                        );
                        let mut step = super::elimination_step(
                            Technique::WWing,
                            y,
                            &removed,
                            vec![a, b, e1, e2],
                            reason,
                        );
                        if let super::LinkVia::Cage(k) = link.via {
                            step.cages.push(k);
                        }
                        return Some(step);
                    }
                }
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grader::techniques::plain::test_util::*;

    #[test]
    fn xy_wing() {
        let p = empty(9);
        let mut b = board(&p);
        // Pivot r1c1 {1,2}, wings r1c7 {1,3} and r6c1 {2,3}: r6c7 sees both wings.
        set(&mut b, 1, 1, &[1, 2]);
        set(&mut b, 1, 7, &[1, 3]);
        set(&mut b, 6, 1, &[2, 3]);
        let step = find_xy_wing(&b).unwrap();
        assert_eq!(step.eliminations, cells_digit(&b, &[(6, 7)], 3));
        assert_eq!(
            step.reason,
            "XY-wing: pivot r1c1 (1/2) with wings r1c7 (1/3) and r6c1 (2/3); one wing is 3"
        );
    }

    #[test]
    fn xyz_wing() {
        let p = empty(9);
        let mut b = board(&p);
        // Pivot r2c2 {1,2,3}, wings r2c8 {1,3} and r3c1 {2,3}: cells seeing all three are r2c1
        // and r2c3 (row 2 and box 1).
        set(&mut b, 2, 2, &[1, 2, 3]);
        set(&mut b, 2, 8, &[1, 3]);
        set(&mut b, 3, 1, &[2, 3]);
        assert!(find_xy_wing(&b).is_none());
        let step = find_xyz_wing(&b).unwrap();
        assert_eq!(step.eliminations, cells_digit(&b, &[(2, 1), (2, 3)], 3));
    }

    #[test]
    fn w_wing() {
        let p = empty(9);
        let mut b = board(&p);
        // r1c2 {4,7} and r6c8 {4,7}; 4 in row 9 only at c2 and c8: one of the two cells is 7.
        set(&mut b, 1, 2, &[4, 7]);
        set(&mut b, 6, 8, &[4, 7]);
        only_in_row(&mut b, 4, 9, &[2, 8]);
        let step = find_w_wing(&b).unwrap();
        // Cells seeing r1c2 and r6c8: r1c8 and r6c2.
        assert_eq!(step.eliminations, cells_digit(&b, &[(1, 8), (6, 2)], 7));
        assert!(
            step.reason.contains("strong link on 4 r9c2-r9c8 in row 9"),
            "{}",
            step.reason
        );
    }
}
