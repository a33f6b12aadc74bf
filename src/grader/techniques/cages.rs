//! Cage logic on one cage at a time: unique combinations, min/max bounds, combination
//! eliminations, positional (permutation) analysis and combination clashes.
//!
//! Each finder reports, per cage, only what its own reasoning proves, so a step is always
//! credited to the easiest technique that finds it (they run in ladder order).

use super::cage_view::{placements_of, CageView, Inline};
use super::context::{Context, Memo};
use crate::bitset::DigitSet;
use crate::geometry::Cell;
use crate::grader::state::Board;
use crate::grader::step::{Step, Technique};
use crate::grader::text::set_text;

/// Runs `find` on every cage the memo does not rule out, pushing its steps.
fn each_cage(
    ctx: &mut Context,
    board: &Board,
    memo: Memo,
    out: &mut Vec<Step>,
    find: impl Fn(&Board, &CageView) -> Option<Step>,
) {
    for k in 0..board.cages().len() {
        if ctx.unchanged_cage(board, memo, k) {
            continue;
        }
        match CageView::of(board, k).and_then(|v| find(board, &v)) {
            Some(step) => out.push(step),
            None => ctx.remember(board, memo, k),
        }
    }
}

/// A cage whose size and sum allow one digit set keeps only those digits.
pub fn unique_combination(ctx: &mut Context, board: &Board, out: &mut Vec<Step>) {
    each_cage(ctx, board, Memo::UniqueCombination, out, |board, v| {
        let mut combos = v.table_combos(board.size());
        let (Some(m), None) = (combos.next(), combos.next()) else {
            return None;
        };
        let reason = || {
            format!(
                "{} has one combination: {}",
                v.name(board),
                set_text(DigitSet::from_bits(m))
            )
        };
        let keep = [m; 16];
        v.step(
            board,
            Technique::UniqueCombination,
            &keep[..v.cells.len()],
            reason,
        )
    });
}

/// The `count` smallest (or largest) digits of a pool: their sum, the last of them and the next
/// one (0 where there is none), so that the same without one digit of the pool is quick.
struct Extremes {
    sum: usize,
    last: usize,
    next: usize,
    largest: bool,
}

impl Extremes {
    fn of(mut pool: u16, count: usize, largest: bool) -> Self {
        let mut take = || {
            if pool == 0 {
                return 0;
            }
            let b = match largest {
                true => 15 - pool.leading_zeros() as usize,
                false => pool.trailing_zeros() as usize,
            };
            pool &= !(1 << b);
            b + 1
        };
        let (mut sum, mut last) = (0, 0);
        for _ in 0..count {
            last = take();
            sum += last;
        }
        let next = take();
        Extremes {
            sum,
            last,
            next,
            largest,
        }
    }

    /// The sum of the `count` extreme digits of the pool without `digit` (`inside`: it is in the
    /// pool), given that the pool without it still has `count` digits.
    fn without(&self, digit: usize, inside: bool) -> usize {
        let among = inside
            && match self.largest {
                true => digit >= self.last,
                false => digit <= self.last,
            };
        match among {
            true => self.sum - digit + self.next,
            false => self.sum,
        }
    }
}

/// Min/max: a digit is out if the other cells of the cage, with their smallest (largest)
/// distinct candidates, would still overshoot (fall short of) the sum.
pub fn cage_bounds(ctx: &mut Context, board: &Board, out: &mut Vec<Step>) {
    each_cage(ctx, board, Memo::CageBounds, out, |board, v| {
        let k = v.cells.len();
        if k < 2 {
            return None;
        }
        let mut keep = v.cands;
        // The digits of the cells after each cell, so that each cell's others are one OR away
        // (folding the others per cell was a quarter of the finder's instructions).
        let mut after = [0u16; 16];
        for i in (0..k - 1).rev() {
            after[i] = after[i + 1] | v.cands[i + 1];
        }
        let mut before = 0u16;
        for (i, kept) in keep.iter_mut().enumerate() {
            let others = before | after[i];
            before |= v.cands[i];
            // The k - 1 smallest (largest) digits of the others, without the digit tried: the
            // k - 1 smallest of all the others, or, when it is one of them, the k smallest but it.
            let small = Extremes::of(others, k - 1, false);
            let large = Extremes::of(others, k - 1, true);
            let count = others.count_ones() as usize;
            for d in DigitSet::from_bits(v.cands[i]).iter() {
                let inside = others & (1 << d.as_index()) != 0;
                if count - usize::from(inside) < k - 1 {
                    continue;
                }
                let total = d.get() as usize;
                let lo = small.without(total, inside);
                let hi = large.without(total, inside);
                if total + lo > v.sum || total + hi < v.sum {
                    *kept &= !(1 << d.as_index());
                }
            }
        }
        let reason = || {
            let lo = keep
                .iter()
                .filter(|&&m| m != 0)
                .map(|m| m.trailing_zeros() + 1)
                .min();
            let hi = keep.iter().map(|m| 16 - m.leading_zeros()).max();
            format!(
                "{} needs {} from digits that do not repeat, so its cells lie between {} and {}",
                v.name(board),
                v.sum,
                lo.unwrap_or(0),
                hi.unwrap_or(0)
            )
        };
        v.step(board, Technique::CageBounds, &keep, reason)
    });
}

/// Digits that belong to no remaining combination of a cage are removed.
pub fn cage_combination(ctx: &mut Context, board: &Board, out: &mut Vec<Step>) {
    each_cage(ctx, board, Memo::CageCombination, out, |board, v| {
        let n = board.size();
        let may = v
            .table_combos(n)
            .filter(|&m| v.fits(m))
            .fold(0, |a, m| a | m);
        let reason = || {
            let text: Vec<String> = v
                .live(n)
                .iter()
                .map(|&m| set_text(DigitSet::from_bits(m)))
                .collect();
            format!("{} can only be {}", v.name(board), text.join(" or "))
        };
        v.step(
            board,
            Technique::CageCombination,
            &[may; 16][..v.cells.len()],
            reason,
        )
    });
}

/// Union over combinations `combos` of the digits each cell can take in a full assignment
/// (set level for cages too large to enumerate).
fn positions(v: &CageView, combos: &[u16]) -> Inline<u16> {
    let mut keep = v.cands;
    keep.iter_mut().for_each(|a| *a = 0);
    for &m in combos {
        match placements_of(&v.cands, m) {
            Some(p) => keep.iter_mut().zip(p).for_each(|(a, b)| *a |= b),
            None => keep.iter_mut().for_each(|a| *a |= m),
        }
    }
    keep
}

/// Positional analysis: a digit of a combination that no arrangement of the combination over the
/// cage's cells puts in a cell is removed from that cell.
pub fn cage_permutation(ctx: &mut Context, board: &Board, out: &mut Vec<Step>) {
    each_cage(ctx, board, Memo::CagePermutation, out, |board, v| {
        let live = v.live(board.size());
        let keep = positions(v, &live);
        let reason = || {
            format!(
                "no arrangement of the combinations of {} over its cells allows these digits",
                v.name(board)
            )
        };
        v.step(board, Technique::CagePermutation, &keep, reason)
    });
}

/// Combination clash: a combination dies when a cell that sees the whole cage would be left
/// without a candidate, or when another cage in the same houses has no combination left beside it.
pub fn combination_clash(ctx: &mut Context, board: &Board, out: &mut Vec<Step>) {
    let n = board.size();
    let count = board.cages().len();
    // Views and live combinations, made only for the cages looked at (most are skipped).
    let mut views: Vec<Option<Option<CageView>>> = vec![None; count];
    let mut lives: Vec<Option<Vec<u16>>> = vec![None; count];
    let view = |views: &mut Vec<Option<Option<CageView>>>, j: usize| -> Option<CageView> {
        views[j]
            .get_or_insert_with(|| CageView::of(board, j))
            .clone()
    };
    let mut near: Vec<usize> = Vec::new();
    for k in 0..count {
        // A cage's verdict rests on its cells, the cells that see all its empty cells (blockers
        // and neighbours), and the cages reaching into those (a neighbour's combinations, and
        // whether it lies wholly there): when none of them changed it found nothing again.
        let since = ctx.memo_clock(Memo::CombinationClash, k);
        let fresh = since != 0
            && !ctx.cage_sets[k]
                .iter()
                .any(|c| board.changed_since(c, since));
        let seers = ctx.seen_by_all(
            board.cages()[k]
                .cells
                .iter()
                .copied()
                .filter(|&c| board.is_empty(c)),
        );
        near.clear();
        near.extend(seers.iter().filter_map(|x| board.cage_of(x)));
        near.sort_unstable();
        near.dedup();
        if fresh {
            let zone = near.iter().fold(seers, |a, &j| a.union(&ctx.cage_sets[j]));
            if !zone.iter().any(|c| board.changed_since(c, since)) {
                continue;
            }
        }
        let Some(v) = view(&mut views, k) else {
            continue;
        };
        let v = &v;
        let live = lives[k].get_or_insert_with(|| v.live(n)).clone();
        let live = &live;
        let blockers: Vec<Cell> = seers
            .iter()
            .filter(|&x| board.is_empty(x) && board.cage_of(x) != Some(k))
            .collect();
        let mut neighbours: Vec<usize> = Vec::new();
        for &j in &near {
            if j == k {
                continue;
            }
            if let Some(w) = view(&mut views, j) {
                if w.cells.iter().all(|c| seers.contains(*c)) {
                    neighbours.push(j);
                    if lives[j].is_none() {
                        lives[j] = Some(w.live(n));
                    }
                }
            }
        }
        let mut clash = None;
        let kept: Vec<u16> = live
            .iter()
            .copied()
            .filter(|&m| {
                if let Some(&x) = blockers
                    .iter()
                    .find(|&&x| board.candidates(x).bits() & !m == 0)
                {
                    if board.explaining() && clash.is_none() {
                        clash = Some(format!(
                            "{} would leave {} empty",
                            set_text(DigitSet::from_bits(m)),
                            board.cell_name(x)
                        ));
                    }
                    return false;
                }
                if let Some(&j) = neighbours.iter().find(|&&j| {
                    lives[j]
                        .as_deref()
                        .unwrap_or(&[])
                        .iter()
                        .all(|&o| o & m != 0)
                }) {
                    if board.explaining() && clash.is_none() {
                        clash = Some(format!(
                            "{} leaves no combination for {}",
                            set_text(DigitSet::from_bits(m)),
                            views[j]
                                .as_ref()
                                .and_then(|w| w.as_ref())
                                .map_or(String::new(), |w| w.name(board))
                        ));
                    }
                    return false;
                }
                true
            })
            .collect();
        if kept.len() == live.len() {
            ctx.remember(board, Memo::CombinationClash, k);
            continue;
        }
        let keep = positions(v, &kept);
        let reason = || format!("in {}, {}", v.name(board), clash.unwrap_or_default());
        match v.step(board, Technique::CombinationClash, &keep, reason) {
            Some(mut step) => {
                if board.explaining() {
                    step.cages.extend(neighbours);
                }
                out.push(step);
            }
            None => ctx.remember(board, Memo::CombinationClash, k),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The `count` smallest (largest) digits of `pool`, summed the long way.
    fn sum_of(mut pool: u16, count: usize, largest: bool) -> Option<usize> {
        let mut digits = Vec::new();
        while pool != 0 {
            digits.push(pool.trailing_zeros() as usize + 1);
            pool &= pool - 1;
        }
        if largest {
            digits.reverse();
        }
        (digits.len() >= count).then(|| digits[..count].iter().sum())
    }

    #[test]
    fn extremes_without_a_digit_match_summing_the_pool_without_it() {
        // Every 12-digit pool, every count, every digit taken out (in the pool or not).
        for pool in (0u16..1 << 12).step_by(7) {
            for count in 1..=6 {
                for largest in [false, true] {
                    let ends = Extremes::of(pool, count, largest);
                    for d in 1..=12usize {
                        let inside = pool & (1 << (d - 1)) != 0;
                        let rest = pool & !(1 << (d - 1));
                        if let Some(want) = sum_of(rest, count, largest) {
                            assert_eq!(
                                ends.without(d, inside),
                                want,
                                "pool {pool:#b}, count {count}, largest {largest}, without {d}"
                            );
                        }
                    }
                }
            }
        }
    }
}
