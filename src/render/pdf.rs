//! PDF writer (krilla): draws laid-out pages as vectors with DejaVu Sans embedded as subsets, in
//! DeviceGray, without dates, outline, annotations or XMP, so the same pages give the same bytes.

use super::font::{font_bytes, text_width, undrawable};
use super::RenderError;
use crate::print::book::{Page, Rect};
use crate::print::draw::{Align, Item, Polyline, Weight};
use krilla::color::luma;
use krilla::geom::{PathBuilder, Point};
use krilla::metadata::Metadata;
use krilla::num::NormalizedF32;
use krilla::page::PageSettings;
use krilla::paint::{Fill, FillRule, LineCap, LineJoin, Stroke, StrokeDash};
use krilla::surface::Surface;
use krilla::text::{Font, TextDirection};
use krilla::{Document, SerializeSettings};
use std::io::Write;

/// Write the PDF of `pages` into `out`, with `title` as the document title.
pub fn write_pdf<W: Write>(out: &mut W, pages: &[Page], title: &str) -> Result<(), RenderError> {
    // Refuse, before anything is drawn, a text the font or this writer cannot show (issue 21, N13).
    for item in pages.iter().flat_map(|p| &p.drawing.items) {
        if let Item::Text { text, weight, .. } = item {
            if let Some((ch, why)) = undrawable(*weight, text) {
                return Err(RenderError::Text {
                    text: text.clone(),
                    ch,
                    why,
                });
            }
        }
    }
    let mut doc = Document::new_with(SerializeSettings {
        xmp_metadata: false,
        enable_tagging: false,
        ..SerializeSettings::default()
    });
    doc.set_metadata(Metadata::new().title(title.to_string()));
    let load = |w| Font::new(font_bytes(w).into(), 0).ok_or(RenderError::Font);
    let fonts = (load(Weight::Regular)?, load(Weight::Bold)?);
    for page in pages {
        let d = &page.drawing;
        let settings = PageSettings::from_wh(d.width, d.height)
            .ok_or(RenderError::PageSize(d.width, d.height))?
            .with_trim_box(Some(rect(page.trim_box, d.height)?))
            .with_bleed_box(page.bleed_box.map(|b| rect(b, d.height)).transpose()?);
        let mut p = doc.start_page_with(settings);
        let mut surface = p.surface();
        for item in &d.items {
            draw(&mut surface, item, &fonts);
        }
        surface.finish();
        p.finish();
    }
    let bytes = doc
        .finish()
        .map_err(|e| RenderError::Pdf(format!("{e:?}")))?;
    out.write_all(&bytes)?;
    Ok(())
}

/// A page box in PDF's own coordinates (origin bottom-left).
fn rect(r: Rect, page_height: f32) -> Result<krilla::geom::Rect, RenderError> {
    krilla::geom::Rect::from_xywh(r.x, page_height - r.y - r.h, r.w, r.h)
        .ok_or(RenderError::PageSize(r.w, r.h))
}

fn draw(surface: &mut Surface, item: &Item, fonts: &(Font, Font)) {
    match item {
        Item::Fill { path, grey } => {
            let Some(path) = build(path) else { return };
            let lightness = (255.0 * (1.0 - grey)).round() as u8;
            surface.set_stroke(None);
            surface.set_fill(Some(Fill {
                paint: luma::Color::new(lightness).into(),
                opacity: NormalizedF32::ONE,
                rule: FillRule::NonZero,
            }));
            surface.draw_path(&path);
        }
        Item::Stroke { path, width, dash } => {
            let Some(path) = build(path) else { return };
            surface.set_fill(None);
            surface.set_stroke(Some(Stroke {
                paint: luma::Color::black().into(),
                width: *width,
                miter_limit: 10.0,
                line_cap: LineCap::Butt,
                line_join: LineJoin::Miter,
                opacity: NormalizedF32::ONE,
                dash: dash.map(|(on, off)| StrokeDash {
                    array: vec![on, off],
                    offset: 0.0,
                }),
            }));
            surface.draw_path(&path);
        }
        Item::Text {
            x,
            y,
            size,
            text,
            align,
            weight,
        } => {
            let font = match weight {
                Weight::Regular => &fonts.0,
                Weight::Bold => &fonts.1,
            };
            let w = text_width(*weight, text, *size);
            let left = match align {
                Align::Left => *x,
                Align::Center => x - w / 2.0,
                Align::Right => x - w,
            };
            surface.set_stroke(None);
            surface.set_fill(Some(Fill::default()));
            surface.draw_text(
                Point::from_xy(left, *y),
                font.clone(),
                *size,
                text,
                false,
                TextDirection::Auto,
            );
        }
    }
}

fn build(path: &[Polyline]) -> Option<krilla::geom::Path> {
    let mut b = PathBuilder::new();
    for line in path {
        let Some(((x, y), rest)) = line.points.split_first() else {
            continue;
        };
        b.move_to(*x, *y);
        for (x, y) in rest {
            b.line_to(*x, *y);
        }
        if line.closed {
            b.close();
        }
    }
    b.finish()
}
