//! The rule of 45 as equations: over a region of whole houses (one house, 2 to 4 adjacent rows or
//! columns, two neighbouring boxes) the digits total `houses x N(N+1)/2`. Taking the cages inside
//! the region, and any choice of the cages that poke out of it, leaves innie cells (in the region,
//! not covered) and outie cells (covered, outside): `outies - innies = cage sums - region total`.
//! A cage that holds a set of innies splits into that set and the rest (cage splitting).
//!
//! The equations depend only on the layout, so they are derived once per puzzle; a finder
//! evaluates those whose unknown cells changed, enumerating the assignments the candidates allow
//! (cells that share a house or cage differ) and removing every digit no assignment uses.

use super::context::{Context, Memo};
use crate::bitset::{CellSet, DigitSet};
use crate::geometry::{Cell, Digit, House};
use crate::grader::state::Board;
use crate::grader::step::{Step, Technique};
use crate::grader::text::{cage_text, house_name, signed_sum_text};
use crate::puzzle::Puzzle;
use std::collections::HashSet;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::Arc;

/// Largest equation kept (cells with a coefficient).
const MAX_TERMS: usize = 6;
/// Largest number of unknown cells enumerated.
const MAX_UNKNOWN: usize = 5;
/// Enumeration budget per evaluation (search nodes).
const MAX_NODES: usize = 20_000;
/// At most this many cages poking out of a region are combined (2^this choices).
const MAX_PARTIAL: usize = 5;
/// Largest sum-algebra equation kept (cells with a coefficient).
const MAX_ALGEBRA_TERMS: usize = 8;
/// At most this many sum-algebra equations per puzzle.
const MAX_ALGEBRA: usize = 4_000;

/// How an equation came about, for its technique and its words.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    /// Cells inside the region left over by the cages inside: their sum is known.
    Innies,
    /// Cells outside the region of the cages covering it: their sum is known.
    Outies,
    /// Outies minus innies is known.
    Difference,
    /// The rest of a cage that holds a set of innies or outies.
    Split,
    /// The sum or difference of two equations (or of an equation and a cage), sum algebra.
    Algebra,
}

/// Most cells an equation holds (a split cage's rest: a cage has at most N <= 16 cells).
const TERM_ROOM: usize = 16;

/// A region of whole houses with the cages inside it and those poking out of it (shared by the
/// region's equations).
#[derive(Clone, Debug)]
pub(crate) struct Region {
    pub(crate) houses: Vec<House>,
    inside: Vec<usize>,
    partial: Vec<usize>,
}

/// `sum(coef * cell) = total` over a few cells. Kept without heap parts of its own (a puzzle
/// derives hundreds): terms inline, the region's houses and cages in `Equations::regions`.
#[derive(Clone, Debug)]
pub(crate) struct Equation {
    /// Cells with coefficient +1 or -1, ascending by cell (the first `len`).
    terms: [(Cell, i8); TERM_ROOM],
    len: u8,
    /// Houses in the region.
    houses: u8,
    pub(crate) total: i32,
    pub(crate) kind: Kind,
    /// The region (index into `Equations::regions`); `chosen` says which of its partial cages
    /// are used.
    region: u32,
    chosen: u64,
    /// The cage split by a `Split` equation (`usize::MAX` otherwise).
    split: usize,
}

impl Equation {
    /// The cells with their coefficients.
    pub(crate) fn terms(&self) -> &[(Cell, i8)] {
        &self.terms[..self.len as usize]
    }
    /// Cages used.
    fn cages(&self, regions: &[Region]) -> Vec<usize> {
        let r = &regions[self.region as usize];
        let mut cages = r.inside.clone();
        cages.extend(
            r.partial
                .iter()
                .enumerate()
                .filter(|&(i, _)| self.chosen & (1 << i) != 0)
                .map(|(_, &k)| k),
        );
        if self.split != usize::MAX {
            cages.push(self.split);
        }
        cages
    }
}

/// The rule-of-45 equations of a layout, with the lists each technique walks. Those of one house
/// are derived with the context; those of several houses only when a finder first needs them
/// (most puzzles are solved before).
#[derive(Clone, Debug, Default)]
pub(crate) struct Equations {
    pub(crate) list: Vec<Equation>,
    regions: Vec<Region>,
    /// Indices into `list` per technique, in `list` order (see `slot`).
    by_technique: [Vec<u32>; 4],
    /// The cells of each `list` equation, as a set.
    sets: Vec<CellSet>,
    /// Are the equations of several houses in `list`?
    multi: bool,
    /// Sum algebra: sums and differences of two equations (or of an equation and a cage) that
    /// cancel the cells they share, derived when the finder first runs.
    pub(crate) algebra: Vec<Equation>,
    /// The cells of each `algebra` equation, as a set.
    algebra_cells: Vec<CellSet>,
    /// The two parents of each `algebra` equation and the sign the second was added with.
    parents: Vec<(Source, Source, i8)>,
    /// Is `algebra` derived?
    algebra_done: bool,
}

/// What a sum-algebra equation was combined from.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Source {
    /// An equation of `Equations::list`.
    Equation(u32),
    /// A cage of the puzzle: its cells total its sum.
    Cage(u32),
}

/// An equation as sets: its + cells, its - cells, its total.
#[derive(Copy, Clone, Debug)]
struct Signed {
    plus: CellSet,
    minus: CellSet,
    total: i32,
}

impl Signed {
    /// The key of the equation or of its negation, whichever puts the lowest cell first (an
    /// equation and its negation say the same).
    fn key(&self) -> Key {
        let first = |s: &CellSet| s.iter().next().map_or(usize::MAX, |c| c.as_index());
        match first(&self.minus) < first(&self.plus) {
            true => (self.minus, self.plus, -self.total),
            false => (self.plus, self.minus, self.total),
        }
    }
    fn cells(&self) -> CellSet {
        self.plus.union(&self.minus)
    }
    /// `self + sign * other` when that cancels every cell they share (`None` otherwise).
    fn combine(&self, other: &Signed, sign: i8) -> Option<Signed> {
        let shared = self.cells().intersection(&other.cells());
        let (oplus, ominus) = match sign > 0 {
            true => (other.plus, other.minus),
            false => (other.minus, other.plus),
        };
        // Shared cells must carry opposite coefficients to cancel.
        let cancel = self
            .plus
            .intersection(&ominus)
            .union(&self.minus.intersection(&oplus));
        if cancel != shared {
            return None;
        }
        Some(Signed {
            plus: self.plus.union(&oplus).difference(&shared),
            minus: self.minus.union(&ominus).difference(&shared),
            total: self.total + sign as i32 * other.total,
        })
    }
}

/// The list a technique walks.
fn slot(technique: Technique) -> Option<usize> {
    match technique {
        Technique::SingleInnieOutie => Some(0),
        Technique::MultiInnieOutie => Some(1),
        Technique::InnieOutieDifference => Some(2),
        Technique::MultiHouseInnieOutie => Some(3),
        _ => None,
    }
}

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

    /// Are the equations of several houses derived?
    pub(crate) fn has_multi(&self) -> bool {
        self.multi
    }

    /// Is sum algebra derived?
    pub(crate) fn has_algebra(&self) -> bool {
        self.algebra_done
    }

    /// Derive the sum-algebra equations (once; after `add_multi`): every pair of an equation
    /// and another equation or a cage that share cells, added or subtracted so that the shared
    /// cells cancel, when the result is small and new (not a cage, a derived equation or an
    /// earlier combination). The sum of two true equations is true, so they are sound.
    pub(crate) fn add_algebra(&mut self, puzzle: &Puzzle, cage_sets: &[CellSet]) {
        if self.algebra_done {
            return;
        }
        self.algebra_done = true;
        let as_signed = |e: &Equation| {
            let (mut plus, mut minus) = (CellSet::EMPTY, CellSet::EMPTY);
            for &(c, k) in e.terms() {
                match k > 0 {
                    true => plus.insert(c),
                    false => minus.insert(c),
                }
            }
            Signed {
                plus,
                minus,
                total: e.total,
            }
        };
        let mut sources: Vec<(Signed, Source)> = self
            .list
            .iter()
            .enumerate()
            .map(|(i, e)| (as_signed(e), Source::Equation(i as u32)))
            .collect();
        sources.extend(
            cage_sets
                .iter()
                .zip(puzzle.cages())
                .enumerate()
                .map(|(k, (set, cage))| {
                    let eq = Signed {
                        plus: *set,
                        minus: CellSet::EMPTY,
                        total: cage.sum as i32,
                    };
                    (eq, Source::Cage(k as u32))
                }),
        );
        let mut seen: HashSet<Key, BuildHasherDefault<Fx>> =
            sources.iter().map(|(e, _)| e.key()).collect();
        let mut at: Vec<Vec<u32>> = vec![Vec::new(); puzzle.geometry().cell_count()];
        for (i, (e, _)) in sources.iter().enumerate() {
            for c in e.cells().iter() {
                at[c.as_index()].push(i as u32);
            }
        }
        let mut found: Vec<(Signed, Source, Source, i8)> = Vec::new();
        'cells: for (cell, here) in at.iter().enumerate() {
            for (x, &a) in here.iter().enumerate() {
                for &b in &here[x + 1..] {
                    let (ea, sa) = &sources[a as usize];
                    let (eb, sb) = &sources[b as usize];
                    let shared = ea.cells().intersection(&eb.cells());
                    // Each pair once: at the first cell the two share.
                    if shared.iter().next().map(|c| c.as_index()) != Some(cell) {
                        continue;
                    }
                    let sign = match ea.plus.contains(Cell::new(cell as u8))
                        == eb.plus.contains(Cell::new(cell as u8))
                    {
                        true => -1,
                        false => 1,
                    };
                    let Some(r) = ea.combine(eb, sign) else {
                        continue;
                    };
                    let len = r.plus.len() + r.minus.len();
                    if len == 0 || len > MAX_ALGEBRA_TERMS || !seen.insert(r.key()) {
                        continue;
                    }
                    found.push((r, *sa, *sb, sign));
                    if found.len() == MAX_ALGEBRA {
                        break 'cells;
                    }
                }
            }
        }
        // Fewest cells first (the order is the search order, so the easiest step is found
        // first); ties keep the derivation order.
        found.sort_by_key(|(r, ..)| r.plus.len() + r.minus.len());
        for (mut r, a, b, sign) in found {
            // Written with more + cells than - cells ("a + b - c = 5", not "c - a - b = -5").
            if r.minus.len() > r.plus.len() {
                r = Signed {
                    plus: r.minus,
                    minus: r.plus,
                    total: -r.total,
                };
            }
            let mut terms: Vec<(Cell, i8)> = r.plus.iter().map(|c| (c, 1)).collect();
            terms.extend(r.minus.iter().map(|c| (c, -1)));
            terms.sort();
            let Some((inline, len)) = inline_terms(&terms) else {
                continue;
            };
            self.algebra_cells.push(r.plus.union(&r.minus));
            self.algebra.push(Equation {
                terms: inline,
                len,
                houses: 0,
                total: r.total,
                kind: Kind::Algebra,
                region: u32::MAX,
                chosen: 0,
                split: usize::MAX,
            });
            self.parents.push((a, b, sign));
        }
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

    /// The houses of an equation's region.
    pub(crate) fn houses(&self, e: &Equation) -> &[House] {
        &self.regions[e.region as usize].houses
    }
}

/// Terms into the inline array (`None` when they do not fit).
fn inline_terms(terms: &[(Cell, i8)]) -> Option<([(Cell, i8); TERM_ROOM], u8)> {
    if terms.len() > TERM_ROOM {
        return None;
    }
    let mut out = [(Cell::new(0), 0i8); TERM_ROOM];
    out[..terms.len()].copy_from_slice(terms);
    Some((out, terms.len() as u8))
}

/// An equation's identity: its + cells, its - cells, its total.
type Key = (CellSet, CellSet, i32);

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

/// A small multiplicative hasher for the keys (they are not attacker-controlled).
#[derive(Default)]
struct Fx(u64);

impl Hasher for Fx {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut word = [0u8; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            self.write_u64(u64::from_le_bytes(word));
        }
    }
    fn write_u64(&mut self, v: u64) {
        self.0 = (self.0.rotate_left(5) ^ v).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
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
                terms.extend(outies.iter().map(|c| (c, 1)));
                terms.extend(innies.iter().map(|c| (c, -1)));
                terms.sort();
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

/// Which technique an equation with `unknown` empty cells is, in the ladder's terms.
pub(crate) fn technique_of(e: &Equation, unknown: usize) -> Technique {
    match (e.houses, e.kind) {
        (_, Kind::Algebra) => Technique::SumAlgebra,
        (1, Kind::Innies | Kind::Outies) if unknown == 1 => Technique::SingleInnieOutie,
        (1, Kind::Innies | Kind::Outies | Kind::Split) => Technique::MultiInnieOutie,
        (1, Kind::Difference) => Technique::InnieOutieDifference,
        _ => Technique::MultiHouseInnieOutie,
    }
}

/// What an evaluation found: per unknown cell, the digits some assignment gives it.
struct Solutions {
    cells: [Cell; MAX_UNKNOWN],
    keep: [u16; MAX_UNKNOWN],
    len: usize,
}

/// Assignments an equation's last evaluation found (each satisfies it), kept so that a later look
/// can see whether they still vouch for every candidate: candidates only shrink, so an assignment
/// whose digits are all still candidates (or placed) still satisfies the equation, and when
/// such assignments give every candidate of every empty cell, the search would remove nothing.
#[derive(Debug, Default)]
pub(crate) struct Witnesses {
    /// The equation's empty cells at that evaluation.
    cells: [Option<Cell>; MAX_UNKNOWN],
    /// One digit per cell of `cells`, per assignment.
    values: Vec<[u8; MAX_UNKNOWN]>,
}

impl Clone for Witnesses {
    fn clone(&self) -> Self {
        Witnesses {
            cells: self.cells,
            values: self.values.clone(),
        }
    }
    /// Reuses the assignments' memory (trials copy a context again and again).
    fn clone_from(&mut self, other: &Self) {
        self.cells = other.cells;
        self.values.clone_from(&other.values);
    }
}

/// Does a witness's digit `v` for cell `c` still hold: placed there, or still a candidate?
fn still_holds(board: &Board, c: Cell, v: u8) -> bool {
    match board.placed(c) {
        Some(d) => d.get() == v,
        None => cands_of(board, c) & (1 << (v - 1)) != 0,
    }
}

/// Enumerate the assignments of the equation's empty cells (`None` if too many cells or nodes);
/// the assignments found go to `seen`.
fn evaluate(board: &Board, e: &Equation, seen: &mut Witnesses) -> Option<Solutions> {
    let mut total = e.total;
    let mut cells = [Cell::new(0); MAX_UNKNOWN];
    let mut coefs = [0i32; MAX_UNKNOWN];
    let mut u = 0;
    for &(c, k) in e.terms() {
        match board.placed(c) {
            Some(d) => total -= k as i32 * d.get() as i32,
            None => {
                if u == MAX_UNKNOWN {
                    return None;
                }
                cells[u] = c;
                coefs[u] = k as i32;
                u += 1;
            }
        }
    }
    if u == 0 {
        return None;
    }
    let mut cands = [0u16; MAX_UNKNOWN];
    for (c, &cell) in cands.iter_mut().zip(&cells[..u]) {
        *c = board.candidates(cell).bits();
    }
    // The last evaluation's assignments that still hold, renumbered to today's cells: they stay
    // as witnesses, and when the search cannot run out of nodes (so it would find every digit
    // they give anyway) their digits need no search of their own.
    let mut carried = [[0u8; MAX_UNKNOWN]; MAX_CARRIED];
    let mut ncarried = 0;
    for values in &seen.values {
        if ncarried == MAX_CARRIED {
            break;
        }
        let mut now = [0u8; MAX_UNKNOWN];
        let mut valid = true;
        for (k, c) in seen.cells.iter().enumerate() {
            let Some(c) = *c else { break };
            let v = values[k];
            valid &= still_holds(board, c, v);
            if board.is_empty(c) {
                match cells[..u].iter().position(|&x| x == c) {
                    Some(p) => now[p] = v,
                    None => valid = false,
                }
            }
            if !valid {
                break;
            }
        }
        if valid && now[..u].iter().all(|&v| v != 0) {
            carried[ncarried] = now;
            ncarried += 1;
        }
    }
    let mut seed = [0u16; MAX_UNKNOWN];
    for values in &carried[..ncarried] {
        for (k, &v) in values[..u].iter().enumerate() {
            seed[k] |= 1 << (v - 1);
        }
    }
    if (0..u).all(|k| cands[k] & !seed[k] == 0) {
        // Assignments that still hold give every candidate: the search would remove nothing
        // (nor would a run out of nodes), and the witnesses stay as they are.
        return None;
    }
    // Which cells see which (a house or a cage in common), as bit masks over the cells.
    let mut sees = [0u16; MAX_UNKNOWN];
    for (i, &a) in cells[..u].iter().enumerate() {
        for (j, &b) in cells[..u].iter().enumerate() {
            if board.sees(a, b) {
                sees[i] |= 1 << j;
            }
        }
    }
    // Each candidate of each cell is tested by a search for one assignment that gives it (the
    // assignment found also vouches for the digits it gives the other cells), instead of
    // listing every assignment: far fewer nodes when most candidates survive. The search takes
    // the cell under test first, then the others fewest candidates first.
    let mut by_size = [0usize; MAX_UNKNOWN];
    for (i, slot) in by_size[..u].iter_mut().enumerate() {
        *slot = i;
    }
    by_size[..u].sort_by_key(|&i| (cands[i].count_ones(), i));
    let mut search = Search {
        cands: [0; MAX_UNKNOWN],
        sees: [0; MAX_UNKNOWN],
        coefs: [0; MAX_UNKNOWN],
        len: u,
        suffix: [(0, 0); MAX_UNKNOWN + 1],
        values: [0; MAX_UNKNOWN],
        nodes: 0,
    };
    seen.values.clear();
    seen.values.extend_from_slice(&carried[..ncarried]);
    seen.cells = [None; MAX_UNKNOWN];
    for (slot, &c) in seen.cells.iter_mut().zip(&cells[..u]) {
        *slot = Some(c);
    }
    // The searches, from digits already known to be possible (`None`: out of nodes).
    let mut run =
        |mut keep: [u16; MAX_UNKNOWN], seen: &mut Witnesses| -> Option<[u16; MAX_UNKNOWN]> {
            search.nodes = 0;
            for i in 0..u {
                // A cell with one candidate needs no search of its own: the others' assignments give it,
                // and when there are none every cell is left without a digit anyway.
                if cands[i].count_ones() == 1 && u > 1 {
                    continue;
                }
                let mut todo = cands[i] & !keep[i];
                if todo == 0 {
                    continue;
                }
                // Search position p holds cell order[p]; `sees` is renumbered to positions.
                let mut order = [i; MAX_UNKNOWN];
                for (p, &j) in (1..).zip(by_size[..u].iter().filter(|&&j| j != i)) {
                    order[p] = j;
                }
                let mut at = [0usize; MAX_UNKNOWN];
                for (p, &j) in order[..u].iter().enumerate() {
                    at[j] = p;
                }
                for (p, &j) in order[..u].iter().enumerate() {
                    search.coefs[p] = coefs[j];
                    let mut bits = sees[j];
                    let mut renumbered = 0u16;
                    while bits != 0 {
                        let k = bits.trailing_zeros() as usize;
                        bits &= bits - 1;
                        renumbered |= 1 << at[k];
                    }
                    search.sees[p] = renumbered;
                }
                while todo != 0 {
                    let bit = todo & todo.wrapping_neg();
                    todo &= todo - 1;
                    for (p, &j) in order[..u].iter().enumerate() {
                        search.cands[p] = cands[j];
                    }
                    search.cands[0] = bit;
                    search.bounds();
                    if search.go(0, total) {
                        let mut found = [0u8; MAX_UNKNOWN];
                        for (p, &j) in order[..u].iter().enumerate() {
                            keep[j] |= 1 << (search.values[p] - 1);
                            found[j] = search.values[p];
                        }
                        seen.values.push(found);
                        todo &= !keep[i];
                    }
                    if search.nodes > MAX_NODES {
                        return None;
                    }
                }
                if keep[i] == 0 {
                    // No assignment at all: nothing to conclude here (the board is broken).
                    break;
                }
            }
            Some(keep)
        };
    // Seeded with the carried assignments, the searches find the same digits unless they run
    // out of nodes. Only a result that changes the board needs the plain run's word on the
    // node budget (a seeded run that removes nothing stands for any: a run out of nodes
    // removes nothing either), so the grade is the same as with the plain run alone.
    // The plain run cannot run out of nodes when even searching every digit of every cell
    // through whole trees could not: then the seeded run's word is the plain run's.
    let roomy = most_nodes(&cands[..u]) <= MAX_NODES as u64;
    let keep = match run(seed, seen) {
        Some(keep)
            if roomy
                || seed == [0; MAX_UNKNOWN]
                || keep[..u].contains(&0)
                || keep[..u] == cands[..u] =>
        {
            keep
        }
        _ => run([0; MAX_UNKNOWN], seen)?,
    };
    Some(Solutions {
        cells,
        keep,
        len: u,
    })
}

/// An upper bound on the nodes of a plain run over cells with these candidates: one search per
/// digit of each cell, each a tree with that cell fixed and at most `u + 1` levels of at most
/// the product of the other cells' candidate counts nodes each.
fn most_nodes(cands: &[u16]) -> u64 {
    let u = cands.len() as u64;
    let product: u64 = cands.iter().map(|c| u64::from(c.count_ones())).product();
    // Σ_i |c_i| · Π_{j≠i} |c_j| = u · Π |c_j|, times the levels.
    (u + 1) * u * product
}

/// Witness assignments carried from one evaluation of an equation to the next.
const MAX_CARRIED: usize = 32;

fn cands_of(board: &Board, c: Cell) -> u16 {
    board.candidates(c).bits()
}

struct Search {
    /// Candidates per unknown cell (one fixed to the digit under test).
    cands: [u16; MAX_UNKNOWN],
    sees: [u16; MAX_UNKNOWN],
    coefs: [i32; MAX_UNKNOWN],
    len: usize,
    /// Bounds of the suffix sums, for pruning.
    suffix: [(i32, i32); MAX_UNKNOWN + 1],
    values: [u8; MAX_UNKNOWN],
    nodes: usize,
}

impl Search {
    /// Bounds of the sums of cells `i..len`, from their candidates.
    fn bounds(&mut self) {
        let u = self.len;
        self.suffix[u] = (0, 0);
        for i in (0..u).rev() {
            let c = self.cands[i];
            let (min, max) = (c.trailing_zeros() as i32 + 1, 16 - c.leading_zeros() as i32);
            let (lo, hi) = match self.coefs[i] > 0 {
                true => (min, max),
                false => (-max, -min),
            };
            self.suffix[i] = (self.suffix[i + 1].0 + lo, self.suffix[i + 1].1 + hi);
        }
    }

    /// Assign cells `i..`, needing `rest` from them; true (with `values` set) at the first
    /// assignment that completes.
    fn go(&mut self, i: usize, rest: i32) -> bool {
        self.nodes += 1;
        if self.nodes > MAX_NODES {
            return false;
        }
        if i == self.len {
            return rest == 0;
        }
        if rest < self.suffix[i].0 || rest > self.suffix[i].1 {
            return false;
        }
        let mut avail = self.cands[i];
        let mut seen = self.sees[i] & ((1 << i) - 1);
        while seen != 0 {
            let j = seen.trailing_zeros() as usize;
            seen &= seen - 1;
            avail &= !(1 << (self.values[j] - 1));
        }
        if i + 1 == self.len {
            // The last cell takes the one digit that completes the sum. The nodes are counted as
            // if each digit were tried in turn (one node each, up to the one that fits), so the
            // budget runs out exactly where it did.
            let k = self.coefs[i];
            let (d, fits) = match k {
                // (Never built: a term's coefficient is not zero. Any digit does then.)
                0 => (avail.trailing_zeros() as i32 + 1, rest == 0 && avail != 0),
                _ => {
                    let d = rest / k;
                    let fits =
                        rest % k == 0 && (1..=16).contains(&d) && avail & (1 << (d - 1)) != 0;
                    (d, fits)
                }
            };
            let tried = match fits {
                true => avail & (((1u32 << d) - 1) as u16),
                false => avail,
            };
            self.nodes += tried.count_ones() as usize;
            if fits {
                self.values[i] = d as u8;
            }
            return fits && self.nodes <= MAX_NODES;
        }
        while avail != 0 {
            let b = avail.trailing_zeros();
            avail &= avail - 1;
            let d = b as i32 + 1;
            self.values[i] = d as u8;
            if self.go(i + 1, rest - self.coefs[i] * d) {
                return true;
            }
        }
        false
    }
}

/// "r1c4 + r1c5 - r2c6 = 9" over all the equation's cells, placed ones included.
fn equation_text(board: &Board, e: &Equation) -> String {
    signed_sum_text(board.geometry(), e.terms(), e.total)
}

fn region_text(board: &Board, houses: &[House]) -> String {
    let names: Vec<String> = houses
        .iter()
        .map(|&h| house_name(board.geometry(), h))
        .collect();
    match names.len() {
        0 => String::new(),
        1 => names[0].clone(),
        _ => format!(
            "{} and {}",
            names[..names.len() - 1].join(", "),
            names[names.len() - 1]
        ),
    }
}

/// Evaluate the equations that `technique` covers, pushing a step for each that removes something.
fn find(ctx: &mut Context, board: &Board, technique: Technique, out: &mut Vec<Step>) {
    let Some(slot) = slot(technique) else {
        return;
    };
    if slot == 3 && !ctx.equations.has_multi() {
        ctx.add_multi_equations(board.puzzle());
    }
    let eqs = Arc::clone(&ctx.equations);
    // An equation none of whose cells changed since this technique's last look ends as it did
    // then (skipped, or found nothing: a step it found was applied and changed its cells), and
    // its memo with it (a look that finds nothing there again remembers nothing new).
    let changed = changes_since_look(board, &mut ctx.equation_look[slot]);
    for &i in &eqs.by_technique[slot] {
        let i = i as usize;
        if !eqs.sets[i].intersects(&changed) {
            continue;
        }
        let e = &eqs.list[i];
        if ctx.unchanged(board, Memo::Equation, i, e.terms().iter().map(|t| t.0)) {
            continue;
        }
        let unknown = e.terms().iter().filter(|t| board.is_empty(t.0)).count();
        if unknown == 0 || technique_of(e, unknown) != technique {
            continue;
        }
        let found = evaluate(board, e, &mut ctx.witnesses[i]);
        match found.and_then(|s| step_of(board, &eqs, e, s, technique)) {
            Some(step) => out.push(step),
            None => ctx.remember(board, Memo::Equation, i),
        }
    }
}

/// The eliminations and placements of an evaluation (`None` when it changes nothing).
fn conclusions(board: &Board, s: &Solutions, technique: Technique) -> Option<Step> {
    let keeps = &s.keep[..s.len];
    if keeps.contains(&0) {
        return None;
    }
    let mut step = Step::new(technique);
    for (&c, &keep) in s.cells[..s.len].iter().zip(keeps) {
        let cands = board.candidates(c).bits();
        if keep.count_ones() == 1 && cands != keep {
            step.placements
                .push((c, Digit::new(keep.trailing_zeros() as u8 + 1)));
        } else {
            step.eliminations
                .extend(DigitSet::from_bits(cands & !keep).iter().map(|d| (c, d)));
        }
    }
    if !step.is_progress() {
        return None;
    }
    if board.explaining() {
        step.cells = s.cells[..s.len].to_vec();
    }
    Some(step)
}

fn step_of(
    board: &Board,
    eqs: &Equations,
    e: &Equation,
    s: Solutions,
    technique: Technique,
) -> Option<Step> {
    let mut step = conclusions(board, &s, technique)?;
    let houses = eqs.houses(e);
    if board.explaining() {
        let n = board.size() as i32;
        let whole = houses.len() as i32 * n * (n + 1) / 2;
        let region = region_text(board, houses);
        let equation = equation_text(board, e);
        step.reason = match e.kind {
            Kind::Innies => format!(
                "{region} totals {whole} and its whole cages {}, so the innies {equation}",
                whole - e.total
            ),
            Kind::Outies => format!(
                "the cages covering {region} total {}, {} more than its {whole}, so the outies {equation}",
                whole + e.total,
                e.total
            ),
            Kind::Difference => format!(
                "the cages over {region} total {} against its {whole}, so outies minus innies: {equation}",
                whole + e.total
            ),
            Kind::Split => format!(
                "splitting a cage at the innies/outies of {region} leaves its rest {equation}"
            ),
            Kind::Algebra => String::new(),
        };
    }
    if board.explaining() {
        step.cages = e.cages(&eqs.regions);
        step.houses = houses.to_vec();
    }
    Some(step)
}

/// Single-cell innie or outie of one house.
pub fn single_innie_outie(ctx: &mut Context, board: &Board, out: &mut Vec<Step>) {
    find(ctx, board, Technique::SingleInnieOutie, out)
}
/// Several innies or outies of one house (a derived cage), and cage splitting.
pub fn multi_innie_outie(ctx: &mut Context, board: &Board, out: &mut Vec<Step>) {
    find(ctx, board, Technique::MultiInnieOutie, out)
}
/// Innies and outies of one house together: a known difference.
pub fn innie_outie_difference(ctx: &mut Context, board: &Board, out: &mut Vec<Step>) {
    find(ctx, board, Technique::InnieOutieDifference, out)
}
/// Words for a sum-algebra parent: "the innies of row 1: r1c8 + r1c9 = 10".
fn source_text(board: &Board, eqs: &Equations, source: Source) -> String {
    match source {
        Source::Cage(k) => {
            let cage = &board.cages()[k as usize];
            let mut terms: Vec<(Cell, i8)> = cage.cells.iter().map(|&c| (c, 1)).collect();
            terms.sort();
            format!(
                "cage {}: {}",
                cage_text(board.geometry(), cage.sum, &cage.cells),
                signed_sum_text(board.geometry(), &terms, cage.sum as i32)
            )
        }
        Source::Equation(i) => {
            let e = &eqs.list[i as usize];
            let region = region_text(board, eqs.houses(e));
            let what = match e.kind {
                Kind::Innies => format!("the innies of {region}"),
                Kind::Outies => format!("the outies of {region}"),
                Kind::Difference => format!("outies minus innies of {region}"),
                Kind::Split | Kind::Algebra => format!("a cage split at {region}"),
            };
            format!("{what}: {}", equation_text(board, e))
        }
    }
}

/// Cages and houses a sum-algebra parent rests on.
fn source_places(eqs: &Equations, source: Source, step: &mut Step) {
    let (cages, houses) = match source {
        Source::Cage(k) => (vec![k as usize], Vec::new()),
        Source::Equation(i) => {
            let e = &eqs.list[i as usize];
            (e.cages(&eqs.regions), eqs.houses(e).to_vec())
        }
    };
    for k in cages {
        if !step.cages.contains(&k) {
            step.cages.push(k);
        }
    }
    for h in houses {
        if !step.houses.contains(&h) {
            step.houses.push(h);
        }
    }
}

/// The cells changed since the board clock in `look` (every cell when it is 0), which becomes
/// the clock now: for a rung that skips what did not change since its last look.
fn changes_since_look(board: &Board, look: &mut u32) -> CellSet {
    let last = std::mem::replace(look, board.clock());
    board.changed_cells(last)
}

/// Sum algebra: two equations of the layout (rule-of-45 innies/outies, splits, cages) added or
/// subtracted so that the cells they share cancel give an equation over the other cells, which
/// the candidates may satisfy in fewer ways than either alone ("the innies of row 1 minus the
/// cage 14(3): r1c7 - r2c9 = 1").
pub fn sum_algebra(ctx: &mut Context, board: &Board, out: &mut Vec<Step>) {
    if !ctx.equations.has_algebra() {
        ctx.add_algebra_equations(board.puzzle());
    }
    let eqs = Arc::clone(&ctx.equations);
    // An equation none of whose cells changed since the last look ends as it did then (skipped,
    // or found nothing: a step it found was applied and changed its cells).
    let changed = changes_since_look(board, &mut ctx.algebra_look);
    for (i, e) in eqs.algebra.iter().enumerate() {
        if !eqs.algebra_cells[i].intersects(&changed) {
            continue;
        }
        let unknown = e.terms().iter().filter(|t| board.is_empty(t.0)).count();
        if unknown == 0 || unknown > MAX_UNKNOWN {
            continue;
        }
        if ctx.unchanged(board, Memo::Algebra, i, e.terms().iter().map(|t| t.0)) {
            continue;
        }
        let found = evaluate(board, e, &mut ctx.algebra_witnesses[i]);
        let Some(mut step) = found.and_then(|s| conclusions(board, &s, Technique::SumAlgebra))
        else {
            ctx.remember(board, Memo::Algebra, i);
            continue;
        };
        let (a, b, sign) = eqs.parents[i];
        if board.explaining() {
            step.reason = format!(
                "{}; {}; {} them: {}",
                source_text(board, &eqs, a),
                source_text(board, &eqs, b),
                match sign > 0 {
                    true => "adding",
                    false => "subtracting",
                },
                equation_text(board, e)
            );
        }
        if board.explaining() {
            source_places(&eqs, a, &mut step);
            source_places(&eqs, b, &mut step);
        }
        out.push(step);
    }
}

/// Innies/outies over 2 to 4 houses.
pub fn multi_house_innie_outie(ctx: &mut Context, board: &Board, out: &mut Vec<Step>) {
    find(ctx, board, Technique::MultiHouseInnieOutie, out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};
    use rand_pcg::Pcg64Mcg;

    /// The search as it was before the last cell was solved directly: every digit of every
    /// cell tried, one node per call.
    fn tried_one_by_one(s: &mut Search, i: usize, rest: i32) -> bool {
        s.nodes += 1;
        if s.nodes > MAX_NODES {
            return false;
        }
        if i == s.len {
            return rest == 0;
        }
        if rest < s.suffix[i].0 || rest > s.suffix[i].1 {
            return false;
        }
        let mut avail = s.cands[i];
        let mut seen = s.sees[i] & ((1 << i) - 1);
        while seen != 0 {
            let j = seen.trailing_zeros() as usize;
            seen &= seen - 1;
            avail &= !(1 << (s.values[j] - 1));
        }
        while avail != 0 {
            let b = avail.trailing_zeros();
            avail &= avail - 1;
            let d = b as i32 + 1;
            s.values[i] = d as u8;
            if tried_one_by_one(s, i + 1, rest - s.coefs[i] * d) {
                return true;
            }
        }
        false
    }

    #[test]
    fn solving_the_last_cell_directly_finds_and_counts_as_trying_each_digit() {
        let mut rng = Pcg64Mcg::seed_from_u64(9);
        let mut over_budget = 0;
        for _ in 0..20_000 {
            let len = rng.random_range(1..=MAX_UNKNOWN);
            let digits = *[9u32, 12, 16].get(rng.random_range(0..3)).unwrap_or(&9);
            let mut s = Search {
                cands: [0; MAX_UNKNOWN],
                sees: [0; MAX_UNKNOWN],
                coefs: [0; MAX_UNKNOWN],
                len,
                suffix: [(0, 0); MAX_UNKNOWN + 1],
                values: [0; MAX_UNKNOWN],
                nodes: 0,
            };
            for i in 0..len {
                let all = ((1u32 << digits) - 1) as u16;
                s.cands[i] = loop {
                    let c = rng.random::<u16>() & all;
                    if c != 0 {
                        break c;
                    }
                };
                s.coefs[i] = *[1, 1, 1, -1, 2, -2]
                    .get(rng.random_range(0..6))
                    .unwrap_or(&1);
                for j in 0..i {
                    if rng.random_bool(0.5) {
                        s.sees[i] |= 1 << j;
                        s.sees[j] |= 1 << i;
                    }
                }
            }
            s.bounds();
            let total = rng.random_range(s.suffix[0].0 - 2..=s.suffix[0].1 + 2);
            // Large searches start near the budget, so both sides of it are exercised.
            let start = match len == MAX_UNKNOWN && digits == 16 {
                true => MAX_NODES - rng.random_range(0..2_000),
                false => 0,
            };
            let mut old = Search { ..s };
            s.nodes = start;
            old.nodes = start;
            let found = s.go(0, total);
            let want = tried_one_by_one(&mut old, 0, total);
            assert_eq!(found, want, "cands {:?} total {total}", &s.cands[..len]);
            assert_eq!(s.nodes > MAX_NODES, old.nodes > MAX_NODES);
            if old.nodes <= MAX_NODES {
                assert_eq!(s.nodes, old.nodes);
            } else {
                over_budget += 1;
            }
            if found {
                assert_eq!(s.values[..len], old.values[..len]);
            }
        }
        assert!(over_budget > 0, "no search ran out of nodes");
    }
}
