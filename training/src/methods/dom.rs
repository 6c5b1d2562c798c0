//! A flat, read-only view of a parsed document shared by the comparison methods.
//!
//! [`Dom`] copies the shape of the html5ever tree built by `scraper` into a vector in
//! document (pre-order) order. Every walk over it is a loop over indices or an explicit
//! stack, so documents nested 100,000 levels deep cannot overflow the call stack, and
//! "is `b` inside `a`" is the range test `a <= b < end(a)`.
//!
//! The view leaves out what a reader never sees as text: comments, doctypes, processing
//! instructions, and the whole subtree of every element named in [`SKIPPED_ELEMENTS`].
//! Every method therefore measures and outputs the page without them.
//!
//! Documents are parsed by [`parse_document`] as a browser with scripting disabled parses
//! them, so the content of `<noscript>` is markup, as the line splitter reads it.

use std::borrow::Cow;
use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::hash::Hash;
use std::rc::Rc;

use html5ever::tendril::StrTendril;
use html5ever::tree_builder::{ElementFlags, NodeOrText, QuirksMode, TreeSink};
use html5ever::{Attribute, QualName};
use scraper::{Html, Node};

/// Elements whose subtree contributes no text: scripts, styles, fallback content for
/// missing frames and plugins, inert templates and foreign (SVG, MathML) content.
/// `noscript` is not among them: its content is read (see [`parse_document`]).
pub(crate) const SKIPPED_ELEMENTS: [&str; 8] = [
    "script", "style", "template", "svg", "math", "iframe", "noembed", "noframes",
];

/// Parses `html` as a document, as a browser with scripting disabled does: the content of
/// `<noscript>` becomes elements and text (in `<head>`, only what the head allows), where
/// [`Html::parse_document`] would keep it as one raw text node. Forum software such as
/// Discourse serves the posts of a thread there.
///
/// # Errors
/// [`Error::Other`](mainline::Error::Other) when the document is beyond the limits
/// ([`super::MAX_DOCUMENT_BYTES`], [`super::MAX_DEPTH`], [`super::max_elements`]): parsing
/// stops there, so neither time nor memory grows further.
pub(crate) fn parse_document(html: &str) -> mainline::Result<Html> {
    use html5ever::driver::{self, ParseOpts};
    use html5ever::tendril::TendrilSink;
    use html5ever::tree_builder::TreeBuilderOpts;
    if html.len() > super::MAX_DOCUMENT_BYTES {
        return Err(mainline::Error::Other(format!(
            "the document is {} bytes long; the comparison methods parse at most {} MiB",
            html.len(),
            super::MAX_DOCUMENT_BYTES >> 20
        )));
    }
    let opts = ParseOpts {
        tree_builder: TreeBuilderOpts {
            scripting_enabled: false,
            ..TreeBuilderOpts::default()
        },
        ..ParseOpts::default()
    };
    let limits = Rc::new(Limits {
        max_elements: super::max_elements(html.len()),
        elements: Cell::new(0),
        exceeded: Cell::new(None),
    });
    let sink = Bounded {
        inner: scraper::HtmlTreeSink::new(Html::new_document()),
        limits: Rc::clone(&limits),
        depth: RefCell::new(HashMap::new()),
    };
    let mut parser = driver::parse_document(sink, opts);
    // NOTE: fed in small pieces so that parsing stops soon after a limit is passed: one
    // piece of `<p>x` repeated can reopen thousands of formatting elements per paragraph.
    let mut rest = html;
    while !rest.is_empty() {
        let mut cut = rest.len().min(PARSE_PIECE);
        while !rest.is_char_boundary(cut) {
            cut += 1;
        }
        // NOTE: html5ever drops a U+FEFF at the start of every piece it is fed (it means to
        // drop a byte order mark at the start of the document), so no piece starts with one.
        while rest[cut..].starts_with('\u{feff}') {
            cut += '\u{feff}'.len_utf8();
        }
        parser.process(StrTendril::from_slice(&rest[..cut]));
        rest = &rest[cut..];
        if let Some(why) = limits.exceeded.take() {
            return Err(mainline::Error::Other(why));
        }
    }
    let parsed = parser.finish();
    match limits.exceeded.take() {
        Some(why) => Err(mainline::Error::Other(why)),
        None => Ok(parsed),
    }
}

/// Bytes of the document handed to the parser at a time.
const PARSE_PIECE: usize = 512;

/// What [`Bounded`] counts, and the first limit passed.
struct Limits {
    max_elements: usize,
    elements: Cell<usize>,
    exceeded: Cell<Option<String>>,
}

impl Limits {
    fn exceed(&self, why: String) {
        let old = self.exceeded.take();
        self.exceeded.set(Some(old.unwrap_or(why)));
    }
}

/// A tree sink that counts the elements created and the depth at which they are appended,
/// and records the first limit passed ([`parse_document`] then stops feeding the parser).
struct Bounded<S: TreeSink> {
    inner: S,
    limits: Rc<Limits>,
    /// Depth of each element appended to the tree (the document is at depth 0).
    depth: RefCell<HashMap<S::Handle, u32>>,
}

impl<S: TreeSink> Bounded<S>
where
    S::Handle: Eq + Hash,
{
    fn appended(&self, parent: &S::Handle, child: &NodeOrText<S::Handle>) {
        let NodeOrText::AppendNode(child) = child else {
            return;
        };
        let mut depth = self.depth.borrow_mut();
        let d = depth.get(parent).copied().unwrap_or(0) + 1;
        depth.insert(child.clone(), d);
        if d as usize > super::MAX_DEPTH {
            self.limits.exceed(format!(
                "elements nest more than {} deep; the comparison methods parse at most that \
                 depth (their parser's time grows with the square of it)",
                super::MAX_DEPTH
            ));
        }
    }
}

impl<S: TreeSink> TreeSink for Bounded<S>
where
    S::Handle: Eq + Hash,
{
    type Handle = S::Handle;
    type Output = S::Output;
    type ElemName<'a>
        = S::ElemName<'a>
    where
        Self: 'a;

    fn finish(self) -> S::Output {
        self.inner.finish()
    }
    fn parse_error(&self, msg: Cow<'static, str>) {
        self.inner.parse_error(msg)
    }
    fn get_document(&self) -> S::Handle {
        self.inner.get_document()
    }
    fn elem_name<'a>(&'a self, target: &'a S::Handle) -> S::ElemName<'a> {
        self.inner.elem_name(target)
    }
    fn create_element(
        &self,
        name: QualName,
        attrs: Vec<Attribute>,
        flags: ElementFlags,
    ) -> S::Handle {
        let n = self.limits.elements.get() + 1;
        self.limits.elements.set(n);
        if n > self.limits.max_elements {
            self.limits.exceed(format!(
                "the parsed document has more than {} elements; the comparison methods build \
                 at most that many for a document of this size (formatting elements reopened \
                 in every paragraph multiply them)",
                self.limits.max_elements
            ));
        }
        self.inner.create_element(name, attrs, flags)
    }
    fn create_comment(&self, text: StrTendril) -> S::Handle {
        self.inner.create_comment(text)
    }
    fn create_pi(&self, target: StrTendril, data: StrTendril) -> S::Handle {
        self.inner.create_pi(target, data)
    }
    fn append(&self, parent: &S::Handle, child: NodeOrText<S::Handle>) {
        self.appended(parent, &child);
        self.inner.append(parent, child)
    }
    fn append_based_on_parent_node(
        &self,
        element: &S::Handle,
        prev_element: &S::Handle,
        child: NodeOrText<S::Handle>,
    ) {
        self.appended(prev_element, &child);
        self.inner
            .append_based_on_parent_node(element, prev_element, child)
    }
    fn append_doctype_to_document(
        &self,
        name: StrTendril,
        public_id: StrTendril,
        system_id: StrTendril,
    ) {
        self.inner
            .append_doctype_to_document(name, public_id, system_id)
    }
    fn mark_script_already_started(&self, node: &S::Handle) {
        self.inner.mark_script_already_started(node)
    }
    fn pop(&self, node: &S::Handle) {
        self.inner.pop(node)
    }
    fn get_template_contents(&self, target: &S::Handle) -> S::Handle {
        self.inner.get_template_contents(target)
    }
    fn same_node(&self, x: &S::Handle, y: &S::Handle) -> bool {
        self.inner.same_node(x, y)
    }
    fn set_quirks_mode(&self, mode: QuirksMode) {
        self.inner.set_quirks_mode(mode)
    }
    fn append_before_sibling(&self, sibling: &S::Handle, new_node: NodeOrText<S::Handle>) {
        self.inner.append_before_sibling(sibling, new_node)
    }
    fn add_attrs_if_missing(&self, target: &S::Handle, attrs: Vec<Attribute>) {
        self.inner.add_attrs_if_missing(target, attrs)
    }
    fn associate_with_form(
        &self,
        target: &S::Handle,
        form: &S::Handle,
        nodes: (&S::Handle, Option<&S::Handle>),
    ) {
        self.inner.associate_with_form(target, form, nodes)
    }
    fn remove_from_parent(&self, target: &S::Handle) {
        self.inner.remove_from_parent(target)
    }
    fn reparent_children(&self, node: &S::Handle, new_parent: &S::Handle) {
        self.inner.reparent_children(node, new_parent)
    }
    fn is_mathml_annotation_xml_integration_point(&self, handle: &S::Handle) -> bool {
        self.inner
            .is_mathml_annotation_xml_integration_point(handle)
    }
    fn set_current_line(&self, line_number: u64) {
        self.inner.set_current_line(line_number)
    }
    fn allow_declarative_shadow_roots(&self, intended_parent: &S::Handle) -> bool {
        self.inner.allow_declarative_shadow_roots(intended_parent)
    }
    fn attach_declarative_shadow(
        &self,
        location: &S::Handle,
        template: &S::Handle,
        attrs: &[Attribute],
    ) -> bool {
        self.inner
            .attach_declarative_shadow(location, template, attrs)
    }
}

/// Elements that start and end a line of output.
const BLOCK_ELEMENTS: [&str; 57] = [
    "address",
    "article",
    "aside",
    "blockquote",
    "body",
    "br",
    "caption",
    "center",
    "dd",
    "details",
    "dialog",
    "dir",
    "div",
    "dl",
    "dt",
    "fieldset",
    "figcaption",
    "figure",
    "footer",
    "form",
    "frameset",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "head",
    "header",
    "hgroup",
    "hr",
    "html",
    "legend",
    "li",
    "listing",
    "main",
    "menu",
    "nav",
    "noscript",
    "ol",
    "optgroup",
    "option",
    "p",
    "plaintext",
    "pre",
    "search",
    "section",
    "summary",
    "table",
    "tbody",
    "td",
    "tfoot",
    "th",
    "thead",
    "title",
    "tr",
    "ul",
];

/// Elements with no end tag in serialised HTML.
const VOID_ELEMENTS: [&str; 14] = [
    "area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "param", "source",
    "track", "wbr",
];

/// Whether the subtree of an element named `name` is left out of the view.
pub(crate) fn is_skipped(name: &str) -> bool {
    SKIPPED_ELEMENTS.contains(&name)
}

/// Whether an element named `name` is rendered on lines of its own.
pub(crate) fn is_block(name: &str) -> bool {
    BLOCK_ELEMENTS.contains(&name)
}

/// What a node of the view is.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Kind<'a> {
    /// An element, with its tag name and the parsed element (for attributes).
    Element(&'a str, &'a scraper::node::Element),
    /// A text node, entities already decoded by the parser.
    Text(&'a str),
}

/// One node of the view.
#[derive(Debug)]
pub(crate) struct DomNode<'a> {
    /// Element or text.
    pub kind: Kind<'a>,
    /// Index of the parent element; `None` only for the root element.
    pub parent: Option<usize>,
    /// Indices of the child nodes (elements and text), in document order.
    pub children: Vec<usize>,
    /// One past the index of the last node of this node's subtree.
    pub end: usize,
}

impl DomNode<'_> {
    /// The tag name, or `None` for a text node.
    pub fn tag(&self) -> Option<&str> {
        match self.kind {
            Kind::Element(name, _) => Some(name),
            Kind::Text(_) => None,
        }
    }

    /// The text, or `None` for an element.
    pub fn text(&self) -> Option<&str> {
        match self.kind {
            Kind::Element(..) => None,
            Kind::Text(text) => Some(text),
        }
    }
}

/// A parsed document flattened in document order. Index 0, when present, is the root
/// (`html`) element.
#[derive(Debug)]
pub(crate) struct Dom<'a> {
    nodes: Vec<DomNode<'a>>,
}

impl<'a> Dom<'a> {
    /// Builds the view of a parsed document.
    pub fn new(html: &'a Html) -> Self {
        let mut nodes: Vec<DomNode<'a>> = Vec::new();
        // Explicit stack of (parsed node, parent index in the view).
        let mut stack = vec![(html.tree.root(), None::<usize>)];
        while let Some((node, parent)) = stack.pop() {
            let kind = match node.value() {
                Node::Document | Node::Fragment => {
                    stack.extend(node.children().rev().map(|c| (c, None)));
                    continue;
                }
                Node::Element(element) if !is_skipped(element.name()) => {
                    Kind::Element(element.name(), element)
                }
                // Text outside the root element carries nothing (html5ever keeps only
                // whitespace there).
                Node::Text(text) if parent.is_some() => Kind::Text(text),
                _ => continue,
            };
            let index = nodes.len();
            nodes.push(DomNode {
                kind,
                parent,
                children: Vec::new(),
                end: index + 1,
            });
            if let Some(p) = parent {
                nodes[p].children.push(index);
            }
            if matches!(kind, Kind::Element(..)) {
                stack.extend(node.children().rev().map(|c| (c, Some(index))));
            }
        }
        // Children come after their parent, so a backward pass sees each subtree's end
        // before its root.
        for i in (0..nodes.len()).rev() {
            if let Some(&last) = nodes[i].children.last() {
                nodes[i].end = nodes[last].end;
            }
        }
        Dom { nodes }
    }

    /// Number of nodes.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// The node at `index`.
    pub fn node(&self, index: usize) -> &DomNode<'a> {
        &self.nodes[index]
    }

    /// All nodes in document order.
    pub fn nodes(&self) -> &[DomNode<'a>] {
        &self.nodes
    }

    /// The tag name of `index`, or `None` for a text node.
    pub fn tag(&self, index: usize) -> Option<&'a str> {
        match self.nodes[index].kind {
            Kind::Element(name, _) => Some(name),
            Kind::Text(_) => None,
        }
    }

    /// Index of the first element named `name` in document order.
    pub fn first_element(&self, name: &str) -> Option<usize> {
        (0..self.nodes.len()).find(|&i| self.tag(i) == Some(name))
    }

    /// Index of the `body` element.
    pub fn body(&self) -> Option<usize> {
        self.first_element("body")
    }

    /// Whether `inner` is `outer` or lies inside it.
    pub fn contains(&self, outer: usize, inner: usize) -> bool {
        outer <= inner && inner < self.nodes[outer].end
    }

    /// Number of non-whitespace characters of every node's text (its subtree's text for
    /// an element), indexed like the nodes. Whitespace is left out so that indentation
    /// between tags does not count as text.
    pub fn text_lengths(&self) -> Vec<usize> {
        let mut lengths: Vec<usize> = self
            .nodes
            .iter()
            .map(|n| n.text().map_or(0, non_whitespace_len))
            .collect();
        for i in (0..self.nodes.len()).rev() {
            if let Some(p) = self.nodes[i].parent {
                lengths[p] += lengths[i];
            }
        }
        lengths
    }

    /// The text children of `index` (not deeper text), whitespace-collapsed and trimmed.
    pub fn own_text(&self, index: usize) -> String {
        let mut out = String::new();
        for &c in &self.nodes[index].children {
            if let Some(text) = self.nodes[c].text() {
                push_collapsed(&mut out, text);
            }
        }
        out.truncate(out.trim_end().len());
        out
    }

    /// The text of the subtree at `index`, one block per line.
    pub fn render(&self, index: usize) -> String {
        let mut writer = LineWriter::default();
        self.render_into(index, &mut writer);
        writer.finish()
    }

    /// Appends the text of the subtree at `index` to `writer`, starting on a new line.
    pub fn render_into(&self, index: usize, writer: &mut LineWriter) {
        enum Step {
            Enter(usize),
            Exit(usize),
        }
        writer.break_line();
        let mut pre_depth = 0usize;
        let mut stack = vec![Step::Enter(index)];
        while let Some(step) = stack.pop() {
            match step {
                Step::Enter(i) => match self.nodes[i].kind {
                    Kind::Text(text) => writer.push_text(text, pre_depth > 0),
                    Kind::Element(name, _) => {
                        if is_block(name) {
                            writer.break_line();
                        }
                        if name == "pre" || name == "listing" || name == "plaintext" {
                            pre_depth += 1;
                        }
                        stack.push(Step::Exit(i));
                        stack.extend(self.nodes[i].children.iter().rev().map(|&c| Step::Enter(c)));
                    }
                },
                Step::Exit(i) => {
                    if let Some(name) = self.tag(i) {
                        if is_block(name) {
                            writer.break_line();
                        }
                        if name == "pre" || name == "listing" || name == "plaintext" {
                            pre_depth -= 1;
                        }
                    }
                }
            }
        }
        writer.break_line();
    }
}

/// Accumulates text into lines: whitespace runs inside a line collapse to one space, empty
/// lines are dropped, and lines are joined with `'\n'` without a trailing newline.
#[derive(Debug, Default)]
pub(crate) struct LineWriter {
    out: String,
    line: String,
    pending_space: bool,
}

impl LineWriter {
    /// Appends text to the current line. Inside `pre`, newlines end lines.
    pub fn push_text(&mut self, text: &str, pre: bool) {
        for c in text.chars() {
            if pre && c == '\n' {
                self.break_line();
            } else if c.is_whitespace() {
                self.pending_space = !self.line.is_empty();
            } else {
                if self.pending_space {
                    self.line.push(' ');
                    self.pending_space = false;
                }
                self.line.push(c);
            }
        }
    }

    /// Ends the current line, if it has any text.
    pub fn break_line(&mut self) {
        if !self.line.is_empty() {
            if !self.out.is_empty() {
                self.out.push('\n');
            }
            self.out.push_str(&self.line);
            self.line.clear();
        }
        self.pending_space = false;
    }

    /// The lines written so far.
    pub fn finish(mut self) -> String {
        self.break_line();
        self.out
    }
}

/// Number of non-whitespace characters in `text`.
pub(crate) fn non_whitespace_len(text: &str) -> usize {
    text.chars().filter(|c| !c.is_whitespace()).count()
}

/// Number of characters of `text` once whitespace runs are collapsed to one space and the
/// ends trimmed (XPath's `string-length(normalize-space())`).
pub(crate) fn normalized_len(text: &str) -> usize {
    let mut len = 0;
    let mut in_space = false;
    for c in text.chars() {
        if c.is_whitespace() {
            in_space = true;
        } else {
            if in_space && len > 0 {
                len += 1;
            }
            in_space = false;
            len += 1;
        }
    }
    len
}

/// Appends `text` to `out` with whitespace runs collapsed, never starting `out` with a
/// space (a trailing space may remain).
fn push_collapsed(out: &mut String, text: &str) {
    for c in text.chars() {
        if c.is_whitespace() {
            if !out.is_empty() && !out.ends_with(' ') {
                out.push(' ');
            }
        } else {
            out.push(c);
        }
    }
}

/// Number of non-whitespace characters of the serialised HTML of every node, indexed like
/// the nodes: for an element its start tag with attributes, its content and its end tag,
/// as html5ever writes them; for a text node its escaped text.
pub(crate) fn markup_lengths(dom: &Dom<'_>) -> Vec<usize> {
    let mut lengths: Vec<usize> = dom
        .nodes()
        .iter()
        .map(|n| match n.kind {
            Kind::Text(text) => escaped_non_whitespace_len(text, false),
            Kind::Element(name, element) => {
                let name_len = name.chars().count();
                // `<name` `>` and, unless void, `</name>`.
                let mut len = name_len + 2;
                if !VOID_ELEMENTS.contains(&name) {
                    len += name_len + 3;
                }
                for (attr, value) in element.attrs() {
                    // ` attr="value"`: the space is whitespace, `="` and `"` are not.
                    len += attr.chars().count() + 3 + escaped_non_whitespace_len(value, true);
                }
                len
            }
        })
        .collect();
    for i in (0..dom.len()).rev() {
        if let Some(p) = dom.node(i).parent {
            lengths[p] += lengths[i];
        }
    }
    lengths
}

/// Non-whitespace length of `text` after html5ever's serialisation escapes (`&amp;`,
/// `&nbsp;`, and `&lt;` `&gt;` in text or `&quot;` in attribute values).
fn escaped_non_whitespace_len(text: &str, attribute: bool) -> usize {
    text.chars()
        .map(|c| match c {
            '&' => 5,
            '\u{a0}' => 6,
            '<' | '>' if !attribute => 4,
            '"' if attribute => 6,
            c if c.is_whitespace() => 0,
            _ => 1,
        })
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn view(html: &str) -> (Html, String) {
        let parsed = parse_document(html).unwrap();
        let text = {
            let dom = Dom::new(&parsed);
            dom.render(0)
        };
        (parsed, text)
    }

    #[test]
    fn blocks_go_on_separate_lines_and_inline_text_stays_together() {
        let (_, text) =
            view("<p>one <b>two</b>\n  three</p><div>four<br>five</div><span>six</span>");
        assert_eq!(text, "one two three\nfour\nfive\nsix");
    }

    #[test]
    fn scripts_styles_and_comments_are_not_text() {
        let (_, text) = view(
            "<head><style>p{}</style><script>var x;</script></head><body><!-- hidden -->\
             <p>shown</p><svg><text>chart</text></svg></body>",
        );
        assert_eq!(text, "shown");
    }

    #[test]
    fn noscript_content_is_read_as_markup() {
        let (_, text) = view(
            "<head><noscript><style>p{}</style></noscript></head><body><div id=app></div>\
             <noscript><div class=post><p>First <b>post</b></p></div><p>Reply</p></noscript></body>",
        );
        assert_eq!(text, "First post\nReply");
    }

    #[test]
    fn preformatted_text_keeps_its_line_breaks() {
        let (_, text) = view("<pre>a  b\nc\n\nd</pre>");
        assert_eq!(text, "a b\nc\nd");
    }

    #[test]
    fn entities_are_decoded_by_the_parser() {
        let (_, text) = view("<p>fish &amp; chips&nbsp;&lt;3</p>");
        assert_eq!(text, "fish & chips <3");
    }

    #[test]
    fn subtree_ranges_answer_containment() {
        let parsed = Html::parse_document("<div><p>a</p></div><p>b</p>");
        let dom = Dom::new(&parsed);
        let div = dom.first_element("div").unwrap();
        let p_inside = dom.first_element("p").unwrap();
        let last_p = (0..dom.len()).rfind(|&i| dom.tag(i) == Some("p")).unwrap();
        assert!(dom.contains(div, p_inside));
        assert!(!dom.contains(div, last_p));
    }

    #[test]
    fn markup_length_matches_the_serialised_html_without_whitespace() {
        let parsed = Html::parse_document(
            r#"<body><div class="a b" id='x"y'>fish &amp; chips<br><img src=a.png> <p>2 &lt; 3</p></div></body>"#,
        );
        let dom = Dom::new(&parsed);
        let div = dom.first_element("div").unwrap();
        let element = scraper::Selector::parse("div").unwrap();
        let serialised = parsed.select(&element).next().unwrap().html();
        let expected = non_whitespace_len(&serialised);
        assert_eq!(markup_lengths(&dom)[div], expected, "{serialised}");
    }

    #[test]
    fn normalized_length_collapses_and_trims_whitespace() {
        assert_eq!(normalized_len("  a \n\t b  "), 3);
        assert_eq!(normalized_len(" \n "), 0);
    }
}
