//! The `related` page variant: an article followed by teasers of other pages.
//!
//! News and blog articles are often followed by a grid or list of other stories: a
//! headline, a one-sentence teaser, sometimes a byline, a date or a section name, under a
//! heading such as "Related stories" or "More from this section". Those lines read like
//! prose, and on a listing page the same cards *are* the content; on an article they are
//! not. WCXB's development pages hold few such grids after an article, so a model trained
//! on them alone keeps them. [`related`] writes, after the last content line of an
//! article, a block of teasers of *other* pages (their titles and descriptions, so real
//! headlines and summaries in the page's language) in one of several markups, so that
//! `mainline label --augment related` can label each article a second time with the block:
//! its lines are not in the gold text, so they are labelled boilerplate.
//!
//! Where the block goes: right after the line's element, or after one of the end tags
//! that follow it directly (inside the article body, after it, after the article); the
//! choice, the markup (container, heading, card shape, class names or none, bylines, dates,
//! images) and the teasers are drawn from the page's id, so the variant is the same on
//! every run. The rest of the page is untouched, byte for byte.

use std::fmt::Write as _;

/// What a teaser shows of another page: its title, and its description when it has one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Teaser {
    /// The page's title (the site's name trimmed).
    pub title: String,
    /// The page's description, one or two sentences, if any.
    pub summary: Option<String>,
}

/// A small deterministic generator (splitmix64): the variant of a page must not depend on
/// the version of a random-number crate.
#[derive(Debug, Clone)]
pub(crate) struct Rng(u64);

impl Rng {
    /// A generator from a seed.
    pub(crate) fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    /// A generator seeded by a page id (FNV-1a) and a salt.
    pub(crate) fn for_page(id: &str, salt: u64) -> Rng {
        let mut h: u64 = 0xcbf2_9ce4_8422_2325 ^ salt;
        for b in id.bytes() {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
        Rng(h)
    }

    pub(crate) fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`n > 0`).
    pub(crate) fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    /// True with probability `p`.
    pub(crate) fn chance(&mut self, p: f64) -> bool {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64 <= p
    }

    pub(crate) fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

/// Elements whose end tag may come before the block: closing one of them leaves the block
/// in the element around it (an article body's `div`, the `article`, a `section`).
const BLOCK_ENDS: [&str; 14] = [
    "p",
    "div",
    "section",
    "article",
    "main",
    "ul",
    "ol",
    "dl",
    "li",
    "blockquote",
    "figure",
    "span",
    "a",
    "em",
];

/// Where the block may go: `after` (the end of the page's last content line), and after
/// each end tag among those that follow it directly, separated only by white space. The
/// candidates after an inline end tag (`span`, `a`, `em`) are skipped as places but walked
/// over.
fn places(html: &[u8], after: usize) -> Vec<usize> {
    let mut at = after.min(html.len());
    let mut out = vec![at];
    loop {
        while at < html.len() && html[at].is_ascii_whitespace() {
            at += 1;
        }
        if !(html[at..].starts_with(b"</") && html.get(at + 2).is_some_and(u8::is_ascii_alphabetic))
        {
            break;
        }
        let Some(close) = memchr::memchr(b'>', &html[at..]) else {
            break;
        };
        let name_end = html[at + 2..at + close]
            .iter()
            .position(|b| !b.is_ascii_alphanumeric())
            .map_or(at + close, |i| at + 2 + i);
        let name = String::from_utf8_lossy(&html[at + 2..name_end]).to_ascii_lowercase();
        at += close + 1;
        if !BLOCK_ENDS.contains(&name.as_str()) {
            break;
        }
        if !matches!(name.as_str(), "span" | "a" | "em") {
            out.push(at);
        }
        if out.len() > 6 {
            break;
        }
    }
    // The first place is inside the last line's element unless nothing could close it.
    if out.len() > 1 {
        out.remove(0);
    }
    out
}

/// Text as HTML: `&`, `<`, `>` and `"` escaped; characters outside ASCII written as
/// numeric character references unless the page is in UTF-8, so the text reads the same
/// in any ASCII-compatible encoding.
fn escape(out: &mut String, text: &str, utf8: bool) {
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            c if c.is_ascii() || utf8 => out.push(c),
            c => {
                let _ = write!(out, "&#{};", u32::from(c));
            }
        }
    }
}

/// A URL path from a title: `/2024/03/the-words-of-the-title`.
fn slug(rng: &mut Rng, title: &str) -> String {
    let mut s = format!("/{}/{:02}/", 2015 + rng.below(11), 1 + rng.below(12));
    let mut dash = false;
    for c in title.chars().flat_map(char::to_lowercase).take(60) {
        if c.is_ascii_alphanumeric() {
            s.push(c);
            dash = false;
        } else if !dash {
            s.push('-');
            dash = true;
        }
    }
    s
}

/// A class attribute (with its leading space) in one of the styles sites use: words, a
/// BEM-like name, a CSS-in-JS hash, or none.
fn class(rng: &mut Rng, words: &[&str]) -> String {
    match rng.below(5) {
        0 => String::new(),
        1 => format!(" class=\"css-{:x}\"", rng.next() & 0xff_ffff),
        2 => format!(
            " class=\"{}__{}\"",
            rng.pick(&["c-story", "o-teaser", "m-card", "ob-widget", "td-block"]),
            rng.pick(words)
        ),
        _ => format!(" class=\"{}\"", rng.pick(words)),
    }
}

const HEADINGS: [&str; 16] = [
    "Related stories",
    "Related articles",
    "More from this section",
    "Read next",
    "You may also like",
    "Recommended for you",
    "More stories",
    "Latest news",
    "Most popular",
    "Further reading",
    "Popular now",
    "Don't miss",
    "More in News",
    "Read more",
    "Editor's picks",
    "Trending",
];

const SECTIONS: [&str; 10] = [
    "Politics",
    "Business",
    "Sport",
    "Culture",
    "Science",
    "Health",
    "Travel",
    "Local",
    "Opinion",
    "Technology",
];

const NAMES: [&str; 10] = [
    "Anna Keller",
    "James O'Neill",
    "Maria Santos",
    "David Chen",
    "Sarah Whitfield",
    "Tom Brandt",
    "Priya Raman",
    "Luca Moretti",
    "Emma Lindqvist",
    "Kofi Mensah",
];

const MONTHS: [&str; 12] = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
];

/// The block of teasers, in one markup drawn from `rng`.
fn block(rng: &mut Rng, teasers: &[&Teaser], utf8: bool) -> String {
    let mut out = String::new();
    let container = *rng.pick(&["section", "div", "aside", "div", "nav"]);
    let _ = write!(
        out,
        "\n<{container}{}>",
        class(
            rng,
            &[
                "related",
                "more-stories",
                "story-grid",
                "recirc",
                "grid",
                "cards",
                "list",
                "module"
            ]
        )
    );
    if rng.chance(0.8) {
        let h = *rng.pick(&["h2", "h3", "h4", "div", "span"]);
        let _ = write!(
            out,
            "<{h}{}>",
            class(rng, &["title", "heading", "label", "module-title"])
        );
        escape(&mut out, HEADINGS[rng.below(HEADINGS.len())], utf8);
        let _ = write!(out, "</{h}>");
    }
    // The card's shape: 0 a card with a heading link and a teaser paragraph, 1 a link
    // around the whole card, 2 list items with the teaser after the link, 3 article
    // elements with header and footer, 4 headline links alone.
    let shape = rng.below(5);
    let list = shape == 2 || shape == 4 || rng.chance(0.3);
    let wrap = if list { "ul" } else { "div" };
    let _ = write!(
        out,
        "<{wrap}{}>",
        class(rng, &["items", "grid", "list", "row", "feed"])
    );
    let item_class_words = ["card", "item", "story", "post", "entry", "tile", "article"];
    let item_class = class(rng, &item_class_words);
    let heading = *rng.pick(&["h2", "h3", "h4", "div", "strong"]);
    let image = rng.chance(0.5);
    let kicker = rng.chance(0.3);
    let byline = rng.chance(0.3);
    let date = rng.chance(0.4);
    let summary = shape != 4 && rng.chance(0.9);
    let summary_inline = shape == 2 && rng.chance(0.5);
    let summary_class = class(rng, &["teaser", "summary", "excerpt", "dek", "standfirst"]);
    let kicker_tag = *rng.pick(&["div", "p", "span"]);
    for t in teasers {
        let href = slug(rng, &t.title);
        let item = if list {
            "li"
        } else if shape == 3 {
            "article"
        } else {
            "div"
        };
        let _ = write!(out, "<{item}{item_class}>");
        if shape == 1 {
            let _ = write!(out, "<a href=\"{href}\">");
        }
        if image {
            if shape == 1 {
                let _ = write!(out, "<img src=\"/img{href}.jpg\" alt=\"\">");
            } else {
                let _ = write!(
                    out,
                    "<a href=\"{href}\"><img src=\"/img{href}.jpg\" alt=\"\" loading=\"lazy\"></a>"
                );
            }
        }
        if kicker {
            let _ = write!(
                out,
                "<{kicker_tag} class=\"kicker\">{}</{kicker_tag}> ",
                rng.pick(&SECTIONS)
            );
        }
        if shape == 3 {
            out.push_str("<header>");
        }
        let linked = shape != 1;
        let _ = write!(out, "<{heading}>");
        if linked {
            let _ = write!(out, "<a href=\"{href}\">");
        }
        escape(&mut out, &t.title, utf8);
        if linked {
            out.push_str("</a>");
        }
        let _ = write!(out, "</{heading}>");
        if shape == 3 {
            out.push_str("</header>");
        }
        if let (true, Some(s)) = (summary, &t.summary) {
            if summary_inline {
                out.push(' ');
                escape(&mut out, s, utf8);
            } else {
                let _ = write!(out, "<p{summary_class}>");
                escape(&mut out, s, utf8);
                out.push_str("</p>");
            }
        }
        if byline || date {
            let tag = if shape == 3 { "footer" } else { "p" };
            let _ = write!(out, "<{tag} class=\"meta\">");
            if byline {
                let _ = write!(out, "<span>By {}</span>", rng.pick(&NAMES));
            }
            if date {
                let _ = write!(
                    out,
                    "{}<time>{} {}, {}</time>",
                    if byline { " · " } else { "" },
                    rng.pick(&MONTHS),
                    1 + rng.below(28),
                    2015 + rng.below(11)
                );
            }
            let _ = write!(out, "</{tag}>");
        }
        if shape == 1 {
            out.push_str("</a>");
        }
        let _ = write!(out, "</{item}>");
    }
    let _ = writeln!(out, "</{wrap}></{container}>");
    out
}

/// The page `html` (its bytes as read) with a block of `teasers` written after the byte
/// offset `after` (the end of the page's last content line), for training-time
/// augmentation (`mainline label --augment related`). `utf8` says whether the page is
/// read as UTF-8: otherwise characters outside ASCII are written as character references.
/// The place (right there, or after one of the end tags that follow), the markup and the
/// order are drawn from `seed`; everything else is kept byte for byte.
///
/// ```
/// use mainline_training::train::{Teaser, related};
///
/// let page = b"<article><p>The story.</p></article><footer>(c)</footer>";
/// let teasers = [Teaser { title: "Bridge reopens".into(), summary: Some("Repairs took a year.".into()) }];
/// let out = String::from_utf8(related(page, 22, &teasers, 7, true)).unwrap();
/// assert!(out.starts_with("<article><p>The story.</p>"));
/// assert!(out.ends_with("<footer>(c)</footer>"));
/// assert!(out.contains("Bridge reopens"));
/// ```
pub fn related(html: &[u8], after: usize, teasers: &[Teaser], seed: u64, utf8: bool) -> Vec<u8> {
    let mut rng = Rng(seed);
    let places = places(html, after);
    let at = *rng.pick(&places);
    let chosen: Vec<&Teaser> = teasers.iter().collect();
    let text = block(&mut rng, &chosen, utf8);
    let mut out = Vec::with_capacity(html.len() + text.len());
    out.extend_from_slice(&html[..at]);
    out.extend_from_slice(text.as_bytes());
    out.extend_from_slice(&html[at..]);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn teasers(n: usize) -> Vec<Teaser> {
        (0..n)
            .map(|i| Teaser {
                title: format!("Headline number {i} about the harbour & the town"),
                summary: (i % 2 == 0).then(|| format!("Summary {i}: café owners say \"yes\".")),
            })
            .collect()
    }

    #[test]
    fn the_places_are_after_the_end_tags_that_follow_the_line() {
        let html = b"<article><div><p>last line</p>\n  </div></article><div>share</div>";
        let after = html.windows(4).position(|w| w == b"</p>").unwrap();
        let p = places(html, after);
        let ends: Vec<&str> = p
            .iter()
            .map(|&i| std::str::from_utf8(&html[..i]).unwrap())
            .map(|s| &s[s.len() - 6..])
            .collect();
        assert_eq!(ends, ["ne</p>", "</div>", "ticle>"]);
        // Nothing to close: the line's own end.
        assert_eq!(places(b"<p>a<p>b", 4), vec![4]);
        assert_eq!(places(b"<p>a", 99), vec![4]);
    }

    #[test]
    fn the_rest_of_the_page_is_kept_and_the_teasers_are_written() {
        let html =
            b"<html><body><article><p>The story.</p></article><footer>x</footer></body></html>";
        let after = 35;
        for seed in 0..200 {
            let out = related(html, after, &teasers(4), seed, true);
            let s = String::from_utf8(out.clone()).unwrap();
            let at = (0..out.len())
                .find(|&i| out[i] != html[i])
                .expect("something is inserted");
            let tail = out.len() - html.len();
            assert_eq!(&out[..at], &html[..at]);
            assert_eq!(&out[at + tail..], &html[at..]);
            assert!(at >= after, "{seed}");
            assert!(s.contains("Headline number 3 about the harbour &amp; the town"));
            assert!(!s.contains("&the"));
        }
    }

    #[test]
    fn outside_utf8_the_text_is_written_as_references() {
        let mut s = String::new();
        escape(&mut s, "café \"x\" <b>", false);
        assert_eq!(s, "caf&#233; &quot;x&quot; &lt;b&gt;");
        let mut s = String::new();
        escape(&mut s, "café", true);
        assert_eq!(s, "café");
    }

    #[test]
    fn the_same_seed_gives_the_same_page() {
        let html = b"<p>a</p><p>b</p>";
        let a = related(html, 8, &teasers(3), 42, true);
        assert_eq!(a, related(html, 8, &teasers(3), 42, true));
        let differ = (0..20).any(|s| related(html, 8, &teasers(3), s, true) != a);
        assert!(differ);
    }
}
