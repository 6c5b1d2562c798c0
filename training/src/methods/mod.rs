//! Whole-document comparison methods.
//!
//! Four published heuristics for finding the main content of a page, kept as baselines to
//! compare mainline's line classifier against. Unlike the rest of mainline they are not
//! streaming: each parses the whole document into a DOM with a real HTML5 parser
//! (html5ever, through `scraper`), then picks a subtree.
//!
//! | method | picks |
//! |---|---|
//! | [`Method::MostLinked`] | the element with most content-bearing child branches ([`most_linked`]) |
//! | [`Method::TextDistribution`] | the node below which text is spread evenly, walking down from `body` ([`text_distribution`]) |
//! | [`Method::Eatiht`] | the element whose children hold most sentences of lengthy text ([`eatiht`]) |
//! | [`Method::LteRatio`] | an `<article>`, else the wordiest of the `div`s densest in text ([`lte_ratio`]) |
//!
//! All of them share the same text conventions: script, style, template, SVG, MathML,
//! frame fallback and comment content never appears in the output; `<noscript>` content
//! is read as markup, as with scripting disabled (and by the line splitter); whitespace
//! is collapsed within a block; block-level elements (`p`, `div`, `li`, headings, table
//! cells, `br`, ...) start new lines; the output has no empty lines and no trailing
//! newline. Entities are decoded by the parser. A page without a body or without text
//! gives an empty string. Every traversal is iterative, so deeply nested documents do not
//! exhaust the stack.
//!
//! ```
//! use mainline_training::methods::Method;
//!
//! let html = "<html><body>\
//!     <nav><a href='/'>Home</a> <a href='/about'>About</a></nav>\
//!     <article><p>First sentence of the story. And a second one.</p>\
//!     <p>Another paragraph that is long enough.</p></article>\
//!     </body></html>";
//! let text = Method::Eatiht.extract(html);
//! assert_eq!(
//!     text,
//!     "First sentence of the story. And a second one.\nAnother paragraph that is long enough."
//! );
//! assert!(!text.contains("Home"));
//!
//! let method: Method = "lte-ratio".parse().unwrap();
//! assert_eq!(method, Method::LteRatio);
//! ```

use std::fmt;
use std::str::FromStr;

mod dom;
pub mod eatiht;
pub mod lte_ratio;
pub mod most_linked;
pub mod text_distribution;

/// The longest document the methods parse: 32 MiB (a parsed tree takes several times the
/// bytes of its document).
pub const MAX_DOCUMENT_BYTES: usize = 32 << 20;

/// The deepest the methods let elements nest: 2,000. html5ever checks the open elements
/// from the innermost outwards at many tags, so its time grows with the square of the depth
/// (40,000 nested `div`s took 6.7 s); real pages nest a few dozen deep.
pub const MAX_DEPTH: usize = 2_000;

/// The most elements the methods build for a document of `bytes` bytes: 10,000 plus one
/// per 2 bytes (a start tag takes at least 3), at most 1,000,000. Beyond that the tree is
/// made of elements the parser reopens (formatting elements such as `<b>` are reopened in
/// every paragraph after them: 2,000 of them before 2,000 paragraphs gave 4 million
/// elements, 1.17 GB, from 37 KB).
pub fn max_elements(bytes: usize) -> usize {
    (10_000 + bytes / 2).min(1_000_000)
}

/// A whole-document comparison method.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Method {
    /// The element that most content nodes' branches lead into ([`most_linked`]).
    MostLinked,
    /// Descend from `body` until the text is evenly distributed ([`text_distribution`]).
    TextDistribution,
    /// The parent of most sentences of lengthy text ([`eatiht`]).
    Eatiht,
    /// An `<article>`, else the wordiest text-dense `div` ([`lte_ratio`]).
    LteRatio,
}

impl Method {
    /// Every method, in a fixed order.
    pub const ALL: [Method; 4] = [
        Method::MostLinked,
        Method::TextDistribution,
        Method::Eatiht,
        Method::LteRatio,
    ];

    /// The method's name as used on the command line: `most-linked`,
    /// `text-distribution`, `eatiht` or `lte-ratio`.
    pub fn name(self) -> &'static str {
        match self {
            Method::MostLinked => "most-linked",
            Method::TextDistribution => "text-distribution",
            Method::Eatiht => "eatiht",
            Method::LteRatio => "lte-ratio",
        }
    }

    /// A one-line description of the method.
    pub fn description(self) -> &'static str {
        match self {
            Method::MostLinked => "element with the most child branches holding substantial text",
            Method::TextDistribution => {
                "walk down from <body> into the child with most text until text is spread evenly"
            }
            Method::Eatiht => "element whose children hold the most sentences of lengthy text",
            Method::LteRatio => "<article>, else the wordiest of the divs densest in text",
        }
    }

    /// The main text of `html` by this method: one block per line, lines separated by
    /// `'\n'`, no empty lines and no trailing newline. Empty when the method finds
    /// nothing, and when the document is beyond the limits ([`Method::try_extract`] says
    /// why).
    pub fn extract(self, html: &str) -> String {
        self.try_extract(html).unwrap_or_default()
    }

    /// As [`Method::extract`], with an error for a document beyond the limits.
    ///
    /// ```
    /// use mainline_training::methods::{Method, MAX_DEPTH};
    /// let deep = "<div>".repeat(MAX_DEPTH + 1) + "text";
    /// let err = Method::Eatiht.try_extract(&deep).unwrap_err();
    /// assert!(err.to_string().contains("nest more than"));
    /// ```
    ///
    /// # Errors
    /// [`mainline::Error::Other`] when the document is longer than [`MAX_DOCUMENT_BYTES`],
    /// nests elements deeper than [`MAX_DEPTH`], or parses into more elements than
    /// [`max_elements`] allows. Parsing stops at the limit.
    pub fn try_extract(self, html: &str) -> mainline::Result<String> {
        let parsed = dom::parse_document(html)?;
        Ok(match self {
            Method::MostLinked => most_linked::extract_parsed(&parsed),
            Method::TextDistribution => {
                text_distribution::extract_parsed(&parsed, text_distribution::Spread::default())
            }
            Method::Eatiht => eatiht::extract_parsed(&parsed),
            Method::LteRatio => lte_ratio::extract_parsed(&parsed),
        })
    }
}

impl fmt::Display for Method {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Method {
    type Err = mainline::Error;

    /// Parses a method name (ASCII case-insensitive).
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let wanted = s.trim();
        Method::ALL
            .into_iter()
            .find(|m| m.name().eq_ignore_ascii_case(wanted))
            .ok_or_else(|| {
                let names: Vec<&str> = Method::ALL.iter().map(|m| m.name()).collect();
                mainline::Error::Other(format!(
                    "unknown method `{s}`; valid methods: {}",
                    names.join(", ")
                ))
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_through_parsing_and_display() {
        for method in Method::ALL {
            assert_eq!(method.name().parse::<Method>().unwrap(), method);
            assert_eq!(method.to_string(), method.name());
            assert!(!method.description().is_empty());
        }
        assert_eq!("EATIHT".parse::<Method>().unwrap(), Method::Eatiht);
    }

    #[test]
    fn an_unknown_name_is_rejected_with_the_valid_names() {
        let message = "readability".parse::<Method>().unwrap_err().to_string();
        assert!(message.contains("readability"));
        for method in Method::ALL {
            assert!(message.contains(method.name()), "{message}");
        }
    }

    #[test]
    fn degenerate_pages_give_empty_text_without_panicking() {
        // Pages without any text: every method gives nothing.
        let textless = [
            "",
            "   ",
            "<html></html>",
            "<body></body>",
            "<!-- only a comment -->",
            "<frameset><frame src=a.html></frameset>",
            "<div><div><div></div></div></div>",
            "<script>document.write('a script that is long enough to be text')</script>",
            "<table><tr><td></td></tr></table>",
        ];
        // Pages with text but no structure: whatever a method gives, it does not panic.
        let unstructured = [
            "plain text without any markup at all, long enough to matter",
            "\u{0}\u{feff}<<<>>>&&&;",
        ];
        for page in textless.iter().chain(&unstructured) {
            for method in Method::ALL {
                let text = method.extract(page);
                if textless.contains(page) {
                    assert_eq!(text, "", "{method} on {page:?}");
                }
                assert!(!text.contains("script"), "{method} on {page:?}: {text:?}");
                assert!(!text.ends_with('\n') && !text.starts_with('\n'));
            }
            let graph = most_linked::dot(page);
            assert!(graph.starts_with("digraph G {"));
        }
    }

    #[test]
    fn adjacent_blocks_never_glue_words_together() {
        let html = "<body><article><h1>Title</h1><p>first</p><div>second</div><ul><li>third</li>\
            <li>fourth</li></ul><table><tr><td>fifth</td><td>sixth</td></tr></table></article></body>";
        assert_eq!(
            Method::LteRatio.extract(html),
            "Title\nfirst\nsecond\nthird\nfourth\nfifth\nsixth"
        );
    }

    /// A page whose elements nest `depth` levels deep around two paragraphs, alternating
    /// `open` and its matching `close` tags.
    fn deep_page(depth: usize, open: &[&str], close: &[&str]) -> String {
        let mut html = String::from("<html><body>");
        for i in 0..depth {
            html.push_str(open[i % open.len()]);
        }
        html.push_str(
            "<p>The innermost paragraph has enough text to be a content node of its own.</p>",
        );
        html.push_str(
            "<p>And a second paragraph that also has enough text to be a content node.</p>",
        );
        for i in (0..depth).rev() {
            html.push_str(close[i % close.len()]);
        }
        html.push_str("</body></html>");
        html
    }

    fn assert_every_method_finds_the_innermost_text(html: &str) {
        for method in Method::ALL {
            let text = method.extract(html);
            assert!(
                text.starts_with("The innermost paragraph") && text.ends_with("content node."),
                "{method}: {:?}",
                text.chars().take(200).collect::<String>()
            );
        }
        assert!(most_linked::dot(html).contains("lightblue"));
    }

    #[test]
    fn elements_nested_to_the_depth_limit_do_not_overflow_the_stack() {
        // `div`s alternate with `object`s: html5ever checks for an open `p` at every `div`
        // by scanning the open elements down to the nearest `object` (or similar), so this
        // shape parses in linear time. The depth our own traversals see is the same.
        let html = deep_page(
            MAX_DEPTH - 10,
            &["<div>", "<object>"],
            &["</div>", "</object>"],
        );
        assert_every_method_finds_the_innermost_text(&html);
    }

    #[test]
    fn a_hundred_thousand_nested_divs_are_refused_at_the_depth_limit() {
        // Parsed whole, these took minutes (quadratic in the depth); parsing stops at the
        // limit.
        let html = deep_page(100_000, &["<div>"], &["</div>"]);
        for method in Method::ALL {
            let err = method.try_extract(&html).unwrap_err().to_string();
            assert!(err.contains("nest more than 2000 deep"), "{err}");
        }
        assert_eq!(Method::Eatiht.extract(&html), "");
        assert!(most_linked::try_dot(&html).is_err());
    }

    #[test]
    fn formatting_elements_reopened_in_every_paragraph_are_refused() {
        // 2,000 distinct `<b>`s open in a paragraph are reopened in each of the 2,000
        // paragraphs after it: 4 million elements (1.17 GB) from 37 KB.
        let mut html = String::from("<body><p>");
        for i in 0..1_500 {
            html.push_str(&format!("<b id={i}>"));
        }
        html.push_str("x</p>");
        html.push_str(&"<p>x</p>".repeat(2_000));
        let err = Method::MostLinked
            .try_extract(&html)
            .unwrap_err()
            .to_string();
        assert!(err.contains("more than"), "{err}");
        assert!(err.contains("elements"), "{err}");
    }

    #[test]
    fn a_zero_width_no_break_space_at_any_offset_is_kept() {
        // html5ever drops U+FEFF at the start of each piece it is fed.
        for pad in 0..8 {
            let html = format!("<body><p>{}a\u{feff}b</p></body>", "x".repeat(490 + pad));
            let text = Method::LteRatio.extract(&html.replace("<p>", "<article><p>"));
            assert!(text.ends_with("a\u{feff}b"), "{pad}: {text:?}");
        }
    }

    #[test]
    fn a_document_over_the_size_limit_is_refused_before_parsing() {
        let html = "a".repeat(MAX_DOCUMENT_BYTES + 1);
        let err = Method::Eatiht.try_extract(&html).unwrap_err().to_string();
        assert!(err.contains("at most 32 MiB"), "{err}");
    }
}
