//! Drawing the planned pages: title and rules pages, puzzle pages with section headers and
//! folios, and answer keys.

use super::paginate::{
    key_grid, slot_grid, slot_side, Plan, CAPTION, GAP, KEY_CAPTION, KEY_GAP, MAX_CELL,
};
use super::trim::{body, text_area, BLEED};
use super::{capitalised, BookSettings, Entry, Page, Rect};
use crate::print::draw::{draw_grid, Align, Drawing, GridStyle, Item, TextWidth, Weight, MIN_TEXT};

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

pub(super) fn draw_page(
    settings: &BookSettings,
    g: f32,
    number: usize,
    plan: &Plan,
    front: &Front,
    key_n: usize,
    width: TextWidth,
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
        Plan::Title => title_page(settings, area, front, width, &mut items),
        Plan::Rules => rules_page(settings, area, front, &mut items),
        Plan::Puzzles {
            section,
            entries,
            first,
        } => {
            head(&mut items, &section.title, *first);
            puzzle_slots(settings, inner, entries, width, &mut items);
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
        safe: Rect {
            x: area.x + dx,
            y: area.y + dy,
            ..area
        },
    }
}

/// Does `title` fit `room` points in at most three lines at 14 pt or more (see [`title_lines`])?
pub(super) fn title_fits(title: &str, room: f32, width: TextWidth) -> bool {
    title_lines(title, room, width).0 > 0.0
}

/// The title's type size and lines: one line at 26 pt if it fits, else wrapped at word breaks
/// into at most three lines at the largest of 22, 18 and 14 pt that fits `room` points (measured
/// in the bold face by `width`).
fn title_lines(title: &str, room: f32, width: TextWidth) -> (f32, Vec<String>) {
    let wrap = |size: f32| {
        let fits_line = |line: &str| width(Weight::Bold, line, size) <= room;
        let mut lines: Vec<String> = Vec::new();
        for word in title.split_whitespace() {
            match lines.last_mut() {
                Some(line) if fits_line(&format!("{line} {word}")) => {
                    line.push(' ');
                    line.push_str(word);
                }
                _ => lines.push(word.to_string()),
            }
        }
        let fits = lines.iter().all(|l| fits_line(l));
        (lines, fits)
    };
    for (size, most) in [(26.0, 1), (22.0, 3), (18.0, 3), (14.0, 3)] {
        let (lines, fits) = wrap(size);
        if fits && lines.len() <= most {
            return (size, lines);
        }
    }
    let (lines, fits) = wrap(14.0);
    (
        // Zero size: it does not fit ([`title_fits`]); drawn at 14 pt if ever asked to.
        if fits && lines.len() <= 3 { 14.0 } else { 0.0 },
        if lines.is_empty() {
            vec![String::new()]
        } else {
            lines
        },
    )
}

/// What the title page says besides the title.
pub(super) struct Front {
    /// "200 puzzles · killer 9x9".
    pub(super) subtitle: String,
    /// Each section's and key's title and first page.
    pub(super) contents: Vec<(String, usize)>,
    /// Are there killers, jigsaws in the book, and its largest grid side?
    pub(super) killer: bool,
    pub(super) jigsaw: bool,
    pub(super) largest: usize,
    /// The grid sides in the book, smallest first: the rules name only their digits.
    pub(super) sizes: Vec<usize>,
}

fn title_page(
    settings: &BookSettings,
    area: Rect,
    front: &Front,
    width: TextWidth,
    items: &mut Vec<Item>,
) {
    let contents = &front.contents;
    let mid = area.x + area.w / 2.0;
    let top = area.y + area.h * 0.25;
    let (size, lines) = title_lines(&settings.title, area.w, width);
    let size = size.max(14.0);
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
    let grids: Vec<String> = front
        .sizes
        .iter()
        .map(|n| {
            let article = if *n == 8 || *n == 11 { "an" } else { "a" };
            format!("1 to {n} in {article} {n}x{n} grid")
        })
        .collect();
    let mut owned = vec![
        "Place one digit in every empty cell so that each row,".to_string(),
        "each column and each box (outlined with thick lines)".to_string(),
    ];
    if let [one] = grids.as_slice() {
        owned.push(format!("holds every digit once: {one}."));
    } else {
        owned.push("holds every digit once:".to_string());
        let last = grids.len().saturating_sub(1);
        owned.extend(
            grids
                .iter()
                .enumerate()
                .map(|(i, g)| format!("{g}{}", if i == last { "." } else { "," })),
        );
    }
    let mut lines: Vec<&str> = owned.iter().map(String::as_str).collect();
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

fn puzzle_slots(
    settings: &BookSettings,
    inner: Rect,
    entries: &[Entry],
    width: TextWidth,
    items: &mut Vec<Item>,
) {
    let (cols, rows) = slot_grid(settings.per_page);
    let slot_w = (inner.w - (cols - 1) as f32 * GAP) / cols as f32;
    let slot_h = (inner.h - (rows - 1) as f32 * GAP) / rows as f32;
    let side = slot_side(inner, settings.per_page);
    let cell = |entry: &Entry| (side / entry.puzzle.size() as f32).min(MAX_CELL);
    let slots: Vec<(&Entry, f32)> = entries
        .iter()
        .map(|e| (e, cell(e) * e.puzzle.size() as f32))
        .collect();
    let (size, rights) = captions(&slots, width);
    for (i, ((entry, grid), right)) in slots.iter().zip(rights).enumerate() {
        let (col, row) = (i % cols, i / cols);
        let x = inner.x + col as f32 * (slot_w + GAP) + (slot_w - grid) / 2.0;
        let y = inner.y + row as f32 * (slot_h + GAP) + (slot_h - grid - CAPTION) / 2.0;
        items.push(text(
            x,
            y + 10.0,
            10.0,
            caption_left(entry),
            Align::Left,
            Weight::Bold,
        ));
        items.push(text(
            x + grid,
            y + 10.0,
            size,
            right,
            Align::Right,
            Weight::Regular,
        ));
        let style = GridStyle {
            cell: cell(entry),
            shade: settings.shade,
            cages: true,
        };
        items.extend(draw_grid(entry.puzzle, None, (x, y + CAPTION), style));
    }
}

/// Space kept between the caption's two texts.
const CAPTION_GAP: f32 = 6.0;

/// The left-hand text of a puzzle's caption: "Puzzle 12" (bold, 10 pt).
fn caption_left(entry: &Entry) -> String {
    format!("Puzzle {}", entry.number)
}

/// The right-hand texts of a page's captions, one size for the page: the level and the
/// estimated solving time ("Medium · 15–25 min") at 9 pt, or at 7 pt where a grid (the width of
/// each slot's grid is given) is too narrow for that beside its "Puzzle N", else the levels
/// alone at 9 pt. A puzzle with no estimate shows its level alone, at the page's size. Texts
/// are measured by `width`.
fn captions(slots: &[(&Entry, f32)], width: TextWidth) -> (f32, Vec<String>) {
    let text = |entry: &Entry| {
        let level = capitalised(&entry.level);
        match entry.minutes {
            Some(minutes) => format!("{level} \u{b7} {}", minutes.label()),
            None => level,
        }
    };
    let fits = |size: f32| {
        slots.iter().all(|&(entry, grid)| {
            let room = grid - width(Weight::Bold, &caption_left(entry), 10.0) - CAPTION_GAP;
            width(Weight::Regular, &text(entry), size) <= room
        })
    };
    match [9.0, MIN_TEXT].into_iter().find(|&size| fits(size)) {
        Some(size) => (size, slots.iter().map(|&(e, _)| text(e)).collect()),
        None => (
            9.0,
            slots.iter().map(|&(e, _)| capitalised(&e.level)).collect(),
        ),
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
