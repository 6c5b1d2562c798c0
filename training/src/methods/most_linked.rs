//! Most linked: the element that most content-bearing branches of the tree lead into.
//!
//! 1. **Content nodes** are the elements other than `script` and `a` whose own text (the
//!    text directly inside them, not inside child elements) has at least
//!    [`MIN_TEXT_LEN`] characters.
//! 2. The **pruned tree** keeps the content nodes and all their ancestors, each linked to
//!    its parent.
//! 3. A node's **in-link count** is the number of its children in the pruned tree.
//! 4. The node with the most in-links is the main content; the output is its whole text.
//!
//! Equal counts go to the node that comes first in document order, which is the outer
//! of two nested candidates (the description breaks ties by object address, which is
//! arbitrary). A page without content nodes gives an empty result.
//!
//! [`dot`] draws the pruned tree for Graphviz, as the description's tool does.

use std::fmt::Write as _;

use super::dom::{Dom, normalized_len};

/// Minimum length, in characters after whitespace is collapsed and trimmed, of an
/// element's own text for it to be a content node.
///
/// The description leaves the value out. 50 characters is one full sentence of eight to
/// ten words: paragraphs pass, while headings, menu entries, captions, bylines, dates and
/// teaser titles stay below, so they no longer pull the most-linked node towards page
/// wrappers. It is the low end of the values that score alike: a longer minimum leaves
/// more pages with no content node at all.
pub const MIN_TEXT_LEN: usize = 50;

/// Elements that are never content nodes (the description's `IGNORABLE_TAGS`); their
/// text still counts as part of an ancestor's whole text.
pub const IGNORED_ELEMENTS: [&str; 2] = ["script", "a"];

/// The main text of `html` by the most-linked node. One block per line.
///
/// Empty when the document is beyond the comparison methods' limits; [`super::Method::try_extract`] says why.
pub fn extract(html: &str) -> String {
    crate::methods::dom::parse_document(html)
        .map(|parsed| extract_parsed(&parsed))
        .unwrap_or_default()
}

/// The main text of a parsed document by the most-linked node.
pub(crate) fn extract_parsed(parsed: &scraper::Html) -> String {
    let dom = Dom::new(parsed);
    let tree = PrunedTree::new(&dom);
    match tree.most_linked() {
        Some(node) => dom.render(node),
        None => String::new(),
    }
}

/// The pruned tree of `html` in Graphviz `dot` syntax: `digraph G { ... }` with one node
/// per element, labelled `tag (length of own text)` (just `tag` when it has none), one
/// `child -> parent` edge per link, and the most-linked node drawn
/// `style=filled color=lightblue`. Node names are positions in document order.
///
/// For a document beyond the comparison methods' limits, a graph with no nodes and the
/// reason as a comment; [`try_dot`] returns the reason as an error.
pub fn dot(html: &str) -> String {
    try_dot(html).unwrap_or_else(|e| format!("digraph G {{\n  // {e}\n}}\n"))
}

/// As [`dot`], with an error for a document beyond the limits.
///
/// # Errors
/// As [`super::Method::try_extract`].
pub fn try_dot(html: &str) -> mainline::Result<String> {
    let parsed = crate::methods::dom::parse_document(html)?;
    let dom = Dom::new(&parsed);
    let tree = PrunedTree::new(&dom);
    let chosen = tree.most_linked();
    let mut out = String::from("digraph G {\n");
    for &node in &tree.nodes {
        let tag = escape_label(dom.tag(node).unwrap_or_default());
        let len = normalized_len(&dom.own_text(node));
        let label = if len > 0 {
            format!("{tag} ({len})")
        } else {
            tag
        };
        let attrs = if Some(node) == chosen {
            " style=filled color=lightblue"
        } else {
            ""
        };
        let _ = writeln!(out, "{node} [label=\"{label}\"{attrs}];");
    }
    for &node in &tree.nodes {
        if let Some(parent) = dom.node(node).parent {
            let _ = writeln!(out, "{node} -> {parent};");
        }
    }
    out.push('}');
    Ok(out)
}

/// Content nodes and their ancestors, with in-link counts.
#[derive(Debug)]
struct PrunedTree {
    /// Members, in document order.
    nodes: Vec<usize>,
    /// In-link count of every node of the document (0 outside the pruned tree).
    inlinks: Vec<usize>,
}

impl PrunedTree {
    fn new(dom: &Dom<'_>) -> Self {
        let mut member = vec![false; dom.len()];
        for (i, node) in dom.nodes().iter().enumerate() {
            let Some(tag) = node.tag() else { continue };
            if IGNORED_ELEMENTS.contains(&tag) || member[i] {
                continue;
            }
            if normalized_len(&dom.own_text(i)) < MIN_TEXT_LEN {
                continue;
            }
            // Mark the node and its ancestors, stopping at the first one already marked
            // (its own ancestors are marked too), so the whole pass stays linear.
            let mut cursor = Some(i);
            while let Some(c) = cursor {
                if member[c] {
                    break;
                }
                member[c] = true;
                cursor = dom.node(c).parent;
            }
        }
        let mut inlinks = vec![0; dom.len()];
        let mut nodes = Vec::new();
        for (i, &is_member) in member.iter().enumerate() {
            if is_member {
                nodes.push(i);
                if let Some(parent) = dom.node(i).parent {
                    inlinks[parent] += 1;
                }
            }
        }
        PrunedTree { nodes, inlinks }
    }

    /// The node with the most in-links, the first in document order among equals; `None`
    /// when no node has any (no content nodes, or only the root).
    fn most_linked(&self) -> Option<usize> {
        let mut best: Option<(usize, usize)> = None;
        for &node in &self.nodes {
            let count = self.inlinks[node];
            if count > 0 && best.is_none_or(|(_, c)| count > c) {
                best = Some((node, count));
            }
        }
        best.map(|(node, _)| node)
    }
}

/// `text` with `"` and `\` escaped for a quoted Graphviz label.
fn escape_label(text: &str) -> String {
    text.replace('\\', "\\\\").replace('"', "\\\"")
}

#[cfg(test)]
mod tests {
    use super::*;

    const PAGE: &str = "<html><head><title>A title that is long enough to be a content node by itself</title></head>\
        <body>\
        <div id=nav><ul><li><a href=/>Home</a></li><li><a href=/a>About us and our team</a></li></ul>\
          <p>Sidebar blurb that is long enough to count as content, just about.</p></div>\
        <div id=story>\
          <h1>The story of the most linked node</h1>\
          <p>First paragraph, with enough text to be a content node of the story.</p>\
          <p>Second paragraph, with enough text to be a content node of the story.</p>\
          <p>Third paragraph with a <a href=#>link</a>, and enough text to be content too.</p>\
          <p>Fourth paragraph, so the story has more content nodes than the page.</p>\
        </div>\
        <footer><p>Copyright notice that is long enough to be a content node as well.</p></footer>\
        </body></html>";

    #[test]
    fn the_container_with_most_content_children_wins() {
        let text = extract(PAGE);
        assert_eq!(
            text,
            "The story of the most linked node\n\
             First paragraph, with enough text to be a content node of the story.\n\
             Second paragraph, with enough text to be a content node of the story.\n\
             Third paragraph with a link, and enough text to be content too.\n\
             Fourth paragraph, so the story has more content nodes than the page."
        );
    }

    #[test]
    fn links_and_short_texts_are_not_content_nodes() {
        // The only long text is a link: nothing qualifies.
        let html = "<body><div><a href=#>A link with a very long anchor text indeed</a></div>\
            <div><span>short</span></div></body>";
        assert_eq!(extract(html), "");
    }

    #[test]
    fn equal_in_link_counts_go_to_the_first_node_in_document_order() {
        let html = "<body><div><p>Paragraph one is long enough to be a content node here.</p>\
            <p>Paragraph two is long enough to be a content node here.</p></div>\
            <div><p>Paragraph three is long enough to be a content node here.</p>\
            <p>Paragraph four is long enough to be a content node here.</p></div></body>";
        // body has two linked children and so has each div: the body comes first.
        let text = extract(html);
        assert!(text.starts_with("Paragraph one"));
        assert!(text.ends_with("Paragraph four is long enough to be a content node here."));
    }

    #[test]
    fn the_dot_graph_shows_the_pruned_tree_and_the_chosen_node() {
        let graph = dot(PAGE);
        assert!(graph.starts_with("digraph G {\n"));
        assert!(graph.ends_with("\n}"));
        assert!(graph.contains("[label=\"title (58)\"];"));
        let chosen: Vec<&str> = graph.lines().filter(|l| l.contains("lightblue")).collect();
        assert_eq!(chosen.len(), 1);
        assert!(chosen[0].contains("[label=\"div\" style=filled color=lightblue];"));
        // Only content nodes and ancestors: the links and list items are not drawn.
        assert!(!graph.contains("\"li"));
        assert!(!graph.contains("\"a"));
        let nodes = graph.lines().filter(|l| l.contains("[label=")).count();
        let edges = graph.lines().filter(|l| l.contains("->")).count();
        assert_eq!(edges, nodes - 1);
    }

    #[test]
    fn a_page_without_content_draws_an_empty_graph() {
        assert_eq!(dot(""), "digraph G {\n}");
        assert_eq!(extract(""), "");
    }
}
