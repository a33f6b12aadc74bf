//! Killer techniques over sets of cages and cells: subsets inside a cage, killer pairs and
//! triples in a house, house partitions (the cages and cells of a house share out its digits) and
//! the law of leftovers (lines against regions).
//!
//! Each finder pushes one step per instance it sees and proves only what its own reasoning gives;
//! instances are tried in a fixed order (house, cage and digit indices ascending).
//!
//! One file per family: `cage_subset` (subsets inside a cage), `killer_subset` (killer pairs and
//! triples), `partition` (house partitions) and `leftovers` (the law of leftovers). This file
//! holds what the killer subsets and the house partitions share: the units of a house.

mod cage_subset;
mod killer_subset;
mod leftovers;
mod partition;

pub use cage_subset::cage_subset;
pub use killer_subset::{killer_pair, killer_triple};
pub use leftovers::law_of_leftovers;
pub use partition::house_partition;

use super::cage_view::{CageView, Inline};
use crate::bitset::CellSet;
use crate::geometry::{Cell, House};
use crate::grader::state::Board;
use crate::grader::text::cells_text;

/// A unit of a house: a cage whose empty cells all lie in it (with its live combinations), or an
/// empty cell of the house outside such cages.
struct Unit {
    cells: Inline<Cell>,
    /// Live combinations for a cage unit, one single-digit mask per candidate for a cell: the
    /// range `combos.0..combos.1` of `Units::combos`.
    combos: (u32, u32),
    /// The digits every combination holds, and those some combination holds.
    must: u16,
    union: u16,
    cage: Option<usize>,
}

/// The units of a house, with their combinations in one buffer (reused from house to house, so
/// a look at the houses allocates once, not once per unit).
#[derive(Default)]
struct Units {
    list: Vec<Unit>,
    combos: Vec<u16>,
}

impl Units {
    /// The combinations of a unit.
    fn combos(&self, u: &Unit) -> &[u16] {
        &self.combos[u.combos.0 as usize..u.combos.1 as usize]
    }
    /// Must this unit hold at least one digit of `d`?
    fn hits(&self, u: &Unit, d: u16) -> bool {
        if u.union & d == 0 {
            return false;
        }
        if u.must & d != 0 {
            return true;
        }
        // A cell's combinations are its digits, one each: all of them must lie in `d`.
        if u.cage.is_none() {
            return u.union & !d == 0;
        }
        self.combos(u).iter().all(|&m| m & d != 0)
    }
}

/// The units of a house into `out`: its cages (two or more empty cells, all in the house) then
/// its other empty cells; `false` if a cage has no live combination (a broken board).
fn units(board: &Board, house: House, out: &mut Units) -> bool {
    let n = board.size();
    let inside = board.house_set(house);
    out.list.clear();
    out.combos.clear();
    let mut cages = Inline::new(0usize);
    for &c in board.house_cells(house) {
        if !board.is_empty(c) {
            continue;
        }
        let Some(k) = board.cage_of(c) else { continue };
        if cages.contains(&k) {
            continue;
        }
        cages.push(k);
        let Some(v) = CageView::of(board, k) else {
            continue;
        };
        if v.cells.len() < 2 || v.cells.iter().any(|&x| !inside.contains(x)) {
            continue;
        }
        let from = out.combos.len() as u32;
        v.live_into(n, &mut out.combos);
        let to = out.combos.len() as u32;
        if from == to {
            return false;
        }
        let combos = &out.combos[from as usize..];
        out.list.push(Unit {
            cells: v.cells,
            combos: (from, to),
            must: combos.iter().fold(u16::MAX, |a, &m| a & m),
            union: combos.iter().fold(0, |a, &m| a | m),
            cage: Some(k),
        });
    }
    let caged: CellSet = out
        .list
        .iter()
        .flat_map(|u| u.cells.iter().copied())
        .collect();
    for &c in board.house_cells(house) {
        if board.is_empty(c) && !caged.contains(c) {
            let from = out.combos.len() as u32;
            out.combos
                .extend(board.candidates(c).iter().map(|d| 1 << d.as_index()));
            let mut cells = Inline::new(c);
            cells.push(c);
            let bits = board.candidates(c).bits();
            out.list.push(Unit {
                cells,
                combos: (from, out.combos.len() as u32),
                must: if bits.count_ones() == 1 { bits } else { 0 },
                union: bits,
                cage: None,
            });
        }
    }
    true
}

fn unit_text(board: &Board, u: &Unit) -> String {
    match u.cage {
        Some(k) => CageView::of(board, k).map_or(String::new(), |v| v.name(board)),
        None => cells_text(board.geometry(), &u.cells),
    }
}
