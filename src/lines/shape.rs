//! Where lines sit in the page's structure — lists, tables, `<pre>` blocks, quotes, inline
//! code, emphasis and links — for rendering them as Markdown (see [`crate::markdown`]).
//!
//! Collected only when asked for ([`Splitter::with_structure`](super::Splitter::with_structure)):
//! the elements are followed on a stack of their own, so a line's text, byte counts and
//! everything else it records are the same either way.

use std::sync::Arc;

/// Where a line sits in the page's structure: its list, table, `<pre>` block and quote, and
/// the inline spans of its text.
#[derive(Debug, Clone, PartialEq, Eq, Default, serde::Serialize)]
#[non_exhaustive]
pub struct Structure {
    /// How many lists (`ul`, `ol`, `menu`, `dl`) are open around the line.
    pub list_depth: u8,
    /// The innermost list item around the line, if any.
    pub item: Option<ListItem>,
    /// The table cell the line is in, when its nearest block is the cell itself or a
    /// paragraph or division directly in the cell.
    pub cell: Option<TableCell>,
    /// The `<pre>` block the line is in, if any.
    pub pre: Option<CodeBlock>,
    /// How many `<blockquote>`s are open around the line.
    pub quote_depth: u8,
    /// Inline code, emphasis, links and images in the line, in the order they start.
    pub spans: Vec<Span>,
}

/// A list item.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct ListItem {
    /// Serial number of the item (lines of one item share it).
    pub id: u32,
    /// Serial number of its list (items of one list share it).
    pub list: u32,
    /// The list is ordered (`<ol>`).
    pub ordered: bool,
    /// The item's number in an ordered list (from the list's `start`, or the item's
    /// `value`).
    pub ordinal: u32,
    /// The line is the first of the item.
    pub first_line: bool,
}

/// A table cell.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct TableCell {
    /// Serial number of the table.
    pub table: u32,
    /// Row of the table, from 0.
    pub row: u32,
    /// Column, from 0 (a `colspan` counts its columns).
    pub column: u32,
    /// A header cell (`<th>`, or any cell of `<thead>`).
    pub header: bool,
}

/// A `<pre>` block.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct CodeBlock {
    /// Serial number of the block (its lines share it).
    pub id: u32,
    /// The language named by a `language-x` or `lang-x` class of the `<pre>` or its
    /// `<code>`.
    pub language: Option<Arc<str>>,
    /// Blank source lines between the previous line of the block and this one.
    pub blank_lines_before: u32,
}

/// An inline span: a byte range of the line's text.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Span {
    /// Start offset in [`Line::text`](super::Line::text), in bytes.
    pub start: u32,
    /// End offset (exclusive); equal to `start` for an image (which is one byte past the
    /// text when it follows the line's last word and white space).
    pub end: u32,
    /// What it is.
    pub kind: SpanKind,
}

/// The kinds of [`Span`].
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
#[non_exhaustive]
pub enum SpanKind {
    /// `<code>`, `<kbd>`, `<samp>`, `<tt>` outside `<pre>`.
    Code,
    /// `<em>`, `<i>`.
    Emphasis,
    /// `<strong>`, `<b>`.
    Strong,
    /// `<a href>`: the target as written.
    Link {
        /// The `href` value (character references decoded).
        href: Arc<str>,
    },
    /// `<img>`: its alt text and source, at the place of the image.
    Image {
        /// The `alt` value.
        alt: Arc<str>,
        /// The `src` value.
        src: Arc<str>,
        /// White space followed the image in the page (the line's text has one space
        /// where white space before and after it met).
        space_after: bool,
    },
}

/// The most structure elements followed at once; deeper ones are ignored.
const MAX_ENTRIES: usize = 256;

/// The most spans a line records.
const MAX_SPANS: usize = 256;

/// The longest attribute value kept (a link target, an alt text), in bytes.
const MAX_ATTR_BYTES: usize = 2048;

#[derive(Debug)]
enum Kind {
    List {
        id: u32,
        ordered: bool,
        next: u32,
    },
    Item {
        id: u32,
        ordinal: u32,
        lines: u32,
    },
    Table {
        id: u32,
        rows: u32,
    },
    Section {
        header: bool,
    },
    Row {
        index: u32,
        cells: u32,
    },
    Cell {
        column: u32,
        header: bool,
    },
    Pre {
        id: u32,
        language: Option<Arc<str>>,
        leading: bool,
    },
    Quote,
    Span {
        kind: SpanKind,
        start: usize,
    },
}

#[derive(Debug)]
struct Entry {
    /// Open elements (the tokenizer's count) below the element.
    depth: usize,
    kind: Kind,
}

/// The structure stack of a [`Splitter`](super::Splitter).
#[derive(Debug, Default)]
pub(crate) struct Shapes {
    stack: Vec<Entry>,
    next_id: u32,
    blanks: u32,
    /// The structure of the line being built, once its first character has arrived.
    cur: Option<Structure>,
    spans: Vec<Span>,
}

/// What a start tag means to [`Shapes`].
pub(crate) fn wanted(name: &str) -> bool {
    matches!(
        name,
        "ul" | "ol"
            | "menu"
            | "dl"
            | "li"
            | "dt"
            | "dd"
            | "table"
            | "thead"
            | "tbody"
            | "tfoot"
            | "tr"
            | "td"
            | "th"
            | "pre"
            | "listing"
            | "xmp"
            | "blockquote"
            | "code"
            | "kbd"
            | "samp"
            | "tt"
            | "em"
            | "i"
            | "strong"
            | "b"
            | "a"
            | "img"
    )
}

/// The language of a `language-x` or `lang-x` class.
fn language(class: &str) -> Option<Arc<str>> {
    class.split_ascii_whitespace().find_map(|w| {
        let l = w
            .strip_prefix("language-")
            .or_else(|| w.strip_prefix("lang-"))?;
        (!l.is_empty() && l.len() <= 32 && !l.contains('`')).then(|| Arc::from(l))
    })
}

fn short(v: &str) -> Arc<str> {
    let mut end = v.len().min(MAX_ATTR_BYTES);
    while !v.is_char_boundary(end) {
        end -= 1;
    }
    Arc::from(v[..end].trim())
}

impl Shapes {
    fn id(&mut self) -> u32 {
        let id = self.next_id;
        self.next_id = self.next_id.wrapping_add(1);
        id
    }

    /// Pops the innermost entry matching `hit` unless one matching `stop` comes first.
    fn close_implied(&mut self, hit: impl Fn(&Kind) -> bool, stop: impl Fn(&Kind) -> bool) {
        for pos in (0..self.stack.len()).rev() {
            let k = &self.stack[pos].kind;
            if hit(k) {
                self.stack.truncate(pos);
                return;
            }
            if stop(k) {
                return;
            }
        }
    }

    fn in_pre(&self) -> bool {
        self.stack
            .iter()
            .any(|e| matches!(e.kind, Kind::Pre { .. }))
    }

    /// A start tag of a [`wanted`] element. `depth`: open elements below it; `get`: its
    /// attributes by name; `at`: where in the line being built an inline span would start;
    /// `content`: it can have content.
    pub(crate) fn start_tag<'v>(
        &mut self,
        name: &str,
        get: &dyn Fn(&str) -> Option<std::borrow::Cow<'v, str>>,
        depth: usize,
        at: usize,
        content: bool,
    ) {
        let is_list = |k: &Kind| matches!(k, Kind::List { .. });
        let is_table = |k: &Kind| matches!(k, Kind::Table { .. });
        let kind = match name {
            "ul" | "menu" | "dl" => Kind::List {
                id: self.id(),
                ordered: false,
                next: 1,
            },
            "ol" => Kind::List {
                id: self.id(),
                ordered: true,
                next: get("start")
                    .and_then(|s| s.trim().parse().ok())
                    .unwrap_or(1),
            },
            "li" | "dt" | "dd" => {
                self.close_implied(
                    |k| matches!(k, Kind::Item { .. }),
                    |k| is_list(k) || is_table(k),
                );
                let value = get("value").and_then(|s| s.trim().parse::<u32>().ok());
                let ordinal = match self.stack.iter_mut().rev().find(|e| is_list(&e.kind)) {
                    Some(Entry {
                        kind: Kind::List { next, .. },
                        ..
                    }) => {
                        let n = value.unwrap_or(*next);
                        *next = n.saturating_add(1);
                        n
                    }
                    _ => value.unwrap_or(1),
                };
                Kind::Item {
                    id: self.id(),
                    ordinal,
                    lines: 0,
                }
            }
            "table" => Kind::Table {
                id: self.id(),
                rows: 0,
            },
            "thead" | "tbody" | "tfoot" => {
                self.close_implied(|k| matches!(k, Kind::Section { .. }), is_table);
                self.close_implied(|k| matches!(k, Kind::Row { .. }), is_table);
                Kind::Section {
                    header: name == "thead",
                }
            }
            "tr" => {
                self.close_implied(
                    |k| matches!(k, Kind::Row { .. }),
                    |k| is_table(k) || matches!(k, Kind::Section { .. }),
                );
                let index = match self.stack.iter_mut().rev().find(|e| is_table(&e.kind)) {
                    Some(Entry {
                        kind: Kind::Table { rows, .. },
                        ..
                    }) => {
                        *rows += 1;
                        *rows - 1
                    }
                    _ => 0,
                };
                Kind::Row { index, cells: 0 }
            }
            "td" | "th" => {
                self.close_implied(
                    |k| matches!(k, Kind::Cell { .. }),
                    |k| is_table(k) || matches!(k, Kind::Row { .. }),
                );
                let span = get("colspan")
                    .and_then(|s| s.trim().parse::<u32>().ok())
                    .unwrap_or(1)
                    .clamp(1, 64);
                let column = match self
                    .stack
                    .iter_mut()
                    .rev()
                    .find(|e| matches!(e.kind, Kind::Row { .. } | Kind::Table { .. }))
                {
                    Some(Entry {
                        kind: Kind::Row { cells, .. },
                        ..
                    }) => {
                        *cells += span;
                        *cells - span
                    }
                    _ => 0,
                };
                Kind::Cell {
                    column,
                    header: name == "th",
                }
            }
            "pre" | "listing" | "xmp" => Kind::Pre {
                id: self.id(),
                language: get("class").as_deref().and_then(language),
                leading: true,
            },
            "blockquote" => Kind::Quote,
            "code" | "kbd" | "samp" | "tt" => {
                if self.in_pre() {
                    if let Some(l) = get("class").as_deref().and_then(language) {
                        if let Some(Entry {
                            kind: Kind::Pre { language, .. },
                            ..
                        }) = self
                            .stack
                            .iter_mut()
                            .rev()
                            .find(|e| matches!(e.kind, Kind::Pre { .. }))
                        {
                            language.get_or_insert(l);
                        }
                    }
                    return;
                }
                Kind::Span {
                    kind: SpanKind::Code,
                    start: at,
                }
            }
            "em" | "i" => Kind::Span {
                kind: SpanKind::Emphasis,
                start: at,
            },
            "strong" | "b" => Kind::Span {
                kind: SpanKind::Strong,
                start: at,
            },
            "a" => match get("href") {
                Some(href) => Kind::Span {
                    kind: SpanKind::Link { href: short(&href) },
                    start: at,
                },
                None => return,
            },
            "img" => {
                let alt = get("alt").unwrap_or_default();
                let src = get("src").unwrap_or_default();
                if self.spans.len() < MAX_SPANS && !src.trim().is_empty() {
                    self.spans.push(Span {
                        start: at as u32,
                        end: at as u32,
                        kind: SpanKind::Image {
                            alt: short(&alt),
                            src: short(&src),
                            space_after: false,
                        },
                    });
                }
                return;
            }
            _ => return,
        };
        if content && self.stack.len() < MAX_ENTRIES {
            self.stack.push(Entry { depth, kind });
        }
    }

    /// White space follows the text at `at`: the last image there has a space after it.
    pub(crate) fn space_after_image(&mut self, at: usize) {
        let image = self
            .spans
            .iter_mut()
            .rev()
            .find(|s| s.start as usize == at && matches!(s.kind, SpanKind::Image { .. }));
        if let Some(Span {
            kind: SpanKind::Image { space_after, .. },
            ..
        }) = image
        {
            *space_after = true;
        }
    }

    /// An end tag leaves `depth` open elements; `len` is the length of the line being
    /// built.
    pub(crate) fn end_tag(&mut self, depth: usize, len: usize) {
        while self.stack.last().is_some_and(|e| e.depth >= depth) {
            let e = self.stack.pop().expect("checked");
            if let Kind::Span { kind, start } = e.kind {
                self.close_span(kind, start, len);
            }
        }
    }

    fn close_span(&mut self, kind: SpanKind, start: usize, end: usize) {
        if end > start && self.spans.len() < MAX_SPANS {
            self.spans.push(Span {
                start: start as u32,
                end: end as u32,
                kind,
            });
        }
    }

    /// A newline in `<pre>` while the line being built is empty: a blank source line (the
    /// newline right after `<pre>` does not count, as in HTML).
    pub(crate) fn pre_newline(&mut self) {
        if let Some(Entry {
            kind: Kind::Pre { leading, .. },
            ..
        }) = self
            .stack
            .iter_mut()
            .rev()
            .find(|e| matches!(e.kind, Kind::Pre { .. }))
        {
            if *leading {
                *leading = false;
            } else {
                self.blanks = self.blanks.saturating_add(1);
            }
        }
    }

    /// The first character of a line has arrived; `cell_block`: the line's nearest block is
    /// a table element, or a paragraph or division directly in a cell.
    pub(crate) fn line_starts(&mut self, cell_block: bool) {
        if self.stack.is_empty() {
            // The default structure (`cur` None reads as it in `line_ends`).
            self.blanks = 0;
            self.cur = None;
            return;
        }
        let mut s = Structure::default();
        let mut header = false;
        let mut list: Option<(u32, bool)> = None;
        let mut item = None;
        let mut cell = None;
        let mut table: Option<(u32, u32)> = None;
        let mut row = 0;
        for e in &mut self.stack {
            match &mut e.kind {
                Kind::List { id, ordered, .. } => {
                    s.list_depth = s.list_depth.saturating_add(1);
                    list = Some((*id, *ordered));
                    item = None;
                }
                Kind::Item { id, ordinal, lines } => {
                    item = Some((
                        *id,
                        *ordinal,
                        *lines == 0,
                        list.unwrap_or((u32::MAX, false)),
                    ));
                    *lines = lines.saturating_add(1);
                }
                Kind::Table { id, .. } => {
                    table = Some((*id, 0));
                    header = false;
                    cell = None;
                }
                Kind::Section { header: h } => header |= *h,
                Kind::Row { index, .. } => row = *index,
                Kind::Cell { column, header: h } => {
                    cell = Some(*column);
                    header |= *h;
                }
                Kind::Pre {
                    id,
                    language,
                    leading,
                } => {
                    *leading = false;
                    s.pre = Some(CodeBlock {
                        id: *id,
                        language: language.clone(),
                        blank_lines_before: self.blanks,
                    });
                }
                Kind::Quote => s.quote_depth = s.quote_depth.saturating_add(1),
                Kind::Span { .. } => {}
            }
        }
        self.blanks = 0;
        s.item = item.map(|(id, ordinal, first_line, (list, ordered))| ListItem {
            id,
            list,
            ordered,
            ordinal,
            first_line,
        });
        if let (true, Some((table, _)), Some(column)) = (cell_block, table, cell) {
            s.cell = Some(TableCell {
                table,
                row,
                column,
                header,
            });
        }
        self.cur = Some(s);
    }

    /// The line being built ends with `len` bytes of text: its structure (`None` for the
    /// default one). Spans still open go on in the next line.
    pub(crate) fn line_ends(&mut self, len: usize) -> Option<Box<Structure>> {
        for e in &mut self.stack {
            if let Kind::Span { kind, start } = &mut e.kind {
                if len > *start && self.spans.len() < MAX_SPANS {
                    self.spans.push(Span {
                        start: *start as u32,
                        end: len as u32,
                        kind: kind.clone(),
                    });
                }
                *start = 0;
            }
        }
        let mut s = self.cur.take().unwrap_or_default();
        // An image after the line's last word and white space is kept one byte past the
        // text (where the space would be).
        self.spans.retain(|sp| {
            ((sp.end as usize) <= len
                || sp.end as usize == len + 1 && matches!(sp.kind, SpanKind::Image { .. }))
                && sp.start <= sp.end
        });
        if self.spans.is_empty() && s == Structure::default() {
            // NOTE: most lines sit in no list, table, `<pre>` or quote and have no spans;
            // they get no allocation (`None` reads as the default structure).
            return None;
        }
        s.spans = std::mem::take(&mut self.spans);
        s.spans.sort_by_key(|sp| sp.start);
        Some(Box::new(s))
    }
}
