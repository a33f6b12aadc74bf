//! Trim sizes, KDP's margins, bleed and gutter, and the areas of a page they leave.

use super::{LayoutError, Rect};

/// Points per inch.
const INCH: f32 = 72.0;
/// KDP bleed: 0.125 in beyond the trim on the top, bottom and outside edges.
pub const BLEED: f32 = 0.125 * INCH;
/// Outside, top and bottom margin: 0.5 in (KDP asks for at least 0.25 in, 0.375 in with bleed).
const MARGIN: f32 = 0.5 * INCH;
/// Band at the top of the text area for the section header or running head.
const HEAD: f32 = 30.0;
/// Band at the bottom of the text area for the folio.
const FOOT: f32 = 20.0;
/// Room kept inside the text area's sides for half the widest grid frame (8 % of a 60 pt cell,
/// 4.8 pt), so that a frame drawn on the body's edge keeps its ink inside the margins.
const INK: f32 = 2.5;

/// A trim size (the finished page).
#[derive(Clone, Debug, PartialEq)]
pub struct Trim {
    /// Its name, as given to `--trim`.
    pub name: &'static str,
    /// Width in points.
    pub width: f32,
    /// Height in points.
    pub height: f32,
}

/// The trim sizes known: KDP's common US trims and ISO A4 and A5.
pub const TRIMS: [Trim; 6] = [
    Trim {
        name: "6x9",
        width: 6.0 * INCH,
        height: 9.0 * INCH,
    },
    Trim {
        name: "7x10",
        width: 7.0 * INCH,
        height: 10.0 * INCH,
    },
    Trim {
        name: "8x10",
        width: 8.0 * INCH,
        height: 10.0 * INCH,
    },
    Trim {
        name: "8.5x11",
        width: 8.5 * INCH,
        height: 11.0 * INCH,
    },
    Trim {
        name: "a4",
        width: 595.28,
        height: 841.89,
    },
    Trim {
        name: "a5",
        width: 419.53,
        height: 595.28,
    },
];

impl Trim {
    /// The trim called `name` (case-insensitive), if known.
    pub fn parse(name: &str) -> Result<Trim, LayoutError> {
        TRIMS
            .iter()
            .find(|t| t.name.eq_ignore_ascii_case(name.trim()))
            .cloned()
            .ok_or_else(|| LayoutError::UnknownTrim(name.to_string()))
    }
}

/// The inside (gutter) margin of a paperback of `pages` pages: KDP's minimum for that count, but
/// never less than the outside margin (as book designers do: the binding takes some of it).
pub fn gutter(pages: usize) -> f32 {
    kdp_gutter(pages).max(MARGIN)
}

/// KDP's minimum inside margin for a paperback of `pages` pages.
pub fn kdp_gutter(pages: usize) -> f32 {
    INCH * match pages {
        0..=150 => 0.375,
        151..=300 => 0.5,
        301..=500 => 0.625,
        501..=700 => 0.75,
        _ => 0.875,
    }
}

/// The text area of a page: inside the margins, gutter on the binding side.
pub(super) fn text_area(trim: &Trim, gutter: f32, page: usize) -> Rect {
    let right_hand = page % 2 == 1;
    let x = if right_hand { gutter } else { MARGIN };
    Rect {
        x,
        y: MARGIN,
        w: trim.width - gutter - MARGIN,
        h: trim.height - 2.0 * MARGIN,
    }
}

/// The area below the head band and above the folio band.
pub(super) fn body(area: Rect) -> Rect {
    Rect {
        x: area.x + INK,
        y: area.y + HEAD,
        w: area.w - 2.0 * INK,
        h: area.h - HEAD - FOOT,
    }
}

/// The body of a right-hand page of `trim` with `gutter`: what readability is checked against.
pub(super) fn body_for(trim: &Trim, gutter: f32) -> Rect {
    body(text_area(trim, gutter, 1))
}
