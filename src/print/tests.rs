//! Book layout: page counts, margins and gutter, bleed, readability limits.

use super::book::*;
use super::draw::Item;
use crate::cage::Cage;
use crate::generator::{generate_puzzle, GeneratorConfig, Outcome, Variant};
use crate::geometry::{Cell, Geometry};
use crate::grader::Minutes;
use crate::grid::Grid;
use crate::puzzle::Puzzle;
use crate::render::font::text_width;

fn killers(size: u8, count: u64) -> Vec<(Puzzle, Grid)> {
    made(Variant::Killer, size, count)
}

/// The puzzles items `0..count` of seed 7 make (rejected items left out), for the layout tests.
pub(super) fn made(variant: Variant, size: u8, count: u64) -> Vec<(Puzzle, Grid)> {
    let config = GeneratorConfig {
        variant,
        size,
        ..GeneratorConfig::default()
    };
    (0..count)
        .filter_map(|i| match generate_puzzle(&config, 7, i) {
            Outcome::Generated(g) => Some((g.puzzle, g.solution)),
            Outcome::Rejected(_) => None,
        })
        .collect()
}

fn settings(trim: &str, per_page: usize) -> BookSettings {
    BookSettings {
        title: "Test".into(),
        trim: Trim::parse(trim).unwrap(),
        per_page,
        bleed: false,
        shade: false,
        answers: Answers::End,
    }
}

fn one_section<'a>(puzzles: &'a [(Puzzle, Grid)]) -> Vec<Section<'a>> {
    vec![Section {
        title: "Easy".into(),
        entries: puzzles
            .iter()
            .enumerate()
            .map(|(i, (p, s))| Entry {
                number: i + 1,
                level: "easy".into(),
                minutes: Some(Minutes { low: 3, high: 5 }),
                puzzle: p,
                solution: s,
            })
            .collect(),
    }]
}

/// Every drawn point and text anchor, per page.
fn points(page: &Page) -> Vec<(f32, f32)> {
    page.drawing
        .items
        .iter()
        .flat_map(|i| match i {
            Item::Fill { path, .. } | Item::Stroke { path, .. } => path
                .iter()
                .flat_map(|l| l.points.clone())
                .collect::<Vec<_>>(),
            Item::Text { x, y, .. } => vec![(*x, *y)],
        })
        .collect()
}

#[test]
fn pages_are_title_rules_puzzles_then_keys() {
    let p = killers(4, 10);
    assert_eq!(p.len(), 10);
    let pages = layout_book(&settings("8.5x11", 4), &one_section(&p), text_width).unwrap();
    // 2 front pages, 3 puzzle pages (4+4+2), one key page (a 4x4 key page holds far more than 10).
    assert_eq!(
        pages.len(),
        1 + 3 + 1,
        "fewer than FRONT_FROM puzzles: no title page"
    );
    let mut answers_section = settings("8.5x11", 1);
    answers_section.answers = Answers::Section;
    let two = vec![
        one_section(&p[..3]).remove(0),
        one_section(&p[3..]).remove(0),
    ];
    let pages = layout_book(&answers_section, &two, text_width).unwrap();
    assert_eq!(pages.len(), 1 + 3 + 1 + 7 + 1);
}

#[test]
fn gutter_follows_kdp_page_count_bands() {
    assert_eq!(kdp_gutter(24), 27.0);
    assert_eq!(kdp_gutter(150), 27.0);
    assert_eq!(gutter(150), 36.0);
    assert_eq!(gutter(151), 36.0);
    assert_eq!(gutter(301), 45.0);
    assert_eq!(gutter(600), 54.0);
    assert_eq!(gutter(800), 63.0);
}

#[test]
fn everything_stays_inside_the_margins_with_the_gutter_on_the_binding_side() {
    let p = killers(9, 5);
    let pages = layout_book(&settings("6x9", 2), &one_section(&p), text_width).unwrap();
    for (i, page) in pages.iter().enumerate() {
        let t = page.trim_box;
        assert_eq!((t.w, t.h), (432.0, 648.0));
        // The gutter is raised to the outside margin (0.5 in) on a short book.
        let (inside_left, inside_right) = (36.0, 36.0);
        for (x, y) in points(page) {
            assert!(
                x >= t.x + inside_left - 0.01 && x <= t.x + t.w - inside_right + 0.01,
                "page {} x {x}",
                i + 1
            );
            assert!(
                y >= t.y + 36.0 - 0.01 && y <= t.y + t.h - 36.0 + 0.01,
                "page {} y {y}",
                i + 1
            );
        }
    }
}

#[test]
fn bleed_grows_the_page_on_the_outside_and_keeps_the_trim_box() {
    let p = killers(4, 3);
    let mut s = settings("8.5x11", 1);
    s.bleed = true;
    let pages = layout_book(&s, &one_section(&p), text_width).unwrap();
    for (i, page) in pages.iter().enumerate() {
        assert_eq!(
            (page.drawing.width, page.drawing.height),
            (612.0 + BLEED, 792.0 + 2.0 * BLEED)
        );
        let expected_x = if i % 2 == 0 { 0.0 } else { BLEED };
        assert_eq!((page.trim_box.x, page.trim_box.y), (expected_x, BLEED));
        assert!(page.bleed_box.is_some());
    }
}

#[test]
fn six_killers_a_page_on_letter_are_refused_with_what_fits() {
    let p = killers(9, 2);
    let err = layout_book(&settings("8.5x11", 6), &one_section(&p), text_width).unwrap_err();
    let text = err.to_string();
    assert!(matches!(err, LayoutError::TooSmall { .. }), "{text}");
    assert!(text.contains("--per-page 4"), "{text}");
    // Classic 9x9 puzzles are fine six a page.
    let classic: Vec<(Puzzle, Grid)> = p
        .iter()
        .map(|(_, s)| {
            (
                Puzzle::plain(Geometry::standard(9).unwrap(), Grid::empty(9)).unwrap(),
                s.clone(),
            )
        })
        .collect();
    assert!(layout_book(&settings("8.5x11", 6), &one_section(&classic), text_width).is_ok());
}

#[test]
fn a_16x16_killer_does_not_fit_a5_and_the_message_names_a_trim_that_does() {
    let cage = Cage::new(3, vec![Cell::new(0), Cell::new(1)]);
    let p = Puzzle::new(Geometry::standard(16).unwrap(), Grid::empty(16), vec![cage]).unwrap();
    let solved = vec![(p, Grid::empty(16))];
    let err = layout_book(&settings("a5", 1), &one_section(&solved), text_width)
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("killer 16x16") && err.contains("--trim"),
        "{err}"
    );
    assert!(layout_book(&settings("8.5x11", 1), &one_section(&solved), text_width).is_ok());
}

#[test]
fn bad_per_page_trim_and_empty_books_are_errors() {
    let p = killers(4, 1);
    assert_eq!(
        layout_book(&settings("a4", 3), &one_section(&p), text_width),
        Err(LayoutError::PerPage(3))
    );
    assert_eq!(
        Trim::parse("letter"),
        Err(LayoutError::UnknownTrim("letter".into()))
    );
    assert_eq!(Trim::parse("A4").unwrap().name, "a4");
    assert_eq!(
        layout_book(&settings("a4", 1), &one_section(&[]), text_width),
        Err(LayoutError::Empty)
    );
}

#[test]
fn a_long_title_wraps_inside_the_margins() {
    // Twelve puzzles: a shorter book has no title page.
    let p = killers(4, 12);
    let mut s = settings("a5", 1);
    s.title = "The Enormous Compendium of Fiendish Killer Sudoku Puzzles".into();
    let pages = layout_book(&s, &one_section(&p), text_width).unwrap();
    let titles: Vec<(f32, String)> = pages[0]
        .drawing
        .items
        .iter()
        .filter_map(|i| match i {
            Item::Text {
                size,
                text,
                weight: super::draw::Weight::Bold,
                ..
            } if *size >= 14.0 && text != "Contents" => Some((*size, text.clone())),
            _ => None,
        })
        .collect();
    assert!(titles.len() >= 2, "{titles:?}");
    let width = 419.53 - 36.0 - 36.0;
    for (size, line) in &titles {
        assert!(
            text_width(super::draw::Weight::Bold, line, *size) <= width,
            "{line} at {size} pt"
        );
    }
    assert_eq!(
        titles
            .iter()
            .map(|t| t.1.as_str())
            .collect::<Vec<_>>()
            .join(" "),
        s.title
    );
}

/// The caption texts right of "Puzzle N" on every page, with their sizes.
fn captions(pages: &[Page]) -> Vec<(f32, String)> {
    let all: Vec<&Item> = pages.iter().flat_map(|p| &p.drawing.items).collect();
    let mut out = Vec::new();
    for (i, item) in all.iter().enumerate() {
        if let Item::Text { text, y, .. } = item {
            if let (
                true,
                Some(Item::Text {
                    text: right,
                    y: ry,
                    size,
                    ..
                }),
            ) = (text.starts_with("Puzzle "), all.get(i + 1))
            {
                assert_eq!(y, ry, "one baseline");
                out.push((*size, right.clone()));
            }
        }
    }
    out
}

#[test]
fn the_caption_gives_the_level_and_the_minutes_in_one_size_a_page() {
    let puzzles = killers(9, 2);
    let mut sections = one_section(&puzzles);
    let pages = layout_book(&settings("6x9", 1), &sections, text_width).unwrap();
    assert_eq!(
        captions(&pages),
        vec![(9.0, "Easy \u{b7} 3\u{2013}5 min".to_string()); 2]
    );
    // Not graded yet: the level alone.
    sections[0].entries[0].minutes = None;
    let pages = layout_book(&settings("6x9", 1), &sections, text_width).unwrap();
    assert_eq!(captions(&pages)[0], (9.0, "Easy".to_string()));

    // Narrow slots (4x4 killers 4 a page on a5, grids 162 pt wide): 3-5 min fits at 9 pt,
    // 10000-15000 min only at 7 pt, and then the whole page is set at 7 pt.
    let small = killers(4, 2);
    let mut narrow = one_section(&small);
    let pages = layout_book(&settings("a5", 4), &narrow, text_width).unwrap();
    let nine = captions(&pages);
    assert!(nine.iter().all(|c| c.0 == 9.0), "{nine:?}");
    let long = Minutes {
        low: 10_000,
        high: 15_000,
    };
    narrow[0].entries[0].minutes = Some(long);
    let pages = layout_book(&settings("a5", 4), &narrow, text_width).unwrap();
    assert_eq!(
        captions(&pages),
        vec![
            (7.0, "Easy \u{b7} 10000\u{2013}15000 min".to_string()),
            (7.0, "Easy \u{b7} 3\u{2013}5 min".to_string())
        ]
    );
    // A range that fits at no size: the page shows the levels alone.
    narrow[0].entries[1].minutes = Some(Minutes {
        low: 1_000_000_000,
        high: 2_000_000_000,
    });
    let pages = layout_book(&settings("a5", 4), &narrow, text_width).unwrap();
    assert_eq!(captions(&pages), vec![(9.0, "Easy".to_string()); 2]);
}
