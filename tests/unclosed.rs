//! Pages whose `<title>`, `<textarea>` or `<style>` never closes (cut or spliced by a
//! crawler): read as the HTML standard reads them, the rest of the page is that element's
//! text and nothing is extracted. `mainline filter` closes the element where the page's
//! markup goes on, as libxml2 does, and keeps the article.

use std::path::{Path, PathBuf};

use assert_cmd::Command;

fn page(name: &str) -> PathBuf {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
        .join("data/unclosed")
        .join(name)
}

/// Lower-cased words.
fn words(text: &str) -> Vec<String> {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect()
}

/// The text `mainline filter` extracts from `html` (given on standard input).
fn filter(html: &[u8]) -> String {
    let out = Command::cargo_bin("mainline")
        .expect("the mainline binary is built")
        .arg("filter")
        .write_stdin(html)
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    String::from_utf8(out).expect("output is UTF-8")
}

/// The page `name` keeps its article (nine words in ten of its expected text, and not
/// much else), and gives the same text as the page with the end tag written in before
/// `at`, where the element is closed.
fn check(name: &str, at: &str, end_tag: &str) {
    let html = std::fs::read_to_string(page(&format!("{name}.html"))).unwrap();
    let expected = std::fs::read_to_string(page(&format!("{name}.txt"))).unwrap();
    let text = filter(html.as_bytes());
    assert!(!text.trim().is_empty(), "{name}: nothing extracted");
    let mut left = words(&text);
    let want = words(&expected);
    let found = want
        .iter()
        .filter(|w| {
            left.iter()
                .position(|g| g == *w)
                .map(|i| left.swap_remove(i))
                .is_some()
        })
        .count();
    let recall = found as f64 / want.len() as f64;
    assert!(recall >= 0.9, "{name}: recall {recall:.2} in {text:?}");
    let ratio = words(&text).len() as f64 / want.len() as f64;
    assert!(
        ratio < 1.25,
        "{name}: {ratio:.2} times the expected words in {text:?}"
    );
    assert_eq!(html.matches(at).count(), 1, "{name}: {at:?}");
    let closed = html.replace(at, &format!("{end_tag}{at}"));
    assert_eq!(text, filter(closed.as_bytes()), "{name}: not as if closed");
}

#[test]
fn an_unclosed_title_keeps_the_article() {
    check("title", "\n<link", "</title>");
}

#[test]
fn an_unclosed_textarea_keeps_the_article() {
    check("textarea", "\n<main>", "</textarea>");
}

#[test]
fn an_unclosed_style_sheet_keeps_the_article() {
    check("style", "</head>", "</style>");
}
