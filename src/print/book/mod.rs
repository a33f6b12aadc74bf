//! Book pages: trim sizes, KDP margins and gutter, title and rules pages, puzzle pages with
//! section headers and folios, and answer keys; every page a [`Drawing`] in points.

use super::draw::{draw_grid, Align, Drawing, GridStyle, Item, Weight, MIN_TEXT};
use crate::grid::Grid;
use crate::puzzle::Puzzle;
use thiserror::Error;

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
/// Space between puzzles on a page.
const GAP: f32 = 18.0;
/// Caption line above a puzzle ("Puzzle 12", level).
const CAPTION: f32 = 15.0;
/// Caption line above an answer grid.
const KEY_CAPTION: f32 = 11.0;
/// Space between answer grids.
const KEY_GAP: f32 = 14.0;
/// The largest cell of a puzzle grid, so a small grid alone on a page does not sprawl.
const MAX_CELL: f32 = 60.0;
/// Smallest killer cell: a 7 pt sum is then at most 0.27 of the cell and clears the dashes.
pub const MIN_KILLER_CELL: f32 = 26.0;
/// Smallest cell of a plain or jigsaw puzzle: givens of 8.4 pt.
pub const MIN_PLAIN_CELL: f32 = 14.0;
/// Puzzles a page that the layout knows.
pub const PER_PAGE: [usize; 4] = [1, 2, 4, 6];

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

/// KDP's inside (gutter) margin for a paperback of `pages` pages.
pub fn gutter(pages: usize) -> f32 {
    INCH * match pages {
        0..=150 => 0.375,
        151..=300 => 0.5,
        301..=500 => 0.625,
        501..=700 => 0.75,
        _ => 0.875,
    }
}

/// What a page holds, before drawing.
enum Plan<'s, 'a> {
    Title,
    Rules,
    Puzzles {
        section: &'s Section<'a>,
        entries: &'s [Entry<'a>],
        first: bool,
    },
    Keys {
        title: String,
        entries: Vec<&'s Entry<'a>>,
        first: bool,
    },
}

/// The text area of a page: inside the margins, gutter on the binding side.
fn text_area(trim: &Trim, gutter: f32, page: usize) -> Rect {
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
fn body(area: Rect) -> Rect {
    Rect {
        x: area.x,
        y: area.y + HEAD,
        w: area.w,
        h: area.h - HEAD - FOOT,
    }
}

/// Columns and rows of puzzle slots for `per_page`.
fn slot_grid(per_page: usize) -> (usize, usize) {
    match per_page {
        1 => (1, 1),
        2 => (1, 2),
        4 => (2, 2),
        _ => (2, 3),
    }
}

/// The side of a puzzle grid of `per_page` puzzles in `body`, before capping at [`MAX_CELL`].
fn slot_side(body: Rect, per_page: usize) -> f32 {
    let (cols, rows) = slot_grid(per_page);
    let w = (body.w - (cols - 1) as f32 * GAP) / cols as f32;
    let h = (body.h - (rows - 1) as f32 * GAP) / rows as f32 - CAPTION;
    w.min(h)
}

/// Answer grids a page (columns, rows) and their cell side, for grids of side `n`.
fn key_grid(body: Rect, n: usize) -> Option<(usize, usize, f32)> {
    // The digits of a key are at least 7 pt: 0.6 of a 12 pt cell, or 0.5 of 15 pt for two digits.
    let min = if n > 9 { 15.0 } else { 12.0 };
    let nf = n as f32;
    let cols = ((body.w + KEY_GAP) / (nf * min + KEY_GAP)).floor() as usize;
    let rows = ((body.h + KEY_GAP) / (nf * min + KEY_CAPTION + KEY_GAP)).floor() as usize;
    if cols == 0 || rows == 0 {
        return None;
    }
    let w = (body.w - (cols - 1) as f32 * KEY_GAP) / cols as f32 / nf;
    let h = ((body.h - (rows - 1) as f32 * KEY_GAP) / rows as f32 - KEY_CAPTION) / nf;
    Some((cols, rows, w.min(h).min(20.0)))
}

fn min_cell(puzzle: &Puzzle) -> f32 {
    if puzzle.is_killer() {
        MIN_KILLER_CELL
    } else {
        MIN_PLAIN_CELL
    }
}

fn kind(puzzle: &Puzzle) -> String {
    let n = puzzle.size();
    let name = match (puzzle.is_killer(), puzzle.geometry().is_jigsaw()) {
        (true, false) => "killer",
        (true, true) => "killer-jigsaw",
        (false, true) => "jigsaw",
        (false, false) => "classic",
    };
    format!("{name} {n}x{n}")
}

/// Check that every puzzle is readable at `per_page` in `body`; name what fits otherwise.
fn check_readable(
    settings: &BookSettings,
    sections: &[Section],
    body: Rect,
) -> Result<(), LayoutError> {
    let worst = sections
        .iter()
        .flat_map(|s| &s.entries)
        .map(|e| e.puzzle)
        .max_by(|a, b| {
            let need = |p: &Puzzle| min_cell(p) * p.size() as f32;
            need(a).total_cmp(&need(b))
        })
        .ok_or(LayoutError::Empty)?;
    let need = min_cell(worst) * worst.size() as f32;
    let side = slot_side(body, settings.per_page);
    if side >= need {
        return Ok(());
    }
    let fits = PER_PAGE
        .iter()
        .rev()
        .find(|&&k| slot_side(body, k) >= need)
        .copied();
    let larger = TRIMS
        .iter()
        .filter(|t| {
            body_for(t, gutter(24)).w >= need && slot_side(body_for(t, gutter(24)), 1) >= need
        })
        .map(|t| t.name)
        .collect::<Vec<_>>();
    let hint = match fits {
        Some(k) => format!("use --per-page {k} or fewer"),
        None if larger.is_empty() => "no trim fits one such puzzle a page".to_string(),
        None => format!(
            "not even one fits this trim; use --trim {}",
            larger.join(" or ")
        ),
    };
    Err(LayoutError::TooSmall {
        per_page: settings.per_page,
        what: kind(worst),
        trim: settings.trim.name,
        cell: side / worst.size() as f32,
        min: min_cell(worst),
        hint,
    })
}

fn body_for(trim: &Trim, gutter: f32) -> Rect {
    body(text_area(trim, gutter, 1))
}

/// Lay out the whole book: title page, rules page, then each section's puzzle pages, with the
/// answer keys after each section or at the end.
pub fn layout_book(
    settings: &BookSettings,
    sections: &[Section],
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
        let plans = plan(settings, sections, cols * rows);
        let next = gutter(plans.len());
        if next == g {
            break plans;
        }
        g = next;
    };
    check_readable(settings, sections, body_for(&settings.trim, g))?;
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
    };
    Ok(plans
        .iter()
        .enumerate()
        .map(|(i, p)| draw_page(settings, g, i + 1, p, &front, key_n))
        .collect())
}

/// The page plan: which page holds what.
fn plan<'s, 'a>(
    settings: &BookSettings,
    sections: &'s [Section<'a>],
    keys_a_page: usize,
) -> Vec<Plan<'s, 'a>> {
    let mut plans = vec![Plan::Title, Plan::Rules];
    let keys = |plans: &mut Vec<Plan<'s, 'a>>, title: String, entries: Vec<&'s Entry<'a>>| {
        for (i, chunk) in entries.chunks(keys_a_page).enumerate() {
            plans.push(Plan::Keys {
                title: title.clone(),
                entries: chunk.to_vec(),
                first: i == 0,
            });
        }
    };
    for section in sections {
        for (i, chunk) in section.entries.chunks(settings.per_page).enumerate() {
            plans.push(Plan::Puzzles {
                section,
                entries: chunk,
                first: i == 0,
            });
        }
        if settings.answers == Answers::Section && !section.entries.is_empty() {
            keys(
                &mut plans,
                format!("Solutions: {}", section.title),
                section.entries.iter().collect(),
            );
        }
    }
    if settings.answers == Answers::End {
        let all = sections.iter().flat_map(|s| &s.entries).collect();
        keys(&mut plans, "Solutions".to_string(), all);
    }
    plans
}

/// The contents: each section's and each key's first page.
fn contents(plans: &[Plan]) -> Vec<(String, usize)> {
    plans
        .iter()
        .enumerate()
        .filter_map(|(i, p)| match p {
            Plan::Puzzles {
                section,
                first: true,
                ..
            } => Some((section.title.clone(), i + 1)),
            Plan::Keys {
                title, first: true, ..
            } => Some((title.clone(), i + 1)),
            _ => None,
        })
        .collect()
}

fn text(x: f32, y: f32, size: f32, text: impl Into<String>, align: Align, weight: Weight) -> Item {
    Item::Text {
        x,
        y,
        size: size.max(MIN_TEXT),
        text: text.into(),
        align,
        weight,
    }
}

/// A level or title with its first letter in capitals.
pub fn capitalised(s: &str) -> String {
    let mut chars = s.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

fn draw_page(
    settings: &BookSettings,
    g: f32,
    number: usize,
    plan: &Plan,
    front: &Front,
    key_n: usize,
) -> Page {
    let trim = &settings.trim;
    let area = text_area(trim, g, number);
    let inner = body(area);
    let mut items = Vec::new();
    let outer_x = if number % 2 == 1 {
        area.x + area.w
    } else {
        area.x
    };
    let outer_align = if number % 2 == 1 {
        Align::Right
    } else {
        Align::Left
    };
    let head = |items: &mut Vec<Item>, title: &str, first: bool| {
        if first {
            items.push(text(
                area.x,
                area.y + 18.0,
                16.0,
                title,
                Align::Left,
                Weight::Bold,
            ));
        } else {
            items.push(text(
                outer_x,
                area.y + 10.0,
                8.0,
                title,
                outer_align,
                Weight::Regular,
            ));
        }
    };
    match plan {
        Plan::Title => title_page(settings, area, front, &mut items),
        Plan::Rules => rules_page(settings, area, front, &mut items),
        Plan::Puzzles {
            section,
            entries,
            first,
        } => {
            head(&mut items, &section.title, *first);
            puzzle_slots(settings, inner, entries, &mut items);
        }
        Plan::Keys {
            title,
            entries,
            first,
        } => {
            head(&mut items, title, *first);
            key_slots(inner, entries, key_n, &mut items);
        }
    }
    if number > 1 {
        let x = area.x + area.w / 2.0;
        items.push(text(
            x,
            area.y + area.h - 4.0,
            9.0,
            number.to_string(),
            Align::Center,
            Weight::Regular,
        ));
    }
    let (dx, dy) = if settings.bleed {
        (if number % 2 == 1 { 0.0 } else { BLEED }, BLEED)
    } else {
        (0.0, 0.0)
    };
    let (width, height) = if settings.bleed {
        (trim.width + BLEED, trim.height + 2.0 * BLEED)
    } else {
        (trim.width, trim.height)
    };
    Page {
        drawing: Drawing {
            width,
            height,
            items: items.into_iter().map(|i| i.translated(dx, dy)).collect(),
        },
        trim_box: Rect {
            x: dx,
            y: dy,
            w: trim.width,
            h: trim.height,
        },
        bleed_box: settings.bleed.then_some(Rect {
            x: 0.0,
            y: 0.0,
            w: width,
            h: height,
        }),
    }
}

/// The title's type size and lines: one line at 26 pt if it fits, else wrapped at word breaks
/// into at most three lines at the largest of 22, 18 and 14 pt that fits the width (estimated at
/// 0.7 em a character, more than DejaVu Sans Bold's average).
fn title_lines(title: &str, width: f32) -> (f32, Vec<String>) {
    let wrap = |size: f32| {
        let max = (width / (0.7 * size)).floor() as usize;
        let mut lines: Vec<String> = Vec::new();
        for word in title.split_whitespace() {
            match lines.last_mut() {
                Some(line) if line.chars().count() + 1 + word.chars().count() <= max => {
                    line.push(' ');
                    line.push_str(word);
                }
                _ => lines.push(word.to_string()),
            }
        }
        let fits = lines.iter().all(|l| l.chars().count() <= max);
        (lines, fits)
    };
    for (size, most) in [(26.0, 1), (22.0, 3), (18.0, 3), (14.0, 3)] {
        let (lines, fits) = wrap(size);
        if fits && lines.len() <= most {
            return (size, lines);
        }
    }
    let (lines, _) = wrap(14.0);
    (
        14.0,
        if lines.is_empty() {
            vec![String::new()]
        } else {
            lines
        },
    )
}

/// What the title page says besides the title.
struct Front {
    /// "200 puzzles · killer 9x9".
    subtitle: String,
    /// Each section's and key's title and first page.
    contents: Vec<(String, usize)>,
    /// Are there killers, jigsaws in the book, and its largest grid side?
    killer: bool,
    jigsaw: bool,
    largest: usize,
}

fn title_page(settings: &BookSettings, area: Rect, front: &Front, items: &mut Vec<Item>) {
    let contents = &front.contents;
    let mid = area.x + area.w / 2.0;
    let top = area.y + area.h * 0.25;
    let (size, lines) = title_lines(&settings.title, area.w);
    for (i, line) in lines.iter().enumerate() {
        items.push(text(
            mid,
            top + i as f32 * size * 1.2,
            size,
            line.clone(),
            Align::Center,
            Weight::Bold,
        ));
    }
    let subtitle_y = top + (lines.len() - 1) as f32 * size * 1.2 + 30.0;
    items.push(text(
        mid,
        subtitle_y,
        12.0,
        front.subtitle.clone(),
        Align::Center,
        Weight::Regular,
    ));
    let mut y = (area.y + area.h * 0.45).max(subtitle_y + 40.0);
    items.push(text(mid, y, 13.0, "Contents", Align::Center, Weight::Bold));
    y += 26.0;
    let (left, right) = (area.x + area.w * 0.15, area.x + area.w * 0.85);
    for (title, page) in contents {
        items.push(text(
            left,
            y,
            11.0,
            title.clone(),
            Align::Left,
            Weight::Regular,
        ));
        items.push(text(
            right,
            y,
            11.0,
            page.to_string(),
            Align::Right,
            Weight::Regular,
        ));
        y += 17.0;
    }
}

fn rules_page(settings: &BookSettings, area: Rect, front: &Front, items: &mut Vec<Item>) {
    let mut lines = vec![
        "Place one digit in every empty cell so that each row,",
        "each column and each box (outlined with thick lines)",
        "holds every digit once: 1 to 9 in a 9x9 grid,",
        "1 to 6 in a 6x6 grid, 1 to 16 in a 16x16 grid.",
    ];
    if front.jigsaw {
        lines.extend([
            "",
            "Jigsaw puzzles: the boxes are the irregular regions",
            "outlined with thick lines.",
        ]);
    }
    if front.killer {
        lines.extend([
            "",
            "Killer puzzles: each cage (a dashed outline) holds",
            "different digits that add up to the small number",
            "in its top-left corner.",
        ]);
    }
    if front.largest > 9 {
        lines.extend(["", "Digits 10 to 16 are written as two digits."]);
    }
    if settings.shade && front.killer {
        lines.extend(["", "Shading only tells neighbouring cages apart."]);
    }
    items.push(text(
        area.x,
        area.y + 18.0,
        16.0,
        "How to play",
        Align::Left,
        Weight::Bold,
    ));
    for (i, line) in lines.iter().enumerate() {
        if !line.is_empty() {
            items.push(text(
                area.x,
                area.y + 50.0 + 16.0 * i as f32,
                10.0,
                *line,
                Align::Left,
                Weight::Regular,
            ));
        }
    }
}

fn puzzle_slots(settings: &BookSettings, inner: Rect, entries: &[Entry], items: &mut Vec<Item>) {
    let (cols, rows) = slot_grid(settings.per_page);
    let slot_w = (inner.w - (cols - 1) as f32 * GAP) / cols as f32;
    let slot_h = (inner.h - (rows - 1) as f32 * GAP) / rows as f32;
    let side = slot_side(inner, settings.per_page);
    for (i, entry) in entries.iter().enumerate() {
        let n = entry.puzzle.size() as f32;
        let cell = (side / n).min(MAX_CELL);
        let grid = cell * n;
        let (col, row) = (i % cols, i / cols);
        let x = inner.x + col as f32 * (slot_w + GAP) + (slot_w - grid) / 2.0;
        let y = inner.y + row as f32 * (slot_h + GAP) + (slot_h - grid - CAPTION) / 2.0;
        items.push(text(
            x,
            y + 10.0,
            10.0,
            format!("Puzzle {}", entry.number),
            Align::Left,
            Weight::Bold,
        ));
        items.push(text(
            x + grid,
            y + 10.0,
            9.0,
            capitalised(&entry.level),
            Align::Right,
            Weight::Regular,
        ));
        let style = GridStyle {
            cell,
            shade: settings.shade,
            cages: true,
        };
        items.extend(draw_grid(entry.puzzle, None, (x, y + CAPTION), style));
    }
}

fn key_slots(inner: Rect, entries: &[&Entry], key_n: usize, items: &mut Vec<Item>) {
    let Some((cols, _, cell)) = key_grid(inner, key_n) else {
        return;
    };
    let side = cell * key_n as f32;
    let spread = (inner.w - cols as f32 * side) / cols.max(2).saturating_sub(1) as f32;
    let spread = if cols == 1 { 0.0 } else { spread };
    for (i, entry) in entries.iter().enumerate() {
        let (col, row) = (i % cols, i / cols);
        let x = inner.x + col as f32 * (side + spread);
        let y = inner.y + row as f32 * (side + KEY_CAPTION + KEY_GAP);
        items.push(text(
            x,
            y + 8.0,
            8.0,
            entry.number.to_string(),
            Align::Left,
            Weight::Bold,
        ));
        let own = entry.puzzle.size() as f32;
        let style = GridStyle {
            cell: side / own,
            shade: false,
            cages: false,
        };
        items.extend(draw_grid(
            entry.puzzle,
            Some(entry.solution),
            (x, y + KEY_CAPTION),
            style,
        ));
    }
}
