//! Layout repairs for zero-given killers: small edits of the cage boundaries where a second
//! solution differs from the intended one, chosen to rule out as many known second solutions as
//! possible while keeping cage sizes close to the book distribution.
//!
//! Why an edit works: under an alternative solution `alt` every cage keeps its sum, i.e. the
//! changes δ(c) = alt(c) − solution(c) add up to zero over each cage. Moving a differing cell x
//! out of its cage leaves that cage short by δ(x) ≠ 0; exchanging x with a neighbour y across a
//! boundary changes both sums by δ(x) − δ(y); splitting a cage works when the parts' δ sums are not
//! zero; merging two cages works when `alt` repeats a digit across them. The intended solution,
//! whose digits set the sums, fits every edited layout.

use super::cage_layout::{cells_admit, Adjacency, CageLayout, LayoutRules};
use super::warnsdorff::Grower;
use crate::bitset::{CellSet, DigitSet};
use crate::geometry::{Cell, Geometry};
use crate::grid::Grid;
use rand::seq::SliceRandom;
use rand::Rng;

/// A cell and the cage it goes to.
type Move = (Cell, usize);

/// Random two-part splits tried per cage of four or more cells.
const SPLITS_PER_CAGE: usize = 3;
/// Random regrowths tried per neighbourhood of a cage holding a differing cell.
const REGROWS: usize = 3;
/// Empty cage slots kept ready for splits and regrowths.
const SPARES: usize = 4;

/// Candidate edits, each a list of moves and how far it moves the layout from the book
/// distribution (0 = sizes unchanged). The moves of all edits lie end to end in one list: a
/// repair weighs dozens of edits, and a list each was a tenth of its time in the allocator.
#[derive(Default)]
struct Edits {
    moves: Vec<Move>,
    /// Per edit: the end of its moves in `moves` (each starts where the one before ends), cost,
    /// and whether it is a regrowth (see `push_regrowth`).
    ends: Vec<(usize, u8, bool)>,
}

impl Edits {
    fn len(&self) -> usize {
        self.ends.len()
    }
    fn push(&mut self, moves: impl IntoIterator<Item = Move>, cost: u8) {
        self.moves.extend(moves);
        self.ends.push((self.moves.len(), cost, false));
    }
    /// An edit that moves every cell of the cages it takes cells from, into cages it empties or
    /// that are empty, the moves into one cage side by side, each cage's cells connected and of
    /// distinct digits (as `grow` draws them): it can be scored without being applied
    /// (`score_regrowth`).
    fn push_regrowth(&mut self, moves: impl IntoIterator<Item = Move>, cost: u8) {
        self.moves.extend(moves);
        self.ends.push((self.moves.len(), cost, true));
    }
    fn moves(&self, index: usize) -> &[Move] {
        let start = index.checked_sub(1).map_or(0, |i| self.ends[i].0);
        &self.moves[start..self.ends[index].0]
    }
    fn cost(&self, index: usize) -> u8 {
        self.ends[index].1
    }
    fn is_regrowth(&self, index: usize) -> bool {
        self.ends[index].2
    }
}

/// What a repair's edits are drawn on and scored against, fixed for the whole repair (every edit
/// scored is reverted).
struct Setting<'a> {
    geometry: &'a Geometry,
    solution: &'a Grid,
    rules: &'a LayoutRules,
    /// The second solutions known so far.
    alternatives: &'a [Grid],
    /// Per alternative, the cages that rule it out before any edit: an edit only changes the
    /// cages it touches.
    killers: &'a [Vec<usize>],
    /// The layout's cage count before any edit.
    count: usize,
}

/// What `try_apply` leaves behind for its caller, in buffers kept across the edits of a repair.
#[derive(Default)]
struct Applied {
    /// The moves that undo the edit.
    undo: Vec<Move>,
    /// The cages it touches, sorted, without repeats.
    ids: Vec<usize>,
}

/// Apply the best edit against the first alternative in `alternatives` that `layout` admits:
/// fewest alternatives left admitted, then smallest cost, then fewest cages of five or more.
/// Returns `false` if no edit rules out any admitted alternative. (`grower`: the cage builder,
/// kept across the repairs of a puzzle.)
pub fn repair<R: Rng>(
    layout: &mut CageLayout,
    geometry: &Geometry,
    grower: &mut Grower,
    solution: &Grid,
    alternatives: &[Grid],
    rules: &LayoutRules,
    rng: &mut R,
) -> bool {
    let before = alternatives
        .iter()
        .filter(|a| layout.admits(solution, a))
        .count();
    let Some(target) = alternatives.iter().find(|a| layout.admits(solution, a)) else {
        return true;
    };
    let diff: Vec<Cell> = geometry
        .cells()
        .filter(|&c| solution.get(c) != target.get(c))
        .collect();
    let mut spares: Vec<usize> = (0..layout.slot_count())
        .filter(|&id| layout.cells(id).is_empty())
        .collect();
    while spares.len() < SPARES {
        spares.push(layout.open_empty());
    }
    // The cages that rule out each alternative now: an edit only changes the cages it touches.
    // Both rounds of edits below score against the same cages (each edit is reverted), so they
    // are listed once per repair.
    let killers: Vec<Vec<usize>> = alternatives
        .iter()
        .map(|a| {
            layout
                .ids()
                .filter(|&id| !layout.cage_admits(id, solution, a))
                .collect()
        })
        .collect();
    let s = Setting {
        geometry,
        solution,
        rules,
        alternatives,
        killers: &killers,
        count: layout.count_cages(),
    };
    // Local edits first. Regrown neighbourhoods (dearer to draw) cost 1, so they only matter
    // when no local edit is perfect; the choice stays uniform among all best edits.
    let mut edits = Edits::default();
    local_edits(&mut edits, layout, &s, &diff, spares[0], rng);
    let mut applied = Applied::default();
    let mut best = best_edit(layout, &s, grower.adjacency(), &edits, 0, &mut applied, rng);
    if best.is_none_or(|b| b.score != PERFECT) {
        let mut around: Vec<usize> = diff.iter().filter_map(|&x| layout.cage_of(x)).collect();
        around.sort_unstable();
        around.dedup();
        let first = edits.len();
        for &id in &around {
            regrown(&mut edits, grower, layout, &s, &[id], &spares, rng);
        }
        regrown(&mut edits, grower, layout, &s, &around, &spares, rng);
        let more = best_edit(
            layout,
            &s,
            grower.adjacency(),
            &edits,
            first,
            &mut applied,
            rng,
        );
        best = Best::merge(best, more, rng);
    }
    match best {
        Some(b) if b.score.0 < before => {
            let moves = edits.moves(b.index);
            let done = try_apply(layout, grower.adjacency(), &s, moves, &mut applied);
            assert!(done, "the chosen edit applied before");
            true
        }
        _ => false,
    }
}

/// An edit's score: alternatives still admitted, cost, cages of five or more cells touched.
type Score = (usize, u8, usize);

/// The best possible score: every alternative ruled out by a size-keeping edit.
const PERFECT: Score = (0, 0, 0);

/// The best edit seen, drawn uniformly among those sharing its score.
#[derive(Copy, Clone, Debug)]
struct Best {
    score: Score,
    index: usize,
    ties: u32,
}

impl Best {
    /// The better of two, or a uniform draw among the union of their ties.
    fn merge<R: Rng>(a: Option<Best>, b: Option<Best>, rng: &mut R) -> Option<Best> {
        match (a, b) {
            (Some(a), Some(b)) if a.score == b.score => {
                let ties = a.ties + b.ties;
                let pick = if rng.random_range(0..ties) < a.ties {
                    a
                } else {
                    b
                };
                Some(Best { ties, ..pick })
            }
            (Some(a), Some(b)) => Some(if a.score < b.score { a } else { b }),
            (a, b) => a.or(b),
        }
    }
}

/// The best of the edits from index `from` on, evaluated in random order, stopping at the first
/// perfect one (`applied`: scratch buffers).
fn best_edit<R: Rng>(
    layout: &mut CageLayout,
    s: &Setting,
    adjacency: &Adjacency,
    edits: &Edits,
    from: usize,
    applied: &mut Applied,
    rng: &mut R,
) -> Option<Best> {
    let mut order: Vec<usize> = (from..edits.len()).collect();
    order.shuffle(rng);
    debug_assert_eq!(
        layout.count_cages(),
        s.count,
        "every edit scored is reverted"
    );
    let mut best: Option<Best> = None;
    let mut regrowth = Regrowth::default();
    for index in order {
        let moves = edits.moves(index);
        let scored = match edits.is_regrowth(index) {
            true => score_regrowth(&mut regrowth, &mut *layout, s, moves),
            false => None,
        };
        let scored = match scored {
            Some(scored) => scored,
            None => score_applied(layout, s, adjacency, moves, applied),
        };
        let Some((admitted, big)) = scored else {
            continue;
        };
        let score = (admitted, edits.cost(index), big);
        let this = Some(Best {
            score,
            index,
            ties: 1,
        });
        best = Best::merge(best, this, rng);
        if score == PERFECT {
            // The first perfect edit in a random order is a uniform draw among perfect edits.
            return best.map(|b| Best { index, ..b });
        }
    }
    best
}

/// An edit's alternatives still admitted and cages of five or more cells touched (counted once
/// per move into or out of them), found by applying it and reverting it; `None` if it breaks a
/// rule.
fn score_applied(
    layout: &mut CageLayout,
    s: &Setting,
    adjacency: &Adjacency,
    moves: &[Move],
    applied: &mut Applied,
) -> Option<(usize, usize)> {
    if !try_apply(layout, adjacency, s, moves, applied) {
        return None;
    }
    let big = touched(moves, &applied.undo)
        .filter(|&id| layout.cells(id).len() >= 5)
        .count();
    let ids = &applied.ids;
    let admitted = s
        .alternatives
        .iter()
        .zip(s.killers)
        .filter(|(a, kill)| {
            kill.iter().all(|id| ids.binary_search(id).is_ok())
                && ids.iter().all(|&id| layout.cage_admits(id, s.solution, a))
        })
        .count();
    revert(layout, s.solution, &applied.undo);
    Some((admitted, big))
}

/// Scratch buffers of `score_regrowth`, kept across the edits of a repair.
#[derive(Default)]
struct Regrowth {
    /// The moved cells, in the order of the moves.
    moved: Vec<Cell>,
    /// Per cage filled by the edit: its id and the range of its moves.
    runs: Vec<(usize, usize, usize)>,
    /// Per cage the edit takes cells from: its id and how many.
    sources: Vec<(usize, usize)>,
    /// The cages touched, sorted, without repeats.
    ids: Vec<usize>,
    /// Per cage slot: cells moved into it and out of it (zero between calls).
    into: Vec<u16>,
    out: Vec<u16>,
}

impl Regrowth {
    /// Read the moves into runs and sources; `false` if the moves into one cage are not side
    /// by side or a moved cell is free.
    fn read(&mut self, layout: &CageLayout, moves: &[Move]) -> bool {
        self.runs.clear();
        self.sources.clear();
        let slots = layout.slot_count();
        if self.into.len() < slots {
            self.into.resize(slots, 0);
            self.out.resize(slots, 0);
        }
        for (i, &(c, to)) in moves.iter().enumerate() {
            if let Some(run) = self.runs.last_mut().filter(|r| r.0 == to) {
                run.2 = i + 1;
            } else if self.into[to] != 0 {
                return false;
            } else {
                self.runs.push((to, i, i + 1));
            }
            self.into[to] += 1;
            let Some(from) = layout.cage_of(c) else {
                return false;
            };
            if self.out[from] == 0 {
                self.sources.push((from, 0));
            }
            self.out[from] += 1;
        }
        for source in &mut self.sources {
            source.1 = self.out[source.0] as usize;
        }
        true
    }

    /// Zero the per-slot counts `read` set.
    fn clear(&mut self, moves: &[Move]) {
        for &(_, to) in moves {
            self.into[to] = 0;
        }
        for source in &self.sources {
            self.out[source.0] = 0;
        }
    }
}

/// `score_applied` for a regrowth, read from its moves without applying it (a regrowth moves
/// dozens of cells: scoring a repair's edits takes 0.77x the instructions it took applying and
/// reverting every regrowth): every cage
/// the edit takes cells from is emptied, so each cage it touches holds exactly the cells moved
/// into it. The layout is left as applying and reverting leaves it: the same cages, the cells of
/// the emptied ones listed in the order of the moves (later edits read that order). `None` if
/// the edit is not of that shape (then `score_applied` decides); `Some(None)` if it breaks a
/// rule, as `try_apply` would find.
fn score_regrowth(
    scratch: &mut Regrowth,
    layout: &mut CageLayout,
    s: &Setting,
    moves: &[Move],
) -> Option<Option<(usize, usize)>> {
    let shaped = scratch.read(layout, moves);
    let drained = || {
        let sources = &scratch.sources;
        sources.iter().all(|&(id, n)| layout.cells(id).len() == n)
    };
    let fresh = || {
        let runs = &scratch.runs;
        runs.iter()
            .all(|r| layout.cells(r.0).is_empty() || scratch.out[r.0] != 0)
    };
    let shaped = shaped && drained() && fresh();
    let score = shaped.then(|| score_read(scratch, layout, s, moves));
    scratch.clear(moves);
    score
}

/// `score_regrowth` once its moves are read and found of a regrowth's shape.
fn score_read(
    scratch: &mut Regrowth,
    layout: &mut CageLayout,
    s: &Setting,
    moves: &[Move],
) -> Option<(usize, usize)> {
    let Regrowth {
        moved,
        runs,
        sources,
        ids,
        ..
    } = scratch;
    moved.clear();
    moved.extend(moves.iter().map(|m| m.0));
    layout.reorder(moved);
    ids.clear();
    ids.extend(runs.iter().map(|r| r.0).chain(sources.iter().map(|s| s.0)));
    ids.sort_unstable();
    ids.dedup();
    let scratch = &*scratch;
    let cells = |&(_, start, end): &(usize, usize, usize)| moves[start..end].iter().map(|m| m.0);
    // The rules `try_apply` checks: distinct digits, sizes, connected, the cage count.
    let (min, max) = s.rules.cage_count;
    let off = |count: usize| min.saturating_sub(count) + count.saturating_sub(max);
    let after = (s.count + scratch.runs.len()).saturating_sub(scratch.sources.len());
    // Each run is a cage `grow` drew: connected, of distinct digits (as `push_regrowth`
    // requires), so only the sizes and the count are read here. Testing both again was 20.6 M
    // instructions of the 300 items of `--level any` (69,628 connectivity tests).
    debug_assert!(scratch
        .runs
        .iter()
        .all(|run| is_cage(s.geometry, s.solution, moves, run)));
    let valid = off(after) <= off(s.count)
        && scratch.runs.iter().all(|run| {
            let len = run.2 - run.1;
            len <= s.rules.max_size && (len >= 2 || s.rules.allow_singles)
        });
    if !valid {
        return None;
    }
    // Each move counts its destination and its source if five or more cells end up there.
    let size_after = |id: usize| scratch.into[id] as usize;
    let into_big: usize = scratch
        .runs
        .iter()
        .map(|r| r.2 - r.1)
        .filter(|&n| n >= 5)
        .sum();
    let out_big: usize = scratch
        .sources
        .iter()
        .filter(|s| size_after(s.0) >= 5)
        .map(|s| s.1)
        .sum();
    let big = into_big + out_big;
    let ids = &scratch.ids;
    let admitted = s
        .alternatives
        .iter()
        .zip(s.killers)
        .filter(|(a, kill)| {
            kill.iter().all(|id| ids.binary_search(id).is_ok())
                && scratch
                    .runs
                    .iter()
                    .all(|run| cells_admit(cells(run), s.solution, a))
        })
        .count();
    Some((admitted, big))
}

/// Do the moves `run` (a range of `moves`) put a connected set of cells of distinct digits into
/// their cage?
fn is_cage(
    geometry: &Geometry,
    solution: &Grid,
    moves: &[Move],
    &(_, start, end): &(usize, usize, usize),
) -> bool {
    let cells: Vec<Cell> = moves[start..end].iter().map(|m| m.0).collect();
    let digits: DigitSet = cells.iter().filter_map(|&c| solution.get(c)).collect();
    digits.len() as usize == cells.len() && geometry.is_connected(&cells)
}

/// Exchanges, moves (re-homing the partner of a dissolved pair), merges and splits around
/// `diff`, added to `out`.
fn local_edits<R: Rng>(
    out: &mut Edits,
    layout: &CageLayout,
    s: &Setting,
    diff: &[Cell],
    spare: usize,
    rng: &mut R,
) {
    let geometry = s.geometry;
    let cage = |c: Cell| layout.cage_of(c).expect("complete layout");
    for &x in diff {
        let c1 = cage(x);
        for y in geometry.neighbours(x).filter(|&y| cage(y) != c1) {
            out.push([(x, cage(y)), (y, c1)], 0);
        }
        for c2 in layout.neighbour_cages(geometry, x) {
            out.push([(x, c2)], 1);
            if let [a, b] = layout.cells(c1) {
                let y = if *a == x { *b } else { *a };
                for c3 in layout.neighbour_cages(geometry, y) {
                    if c3 != c2 {
                        out.push([(x, c2), (y, c3)], 2);
                    }
                }
            }
            if layout.cells(c1).len() + layout.cells(c2).len() <= s.rules.max_size {
                out.push(layout.cells(c2).iter().map(|&c| (c, c1)), 2);
            }
        }
    }
    let mut split_cages: Vec<usize> = diff.iter().map(|&x| cage(x)).collect();
    split_cages.sort_unstable();
    split_cages.dedup();
    for &id in &split_cages {
        let cells = layout.cells(id);
        if cells.len() >= 4 {
            for _ in 0..SPLITS_PER_CAGE {
                let part = random_part(geometry, cells, rng);
                out.push(part.into_iter().map(|c| (c, spare)), 1);
            }
        }
    }
}

/// Cages `around` and their neighbouring cages dissolved and grown again as book cages, a few
/// ways, added to `out`.
fn regrown<R: Rng>(
    out: &mut Edits,
    grower: &mut Grower,
    layout: &CageLayout,
    s: &Setting,
    around: &[usize],
    spares: &[usize],
    rng: &mut R,
) {
    let geometry = s.geometry;
    let mut ids = around.to_vec();
    for &id in around {
        for &c in layout.cells(id) {
            ids.extend(layout.neighbour_cages(geometry, c));
        }
    }
    ids.sort_unstable();
    ids.dedup();
    let region: CellSet = ids
        .iter()
        .flat_map(|&i| layout.cells(i).iter().copied())
        .collect();
    let targets: Vec<usize> = ids.iter().chain(spares).copied().collect();
    for _ in 0..REGROWS {
        let Some(fresh) = grower.grow(geometry, s.solution, &region, s.rules, rng) else {
            continue;
        };
        if fresh.count_cages() <= targets.len() {
            // Every cell of the region moves: the room is taken at once.
            let parts = fresh.ids().zip(&targets);
            let moves = parts.flat_map(|(p, &t)| fresh.cells(p).iter().map(move |&c| (c, t)));
            out.push_regrowth(moves, 1);
        }
    }
}

/// A random connected part of `cells` with between 2 and `len − 2` cells (the rest is checked
/// for connectivity when the split is applied).
fn random_part<R: Rng>(geometry: &Geometry, cells: &[Cell], rng: &mut R) -> Vec<Cell> {
    let k = rng.random_range(2..=cells.len() - 2);
    let mut part = vec![cells[rng.random_range(0..cells.len())]];
    while part.len() < k {
        let frontier: Vec<Cell> = part
            .iter()
            .flat_map(|&c| geometry.neighbours(c))
            .filter(|c| cells.contains(c) && !part.contains(c))
            .collect();
        let Some(&next) = frontier.get(rng.random_range(0..frontier.len().max(1))) else {
            break;
        };
        part.push(next);
    }
    part
}

/// Apply the moves to the layout (of `s.count` cages) if the result keeps every rule (digits
/// distinct, sizes, connected, no single cells unless allowed, cage count); `true` with the moves
/// that undo it and the cages touched in `applied`, or `false` with the layout unchanged.
fn try_apply(
    layout: &mut CageLayout,
    adjacency: &Adjacency,
    s: &Setting,
    moves: &[Move],
    applied: &mut Applied,
) -> bool {
    let (rules, count) = (s.rules, s.count);
    let digit = |c: Cell| s.solution.get(c).expect("complete solution");
    let Applied { undo, ids } = applied;
    undo.clear();
    undo.extend(
        moves
            .iter()
            .map(|&(c, _)| (c, layout.cage_of(c).expect("complete layout"))),
    );
    ids.clear();
    ids.extend(touched(moves, undo));
    ids.sort_unstable();
    ids.dedup();
    let occupied = |layout: &CageLayout| {
        ids.iter()
            .filter(|&&id| !layout.cells(id).is_empty())
            .count()
    };
    let occupied_before = occupied(layout);
    for &(c, _) in moves {
        layout.release(c, digit(c));
    }
    let mut placed = 0;
    for &(c, to) in moves {
        if layout.digits(to).contains(digit(c)) {
            break;
        }
        layout.push(to, c, digit(c));
        placed += 1;
    }
    // The cage count may not leave (or move further from) the configured range.
    let (min, max) = rules.cage_count;
    let off = |count: usize| min.saturating_sub(count) + count.saturating_sub(max);
    let after = (count + occupied(layout)).saturating_sub(occupied_before);
    let valid = placed == moves.len()
        && off(after) <= off(count)
        && ids.iter().all(|&id| {
            let cells = layout.cells(id);
            cells.is_empty()
                || (cells.len() <= rules.max_size
                    && (cells.len() >= 2 || rules.allow_singles)
                    && layout.is_connected(adjacency, id))
        });
    if valid {
        return true;
    }
    for &(c, _) in &moves[..placed] {
        layout.release(c, digit(c));
    }
    for &(c, to) in undo.iter() {
        layout.push(to, c, digit(c));
    }
    false
}

/// Put the moved cells back where `undo` says.
fn revert(layout: &mut CageLayout, solution: &Grid, undo: &[Move]) {
    let digit = |c: Cell| solution.get(c).expect("complete solution");
    for &(c, _) in undo {
        layout.release(c, digit(c));
    }
    for &(c, to) in undo {
        layout.push(to, c, digit(c));
    }
}

/// The cages an edit touches (sources and destinations; may repeat).
fn touched<'a>(moves: &'a [Move], undo: &'a [Move]) -> impl Iterator<Item = usize> + 'a {
    moves.iter().chain(undo).map(|&(_, id)| id)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generator::fill::fill_grid;
    use crate::generator::warnsdorff::build_warnsdorff;
    use crate::generator::GeneratorConfig;
    use rand::SeedableRng;
    use rand_pcg::Pcg64Mcg;

    /// The solution with the digits of cells `x` and `y` exchanged: a grid that a cage admits
    /// exactly when it holds both cells or neither (only cage sums and digits are read).
    fn swapped(solution: &Grid, x: Cell, y: Cell) -> Grid {
        let mut values = solution.values().to_vec();
        values.swap(x.as_index(), y.as_index());
        Grid::from_values(solution.size(), values).unwrap()
    }

    /// Random edits of a regrowth's shape: the cells of a few neighbouring cages shuffled into
    /// those cages and a spare, the moves into each side by side (many break a rule).
    fn random_regrowths<R: Rng>(
        out: &mut Edits,
        layout: &CageLayout,
        geometry: &Geometry,
        spare: usize,
        rng: &mut R,
    ) {
        for _ in 0..20 {
            let ids: Vec<usize> = layout.ids().collect();
            let first = ids[rng.random_range(0..ids.len())];
            let mut taken = vec![first];
            let cell = layout.cells(first)[0];
            taken.extend(
                layout
                    .neighbour_cages(geometry, cell)
                    .take(rng.random_range(0..3)),
            );
            let mut cells: Vec<Cell> = taken
                .iter()
                .flat_map(|&id| layout.cells(id).iter().copied())
                .collect();
            cells.shuffle(rng);
            taken.push(spare);
            let mut moves = Vec::new();
            let mut at = 0;
            for (k, &to) in taken.iter().enumerate() {
                let end = match k + 1 == taken.len() {
                    true => cells.len(),
                    false => rng.random_range(at..=cells.len()),
                };
                moves.extend(cells[at..end].iter().map(|&c| (c, to)));
                at = end;
            }
            out.push(moves, 1);
        }
    }

    /// Do the moves into each cage (side by side) put a connected set of distinct digits there?
    fn runs_are_cages(geometry: &Geometry, solution: &Grid, moves: &[Move]) -> bool {
        let mut start = 0;
        (1..=moves.len()).all(|end| {
            if end < moves.len() && moves[end].1 == moves[start].1 {
                return true;
            }
            let run = (moves[start].1, start, end);
            start = end;
            is_cage(geometry, solution, moves, &run)
        })
    }

    /// Scoring a regrowth from its moves gives what applying and reverting it gives (score and
    /// the layout left behind, cell order included), for the regrowths and local edits of real
    /// repairs and for random edits (those not of a regrowth's shape are left to the applying
    /// scorer, untouched).
    #[test]
    fn regrowths_score_as_when_applied() {
        let mut rng = Pcg64Mcg::seed_from_u64(11);
        let (mut fast_scored, mut invalid, mut admitting) = (0, 0, 0);
        for size in [6u8, 9] {
            let config = GeneratorConfig {
                size,
                ..GeneratorConfig::default()
            };
            let resolved = config.validate().unwrap();
            let (g, rules) = (&resolved.geometry, &resolved.rules);
            for _ in 0..30 {
                let s = fill_grid(g, u64::MAX, &mut rng).unwrap();
                let mut layout = build_warnsdorff(g, &s, rules, &mut rng).unwrap();
                let diff: Vec<Cell> = g.cells().filter(|_| rng.random_bool(0.08)).collect();
                let alternatives: Vec<Grid> = diff
                    .iter()
                    .flat_map(|&x| g.neighbours(x).map(move |y| (x, y)))
                    .map(|(x, y)| swapped(&s, x, y))
                    .collect();
                let killers: Vec<Vec<usize>> = alternatives
                    .iter()
                    .map(|a| {
                        let kill = layout.ids().filter(|&id| !layout.cage_admits(id, &s, a));
                        kill.collect()
                    })
                    .collect();
                let spares: Vec<usize> = (0..SPARES).map(|_| layout.open_empty()).collect();
                let setting = Setting {
                    geometry: g,
                    solution: &s,
                    rules,
                    alternatives: &alternatives,
                    killers: &killers,
                    count: layout.count_cages(),
                };
                let mut edits = Edits::default();
                local_edits(&mut edits, &layout, &setting, &diff, spares[0], &mut rng);
                let mut around: Vec<usize> =
                    diff.iter().filter_map(|&x| layout.cage_of(x)).collect();
                around.sort_unstable();
                around.dedup();
                let grower = &mut Grower::new(g);
                let (ids, spare) = (&around, &spares);
                regrown(&mut edits, grower, &layout, &setting, ids, spare, &mut rng);
                random_regrowths(&mut edits, &layout, g, spares[0], &mut rng);
                let (mut applied, mut scratch) = (Applied::default(), Regrowth::default());
                for index in 0..edits.len() {
                    let moves = edits.moves(index);
                    // Only regrowths are scored from their moves: a random edit whose cages
                    // are not connected sets of distinct digits is not one.
                    if !edits.is_regrowth(index) && !runs_are_cages(g, &s, moves) {
                        continue;
                    }
                    let mut read = layout.clone();
                    let fast = score_regrowth(&mut scratch, &mut read, &setting, moves);
                    assert!(fast.is_some() || !edits.is_regrowth(index));
                    let Some(fast) = fast else {
                        assert_eq!(read, layout, "an edit left to the applying scorer");
                        continue;
                    };
                    let adjacency = grower.adjacency();
                    let slow = score_applied(&mut layout, &setting, adjacency, moves, &mut applied);
                    assert_eq!(fast, slow, "edit {index}: {moves:?}");
                    assert_eq!(
                        read, layout,
                        "cells listed as applying and reverting leaves them"
                    );
                    fast_scored += 1;
                    invalid += usize::from(fast.is_none());
                    admitting += usize::from(fast.is_some_and(|(admitted, _)| admitted > 0));
                }
            }
        }
        let seen = (fast_scored, invalid, admitting);
        assert!(seen.0 > 500 && seen.1 > 100 && seen.2 > 50, "{seen:?}");
    }
}
