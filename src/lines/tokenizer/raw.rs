//! Unclosed raw-text elements: a `<title>`, `<textarea>` or `<style>` whose end tag never
//! comes is closed where the page's markup goes on, as libxml2 closes it.
//!
//! Read as the HTML standard reads it, such an element takes the rest of the page as its
//! text: a page cut or spliced by its crawler after `<title>` has no content at all. So at a
//! `<` in the element's text that starts a tag of a common element (for a `<style>`, only
//! `<body` or `</head`: style sheets hold tag-like text in comments and data URLs), the tokenizer
//! holds the bytes that follow, up to [`RAW_TEXT_WINDOW`] of them. If the element's end tag
//! (`</title` and a byte that ends the name) is among them, they pass as they are. If it is
//! not (or the input ends first), the element ends at that `<`, as if its end tag stood
//! there, and the held bytes are read as markup. The decision depends on the bytes alone,
//! never on how they are cut into pieces, and no more than the window is ever held.

use super::Tokenizer;
use super::cuts::Mode;
use super::lexer::{St, is_ws};
use super::names::{TextMode, tag};

/// How many bytes from a tag-shaped `<` in the text of a `<title>`, `<textarea>` or
/// `<style>` are searched for the element's end tag before the element is closed there.
pub const RAW_TEXT_WINDOW: usize = 8 * 1024;

/// The longest tag name that can make a `<` a closing point.
const LONGEST_NAME: usize = 10;

/// Start tags that end an unclosed `<title>` or `<textarea>`: the elements a page's head
/// and body begin with.
const COMMON: &str = "html head body meta link script style base noscript div p span a img br \
                      hr table tr td ul ol li dl h1 h2 h3 h4 h5 h6 form input iframe section \
                      article header footer nav main aside center font b i strong em \
                      blockquote pre figure";

/// The raw-text element whose text is being read, if the tokenizer closes it when unclosed:
/// its name. A `<` read next starts a tag or is text in any of these states (after `<`,
/// `</` or `</name`, the tokenizer reads a `<` as it does in the text).
fn closable(state: St, last_start: u64) -> Option<&'static [u8]> {
    let mode = match state {
        St::Text(m) | St::TextLt(m) | St::TextEndTagOpen(m) | St::TextEndTagName(m) => m,
        _ => return None,
    };
    match (mode, last_start) {
        (TextMode::RcData, tag::TITLE) => Some(b"title"),
        (TextMode::RcData, tag::TEXTAREA) => Some(b"textarea"),
        (TextMode::RawText, tag::STYLE) => Some(b"style"),
        _ => None,
    }
}

/// Whether a tag named `name` (lower-cased; `end`: an end tag) can end the unclosed
/// element `element`.
fn closes(element: &[u8], name: &[u8], end: bool) -> bool {
    if end {
        name == b"head"
    } else if element == b"style" {
        name == b"body"
    } else {
        COMMON
            .split_ascii_whitespace()
            .any(|n| n.as_bytes() == name)
    }
}

impl Tokenizer {
    /// Whether a `<` read next at `pos` in pass mode starts a hold (see the
    /// [module docs](self)).
    #[inline]
    pub(super) fn peeks(&self, pos: u64) -> bool {
        self.limits.raw_window > 0
            && pos >= self.quiet_until
            && closable(self.view.state, self.view.last_start_hash).is_some()
    }

    /// Starts holding at the `<` at `pos`.
    pub(super) fn start_peek(&mut self, pos: u64) {
        self.held.clear();
        self.held.push(b'<');
        self.held_start = pos;
        self.mode = Mode::Peek { tag: false };
    }

    /// The next held byte, `b`.
    pub(super) fn peek(&mut self, b: u8, tag: bool, out: &mut Vec<u8>) {
        self.held.push(b);
        #[cfg(test)]
        {
            self.max_peek = self.max_peek.max(self.held.len());
        }
        // NOTE: the tokenizer view does not move while bytes are held, so this is the
        // element the hold started in.
        let Some(element) = closable(self.view.state, self.view.last_start_hash) else {
            return self.replay(false, self.pos, out);
        };
        if !tag {
            let held = &self.held[..];
            let end = held[1] == b'/';
            let from = 1 + usize::from(end);
            let Some(&first) = held.get(from) else {
                return;
            };
            if !first.is_ascii_alphabetic() {
                return self.not_a_tag(out);
            }
            if b.is_ascii_alphanumeric() {
                if held.len() - from > LONGEST_NAME {
                    self.not_a_tag(out);
                }
                return;
            }
            let name = held[from..held.len() - 1].to_ascii_lowercase();
            if (is_ws(b) || b == b'/' || b == b'>') && closes(element, &name, end) {
                self.mode = Mode::Peek { tag: true };
            } else {
                self.not_a_tag(out);
            }
            return;
        }
        let held = &self.held[..];
        let n = element.len() + 2;
        if (is_ws(b) || b == b'/' || b == b'>') && held.len() > n {
            let before = &held[held.len() - 1 - n..held.len() - 1];
            if before.starts_with(b"</") && before[2..].eq_ignore_ascii_case(element) {
                // The end tag follows: the element was not left open, and no `<` before
                // it can end it.
                return self.replay(false, self.pos, out);
            }
        }
        if held.len() >= self.limits.raw_window {
            self.replay(true, 0, out);
        }
    }

    /// Ends a hold: closes the element at the held `<` first if `close`, then gives the
    /// held bytes to the tokenizer. None of them before `quiet` starts another hold.
    fn replay(&mut self, close: bool, quiet: u64, out: &mut Vec<u8>) {
        let held = std::mem::take(&mut self.held);
        let start = self.held_start;
        let end = self.pos;
        self.mode = Mode::Pass;
        self.quiet_until = quiet;
        if close {
            self.tree.close_raw(self.view.last_start_hash, start);
            self.view.state = St::Text(TextMode::Data);
            self.view.text_type = TextMode::Data;
            #[cfg(test)]
            {
                self.raw_closed += 1;
            }
        }
        self.pos = start;
        for &c in &held {
            self.byte(c, out);
        }
        debug_assert_eq!(self.pos, end);
        if self.held.is_empty() {
            // Its room is kept for the next hold.
            self.held = held;
            self.held.clear();
        }
    }

    /// The element stays open: the held `<` is no closing point, but a `<` after it
    /// may be.
    fn not_a_tag(&mut self, out: &mut Vec<u8>) {
        self.replay(false, self.held_start + 1, out);
    }

    /// Ends the input while holding: an element left open to the end is closed at the
    /// held `<` if that starts a closing tag.
    pub(super) fn finish_peek(&mut self, out: &mut Vec<u8>) {
        while let Mode::Peek { tag } = self.mode {
            if tag {
                self.replay(true, 0, out);
            } else {
                self.not_a_tag(out);
            }
        }
    }
}

#[cfg(test)]
#[path = "raw_tests.rs"]
mod tests;
