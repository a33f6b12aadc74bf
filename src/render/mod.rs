//! Writers of the display lists in `print`: PDF (krilla, fonts embedded) and SVG, plus the
//! one-call helpers for a whole book and for one puzzle picture.

pub mod font;
pub mod pdf;
pub mod svg;

use crate::grid::Grid;
use crate::print::book::{layout_book, BookSettings, LayoutError, Section};
use crate::print::draw::{draw_grid, Drawing, GridStyle};
use crate::puzzle::Puzzle;
use thiserror::Error;

pub use pdf::write_pdf;
pub use svg::write_svg;

/// Why a book or picture cannot be rendered.
#[derive(Debug, Error)]
pub enum RenderError {
    /// The layout is impossible (see [`LayoutError`]).
    #[error(transparent)]
    Layout(#[from] LayoutError),
    /// The embedded font does not load (a broken build).
    #[error("the embedded DejaVu Sans font does not load")]
    Font,
    /// A page size krilla refuses.
    #[error("page size {0} x {1} pt is not valid")]
    PageSize(f32, f32),
    /// krilla failed to serialize the document.
    #[error("cannot write the PDF: {0}")]
    Pdf(String),
}

/// Lay out and write a whole book as PDF bytes.
pub fn book_pdf(settings: &BookSettings, sections: &[Section]) -> Result<Vec<u8>, RenderError> {
    let pages = layout_book(settings, sections)?;
    write_pdf(&pages, &settings.title)
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

    #[test]
    fn a_puzzle_svg_has_its_sums_dashes_and_size_and_the_solution_its_digits() {
        let config = GeneratorConfig {
            size: 4,
            ..GeneratorConfig::default()
        };
        let Outcome::Generated(made) = generate_puzzle(&config, 7, 0) else {
            panic!("4x4 item 0 generates")
        };
        let svg = write_svg(&puzzle_picture(&made.puzzle, None, 40.0, false));
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
        let solved = write_svg(&puzzle_picture(
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
            write_svg(&puzzle_picture(&made.puzzle, None, 40.0, false))
        );
    }
}
