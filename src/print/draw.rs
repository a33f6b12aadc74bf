//! The display list (strokes, fills, text in points) and the drawing of one puzzle grid into it.
//!
//! Proportions follow Solo's print path (`game_print` in `solo.c`), with KDP's floors: every line
//! at least [`MIN_LINE`] pt, every text at least [`MIN_TEXT`] pt.

use super::outline::outline;
use super::shade::cage_tones;
use crate::grid::Grid;
use crate::puzzle::Puzzle;

/// KDP's thinnest printable line, in points.
pub const MIN_LINE: f32 = 0.75;
/// KDP's smallest type size, in points.
pub const MIN_TEXT: f32 = 7.0;
/// Grey levels (fraction of black) of the four cage tones: white and three light greys
/// (KDP asks for at least 10 % in a black-and-white interior).
pub const TONE_GREYS: [f32; 4] = [0.0, 0.10, 0.17, 0.24];

/// A point in points, origin top-left, y downwards.
pub type Point = (f32, f32);

/// One run of connected line segments.
#[derive(Clone, Debug, PartialEq)]
pub struct Polyline {
    /// The vertices, in order.
    pub points: Vec<Point>,
    /// Is the last vertex joined back to the first?
    pub closed: bool,
}

/// How a text is placed relative to its x.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Align {
    /// x is the left end.
    Left,
    /// x is the middle.
    Center,
    /// x is the right end.
    Right,
}

/// Font weight (DejaVu Sans or DejaVu Sans Bold).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Weight {
    /// Regular.
    Regular,
    /// Bold.
    Bold,
}

/// The width in points of a text in a weight at a size: how layout and preflight measure text
/// (the writers' embedded fonts give it: `render::font::text_width`).
pub type TextWidth = fn(Weight, &str, f32) -> f32;

/// One drawing operation.
#[derive(Clone, Debug, PartialEq)]
pub enum Item {
    /// Fill the area enclosed by the polylines (non-zero winding) with a grey.
    Fill {
        /// The outline.
        path: Vec<Polyline>,
        /// Fraction of black, 0 (white) to 1.
        grey: f32,
    },
    /// Stroke the polylines in black.
    Stroke {
        /// The lines.
        path: Vec<Polyline>,
        /// Line width in points.
        width: f32,
        /// Dash length and gap, in points; `None` for a solid line.
        dash: Option<(f32, f32)>,
    },
    /// Black text on one line.
    Text {
        /// Anchor x (see `align`).
        x: f32,
        /// Baseline y.
        y: f32,
        /// Size in points.
        size: f32,
        /// The characters.
        text: String,
        /// Placement relative to `x`.
        align: Align,
        /// Weight.
        weight: Weight,
    },
}

impl Item {
    /// The same item moved by `(dx, dy)`.
    pub fn translated(mut self, dx: f32, dy: f32) -> Item {
        match &mut self {
            Item::Fill { path, .. } | Item::Stroke { path, .. } => {
                for line in path {
                    for p in &mut line.points {
                        *p = (p.0 + dx, p.1 + dy);
                    }
                }
            }
            Item::Text { x, y, .. } => {
                *x += dx;
                *y += dy;
            }
        }
        self
    }
}

impl Item {
    /// The box the item's ink can cover, stroke widths included, as (left, top, right, bottom);
    /// text is measured with `width` (the set width of a text at a size) and DejaVu Sans's
    /// ascender and descender (0.93 and 0.24 em), which bound every glyph drawn. `None` when
    /// nothing is drawn.
    pub fn ink_bounds(&self, width: TextWidth) -> Option<(f32, f32, f32, f32)> {
        let points = |path: &[Polyline], pad: f32| {
            let mut b: Option<(f32, f32, f32, f32)> = None;
            for p in path.iter().flat_map(|l| &l.points) {
                let (l, t, r, bt) = b.unwrap_or((p.0, p.1, p.0, p.1));
                b = Some((l.min(p.0), t.min(p.1), r.max(p.0), bt.max(p.1)));
            }
            b.map(|(l, t, r, bt)| (l - pad, t - pad, r + pad, bt + pad))
        };
        match self {
            Item::Fill { path, .. } => points(path, 0.0),
            // Lines meet at right angles with square corners at most: half the width each way.
            Item::Stroke { path, width, .. } => points(path, width / 2.0),
            Item::Text {
                x,
                y,
                size,
                text,
                align,
                weight,
            } => {
                let w = width(*weight, text, *size);
                let left = match align {
                    Align::Left => *x,
                    Align::Center => x - w / 2.0,
                    Align::Right => x - w,
                };
                Some((left, y - 0.93 * size, left + w, y + 0.24 * size))
            }
        }
    }
}

/// A page or a picture: its size in points and what is drawn on it, in drawing order.
#[derive(Clone, Debug, PartialEq)]
pub struct Drawing {
    /// Width in points.
    pub width: f32,
    /// Height in points.
    pub height: f32,
    /// The operations.
    pub items: Vec<Item>,
}

/// What to draw of a puzzle.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct GridStyle {
    /// Cell side in points.
    pub cell: f32,
    /// Shade cages with four tones (killers only).
    pub shade: bool,
    /// Draw the cages and their sums (off for answer keys).
    pub cages: bool,
}

/// Width of the thin cell lines and of the cage dashes for cell side `c`.
pub fn thin_line(c: f32) -> f32 {
    (0.025 * c).max(MIN_LINE)
}

/// Width of box and region lines (and the border) for cell side `c`.
pub fn thick_line(c: f32) -> f32 {
    (0.08 * c).max(1.8)
}

/// Size of a cage sum for cell side `c`: a quarter of the cell, but never under KDP's 7 pt.
pub fn sum_size(c: f32) -> f32 {
    (0.25 * c).max(MIN_TEXT)
}

/// The text of a digit: 1-9, and 10-16 as two decimal digits (as f-puzzles and SudokuPad show them).
pub fn digit_text(value: u8) -> String {
    value.to_string()
}

/// Draw `puzzle` with its top-left corner at `origin`, filled in with `solution` if given.
/// Order: shading, thin cell lines, cage outlines, thick region lines, sums, digits.
pub fn draw_grid(
    puzzle: &Puzzle,
    solution: Option<&Grid>,
    origin: Point,
    style: GridStyle,
) -> Vec<Item> {
    let g = puzzle.geometry();
    let n = g.size();
    let c = style.cell;
    let at = |p: (f32, f32)| (origin.0 + p.0 * c, origin.1 + p.1 * c);
    let loops_to_path = |loops: Vec<Vec<(f32, f32)>>| -> Vec<Polyline> {
        loops
            .into_iter()
            .map(|l| Polyline {
                points: l.into_iter().map(at).collect(),
                closed: true,
            })
            .collect()
    };
    let mut items = Vec::new();
    let killer = style.cages && puzzle.is_killer();
    let mut owner = vec![usize::MAX; g.cell_count()];
    for (k, cage) in puzzle.cages().iter().enumerate() {
        for cell in &cage.cells {
            owner[cell.as_index()] = k;
        }
    }
    if killer && style.shade {
        let tones = cage_tones(puzzle);
        for (k, _) in puzzle.cages().iter().enumerate() {
            let grey = TONE_GREYS[tones[k] as usize];
            if grey > 0.0 {
                let path = loops_to_path(outline(n, |r, col| owner[r * n + col] == k, 0.0));
                items.push(Item::Fill { path, grey });
            }
        }
    }
    let mut thin = Vec::new();
    for i in 1..n {
        let t = i as f32;
        thin.push(Polyline {
            points: vec![at((0.0, t)), at((n as f32, t))],
            closed: false,
        });
        thin.push(Polyline {
            points: vec![at((t, 0.0)), at((t, n as f32))],
            closed: false,
        });
    }
    items.push(Item::Stroke {
        path: thin,
        width: thin_line(c),
        dash: None,
    });
    if killer {
        let w = thin_line(c).max(0.85);
        let mut path = Vec::new();
        for k in 0..puzzle.cages().len() {
            path.extend(loops_to_path(outline(
                n,
                |r, col| owner[r * n + col] == k,
                0.125,
            )));
        }
        items.push(Item::Stroke {
            path,
            width: w,
            dash: Some((3.0 * w, 3.0 * w)),
        });
    }
    let mut regions = Vec::new();
    for region in 0..n {
        regions.extend(loops_to_path(outline(
            n,
            |r, col| g.region(g.cell_at(r, col)) == region,
            0.0,
        )));
    }
    items.push(Item::Stroke {
        path: regions,
        width: thick_line(c),
        dash: None,
    });
    if killer {
        let fs = sum_size(c);
        for cage in puzzle.cages() {
            let first = cage.cells[0];
            let (x, y) = at((g.col(first) as f32, g.row(first) as f32));
            items.push(Item::Text {
                x: x + 0.175 * c,
                // Lower the baseline by what the 7 pt floor adds, so the glyph top stays clear of
                // the dashes.
                y: y + 0.4 * c + (fs - 0.25 * c),
                size: fs,
                text: cage.sum.to_string(),
                align: Align::Left,
                weight: Weight::Regular,
            });
        }
    }
    let givens = puzzle.givens();
    for cell in g.cells() {
        let Some(d) = solution.and_then(|s| s.get(cell)).or(givens.get(cell)) else {
            continue;
        };
        // In a killer the sum sits in the top-left corner: a smaller digit, lower down. Grids
        // with two-digit numbers set every digit smaller, so all digits of a grid match.
        let (size, centre) = match (killer, n > 9) {
            (false, false) => (0.6 * c, 0.5),
            (false, true) => (0.5 * c, 0.5),
            (true, _) => (0.45 * c, 0.6),
        };
        let size = size.max(MIN_TEXT);
        let (x, y) = at((g.col(cell) as f32 + 0.5, g.row(cell) as f32 + centre));
        items.push(Item::Text {
            x,
            // DejaVu Sans digits are 0.729 em tall: half of that below the centre line.
            y: y + 0.36 * size,
            size,
            text: digit_text(d.get()),
            align: Align::Center,
            weight: Weight::Regular,
        });
    }
    items
}

/// One puzzle (or its solution, when `solution` is given) as a picture with a margin of half a
/// cell, for web pages: the same drawing as in the books.
pub fn puzzle_picture(puzzle: &Puzzle, solution: Option<&Grid>, cell: f32, shade: bool) -> Drawing {
    let side = cell * puzzle.size() as f32;
    let margin = cell / 2.0;
    let style = GridStyle {
        cell,
        shade,
        cages: solution.is_none(),
    };
    Drawing {
        width: side + 2.0 * margin,
        height: side + 2.0 * margin,
        items: draw_grid(puzzle, solution, (margin, margin), style),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generator::{generate_puzzle, GeneratorConfig, Outcome};

    fn killer(size: u8) -> (Puzzle, Grid) {
        let config = GeneratorConfig {
            size,
            ..GeneratorConfig::default()
        };
        let Outcome::Generated(made) = generate_puzzle(&config, 7, 0) else {
            panic!("seed 7 item 0 generates")
        };
        (made.puzzle, made.solution)
    }

    fn texts(items: &[Item]) -> Vec<String> {
        items
            .iter()
            .filter_map(|i| match i {
                Item::Text { text, .. } => Some(text.clone()),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn a_killer_has_one_sum_per_cage_in_its_first_cell_and_one_dashed_stroke() {
        let (p, _) = killer(9);
        let items = draw_grid(
            &p,
            None,
            (10.0, 20.0),
            GridStyle {
                cell: 30.0,
                shade: false,
                cages: true,
            },
        );
        let sums: Vec<String> = p.cages().iter().map(|c| c.sum.to_string()).collect();
        assert_eq!(texts(&items), sums);
        let dashed: Vec<_> = items
            .iter()
            .filter(|i| matches!(i, Item::Stroke { dash: Some(_), .. }))
            .collect();
        assert_eq!(dashed.len(), 1);
        if let Item::Stroke { path, .. } = dashed[0] {
            assert!(path.len() >= p.cages().len());
        }
        // The first sum sits inside the top-left cell of its cage.
        let first = p.cages()[0].cells[0];
        let g = p.geometry();
        if let Item::Text { x, y, size, .. } = items
            .iter()
            .find(|i| matches!(i, Item::Text { .. }))
            .unwrap()
        {
            let (x0, y0) = (
                10.0 + g.col(first) as f32 * 30.0,
                20.0 + g.row(first) as f32 * 30.0,
            );
            assert!(
                *x > x0 + 3.75 && *x < x0 + 15.0,
                "sum x {x} in cell from {x0}"
            );
            assert!(
                *y - 0.73 * size > y0 + 3.75 && *y < y0 + 15.0,
                "sum baseline {y}"
            );
        }
    }

    #[test]
    fn every_line_and_text_meets_the_kdp_floors_even_in_small_cells() {
        let (p, s) = killer(9);
        for cell in [12.0, 26.0, 40.0] {
            for (solution, cages) in [(None, true), (Some(&s), false)] {
                let items = draw_grid(
                    &p,
                    solution,
                    (0.0, 0.0),
                    GridStyle {
                        cell,
                        shade: true,
                        cages,
                    },
                );
                for item in &items {
                    match item {
                        Item::Stroke { width, .. } => assert!(*width >= MIN_LINE),
                        Item::Text { size, .. } => assert!(*size >= MIN_TEXT),
                        Item::Fill { grey, .. } => assert!(*grey >= 0.10),
                    }
                }
            }
        }
    }

    #[test]
    fn a_solution_shows_every_digit_and_no_cage() {
        let (p, s) = killer(6);
        let items = draw_grid(
            &p,
            Some(&s),
            (0.0, 0.0),
            GridStyle {
                cell: 14.0,
                shade: false,
                cages: false,
            },
        );
        let expected: Vec<String> = s.values().iter().map(|v| v.to_string()).collect();
        assert_eq!(texts(&items), expected);
        assert!(!items
            .iter()
            .any(|i| matches!(i, Item::Stroke { dash: Some(_), .. })));
    }

    #[test]
    fn shading_fills_only_cages_with_a_grey_tone() {
        let (p, _) = killer(9);
        let items = draw_grid(
            &p,
            None,
            (0.0, 0.0),
            GridStyle {
                cell: 30.0,
                shade: true,
                cages: true,
            },
        );
        let fills = items
            .iter()
            .filter(|i| matches!(i, Item::Fill { .. }))
            .count();
        assert!(fills > 0 && fills < p.cages().len());
    }
}
