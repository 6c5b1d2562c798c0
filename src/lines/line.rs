//! The line record: what a line of the page is known to be when it ends.

use std::sync::Arc;

use super::{Block, Structure};
#[cfg(doc)]
use super::{MAX_ANCESTORS, MAX_DESCRIPTOR_BYTES, MAX_OPEN_ELEMENTS, Splitter, ctx, hint};

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
    pub(super) fn add(&mut self, text: u64, link: u64) {
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
