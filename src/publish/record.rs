//! Giving a book out: the PDF drawn and written to its temporary file and synced, the `issued`
//! rows committed, then the PDF renamed into place (issue 21, N4); a failure at any step leaves
//! neither. A book made again under its name writes the same PDF and records nothing.

use super::error::id_list;
use super::{BookPlan, Chosen, PublishError};
use crate::atomic_file::{AtomicFile, RecordedCommitError};
use crate::print::book::{Entry, Section};
use crate::render::write_book;
use crate::store::Store;
use std::io::Write;

/// The book's sections as the layout takes them, numbered 1.. through the book.
pub fn book_sections(chosen: &[Chosen]) -> Vec<Section<'_>> {
    let mut number = 0;
    chosen
        .iter()
        .map(|c| Section {
            title: c.title.clone(),
            entries: c
                .puzzles
                .iter()
                .map(|p| {
                    number += 1;
                    Entry {
                        number,
                        level: p.level.clone(),
                        minutes: p.grade.as_ref().and_then(|g| g.minutes),
                        puzzle: &p.puzzle,
                        solution: &p.solution,
                    }
                })
                .collect(),
        })
        .collect()
}

/// Draw `plan` into `out` and put it in place; with `issue`, record its puzzles under that name
/// between the sync and the rename (unless the plan is that book made again). Returns the pages.
pub fn write_book_file(
    plan: &BookPlan,
    store: &mut Store,
    mut out: AtomicFile,
    issue: Option<&str>,
) -> Result<usize, PublishError> {
    let sections = book_sections(&plan.sections);
    let mut bytes = Vec::new();
    let pages = write_book(&mut bytes, &plan.settings, &sections)?;
    out.write_all(&bytes).map_err(|e| out.write_error(e))?;
    let Some(name) = issue.filter(|_| !plan.reissue) else {
        out.commit()?;
        return Ok(pages);
    };
    let entries: Vec<(String, i64, i64)> = plan
        .sections
        .iter()
        .flat_map(|c| c.puzzles.iter().map(move |p| (c.title.clone(), p.id)))
        .zip(1..)
        .map(|((title, id), n)| (title, id, n))
        .collect();
    let ids: Vec<i64> = entries.iter().map(|e| e.1).collect();
    let recorded = out.commit_recorded(
        store,
        |store| match store.issue_book(name, &entries)? {
            Ok(()) => Ok(()),
            Err(refused) => Err(PublishError::IssuedBefore {
                name: name.to_string(),
                ids: id_list(&refused),
            }),
        },
        |store| Ok(store.withdraw_book(name, &ids)?),
    );
    match recorded {
        Ok(()) => Ok(pages),
        Err(RecordedCommitError::File(e)) => Err(e.into()),
        Err(RecordedCommitError::Record(e)) => Err(e),
        Err(e) => Err(PublishError::NotUndone(e.to_string())),
    }
}
