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
