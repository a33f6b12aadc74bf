//! Book pages: trim sizes, KDP margins and gutter, title and rules pages, puzzle pages with
//! section headers and folios, and answer keys; every page a [`Drawing`] in points. The trims
//! are in `trim.rs`, the pagination in `paginate.rs`, the drawing of each page in `pages.rs`.

mod pages;
mod paginate;
mod preflight;
mod trim;

pub use paginate::{MIN_KILLER_CELL, MIN_PLAIN_CELL, PER_PAGE};
pub use preflight::{preflight, InkOutside};
pub use trim::{gutter, kdp_gutter, Trim, BLEED, TRIMS};

use super::draw::{Drawing, TextWidth};
use crate::grader::Minutes;
use crate::grid::Grid;
use crate::puzzle::Puzzle;
use pages::{draw_page, Front};
use paginate::{check_readable, contents, key_grid, kind, plan};
use thiserror::Error;
use trim::body_for;

/// Where the answer keys go.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Answers {
    /// All at the end of the book.
    End,
    /// After each section.
    Section,
}

/// How the book looks.
#[derive(Clone, Debug, PartialEq)]
pub struct BookSettings {
    /// Title, on the title page.
    pub title: String,
    /// Page size.
    pub trim: Trim,
    /// Puzzles a page: 1, 2, 4 or 6.
    pub per_page: usize,
    /// Add KDP bleed to every page (the page box grows; contents stay inside the trim).
    pub bleed: bool,
    /// Shade cages with four tones.
    pub shade: bool,
    /// Where the answer keys go.
    pub answers: Answers,
}

/// One puzzle of the book.
#[derive(Clone, Debug)]
pub struct Entry<'a> {
    /// Its number in the book, shown above it and in the key.
    pub number: usize,
    /// Its level (any text: `easy` .. `extreme`).
    pub level: String,
    /// The estimated solving time, printed beside the level (`None`: not graded yet).
    pub minutes: Option<Minutes>,
    /// The puzzle.
    pub puzzle: &'a Puzzle,
    /// Its solution, for the key.
    pub solution: &'a Grid,
}

/// A section: a header and its puzzles.
#[derive(Clone, Debug)]
pub struct Section<'a> {
    /// Shown at the head of its first page and in the contents.
    pub title: String,
    /// Its puzzles, in order.
    pub entries: Vec<Entry<'a>>,
}

/// A rectangle in points.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Rect {
    /// Left.
    pub x: f32,
    /// Top.
    pub y: f32,
    /// Width.
    pub w: f32,
    /// Height.
    pub h: f32,
}

/// A laid-out page: the drawing spans the media box (trim plus bleed, if any).
#[derive(Clone, Debug, PartialEq)]
pub struct Page {
    /// Size and contents.
    pub drawing: Drawing,
    /// The trim box within the media box.
    pub trim_box: Rect,
    /// The bleed box (the whole media box) when bleed is on.
    pub bleed_box: Option<Rect>,
    /// Inside the margins: where all ink must be (see [`preflight`]).
    pub safe: Rect,
}

/// Why a book cannot be laid out.
#[derive(Debug, Error, PartialEq)]
pub enum LayoutError {
    /// A trim name not in [`TRIMS`].
    #[error("unknown trim {0:?}: use 6x9, 7x10, 8x10, 8.5x11, a4 or a5")]
    UnknownTrim(String),
    /// A per-page count not in [`PER_PAGE`].
    #[error("{0} puzzles a page is not a layout: use 1, 2, 4 or 6")]
    PerPage(usize),
    /// The title does not fit the title page.
    #[error("the title ({chars} characters) does not fit the title page of {trim} in three lines at 14 pt; shorten it or break its long words")]
    TitleTooLong {
        /// Its length in characters.
        chars: usize,
        /// The trim.
        trim: &'static str,
    },
    /// No puzzle to lay out.
    #[error("the book has no puzzles")]
    Empty,
    /// The cells would be too small to read.
    #[error("impossible layout: {what} puzzles {per_page} a page on {trim} get {cell:.1} pt cells, they need at least {min} pt; {hint}")]
    TooSmall {
        /// Puzzles a page asked for.
        per_page: usize,
        /// The kind of puzzle that does not fit, e.g. `killer 9x9`.
        what: String,
        /// The trim.
        trim: &'static str,
        /// The cell side it would get.
        cell: f32,
        /// The smallest readable side.
        min: f32,
        /// What fits instead.
        hint: String,
    },
}

/// Books of at least this many puzzles open with a title page and contents; a shorter one (a
/// feed day's five, a sampler) opens with the rules, as a leaflet would: a contents page listing
/// one or two sections of one or two pages each tells the reader nothing.
pub const FRONT_FROM: usize = 12;

/// Lay out the whole book: title page, rules page, then each section's puzzle pages, with the
/// answer keys after each section or at the end.
pub fn layout_book(
    settings: &BookSettings,
    sections: &[Section],
    width: TextWidth,
) -> Result<Vec<Page>, LayoutError> {
    if !PER_PAGE.contains(&settings.per_page) {
        return Err(LayoutError::PerPage(settings.per_page));
    }
    let all: Vec<&Entry> = sections.iter().flat_map(|s| &s.entries).collect();
    if all.is_empty() {
        return Err(LayoutError::Empty);
    }
    let key_n = all.iter().map(|e| e.puzzle.size()).max().unwrap_or(9);
    // The gutter depends on the page count and the page count on the answer grids a page, which
    // depend on the gutter: iterate to the fixed point (both only grow, so it comes fast).
    let with_title = all.len() >= FRONT_FROM;
    let mut g = gutter(0);
    let plans = loop {
        let (cols, rows, _) =
            key_grid(body_for(&settings.trim, g), key_n).ok_or_else(|| LayoutError::TooSmall {
                per_page: settings.per_page,
                what: format!("answer {key_n}x{key_n}"),
                trim: settings.trim.name,
                cell: 0.0,
                min: 12.0,
                hint: "choose a larger trim".into(),
            })?;
        let plans = plan(settings, sections, cols * rows, with_title);
        let next = gutter(plans.len());
        if next == g {
            break plans;
        }
        g = next;
    };
    check_readable(settings, sections, body_for(&settings.trim, g))?;
    if with_title && !pages::title_fits(&settings.title, body_for(&settings.trim, g).w, width) {
        return Err(LayoutError::TitleTooLong {
            chars: settings.title.chars().count(),
            trim: settings.trim.name,
        });
    }
    let contents = contents(&plans);
    let mut kinds: Vec<String> = Vec::new();
    for e in &all {
        let k = kind(e.puzzle);
        if !kinds.contains(&k) {
            kinds.push(k);
        }
    }
    let plural = if all.len() == 1 { "" } else { "s" };
    let front = Front {
        subtitle: format!("{} puzzle{plural} \u{b7} {}", all.len(), kinds.join(", ")),
        contents,
        killer: all.iter().any(|e| e.puzzle.is_killer()),
        jigsaw: all.iter().any(|e| e.puzzle.geometry().is_jigsaw()),
        largest: key_n,
        sizes: {
            let mut sizes: Vec<usize> = all.iter().map(|e| e.puzzle.size()).collect();
            sizes.sort_unstable();
            sizes.dedup();
            sizes
        },
    };
    Ok(plans
        .iter()
        .enumerate()
        .map(|(i, p)| draw_page(settings, g, i + 1, p, &front, key_n, width))
        .collect())
}

/// A level or title with its first letter in capitals.
pub fn capitalised(s: &str) -> String {
    let mut chars = s.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}
