//! SudoCue / JSudoku / SudokuSolver killer codes (`3x3::k:`), one a line: the writer of
//! `format::sudocue` (which also reads them), over the store.

use super::lines::write_lines;
use super::ExportError;
use crate::format::sudocue::to_code;
use crate::store::Store;
use std::io::Write;

/// Write every puzzle of `store` as a `3x3::k:` code line (9x9 zero-given killers only).
pub fn write_sudocue<W: Write>(store: &Store, out: &mut W) -> Result<u64, ExportError> {
    write_lines(store, out, |p| to_code(&p.puzzle))
}

#[cfg(test)]
mod tests {
    use crate::export::worked::{k9, K9_SUDOCUE};
    use crate::format::sudocue::{parse_line, to_code};

    #[test]
    fn writes_the_worked_example() {
        // The research example numbers cages from 0, our writer from 1: otherwise equal.
        let code = to_code(&k9().0).unwrap();
        let shifted: Vec<String> = K9_SUDOCUE
            .strip_prefix("3x3::k:")
            .unwrap()
            .split_terminator(':')
            .map(|v| (v.parse::<u32>().unwrap() + 1).to_string())
            .collect();
        assert_eq!(code, format!("3x3::k:{}:", shifted.join(":")));
        assert_eq!(parse_line(&code, 1).unwrap(), k9().0);
    }
}
