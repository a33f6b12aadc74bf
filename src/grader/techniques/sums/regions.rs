//! The rule-of-45 equations of a cage layout: the regions of whole houses (one house, runs of 2
//! to 4 rows or columns, two neighbouring boxes), each with its innies and outies for every choice
//! of the cages poking out, and the cage splits they imply.

use super::{inline_terms, Equation, Equations, Fx, Key, Kind, Region};
use super::{MAX_PARTIAL, MAX_TERMS, TERM_ROOM};
use crate::bitset::CellSet;
use crate::geometry::{Cell, House};
use crate::puzzle::Puzzle;
use std::collections::HashSet;
use std::hash::BuildHasherDefault;

impl Equations {
    /// The equations of one house.
    pub(crate) fn new(puzzle: &Puzzle, house_sets: &[CellSet], cage_sets: &[CellSet]) -> Self {
        let (list, regions) = derive_equations(puzzle, house_sets, cage_sets, false);
        let mut eqs = Equations {
            list,
            regions,
            by_technique: Default::default(),
            sets: Vec::new(),
            multi: puzzle.cages().is_empty(),
            algebra: Vec::new(),
            algebra_cells: Vec::new(),
            parents: Vec::new(),
            algebra_done: false,
        };
        eqs.index();
        eqs
    }

    /// Add the equations of several houses (once).
    pub(crate) fn add_multi(
        &mut self,
        puzzle: &Puzzle,
        house_sets: &[CellSet],
        cage_sets: &[CellSet],
    ) {
        if self.multi {
            return;
        }
        self.multi = true;
        let (list, regions) = derive_equations(puzzle, house_sets, cage_sets, true);
        let offset = self.regions.len() as u32;
        self.regions.extend(regions);
        self.list.extend(list.into_iter().map(|mut e| {
            e.region += offset;
            e
        }));
        self.index();
    }

    fn index(&mut self) {
        for list in &mut self.by_technique {
            list.clear();
        }
        self.sets = self
            .list
            .iter()
            .map(|e| e.terms().iter().map(|t| t.0).collect())
            .collect();
        for (i, e) in self.list.iter().enumerate() {
            let slots: &[usize] = match (e.houses, e.kind) {
                (1, Kind::Innies | Kind::Outies) => &[0, 1],
                (1, Kind::Split) => &[1],
                (1, Kind::Difference) => &[2],
                _ => &[3],
            };
            for &k in slots {
                self.by_technique[k].push(i as u32);
            }
        }
    }
}

fn key_of(terms: &[(Cell, i8)], total: i32) -> Key {
    let (mut plus, mut minus) = (CellSet::EMPTY, CellSet::EMPTY);
    for &(c, k) in terms {
        match k > 0 {
            true => plus.insert(c),
            false => minus.insert(c),
        }
    }
    (plus, minus, total)
}

/// Regions: single houses, then (with `multi`) runs of 2..4 adjacent rows and columns, and
/// pairs of regions that share an edge, each with its houses.
fn regions(puzzle: &Puzzle, house_sets: &[CellSet], multi: bool) -> Vec<(CellSet, Vec<House>)> {
    let g = puzzle.geometry();
    let n = g.size();
    let set = |h: usize| -> CellSet { house_sets[h] };
    let mut out: Vec<(CellSet, Vec<House>)> = (0..3 * n)
        .map(|h| (set(h), vec![House::new(h as u8)]))
        .collect();
    if !multi {
        return out;
    }
    for len in 2..=4.min(n.saturating_sub(1)) {
        for dir in 0..2 {
            for start in 0..=n - len {
                let houses: Vec<House> = (start..start + len)
                    .map(|i| House::new((dir * n + i) as u8))
                    .collect();
                let cells = houses
                    .iter()
                    .fold(CellSet::EMPTY, |a, h| a.union(&set(h.as_index())));
                out.push((cells, houses));
            }
        }
    }
    for a in 0..n {
        for b in a + 1..n {
            let (sa, sb) = (set(2 * n + a), set(2 * n + b));
            let touching = sa.iter().any(|c| g.neighbours(c).any(|x| sb.contains(x)));
            if touching {
                out.push((
                    sa.union(&sb),
                    vec![House::new((2 * n + a) as u8), House::new((2 * n + b) as u8)],
                ));
            }
        }
    }
    out
}

/// The rule-of-45 equations of the puzzle's layout, fewest houses and cells first, no repeats:
/// those of single houses (`multi` false), or those of several houses (`multi` true; the single
/// houses are derived again only to drop the repeats of their equations), with their regions.
pub(crate) fn derive_equations(
    puzzle: &Puzzle,
    house_sets: &[CellSet],
    cage_sets: &[CellSet],
    multi: bool,
) -> (Vec<Equation>, Vec<Region>) {
    if puzzle.cages().is_empty() {
        return (Vec::new(), Vec::new());
    }
    let n = puzzle.size() as i32;
    let house_total = n * (n + 1) / 2;
    let mut seen: HashSet<Key, BuildHasherDefault<Fx>> =
        HashSet::with_capacity_and_hasher(cage_sets.len() + 1024, Default::default());
    seen.extend(
        cage_sets
            .iter()
            .zip(puzzle.cages())
            .map(|(s, k)| (*s, CellSet::EMPTY, k.sum as i32)),
    );
    let mut out = Vec::with_capacity(512);
    let mut region_list = Vec::new();
    let mut terms: Vec<(Cell, i8)> = Vec::with_capacity(TERM_ROOM);
    for (region, houses) in regions(puzzle, house_sets, multi) {
        let mut inside = Vec::new();
        let mut partial = Vec::new();
        for (k, s) in cage_sets.iter().enumerate() {
            if s.intersects(&region) {
                match s.difference(&region).is_empty() {
                    true => inside.push(k),
                    false => partial.push(k),
                }
            }
        }
        let base_cells = inside
            .iter()
            .fold(CellSet::EMPTY, |a, &k| a.union(&cage_sets[k]));
        let base_sum: i32 = inside.iter().map(|&k| puzzle.cages()[k].sum as i32).sum();
        let all = match partial.len() {
            0 => 0,
            len => u64::MAX >> (64 - len.min(64)),
        };
        let (step, last) = match partial.len() <= MAX_PARTIAL {
            true => (1, all),
            false => (all, all),
        };
        // Cages are disjoint, so a choice's innies + outies count is the base innies plus, per
        // chosen cage, its cells outside minus its cells inside: sets only for the short ones.
        let base_innies = region.difference(&base_cells).len() as i32;
        let mut deltas = [0i32; 64];
        for (d, &k) in deltas.iter_mut().zip(&partial) {
            let out = cage_sets[k].difference(&region).len() as i32;
            *d = out - (cage_sets[k].len() as i32 - out);
        }
        let region_total = house_total * houses.len() as i32;
        let index = region_list.len() as u32;
        let nhouses = houses.len() as u8;
        // Every subset of the partial cages when there are few, else none or all of them.
        for choice in (0..=last).step_by(step as usize) {
            let mut count = base_innies;
            let mut bits = choice;
            while bits != 0 {
                count += deltas[bits.trailing_zeros() as usize];
                bits &= bits - 1;
            }
            if count <= 0 || count > MAX_TERMS as i32 {
                continue;
            }
            let mut cells = base_cells;
            let mut sum = base_sum;
            let mut bits = choice;
            while bits != 0 {
                let k = partial[bits.trailing_zeros() as usize];
                bits &= bits - 1;
                cells = cells.union(&cage_sets[k]);
                sum += puzzle.cages()[k].sum as i32;
            }
            let innies = region.difference(&cells);
            let outies = cells.difference(&region);
            // The equation's identity first: repeats are dropped before anything is built.
            let key = match (innies.is_empty(), outies.is_empty()) {
                (_, true) => (innies, CellSet::EMPTY, region_total - sum),
                (true, false) => (outies, CellSet::EMPTY, sum - region_total),
                (false, false) => (outies, innies, sum - region_total),
            };
            if !seen.insert(key) {
                continue;
            }
            terms.clear();
            let (kind, total) = if outies.is_empty() {
                terms.extend(innies.iter().map(|c| (c, 1)));
                (Kind::Innies, region_total - sum)
            } else if innies.is_empty() {
                terms.extend(outies.iter().map(|c| (c, 1)));
                (Kind::Outies, sum - region_total)
            } else {
                // Ascending by cell (the sets are disjoint): outies +1, innies -1.
                let both = outies.union(&innies);
                terms.extend(
                    both.iter()
                        .map(|c| (c, if outies.contains(c) { 1 } else { -1 })),
                );
                (Kind::Difference, sum - region_total)
            };
            let Some((inline, len)) = inline_terms(&terms) else {
                continue;
            };
            out.push(Equation {
                terms: inline,
                len,
                houses: nhouses,
                total,
                kind,
                region: index,
                chosen: choice,
                split: usize::MAX,
            });
        }
        region_list.push(Region {
            houses,
            inside,
            partial,
        });
    }
    // Cage splitting: a cage holding all the cells of a positive equation splits in two.
    let mut cage_of = vec![usize::MAX; puzzle.geometry().cell_count()];
    for (k, cage) in puzzle.cages().iter().enumerate() {
        for &c in &cage.cells {
            cage_of[c.as_index()] = k;
        }
    }
    let mut splits = Vec::new();
    for e in out.iter().filter(|e| e.terms().iter().all(|t| t.1 == 1)) {
        // Only the cage of the first cell can hold them all (cages are disjoint).
        let k = cage_of[e.terms()[0].0.as_index()];
        if k == usize::MAX || e.terms().iter().any(|t| cage_of[t.0.as_index()] != k) {
            continue;
        }
        let cells: CellSet = e.terms().iter().map(|t| t.0).collect();
        let s = &cage_sets[k];
        let rest = s.difference(&cells);
        if rest.is_empty() {
            continue;
        }
        let terms: Vec<(Cell, i8)> = rest.iter().map(|c| (c, 1)).collect();
        let total = puzzle.cages()[k].sum as i32 - e.total;
        let Some((inline, len)) = inline_terms(&terms) else {
            continue;
        };
        if seen.insert(key_of(&terms, total)) {
            splits.push(Equation {
                terms: inline,
                len,
                total,
                kind: Kind::Split,
                split: k,
                ..*e
            });
        }
    }
    out.extend(splits);
    if multi {
        out.retain(|e| e.houses > 1);
    }
    out.sort_by_key(|e| (e.houses, e.terms().len()));
    (out, region_list)
}
