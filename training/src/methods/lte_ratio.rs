//! LTE ratio: an `<article>`, or the wordiest of the `div`s densest in text.
//!
//! 1. If the page has an `<article>` element, its text is the main content (the first
//!    one in document order, as lxml's `find(".//article")` returns).
//! 2. Otherwise every `div` gets the ratio of its text length to the length of its
//!    serialised HTML, both with all whitespace removed (the description's
//!    `pattern.sub("", ...)`): a `div` of plain paragraphs scores near 1, one full of links
//!    and markup scores low.
//! 3. The `div`s are sorted by decreasing ratio (a stable sort, so equal ratios keep
//!    document order) and, of the first [`TOP_N`], the one with the most `\w+` words wins
//!    (the first among equals). Its text is the output.
//!
//! Like the description, scripts and styles are stripped before measuring; comments and
//! the other elements that carry no text are stripped too. Lengths are counted in
//! characters on both sides of the ratio: the description's markup length counts the
//! bytes of lxml's default ASCII serialisation, where every non-ASCII character becomes
//! a numeric character reference, which would rank `div`s by writing system rather than by
//! density. Words are counted on the text with blocks on separate lines, so two
//! paragraphs never merge into one word. A page without an `article` and without a `div`
//! with words gives an empty result.

use std::sync::LazyLock;

use regex::Regex;

use super::dom::{Dom, markup_lengths};

/// How many of the densest `div`s compete on word count.
///
/// The description names the step ("take the top n divs") but not `n`; its purpose is to
/// let a long letter beat the few shorter, equally dense comment `div`s next to it. Five
/// candidates serve that purpose while keeping the density ranking decisive. Larger
/// values score better only because the method then drifts towards "the `div` with the
/// most words", a different baseline that ignores the text-to-markup ratio altogether.
pub const TOP_N: usize = 5;

/// The description's word tokenizer, `RegexpTokenizer(r'\w+')`.
static WORD: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"\w+").expect("the word pattern is valid"));

/// The main text of `html` by the LTE text-to-markup ratio. One block per line.
///
/// Empty when the document is beyond the comparison methods' limits; [`super::Method::try_extract`] says why.
pub fn extract(html: &str) -> String {
    crate::methods::dom::parse_document(html)
        .map(|parsed| extract_parsed(&parsed))
        .unwrap_or_default()
}

/// The main text of a parsed document by the LTE text-to-markup ratio.
pub(crate) fn extract_parsed(parsed: &scraper::Html) -> String {
    let dom = Dom::new(parsed);
    if let Some(article) = dom.first_element("article") {
        return dom.render(article);
    }

    let text = dom.text_lengths();
    let markup = markup_lengths(&dom);
    let mut divs: Vec<(usize, f64)> = (0..dom.len())
        .filter(|&i| dom.tag(i) == Some("div"))
        .map(|i| (i, text[i] as f64 / markup[i].max(1) as f64))
        .collect();
    divs.sort_by(|a, b| b.1.total_cmp(&a.1));

    let mut winner: Option<(String, usize)> = None;
    for &(div, _) in divs.iter().take(TOP_N) {
        let rendered = dom.render(div);
        let words = WORD.find_iter(&rendered).count();
        if words > winner.as_ref().map_or(0, |(_, w)| *w) {
            winner = Some((rendered, words));
        }
    }
    winner.map(|(text, _)| text).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_article_element_is_preferred_to_any_div() {
        let html = "<body><div><p>A dense div with plenty of words in it, many more than \
            the article has.</p></div><article><p>The article.</p></article>\
            <article><p>A second article.</p></article></body>";
        assert_eq!(extract(html), "The article.");
    }

    #[test]
    fn the_dense_div_with_most_words_beats_a_link_heavy_one() {
        let links: String = (0..40)
            .map(|i| {
                format!("<li><a href=\"/section/{i}\" class=\"nav-link\">Section {i}</a></li>")
            })
            .collect();
        // Captions are denser than the navigation, which falls out of the top five.
        let credits: String = (0..TOP_N)
            .map(|i| format!("<div class=\"credit\">Photo {i}: staff</div>"))
            .collect();
        let html = format!(
            "<body><div id=\"nav\"><ul>{links}</ul></div>\
             <div id=\"story\"><p>The letter to the editor starts with a complaint about \
             the buses.</p><p>It goes on for a while about timetables and fares.</p>\
             <p>It ends with a plea for better service.</p></div>\
             {credits}</body>"
        );
        let text = extract(&html);
        assert!(text.starts_with("The letter to the editor"), "{text}");
        assert!(text.ends_with("a plea for better service."));
        assert!(!text.contains("Section"));
    }

    #[test]
    fn among_the_densest_divs_the_wordiest_wins() {
        // The one-line credit is denser than the classy story but has fewer words.
        let html = "<body><div>Photographer credit line</div><div>\
            <p class=\"lead-paragraph-text\">A story of several words that goes on.</p>\
            <p class=\"lead-paragraph-text\">And on, for a second paragraph.</p></div></body>";
        assert!(extract(html).starts_with("A story"));
    }

    #[test]
    fn pages_without_article_or_div_give_nothing() {
        assert_eq!(extract(""), "");
        assert_eq!(extract("<body><p>No divs at all.</p></body>"), "");
        assert_eq!(extract("<body><div> </div></body>"), "");
    }
}
