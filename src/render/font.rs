//! The embedded fonts (DejaVu Sans from the `dejavu` crate: no system font is read) and text widths.

use crate::print::draw::Weight;
use std::sync::OnceLock;

/// The TrueType bytes of the face for `weight`.
pub fn font_bytes(weight: Weight) -> &'static [u8] {
    match weight {
        Weight::Regular => dejavu::sans::regular(),
        Weight::Bold => dejavu::sans::bold(),
    }
}

/// Advance widths (in em) of the characters of one face, parsed once.
struct Advances {
    units_per_em: f32,
    face: ttf_parser::Face<'static>,
}

fn advances(weight: Weight) -> &'static Advances {
    static REGULAR: OnceLock<Advances> = OnceLock::new();
    static BOLD: OnceLock<Advances> = OnceLock::new();
    let cell = match weight {
        Weight::Regular => &REGULAR,
        Weight::Bold => &BOLD,
    };
    cell.get_or_init(|| {
        // The bytes are the crate's own font files: parsing them cannot fail.
        let face = ttf_parser::Face::parse(font_bytes(weight), 0).expect("DejaVu Sans parses");
        Advances {
            units_per_em: face.units_per_em() as f32,
            face,
        }
    })
}

/// The width of `text` set at `size` points (sum of advances; DejaVu needs no kerning here).
pub fn text_width(weight: Weight, text: &str, size: f32) -> f32 {
    let a = advances(weight);
    let units: f32 = text
        .chars()
        .map(|ch| {
            a.face
                .glyph_index(ch)
                .and_then(|g| a.face.glyph_hor_advance(g))
                .unwrap_or(0) as f32
        })
        .sum();
    units / a.units_per_em * size
}

/// The first character of `text` the PDF cannot show as written, and why: one DejaVu Sans has
/// no glyph for (emoji, most CJK), or one of a right-to-left script (Hebrew, Arabic, Syriac,
/// Thaana, N'Ko), which would need bidirectional reordering and shaping that this writer does
/// not do: refused rather than printed backwards or unjoined.
pub fn undrawable(weight: Weight, text: &str) -> Option<(char, &'static str)> {
    let a = advances(weight);
    text.chars().find_map(|ch| {
        let rtl = matches!(ch as u32, 0x0590..=0x08FF | 0xFB1D..=0xFDFF | 0xFE70..=0xFEFF
            | 0x10800..=0x10FFF | 0x1E800..=0x1EFFF);
        if rtl {
            Some((
                ch,
                "is right-to-left text, which the PDF writer does not lay out",
            ))
        } else if !ch.is_control() && a.face.glyph_index(ch).is_none() {
            Some((ch, "has no glyph in the embedded DejaVu Sans font"))
        } else {
            None
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn emoji_and_right_to_left_text_are_named_and_latin_greek_cyrillic_pass() {
        assert_eq!(undrawable(Weight::Bold, "Killer Sudoku Ωμέγα Судоку"), None);
        assert_eq!(
            undrawable(Weight::Bold, "Killer \u{1F9E9}").map(|u| u.0),
            Some('\u{1F9E9}')
        );
        let (ch, why) = undrawable(Weight::Regular, "סודוקו").unwrap();
        assert_eq!(ch, 'ס');
        assert!(why.contains("right-to-left"));
        assert!(undrawable(Weight::Regular, "سودوكو").is_some());
    }

    #[test]
    fn dejavu_digits_are_tabular() {
        let one = text_width(Weight::Regular, "1", 10.0);
        assert!((one - 6.362).abs() < 0.01, "{one}");
        assert_eq!(
            text_width(Weight::Regular, "18", 10.0),
            text_width(Weight::Regular, "40", 10.0)
        );
        assert!(
            text_width(Weight::Bold, "Puzzle", 10.0) > text_width(Weight::Regular, "Puzzle", 10.0)
        );
    }
}
