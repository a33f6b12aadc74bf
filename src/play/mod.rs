//! Playable pages: self-contained HTML players of stored puzzles (library adapter).
//!
//! A page holds one or more players, each
//! `<section class="sp-player" id="p-ID">…<script type="application/json" class="sp-data">{…}</script></section>`,
//! and ends with the inline script of `rules.js` and `player.js`, which mounts every `.sp-player`.
//! The JSON object is [`PlayerData`] (the player contract of issue 20, shared with the JS player
//! and the feed site): geometry, regions, givens, cages, solution, level and score, the
//! estimated solving time `minutes` (`[low, high]`), the canonical `key`, the grader's `path` (the steps `explain` prints, in the same words) and the
//! generator's `making` (a re-run of the row with the recording hook). Besides the contract,
//! `pathNote` and `makingNote` say why `path` or `making` is empty.
//!
//! - [`data`]: the JSON object of one puzzle;
//! - [`making`]: "How it was made" from (settings, seed, index);
//! - [`page`]: the template, the inlined assets and the CSP; [`write_page`] is the entry point
//!   for pages of several players (the feed's day page);
//! - [`write_store_pages`]: `render --format html`, one `ID.html` per stored id.

pub mod data;
pub mod making;
pub mod page;

#[cfg(test)]
mod tests;

pub use data::{player_data, CageData, PathStep, PlayerData, Source};
pub use making::{layout_at, making_of, Making, MakingStep};
pub use page::{page_html, write_page, Link, PageError, PageInfo};

use crate::atomic_file::{AtomicFile, AtomicFileError};
use crate::grader::solve_logically;
use crate::store::{Store, StoreError, StoredPuzzle};
use std::io::Write;
use std::path::{Path, PathBuf};

/// Why pages could not be written. Nothing is written when any page fails before writing.
#[derive(Debug, thiserror::Error)]
pub enum PlayError {
    /// The database could not be read.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// Ids that are not in the database.
    #[error("{db}: no puzzle with id {ids}; nothing was written (list ids with `sudoku-press stats` or choose them from `export`)")]
    Missing {
        /// The database.
        db: PathBuf,
        /// The unknown ids, comma-separated.
        ids: String,
    },
    /// A stored puzzle with no unique solution has no hint path.
    #[error("puzzle id {id}: {reason}, so it has no hint path; nothing was written (run `sudoku-press verify` on the database)")]
    NoPath {
        /// The row.
        id: i64,
        /// The grader's reason.
        reason: String,
    },
    /// The output path exists and is not a directory.
    #[error("{0}: is a file, not a directory; give a directory for the ID.html pages")]
    NotADirectory(PathBuf),
    /// The output directory could not be created.
    #[error("{path}: cannot create the output directory: {source}")]
    CreateDir {
        /// The directory.
        path: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
    /// A page could not be rendered or written.
    #[error(transparent)]
    Page(#[from] PageError),
    /// A page file could not be put in place.
    #[error(transparent)]
    Output(#[from] AtomicFileError),
}

/// The player of a stored row: its grade as stored, the grader's path, and its making replayed.
/// A row with no unique solution is an error (`NoPath`).
pub fn store_player(store: &Store, row: &StoredPuzzle) -> Result<PlayerData, PlayError> {
    let path = solve_logically(&row.puzzle);
    if path.grade.level.is_none() {
        return Err(PlayError::NoPath {
            id: row.id,
            reason: path
                .grade
                .reason()
                .unwrap_or("the grader could not rate it")
                .to_string(),
        });
    }
    let id = row.id.to_string();
    let (level, score, minutes) = match &row.grade {
        Some(g) => (row.level.clone(), g.score, g.minutes),
        None => (
            path.grade
                .level
                .map_or("unrated", |l| l.as_str())
                .to_string(),
            path.grade.score,
            path.grade.minutes,
        ),
    };
    let source = Source {
        title: data::default_title(&row.puzzle, &id),
        id,
        level,
        score,
        minutes,
    };
    let (making, note) = match making_of(store, row)? {
        Ok(steps) => (steps, None),
        Err(note) => (Vec::new(), Some(note)),
    };
    Ok(player_data(
        source,
        &row.puzzle,
        &row.solution,
        &path,
        making,
        note,
    ))
}

/// `render --format html`: write `ID.html` for each id of the database at `db` into `dir`
/// (created if missing), one player a page. Every page is built before any is written, and each
/// is written under a temporary name and renamed into place, so bad input (an unknown id, a
/// puzzle with no hint path, `dir` naming a file) leaves nothing behind. Returns the files.
pub fn write_store_pages(db: &Path, ids: &[i64], dir: &Path) -> Result<Vec<PathBuf>, PlayError> {
    if dir.exists() && !dir.is_dir() {
        return Err(PlayError::NotADirectory(dir.to_path_buf()));
    }
    let store = Store::open_read_only(db)?;
    let rows = store
        .select_ids(ids)?
        .map_err(|missing| PlayError::Missing {
            db: db.to_path_buf(),
            ids: missing
                .iter()
                .map(i64::to_string)
                .collect::<Vec<_>>()
                .join(", "),
        })?;
    let mut pages = Vec::with_capacity(rows.len());
    for row in &rows {
        let player = store_player(&store, row)?;
        let info = PageInfo {
            title: player.title.clone(),
            ..PageInfo::default()
        };
        pages.push((format!("{}.html", row.id), page_html(&[player], &info)?));
    }
    std::fs::create_dir_all(dir).map_err(|source| PlayError::CreateDir {
        path: dir.to_path_buf(),
        source,
    })?;
    let mut written = Vec::with_capacity(pages.len());
    for (name, html) in pages {
        let path = dir.join(name);
        let mut out = AtomicFile::create(&path, &[db])?;
        out.write_all(html.as_bytes())
            .map_err(|e| out.write_error(e))?;
        out.commit()?;
        written.push(path);
    }
    Ok(written)
}
