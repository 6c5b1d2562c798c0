//! The line being built: text added to it, where it sits (recorded when its first
//! character arrives), and where it ends, at a line-breaking tag or inside text.

use std::sync::Arc;

use super::line::{Line, NO_ELEMENT, PATH_LEVELS, Totals};
use super::state::State;
use super::{Block, MAX_ANCESTORS, ctx};

/// Bytes reserved for a line's text when its first characters arrive.
const LINE_RESERVE: usize = 128;

/// The line being built.
#[derive(Debug, Default)]
pub(super) struct Current {
    pub(super) text: String,
    pub(super) link_bytes: u64,
    pub(super) pending_space: bool,
    /// The last text added was inside a link.
    pub(super) prev_link: bool,
    /// An image was the last thing added (structure is being collected): white space
    /// that follows it is recorded on its span.
    pub(super) image_open: bool,
    pub(super) block: Block,
    pub(super) heading: u8,
    pub(super) depth: u32,
    pub(super) context: u16,
    pub(super) hints: u16,
    pub(super) ancestors: Vec<Arc<str>>,
}

impl State {
    pub(super) fn push_str(&mut self, s: &str, link: bool) {
        if self.cur.text.is_empty() {
            if self.cur.text.capacity() == 0
                && let Some((text, ancestors)) = self.spare_lines.pop()
            {
                self.cur.text = text;
                self.cur.ancestors = ancestors;
            }
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
        self.cur.image_open = false;
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
            // A line of a cell: directly in it, or in a paragraph or division directly in
            // it (the cells of tables written by office suites and wikis).
            let mut blocks = self.stack.iter().rev().take(64).filter(|o| o.breaks);
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
    pub(super) fn space_after_image(&mut self) {
        self.cur.image_open = false;
        let at =
            self.cur.text.len() + usize::from(self.cur.pending_space && !self.cur.text.is_empty());
        if let Some(sh) = self.shape.as_deref_mut() {
            sh.space_after_image(at);
        }
    }

    /// Ends the current line at a tag that starts at `pos`.
    pub(super) fn break_at(&mut self, pos: u64) {
        self.cur.pending_space = false;
        self.cur.image_open = false;
        if !self.cur.text.is_empty() {
            self.close(pos);
        }
    }

    /// Ends the current line inside a text node, `decoded` bytes (as counted by
    /// [`State::push_decoded`]) after the node's start.
    pub(super) fn split_in_text(&mut self, decoded: u64) {
        self.cur.pending_space = false;
        self.cur.image_open = false;
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
