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
    // The Markdown's words are the headline's, then the text's.
    let mut expected = words("Why Sourdough Needs Time");
    expected.extend(words(&text));
    assert_eq!(words(&mainline::internals::markdown::strip(&md)), expected);
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
fn a_comparison_method_with_another_format_names_the_format_given() {
    let page = sample("article.html");
    for format in ["markdown", "json", "jsonl"] {
        let out = mainline()
            .args(["filter", "--method", "eatiht", "--format", format])
            .arg(&page)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{format}: {stderr}");
        assert!(
            stderr.contains(&format!("--format {format} ")) && stderr.contains("--method eatiht"),
            "{format}: {stderr}"
        );
    }
}

#[test]
fn links_or_images_without_markdown_is_a_usage_error_that_names_the_flags() {
    let page = sample("article.html");
    let page = page.to_str().unwrap();
    for args in [
        vec!["--links"],
        vec!["--images"],
        vec!["--links", "--images", "--format", "text"],
        vec!["--images", "--format", "jsonl"],
        vec!["--links", "--input-format", "jsonl"],
    ] {
        let out = mainline()
            .arg("filter")
            .args(&args)
            .arg(page)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(
            stderr.contains("--links and --images") && stderr.contains("--format markdown"),
            "{args:?}: {stderr}"
        );
        assert!(out.stdout.is_empty(), "{args:?}");
    }
}

#[test]
fn markdown_and_json_read_gzip_and_warn_about_trailing_garbage_as_text_does() {
    use std::io::Write;
    let dir = scratch();
    let page = dir.path().join("garbage.html.gz");
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    gz.write_all(
        b"<h1>A title</h1><p>One paragraph of words, enough of them to be kept by the rule.</p>",
    )
    .unwrap();
    let mut data = gz.finish().unwrap();
    data.extend_from_slice(b"GARBAGE\n");
    std::fs::write(&page, data).unwrap();
    for format in ["text", "markdown", "json"] {
        let out = mainline()
            .args(["filter", "--threshold", "0", "--format", format])
            .arg(&page)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{format}: {stderr}");
        assert!(
            String::from_utf8_lossy(&out.stdout).contains("One paragraph of words"),
            "{format}"
        );
        let warnings: Vec<&str> = stderr.lines().filter(|l| l.contains("warning")).collect();
        assert_eq!(warnings.len(), 1, "{format}: {stderr}");
        assert!(
            warnings[0].contains("garbage.html.gz") && warnings[0].contains("trailing garbage"),
            "{format}: {stderr}"
        );
    }
}
