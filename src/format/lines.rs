//! Bounded, numbered line reading: no line longer than `MAX_LINE`, text only.

use super::error::{ErrorKind, FormatError, MAX_LINE};
use std::io::{BufRead, Read};

/// One line of input, without its line ending.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    /// 1-based line number.
    pub number: usize,
    /// The text.
    pub text: String,
}

/// Numbered lines from a reader, each at most `MAX_LINE` bytes, each valid UTF-8.
pub struct Lines<R> {
    input: R,
    number: usize,
    buf: Vec<u8>,
}

impl<R: BufRead> Lines<R> {
    /// Lines of `input`.
    pub fn new(input: R) -> Self {
        Lines {
            input,
            number: 0,
            buf: Vec::new(),
        }
    }

    /// The number of the last line read (0 before the first).
    pub fn number(&self) -> usize {
        self.number
    }

    /// The next line, or `None` at the end of the input.
    pub fn next_line(&mut self) -> Result<Option<Line>, FormatError> {
        self.buf.clear();
        let limit = MAX_LINE as u64 + 1;
        let read = (&mut self.input)
            .take(limit)
            .read_until(b'\n', &mut self.buf)?;
        if read == 0 {
            return Ok(None);
        }
        self.number += 1;
        if self.buf.last() == Some(&b'\n') {
            self.buf.pop();
        } else if self.buf.len() > MAX_LINE {
            return Err(FormatError::at(self.number, ErrorKind::TooLong));
        }
        if self.buf.last() == Some(&b'\r') {
            self.buf.pop();
        }
        let text = std::str::from_utf8(&self.buf)
            .map_err(|_| FormatError::at(self.number, ErrorKind::NotText))?;
        if text.contains('\0') {
            return Err(FormatError::at(self.number, ErrorKind::NotText));
        }
        Ok(Some(Line {
            number: self.number,
            text: text.to_string(),
        }))
    }

    /// The next line for which `keep` holds (blank and comment lines are skipped this way).
    pub fn next_matching(
        &mut self,
        keep: impl Fn(&str) -> bool,
    ) -> Result<Option<Line>, FormatError> {
        while let Some(line) = self.next_line()? {
            if keep(&line.text) {
                return Ok(Some(line));
            }
        }
        Ok(None)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_lines_and_strips_endings() {
        let mut lines = Lines::new(&b"a\r\n\nb"[..]);
        let a = lines.next_line().unwrap().unwrap();
        assert_eq!((a.number, a.text.as_str()), (1, "a"));
        let b = lines.next_matching(|t| !t.is_empty()).unwrap().unwrap();
        assert_eq!((b.number, b.text.as_str()), (3, "b"));
        assert!(lines.next_line().unwrap().is_none());
    }

    #[test]
    fn rejects_binary_and_overlong_lines() {
        let mut lines = Lines::new(&b"ok\n\xff\xfe\n"[..]);
        lines.next_line().unwrap();
        let err = lines.next_line().unwrap_err();
        assert_eq!(err.line(), Some(2));
        let long = vec![b'1'; MAX_LINE + 10];
        let err = Lines::new(&long[..]).next_line().unwrap_err();
        assert!(matches!(
            err,
            FormatError::At {
                kind: ErrorKind::TooLong,
                ..
            }
        ));
    }
}
