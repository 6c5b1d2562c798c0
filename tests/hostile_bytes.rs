//! Hostile bytes through the library: properties over arbitrary bytes (the splitter and
//! the extractor never panic, decide the same in any chunking and count every byte), and
//! the inputs the fuzz targets found, kept as regressions.

mod common;

use std::sync::Arc;

use mainline::internals::lines::{Line, MAX_LINE_BYTES, Splitter};
use mainline::{Extractor, ModelScorer, Scorer, Threshold};
use proptest::prelude::*;

// ---- properties over arbitrary bytes -----------------------------------------------------

fn split_in(bytes: &[u8], chunk: usize) -> Result<(Vec<Line>, u64, u64), mainline::Error> {
    let mut s = Splitter::new();
    let mut lines = Vec::new();
    for piece in bytes.chunks(chunk) {
        s.write(piece)?;
        lines.extend(std::iter::from_fn(|| s.next_line()));
    }
    s.end()?;
    lines.extend(std::iter::from_fn(|| s.next_line()));
    Ok((lines, s.trailing_bytes(), s.input_bytes()))
}

fn kept_in(bytes: &[u8], chunk: usize, scorer: Arc<dyn Scorer>) -> Vec<String> {
    let mut ex = Extractor::new(scorer);
    let mut kept = Vec::new();
    for piece in bytes.chunks(chunk) {
        ex.write(piece).unwrap();
        kept.extend(
            std::iter::from_fn(|| ex.next_decision())
                .filter(|d| d.keep)
                .map(|d| d.line.text),
        );
    }
    ex.end().unwrap();
    kept.extend(
        std::iter::from_fn(|| ex.next_decision())
            .filter(|d| d.keep)
            .map(|d| d.line.text),
    );
    kept
}

/// Arbitrary bytes, and arbitrary bytes mixed with pieces of markup (pure noise rarely
/// forms a tag).
fn hostile_bytes() -> impl Strategy<Value = Vec<u8>> {
    let piece = prop_oneof![
        prop::collection::vec(any::<u8>(), 0..24),
        prop::sample::select(vec![
            &b"<p>"[..],
            b"</p>",
            b"<div class=\"a\">",
            b"</div>",
            b"<br>",
            b"<pre>",
            b"</pre>",
            b"<script>",
            b"</script>",
            b"<!--",
            b"-->",
            b"<style>",
            b"<svg>",
            b"<![CDATA[",
            b"]]>",
            b"<plaintext>",
            b"<a href='",
            b"'>",
            b"&amp;",
            b"&#x",
            b"\r\n",
            b"\xEF\xBB\xBF",
            b"\xFF\xFE",
            b"<meta charset=shift_jis>",
            b"<meta charset=utf-16>",
            b"\0",
        ])
        .prop_map(<[u8]>::to_vec),
        "[a-zA-Z ]{1,20}".prop_map(String::into_bytes),
    ];
    let bytes = prop_oneof![
        prop::collection::vec(any::<u8>(), 0..600),
        prop::collection::vec(piece, 0..60).prop_map(|p| p.concat()),
    ];
    // Half of them after a declared head, so that written in pieces they reach the
    // tokenizer in pieces (undeclared, the splitter holds the first 64 KiB back).
    (prop::bool::ANY, bytes).prop_map(|(declared, bytes)| {
        if declared {
            [common::declared_head().into_bytes(), bytes].concat()
        } else {
            bytes
        }
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 160, ..ProptestConfig::default() })]

    /// Any bytes: no panic; the only error is "not an HTML document", decided the same way
    /// in any chunking; every byte accounted for; the same lines in any chunking.
    #[test]
    fn any_bytes_split_the_same_in_any_chunking(bytes in hostile_bytes()) {
        let whole = split_in(&bytes, usize::MAX);
        match &whole {
            Err(e) => {
                prop_assert!(matches!(e, mainline::Error::NotHtml(_)), "{}", e);
                prop_assert!(mainline::internals::input::binary_kind(&bytes).is_some());
            }
            Ok((lines, trailing, total)) => {
                let sum: u64 = lines.iter().map(|l| l.html_bytes).sum();
                prop_assert_eq!(sum + trailing, *total);
                prop_assert!(lines.iter().all(|l| !l.text.is_empty()));
            }
        }
        for chunk in [1, 7, 64 * 1024] {
            let got = split_in(&bytes, chunk);
            match (&whole, &got) {
                (Ok(a), Ok(b)) => prop_assert_eq!(a, b, "chunk size {}", chunk),
                (Err(_), Err(_)) => {}
                _ => prop_assert!(false, "chunk size {} changes the outcome", chunk),
            }
        }
    }

    /// Every line of the page gets exactly one decision, in order, whatever the scorer and
    /// the chunking, and the kept lines are those decided so.
    #[test]
    fn each_line_gets_exactly_one_decision_in_order(bytes in hostile_bytes()) {
        prop_assume!(mainline::internals::input::binary_kind(&bytes).is_none());
        let (lines, _, _) = split_in(&bytes, usize::MAX).unwrap();
        let scorers: [Arc<dyn Scorer>; 2] =
            [Arc::new(Threshold(0.3)), Arc::new(ModelScorer::builtin())];
        for scorer in scorers {
            for chunk in [1, 13, usize::MAX] {
                let decisions = common::decide_in(&bytes, chunk, Arc::clone(&scorer));
                let decided: Vec<&Line> = decisions.iter().map(|d| &d.line).collect();
                prop_assert_eq!(&decided, &lines.iter().collect::<Vec<_>>(), "chunk {}", chunk);
                let kept: Vec<String> =
                    decisions.iter().filter(|d| d.keep).map(|d| d.line.text.clone()).collect();
                prop_assert_eq!(kept_in(&bytes, chunk, Arc::clone(&scorer)), kept);
            }
        }
    }
}

// ---- fuzzing regressions -----------------------------------------------------------------

/// Checks a `split_filter` fuzz input the way the fuzz target does: the first two bytes
/// give the chunk size, the rest is the page.
fn check_fuzz_input(data: &[u8]) {
    let chunk = usize::from(u16::from_le_bytes([data[0], data[1]])) + 1;
    let page = &data[2..];
    let whole = split_in(page, usize::MAX).unwrap();
    let sum: u64 = whole.0.iter().map(|l| l.html_bytes).sum();
    assert_eq!(sum + whole.1, whole.2);
    assert_eq!(split_in(page, chunk).unwrap(), whole, "chunk size {chunk}");
}

/// Found by `split_filter`: a `<meta name>` with a multi-byte character (here U+FFFD from
/// invalid bytes) where a known prefix such as `og:` would end made the metadata collector
/// slice inside the character; the built-in model reads the head's metadata, so plain
/// filtering panicked.
#[test]
fn fuzz_a_meta_name_with_a_multibyte_character_is_read_without_panic() {
    let data = include_bytes!("regressions/split_filter-meta-key-multibyte.bin");
    check_fuzz_input(data);
    let mut ex = Extractor::new(Arc::new(ModelScorer::builtin()));
    for piece in data[2..].chunks(usize::from(u16::from_le_bytes([data[0], data[1]])) + 1) {
        ex.write(piece).unwrap();
        while ex.next_decision().is_some() {}
    }
    ex.end().unwrap();
    while ex.next_decision().is_some() {}
    let doc = mainline::Options::default()
        .format(mainline::Format::Json)
        .extract(&data[2..])
        .unwrap();
    assert!(doc.metadata().title.is_some());
}

/// Found by `split_filter`: a numeric character reference of 90 digits (HTML takes every
/// digit) was decoded early when a piece ended more than 48 bytes after its `&`, leaving
/// the digits after the cut as text.
#[test]
fn fuzz_a_long_numeric_reference_decodes_the_same_in_any_chunking() {
    check_fuzz_input(include_bytes!(
        "regressions/split_filter-long-numeric-reference.bin"
    ));
}

/// Found by `split_filter`: in a page declared UTF-8, invalid bytes decode to U+FFFD (three
/// bytes of text for one of input), so lines split inside a text node (here `<plaintext>`
/// in a `<pre>`) were placed beyond the bytes read so far, and clamping them to what had
/// been read made their byte counts depend on the chunking.
#[test]
fn fuzz_invalid_utf8_in_a_pre_text_node_splits_the_same_in_any_chunking() {
    check_fuzz_input(include_bytes!(
        "regressions/split_filter-invalid-utf8-in-plaintext.bin"
    ));
    // The same, made by hand, for UTF-8, a legacy encoding, and a legacy encoding declared
    // late (after the encoding was guessed).
    let mut pages: Vec<Vec<u8>> = vec![
        [
            &b"<pre>"[..],
            &b"ab\xFFc\xC3d\n".repeat(300),
            b"</pre><p>end",
        ]
        .concat(),
        [
            &b"<meta charset=windows-1252><pre>"[..],
            &b"caf\xE9 cr\xE8me\r\n".repeat(300),
            b"</pre>",
        ]
        .concat(),
        [
            &b" ".repeat(2000)[..],
            b"<meta charset=windows-1252><plaintext>",
            &b"caf\xE9 \xAB\n".repeat(300),
        ]
        .concat(),
    ];
    // A line cut at MAX_LINE_BYTES, then invalid bytes.
    pages.push(
        [
            &b"<pre>"[..],
            &b"x".repeat(MAX_LINE_BYTES + 9),
            b"\xE9\n\xFF\n",
        ]
        .concat(),
    );
    for page in pages {
        let whole = split_in(&page, usize::MAX).unwrap();
        let chunks: &[usize] = if page.len() > 100_000 {
            &[7, 4096]
        } else {
            &[1, 7, 4096]
        };
        for &chunk in chunks {
            assert_eq!(split_in(&page, chunk).unwrap(), whole, "chunk size {chunk}");
        }
        let sum: u64 = whole.0.iter().map(|l| l.html_bytes).sum();
        assert_eq!(sum + whole.1, whole.2);
    }
}
