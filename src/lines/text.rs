//! Text nodes: decoded from the document's encoding as `lol_html` decodes them (a
//! character split between pieces is kept), character references decoded as they complete,
//! whitespace collapsed (kept inside `<pre>`, where every source line ends a line), and long
//! text split at [`MAX_LINE_BYTES`].

use encoding_rs::{CoderResult, Decoder};

use super::guard::TextKind;
use super::state::State;
use super::{MAX_LINE_BYTES, ctx};

/// The decoder of a text node.
pub(super) struct NodeDecoder(Decoder);

impl std::fmt::Debug for NodeDecoder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_tuple("NodeDecoder")
            .field(&self.0.encoding().name())
            .finish()
    }
}

impl State {
    /// Text of the current text node, as the input has it (`kind` is `Data` or `Plain`).
    pub(super) fn text(&mut self, raw: &[u8], kind: TextKind) {
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
    pub(super) fn text_end(&mut self) {
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
        if !last {
            shorten_numeric_reference(&mut self.carry);
        }
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

    /// Decodes text held back for a possible character reference: its text node has ended.
    pub(super) fn flush_carry(&mut self) {
        if !self.carry.is_empty() {
            let pending = std::mem::take(&mut self.carry);
            let decoded = htmlize::unescape(&pending);
            self.push_decoded(&decoded);
        }
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

/// Rewrites a numeric character reference left unfinished at the end of `carry` (`&#` or
/// `&#x` and digits, no terminator yet) to a short one of the same value, so that it stays
/// within the bytes held back for an unfinished reference however many digits it has
/// (HTML takes them all): leading zeros go (one digit stays) and a value past the last code
/// point (which decodes to U+FFFD) becomes that code point plus one.
fn shorten_numeric_reference(carry: &mut String) {
    const LONG: usize = 16;
    let Some(amp) = carry.rfind('&') else {
        return;
    };
    let rest = &carry.as_bytes()[amp + 1..];
    if rest.len() <= LONG {
        return;
    }
    let (prefix, hex) = match rest {
        [b'#', b'x' | b'X', ..] => (3, true),
        [b'#', ..] => (2, false),
        _ => return,
    };
    let digits = &rest[prefix..];
    let is_digit = |b: &u8| {
        if hex {
            b.is_ascii_hexdigit()
        } else {
            b.is_ascii_digit()
        }
    };
    if !digits.iter().all(is_digit) {
        return;
    }
    let significant = digits
        .iter()
        .position(|&b| b != b'0')
        .unwrap_or(digits.len() - 1);
    let kept = &digits[significant..];
    let (max_digits, past_last) = if hex { (6, "110000") } else { (7, "1114112") };
    let short = if kept.len() > max_digits {
        past_last.to_string()
    } else {
        String::from_utf8_lossy(kept).into_owned()
    };
    carry.truncate(amp + 1 + prefix);
    carry.push_str(&short);
}
