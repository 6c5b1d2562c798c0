use super::*;
use crate::lines::Splitter;

/// Every line of `html`, rendered.
fn md(html: &str, opts: Options) -> String {
    md_kept(html, opts, |_| true)
}

/// The lines of `html` for which `keep` holds, rendered.
fn md_kept(html: &str, opts: Options, keep: impl Fn(&Line) -> bool) -> String {
    let mut s = Splitter::new().with_structure(true);
    s.write(html.as_bytes()).unwrap();
    s.end().unwrap();
    let mut out = String::new();
    let mut r = Renderer::new(opts);
    while let Some(line) = s.next_line() {
        if keep(&line) {
            r.push(&line, &mut out);
        }
    }
    r.finish(&mut out);
    out
}

#[test]
fn headings_and_paragraphs_are_separated_by_blank_lines() {
    assert_eq!(
        md(
            "<h1>Title</h1><p>One<br>two</p><p>Three</p><h3>Sub</h3>",
            Options::default()
        ),
        "# Title\n\nOne\ntwo\n\nThree\n\n### Sub\n"
    );
}

/// A nested list numbered from 9 follows a blank line: CommonMark would read it on as the
/// text of `a2` otherwise.
#[test]
fn nested_and_ordered_lists() {
    let html = "<ul><li>a<ul><li>a1</li><li>a2<ol start=9><li>x</li><li>y</ol></li></ul></li><li>b</li></ul>\
                <ol><li>one<li>two<li value=7>seven<li>eight</ol>";
    assert_eq!(
        md(html, Options::default()),
        "- a\n  - a1\n  - a2\n\n    9. x\n    10. y\n- b\n\n1. one\n2. two\n7. seven\n8. eight\n"
    );
}

#[test]
fn a_list_item_with_two_paragraphs_keeps_the_second_under_it() {
    assert_eq!(
        md(
            "<ol><li><p>first</p><p>more</p></li><li>next</li></ol>",
            Options::default()
        ),
        "1. first\n\n   more\n2. next\n"
    );
}

#[test]
fn tables_have_a_header_row_and_escaped_pipes() {
    let html = "<table><thead><tr><th>Name</th><th>Value</th></tr></thead>\
                <tbody><tr><td>a|b</td><td>1<br>2</td></tr><tr><td>c</td><td><code>x|y</code></td></tr></tbody></table>";
    assert_eq!(
        md(html, Options::default()),
        "| Name | Value |\n| --- | --- |\n| a\\|b | 1 2 |\n| c | `x\\|y` |\n"
    );
}

#[test]
fn a_partly_dropped_table_keeps_its_shape() {
    let html = "<table><tr><td>r0c0</td><td>r0c1</td><td>r0c2</td></tr>\
                <tr><td>r1c0</td><td>drop</td><td>r1c2</td></tr><tr><td>drop</td><td>drop</td><td>drop</td></tr></table><p>after</p>";
    assert_eq!(
        md_kept(html, Options::default(), |l| l.text != "drop"),
        "|  |  |  |\n| --- | --- | --- |\n| r0c0 | r0c1 | r0c2 |\n| r1c0 |  | r1c2 |\n\nafter\n"
    );
}

#[test]
fn pre_keeps_blank_lines_indentation_and_highlighted_spans() {
    let html = "<pre><code class=\"language-rust\">fn main() {\n    <span class=k>let</span> x = <span class=s>\"a\nb\"</span>;\n\n\n    x\n}</code></pre><p>after</p>";
    assert_eq!(
        md(html, Options::default()),
        "```rust\nfn main() {\n    let x = \"a\nb\";\n\n\n    x\n}\n```\n\nafter\n"
    );
}

#[test]
fn quotes_are_prefixed() {
    assert_eq!(
        md(
            "<p>before</p><blockquote><p>one</p><p>two</p></blockquote>",
            Options::default()
        ),
        "before\n\n> one\n>\n> two\n"
    );
}

#[test]
fn text_that_reads_as_markdown_is_escaped() {
    let html = "<p># not a heading</p><p>1. not a list</p><p>- nor this</p><p>a *b* _c_ [d] `e` &lt;img&gt; &amp;amp;</p>";
    assert_eq!(
        md(html, Options::default()),
        "\\# not a heading\n\n1\\. not a list\n\n\\- nor this\n\na \\*b\\* \\_c\\_ \\[d\\] \\`e\\` \\<img> \\&amp;\n"
    );
}

#[test]
fn inline_code_emphasis_links_and_images() {
    let html = "<base href=https://ex.org/docs/><p>Run <code>a`b</code> <em>now</em>, <strong>see <a href=../x.html>the <i>guide</i></a></strong> \
                <img src=/i.png alt=pic> <a href=#top>top</a></p>";
    assert_eq!(
        md(html, Options::default()),
        "Run ``a`b`` *now*, **see the *guide*** top\n"
    );
    let opts = Options {
        links: true,
        images: true,
        base: Some("https://ex.org/docs/".into()),
    };
    assert_eq!(
        md(html, opts),
        "Run ``a`b`` *now*, **see [the *guide*](https://ex.org/x.html)** ![pic](https://ex.org/i.png) top\n"
    );
}

/// Words as the WCXB scorer counts them: lower-cased runs of word characters.
fn words(s: &str) -> Vec<String> {
    let mut w: Vec<String> = s
        .split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect();
    w.sort();
    w
}

#[test]
fn the_words_of_the_sample_pages_survive_rendering() {
    for entry in std::fs::read_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/data/samples")).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "html") {
            continue;
        }
        let html = std::fs::read(&path).unwrap();
        let mut s = Splitter::new().with_structure(true);
        s.write(&html).unwrap();
        s.end().unwrap();
        let lines: Vec<Line> = std::iter::from_fn(|| s.next_line()).collect();
        for opts in [
            Options::default(),
            Options {
                links: true,
                ..Options::default()
            },
        ] {
            let mut out = String::new();
            let mut r = Renderer::new(opts);
            let mut text = String::new();
            for (i, line) in lines.iter().enumerate() {
                if i % 3 != 1 {
                    r.push(line, &mut out);
                    text.push_str(&line.text);
                    text.push('\n');
                }
            }
            r.finish(&mut out);
            assert_eq!(words(&strip(&out)), words(&text), "{}", path.display());
        }
    }
}

mod properties {
    use super::*;
    use proptest::prelude::*;

    /// Small documents of the structures the renderer knows, with text that looks like
    /// Markdown syntax.
    fn doc() -> impl Strategy<Value = String> {
        let word = prop_oneof![
            "[a-z]{1,6}",
            Just("*".to_string()),
            Just("_x_".to_string()),
            Just("#".to_string()),
            Just("1.".to_string()),
            Just("`".to_string()),
            Just("[a]".to_string()),
            Just("|".to_string()),
            Just("-".to_string()),
            Just("&amp;".to_string()),
            Just("\\".to_string()),
        ];
        let text = prop::collection::vec(word, 1..5).prop_map(|w| w.join(" "));
        let open = prop_oneof![
            Just("<p>"),
            Just("<h2>"),
            Just("<ul><li>"),
            Just("<ol><li>"),
            Just("<li>"),
            Just("<table><tr><td>"),
            Just("<td>"),
            Just("<tr><th>"),
            Just("<pre>"),
            Just("<blockquote>"),
            Just("<em>"),
            Just("<code>"),
            Just("<a href=/x>"),
            Just("<br>"),
            Just("</li></ul>"),
            Just("</table>"),
            Just("</pre>"),
            Just("</em>"),
            Just("</code>"),
            Just("</a>"),
            Just("\n\n"),
        ];
        prop::collection::vec((open, text), 1..12)
            .prop_map(|v| v.into_iter().map(|(o, t)| format!("{o}{t}")).collect())
    }

    proptest! {
        #[test]
        fn markdown_words_are_text_words(html in doc(), drop in 0usize..4, links: bool) {
            let mut s = Splitter::new().with_structure(true);
            s.write(html.as_bytes()).unwrap();
            s.end().unwrap();
            let mut out = String::new();
            let mut text = String::new();
            let mut r = Renderer::new(Options { links, ..Options::default() });
            let mut i = 0;
            while let Some(line) = s.next_line() {
                i += 1;
                if drop == 0 || i % (drop + 1) != 0 {
                    r.push(&line, &mut out);
                    text.push_str(&line.text);
                    text.push('\n');
                }
            }
            r.finish(&mut out);
            prop_assert_eq!(words(&strip(&out)), words(&text), "markdown:\n{}", out);
        }
    }
}

#[test]
fn structure_changes_nothing_else_and_does_not_depend_on_chunking() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/data/samples");
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "html") {
            continue;
        }
        let html = std::fs::read(&path).unwrap();
        let split = |structure: bool, chunk: usize| {
            let mut s = Splitter::new().with_structure(structure);
            for piece in html.chunks(chunk) {
                s.write(piece).unwrap();
            }
            s.end().unwrap();
            std::iter::from_fn(|| s.next_line()).collect::<Vec<Line>>()
        };
        let plain = split(false, html.len().max(1));
        let whole = split(true, html.len().max(1));
        let stripped: Vec<Line> = whole
            .iter()
            .cloned()
            .map(|mut l| {
                l.structure = None;
                l
            })
            .collect();
        assert_eq!(stripped, plain, "{}", path.display());
        for chunk in [1, 7, 4096] {
            assert_eq!(
                split(true, chunk),
                whole,
                "{} in pieces of {chunk}",
                path.display()
            );
        }
    }
}

fn with_links() -> Options {
    Options {
        links: true,
        images: true,
        base: None,
    }
}

#[test]
fn a_fence_is_longer_than_any_backtick_run_in_the_pre() {
    let out = md(
        "<pre>a\n```\n&lt;img src=x&gt;\n`````x</pre>",
        Options::default(),
    );
    assert_eq!(out, "``````\na\n```\n<img src=x>\n`````x\n``````\n");
    assert_eq!(
        md("<pre>a `b`</pre>", Options::default()),
        "```\na `b`\n```\n"
    );
}

#[test]
fn alt_text_is_one_line_of_escaped_text() {
    let out = md(
        "<p>a <img alt=\"x\n# Injected *b*\" src=p.png></p>",
        with_links(),
    );
    assert_eq!(out, "a ![x # Injected \\*b\\*](p.png)\n");
}

#[test]
fn urls_outside_the_allow_list_are_dropped() {
    let html = "<p><a href=\"java&#9;script:alert(1)\">t</a> <a href=\"java&#10;script:x\">n</a> \
                <a href=\" VBScript:x\">v</a> <a href=\"data:text/html,x\">d</a> \
                <a href=\"mailto:a@b.org\">m</a> <a href=\"ht&#9;tps://e.org/a b\">h</a> \
                <img src=\"javascript:x\" alt=j> <img src=\"data:image/png;base64,AA\" alt=i> \
                <img src=\"data:text/html,x\" alt=k> <img src=\"mailto:a@b.org\" alt=l></p>";
    assert_eq!(
        md(html, with_links()),
        "t n v d [m](mailto:a@b.org) [h](https://e.org/a%20b) ![i](data:image/png;base64,AA)\n"
    );
}

#[test]
fn a_base_with_a_script_scheme_is_not_used() {
    assert_eq!(base_url(None, Some("javascript:alert(1)//")), None);
    assert_eq!(
        base_url(Some("https://e.org/a/"), Some("java\tscript:x/")).as_deref(),
        Some("https://e.org/a/")
    );
    assert_eq!(
        base_url(Some("https://e.org/a/"), Some("/b/")).as_deref(),
        Some("https://e.org/b/")
    );
}

#[test]
fn destinations_escape_what_commonmark_would_decode() {
    let html = "<p><a href=\"a&amp;lt;b\\c&amp;d\">x</a></p>";
    assert_eq!(md(html, with_links()), "[x](a\\&lt;b\\\\c\\&d)\n");
}

#[test]
fn a_link_after_an_exclamation_mark_stays_a_link() {
    assert_eq!(
        md("<p>Wow!<a href=https://e.org/>x</a></p>", with_links()),
        "Wow\\![x](https://e.org/)\n"
    );
}

#[test]
fn the_space_after_an_image_is_kept() {
    let opts = with_links();
    assert_eq!(
        md("<p>a <img src=p.png alt=p> b</p>", opts.clone()),
        "a ![p](p.png) b\n"
    );
    assert_eq!(
        md("<p>a <img src=p.png alt=p>b</p>", opts.clone()),
        "a ![p](p.png)b\n"
    );
    assert_eq!(
        md("<p>a<img src=p.png alt=p> b</p>", opts.clone()),
        "a![p](p.png) b\n"
    );
    assert_eq!(
        md("<p><img src=p.png alt=p> b</p>", opts),
        "![p](p.png) b\n"
    );
}

#[test]
fn text_kept_as_in_a_pre_outside_its_block_is_not_indented() {
    // `<li>` ends the item holding the `<pre>` but not the splitter's `<pre>` text mode.
    let out = md(
        "<ul><li><pre>a</pre><li><pre>x\n<li>\tcode-like</ul>",
        Options::default(),
    );
    assert!(!out.contains("\n  \t") && !out.contains("\n\t"), "{out:?}");
}
