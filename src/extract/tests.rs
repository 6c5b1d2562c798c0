//! Tests of the streaming extractor: when decisions come out, resets, scorers.

use super::*;

/// Keeps a line when the previous and next lines (context 1) are both long.
struct NeighboursLong;
impl Scorer for NeighboursLong {
    fn context(&self) -> usize {
        1
    }
    fn decide(&self, row: &[f32], _: &mut Vec<f32>) -> (f32, bool) {
        let names = features::names();
        let p = row[names
            .iter()
            .position(|n| n == "prev1_ln_text_bytes")
            .unwrap()];
        let n = row[names
            .iter()
            .position(|n| n == "next1_ln_text_bytes")
            .unwrap()];
        let s = p.min(n);
        (s, s > 2.0)
    }
    fn describe(&self) -> String {
        "test".into()
    }
}

#[test]
fn decisions_wait_only_for_the_context_lines() {
    let mut ex = Extractor::new(Arc::new(NeighboursLong));
    // NOTE: the splitter holds the first bytes until the encoding is known; a declared
    // charset and a head longer than the prescan window let lines flow at once.
    let head = format!("<meta charset=utf-8><!--{}-->", " ".repeat(1024));
    ex.write(head.as_bytes()).unwrap();
    ex.write(b"<p>first long line</p><p>x</p>").unwrap();
    // "first long line" is decided once "x" has arrived; "x" waits for its next line.
    let d = ex.next_decision().unwrap();
    assert_eq!(d.line.text, "first long line");
    assert!(ex.next_decision().is_none());
    ex.write(b"<p>third long line</p>").unwrap();
    let d = ex.next_decision().unwrap();
    assert_eq!(d.line.text, "x");
    assert!(d.keep, "both neighbours are long");
    ex.end().unwrap();
    assert_eq!(ex.next_decision().unwrap().line.text, "third long line");
    assert!(ex.next_decision().is_none());
}

/// Every decision of `html` fed to `ex` in pieces of `piece` bytes.
fn decisions(ex: &mut Extractor, html: &[u8], piece: usize) -> Result<Vec<Decision>> {
    let mut out = Vec::new();
    for chunk in html.chunks(piece) {
        ex.write(chunk)?;
        out.extend(std::iter::from_fn(|| ex.next_decision()));
    }
    ex.end()?;
    out.extend(std::iter::from_fn(|| ex.next_decision()));
    Ok(out)
}

#[test]
fn a_reset_extractor_decides_as_a_new_one() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/data/samples");
    let mut pages: Vec<Vec<u8>> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "html"))
        .map(|p| std::fs::read(p).unwrap())
        .collect();
    pages.sort();
    assert!(pages.len() >= 5, "the sample pages are there");
    // Eight sample pages and the long one are enough for the property: each page is
    // extracted 36 times below, which costs minutes in a debug build for all samples.
    pages.truncate(8);
    // Longer than a block of the page (second_stage::page::MAX_LINES lines), in windows-1252.
    let mut long = b"<title>Long</title><ul>".to_vec();
    for i in 0..5000 {
        long.extend(format!("<li><a href=/{i}>Item {i}</a> caf").bytes());
        long.push(0xe9);
        long.extend(format!(" <p>Words of line {i}.").bytes());
    }
    pages.insert(0, long);
    let scorers: Vec<Arc<dyn Scorer>> = vec![
        Arc::new(ModelScorer::builtin()),
        Arc::new(Threshold(0.5)),
        Arc::new(NeighboursLong),
    ];
    for scorer in scorers {
        for settings in 0..3 {
            let make = || {
                let ex = Extractor::new(Arc::clone(&scorer));
                match settings {
                    0 => ex,
                    1 => ex
                        .with_structure(true)
                        .with_metadata(true)
                        .with_features(true),
                    _ => ex.with_transport_encoding(Some(encoding_rs::WINDOWS_1252)),
                }
            };
            let mut reused = make();
            // A page that fails, then a reset; most of a long page, then a reset.
            let png = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR";
            assert!(reused.write(png).and_then(|()| reused.end()).is_err());
            reused.reset();
            reused.write(&pages[0][..pages[0].len() * 3 / 4]).unwrap();
            reused.reset();
            for (i, page) in pages.iter().chain(pages.iter().rev()).enumerate() {
                let piece = [4096, 1 << 20, 777][i % 3];
                let mut fresh = make();
                let want = decisions(&mut fresh, page, piece).unwrap();
                let got = decisions(&mut reused, page, piece).unwrap();
                assert_eq!(
                    got,
                    want,
                    "page {i}, settings {settings}, {}",
                    scorer.describe()
                );
                assert_eq!(reused.metadata(), fresh.metadata());
                assert_eq!(reused.splitter().encoding(), fresh.splitter().encoding());
                reused.reset();
                // kept_text gives the lines' buffers back for the next pages' lines.
                let text = reused.kept_text(page).unwrap();
                assert_eq!(text, make().whole_text(page).unwrap(), "page {i}");
            }
        }
    }
}

#[test]
fn the_threshold_is_strictly_greater() {
    let t = Threshold(0.5);
    let mut row = vec![0.0; N_FEATURES];
    row[0] = 0.5;
    assert!(!t.decide(&row, &mut Vec::new()).1);
    row[0] = 0.51;
    assert!(t.decide(&row, &mut Vec::new()).1);
}

#[test]
fn features_are_attached_on_request() {
    let mut ex = Extractor::new(Arc::new(Threshold(0.5))).with_features(true);
    ex.write(b"<p>hello</p>").unwrap();
    ex.end().unwrap();
    let d = ex.next_decision().unwrap();
    assert_eq!(d.features.unwrap().len(), N_FEATURES);
}

#[test]
fn a_text_printed_twice_on_a_page_comes_out_once() {
    // An article, then the same article again in its printable copy: the built-in model
    // scores both alike; the copy in another structure, further down, is dropped.
    let paragraphs = [
        "The council voted on Tuesday to close the old harbour bridge for repairs lasting two years.",
        "Residents who cross daily will be offered a free ferry from the north quay every fifteen minutes.",
        "Engineers said the bridge could reopen earlier if the steel arrives before the winter storms.",
        "Shops on the south side fear a loss of trade and have asked for parking discounts meanwhile.",
    ];
    let body: String = paragraphs.iter().map(|p| format!("<p>{p}</p>")).collect();
    let page = format!(
        "<title>Bridge closes</title><nav><a href=/>Home</a></nav>\
         <article class=story><h1>Bridge to close for two years</h1>{body}</article>\
         <div class=print-copy><h2>Printable version</h2>{body}</div><footer>Harbour News</footer>"
    );
    let mut ex = Extractor::new(Arc::new(ModelScorer::builtin()));
    // The page's texts are forgotten with the page (`kept_text` resets the extractor):
    // the second time, the page keeps its article again.
    for _ in 0..2 {
        let text = ex.kept_text(page.as_bytes()).unwrap();
        for p in paragraphs {
            assert_eq!(text.matches(p).count(), 1, "{p} in {text:?}");
        }
    }
}
