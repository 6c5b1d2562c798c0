//! The splitter's tokenizer, its memory bounded whatever the input.
//!
//! The splitter tokenizes as `lol_html` does (and ran on `lol_html` before). `lol_html` keeps
//! a token in memory until it is complete (a start tag with all its attributes, a comment, a
//! doctype, the text of a `<script><!--` block) and keeps every open element on a stack that
//! only end tags pop, so unclosed `<p>`, `<li>` or `<div>` pile up. Left alone, a 50 MB
//! attribute, a comment that never closes or a million unclosed elements make memory grow
//! with the input. The limits below bound that, and their cuts are what they were when
//! `lol_html` read the tokenizer's output, so the splitter's lines are unchanged.
//!
//! Unlike `lol_html`, the tokenizer's open-element stack also follows the end tags HTML implies
//! (see [`implied`] and `Tree::break_out`): a start tag that ends open elements in the
//! standard's tree construction (`<p>` an open `p`, `<td>` the open cell, `<li>` the open
//! item, a `<p>` the unclosed `<svg>` it appears in, …) reports them closed, as if their end
//! tags stood before it. The lexer is unchanged: these are the elements the splitter hears
//! of, not the tokenizer's states.
//!
//! The tokenizer sits between the input and the splitter. It follows the tokenizer byte by
//! byte — the same states as `lol_html`'s lexer and the same tree-builder feedback (which
//! elements switch to raw text, `svg`/`math` namespaces, the open-element stack) — and,
//! only when a limit is reached, replaces input bytes before the tokenizer sees them. It
//! always replaces one byte by one byte, so every offset stays the input's own and byte
//! accounting is unchanged. Its decisions depend on the bytes alone, never on how the input
//! is cut into pieces.
//!
//! One difference from `lol_html` is deliberate: `lol_html` tokenizes as a browser with
//! scripting enabled, where the content of `<noscript>` is raw text. The tokenizer reads it as
//! a parser with scripting disabled does (and as crawlers, text browsers and `lxml` do): as
//! markup, `noscript` being an element like any other. Forum software serves whole
//! threads that way (Discourse puts every post of a thread inside `<noscript>` and draws
//! the page with scripts). The tests compare the tokenizer with `lol_html` reading the same
//! bytes with each `noscript` renamed to an element it does not know, which it reads as
//! markup.
//!
//! It is also the splitter's tokenizer: reading the bytes it lets through (its output) as
//! `lol_html` would, it reports, in order, what `lol_html` reports to handlers ([`Piece`]):
//! start tags with the ranges of their name and attributes, the text of text nodes (with
//! their kind and where each node ends: at a tag, comment, doctype, `</>`, CDATA marker or
//! the end of the input), end tags that close open elements, and fills. Memory stays bounded
//! by the limits below: the splitter keeps at most the bytes of the start tag being read.
//!
//! - A tag, comment, doctype or bogus comment reaching [`MAX_TAG_BYTES`] (or a tag reaching
//!   [`MAX_ATTRIBUTES`]) is closed there: the next bytes are replaced by the shortest
//!   sequence that ends it (`>`, `">`, `'>` or `-->`), and the rest of the original
//!   construct, up to where it really ends, is shown to the tokenizer as spaces that the
//!   splitter ignores (a *fill*). The tag keeps its name and the attributes before the cut.
//! - Text of a `<script>` after `<!--`, which the tokenizer does not release until the next
//!   `<`, gets a `<` in place of one of its bytes once it reaches [`MAX_TAG_BYTES`] (in
//!   place of a dash, or as `x<` in place of two, within runs of dashes), always where the
//!   tokenizer then reads the next byte in the state the real bytes would have left it in;
//!   a runaway end tag name such as `</stylestylestyle…` gets a `0`. Both change script or
//!   raw text only.
//! - When [`MAX_OPEN_ELEMENTS`] elements are open in the tokenizer's stack, further start
//!   tags that would be pushed are shown as a fill: their text is kept, and a line-breaking
//!   one still ends the line. Void elements and the elements that switch to raw text
//!   (`script`, `style`, `textarea`, …) pass, so their contents keep their meaning.
//!
//! A second deliberate difference: a `<title>`, `<textarea>` or `<style>` left open is
//! closed where the page's markup goes on, as libxml2 closes it, instead of taking the
//! rest of the page as its text (see [`raw`]).

mod cuts;
mod fast;
mod lexer;
mod names;
mod pieces;
mod raw;
mod tree;

use super::tags;
use cuts::Mode;
use lexer::{St, Tok};
use names::TextMode;
pub(crate) use pieces::{AttrSpan, EndTag, Piece, StartTag, TextKind};
pub use raw::RAW_TEXT_WINDOW;
pub(crate) use tree::KeyHasher;
use tree::Tree;

/// The longest tag, comment, doctype or unreleased run of script text, in bytes, that the
/// tokenizer is shown whole; longer ones are cut there (see the limits in the
/// module docs of `lines`).
pub const MAX_TAG_BYTES: usize = 1 << 20;

/// The most attributes a tag keeps; the tag is cut after this many (see
/// [`MAX_TAG_BYTES`]).
pub const MAX_ATTRIBUTES: usize = 1024;

/// The most elements left open (by the tokenizer's count, which end tags and the end tags
/// HTML implies lower) before
/// further start tags are skipped; their text is kept (see the limits in the
/// module docs of `lines`).
pub const MAX_OPEN_ELEMENTS: usize = 16 * 1024;

/// The limits a tokenizer enforces.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Limits {
    pub tag_bytes: u64,
    pub attributes: usize,
    pub open: usize,
    /// How far the end tag of a `<title>`, `<textarea>` or `<style>` is looked for before
    /// the element is closed at a tag (0: never closed; see [`raw`]).
    pub raw_window: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            tag_bytes: MAX_TAG_BYTES as u64,
            attributes: MAX_ATTRIBUTES,
            open: MAX_OPEN_ELEMENTS,
            raw_window: RAW_TEXT_WINDOW,
        }
    }
}

/// Empties `old` into `fresh`, which gets the room `old` has grown to.
fn reuse<T>(fresh: &mut Vec<T>, old: &mut Vec<T>) {
    old.clear();
    std::mem::swap(fresh, old);
}

/// The tokenizer for one document. See the [module docs](self).
#[derive(Debug)]
pub(crate) struct Tokenizer {
    limits: Limits,
    view: Tok,
    tree: Tree,
    orig: Tok,
    mode: Mode,
    held: Vec<u8>,
    held_start: u64,
    /// Offset of the next input byte.
    pos: u64,
    /// The last byte fed was a `<` put in to release escaped script text.
    flushed: bool,
    /// Held bytes are being given to the tokenizer (they are not held again).
    replaying: bool,
    /// No `<` before this input offset starts a hold in raw text (its bytes are being
    /// given to the tokenizer after one).
    quiet_until: u64,
    /// Output bytes so far (the offset after the last byte the tokenizer view has read).
    out_pos: u64,
    /// Tags the tokenizer emits: end offset, end tag, name hash; and the text mode before
    /// each byte (for checking the tokenizer against `lol_html`).
    #[cfg(test)]
    trace: (Vec<(u64, bool, u64)>, Vec<TextMode>),
    /// The most bytes the tokenizer held at once.
    #[cfg(test)]
    max_held: u64,
    /// Raw-text elements closed where they were left open.
    #[cfg(test)]
    raw_closed: usize,
    /// The most bytes held at once in raw text.
    #[cfg(test)]
    max_peek: usize,
}

impl Tokenizer {
    pub(crate) fn new(limits: Limits) -> Self {
        Tokenizer {
            limits,
            view: Tok::new(),
            tree: Tree::new(),
            orig: Tok {
                record: false,
                ..Tok::new()
            },
            mode: Mode::Pass,
            held: Vec::new(),
            held_start: 0,
            pos: 0,
            flushed: false,
            replaying: false,
            quiet_until: 0,
            out_pos: 0,
            #[cfg(test)]
            trace: Default::default(),
            #[cfg(test)]
            max_held: 0,
            #[cfg(test)]
            raw_closed: 0,
            #[cfg(test)]
            max_peek: 0,
        }
    }

    /// A tokenizer for a new document with `limits`, with the buffers of `self` (emptied): their
    /// room is kept from document to document.
    pub(crate) fn reset(&mut self, limits: Limits) {
        let mut fresh = Tokenizer::new(limits);
        fresh.tree.reuse(&mut self.tree);
        reuse(&mut fresh.view.attrs, &mut self.view.attrs);
        reuse(&mut fresh.orig.attrs, &mut self.orig.attrs);
        reuse(&mut fresh.held, &mut self.held);
        *self = fresh;
    }

    /// Processes the next input bytes: appends what the tokenizer is to see to `out` and
    /// what it reads to the events (see [`Tokenizer::events`]).
    ///
    /// When `out` is empty and the tokenizer is to see `input` unchanged, `out` is left
    /// empty; returns whether `out` holds the output.
    pub(crate) fn scan(&mut self, input: &[u8], out: &mut Vec<u8>) -> bool {
        let before = out.len();
        // NOTE: most pieces pass unchanged; copying them would cost about an instruction
        // per byte. Until a byte is changed or held, `out` would hold `input[..i]`.
        let mut copied = before > 0;
        let mut i = 0;
        while i < input.len() {
            if self.mode == Mode::Pass {
                let n = self.run(&input[i..]);
                if copied {
                    out.extend_from_slice(&input[i..i + n]);
                }
                i += n;
                if i == input.len() {
                    break;
                }
            }
            if !copied {
                out.extend_from_slice(&input[..i]);
                copied = true;
            }
            let n = self.bulk(&input[i..], out);
            if n > 0 {
                i += n;
                continue;
            }
            self.byte(input[i], out);
            i += 1;
        }
        self.out_pos += if copied {
            (out.len() - before) as u64
        } else {
            input.len() as u64
        };
        // The text read so far is reported now, up to a `<` that may start a construct.
        let safe = match self.view.state {
            St::Text(_) => self.out_pos,
            _ => self.view.mark.min(self.out_pos),
        };
        self.tree.text_to(safe);
        copied
    }

    /// What the tokenizer has read so far, in order (taken by [`Tokenizer::clear_events`]).
    pub(crate) fn events(&self) -> &[Piece] {
        &self.tree.events
    }

    /// The attributes of the start tags among [`Tokenizer::events`].
    pub(crate) fn attributes(&self) -> &[AttrSpan] {
        &self.tree.attrs
    }

    /// Forgets the events reported so far.
    pub(crate) fn clear_events(&mut self) {
        self.tree.events.clear();
        self.tree.attrs.clear();
    }

    /// The first output offset whose byte later events may still refer to: the start of a
    /// start tag being read, or of a `<` or `</` that may yet turn out to be text.
    pub(crate) fn keep_from(&self) -> u64 {
        let v = &self.view;
        let open =
            matches!(v.state, St::TagOpen | St::EndTagOpen) || (v.state.in_tag() && !v.tag.end);
        if open {
            v.mark.min(self.out_pos)
        } else {
            self.out_pos
        }
    }

    /// Ends the input: releases held bytes, closes an open fill and reports the last text.
    pub(crate) fn finish(&mut self, out: &mut Vec<u8>) {
        let before = out.len();
        self.finish_peek(out);
        match self.mode {
            Mode::Hold => self.release_hold(out),
            Mode::DashRun { .. } => self.release(out),
            _ => {}
        }
        if self.mode == Mode::Fill {
            self.tree.push_fill(Piece::FillEnd { at: self.pos });
            self.mode = Mode::Pass;
        }
        self.out_pos += (out.len() - before) as u64;
        // At the end of the input a `<` or `</` (and a `]` in CDATA) is text; an unfinished
        // tag, comment or doctype is not.
        let safe = match self.view.state {
            St::Text(_) | St::TagOpen | St::EndTagOpen | St::CDataBracket => self.out_pos,
            _ => self.view.mark.min(self.out_pos),
        };
        self.tree.text_to(safe);
        self.tree.boundary(safe, self.out_pos, TextMode::Data);
    }
}

#[cfg(test)]
mod tests;
