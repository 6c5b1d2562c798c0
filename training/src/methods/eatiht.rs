//! eatiht: the subtree where most sentences of lengthy text live.
//!
//! 1. **Selection** (`//body//*/text()[string-length(normalize-space()) > 20]/..`): the
//!    elements inside `body` that directly hold a text node longer than
//!    [`MIN_TEXT_NODE_LEN`] characters once whitespace is collapsed and trimmed.
//! 2. **Partitioning**: the direct text of each selected element (all its text children,
//!    as in the description's pseudo-code) is split into sentences, see
//!    [`count_sentences`].
//! 3. **Histogram**: each selected element adds its sentence count to the bucket of its
//!    parent, i.e. the grandparent of the text (the description's "drop the last path"
//!    step). A bucket stands for one concrete element, as an indexed absolute XPath such as
//!    `/html/body/div[2]/article` does, so sibling `div`s are separate buckets.
//! 4. **Merging**: the bucket with the most sentences wins (among equals, the one filled
//!    first in document order, as Python's `Counter.most_common` does). The output is the
//!    text of every selected element inside the winner, in document order, one block per
//!    line.
//!
//! The original code tests "inside" as a substring match of XPath strings, which also
//! matches `div[10]` for `div[1]`; here it is real containment. A selected element that
//! lies inside another selected element already output is not repeated.
//! `script`, `style` and similar elements never hold selectable text. The selection is the
//! description's simplified XPath; its original one also skipped text directly inside
//! `i`, `b`, `strong`, `span` and `a`, which loses the paragraphs of the many sites that
//! wrap their text in `span`s.

use std::collections::HashMap;
use std::sync::LazyLock;

use regex::Regex;

use super::dom::{Dom, Kind, LineWriter, normalized_len};

/// A text node is "lengthy" when its whitespace-normalised length exceeds this many
/// characters. The description's value: 20.
pub const MIN_TEXT_NODE_LEN: usize = 20;

/// Sentence boundary: terminal punctuation (`.`, `!`, `?`, `…`), optionally followed by
/// closing quotes or brackets, then whitespace; or CJK full stops, which need no space.
static SENTENCE_END: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r#"(?:[.!?…]+["'”’»)\]]*\s+)|(?:[。！？]+["'”’」』）)]*\s*)"#)
        .expect("the sentence boundary pattern is valid")
});

/// Number of sentences in `text`, the description's partitioning step.
///
/// A sentence ends at `.`, `!`, `?` or `…` (with any closing quotes or brackets) followed
/// by whitespace, or at a CJK full stop. A Latin boundary followed by a lower-case letter
/// is taken for an abbreviation ("e.g. this") and does not split. Pieces without a letter
/// or digit do not count; the last piece counts without final punctuation, so a title-like
/// text is one sentence.
pub fn count_sentences(text: &str) -> usize {
    let is_sentence = |piece: &str| piece.chars().any(char::is_alphanumeric);
    let mut count = 0;
    let mut start = 0;
    for boundary in SENTENCE_END.find_iter(text) {
        let latin = !boundary.as_str().starts_with(['。', '！', '？']);
        let next = text[boundary.end()..].chars().next();
        if latin && next.is_some_and(char::is_lowercase) {
            continue;
        }
        if is_sentence(&text[start..boundary.end()]) {
            count += 1;
        }
        start = boundary.end();
    }
    if is_sentence(&text[start..]) {
        count += 1;
    }
    count
}

/// The main text of `html` by eatiht. One block per line.
///
/// Empty when the document is beyond the comparison methods' limits; [`super::Method::try_extract`] says why.
pub fn extract(html: &str) -> String {
    crate::methods::dom::parse_document(html)
        .map(|parsed| extract_parsed(&parsed))
        .unwrap_or_default()
}

/// The main text of a parsed document by eatiht.
pub(crate) fn extract_parsed(parsed: &scraper::Html) -> String {
    let dom = Dom::new(parsed);
    let Some(body) = dom.body() else {
        return String::new();
    };
    let selected = select(&dom, body);

    // Histogram over grandparents of the lengthy text, in order of first use.
    let mut slot_of: HashMap<usize, usize> = HashMap::new();
    let mut histogram: Vec<(usize, usize)> = Vec::new();
    for &parent in &selected {
        let Some(grandparent) = dom.node(parent).parent else {
            continue;
        };
        let sentences = count_sentences(&dom.own_text(parent));
        let slot = *slot_of.entry(grandparent).or_insert_with(|| {
            histogram.push((grandparent, 0));
            histogram.len() - 1
        });
        histogram[slot].1 += sentences;
    }
    let mut best: Option<(usize, usize)> = None;
    for &(node, count) in &histogram {
        if best.is_none_or(|(_, c)| count > c) {
            best = Some((node, count));
        }
    }
    let Some((winner, _)) = best else {
        return String::new();
    };

    let mut writer = LineWriter::default();
    let mut covered_until = 0;
    for &parent in &selected {
        if parent < covered_until || !dom.contains(winner, parent) {
            continue;
        }
        dom.render_into(parent, &mut writer);
        covered_until = dom.node(parent).end;
    }
    writer.finish()
}

/// Elements strictly inside `body` with a direct text child longer than
/// [`MIN_TEXT_NODE_LEN`] after whitespace normalisation, in document order.
fn select(dom: &Dom<'_>, body: usize) -> Vec<usize> {
    let mut selected = Vec::new();
    for i in body + 1..dom.node(body).end {
        let Kind::Text(text) = dom.node(i).kind else {
            continue;
        };
        let Some(parent) = dom.node(i).parent else {
            continue;
        };
        if parent != body
            && selected.last() != Some(&parent)
            && normalized_len(text) > MIN_TEXT_NODE_LEN
        {
            selected.push(parent);
        }
    }
    // A parent's text children are not contiguous in document order when elements sit
    // between them, so the same parent may have been pushed twice, non-adjacently.
    selected.sort_unstable();
    selected.dedup();
    selected
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The description's example page, verbatim (including its unclosed `div` and `</p`).
    const FOOBAR: &str = r#"<html>
    <head></head>
    <body>
        <div>
            <article>
                <p>This is a story about the life of Foo</p>
                <p>The life of Foo was one of great foo</p>
                <p>Foo foo, foo foo foo. Foo, foofoo?</p>
                <p>Foo was no stranger to foo. For Foo did foo</p>
            </article>
        </div>
        <div>
            <div>
                <p>Buy Bar Now!</p>
                <p>Get The Bar Next Door!</p>
                <p>Increase Your Bar!</p>
                <p>Never Bar again!</p>
            </div>
        <div>
            <footer>
                <p>Who the hell is Boo. Who the hell is Far?</p
            </footer>
        </div>
    </body>
</html>"#;

    #[test]
    fn foobar_yields_the_four_foo_paragraphs_and_no_ads_or_footer() {
        assert_eq!(
            extract(FOOBAR),
            "This is a story about the life of Foo\n\
             The life of Foo was one of great foo\n\
             Foo foo, foo foo foo. Foo, foofoo?\n\
             Foo was no stranger to foo. For Foo did foo"
        );
    }

    #[test]
    fn sentences_are_counted_as_in_the_foobar_histogram() {
        assert_eq!(count_sentences("This is a story about the life of Foo"), 1);
        assert_eq!(count_sentences("Foo foo, foo foo foo. Foo, foofoo?"), 2);
        assert_eq!(
            count_sentences("Foo was no stranger to foo. For Foo did foo"),
            2
        );
        assert_eq!(
            count_sentences("Who the hell is Boo. Who the hell is Far?"),
            2
        );
    }

    #[test]
    fn sentence_splitting_handles_quotes_abbreviations_and_cjk() {
        assert_eq!(count_sentences("He said \"stop.\" Then he left!"), 2);
        assert_eq!(count_sentences("Bring fruit, e.g. apples. Or pears."), 2);
        assert_eq!(count_sentences("今天天气很好。我们去公园吧！"), 2);
        assert_eq!(count_sentences("... --- !!!"), 0);
        assert_eq!(count_sentences(""), 0);
    }

    #[test]
    fn many_sentences_in_one_paragraph_outweigh_many_short_teasers() {
        let html = "<body>\
            <div><aside><p>Teaser headline number one here</p></aside>\
                 <aside><p>Teaser headline number two here</p></aside></div>\
            <main><section><p>The article opens here. It has many sentences. They add up. \
            Each one counts. The histogram sees them all.</p></section></main></body>";
        let text = extract(html);
        assert!(text.starts_with("The article opens here."));
        assert!(!text.contains("Teaser"));
    }

    #[test]
    fn sibling_containers_are_separate_buckets() {
        // Two `div`s with the same tag path: the second has more sentences.
        let html = "<body><div><p>One sentence in the first box.</p></div>\
            <div><p>First of two sentences here. Second of two sentences here.</p></div></body>";
        assert_eq!(
            extract(html),
            "First of two sentences here. Second of two sentences here."
        );
    }

    #[test]
    fn nested_selected_elements_are_output_once() {
        let html = "<body><main><div>An introduction that is long enough. \
            <p>A paragraph nested inside the introduction.</p></div>\
            <div>Another block that is long enough.</div></main></body>";
        let text = extract(html);
        assert_eq!(text.matches("A paragraph nested").count(), 1);
        assert!(text.contains("Another block"));
    }

    #[test]
    fn text_directly_in_body_or_in_scripts_is_not_selected() {
        let html = "<body>Text written directly into the body element.\
            <script>var longEnoughScriptText = 'is not text at all';</script></body>";
        assert_eq!(extract(html), "");
        assert_eq!(extract(""), "");
    }
}
