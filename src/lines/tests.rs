use std::sync::Arc;

use super::elements::style_hides;
use super::tokenizer::Limits;
use super::*;
use crate::Error;
use crate::input::PRESCAN_BYTES;

fn texts(html: &str) -> Vec<String> {
    split(html.as_bytes())
        .unwrap()
        .into_iter()
        .map(|l| l.text)
        .collect()
}

/// `html` after a KiB-long head that declares UTF-8: the splitter holds input back until it
/// knows the encoding (else for 64 KiB), so only then do the pieces of a short page reach
/// the tokenizer as written.
fn declared(html: &str) -> String {
    let head = "<meta charset=utf-8><!--";
    format!("{head}{}-->{html}", " ".repeat(PRESCAN_BYTES - head.len()))
}

/// Feeds `piece` to `s` and checks that, once the encoding is known, it reaches the
/// tokenizer at once (for pages in an ASCII-compatible encoding).
fn write_checked(s: &mut Splitter, piece: &[u8], written: &mut u64) {
    s.write(piece).unwrap();
    *written += piece.len() as u64;
    if *written >= PRESCAN_BYTES as u64
        && s.encoding()
            .is_some_and(|e| e.encoding.is_ascii_compatible())
    {
        assert_eq!(
            s.input_bytes(),
            *written,
            "every piece reaches the tokenizer"
        );
    }
}

/// Splits `html` fed in pieces of `chunk` bytes; returns the lines and trailing bytes.
fn split_chunked(html: &[u8], chunk: usize) -> (Vec<Line>, u64) {
    let mut s = Splitter::new();
    let mut lines = Vec::new();
    let mut written = 0;
    for piece in html.chunks(chunk.max(1)) {
        write_checked(&mut s, piece, &mut written);
        lines.extend(std::iter::from_fn(|| s.next_line()));
    }
    s.end().unwrap();
    lines.extend(std::iter::from_fn(|| s.next_line()));
    (lines, s.trailing_bytes())
}

#[test]
fn block_elements_and_br_break_lines_but_inline_elements_do_not() {
    assert_eq!(
        texts("<div>one <b>bold</b> two<p>three<br>four</p><span>five</span></div>"),
        ["one bold two", "three", "four", "five"]
    );
}

#[test]
fn character_references_are_decoded_including_legacy_forms() {
    assert_eq!(
        texts(
            "<p>a &amp; b &lt;c&gt; &eacute;t&eacute; &#8364;5 &#x41; &nbsp x &copy 2024 &#150;</p>"
        ),
        ["a & b <c> été €5 A x © 2024 –"]
    );
}

#[test]
fn scripts_styles_comments_and_title_never_become_text() {
    let html = "<html><head><title>T</title><style>p{}</style></head><body>\
        <script>var x = '<p>no</p>';</script><!-- hidden -->\
        <template><p>tpl</p></template><svg><text>s</text></svg><p>yes</p></body></html>";
    assert_eq!(texts(html), ["yes"]);
}

#[test]
fn noscript_is_read_as_markup_as_with_scripting_disabled() {
    // A Discourse thread: the posts are fallback content for readers without scripts.
    let html = "<body><div id=app></div><noscript data-path=/t/1>\
        <div class=post><p>First post, <b>bold</b> &amp; long.</p></div>\
        <div class=post><p>A reply &lt;here&gt;.</p><script>no()</script></div></noscript>\
        <p>after</p><noscript><img src=pixel.gif></noscript>x</body>";
    assert_eq!(
        texts(html),
        ["First post, bold & long.", "A reply <here>.", "after", "x"]
    );
    let lines = split(html.as_bytes()).unwrap();
    // Paragraph, post, noscript: two posts in one noscript element.
    assert_ne!(lines[0].path[1], lines[1].path[1]);
    assert_eq!(lines[0].path[2], lines[1].path[2]);
    assert_ne!(lines[0].path[2], lines[2].path[1]);
    // In the head too (HTML's "in head noscript" rules with scripting disabled: a `<p>`
    // there ends the head, and its text is the body's).
    assert!(texts("<head><noscript><p>h</p></noscript></head><p>b</p>") == ["h", "b"]);
    assert!(texts("<head><noscript><link rel=x></noscript></head><p>b</p>") == ["b"]);
}

#[test]
fn whitespace_collapses_outside_pre_and_pre_keeps_each_source_line() {
    assert_eq!(
        texts("<p>  a \n\t b  </p><pre>x  = 1\n  y = 2\r\nz</pre>"),
        ["a b", "x  = 1", "  y = 2", "z"]
    );
}

#[test]
fn link_bytes_count_text_inside_anchors() {
    let lines = split(b"<p>read <a href='/x'>more here</a></p>").unwrap();
    assert_eq!(lines[0].text, "read more here");
    assert_eq!(lines[0].link_bytes, 9);
    assert!((lines[0].link_density() - 9.0 / 14.0).abs() < 1e-9);
}

#[test]
fn context_flags_and_hints_follow_the_open_elements() {
    let html = "<header><nav class='menu'><a>Home</a></nav></header>\
        <main><article class='post-content'><h2>Title</h2><p>Body</p></article></main>\
        <aside id=sidebar><p>Side</p></aside><footer>Foot</footer><p>after</p>";
    let lines = split(html.as_bytes()).unwrap();
    let by = |t: &str| lines.iter().find(|l| l.text == t).unwrap().clone();
    assert!(by("Home").within(ctx::NAV) && by("Home").within(ctx::HEADER));
    assert_ne!(by("Home").hints & hint::NAV, 0);
    assert_eq!(by("Home").ancestors, [Arc::from("nav.menu")]);
    assert_eq!(by("Title").heading, 2);
    assert_eq!(by("Title").block, Block::Heading);
    assert!(by("Body").within(ctx::ARTICLE));
    assert_ne!(by("Body").hints & hint::CONTENT, 0);
    assert_eq!(by("Body").block, Block::P);
    assert!(by("Side").within(ctx::ASIDE));
    assert_ne!(by("Side").hints & hint::SIDE, 0);
    assert!(by("Foot").within(ctx::FOOTER));
    let after = by("after");
    assert_eq!(after.context, 0, "context ends with its element");
    assert_eq!(after.hints, 0);
}

#[test]
fn role_attributes_put_lines_in_their_regions_until_the_element_ends() {
    let html = "<div role=navigation><a>Home</a></div><div role='banner'><p>Banner</p></div>\
        <div role=main><p>Body</p></div><div role=\"complementary menu\"><p>Side</p></div>\
        <div role=contentinfo><p>Foot</p></div><div role=ARTICLE><p>Story</p></div>\
        <div role=presentation><p>after</p></div>";
    let lines = split(html.as_bytes()).unwrap();
    let by = |t: &str| lines.iter().find(|l| l.text == t).unwrap().context;
    assert_eq!(by("Home"), ctx::NAV | ctx::LINK);
    assert_eq!(by("Banner"), ctx::HEADER);
    assert_eq!(by("Body"), ctx::ARTICLE);
    assert_eq!(by("Side"), ctx::ASIDE | ctx::MENU);
    assert_eq!(by("Foot"), ctx::FOOTER);
    assert_eq!(by("Story"), ctx::ARTICLE);
    assert_eq!(by("after"), 0);
}

#[test]
fn unclosed_list_items_and_paragraphs_do_not_nest_forever() {
    let html = "<ul><li>a<li>b<li>c</ul><p>x<p>y<p>z";
    let lines = split(html.as_bytes()).unwrap();
    let depths: Vec<u32> = lines.iter().map(|l| l.depth).collect();
    assert_eq!(depths[0], depths[1]);
    assert_eq!(depths[1], depths[2]);
    assert_eq!(depths[3], depths[4]);
    assert_eq!(depths[4], depths[5]);
}

#[test]
fn byte_accounting_sums_to_the_input_length() {
    let html = "<!doctype html><html><head><title>x</title><script>1</script></head>\
        <body><div class=a><p>Hello <a href=#>world</a></p>\n<!-- c --><ul><li>one<li>two</ul>\
        <pre>l1\nl2</pre>tail text</div></body></html>\n";
    let html = &declared(html);
    for chunk in [1, 7, 64 * 1024] {
        let (lines, trailing) = split_chunked(html.as_bytes(), chunk);
        let sum: u64 = lines.iter().map(|l| l.html_bytes).sum();
        assert_eq!(sum + trailing, html.len() as u64, "chunk {chunk}");
        // Lines are contiguous.
        let mut at = 0;
        for l in &lines {
            assert_eq!(l.start, at);
            at += l.html_bytes;
        }
    }
}

#[test]
fn a_line_ends_where_the_breaking_tag_starts() {
    let html = "<p>ab</p><p>cd</p>";
    let lines = split(html.as_bytes()).unwrap();
    assert_eq!(lines[0].html_bytes, "<p>ab".len() as u64);
    assert_eq!(lines[1].html_bytes, "</p><p>cd".len() as u64);
    assert!((lines[0].density() - 2.0 / 5.0).abs() < 1e-9);
}

#[test]
fn chunking_never_changes_lines() {
    let html = "<p>caf\u{e9} &amp;&eacute;&#x20AC; ok</p><pre>a\r\nb</pre><div>\u{4e2d}\u{6587} text</div>"
        .repeat(50);
    let html = declared(&html);
    let (whole, t1) = split_chunked(html.as_bytes(), usize::MAX);
    for chunk in [1, 2, 3, 7, 13, 64 * 1024] {
        let (lines, t2) = split_chunked(html.as_bytes(), chunk);
        assert_eq!(lines, whole, "chunk {chunk}");
        assert_eq!(t1, t2);
    }
}

/// A numeric character reference takes all its digits, however many (HTML's rule), and
/// decodes the same whatever the chunking: a piece may end anywhere in a long run of
/// digits, leading zeros included.
#[test]
fn long_numeric_references_decode_the_same_in_any_chunking() {
    let zeros = "0".repeat(60);
    let ones = "1".repeat(90);
    let html = declared(&format!(
        "<p>a &#{ones}; b &#{zeros}65; c &#x{zeros}41 d &#X{ones}; e &#{zeros}; f &#{zeros}</p>"
    ));
    let (whole, t1) = split_chunked(html.as_bytes(), usize::MAX);
    let texts: Vec<&str> = whole.iter().map(|l| l.text.as_str()).collect();
    assert_eq!(
        texts,
        ["a \u{fffd} b A c A d \u{fffd} e \u{fffd} f \u{fffd}"]
    );
    for chunk in 1..=97 {
        let (lines, t2) = split_chunked(html.as_bytes(), chunk);
        assert_eq!(lines, whole, "chunk {chunk}");
        assert_eq!(t1, t2);
    }
}

/// A long text node comes out a capped line at a time while it streams, also after an
/// ampersand: only a possible character reference near the end of what has arrived is held
/// back, not all the text after the last `&`.
#[test]
fn a_long_text_node_after_an_ampersand_comes_out_while_it_streams() {
    for start in [
        "<p>fish & chips ",
        "<p>fish &amp; chips ",
        "<p>fish &amp chips ",
    ] {
        let mut s = Splitter::new();
        s.write(declared(start).as_bytes()).unwrap();
        let piece = "lorem ipsum ".repeat(64 * 1024 / 12);
        let mut lines = Vec::new();
        let mut written = 0;
        while written < 3 * MAX_LINE_BYTES {
            s.write(piece.as_bytes()).unwrap();
            written += piece.len();
            lines.extend(std::iter::from_fn(|| s.next_line()));
        }
        // Before the end: every full line of the text node so far.
        assert!(
            lines.len() >= 2,
            "{start}: {} lines before the end",
            lines.len()
        );
        assert!(lines[0].text.starts_with("fish & chips lorem"), "{start}");
        assert!(lines.iter().all(|l| l.text.len() <= MAX_LINE_BYTES));
    }
}

#[test]
fn very_long_text_is_split_at_the_line_cap() {
    let word = "lorem ipsum ";
    let n = MAX_LINE_BYTES * 2 / word.len() + 10;
    let html = format!("<p>{}</p>", word.repeat(n));
    let (lines, trailing) = split_chunked(html.as_bytes(), 65536);
    assert!(lines.len() >= 3);
    assert!(lines.iter().all(|l| l.text.len() <= MAX_LINE_BYTES));
    let sum: u64 = lines.iter().map(|l| l.html_bytes).sum();
    assert_eq!(sum + trailing, html.len() as u64);
}

#[test]
fn windows_1252_declared_by_meta_is_decoded() {
    let mut html = b"<html><head><meta http-equiv='Content-Type' content='text/html; charset=windows-1252'></head><body><p>caf".to_vec();
    html.extend_from_slice(b"\xe9 \x93quoted\x94 \x80</p></body></html>");
    let lines = split(&html).unwrap();
    assert_eq!(lines[0].text, "café “quoted” €");
}

#[test]
fn utf16_with_bom_is_transcoded() {
    let text = "<p>héllo wörld</p>";
    let mut bytes = vec![0xff, 0xfe];
    for u in text.encode_utf16() {
        bytes.extend_from_slice(&u.to_le_bytes());
    }
    let lines = split(&bytes).unwrap();
    assert_eq!(lines[0].text, "héllo wörld");
}

#[test]
fn a_utf8_bom_is_not_text() {
    assert_eq!(texts("\u{feff}<p>x</p>"), ["x"]);
}

#[test]
fn empty_input_gives_no_lines() {
    let mut s = Splitter::new();
    s.end().unwrap();
    assert!(s.next_line().is_none());
    assert_eq!(s.trailing_bytes(), 0);
}

#[test]
fn text_without_tags_is_one_line() {
    assert_eq!(
        texts("just some text\nand more"),
        ["just some text and more"]
    );
}

#[test]
fn binary_input_is_rejected() {
    let err = split(b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR").unwrap_err();
    assert!(matches!(err, Error::NotHtml(_)), "{err}");
}

#[test]
fn deep_nesting_is_bounded() {
    let n = 100_000;
    let html = format!("{}deep{}", "<div>".repeat(n), "</div>".repeat(n));
    let lines = split(html.as_bytes()).unwrap();
    assert_eq!(lines.len(), 1);
    assert_eq!(lines[0].text, "deep");
    // Start tags beyond MAX_OPEN_ELEMENTS open ones are not tracked (their text is kept).
    assert_eq!(lines[0].depth as usize, MAX_OPEN_ELEMENTS);
}

#[test]
fn inline_styles_that_hide_are_recognised() {
    assert!(style_hides("color: red; DISPLAY : None"));
    assert!(style_hides("visibility:hidden"));
    assert!(!style_hides("display: block"));
    assert!(!style_hides(""));
    assert!(style_hides("d i s p l a y:\tn o n e"));
    assert!(!style_hides("display:nine; visibility: visible; x:none"));
    assert!(style_hides(&format!(
        "{}; display:none",
        "color:red;".repeat(40)
    )));
    assert!(!style_hides(&format!(
        "{}; display:block",
        "color:red;".repeat(40)
    )));
    assert!(style_hides(&format!(
        "{}visibility:hidden",
        " ".repeat(300)
    )));
}

#[test]
fn long_class_lists_are_cut_in_the_descriptor() {
    let classes = (0..100)
        .map(|i| format!("c{i}"))
        .collect::<Vec<_>>()
        .join(" ");
    let lines = split(format!("<div class='{classes}'>x</div>").as_bytes()).unwrap();
    let d = &lines[0].ancestors[0];
    assert!(d.len() <= MAX_DESCRIPTOR_BYTES + 8, "{d}");
    assert!(d.starts_with("div.c0.c1"));
}

#[test]
fn containers_count_the_lines_inside_them_so_far() {
    let html = "<nav><ul><li><a href=/a>One</a><li><a href=/b>Two</a></ul></nav>\
        <div class=body><p>Alpha beta.</p><p>Gamma.</p></div>";
    let lines = split(html.as_bytes()).unwrap();
    // "Two": its block is the li, the container the ul, the region the nav.
    assert_eq!(
        lines[1].container,
        Totals {
            text_bytes: 6,
            link_bytes: 6,
            lines: 2
        }
    );
    assert_eq!(
        lines[1].region,
        Totals {
            text_bytes: 6,
            link_bytes: 6,
            lines: 2
        }
    );
    // "Gamma.": block p, container the div (both paragraphs so far), no region.
    assert_eq!(
        lines[3].container,
        Totals {
            text_bytes: 17,
            link_bytes: 0,
            lines: 2
        }
    );
    assert_eq!(lines[3].region, Totals::default());
    assert_eq!(lines[1].container.link_density(), 1.0);
}

/// Splits with small limits, in pieces of `chunk` bytes.
fn split_limited(html: &[u8], limits: Limits, chunk: usize) -> (Vec<Line>, u64) {
    let mut s = Splitter::with_limits(limits);
    let mut lines = Vec::new();
    let mut written = 0;
    for piece in html.chunks(chunk.max(1)) {
        write_checked(&mut s, piece, &mut written);
        lines.extend(std::iter::from_fn(|| s.next_line()));
    }
    s.end().unwrap();
    lines.extend(std::iter::from_fn(|| s.next_line()));
    let total: u64 = lines.iter().map(|l| l.html_bytes).sum::<u64>() + s.trailing_bytes();
    assert_eq!(total, html.len() as u64, "byte accounting");
    (lines, s.trailing_bytes())
}

const TINY: Limits = Limits {
    tag_bytes: 8,
    attributes: 2,
    open: 4,
    raw_window: 64,
};

fn texts_limited(html: &str, limits: Limits) -> Vec<String> {
    let (lines, _) = split_limited(html.as_bytes(), limits, 3);
    lines.into_iter().map(|l| l.text).collect()
}

#[test]
fn a_cut_tag_keeps_its_name_and_the_text_after_it() {
    let html =
        "<p>one</p><div title='a long value'>two</div><script src='a long url'>x</script>three";
    assert_eq!(texts_limited(html, TINY), ["one", "two", "three"]);
    let html = "<p>one</p><p a b c d e f>two<!-- a comment that is long -->three";
    assert_eq!(texts_limited(html, TINY), ["one", "twothree"]);
}

#[test]
fn releasing_escaped_script_text_does_not_end_the_script() {
    // With tag_bytes 8 the tokenizer puts a `<` at offset 16, right before "/script>".
    let mut cases: Vec<String> = (8..40)
        .flat_map(|n| {
            let dashes = "-".repeat(n);
            [
                format!("<script><!--{dashes}> x</script> y<p>after"),
                format!("<script><!--<script>{dashes}> x</script> y</script><p>after"),
                format!("<script><!--<script>{dashes}x</script> y</script> z<p>after"),
            ]
        })
        .collect();
    cases.extend(
        [
            "<script><!--abcde/script> text</script><p>after",
            "<script><!--abcdeScript> text</script><p>after",
            "<script><!--<script>abcdefghi/script> x</script> y</script><p>after",
            "<script><!------------------------> x</script><p>after",
            "<script><!--<script>----------------> x</script> y</script><p>after",
            "<script><!---x-x-x-x-x-x-x-x-x-x-x/script>-x-x</script><p>after",
            "<script><!--<script>-x-x-x-x-x-x-x-x-x-x-x/script>-x</script>y</script><p>after",
        ]
        .map(String::from),
    );
    for html in &cases {
        let unlimited = texts(html);
        assert_eq!(
            unlimited.last().map(String::as_str),
            Some("after"),
            "{html}"
        );
        assert_eq!(texts_limited(html, TINY), unlimited, "{html}");
    }
}

#[test]
fn beyond_the_open_element_limit_breaking_tags_still_break_lines() {
    let html = "<div><div><div><div><p>one<p>two<li>three<span>four</span><br>five";
    assert_eq!(
        texts_limited(html, TINY),
        ["one", "two", "threefour", "five"]
    );
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(128))]

    /// With limits small enough that the tokenizer cuts all the time, every byte is still
    /// accounted for and chunking changes nothing.
    #[test]
    fn cuts_keep_accounting_and_chunking_invariance(
        html in "(<[a-z]{1,6}( [a-z]{1,3}(=('[^']{0,12}'|\"[^\"]{0,12}\"|[a-z]{1,8}))?){0,4}/?>|</[a-z]{1,6}>|<!--[^>]{0,20}-->|<script>[^<]{0,30}</script>|<script><!--[a-z<>/ -]{0,30}|[a-z &;<>]{0,20}){0,30}"
    ) {
        let html = declared(&html);
        let (whole, trailing) = split_limited(html.as_bytes(), TINY, usize::MAX);
        for chunk in [1, 7] {
            let (lines, t) = split_limited(html.as_bytes(), TINY, chunk);
            proptest::prop_assert_eq!(&lines, &whole);
            proptest::prop_assert_eq!(t, trailing);
        }
    }
}

#[test]
fn a_lone_cr_in_pre_followed_by_text_does_not_swallow_the_next_line_end() {
    assert_eq!(texts("<pre>a\r\nb\rc\nd</pre>"), ["a", "b", "c", "d"]);
}

#[test]
fn words_with_single_spaces_count_link_bytes_and_keep_pre_spacing_as_one_by_one() {
    let lines = split(b"<p>lead <a href=/>one two  three</a> four five</p>").unwrap();
    assert_eq!(lines[0].text, "lead one two three four five");
    // "one two three": the spaces between link words are link bytes, those around not.
    assert_eq!(lines[0].link_bytes, 13);
    assert_eq!(
        texts("<pre>a b  c\n d e\t f</pre><p>x &amp; y z</p>"),
        ["a b  c", " d e\t f", "x & y z"]
    );
    let html = declared("<p>one two three four five six seven eight nine ten</p><p>x y</p>");
    let html = html.as_bytes();
    let whole = split(html).unwrap();
    for chunk in [1, 2, 3, 7] {
        assert_eq!(split_chunked(html, chunk).0, whole, "chunk {chunk}");
    }
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(256))]

    /// Text of long words, single and double spaces, other white space and non-ASCII
    /// characters gives the same lines in pieces of 1, 7 and 65,536 bytes as whole.
    #[test]
    fn text_runs_give_the_same_lines_in_any_pieces(
        text in "([a-zA-Z0-9.,;!?]{0,20}( |  |\n|\t|é|\u{a0}|&amp;)?){0,40}",
        pre in proptest::bool::ANY,
    ) {
        let tag = if pre { "pre" } else { "p" };
        let html = declared(&format!("<{tag}>{text}</{tag}><p><a href=x>{text}</a> {text}</p>"));
        let (whole, trailing) = split_chunked(html.as_bytes(), usize::MAX);
        for chunk in [1, 7, 65_536] {
            let (lines, t) = split_chunked(html.as_bytes(), chunk);
            proptest::prop_assert_eq!(&lines, &whole);
            proptest::prop_assert_eq!(t, trailing);
        }
    }
}

/// Lines split inside a `<pre>` text node end where its line ends are in the input, counted
/// in bytes of the input however many bytes its characters take.
#[test]
fn pre_lines_of_multibyte_text_end_at_their_line_ends_in_the_input() {
    let html = "<pre>caf\u{e9} cr\u{e8}me\n\u{4e2d}\u{6587}\nend</pre><p>x</p>";
    let lines = split(html.as_bytes()).unwrap();
    let texts: Vec<&str> = lines.iter().map(|l| l.text.as_str()).collect();
    assert_eq!(
        texts,
        ["caf\u{e9} cr\u{e8}me", "\u{4e2d}\u{6587}", "end", "x"]
    );
    let ends: Vec<usize> = html.match_indices('\n').map(|(i, _)| i).collect();
    let starts: Vec<u64> = lines.iter().map(|l| l.start).collect();
    let expected = [0, ends[0], ends[1], html.find("</pre>").unwrap()].map(|i| i as u64);
    assert_eq!(starts, expected);
    for (line, next) in lines.iter().zip(&lines[1..]) {
        assert_eq!(line.start + line.html_bytes, next.start, "{:?}", line.text);
    }
}

/// In a page declared in a legacy encoding, text and attribute values are read in that
/// encoding even where their bytes happen to be valid UTF-8 (`C3 A9` is `Ã©` in
/// windows-1252, not `é`). The lone `E9` keeps the page from reading as UTF-8.
#[test]
fn a_legacy_encoding_reads_bytes_that_look_like_utf8_in_that_encoding() {
    let html = b"<meta charset=windows-1252><p>caf\xe9</p>\
        <div class=\"x\xc3\xa9\"><p>\xc3\xa9t\xc3\xa9</p></div>";
    let lines = split(html).unwrap();
    let texts: Vec<&str> = lines.iter().map(|l| l.text.as_str()).collect();
    assert_eq!(texts, ["caf\u{e9}", "\u{c3}\u{a9}t\u{c3}\u{a9}"]);
    assert_eq!(lines[1].ancestors, [Arc::from("div.x\u{c3}\u{a9}")]);
}

/// In a UTF-8 page an attribute's value is read as UTF-8: a valid one as it is, one with
/// a byte order mark at its start without it (as decoding reads it), an invalid one with
/// replacement characters.
#[test]
fn a_utf8_page_reads_attribute_values_as_utf8() {
    let html = b"<meta charset=utf-8><div class=\"caf\xc3\xa9\"><p>one</p></div>\
        <div class=\"\xef\xbb\xbfbom\"><p>two</p></div><div class=\"x\xe9y\"><p>three</p></div>";
    let lines = split(html).unwrap();
    let ancestors: Vec<&str> = lines.iter().map(|l| &*l.ancestors[0]).collect();
    assert_eq!(ancestors, ["div.caf\u{e9}", "div.bom", "div.x\u{fffd}y"]);
}

/// After `<plaintext>` everything is text as it stands: character references are not
/// decoded.
#[test]
fn plaintext_keeps_character_references_as_written() {
    let html = declared("<p>a &amp; b</p><plaintext>Fish &amp; chips &lt;b&gt; </p>");
    for chunk in [1, 7, usize::MAX] {
        let (lines, _) = split_chunked(html.as_bytes(), chunk);
        let texts: Vec<&str> = lines.iter().map(|l| l.text.as_str()).collect();
        assert_eq!(
            texts,
            ["a & b", "Fish &amp; chips &lt;b&gt; </p>"],
            "chunk {chunk}"
        );
    }
}

/// `itemprop="articleBody"` puts a line in the article region like `<article>`;
/// `aria-hidden="true"` (and only "true") marks it hidden.
#[test]
fn itemprop_article_body_and_aria_hidden_mark_their_lines() {
    let html = "<div itemprop=articleBody><p>Body</p></div><div itemprop=author><p>By</p></div>\
        <div aria-hidden=TRUE><p>Hidden</p></div><div aria-hidden=false><p>Shown</p></div>";
    let lines = split(html.as_bytes()).unwrap();
    let by = |t: &str| lines.iter().find(|l| l.text == t).unwrap().clone();
    assert_eq!(by("Body").context, ctx::ARTICLE);
    assert_eq!(by("By").context, 0);
    assert_eq!(by("Hidden").hints, hint::HIDDEN);
    assert_eq!(by("Shown").hints, 0);
}

/// In `<pre>` spaces and tabs are kept as they are; other control characters and the
/// zero-width no-break space are dropped (outside it, a form feed is white space).
#[test]
fn pre_keeps_spaces_and_tabs_and_drops_other_controls() {
    let html = "<pre>a \tb\u{c}c\u{1}d\u{feff}e</pre><p>a \tb\u{c}c\u{1}d\u{feff}e</p>";
    let texts: Vec<String> = texts(html);
    assert_eq!(texts, ["a \tbcde", "a b cde"]);
}

proptest::proptest! {
    /// [`style_hides`] is: the value without white space, in lower case, holds
    /// `display:none` or `visibility:hidden`.
    #[test]
    fn inline_styles_hide_by_their_definition(
        style in "([ a-zA-Z:;\t]|display|DISPLAY|Dis play|none|NoNe|visibility|hidden|:|é){0,80}"
    ) {
        let compact: String = style
            .chars()
            .filter(|c| !c.is_ascii_whitespace())
            .map(|c| c.to_ascii_lowercase())
            .collect();
        let want = compact.contains("display:none") || compact.contains("visibility:hidden");
        proptest::prop_assert_eq!(style_hides(&style), want, "{:?}", style);
    }
}
