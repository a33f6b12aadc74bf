//! The compact text forms the store (and the CSV export) use for grids, regions, cages and histograms.
//!
//! - grid: N² characters in cell order, `.` empty, `1`-`9` then `A`-`G` for 10 to 16;
//! - regions (jigsaw): N² characters, the 0-based region of every cell, `0`-`9` then `A`-`F`;
//! - cages: `sum:cell.cell.cell;sum:cell.cell` with 0-based cell indices (`row * N + col`),
//!   cells ascending, cages in puzzle order; empty for a plain puzzle;
//! - cage size histogram: `size:count;size:count`, sizes ascending, absent sizes omitted.

use crate::cage::Cage;
use crate::format::plain;
use crate::geometry::{Cell, MAX_SIZE};
use crate::grid::Grid;
use std::fmt::Write;

/// Region symbols: `0`-`9`, then `A`-`F`.
const REGION_SYMBOLS: &[u8; 16] = b"0123456789ABCDEF";

/// The text form of a grid: the plain string of `format::plain` (`.`, `1`-`9`, `A`-`G`).
pub fn grid_to_text(grid: &Grid) -> String {
    plain::to_plain(grid)
}

/// A grid of side `size` from its text form, or `None` if the text is not one.
pub fn grid_from_text(size: usize, text: &str) -> Option<Grid> {
    let values = text
        .chars()
        .map(|ch| plain::char_value(ch).map(|v| v as u8))
        .collect::<Option<Vec<u8>>>()?;
    Grid::from_values(size, values)
}

/// The text form of a region map (0-based region per cell).
pub fn regions_to_text(region_of: &[u8]) -> String {
    region_of
        .iter()
        .map(|&r| REGION_SYMBOLS[r as usize] as char)
        .collect()
}

/// A region map from its text form, or `None` if a character is not a region symbol.
pub fn regions_from_text(text: &str) -> Option<Vec<u8>> {
    text.bytes()
        .map(|b| REGION_SYMBOLS.iter().position(|&s| s == b).map(|p| p as u8))
        .collect()
}

/// The text form of a cage list: `sum:cell.cell;...`.
pub fn cages_to_text(cages: &[Cage]) -> String {
    let mut out = String::new();
    for (i, cage) in cages.iter().enumerate() {
        if i > 0 {
            out.push(';');
        }
        let _ = write!(out, "{}:", cage.sum);
        for (j, cell) in cage.cells.iter().enumerate() {
            if j > 0 {
                out.push('.');
            }
            let _ = write!(out, "{}", cell.get());
        }
    }
    out
}

/// A cage list from its text form (cells are not validated against a grid here), or `None`.
pub fn cages_from_text(text: &str) -> Option<Vec<Cage>> {
    if text.is_empty() {
        return Some(Vec::new());
    }
    text.split(';')
        .map(|cage| {
            let (sum, cells) = cage.split_once(':')?;
            let cells = cells
                .split('.')
                .map(|c| c.parse::<u8>().ok().map(Cell::new))
                .collect::<Option<Vec<Cell>>>()?;
            Some(Cage::new(sum.parse().ok()?, cells))
        })
        .collect()
}

/// The text form of a cage size histogram (`sizes[k]` = number of cages of `k` cells).
pub fn histogram_to_text(sizes: &[u32]) -> String {
    let mut out = String::new();
    for (size, &count) in sizes.iter().enumerate().filter(|(_, &c)| c > 0) {
        if !out.is_empty() {
            out.push(';');
        }
        let _ = write!(out, "{size}:{count}");
    }
    out
}

/// `(size, count)` pairs from the text form of a histogram, or `None`.
pub fn histogram_from_text(text: &str) -> Option<Vec<(usize, u64)>> {
    if text.is_empty() {
        return Some(Vec::new());
    }
    text.split(';')
        .map(|pair| {
            let (size, count) = pair.split_once(':')?;
            let size: usize = size.parse().ok()?;
            (size <= MAX_SIZE).then_some(())?;
            Some((size, count.parse().ok()?))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grids_round_trip_past_nine() {
        let mut values = vec![0u8; 256];
        for (i, v) in values.iter_mut().enumerate() {
            *v = (i % 17) as u8;
        }
        let grid = Grid::from_values(16, values).unwrap();
        let text = grid_to_text(&grid);
        assert_eq!(&text[..18], ".123456789ABCDEFG.");
        assert_eq!(grid_from_text(16, &text), Some(grid));
        assert_eq!(grid_from_text(4, "12.4x..........."), None);
        assert_eq!(grid_from_text(4, "12.45..........."), None);
        assert_eq!(grid_from_text(4, "1234"), None);
    }

    #[test]
    fn cages_round_trip() {
        let cages = vec![
            Cage::new(15, vec![Cell::new(0), Cell::new(1), Cell::new(9)]),
            Cage::new(3, vec![Cell::new(80)]),
        ];
        let text = cages_to_text(&cages);
        assert_eq!(text, "15:0.1.9;3:80");
        assert_eq!(cages_from_text(&text), Some(cages));
        assert_eq!(cages_from_text(""), Some(Vec::new()));
        assert_eq!(cages_from_text("15:0.x"), None);
        assert_eq!(cages_from_text("15"), None);
    }

    #[test]
    fn regions_and_histograms_round_trip() {
        let regions: Vec<u8> = (0..16).collect();
        let text = regions_to_text(&regions);
        assert_eq!(text, "0123456789ABCDEF");
        assert_eq!(regions_from_text(&text), Some(regions));
        assert_eq!(regions_from_text("G"), None);
        let text = histogram_to_text(&[0, 0, 17, 7, 0, 2]);
        assert_eq!(text, "2:17;3:7;5:2");
        assert_eq!(
            histogram_from_text(&text),
            Some(vec![(2, 17), (3, 7), (5, 2)])
        );
    }
}
