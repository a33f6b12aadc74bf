//! Combination blocking: set theory beyond one equation or one cage at a time. A virtual cage
//! (the innies or outies of a region of whole houses, or their difference) and the real cages
//! that hold its cells are taken together, as are a house and the cages that cross it; a digit
//! stays only where some filling of all those cells meets every sum at once (cells that share a
//! house or a cage differ). The widest joint is a band or stack (three rows or columns of a 9x9
//! and every cage crossing them), as in the forum's "45 rule on a band". This is how people on the killer forums combine two rules: "the
//! innies of rows 1-3 make 10 in r3c1 + r3c2, and the 15(3) cage that holds r3c1 then cannot be
//! {1,5,9}".
//!
//! The rungs sit above sum algebra and run only when every cheaper rung is stuck. `search` is the
//! joint search (one small constraint search per candidate, witnesses shared); `finders` builds
//! the cell groups and turns what the search keeps into steps; `forcing` follows a cell's
//! candidates through the whole board's sums at once (killer forcing chains, and nested ones, the
//! last rungs).

mod finders;
mod forcing;
mod search;

pub use finders::{cage_blocking, house_blocking};
pub use forcing::{killer_forcing, nested_killer_forcing};

#[cfg(test)]
pub(crate) use finders::houses_joint_step;
