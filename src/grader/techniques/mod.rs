//! The technique ladder: one finder function per technique, tried easiest first.
//!
//! A finder looks at a `Board` and returns the first step it sees (or `None`); it never changes
//! the board. Finders are grouped by family, one file each.
pub mod plain;
