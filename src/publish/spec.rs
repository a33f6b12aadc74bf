//! The book spec file: a `[book]` table of defaults and `[[section]]` tables.

use super::PublishError;
use crate::settings::TomlError;
use serde::Deserialize;
use std::path::Path;

/// A book spec file.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Spec {
    /// Defaults for the whole book.
    #[serde(default)]
    pub book: SpecBook,
    /// The sections, in order.
    #[serde(default)]
    pub section: Vec<SpecSection>,
}

/// The `[book]` table: defaults for the whole book, overridden by flags.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SpecBook {
    /// Title.
    pub title: Option<String>,
    /// Trim name.
    pub trim: Option<String>,
    /// Puzzles a page.
    pub per_page: Option<usize>,
    /// `end` or `section`.
    pub answers: Option<String>,
    /// Shade cages.
    pub shade: Option<bool>,
    /// Add bleed.
    pub bleed: Option<bool>,
    /// Variant of every section that names none.
    pub variant: Option<String>,
    /// Size of every section that names none.
    pub size: Option<usize>,
}

/// One `[[section]]`: a title and which puzzles.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SpecSection {
    /// Title (default: the level, capitalised).
    pub title: Option<String>,
    /// Level.
    pub level: Option<String>,
    /// How many puzzles.
    pub count: usize,
    /// Variant (default: the book's).
    pub variant: Option<String>,
    /// Size (default: the book's).
    pub size: Option<usize>,
}

impl Spec {
    /// Read and parse the spec at `path`.
    pub fn load(path: &Path) -> Result<Spec, PublishError> {
        let text = std::fs::read_to_string(path).map_err(|cause| PublishError::SpecRead {
            path: path.to_path_buf(),
            cause,
        })?;
        toml::from_str::<Spec>(&text).map_err(|e| {
            let error = TomlError::new(&text, &e);
            PublishError::Spec {
                path: path.to_path_buf(),
                line: error
                    .line()
                    .map(|l| format!(" line {l}:"))
                    .unwrap_or_default(),
                message: error.message,
            }
        })
    }
}
