//! Where a TOML text is wrong (line, column, the line itself), for every TOML file the program
//! reads: settings presets, book specs and feed schedules.

use std::fmt;

/// A TOML parse error placed in its text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TomlError {
    /// The 1-based line and column where the error starts, when the parser knows.
    pub at: Option<(usize, usize)>,
    /// That line of the text, trimmed.
    pub excerpt: String,
    /// The parser's message, as it gave it.
    pub message: String,
}

impl TomlError {
    /// Place the parse error `e` of `text`.
    pub fn new(text: &str, e: &toml::de::Error) -> TomlError {
        let at = e.span().map(|span| {
            let before = &text[..span.start.min(text.len())];
            let start = before.rfind('\n').map_or(0, |i| i + 1);
            (
                before.matches('\n').count() + 1,
                before.len() - start + 1,
                start,
            )
        });
        TomlError {
            at: at.map(|(line, column, _)| (line, column)),
            excerpt: at.map_or(String::new(), |(_, _, start)| {
                text[start..]
                    .lines()
                    .next()
                    .unwrap_or("")
                    .trim()
                    .to_string()
            }),
            message: e.message().to_string(),
        }
    }

    /// The 1-based line of the error, when known.
    pub fn line(&self) -> Option<usize> {
        self.at.map(|(line, _)| line)
    }
}

/// What to do about a parser message that says only what is wrong.
fn hint(message: &str) -> Option<&'static str> {
    if message.contains("too large") || message.contains("too small") {
        Some("write a whole number the setting can take (see the file's comments or the README for its range)")
    } else {
        None
    }
}

/// `line L, column C ("the line"): message`, on one line, with what to do where the parser's
/// message does not say.
impl fmt::Display for TomlError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let message = self.message.trim_end().replace('\n', "; ");
        match self.at {
            Some((line, column)) => write!(
                f,
                "line {line}, column {column} ({:?}): {message}",
                self.excerpt
            )?,
            None => f.write_str(&message)?,
        }
        match hint(&message) {
            Some(hint) => write!(f, "; {hint}"),
            None => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn places_the_error_on_its_line_and_column() {
        let text = "[feed]\ntitle = \"x\"\nrecent = nope\n";
        let e = toml::from_str::<toml::Table>(text).unwrap_err();
        let error = TomlError::new(text, &e);
        assert_eq!(error.at, Some((3, 10)));
        assert_eq!(error.line(), Some(3));
        assert_eq!(error.excerpt, "recent = nope");
        let shown = error.to_string();
        assert!(
            shown.starts_with("line 3, column 10 (\"recent = nope\"): "),
            "{shown}"
        );
        assert!(!shown.contains('\n'), "{shown}");
    }

    #[derive(Debug, serde::Deserialize)]
    #[allow(dead_code)] // read only by the parser
    struct Recent {
        recent: usize,
    }

    #[test]
    fn a_number_too_large_says_what_to_write() {
        let text = "recent = 18446744073709551616\n";
        let e = toml::from_str::<Recent>(text).unwrap_err();
        let shown = TomlError::new(text, &e).to_string();
        assert!(shown.starts_with("line 1, column 10"), "{shown}");
        assert!(
            shown.contains("write a whole number the setting can take"),
            "{shown}"
        );
        let text = "recent = nope\n";
        let e = toml::from_str::<Recent>(text).unwrap_err();
        let shown = TomlError::new(text, &e).to_string();
        assert!(!shown.contains("write a whole number"), "{shown}");
    }
}
