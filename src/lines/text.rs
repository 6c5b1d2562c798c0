//! Text nodes: decoded from the document's encoding as `lol_html` decodes them (a
//! character split between pieces is kept), character references decoded as they complete,
//! whitespace collapsed (kept inside `<pre>`, where every source line ends a line), and long
//! text split at [`MAX_LINE_BYTES`].

use encoding_rs::{CoderResult, Decoder};

use super::current::Lines;
use super::elements::Elements;
use super::tokenizer::TextKind;
use super::{MAX_LINE_BYTES, ctx};

/// The decoder of a text node.
struct NodeDecoder(Decoder);

impl std::fmt::Debug for NodeDecoder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_tuple("NodeDecoder")
            .field(&self.0.encoding().name())
            .finish()
    }
}

/// The current text node: how far it has been read and what of it is held back.
#[derive(Debug, Default)]
pub(super) struct TextNode {
    /// Decoded bytes of text seen since the last tag (for offsets of splits inside text).
    decoded_len: u64,
    /// Raw text held back because it may end inside a character reference.
    carry: String,
    /// A `\r` was just seen inside `<pre>` (so a following `\n` is the same line end).
    pre_cr: bool,
    /// The decoder of the current text node, once it needed one (its first bytes that are
    /// not plain ASCII or valid UTF-8): it holds a character split between pieces.
    decoder: Option<NodeDecoder>,
    /// The kind of the current text node, once it has text.
    kind: Option<TextKind>,
    /// Scratch space for decoded text.
    decoded: String,
}

/// Where a text node's characters go: the lines, inside the open elements.
pub(super) struct TextOut<'a> {
    pub(super) lines: &'a mut Lines,
    pub(super) elements: &'a mut Elements,
    /// The input is UTF-8 (see [`source_len`]).
    pub(super) utf8: bool,
}

impl TextNode {
    /// Takes over the buffers of `old`, emptied.
    pub(super) fn reuse(&mut self, old: &mut TextNode) {
        old.carry.clear();
        std::mem::swap(&mut self.carry, &mut old.carry);
        old.decoded.clear();
        std::mem::swap(&mut self.decoded, &mut old.decoded);
    }

    /// Whether a text node has text that has not ended.
    #[inline]
    pub(super) fn is_open(&self) -> bool {
        self.kind.is_some()
    }

    /// A tag has been read: a new text node starts after it.
    #[inline]
    pub(super) fn after_tag(&mut self) {
        self.decoded_len = 0;
    }

    /// The tokenizer is shown a fill: a character the text before ends inside is lost in
    /// it, as when the tokenizer read the fill's spaces.
    #[inline]
    pub(super) fn fill_starts(&mut self) {
        self.decoder = None;
    }

    /// A fill has ended: a new text node starts.
    #[inline]
    pub(super) fn fill_ends(&mut self) {
        self.decoded_len = 0;
        self.pre_cr = false;
    }

    /// Text of the current text node, as the input has it (`kind` is `Data` or `Plain`),
    /// decoded from `encoding`.
    #[inline]
    pub(super) fn text(
        &mut self,
        raw: &[u8],
        kind: TextKind,
        encoding: &'static encoding_rs::Encoding,
        out: &mut TextOut<'_>,
    ) {
        self.kind = Some(kind);
        if out.elements.context() & ctx::SKIP != 0 || raw.is_empty() {
            // NOTE: a text node is skipped or not as a whole (the context changes only at
            // tags), so its text need not even be decoded.
            return;
        }
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
            TextKind::Plain => self.push_decoded(text, out),
            _ => self.push_raw(text, false, out),
        }
        self.decoded = decoded;
    }

    /// The current text node ends; `in_fill`: inside a fill, whose text is not the page's.
    #[inline]
    pub(super) fn end(&mut self, in_fill: bool, out: &mut TextOut<'_>) {
        let Some(kind) = self.kind.take() else {
            return;
        };
        let mut decoded = std::mem::take(&mut self.decoded);
        decoded.clear();
        if let Some(mut decoder) = self.decoder.take() {
            decode(&mut decoder.0, &[], true, &mut decoded);
        }
        if out.elements.context() & ctx::SKIP == 0 && !in_fill {
            match kind {
                TextKind::Plain => self.push_decoded(&decoded, out),
                _ => self.push_raw(&decoded, true, out),
            }
        }
        self.decoded = decoded;
    }

    /// Decodes character references in raw text that may arrive in arbitrary pieces.
    fn push_raw(&mut self, raw: &str, last: bool, out: &mut TextOut<'_>) {
        if self.carry.is_empty() && !raw.contains('&') {
            self.push_decoded(raw, out);
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
        self.push_decoded(&decoded, out);
        self.carry = pending;
        self.carry.drain(..cut);
    }

    /// Adds decoded text to the current line, collapsing whitespace (or, in `<pre>`,
    /// splitting at line ends).
    fn push_decoded(&mut self, text: &str, out: &mut TextOut<'_>) {
        let context = out.elements.context();
        let pre = context & ctx::PRE != 0;
        let link = context & ctx::LINK != 0;
        let lines = &mut *out.lines;
        let elements = &mut *out.elements;
        // NOTE: `src` counts, from the start of the text node, at most as many bytes as
        // the text took in the input (see `source_len`), so that a line split inside the
        // text never ends beyond what the tokenizer has read, whatever the chunking.
        let mut src = self.decoded_len;
        let bytes = text.as_bytes();
        let mut i = 0;
        while i < bytes.len() {
            let b = bytes[i];
            // Fast path: a run of printable ASCII that is not whitespace.
            if is_printable(b) {
                let j = printable_end(bytes, i + 1);
                // NOTE: words separated by single spaces go in at once: a single space
                // between two words becomes a single space in the line whether collapsed
                // or (in <pre>) kept, and counts as a link byte exactly when the words do.
                // Only while the line stays clear of MAX_LINE_BYTES (no cut, no split).
                let mut k = j;
                while k + 1 < bytes.len() && bytes[k] == b' ' && is_printable(bytes[k + 1]) {
                    k = printable_end(bytes, k + 2);
                }
                if k > j && lines.text_len() + 1 + (k - i) < MAX_LINE_BYTES {
                    self.pre_cr = false;
                    lines.push_str(&text[i..k], link, elements);
                    src += (k - i) as u64;
                    i = k;
                    continue;
                }
                let room = MAX_LINE_BYTES.saturating_sub(lines.text_len() + 1).max(1);
                let j = j.min(i + room);
                self.pre_cr = false;
                lines.push_str(&text[i..j], link, elements);
                src += (j - i) as u64;
                i = j;
                if lines.text_len() >= MAX_LINE_BYTES {
                    lines.split_in_text(src, elements);
                }
                continue;
            }
            // Fast path: a run of ASCII white space outside `<pre>` (the indentation between
            // tags) is at most a pending space, as each of its characters would make it
            // below (none of them can end a line that is short of MAX_LINE_BYTES).
            if !pre && is_ascii_space(b) && lines.text_len() < MAX_LINE_BYTES {
                let mut j = i + 1;
                while j < bytes.len() && is_ascii_space(bytes[j]) {
                    j += 1;
                }
                self.pre_cr = false;
                lines.space();
                src += (j - i) as u64;
                i = j;
                continue;
            }
            let ch = text[i..].chars().next().expect("i is on a char boundary");
            let len = ch.len_utf8();
            let before = src;
            src += source_len(ch, out.utf8);
            if pre && (ch == '\n' || ch == '\r') {
                if !(ch == '\n' && self.pre_cr) {
                    lines.pre_newline();
                    lines.split_in_text(before, elements);
                }
                self.pre_cr = ch == '\r';
            } else {
                self.pre_cr = false;
                if ch.is_whitespace() && !(pre && ch != '\u{a0}') {
                    lines.space();
                } else if (pre && (ch == '\t' || ch == ' '))
                    || (!ch.is_control() && ch != '\u{feff}')
                {
                    lines.push_str(&text[i..i + len], link, elements);
                }
                if lines.text_len() >= MAX_LINE_BYTES {
                    lines.split_in_text(src, elements);
                }
            }
            i += len;
        }
        self.decoded_len = src;
    }

    /// Decodes text held back for a possible character reference: its text node has ended.
    pub(super) fn flush_carry(&mut self, out: &mut TextOut<'_>) {
        if !self.carry.is_empty() {
            let pending = std::mem::take(&mut self.carry);
            let decoded = htmlize::unescape(&pending);
            self.push_decoded(&decoded, out);
        }
    }
}

/// The fewest input bytes a decoded character can have taken: its UTF-8 length when the
/// input is UTF-8 (1 for U+FFFD, which stands for one or more invalid bytes), else 1.
/// (Exact for valid UTF-8; a character reference counts as what it decodes to.)
#[inline]
fn source_len(ch: char, utf8: bool) -> u64 {
    if utf8 && ch != '\u{fffd}' {
        ch.len_utf8() as u64
    } else {
        1
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

/// Whether `b` is printable ASCII other than the space (`!` to `~`).
#[inline]
fn is_printable(b: u8) -> bool {
    b > b' ' && b < 0x7f
}

/// Where the run of [printable](is_printable) bytes of `bytes` from `from` on ends.
// NOTE: words are read 8 bytes at a time: the high bit of a byte of `stop` is set when the
// byte is not printable (its low 7 bits at most 0x20 or at least 0x7f, or its own high
// bit set); no addition carries into the next byte.
#[inline]
fn printable_end(bytes: &[u8], from: usize) -> usize {
    const LOW: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let mut k = from;
    while let Some(chunk) = bytes.get(k..k + 8) {
        let x = u64::from_le_bytes(chunk.try_into().expect("8 bytes"));
        let low7 = x & !HIGH;
        let stop = (!(low7 + 0x5f * LOW) | x | (low7 + LOW)) & HIGH;
        if stop != 0 {
            return k + stop.trailing_zeros() as usize / 8;
        }
        k += 8;
    }
    while k < bytes.len() && is_printable(bytes[k]) {
        k += 1;
    }
    k
}

/// Whether `b` is an ASCII character that [`char::is_whitespace`] calls white space
/// (tab, line feed, vertical tab, form feed, carriage return and space).
#[inline]
fn is_ascii_space(b: u8) -> bool {
    matches!(b, b'\t'..=b'\r' | b' ')
}

#[cfg(test)]
mod tests {
    use super::{is_ascii_space, is_printable, printable_end};

    #[test]
    fn printable_runs_end_at_the_first_other_byte() {
        let mut bytes = Vec::new();
        for b in 0..=0xff_u8 {
            for at in 0..19 {
                bytes.clear();
                bytes.extend(std::iter::repeat_n(b'a', 19));
                bytes[at] = b;
                let want = if is_printable(b) { 19 } else { at };
                assert_eq!(printable_end(&bytes, 0), want, "{b:#x} at {at}");
                for from in [1, 5, 11, 18, 19] {
                    let want = if at < from { 19 } else { want };
                    assert_eq!(
                        printable_end(&bytes, from),
                        want,
                        "{b:#x} at {at} from {from}"
                    );
                }
            }
        }
    }

    #[test]
    fn ascii_space_is_what_char_calls_white_space() {
        for b in 0..=0x7f_u8 {
            assert_eq!(is_ascii_space(b), char::from(b).is_whitespace(), "{b:#x}");
        }
    }
}
