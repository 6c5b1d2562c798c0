//! Splitter and filter on any bytes, in any chunking.
//!
//! The first two bytes choose the chunk size (1 to 65,536 bytes); the rest is the page.
//! Checks: no panic; the only error is "not an HTML document", and only for inputs that
//! start with a binary signature; every byte accounted for; the same lines whatever the
//! chunking; the kept lines an in-order subsequence of the lines, as UTF-8 output.
#![no_main]

use std::sync::{Arc, LazyLock};

use libfuzzer_sys::fuzz_target;
use mainline::internals::lines::{Line, Splitter};
use mainline::{Extractor, ModelScorer, Scorer, Threshold};

/// The built-in model, parsed once.
static MODEL: LazyLock<Arc<ModelScorer>> = LazyLock::new(|| Arc::new(ModelScorer::builtin()));

fn split(page: &[u8], chunk: usize) -> Result<(Vec<Line>, u64, u64), mainline::Error> {
    let mut s = Splitter::new();
    let mut lines = Vec::new();
    for piece in page.chunks(chunk) {
        s.write(piece)?;
        lines.extend(std::iter::from_fn(|| s.next_line()));
    }
    s.end()?;
    lines.extend(std::iter::from_fn(|| s.next_line()));
    Ok((lines, s.trailing_bytes(), s.input_bytes()))
}

/// The filter's text output: the kept lines, one per output line.
fn filter(page: &[u8], chunk: usize, scorer: Arc<dyn Scorer>) -> Vec<u8> {
    let mut ex = Extractor::new(scorer);
    let mut out = Vec::new();
    let sink = |ex: &mut Extractor, out: &mut Vec<u8>| {
        while let Some(d) = ex.next_decision() {
            if d.keep {
                out.extend_from_slice(d.line.text.as_bytes());
                out.push(b'\n');
            }
        }
    };
    for piece in page.chunks(chunk) {
        ex.write(piece).expect("the splitter accepted this page");
        sink(&mut ex, &mut out);
    }
    ex.end().expect("the splitter accepted this page");
    sink(&mut ex, &mut out);
    out
}

fuzz_target!(|data: &[u8]| {
    let (chunk, page) = match data {
        [a, b, rest @ ..] => (usize::from(u16::from_le_bytes([*a, *b])) + 1, rest),
        _ => (1, data),
    };
    let whole = split(page, usize::MAX);
    let (lines, trailing, total) = match whole {
        Ok(w) => w,
        Err(e) => {
            assert!(matches!(e, mainline::Error::NotHtml(_)), "{e}");
            assert!(mainline::internals::input::binary_kind(page).is_some(), "{e}");
            assert!(split(page, chunk).is_err());
            return;
        }
    };
    let sum: u64 = lines.iter().map(|l| l.html_bytes).sum();
    assert_eq!(sum + trailing, total, "byte accounting");
    assert!(
        lines
            .iter()
            .all(|l| !l.text.is_empty() && l.start + l.html_bytes <= total)
    );
    let chunked = split(page, chunk).expect("the whole page was accepted");
    assert_eq!(
        chunked,
        (lines.clone(), trailing, total),
        "chunk size {chunk}"
    );

    let all: Vec<&str> = lines.iter().map(|l| l.text.as_str()).collect();
    let model: Arc<dyn Scorer> = MODEL.clone();
    let scorers: [Arc<dyn Scorer>; 2] = [Arc::new(Threshold(0.5)), model];
    for scorer in scorers {
        let out = filter(page, chunk, scorer);
        let text = std::str::from_utf8(&out).expect("the output is UTF-8");
        let mut rest = all.iter();
        for kept in text.lines() {
            assert!(
                rest.any(|l| *l == kept),
                "{kept:?} is not an in-order line of the page"
            );
        }
    }
});
