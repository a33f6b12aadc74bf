//! The generator: puzzle `index` of run `seed` as a pure function of (config, seed, index).
//!
//! Stages (after the source documents, done well): a seed grid by randomized backtracking (with
//! random jigsaw regions for jigsaw variants), shared by `variations_per_seed` consecutive items;
//! the item's own random validity-preserving transform of it (the variation algorithm); a cage
//! layout (`book`, `ordered` or `random-walk`); then cage-aware uniqueness — zero givens by
//! reshaping the layout, or minimal givens.

pub mod cage_layout;
mod config;
pub mod extreme;
pub mod fill;
pub mod jigsaw;
pub mod level;
pub mod mix;
mod ordered;
mod random_walk;
pub mod record;
mod repair;
pub mod sparse;
pub mod unique;
mod warnsdorff;

pub use config::{CageBuilderKind, ConfigError, GeneratorConfig, GivensPolicy, Resolved, Variant};

use crate::geometry::Geometry;
use crate::grader::{self, Grade};
use crate::grid::Grid;
use crate::puzzle::Puzzle;
use crate::solver::SolveStats;
use crate::transform::GridTransform;
use cage_layout::{CageLayout, LayoutRules};
use extreme::ExtremeKind;
use rand::Rng;
use rand_pcg::Pcg64Mcg;
use record::{Event, Recorder};
use unique::{Checker, ZeroGivenFailure};

/// Changes whenever the output for the same (seed, index, config) changes.
pub const GENERATOR_VERSION: &str = "23";

/// A finished puzzle with its solution and metrics.
#[derive(Clone, Debug, PartialEq)]
pub struct Generated {
    /// The puzzle (cages and givens).
    pub puzzle: Puzzle,
    /// Its unique solution.
    pub solution: Grid,
    /// How it came to be and how hard it looks.
    pub metrics: Metrics,
}

/// Metrics of one generated puzzle.
#[derive(Clone, Debug, PartialEq)]
pub struct Metrics {
    /// Number of givens.
    pub givens: usize,
    /// Number of cages.
    pub cage_count: usize,
    /// Number of cages of each size (index = size, length N+1).
    pub cage_sizes: Vec<u32>,
    /// Solver nodes of a count-to-two search on the final puzzle.
    pub nodes: u64,
    /// Solver guesses of that search.
    pub guesses: u64,
    /// The human-style grade (level, score, hardest technique, technique counts, trial).
    pub grade: Grade,
    /// Solver calls spent making this puzzle.
    pub solver_calls: u32,
    /// Layout repairs (zero-given killers).
    pub repairs: u32,
    /// Search nodes of all those solver calls together.
    pub search_nodes: u64,
    /// Solver calls that ran out of their node budget (`unique::SOLVER_NODE_BUDGET`) undecided.
    pub undecided: u32,
}

/// Why an item produced no puzzle. An expected outcome, not an error.
#[derive(Clone, Debug, PartialEq)]
pub enum Rejection {
    /// The configuration does not validate.
    InvalidConfig(ConfigError),
    /// No jigsaw regions admitting a grid were found (or no seed grid within the node bound).
    NoSeedGrid,
    /// No cage layout met the rules (count range, no single cells) within the builder's draws.
    NoLayout,
    /// No edit of the layout (or givens) within the budget reached the target level.
    OffLevel {
        /// The level asked for.
        target: grader::Level,
    },
    /// The layout stayed ambiguous after `repairs` repairs (or redraws) and `solver_calls` checks.
    NotUnique {
        /// Repairs made.
        repairs: u32,
        /// Solver calls made.
        solver_calls: u32,
    },
}

/// The result of one work item.
// Made and moved once per item: boxing the large variant would buy nothing.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug, PartialEq)]
pub enum Outcome {
    /// A unique puzzle.
    Generated(Generated),
    /// No puzzle, and why.
    Rejected(Rejection),
}

/// A seed grid and the geometry it fills (jigsaw regions belong to the seed).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeedGrid {
    /// Boxes or regions.
    pub geometry: Geometry,
    /// A complete valid grid.
    pub grid: Grid,
}

/// Stream domain of seed grids, keyed by the seed-grid group `index / variations_per_seed`.
const SEED_STREAM: u64 = 0x5EED;
/// Stream domain of work items, keyed by the item index.
const ITEM_STREAM: u64 = 0x17E4;
/// Stream domain of level targets and steering, keyed by the item index (apart from the item's
/// own stream, so a run without targets makes the same puzzles as before).
const LEVEL_STREAM: u64 = 0x1E7E;
/// Fresh layouts (or givens) a targeted item tries before it is rejected as off-level.
const LEVEL_ATTEMPTS: usize = 6;

/// Puzzle `index` of the run with seed `seed`: depends on nothing else.
pub fn generate_puzzle(config: &GeneratorConfig, seed: u64, index: u64) -> Outcome {
    generate_puzzle_counted(config, seed, index).0
}

/// [`generate_puzzle`] with the uniqueness checks the item made, a rejected item's too (callers
/// that tally how often `unique::SOLVER_NODE_BUDGET` cuts a check off read `calls` and `undecided`).
pub fn generate_puzzle_counted(
    config: &GeneratorConfig,
    seed: u64,
    index: u64,
) -> (Outcome, Checker) {
    let mut checker = Checker::default();
    let outcome = generate_item(config, seed, index, &mut checker, &mut Recorder::off());
    (outcome, checker)
}

/// [`generate_puzzle`], telling `sink` what each stage did (the seed grid, the variation, the
/// layouts, every uniqueness check, repairs, level steering, givens): the same puzzle, recorded.
pub fn generate_recorded(
    config: &GeneratorConfig,
    seed: u64,
    index: u64,
    sink: &mut dyn FnMut(Event),
) -> Outcome {
    let mut checker = Checker::default();
    generate_item(config, seed, index, &mut checker, &mut Recorder::new(sink))
}

fn generate_item(
    config: &GeneratorConfig,
    seed: u64,
    index: u64,
    checker: &mut Checker,
    rec: &mut Recorder,
) -> Outcome {
    let resolved = match config.validate() {
        Ok(r) => r,
        Err(e) => return Outcome::Rejected(Rejection::InvalidConfig(e)),
    };
    let grid = seed_grid(config, &resolved, seed, seed_group(config, index));
    from_seed_grid(config, &resolved, grid.as_ref(), seed, index, checker, rec)
}

/// The group of item `index`: the items `group * variations_per_seed ..` share one seed grid.
pub fn seed_group(config: &GeneratorConfig, index: u64) -> u64 {
    index / u64::from(config.variations_per_seed.max(1))
}

/// Item `index` from its group's seed grid as [`seed_grid`] gave it (`None`: none could be made,
/// so the item is rejected).
fn from_seed_grid(
    config: &GeneratorConfig,
    resolved: &Resolved,
    grid: Option<&SeedGrid>,
    seed: u64,
    index: u64,
    checker: &mut Checker,
    rec: &mut Recorder,
) -> Outcome {
    match grid {
        Some(seed_grid) => {
            rec.emit(|| Event::Seed {
                grid: seed_grid.grid.clone(),
                regions: jigsaw_regions(&seed_grid.geometry),
            });
            generate_checked(config, resolved, seed_grid, seed, index, checker, rec)
        }
        None => Outcome::Rejected(Rejection::NoSeedGrid),
    }
}

/// The region map of a jigsaw geometry (`None` for boxes).
fn jigsaw_regions(geometry: &Geometry) -> Option<Vec<u8>> {
    geometry.is_jigsaw().then(|| geometry.region_map().to_vec())
}

/// The seed grid of group `group` (items `group * variations_per_seed ..`), a pure function of
/// (config, seed, group): callers that run many consecutive items may compute it once and call
/// [`generate_from_seed`] for each, with the same result as [`generate_puzzle`].
pub fn seed_grid(
    config: &GeneratorConfig,
    resolved: &Resolved,
    seed: u64,
    group: u64,
) -> Option<SeedGrid> {
    let rng = &mut stream(seed, SEED_STREAM, group);
    if config.variant.is_jigsaw() {
        let (geometry, grid) = jigsaw::random_jigsaw(config.size as usize, rng)?;
        return Some(SeedGrid { geometry, grid });
    }
    let grid = fill::random_grid(&resolved.geometry, rng)?;
    Some(SeedGrid {
        geometry: resolved.geometry.clone(),
        grid,
    })
}

/// Puzzle `index` from its group's seed grid (as [`seed_grid`] returns it).
pub fn generate_from_seed(
    config: &GeneratorConfig,
    resolved: &Resolved,
    seed_grid: &SeedGrid,
    seed: u64,
    index: u64,
) -> Outcome {
    generate_from_seed_counted(config, resolved, Some(seed_grid), seed, index).0
}

/// [`generate_from_seed`] with the item's uniqueness checks, as [`generate_puzzle_counted`] gives
/// them: the same outcome and checker as that call when `seed_grid` is what [`seed_grid`] gave
/// the item's group (`None` included).
pub fn generate_from_seed_counted(
    config: &GeneratorConfig,
    resolved: &Resolved,
    seed_grid: Option<&SeedGrid>,
    seed: u64,
    index: u64,
) -> (Outcome, Checker) {
    let mut checker = Checker::default();
    let outcome = from_seed_grid(
        config,
        resolved,
        seed_grid,
        seed,
        index,
        &mut checker,
        &mut Recorder::off(),
    );
    (outcome, checker)
}

/// [`generate_from_seed`], counting its uniqueness checks in `checker` (a fresh one per item).
fn generate_checked(
    config: &GeneratorConfig,
    resolved: &Resolved,
    seed_grid: &SeedGrid,
    seed: u64,
    index: u64,
    checker: &mut Checker,
    rec: &mut Recorder,
) -> Outcome {
    let rng = &mut stream(seed, ITEM_STREAM, index);
    let transform = GridTransform::random(&seed_grid.geometry, rng);
    let (geometry, solution) = transform.apply(&seed_grid.geometry, &seed_grid.grid);
    rec.emit(|| Event::Variation {
        transform: transform.clone(),
        grid: solution.clone(),
        regions: jigsaw_regions(&geometry),
    });
    // The target level is drawn first, from a stream of its own: an easy target starts from
    // smaller cages (the steering only splits cages of four or more cells).
    let level_rng = &mut stream(seed, LEVEL_STREAM, index);
    let target =
        (!resolved.levels.is_empty()).then(|| level::draw_target(&resolved.levels, level_rng));
    let Some(target) = target else {
        // Without a target one attempt, graded as it comes.
        let made = unique_puzzle(
            config,
            &resolved.rules,
            &geometry,
            &solution,
            checker,
            rec,
            rng,
        );
        let (puzzle, stats, repairs) = match made {
            Ok(made) => made,
            Err(rejection) => return Outcome::Rejected(rejection),
        };
        // The solution is known (and unique): grading trusts it instead of solving again.
        let grade = grader::grade::walk(&puzzle, Some(&solution), false).grade;
        rec.emit(|| done(&grade));
        return generated(puzzle, solution, grade, stats, checker, repairs);
    };
    // With a target, a few fresh layouts (or givens) from the same stream, each steered towards
    // it; easy, medium and (9x9) hard targets draw small cages (`small_cage_rules`).
    rec.emit(|| Event::Target { level: target });
    let shaped = target == grader::Level::Extreme && resolved.extreme == ExtremeKind::Shaped;
    let small = match shaped {
        true => Some(extreme::start_rules(config)),
        false => level::small_cage_rules(config, target),
    };
    let max_size = config.max_cage_size.map_or(geometry.size(), usize::from);
    let mut rejection = Rejection::OffLevel { target };
    let attempts = if shaped {
        extreme::ATTEMPTS
    } else {
        LEVEL_ATTEMPTS
    };
    // A shaped extreme's hardest puzzle above expert without trial, with its making's facts.
    let mut fallback: Option<(Puzzle, Grade, SolveStats, u32)> = None;
    for _ in 0..attempts {
        let rules = small.as_ref().unwrap_or(&resolved.rules);
        let made = unique_puzzle(config, rules, &geometry, &solution, checker, rec, rng);
        let (puzzle, stats, repairs) = match made {
            Ok(made) => made,
            // Bigger cages than this layout's are harder to make unique: smaller ones next.
            Err(r @ Rejection::NotUnique { .. }) if small.is_some() => {
                rec.emit(|| Event::Retry {
                    reason: "the layout stayed ambiguous, so smaller cages next".into(),
                });
                rejection = r;
                continue;
            }
            // A shaped extreme's 25-30 cages of two to five cells are sometimes not drawn (2 of
            // 153 items of seeds 3 and 31 lost that way after up to 25 layouts): draw again.
            Err(r @ Rejection::NoLayout) if shaped => {
                rec.emit(|| Event::Retry {
                    reason: "no layout of such cages could be drawn, so another draw".into(),
                });
                rejection = r;
                continue;
            }
            Err(r) => return Outcome::Rejected(r),
        };
        let reached = if shaped {
            match extreme::reach(puzzle, &solution, max_size, rec, level_rng) {
                extreme::Shaped::Trial(p, g) => level::Reached::OnLevel(p, g),
                extreme::Shaped::AboveExpert(p, g) => {
                    if fallback.as_ref().is_none_or(|f| g.score > f.1.score) {
                        fallback = Some((p, g, stats, repairs));
                    }
                    level::Reached::Off
                }
                extreme::Shaped::Off => level::Reached::Off,
            }
        } else if puzzle.is_killer() {
            level::reach(puzzle, &solution, target, max_size, rec, level_rng)
        } else {
            let grade = grader::grade(&puzzle);
            match level::steer(puzzle, grade, &solution, target, max_size, rec, level_rng) {
                Some((p, g)) => level::Reached::OnLevel(p, g),
                None => level::Reached::Off,
            }
        };
        match reached {
            level::Reached::OnLevel(puzzle, grade) => {
                rec.emit(|| done(&grade));
                return generated(puzzle, solution, grade, stats, checker, repairs);
            }
            level::Reached::Off => {
                rec.emit(|| Event::Retry {
                    reason: format!("no edit reached {target}, so a fresh layout"),
                });
                rejection = Rejection::OffLevel { target };
            }
        }
    }
    if let Some((puzzle, grade, stats, repairs)) = fallback {
        rec.emit(|| Event::Fallback {
            cages: puzzle.cages().to_vec(),
            attempts,
            score: grade.score,
        });
        rec.emit(|| done(&grade));
        return generated(puzzle, solution, grade, stats, checker, repairs);
    }
    Outcome::Rejected(rejection)
}

/// The closing event of a finished puzzle.
fn done(grade: &Grade) -> Event {
    Event::Done {
        level: grade.level,
        score: grade.score,
    }
}

/// A unique puzzle on `solution`: zero givens under a reshaped layout, or minimal givens (under
/// a drawn layout for killers), with the final check's statistics and the repairs made.
fn unique_puzzle(
    config: &GeneratorConfig,
    rules: &LayoutRules,
    geometry: &Geometry,
    solution: &Grid,
    checker: &mut Checker,
    rec: &mut Recorder,
    rng: &mut Pcg64Mcg,
) -> Result<(Puzzle, SolveStats, u32), Rejection> {
    let draw =
        |rng: &mut Pcg64Mcg| build_layout(config.cage_builder, geometry, solution, rules, rng);
    if !config.variant.has_cages() {
        let (p, s) = unique::minimal_givens(geometry, solution, Vec::new(), checker, rec, rng);
        return Ok((p, s, 0));
    }
    if config.givens == GivensPolicy::Minimal {
        let layout = draw(rng).ok_or(Rejection::NoLayout)?;
        let cages = layout.to_cages(solution);
        rec.emit(|| Event::Layout {
            cages: cages.clone(),
            redrawn: false,
        });
        let (p, s) = unique::minimal_givens(geometry, solution, cages, checker, rec, rng);
        return Ok((p, s, 0));
    }
    if sparse::is_sparse(rules, geometry.cell_count()) {
        return sparse_puzzle(config, rules, geometry, solution, checker, rec, rng);
    }
    let found = unique::unique_zero_given(
        geometry,
        solution,
        draw,
        rules,
        config.max_repairs,
        checker,
        rec,
        rng,
    );
    match found {
        Ok((p, repairs)) => Ok((p, checker.last, repairs)),
        Err(ZeroGivenFailure::NoLayout) => Err(Rejection::NoLayout),
        Err(ZeroGivenFailure::OutOfRepairs) => Err(Rejection::NotUnique {
            repairs: config.max_repairs,
            solver_calls: checker.calls,
        }),
    }
}

/// A sparse zero-given killer: a layout drawn at the target's cage count, shaped against the
/// solution's unavoidable sets and the solver's second solutions; each layout given up counts as
/// a repair.
fn sparse_puzzle(
    config: &GeneratorConfig,
    rules: &LayoutRules,
    geometry: &Geometry,
    solution: &Grid,
    checker: &mut Checker,
    rec: &mut Recorder,
    rng: &mut Pcg64Mcg,
) -> Result<(Puzzle, SolveStats, u32), Rejection> {
    for repairs in 0..config.max_repairs {
        match sparse::shaped(geometry, solution, rules, checker, rec, rng) {
            Ok(p) => return Ok((p, checker.last, repairs)),
            Err(ZeroGivenFailure::NoLayout) => return Err(Rejection::NoLayout),
            Err(ZeroGivenFailure::OutOfRepairs) => {}
        }
    }
    Err(Rejection::NotUnique {
        repairs: config.max_repairs,
        solver_calls: checker.calls,
    })
}

/// A layout by the chosen builder; `None` if the rules could not be met.
fn build_layout<R: Rng>(
    kind: CageBuilderKind,
    geometry: &Geometry,
    solution: &Grid,
    rules: &LayoutRules,
    rng: &mut R,
) -> Option<CageLayout> {
    if kind == CageBuilderKind::Book {
        return warnsdorff::build_warnsdorff(geometry, solution, rules, rng);
    }
    // The source builders may leave single cells; absorb them, redrawing a few times if needed.
    (0..8).find_map(|_| {
        let mut layout = match kind {
            CageBuilderKind::Ordered => ordered::build_ordered(geometry, solution, rules, rng),
            _ => random_walk::build_random_walk(geometry, solution, rules, rng),
        };
        (rules.allow_singles || layout.absorb_singles(geometry, solution, rules.max_size))
            .then_some(layout)
    })
}

/// The outcome of a made puzzle: it, its solution and its metrics.
fn generated(
    puzzle: Puzzle,
    solution: Grid,
    grade: Grade,
    stats: SolveStats,
    checker: &Checker,
    repairs: u32,
) -> Outcome {
    let metrics = metrics_of(&puzzle, grade, stats, checker, repairs);
    Outcome::Generated(Generated {
        puzzle,
        solution,
        metrics,
    })
}

fn metrics_of(
    puzzle: &Puzzle,
    grade: Grade,
    stats: SolveStats,
    checker: &Checker,
    repairs: u32,
) -> Metrics {
    let n = puzzle.size();
    let mut cage_sizes = vec![0u32; n + 1];
    for cage in puzzle.cages() {
        cage_sizes[cage.len()] += 1;
    }
    Metrics {
        givens: puzzle.givens().count_filled(),
        cage_count: puzzle.cages().len(),
        cage_sizes,
        nodes: stats.nodes,
        guesses: stats.guesses,
        grade,
        solver_calls: checker.calls,
        repairs,
        search_nodes: checker.nodes,
        undecided: checker.undecided,
    }
}

/// The PCG stream of `(seed, domain, key)`: splitmix64 mixing, so nearby seeds and keys give
/// unrelated streams and item `i` needs nothing but its own key.
fn stream(seed: u64, domain: u64, key: u64) -> Pcg64Mcg {
    let a = splitmix64(seed ^ splitmix64(domain));
    let hi = splitmix64(a ^ splitmix64(key));
    let lo = splitmix64(hi ^ 0xD1B5_4A32_D192_ED03);
    Pcg64Mcg::new(((hi as u128) << 64) | lo as u128)
}

/// Steele, Lea and Flood's splitmix64 finalizer.
fn splitmix64(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

#[cfg(test)]
mod tests;
