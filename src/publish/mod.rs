//! Publishing: what a book holds (spec, flags over the spec, section selection) and how it is
//! given out (the PDF written, the `issued` rows recorded, then the PDF put in place), and how a
//! feed day is given out ([`issue_day`]): the same selection of sections through the store's
//! `Query`, recorded by the store's one path for issuing (`Store::record_issued`).

mod day;
mod error;
mod record;
mod select;
mod spec;
mod title;

pub use day::{issue_day, DayIssue};
pub use error::PublishError;
pub use record::{book_sections, write_book_file};
pub use select::{check_filters, excluded_ids, select_sections, Chosen, Wanted};
pub use spec::{Spec, SpecBook, SpecSection};
pub use title::check_printable;

use crate::print::book::{capitalised, Answers, BookSettings, Trim};
use crate::store::{Query, Store};

/// The flags of a book run, as given (before the spec's `[book]` table fills what is unset).
#[derive(Clone, Debug, Default)]
pub struct BookRequest {
    /// Only this variant.
    pub variant: Option<String>,
    /// Only this grid size.
    pub size: Option<usize>,
    /// One section per level, in this order.
    pub levels: Vec<String>,
    /// Puzzles per level (or in all); default 10.
    pub count: Option<usize>,
    /// These puzzle ids, in this order, as one section.
    pub ids: Vec<i64>,
    /// Trim name.
    pub trim: Option<String>,
    /// Puzzles a page.
    pub per_page: Option<usize>,
    /// Shade cages.
    pub shade: bool,
    /// Add bleed.
    pub bleed: bool,
    /// `end` or `section`.
    pub answers: Option<String>,
    /// The title.
    pub title: Option<String>,
    /// Skip issued puzzles.
    pub exclude_issued: bool,
    /// Record the book under this name.
    pub issue: Option<String>,
}

/// A book ready to write: its look and its sections' puzzles.
#[derive(Debug)]
pub struct BookPlan {
    /// How it looks.
    pub settings: BookSettings,
    /// Each section's title and puzzles, in book order.
    pub sections: Vec<Chosen>,
    /// The `--issue` name was recorded before with exactly these puzzles: write, record nothing.
    pub reissue: bool,
}

/// Default puzzles per section.
pub const DEFAULT_COUNT: usize = 10;

/// Plan the book `request` over `spec` asks for, from `store`.
pub fn plan_book(
    request: &BookRequest,
    spec: &Spec,
    store: &Store,
) -> Result<BookPlan, PublishError> {
    check_request(request, spec)?;
    let own = match &request.issue {
        Some(name) => store.book_issued(name)?,
        None => Vec::new(),
    };
    let excluded = if request.exclude_issued || request.issue.is_some() {
        let own_ids: Vec<i64> = own.iter().map(|i| i.puzzle).collect();
        excluded_ids(store, &own_ids)?
    } else {
        Default::default()
    };
    let sections = if request.ids.is_empty() {
        let wanted = wanted(request, spec, store, &excluded)?;
        select_sections(store, &wanted, &excluded)?
    } else {
        vec![select::by_ids(store, &request.ids)?]
    };
    let reissue = match &request.issue {
        Some(name) if !own.is_empty() => {
            select::check_same_book(name, &own, &sections)?;
            true
        }
        _ => false,
    };
    let variant = sections
        .iter()
        .flat_map(|c| c.puzzles.first())
        .map(|p| p.variant.clone())
        .next();
    let settings = settings(request, &spec.book, variant.as_deref())?;
    Ok(BookPlan {
        settings,
        sections,
        reissue,
    })
}

/// Refuse flag combinations that cannot mean one book, and unknown filter values.
fn check_request(request: &BookRequest, spec: &Spec) -> Result<(), PublishError> {
    if !spec.section.is_empty() && (!request.levels.is_empty() || !request.ids.is_empty()) {
        return Err(PublishError::SectionsTwice);
    }
    if !request.ids.is_empty() {
        // An explicit list is the whole selection: a filter would silently drop a named puzzle.
        let with = [
            ("--level", !request.levels.is_empty()),
            ("--count", request.count.is_some()),
            ("--exclude-issued", request.exclude_issued),
            ("--variant", request.variant.is_some()),
            ("--size", request.size.is_some()),
        ];
        if let Some((flag, _)) = with.iter().find(|(_, set)| *set) {
            return Err(PublishError::IdsWith(flag));
        }
    }
    for level in &request.levels {
        check_filters(None, None, Some(level), "--level")?;
    }
    check_filters(
        request.variant.as_deref(),
        request.size,
        None,
        "the command line",
    )?;
    check_filters(
        spec.book.variant.as_deref(),
        spec.book.size,
        None,
        "the spec's [book] table",
    )?;
    for (i, s) in spec.section.iter().enumerate() {
        let at = format!("the spec's section {}", i + 1);
        check_filters(s.variant.as_deref(), s.size, s.level.as_deref(), &at)?;
    }
    // Titles the PDF prints, each refused where it was given, before anything is selected.
    let titles = [
        ("--title".to_string(), request.title.as_deref()),
        (
            "the spec's [book] title".to_string(),
            spec.book.title.as_deref(),
        ),
    ]
    .into_iter()
    .chain(spec.section.iter().enumerate().map(|(i, s)| {
        (
            format!("the spec's section {} title", i + 1),
            s.title.as_deref(),
        )
    }));
    for (at, title) in titles {
        if let Some(problem) = title.and_then(|t| check_printable(t).err()) {
            return Err(PublishError::Unprintable { at, problem });
        }
    }
    Ok(())
}

/// The sections asked for, each with its query; the book's variant and size pinned to those of
/// the first matching puzzle when neither flag nor spec names them (a book takes one variant).
fn wanted(
    request: &BookRequest,
    spec: &Spec,
    store: &Store,
    excluded: &std::collections::HashSet<i64>,
) -> Result<Vec<Wanted>, PublishError> {
    let mut variant = request.variant.clone().or(spec.book.variant.clone());
    let size = request.size.or(spec.book.size);
    let count = request.count.unwrap_or(DEFAULT_COUNT);
    let level = |l: &str| l.trim().to_ascii_lowercase();
    let query = |variant: Option<String>, size, level: Option<String>, count| Query {
        variant,
        size,
        levels: level.into_iter().collect(),
        count,
        exclude_issued: false,
        ..Query::default()
    };
    let first = match spec.section.first() {
        Some(s) => query(
            s.variant.clone().or(variant.clone()),
            s.size.or(size),
            s.level.as_deref().map(level),
            1,
        ),
        None => query(
            variant.clone(),
            size,
            request.levels.first().map(|l| level(l)),
            1,
        ),
    };
    // The size found this way belongs to that variant: a section naming another variant keeps
    // any size (as given, or none).
    let mut found_size = None;
    if variant.is_none() || size.is_none() {
        if let Some(p) = store.select(&first, excluded)?.first() {
            variant = variant.or(Some(p.variant.clone()));
            found_size = Some(p.puzzle.size());
        }
    }
    let size_for = |v: &Option<String>| size.or(found_size.filter(|_| *v == variant));
    Ok(if !spec.section.is_empty() {
        spec.section
            .iter()
            .map(|s| Wanted {
                title: s
                    .title
                    .clone()
                    .or(s.level.as_deref().map(capitalised))
                    .unwrap_or("Puzzles".into()),
                query: {
                    let v = s.variant.clone().or(variant.clone());
                    let n = s.size.or(size_for(&v));
                    query(v, n, s.level.as_deref().map(level), s.count)
                },
            })
            .collect()
    } else if request.levels.is_empty() {
        vec![Wanted {
            title: "Puzzles".into(),
            query: query(variant.clone(), size_for(&variant), None, count),
        }]
    } else {
        request
            .levels
            .iter()
            .map(|l| Wanted {
                title: capitalised(&level(l)),
                query: query(variant.clone(), size_for(&variant), Some(level(l)), count),
            })
            .collect()
    })
}

/// Flags over the spec's `[book]` table over the defaults; the default title names `variant`.
fn settings(
    request: &BookRequest,
    book: &SpecBook,
    variant: Option<&str>,
) -> Result<BookSettings, PublishError> {
    let trim = Trim::parse(
        request
            .trim
            .as_deref()
            .or(book.trim.as_deref())
            .unwrap_or("8.5x11"),
    )?;
    let answers = match request
        .answers
        .as_deref()
        .or(book.answers.as_deref())
        .unwrap_or("end")
    {
        "end" => Answers::End,
        "section" => Answers::Section,
        other => return Err(PublishError::Answers(other.to_string())),
    };
    let default_title = match variant {
        Some("classic") => "Sudoku".to_string(),
        Some(v) => format!("{} Sudoku", capitalised(v)),
        None => "Killer Sudoku".to_string(),
    };
    Ok(BookSettings {
        title: request
            .title
            .clone()
            .or(book.title.clone())
            .unwrap_or(default_title),
        trim,
        per_page: request.per_page.or(book.per_page).unwrap_or(2),
        bleed: request.bleed || book.bleed.unwrap_or(false),
        shade: request.shade || book.shade.unwrap_or(false),
        answers,
    })
}

#[cfg(test)]
mod tests;
