//! Human-style grader: solves a puzzle the way people do, step by step, and rates it by the
//! hardest techniques it needed (pure core, beside the solver).
//!
//! `grade(&puzzle)` checks uniqueness with the solver (a node budget), then applies the easiest
//! technique of the ladder (`techniques::LADDER`) again and again, restarting from the easiest
//! after every step, and records the path. The level is the highest level among the rungs the
//! path needs (the lowest level whose techniques alone solve the puzzle: deductions only shrink
//! the candidates, so this does not depend on the path), raised by the level the path's work
//! reaches; the score puts the puzzle in its level's band of 10 and orders it there by its hardest
//! steps and the cells looked over, and an estimated solving time comes with it (see `score`'s
//! module doc). Trial (taken from the known solution, recorded as such) is the last resort, so
//! grading always ends.

mod direct;
pub mod grade;
mod houses;
pub mod json;
pub mod level;
pub mod score;
pub mod state;
pub mod step;
pub mod techniques;
pub mod text;

#[cfg(test)]
mod tests;

pub use grade::{grade, grade_within, is_sound, solve_logically, Grade, Path, Verdict};
pub use level::{Level, UnknownLevel};
pub use score::{HardestStep, LevelSource, Minutes};

/// The grader's version, stored with every grade: bump it whenever a change can move a puzzle's
/// level or score (a technique, a weight, the score formula, a level's score threshold). Files
/// opened for writing grade their rows of another version again, so one level means one thing in
/// a file.
/// 1: the ladder's levels (issue 6's first cut); 2: calibrated score and score thresholds.
/// 3: sum algebra (an expert rung before the chains).
/// 4: trial follows its assumption with the easy rungs only (scores of puzzles that need trial).
/// 5: the level-anchored score (level band + hardest steps + marks read) and estimated minutes
/// (levels unchanged).
/// 6: the score counts the empty cells looked over instead of the marks read, and a naked single
/// weighs 1.5 (scores and minutes; levels unchanged); combination blocking and cage interactions,
/// extreme rungs before forcing chains (issue 25: paths of puzzles that need them).
/// 7: the score orders inside a level also by how early the hardest step comes, by what the cage
/// sums leave open and the cages' size, and counts the cells looked over half when the hardest
/// step made the level (scores only; levels and minutes unchanged).
/// 8: the set-theory rungs' joint search propagates, bands and stacks join cage interactions
/// (now tried first), and a step earns nodes back (extremes' paths: most that needed trial now
/// need none).
/// 9: killer forcing chains (a cell's candidates or a digit's places followed through every cage,
/// house and innie/outie sum of a 9x9 board) before trial (paths that needed trial); and the
/// score orders killers inside a level also by the share of the grid left for pencil marks when
/// a solve without marks stalls (`direct`), with K and Z weighed again (levels unchanged).
/// 10: K and P weigh half as much (4 and ½), chosen on four Solo fit seeds instead of one
/// (killer scores only), and nested killer forcing chains (each branch followed with short
/// chains of its own) between killer forcing chains and trial (9x9 paths that needed trial).
/// 11: both killer forcing rungs follow locked candidates inside a branch (paths and scores of
/// 9x9 killers that reach them; levels unchanged).
pub const GRADER_VERSION: i64 = 11;
pub use state::{Board, Contradiction};
pub use step::{Step, Technique};
