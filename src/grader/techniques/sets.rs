//! Killer techniques over sets of cages and cells: subsets inside a cage, killer pairs and
//! triples in a house, house partitions (the cages and cells of a house share out its digits) and
//! the law of leftovers (lines against regions).
//!
//! Each finder pushes one step per instance it sees and proves only what its own reasoning gives;
//! instances are tried in a fixed order (house, cage and digit indices ascending).

use super::cages::{CageView, Inline};
use super::context::{Context, Memo};
use crate::bitset::{CellSet, DigitSet};
use crate::geometry::{Cell, Digit, House};
use crate::grader::state::Board;
use crate::grader::step::{Step, Technique};
use crate::grader::text::{cells_text, house_name, set_text};

/// Largest cage whose cell subsets are enumerated.
const MAX_SUBSET_CAGE: usize = 10;
/// Largest subset looked for inside a cage.
const MAX_CAGE_SUBSET: usize = 4;
/// Search nodes a house partition may spend.
const PARTITION_NODES: usize = 20_000;
/// Largest leftover set (each side) the law of leftovers uses.
const MAX_LEFTOVER: usize = 6;

fn bits_of(cells: &[Cell], mask: u32) -> impl Iterator<Item = Cell> + '_ {
    cells
        .iter()
        .enumerate()
        .filter(move |(i, _)| mask & (1 << i) != 0)
        .map(|(_, &c)| c)
}

/// Do all these cells share a row, column or region?
fn share_a_house(board: &Board, cells: &[Cell]) -> bool {
    let g = board.geometry();
    let Some(&first) = cells.first() else {
        return true;
    };
    let same = |f: &dyn Fn(Cell) -> usize| cells.iter().all(|&c| f(c) == f(first));
    same(&|c| g.row(c)) || same(&|c| g.col(c)) || same(&|c| g.region(c))
}

/// Subsets inside a cage. Naked: s cells of a cage whose candidates together are s digits hold
/// them, so the cage's other cells and every cell seeing all s lose them (only when the s cells
/// share no house: otherwise it is a plain naked subset). Hidden: s digits every combination of
/// the cage needs, with places in just s cells of the cage, fill those cells.
pub fn cage_subset(ctx: &mut Context, board: &Board, out: &mut Vec<Step>) {
    let n = board.size();
    // What a cage yields depends on its own cells; the cells a naked subset clears outside it
    // only lose candidates, so a cage that yielded nothing yields nothing while it is unchanged.
    for k in 0..board.cages().len() {
        if ctx.unchanged_cage(board, Memo::CageSubset, k) {
            continue;
        }
        let Some(v) = CageView::of(board, k) else {
            continue;
        };
        let len = v.cells.len();
        if !(2..=MAX_SUBSET_CAGE).contains(&len) {
            continue;
        }
        if let Some(step) = naked_in_cage(ctx, board, &v) {
            out.push(step);
            continue;
        }
        match hidden_in_cage(board, &v, n) {
            Some(step) => out.push(step),
            None => ctx.remember(board, Memo::CageSubset, k),
        }
    }
}

fn naked_in_cage(ctx: &Context, board: &Board, v: &CageView) -> Option<Step> {
    let len = v.cells.len();
    for size in 2..=MAX_CAGE_SUBSET.min(len - 1) {
        for mask in 1u32..1 << len {
            if mask.count_ones() as usize != size {
                continue;
            }
            let union = (0..len)
                .filter(|i| mask & (1 << i) != 0)
                .fold(0u16, |a, i| a | v.cands[i]);
            if union.count_ones() as usize != size {
                continue;
            }
            let cells: Vec<Cell> = bits_of(&v.cells, mask).collect();
            if share_a_house(board, &cells) {
                continue;
            }
            let mut targets = ctx.seen_by_all(cells.iter().copied());
            for (i, &c) in v.cells.iter().enumerate() {
                if mask & (1 << i) == 0 {
                    targets.insert(c);
                }
            }
            let mut step = Step::new(Technique::CageSubset);
            for x in targets.iter().filter(|&x| board.is_empty(x)) {
                let gone = board.candidates(x).bits() & union;
                step.eliminations
                    .extend(DigitSet::from_bits(gone).iter().map(|d| (x, d)));
            }
            if step.eliminations.is_empty() {
                continue;
            }
            if board.explaining() {
                step.reason = format!(
                    "in {}, the cells {} hold only {} between them, so they hold those digits",
                    v.name(board),
                    cells_text(board.geometry(), &cells),
                    set_text(DigitSet::from_bits(union))
                );
            }
            step.cells = cells;
            step.cages.push(v.index);
            return Some(step);
        }
    }
    None
}

fn hidden_in_cage(board: &Board, v: &CageView, n: usize) -> Option<Step> {
    let len = v.cells.len();
    let live = v.live(n);
    let must = live.iter().copied().reduce(|a, b| a & b)?;
    let musts: Vec<u16> = DigitSet::from_bits(must)
        .iter()
        .map(|d| 1 << d.as_index())
        .collect();
    // Places (as a mask over the cage's cells) of each required digit.
    let places = |bit: u16| -> u32 {
        (0..len)
            .filter(|&i| v.cands[i] & bit != 0)
            .fold(0, |a, i| a | 1 << i)
    };
    for size in 1..=MAX_CAGE_SUBSET.min(len - 1).min(musts.len()) {
        for pick in 1u32..1 << musts.len() {
            if pick.count_ones() as usize != size {
                continue;
            }
            let digits = (0..musts.len())
                .filter(|i| pick & (1 << i) != 0)
                .fold(0u16, |a, i| a | musts[i]);
            let spots = (0..musts.len())
                .filter(|i| pick & (1 << i) != 0)
                .fold(0u32, |a, i| a | places(musts[i]));
            if spots.count_ones() as usize != size {
                continue;
            }
            let mut step = Step::new(Technique::CageSubset);
            for (i, &c) in v.cells.iter().enumerate() {
                if spots & (1 << i) == 0 {
                    continue;
                }
                let gone = v.cands[i] & !digits;
                if size == 1 && gone != 0 {
                    step.placements
                        .push((c, Digit::new(digits.trailing_zeros() as u8 + 1)));
                } else {
                    step.eliminations
                        .extend(DigitSet::from_bits(gone).iter().map(|d| (c, d)));
                }
            }
            if !step.is_progress() {
                continue;
            }
            let cells: Vec<Cell> = bits_of(&v.cells, spots).collect();
            if board.explaining() {
                step.reason = format!(
                    "every combination of {} needs {}, and inside the cage they fit only in {}",
                    v.name(board),
                    set_text(DigitSet::from_bits(digits)),
                    cells_text(board.geometry(), &cells)
                );
            }
            step.cells = cells;
            step.cages.push(v.index);
            return Some(step);
        }
    }
    None
}

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

/// The search of a house partition: pick one combination per cage unit, no digit twice, and
/// leave digits the free cells can take one each.
struct Partition<'a> {
    /// The combinations of each cage unit.
    cages: Vec<&'a [u16]>,
    free: Vec<u16>,
    /// Per cage unit, the combinations some partition uses (bit per combination index).
    used: Vec<u32>,
    /// Union of the digits the free cells take in some partition.
    free_digits: u16,
    picks: Vec<usize>,
    nodes: usize,
}

impl Partition<'_> {
    fn go(&mut self, i: usize, left: u16) {
        self.nodes += 1;
        if self.nodes > PARTITION_NODES {
            return;
        }
        if i == self.cages.len() {
            if matches(&self.free, left) {
                for (j, &p) in self.picks.iter().enumerate() {
                    self.used[j] |= 1 << p;
                }
                self.free_digits |= left;
            }
            return;
        }
        for p in 0..self.cages[i].len() {
            let m = self.cages[i][p];
            if m & !left == 0 {
                self.picks[i] = p;
                self.go(i + 1, left & !m);
            }
        }
    }
}

/// Can the cells (candidate masks) take the digits of `left` one each (as many cells as digits)?
/// A bipartite matching by augmenting paths (Kuhn): polynomial, where trying every assignment
/// was exponential on 16x16 houses with many free cells and no matching.
fn matches(cells: &[u16], left: u16) -> bool {
    /// Finds a digit for cell `i`, moving earlier cells to other digits of theirs if need be.
    fn augment(
        cells: &[u16],
        left: u16,
        i: usize,
        owner: &mut [usize; 16],
        seen: &mut u16,
    ) -> bool {
        let mut opts = cells[i] & left & !*seen;
        while opts != 0 {
            let d = opts.trailing_zeros() as usize;
            opts &= opts - 1;
            *seen |= 1 << d;
            if owner[d] == usize::MAX || augment(cells, left, owner[d], owner, seen) {
                owner[d] = i;
                return true;
            }
        }
        false
    }
    if cells.len() != left.count_ones() as usize {
        return false;
    }
    let mut owner = [usize::MAX; 16];
    (0..cells.len()).all(|i| augment(cells, left, i, &mut owner, &mut 0))
}

/// House partition: the cages lying in a house and its other empty cells share out the digits the
/// house lacks, each once. A combination of a cage that no such sharing uses dies; a free cell
/// keeps only digits some sharing leaves it.
pub fn house_partition(ctx: &mut Context, board: &Board, out: &mut Vec<Step>) {
    let n = board.size();
    let mut units = Units::default();
    for h in 0..board.geometry().house_count() {
        let house = House::new(h as u8);
        if ctx.unchanged_house(board, Memo::HousePartition, h) {
            continue;
        }
        let before = out.len();
        partition_in(board, house, n, &mut units, out);
        if out.len() == before {
            ctx.remember(board, Memo::HousePartition, h);
        }
    }
}

fn partition_in(board: &Board, house: House, n: usize, scratch: &mut Units, out: &mut Vec<Step>) {
    {
        if !units(board, house, scratch) {
            return;
        }
        let scratch = &*scratch;
        let units = &scratch.list;
        let cages: Vec<&Unit> = units.iter().filter(|u| u.cage.is_some()).collect();
        if cages.is_empty()
            || (cages.len() < 2 && units.len() - cages.len() < 2)
            || cages.iter().any(|u| scratch.combos(u).len() > 32)
        {
            return;
        }
        let free_units: Vec<&Unit> = units.iter().filter(|u| u.cage.is_none()).collect();
        let missing = DigitSet::all(n).difference(board.placed_in(house)).bits();
        let mut search = Partition {
            used: vec![0; cages.len()],
            picks: vec![0; cages.len()],
            free: free_units
                .iter()
                .map(|u| scratch.combos(u).iter().fold(0, |a, &m| a | m))
                .collect(),
            cages: cages.iter().map(|u| scratch.combos(u)).collect(),
            free_digits: 0,
            nodes: 0,
        };
        search.go(0, missing);
        if search.nodes > PARTITION_NODES || search.used.contains(&0) {
            return;
        }
        let mut step = Step::new(Technique::HousePartition);
        let mut dead = Vec::new();
        for (j, (u, combos)) in cages.iter().zip(&search.cages).enumerate() {
            let may = combos
                .iter()
                .enumerate()
                .filter(|&(p, _)| search.used[j] & (1 << p) != 0)
                .fold(0u16, |a, (_, &m)| a | m);
            for (p, &m) in combos.iter().enumerate() {
                if search.used[j] & (1 << p) == 0 {
                    dead.push(set_text(DigitSet::from_bits(m)));
                }
            }
            for &c in u.cells.iter() {
                let gone = board.candidates(c).bits() & !may;
                step.eliminations
                    .extend(DigitSet::from_bits(gone).iter().map(|x| (c, x)));
            }
        }
        for u in &free_units {
            let c = u.cells[0];
            let gone = board.candidates(c).bits() & !search.free_digits;
            step.eliminations
                .extend(DigitSet::from_bits(gone).iter().map(|x| (c, x)));
        }
        if step.eliminations.is_empty() {
            return;
        }
        if board.explaining() {
            let names: Vec<String> = cages.iter().map(|u| unit_text(board, u)).collect();
            step.reason = format!(
                "the cages {} and the other cells of {} share out its digits once each{}",
                names.join(", "),
                house_name(board.geometry(), house),
                match dead.is_empty() {
                    true => String::new(),
                    false => format!(", which rules out {}", dead.join(", ")),
                }
            );
        }
        step.houses.push(house);
        step.cages = cages.iter().filter_map(|u| u.cage).collect();
        step.cells = units.iter().flat_map(|u| u.cells.iter().copied()).collect();
        out.push(step);
    }
}

/// Law of leftovers: k adjacent rows (or columns) and the k regions overlapping them most each
/// hold every digit k times, so the cells of the lines outside the regions hold the same digits
/// (as a multiset) as the cells of the regions outside the lines. A candidate of one side that
/// the other side cannot match that often goes.
pub fn law_of_leftovers(_ctx: &mut Context, board: &Board, out: &mut Vec<Step>) {
    let g = board.geometry();
    let n = board.size();
    for dir in 0..2 {
        for k in 1..n {
            for start in 0..=n - k {
                let lines: Vec<House> = (start..start + k)
                    .map(|i| House::new((dir * n + i) as u8))
                    .collect();
                let set = lines
                    .iter()
                    .fold(CellSet::EMPTY, |a, &h| a.union(board.house_set(h)));
                // The k regions with the largest overlap (lowest index first on ties).
                let mut regions: Vec<(usize, usize)> = (0..n)
                    .map(|r| {
                        let h = House::new((2 * n + r) as u8);
                        (board.house_set(h).intersection(&set).len(), r)
                    })
                    .collect();
                regions.sort_by_key(|&(overlap, r)| (std::cmp::Reverse(overlap), r));
                let chosen: Vec<House> = regions[..k]
                    .iter()
                    .map(|&(_, r)| House::new((2 * n + r) as u8))
                    .collect();
                let other = chosen
                    .iter()
                    .fold(CellSet::EMPTY, |a, &h| a.union(board.house_set(h)));
                let left: Vec<Cell> = set.difference(&other).iter().collect();
                let right: Vec<Cell> = other.difference(&set).iter().collect();
                if left.is_empty() || left.len() > MAX_LEFTOVER {
                    continue;
                }
                let mut step = Step::new(Technique::LawOfLeftovers);
                leftover_eliminations(board, &left, &right, &mut step);
                leftover_eliminations(board, &right, &left, &mut step);
                if step.eliminations.is_empty() {
                    continue;
                }
                if board.explaining() {
                    let names: Vec<String> = lines
                        .iter()
                        .chain(&chosen)
                        .map(|&h| house_name(g, h))
                        .collect();
                    step.reason = format!(
                        "{} hold each digit {k} times over, so the leftovers {} hold the same digits as {}",
                        names.join(", "),
                        cells_text(g, &left),
                        cells_text(g, &right)
                    );
                }
                step.houses = lines.iter().chain(&chosen).copied().collect();
                step.cells = left.iter().chain(&right).copied().collect();
                out.push(step);
            }
        }
    }
}

/// A candidate d of an empty cell of `from` goes when `to` cannot hold d as often as `from` would
/// (its placed d's plus its empty cells with candidate d).
fn leftover_eliminations(board: &Board, from: &[Cell], to: &[Cell], step: &mut Step) {
    let count = |cells: &[Cell], d: Digit| -> (usize, usize) {
        let placed = cells
            .iter()
            .filter(|&&c| board.placed(c) == Some(d))
            .count();
        let open = cells
            .iter()
            .filter(|&&c| board.is_empty(c) && board.candidates(c).contains(d))
            .count();
        (placed, open)
    };
    for &c in from.iter().filter(|&&c| board.is_empty(c)) {
        for d in board.candidates(c).iter() {
            let (placed_from, _) = count(from, d);
            let (placed_to, open_to) = count(to, d);
            if placed_from + 1 > placed_to + open_to {
                step.eliminations.push((c, d));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::matches;
    use rand::{Rng, SeedableRng};

    /// Every assignment tried: the obvious answer the matching must agree with.
    fn brute(cells: &[u16], left: u16) -> bool {
        match cells.split_first() {
            None => left == 0,
            Some((&c, rest)) => (0..16)
                .filter(|d| c & left & (1 << d) != 0)
                .any(|d| brute(rest, left & !(1 << d))),
        }
    }

    #[test]
    fn matching_agrees_with_trying_every_assignment() {
        let mut rng = rand_pcg::Pcg64::seed_from_u64(45);
        let mut both = [0usize; 2];
        for _ in 0..20_000 {
            let n = rng.random_range(0..=7usize);
            let width = rng.random_range(n.max(1) as u32..=9u32);
            let all = (1u16 << width) - 1;
            let cells: Vec<u16> = (0..n).map(|_| rng.random::<u16>() & all).collect();
            let mut left = 0u16;
            while (left.count_ones() as usize) < n {
                left |= 1 << rng.random_range(0..width);
            }
            let expected = brute(&cells, left);
            both[expected as usize] += 1;
            assert_eq!(matches(&cells, left), expected, "{cells:?} {left:#b}");
        }
        // Both answers occur often, so the comparison means something.
        assert!(both[0] > 1_000 && both[1] > 1_000, "{both:?}");
    }
}
