//! The fast path: runs of bytes that pass unchanged and change no decision, taken in bulk
//! rather than byte by byte.

use super::Tokenizer;
use super::lexer::{St, is_ws};
use super::names::TextMode;

impl Tokenizer {
    /// Gives the tokenizer view the bytes that pass unchanged, up to the first one that
    /// needs a decision; returns how many it took.
    pub(super) fn run(&mut self, input: &[u8]) -> usize {
        let mut i = 0;
        while i < input.len() {
            let b = input[i];
            let pos = self.pos;
            let v = &self.view;
            if self.flushed
                || v.held(pos) >= self.limits.tag_bytes
                || (v.tag.attrs > self.limits.attributes && v.state.in_tag())
                || (b == b'<' && self.tree.too_deep(self.limits.open))
            {
                break;
            }
            let n = self.bulk_pass(&input[i..]);
            if n > 0 {
                i += n;
                continue;
            }
            let n = self.tag_run(&input[i..]);
            if n > 0 {
                i += n;
                continue;
            }
            if b == b'<' && self.peeks(pos) {
                break;
            }
            #[cfg(test)]
            self.trace.1.push(self.view.text_type);
            self.view.step(b, pos);
            self.take_boundary();
            if let St::Emitted(to_data) = self.view.state {
                #[cfg(test)]
                self.trace
                    .0
                    .push((pos + 1, self.view.tag.end, self.view.tag.hash));
                self.tree.emit(&mut self.view, to_data, pos + 1);
                self.view.mark = pos + 1;
            }
            #[cfg(test)]
            if !self.view.state.is_text() {
                self.max_held = self.max_held.max(self.view.held(pos + 1));
            }
            self.pos += 1;
            i += 1;
        }
        i
    }

    /// A tag read in one go, in pass mode: from its `<` in data text (or from wherever
    /// the tag is), through its name and attributes, to the `>` that emits it or the end
    /// of `input`, whichever comes first. Returns how many bytes it took (0: go byte by
    /// byte).
    ///
    /// The same transitions as [`Tok::arms`] for these states, without the per-byte
    /// overhead of [`Tokenizer::run`]: its checks cannot fire inside the run (the held bytes
    /// stop short of the limit, the tag stops after the attribute that passes the limit,
    /// and the open-element stack does not change before the tag is emitted).
    // NOTE: tags are most of what the tokenizer reads byte by byte; taking them here roughly
    // halved its instructions on the wcxb-dev pages.
    fn tag_run(&mut self, input: &[u8]) -> usize {
        let starts = match self.view.state {
            St::Text(TextMode::Data) => input.first() == Some(&b'<'),
            St::TagOpen | St::EndTagOpen => true,
            s => s.in_tag(),
        };
        if !starts || self.view.plen > 0 || self.tree.too_deep(self.limits.open) {
            return 0;
        }
        let start = self.pos;
        let room = self.limits.tag_bytes.saturating_sub(self.view.held(start));
        let limit = input.len().min(usize::try_from(room).unwrap_or(usize::MAX));
        let input = &input[..limit];
        let attributes = self.limits.attributes;
        let v = &mut self.view;
        let mut i = 0;
        while i < limit {
            let b = input[i];
            match v.state {
                St::Text(TextMode::Data) => {
                    if b != b'<' {
                        break;
                    }
                    v.mark = start + i as u64;
                    v.state = St::TagOpen;
                }
                St::TagOpen => match b {
                    b'a'..=b'z' | b'A'..=b'Z' => {
                        v.new_tag(false, b);
                        v.state = St::TagName;
                    }
                    b'/' => v.state = St::EndTagOpen,
                    _ => break,
                },
                St::EndTagOpen => match b {
                    b'a'..=b'z' | b'A'..=b'Z' => {
                        v.new_tag(true, b);
                        v.state = St::TagName;
                    }
                    _ => break,
                },
                St::TagName => match b {
                    _ if is_ws(b) => v.state = St::BeforeAttrName,
                    b'>' => {
                        v.state = St::Emitted(false);
                        i += 1;
                        break;
                    }
                    b'/' => v.state = St::SelfClosing,
                    _ => {
                        v.tag.name_byte(b);
                        i += 1;
                        while i < limit && !is_ws(input[i]) && !matches!(input[i], b'>' | b'/') {
                            v.tag.name_byte(input[i]);
                            i += 1;
                        }
                        continue;
                    }
                },
                St::BeforeAttrName => match b {
                    _ if is_ws(b) => {}
                    b'/' => v.state = St::SelfClosing,
                    b'>' => {
                        v.state = St::Emitted(false);
                        i += 1;
                        break;
                    }
                    _ => {
                        v.start_attr(b, start + i as u64);
                        v.state = St::AttrName;
                        if v.tag.attrs > attributes {
                            i += 1;
                            break;
                        }
                    }
                },
                St::AttrName => match b {
                    _ if is_ws(b) => {
                        v.tag.finish_attr_name();
                        v.state = St::AfterAttrName;
                    }
                    b'=' => {
                        v.tag.finish_attr_name();
                        v.state = St::BeforeAttrValue;
                    }
                    b'/' => {
                        v.tag.finish_attr_name();
                        v.finish_attr();
                        v.state = St::SelfClosing;
                    }
                    b'>' => {
                        v.tag.finish_attr_name();
                        v.finish_attr();
                        v.state = St::Emitted(false);
                        i += 1;
                        break;
                    }
                    _ => {
                        v.tag.attr_name_byte(b);
                        i += 1;
                        while i < limit
                            && !is_ws(input[i])
                            && !matches!(input[i], b'=' | b'>' | b'/')
                        {
                            v.tag.attr_name_byte(input[i]);
                            i += 1;
                        }
                        continue;
                    }
                },
                St::AfterAttrName => match b {
                    _ if is_ws(b) => {}
                    b'/' => {
                        v.finish_attr();
                        v.state = St::SelfClosing;
                    }
                    b'=' => v.state = St::BeforeAttrValue,
                    b'>' => {
                        v.finish_attr();
                        v.state = St::Emitted(false);
                        i += 1;
                        break;
                    }
                    _ => {
                        v.finish_attr();
                        v.start_attr(b, start + i as u64);
                        v.state = St::AttrName;
                        if v.tag.attrs > attributes {
                            i += 1;
                            break;
                        }
                    }
                },
                St::BeforeAttrValue => match b {
                    _ if is_ws(b) => {}
                    b'"' => {
                        v.start_value(start + i as u64 + 1);
                        v.state = St::ValueDq;
                    }
                    b'\'' => {
                        v.start_value(start + i as u64 + 1);
                        v.state = St::ValueSq;
                    }
                    b'>' => {
                        v.finish_attr();
                        v.state = St::Emitted(true);
                        i += 1;
                        break;
                    }
                    _ => {
                        v.start_value(start + i as u64);
                        // Reconsumed as the first byte of an unquoted value.
                        v.state = St::ValueUnq;
                        continue;
                    }
                },
                St::ValueDq | St::ValueSq => {
                    let quote = if v.state == St::ValueDq { b'"' } else { b'\'' };
                    if v.tag.encoding_attr {
                        if b == quote {
                            v.end_value(start + i as u64);
                            v.finish_attr();
                            v.state = St::BeforeAttrName;
                        } else {
                            v.tag.value_byte(b);
                        }
                    } else {
                        match memchr::memchr(quote, &input[i..]) {
                            Some(k) => {
                                i += k;
                                v.end_value(start + i as u64);
                                v.finish_attr();
                                v.state = St::BeforeAttrName;
                            }
                            None => {
                                i = limit;
                                continue;
                            }
                        }
                    }
                }
                St::ValueUnq => match b {
                    _ if is_ws(b) => {
                        v.end_value(start + i as u64);
                        v.finish_attr();
                        v.state = St::BeforeAttrName;
                    }
                    b'>' => {
                        v.end_value(start + i as u64);
                        v.finish_attr();
                        v.state = St::Emitted(false);
                        i += 1;
                        break;
                    }
                    _ => v.tag.value_byte(b),
                },
                St::SelfClosing => match b {
                    b'>' => {
                        v.tag.self_closing = true;
                        v.state = St::Emitted(false);
                        i += 1;
                        break;
                    }
                    _ => {
                        // Reconsumed before an attribute name.
                        v.state = St::BeforeAttrName;
                        continue;
                    }
                },
                _ => break,
            }
            // NOTE: the arms that emit the tag leave the loop themselves, so that other
            // bytes need no check.
            i += 1;
        }
        #[cfg(test)]
        {
            self.trace
                .1
                .extend(std::iter::repeat_n(self.view.text_type, i));
            // Every byte but an emitting last one leaves the tokenizer inside the tag.
            let inside = if matches!(self.view.state, St::Emitted(_)) {
                i.saturating_sub(1)
            } else {
                i
            };
            if inside > 0 {
                let held = self.view.held(start + inside as u64);
                self.max_held = self.max_held.max(held);
            }
        }
        self.pos = start + i as u64;
        if let St::Emitted(to_data) = self.view.state {
            #[cfg(test)]
            self.trace
                .0
                .push((self.pos, self.view.tag.end, self.view.tag.hash));
            self.tree.emit(&mut self.view, to_data, self.pos);
            self.view.mark = self.pos;
        }
        i
    }

    /// A run of bytes that changes nothing but the tag name or attribute name being read,
    /// in pass mode; returns its length (0: go byte by byte).
    #[inline]
    fn bulk_pass(&mut self, input: &[u8]) -> usize {
        let v = &self.view;
        let n = match v.state {
            St::Text(TextMode::Data | TextMode::RcData | TextMode::RawText | TextMode::Script) => {
                memchr::memchr(b'<', input).unwrap_or(input.len())
            }
            St::Text(TextMode::Plain) => input.len(),
            St::Text(TextMode::CData) => memchr::memchr(b']', input).unwrap_or(input.len()),
            _ => return self.bulk_construct(input),
        };
        #[cfg(test)]
        self.trace
            .1
            .extend(std::iter::repeat_n(self.view.text_type, n));
        self.pos += n as u64;
        self.view.mark = self.pos;
        n
    }

    /// [`Tokenizer::bulk_pass`] inside a tag, comment or escaped script.
    fn bulk_construct(&mut self, input: &[u8]) -> usize {
        let v = &self.view;
        if v.plen > 0 {
            return 0;
        }
        // NOTE: stop where the construct reaches its limit, so that the byte-by-byte path
        // sees the cut at the same offset however the input is chunked.
        let room = self.limits.tag_bytes.saturating_sub(v.held(self.pos));
        let limit = input.len().min(usize::try_from(room).unwrap_or(usize::MAX));
        let input = &input[..limit];
        let until = |stop: fn(u8) -> bool| input.iter().position(|&b| stop(b)).unwrap_or(limit);
        let n = match v.state {
            St::ValueDq if !v.tag.encoding_attr => memchr::memchr(b'"', input).unwrap_or(limit),
            St::ValueSq if !v.tag.encoding_attr => memchr::memchr(b'\'', input).unwrap_or(limit),
            St::Bogus => memchr::memchr(b'>', input).unwrap_or(limit),
            St::Comment | St::Escaped | St::DoubleEscaped => {
                memchr::memchr2(b'-', b'<', input).unwrap_or(limit)
            }
            St::TagName => until(|b| is_ws(b) || b == b'>' || b == b'/'),
            St::AttrName => until(|b| is_ws(b) || matches!(b, b'=' | b'>' | b'/')),
            St::ValueUnq if !v.tag.encoding_attr => until(|b| is_ws(b) || b == b'>'),
            _ => 0,
        };
        let run = &input[..n];
        match v.state {
            St::TagName => run.iter().for_each(|&b| self.view.tag.name_byte(b)),
            St::AttrName => run.iter().for_each(|&b| self.view.tag.attr_name_byte(b)),
            _ => {}
        }
        #[cfg(test)]
        {
            self.trace
                .1
                .extend(std::iter::repeat_n(self.view.text_type, n));
            if n > 0 {
                self.max_held = self.max_held.max(self.view.held(self.pos + n as u64));
            }
        }
        self.pos += n as u64;
        n
    }
}
