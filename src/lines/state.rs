//! The splitter's state: the elements open around the text, the line being built, the
//! lines ready, and the dispatch of what the tokenizer reports (the guard's [`Piece`]s) to
//! the start-tag, end-tag and text rules.

use std::collections::VecDeque;
use std::sync::Arc;

use encoding_rs::Encoding;

use super::current::Current;
use super::elements::{ClassHints, Descriptors};
use super::line::{Line, Totals};
use super::text::NodeDecoder;
use super::tokenizer::{AttrSpan, Piece, TextKind};
#[cfg(doc)]
use super::{MAX_STACK, Splitter, tokenizer};
use super::{ctx, hint, shape, tags};

/// An element on the splitter's open-element stack.
#[derive(Debug)]
pub(super) struct Open {
    pub(super) id: u32,
    pub(super) breaks: bool,
    pub(super) block: tags::Block,
    pub(super) heading: u8,
    pub(super) ctx: u16,
    pub(super) hints: u16,
    pub(super) descriptor: Option<Arc<str>>,
    /// Text bytes, link bytes and lines of the lines inside this element so far.
    pub(super) totals: Totals,
}

/// Everything the tokenizer's reports update.
#[derive(Debug, Default)]
pub(super) struct State {
    pub(super) stack: Vec<Open>,
    /// Open elements beyond [`MAX_STACK`].
    pub(super) overflow: u32,
    pub(super) next_id: u32,
    pub(super) ctx_counts: [u32; ctx::COUNT],
    pub(super) hint_counts: [u32; hint::COUNT],
    pub(super) ctx_now: u16,
    pub(super) hints_now: u16,

    pub(super) cur: Current,
    /// Offset where the current line's accounting starts.
    pub(super) line_start: u64,
    /// End offset of the last tag seen: where the current text node starts.
    pub(super) last_token_end: u64,
    /// Decoded bytes of text seen since the last tag (for offsets of splits inside text).
    pub(super) node_decoded: u64,
    /// The furthest input offset any token has reached.
    pub(super) max_seen: u64,
    /// Raw text held back because it may end inside a character reference.
    pub(super) carry: String,
    /// A `\r` was just seen inside `<pre>` (so a following `\n` is the same line end).
    pub(super) pre_cr: bool,
    /// The tokenizer is being shown a fill (see [`tokenizer`]): its text is not the page's.
    pub(super) in_fill: bool,
    /// The tokenizer decodes the input as UTF-8 (as is, or transcoded from UTF-16).
    pub(super) utf8: bool,
    /// A `<meta>` has set the encoding [`State::source_len`] assumes.
    pub(super) charset_found: bool,

    pub(super) index: u64,
    pub(super) queue: VecDeque<Line>,

    /// The tokenizer's open-element stack, one entry per element on it: the element's
    /// serial number and whether it breaks lines when it is tracked (see
    /// [`State::start_tag`]).
    pub(super) tokenizer_open: Vec<Option<(u32, bool)>>,

    /// The encoding text, tag names and attribute values are decoded from (UTF-8 for
    /// transcoded inputs).
    pub(super) encoding: Option<&'static Encoding>,
    /// A `<meta>` may switch `encoding` (it was guessed).
    pub(super) adjust: bool,
    /// A `<meta>` has switched `encoding`.
    pub(super) encoding_found: bool,
    /// The body has started (HTML's "in head" and "after head" rules: a start tag of an
    /// element that does not belong in the head, or text that is not white space): the
    /// text decoded so far commits the document to its encoding, and a `<meta>` no longer
    /// switches it.
    pub(super) body_started: bool,
    /// The decoder of the current text node, once it needed one (its first bytes that are
    /// not plain ASCII or valid UTF-8): it holds a character split between pieces.
    pub(super) decoder: Option<NodeDecoder>,
    /// The kind of the current text node, once it has text.
    pub(super) node: Option<TextKind>,
    /// Scratch space for decoded text.
    pub(super) decoded: String,
    /// The page's metadata, when collected ([`Splitter::with_metadata`]).
    pub(super) meta: Option<Box<crate::meta::Collector>>,
    /// The structure stack, when asked for ([`Splitter::with_structure`]).
    pub(super) shape: Option<Box<shape::Shapes>>,
    /// The text and ancestor buffers of lines given back ([`Splitter::recycle`]), emptied,
    /// for later lines.
    pub(super) spare_lines: Vec<(String, Vec<Arc<str>>)>,
    /// The descriptors made lately, for elements that repeat them.
    pub(super) descriptors: Descriptors,
    /// The hints of `class` and `id` values seen lately.
    pub(super) class_hints: ClassHints,
}

pub(super) const OVERFLOW_ID: u32 = u32::MAX;

/// Empties `old` into `fresh`, which gets the room `old` has grown to.
fn reuse<T>(fresh: &mut Vec<T>, old: &mut Vec<T>) {
    old.clear();
    std::mem::swap(fresh, old);
}

impl State {
    /// Takes over the buffers of `old`, emptied (see [`Splitter::reuse`]).
    pub(super) fn reuse(&mut self, old: &mut State) {
        reuse(&mut self.stack, &mut old.stack);
        old.queue.clear();
        std::mem::swap(&mut self.queue, &mut old.queue);
        reuse(&mut self.tokenizer_open, &mut old.tokenizer_open);
        old.carry.clear();
        std::mem::swap(&mut self.carry, &mut old.carry);
        old.decoded.clear();
        std::mem::swap(&mut self.decoded, &mut old.decoded);
        std::mem::swap(&mut self.spare_lines, &mut old.spare_lines);
        std::mem::swap(&mut self.descriptors, &mut old.descriptors);
        std::mem::swap(&mut self.class_hints, &mut old.class_hints);
    }

    pub(super) fn see(&mut self, end: usize) {
        self.max_seen = self.max_seen.max(end as u64);
    }

    /// Applies what the tokenizer has read (see [`tokenizer::Piece`]); `out` holds the bytes
    /// from offset `base` on.
    pub(super) fn apply(&mut self, events: &[Piece], attrs: &[AttrSpan], out: &[u8], base: u64) {
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

    pub(super) fn finish(&mut self, total: u64) {
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
