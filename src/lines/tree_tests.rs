//! Tree construction: where the head ends, leaving `svg`/`math`, implied end tags, and the
//! encoding a document is committed to. Each rule has a minimal reproduction, and the
//! properties feed documents in pieces that really reach the tokenizer one by one.

use super::tokenizer::Limits;
use super::*;
use crate::input::{DETECT_BYTES, EncodingSource, PRESCAN_BYTES};

fn texts(html: &str) -> Vec<String> {
    split(html.as_bytes())
        .unwrap()
        .into_iter()
        .map(|l| l.text)
        .collect()
}

/// What a line records about where it sits: the line without its byte offsets (which end
/// tags change).
fn shape(l: &Line) -> Line {
    Line {
        start: 0,
        html_bytes: 0,
        ..l.clone()
    }
}

fn shapes(html: &str) -> Vec<Line> {
    let lines = split(html.as_bytes()).unwrap();
    lines.iter().map(shape).collect()
}

#[test]
fn the_head_ends_at_the_body_without_an_end_tag() {
    let body = "<p>Long text of the article, which a browser shows.</p>";
    assert_eq!(
        texts(&format!("<html><head><title>x</title><body>{body}")),
        ["Long text of the article, which a browser shows."]
    );
    // Any start tag that does not belong in the head ends it, as does text.
    assert_eq!(
        texts("<head><meta charset=utf-8><title>t</title><div>one</div><p>two"),
        ["one", "two"]
    );
    assert_eq!(
        texts("<head><title>t</title><link rel=x>Hello<p>world"),
        ["Hello", "world"]
    );
    // More `<head>` start tags than end tags.
    assert_eq!(
        texts("<html><head><head><title>t</title></head><body><p>text</p></body></html>"),
        ["text"]
    );
}

#[test]
fn what_the_head_holds_stays_hidden() {
    for end in ["</head>", ""] {
        let html = format!(
            "<head><title>T</title><style>p{{}}</style><script>var a = 1;</script>\
             <meta charset=utf-8><link rel=x><base href=/><template><p>tpl</p></template>\
             <noframes><p>nf</p></noframes>{end}<p>b"
        );
        assert_eq!(texts(&html), ["b"], "{html}");
    }
}

#[test]
fn a_head_whose_end_tag_a_comment_or_script_swallowed_ends_at_the_content() {
    // The comment runs to the `-->` in the body; after it the page goes on as a browser
    // reads it, still "in head", and its first content ends the head.
    assert_eq!(
        texts("<head><!-- <link rel=x> </head><body><p>hidden</p> --><p>shown</p>"),
        ["shown"]
    );
    assert_eq!(
        texts(
            "<head><script>document.write('</head><body>');</script>\
             <div class=a><p>shown</p></div>"
        ),
        ["shown"]
    );
}

#[test]
fn lines_are_the_same_with_or_without_the_end_of_the_head() {
    let with =
        shapes("<html><head><title>t</title></head><body class=page><div id=main><p>one<p>two");
    for head in [
        "<html><head><title>t</title><body class=page>",
        "<html><head><head><title>t</title></head><body class=page>",
        "<html><head><title>t</title><!-- </head> --><body class=page>",
    ] {
        let without = shapes(&format!("{head}<div id=main><p>one<p>two"));
        assert_eq!(without, with, "{head}");
    }
}

/// A head long enough that the encoding is settled (declared within the first 1,024 bytes)
/// before the interesting part: from there on every write reaches the tokenizer as it is.
fn declared_prefix() -> String {
    format!(
        "<!doctype html><html><head><meta charset=utf-8><!--{}-->",
        " ".repeat(PRESCAN_BYTES)
    )
}

/// Splits `prefix` + `rest`, writing `rest` in pieces ending at `cuts` (offsets into
/// `rest`), and checks that each piece reached the tokenizer when it was written.
fn split_in_pieces(prefix: &str, rest: &str, cuts: &[usize]) -> (Vec<Line>, u64) {
    let mut s = Splitter::new();
    let mut lines = Vec::new();
    s.write(prefix.as_bytes()).unwrap();
    assert_eq!(
        s.input_bytes(),
        prefix.len() as u64,
        "the prefix settles the encoding"
    );
    let mut cuts: Vec<usize> = cuts.iter().map(|&c| c.min(rest.len())).collect();
    cuts.sort_unstable();
    cuts.push(rest.len());
    let mut from = 0;
    for &to in &cuts {
        s.write(&rest.as_bytes()[from..to]).unwrap();
        assert_eq!(
            s.input_bytes(),
            (prefix.len() + to) as u64,
            "every piece reaches the tokenizer"
        );
        lines.extend(std::iter::from_fn(|| s.next_line()));
        from = to;
    }
    s.end().unwrap();
    lines.extend(std::iter::from_fn(|| s.next_line()));
    let total: u64 = lines.iter().map(|l| l.html_bytes).sum::<u64>() + s.trailing_bytes();
    assert_eq!(total, (prefix.len() + rest.len()) as u64, "byte accounting");
    (lines, s.trailing_bytes())
}

/// Fragments of documents that exercise the tree-construction rules.
fn fragment() -> impl proptest::strategy::Strategy<Value = String> {
    use proptest::prelude::*;
    let tag = prop_oneof![
        Just("head"),
        Just("body"),
        Just("title"),
        Just("meta charset=iso-8859-1"),
        Just("link rel=x"),
        Just("noscript"),
        Just("script"),
        Just("style"),
        Just("template"),
        Just("p"),
        Just("div class=c"),
        Just("h2"),
        Just("ul"),
        Just("ol"),
        Just("li"),
        Just("dl"),
        Just("dt"),
        Just("dd"),
        Just("table"),
        Just("caption"),
        Just("thead"),
        Just("tbody"),
        Just("tfoot"),
        Just("tr"),
        Just("td"),
        Just("th"),
        Just("select"),
        Just("option"),
        Just("optgroup"),
        Just("button"),
        Just("a href=x"),
        Just("svg"),
        Just("math"),
        Just("foreignObject"),
        Just("desc"),
        Just("mi"),
        Just("font color=red"),
        Just("b"),
        Just("br"),
        Just("pre"),
    ];
    prop_oneof![
        tag.clone().prop_map(|t| format!("<{t}>")),
        tag.prop_map(|t| format!("</{}>", t.split(' ').next().unwrap_or(t))),
        Just("<!-- c -->".to_string()),
        Just("<!--".to_string()),
        Just("-->".to_string()),
        Just(" \n".to_string()),
        Just("caf\u{e9} \u{65e5}\u{672c}".to_string()),
        Just("&amp; x".to_string()),
        "[a-z ]{1,12}",
    ]
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(256))]

    /// The tree-construction rules give the same lines however the document is cut, with
    /// every piece reaching the tokenizer on its own.
    #[test]
    fn tree_rules_give_the_same_lines_in_any_pieces(
        parts in proptest::collection::vec(fragment(), 0..60),
        cuts in proptest::collection::vec(0usize..2000, 0..12),
    ) {
        let prefix = declared_prefix();
        let rest = parts.concat();
        let (whole, trailing) = split_in_pieces(&prefix, &rest, &[]);
        let (lines, t) = split_in_pieces(&prefix, &rest, &cuts);
        proptest::prop_assert_eq!(&lines, &whole, "cuts {:?} in {:?}", cuts, rest);
        proptest::prop_assert_eq!(t, trailing);
        let bytes: Vec<usize> = (1..rest.len()).collect();
        let (lines, _) = split_in_pieces(&prefix, &rest, &bytes);
        proptest::prop_assert_eq!(&lines, &whole, "byte by byte in {:?}", rest);
    }
}

#[test]
fn a_p_or_div_leaves_an_unclosed_svg_or_math() {
    for open in [
        "<svg viewBox='0 0 1 1'><path d=M0>",
        "<math><mrow>x",
        "<svg><g>t",
    ] {
        let html = format!("{open}<p>one</p><p>two</p><div class=x>three</div>");
        assert_eq!(texts(&html), ["one", "two", "three"], "{html}");
    }
    // A `font` with `color` leaves too; a plain `font`, an `a` or a `g` does not.
    assert_eq!(texts("<svg><font color=red>red</font><p>x"), ["red", "x"]);
    assert_eq!(
        texts("<svg><font>f</font><a>a</a><g>t</g></svg><p>x"),
        ["x"]
    );
    // Inside `foreignObject` (HTML in svg) a `<p>` stays in the svg, hidden with it.
    assert_eq!(
        texts("<svg><foreignObject><p>in</p></foreignObject></svg><p>out"),
        ["out"]
    );
    // The lines after are those of a page whose svg was closed.
    let closed = shapes("<div class=a><svg><path></svg><p>one<p>two</div>");
    assert_eq!(shapes("<div class=a><svg><path><p>one<p>two</div>"), closed);
}

/// A table of `rows` rows of three cells, with or without the end tags HTML lets a page
/// leave out.
fn table(rows: usize, end_tags: bool) -> String {
    let mut html = String::from("<table>");
    for r in 0..rows {
        html.push_str("<tr>");
        for c in 0..3 {
            html.push_str(&format!("<td>r{r}c{c}"));
            if end_tags {
                html.push_str("</td>");
            }
        }
        if end_tags {
            html.push_str("</tr>");
        }
    }
    html.push_str("</table><p>after");
    html
}

#[test]
fn a_table_without_end_tags_stays_shallow() {
    let with = shapes(&table(5_000, true));
    let without = shapes(&table(5_000, false));
    assert_eq!(without.len(), 15_001);
    assert_eq!(without, with);
    assert!(
        without.iter().all(|l| l.depth <= 3),
        "cells stay three deep"
    );
}

#[test]
fn paragraphs_and_list_items_without_end_tags_stay_shallow() {
    let n = 30_000;
    let html = "<p>paragraph".repeat(n);
    let lines = split(html.as_bytes()).unwrap();
    assert_eq!(lines.len(), n);
    assert!(lines.iter().all(|l| l.depth == 1));
    let html = format!("<ul>{}</ul><p>after", "<li>item".repeat(n));
    let lines = split(html.as_bytes()).unwrap();
    assert_eq!(lines.len(), n + 1);
    assert!(lines.iter().all(|l| l.depth <= 2));
    // They never fill the tokenizer's open-element stack: with room for four open
    // elements, each paragraph is still an element of its own.
    let limits = Limits {
        open: 4,
        ..Limits::default()
    };
    for html in [
        format!("<div>{}", "<p class=a>para".repeat(100)),
        format!("<table>{}</table>", "<tr><td class=a>cell".repeat(100)),
        format!("<ul>{}</ul>", "<li class=a>item".repeat(100)),
    ] {
        let mut s = Splitter::with_limits(limits);
        s.write(html.as_bytes()).unwrap();
        s.end().unwrap();
        let lines: Vec<Line> = std::iter::from_fn(|| s.next_line()).collect();
        let mut elements: Vec<u32> = lines.iter().map(|l| l.path[0]).collect();
        elements.dedup();
        assert_eq!(elements.len(), lines.len(), "{html}");
        assert!(lines.iter().all(|l| l.ancestors.len() == 1), "{html}");
    }
}

#[test]
fn implied_end_tags_follow_the_standards_scopes() {
    // A nested list keeps its outer item open; a div inside an item does not.
    let nested = shapes("<ul><li>a<ul><li>b<li>c</ul><li>d</ul>");
    assert_eq!(nested[1].depth, nested[2].depth);
    assert_eq!(nested[0].depth, nested[3].depth);
    assert!(nested[1].depth > nested[0].depth);
    assert_eq!(
        shapes("<ul><li><div class=x>a</div><li>b</ul>"),
        shapes("<ul><li><div class=x>a<li>b</ul>")
    );
    // A cell of a table inside a cell closes the inner cell only.
    let inner = shapes("<table><tr><td>a<table><tr><td>b<td>c</table>d<td>e</table>");
    assert_eq!(inner[1].depth, inner[2].depth);
    assert_eq!(inner[0].depth, inner[3].depth);
    assert_eq!(inner[0].depth, inner[4].depth);
    // A `<p>` around a button is not closed by a div in the button.
    let button = shapes("<p><button class=b><div>x</div></button>y</p>");
    assert_eq!(button[1].block, Block::P);
    // Headings do not nest; options and option groups close each other.
    let h = shapes("<h1>a<h2>b</h2>");
    assert_eq!((h[0].depth, h[1].depth, h[1].heading), (1, 1, 2));
    let o = shapes("<select><optgroup label=g><option>a<option>b<optgroup><option>c</select>");
    assert_eq!(o[0].depth, o[1].depth);
    assert_eq!(o[1].depth, o[2].depth);
}

/// A small random number generator for the document generator below.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % n
    }
}

/// An element (name, attributes, children) or text.
#[derive(Debug, Clone)]
enum Node {
    Text(String),
    El(&'static str, &'static str, Vec<Node>),
}

fn el(name: &'static str, children: Vec<Node>) -> Node {
    Node::El(name, "", children)
}

/// Flow content: text, paragraphs, divs, lists, tables, selects.
fn flow(rng: &mut Rng, depth: u32) -> Vec<Node> {
    let n = rng.below(3) + 1;
    (0..n)
        .map(|i| {
            let word = format!("w{depth}x{i}y{}", rng.below(1000));
            let kind = if depth >= 3 { 0 } else { rng.below(8) };
            match kind {
                0 => Node::Text(word),
                1 | 2 => el("p", vec![Node::Text(word)]),
                3 => Node::El("div", " class=c", flow(rng, depth + 1)),
                4 => {
                    let list = if rng.below(2) == 0 { "ul" } else { "ol" };
                    let items = (0..rng.below(3) + 1)
                        .map(|_| el("li", flow(rng, depth + 1)))
                        .collect();
                    el(list, items)
                }
                5 => {
                    let items = (0..rng.below(4) + 1)
                        .map(|_| {
                            let name = if rng.below(2) == 0 { "dt" } else { "dd" };
                            el(name, flow(rng, depth + 1))
                        })
                        .collect();
                    el("dl", items)
                }
                6 => {
                    let rows = |rng: &mut Rng| -> Vec<Node> {
                        (0..rng.below(3) + 1)
                            .map(|_| {
                                let cells = (0..rng.below(3) + 1)
                                    .map(|_| {
                                        let name = if rng.below(3) == 0 { "th" } else { "td" };
                                        el(name, flow(rng, depth + 1))
                                    })
                                    .collect();
                                el("tr", cells)
                            })
                            .collect()
                    };
                    let mut parts = Vec::new();
                    if rng.below(3) == 0 {
                        parts.push(el("caption", vec![Node::Text(word)]));
                    }
                    if rng.below(2) == 0 {
                        parts.extend(rows(rng));
                    } else {
                        for section in ["thead", "tbody", "tbody", "tfoot"] {
                            if rng.below(2) == 0 {
                                parts.push(el(section, rows(rng)));
                            }
                        }
                    }
                    el("table", parts)
                }
                _ => {
                    let option = |rng: &mut Rng| {
                        el("option", vec![Node::Text(format!("o{}", rng.below(9)))])
                    };
                    let mut items: Vec<Node> = (0..rng.below(3)).map(|_| option(rng)).collect();
                    for _ in 0..rng.below(3) {
                        let group = (0..rng.below(3) + 1).map(|_| option(rng)).collect();
                        items.push(Node::El("optgroup", " label=g", group));
                    }
                    el("select", items)
                }
            }
        })
        .collect()
}

/// Whether HTML lets `name`'s end tag be left out before `next` (the next sibling's name,
/// "#text" for text, `None` at the end of the parent `parent`).
fn may_omit(name: &str, next: Option<&str>, parent: &str) -> bool {
    let closes_p = [
        "address",
        "article",
        "aside",
        "blockquote",
        "details",
        "dialog",
        "div",
        "dl",
        "fieldset",
        "figcaption",
        "figure",
        "footer",
        "form",
        "h1",
        "h2",
        "h3",
        "h4",
        "h5",
        "h6",
        "header",
        "hgroup",
        "hr",
        "main",
        "menu",
        "nav",
        "ol",
        "p",
        "pre",
        "search",
        "section",
        "table",
        "ul",
    ];
    match (name, next) {
        ("p", None) => !matches!(
            parent,
            "a" | "audio" | "del" | "ins" | "map" | "noscript" | "video"
        ),
        ("p", Some(n)) => closes_p.contains(&n),
        ("li", n) => matches!(n, None | Some("li")),
        ("dt", n) => matches!(n, Some("dt" | "dd")),
        ("dd", n) => matches!(n, None | Some("dt" | "dd")),
        ("td" | "th", n) => matches!(n, None | Some("td" | "th")),
        ("tr", n) => matches!(n, None | Some("tr")),
        ("thead", n) => matches!(n, Some("tbody" | "tfoot")),
        ("tbody", n) => matches!(n, None | Some("tbody" | "tfoot")),
        ("tfoot", n) => n.is_none(),
        ("caption", n) => n.is_some_and(|n| n != "#text"),
        ("option", n) => matches!(n, None | Some("option" | "optgroup")),
        ("optgroup", n) => matches!(n, None | Some("optgroup")),
        _ => false,
    }
}

fn render(nodes: &[Node], parent: &str, omit: bool, out: &mut String) {
    for (i, node) in nodes.iter().enumerate() {
        match node {
            Node::Text(t) => out.push_str(t),
            Node::El(name, attrs, children) => {
                out.push_str(&format!("<{name}{attrs}>"));
                render(children, name, omit, out);
                let next = nodes.get(i + 1).map(|n| match n {
                    Node::Text(_) => "#text",
                    Node::El(n, _, _) => n,
                });
                if !(omit && may_omit(name, next, parent)) {
                    out.push_str(&format!("</{name}>"));
                }
            }
        }
    }
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(256))]

    /// Leaving out the end tags HTML lets a page leave out changes no line but its byte
    /// offsets, in any pieces that reach the tokenizer one by one.
    #[test]
    fn optional_end_tags_change_no_line(
        seed in 1u64..u64::MAX,
        cuts in proptest::collection::vec(0usize..4000, 0..12),
    ) {
        let body = flow(&mut Rng(seed), 0);
        let (mut with, mut without) = (String::new(), String::new());
        render(&body, "body", false, &mut with);
        render(&body, "body", true, &mut without);
        let prefix = declared_prefix();
        let shape_all = |lines: &[Line]| lines.iter().map(shape).collect::<Vec<_>>();
        let (whole, _) = split_in_pieces(&prefix, &with, &[]);
        let (omitted, _) = split_in_pieces(&prefix, &without, &[]);
        let (a, b) = (shape_all(&omitted), shape_all(&whole));
        if let Some(i) = (0..a.len().max(b.len())).find(|&i| a.get(i) != b.get(i)) {
            proptest::prop_assert!(false, "line {}: {:?} vs {:?} in {} vs {}", i, a.get(i), b.get(i), without, with);
        }
        let (pieces, _) = split_in_pieces(&prefix, &without, &cuts);
        proptest::prop_assert_eq!(&pieces, &omitted, "cuts {:?} in {}", cuts, without);
    }
}

/// `n` bytes of ASCII paragraphs.
fn ascii_paragraphs(n: usize) -> String {
    let p = "<p>Plain ASCII text of a paragraph, long enough to matter.</p>\n";
    p.repeat(n / p.len() + 1)
}

#[test]
fn a_legacy_charset_the_bytes_contradict_is_read_as_utf8() {
    let html = format!(
        "<html><head><meta charset=gb2312><title>t</title></head><body>{}<p>中文内容，café</p>",
        ascii_paragraphs(2_000)
    );
    let mut s = Splitter::new();
    s.write(html.as_bytes()).unwrap();
    s.end().unwrap();
    let lines: Vec<Line> = std::iter::from_fn(|| s.next_line()).collect();
    assert_eq!(lines.last().unwrap().text, "中文内容，café");
    let sniffed = s.encoding().unwrap();
    assert_eq!(sniffed.encoding, encoding_rs::UTF_8);
    assert_eq!(
        sniffed.source,
        EncodingSource::Contradicted(encoding_rs::GBK)
    );
    // Bytes really in the declared encoding are read in it.
    let (gbk, _, _) = encoding_rs::GBK.encode(&html);
    let lines = split(&gbk).unwrap();
    assert_eq!(lines.last().unwrap().text, "中文内容，café");
    // However the page is cut.
    for chunk in [1, 100, 1024, 70_000] {
        let mut s = Splitter::new();
        for piece in html.as_bytes().chunks(chunk) {
            s.write(piece).unwrap();
        }
        s.end().unwrap();
        assert_eq!(s.encoding(), Some(sniffed), "chunk {chunk}");
    }
}

#[test]
fn a_late_meta_does_not_switch_a_page_committed_to_utf8() {
    let tail = "<div><meta charset=iso-8859-1></div><p>après, 中文</p>";
    // UTF-8 shown in the first bytes, and the meta 160 KB into the body.
    let html = format!("<p>café</p>{}{tail}", ascii_paragraphs(160_000));
    assert_eq!(texts(&html).last().unwrap(), "après, 中文");
    // Only ASCII before it, but in the body.
    let html = format!("<html><body>{}{tail}", ascii_paragraphs(160_000));
    assert_eq!(texts(&html).last().unwrap(), "après, 中文");
    // In the head, after ASCII, a meta still corrects the guess (as before).
    let mut html = format!(
        "<html><head><script>{}</script><meta charset=windows-1252></head><p>caf",
        "var a = 1;\n".repeat(200)
    )
    .into_bytes();
    html.extend_from_slice(b"\xe9</p>");
    assert_eq!(texts(&String::from_utf8_lossy(&html)).len(), 1);
    assert_eq!(split(&html).unwrap()[0].text, "café");
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(32))]

    /// The encoding decisions give the same lines however a long page is cut after the
    /// bytes that settle the encoding, each piece reaching the tokenizer on its own.
    #[test]
    fn encoding_decisions_give_the_same_lines_in_any_pieces(
        declared in proptest::sample::select(vec!["", "<meta charset=gb2312>", "<meta charset=iso-8859-1>"]),
        late in proptest::sample::select(vec!["", "<meta charset=koi8-r>"]),
        utf8 in proptest::bool::ANY,
        cuts in proptest::collection::vec(0usize..100_000, 0..8),
    ) {
        let text = if utf8 { "<p>中文 café</p>" } else { "<p>plain</p>" };
        let doc = format!(
            "<html><head>{declared}</head><body>{text}{}<div>{late}</div>{}{text}",
            ascii_paragraphs(70_000),
            ascii_paragraphs(20_000)
        );
        let (prefix, rest) = doc.split_at(DETECT_BYTES + 10);
        let (whole, trailing) = split_in_pieces(prefix, rest, &[]);
        let (lines, t) = split_in_pieces(prefix, rest, &cuts);
        proptest::prop_assert_eq!(&lines, &whole);
        proptest::prop_assert_eq!(t, trailing);
        if utf8 {
            proptest::prop_assert_eq!(&whole.last().unwrap().text, "中文 café");
        }
    }
}
