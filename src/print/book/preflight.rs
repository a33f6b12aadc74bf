//! Preflight: every drawn element's ink (its bounds, stroke widths included) inside the page's
//! margins, as KDP requires of interior files.

use super::Page;
use crate::print::draw::TextWidth;

/// An element whose ink reaches past the margins.
#[derive(Clone, Debug, PartialEq)]
pub struct InkOutside {
    /// Page number, from 1.
    pub page: usize,
    /// The element's index on its page.
    pub item: usize,
    /// Its ink bounds (left, top, right, bottom) in points.
    pub bounds: (f32, f32, f32, f32),
    /// How far past the margin it reaches, in points (the largest of the four sides).
    pub past: f32,
}

/// Every element of `pages` whose ink is not inside its page's safe area (text measured with
/// `width`); empty when the book passes.
pub fn preflight(pages: &[Page], width: TextWidth) -> Vec<InkOutside> {
    // Rounding in the layout's sums may leave a few millionths of a point over.
    const SLACK: f32 = 0.001;
    let mut out = Vec::new();
    for (p, page) in pages.iter().enumerate() {
        let s = page.safe;
        for (i, item) in page.drawing.items.iter().enumerate() {
            let Some(b) = item.ink_bounds(width) else {
                continue;
            };
            let past = [s.x - b.0, s.y - b.1, b.2 - (s.x + s.w), b.3 - (s.y + s.h)]
                .into_iter()
                .fold(f32::MIN, f32::max);
            if past > SLACK {
                out.push(InkOutside {
                    page: p + 1,
                    item: i,
                    bounds: b,
                    past,
                });
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::super::*;
    use crate::generator::Variant;
    use crate::grader::Minutes;
    use crate::grid::Grid;
    use crate::print::draw::{Align, Item, Polyline};
    use crate::print::tests::made;
    use crate::puzzle::Puzzle;
    use crate::render::font::text_width;

    fn sections(puzzles: &[(Puzzle, Grid)]) -> Vec<Section<'_>> {
        vec![Section {
            title: "Extreme".into(),
            entries: puzzles
                .iter()
                .enumerate()
                .map(|(i, (p, s))| Entry {
                    number: i + 1,
                    level: "extreme".into(),
                    // The longest range the grader gives, so the widest caption.
                    minutes: Some(Minutes {
                        low: 100,
                        high: 150,
                    }),
                    puzzle: p,
                    solution: s,
                })
                .collect(),
        }]
    }

    #[test]
    fn all_ink_is_inside_the_margins_on_every_trim_per_page_variant_and_bleed() {
        let sets = [
            made(Variant::Killer, 9, 7),
            made(Variant::Killer, 6, 7),
            made(Variant::Classic, 9, 7),
            made(Variant::Jigsaw, 9, 7),
            made(Variant::KillerJigsaw, 9, 7),
            made(Variant::Classic, 4, 7),
        ];
        let mut books = 0;
        for puzzles in &sets {
            assert!(puzzles.len() >= 5);
            for trim in TRIMS {
                for per_page in PER_PAGE {
                    for (bleed, answers) in [(false, Answers::End), (true, Answers::Section)] {
                        let settings = BookSettings {
                            title: "Killer Sudoku Vol. 1".into(),
                            trim: trim.clone(),
                            per_page,
                            bleed,
                            shade: true,
                            answers,
                        };
                        // Refused layouts (cells too small) draw nothing.
                        let Ok(pages) = layout_book(&settings, &sections(puzzles), text_width)
                        else {
                            continue;
                        };
                        books += 1;
                        let outside = preflight(&pages, text_width);
                        assert!(
                            outside.is_empty(),
                            "{} {per_page} a page, bleed {bleed}: {:?}",
                            trim.name,
                            &outside[..outside.len().min(3)]
                        );
                        let overlaps = caption_overlaps(&pages);
                        assert!(
                            overlaps.is_empty(),
                            "{} {per_page} a page: {overlaps:?}",
                            trim.name
                        );
                    }
                }
            }
        }
        assert!(books > 60, "{books} books laid out");
    }

    /// Captions whose two texts ("Puzzle N" on the left, the level and minutes on the right, on
    /// one baseline) overlap when measured in the embedded font: (page, left text, right text).
    fn caption_overlaps(pages: &[Page]) -> Vec<(usize, String, String)> {
        let mut out = Vec::new();
        for (p, page) in pages.iter().enumerate() {
            let texts: Vec<_> = page
                .drawing
                .items
                .iter()
                .filter_map(|i| match i {
                    Item::Text {
                        x,
                        y,
                        size,
                        text,
                        align,
                        weight,
                    } => Some((*x, *y, text_width(*weight, text, *size), text, *align)),
                    _ => None,
                })
                .collect();
            for (lx, ly, lw, left, _) in texts.iter().filter(|t| t.3.starts_with("Puzzle ")) {
                // Its right-hand text: the nearest right-aligned one after it on its baseline.
                let right = texts
                    .iter()
                    .filter(|t| t.1 == *ly && matches!(t.4, Align::Right) && t.0 > *lx)
                    .min_by(|a, b| a.0.total_cmp(&b.0));
                let Some((rx, _, rw, right, _)) = right else {
                    continue;
                };
                if rx - rw < lx + lw {
                    out.push((p + 1, left.to_string(), right.to_string()));
                }
            }
        }
        out
    }

    #[test]
    fn a_frame_centred_on_the_margin_line_is_caught() {
        let puzzles = made(Variant::Killer, 6, 2);
        let settings = BookSettings {
            title: "T".into(),
            trim: Trim::parse("6x9").unwrap(),
            per_page: 1,
            bleed: false,
            shade: false,
            answers: Answers::End,
        };
        let mut pages = layout_book(&settings, &sections(&puzzles), text_width).unwrap();
        assert!(preflight(&pages, text_width).is_empty());
        let s = pages[2].safe;
        pages[2].drawing.items.push(Item::Stroke {
            path: vec![Polyline {
                points: vec![(s.x, s.y + 100.0), (s.x, s.y + 200.0)],
                closed: false,
            }],
            width: 2.0,
            dash: None,
        });
        let outside = preflight(&pages, text_width);
        assert_eq!(outside.len(), 1, "{outside:?}");
        assert_eq!((outside[0].page, outside[0].past), (3, 1.0));
    }

    #[test]
    fn the_gutter_is_kdps_minimum_but_never_less_than_the_outside_margin() {
        assert_eq!(kdp_gutter(24), 27.0);
        assert_eq!(gutter(24), 36.0);
        assert_eq!(gutter(151), 36.0);
        assert_eq!(gutter(452), 45.0);
        assert_eq!(gutter(800), 63.0);
    }
}
