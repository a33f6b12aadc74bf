//! SudokuWiki's packed killer strings: `L9B` (9x9 killer), `L6C` (6x6 killer) and `M9B` (9x9
//! killer-jigsaw), for pasting into the SudokuWiki solvers' import box.
//!
//! Layout (publishing.md §4.4, read in pencilmark's `interop.py`, which was checked against
//! sudokuwiki.org): the code, then one fixed-width base-36 number per cell in row-major order,
//! lower case. `n` is the cell's digit (a given `d` is `d + 9`, on 6x6 `d + 6`; empty is 529, on
//! 6x6 75); `clue` is the cage sum on the cage's first cell (row-major), 0 elsewhere; `colour`
//! `1..` is the cage's colour, different for touching cages, so a cage is a connected group of
//! one colour. We write a true 4-colouring, the one the books shade with (`print::shade`).
//! - `L9B`, 4 characters: `((colour-1) << 6 | clue) << 10 | n`.
//! - `M9B`, 5 characters: `(((region-1) << 3 | colour-1) << 6 | clue) << 10 | n`.
//! - `L6C`, 4 characters: `((colour-1) << 11 | op_or_clue) << 7 | n`; the cell right of the clue
//!   (below it when the right one is in another cage) carries operator 1, `+`.

use super::error::expected;
use super::FormatError;
use crate::cage::Cage;
use crate::geometry::{Cell, Geometry};
use crate::grid::Grid;
use crate::print::shade::cage_colours;
use crate::puzzle::Puzzle;

/// The three packed killer codes.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Code {
    /// 9x9 killer with 3x3 boxes.
    L9b,
    /// 6x6 killer with 2x3 boxes.
    L6c,
    /// 9x9 killer-jigsaw.
    M9b,
}

impl Code {
    fn prefix(self) -> &'static str {
        match self {
            Code::L9b => "L9B",
            Code::L6c => "L6C",
            Code::M9b => "M9B",
        }
    }
    fn width(self) -> usize {
        match self {
            Code::L9b | Code::L6c => 4,
            Code::M9b => 5,
        }
    }
    fn size(self) -> usize {
        match self {
            Code::L6c => 6,
            _ => 9,
        }
    }
    /// The `n` field: (given offset, empty value, bits).
    fn digit_field(self) -> (u64, u64, u32) {
        match self {
            Code::L6c => (6, 75, 7),
            _ => (9, 529, 10),
        }
    }
    /// Bits of the clue field.
    fn clue_bits(self) -> u32 {
        match self {
            Code::L6c => 11,
            _ => 6,
        }
    }
}

fn unrepresentable(reason: &'static str) -> FormatError {
    FormatError::Unrepresentable {
        format: "sudokuwiki",
        reason,
    }
}

/// Which code a puzzle takes, or why it takes none.
fn code_of(puzzle: &Puzzle) -> Result<Code, FormatError> {
    let geometry = puzzle.geometry();
    let code =
        match (geometry.size(), geometry.box_shape()) {
            (9, Some((3, 3))) => Code::L9b,
            (9, None) => Code::M9b,
            (6, Some((2, 3))) => Code::L6c,
            _ => return Err(unrepresentable(
                "SudokuWiki has killer strings for 9x9, 6x6 (2x3 boxes) and 9x9 killer-jigsaw only",
            )),
        };
    if !puzzle.is_killer() {
        return Err(unrepresentable(
            "it has no cages (this export is for killers)",
        ));
    }
    if puzzle.caged_cells().len() != geometry.cell_count() {
        return Err(unrepresentable("some cells are in no cage"));
    }
    Ok(code)
}

/// The cage of every cell (callers checked that every cell has one).
fn cage_of_cells(puzzle: &Puzzle) -> Vec<usize> {
    let mut owner = vec![usize::MAX; puzzle.geometry().cell_count()];
    for (i, cage) in puzzle.cages().iter().enumerate() {
        for cell in &cage.cells {
            owner[cell.as_index()] = i;
        }
    }
    owner
}

/// Base 36, lower case, zero-padded to `width` digits.
fn base36(mut value: u64, width: usize) -> String {
    let mut digits = vec![b'0'; width];
    for slot in digits.iter_mut().rev() {
        *slot = b"0123456789abcdefghijklmnopqrstuvwxyz"[(value % 36) as usize];
        value /= 36;
    }
    String::from_utf8(digits).unwrap_or_default()
}

/// The SudokuWiki string of a killer: `L9B...`, `L6C...` or `M9B...`.
pub fn to_string(puzzle: &Puzzle) -> Result<String, FormatError> {
    let code = code_of(puzzle)?;
    let geometry = puzzle.geometry();
    let colours = cage_colours(puzzle)
        .ok_or_else(|| unrepresentable("its cages could not be coloured with four colours"))?;
    let owner = cage_of_cells(puzzle);
    let mut clue = vec![0u64; geometry.cell_count()];
    for cage in puzzle.cages() {
        let first = cage.cells[0];
        clue[first.as_index()] = u64::from(cage.sum);
        if code == Code::L6c {
            // The operator sits right of the clue, or below it when the right cell is elsewhere.
            let (r, c) = (geometry.row(first), geometry.col(first));
            let right = (c + 1 < 6).then(|| geometry.cell_at(r, c + 1));
            let below = (r + 1 < 6).then(|| geometry.cell_at(r + 1, c));
            let inside = |cell: &Cell| cage.cells.contains(cell);
            if let Some(op) = right.filter(inside).or(below.filter(inside)) {
                clue[op.as_index()] = 1;
            }
        }
    }
    let (offset, empty, digit_bits) = code.digit_field();
    let mut text = String::from(code.prefix());
    for cell in geometry.cells() {
        let i = cell.as_index();
        let n = puzzle
            .givens()
            .get(cell)
            .map_or(empty, |d| u64::from(d.get()) + offset);
        let colour = u64::from(colours[owner[i]]);
        let mut high = (colour << code.clue_bits()) | clue[i];
        if code == Code::M9b {
            let region = geometry.region(cell) as u64;
            high |= region << (3 + code.clue_bits());
        }
        text.push_str(&base36((high << digit_bits) | n, code.width()));
    }
    Ok(text)
}

/// Read a SudokuWiki killer string back (the inverse of [`to_string`]).
pub fn parse(text: &str) -> Result<Puzzle, FormatError> {
    let bad = |what: String, found: &str| FormatError::at(1, expected(what, found));
    let text = text.trim();
    let code = [Code::L9b, Code::L6c, Code::M9b]
        .into_iter()
        .find(|c| text.starts_with(c.prefix()))
        .ok_or_else(|| bad("a string starting L9B, L6C or M9B".into(), text))?;
    let (n, width) = (code.size(), code.width());
    let body = text[3..].to_ascii_lowercase();
    if body.len() != n * n * width || !body.bytes().all(|b| b.is_ascii_alphanumeric()) {
        let what = format!(
            "{} base-36 characters after {}",
            n * n * width,
            code.prefix()
        );
        return Err(bad(what, &body));
    }
    let (offset, empty, digit_bits) = code.digit_field();
    let (mut givens, mut clues, mut colours, mut regions) = (vec![], vec![], vec![], vec![]);
    for i in 0..n * n {
        let chunk = &body[i * width..(i + 1) * width];
        let value = u64::from_str_radix(chunk, 36).unwrap_or_default();
        let digit = value & ((1 << digit_bits) - 1);
        let high = value >> digit_bits;
        givens.push(match digit {
            d if d == empty => 0,
            d if d > offset && d <= offset + n as u64 => (d - offset) as u8,
            _ => return Err(bad(format!("cell {}: a digit field", i + 1), chunk)),
        });
        clues.push(high & ((1 << code.clue_bits()) - 1));
        colours.push((high >> code.clue_bits()) & 7);
        regions.push((high >> (code.clue_bits() + 3)) as u8);
    }
    let geometry = match code {
        Code::M9b => Geometry::jigsaw(n, regions),
        _ => Geometry::standard(n),
    }
    .map_err(|e| FormatError::at(1, e))?;
    let givens = Grid::from_values(n, givens).ok_or_else(|| bad("digits".into(), text))?;
    // A cage is a connected group of one colour; its sum is the clue on its first cell.
    let mut seen = vec![false; n * n];
    let mut cages = Vec::new();
    for start in geometry.cells() {
        if seen[start.as_index()] {
            continue;
        }
        seen[start.as_index()] = true;
        let (mut cells, mut stack) = (vec![start], vec![start]);
        while let Some(cell) = stack.pop() {
            for next in geometry.neighbours(cell) {
                let j = next.as_index();
                if !seen[j] && colours[j] == colours[start.as_index()] {
                    seen[j] = true;
                    cells.push(next);
                    stack.push(next);
                }
            }
        }
        let sum = clues[start.as_index()];
        if sum == 0 {
            let what = format!(
                "a cage sum on cell {} (first of its cage)",
                start.as_index() + 1
            );
            return Err(bad(what, "0"));
        }
        cages.push(Cage::new(sum as u16, cells));
    }
    Puzzle::new(geometry, givens, cages).map_err(|e| FormatError::at(1, e))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::worked::k9;

    /// K9 #1 as `L9B`, from pencilmark (publishing.md §4.4; its colouring, up to 8 colours).
    const K9_L9B: &str = "L9B1qtt0emp00ep00ep00ep328h2tjl09w100ep1ez51ez53a4x2tjl2tjl1ki91ez51ez535e90jdd00ep00ep00ep00ep2zv52tjl0ikx2tjl36z52tjl4hld1q1d31g106q94f8100ep1ixd06q92tjl48411ez52tjl00ep484100ep1ez500ep1lap1ez509w100ep1mvl1ez500ep2xht1qtt0ff500ep1jpt35e92tjl07ip1i4x2tjl1ez51ez500ep1ez54idt484100ep1ez50c9d07ip00ep2xht2tjl06q900ep35e92tjl00ep";

    fn cell_values(text: &str) -> Vec<u64> {
        (0..81)
            .map(|i| u64::from_str_radix(&text[3 + 4 * i..7 + 4 * i], 36).unwrap())
            .collect()
    }

    #[test]
    fn reads_the_worked_example() {
        assert_eq!(K9_L9B.len(), 327);
        assert_eq!(parse(K9_L9B).unwrap(), k9().0);
    }

    #[test]
    fn writes_the_worked_example_up_to_the_colours() {
        // Clues and digits must match pencilmark's string cell for cell; the colours may differ
        // (ours is a 4-colouring), so they are compared only through the cages they make.
        let (puzzle, _) = k9();
        let ours = to_string(&puzzle).unwrap();
        assert_eq!(ours.len(), 327);
        let low = |v: u64| v & 0xffff;
        let theirs: Vec<u64> = cell_values(K9_L9B).into_iter().map(low).collect();
        let mine: Vec<u64> = cell_values(&ours).into_iter().map(low).collect();
        assert_eq!(mine, theirs);
        assert!(cell_values(&ours).iter().all(|v| v >> 16 < 4), "4 colours");
        assert_eq!(parse(&ours).unwrap(), puzzle);
    }

    #[test]
    fn colouring_is_proper_and_uses_four_colours() {
        let (puzzle, _) = k9();
        let g = puzzle.geometry();
        let colours = cage_colours(&puzzle).unwrap();
        let owner = cage_of_cells(&puzzle);
        for cell in g.cells() {
            for other in g.neighbours(cell) {
                let (a, b) = (owner[cell.as_index()], owner[other.as_index()]);
                assert!(a == b || colours[a] != colours[b]);
            }
        }
        assert!(colours.iter().all(|&c| c < 4));
    }

    #[test]
    fn six_by_six_and_jigsaw_round_trip_and_others_are_refused() {
        let g6 = Geometry::standard(6).unwrap();
        // Cages of two cells side by side (r, c), (r, c+1) for c even; one has a given.
        let cages: Vec<Cage> = (0..18u8)
            .map(|k| Cage::new(7, vec![Cell::new(2 * k), Cell::new(2 * k + 1)]))
            .collect();
        let mut givens = Grid::empty(6);
        givens.set(Cell::new(0), Some(crate::geometry::Digit::new(1)));
        let p6 = Puzzle::new(g6, givens, cages).unwrap();
        let text = to_string(&p6).unwrap();
        assert!(
            text.starts_with("L6C") && text.len() == 3 + 36 * 4,
            "{text}"
        );
        assert_eq!(parse(&text).unwrap(), p6);
        // The cell right of each clue holds the `+` operator (1).
        let second = u64::from_str_radix(&text[7..11], 36).unwrap();
        assert_eq!((second >> 7) & 0x7ff, 1);

        let map: Vec<u8> = (0..81).map(|i| (i / 9) as u8).collect(); // rows as regions
        let gj = Geometry::jigsaw(9, map).unwrap();
        let cages: Vec<Cage> = (0..81u8)
            .map(|i| Cage::new(5, vec![Cell::new(i)]))
            .collect();
        let pj = Puzzle::new(gj, Grid::empty(9), cages).unwrap();
        let text = to_string(&pj).unwrap();
        assert!(text.starts_with("M9B") && text.len() == 3 + 81 * 5);
        assert_eq!(parse(&text).unwrap(), pj);

        let plain = Puzzle::plain(Geometry::standard(9).unwrap(), Grid::empty(9)).unwrap();
        assert!(to_string(&plain).is_err());
        let k4 = crate::format::worked::k4().0;
        assert!(to_string(&k4).unwrap_err().to_string().contains("9x9, 6x6"));
        assert!(parse("L9B00").is_err());
        assert!(parse("Z9B").is_err());
    }
}
