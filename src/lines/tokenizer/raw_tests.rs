use super::super::tests::{AS_LOL_HTML, fragment, guarded};
use super::super::{Limits, Piece, TextKind, Tokenizer};
use super::{LONGEST_NAME, RAW_TEXT_WINDOW};

/// The data text the tokenizer reports, in order.
fn data_text(out: &[u8], pieces: &[Piece]) -> String {
    let mut s = String::new();
    for p in pieces {
        match *p {
            Piece::Text {
                start,
                end,
                kind: TextKind::Data,
            } => s.push_str(&String::from_utf8_lossy(&out[start as usize..end as usize])),
            Piece::TextEnd => s.push('|'),
            _ => {}
        }
    }
    s
}

/// `pieces` with each run of adjacent text pieces as one (their cuts follow the chunks).
fn merged(pieces: Vec<Piece>) -> Vec<Piece> {
    let mut out: Vec<Piece> = Vec::new();
    for p in pieces {
        if let (
            Some(Piece::Text { end, kind, .. }),
            Piece::Text {
                start: s,
                end: e,
                kind: k,
            },
        ) = (out.last_mut(), &p)
        {
            if *end == *s && *kind == *k {
                *end = *e;
                continue;
            }
        }
        out.push(p);
    }
    out
}

fn guarded_merged(html: &str, limits: Limits, chunk: usize) -> (Tokenizer, Vec<u8>, Vec<Piece>) {
    let (g, out, pieces) = guarded(html.as_bytes(), limits, chunk);
    (g, out, merged(pieces))
}

/// The tokenizer's data text and the raw-text elements it closed, the same in every chunking.
fn closed(html: &str, limits: Limits) -> (String, usize) {
    let (g, out, pieces) = guarded_merged(html, limits, usize::MAX);
    assert_eq!(out, html.as_bytes(), "bytes pass unchanged");
    for chunk in [1, 2, 7, 64] {
        let (h, o, p) = guarded_merged(html, limits, chunk);
        assert_eq!((&o, &p), (&out, &pieces), "chunk {chunk} in {html:?}");
        assert_eq!(h.raw_closed, g.raw_closed);
    }
    (data_text(&out, &pieces), g.raw_closed)
}

fn default_closed(html: &str) -> (String, usize) {
    closed(html, Limits::default())
}

#[test]
fn an_unclosed_title_ends_at_the_page_markup() {
    let html = "<html><head><title>Cut short<meta charset=utf-8>\n<body><p>The story.</p>";
    let (text, n) = default_closed(html);
    assert_eq!(n, 1);
    assert!(text.contains("The story."), "{text:?}");
    assert!(!text.contains("Cut short"), "{text:?}");
    // Read as the standard reads it, the rest of the page is the title.
    let (g, out, pieces) = guarded(html.as_bytes(), AS_LOL_HTML, usize::MAX);
    assert_eq!(g.raw_closed, 0);
    assert!(!data_text(&out, &pieces).contains("story"));
}

#[test]
fn an_unclosed_textarea_ends_at_the_page_markup() {
    let (text, n) = default_closed("<form><textarea name=c>Your comment<div><p>After.</p>");
    assert_eq!(n, 1);
    assert!(text.contains("After."), "{text:?}");
}

#[test]
fn a_closed_title_or_textarea_keeps_the_markup_it_holds_as_text() {
    for html in [
        "<title>A <b>bold</b> title</title><p>Body.</p>",
        "<textarea>Embed: <iframe src=x></iframe><p>x</textarea><p>Body.</p>",
        "<TITLE>Upper <p>case</TITLE ><p>Body.</p>",
        "<title>x<div>y</title/><p>Body.</p>",
    ] {
        let (text, n) = default_closed(html);
        assert_eq!(n, 0, "{html}");
        let (g, out, pieces) = guarded(html.as_bytes(), AS_LOL_HTML, usize::MAX);
        assert_eq!(g.raw_closed, 0);
        assert_eq!(text, data_text(&out, &pieces), "{html}");
        assert!(text.contains("Body."), "{html}: {text:?}");
    }
}

#[test]
fn an_end_tag_beyond_the_window_does_not_keep_the_element_open() {
    let filler = "x".repeat(RAW_TEXT_WINDOW);
    let html = format!("<title>T<p>Far away {filler}</title><p>Last.</p>");
    let (text, n) = default_closed(&html);
    assert_eq!(n, 1);
    assert!(text.contains("Far away"), "closed at the <p>");
    // Just within the window, the end tag keeps it open.
    let near = "x".repeat(RAW_TEXT_WINDOW - 20);
    let html = format!("<title>T<p>Near {near}</title><p>Last.</p>");
    let (text, n) = default_closed(&html);
    assert_eq!(n, 0);
    assert!(!text.contains("Near"));
    assert!(text.contains("Last."));
}

#[test]
fn a_style_sheet_ends_only_at_the_body() {
    // Tag-like text in a style sheet (comments, data URLs, content strings) is no cut.
    let html = "<style>/* <div> and <p> */ a::after{content:'<span>'}\n<div><p>Not yet.\
                <body><p>The page.</p>";
    let (text, n) = default_closed(html);
    assert_eq!(n, 1);
    assert!(text.contains("The page."), "{text:?}");
    assert!(!text.contains("Not yet"), "{text:?}");
    let (text, n) = default_closed("<style>p{}\n</head><p>Head ended.</p>");
    assert_eq!(n, 1);
    assert!(text.contains("Head ended."), "{text:?}");
    let (_, n) = default_closed("<style>p{}</style><body><p>Closed.</p>");
    assert_eq!(n, 0);
}

#[test]
fn an_unclosed_title_at_the_end_of_the_input_is_closed_at_its_last_tag() {
    let (text, n) = default_closed("<title>Cut<p>Only this");
    assert_eq!(n, 1);
    assert_eq!(text.trim_matches('|'), "Only this");
    // A tag name the input cuts short closes nothing.
    let (_, n) = default_closed("<title>Cut<p");
    assert_eq!(n, 0);
}

#[test]
fn a_lt_that_starts_no_closing_tag_is_text_but_the_next_may_be_one() {
    for html in [
        "<title>a < b <<p>Text",
        "<title>a<3<p>Text",
        "<title>a <abbr<p>Text",
        "<title>a </head <p>Text",
    ] {
        let (text, n) = default_closed(html);
        assert!(n == 1 && text.contains("Text"), "{html}: {text:?}");
    }
    let (text, n) = default_closed("<title>a <x-y> <blink> b");
    assert_eq!((text.trim_matches('|'), n), ("", 0));
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(256))]

    /// With a small window the tokenizer closes often: it decides the same in any chunking,
    /// holds at most the window, and where it closes nothing it reads as `lol_html` does.
    #[test]
    fn closing_depends_on_the_bytes_alone(
        parts in proptest::collection::vec(fragment(), 0..40),
        raw_window in 4usize..48,
    ) {
        let html = parts.concat();
        let limits = Limits { raw_window, ..Limits::default() };
        let (g, out, pieces) = guarded_merged(&html, limits, usize::MAX);
        proptest::prop_assert_eq!(&out, html.as_bytes());
        // A tag name is read whole whatever the window.
        let most = raw_window.max(LONGEST_NAME + 3);
        proptest::prop_assert!(g.max_peek <= most, "held {}", g.max_peek);
        for chunk in [1, 3, 8] {
            let (h, o, p) = guarded_merged(&html, limits, chunk);
            proptest::prop_assert_eq!(&o, &out);
            proptest::prop_assert_eq!(&p, &pieces, "chunk {} in {:?}", chunk, html);
            proptest::prop_assert_eq!(h.raw_closed, g.raw_closed);
        }
        if g.raw_closed == 0 {
            let (_, _, lol) = guarded_merged(&html, AS_LOL_HTML, usize::MAX);
            proptest::prop_assert_eq!(&pieces, &lol, "in {:?}", html);
        }
    }
}
