//! Print and web geometry, no I/O: puzzle grids and book pages as display lists of strokes, fills
//! and text in points, which the writers in `render` turn into PDF or SVG.

pub mod book;
pub mod draw;
pub mod outline;
pub mod shade;

pub use book::{layout_book, Answers, BookSettings, Entry, LayoutError, Page, Section, Trim};
pub use draw::{draw_grid, puzzle_picture, Drawing, GridStyle, Item};

#[cfg(test)]
mod tests;
