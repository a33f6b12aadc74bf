//! Extreme on demand (issue 25 goal 3): 9x9 killers shaped like the hardest published ones, with
//! no easy way in, steered until the grader needs a rung above expert.
//!
//! tarek's killers (the hardest published, rated Very Hard/Extreme by pencilmark) have almost no
//! cage with a single digit combination (0.21 a puzzle, against 2.10 in the extremes made by
//! merging book layouts), almost no house whose rule of 45 isolates one cell (0.21 against
//! 0.80), cages of two to five cells (no six- to nine-cell cages) and more cages crossing boxes
//! (16.4 of 24 against 11.6 of 23). Such a layout gives a solver no placement to start from: the
//! first steps already need cage combinations against each other. So an extreme item starts from
//! a layout of such cages and merges touching cages, choosing the merge that leaves the fewest of
//! those easy ways in (then the fewest cages inside one box), each merge checked unique by the
//! solver, until none is left, the grader needs more than expert, and its path needs trial (as
//! 7 of tarek_odd's 19 still do; the other 12 are finished by cage interactions or killer
//! forcing chains, the ladder's last rungs). pencilmark rated the extremes that a set-theory or
//! forcing-chain step finishes Medium/Hard, 12.3-14.3, and shaped ones without the gate 12.4 and
//! 13.1, Hard; the first shaped one that needs trial it rated 19.1, Extreme. An item whose
//! layouts never reach trial keeps the hardest puzzle above expert it met.

use super::cage_layout::LayoutRules;
use super::level::{self, MergeCheck};
use super::record::{LevelEdit, Recorder};
use super::{GeneratorConfig, GivensPolicy, Variant};
use crate::bitset::CellSet;
use crate::geometry::{Geometry, House};
use crate::grader::{self, Grade, Level};
use crate::grid::Grid;
use crate::puzzle::Puzzle;
use crate::solver::combos::Combos;
use rand::seq::SliceRandom;
use rand::Rng;

/// The largest cage of an extreme layout (tarek's: two to five cells, a six one puzzle in three).
pub const MAX_CAGE: usize = 5;
/// Fresh layouts a shaped extreme item tries for one that needs trial (with six, as other
/// targets, 28 of 100 items of seed 31 were rejected); after them it keeps the hardest puzzle
/// above expert it met ([`Shaped::AboveExpert`]), and is rejected as off-level only without one.
pub const ATTEMPTS: usize = 40;
/// Merges an extreme item makes on one layout before a fresh one is drawn.
const MERGES: u32 = 24;
/// Merges tried (checked unique) for one step before the layout is given up.
const TRIES: usize = 16;

/// How an item aimed at extreme is made: the switch between extreme on demand and a default
/// batch's extreme share. Both are graded extreme by the same grader (a rung above expert).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExtremeKind {
    /// The default mix's extreme share, and every grid [`applies`] rejects: the drawn layout's
    /// cages merged until the grader needs a rung above expert (`level::reach`; about 20 ms of
    /// CPU an extreme, pencilmark Medium/Hard).
    Merged,
    /// Extreme on demand (`levels` names extreme: `--level extreme`, a feed's extreme slot) on a
    /// grid [`applies`] accepts: shaped like tarek's killers and gated by trial ([`reach`]; about
    /// 0.5 s of CPU an extreme, pencilmark Very Hard/Extreme).
    Shaped,
}

impl ExtremeKind {
    /// `Shaped` where the configuration names its levels (a target asked for, not the default
    /// mix) and the shaped path [`applies`]; `Merged` otherwise, so a default batch costs and
    /// makes what it did before extreme on demand.
    pub fn of(config: &GeneratorConfig) -> ExtremeKind {
        if config.levels.is_some() && applies(config) {
            ExtremeKind::Shaped
        } else {
            ExtremeKind::Merged
        }
    }
}

/// Does the extreme path shape this configuration's extremes? 9x9 killers on 3x3 boxes with zero
/// givens and the default `book` builder (the shapes measured against tarek's); other grids keep
/// the merging of `level::reach`.
pub fn applies(config: &GeneratorConfig) -> bool {
    config.variant == Variant::Killer
        && config.size == 9
        && matches!(
            (config.box_rows, config.box_cols),
            (None | Some(3), None | Some(3))
        )
        && config.givens == GivensPolicy::Zero
        && config.cage_builder == super::CageBuilderKind::Book
        && config.max_cages.is_none()
        && config.min_cages.is_none()
}

/// Layout rules of a shaped extreme item's first layout: cages of two to five cells (at most the
/// configured largest), weighted towards three and four as tarek's (per puzzle 5.7 pairs, 7.1
/// triples, 7.5 of four, 3.2 of five), 25 to 30 cages to merge down from.
pub fn start_rules(config: &GeneratorConfig) -> LayoutRules {
    let max_size = MAX_CAGE.min(config.max_cage_size.map_or(MAX_CAGE, usize::from));
    let mut size_weights = vec![0, 0, 20, 30, 30, 20];
    size_weights.truncate(max_size + 1);
    LayoutRules {
        max_size,
        allow_singles: false,
        cage_count: (25, 30),
        size_weights,
        threshold: config.ordered_threshold,
    }
}

/// The layout facts that give a solver an easy way in, and how many cages cross boxes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Structure {
    /// Cages whose sum has a single digit combination (e.g. 3 in two cells, 23 in three).
    pub single_combination: usize,
    /// Houses whose rule of 45 isolates one cell: one innie (the cages inside leave one cell) or
    /// one outie (the cages touching it stick out by one cell).
    pub one_cell_houses: usize,
    /// Cages lying in one box (or region).
    pub inside_boxes: usize,
}

impl Structure {
    /// The structure of a killer's cages (givens ignored).
    pub fn of(puzzle: &Puzzle) -> Structure {
        let g = puzzle.geometry();
        let combos = Combos::of(g.size());
        let cages: Vec<CellSet> = puzzle
            .cages()
            .iter()
            .map(|c| c.cells.iter().copied().collect())
            .collect();
        let single_combination = puzzle
            .cages()
            .iter()
            .filter(|c| combos.get(c.len(), c.sum as usize).len() == 1)
            .count();
        let inside_boxes = puzzle
            .cages()
            .iter()
            .filter(|c| c.cells.iter().all(|&x| g.region(x) == g.region(c.cells[0])))
            .count();
        let one_cell_houses = houses(g)
            .iter()
            .filter(|house| is_one_cell(house, &cages))
            .count();
        Structure {
            single_combination,
            one_cell_houses,
            inside_boxes,
        }
    }

    /// The easy ways in: single-combination cages and one-cell houses (an extreme layout has none).
    pub fn easy_ways_in(&self) -> usize {
        self.single_combination + self.one_cell_houses
    }
}

/// Every house's cells.
fn houses(g: &Geometry) -> Vec<CellSet> {
    (0..g.house_count())
        .map(|h| {
            g.house_cells(House::new(h as u8))
                .into_iter()
                .collect::<CellSet>()
        })
        .collect()
}

/// Does the rule of 45 on `house` isolate one cell: one innie or one outie?
fn is_one_cell(house: &CellSet, cages: &[CellSet]) -> bool {
    let (mut inside, mut touching) = (CellSet::default(), CellSet::default());
    for cage in cages.iter().filter(|c| c.intersects(house)) {
        touching = touching.union(cage);
        if cage.is_subset(house) {
            inside = inside.union(cage);
        }
    }
    house.difference(&inside).len() == 1 || touching.difference(house).len() == 1
}

/// Where a shaped layout's merging ended.
#[derive(Clone, Debug)]
pub enum Shaped {
    /// No easy way in, above expert, and the grader's path needs trial: kept.
    Trial(Puzzle, Grade),
    /// No trial, but the hardest puzzle above expert (and with no easy way in) that the merging
    /// met, by the grader's score: the item's fallback if none of its layouts reaches trial.
    AboveExpert(Puzzle, Grade),
    /// Never above expert with no easy way in.
    Off,
}

/// Steer a unique zero-given killer to a shaped extreme: merge touching cages (the merge leaving
/// the fewest easy ways in, then the fewest cages inside a box; each checked unique) until the
/// layout has no easy way in, the grader needs a rung above expert and its path needs trial.
/// `max_size` bounds merged cages (at most [`MAX_CAGE`]). `rec` hears of every merge.
pub fn reach<R: Rng>(
    puzzle: Puzzle,
    solution: &Grid,
    max_size: usize,
    rec: &mut Recorder,
    rng: &mut R,
) -> Shaped {
    let max_size = max_size.min(MAX_CAGE);
    let mut puzzle = puzzle;
    let mut best: Option<(Puzzle, Grade)> = None;
    for _ in 0..=MERGES {
        // Grading runs only once the layout has no easy way in: merges come first either way.
        if Structure::of(&puzzle).easy_ways_in() == 0
            && grader::grade::grade_within(&puzzle, Some(solution), Level::Expert).is_none()
        {
            let grade = grader::grade::walk(&puzzle, Some(solution), false).grade;
            if grade.trial {
                return Shaped::Trial(puzzle, grade);
            }
            if best.as_ref().is_none_or(|(_, b)| grade.score > b.score) {
                best = Some((puzzle.clone(), grade));
            }
        }
        match merge(&puzzle, solution, max_size, rec, rng) {
            Some(next) => puzzle = next,
            None => break,
        }
    }
    match best {
        Some((p, g)) => Shaped::AboveExpert(p, g),
        None => Shaped::Off,
    }
}

/// The best unique merge: candidates ranked by the easy ways in they leave, then the cages
/// inside a box (ties in random order), the first `TRIES` checked unique in that order.
fn merge<R: Rng>(
    puzzle: &Puzzle,
    solution: &Grid,
    max_size: usize,
    rec: &mut Recorder,
    rng: &mut R,
) -> Option<Puzzle> {
    let mut ranked: Vec<((usize, usize), Puzzle)> = level::merge_pairs(puzzle, solution, max_size)
        .into_iter()
        .filter_map(|(i, j)| level::merge_pair(puzzle, i, j))
        .map(|p| {
            let s = Structure::of(&p);
            ((s.easy_ways_in(), s.inside_boxes), p)
        })
        .collect();
    ranked.shuffle(rng);
    ranked.sort_by_key(|(key, _)| *key);
    let edit = LevelEdit::Shape;
    for (_, next) in ranked.into_iter().take(TRIES) {
        let check = MergeCheck::of(&next);
        check.tell(rec);
        if check.unique {
            rec.emit(|| level::kept_cages(edit, None, &next));
            return Some(next);
        }
        rec.emit(|| level::undone(edit));
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cage::Cage;
    use crate::generator::level::LevelsSetting;
    use crate::generator::{generate_puzzle, Outcome};
    use crate::geometry::Cell;
    use crate::solver;

    /// A 4x4 killer over the solution 1234 / 3412 / 2143 / 4321 (boxes 2x2).
    fn killer4(cages: &[(u16, &[u8])]) -> Puzzle {
        let g = Geometry::standard(4).unwrap();
        let cages = cages
            .iter()
            .map(|&(sum, cells)| Cage::new(sum, cells.iter().map(|&c| Cell::new(c)).collect()))
            .collect();
        Puzzle::new(g, Grid::empty(4), cages).unwrap()
    }

    /// Pairs across the box boundary in rows 2 and 3: no house isolates one cell.
    #[test]
    fn crossing_pairs_leave_no_one_cell_house() {
        let puzzle = killer4(&[
            (3, &[0, 1]),  // {1,2}: the only pair adding to 3
            (7, &[2, 3]),  // {3,4}: the only one adding to 7 on 1..4
            (5, &[4, 8]),  // {1,4} or {2,3}
            (5, &[5, 9]),  //
            (5, &[6, 10]), //
            (5, &[7, 11]), //
            (7, &[12, 13]),
            (3, &[14, 15]),
        ]);
        let s = Structure::of(&puzzle);
        assert_eq!(s.single_combination, 4, "sums 3 and 7 in two cells of 1..4");
        // Rows 1 and 4 are tiled; every other house has two innies and two outies.
        assert_eq!(s.one_cell_houses, 0);
        assert_eq!(
            s.inside_boxes, 4,
            "the horizontal pairs lie in one box each"
        );
        assert_eq!(s.easy_ways_in(), 4);
    }

    /// An L-shaped cage sticking out of row 2 and box 2 by one cell, and another out of row 4
    /// and box 4: four houses whose rule of 45 isolates one cell.
    #[test]
    fn finds_the_houses_that_isolate_one_cell() {
        let puzzle = killer4(&[
            (3, &[0, 1]),
            (7, &[2, 3]),
            (7, &[4, 5]),
            (6, &[6, 7, 11]), // r2c3, r2c4 and r3c4: one outie of row 2, one innie of box 4
            (3, &[8, 9]),     //
            (7, &[10, 14, 15]), // r3c3, r4c3, r4c4: one outie of row 4 (r3c3)
            (7, &[12, 13]),
        ]);
        let s = Structure::of(&puzzle);
        // Row 2 (outie r3c4), row 4 (outie r3c3), box 2 (outie r3c4), box 4 (innie r3c4).
        assert_eq!(s.one_cell_houses, 4);
        assert_eq!(
            s.single_combination, 7,
            "every sum here has one combination on 1..4"
        );
        assert_eq!(s.inside_boxes, 6, "all but the L across boxes 2 and 4");
    }

    /// A default batch's extreme share stays merged; naming levels asks for shaped extremes on
    /// 9x9 killers only.
    #[test]
    fn only_asked_for_extremes_are_shaped() {
        let asked = GeneratorConfig {
            levels: Some(LevelsSetting::List(vec!["extreme".into()])),
            ..GeneratorConfig::default()
        };
        assert_eq!(
            ExtremeKind::of(&GeneratorConfig::default()),
            ExtremeKind::Merged
        );
        assert_eq!(ExtremeKind::of(&asked), ExtremeKind::Shaped);
        assert_eq!(asked.validate().unwrap().extreme, ExtremeKind::Shaped);
        for other in [
            GeneratorConfig {
                size: 12,
                ..asked.clone()
            },
            GeneratorConfig {
                size: 6,
                ..asked.clone()
            },
            GeneratorConfig {
                variant: Variant::KillerJigsaw,
                ..asked.clone()
            },
            GeneratorConfig {
                givens: GivensPolicy::Minimal,
                ..asked.clone()
            },
        ] {
            assert_eq!(ExtremeKind::of(&other), ExtremeKind::Merged, "{other:?}");
        }
    }

    /// `--level extreme` on 9x9: every item is made (trial, or else the hardest puzzle above
    /// expert its layouts met), proved unique, with zero givens, cages of two to five cells, no
    /// easy way in, and the grader's level extreme (3 or more of 6 needed trial until grader 10's
    /// nested killer forcing chains, 1 of 6 until grader 11's locked candidates in the chains, none
    /// since: each is then the hardest puzzle above expert its layouts met).
    #[test]
    fn extremes_have_no_easy_way_in() {
        let config = GeneratorConfig {
            levels: Some(LevelsSetting::List(vec!["extreme".into()])),
            ..GeneratorConfig::default()
        };
        for index in 0..6 {
            match generate_puzzle(&config, 7, index) {
                Outcome::Generated(g) => {
                    let p = &g.puzzle;
                    assert_eq!(solver::solve(p, 2).solutions, vec![g.solution.clone()]);
                    assert_eq!(p.givens().count_filled(), 0);
                    assert!(p.cages().iter().all(|c| (2..=MAX_CAGE).contains(&c.len())));
                    assert_eq!(Structure::of(p).easy_ways_in(), 0);
                    assert_eq!(g.metrics.grade.level, Some(Level::Extreme));
                }
                Outcome::Rejected(other) => panic!("item {index}: {other:?}"),
            }
        }
    }
}
