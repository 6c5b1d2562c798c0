//! The `plain` page variant: a page rewritten as a site of about 2008 would have written it.
//!
//! WCXB's pages are modern: they say what their parts are (`<article>`, `<nav>`, `<footer>`,
//! class names such as `post-content`, `role`, microdata) and what the page is (`og:type`,
//! JSON-LD). Older pages (table layouts, `<font>`, `<br>`-separated text) say none of it, so
//! a model trained on WCXB alone meets there combinations of inputs it never saw. [`plain`]
//! removes those signals from a page and keeps everything else byte for byte, so that
//! `mainline label --augment plain` can label each page twice: as written, and plain.
//!
//! What changes:
//! - the sectioning and grouping elements of HTML5 ([`SEMANTIC_ELEMENTS`]) become `div`;
//! - the attributes `class`, `id`, `role`, the microdata attributes (`itemprop`, `itemscope`,
//!   `itemtype`, `itemid`, `itemref`) and every `aria-*` and `data-*` attribute are dropped;
//! - `<meta>` elements of the Open Graph and Twitter card vocabularies (`property` or `name`
//!   starting with `og:` or `twitter:`) and `<script type="application/ld+json">` elements
//!   with their content are dropped.
//!
//! [`tables`] does the same and lays the page out in tables as older sites did: each
//! landmark or section becomes the one cell of a table of its own.
//!
//! The text of the page, its other elements and attributes, its comments and its encoding
//! are untouched. The rewriting streams (lol_html), in the page's own encoding as
//! [`mainline::internals::input::sniff`] finds it; a page in an encoding that is not ASCII-compatible
//! (UTF-16) is returned unchanged.

use lol_html::html_content::ContentType;
use lol_html::{AsciiCompatibleEncoding, HtmlRewriter, Settings, element};

use mainline::{Error, Result};

/// The elements [`plain`] rewrites as `div`: HTML5's sectioning and grouping elements that
/// older pages did not have.
pub const SEMANTIC_ELEMENTS: [&str; 11] = [
    "article",
    "aside",
    "figcaption",
    "figure",
    "footer",
    "header",
    "hgroup",
    "main",
    "nav",
    "search",
    "section",
];

/// The elements of [`SEMANTIC_ELEMENTS`] that [`tables`] rewrites as the one cell of a
/// table of their own: the landmarks and sections a page is laid out in.
pub const LAYOUT_ELEMENTS: [&str; 8] = [
    "article", "aside", "footer", "header", "main", "nav", "search", "section",
];

/// Whether [`plain`] drops an attribute of this (lower-case) name.
fn dropped_attribute(name: &str) -> bool {
    matches!(
        name,
        "class" | "id" | "role" | "itemprop" | "itemscope" | "itemtype" | "itemid" | "itemref"
    ) || name.starts_with("aria-")
        || name.starts_with("data-")
}

/// Whether a `<meta>` with this `property` or `name` belongs to the vocabularies [`plain`]
/// drops.
fn dropped_meta(name: &str) -> bool {
    let name = name.trim().to_ascii_lowercase();
    name.starts_with("og:") || name.starts_with("twitter:")
}

/// The page `html` (its bytes as read, before decoding) rewritten as a site of about 2008
/// would have written it, for training-time augmentation (`mainline label --augment plain`):
/// the elements of [`SEMANTIC_ELEMENTS`] become `div`; the attributes `class`, `id`, `role`,
/// the microdata attributes and every `aria-*` and `data-*` attribute are dropped; so are
/// Open Graph and Twitter `<meta>` elements and `<script type="application/ld+json">` with
/// its content. The text, the other elements and attributes, the comments and the encoding
/// are kept byte for byte. A page in an encoding that is not ASCII-compatible (UTF-16) is
/// returned unchanged.
///
/// ```
/// use mainline_training::train::plain;
///
/// let page = br#"<head><meta property="og:type" content="article"></head>
/// <body><nav class="menu"><a href="/">Home</a></nav>
/// <article id="post" data-x="1"><p class="lead">Hello</p></article></body>"#;
/// let out = String::from_utf8(plain(page)?).unwrap();
/// assert_eq!(
///     out,
///     r#"<head></head>
/// <body><div><a href="/">Home</a></div>
/// <div><p>Hello</p></div></body>"#
/// );
/// # Ok::<(), mainline::Error>(())
/// ```
///
/// # Errors
/// [`Error::Other`] when the rewriter gives up on the page (it has no limit on memory and
/// is not strict, so in practice never).
pub fn plain(html: &[u8]) -> Result<Vec<u8>> {
    rewrite(html, false)
}

/// The page `html` rewritten as [`plain`] does, and laid out in tables as older sites laid
/// out their pages (`mainline label --augment tables`): each element of
/// [`LAYOUT_ELEMENTS`] becomes the one cell of a table of its own
/// (`<table><tr><td>…</td></tr></table>`), so that a page's menus, sidebars, footer and
/// article all lie in table cells, nested as the elements were. The other elements of
/// [`SEMANTIC_ELEMENTS`] become `div`.
///
/// ```
/// use mainline_training::train::tables;
///
/// let page = br#"<body><nav class="menu"><a href="/">Home</a></nav>
/// <article id="post"><p>Hello</p><figure>x</figure></article></body>"#;
/// let out = String::from_utf8(tables(page)?).unwrap();
/// assert_eq!(
///     out,
///     r#"<body><table><tr><td><a href="/">Home</a></td></tr></table>
/// <table><tr><td><p>Hello</p><div>x</div></td></tr></table></body>"#
/// );
/// # Ok::<(), mainline::Error>(())
/// ```
///
/// # Errors
/// As [`plain`].
pub fn tables(html: &[u8]) -> Result<Vec<u8>> {
    rewrite(html, true)
}

/// [`plain`], and with `tables` the layout of [`tables`].
fn rewrite(html: &[u8], tables: bool) -> Result<Vec<u8>> {
    let sniffed = mainline::internals::input::sniff(html, true);
    let Some(encoding) = AsciiCompatibleEncoding::new(sniffed.encoding) else {
        return Ok(html.to_vec());
    };
    let mut out = Vec::with_capacity(html.len());
    let settings = Settings::new()
        .with_strict(false)
        .with_encoding(encoding)
        .append_element_content_handler(element!("*", |el| {
            let html = el.namespace_uri() == "http://www.w3.org/1999/xhtml";
            let tag = el.tag_name();
            if html
                && tag == "meta"
                && ["property", "name"]
                    .iter()
                    .any(|a| el.get_attribute(a).is_some_and(|v| dropped_meta(&v)))
            {
                el.remove();
                return Ok(());
            }
            if html
                && tag == "script"
                && el
                    .get_attribute("type")
                    .is_some_and(|t| t.trim().eq_ignore_ascii_case("application/ld+json"))
            {
                el.remove();
                return Ok(());
            }
            if html && tables && LAYOUT_ELEMENTS.contains(&tag.as_str()) {
                el.before("<table><tr>", ContentType::Html);
                el.set_tag_name("td")?;
                el.after("</tr></table>", ContentType::Html);
            } else if html && SEMANTIC_ELEMENTS.contains(&tag.as_str()) {
                el.set_tag_name("div")?;
            }
            let names: Vec<String> = el
                .attributes()
                .iter()
                .map(|a| a.name())
                .filter(|n| dropped_attribute(n))
                .collect();
            for name in names {
                el.remove_attribute(&name);
            }
            Ok(())
        }));
    let mut rewriter = HtmlRewriter::new(settings, |chunk: &[u8]| out.extend_from_slice(chunk));
    let fail = |e: lol_html::errors::RewritingError| {
        let what = if tables {
            "laid out in tables"
        } else {
            "as a plain page"
        };
        Error::Other(format!("rewriting the page {what}: {e}"))
    };
    rewriter.write(html).map_err(fail)?;
    rewriter.end().map_err(fail)?;
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plain_str(html: &str) -> String {
        String::from_utf8(plain(html.as_bytes()).unwrap()).unwrap()
    }

    #[test]
    fn semantic_elements_become_divs_with_their_end_tags() {
        for tag in SEMANTIC_ELEMENTS {
            let html = format!("<{tag}>text</{tag}><p>after</p>");
            assert_eq!(plain_str(&html), "<div>text</div><p>after</p>", "{tag}");
        }
        let upper = plain_str("<NAV><UL><LI>x</UL></NAV>");
        assert_eq!(upper, "<div><UL><LI>x</UL></div>");
    }

    #[test]
    fn hint_attributes_go_and_the_others_stay() {
        let html = r#"<div class="post-body" id="main" role="main" itemprop="articleBody" itemscope itemtype="https://schema.org/Article" aria-label="x" data-id="7" style="color:red" title="t"><a href="/a" rel="nofollow" data-track="1">a</a><img src="i.png" alt="pic" class="hero"></div>"#;
        assert_eq!(
            plain_str(html),
            r#"<div style="color:red" title="t"><a href="/a" rel="nofollow">a</a><img src="i.png" alt="pic"></div>"#
        );
    }

    #[test]
    fn social_meta_and_json_ld_are_dropped_and_the_rest_of_the_head_stays() {
        let html = r#"<html><head><meta charset="utf-8"><title>T</title><meta name="description" content="d"><meta property="og:title" content="T"><meta property="OG:type" content="article"><meta name="twitter:card" content="summary"><script type="application/ld+json">{"@type":"NewsArticle"}</script><script>var a = 1;</script></head><body><p>x</p></body></html>"#;
        assert_eq!(
            plain_str(html),
            r#"<html><head><meta charset="utf-8"><title>T</title><meta name="description" content="d"><script>var a = 1;</script></head><body><p>x</p></body></html>"#
        );
    }

    #[test]
    fn text_comments_and_legacy_bytes_are_kept_as_they_are() {
        let html = b"<meta charset=\"windows-1252\"><!-- c --><section class=\"s\"><p>caf\xe9 &amp; cr\xe8me<br>two</p></section><svg><nav class=\"k\"/></svg>";
        let out = plain(html).unwrap();
        assert_eq!(
            out,
            b"<meta charset=\"windows-1252\"><!-- c --><div><p>caf\xe9 &amp; cr\xe8me<br>two</p></div><svg><nav/></svg>"
                .to_vec()
        );
    }

    #[test]
    fn layout_elements_become_single_cell_tables_nested_as_they_were() {
        let out = |html: &str| String::from_utf8(tables(html.as_bytes()).unwrap()).unwrap();
        for tag in LAYOUT_ELEMENTS {
            let html = format!("<{tag} class=c>text</{tag}><p>after</p>");
            assert_eq!(
                out(&html),
                "<table><tr><td>text</td></tr></table><p>after</p>",
                "{tag}"
            );
        }
        assert_eq!(
            out("<main><header><h1>T</h1></header><figure>f</figure><hgroup>h</hgroup></main>"),
            "<table><tr><td><table><tr><td><h1>T</h1></td></tr></table><div>f</div>\
             <div>h</div></td></tr></table>"
        );
        // Foreign content keeps its element names, and so do pages without landmarks.
        assert_eq!(out("<svg><nav/></svg>"), "<svg><nav/></svg>");
        let old = "<table><tr><td>Menu</td><td>Text</td></tr></table>";
        assert_eq!(out(old), old);
    }

    #[test]
    fn a_page_without_those_signals_is_unchanged() {
        let html = "<html><head><title>Old</title></head><body><table width=\"100%\"><tr><td valign=\"top\"><font face=\"Arial\" size=\"2\">Menu<br>Links</font></td><td>Text</td></tr></table></body></html>";
        assert_eq!(plain_str(html), html);
        assert_eq!(plain(b"").unwrap(), b"");
    }
}
