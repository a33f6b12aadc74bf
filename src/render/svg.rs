//! SVG writer: the same display list as the PDF, as hand-written SVG with numbers rounded to two
//! decimals, so the same puzzle always gives the same text.

use crate::print::draw::{Align, Drawing, Item, Polyline, Weight};
use std::fmt::Write as _;
use std::io::Write;

/// The SVG document of `drawing` as text (for embedding in a page): see [`write_svg`].
pub fn to_svg(drawing: &Drawing) -> String {
    let mut out = Vec::new();
    write_svg(&mut out, drawing).expect("writing into a Vec cannot fail");
    String::from_utf8_lossy(&out).into_owned()
}

/// Write the SVG document of `drawing` into `out`, one unit per point, on a white background.
pub fn write_svg<W: Write>(out: &mut W, drawing: &Drawing) -> std::io::Result<()> {
    let (w, h) = (num(drawing.width), num(drawing.height));
    writeln!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {w} {h}" width="{w}" height="{h}">"#
    )?;
    writeln!(out, r#"<rect width="{w}" height="{h}" fill="white"/>"#)?;
    writeln!(out, r#"<g font-family="DejaVu Sans, Verdana, sans-serif">"#)?;
    for item in &drawing.items {
        match item {
            Item::Fill { path, grey } => {
                let v = (255.0 * (1.0 - grey)).round() as u8;
                writeln!(out, r#"<path d="{}" fill="rgb({v},{v},{v})"/>"#, d(path))?;
            }
            Item::Stroke { path, width, dash } => {
                let dash = dash
                    .map(|(on, off)| format!(r#" stroke-dasharray="{} {}""#, num(on), num(off)))
                    .unwrap_or_default();
                writeln!(
                    out,
                    r#"<path d="{}" fill="none" stroke="black" stroke-width="{}" stroke-miterlimit="10"{dash}/>"#,
                    d(path),
                    num(*width)
                )?;
            }
            Item::Text {
                x,
                y,
                size,
                text,
                align,
                weight,
            } => {
                let anchor = match align {
                    Align::Left => "",
                    Align::Center => r#" text-anchor="middle""#,
                    Align::Right => r#" text-anchor="end""#,
                };
                let bold = match weight {
                    Weight::Regular => "",
                    Weight::Bold => r#" font-weight="bold""#,
                };
                writeln!(
                    out,
                    r#"<text x="{}" y="{}" font-size="{}"{anchor}{bold}>{}</text>"#,
                    num(*x),
                    num(*y),
                    num(*size),
                    escape(text)
                )?;
            }
        }
    }
    out.write_all(b"</g>\n</svg>\n")
}

/// Path data: `M x y L x y ... Z` for each polyline.
fn d(path: &[Polyline]) -> String {
    let mut s = String::new();
    for line in path {
        for (i, (x, y)) in line.points.iter().enumerate() {
            let op = if i == 0 { 'M' } else { 'L' };
            let _ = write!(s, "{op}{} {}", num(*x), num(*y));
        }
        if line.closed {
            s.push('Z');
        }
    }
    s
}

/// A number with at most two decimals and no trailing zeros (`-0` as `0`).
fn num(v: f32) -> String {
    let text = format!("{:.2}", v);
    let text = text.trim_end_matches('0').trim_end_matches('.');
    if text == "-0" || text.is_empty() {
        "0".to_string()
    } else {
        text.to_string()
    }
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_short_and_stable() {
        assert_eq!(num(12.0), "12");
        assert_eq!(num(12.3456), "12.35");
        assert_eq!(num(-0.001), "0");
        assert_eq!(num(0.5), "0.5");
    }
}
