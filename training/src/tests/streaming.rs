//! Streaming invariants: chunking never changes anything, byte accounting is exact, every
//! line gets exactly one decision, in order, and the output is the kept lines.
//!
//! The splitter holds input back until it knows the encoding (a BOM, a `<meta charset>` in
//! the first KiB once that KiB has arrived, else 64 KiB), so a test that feeds an undeclared
//! page of a few KiB in pieces feeds the tokenizer one piece. The pages here declare their
//! encoding after a first KiB of head, or are longer than 64 KiB, and every test checks
//! that the pieces really reached the tokenizer one by one ([`Split::check_pieces`]).
//! Every property also runs on a page of more than one block of the built-in model
//! (more than 4,096 lines).
//!
//! Set `CHUNK_SIZE=n` to add a chunk size when reproducing a failure.

use std::sync::Arc;

use super::common::{decide_in, declared_head};
use mainline::internals::extract::{AllFeatures, ModelScorer, Scorer, Threshold, extract_text};
use mainline::internals::lines::{Line, Splitter};
use mainline::internals::second_stage::page::MAX_LINES;
use proptest::prelude::*;

/// Bytes the splitter holds back when the page declares its encoding in its first KiB.
const PRESCAN: usize = 1024;

/// Bytes it holds back when nothing declares the encoding.
const DETECT: usize = 64 * 1024;

fn chunk_sizes() -> Vec<usize> {
    let mut sizes = vec![1, 7, 1000, 64 * 1024];
    if let Some(n) = std::env::var("CHUNK_SIZE")
        .ok()
        .and_then(|v| v.parse().ok())
    {
        sizes.push(n);
    }
    sizes
}

/// A page split in pieces, and what the splitter reported after each piece.
#[derive(Debug)]
struct Split {
    lines: Vec<Line>,
    trailing: u64,
    total: u64,
    /// After each write: the bytes written so far, the splitter's `input_bytes()`, and
    /// whether the encoding was known before the write.
    writes: Vec<(u64, u64, bool)>,
}

impl Split {
    /// Checks that every piece written once the encoding was known reached the tokenizer
    /// at once (for pages in an ASCII-compatible encoding, whose input bytes are the bytes
    /// written), and that the encoding was known once `commit` bytes were written: so a
    /// page longer than `commit` in small pieces reaches the tokenizer in many pieces.
    fn check_pieces(&self, commit: usize, chunk: usize) -> Result<(), TestCaseError> {
        let mut fed_pieces = 0;
        for &(written, input, known) in &self.writes {
            if written >= commit as u64 {
                prop_assert_eq!(
                    input,
                    written,
                    "a piece was held back after {} bytes",
                    written
                );
            }
            if known {
                fed_pieces += 1;
            }
        }
        let len = self.writes.last().map_or(0, |w| w.0) as usize;
        if len > commit + chunk {
            prop_assert!(
                fed_pieces >= (len - commit) / chunk - 1,
                "{} pieces of {} bytes reached the tokenizer one by one",
                fed_pieces,
                chunk
            );
        }
        Ok(())
    }
}

fn split_in(html: &[u8], chunk: usize) -> Split {
    let mut s = Splitter::new();
    let mut lines = Vec::new();
    let mut writes = Vec::new();
    let mut written = 0;
    for piece in html.chunks(chunk) {
        let known = s.encoding().is_some();
        s.write(piece).unwrap();
        written += piece.len() as u64;
        writes.push((written, s.input_bytes(), known));
        lines.extend(std::iter::from_fn(|| s.next_line()));
    }
    s.end().unwrap();
    lines.extend(std::iter::from_fn(|| s.next_line()));
    Split {
        lines,
        trailing: s.trailing_bytes(),
        total: s.input_bytes(),
        writes,
    }
}

/// What a page fragment is to the splitter, for working out its lines independently.
#[derive(Debug, Clone, PartialEq)]
enum Kind {
    /// Text of the line, as it reads once decoded (whitespace is collapsed around it).
    Text(&'static str),
    /// A tag that ends the line (block-level elements, `<br>`).
    Break,
    /// Markup that neither ends a line nor adds text (inline tags, comments, scripts).
    Silent,
    /// White space between tags.
    Space,
}

/// Fragments whose effect on lines is known: the oracle of
/// [`line_boundaries_are_where_the_breaking_tags_start`].
fn known_fragment() -> impl Strategy<Value = (&'static str, Kind)> {
    use Kind::*;
    // NOTE: block-level end tags are left out: whether one ends a line depends on the
    // elements open (a stray `</p>` closes nothing), which this oracle does not follow.
    prop::sample::select(vec![
        ("<p>", Break),
        ("<div class=\"post-content\">", Break),
        ("<li>", Break),
        ("<ul>", Break),
        ("<h2>", Break),
        ("<br>", Break),
        ("<br/>", Break),
        ("<blockquote>", Break),
        ("<section id=s>", Break),
        ("<p class='a b'>", Break),
        // Inline elements whole: an end tag can close the block elements opened after its
        // start tag (`<b><p>x</b>` ends the paragraph).
        ("<a href=\"/x\">a link</a>", Text("a link")),
        ("<b>bold</b>", Text("bold")),
        ("<span class=x></span>", Silent),
        ("<img src=x.png alt=picture>", Silent),
        ("<!-- comment <p> -->", Silent),
        ("<script>if (a < b) { x = '</div>'; }</script>", Silent),
        ("<style>p { color: red }</style>", Silent),
        ("  \n\t ", Space),
        ("word", Text("word")),
        (
            "Plain words, in a sentence.",
            Text("Plain words, in a sentence."),
        ),
        ("&amp;", Text("&")),
        ("&eacute;t&eacute;", Text("été")),
        ("&#x20AC;5", Text("€5")),
        (
            "caf\u{e9} \u{4e2d}\u{6587} \u{1f600}",
            Text("caf\u{e9} \u{4e2d}\u{6587} \u{1f600}"),
        ),
    ])
}

/// An undeclared page longer than the detection window: a head of 64 KiB of comment.
fn undeclared_head() -> String {
    format!("<!doctype html><!--{}-->", "x".repeat(DETECT))
}

/// Pages of known fragments after a head that lets the splitter commit its encoding
/// early (`declared`) or late; the offsets of the lines' ends and their texts are worked
/// out from the fragments alone.
fn oracle_page() -> impl Strategy<Value = (bool, Vec<(&'static str, Kind)>)> {
    (
        prop::bool::weighted(0.8),
        prop::collection::vec(known_fragment(), 0..120),
    )
}

/// The lines the fragments make, worked out without the splitter: a line ends where a
/// breaking tag starts once text has been read since the previous line's end, and its
/// bytes run from there; its text is the text fragments', white space collapsed.
fn expected_lines(head: &str, parts: &[(&'static str, Kind)]) -> (Vec<(u64, u64, String)>, u64) {
    let mut lines = Vec::new();
    let mut at = head.len() as u64;
    let (mut start, mut text) = (0u64, String::new());
    let mut has_text = false;
    let collapse = |t: &str| t.split_whitespace().collect::<Vec<_>>().join(" ");
    for (html, kind) in parts {
        match kind {
            Kind::Break if has_text => {
                lines.push((start, at - start, collapse(&text)));
                start = at;
                text.clear();
                has_text = false;
            }
            Kind::Text(t) => {
                text.push_str(t);
                has_text = true;
            }
            Kind::Space => text.push(' '),
            Kind::Break | Kind::Silent => {}
        }
        at += html.len() as u64;
    }
    if has_text {
        lines.push((start, at - start, collapse(&text)));
        start = at;
    }
    (lines, at - start)
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

/// A page of fragments after a head that commits the encoding early (mostly) or late;
/// returns the page and how many bytes the splitter holds back before committing.
fn page() -> impl Strategy<Value = (String, usize)> {
    (
        prop::bool::weighted(0.8),
        prop::collection::vec(fragment(), 0..200),
    )
        .prop_map(|(declared, parts)| {
            if declared {
                (declared_head() + &parts.concat(), PRESCAN)
            } else {
                (undeclared_head() + &parts.concat(), DETECT)
            }
        })
}

/// Chunk sizes for a page: all of them, but 1-byte pieces of the undeclared head are
/// skipped (64 Ki writes that only fill the detection buffer).
fn chunks_for(commit: usize) -> Vec<usize> {
    chunk_sizes()
        .into_iter()
        .filter(|&c| c > 1 || commit <= PRESCAN)
        .collect()
}

/// A page of more than one block of the built-in model: 4,096 + 700 lines of paragraphs,
/// links and headings after a declared head.
fn long_page() -> String {
    let mut html = declared_head();
    html.push_str("<body><nav><ul><li><a href=/>Home</a><li><a href=/a>About</a></ul></nav>");
    html.push_str("<article>");
    for i in 0..(MAX_LINES + 700) {
        html.push_str(&match i % 11 {
            0 => format!("<h2>Part {i}</h2>"),
            5 => format!("<ul><li><a href=/{i}>Related story {i}</a></li></ul>"),
            _ => format!(
                "<p>Paragraph {i} of a long article, with plain words &amp; a \
                 <a href=/x>link</a> in it.</p>"
            ),
        });
    }
    html.push_str("</article><footer>&copy; 2026</footer></body></html>\n");
    html
}

/// The checks every property makes on a page: the same lines and byte counts in any
/// chunking, pieces fed one by one, and every byte accounted for.
fn check_lines(html: &[u8], commit: usize) -> Result<Vec<Line>, TestCaseError> {
    let whole = split_in(html, usize::MAX);
    prop_assert_eq!(whole.total, html.len() as u64);
    let sum: u64 = whole.lines.iter().map(|l| l.html_bytes).sum();
    prop_assert_eq!(sum + whole.trailing, whole.total);
    for chunk in chunks_for(commit) {
        let split = split_in(html, chunk);
        split.check_pieces(commit, chunk)?;
        prop_assert_eq!(&split.lines, &whole.lines, "chunk size {}", chunk);
        prop_assert_eq!(split.trailing, whole.trailing);
        prop_assert_eq!(split.total, whole.total);
    }
    Ok(whole.lines)
}

/// Each line gets exactly one decision, in order, whole and in pieces, and the text output
/// is the kept lines'.
fn check_one_decision_per_line(
    html: &[u8],
    lines: &[Line],
    commit: usize,
    scorer: &Arc<dyn Scorer>,
) -> Result<(), TestCaseError> {
    let whole = decide_in(html, usize::MAX, Arc::clone(scorer));
    let decided: Vec<&Line> = whole.iter().map(|d| &d.line).collect();
    prop_assert_eq!(decided, lines.iter().collect::<Vec<_>>());
    for chunk in chunks_for(commit) {
        let got = decide_in(html, chunk, Arc::clone(scorer));
        prop_assert_eq!(&got, &whole, "chunk size {}", chunk);
    }
    let kept: Vec<&str> = whole
        .iter()
        .filter(|d| d.keep)
        .map(|d| d.line.text.as_str())
        .collect();
    prop_assert_eq!(
        extract_text(html, Arc::clone(scorer)).unwrap(),
        kept.join("\n")
    );
    Ok(())
}

fn scorers() -> Vec<Arc<dyn Scorer>> {
    vec![
        Arc::new(AllFeatures),
        Arc::new(Threshold(0.5)),
        Arc::new(ModelScorer::builtin()),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn chunking_never_changes_lines_or_byte_counts((html, commit) in page()) {
        check_lines(html.as_bytes(), commit)?;
    }

    #[test]
    fn each_line_gets_one_decision_in_order_in_any_chunking((html, commit) in page()) {
        let lines = check_lines(html.as_bytes(), commit)?;
        for scorer in scorers() {
            check_one_decision_per_line(html.as_bytes(), &lines, commit, &scorer)?;
        }
    }

    #[test]
    fn line_boundaries_are_where_the_breaking_tags_start((declared, parts) in oracle_page()) {
        let (head, commit) = if declared {
            (declared_head(), PRESCAN)
        } else {
            (undeclared_head(), DETECT)
        };
        let html: String = head.clone() + &parts.iter().map(|p| p.0).collect::<String>();
        let (expected, trailing) = expected_lines(&head, &parts);
        let lines = check_lines(html.as_bytes(), commit)?;
        let got: Vec<(u64, u64, String)> =
            lines.iter().map(|l| (l.start, l.html_bytes, l.text.clone())).collect();
        prop_assert_eq!(got, expected, "fragments {:?}", parts);
        prop_assert_eq!(split_in(html.as_bytes(), usize::MAX).trailing, trailing);
    }
}

#[test]
fn a_page_of_more_than_one_block_splits_and_decides_the_same_in_any_chunking() {
    let html = long_page();
    let lines = check_lines(html.as_bytes(), PRESCAN).unwrap();
    assert!(lines.len() > MAX_LINES + 500, "{} lines", lines.len());
    for scorer in scorers() {
        check_one_decision_per_line(html.as_bytes(), &lines, PRESCAN, &scorer).unwrap();
    }
    // The built-in model decides the blocks as the page arrives: with a page of more than
    // one block, decisions come out before the end.
    let builtin: Arc<dyn Scorer> = Arc::new(ModelScorer::builtin());
    let mut ex = mainline::internals::extract::Extractor::new(builtin);
    let mut early = 0;
    for piece in html.as_bytes().chunks(4096) {
        ex.write(piece).unwrap();
        early += std::iter::from_fn(|| ex.next_decision()).count();
    }
    assert!(
        early >= MAX_LINES / 2,
        "{early} lines decided before the end"
    );
}

#[test]
fn the_sample_pages_account_for_every_byte_in_any_chunking() {
    let dir = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/..")).join("data/samples");
    let mut pages = 0;
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "html") {
            pages += 1;
            // Behind a declared head, so that the pieces reach the tokenizer one by one
            // (the samples alone are shorter than the detection window).
            let html = [declared_head().as_bytes(), &std::fs::read(&path).unwrap()].concat();
            let html = String::from_utf8_lossy(&html).into_owned();
            check_lines(html.as_bytes(), PRESCAN)
                .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        }
    }
    assert!(pages >= 4, "{pages} sample pages");
}

/// The sum of the lines' bytes and the trailing bytes against the size of the file on
/// disk, for a page saved in each encoding mainline reads.
/// The fixed threshold needs no neighbour lines: each line is decided as soon as the tag
/// that ends it has been read, and its row has no neighbour columns filled.
#[test]
fn the_threshold_decides_each_line_as_soon_as_it_is_read() {
    let html = std::fs::read(super::common::sample("article.html")).unwrap();
    let mut ex =
        mainline::internals::extract::Extractor::new(Arc::new(Threshold(0.5))).with_features(true);
    let mut splitter = Splitter::new();
    let (mut read, mut decided) = (0, Vec::new());
    for piece in html.chunks(97) {
        ex.write(piece).unwrap();
        splitter.write(piece).unwrap();
        read += std::iter::from_fn(|| splitter.next_line()).count();
        decided.extend(std::iter::from_fn(|| ex.next_decision()));
        assert_eq!(ex.buffered_lines(), 0);
        assert_eq!(decided.len(), read);
    }
    assert!(read > 10, "{read} lines");
    let names = mainline::internals::features::names();
    let neighbours: Vec<usize> = (0..names.len())
        .filter(|&i| names[i].starts_with("prev") || names[i].starts_with("next"))
        .collect();
    assert!(!neighbours.is_empty());
    for d in &decided {
        let row = d.features.as_ref().unwrap();
        assert!(
            neighbours.iter().all(|&i| row[i] == 0.0),
            "{:?}",
            d.line.text
        );
    }
}

/// `AllFeatures`, the scorer behind feature tables (`mainline label`, `lines`, `review`), keeps
/// no line and fills every neighbour column: a line's `prevK_`/`nextK_` columns are the
/// rows of the lines K before and after it.
#[test]
fn observe_keeps_nothing_and_fills_the_widest_context() {
    let html = std::fs::read(super::common::sample("article.html")).unwrap();
    let decisions = decide_in(&html, 4096, Arc::new(AllFeatures));
    let k = mainline::internals::features::MAX_CONTEXT;
    assert!(decisions.len() > 2 * k + 1, "{} lines", decisions.len());
    assert!(decisions.iter().all(|d| !d.keep));
    let names = mainline::internals::features::names();
    let column = |name: &str| names.iter().position(|n| n == name).unwrap();
    let rows: Vec<&Vec<f32>> = decisions
        .iter()
        .map(|d| d.features.as_ref().unwrap())
        .collect();
    let density = column("density");
    for i in k..rows.len() - k {
        for side in ["prev", "next"] {
            let j = if side == "prev" { i - k } else { i + k };
            assert_eq!(
                rows[i][column(&format!("{side}{k}_density"))],
                rows[j][density],
                "line {i}, {side}{k}"
            );
        }
    }
    // What the columns would hold without the context: not what they hold.
    assert!(
        (k..rows.len() - k).any(|i| rows[i][column(&format!("next{k}_density"))] != 0.0),
        "the neighbour columns are filled"
    );
}

/// A UTF-16 page cut inside a code unit (an odd number of bytes) ends in a replacement
/// character that the decoder gives only at the end: its three UTF-8 bytes are counted
/// like the rest of the transcoding.
#[test]
fn a_utf16_page_cut_inside_a_character_counts_its_replacement_character() {
    let page = "\u{feff}<p>Caf\u{e9} au lait.</p><p>Encore.</p>tail";
    for (encoding, units) in [
        (
            encoding_rs::UTF_16LE,
            page.encode_utf16()
                .flat_map(u16::to_le_bytes)
                .collect::<Vec<u8>>(),
        ),
        (
            encoding_rs::UTF_16BE,
            page.encode_utf16().flat_map(u16::to_be_bytes).collect(),
        ),
    ] {
        let mut html = units;
        html.push(b'x');
        let utf8 = encoding.decode_with_bom_removal(&html).0;
        assert!(utf8.ends_with("tail\u{fffd}"));
        for chunk in [1, 7, usize::MAX] {
            let split = split_in(&html, chunk);
            let sum: u64 = split.lines.iter().map(|l| l.html_bytes).sum::<u64>() + split.trailing;
            assert_eq!(
                split.total,
                utf8.len() as u64,
                "{encoding:?} in pieces of {chunk}"
            );
            assert_eq!(sum, split.total, "{encoding:?} in pieces of {chunk}");
            let texts: Vec<&str> = split.lines.iter().map(|l| l.text.as_str()).collect();
            assert_eq!(texts, ["Caf\u{e9} au lait.", "Encore.", "tail\u{fffd}"]);
        }
    }
}

#[test]
fn byte_accounting_matches_the_file_size_in_every_encoding() {
    let dir = super::common::scratch();
    let body = "<p>Caf\u{e9} cr\u{e8}me, na\u{ef}ve fa\u{e7}ade.</p><ul><li><a href=/x>Men\u{fc}</a>\
        </ul><p>\u{201c}Quoted\u{201d} \u{2014} and more text.</p><!-- c --><p>\u{4e2d}\u{6587} \
        \u{65e5}\u{672c}\u{8a9e} \u{d55c}\u{ad6d}\u{c5b4} \u{0420}\u{0443}\u{0441}</p>tail";
    let expected: Vec<String> = mainline::internals::lines::split(body.repeat(40).as_bytes())
        .unwrap()
        .into_iter()
        .map(|l| l.text)
        .collect();
    assert_eq!(expected.len(), 5 * 40);
    for label in [
        "utf-8",
        "windows-1252",
        "iso-8859-2",
        "koi8-r",
        "shift_jis",
        "euc-jp",
        "euc-kr",
        "gbk",
        "gb18030",
        "big5",
        "utf-16le",
        "utf-16be",
        "iso-2022-jp",
    ] {
        let encoding = encoding_rs::Encoding::for_label(label.as_bytes()).unwrap();
        let transcoded = !encoding.is_ascii_compatible();
        // UTF-16 is announced by a byte order mark; the others by a declaration.
        let page = if encoding == encoding_rs::UTF_16LE || encoding == encoding_rs::UTF_16BE {
            format!("\u{feff}<html><body>{}", body.repeat(40))
        } else {
            format!("<meta charset={label}><body>{}", body.repeat(40))
        };
        let bytes: Vec<u8> = if encoding == encoding_rs::UTF_16LE {
            page.encode_utf16().flat_map(u16::to_le_bytes).collect()
        } else if encoding == encoding_rs::UTF_16BE {
            page.encode_utf16().flat_map(u16::to_be_bytes).collect()
        } else {
            encoding.encode(&page).0.into_owned()
        };
        let path = dir.path().join(format!("{label}.html"));
        std::fs::write(&path, &bytes).unwrap();
        let size = std::fs::metadata(&path).unwrap().len();
        let html = std::fs::read(&path).unwrap();
        for chunk in [1, 7, usize::MAX] {
            let split = split_in(&html, chunk);
            let sum: u64 = split.lines.iter().map(|l| l.html_bytes).sum::<u64>() + split.trailing;
            assert_eq!(sum, split.total, "{label} in pieces of {chunk}");
            if transcoded {
                // Counted in the UTF-8 transcoding (without the byte order mark): the
                // lines' densities are those of the same page saved as UTF-8.
                let utf8 = encoding.decode_with_bom_removal(&html).0.len() as u64;
                assert_eq!(sum, utf8, "{label}: the UTF-8 transcoding's length");
                assert_ne!(sum, size, "{label}");
            } else {
                assert_eq!(sum, size, "{label}: the file's size on disk");
            }
            // Characters the encoding lacks were saved as character references: the text
            // reads the same in every encoding.
            let texts: Vec<&str> = split.lines.iter().map(|l| l.text.as_str()).collect();
            assert_eq!(texts, expected, "{label}");
        }
    }
}
