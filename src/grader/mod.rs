//! Human-style grader: solves a puzzle the way people do, step by step, and rates it by the
//! hardest techniques it needed (pure core, beside the solver).

pub mod state;
pub mod step;
pub mod techniques;

pub use state::{Board, Contradiction};
pub use step::{Step, Technique, Tier};
