//! The lexer: the tokenizer's states, byte by byte, as `lol_html`'s lexer has them, and what
//! is known about the tag being read.

use super::MAX_ATTRIBUTES;
use super::names::{EMPTY, TextMode, hash_update};
use super::pieces::AttrSpan;

/// Tokenizer states, named after `lol_html`'s (which follow the HTML standard's).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum St {
    Text(TextMode),
    CDataBracket,
    TagOpen,
    EndTagOpen,
    MarkupDecl,
    TagName,
    BeforeAttrName,
    AttrName,
    AfterAttrName,
    BeforeAttrValue,
    ValueDq,
    ValueSq,
    ValueUnq,
    SelfClosing,
    /// A bogus comment or a doctype: both end at the next `>`.
    Bogus,
    CommentStart,
    CommentStartDash,
    Comment,
    CommentEndDash,
    CommentEnd,
    CommentEndBang,
    CommentLt,
    CommentLtBang,
    CommentLtBangDash,
    CommentLtBangDashDash,
    TextLt(TextMode),
    TextEndTagOpen(TextMode),
    TextEndTagName(TextMode),
    EscapeStart,
    Escaped,
    EscapedDashDash,
    EscapedLt,
    EscapedEndTagOpen,
    EscapedEndTagName,
    DoubleEscapedStart,
    DoubleEscaped,
    DoubleEscapedDashDash,
    DoubleEscapedLt,
    DoubleEscapedEndTagName,
    DoubleEscapedEnd,
    /// A tag was just emitted (`true`: the tokenizer goes to the data state whatever the
    /// tag, as `lol_html` does after `<x a=>`); the tree-builder feedback decides what next.
    Emitted(bool),
}

impl St {
    pub(super) fn in_tag(self) -> bool {
        matches!(
            self,
            St::TagName
                | St::BeforeAttrName
                | St::AttrName
                | St::AfterAttrName
                | St::BeforeAttrValue
                | St::ValueDq
                | St::ValueSq
                | St::ValueUnq
                | St::SelfClosing
        )
    }

    pub(super) fn in_comment(self) -> bool {
        matches!(
            self,
            St::CommentStart
                | St::CommentStartDash
                | St::Comment
                | St::CommentEndDash
                | St::CommentEnd
                | St::CommentEndBang
                | St::CommentLt
                | St::CommentLtBang
                | St::CommentLtBangDash
                | St::CommentLtBangDashDash
        )
    }

    /// The tokenizer has released everything before the current byte.
    pub(super) fn is_text(self) -> bool {
        matches!(self, St::Text(_) | St::Emitted(_))
    }
}

pub(super) fn is_ws(b: u8) -> bool {
    matches!(b, b' ' | b'\n' | b'\r' | b'\t' | b'\x0C')
}

/// What is known about the tag being read.
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct TagInfo {
    pub(super) end: bool,
    pub(super) hash: u64,
    /// The first bytes of the name, lower-cased.
    name: [u8; 16],
    pub(super) name_len: usize,
    /// FNV-1a of the lower-cased name bytes beyond the first 16.
    name_tail: u64,
    pub(super) self_closing: bool,
    pub(super) attrs: usize,
    /// Has a `color`, `size` or `face` attribute (a `font` with one leaves `svg`/`math`).
    pub(super) font_attr: bool,
    /// Has `encoding="text/html"` or `"application/xhtml+xml"` (for `annotation-xml`).
    pub(super) html_encoding: bool,
    attr_name: [u8; 8],
    attr_name_len: usize,
    pub(super) encoding_attr: bool,
    has_value: bool,
    value: [u8; 24],
    value_len: usize,
}

impl TagInfo {
    pub(super) fn new(end: bool, first: u8) -> Self {
        let mut t = TagInfo {
            end,
            ..TagInfo::default()
        };
        t.name_byte(first);
        t
    }

    #[inline]
    pub(super) fn name_byte(&mut self, b: u8) {
        if self.hash != EMPTY {
            self.hash = hash_update(self.hash, b);
        }
        if self.name_len < self.name.len() {
            self.name[self.name_len] = b.to_ascii_lowercase();
        } else {
            self.name_tail =
                (self.name_tail ^ u64::from(b.to_ascii_lowercase())).wrapping_mul(0x100_0000_01b3);
        }
        self.name_len += 1;
    }

    pub(super) fn name(&self) -> &[u8] {
        &self.name[..self.name_len.min(self.name.len())]
    }

    pub(super) fn start_attr(&mut self, b: u8) {
        self.attrs += 1;
        self.attr_name_len = 0;
        self.encoding_attr = false;
        self.has_value = false;
        self.value_len = 0;
        self.attr_name_byte(b);
    }

    #[inline]
    pub(super) fn attr_name_byte(&mut self, b: u8) {
        if self.attr_name_len < self.attr_name.len() {
            self.attr_name[self.attr_name_len] = b.to_ascii_lowercase();
        }
        self.attr_name_len += 1;
    }

    pub(super) fn finish_attr_name(&mut self) {
        let name = &self.attr_name[..self.attr_name_len.min(self.attr_name.len())];
        let exact = self.attr_name_len <= self.attr_name.len();
        if exact && matches!(name, b"color" | b"size" | b"face") {
            self.font_attr = true;
        }
        self.encoding_attr = exact && name == b"encoding";
    }

    pub(super) fn value_byte(&mut self, b: u8) {
        if self.encoding_attr {
            if self.value_len < self.value.len() {
                self.value[self.value_len] = b.to_ascii_lowercase();
            }
            self.value_len += 1;
        }
    }

    pub(super) fn finish_attr(&mut self) {
        if self.encoding_attr && self.has_value {
            let v = &self.value[..self.value_len.min(self.value.len())];
            if self.value_len <= self.value.len()
                && (v == b"text/html" || v == b"application/xhtml+xml")
            {
                self.html_encoding = true;
            }
        }
        self.encoding_attr = false;
    }

    /// Key of the name on the open-element stack.
    pub(super) fn key(&self) -> u64 {
        if self.hash != EMPTY {
            return self.hash;
        }
        // FNV-1a over the name, lower-cased, and its length: unusual names (custom
        // elements) are compared by this key, as `lol_html` compares them by their bytes.
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        for &b in self.name() {
            h = (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3);
        }
        h = (h ^ self.name_tail).wrapping_mul(0x100_0000_01b3);
        (h ^ self.name_len as u64).wrapping_mul(0x100_0000_01b3) & !(1 << 63)
    }
}

/// The tokenizer's lexer state.
#[derive(Debug, Clone)]
pub(super) struct Tok {
    pub(super) state: St,
    /// The text mode the tokenizer returns to after a tag.
    pub(super) text_type: TextMode,
    pub(super) cdata_allowed: bool,
    pub(super) last_start_hash: u64,
    /// Bytes matched so far of a multi-byte pattern (`--`, `DOCTYPE`, `SCRIPT`, …).
    pub(super) pbuf: [u8; 8],
    pub(super) plen: usize,
    /// Where the bytes the tokenizer still holds start.
    pub(super) mark: u64,
    pub(super) tag: TagInfo,
    /// Whether attributes of start tags are recorded (in the tokenizer's view, not in the
    /// copy that follows the real bytes of a cut construct).
    pub(super) record: bool,
    /// The attributes of the start tag being read so far, and the one being read.
    pub(super) attrs: Vec<AttrSpan>,
    pub(super) attr: AttrSpan,
    /// A comment, doctype, bogus comment, `</>` or CDATA marker from `.0` to `.1` has just
    /// been read.
    pub(super) boundary: Option<(u64, u64)>,
}

pub(super) enum Pattern {
    Prefix,
    Match(usize),
    Mismatch,
}

pub(super) fn match_patterns(pats: &[(&[u8], bool)], got: &[u8]) -> Pattern {
    let mut prefix = false;
    for (i, &(pat, ignore_case)) in pats.iter().enumerate() {
        if got.len() > pat.len() {
            continue;
        }
        let eq = got.iter().zip(pat.iter()).all(|(&g, &p)| {
            if ignore_case {
                g.eq_ignore_ascii_case(&p)
            } else {
                g == p
            }
        });
        if eq {
            if got.len() == pat.len() {
                return Pattern::Match(i);
            }
            prefix = true;
        }
    }
    if prefix {
        Pattern::Prefix
    } else {
        Pattern::Mismatch
    }
}

pub(super) const DASHES: &[(&[u8], bool)] = &[(b"--", false)];
pub(super) const SCRIPT: &[(&[u8], bool)] = &[(b"SCRIPT", true)];
pub(super) const MARKUP: &[(&[u8], bool)] =
    &[(b"--", false), (b"DOCTYPE", true), (b"[CDATA[", false)];
pub(super) const CDATA_END: &[(&[u8], bool)] = &[(b"]>", false)];

impl Tok {
    pub(super) fn new() -> Self {
        Tok {
            state: St::Text(TextMode::Data),
            text_type: TextMode::Data,
            cdata_allowed: false,
            last_start_hash: 0,
            pbuf: [0; 8],
            plen: 0,
            mark: 0,
            tag: TagInfo::default(),
            record: true,
            attrs: Vec::new(),
            attr: AttrSpan::default(),
            boundary: None,
        }
    }

    /// A tag starts with `first` at `pos` (just after the `<`).
    #[inline]
    pub(super) fn new_tag(&mut self, end: bool, first: u8) {
        self.tag = TagInfo::new(end, first);
        self.attrs.clear();
    }

    /// An attribute name starts with `b` at `pos`.
    #[inline]
    pub(super) fn start_attr(&mut self, b: u8, pos: u64) {
        self.tag.start_attr(b);
        self.attr = AttrSpan {
            name: pos,
            name_len: 0,
            value: None,
        };
    }

    /// The attribute's value starts at `pos`.
    #[inline]
    pub(super) fn start_value(&mut self, pos: u64) {
        self.tag.has_value = true;
        self.attr.value = Some((pos, pos));
    }

    /// The attribute's value ends at `pos`.
    #[inline]
    pub(super) fn end_value(&mut self, pos: u64) {
        if let Some(v) = &mut self.attr.value {
            v.1 = pos;
        }
    }

    /// The attribute is complete.
    #[inline]
    pub(super) fn finish_attr(&mut self) {
        self.tag.finish_attr();
        // NOTE: the copy that follows a cut tag to its real end does not record (it may
        // read any number of attributes); the view's tag is cut after MAX_ATTRIBUTES.
        if self.record && !self.tag.end && self.attrs.len() <= MAX_ATTRIBUTES {
            self.attr.name_len = self.tag.attr_name_len;
            self.attrs.push(self.attr);
        }
    }

    /// A construct that is not text ended at `pos`.
    fn mark_boundary(&mut self, pos: u64) {
        self.boundary = Some((self.mark, pos + 1));
    }

    /// Bytes the tokenizer holds, counting the byte at `pos`.
    pub(super) fn held(&self, pos: u64) -> u64 {
        pos.saturating_sub(self.mark)
    }

    fn patterns(&self) -> Option<&'static [(&'static [u8], bool)]> {
        match self.state {
            St::MarkupDecl => Some(MARKUP),
            St::CDataBracket => Some(CDATA_END),
            St::EscapeStart | St::Escaped | St::DoubleEscaped => Some(DASHES),
            St::EscapedLt | St::DoubleEscapedEndTagName => Some(SCRIPT),
            _ => None,
        }
    }

    /// Feeds one byte at offset `pos`.
    #[inline]
    pub(super) fn step(&mut self, b: u8, pos: u64) {
        if let Some(pats) = self.patterns() {
            self.pbuf[self.plen] = b;
            self.plen += 1;
            match match_patterns(pats, &self.pbuf[..self.plen]) {
                Pattern::Prefix => return,
                Pattern::Match(i) => {
                    self.plen = 0;
                    self.pattern_matched(i, pos);
                    return;
                }
                Pattern::Mismatch => {
                    let n = self.plen;
                    self.plen = 0;
                    let bytes = self.pbuf;
                    let first = pos + 1 - n as u64;
                    self.arms(bytes[0], first);
                    for (i, &c) in bytes[1..n].iter().enumerate() {
                        self.step(c, first + 1 + i as u64);
                    }
                    return;
                }
            }
        }
        self.arms(b, pos);
    }

    fn pattern_matched(&mut self, i: usize, pos: u64) {
        self.state = match (self.state, i) {
            (St::MarkupDecl, 0) => St::CommentStart,
            (St::MarkupDecl, 1) => St::Bogus,
            (St::MarkupDecl, _) if self.cdata_allowed => {
                self.mark_boundary(pos);
                self.text_type = TextMode::CData;
                St::Text(TextMode::CData)
            }
            (St::MarkupDecl, _) => St::Bogus,
            (St::CDataBracket, _) => {
                self.mark_boundary(pos);
                self.text_type = TextMode::Data;
                St::Text(TextMode::Data)
            }
            (St::EscapeStart | St::Escaped, _) => St::EscapedDashDash,
            (St::DoubleEscaped, _) => St::DoubleEscapedDashDash,
            (St::EscapedLt, _) => St::DoubleEscapedStart,
            (St::DoubleEscapedEndTagName, _) => St::DoubleEscapedEnd,
            (s, _) => s,
        };
    }

    /// Processes `b` again in state `st` (the tokenizer's "reconsume").
    fn reconsume(&mut self, st: St, b: u8, pos: u64) {
        self.state = st;
        self.step(b, pos);
    }

    /// The per-byte transitions (patterns are handled by [`Tok::step`]).
    fn arms(&mut self, b: u8, pos: u64) {
        use St::*;
        match self.state {
            Text(t) => match (t, b) {
                (
                    TextMode::Data | TextMode::RcData | TextMode::RawText | TextMode::Script,
                    b'<',
                ) => {
                    self.mark = pos;
                    self.state = if t == TextMode::Data {
                        TagOpen
                    } else {
                        TextLt(t)
                    };
                }
                (TextMode::CData, b']') => {
                    self.mark = pos;
                    self.state = CDataBracket;
                }
                _ => self.mark = pos + 1,
            },
            CDataBracket => self.reconsume(Text(TextMode::CData), b, pos),
            TagOpen => match b {
                b'a'..=b'z' | b'A'..=b'Z' => {
                    self.new_tag(false, b);
                    self.state = TagName;
                }
                b'!' => self.state = MarkupDecl,
                b'/' => self.state = EndTagOpen,
                b'?' => self.state = Bogus,
                _ => self.reconsume(Text(TextMode::Data), b, pos),
            },
            EndTagOpen => match b {
                b'a'..=b'z' | b'A'..=b'Z' => {
                    self.new_tag(true, b);
                    self.state = TagName;
                }
                b'>' => {
                    self.end_construct(pos);
                }
                _ => self.reconsume(Bogus, b, pos),
            },
            MarkupDecl => self.reconsume(Bogus, b, pos),
            TagName => match b {
                _ if is_ws(b) => self.state = BeforeAttrName,
                b'>' => self.state = Emitted(false),
                b'/' => self.state = SelfClosing,
                _ => self.tag.name_byte(b),
            },
            BeforeAttrName => match b {
                _ if is_ws(b) => {}
                b'/' => self.state = SelfClosing,
                b'>' => self.state = Emitted(false),
                _ => {
                    self.start_attr(b, pos);
                    self.state = AttrName;
                }
            },
            AttrName => match b {
                _ if is_ws(b) => {
                    self.tag.finish_attr_name();
                    self.state = AfterAttrName;
                }
                b'=' => {
                    self.tag.finish_attr_name();
                    self.state = BeforeAttrValue;
                }
                b'/' => {
                    self.tag.finish_attr_name();
                    self.finish_attr();
                    self.state = SelfClosing;
                }
                b'>' => {
                    self.tag.finish_attr_name();
                    self.finish_attr();
                    self.state = Emitted(false);
                }
                _ => self.tag.attr_name_byte(b),
            },
            AfterAttrName => match b {
                _ if is_ws(b) => {}
                b'/' => {
                    self.finish_attr();
                    self.state = SelfClosing;
                }
                b'=' => self.state = BeforeAttrValue,
                b'>' => {
                    self.finish_attr();
                    self.state = Emitted(false);
                }
                _ => {
                    self.finish_attr();
                    self.start_attr(b, pos);
                    self.state = AttrName;
                }
            },
            BeforeAttrValue => match b {
                _ if is_ws(b) => {}
                b'"' => {
                    self.start_value(pos + 1);
                    self.state = ValueDq;
                }
                b'\'' => {
                    self.start_value(pos + 1);
                    self.state = ValueSq;
                }
                b'>' => {
                    self.finish_attr();
                    self.state = Emitted(true);
                }
                _ => {
                    self.start_value(pos);
                    self.reconsume(ValueUnq, b, pos);
                }
            },
            ValueDq | ValueSq => {
                let quote = if self.state == ValueDq { b'"' } else { b'\'' };
                if b == quote {
                    self.end_value(pos);
                    self.finish_attr();
                    self.state = BeforeAttrName;
                } else {
                    self.tag.value_byte(b);
                }
            }
            ValueUnq => match b {
                _ if is_ws(b) => {
                    self.end_value(pos);
                    self.finish_attr();
                    self.state = BeforeAttrName;
                }
                b'>' => {
                    self.end_value(pos);
                    self.finish_attr();
                    self.state = Emitted(false);
                }
                _ => self.tag.value_byte(b),
            },
            SelfClosing => match b {
                b'>' => {
                    self.tag.self_closing = true;
                    self.state = Emitted(false);
                }
                _ => self.reconsume(BeforeAttrName, b, pos),
            },
            Bogus => {
                if b == b'>' {
                    self.end_construct(pos);
                }
            }
            CommentStart => match b {
                b'-' => self.state = CommentStartDash,
                b'>' => self.end_construct(pos),
                _ => self.reconsume(Comment, b, pos),
            },
            CommentStartDash => match b {
                b'-' => self.state = CommentEnd,
                b'>' => self.end_construct(pos),
                _ => self.reconsume(Comment, b, pos),
            },
            Comment => match b {
                b'-' => self.state = CommentEndDash,
                b'<' => self.state = CommentLt,
                _ => {}
            },
            CommentEndDash => match b {
                b'-' => self.state = CommentEnd,
                _ => self.reconsume(Comment, b, pos),
            },
            CommentEnd => match b {
                b'>' => self.end_construct(pos),
                b'!' => self.state = CommentEndBang,
                b'-' => {}
                _ => self.reconsume(Comment, b, pos),
            },
            CommentEndBang => match b {
                b'-' => self.state = CommentEndDash,
                b'>' => self.end_construct(pos),
                _ => self.reconsume(Comment, b, pos),
            },
            CommentLt => match b {
                b'!' => self.state = CommentLtBang,
                b'<' => {}
                _ => self.reconsume(Comment, b, pos),
            },
            CommentLtBang => match b {
                b'-' => self.state = CommentLtBangDash,
                _ => self.reconsume(Comment, b, pos),
            },
            CommentLtBangDash => match b {
                b'-' => self.state = CommentLtBangDashDash,
                _ => self.reconsume(CommentEndDash, b, pos),
            },
            CommentLtBangDashDash => self.reconsume(CommentEnd, b, pos),
            TextLt(t) => match b {
                b'/' => self.state = TextEndTagOpen(t),
                b'!' if t == TextMode::Script => self.state = EscapeStart,
                _ => self.reconsume(Text(t), b, pos),
            },
            TextEndTagOpen(t) => match b {
                b'a'..=b'z' | b'A'..=b'Z' => {
                    self.new_tag(true, b);
                    self.state = TextEndTagName(t);
                }
                _ => self.reconsume(Text(t), b, pos),
            },
            TextEndTagName(t) => {
                let appropriate = self.tag.hash == self.last_start_hash;
                match b {
                    _ if is_ws(b) && appropriate => self.state = BeforeAttrName,
                    b'/' if appropriate => self.state = SelfClosing,
                    b'>' if appropriate => self.state = Emitted(false),
                    b'a'..=b'z' | b'A'..=b'Z' => self.tag.name_byte(b),
                    _ => self.reconsume(Text(t), b, pos),
                }
            }
            EscapeStart => self.reconsume(Text(TextMode::Script), b, pos),
            Escaped => {
                if b == b'<' {
                    self.mark = pos;
                    self.state = EscapedLt;
                }
            }
            EscapedDashDash => match b {
                b'-' => {}
                b'<' => {
                    self.mark = pos;
                    self.state = EscapedLt;
                }
                b'>' => self.reconsume(Text(TextMode::Script), b, pos),
                _ => self.state = Escaped,
            },
            EscapedLt => match b {
                b'/' => self.state = EscapedEndTagOpen,
                _ => {
                    self.mark = pos;
                    self.reconsume(Escaped, b, pos);
                }
            },
            EscapedEndTagOpen => match b {
                b'a'..=b'z' | b'A'..=b'Z' => {
                    self.new_tag(true, b);
                    self.state = EscapedEndTagName;
                }
                _ => {
                    self.mark = pos;
                    self.reconsume(Escaped, b, pos);
                }
            },
            EscapedEndTagName => {
                let appropriate = self.tag.hash == self.last_start_hash;
                match b {
                    _ if is_ws(b) && appropriate => self.state = BeforeAttrName,
                    b'/' if appropriate => self.state = SelfClosing,
                    b'>' if appropriate => self.state = Emitted(false),
                    b'a'..=b'z' | b'A'..=b'Z' => self.tag.name_byte(b),
                    _ => {
                        self.mark = pos;
                        self.reconsume(Escaped, b, pos);
                    }
                }
            }
            DoubleEscapedStart => match b {
                _ if is_ws(b) || b == b'/' || b == b'>' => self.state = DoubleEscaped,
                _ => self.reconsume(Escaped, b, pos),
            },
            DoubleEscaped => {
                if b == b'<' {
                    self.mark = pos;
                    self.state = DoubleEscapedLt;
                }
            }
            DoubleEscapedDashDash => match b {
                b'-' => {}
                b'<' => self.state = DoubleEscapedLt,
                b'>' => self.reconsume(Text(TextMode::Script), b, pos),
                _ => self.state = DoubleEscaped,
            },
            DoubleEscapedLt => match b {
                b'/' => self.state = DoubleEscapedEndTagName,
                _ => self.reconsume(DoubleEscaped, b, pos),
            },
            DoubleEscapedEndTagName => self.reconsume(DoubleEscaped, b, pos),
            DoubleEscapedEnd => match b {
                _ if is_ws(b) || b == b'/' || b == b'>' => self.state = Escaped,
                _ => self.reconsume(DoubleEscaped, b, pos),
            },
            Emitted(_) => {}
        }
    }

    /// A comment, bogus comment or doctype ended at `pos`.
    fn end_construct(&mut self, pos: u64) {
        self.mark_boundary(pos);
        self.state = St::Text(TextMode::Data);
        self.mark = pos + 1;
    }
}
