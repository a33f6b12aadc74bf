//! `generate`'s summary counts the uniqueness checks its work items made (rejected ones too) and
//! those the generator's node budget cut off undecided, the same for any thread count or shard.

use crate::common::run_in;
use std::path::Path;

/// Run `generate` in `dir` with `args`, require success; returns stderr.
fn generate(dir: &Path, args: &[&str]) -> String {
    let out = run_in(dir, &[&["generate"], args].concat());
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(out.status.success(), "{args:?} failed: {stderr}");
    stderr
}

/// The number right after `label` in `text`, thousands separators allowed (`5,947`).
fn number_after(text: &str, label: &str) -> u64 {
    let rest = text
        .split(label)
        .nth(1)
        .unwrap_or_else(|| panic!("no {label:?} in: {text}"));
    let bytes = rest.as_bytes();
    let mut digits = String::new();
    for (i, &b) in bytes.iter().enumerate() {
        match b {
            b'0'..=b'9' => digits.push(b as char),
            b',' if bytes.get(i + 1).is_some_and(u8::is_ascii_digit) && !digits.is_empty() => {}
            _ => break,
        }
    }
    digits
        .parse()
        .unwrap_or_else(|_| panic!("no number after {label:?} in: {text}"))
}

/// (checks, undecided) from the summary's checks line.
fn checks_of(summary: &str) -> (u64, u64) {
    let line = summary
        .lines()
        .find(|l| l.trim_start().starts_with("uniqueness checks "))
        .unwrap_or_else(|| panic!("no checks line in: {summary}"));
    let checks = number_after(line, "uniqueness checks ");
    let undecided = number_after(line, "; ");
    assert!(
        line.ends_with("cut off undecided by the 200,000-node budget"),
        "{line}"
    );
    (checks, undecided)
}

#[test]
fn the_summary_counts_checks_the_same_for_any_thread_count_or_shard() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let run = ["--count", "30", "--seed", "5"];
    let one = generate(
        d,
        &[&run[..], &["--threads", "1", "--chunk-size", "7"]].concat(),
    );
    let two = generate(
        d,
        &[
            &run[..],
            &["--threads", "2", "--chunk-size", "16", "--db", "two.db"],
        ]
        .concat(),
    );
    let (checks, undecided) = checks_of(&one);
    // Every stored zero-given killer passed at least one check.
    assert!(checks >= number_after(&one, "stored "), "{one}");
    assert_eq!(checks_of(&two), (checks, undecided), "{one}\n{two}");
    // Counted per work item: the two halves of the run add up to the whole.
    let mut halves = (0, 0);
    for shard in ["0/2", "1/2"] {
        let db = format!("{}.db", shard.replace('/', "-"));
        let half = generate(d, &[&run[..], &["--shard", shard, "--db", &db]].concat());
        let (c, u) = checks_of(&half);
        halves = (halves.0 + c, halves.1 + u);
    }
    assert_eq!(halves, (checks, undecided));
    // A run already complete made no checks and says nothing about them.
    let again = generate(d, &[&run[..], &["--threads", "1"]].concat());
    assert!(
        again.contains("already complete") && !again.contains("uniqueness checks"),
        "{again}"
    );
}

#[test]
fn rejected_work_items_count_their_checks_too() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // Without repairs a zero-given killer item makes exactly one check: the first layout is
    // unique (stored) or not (rejected), so the checks equal the work items, rejected included.
    // No target level: a steered item checks every merge too.
    std::fs::write(
        d.join("norepair.toml"),
        "[generator]\nmax_repairs = 0\nlevels = [\"any\"]\n",
    )
    .unwrap();
    let summary = generate(
        d,
        &["--config", "norepair.toml", "--count", "40", "--seed", "3"],
    );
    let rejected = number_after(&summary, "rejected ");
    assert!(rejected > 0, "{summary}");
    let items = number_after(&summary, "stored ")
        + number_after(&summary, "duplicates skipped ")
        + rejected;
    assert_eq!(items, 40, "{summary}");
    assert_eq!(checks_of(&summary).0, items, "{summary}");
}
