//! Locked candidates: pointing (a region's places for a digit lie in one line) and claiming (a
//! line's places lie in one region). Regions may be jigsaw pieces: any region/line pair counts.

use super::{digits, house_kind, house_name, houses, HouseKind};
use crate::grader::state::Board;
use crate::grader::step::{Step, Technique};
use crate::grader::techniques::context::HouseMemo;

/// Pointing first (regions against lines), then claiming (lines against regions).
pub fn find_locked_candidates(board: &Board) -> Option<Step> {
    find_locked_candidates_memo(board, None)
}

/// Memo slots `find_locked_candidates_memo` uses for a board of `houses` houses.
pub fn locked_memo_len(houses: usize) -> usize {
    2 * 16 * houses
}

/// As `find_locked_candidates`, remembering in `memo` (per kind, digit and house, the clock when
/// it found nothing there) so that a house whose cells have not changed is not looked at again:
/// what it yields rests on the digit's places in it; the cells it clears only lose candidates.
pub fn find_locked_candidates_memo(board: &Board, memo: Option<&mut [u32]>) -> Option<Step> {
    let mut memo = HouseMemo(memo);
    let planes = board.planes();
    let count = board.geometry().house_count();
    for pointing in [true, false] {
        for digit in digits(board) {
            for a in houses(board) {
                let a_is_region = house_kind(board, a) == HouseKind::Region;
                if a_is_region != pointing {
                    continue;
                }
                let slot = (usize::from(pointing) * 16 + digit.as_index()) * count + a.as_index();
                if memo.skip(board, slot, a) {
                    continue;
                }
                let plane = &planes[digit.as_index()];
                if let Some(step) = locked_in(board, pointing, digit, plane, a) {
                    memo.found(slot);
                    return Some(step);
                }
            }
        }
    }
    None
}

/// The locked candidates of `digit` with house `a` as the pointing (or claiming) house.
fn locked_in(
    board: &Board,
    pointing: bool,
    digit: crate::geometry::Digit,
    plane: &crate::bitset::CellSet,
    a: crate::geometry::House,
) -> Option<Step> {
    let a_is_region = house_kind(board, a) == HouseKind::Region;
    let places = board.house_set(a).intersection(plane);
    if places.len() < 2 {
        return None;
    }
    // Only a house of one of the places can hold them all.
    let first = places.iter().next().unwrap();
    let mut others = board.geometry().houses_of(first);
    others.sort();
    for b in others {
        let b_is_region = house_kind(board, b) == HouseKind::Region;
        if b_is_region == a_is_region {
            continue;
        }
        if !places.difference(board.house_set(b)).is_empty() {
            continue;
        }
        let removed = board
            .house_set(b)
            .intersection(plane)
            .difference(board.house_set(a));
        if removed.is_empty() {
            continue;
        }
        let mut step = Step::new(Technique::LockedCandidates);
        step.eliminations = removed.iter().map(|c| (c, digit)).collect();
        if board.explaining() {
            step.cells = places.iter().collect();
            step.houses = vec![a, b];
            step.reason = format!(
                "{} ({}): the {}s of {} all lie in {}",
                if pointing { "Pointing" } else { "Claiming" },
                "locked candidates",
                digit.get(),
                house_name(board, a),
                house_name(board, b)
            );
        }
        return Some(step);
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grader::techniques::plain::test_util::*;

    #[test]
    fn pointing_in_box_removes_from_the_column() {
        let p = empty(9);
        let mut b = board(&p);
        // 5 in box 1 only in column 3 (r1c3, r2c3).
        for (r, c) in [(1, 1), (1, 2), (2, 1), (2, 2), (3, 1), (3, 2), (3, 3)] {
            b.eliminate(at(&b, r, c), d(5));
        }
        let step = find_locked_candidates(&b).unwrap();
        assert_eq!(step.technique, Technique::LockedCandidates);
        let want: Vec<_> = (4..=9).map(|r| (at(&b, r, 3), d(5))).collect();
        assert_eq!(sorted(step.eliminations), want);
        assert_eq!(
            step.reason,
            "Pointing (locked candidates): the 5s of box 1 all lie in column 3"
        );
    }

    #[test]
    fn claiming_in_row_removes_from_the_box() {
        let p = empty(9);
        let mut b = board(&p);
        // 7 in row 5 only in r5c4, r5c6 (box 5); no region has its 7s in one line.
        for c in [1, 2, 3, 5, 7, 8, 9] {
            b.eliminate(at(&b, 5, c), d(7));
        }
        let step = find_locked_candidates(&b).unwrap();
        let want = vec![
            (at(&b, 4, 4), d(7)),
            (at(&b, 4, 5), d(7)),
            (at(&b, 4, 6), d(7)),
            (at(&b, 6, 4), d(7)),
            (at(&b, 6, 5), d(7)),
            (at(&b, 6, 6), d(7)),
        ];
        assert_eq!(sorted(step.eliminations), want);
        assert!(step.reason.starts_with("Claiming"), "{}", step.reason);
    }

    #[test]
    fn jigsaw_regions_point_into_rows() {
        // 4x4 jigsaw: region 0 = r1c1-3 + r2c1, region 1 = r1c4 + r2c2-4, regions 2/3 = rows 3/4.
        let regions = vec![0, 0, 0, 1, 0, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3];
        let p = empty_jigsaw(4, regions);
        let mut b = board(&p);
        // 2 in region 0 only in row 1 (r1c1, r1c2): remove from r1c4 (region 1).
        b.eliminate(at(&b, 1, 3), d(2));
        b.eliminate(at(&b, 2, 1), d(2));
        let step = find_locked_candidates(&b).unwrap();
        assert_eq!(step.eliminations, vec![(at(&b, 1, 4), d(2))]);
        assert_eq!(
            step.reason,
            "Pointing (locked candidates): the 2s of region 1 all lie in row 1"
        );
    }

    #[test]
    fn nothing_on_a_fresh_board() {
        let p = empty(9);
        assert!(find_locked_candidates(&board(&p)).is_none());
    }
}
