//! Tree construction: where the head ends, leaving `svg`/`math`, implied end tags, and the
//! encoding a document is committed to. Each rule has a minimal reproduction, and the
//! properties feed documents in pieces that really reach the tokenizer one by one.

use super::*;

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
