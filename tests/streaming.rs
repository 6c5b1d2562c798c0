//! Streaming invariants: chunking never changes anything, byte accounting is exact, the
//! output is an in-order subsequence of the page's lines.
//!
//! Set `CHUNK_SIZE=n` to add a chunk size when reproducing a failure.

mod common;

use std::sync::Arc;

use common::decide_in;
use mainline::extract::{Observe, Threshold};
use mainline::lines::{Line, Splitter};
use proptest::prelude::*;

fn chunk_sizes() -> Vec<usize> {
    let mut sizes = vec![1, 7, 64 * 1024];
    if let Some(n) = std::env::var("CHUNK_SIZE")
        .ok()
        .and_then(|v| v.parse().ok())
    {
        sizes.push(n);
    }
    sizes
}

fn split_in(html: &[u8], chunk: usize) -> (Vec<Line>, u64, u64) {
    let mut s = Splitter::new();
    let mut lines = Vec::new();
    for piece in html.chunks(chunk) {
        s.write(piece).unwrap();
        lines.extend(std::iter::from_fn(|| s.next_line()));
    }
    s.end().unwrap();
    lines.extend(std::iter::from_fn(|| s.next_line()));
    (lines, s.trailing_bytes(), s.input_bytes())
}

/// Pieces of HTML that exercise the splitter: blocks, inline elements, references split
/// anywhere, scripts, comments, pre, multi-byte characters, unclosed tags.
fn fragment() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("<p>".to_string()),
        Just("</p>".to_string()),
        Just("<div class=\"post-content\">".to_string()),
        Just("</div>".to_string()),
        Just("<li>".to_string()),
        Just("<ul>".to_string()),
        Just("</ul>".to_string()),
        Just("<a href=\"/x\">".to_string()),
        Just("</a>".to_string()),
        Just("<br>".to_string()),
        Just("<nav>".to_string()),
        Just("</nav>".to_string()),
        Just("<pre>a\r\n  b\n</pre>".to_string()),
        Just("<script>if (a < b) { x = '</div>'; }</script>".to_string()),
        Just("<!-- comment <p> -->".to_string()),
        Just("&amp;".to_string()),
        Just("&eacute".to_string()),
        Just("&#x20AC;".to_string()),
        Just("caf\u{e9} \u{4e2d}\u{6587} \u{1f600}".to_string()),
        Just("  \n\t ".to_string()),
        Just("<h2>".to_string()),
        Just("</h2>".to_string()),
        "[a-zA-Z .,]{1,40}",
    ]
}

fn page() -> impl Strategy<Value = String> {
    prop::collection::vec(fragment(), 0..80).prop_map(|parts| parts.concat())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    #[test]
    fn chunking_never_changes_lines_or_byte_counts(html in page()) {
        let (whole, trailing, total) = split_in(html.as_bytes(), usize::MAX);
        for chunk in chunk_sizes() {
            let (lines, t, n) = split_in(html.as_bytes(), chunk);
            prop_assert_eq!(&lines, &whole, "chunk size {}", chunk);
            prop_assert_eq!(t, trailing);
            prop_assert_eq!(n, total);
        }
    }

    #[test]
    fn chunking_never_changes_features_scores_or_decisions(html in page()) {
        let whole = decide_in(html.as_bytes(), usize::MAX, Arc::new(Observe));
        for chunk in chunk_sizes() {
            prop_assert_eq!(&decide_in(html.as_bytes(), chunk, Arc::new(Observe)), &whole);
            prop_assert_eq!(
                decide_in(html.as_bytes(), chunk, Arc::new(Threshold(0.5))),
                decide_in(html.as_bytes(), usize::MAX, Arc::new(Threshold(0.5)))
            );
        }
    }

    #[test]
    fn byte_accounting_sums_to_the_input_length(html in page()) {
        let (lines, trailing, total) = split_in(html.as_bytes(), 7);
        prop_assert_eq!(total, html.len() as u64);
        let sum: u64 = lines.iter().map(|l| l.html_bytes).sum();
        prop_assert_eq!(sum + trailing, total);
    }

    #[test]
    fn kept_lines_are_an_in_order_subsequence_of_the_lines(html in page()) {
        let (lines, _, _) = split_in(html.as_bytes(), usize::MAX);
        let decisions = decide_in(html.as_bytes(), 13, Arc::new(Threshold(0.3)));
        let all: Vec<&str> = lines.iter().map(|l| l.text.as_str()).collect();
        let kept: Vec<&str> = decisions.iter().filter(|d| d.keep).map(|d| d.line.text.as_str()).collect();
        let mut it = all.iter();
        for k in &kept {
            prop_assert!(it.any(|l| l == k), "{:?} is not in order", k);
        }
        prop_assert!(lines.iter().all(|l| !l.text.is_empty()));
    }
}

#[test]
fn the_sample_pages_account_for_every_byte_in_any_chunking() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("data/samples");
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "html") {
            let html = std::fs::read(&path).unwrap();
            let (whole, trailing, _) = split_in(&html, usize::MAX);
            for chunk in chunk_sizes() {
                let (lines, t, total) = split_in(&html, chunk);
                assert_eq!(lines, whole, "{} in pieces of {chunk}", path.display());
                let sum: u64 = lines.iter().map(|l| l.html_bytes).sum();
                assert_eq!(sum + t, total, "{}", path.display());
                assert_eq!(t, trailing);
            }
        }
    }
}
