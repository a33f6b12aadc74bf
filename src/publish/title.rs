//! Titles a PDF prints (a book's, its sections', a feed's day PDF's): refused before anything is
//! selected, issued or drawn when the embedded font cannot show them (issue 21, N13), with the
//! character, why, and what to write instead.

use crate::print::draw::Weight;
use crate::render::font::undrawable;

/// `Err` saying what to change when the PDF writer cannot print `text`: its first character that
/// the embedded DejaVu Sans has no glyph for (emoji, most CJK) or that belongs to a right-to-left
/// script (not laid out by the writer: it would print backwards and unjoined).
pub fn check_printable(text: &str) -> Result<(), String> {
    let found = undrawable(Weight::Bold, text).or_else(|| undrawable(Weight::Regular, text));
    match found {
        None => Ok(()),
        Some((ch, why)) => Err(format!(
            "{text:?} cannot be printed: {ch:?} (U+{:04X}) {why}; write it in letters the PDF prints (Latin, Greek or Cyrillic; a transliteration for right-to-left scripts) and without emoji",
            ch as u32
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn emoji_and_right_to_left_titles_are_named_with_a_fix() {
        assert_eq!(check_printable("Killer Sudoku · Ωμέγα · Судоку"), Ok(()));
        let emoji = check_printable("Daily \u{1F9E9}").unwrap_err();
        assert!(
            emoji.contains("U+1F9E9") && emoji.contains("no glyph"),
            "{emoji}"
        );
        let hebrew = check_printable("אבג ABC 123").unwrap_err();
        assert!(hebrew.contains("'א' (U+05D0) is right-to-left"), "{hebrew}");
        assert!(hebrew.contains("a transliteration"), "{hebrew}");
    }
}
