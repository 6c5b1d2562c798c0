//! `mainline filter --format markdown|json`: Markdown, one JSON document per page, and JSON
//! lines records with the page's fields.

mod common;

use common::{mainline, sample, scratch, stdout_of, words};

#[test]
fn markdown_has_headings_lists_quotes_and_the_words_of_the_text() {
    let page = sample("article.html");
    let md = stdout_of(&["filter", "--format", "markdown", page.to_str().unwrap()]);
    assert!(
        md.contains("\n## What happens during a long ferment\n\n"),
        "{md}"
    );
    assert!(md.contains("\n1. Feed the starter in the morning"), "{md}");
    assert!(md.contains("\n2. Mix flour and water"), "{md}");
    assert!(md.contains("\n> “Watch the dough, not the clock”"), "{md}");
    let text = stdout_of(&["filter", page.to_str().unwrap()]);
    assert_eq!(words(&mainline::markdown::strip(&md)), words(&text));
}

#[test]
fn markdown_links_resolve_against_the_url_given() {
    let dir = scratch();
    let page = dir.path().join("links.html");
    let body = "<p>Some words of a paragraph and a <a href=next.html>link to the next page</a> of the text.</p>";
    std::fs::write(&page, body).unwrap();
    let md = stdout_of(&[
        "filter",
        "--threshold",
        "0.5",
        "--format",
        "markdown",
        "--links",
        "--url",
        "https://ex.org/a/b.html",
        page.to_str().unwrap(),
    ]);
    assert_eq!(
        md,
        "Some words of a paragraph and a [link to the next page](https://ex.org/a/next.html) of the text.\n"
    );
}

#[test]
fn json_writes_one_document_per_input_with_metadata() {
    let page = sample("article.html");
    let other = sample("entities.html");
    let out = stdout_of(&[
        "filter",
        "--format",
        "json",
        "--with-markdown",
        "--jobs",
        "1",
        page.to_str().unwrap(),
        other.to_str().unwrap(),
    ]);
    let docs: Vec<serde_json::Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(docs.len(), 2);
    let d = &docs[0];
    assert_eq!(d["source"], page.to_str().unwrap());
    assert_eq!(d["title"], "Why Sourdough Needs Time");
    assert_eq!(d["language"], "en");
    assert_eq!(d["encoding"], "UTF-8");
    assert!(
        d["text"]
            .as_str()
            .unwrap()
            .contains("Every baker who switches")
    );
    assert!(
        d["markdown"]
            .as_str()
            .unwrap()
            .contains("## A schedule that works")
    );
    assert!(d["kept_lines"].as_u64().unwrap() < d["total_lines"].as_u64().unwrap());
    assert_eq!(docs[1]["source"], other.to_str().unwrap());
}

#[test]
fn jsonl_records_gain_the_page_fields_with_format_json() {
    let record = serde_json::json!({
        "id": 7,
        "title": "replaced",
        "html": "<html lang=fr><title>Une page</title><p>Des mots, assez de mots pour que la ligne soit gardée.</p>",
    });
    let out = mainline()
        .args([
            "filter",
            "--input-format",
            "jsonl",
            "--format",
            "json",
            "--threshold",
            "0.5",
        ])
        .write_stdin(format!("{record}\n"))
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let r: serde_json::Value = serde_json::from_slice(&out).unwrap();
    assert_eq!(r["id"], 7);
    assert_eq!(r["title"], "Une page");
    assert_eq!(r["language"], "fr");
    assert_eq!(
        r["text"],
        "Des mots, assez de mots pour que la ligne soit gardée."
    );
    assert!(r.get("html").is_none());
}

#[test]
fn links_without_markdown_is_an_error_that_names_the_flag() {
    mainline()
        .args([
            "filter",
            "--links",
            sample("article.html").to_str().unwrap(),
        ])
        .assert()
        .failure()
        .stderr(predicates::str::contains("--links"));
}
