//! The lines the splitter makes: the line being built (text added to it, where it sits,
//! recorded when its first character arrives, and where it ends, at a line-breaking tag or
//! inside text), the lines ready, and what is collected from them when asked (their
//! structure for Markdown, the page's metadata).

use std::collections::VecDeque;
use std::sync::Arc;

use super::elements::Elements;
use super::line::{Line, NO_ELEMENT, PATH_LEVELS, Totals};
use super::shape::Shapes;
use super::{Block, MAX_ANCESTORS, ctx};

/// Bytes reserved for a line's text when its first characters arrive.
const LINE_RESERVE: usize = 128;

/// The line being built.
#[derive(Debug, Default)]
struct Current {
    text: String,
    link_bytes: u64,
    pending_space: bool,
    /// The last text added was inside a link.
    prev_link: bool,
    /// An image was the last thing added (structure is being collected): white space
    /// that follows it is recorded on its span.
    image_open: bool,
    block: Block,
    heading: u8,
    depth: u32,
    context: u16,
    hints: u16,
    ancestors: Vec<Arc<str>>,
}

/// The line being built, the lines ready, and the offsets a line's bytes are counted
/// between.
#[derive(Debug, Default)]
pub(super) struct Lines {
    cur: Current,
    /// Offset where the current line's accounting starts.
    pub(super) line_start: u64,
    /// End offset of the last tag seen: where the current text node starts.
    pub(super) last_token_end: u64,
    /// The furthest input offset any token has reached.
    max_seen: u64,
    /// The number of the next line.
    pub(super) index: u64,
    queue: VecDeque<Line>,
    /// The text and ancestor buffers of lines given back ([`super::Splitter::recycle`]),
    /// emptied, for later lines.
    pub(super) spare_lines: Vec<(String, Vec<Arc<str>>)>,
    /// The page's metadata, when collected ([`super::Splitter::with_metadata`]).
    pub(super) meta: Option<Box<crate::meta::Collector>>,
    /// The structure stack, when asked for ([`super::Splitter::with_structure`]).
    pub(super) shape: Option<Box<Shapes>>,
}

impl Lines {
    /// Takes over the buffers of `old`, emptied.
    pub(super) fn reuse(&mut self, old: &mut Lines) {
        old.queue.clear();
        std::mem::swap(&mut self.queue, &mut old.queue);
        std::mem::swap(&mut self.spare_lines, &mut old.spare_lines);
    }

    /// The next line ready.
    #[inline]
    pub(super) fn pop(&mut self) -> Option<Line> {
        self.queue.pop_front()
    }

    /// A token has reached offset `end`.
    #[inline]
    pub(super) fn see(&mut self, end: u64) {
        self.max_seen = self.max_seen.max(end);
    }

    /// The input has ended at `total`.
    #[inline]
    pub(super) fn saw_all(&mut self, total: u64) {
        self.max_seen = total;
    }

    /// The bytes of the current line's text.
    #[inline]
    pub(super) fn text_len(&self) -> usize {
        self.cur.text.len()
    }

    /// Where in the current line's text the next character goes: after a pending space.
    #[inline]
    pub(super) fn next_at(&self) -> usize {
        self.cur.text.len() + usize::from(self.cur.pending_space && !self.cur.text.is_empty())
    }

    /// An image was added to the line (its structure is being collected).
    #[inline]
    pub(super) fn image_added(&mut self) {
        self.cur.image_open = true;
    }

    /// White space in the text: a pending space, once the line has text.
    #[inline]
    pub(super) fn space(&mut self) {
        if self.cur.image_open {
            self.space_after_image();
        }
        if !self.cur.text.is_empty() {
            self.cur.pending_space = true;
        }
    }

    /// A line end inside `<pre>` (the line is then ended by the caller): an empty line
    /// of preformatted text is recorded in its structure.
    pub(super) fn pre_newline(&mut self) {
        if self.cur.text.is_empty() {
            if let Some(sh) = self.shape.as_deref_mut() {
                sh.pre_newline();
            }
        }
    }

    /// Adds `s` to the current line; `link`: it is the text of a link.
    pub(super) fn push_str(&mut self, s: &str, link: bool, elements: &Elements) {
        if self.cur.text.is_empty() {
            if self.cur.text.capacity() == 0
                && let Some((text, ancestors)) = self.spare_lines.pop()
            {
                self.cur.text = text;
                self.cur.ancestors = ancestors;
            }
            // NOTE: room for a typical line at once, rather than growing from nothing.
            self.cur.text.reserve(s.len().max(LINE_RESERVE));
            self.capture_context(elements);
        } else if self.cur.pending_space {
            self.cur.text.push(' ');
            if link && self.cur.prev_link {
                self.cur.link_bytes += 1;
            }
        }
        self.cur.pending_space = false;
        self.cur.image_open = false;
        self.cur.prev_link = link;
        self.cur.text.push_str(s);
        if link {
            self.cur.link_bytes += s.len() as u64;
        }
    }

    /// Records where the current line sits, when its first character arrives.
    fn capture_context(&mut self, elements: &Elements) {
        let cur = &mut self.cur;
        cur.context = elements.context();
        cur.hints = elements.hints();
        cur.depth = elements.depth();
        cur.block = Block::Body;
        cur.heading = 0;
        let stack = elements.open();
        if let Some(open) = stack.iter().rev().take(64).find(|o| o.breaks) {
            cur.block = open.block;
            cur.heading = open.heading;
        }
        cur.ancestors.clear();
        cur.ancestors.extend(
            stack
                .iter()
                .rev()
                .filter_map(|o| o.descriptor.clone())
                .take(MAX_ANCESTORS),
        );
        if let Some(sh) = self.shape.as_deref_mut() {
            // A line of a cell: directly in it, or in a paragraph or division directly in
            // it (the cells of tables written by office suites and wikis).
            let mut blocks = stack.iter().rev().take(64).filter(|o| o.breaks);
            let cell_block = match (blocks.next(), blocks.next()) {
                (Some(first), _) if first.block == Block::Cell => true,
                (Some(first), Some(second)) => {
                    matches!(first.block, Block::P | Block::Div)
                        && second.block == Block::Cell
                        && second.ctx & ctx::CELL != 0
                }
                _ => false,
            };
            sh.line_starts(cell_block);
        }
    }

    /// White space after an image: recorded on the image's span (the text keeps one space
    /// where the white space before and after the image met).
    #[cold]
    fn space_after_image(&mut self) {
        self.cur.image_open = false;
        let at = self.next_at();
        if let Some(sh) = self.shape.as_deref_mut() {
            sh.space_after_image(at);
        }
    }

    /// Ends the current line at a tag that starts at `pos`.
    pub(super) fn break_at(&mut self, pos: u64, elements: &mut Elements) {
        self.cur.pending_space = false;
        self.cur.image_open = false;
        if !self.cur.text.is_empty() {
            self.close(pos, elements);
        }
    }

    /// Ends the current line inside a text node, `decoded` bytes (as counted by
    /// [`super::text::TextNode`]) after the node's start.
    pub(super) fn split_in_text(&mut self, decoded: u64, elements: &mut Elements) {
        self.cur.pending_space = false;
        self.cur.image_open = false;
        if !self.cur.text.is_empty() {
            let pos = self.last_token_end + decoded;
            self.close(pos, elements);
        }
    }

    fn close(&mut self, pos: u64, elements: &mut Elements) {
        let end = pos.min(self.max_seen).max(self.line_start);
        let cur = std::mem::take(&mut self.cur);
        let text_bytes = cur.text.len() as u64;
        // Every open element counts the line; the line reads the totals of the second and
        // third nearest line-breaking elements (its block's container and region).
        let mut blocks = [Totals::default(); 3];
        let mut path = [NO_ELEMENT; PATH_LEVELS];
        let mut found = 0;
        for open in elements.open_mut().iter_mut().rev() {
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
            let place = crate::meta::Place {
                article: cur.context & ctx::ARTICLE != 0,
                boilerplate: cur.context & (ctx::NAV | ctx::FOOTER | ctx::ASIDE | ctx::FORM) != 0,
                article_footer: cur.context & (ctx::FOOTER | ctx::ARTICLE)
                    == ctx::FOOTER | ctx::ARTICLE
                    && cur.context & (ctx::NAV | ctx::ASIDE | ctx::FORM) == 0,
            };
            m.line(&cur.text, cur.heading, place, &cur.ancestors);
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
}
