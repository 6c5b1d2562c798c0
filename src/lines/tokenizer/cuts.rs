//! Limits and cuts: the tokenizer byte by byte once a construct reaches a limit, holding,
//! closing and filling it so that the tokenizer's memory stays bounded.

use super::Tokenizer;
use super::lexer::{St, Tok, is_ws};
use super::names::{TextMode, hash, tag, text_adjustment};
use super::pieces::Piece;
use super::tags;
use super::tree::Ns;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Mode {
    /// Bytes pass unchanged.
    Pass,
    /// Holding back `<` and a tag name while the open-element stack is full.
    Hold,
    /// Holding back up to four dashes in escaped script text that has reached the limit
    /// (`double`: double-escaped; `after_dashes`: the run continues a `--`).
    DashRun { double: bool, after_dashes: bool },
    /// Closing a construct that reached its limit; `orig` follows the real one (when
    /// `live`).
    Closing { live: bool },
    /// Showing spaces until the real construct ends.
    Fill,
    /// Holding from a `<` in the text of a raw-text element that may be unclosed
    /// (`tag`: the `<` starts a tag that would close it; see [`super::raw`]).
    Peek { tag: bool },
}

impl Tokenizer {
    /// Copies a run of bytes that cannot change anything, if the state allows; returns how
    /// many bytes it took (0: go byte by byte).
    /// In fill mode, a run of bytes that does not end the real construct: spaces for all
    /// of it. Returns its length (0: go byte by byte).
    pub(super) fn bulk(&mut self, input: &[u8], out: &mut Vec<u8>) -> usize {
        if self.mode != Mode::Fill || self.orig.plen > 0 {
            return 0;
        }
        let until =
            |stop: fn(u8) -> bool| input.iter().position(|&b| stop(b)).unwrap_or(input.len());
        let n = match self.orig.state {
            St::ValueDq => memchr::memchr(b'"', input).unwrap_or(input.len()),
            St::ValueSq => memchr::memchr(b'\'', input).unwrap_or(input.len()),
            St::Bogus => memchr::memchr(b'>', input).unwrap_or(input.len()),
            St::Comment => memchr::memchr2(b'-', b'<', input).unwrap_or(input.len()),
            St::TagName => until(|b| is_ws(b) || b == b'>' || b == b'/'),
            St::AttrName => until(|b| is_ws(b) || matches!(b, b'=' | b'>' | b'/')),
            St::ValueUnq => until(|b| is_ws(b) || b == b'>'),
            _ => 0,
        };
        #[cfg(test)]
        self.trace
            .1
            .extend(std::iter::repeat_n(self.view.text_type, n));
        out.resize(out.len() + n, b' ');
        self.pos += n as u64;
        self.view.mark = self.pos;
        n
    }

    /// Reports a construct the tokenizer view has just read to the end, if any.
    #[inline]
    pub(super) fn take_boundary(&mut self) {
        if let Some((start, end)) = self.view.boundary.take() {
            self.tree.boundary(start, end, self.view.text_type);
        }
    }

    #[inline]
    fn feed_view(&mut self, c: u8, pos: u64, out: &mut Vec<u8>) {
        out.push(c);
        #[cfg(test)]
        self.trace.1.push(self.view.text_type);
        self.view.step(c, pos);
        self.take_boundary();
        #[cfg(test)]
        if !self.view.state.is_text() {
            self.max_held = self.max_held.max(self.view.held(pos + 1));
        }
        if let St::Emitted(to_data) = self.view.state {
            #[cfg(test)]
            self.trace
                .0
                .push((pos + 1, self.view.tag.end, self.view.tag.hash));
            self.tree.emit(&mut self.view, to_data, pos + 1);
            self.view.mark = pos + 1;
        }
    }

    pub(super) fn byte(&mut self, b: u8, out: &mut Vec<u8>) {
        let pos = self.pos;
        self.pos += 1;
        match self.mode {
            Mode::Pass => self.pass(b, pos, out),
            Mode::Hold => {
                self.held.push(b);
                self.decide_hold(out);
            }
            Mode::Peek { tag } => self.peek(b, tag, out),
            Mode::DashRun {
                double,
                after_dashes,
            } => self.dash_run(b, pos, double, after_dashes, out),
            Mode::Closing { live } => {
                let c = closer(self.view.state, b);
                self.feed_view(c, pos, out);
                let mut live = live;
                if live {
                    self.orig.step(b, pos);
                    if self.orig.state.is_text() {
                        live = false;
                        if !self.view.state.is_text() {
                            // NOTE: the real construct ended before the cut one could be
                            // closed; the next byte or two of what follows close it.
                            self.mode = Mode::Closing { live: false };
                            return;
                        }
                    }
                }
                if self.view.state.is_text() {
                    if live {
                        self.tree.push_fill(Piece::FillStart {
                            at: pos + 1,
                            breaks: false,
                        });
                        self.mode = Mode::Fill;
                    } else {
                        self.mode = Mode::Pass;
                    }
                } else {
                    self.mode = Mode::Closing { live };
                }
            }
            Mode::Fill => {
                #[cfg(test)]
                self.trace.1.push(self.view.text_type);
                out.push(b' ');
                self.view.mark = pos + 1;
                self.orig.step(b, pos);
                if self.orig.state.is_text() {
                    self.tree.push_fill(Piece::FillEnd { at: pos + 1 });
                    self.mode = Mode::Pass;
                }
            }
        }
    }

    #[inline]
    fn pass(&mut self, b: u8, pos: u64, out: &mut Vec<u8>) {
        let v = &self.view;
        let capped = v.held(pos) >= self.limits.tag_bytes;

        let flushed = std::mem::take(&mut self.flushed);
        let c = match v.state {
            St::Text(TextMode::Data)
                if b == b'<' && !self.replaying && self.tree.too_deep(self.limits.open) =>
            {
                self.held.clear();
                self.held.push(b);
                self.held_start = pos;
                self.mode = Mode::Hold;
                return;
            }
            s if (s.in_tag() && (capped || v.tag.attrs > self.limits.attributes))
                || ((s.in_comment() || s == St::Bogus) && capped) =>
            {
                self.orig = self.view.clone();
                self.orig.record = false;
                self.mode = Mode::Closing { live: true };
                self.pos = pos;
                self.byte(b, out);
                return;
            }
            St::Text(_) | St::TextLt(_) | St::TextEndTagOpen(_) | St::TextEndTagName(_)
                if b == b'<' && self.peeks(pos) =>
            {
                self.start_peek(pos);
                return;
            }
            St::TextEndTagName(_) | St::EscapedEndTagName if capped && b.is_ascii_alphabetic() => {
                b'0'
            }
            // NOTE: a pending `-` (half of a `--`) turns plain before a `<` just as before
            // the byte it replaces.
            St::Escaped | St::DoubleEscaped if capped && b != b'-' && b != b'<' => {
                self.flushed = true;
                b'<'
            }
            St::EscapedLt if flushed && matches!(b, b'/' | b's' | b'S') => b'x',
            St::DoubleEscapedLt if flushed && b == b'/' => b'x',
            St::EscapedDashDash if capped && !matches!(b, b'-' | b'<' | b'>') => {
                self.flushed = true;
                b'<'
            }
            St::Escaped | St::EscapedDashDash | St::DoubleEscaped | St::DoubleEscapedDashDash
                if capped && b == b'-' =>
            {
                self.held.clear();
                self.held.push(b);
                self.held_start = pos;
                self.mode = Mode::DashRun {
                    double: matches!(v.state, St::DoubleEscaped | St::DoubleEscapedDashDash),
                    after_dashes: matches!(
                        v.state,
                        St::EscapedDashDash | St::DoubleEscapedDashDash
                    ),
                };
                return;
            }
            _ => b,
        };
        self.feed_view(c, pos, out);
    }

    /// A run of dashes in escaped script text that has reached the limit: the tokenizer
    /// releases such text only at a `<`, so one of the dashes (or two, as `x<`) becomes
    /// one, chosen so that the tokenizer is in the same state as with the real dashes when
    /// it reads the byte after them.
    fn dash_run(&mut self, b: u8, pos: u64, double: bool, after_dashes: bool, out: &mut Vec<u8>) {
        let start = self.held_start;
        if b == b'-' {
            self.held.push(b);
            if self.held.len() == 4 {
                // Four dashes leave the real text after `--`; so do these.
                let replacement: &[u8] = if double { b"x<--" } else { b"<---" };
                for (i, &c) in replacement.iter().enumerate() {
                    self.feed_view(c, start + i as u64, out);
                }
                self.held.clear();
                self.mode = Mode::Pass;
            }
            return;
        }
        let k = self.held.len();
        if b == b'>' || (double && k == 1 && after_dashes) {
            // `-->` leaves the escaped text (releasing it); a single `-` after `--` in
            // double-escaped text cannot be turned into a release.
            self.release(out);
            self.pass(b, pos, out);
            return;
        }
        // The dashes but the last (or last two), then `<` (or `x<`): afterwards the
        // tokenizer reads `b` just as after the real dashes.
        let keep = if double && k >= 2 { k - 2 } else { k - 1 };
        let tail: &[u8] = if double && k >= 2 { b"x<" } else { b"<" };
        self.held.clear();
        for i in 0..keep {
            self.feed_view(b'-', start + i as u64, out);
        }
        for (i, &c) in tail.iter().enumerate() {
            self.feed_view(c, start + (keep + i) as u64, out);
        }
        self.flushed = true;
        self.mode = Mode::Pass;
        self.pass(b, pos, out);
    }

    /// Gives held bytes to the tokenizer unchanged.
    pub(super) fn release(&mut self, out: &mut Vec<u8>) {
        let held = std::mem::take(&mut self.held);
        for (i, &c) in held.iter().enumerate() {
            self.feed_view(c, self.held_start + i as u64, out);
        }
        self.mode = Mode::Pass;
    }

    /// Gives a held start tag to the tokenizer as if it had never been held: the limit on
    /// tag bytes applies to it as to any other (its name, read while held, can be longer).
    pub(super) fn release_hold(&mut self, out: &mut Vec<u8>) {
        let held = std::mem::take(&mut self.held);
        let end = self.pos;
        self.pos = self.held_start;
        self.mode = Mode::Pass;
        self.replaying = true;
        for &c in &held {
            self.byte(c, out);
        }
        self.replaying = false;
        debug_assert_eq!(self.pos, end);
    }

    /// With the open-element stack full: lets a held start tag through or turns it into a
    /// fill, once its name is known.
    fn decide_hold(&mut self, out: &mut Vec<u8>) {
        let held = &self.held;
        if !held[1].is_ascii_alphabetic() {
            self.release_hold(out);
            return;
        }
        let last = held[held.len() - 1];
        let name = if is_ws(last) || last == b'/' || last == b'>' {
            &held[1..held.len() - 1]
        } else if held.len() > 17 {
            &held[1..]
        } else {
            return;
        };
        let h = hash(name);
        if self.tree.current() == Ns::Html && (tag::is_void(h) || text_adjustment(h).is_some()) {
            self.release_hold(out);
            return;
        }
        let lower = name.to_ascii_lowercase();
        let breaks = std::str::from_utf8(&lower).is_ok_and(|n| tags::classify(n).breaks);
        let start = self.held_start;
        let held = std::mem::take(&mut self.held);
        self.tree.push_fill(Piece::FillStart { at: start, breaks });
        self.orig = Tok::new();
        self.orig.record = false;
        self.orig.mark = start;
        for (i, &c) in held.iter().enumerate() {
            let at = start + i as u64;
            #[cfg(test)]
            self.trace.1.push(self.view.text_type);
            out.push(b' ');
            self.view.mark = at + 1;
            self.orig.step(c, at);
        }
        if self.orig.state.is_text() {
            self.tree.push_fill(Piece::FillEnd {
                at: start + held.len() as u64,
            });
            self.mode = Mode::Pass;
        } else {
            self.mode = Mode::Fill;
        }
    }
}

/// The byte that brings a cut construct closest to its end.
pub(super) fn closer(state: St, b: u8) -> u8 {
    use St::*;
    match state {
        ValueDq => b'"',
        ValueSq => b'\'',
        SelfClosing if b != b'>' => b' ',
        CommentEnd | CommentEndBang | CommentStart | CommentStartDash | CommentLtBangDashDash => {
            b'>'
        }
        Comment | CommentEndDash | CommentLt | CommentLtBang | CommentLtBangDash => b'-',
        _ => b'>',
    }
}
