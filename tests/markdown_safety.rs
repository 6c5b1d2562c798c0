//! Hostile input, round three: the Markdown is safe to render. A `<pre>` cannot break out
//! of its fence, alt text cannot start a block, links and images keep only URLs of the
//! allow-list, and images keep the space after them; a property test reads the Markdown of
//! generated pages back with a CommonMark parser (`common/markdown_oracle.rs`, shared with
//! the fuzz target `markdown_render`).

mod common;
#[path = "common/markdown_oracle.rs"]
mod oracle;

use common::mainline;
use mainline::internals::lines::Splitter;
use mainline::internals::markdown::Options;
use proptest::prelude::*;
use pulldown_cmark::{Event, Parser, Tag, TagEnd};

/// An article the built-in model keeps, with `body` after its first paragraph.
fn article(body: &str) -> String {
    format!(
        "<article><h1>Heading here</h1><p>Paragraph long enough to be kept as the content of \
         the article by the model.</p>{body}</article>"
    )
}

/// `mainline filter` with `args` on `html` from standard input.
fn filter(args: &[&str], html: &str) -> String {
    let out = mainline()
        .args(["filter"])
        .args(args)
        .write_stdin(html.as_bytes())
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    String::from_utf8(out).expect("UTF-8")
}

/// The Markdown of `--format json --with-markdown`.
fn json_markdown(args: &[&str], html: &str) -> String {
    let mut all = vec!["--format", "json", "--with-markdown"];
    all.extend_from_slice(args);
    let v: serde_json::Value = serde_json::from_str(&filter(&all, html)).expect("JSON");
    v["markdown"]
        .as_str()
        .expect("a markdown field")
        .to_string()
}

fn events(md: &str) -> Vec<Event<'_>> {
    Parser::new_ext(md, pulldown_cmark::Options::ENABLE_TABLES).collect()
}

/// The raw HTML of `md`, as a CommonMark renderer with HTML enabled would pass it on.
fn raw_html(md: &str) -> Vec<String> {
    events(md)
        .into_iter()
        .filter_map(|e| match e {
            Event::Html(h) | Event::InlineHtml(h) => Some(h.to_string()),
            _ => None,
        })
        .collect()
}

/// The texts of the code blocks of `md`.
fn code_blocks(md: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur: Option<String> = None;
    for e in events(md) {
        match e {
            Event::Start(Tag::CodeBlock(_)) => cur = Some(String::new()),
            Event::Text(t) => {
                if let Some(c) = &mut cur {
                    c.push_str(&t);
                }
            }
            Event::End(TagEnd::CodeBlock) => out.extend(cur.take()),
            _ => {}
        }
    }
    out
}

/// The destinations of the links and images of `md`.
fn targets(md: &str) -> Vec<String> {
    events(md)
        .into_iter()
        .filter_map(|e| match e {
            Event::Start(Tag::Link { dest_url, .. } | Tag::Image { dest_url, .. }) => {
                Some(dest_url.to_string())
            }
            _ => None,
        })
        .collect()
}

// ---- 1. a <pre> cannot break its fence -------------------------------------------------

#[test]
fn a_pre_holding_three_backticks_stays_in_its_fence() {
    let html = article("<pre>```\n&lt;img src=x onerror=alert(1)&gt;\n</pre>");
    for md in [
        filter(&["--format", "markdown"], &html),
        json_markdown(&[], &html),
    ] {
        assert_eq!(raw_html(&md), Vec::<String>::new(), "{md}");
        assert_eq!(
            code_blocks(&md),
            ["```\n<img src=x onerror=alert(1)>\n"],
            "{md}"
        );
    }
}

#[test]
fn a_fence_outlasts_longer_runs_and_runs_inside_lines() {
    let html = article(
        "<pre>a ``````` b\n`````\n<b>x</b>\n</pre><p>After the code block, a paragraph long enough to keep.</p>",
    );
    let md = filter(&["--format", "markdown"], &html);
    assert_eq!(code_blocks(&md), ["a ``````` b\n`````\nx\n"], "{md}");
    assert!(md.contains("\n````````\na ``````` b\n"), "{md}");
}

// ---- 2. alt text and link text are inline ------------------------------------------------

#[test]
fn a_newline_in_alt_text_writes_no_heading_and_splits_no_row() {
    let html = article(
        "<p>A picture of the thing, <img alt=\"x\n# Injected\" src=a.png> described at length \
         here.</p>",
    );
    let md = filter(&["--format", "markdown", "--images"], &html);
    let headings = events(&md)
        .iter()
        .filter(|e| matches!(e, Event::Start(Tag::Heading { .. })))
        .count();
    assert_eq!(headings, 1, "only the headline: {md}");
    assert!(md.contains("![x # Injected](a.png)"), "{md}");

    let table = "<table><tr><th>Name</th><th>Value</th></tr><tr><td>pic <img alt=\"a\n| b | c\" \
                 src=p.png></td><td>one</td></tr></table>";
    let mut s = Splitter::new().with_structure(true);
    s.write(table.as_bytes()).unwrap();
    s.end().unwrap();
    let lines: Vec<_> = std::iter::from_fn(|| s.next_line()).collect();
    let opts = Options {
        images: true,
        ..Options::default()
    };
    let (md, _) = oracle::render(&lines, opts);
    let cells = events(&md)
        .iter()
        .filter(|e| matches!(e, Event::Start(Tag::TableCell)))
        .count();
    assert_eq!(cells, 4, "{md}");
    assert!(md.contains("![a \\| b \\| c](p.png)"), "{md}");
}

// ---- 3. only URLs of the allow-list ----------------------------------------------------

#[test]
fn script_and_data_urls_are_dropped_from_links_and_images() {
    let html = article(
        "<p>Links to follow in this paragraph: <a href=\"java&#9;script:alert(1)\">tab</a>, \
         <a href=\"java&#10;script:alert(2)\">newline</a>, <a href=\"&#1;javascript:x\">control</a>, \
         <a href=\"data:text/html,<script>alert(3)</script>\">data</a>, \
         <a href=\"VBScript:msgbox(4)\">vb</a>, <a href=\"https://ok.example/\">fine</a>, \
         <a href=\"mailto:me@ok.example\">mail</a>, and pictures <img src=\"javascript:alert(5)\" alt=js> \
         <img src=\"data:text/html,x\" alt=html> <img src=\"data:image/png;base64,AAAA\" alt=png> \
         <img src=\"mailto:me@ok.example\" alt=mail> <img src=\"/rel.png\" alt=rel> seen.</p>",
    );
    let args = ["--format", "markdown", "--links", "--images"];
    for md in [filter(&args, &html), json_markdown(&args[2..], &html)] {
        assert_eq!(
            targets(&md),
            [
                "https://ok.example/",
                "mailto:me@ok.example",
                "data:image/png;base64,AAAA",
                "/rel.png"
            ],
            "{md}"
        );
        assert!(md.contains("tab, newline, control, data, vb,"), "{md}");
    }
}

#[test]
fn a_base_href_with_a_script_scheme_does_not_capture_relative_links() {
    let html = format!(
        "<head><base href=\"javascript:alert(1)//\"></head><body>{}</body>",
        article("<p>A relative link to <a href=\"page.html\">another page</a> of this site.</p>")
    );
    let md = filter(&["--format", "markdown", "--links"], &html);
    assert_eq!(targets(&md), ["page.html"], "{md}");
    let md = filter(
        &[
            "--format",
            "markdown",
            "--links",
            "--url",
            "https://site.example/a/",
        ],
        &html,
    );
    assert_eq!(targets(&md), ["https://site.example/a/page.html"], "{md}");
}

// ---- 4. the space after an image -------------------------------------------------------

#[test]
fn the_space_after_an_image_is_kept() {
    let html = article(
        "<p>A picture <img alt=pic src=a.png> here, and one <img alt=two src=b.png>\nthere, then the end of the paragraph.</p>",
    );
    let md = filter(&["--format", "markdown", "--images"], &html);
    assert!(
        md.contains("A picture ![pic](a.png) here, and one ![two](b.png) there"),
        "{md}"
    );
}

// ---- the property: any page -----------------------------------------------------------

/// Text with what Markdown reads as syntax, white space of every kind included.
fn text() -> impl Strategy<Value = String> {
    proptest::collection::vec(
        prop_oneof![
            Just("`"),
            Just("```"),
            Just("~~~"),
            Just("*"),
            Just("_"),
            Just("#"),
            Just("# "),
            Just("-"),
            Just("- "),
            Just("+ "),
            Just("1. "),
            Just("9)"),
            Just(">"),
            Just("|"),
            Just("["),
            Just("]"),
            Just("!"),
            Just("("),
            Just(")"),
            Just("\\"),
            Just("&amp;"),
            Just("&lt;"),
            Just("&lt;img src=x&gt;"),
            Just("&#60;b&#62;"),
            Just("&amp;lt;"),
            Just("&amp;#58;"),
            Just(":"),
            Just("="),
            Just("---"),
            Just("    "),
            Just("\t"),
            Just("\n"),
            Just("\n\n"),
            Just(" "),
            Just("&nbsp;"),
            Just("word"),
            Just("x"),
            Just("javascript:"),
            Just("http://e.org/"),
            Just("<!--c-->"),
            Just("é"),
        ],
        0..8,
    )
    .prop_map(|v| v.concat())
}

/// An attribute value: URLs of every scheme, with the characters that hide one.
fn url() -> impl Strategy<Value = String> {
    proptest::collection::vec(
        prop_oneof![
            Just("java"),
            Just("script:"),
            Just("&#9;"),
            Just("&#10;"),
            Just("&#13;"),
            Just("&#1;"),
            Just(" "),
            Just("javascript:alert(1)"),
            Just("data:"),
            Just("image/png,"),
            Just("text/html,"),
            Just("vbscript:"),
            Just("mailto:"),
            Just("http://"),
            Just("https://e.org/"),
            Just("/"),
            Just("#"),
            Just("a"),
            Just("("),
            Just(")"),
            Just("<"),
            Just(">"),
            Just("\\"),
            Just("&amp;"),
            Just("&amp;#58;"),
            Just("\n"),
            Just("%"),
            Just("`"),
        ],
        0..6,
    )
    .prop_map(|v| v.concat().replace('"', "&quot;"))
}

/// A page fragment.
fn fragment() -> impl Strategy<Value = String> {
    let leaf = prop_oneof![
        text(),
        url().prop_flat_map(|src| text().prop_map(move |alt| format!(
            "<img src=\"{src}\" alt=\"{}\">",
            alt.replace('"', "&quot;")
        ))),
        Just("<br>".to_string()),
    ];
    leaf.prop_recursive(4, 48, 6, |inner| {
        let kids = proptest::collection::vec(inner, 0..4).prop_map(|v| v.concat());
        prop_oneof![
            (
                prop_oneof![
                    Just("p"),
                    Just("div"),
                    Just("li"),
                    Just("ul"),
                    Just("ol"),
                    Just("pre"),
                    Just("code"),
                    Just("em"),
                    Just("strong"),
                    Just("blockquote"),
                    Just("table"),
                    Just("tr"),
                    Just("td"),
                    Just("th"),
                    Just("h2"),
                    Just("dd"),
                ],
                kids.clone()
            )
                .prop_map(|(t, k)| format!("<{t}>{k}</{t}>")),
            (url(), kids.clone()).prop_map(|(u, k)| format!("<a href=\"{u}\">{k}</a>")),
            (0u32..12, kids).prop_map(|(n, k)| format!("<ol start={n}><li>{k}</ol>")),
        ]
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    #[test]
    fn markdown_of_any_page_is_safe(
        page in proptest::collection::vec(fragment(), 1..5),
        links in any::<bool>(),
        images in any::<bool>(),
        base in any::<bool>(),
        keep in any::<u64>(),
    ) {
        let page = page.concat();
        let mut s = Splitter::new().with_structure(true);
        s.write(page.as_bytes()).unwrap();
        s.end().unwrap();
        // All lines, or a pattern of them (as the model drops lines).
        let lines: Vec<_> = std::iter::from_fn(|| s.next_line())
            .enumerate()
            .filter(|(i, _)| keep == 0 || keep >> (i % 64) & 1 == 1)
            .map(|(_, l)| l)
            .collect();
        let opts = Options {
            links,
            images,
            base: base.then(|| "https://e.org/dir/".to_string()),
        };
        let (md, pres) = oracle::render(&lines, opts);
        if let Err(e) = oracle::check(&md, &pres) {
            return Err(TestCaseError::fail(format!("{e}\npage: {page:?}\nmarkdown:\n{md}")));
        }
    }
}

/// Renders a fuzz finding (`tests/regressions/NAME`, an input of the fuzz target) and
/// applies the fuzz target's checks.
fn fuzz_finding(name: &str) {
    let data = std::fs::read(format!(
        "{}/tests/regressions/{name}",
        concat!(env!("CARGO_MANIFEST_DIR"), "/..")
    ))
    .unwrap();
    let (lines, opts) = oracle::fuzz_case(&data).expect("the page splits");
    let (md, pres) = oracle::render(&lines, opts);
    oracle::check(&md, &pres)
        .map_err(|e| format!("{e}\n{md}"))
        .unwrap();
}

/// The fuzz target's first finding: an `<li>` inside a `<pre>` ends the item holding the
/// block, but the text after it is still kept as in `<pre>`, and a tab at the start of an
/// item's line made an indented code block of it.
#[test]
fn fuzz_text_kept_as_in_a_pre_outside_its_block_is_not_code() {
    fuzz_finding("markdown_render-tab-after-pre.bin");
}

/// A list nested in an item that starts at 10 (`<ol start=10>`) cannot interrupt the
/// item's text in CommonMark: without a blank line before it, it was read on with that
/// text, and the next line of the item became an indented code block.
#[test]
fn fuzz_a_nested_list_starting_at_ten_is_a_list() {
    fuzz_finding("markdown_render-nested-list-at-ten.bin");
}

#[test]
fn a_nested_list_starting_past_one_follows_a_blank_line() {
    let html = article(
        "<ul><li>Steps to take first<ol start=\"3\"><li>Third step</li><li>Fourth step</li>\
         </ol></li></ul><p>More text after the list, long enough to be kept.</p>",
    );
    let md = filter(&["--format", "markdown"], &html);
    assert!(
        md.contains("- Steps to take first\n\n  3. Third step\n  4. Fourth step"),
        "{md}"
    );
}

/// An `<a>` inside an `<a>` (HTML's parser would close the first; the splitter keeps both)
/// was written as a link inside a link's text, which CommonMark does not read as links: the
/// outer link's destination, written `<…>` for its spaces, came out as a raw HTML tag.
#[test]
fn fuzz_a_link_inside_a_link_is_not_raw_html() {
    fuzz_finding("markdown_render-link-in-link.bin");
}

#[test]
fn a_link_inside_a_link_keeps_the_outer_one_and_its_destination_is_text() {
    let html = article(
        "<p>Read <a href=\"x y (1).html\">the <a href=\"/inner\">inner</a> part</a> of the \
         story, in a paragraph long enough to be kept by the model.</p>",
    );
    let md = filter(&["--format", "markdown", "--links"], &html);
    assert!(
        md.contains("[the inner part](x%20y%20\\(1\\).html)"),
        "{md}"
    );
    assert!(raw_html(&md).is_empty(), "{md}");
}
