//! `book` and `render` through the real binary: the PDF's structure read back with lopdf, bytes
//! reproducible, SVG files, and bad input refused with nothing written.

use crate::common::{self, ok, one_line, seven_db};
use lopdf::content::Content;
use lopdf::{Document, Object};
use std::collections::{BTreeMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use sudoku_press::store::{Query, Store};

fn fails(dir: &Path, args: &[&str]) -> String {
    one_line(common::fails(dir, args))
}

/// One database for every test: 10 killers 9x9, 6 killers 6x6, 2 jigsaws (made once).
fn db() -> &'static Path {
    static DB: OnceLock<(tempfile::TempDir, PathBuf)> = OnceLock::new();
    let (_, path) = DB.get_or_init(|| {
        seven_db(&[
            ("killer", "9", "10", None),
            ("killer", "6", "6", None),
            ("jigsaw", "9", "2", None),
        ])
    });
    path
}

fn book(dir: &Path, extra: &[&str]) -> Vec<u8> {
    let db = db().to_str().unwrap();
    let mut args = vec!["book", "--db", db, "-o", "book.pdf"];
    args.extend_from_slice(extra);
    ok(dir, &args);
    std::fs::read(dir.join("book.pdf")).unwrap()
}

/// The operations of one page's content stream.
fn ops(doc: &Document, page: lopdf::ObjectId) -> Vec<lopdf::content::Operation> {
    Content::decode(&doc.get_page_content(page))
        .unwrap()
        .operations
}

fn num(o: &Object) -> f32 {
    match o {
        Object::Integer(i) => *i as f32,
        Object::Real(r) => *r,
        other => panic!("not a number: {other:?}"),
    }
}

fn page_box(doc: &Document, page: lopdf::ObjectId, key: &[u8]) -> Vec<f32> {
    let dict = doc.get_dictionary(page).unwrap();
    dict.get(key)
        .unwrap()
        .as_array()
        .unwrap()
        .iter()
        .map(num)
        .collect()
}

/// Whitespace-separated tokens of a page's text, counted.
fn tokens(doc: &Document, page: u32) -> BTreeMap<String, usize> {
    let mut counts = BTreeMap::new();
    for t in doc.extract_text(&[page]).unwrap().split_whitespace() {
        *counts.entry(t.to_string()).or_insert(0) += 1;
    }
    counts
}

#[test]
fn a_killer_book_has_the_pages_fonts_text_and_boxes_it_should() {
    let dir = tempfile::tempdir().unwrap();
    let bytes = book(
        dir.path(),
        &[
            "--variant",
            "killer",
            "--size",
            "9",
            "--count",
            "8",
            "--per-page",
            "4",
            "--trim",
            "8.5x11",
        ],
    );
    let doc = Document::load_mem(&bytes).unwrap();
    let pages = doc.get_pages();
    // Rules (eight puzzles: no title page), 2 puzzle pages (4 + 4), 1 answer page.
    assert_eq!(pages.len(), 4);
    for &id in pages.values() {
        assert_eq!(
            page_box(&doc, id, b"MediaBox"),
            vec![0.0, 0.0, 612.0, 792.0]
        );
        assert_eq!(page_box(&doc, id, b"TrimBox"), vec![0.0, 0.0, 612.0, 792.0]);
    }
    // Every font is embedded (KDP): each descriptor carries its font file.
    let descriptors: Vec<_> = doc
        .objects
        .values()
        .filter_map(|o| o.as_dict().ok())
        .filter(|d| {
            d.get(b"Type").ok().and_then(|t| t.as_name().ok()) == Some(b"FontDescriptor".as_slice())
        })
        .collect();
    assert!(!descriptors.is_empty());
    for d in &descriptors {
        assert!(
            d.has(b"FontFile2") || d.has(b"FontFile3"),
            "font not embedded: {d:?}"
        );
    }
    // Page 2 shows puzzles 1-4 with every cage sum; the key page shows every solution digit.
    let store = Store::open_read_only(db()).unwrap();
    let query = Query {
        variant: Some("killer".into()),
        size: Some(9),
        count: 8,
        ..Query::default()
    };
    let puzzles = store.select(&query, &HashSet::new()).unwrap();
    let text = tokens(&doc, 2);
    for n in 1..=4 {
        assert!(
            text.contains_key(&n.to_string()),
            "Puzzle {n} on page 2: {text:?}"
        );
    }
    let mut sums = BTreeMap::new();
    for p in &puzzles[..4] {
        for cage in p.puzzle.cages() {
            *sums.entry(cage.sum.to_string()).or_insert(0) += 1;
        }
    }
    for (sum, times) in &sums {
        assert!(
            text.get(sum).copied().unwrap_or(0) >= *times,
            "sum {sum} x{times} on page 2: {text:?}"
        );
    }
    // Beside each level, the estimated solving time ("Medium · 15–25 min").
    for p in &puzzles[..4] {
        let m = p.grade.as_ref().and_then(|g| g.minutes).unwrap();
        let range = format!("{}\u{2013}{}", m.low, m.high);
        assert!(text.contains_key(&range), "{range} on page 2: {text:?}");
    }
    assert_eq!(text.get("min"), Some(&4), "{text:?}");
    let key = doc.extract_text(&[4]).unwrap();
    let ones = key.split_whitespace().filter(|t| *t == "1").count();
    assert!(ones >= 8 * 9, "eight solved 9x9 grids hold 72 ones: {ones}");
    // Dashed cages on puzzle pages only; no line under KDP's 0.75 pt.
    for (&n, &id) in &pages {
        let ops = ops(&doc, id);
        let dashed = ops
            .iter()
            .any(|o| o.operator == "d" && o.operands[0].as_array().is_ok_and(|a| !a.is_empty()));
        assert_eq!(dashed, n == 2 || n == 3, "page {n} dashes");
        for o in ops.iter().filter(|o| o.operator == "w") {
            assert!(
                num(&o.operands[0]) >= 0.75,
                "page {n} line width {:?}",
                o.operands
            );
        }
        for o in ops.iter().filter(|o| o.operator == "Tf") {
            assert!(
                num(&o.operands[1]) >= 7.0,
                "page {n} type size {:?}",
                o.operands
            );
        }
    }
}

#[test]
fn the_same_command_gives_the_same_bytes() {
    let (a, b) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let args = [
        "--variant",
        "killer",
        "--count",
        "5",
        "--shade",
        "--trim",
        "6x9",
        "--answers",
        "section",
    ];
    assert_eq!(book(a.path(), &args), book(b.path(), &args));
}

#[test]
fn levels_make_sections_in_the_order_given_and_a_spec_file_works() {
    let store = Store::open_read_only(db()).unwrap();
    let all = store
        .select(
            &Query {
                variant: Some("killer".into()),
                size: Some(9),
                count: 100,
                ..Query::default()
            },
            &HashSet::new(),
        )
        .unwrap();
    let mut levels: Vec<String> = all.iter().map(|p| p.level.clone()).collect();
    levels.dedup();
    levels.sort();
    levels.dedup();
    let dir = tempfile::tempdir().unwrap();
    let last = levels.last().unwrap().clone();
    let bytes = book(
        dir.path(),
        &[
            "--variant",
            "killer",
            "--size",
            "9",
            "--level",
            &last,
            "--level",
            &levels[0],
            "--count",
            "1",
            "--per-page",
            "1",
        ],
    );
    let doc = Document::load_mem(&bytes).unwrap();
    let first_section = doc.extract_text(&[2]).unwrap();
    let mut cap = last.clone();
    cap[..1].make_ascii_uppercase();
    assert!(first_section.contains(&cap), "{first_section}");
    std::fs::write(
        dir.path().join("spec.toml"),
        "[book]\ntitle = \"Spec Book\"\ntrim = \"a4\"\nper_page = 2\nvariant = \"killer\"\n[[section]]\ntitle = \"Small\"\nsize = 6\ncount = 3\n[[section]]\ntitle = \"Jig\"\nvariant = \"jigsaw\"\ncount = 2\n",
    )
    .unwrap();
    let bytes = book(dir.path(), &["--spec", "spec.toml"]);
    let doc = Document::load_mem(&bytes).unwrap();
    // Five puzzles: rules, 2 + 1 puzzle pages, answers; no title page.
    assert_eq!(doc.get_pages().len(), 1 + 2 + 1 + 1);
    let rules = doc.extract_text(&[1]).unwrap();
    assert!(
        rules.contains("How to play") && !rules.contains("Contents"),
        "{rules}"
    );
    assert!(
        rules.contains("1 to 6 in a 6x6 grid,") && rules.contains("1 to 9 in a 9x9 grid."),
        "only the book's sizes: {rules}"
    );
    assert!(!rules.contains("16x16"), "{rules}");
    let small = doc.extract_text(&[2]).unwrap();
    assert!(small.contains("Small"), "{small}");
}

#[test]
fn bad_input_is_one_line_exit_2_and_leaves_the_output_alone() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let db = db().to_str().unwrap();
    std::fs::write(d.join("book.pdf"), b"old").unwrap();
    let long_title = "Killer ".repeat(40);
    let twelve = "1,2,3,4,5,6,7,8,9,10,11,12";
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (vec!["--ids", "1,99999"], "99999"),
        (
            vec!["--variant", "killer", "--count", "5000"],
            "generate more",
        ),
        (vec!["--variant", "classic"], "found 0"),
        // Without --variant the book takes the first puzzle's (killer 9x9, 10 of them): the
        // 6x6 killers and the jigsaws do not fill it up.
        (
            vec!["--count", "12"],
            "asks for 12 killer 9x9 puzzles, found 10",
        ),
        (vec!["--level", "ultra"], "unknown level \"ultra\""),
        (vec!["--variant", "samurai"], "unknown variant"),
        (vec!["--size", "0"], "no grid has size 0"),
        (
            vec!["--ids", "1", "--level", "easy"],
            "--level would select",
        ),
        (
            vec!["--ids", "1", "--exclude-issued"],
            "--exclude-issued would select",
        ),
        // Twelve puzzles: the book has a title page (N13).
        (
            vec!["--ids", twelve, "--title", "Killer \u{1F9E9}"],
            "no glyph in the embedded DejaVu Sans",
        ),
        (
            vec![
                "--ids",
                twelve,
                "--title",
                "\u{5E1}\u{5D5}\u{5D3}\u{5D5}\u{5E7}\u{5D5}",
            ],
            "right-to-left",
        ),
        (
            vec!["--ids", twelve, "--title", &long_title],
            "does not fit the title page",
        ),
        (
            vec!["--variant", "killer", "--size", "9", "--per-page", "6"],
            "--per-page 4",
        ),
        (vec!["--per-page", "3"], "1, 2, 4 or 6"),
        (vec!["--trim", "letter"], "unknown trim"),
        (vec!["--ids", "1,1"], "twice"),
    ];
    for (extra, expect) in cases {
        let mut args = vec!["book", "--db", db, "-o", "book.pdf"];
        args.extend(extra);
        let err = fails(d, &args);
        assert!(err.contains(expect), "{args:?}: {err}");
        assert_eq!(
            std::fs::read(d.join("book.pdf")).unwrap(),
            b"old",
            "{args:?} touched the output"
        );
    }
    let err = fails(
        d,
        &[
            "book",
            "--db",
            db,
            "--count",
            "1",
            "-o",
            "missing/dir/book.pdf",
        ],
    );
    assert!(err.contains("does not exist"), "{err}");
    let leftovers: Vec<_> = std::fs::read_dir(d)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(leftovers.len(), 1, "no temporary files left: {leftovers:?}");
}

#[test]
fn render_writes_one_svg_per_puzzle_and_solution() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let db = db().to_str().unwrap();
    ok(
        d,
        &[
            "render",
            "--format",
            "svg",
            "--solution",
            "--db",
            db,
            "1",
            "2",
            "-o",
            "svg",
        ],
    );
    let read = |name: &str| std::fs::read_to_string(d.join("svg").join(name)).unwrap();
    let (puzzle, solution) = (read("1.svg"), read("1-solution.svg"));
    assert!(puzzle.starts_with("<svg") && puzzle.contains("stroke-dasharray"));
    assert!(!solution.contains("stroke-dasharray"));
    assert_eq!(std::fs::read_dir(d.join("svg")).unwrap().count(), 4);
    ok(d, &["render", "--db", db, "1", "-o", "again"]);
    assert_eq!(
        std::fs::read_to_string(d.join("again/1.svg")).unwrap(),
        puzzle
    );
    let err = fails(d, &["render", "--db", db, "1", "424242", "-o", "bad"]);
    assert!(err.contains("424242"), "{err}");
    assert!(!d.join("bad").exists());
}

#[test]
fn bleed_grows_the_media_box_and_keeps_the_trim_box_on_the_page() {
    let dir = tempfile::tempdir().unwrap();
    let bytes = book(
        dir.path(),
        &[
            "--variant",
            "killer",
            "--size",
            "6",
            "--count",
            "2",
            "--trim",
            "6x9",
            "--bleed",
        ],
    );
    let doc = Document::load_mem(&bytes).unwrap();
    for (&n, &id) in &doc.get_pages() {
        assert_eq!(
            page_box(&doc, id, b"MediaBox"),
            vec![0.0, 0.0, 441.0, 666.0],
            "page {n}"
        );
        // Right-hand (odd) pages bleed on the right, left-hand pages on the left.
        let x = if n % 2 == 1 { 0.0 } else { 9.0 };
        assert_eq!(
            page_box(&doc, id, b"TrimBox"),
            vec![x, 9.0, x + 432.0, 657.0],
            "page {n}"
        );
        assert_eq!(
            page_box(&doc, id, b"BleedBox"),
            vec![0.0, 0.0, 441.0, 666.0],
            "page {n}"
        );
    }
}

#[test]
fn books_that_issue_their_puzzles_never_share_one_and_a_reissue_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    for suffix in ["", "-wal"] {
        let mut from = db().as_os_str().to_owned();
        from.push(suffix);
        if Path::new(&from).exists() {
            std::fs::copy(&from, d.join(format!("p.db{suffix}"))).unwrap();
        }
    }
    let nine = ["--variant", "killer", "--size", "9", "--count", "3"];
    for (name, out) in [("vol1", "a.pdf"), ("vol2", "b.pdf")] {
        let mut args = vec!["book", "--db", "p.db", "--issue", name, "-o", out];
        args.extend(nine);
        ok(d, &args);
    }
    let store = Store::open_read_only(&d.join("p.db")).unwrap();
    let issued = store.issued_ids().unwrap();
    assert_eq!(issued.len(), 6, "{issued:?}");
    assert_ne!(
        std::fs::read(d.join("a.pdf")).unwrap(),
        std::fs::read(d.join("b.pdf")).unwrap()
    );
    drop(store);
    let first = issued[0].to_string();
    let err = fails(
        d,
        &[
            "book", "--db", "p.db", "--issue", "vol3", "--ids", &first, "-o", "c.pdf",
        ],
    );
    assert!(
        err.contains(&first) && err.contains("issued before"),
        "{err}"
    );
    assert!(!d.join("c.pdf").exists());
    // 10 killers 9x9, 6 issued: 5 more unissued ones are not there.
    let err = fails(
        d,
        &[
            "book",
            "--db",
            "p.db",
            "--exclude-issued",
            "--variant",
            "killer",
            "--size",
            "9",
            "--count",
            "5",
            "-o",
            "c.pdf",
        ],
    );
    assert!(err.contains("found 4 (10 in the database"), "{err}");
}

#[test]
fn a_book_made_again_under_its_name_is_the_same_book_and_another_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    for suffix in ["", "-wal"] {
        let mut from = db().as_os_str().to_owned();
        from.push(suffix);
        if Path::new(&from).exists() {
            std::fs::copy(&from, d.join(format!("p.db{suffix}"))).unwrap();
        }
    }
    let args = |count: &'static str, name: &'static str, out: &'static str| {
        vec![
            "book",
            "--db",
            "p.db",
            "--variant",
            "killer",
            "--size",
            "6",
            "--count",
            count,
            "--issue",
            name,
            "-o",
            out,
        ]
    };
    let rows = |d: &Path| {
        let store = Store::open_read_only(&d.join("p.db")).unwrap();
        store.book_issued("vol1").unwrap().len()
    };
    // Another book issued in between must not change what vol1 is.
    ok(d, &args("1", "vol1", "a.pdf"));
    let before = rows(d);
    ok(d, &args("1", "vol2", "b.pdf"));
    let again = ok(d, &args("1", "vol1", "c.pdf"));
    assert!(again.contains("made again"), "{again}");
    assert_eq!(
        std::fs::read(d.join("a.pdf")).unwrap(),
        std::fs::read(d.join("c.pdf")).unwrap()
    );
    assert_eq!(rows(d), before, "no new rows");
    let err = fails(d, &args("2", "vol1", "e.pdf"));
    assert!(
        err.contains("--issue vol1: a book of that name was issued before with 1 puzzle"),
        "{err}"
    );
    assert!(!d.join("e.pdf").exists());
}
