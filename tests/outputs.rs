//! What comes out besides the body text: tables whole, the headline of the Markdown, pages
//! that can be told apart on standard output, output file names, empty inputs.

mod common;

use common::{mainline, sample, scratch, stdout_of};

/// A page whose table keeps each cell's text in a paragraph, as office suites and wikis
/// write them.
const CELLS_IN_PARAGRAPHS: &str = r#"<!doctype html><html><head><title>How entities and associations change state | Engineering</title></head><body>
<nav><a href=/>Home</a> <a href=/blog>Blog</a> <a href=/jobs>Jobs</a></nav>
<article><h1>How entities and associations change state</h1>
<p>Every entity in the store has a status, and so does each association that points at it; the two change in a fixed order, which the table below spells out row by row.</p>
<table><tr><td><p><b>Entity status</b></p></td><td><p><b>Association status</b></p></td><td><p><b>Comment</b></p></td></tr><tr><td><p><span class=code>new</span></p></td><td><p>new</p></td><td><p>The entity was just created.</p></td></tr><tr><td><p><span class=code>pending</span></p></td><td><p>new</p></td><td><p>Waiting for the association to be written.</p></td></tr><tr><td><p><span class=code>active</span></p></td><td><p>active</p></td><td><p>Both sides agree.</p></td></tr><tr><td><p><span class=code>deleted</span></p></td><td><p>active</p></td><td><p>The entity is gone, its association not yet.</p></td></tr><tr><td><p><span class=code>deleted</span></p></td><td><p>deleted</p></td><td><p>Both are gone and will be collected.</p></td></tr></table>
<p>A background job walks the associations in the last two states every night and removes those whose entity has been gone for a week, so that nothing points at nothing.</p>
</article><footer><a href=/privacy>Privacy</a></footer></body></html>"#;

#[test]
fn a_table_whose_cells_hold_paragraphs_comes_out_as_a_table() {
    let dir = scratch();
    let page = dir.path().join("states.html");
    std::fs::write(&page, CELLS_IN_PARAGRAPHS).unwrap();
    let md = stdout_of(&["filter", "--format", "markdown", page.to_str().unwrap()]);
    assert!(
        md.contains("| **Entity status** | **Association status** | **Comment** |\n"),
        "{md}"
    );
    assert!(
        md.contains("| deleted | active | The entity is gone, its association not yet. |\n"),
        "{md}"
    );
    assert_eq!(md.matches("\n| ").count(), 8, "{md}");
}

#[test]
fn markdown_starts_with_the_headline_that_text_leaves_out() {
    let page = sample("article.html");
    let page = page.to_str().unwrap();
    let md = stdout_of(&["filter", "--format", "markdown", page]);
    assert!(
        md.starts_with("# Why Sourdough Needs Time\n\nEvery baker who switches"),
        "{md}"
    );
    assert_eq!(md.matches("Why Sourdough Needs Time").count(), 1);
    let bare = stdout_of(&["filter", "--format", "markdown", "--no-headline", page]);
    assert!(bare.starts_with("Every baker who switches"), "{bare}");
    assert_eq!(
        md.strip_prefix("# Why Sourdough Needs Time\n\n"),
        Some(bare.as_str())
    );
    let text = stdout_of(&["filter", page]);
    assert!(!text.contains("Why Sourdough Needs Time"), "{text}");
    let json = stdout_of(&["filter", "--format", "json", "--with-markdown", page]);
    let doc: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(doc["markdown"].as_str(), Some(md.as_str()));
    mainline()
        .args(["filter", "--no-headline", page])
        .assert()
        .code(2)
        .stderr(predicates::str::contains(
            "--no-headline shapes the Markdown",
        ));
}

#[test]
fn several_pages_on_standard_output_each_end_with_a_form_feed_line() {
    let dir = scratch();
    let empty = dir.path().join("empty.html");
    std::fs::write(&empty, "").unwrap();
    let missing = dir.path().join("missing.html");
    let (a, b) = (sample("article.html"), sample("table-layout.html"));
    let one = |p: &std::path::Path, format: &str| {
        stdout_of(&["filter", "--format", format, p.to_str().unwrap()])
    };
    for format in ["text", "markdown"] {
        for jobs in ["1", "2"] {
            let out = mainline()
                .args(["filter", "-q", "-j", jobs, "--format", format])
                .args([&a, &empty, &missing, &b])
                .assert()
                .code(1)
                .get_output()
                .stdout
                .clone();
            let out = String::from_utf8(out).unwrap();
            let parts: Vec<&str> = out.split("\x0c\n").collect();
            assert_eq!(
                parts,
                [
                    one(&a, format).as_str(),
                    "",
                    "",
                    one(&b, format).as_str(),
                    ""
                ],
                "{format} -j {jobs}"
            );
        }
    }
    // One input: its output alone.
    assert!(!one(&a, "text").contains('\x0c'));
}

#[test]
fn out_dir_names_of_pages_saved_with_their_query_drop_the_extension() {
    let dir = scratch();
    let pages = dir.path().join("site");
    std::fs::create_dir(&pages).unwrap();
    let html = std::fs::read(sample("article.html")).unwrap();
    for name in ["index.html", "index.html?p=2", "notes.htm?a=b"] {
        std::fs::write(pages.join(name), &html).unwrap();
    }
    let out = dir.path().join("out");
    mainline()
        .args(["filter", "-q", "-r", "--out-dir"])
        .args([&out, &pages])
        .assert()
        .success();
    let mut names: Vec<String> = std::fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    assert_eq!(names, ["index.txt", "index?p=2.txt", "notes?a=b.txt"]);
}

#[test]
fn an_empty_input_gives_no_text_and_no_confidence() {
    let out = mainline()
        .args(["filter", "--format", "json", "-"])
        .write_stdin("")
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let doc: serde_json::Value = serde_json::from_slice(&out).unwrap();
    assert_eq!(doc["text"], "");
    assert_eq!(doc["total_lines"], 0);
    assert!(doc["confidence"].is_null(), "{doc}");
    // A page with lines still has one.
    let json = stdout_of(&[
        "filter",
        "--format",
        "json",
        sample("article.html").to_str().unwrap(),
    ]);
    let doc: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert!(doc["confidence"].as_f64().is_some_and(|c| c > 0.5), "{doc}");
}
