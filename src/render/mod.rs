//! Writers of the display lists in `print` into any `Write`: PDF (krilla, fonts embedded) and SVG,
//! and the one call that lays out and writes a whole book.

pub mod font;
pub mod pdf;
pub mod svg;

use crate::print::book::{layout_book, BookSettings, LayoutError, Section};
use std::io::Write;
use thiserror::Error;

pub use pdf::write_pdf;
pub use svg::{to_svg, write_svg};

/// Why a book or picture cannot be rendered.
#[derive(Debug, Error)]
pub enum RenderError {
    /// The layout is impossible (see [`LayoutError`]).
    #[error(transparent)]
    Layout(#[from] LayoutError),
    /// The embedded font does not load (a broken build).
    #[error("the embedded DejaVu Sans font does not load")]
    Font,
    /// A text (a title, a section name) with a character the PDF cannot show.
    #[error("{text:?}: {ch:?} {why}; use other characters (Latin, Greek and Cyrillic print)")]
    Text {
        /// The text.
        text: String,
        /// Its first such character.
        ch: char,
        /// Why it cannot be shown.
        why: &'static str,
    },
    /// A page size krilla refuses.
    #[error("page size {0} x {1} pt is not valid")]
    PageSize(f32, f32),
    /// krilla failed to serialize the document.
    #[error("cannot write the PDF: {0}")]
    Pdf(String),
    /// Writing the output failed.
    #[error("cannot write the PDF: {0}")]
    Io(#[from] std::io::Error),
}

/// Lay out a whole book and write it into `out` as a PDF; returns the number of pages.
pub fn write_book<W: Write>(
    out: &mut W,
    settings: &BookSettings,
    sections: &[Section],
) -> Result<usize, RenderError> {
    let pages = layout_book(settings, sections, font::text_width)?;
    write_pdf(out, &pages, &settings.title)?;
    Ok(pages.len())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generator::{generate_puzzle, GeneratorConfig, Outcome};
    use crate::print::puzzle_picture;

    #[test]
    fn a_puzzle_svg_has_its_sums_dashes_and_size_and_the_solution_its_digits() {
        let config = GeneratorConfig {
            size: 4,
            ..GeneratorConfig::default()
        };
        let Outcome::Generated(made) = generate_puzzle(&config, 7, 0) else {
            panic!("4x4 item 0 generates")
        };
        let svg = to_svg(&puzzle_picture(&made.puzzle, None, 40.0, false));
        assert!(svg.starts_with(r#"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 200 200""#));
        let texts: Vec<&str> = svg
            .lines()
            .filter(|l| l.starts_with("<text"))
            .map(|l| &l[l.find('>').unwrap() + 1..l.find("</text>").unwrap()])
            .collect();
        let sums: Vec<String> = made
            .puzzle
            .cages()
            .iter()
            .map(|c| c.sum.to_string())
            .collect();
        assert_eq!(texts, sums);
        assert_eq!(svg.matches("stroke-dasharray=\"3 3\"").count(), 1, "{svg}");
        let solved = to_svg(&puzzle_picture(
            &made.puzzle,
            Some(&made.solution),
            40.0,
            false,
        ));
        assert_eq!(solved.matches("<text").count(), 16);
        assert!(!solved.contains("stroke-dasharray"));
        // Same input, same text.
        assert_eq!(
            svg,
            to_svg(&puzzle_picture(&made.puzzle, None, 40.0, false))
        );
    }
}
