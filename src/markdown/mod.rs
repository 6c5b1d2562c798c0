//! GitHub-flavoured Markdown from the kept lines, as they stream out.
//!
//! [`Renderer`] turns kept [`Line`]s (split with
//! [`Splitter::with_structure`](crate::lines::Splitter::with_structure), so that they carry
//! their [`Structure`]) into Markdown: `#` headings, `-` and `1.` lists with nesting, fenced
//! code blocks holding the `<pre>` text byte for byte (blank lines and indentation kept, a
//! `language-x` class as the info string), GFM tables (a header row, `|` escaped, the lines
//! of a cell joined; a table some of whose rows were dropped keeps its columns; a table of
//! one column is a paragraph per line), `>` quotes,
//! a blank line between blocks, inline code and emphasis, links (with
//! [`Options::links`]) made absolute against a base URL, and image alt text (with
//! [`Options::images`]). Text that would read as Markdown syntax is escaped, so the words
//! of the Markdown, syntax removed ([`strip`]), are those of the text.
//!
//! Memory: a paragraph is written as soon as its line arrives; only the rows of a table are
//! held until the table ends (at most [`MAX_TABLE_LINES`] lines, then what is held is
//! written and the table goes on as a new one).
//!
//! ```
//! use mainline::Splitter;
//! use mainline::internals::markdown::{Options, Renderer};
//!
//! let mut s = Splitter::new().with_structure(true);
//! s.write(b"<h2>Steps</h2><ol><li>Mix <em>well</em></li><li>Bake</li></ol><pre class=language-sh>make\n\nmake install</pre>")?;
//! s.end()?;
//! let mut md = String::new();
//! let mut r = Renderer::new(Options::default());
//! while let Some(line) = s.next_line() {
//!     r.push(&line, &mut md);
//! }
//! r.finish(&mut md);
//! assert_eq!(md, "## Steps\n\n1. Mix *well*\n2. Bake\n\n```sh\nmake\n\nmake install\n```\n");
//! # Ok::<(), mainline::Error>(())
//! ```

use crate::lines::{Line, Span, SpanKind, Structure};
use crate::meta::resolve;

/// The most lines of a table held before they are written.
pub const MAX_TABLE_LINES: usize = 4096;

/// What the rendering includes.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Options {
    /// Write links as `[text](url)` (else their text only).
    pub links: bool,
    /// Write images as `![alt](src)`.
    pub images: bool,
    /// The URL relative links and images are resolved against (the page's `<base href>` or
    /// its own URL).
    pub base: Option<String>,
}

/// The kind of block a line belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Para,
    Heading,
    Item,
    Code(u32),
    Cell(u32),
}

/// The last line written.
#[derive(Debug, Clone, Copy)]
struct Prev {
    kind: Kind,
    block: u32,
    quote: u8,
    /// List item id and its content indentation, when in one.
    item: Option<(u32, usize)>,
    /// The list of the item and the list depth.
    list: (u32, u8),
}

/// A table being held: its cells in document order.
#[derive(Debug, Default)]
struct Table {
    id: u32,
    /// `(row, column, header, text)`; the lines of one cell are separated by `\n` until
    /// the table is written.
    cells: Vec<(u32, u32, bool, String)>,
    lines: usize,
    quote: u8,
    indent: usize,
}

/// A code block being held: its lines are written once the `<pre>` ends, inside a fence of
/// more backticks than any run in them.
#[derive(Debug, Default)]
struct Code {
    id: u32,
    /// What precedes the opening fence on its line (quote markers, indentation, an item's
    /// marker) and the info string.
    open: String,
    info: String,
    /// The lines, each with its prefix.
    body: String,
    lines: usize,
    /// The longest run of backticks in the text.
    run: usize,
    quote: u8,
    /// Indentation of the lines and of the closing fence.
    lead: usize,
}

/// Streaming Markdown renderer of kept lines.
#[derive(Debug, Default)]
pub struct Renderer {
    opts: Options,
    prev: Option<Prev>,
    /// A code block being held until its `<pre>` ends (its fence must be longer than any
    /// backtick run inside).
    code: Option<Code>,
    table: Option<Table>,
    /// The list items open in the Markdown written: list depth, content column and item
    /// id, outermost first. Lines are indented to the items the Markdown has opened, not
    /// to the page's depth, so that an item whose marker was not written (a dropped line,
    /// a heading) cannot push text to an indented code block.
    open: Vec<(u8, usize, u32)>,
    /// Scratch space for a line's inline text.
    buf: String,
}

impl Renderer {
    /// A renderer for one document.
    pub fn new(opts: Options) -> Self {
        Renderer {
            opts,
            ..Renderer::default()
        }
    }

    /// Sets the URL links are resolved against ([`Options::base`]), for instance once the
    /// page's head has been read: its `<base href>` (resolved against the page's URL), else
    /// the page's URL.
    pub fn set_base(&mut self, base: Option<String>) {
        self.opts.base = base;
    }

    /// Renders the next kept line, appending to `out` (a table's rows are held until the
    /// table ends).
    pub fn push(&mut self, line: &Line, out: &mut String) {
        let empty = Structure::default();
        let st = line.structure.as_deref().unwrap_or(&empty);
        let kind = if let Some(pre) = &st.pre {
            Kind::Code(pre.id)
        } else if let Some(cell) = &st.cell {
            Kind::Cell(cell.table)
        } else if line.heading > 0 {
            Kind::Heading
        } else if st.item.is_some() {
            Kind::Item
        } else {
            Kind::Para
        };
        if let Some(c) = &self.code {
            if kind != Kind::Code(c.id) || c.lines >= MAX_TABLE_LINES {
                self.close_fence(out);
            }
        }
        if let Some(t) = &self.table {
            if kind != Kind::Cell(t.id) || t.lines >= MAX_TABLE_LINES {
                self.flush_table(out);
            }
        }
        let block = line.path[0];
        // The lines of an open code block keep its quote and indentation, whatever lists
        // and quotes the page opens inside the `<pre>`: a line less indented would end the
        // block's container and with it the fence.
        let held = self.code.as_ref().map(|c| (c.quote, c.lead));
        let quote = held.map_or(st.quote_depth, |h| h.0);
        // Indentation of list content, and the marker of a new item.
        let mut indent = 0;
        let mut marker = String::new();
        let mut item = None;
        if self.prev.is_some_and(|p| p.quote != quote) {
            // Quote markers come first on a line: a change of quote ends the items.
            self.open.clear();
        }
        let depth = st.list_depth;
        if held.is_none() {
            self.open.retain(|e| e.0 <= depth);
        }
        if let Some((_, lead)) = held {
            indent = lead;
            item = self.prev.and_then(|p| p.item);
        } else if depth > 0 {
            if let Some(it) = &st.item {
                let prev_item = self.prev.and_then(|p| p.item).map(|(id, _)| id);
                let new_item = it.first_line || prev_item != Some(it.id);
                // Other items of this depth or deeper are over.
                self.open.retain(|e| e.0 < depth || e.2 == it.id);
                if new_item && matches!(kind, Kind::Para | Kind::Item | Kind::Code(_)) {
                    self.open.retain(|e| e.0 < depth);
                    marker = if it.ordered {
                        // CommonMark's list numbers have at most 9 digits.
                        format!("{}. ", it.ordinal.min(999_999_999))
                    } else {
                        "- ".to_string()
                    };
                }
                indent = self.open.last().map_or(0, |e| e.1);
                if !marker.is_empty() {
                    self.open.push((depth, indent + marker.len(), it.id));
                }
                item = Some((it.id, indent + marker.len()));
            } else {
                // Text directly in a list: in the item around the list.
                self.open.retain(|e| e.0 < depth);
                indent = self.open.last().map_or(0, |e| e.1);
            }
        }
        let same_block = self.prev.is_some_and(|p| {
            p.kind == kind && p.block == block && p.quote == quote && kind != Kind::Heading
        });
        let continues_code = self
            .prev
            .is_some_and(|p| matches!(kind, Kind::Code(_)) && p.kind == kind);
        let list = match (held, self.prev) {
            (Some(_), Some(p)) => p.list,
            _ => (st.item.as_ref().map_or(u32::MAX, |i| i.list), st.list_depth),
        };
        // Items of one list follow each other without a blank line, and so do those of
        // lists nested in one another; but CommonMark lets the first item of a list
        // interrupt a paragraph only when it is a bullet or numbered 1, so a nested list
        // that starts at another number comes after a blank line (else its first line
        // would be read on with the item's text, and its next ones as indented code).
        let opens_list_at_other_number = st
            .item
            .as_ref()
            .is_some_and(|it| it.ordered && it.ordinal != 1);
        let tight_item = !marker.is_empty()
            && self.prev.is_some_and(|p| {
                p.item.is_some()
                    && p.kind == Kind::Item
                    && p.quote == quote
                    && (p.list.0 == list.0
                        || p.list.1 > list.1
                        || p.list.1 < list.1 && !opens_list_at_other_number)
            });
        if let Some(p) = self.prev {
            if !(same_block
                || continues_code
                || tight_item
                || matches!(kind, Kind::Cell(_)) && self.table.is_some())
            {
                // A blank line between blocks (inside the quotes both share).
                push_quote(out, p.quote.min(quote), true);
                out.push('\n');
            }
        }
        match kind {
            Kind::Code(id) => {
                let pre = st.pre.as_ref().expect("code lines are in a pre");
                let lead = indent + marker.len();
                let code = match &mut self.code {
                    Some(c) => {
                        for _ in 0..pre.blank_lines_before.min(1024) {
                            push_prefix(&mut c.body, quote, lead, "");
                            trim_end_spaces(&mut c.body);
                            c.body.push('\n');
                        }
                        c
                    }
                    None => {
                        let mut open = String::new();
                        push_prefix(&mut open, quote, indent, &marker);
                        self.code.insert(Code {
                            id,
                            open,
                            info: pre.language.as_deref().unwrap_or("").to_string(),
                            quote,
                            lead,
                            ..Code::default()
                        })
                    }
                };
                push_prefix(&mut code.body, quote, lead, "");
                code.body.push_str(&line.text);
                code.body.push('\n');
                code.lines += 1;
                code.run = code.run.max(longest_run(&line.text, '`'));
            }
            Kind::Cell(id) => {
                let cell = st.cell.as_ref().expect("cell lines are in a cell");
                self.buf.clear();
                inline(&line.text, &st.spans, &self.opts, true, &mut self.buf);
                let t = self.table.get_or_insert_with(|| Table {
                    id,
                    quote,
                    indent,
                    ..Table::default()
                });
                t.lines += 1;
                match t.cells.last_mut() {
                    Some((r, c, _, text)) if *r == cell.row && *c == cell.column => {
                        // The lines of a cell, apart until the table is written.
                        text.push('\n');
                        text.push_str(&self.buf);
                    }
                    _ => t
                        .cells
                        .push((cell.row, cell.column, cell.header, self.buf.clone())),
                }
            }
            Kind::Heading => {
                push_prefix(out, quote, indent, "");
                for _ in 0..line.heading.min(6) {
                    out.push('#');
                }
                out.push(' ');
                inline(&line.text, &st.spans, &self.opts, false, out);
                out.push('\n');
            }
            Kind::Para | Kind::Item => {
                push_prefix(out, quote, indent, &marker);
                let start = out.len();
                inline(&line.text, &st.spans, &self.opts, false, out);
                escape_line_start(out, start);
                out.push('\n');
            }
        }
        self.prev = Some(Prev {
            kind,
            block,
            quote,
            item,
            list,
        });
    }

    /// Ends the document: closes an open code block and writes a held table.
    pub fn finish(&mut self, out: &mut String) {
        self.close_fence(out);
        self.flush_table(out);
    }

    fn close_fence(&mut self, out: &mut String) {
        if let Some(c) = self.code.take() {
            // CommonMark closes a fence only at a run of at least its length: a fence
            // longer than every run inside holds any text.
            let ticks = c.run.max(2) + 1;
            out.push_str(&c.open);
            for _ in 0..ticks {
                out.push('`');
            }
            out.push_str(&c.info);
            out.push('\n');
            out.push_str(&c.body);
            push_prefix(out, c.quote, c.lead, "");
            for _ in 0..ticks {
                out.push('`');
            }
            out.push('\n');
        }
    }

    fn flush_table(&mut self, out: &mut String) {
        let Some(t) = self.table.take() else { return };
        let columns = t.cells.iter().map(|c| c.1 + 1).max().unwrap_or(0) as usize;
        if columns == 0 {
            return;
        }
        let mut rows: Vec<(u32, Vec<String>, bool)> = Vec::new();
        for (row, col, header, text) in t.cells {
            if rows.last().is_none_or(|r| r.0 != row) {
                rows.push((row, vec![String::new(); columns], true));
            }
            let r = rows.last_mut().expect("pushed");
            let cell = &mut r.1[col as usize];
            if !cell.is_empty() {
                cell.push('\n');
            }
            cell.push_str(&text);
            r.2 &= header;
        }
        let first = rows
            .iter()
            .flat_map(|r| r.1.iter().position(|c| !c.is_empty()))
            .min();
        let one_column = rows.iter().all(|r| {
            r.1.iter()
                .enumerate()
                .all(|(i, c)| c.is_empty() || Some(i) == first)
        });
        if columns == 1 || one_column {
            // A table with one column (or one column kept) is a layout of blocks: one
            // paragraph per cell.
            let col = first.unwrap_or(0);
            let rows: Vec<_> = rows
                .into_iter()
                .filter(|r| !r.1[col].is_empty())
                .map(|(i, mut cells, h)| (i, vec![std::mem::take(&mut cells[col])], h))
                .collect();
            // Each line of a cell is a paragraph of its own, as outside tables.
            let paragraphs = rows.iter().flat_map(|r| r.1[0].split('\n'));
            for (i, text) in paragraphs.enumerate() {
                if i > 0 {
                    push_quote(out, t.quote, true);
                    out.push('\n');
                }
                push_prefix(out, t.quote, t.indent, "");
                let start = out.len();
                out.push_str(&text.replace("\\|", "|"));
                escape_line_start(out, start);
                out.push('\n');
            }
            return;
        }
        let write_row = |out: &mut String, cells: &[String]| {
            push_prefix(out, t.quote, t.indent, "");
            out.push('|');
            for c in cells {
                out.push(' ');
                out.push_str(&c.replace('\n', " "));
                out.push_str(" |");
            }
            out.push('\n');
        };
        let mut body = &rows[..];
        match rows.first() {
            Some((_, cells, true)) => {
                write_row(out, cells);
                body = &rows[1..];
            }
            _ => write_row(out, &vec![String::new(); columns]),
        }
        push_prefix(out, t.quote, t.indent, "");
        out.push('|');
        for _ in 0..columns {
            out.push_str(" --- |");
        }
        out.push('\n');
        for (_, cells, _) in body {
            write_row(out, cells);
        }
    }
}

/// `> ` for each quote level; `blank`: for an empty line (no trailing space).
fn push_quote(out: &mut String, quote: u8, blank: bool) {
    for i in 0..quote {
        out.push('>');
        if !(blank && i + 1 == quote) {
            out.push(' ');
        }
    }
}

fn push_prefix(out: &mut String, quote: u8, indent: usize, marker: &str) {
    push_quote(out, quote, false);
    for _ in 0..indent {
        out.push(' ');
    }
    out.push_str(marker);
}

fn trim_end_spaces(out: &mut String) {
    while out.ends_with(' ') {
        out.pop();
    }
}

/// Escapes what would start a block at the start of a rendered line (from `start` in
/// `out`): `#`, `>`, `+`, `-`, `=`, list numbers and fences; white space there is removed.
fn escape_line_start(out: &mut String, start: usize) {
    // White space at the start (text kept as in `<pre>` on a line outside its block) would
    // indent the line, four columns or a tab into an indented code block.
    let blank = out[start..].len() - out[start..].trim_start_matches([' ', '\t']).len();
    if blank > 0 {
        out.replace_range(start..start + blank, "");
    }
    let text = &out[start..];
    let b = text.as_bytes();
    let at = match b.first() {
        Some(b'#' | b'>' | b'+' | b'=' | b'~') => Some(0),
        Some(b'-') => Some(0),
        Some(b'0'..=b'9') => {
            let digits = b.iter().take_while(|c| c.is_ascii_digit()).count();
            (digits <= 9 && matches!(b.get(digits), Some(b'.' | b')'))).then_some(digits)
        }
        _ => None,
    };
    if let Some(i) = at {
        out.insert(start + i, '\\');
    }
}

/// Appends `text` with its inline `spans` as Markdown, escaping the rest; `table`: `|` is
/// escaped too.
fn inline(text: &str, spans: &[Span], opts: &Options, table: bool, out: &mut String) {
    // Spans that are written, trimmed to their text and properly nested.
    let mut open: Vec<(usize, &Span)> = Vec::new();
    let mut events: Vec<(usize, bool, usize)> = Vec::new(); // (offset, is_end, span index)
    let mut chosen: Vec<(usize, usize, &Span)> = Vec::new();
    for sp in spans {
        let wanted = match &sp.kind {
            SpanKind::Link { href } => {
                opts.links && link_target(href, opts, Target::Link).is_some()
            }
            SpanKind::Image { src, .. } => {
                opts.images && link_target(src, opts, Target::Image).is_some()
            }
            _ => true,
        };
        if !wanted {
            continue;
        }
        let (mut s, mut e) = (sp.start as usize, sp.end as usize);
        if matches!(sp.kind, SpanKind::Image { .. }) && s == text.len() + 1 {
            // An image after the line's last word and white space.
            (s, e) = (text.len(), text.len());
        }
        if e > text.len() || !text.is_char_boundary(s) || !text.is_char_boundary(e) {
            continue;
        }
        let (s, e) = if matches!(sp.kind, SpanKind::Image { .. }) {
            (s, e)
        } else {
            let inner = &text[s..e];
            let lead = inner.len() - inner.trim_start().len();
            let trail = inner.len() - inner.trim_end().len();
            if lead + trail >= inner.len() {
                continue;
            }
            (s + lead, e - trail)
        };
        // Keep it only if it nests within the spans chosen before it that overlap it.
        while open.last().is_some_and(|(end, _)| *end <= s) {
            open.pop();
        }
        // (No link inside a link: CommonMark reads neither as a link then.)
        let nests = open.last().is_none_or(|(end, outer)| {
            e <= *end
                && !matches!(outer.kind, SpanKind::Code)
                && !(matches!(outer.kind, SpanKind::Link { .. })
                    && matches!(sp.kind, SpanKind::Link { .. }))
        });
        if !nests {
            continue;
        }
        if !matches!(sp.kind, SpanKind::Image { .. }) {
            open.push((e, sp));
        }
        chosen.push((s, e, sp));
    }
    for (i, (s, e, _)) in chosen.iter().enumerate() {
        events.push((*s, false, i));
        events.push((*e, true, i));
    }
    // Ends before starts at one offset; inner ends first, outer starts first.
    events.sort_by(|a, b| {
        a.0.cmp(&b.0)
            .then(b.1.cmp(&a.1))
            .then(if a.1 { b.2.cmp(&a.2) } else { a.2.cmp(&b.2) })
    });
    let mut pos = 0;
    let mut in_code = false;
    for (at, is_end, i) in events {
        let (s, e, sp) = chosen[i];
        if at > pos && !in_code {
            escape_range(text, pos, at, table, out);
            pos = at;
        }
        match (&sp.kind, is_end) {
            (
                SpanKind::Image {
                    alt,
                    src,
                    space_after,
                },
                false,
            ) => {
                let target = link_target(src, opts, Target::Image).unwrap_or_default();
                if sp.start as usize > text.len() {
                    out.push(' ');
                }
                out.push_str("![");
                // The alt text is inline text: its white space collapsed (a newline
                // would end the line and could start a block).
                for (i, word) in alt.split_whitespace().enumerate() {
                    if i > 0 {
                        out.push(' ');
                    }
                    escape(word, table, out);
                }
                out.push_str("](");
                push_target(out, &target);
                out.push(')');
                if *space_after && text[s..].chars().next().is_some_and(|c| !c.is_whitespace()) {
                    out.push(' ');
                }
            }
            (SpanKind::Image { .. }, true) => {}
            (SpanKind::Code, false) if longest_run(&text[s..e], '`') >= 2 => {
                // Three backticks could open a code block at a line start: written as
                // escaped text instead.
            }
            (SpanKind::Code, false) => {
                let code = &text[s..e];
                let run = longest_run(code, '`') + 1;
                let ticks = "`".repeat(run);
                out.push_str(&ticks);
                let pad = code.starts_with('`') || code.ends_with('`');
                if pad {
                    out.push(' ');
                }
                if table {
                    out.push_str(&code.replace('|', "\\|"));
                } else {
                    out.push_str(code);
                }
                if pad {
                    out.push(' ');
                }
                out.push_str(&ticks);
                in_code = true;
                pos = e;
            }
            (SpanKind::Code, true) => in_code = false,
            (SpanKind::Emphasis, _) => out.push('*'),
            (SpanKind::Strong, _) => out.push_str("**"),
            (SpanKind::Link { .. }, false) => {
                // `!` right before it would make the link an image.
                if out.ends_with('!') {
                    out.insert(out.len() - 1, '\\');
                }
                out.push('[');
            }
            (SpanKind::Link { href }, true) => {
                out.push_str("](");
                push_target(
                    out,
                    &link_target(href, opts, Target::Link).unwrap_or_default(),
                );
                out.push(')');
            }
        }
    }
    if pos < text.len() {
        escape_range(text, pos, text.len(), table, out);
    }
}

/// The URL a page's links resolve against: its `<base href>` (itself resolved against the
/// page's URL), else the page's URL. A base whose scheme is not `http` or `https` is
/// ignored, so that relative links cannot resolve to a script.
pub fn base_url(page: Option<&str>, base_href: Option<&str>) -> Option<String> {
    let web = |u: &String| matches!(scheme(u).as_deref(), Some("http" | "https"));
    let page = page.map(|u| clean_url(u).into_owned());
    let base = base_href
        .map(|b| clean_url(b).into_owned())
        .and_then(|b| match &page {
            Some(u) => resolve(u, &b).or_else(|| Some(u.clone())),
            None => Some(b),
        });
    base.filter(web).or(page)
}

/// What a URL is the target of.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Target {
    Link,
    Image,
}

/// The target of a link or image: absolute against the base URL when there is one; `None`
/// for links that go nowhere (`#…` fragments) and for URLs outside the allow-list
/// ([`allowed`]).
fn link_target(href: &str, opts: &Options, what: Target) -> Option<String> {
    let href = clean_url(href);
    if href.is_empty() || what == Target::Link && href.starts_with('#') {
        return None;
    }
    let target = match scheme(&href) {
        Some(_) => href.into_owned(),
        None => opts
            .base
            .as_deref()
            .and_then(|b| resolve(b, &href))
            .unwrap_or_else(|| href.into_owned()),
    };
    allowed(&target, what).then_some(target)
}

/// A URL as the URL standard reads it: without leading and trailing C0 controls and
/// spaces, and without the tabs and newlines it removes wherever they are
/// (`java&#9;script:` is `javascript:` to a browser).
fn clean_url(url: &str) -> std::borrow::Cow<'_, str> {
    let url = url.trim_matches(|c: char| c <= ' ');
    if url.contains(['\t', '\n', '\r']) {
        url.replace(['\t', '\n', '\r'], "").into()
    } else {
        url.into()
    }
}

/// The scheme of a URL (cleaned by [`clean_url`]), lower-cased, as the URL standard parses
/// it: an ASCII letter, then letters, digits, `+`, `-` or `.` up to a `:`; `None` for a
/// relative URL.
fn scheme(url: &str) -> Option<std::borrow::Cow<'_, str>> {
    let b = url.as_bytes();
    if !b.first()?.is_ascii_alphabetic() {
        return None;
    }
    let len = b
        .iter()
        .position(|c| !(c.is_ascii_alphanumeric() || matches!(c, b'+' | b'-' | b'.')))?;
    if b[len] != b':' {
        return None;
    }
    let s = &url[..len];
    Some(if s.bytes().any(|c| c.is_ascii_uppercase()) {
        s.to_ascii_lowercase().into()
    } else {
        s.into()
    })
}

/// The allow-list of the Markdown's URLs: relative URLs, `http:` and `https:`; `mailto:`
/// for links; `data:image/…` for images. Everything else (`javascript:`, `vbscript:`,
/// `data:text/html`, `file:` …) is dropped.
fn allowed(url: &str, what: Target) -> bool {
    match scheme(url).as_deref() {
        None | Some("http" | "https") => true,
        Some("mailto") => what == Target::Link,
        Some("data") => {
            what == Target::Image
                && url[5..]
                    .trim_start()
                    .get(..6)
                    .is_some_and(|t| t.eq_ignore_ascii_case("image/"))
        }
        Some(_) => false,
    }
}

/// Writes a link destination: spaces, `<` and `>` percent-encoded, parentheses escaped,
/// control characters percent-encoded; `\` and what would read as a character reference
/// escaped (CommonMark decodes both in destinations). No `<…>` form: should the link not be
/// read as one, its destination is plain text, never an HTML tag.
fn push_target(out: &mut String, target: &str) {
    let b = target.as_bytes();
    let mut run = 0;
    for (i, &c) in b.iter().enumerate() {
        let esc: Option<&str> = match c {
            b' ' => Some("%20"),
            b'<' => Some("%3C"),
            b'>' => Some("%3E"),
            b'(' => Some("\\("),
            b')' => Some("\\)"),
            b'\\' => Some("\\\\"),
            b'&' if b
                .get(i + 1)
                .is_some_and(|n| n.is_ascii_alphanumeric() || *n == b'#') =>
            {
                Some("\\&")
            }
            0..=0x1f | 0x7f => Some(""),
            _ => None,
        };
        if let Some(e) = esc {
            out.push_str(&target[run..i]);
            if e.is_empty() {
                out.push_str(&format!("%{c:02X}"));
            } else {
                out.push_str(e);
            }
            run = i + 1;
        }
    }
    out.push_str(&target[run..]);
}

fn longest_run(s: &str, c: char) -> usize {
    let mut best = 0;
    let mut run = 0;
    for ch in s.chars() {
        if ch == c {
            run += 1;
            best = best.max(run);
        } else {
            run = 0;
        }
    }
    best
}

/// Appends `text` with the characters that Markdown would read as syntax escaped.
fn escape(text: &str, table: bool, out: &mut String) {
    escape_range(text, 0, text.len(), table, out);
}

/// Appends `text[from..to]` escaped as [`escape`] does, looking past `to` for what follows
/// a `<` or `&` (the markup written between, as for a code span written as text, may be
/// nothing).
fn escape_range(text: &str, from: usize, to: usize, table: bool, out: &mut String) {
    let all = text.as_bytes();
    let text = &text[..to];
    let b = text.as_bytes();
    // NOTE: every character escaped is ASCII, so the runs between them are copied whole
    // (a push per character cost 11M instructions on the 29 pages of BENCHMARKS.md).
    let mut run = from;
    for (i, &c) in b.iter().enumerate().skip(from) {
        let next = || all.get(i + 1).copied();
        let esc = match c {
            b'\\' | b'`' | b'*' | b'_' | b'[' | b']' => true,
            b'|' => table,
            b'<' => {
                next().is_some_and(|n| n.is_ascii_alphabetic() || matches!(n, b'/' | b'!' | b'?'))
            }
            b'&' => next().is_some_and(|n| n.is_ascii_alphabetic() || n == b'#'),
            _ => false,
        };
        if esc {
            out.push_str(&text[run..i]);
            out.push('\\');
            run = i;
        }
    }
    out.push_str(&text[run..]);
}

/// The text of a Markdown rendering with its syntax removed: markers of headings, quotes,
/// lists, code fences and table rules, emphasis and code delimiters, link and image
/// targets, and backslash escapes. Used to check that the words of the Markdown are the
/// words of the text.
///
/// ```
/// let md = "## A *b*\n\n1. [c](https://x.org/y) `d\\`\n\n| e \\| f | g |\n| --- | --- |\n";
/// assert_eq!(mainline::internals::markdown::strip(md).split_whitespace().collect::<Vec<_>>(),
///            ["A", "b", "c", "d\\", "e", "|", "f", "g"]);
/// ```
pub fn strip(md: &str) -> String {
    let mut out = String::with_capacity(md.len());
    // The length of the open code fence.
    let mut fence: Option<usize> = None;
    for raw in md.lines() {
        let mut line = raw.trim_start();
        while let Some(rest) = line.strip_prefix('>') {
            line = rest.trim_start();
        }
        if let Some(n) = fence {
            let t = line.trim_end();
            if t.len() >= n && t.bytes().all(|c| c == b'`') {
                fence = None;
            } else {
                out.push_str(line);
                out.push('\n');
            }
            continue;
        }
        let trimmed = line.trim();
        if trimmed.starts_with('|') && trimmed.chars().all(|c| matches!(c, '|' | '-' | ':' | ' ')) {
            continue;
        }
        let heading = line.starts_with('#');
        line = line.trim_start_matches('#');
        line = line.trim_start();
        // List markers.
        if !heading {
            if let Some(rest) = line.strip_prefix("- ") {
                line = rest;
            } else {
                let digits = line.bytes().take_while(u8::is_ascii_digit).count();
                if digits > 0 && line[digits..].starts_with(". ") {
                    line = &line[digits + 2..];
                }
            }
        }
        if line.starts_with("```") {
            fence = Some(line.bytes().take_while(|&c| c == b'`').count());
            continue;
        }
        strip_inline(line, &mut out);
        out.push('\n');
    }
    out
}

/// Removes inline syntax from one line (see [`strip`]).
fn strip_inline(line: &str, out: &mut String) {
    let chars: Vec<char> = line.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        match c {
            '\\' if i + 1 < chars.len() && chars[i + 1].is_ascii_punctuation() => {
                out.push(chars[i + 1]);
                i += 2;
            }
            '`' => {
                let run = chars[i..].iter().take_while(|&&x| x == '`').count();
                // The closing run of the same length; the content between, with one space
                // removed from each end when both have one (as CommonMark reads it).
                let mut j = i + run;
                let mut close = None;
                while j < chars.len() {
                    let r = chars[j..].iter().take_while(|&&x| x == '`').count();
                    if r == run {
                        close = Some(j);
                        break;
                    }
                    j += r.max(1);
                }
                match close {
                    Some(j) => {
                        let mut content = &chars[i + run..j];
                        if content.len() >= 2
                            && content[0] == ' '
                            && content[content.len() - 1] == ' '
                            && content.iter().any(|&x| x != ' ')
                        {
                            content = &content[1..content.len() - 1];
                        }
                        out.extend(content);
                        i = j + run;
                    }
                    None => {
                        out.extend(&chars[i..i + run]);
                        i += run;
                    }
                }
            }
            '*' => i += 1,
            '!' if chars.get(i + 1) == Some(&'[') => i += 1,
            '[' => i += 1,
            ']' if chars.get(i + 1) == Some(&'(') => {
                // Skip the target: `(url)` or `(<url>)`.
                let mut j = i + 2;
                let angle = chars.get(j) == Some(&'<');
                while j < chars.len() && chars[j] != if angle { '>' } else { ')' } {
                    j += 1;
                }
                if angle {
                    j += 1;
                }
                i = j + 1;
            }
            ']' => i += 1,
            '|' => {
                out.push(' ');
                i += 1;
            }
            _ => {
                out.push(c);
                i += 1;
            }
        }
    }
}

pub mod headline;
#[cfg(test)]
mod tests;

/// The examples of this module's documentation, run as tests (the module is internal to
/// the crate, where documentation tests cannot reach).
#[cfg(test)]
mod doc_examples {
    #[test]
    fn doc_markdown_base_url() -> Result<(), Box<dyn std::error::Error>> {
        use crate::markdown::base_url;
        assert_eq!(
            base_url(Some("https://ex.org/a/p.html"), Some("/docs/")).as_deref(),
            Some("https://ex.org/docs/")
        );
        assert_eq!(
            base_url(Some("https://ex.org/a/p.html"), None).as_deref(),
            Some("https://ex.org/a/p.html")
        );
        assert_eq!(
            base_url(None, Some("https://cdn.org/")).as_deref(),
            Some("https://cdn.org/")
        );
        Ok(())
    }
}
