//! Text distribution: descend from `body` towards the text until it is spread evenly.
//!
//! The walk starts at `body`. A node with exactly one sub-node passes straight on to it.
//! Otherwise, with `L(i)` the text length of sub-node `i`, `FTL` the text length of the
//! whole node and `LV` the spread ("linear variance") of the `L(i)`, the coefficient
//! `K = 100 · LV / FTL` says how unevenly the text is distributed. Below
//! [`K_THRESHOLD_PERCENT`] the text is spread across the sub-nodes like paragraphs of one
//! article, and the node is the main content; otherwise the walk descends into the
//! sub-node with the most text.
//!
//! Choices the description leaves open:
//!
//! - **Text length** counts non-whitespace characters, so indentation between tags does
//!   not count as text.
//! - **Sub-nodes** are the element children plus every direct text child that is not
//!   whitespace. Text written straight into a node (as in the `td` of the description's
//!   example) is part of how the node's text is distributed. If the sub-node with the most
//!   text is such a text run, or the only sub-node is one, the text lives in the current
//!   node itself and the walk stops there.
//! - **LV** is left undefined ("linear variance"); it is measured as the mean absolute
//!   deviation of the `L(i)` ([`Spread::MeanAbsoluteDeviation`]): it has the unit of a
//!   length, like `FTL`, so `K` is a percentage. The standard deviation
//!   ([`Spread::StandardDeviation`]) is never smaller than the mean absolute deviation, so
//!   with it `K` stays above the threshold longer and the walk descends too deep, losing
//!   recall.
//! - A node without text gives an empty result; a node without sub-nodes gives its text.

use super::dom::{Dom, Kind};

/// Distribution coefficient `K`, in percent, below which the text counts as evenly spread
/// and the current node is returned. The description's value: 5%.
pub const K_THRESHOLD_PERCENT: f64 = 5.0;

/// How the spread `LV` of the sub-nodes' text lengths is measured.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Spread {
    /// Mean absolute deviation from the mean, `Σ|L(i) − mean| / n` (the default).
    #[default]
    MeanAbsoluteDeviation,
    /// Population standard deviation, `√(Σ(L(i) − mean)² / n)`.
    StandardDeviation,
}

impl Spread {
    /// The spread of `lengths` (0 for an empty list).
    pub fn of(self, lengths: &[usize]) -> f64 {
        if lengths.is_empty() {
            return 0.0;
        }
        let n = lengths.len() as f64;
        let mean = lengths.iter().sum::<usize>() as f64 / n;
        match self {
            Spread::MeanAbsoluteDeviation => {
                lengths
                    .iter()
                    .map(|&l| (l as f64 - mean).abs())
                    .sum::<f64>()
                    / n
            }
            Spread::StandardDeviation => (lengths
                .iter()
                .map(|&l| (l as f64 - mean).powi(2))
                .sum::<f64>()
                / n)
                .sqrt(),
        }
    }
}

/// The main text of `html` by text distribution, with `LV` measured as the mean absolute
/// deviation. One block per line.
///
/// Empty when the document is beyond the comparison methods' limits; [`super::Method::try_extract`] says why.
pub fn extract(html: &str) -> String {
    extract_with(html, Spread::MeanAbsoluteDeviation)
}

/// The main text of `html` by text distribution, with `LV` measured by `spread`.
///
/// Empty when the document is beyond the comparison methods' limits; [`super::Method::try_extract`] says why.
pub fn extract_with(html: &str, spread: Spread) -> String {
    crate::methods::dom::parse_document(html)
        .map(|parsed| extract_parsed(&parsed, spread))
        .unwrap_or_default()
}

/// The main text of a parsed document by text distribution.
pub(crate) fn extract_parsed(parsed: &scraper::Html, spread: Spread) -> String {
    let dom = Dom::new(parsed);
    match choose(&dom, spread) {
        Some(node) => dom.render(node),
        None => String::new(),
    }
}

/// A sub-node: an element child to descend into, or a run of text inside the node itself.
#[derive(Debug, Clone, Copy)]
enum SubNode {
    Element(usize),
    Text,
}

/// The node the walk stops at, or `None` when there is no `body` or no text.
fn choose(dom: &Dom<'_>, spread: Spread) -> Option<usize> {
    let lengths = dom.text_lengths();
    let mut node = dom.body()?;
    loop {
        let total = lengths[node];
        if total == 0 {
            return None;
        }
        let subnodes: Vec<(SubNode, usize)> = dom
            .node(node)
            .children
            .iter()
            .filter_map(|&c| match dom.node(c).kind {
                Kind::Element(..) => Some((SubNode::Element(c), lengths[c])),
                Kind::Text(_) if lengths[c] > 0 => Some((SubNode::Text, lengths[c])),
                Kind::Text(_) => None,
            })
            .collect();
        let next = match subnodes.as_slice() {
            [] => return Some(node),
            [(only, _)] => *only,
            _ => {
                let l: Vec<usize> = subnodes.iter().map(|&(_, len)| len).collect();
                let k = 100.0 * spread.of(&l) / total as f64;
                if k < K_THRESHOLD_PERCENT {
                    return Some(node);
                }
                // The first of equally long sub-nodes, in document order.
                let (mut best, mut best_len) = subnodes[0];
                for &(sub, len) in &subnodes[1..] {
                    if len > best_len {
                        (best, best_len) = (sub, len);
                    }
                }
                best
            }
        };
        match next {
            SubNode::Element(child) => node = child,
            SubNode::Text => return Some(node),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The description's example page, a layout table with a menu cell and a content cell.
    const TABLE_PAGE: &str = r#"<html><head><title> My New Web Page </title></head>
<body>
<table>
<tr><td colspan="2"><h1> Welcome to My Web Page! </h1></td></tr>
<tr>
<td width="200">
<a>Menu item 1</a> <br>
<a>Menu item 2</a> <br>
<a>Menu item 3</a> <br>
</td>
<td id="maincontent">
This page illustrates how you can write proper HTML
using only a text editor, such as Windows Notepad. You can also
download a free text editor, such as Crimson Editor, which is
better than Notepad.

There is a small graphic after the period at the end of this sentence.
<img src="/images/mouse.gif" alt="Mousie" width="32" height="32" border="0"> The graphic is in a file. The file is inside a folder named "images."

Link: <a href="http://www.yahoo.com/">Yahoo!</a> <br>
Another link: <a href="/tableexample.htm">Another Web page</a> <br>
Note the way the BR tag works in the two lines above.

<p>&gt; <a href="/index.htm">HTML examples index</a></p>
</td>
</tr>
</table>
</body>
</html>"#;

    #[test]
    fn the_example_table_yields_the_content_cell_and_not_the_menu() {
        let text = extract(TABLE_PAGE);
        assert!(text.starts_with("This page illustrates how you can write proper HTML"));
        assert!(text.contains("Note the way the BR tag works in the two lines above."));
        assert!(text.contains("HTML examples index"));
        assert!(!text.contains("Menu item"));
        assert!(!text.contains("Welcome to My Web Page"));
    }

    #[test]
    fn evenly_filled_paragraphs_are_returned_together() {
        let html = "<body><div><p>First paragraph of the story here.</p>\
            <p>Second paragraph of the story here.</p>\
            <p>Third paragraph of the story, here.</p></div></body>";
        assert_eq!(
            extract(html),
            "First paragraph of the story here.\n\
             Second paragraph of the story here.\n\
             Third paragraph of the story, here."
        );
    }

    #[test]
    fn the_walk_descends_into_the_child_holding_most_text() {
        let html = "<body><nav>Home</nav><main><p>A long paragraph that holds the bulk of \
            the words on this page.</p><p>Another long paragraph that holds more of the \
            words on this page.</p></main></body>";
        let text = extract(html);
        assert!(text.starts_with("A long paragraph"));
        assert!(!text.contains("Home"));
    }

    #[test]
    fn a_node_whose_text_is_its_own_stops_the_walk() {
        let html = "<body><div>Plenty of text written straight into the div, far more than \
            the emphasised part <em>here</em> and a <a href=#>link</a>.</div></body>";
        let text = extract(html);
        assert!(text.starts_with("Plenty of text"));
        assert!(text.contains("here and a link."));
    }

    #[test]
    fn pages_without_text_or_body_give_nothing() {
        assert_eq!(extract(""), "");
        assert_eq!(extract("<body><div><p> </p></div></body>"), "");
        assert_eq!(extract("<frameset><frame src=a.html></frameset>"), "");
    }

    #[test]
    fn mean_absolute_deviation_and_standard_deviation_are_measured_about_the_mean() {
        let lengths = [0, 10];
        assert_eq!(Spread::MeanAbsoluteDeviation.of(&lengths), 5.0);
        assert_eq!(Spread::StandardDeviation.of(&lengths), 5.0);
        assert_eq!(Spread::MeanAbsoluteDeviation.of(&[1, 2, 3, 6]), 1.5);
        assert_eq!(Spread::StandardDeviation.of(&[]), 0.0);
    }
}
