//! Tag tables: which elements break a line, which hide their content, which mark context,
//! and the class/id keywords that hint at boilerplate or content.

/// The block-level element that encloses a line (its nearest line-breaking ancestor).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, serde::Serialize)]
#[serde(rename_all = "lowercase")]
#[non_exhaustive]
pub enum Block {
    /// No block element encloses the text (text directly in `<body>` or outside any element).
    #[default]
    Body,
    /// `<p>`
    P,
    /// `<div>`, `<section>`, `<article>`, `<main>`, `<header>`, `<footer>`, `<nav>`, `<aside>`, `<form>`, `<figure>`, `<address>`, `<details>`
    Div,
    /// `<li>`, `<dt>`, `<dd>`
    Li,
    /// `<td>`, `<th>`, `<tr>`, `<table>`
    Cell,
    /// `<h1>` … `<h6>` (see [`crate::lines::Line::heading`] for the level)
    Heading,
    /// `<pre>`
    Pre,
    /// `<blockquote>`
    Quote,
    /// `<option>`, `<summary>`, `<figcaption>`, `<ul>`, `<ol>`, `<dl>` and other breaking elements
    Other,
}

impl Block {
    /// Lower-case name used in JSON output.
    pub fn name(self) -> &'static str {
        match self {
            Block::Body => "body",
            Block::P => "p",
            Block::Div => "div",
            Block::Li => "li",
            Block::Cell => "cell",
            Block::Heading => "heading",
            Block::Pre => "pre",
            Block::Quote => "quote",
            Block::Other => "other",
        }
    }
}

/// Context bits: what kind of region a line sits in. See [`crate::lines::Line::context`].
pub mod ctx {
    /// Inside `<nav>` (or `role="navigation"`).
    pub const NAV: u16 = 1 << 0;
    /// Inside `<header>` (or `role="banner"`).
    pub const HEADER: u16 = 1 << 1;
    /// Inside `<footer>` (or `role="contentinfo"`).
    pub const FOOTER: u16 = 1 << 2;
    /// Inside `<aside>` (or `role="complementary"`).
    pub const ASIDE: u16 = 1 << 3;
    /// Inside `<form>`.
    pub const FORM: u16 = 1 << 4;
    /// Inside `<button>`.
    pub const BUTTON: u16 = 1 << 5;
    /// Inside `<select>`.
    pub const SELECT: u16 = 1 << 6;
    /// Inside `<label>`.
    pub const LABEL: u16 = 1 << 7;
    /// Inside `<menu>` (or `role="menu"`/`"menubar"`).
    pub const MENU: u16 = 1 << 8;
    /// Inside `<article>`, `<main>` (or `role="main"`/`"article"`, `itemprop="articleBody"`).
    pub const ARTICLE: u16 = 1 << 9;
    /// Inside `<li>`, `<dt>` or `<dd>`.
    pub const LIST_ITEM: u16 = 1 << 10;
    /// Inside `<pre>`: whitespace is kept and each source line is a line.
    pub const PRE: u16 = 1 << 11;
    /// Inside `<td>` or `<th>`.
    pub const CELL: u16 = 1 << 12;
    /// Inside `<a>`.
    pub const LINK: u16 = 1 << 13;
    /// Inside `<figure>` or `<figcaption>`.
    pub const FIGURE: u16 = 1 << 14;
    /// Inside an element whose content is not text: script, style, template, svg, math,
    /// title and the like. Text there never becomes part of a line.
    pub const SKIP: u16 = 1 << 15;
    /// Number of bits in use.
    pub const COUNT: usize = 16;
}

/// Class/id hint bits: keywords in the `class`, `id` and `role` of ancestors.
/// See [`crate::lines::Line::hints`].
pub mod hint {
    /// Navigation: nav, menu, breadcrumb, pagination, pager, navbar, topbar, toc.
    pub const NAV: u16 = 1 << 0;
    /// Page footer: footer, copyright, colophon, bottom.
    pub const FOOTER: u16 = 1 << 1;
    /// Side content: sidebar, aside, widget, related, recommended, popular, trending.
    pub const SIDE: u16 = 1 << 2;
    /// Comments: comment(s), reply, respond, discussion, disqus.
    pub const COMMENT: u16 = 1 << 3;
    /// Sharing: share, social, sharing, follow, facebook, twitter.
    pub const SOCIAL: u16 = 1 << 4;
    /// Advertising and promotion: ad(s), advert, sponsor(ed), promo, banner, cookie, consent, newsletter, subscribe, popup, modal.
    pub const AD: u16 = 1 << 5;
    /// Metadata: meta, byline, author, date, tags, category, breadcrumbs.
    pub const META: u16 = 1 << 6;
    /// Hidden: the `hidden` attribute, `aria-hidden="true"`, `display:none`, or classes like sr-only, hidden.
    pub const HIDDEN: u16 = 1 << 7;
    /// Content: article, content, post, entry, main, body, text, story, prose, markdown.
    pub const CONTENT: u16 = 1 << 8;
    /// Page header: header, masthead, top, logo, brand, site-title.
    pub const HEADER: u16 = 1 << 9;
    /// Number of bits in use.
    pub const COUNT: usize = 10;
}

/// What the splitter needs to know about a tag name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct TagInfo {
    /// Starting or ending this element ends the current line.
    pub breaks: bool,
    /// The block kind when this element is a line's nearest breaking ancestor.
    pub block: Block,
    /// Heading level 1–6, or 0.
    pub heading: u8,
    /// Context bits this element sets for its content.
    pub ctx: u16,
}

const fn info(breaks: bool, block: Block, ctx: u16) -> TagInfo {
    TagInfo {
        breaks,
        block,
        heading: 0,
        ctx,
    }
}

/// Inline (non-breaking, no context) elements: the common case.
pub(crate) const INLINE: TagInfo = TagInfo {
    breaks: false,
    block: Block::Other,
    heading: 0,
    ctx: 0,
};

/// Classifies a lower-case tag name.
pub(crate) fn classify(name: &str) -> TagInfo {
    use Block::*;
    match name {
        "p" => info(true, P, 0),
        "div" | "section" | "hgroup" | "center" | "fieldset" | "legend" | "address" | "details"
        | "dialog" | "search" => info(true, Div, 0),
        "article" | "main" => info(true, Div, ctx::ARTICLE),
        "header" => info(true, Div, ctx::HEADER),
        "footer" => info(true, Div, ctx::FOOTER),
        "nav" => info(true, Div, ctx::NAV),
        "aside" => info(true, Div, ctx::ASIDE),
        "form" => info(true, Div, ctx::FORM),
        "figure" => info(true, Div, ctx::FIGURE),
        "figcaption" => info(true, Other, ctx::FIGURE),
        "menu" => info(true, Other, ctx::MENU),
        "ul" | "ol" | "dl" | "summary" | "hr" | "br" | "caption" | "thead" | "tbody" | "tfoot"
        | "frameset" | "iframe" | "video" | "audio" | "canvas" => info(true, Other, 0),
        "li" | "dt" | "dd" => info(true, Li, ctx::LIST_ITEM),
        "table" | "tr" => info(true, Cell, 0),
        "td" | "th" => info(true, Cell, ctx::CELL),
        "pre" | "listing" | "xmp" | "plaintext" => info(true, Pre, ctx::PRE),
        "blockquote" => info(true, Quote, 0),
        "h1" | "h2" | "h3" | "h4" | "h5" | "h6" => TagInfo {
            heading: name.as_bytes()[1] - b'0',
            ..info(true, Heading, 0)
        },
        "option" | "optgroup" => info(true, Other, 0),
        "select" | "datalist" => info(true, Other, ctx::SELECT),
        "button" => info(false, Other, ctx::BUTTON),
        "label" => info(false, Other, ctx::LABEL),
        "a" => info(false, Other, ctx::LINK),
        // Read as markup, as a parser with scripting disabled does: the fallback content
        // shown in place of a scripted page (a forum thread, an article) is usually its text.
        "noscript" => info(true, Other, 0),
        // NOTE: not `head`: what the head may hold is hidden by these elements themselves
        // (or is void: meta, link, base), and anything else ends the head (see
        // `State::start_tag`).
        "script" | "style" | "template" | "svg" | "math" | "title" | "textarea" | "object"
        | "noembed" | "noframes" => info(false, Other, ctx::SKIP),
        _ => INLINE,
    }
}

/// Maps an ARIA `role` value to context bits.
pub(crate) fn role_ctx(role: &str) -> u16 {
    let mut bits = 0;
    for r in role.split_ascii_whitespace() {
        bits |= match r.to_ascii_lowercase().as_str() {
            "navigation" => ctx::NAV,
            "banner" => ctx::HEADER,
            "contentinfo" => ctx::FOOTER,
            "complementary" => ctx::ASIDE,
            "menu" | "menubar" => ctx::MENU,
            "main" | "article" => ctx::ARTICLE,
            _ => 0,
        };
    }
    bits
}

/// Hint bits for the words of a `class` or `id` value.
///
/// The value is split into words at every character that is not a letter or digit, and at
/// lower-to-upper case changes (`postBody` → `post`, `body`); each word is looked up as a
/// whole, so `header` matches `site-header` but `ad` does not match `shadow` or `load`.
pub(crate) fn class_hints(value: &str) -> u16 {
    // NOTE: one table look-up per byte and one hash probe per word; class values (long
    // utility-class lists) are most of what a start tag costs.
    let bytes = value.as_bytes();
    let mut bits = 0;
    let mut start = 0;
    let mut prev = OTHER;
    for (i, &b) in bytes.iter().enumerate() {
        let c = CHAR_CLASS[usize::from(b)];
        if c == OTHER {
            bits |= word_hint(&bytes[start..i]);
            start = i + 1;
        } else if c == UPPER && prev == LOWER {
            bits |= word_hint(&bytes[start..i]);
            start = i;
        }
        prev = c;
    }
    bits | word_hint(&bytes[start..])
}

const OTHER: u8 = 0;
const LOWER: u8 = 1;
const UPPER: u8 = 2;
const DIGIT: u8 = 3;

/// ASCII letters and digits by kind; everything else separates words.
const CHAR_CLASS: [u8; 256] = {
    let mut t = [OTHER; 256];
    let mut b = 0;
    while b < 256 {
        t[b] = match b as u8 {
            b'a'..=b'z' => LOWER,
            b'A'..=b'Z' => UPPER,
            b'0'..=b'9' => DIGIT,
            _ => OTHER,
        };
        b += 1;
    }
    t
};

/// The keywords of each hint bit, lower case.
const HINT_WORDS: &[(u16, &[&[u8]])] = &[
    (
        hint::NAV,
        &[
            b"nav",
            b"navbar",
            b"navigation",
            b"menu",
            b"menus",
            b"breadcrumb",
            b"breadcrumbs",
            b"pagination",
            b"pager",
            b"topbar",
            b"toc",
            b"submenu",
            b"dropdown",
            b"megamenu",
        ],
    ),
    (
        hint::FOOTER,
        &[b"footer", b"copyright", b"colophon", b"bottom", b"legal"],
    ),
    (
        hint::SIDE,
        &[
            b"sidebar",
            b"aside",
            b"widget",
            b"widgets",
            b"related",
            b"recommended",
            b"recommendations",
            b"popular",
            b"trending",
            b"rail",
            b"teaser",
            b"teasers",
        ],
    ),
    (
        hint::COMMENT,
        &[
            b"comment",
            b"comments",
            b"reply",
            b"replies",
            b"respond",
            b"discussion",
            b"disqus",
        ],
    ),
    (
        hint::SOCIAL,
        &[
            b"share",
            b"sharing",
            b"social",
            b"follow",
            b"facebook",
            b"twitter",
            b"whatsapp",
            b"linkedin",
            b"pinterest",
        ],
    ),
    (
        hint::AD,
        &[
            b"ad",
            b"ads",
            b"advert",
            b"advertisement",
            b"adsbygoogle",
            b"sponsor",
            b"sponsored",
            b"promo",
            b"promotion",
            b"banner",
            b"cookie",
            b"cookies",
            b"consent",
            b"gdpr",
            b"newsletter",
            b"subscribe",
            b"subscription",
            b"popup",
            b"modal",
            b"overlay",
            b"signup",
            b"login",
        ],
    ),
    (
        hint::META,
        &[
            b"meta",
            b"byline",
            b"author",
            b"date",
            b"tags",
            b"tag",
            b"category",
            b"categories",
            b"posted",
            b"timestamp",
        ],
    ),
    (
        hint::HIDDEN,
        &[
            b"hidden",
            b"hide",
            b"sr",
            b"visually",
            b"invisible",
            b"offscreen",
        ],
    ),
    (
        hint::CONTENT,
        &[
            b"article",
            b"content",
            b"post",
            b"entry",
            b"main",
            b"body",
            b"text",
            b"story",
            b"prose",
            b"markdown",
            b"blog",
            b"articlebody",
            b"richtext",
            b"single",
        ],
    ),
    (
        hint::HEADER,
        &[
            b"header",
            b"masthead",
            b"logo",
            b"brand",
            b"branding",
            b"topnav",
        ],
    ),
];

/// The longest keyword, in bytes: longer words match nothing.
const MAX_HINT_WORD: usize = 16;

/// A word of at most [`MAX_HINT_WORD`] bytes as a number (words hold no zero bytes, so
/// the zero padding keeps them apart).
const fn pack(word: &[u8]) -> u128 {
    let mut buf = [0u8; MAX_HINT_WORD];
    let mut i = 0;
    while i < word.len() {
        buf[i] = word[i];
        i += 1;
    }
    u128::from_le_bytes(buf)
}

const HINT_SLOTS: usize = 512;

const fn hint_slot(key: u128) -> usize {
    let h =
        ((key as u64) ^ ((key >> 64) as u64).rotate_left(29)).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    (h >> (64 - 9)) as usize
}

/// Open-addressing table of the packed keywords and their hint bits (built at compile
/// time; a keyword listed twice does not compile).
const HINT_TABLE: [(u128, u16); HINT_SLOTS] = {
    let mut t = [(0u128, 0u16); HINT_SLOTS];
    let mut g = 0;
    while g < HINT_WORDS.len() {
        let (bit, words) = HINT_WORDS[g];
        let mut w = 0;
        while w < words.len() {
            assert!(words[w].len() <= MAX_HINT_WORD);
            let key = pack(words[w]);
            let mut s = hint_slot(key);
            while t[s].0 != 0 {
                assert!(t[s].0 != key, "a keyword is listed twice");
                s = (s + 1) % HINT_SLOTS;
            }
            t[s] = (key, bit);
            w += 1;
        }
        g += 1;
    }
    t
};

/// For each word length, the first and the last letters of the keywords of that length, as
/// bit `(b | 0x20) & 31` of a mask (a letter of either case sets its own bit).
const ENDS_BY_LEN: [(u32, u32); MAX_HINT_WORD + 1] = {
    let mut t = [(0u32, 0u32); MAX_HINT_WORD + 1];
    let mut g = 0;
    while g < HINT_WORDS.len() {
        let words = HINT_WORDS[g].1;
        let mut w = 0;
        while w < words.len() {
            let word = words[w];
            let n = word.len();
            t[n].0 |= 1 << ((word[0] | 0x20) & 31);
            t[n].1 |= 1 << ((word[n - 1] | 0x20) & 31);
            w += 1;
        }
        g += 1;
    }
    t
};

/// The hint bit of one word (letters and digits), in any case.
#[inline]
fn word_hint(word: &[u8]) -> u16 {
    if word.is_empty() || word.len() > MAX_HINT_WORD {
        return 0;
    }
    // NOTE: most words of a class value are no keyword; their length and first and last
    // letters rule them out before the key is built and the table probed.
    let letter = |b: u8| 1u32 << ((b | 0x20) & 31);
    let (first, last) = ENDS_BY_LEN[word.len()];
    if first & letter(word[0]) == 0 || last & letter(word[word.len() - 1]) == 0 {
        return 0;
    }
    let mut buf = [0u8; MAX_HINT_WORD];
    buf[..word.len()].copy_from_slice(word);
    // Letters and digits only: setting bit 5 lower-cases letters and keeps digits.
    let key = u128::from_le_bytes(buf)
        | (pack_mask(word.len()) & 0x2020_2020_2020_2020_2020_2020_2020_2020);
    let mut s = hint_slot(key);
    loop {
        let (k, bit) = HINT_TABLE[s];
        if k == key {
            return bit;
        }
        if k == 0 {
            return 0;
        }
        s = (s + 1) % HINT_SLOTS;
    }
}

/// Ones in the low `len` bytes.
#[inline]
fn pack_mask(len: usize) -> u128 {
    if len >= MAX_HINT_WORD {
        !0
    } else {
        (1u128 << (8 * len)) - 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The hint look-up before the keyword table: a match over the lower-cased word.
    fn reference_hints(value: &str) -> u16 {
        let mut bits = 0;
        let bytes = value.as_bytes();
        let mut start = 0;
        let mut i = 0;
        while i <= bytes.len() {
            let boundary = i == bytes.len()
                || !bytes[i].is_ascii_alphanumeric()
                || (i > start
                    && bytes[i].is_ascii_uppercase()
                    && bytes[i - 1].is_ascii_lowercase());
            if boundary {
                if i > start && i - start <= 24 {
                    bits |= reference_word(&bytes[start..i]);
                }
                start = if i < bytes.len() && bytes[i].is_ascii_alphanumeric() {
                    i
                } else {
                    i + 1
                };
            }
            i += 1;
        }
        bits
    }

    fn reference_word(word: &[u8]) -> u16 {
        let mut buf = [0u8; 24];
        let lower = &mut buf[..word.len()];
        lower.copy_from_slice(word);
        lower.make_ascii_lowercase();
        match &*lower {
            b"nav" | b"navbar" | b"navigation" | b"menu" | b"menus" | b"breadcrumb"
            | b"breadcrumbs" | b"pagination" | b"pager" | b"topbar" | b"toc" | b"submenu"
            | b"dropdown" | b"megamenu" => hint::NAV,
            b"footer" | b"copyright" | b"colophon" | b"bottom" | b"legal" => hint::FOOTER,
            b"sidebar" | b"aside" | b"widget" | b"widgets" | b"related" | b"recommended"
            | b"recommendations" | b"popular" | b"trending" | b"rail" | b"teaser" | b"teasers" => {
                hint::SIDE
            }
            b"comment" | b"comments" | b"reply" | b"replies" | b"respond" | b"discussion"
            | b"disqus" => hint::COMMENT,
            b"share" | b"sharing" | b"social" | b"follow" | b"facebook" | b"twitter"
            | b"whatsapp" | b"linkedin" | b"pinterest" => hint::SOCIAL,
            b"ad" | b"ads" | b"advert" | b"advertisement" | b"adsbygoogle" | b"sponsor"
            | b"sponsored" | b"promo" | b"promotion" | b"banner" | b"cookie" | b"cookies"
            | b"consent" | b"gdpr" | b"newsletter" | b"subscribe" | b"subscription" | b"popup"
            | b"modal" | b"overlay" | b"signup" | b"login" => hint::AD,
            b"meta" | b"byline" | b"author" | b"date" | b"tags" | b"tag" | b"category"
            | b"categories" | b"posted" | b"timestamp" => hint::META,
            b"hidden" | b"hide" | b"sr" | b"visually" | b"invisible" | b"offscreen" => hint::HIDDEN,
            b"article" | b"content" | b"post" | b"entry" | b"main" | b"body" | b"text"
            | b"story" | b"prose" | b"markdown" | b"blog" | b"articlebody" | b"richtext"
            | b"single" => hint::CONTENT,
            b"header" | b"masthead" | b"logo" | b"brand" | b"branding" | b"topnav" => hint::HEADER,
            _ => 0,
        }
    }

    proptest::proptest! {
        #[test]
        fn class_hints_match_the_plain_look_up(
            words in proptest::collection::vec(
                proptest::prop_oneof![
                    proptest::sample::select(
                        HINT_WORDS.iter().flat_map(|(_, w)| w.iter()).map(|w| {
                            std::str::from_utf8(w).unwrap().to_string()
                        }).collect::<Vec<_>>()
                    ),
                    "[a-zA-Z0-9]{0,20}",
                    "[ _\\-:éA-Z]{0,3}",
                ],
                0..12,
            ),
            upper in proptest::collection::vec(proptest::bool::ANY, 12),
        ) {
            let value: String = words
                .iter()
                .zip(&upper)
                .map(|(w, &u)| if u { w.to_ascii_uppercase() } else { w.clone() })
                .collect();
            proptest::prop_assert_eq!(class_hints(&value), reference_hints(&value), "{:?}", value);
        }
    }

    #[test]
    fn class_words_are_matched_whole() {
        assert_eq!(class_hints("site-header"), hint::HEADER);
        assert_eq!(class_hints("shadow load"), 0);
        assert_eq!(class_hints("ad-slot"), hint::AD);
        assert_eq!(class_hints("postBody"), hint::CONTENT);
        assert_eq!(
            class_hints("entry-content comments"),
            hint::CONTENT | hint::COMMENT
        );
        assert_eq!(class_hints(""), 0);
        assert_eq!(class_hints("--"), 0);
    }

    #[test]
    fn headings_carry_their_level() {
        assert_eq!(classify("h3").heading, 3);
        assert_eq!(classify("h3").block, Block::Heading);
        assert!(classify("h3").breaks);
    }

    #[test]
    fn inline_elements_do_not_break_lines() {
        for t in ["span", "b", "em", "a", "img", "code", "unknown-element"] {
            assert!(!classify(t).breaks, "{t}");
        }
        for t in [
            "p", "div", "li", "td", "br", "h1", "section", "option", "pre",
        ] {
            assert!(classify(t).breaks, "{t}");
        }
    }

    #[test]
    fn roles_map_to_context() {
        assert_eq!(role_ctx("navigation"), ctx::NAV);
        assert_eq!(role_ctx("Main"), ctx::ARTICLE);
        assert_eq!(role_ctx("presentation"), 0);
    }
}
