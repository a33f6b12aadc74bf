//! Killer pairs and triples: units of a house (cages and cells) that must hold some digits
//! between them, which the house's other cells then lose.

use super::{unit_text, units, Units};
use crate::bitset::{CellSet, DigitSet};
use crate::geometry::House;
use crate::grader::state::Board;
use crate::grader::step::{Step, Technique};
use crate::grader::techniques::context::{Context, Memo};
use crate::grader::text::{house_name, set_text};

/// Killer pair (size 2) / triple (size 3): in a house, `size` units (at least one of them a cage)
/// each of which must hold one of `size` digits hold all of them, one each: the rest of the house
/// loses them, and the cages' combinations with two of them die.
fn killer_subset(ctx: &mut Context, board: &Board, size: usize, out: &mut Vec<Step>) {
    let n = board.size();
    let memo = match size {
        2 => Memo::KillerPair,
        _ => Memo::KillerTriple,
    };
    let mut units = Units::default();
    for h in 0..board.geometry().house_count() {
        let house = House::new(h as u8);
        if ctx.unchanged_house(board, memo, h) {
            continue;
        }
        let before = out.len();
        killer_subset_in(board, house, size, n, &mut units, out);
        if out.len() == before {
            ctx.remember(board, memo, h);
        }
    }
}

/// The next larger mask with the same number of bits (Gosper's hack).
fn next_same_bits(v: u32) -> u32 {
    let c = v & v.wrapping_neg();
    let r = v + c;
    (((r ^ v) >> 2) / c) | r
}

fn killer_subset_in(
    board: &Board,
    house: House,
    size: usize,
    n: usize,
    scratch: &mut Units,
    out: &mut Vec<Step>,
) {
    {
        if !units(board, house, scratch) {
            return;
        }
        let all = &scratch.list;
        if all.iter().all(|u| u.cage.is_none()) || all.len() <= size {
            return;
        }
        let all_units = all.len();
        // A cell with more candidates than the subset's size never holds one of its digits for
        // sure: only cages and small cells can be part of it.
        scratch
            .list
            .retain(|u| u.cage.is_some() || (u.combos.1 - u.combos.0) as usize <= size);
        let scratch = &*scratch;
        let units = &scratch.list;
        let missing = DigitSet::all(n).difference(board.placed_in(house)).bits();
        let mut mask = (1u32 << size) - 1;
        while mask < 1 << n {
            let d = mask as u16;
            mask = next_same_bits(mask);
            if d & !missing != 0 || all_units <= size {
                continue;
            }
            // The units that must hold one of `d`, as a bit mask (a house has at most 16 units);
            // the scan stops as soon as there are too many.
            let (mut mask_hit, mut count, mut any_cage) = (0u32, 0usize, false);
            for (i, u) in units.iter().enumerate() {
                if scratch.hits(u, d) {
                    count += 1;
                    if count > size {
                        break;
                    }
                    mask_hit |= 1 << i;
                    any_cage |= u.cage.is_some();
                }
            }
            if count != size || !any_cage {
                continue;
            }
            let hit: Vec<usize> = (0..units.len())
                .filter(|&i| mask_hit & (1 << i) != 0)
                .collect();
            let mut step = Step::new(Technique::KillerSubset);
            let mut held = CellSet::EMPTY;
            for &i in &hit {
                held = held.union(&units[i].cells.iter().copied().collect());
            }
            for &c in board.house_cells(house) {
                if board.is_empty(c) && !held.contains(c) {
                    let gone = board.candidates(c).bits() & d;
                    step.eliminations
                        .extend(DigitSet::from_bits(gone).iter().map(|x| (c, x)));
                }
            }
            for &i in &hit {
                let u = &units[i];
                if u.cage.is_none() {
                    continue;
                }
                let may = scratch
                    .combos(u)
                    .iter()
                    .filter(|&&m| (m & d).count_ones() == 1)
                    .fold(0u16, |a, &m| a | m);
                for &c in u.cells.iter() {
                    let gone = board.candidates(c).bits() & !may;
                    step.eliminations
                        .extend(DigitSet::from_bits(gone).iter().map(|x| (c, x)));
                }
            }
            if step.eliminations.is_empty() {
                continue;
            }
            if board.explaining() {
                let names: Vec<String> = hit.iter().map(|&i| unit_text(board, &units[i])).collect();
                step.reason = format!(
                    "in {}, each of {} must hold one of {}, so they hold all of them, one each",
                    house_name(board.geometry(), house),
                    names.join("; "),
                    set_text(DigitSet::from_bits(d))
                );
            }
            if board.explaining() {
                step.houses.push(house);
                step.cages = hit.iter().filter_map(|&i| units[i].cage).collect();
                step.cells = hit
                    .iter()
                    .flat_map(|&i| units[i].cells.iter().copied())
                    .collect();
            }
            out.push(step);
        }
    }
}

/// Killer pairs: two units of a house (one a cage at least) that must each hold one of two digits.
pub fn killer_pair(ctx: &mut Context, board: &Board, out: &mut Vec<Step>) {
    killer_subset(ctx, board, 2, out)
}

/// Killer triples: three units of a house that must each hold one of three digits.
pub fn killer_triple(ctx: &mut Context, board: &Board, out: &mut Vec<Step>) {
    killer_subset(ctx, board, 3, out)
}
