//! The streaming line splitter: HTML bytes in, [`Line`]s out.
//!
//! A *line* is what a text-mode browser puts on a line of its own: the text between two
//! line-breaking tags (block-level elements such as `p`, `div`, `li`, `td`, `h1`–`h6`, and
//! `<br>`). Each line carries its text and the exact number of input bytes it took to
//! describe it — tags, attributes, scripts, comments and the text itself — from the end of
//! the previous line to the end of this one, which gives the text density of the seed
//! design (`text_bytes / html_bytes`).
//!
//! The splitter tokenizes HTML the way `lol_html` does, byte for byte: no DOM is built, and
//! memory does not grow with the input. Bytes go in by [`Splitter::write`] in pieces of any
//! size, and complete lines come out of [`Splitter::next_line`] as soon as the tag that ends
//! them has been read.
//!
//! # Data flow
//! The input (transcoded to UTF-8 first when it is UTF-16 or ISO-2022-JP) goes through the
//! guard (`guard.rs`), which follows `lol_html`'s lexer state by state, with its tree-builder
//! feedback, and reports what that tokenizer would report to an element handler on `"*"`, a
//! document text handler and the end-tag handlers: start tags (name and attribute ranges,
//! duplicates included, and whether the element can have content), the text of data and
//! plain-text nodes, the end tags that close open elements, in document order. The splitter
//! reads names and values from those ranges and decodes them as `lol_html` does (with
//! `encoding_rs`, from the document's encoding, which a `<meta charset>` in the head switches
//! when the encoding was only guessed from ASCII bytes); it decodes text nodes as `lol_html`'s text decoder does
//! (replacement characters, characters split between pieces) and then character
//! references. `lol_html` itself is no longer run on the input: the guard's tests check it
//! against `lol_html`'s own reports, token for token.
//!
//! ```
//! use mainline::lines::Splitter;
//!
//! let mut splitter = Splitter::new();
//! let mut lines = Vec::new();
//! let pieces = ["<nav><a href=/>Home</a></nav><p>Fish &amp; ", "chips are ", "good.</p>"];
//! for piece in pieces {
//!     splitter.write(piece.as_bytes())?;
//!     while let Some(line) = splitter.next_line() {
//!         lines.push(line);
//!     }
//! }
//! splitter.end()?;
//! lines.extend(std::iter::from_fn(|| splitter.next_line()));
//!
//! assert_eq!(lines.len(), 2);
//! assert_eq!(lines[0].text, "Home");
//! assert_eq!(lines[0].link_bytes, 4);
//! assert_eq!(lines[1].text, "Fish & chips are good.");
//! // Every input byte belongs to a line or to the trailing bytes after the last line.
//! let total: u64 = lines.iter().map(|l| l.html_bytes).sum::<u64>() + splitter.trailing_bytes();
//! assert_eq!(total, pieces.concat().len() as u64);
//! # Ok::<(), mainline::Error>(())
//! ```
//!
//! # Rules
//! - Elements end where HTML's tree construction ends them: at their end tag, or where a
//!   start tag implies it (a `<p>` ends an open `p`, a `<td>` the open cell, a `<li>` the
//!   open item, a `<p>` or `<div>` an unclosed `<svg>` or `<math>`, …), so leaving out the
//!   end tags HTML lets a page leave out changes no line but its byte offsets.
//! - Text is decoded (character references by the WHATWG rules, including legacy forms
//!   without `;`) and whitespace is collapsed, except inside `<pre>`, where whitespace is
//!   kept and every source line becomes a line.
//! - The contents of `script`, `style`, `template`, `svg`, `math`, `title`, `textarea`,
//!   `object` and comments never become text; their bytes count towards the next line's
//!   `html_bytes`.
//! - The head ends as HTML's tree construction ends it: at `</head>`, or at the first start
//!   tag of an element that does not belong in the head (`body`, `p`, `div`, …) or the
//!   first text that is not white space, so a page without `</head>` (or whose `</head>`
//!   an unclosed comment or script swallowed) gives the same lines as with it.
//! - `<noscript>` is read as a parser with scripting disabled reads it, as markup, and
//!   breaks lines like a `<div>`: forum software such as Discourse serves every post of a
//!   thread inside it (`lol_html`, which follows a browser with scripting enabled, reads it
//!   as raw text; see `guard.rs`).
//! - Lines without text are not emitted: their bytes roll into the next line, as in the seed
//!   design, so a page of a million `<br>`s and no text yields no lines at all.
//! - A line is split when its text reaches [`MAX_LINE_BYTES`], so memory stays bounded even
//!   for a single text node of hundreds of megabytes.
//!
//! # Limits
//! Whatever the input, a splitter's memory stays within a fixed bound (a few megabytes in
//! the worst case). There is no maximum input size: offsets and counts are 64-bit. What
//! would otherwise grow with the input is capped, and none of the caps is reached by
//! ordinary pages:
//!
//! | Cap | Value | Beyond it |
//! |-----|-------|-----------|
//! | [`MAX_LINE_BYTES`] | 1 MiB | the line is split; the text goes on in the next line |
//! | [`MAX_TAG_BYTES`] | 1 MiB | a tag, comment, doctype or bogus comment is cut there: a tag keeps its name and the attributes before the cut, and the rest of the construct, up to where it really ends, is skipped; script text after `<!--` is released in pieces of this size |
//! | [`MAX_ATTRIBUTES`] | 1024 | the tag is cut after this many attributes, as above |
//! | [`MAX_OPEN_ELEMENTS`] | 16,384 | further start tags are skipped (their text is kept, and a line-breaking one still ends the line) until end tags close some; void elements and `script`, `style`, `textarea`, `title` and the other raw-text elements still count |
//! | [`MAX_STACK`] | 512 | deeper elements count towards [`Line::depth`] but add no context, class or id |
//! | [`MAX_ANCESTORS`] | 4 | a line lists the nearest ones |
//! | [`MAX_DESCRIPTOR_BYTES`] | 64 | a `tag.class#id` descriptor is cut |
//! | [`DETECT_BYTES`] | 64 KiB | held back while the encoding is not yet known |
//!
//! The open-element count is the tokenizer's: it rises with every start tag of an element
//! that can have content and falls with end tags and with the end tags HTML implies (a
//! `<p>` closes an open `p`, a `<td>` the open cell, a `<tr>` the open row, an `<li>` the
//! open item, a `<div>` inside an unclosed `<svg>` the svg, …; see `guard.rs`), so pages
//! that leave out optional end tags stay as shallow as with them, and only elements that
//! really nest (a hundred thousand `<div>`s) reach the cap. Cut constructs and skipped start tags change the bytes the tokenizer
//! sees one for one (see `guard.rs`), so offsets and byte accounting are those of the
//! input, and the result does not depend on how the input is cut into pieces. Between two
//! pieces the splitter keeps at most the start tag being read (within [`MAX_TAG_BYTES`]).
//!
//! # Byte accounting
//! A line ends where the tag that breaks it starts; its `html_bytes` run from the end of
//! the previous line to there. The sum of `html_bytes` over all lines plus
//! [`Splitter::trailing_bytes`] is exactly [`Splitter::input_bytes`]. Offsets are counted
//! in the input's own encoding; only inputs that are not ASCII-compatible (UTF-16,
//! ISO-2022-JP), which `lol_html` cannot tokenize either, are counted in their UTF-8
//! transcoding. Where a line is split
//! inside a text node (in `<pre>`, or at [`MAX_LINE_BYTES`]) the split offset is computed
//! from the decoded text, counting for each character the fewest bytes it can have taken in
//! the input: exact for valid UTF-8 without character references, and never beyond the
//! bytes read, so that it does not depend on how the input is cut into pieces.

mod guard;
mod shape;
mod tags;

use std::borrow::Cow;
use std::collections::VecDeque;
use std::sync::Arc;

use encoding_rs::{CoderResult, Decoder, Encoding};

pub(crate) use guard::KeyHasher;
use guard::{AttrSpan, EndTag, Guard, Limits, Piece, StartTag, TextKind};
pub use guard::{MAX_ATTRIBUTES, MAX_OPEN_ELEMENTS, MAX_TAG_BYTES};
pub use shape::{CodeBlock, ListItem, Span, SpanKind, Structure, TableCell};
pub use tags::{Block, ctx, hint};
use tags::{class_hints, classify, role_ctx};

use crate::input::{self, DETECT_BYTES, EncodingSource, PRESCAN_BYTES, Sniffed, Utf8Evidence};
use crate::{Error, Result};

/// The longest line text, in bytes, before a line is split.
pub const MAX_LINE_BYTES: usize = 1 << 20;

/// Bytes reserved for a line's text when its first characters arrive.
const LINE_RESERVE: usize = 128;

/// How many open elements are tracked one by one. Deeper elements still count towards
/// [`Line::depth`], but their class, id and context are not recorded.
pub const MAX_STACK: usize = 512;

/// How many of the nearest ancestors with a class or id a line lists in [`Line::ancestors`].
pub const MAX_ANCESTORS: usize = 4;

/// The longest `tag.class#id` descriptor kept per ancestor, in bytes (longer ones are cut).
pub const MAX_DESCRIPTOR_BYTES: usize = 64;

/// One line of the page, with what is known about it when it ends.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Line {
    /// Position of the line in the document, from 0.
    pub index: u64,
    /// The decoded text, whitespace collapsed (kept inside `<pre>`). Never empty.
    pub text: String,
    /// Offset of the first input byte accounted to this line.
    pub start: u64,
    /// Input bytes from the end of the previous line to the end of this one.
    pub html_bytes: u64,
    /// Bytes of [`Line::text`] (UTF-8).
    pub text_bytes: u64,
    /// Bytes of [`Line::text`] that are inside `<a>` elements.
    pub link_bytes: u64,
    /// The nearest line-breaking element around the text.
    pub block: Block,
    /// Heading level 1–6 when the line is a heading, else 0.
    pub heading: u8,
    /// Number of open elements when the line's text started, not counting plain inline
    /// elements (span, b, em, … without class, id or role), which are not tracked, nor
    /// start tags skipped beyond [`MAX_OPEN_ELEMENTS`].
    pub depth: u32,
    /// Context bits ([`ctx`]): inside nav, header, footer, aside, form, article, …
    pub context: u16,
    /// Class/id hint bits ([`hint`]) of all open ancestors.
    pub hints: u16,
    /// The lines so far (this one included) inside the block element that encloses the
    /// line's own block: a menu item's list, a paragraph's article body. Zero when there is
    /// no such element.
    pub container: Totals,
    /// The same for the next block element up (a menu's nav, an article body's article).
    pub region: Totals,
    /// `tag.class.names#id` of the nearest ancestors that have a class or id, nearest first,
    /// at most [`MAX_ANCESTORS`], each at most [`MAX_DESCRIPTOR_BYTES`] long.
    pub ancestors: Vec<Arc<str>>,
    /// Serial numbers (in order of their start tags, from 0) of the nearest line-breaking
    /// elements open when the line ended, nearest first, at most [`PATH_LEVELS`];
    /// [`NO_ELEMENT`] fills the rest. Two lines of one document share an element when they
    /// share a number: the key for pooling lines by container.
    pub path: [u32; PATH_LEVELS],
    /// Where the line sits in lists, tables, `<pre>` blocks and quotes, and its inline
    /// spans: only when asked for with [`Splitter::with_structure`], and `None` for a line
    /// with the default structure (in none of them, without spans).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub structure: Option<Box<Structure>>,
}

/// How many enclosing line-breaking elements a line lists in [`Line::path`].
pub const PATH_LEVELS: usize = 16;

/// The value of an unused [`Line::path`] entry.
pub const NO_ELEMENT: u32 = u32::MAX;

impl Line {
    /// The seed design's text density: `text_bytes / html_bytes`, capped at 1.
    ///
    /// (Text can be longer than its markup when a legacy single-byte encoding is decoded to
    /// UTF-8; the cap keeps the feature in range.)
    pub fn density(&self) -> f64 {
        if self.html_bytes == 0 {
            return 1.0;
        }
        (self.text_bytes as f64 / self.html_bytes as f64).min(1.0)
    }

    /// Share of the text inside links, from 0 to 1.
    pub fn link_density(&self) -> f64 {
        if self.text_bytes == 0 {
            0.0
        } else {
            self.link_bytes as f64 / self.text_bytes as f64
        }
    }

    /// Whether the line sits inside a region of the given [`ctx`] kind.
    pub fn within(&self, ctx_bit: u16) -> bool {
        self.context & ctx_bit != 0
    }
}

/// An element on the splitter's open-element stack.
#[derive(Debug)]
struct Open {
    id: u32,
    breaks: bool,
    block: tags::Block,
    heading: u8,
    ctx: u16,
    hints: u16,
    descriptor: Option<Arc<str>>,
    /// Text bytes, link bytes and lines of the lines inside this element so far.
    totals: Totals,
}

/// Running totals of the lines inside an element.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize)]
pub struct Totals {
    /// Text bytes of the lines so far.
    pub text_bytes: u64,
    /// Text bytes inside links so far.
    pub link_bytes: u64,
    /// Number of lines so far.
    pub lines: u32,
}

impl Totals {
    fn add(&mut self, text: u64, link: u64) {
        self.text_bytes += text;
        self.link_bytes += link;
        self.lines = self.lines.saturating_add(1);
    }

    /// Share of the text inside links, from 0 to 1.
    pub fn link_density(&self) -> f64 {
        if self.text_bytes == 0 {
            0.0
        } else {
            self.link_bytes as f64 / self.text_bytes as f64
        }
    }
}

/// The decoder of a text node.
struct NodeDecoder(Decoder);

impl std::fmt::Debug for NodeDecoder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_tuple("NodeDecoder")
            .field(&self.0.encoding().name())
            .finish()
    }
}

/// The line being built.
#[derive(Debug, Default)]
struct Current {
    text: String,
    link_bytes: u64,
    pending_space: bool,
    /// The last text added was inside a link.
    prev_link: bool,
    block: Block,
    heading: u8,
    depth: u32,
    context: u16,
    hints: u16,
    ancestors: Vec<Arc<str>>,
}

/// Everything the tokenizer's reports update.
#[derive(Debug, Default)]
struct State {
    stack: Vec<Open>,
    /// Open elements beyond [`MAX_STACK`].
    overflow: u32,
    next_id: u32,
    ctx_counts: [u32; ctx::COUNT],
    hint_counts: [u32; hint::COUNT],
    ctx_now: u16,
    hints_now: u16,

    cur: Current,
    /// Offset where the current line's accounting starts.
    line_start: u64,
    /// End offset of the last tag seen: where the current text node starts.
    last_token_end: u64,
    /// Decoded bytes of text seen since the last tag (for offsets of splits inside text).
    node_decoded: u64,
    /// The furthest input offset any token has reached.
    max_seen: u64,
    /// Raw text held back because it may end inside a character reference.
    carry: String,
    /// A `\r` was just seen inside `<pre>` (so a following `\n` is the same line end).
    pre_cr: bool,
    /// The tokenizer is being shown a fill (see [`guard`]): its text is not the page's.
    in_fill: bool,
    /// The tokenizer decodes the input as UTF-8 (as is, or transcoded from UTF-16).
    utf8: bool,
    /// A `<meta>` has set the encoding [`State::source_len`] assumes.
    charset_found: bool,

    index: u64,
    queue: VecDeque<Line>,

    /// The tokenizer's open-element stack, one entry per element on it: the element's
    /// serial number and whether it breaks lines when it is tracked (see
    /// [`State::start_tag`]).
    tokenizer_open: Vec<Option<(u32, bool)>>,

    /// The encoding text, tag names and attribute values are decoded from (UTF-8 for
    /// transcoded inputs).
    encoding: Option<&'static Encoding>,
    /// A `<meta>` may switch `encoding` (it was guessed).
    adjust: bool,
    /// A `<meta>` has switched `encoding`.
    encoding_found: bool,
    /// The body has started (HTML's "in head" and "after head" rules: a start tag of an
    /// element that does not belong in the head, or text that is not white space): the
    /// text decoded so far commits the document to its encoding, and a `<meta>` no longer
    /// switches it.
    body_started: bool,
    /// The decoder of the current text node, once it needed one (its first bytes that are
    /// not plain ASCII or valid UTF-8): it holds a character split between pieces.
    decoder: Option<NodeDecoder>,
    /// The kind of the current text node, once it has text.
    node: Option<TextKind>,
    /// Scratch space for decoded text.
    decoded: String,
    /// The page's metadata, when collected ([`Splitter::with_metadata`]).
    meta: Option<Box<crate::meta::Collector>>,
    /// The structure stack, when asked for ([`Splitter::with_structure`]).
    shape: Option<Box<shape::Shapes>>,
}

const OVERFLOW_ID: u32 = u32::MAX;

impl State {
    fn see(&mut self, end: usize) {
        self.max_seen = self.max_seen.max(end as u64);
    }

    /// Applies what the tokenizer has read (see [`guard::Piece`]); `out` holds the bytes
    /// from offset `base` on.
    fn apply(&mut self, events: &[Piece], attrs: &[AttrSpan], out: &[u8], base: u64) {
        let bytes = |start: u64, end: u64| -> &[u8] {
            let from = usize::try_from(start.saturating_sub(base)).unwrap_or(usize::MAX);
            let to = usize::try_from(end.saturating_sub(base)).unwrap_or(usize::MAX);
            out.get(from..to.min(out.len())).unwrap_or_default()
        };
        for event in events {
            match event {
                Piece::Text { start, end, kind } => {
                    self.see(*end as usize);
                    if *kind != TextKind::CData && !self.in_fill {
                        self.text(bytes(*start, *end), *kind);
                    }
                }
                Piece::TextEnd => self.text_end(),
                Piece::Start(tag) => {
                    let attrs = attrs.get(tag.attrs.clone()).unwrap_or_default();
                    let tracked = self.start_tag(tag, attrs, &bytes);
                    if tag.content {
                        self.tokenizer_open.push(tracked);
                    }
                }
                Piece::End(end) => {
                    if let Some(m) = self.meta.as_deref_mut() {
                        if let Some(from) = m.capture_next() {
                            m.bytes(bytes(from, end.start), from);
                        }
                        let encoding = self.encoding.unwrap_or(encoding_rs::UTF_8);
                        m.end_tag(end.depth, end.start, encoding);
                    }
                    self.end_tags(*end);
                    if let Some(sh) = self.shape.as_deref_mut() {
                        sh.end_tag(end.depth, self.cur.text.len());
                    }
                }
                Piece::FillStart { at, breaks } => self.fill_start(*at, *breaks),
                Piece::FillEnd { at } => self.fill_end(*at),
            }
        }
    }

    /// An end tag: the elements it closes on the tokenizer's open-element stack end, nearest
    /// first, each with the end tag's location (as `lol_html` would run their end-tag
    /// handlers).
    fn end_tags(&mut self, end: EndTag) {
        while self.tokenizer_open.len() > end.depth {
            if let Some(Some((id, breaks))) = self.tokenizer_open.pop() {
                self.end_tag(id, breaks, end.start as usize..end.end as usize);
            }
        }
    }

    /// A start tag; `bytes` gives the input bytes between two offsets within the tag.
    fn start_tag<'b>(
        &mut self,
        tag: &StartTag,
        attrs: &[AttrSpan],
        bytes: &dyn Fn(u64, u64) -> &'b [u8],
    ) -> Option<(u32, bool)> {
        let loc = tag.start as usize..tag.end as usize;
        self.see(loc.end);
        self.last_token_end = loc.end as u64;
        self.node_decoded = 0;
        let encoding = self.encoding.unwrap_or(encoding_rs::UTF_8);
        let name_bytes = bytes(tag.start + 1, tag.start + 1 + tag.name_len as u64);
        if self.adjust && !self.body_started && name_bytes.eq_ignore_ascii_case(b"meta") {
            self.meta(attrs, bytes, encoding);
        }
        if self.meta.is_some() && crate::meta::wanted(name_bytes) {
            self.collect(tag, name_bytes, attrs, bytes, encoding);
        }
        if self.ctx_now & ctx::SKIP != 0 {
            // NOTE: nothing inside script/svg/template/… becomes text, so its elements
            // need neither line breaks nor a place on the stack (which saves an end-tag
            // handler per element; svg icons can hold hundreds).
            return None;
        }
        let mut name_buf = [0u8; 32];
        let name = tag_name(name_bytes, encoding, &mut name_buf);
        if !self.body_started && !in_head(&name) {
            self.body_started = true;
        }
        if name == "head" {
            // NOTE: the head is not an element a line can be inside. In HTML's tree
            // construction ("in head", "after head") it holds only base, link, meta,
            // title, style, script, template, noscript and noframes; the first other start
            // tag (body, p, div, an unknown element …) or the first text that is not white
            // space ends it and starts the body, whether `</head>` was written or not, and
            // a second `<head>` is ignored. What the head holds is hidden by those elements
            // themselves (title, style, script, template and noframes hide their content;
            // base, link and meta are void), so leaving `head` off the stack reads a page
            // as those rules do: a head without `</head>`, with more `<head>` start tags
            // than end tags, or whose `</head>` an unclosed comment or script swallowed
            // ends at the first content, and the lines of the body are the same as with
            // `</head>`. (`noscript` is read as with scripting disabled: the standard's "in
            // head noscript" mode ends the head at a start tag other than link, meta,
            // style and noframes, and its text is the body's.)
            return None;
        }
        let info = classify(&name);
        if info.breaks {
            self.break_at(loc.start as u64);
        }
        if self.shape.is_some() && shape::wanted(&name) {
            self.shape_start(&name, tag, attrs, bytes, encoding);
        }
        if !tag.content {
            return None;
        }

        let mut ctx_bits = info.ctx;
        let mut hints = 0u16;
        let mut descriptor: Option<Descriptor> = None;
        for attr in attrs {
            // Only names of the lengths looked for below are worth reading.
            if !matches!(attr.name_len, 2 | 4 | 5 | 6 | 8 | 11) {
                continue;
            }
            let attr_name = AttrName::of(bytes(attr.name, attr.name + attr.name_len as u64));
            if attr_name == AttrName::Other {
                continue;
            }
            let value = || attr_value(attr, bytes, encoding);
            match attr_name {
                AttrName::Class | AttrName::Id => {
                    let value = value();
                    hints |= class_hints(&value);
                    let d = descriptor.get_or_insert_with(|| {
                        let mut d = Descriptor::default();
                        d.push(&name);
                        d
                    });
                    if attr_name == AttrName::Class {
                        for word in value.split_ascii_whitespace() {
                            if d.len() >= MAX_DESCRIPTOR_BYTES {
                                break;
                            }
                            d.push(".");
                            d.push(word);
                        }
                    } else if d.len() < MAX_DESCRIPTOR_BYTES {
                        d.push("#");
                        d.push(value.trim());
                    }
                }
                AttrName::Role => ctx_bits |= role_ctx(&value()),
                AttrName::Hidden => hints |= hint::HIDDEN,
                AttrName::AriaHidden if value().eq_ignore_ascii_case("true") => {
                    hints |= hint::HIDDEN;
                }
                AttrName::Style if style_hides(&value()) => hints |= hint::HIDDEN,
                AttrName::Itemprop if value().eq_ignore_ascii_case("articlebody") => {
                    ctx_bits |= ctx::ARTICLE;
                }
                _ => {}
            }
        }
        if !info.breaks && ctx_bits == 0 && hints == 0 && descriptor.is_none() {
            // NOTE: a plain inline element (span, b, em, code, …) changes nothing a line
            // records, so it is not tracked: this saves an end-tag handler per element.
            // Line::depth therefore counts the elements that matter, not every one.
            return None;
        }
        if self.stack.len() >= MAX_STACK {
            self.overflow += 1;
            return Some((OVERFLOW_ID, info.breaks));
        }
        let descriptor = descriptor.map(|d| d.finish());

        let id = self.next_id;
        self.next_id = self.next_id.wrapping_add(1) % OVERFLOW_ID;
        for bit in set_bits(ctx_bits) {
            self.ctx_counts[bit] += 1;
        }
        for bit in set_bits(hints) {
            self.hint_counts[bit] += 1;
        }
        self.ctx_now |= ctx_bits;
        self.hints_now |= hints;
        self.stack.push(Open {
            id,
            breaks: info.breaks,
            block: info.block,
            heading: info.heading,
            ctx: ctx_bits,
            hints,
            descriptor,
            totals: Totals::default(),
        });
        Some((id, info.breaks))
    }

    fn end_tag(&mut self, id: u32, breaks: bool, loc: std::ops::Range<usize>) {
        self.see(loc.end);
        if breaks {
            self.break_at(loc.start as u64);
        }
        if id == OVERFLOW_ID {
            self.overflow = self.overflow.saturating_sub(1);
        } else if let Some(pos) = self.stack.iter().rposition(|o| o.id == id) {
            self.pop_to(pos);
        }
        self.last_token_end = self.last_token_end.max(loc.end as u64);
        self.node_decoded = 0;
    }

    /// Pops the element at `pos` and everything above it.
    fn pop_to(&mut self, pos: usize) {
        self.overflow = 0;
        while self.stack.len() > pos {
            let open = self.stack.pop().expect("stack is longer than pos");
            for bit in set_bits(open.ctx) {
                self.ctx_counts[bit] -= 1;
                if self.ctx_counts[bit] == 0 {
                    self.ctx_now &= !(1 << bit);
                }
            }
            for bit in set_bits(open.hints) {
                self.hint_counts[bit] -= 1;
                if self.hint_counts[bit] == 0 {
                    self.hints_now &= !(1 << bit);
                }
            }
        }
    }

    /// Text of the current text node, as the input has it (`kind` is `Data` or `Plain`).
    fn text(&mut self, raw: &[u8], kind: TextKind) {
        self.node = Some(kind);
        if self.ctx_now & ctx::SKIP != 0 || raw.is_empty() {
            // NOTE: a text node is skipped or not as a whole (the context changes only at
            // tags), so its text need not even be decoded.
            return;
        }
        if !self.body_started && !raw.iter().all(u8::is_ascii_whitespace) {
            self.body_started = true;
        }
        let encoding = self.encoding.unwrap_or(encoding_rs::UTF_8);
        // NOTE: as `lol_html` decodes text: valid UTF-8 (or ASCII, in other encodings) as
        // it is until the node needs a decoder, which then keeps what a piece ends inside.
        let direct = if self.decoder.is_none() && (encoding == encoding_rs::UTF_8 || raw.is_ascii())
        {
            std::str::from_utf8(raw).ok()
        } else {
            None
        };
        let mut decoded = std::mem::take(&mut self.decoded);
        let text = match direct {
            Some(text) => text,
            None => {
                let decoder = self.decoder.get_or_insert_with(|| {
                    NodeDecoder(encoding.new_decoder_without_bom_handling())
                });
                decode(&mut decoder.0, raw, false, &mut decoded);
                decoded.as_str()
            }
        };
        match kind {
            TextKind::Plain => self.push_decoded(text),
            _ => self.push_raw(text, false),
        }
        self.decoded = decoded;
    }

    /// The current text node ends.
    fn text_end(&mut self) {
        let Some(kind) = self.node.take() else {
            return;
        };
        let mut decoded = std::mem::take(&mut self.decoded);
        decoded.clear();
        if let Some(mut decoder) = self.decoder.take() {
            decode(&mut decoder.0, &[], true, &mut decoded);
        }
        if self.ctx_now & ctx::SKIP == 0 && !self.in_fill {
            match kind {
                TextKind::Plain => self.push_decoded(&decoded),
                _ => self.push_raw(&decoded, true),
            }
        }
        self.decoded = decoded;
    }

    /// Decodes character references in raw text that may arrive in arbitrary pieces.
    fn push_raw(&mut self, raw: &str, last: bool) {
        if self.carry.is_empty() && !raw.contains('&') {
            self.push_decoded(raw);
            return;
        }
        self.carry.push_str(raw);
        // NOTE: a reference cannot be decoded until it is complete. Hold back the text
        // from the last '&' when it is close enough to the end to be an unfinished
        // reference (the longest named reference is 33 bytes).
        let cut = if last {
            self.carry.len()
        } else {
            match self.carry.rfind('&') {
                Some(amp) if self.carry.len() - amp < 48 => amp,
                _ => self.carry.len(),
            }
        };
        if cut == 0 {
            return;
        }
        let pending = std::mem::take(&mut self.carry);
        let decoded = htmlize::unescape(&pending[..cut]);
        self.push_decoded(&decoded);
        self.carry = pending;
        self.carry.drain(..cut);
    }

    /// Adds decoded text to the current line, collapsing whitespace (or, in `<pre>`,
    /// splitting at line ends).
    fn push_decoded(&mut self, text: &str) {
        let pre = self.ctx_now & ctx::PRE != 0;
        let link = self.ctx_now & ctx::LINK != 0;
        // NOTE: `src` counts, from the start of the text node, at most as many bytes as
        // the text took in the input (see `source_len`), so that a line split inside the
        // text never ends beyond what the tokenizer has read, whatever the chunking.
        let mut src = self.node_decoded;
        let bytes = text.as_bytes();
        let mut i = 0;
        while i < bytes.len() {
            let b = bytes[i];
            // Fast path: a run of printable ASCII that is not whitespace.
            if b > b' ' && b < 0x7f {
                let mut j = i + 1;
                while j < bytes.len() && bytes[j] > b' ' && bytes[j] < 0x7f {
                    j += 1;
                }
                // NOTE: words separated by single spaces go in at once: a single space
                // between two words becomes a single space in the line whether collapsed
                // or (in <pre>) kept, and counts as a link byte exactly when the words do.
                // Only while the line stays clear of MAX_LINE_BYTES (no cut, no split).
                let mut k = j;
                while k + 1 < bytes.len()
                    && bytes[k] == b' '
                    && bytes[k + 1] > b' '
                    && bytes[k + 1] < 0x7f
                {
                    k += 2;
                    while k < bytes.len() && bytes[k] > b' ' && bytes[k] < 0x7f {
                        k += 1;
                    }
                }
                if k > j && self.cur.text.len() + 1 + (k - i) < MAX_LINE_BYTES {
                    self.pre_cr = false;
                    self.push_str(&text[i..k], link);
                    src += (k - i) as u64;
                    i = k;
                    continue;
                }
                let room = MAX_LINE_BYTES
                    .saturating_sub(self.cur.text.len() + 1)
                    .max(1);
                let j = j.min(i + room);
                self.pre_cr = false;
                self.push_str(&text[i..j], link);
                src += (j - i) as u64;
                i = j;
                if self.cur.text.len() >= MAX_LINE_BYTES {
                    self.split_in_text(src);
                }
                continue;
            }
            let ch = text[i..].chars().next().expect("i is on a char boundary");
            let len = ch.len_utf8();
            let before = src;
            src += self.source_len(ch);
            if pre && (ch == '\n' || ch == '\r') {
                if !(ch == '\n' && self.pre_cr) {
                    if self.cur.text.is_empty() {
                        if let Some(sh) = self.shape.as_deref_mut() {
                            sh.pre_newline();
                        }
                    }
                    self.split_in_text(before);
                }
                self.pre_cr = ch == '\r';
            } else {
                self.pre_cr = false;
                if ch.is_whitespace() && !(pre && ch != '\u{a0}') {
                    if !self.cur.text.is_empty() {
                        self.cur.pending_space = true;
                    }
                } else if (pre && (ch == '\t' || ch == ' '))
                    || (!ch.is_control() && ch != '\u{feff}')
                {
                    self.push_str(&text[i..i + len], link);
                }
                if self.cur.text.len() >= MAX_LINE_BYTES {
                    self.split_in_text(src);
                }
            }
            i += len;
        }
        self.node_decoded = src;
    }

    /// The fewest input bytes a decoded character can have taken: its UTF-8 length when the
    /// input is UTF-8 (1 for U+FFFD, which stands for one or more invalid bytes), else 1.
    /// (Exact for valid UTF-8; a character reference counts as what it decodes to.)
    fn source_len(&self, ch: char) -> u64 {
        if self.utf8 && ch != '\u{fffd}' {
            ch.len_utf8() as u64
        } else {
            1
        }
    }

    /// Gives a start tag that matters to the structure to [`shape::Shapes`].
    fn shape_start<'b>(
        &mut self,
        name: &str,
        tag: &StartTag,
        attrs: &[AttrSpan],
        bytes: &dyn Fn(u64, u64) -> &'b [u8],
        encoding: &'static Encoding,
    ) {
        let depth = self.tokenizer_open.len();
        let at =
            self.cur.text.len() + usize::from(self.cur.pending_space && !self.cur.text.is_empty());
        let get = |key: &str| -> Option<Cow<'b, str>> {
            attrs
                .iter()
                .find(|a| {
                    bytes(a.name, a.name + a.name_len as u64).eq_ignore_ascii_case(key.as_bytes())
                })
                .map(|a| match attr_value(a, bytes, encoding) {
                    Cow::Borrowed(v) => htmlize::unescape(v),
                    Cow::Owned(v) => Cow::Owned(htmlize::unescape(v).into_owned()),
                })
        };
        if let Some(sh) = self.shape.as_deref_mut() {
            sh.start_tag(name, &get, depth, at, tag.content);
        }
    }

    /// Gives a start tag that matters to metadata to the collector.
    fn collect<'b>(
        &mut self,
        tag: &StartTag,
        name: &[u8],
        attrs: &[AttrSpan],
        bytes: &dyn Fn(u64, u64) -> &'b [u8],
        encoding: &'static Encoding,
    ) {
        let depth = self.tokenizer_open.len();
        let Some(m) = self.meta.as_deref_mut() else {
            return;
        };
        // NOTE: the names wanted are ASCII and at most 6 bytes long ([`crate::meta::wanted`]);
        // attributes are read only when the collector asks for them.
        let mut lower = [0u8; 8];
        let n = name.len().min(lower.len());
        lower[..n].copy_from_slice(&name[..n]);
        lower[..n].make_ascii_lowercase();
        let name = String::from_utf8_lossy(&lower[..n]);
        let get = |key: &str| -> Option<Cow<'b, str>> {
            attrs
                .iter()
                .find(|a| {
                    bytes(a.name, a.name + a.name_len as u64).eq_ignore_ascii_case(key.as_bytes())
                })
                .map(|a| attr_value(a, bytes, encoding))
        };
        m.start_tag(&name, &get, tag.end, depth, tag.content);
    }

    /// A `<meta>` in the head when the encoding was guessed. `lol_html`'s rule, which
    /// mainline keeps there, switches the decoding to the first ASCII-compatible charset one
    /// declares (from the next token on); [`State::source_len`] follows a rule of its own,
    /// as it always has. Once the body has started, or when the bytes have shown UTF-8, a
    /// `<meta>` changes nothing (see [`Splitter::begin`]).
    fn meta<'b>(
        &mut self,
        attrs: &[AttrSpan],
        bytes: &dyn Fn(u64, u64) -> &'b [u8],
        encoding: &'static Encoding,
    ) {
        let get = |name: &str| -> Option<Cow<'b, str>> {
            attrs
                .iter()
                .find(|a| {
                    bytes(a.name, a.name + a.name_len as u64).eq_ignore_ascii_case(name.as_bytes())
                })
                .map(|a| attr_value(a, bytes, encoding))
        };
        let ascii = |label: &[u8]| {
            Encoding::for_label_no_replacement(label).filter(|e| e.is_ascii_compatible())
        };
        if !self.charset_found {
            let label = get("charset").map(Cow::into_owned).or_else(|| {
                get("http-equiv")
                    .filter(|h| h.eq_ignore_ascii_case("content-type"))
                    .and_then(|_| mime_charset(&get("content")?).map(String::from))
            });
            if let Some(encoding) = label.and_then(|l| ascii(l.trim().as_bytes())) {
                self.charset_found = true;
                self.utf8 = encoding == encoding_rs::UTF_8;
            }
        }
        if self.encoding_found {
            return;
        }
        let charset = get("charset").and_then(|cs| ascii(cs.as_bytes()));
        let charset = charset.or_else(|| {
            get("http-equiv")
                .filter(|h| h.eq_ignore_ascii_case("Content-Type"))
                .and_then(|_| {
                    let mime = get("content")?.parse::<mime::Mime>().ok()?;
                    ascii(mime.get_param("charset")?.as_str().as_bytes())
                })
        });
        if let Some(charset) = charset {
            self.encoding_found = true;
            self.encoding = Some(charset);
        }
    }

    fn push_str(&mut self, s: &str, link: bool) {
        if self.cur.text.is_empty() {
            // NOTE: room for a typical line at once, rather than growing from nothing.
            self.cur.text.reserve(s.len().max(LINE_RESERVE));
            self.capture_context();
        } else if self.cur.pending_space {
            self.cur.text.push(' ');
            if link && self.cur.prev_link {
                self.cur.link_bytes += 1;
            }
        }
        self.cur.pending_space = false;
        self.cur.prev_link = link;
        self.cur.text.push_str(s);
        if link {
            self.cur.link_bytes += s.len() as u64;
        }
    }

    /// Records where the current line sits, when its first character arrives.
    fn capture_context(&mut self) {
        let cur = &mut self.cur;
        cur.context = self.ctx_now;
        cur.hints = self.hints_now;
        cur.depth = self.stack.len() as u32 + self.overflow;
        cur.block = Block::Body;
        cur.heading = 0;
        if let Some(open) = self.stack.iter().rev().take(64).find(|o| o.breaks) {
            cur.block = open.block;
            cur.heading = open.heading;
        }
        cur.ancestors.clear();
        cur.ancestors.extend(
            self.stack
                .iter()
                .rev()
                .filter_map(|o| o.descriptor.clone())
                .take(MAX_ANCESTORS),
        );
        if let Some(sh) = self.shape.as_deref_mut() {
            sh.line_starts(cur.block == Block::Cell);
        }
    }

    /// Ends the current line at a tag that starts at `pos`.
    fn break_at(&mut self, pos: u64) {
        self.cur.pending_space = false;
        if !self.cur.text.is_empty() {
            self.close(pos);
        }
    }

    /// Ends the current line inside a text node, `decoded` bytes (as counted by
    /// [`State::push_decoded`]) after the node's start.
    fn split_in_text(&mut self, decoded: u64) {
        self.cur.pending_space = false;
        if !self.cur.text.is_empty() {
            let pos = self.last_token_end + decoded;
            self.close(pos);
        }
    }

    fn close(&mut self, pos: u64) {
        let end = pos.min(self.max_seen).max(self.line_start);
        let cur = std::mem::take(&mut self.cur);
        let text_bytes = cur.text.len() as u64;
        // Every open element counts the line; the line reads the totals of the second and
        // third nearest line-breaking elements (its block's container and region).
        let mut blocks = [Totals::default(); 3];
        let mut path = [NO_ELEMENT; PATH_LEVELS];
        let mut found = 0;
        for open in self.stack.iter_mut().rev() {
            open.totals.add(text_bytes, cur.link_bytes);
            if open.breaks {
                if found < 3 {
                    blocks[found] = open.totals;
                }
                if found < PATH_LEVELS {
                    path[found] = open.id;
                }
                found += 1;
            }
        }
        if let Some(m) = self.meta.as_deref_mut() {
            m.line(&cur.text, cur.heading, cur.context, &cur.ancestors);
        }
        let structure = self
            .shape
            .as_deref_mut()
            .and_then(|s| s.line_ends(cur.text.len()));
        self.queue.push_back(Line {
            index: self.index,
            text: cur.text,
            start: self.line_start,
            html_bytes: end - self.line_start,
            text_bytes,
            link_bytes: cur.link_bytes,
            block: cur.block,
            heading: cur.heading,
            depth: cur.depth,
            context: cur.context,
            hints: cur.hints,
            container: blocks[1],
            region: blocks[2],
            ancestors: cur.ancestors,
            path,
            structure,
        });
        self.index += 1;
        self.line_start = end;
    }

    /// Decodes text held back for a possible character reference: its text node has ended.
    fn flush_carry(&mut self) {
        if !self.carry.is_empty() {
            let pending = std::mem::take(&mut self.carry);
            let decoded = htmlize::unescape(&pending);
            self.push_decoded(&decoded);
        }
    }

    /// The bytes from `at` on stand for a construct the guard cut or a start tag it
    /// dropped; `breaks` when that tag would have ended the line.
    fn fill_start(&mut self, at: u64, breaks: bool) {
        self.flush_carry();
        // NOTE: a character the text before ends inside is lost in the fill, as when the
        // tokenizer read the fill's spaces.
        self.decoder = None;
        if breaks {
            self.break_at(at);
        }
        self.in_fill = true;
    }

    /// The fill ends at `at`: a new text node starts there.
    fn fill_end(&mut self, at: u64) {
        self.in_fill = false;
        self.max_seen = self.max_seen.max(at);
        self.last_token_end = self.last_token_end.max(at);
        self.node_decoded = 0;
        self.pre_cr = false;
    }

    fn finish(&mut self, total: u64) {
        self.text_end();
        self.flush_carry();
        self.max_seen = total;
        self.break_at(total);
        let encoding = self.encoding.unwrap_or(encoding_rs::UTF_8);
        if let Some(m) = self.meta.as_deref_mut() {
            m.finish_input(encoding);
        }
    }
}

/// A `tag.class#id` descriptor being built: its first bytes, enough to cut it to
/// [`MAX_DESCRIPTOR_BYTES`] at a character boundary.
// NOTE: built in place and allocated once, as an `Arc<str>`, when the element is kept.
#[derive(Debug)]
struct Descriptor {
    buf: [u8; MAX_DESCRIPTOR_BYTES + 8],
    /// Bytes kept in `buf` (the descriptor's length, or `buf.len()` when it is longer).
    len: usize,
}

impl Default for Descriptor {
    fn default() -> Self {
        Descriptor {
            buf: [0; MAX_DESCRIPTOR_BYTES + 8],
            len: 0,
        }
    }
}

impl Descriptor {
    fn push(&mut self, s: &str) {
        let n = s.len().min(self.buf.len() - self.len);
        self.buf[self.len..self.len + n].copy_from_slice(&s.as_bytes()[..n]);
        self.len += n;
    }

    /// The length so far, exact up to [`MAX_DESCRIPTOR_BYTES`] and beyond it at least
    /// `MAX_DESCRIPTOR_BYTES + 1`.
    fn len(&self) -> usize {
        self.len
    }

    /// The descriptor, cut to [`MAX_DESCRIPTOR_BYTES`] at a character boundary.
    fn finish(&self) -> Arc<str> {
        let mut cut = self.len;
        if cut > MAX_DESCRIPTOR_BYTES {
            cut = MAX_DESCRIPTOR_BYTES;
            // Back to the start of the character the cut falls in.
            while self.buf[cut] & 0xC0 == 0x80 {
                cut -= 1;
            }
        }
        Arc::from(std::str::from_utf8(&self.buf[..cut]).expect("cut at a character boundary"))
    }
}

/// The positions of the bits set in `bits`, lowest first (most elements set none or one).
fn set_bits(mut bits: u16) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        if bits == 0 {
            return None;
        }
        let bit = bits.trailing_zeros() as usize;
        bits &= bits - 1;
        Some(bit)
    })
}

/// The attributes [`State::start_tag`] looks at.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum AttrName {
    Class,
    Id,
    Role,
    Hidden,
    AriaHidden,
    Style,
    Itemprop,
    Other,
}

impl AttrName {
    /// By name, in any case.
    fn of(name: &[u8]) -> Self {
        const NAMES: [(&[u8], AttrName); 7] = [
            (b"class", AttrName::Class),
            (b"id", AttrName::Id),
            (b"role", AttrName::Role),
            (b"hidden", AttrName::Hidden),
            (b"aria-hidden", AttrName::AriaHidden),
            (b"style", AttrName::Style),
            (b"itemprop", AttrName::Itemprop),
        ];
        NAMES
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map_or(AttrName::Other, |&(_, a)| a)
    }
}

/// Whether an element belongs in the head (HTML's "in head" and "after head" insertion
/// modes; `html` and `head` themselves start nothing either).
fn in_head(name: &str) -> bool {
    matches!(
        name,
        "html"
            | "head"
            | "base"
            | "basefont"
            | "bgsound"
            | "link"
            | "meta"
            | "title"
            | "noscript"
            | "noframes"
            | "style"
            | "script"
            | "template"
    )
}

/// A start tag's name as `lol_html` gives it: decoded, ASCII letters in lower case (ASCII
/// names, nearly all, are lower-cased into `buf` when they fit).
fn tag_name<'a>(raw: &[u8], encoding: &'static Encoding, buf: &'a mut [u8; 32]) -> Cow<'a, str> {
    if raw.len() <= buf.len() && raw.is_ascii() {
        let buf = &mut buf[..raw.len()];
        for (d, &b) in buf.iter_mut().zip(raw) {
            *d = b.to_ascii_lowercase();
        }
        if let Ok(name) = std::str::from_utf8(buf) {
            return Cow::Borrowed(name);
        }
    }
    Cow::Owned(encoding.decode(raw).0.to_ascii_lowercase())
}

/// An attribute's value as `lol_html` gives it: decoded, character references left as they
/// are (ASCII values, nearly all, are borrowed as they are).
fn attr_value<'b>(
    attr: &AttrSpan,
    bytes: &dyn Fn(u64, u64) -> &'b [u8],
    encoding: &'static Encoding,
) -> Cow<'b, str> {
    let raw = attr
        .value
        .map_or(&b""[..], |(start, end)| bytes(start, end));
    match std::str::from_utf8(raw) {
        Ok(value) if raw.is_ascii() => Cow::Borrowed(value),
        _ => Cow::Owned(encoding.decode(raw).0.into_owned()),
    }
}

/// Decodes `src` with `decoder` into `out` (replacing its contents); `last`: the input ends.
fn decode(decoder: &mut Decoder, mut src: &[u8], last: bool, out: &mut String) {
    out.clear();
    if let Some(n) = decoder.max_utf8_buffer_length(src.len()) {
        out.reserve(n);
    }
    loop {
        let (result, read, _) = decoder.decode_to_string(src, out, last);
        src = &src[read..];
        if result == CoderResult::InputEmpty {
            return;
        }
        out.reserve(src.len().saturating_mul(3).saturating_add(16));
    }
}

/// Whether an inline `style` hides the element (`display: none` or `visibility: hidden`,
/// in any case and spacing).
fn style_hides(style: &str) -> bool {
    let compact = style
        .bytes()
        .filter(|b| !b.is_ascii_whitespace())
        .map(|b| b.to_ascii_lowercase());
    let mut window = [0u8; 17];
    for b in compact {
        window.copy_within(1.., 0);
        window[16] = b;
        if window.ends_with(b"display:none") || window.ends_with(b"visibility:hidden") {
            return true;
        }
    }
    false
}

enum Stage {
    /// Collecting the first bytes to choose the encoding.
    Sniffing(Vec<u8>),
    Running {
        /// For encodings that are not ASCII-compatible (UTF-16, ISO-2022-JP): decoder to
        /// UTF-8.
        transcoder: Option<Decoder>,
        guard: Box<Guard>,
    },
    Ended,
    Failed,
}

/// Streaming line splitter. See the [module documentation](self).
pub struct Splitter {
    state: Box<State>,
    stage: Stage,
    /// Bytes given to the tokenizer (after transcoding, if any).
    fed: u64,
    /// Bytes given to [`Splitter::write`].
    written: u64,
    sniffed: Option<Sniffed>,
    /// A charset given from outside the document (an HTTP header's).
    transport: Option<&'static encoding_rs::Encoding>,
    trailing: u64,
    limits: Limits,
    /// The guard's output from offset `out_start` on: what later events may still refer to
    /// and the bytes of the last piece.
    out: Vec<u8>,
    out_start: u64,
    /// An encoding given by the caller ([`Splitter::with_encoding`]).
    given: Option<&'static Encoding>,
}

impl Default for Splitter {
    fn default() -> Self {
        Self::new()
    }
}

impl std::fmt::Debug for Splitter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Splitter")
            .field("written", &self.written)
            .field("sniffed", &self.sniffed)
            .finish_non_exhaustive()
    }
}

impl Splitter {
    /// A splitter for one document.
    pub fn new() -> Self {
        Splitter {
            state: Box::default(),
            stage: Stage::Sniffing(Vec::new()),
            fed: 0,
            written: 0,
            sniffed: None,
            transport: None,
            trailing: 0,
            limits: Limits::default(),
            out: Vec::new(),
            out_start: 0,
            given: None,
        }
    }

    /// Decodes the document with `encoding` (a charset given from outside it, such as an
    /// HTTP header's) unless it starts with a byte order mark; `None` leaves the choice to
    /// the document ([`input::sniff`]). See [`input::sniff_with_transport`]; unlike
    /// [`Splitter::with_encoding`], a byte order mark still wins. Set it before the first
    /// [`Splitter::write`].
    ///
    /// ```
    /// use mainline::lines::Splitter;
    /// let mut s = Splitter::new().with_transport_encoding(Some(encoding_rs::WINDOWS_1252));
    /// s.write(b"<meta charset=utf-8><p>caf")?;
    /// s.write(b"\xe9</p>")?;
    /// s.end()?;
    /// assert_eq!(s.next_line().unwrap().text, "caf\u{e9}");
    /// # Ok::<(), mainline::Error>(())
    /// ```
    pub fn with_transport_encoding(
        mut self,
        encoding: Option<&'static encoding_rs::Encoding>,
    ) -> Self {
        self.transport = encoding;
        self
    }

    /// A splitter with other limits than [`MAX_TAG_BYTES`], [`MAX_ATTRIBUTES`] and
    /// [`MAX_OPEN_ELEMENTS`] (small ones make the cuts easy to test).
    #[cfg(test)]
    fn with_limits(limits: Limits) -> Self {
        Splitter {
            limits,
            ..Splitter::new()
        }
    }

    /// Feeds the next piece of the document. Pieces may be of any size and may split
    /// tags, characters and character references anywhere.
    ///
    /// The first bytes are held back until the encoding is known: up to [`PRESCAN_BYTES`]
    /// when UTF-8 is declared (or a byte order mark says so), up to [`DETECT_BYTES`] when no
    /// encoding is declared or a legacy one is (whether the bytes contradict it decides).
    ///
    /// # Errors
    /// [`Error::NotHtml`] when the input starts with the signature of a binary format; the
    /// splitter is unusable afterwards.
    pub fn write(&mut self, bytes: &[u8]) -> Result<()> {
        self.written += bytes.len() as u64;
        match &mut self.stage {
            Stage::Sniffing(head)
                if head.is_empty()
                    && (self.given.is_some() || sniffing_done(bytes, 0, self.transport)) =>
            {
                // NOTE: a first write that settles the encoding by itself goes to the
                // tokenizer without being copied (a whole page is often written at once).
                self.stage = Stage::Sniffing(Vec::new());
                self.begin(bytes, false)
            }
            Stage::Sniffing(head) => {
                let before = head.len();
                head.extend_from_slice(bytes);
                if sniffing_done(head, before, self.transport) {
                    self.start(false)?;
                }
                Ok(())
            }
            Stage::Running { .. } => {
                self.feed(bytes);
                Ok(())
            }
            Stage::Ended => Err(Error::Other("write after end".into())),
            Stage::Failed => Err(Error::Html("the splitter failed earlier".into())),
        }
    }

    /// Ends the document: the last line is completed and [`Splitter::trailing_bytes`] set.
    ///
    /// # Errors
    /// As for [`Splitter::write`].
    pub fn end(&mut self) -> Result<()> {
        if let Stage::Sniffing(_) = self.stage {
            self.start(true)?;
        }
        match std::mem::replace(&mut self.stage, Stage::Failed) {
            Stage::Running {
                transcoder,
                mut guard,
            } => {
                let mut bytes = Vec::new();
                if let Some(mut decoder) = transcoder {
                    transcode(&mut decoder, &[], true, &mut bytes);
                    self.fed += bytes.len() as u64;
                }
                if !guard.scan(&bytes, &mut self.out) {
                    self.out.extend_from_slice(&bytes);
                }
                guard.finish(&mut self.out);
                Self::events(
                    &mut self.state,
                    &mut guard,
                    &mut self.out,
                    &mut self.out_start,
                    None,
                );
                let st = &mut self.state;
                st.finish(self.fed);
                self.trailing = self.fed - st.line_start;
                self.stage = Stage::Ended;
                Ok(())
            }
            Stage::Ended => {
                self.stage = Stage::Ended;
                Ok(())
            }
            Stage::Failed => Err(Error::Html("the splitter failed earlier".into())),
            Stage::Sniffing(_) => unreachable!("start() leaves the sniffing stage"),
        }
    }

    /// The next complete line, if any.
    pub fn next_line(&mut self) -> Option<Line> {
        self.state.queue.pop_front()
    }

    /// Bytes given to the tokenizer so far: the input length, or for transcoded inputs
    /// (UTF-16, ISO-2022-JP) the length of their UTF-8 transcoding.
    pub fn input_bytes(&self) -> u64 {
        self.fed
    }

    /// Bytes after the end of the last line (known after [`Splitter::end`]).
    pub fn trailing_bytes(&self) -> u64 {
        self.trailing
    }

    /// The encoding chosen for the document, once known.
    pub fn encoding(&self) -> Option<Sniffed> {
        self.sniffed
    }

    /// Whether to collect the page's [`Metadata`](crate::meta::Metadata) as it is read (off
    /// by default). Set it before the first [`Splitter::write`].
    ///
    /// ```
    /// let mut s = mainline::lines::Splitter::new().with_metadata(true);
    /// s.write(b"<title>Hi</title><p>Some text.</p>")?;
    /// s.end()?;
    /// assert!(s.head_done());
    /// assert_eq!(s.metadata().unwrap().title.as_deref(), Some("Hi"));
    /// # Ok::<(), mainline::Error>(())
    /// ```
    pub fn with_metadata(mut self, yes: bool) -> Self {
        self.state.meta = yes.then(Box::default);
        self
    }

    /// Decode the document with `encoding` whatever it declares (a byte order mark, a
    /// `<meta charset>`), without holding back its first bytes: for text that is already
    /// decoded, such as a Rust `&str` with UTF-8. Set it before the first
    /// [`Splitter::write`].
    ///
    /// ```
    /// let mut s = mainline::lines::Splitter::new().with_encoding(encoding_rs::UTF_8);
    /// s.write("<meta charset=iso-8859-1><p>Déjà vu</p>".as_bytes())?;
    /// assert_eq!(s.next_line().unwrap().text, "Déjà vu");
    /// # Ok::<(), mainline::Error>(())
    /// ```
    pub fn with_encoding(mut self, encoding: &'static Encoding) -> Self {
        self.given = Some(encoding);
        self
    }

    /// Whether each line records its [`Structure`] (off by default): lists, tables, `<pre>`
    /// blocks, quotes and inline spans, for rendering Markdown. Lines are otherwise the
    /// same. Set it before the first [`Splitter::write`].
    ///
    /// ```
    /// let mut s = mainline::lines::Splitter::new().with_structure(true);
    /// s.write(b"<ol start=3><li>Three <em>four</em></li></ol>")?;
    /// s.end()?;
    /// let line = s.next_line().unwrap();
    /// let st = line.structure.as_deref().unwrap();
    /// assert_eq!(st.item.as_ref().map(|i| (i.ordered, i.ordinal)), Some((true, 3)));
    /// assert_eq!((st.spans[0].start, st.spans[0].end), (6, 10));
    /// # Ok::<(), mainline::Error>(())
    /// ```
    pub fn with_structure(mut self, yes: bool) -> Self {
        self.state.shape = yes.then(Box::default);
        self
    }

    /// The metadata collected so far, when asked for with [`Splitter::with_metadata`]:
    /// what the head gives once [`Splitter::head_done`], all of it after [`Splitter::end`].
    pub fn metadata(&self) -> Option<crate::meta::Metadata> {
        self.state.meta.as_ref().map(|m| m.metadata())
    }

    /// Whether the head has been read: the first line of the body has come out (or the
    /// document has ended).
    pub fn head_done(&self) -> bool {
        matches!(self.stage, Stage::Ended)
            || self.state.meta.as_ref().is_some_and(|m| m.head_done())
            || self.state.index > 0
    }

    fn start(&mut self, complete: bool) -> Result<()> {
        let Stage::Sniffing(head) = std::mem::replace(&mut self.stage, Stage::Failed) else {
            return Ok(());
        };
        self.begin(&head, complete)
    }

    /// Chooses the encoding from the document's first bytes `head` (all of them when
    /// `complete`), sets up the tokenizer and feeds it `head`.
    fn begin(&mut self, head: &[u8], complete: bool) -> Result<()> {
        self.stage = Stage::Failed;
        if let Some(kind) = input::binary_kind(head) {
            return Err(Error::NotHtml(format!("the data looks like a {kind}")));
        }
        let sniffed = match self.given {
            Some(encoding) => Sniffed {
                encoding,
                source: EncodingSource::Given,
            },
            None => input::sniff_with_transport(head, complete, self.transport),
        };
        self.sniffed = Some(sniffed);
        let (encoding, transcoder) = if sniffed.encoding.is_ascii_compatible() {
            (sniffed.encoding, None)
        } else {
            (
                encoding_rs::UTF_8,
                Some(sniffed.encoding.new_decoder_with_bom_removal()),
            )
        };
        let st = &mut self.state;
        // A later <meta charset> in the head may correct a guess, but never a BOM, an early
        // declaration, or UTF-8 that the bytes have shown (multi-byte sequences in the first
        // DETECT_BYTES): that would turn the rest of a UTF-8 page into mojibake.
        st.adjust = sniffed.source == EncodingSource::Detected
            && transcoder.is_none()
            && !(sniffed.encoding == encoding_rs::UTF_8
                && input::utf8_evidence(head, complete) == Utf8Evidence::MultiByte);
        st.utf8 = transcoder.is_some() || sniffed.encoding == encoding_rs::UTF_8;
        st.encoding = Some(encoding);
        self.stage = Stage::Running {
            transcoder,
            guard: Box::new(Guard::new(self.limits)),
        };
        self.feed(head);
        Ok(())
    }

    fn feed(&mut self, bytes: &[u8]) {
        let Stage::Running { transcoder, guard } = &mut self.stage else {
            unreachable!("feed is only called while running");
        };
        let mut transcoded = Vec::new();
        let bytes = match transcoder {
            Some(decoder) => {
                transcoded.reserve(bytes.len() * 3 / 2 + 16);
                transcode(decoder, bytes, false, &mut transcoded);
                &transcoded[..]
            }
            None => bytes,
        };
        self.fed += bytes.len() as u64;
        // NOTE: pieces of at most FEED_BYTES, so that the bytes kept between pieces (at most
        // a start tag, which the guard keeps within MAX_TAG_BYTES), those of one piece and
        // its events stay bounded. While bytes are kept, the guard's output is copied after
        // them: short pieces then, until the tag ends and pieces can be read in place.
        let mut rest = bytes;
        while !rest.is_empty() {
            let size = if self.out.is_empty() {
                FEED_BYTES
            } else {
                KEPT_FEED_BYTES
            };
            let (piece, tail) = rest.split_at(size.min(rest.len()));
            rest = tail;
            let copied = guard.scan(piece, &mut self.out);
            let unchanged = (!copied).then_some(piece);
            Self::events(
                &mut self.state,
                guard,
                &mut self.out,
                &mut self.out_start,
                unchanged,
            );
        }
    }

    /// Applies the guard's events and forgets the bytes no later event refers to. The
    /// guard's output is `out` from offset `out_start` on, or `unchanged` (then `out` is
    /// empty).
    fn events(
        state: &mut State,
        guard: &mut Guard,
        out: &mut Vec<u8>,
        out_start: &mut u64,
        unchanged: Option<&[u8]>,
    ) {
        let bytes = unchanged.unwrap_or(out);
        state.apply(guard.events(), guard.attributes(), bytes, *out_start);
        if let Some(m) = state.meta.as_deref_mut() {
            if m.capture_next().is_some() {
                m.bytes(bytes, *out_start);
            }
        }
        guard.clear_events();
        let keep = guard.keep_from().max(*out_start);
        let drop = usize::try_from(keep - *out_start)
            .unwrap_or(usize::MAX)
            .min(bytes.len());
        match unchanged {
            Some(input) => out.extend_from_slice(&input[drop..]),
            None => {
                out.drain(..drop);
            }
        }
        *out_start += drop as u64;
    }
}

/// Whether the first bytes of a document, `head`, of which the first `before` were already
/// looked at, are enough to choose the encoding.
fn sniffing_done(
    head: &[u8],
    before: usize,
    transport: Option<&'static encoding_rs::Encoding>,
) -> bool {
    // NOTE: the declaration prescan looks at the first PRESCAN_BYTES only, so it runs
    // once, when they are complete (not again for every small write). With a charset from
    // outside, only a byte order mark (at most 3 bytes) can overrule it. A declared legacy
    // encoding is settled only once DETECT_BYTES show whether the bytes contradict it
    // (valid UTF-8 with multi-byte sequences), unless they already cannot.
    (transport.is_some() && head.len() >= 3)
        || head.len() >= DETECT_BYTES
        || (before < PRESCAN_BYTES && head.len() >= PRESCAN_BYTES && {
            let first = &head[..PRESCAN_BYTES];
            let sniffed = input::sniff(first, false);
            match sniffed.source {
                EncodingSource::Bom | EncodingSource::Given | EncodingSource::Transport => true,
                EncodingSource::Meta => {
                    sniffed.encoding == encoding_rs::UTF_8
                        || input::utf8_evidence(first, false) == Utf8Evidence::Invalid
                }
                EncodingSource::Detected | EncodingSource::Contradicted(_) => false,
            }
        })
}

/// The most bytes given to the guard in one go.
const FEED_BYTES: usize = 16 * 1024;

/// The same while the bytes of a start tag are kept from the previous piece.
const KEPT_FEED_BYTES: usize = 1024;

fn transcode(decoder: &mut Decoder, mut bytes: &[u8], last: bool, out: &mut Vec<u8>) {
    let mut buf = [0u8; 8192];
    loop {
        let (result, read, written, _) = decoder.decode_to_utf8(bytes, &mut buf, last);
        out.extend_from_slice(&buf[..written]);
        bytes = &bytes[read..];
        if result == encoding_rs::CoderResult::InputEmpty {
            break;
        }
    }
}

/// The `charset` parameter of a MIME type such as `text/html; charset=windows-1252` (as
/// the tokenizer reads a `<meta http-equiv="content-type">`: a `type/subtype` first).
fn mime_charset(content: &str) -> Option<&str> {
    let mut parts = content.split(';');
    let (kind, sub) = parts.next()?.trim().split_once('/')?;
    if kind.is_empty() || sub.is_empty() {
        return None;
    }
    parts.find_map(|p| {
        let (name, value) = p.split_once('=')?;
        name.trim()
            .eq_ignore_ascii_case("charset")
            .then(|| value.trim().trim_matches('"'))
    })
}

/// Splits a whole document held in memory. A convenience over [`Splitter`].
///
/// ```
/// let lines = mainline::lines::split(b"<h1>Title</h1><p>Body text.</p>")?;
/// assert_eq!(lines.len(), 2);
/// assert_eq!(lines[0].heading, 1);
/// # Ok::<(), mainline::Error>(())
/// ```
///
/// # Errors
/// As for [`Splitter::write`].
pub fn split(html: &[u8]) -> Result<Vec<Line>> {
    let mut splitter = Splitter::new();
    splitter.write(html)?;
    splitter.end()?;
    Ok(std::iter::from_fn(|| splitter.next_line()).collect())
}

#[cfg(test)]
mod tests;

#[cfg(test)]
mod tree_tests;
