//! Words for steps: house names, cell lists and digit lists in the r1c1 notation people use.

use crate::bitset::DigitSet;
use crate::geometry::{Cell, Geometry, House};
use crate::puzzle::cell_name;

/// "row 3", "column 5", "box 4" (or "region 4" on a jigsaw), 1-based.
pub fn house_name(geometry: &Geometry, house: House) -> String {
    let n = geometry.size();
    let h = house.as_index();
    match h / n {
        0 => format!("row {}", h + 1),
        1 => format!("column {}", h - n + 1),
        _ if geometry.is_jigsaw() => format!("region {}", h - 2 * n + 1),
        _ => format!("box {}", h - 2 * n + 1),
    }
}

/// "r1c1, r1c2" for a list of cells.
pub fn cells_text(geometry: &Geometry, cells: &[Cell]) -> String {
    let names: Vec<String> = cells.iter().map(|&c| cell_name(geometry, c)).collect();
    names.join(", ")
}

/// "1,2,4" for a digit set.
pub fn digits_text(digits: DigitSet) -> String {
    let names: Vec<String> = digits.iter().map(|d| d.get().to_string()).collect();
    names.join(",")
}

/// "{1,2,4}" for a digit set.
pub fn set_text(digits: DigitSet) -> String {
    format!("{{{}}}", digits_text(digits))
}

/// "the 14 cage at r1c1" (a cage named by its sum and its first cell).
pub fn cage_text(geometry: &Geometry, sum: u16, cells: &[Cell]) -> String {
    match cells.first() {
        Some(&c) => format!("{sum}({}) at {}", cells.len(), cell_name(geometry, c)),
        None => format!("{sum}(0)"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::Digit;

    #[test]
    fn names() {
        let g = Geometry::standard(9).unwrap();
        assert_eq!(house_name(&g, House::new(2)), "row 3");
        assert_eq!(house_name(&g, House::new(13)), "column 5");
        assert_eq!(house_name(&g, House::new(21)), "box 4");
        let d: DigitSet = [1, 2, 4].into_iter().map(Digit::new).collect();
        assert_eq!(set_text(d), "{1,2,4}");
        assert_eq!(
            cage_text(&g, 14, &[Cell::new(10), Cell::new(11)]),
            "14(2) at r2c2"
        );
        assert_eq!(cells_text(&g, &[Cell::new(0), Cell::new(80)]), "r1c1, r9c9");
    }
}
