//! Tests of the book planning that need no database.

use super::*;

#[test]
fn filters_no_puzzle_can_have_are_refused_as_unknown() {
    let at = "here";
    assert!(check_filters(Some("killer"), Some(9), Some("hard"), at).is_ok());
    assert!(
        check_filters(None, None, Some("Easy"), at).is_ok(),
        "levels ignore case"
    );
    for (v, n, l, expect) in [
        (Some("samurai"), None, None, "unknown variant"),
        (None, Some(0), None, "no grid has size 0"),
        (None, Some(25), None, "no grid has size 25"),
        (None, None, Some("ultra"), "unknown level \"ultra\""),
    ] {
        let err = check_filters(v, n, l, at).unwrap_err().to_string();
        assert!(err.starts_with("here: ") && err.contains(expect), "{err}");
    }
}

#[test]
fn ids_refuse_the_flags_that_would_select_among_them() {
    let spec = Spec::default();
    let base = BookRequest {
        ids: vec![3, 17],
        ..BookRequest::default()
    };
    assert!(check_request(&base, &spec).is_ok());
    let cases: [(BookRequest, &str); 3] = [
        (
            BookRequest {
                count: Some(5),
                ..base.clone()
            },
            "--count",
        ),
        (
            BookRequest {
                levels: vec!["easy".into()],
                ..base.clone()
            },
            "--level",
        ),
        (
            BookRequest {
                exclude_issued: true,
                ..base.clone()
            },
            "--exclude-issued",
        ),
    ];
    for (request, flag) in cases {
        let err = check_request(&request, &spec).unwrap_err().to_string();
        assert!(err.contains(&format!("{flag} would select")), "{err}");
    }
}

#[test]
fn a_spec_level_in_capitals_is_the_level() {
    let spec: Spec = toml::from_str("[[section]]\nlevel = \"Easy\"\ncount = 1\n").unwrap();
    assert!(check_request(&BookRequest::default(), &spec).is_ok());
    let spec: Spec = toml::from_str("[[section]]\nlevel = \"Hardest\"\ncount = 1\n").unwrap();
    let err = check_request(&BookRequest::default(), &spec)
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("section 1") && err.contains("unknown level"),
        "{err}"
    );
}

#[test]
fn titles_the_pdf_cannot_print_are_refused_where_they_were_given() {
    let emoji = "Killer \u{1F9E9}";
    let rtl = "\u{5E1}\u{5D5}\u{5D3}\u{5D5}\u{5E7}\u{5D5} 2026";
    // The book's title, from the flag and from the spec.
    let request = BookRequest {
        title: Some(emoji.into()),
        ..BookRequest::default()
    };
    let err = check_request(&request, &Spec::default())
        .unwrap_err()
        .to_string();
    assert!(
        err.starts_with("--title: ") && err.contains("U+1F9E9") && err.contains("without emoji"),
        "{err}"
    );
    let spec: Spec = toml::from_str(&format!("[book]\ntitle = \"{rtl}\"\n")).unwrap();
    let err = check_request(&BookRequest::default(), &spec)
        .unwrap_err()
        .to_string();
    assert!(
        err.starts_with("the spec's [book] title: ")
            && err.contains("right-to-left")
            && err.contains("transliteration"),
        "{err}"
    );
    // A section's title.
    let spec: Spec = toml::from_str(&format!(
        "[[section]]\ntitle = \"Easy\"\ncount = 1\n[[section]]\ntitle = \"{emoji}\"\ncount = 1\n"
    ))
    .unwrap();
    let err = check_request(&BookRequest::default(), &spec)
        .unwrap_err()
        .to_string();
    assert!(err.starts_with("the spec's section 2 title: "), "{err}");
    let fine: Spec = toml::from_str("[book]\ntitle = \"Судоку Ωμέγα\"\n").unwrap();
    assert!(check_request(&BookRequest::default(), &fine).is_ok());
}
