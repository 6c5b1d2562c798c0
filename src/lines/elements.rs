//! The elements open around the text: the stack of those that matter to a line (those that
//! break lines or add context, class/id hints or a `tag.class#id` descriptor), the context
//! and hints they add up to, the tokenizer's own open-element stack that end tags close, and
//! what a start tag's attributes say.

use std::borrow::Cow;
use std::sync::Arc;

use encoding_rs::Encoding;

use super::line::Totals;
use super::tags::{TagInfo, class_hints, role_ctx};
use super::tokenizer::AttrSpan;
use super::{MAX_DESCRIPTOR_BYTES, MAX_STACK, ctx, hint, tags};

/// An element on the splitter's open-element stack.
#[derive(Debug)]
pub(super) struct Open {
    pub(super) id: u32,
    pub(super) breaks: bool,
    pub(super) block: tags::Block,
    pub(super) heading: u8,
    pub(super) ctx: u16,
    pub(super) hints: u16,
    pub(super) descriptor: Option<Arc<str>>,
    /// Text bytes, link bytes and lines of the lines inside this element so far.
    pub(super) totals: Totals,
}

/// The serial number of the elements beyond [`MAX_STACK`], which are counted, not kept.
pub(super) const OVERFLOW_ID: u32 = u32::MAX;

/// An element as the tokenizer's open-element stack has it: its serial number and whether
/// it breaks lines, when it is tracked on the splitter's stack.
pub(super) type Tracked = Option<(u32, bool)>;

/// The open elements and what they add up to.
#[derive(Debug, Default)]
pub(super) struct Elements {
    stack: Vec<Open>,
    /// Open elements beyond [`MAX_STACK`].
    overflow: u32,
    next_id: u32,
    ctx_counts: [u32; ctx::COUNT],
    hint_counts: [u32; hint::COUNT],
    ctx_now: u16,
    hints_now: u16,
    /// The tokenizer's open-element stack, one entry per element on it.
    tokenizer_open: Vec<Tracked>,
    /// The descriptors made lately, for elements that repeat them.
    descriptors: Descriptors,
    /// The hints of `class` and `id` values seen lately.
    class_hints: ClassHints,
}

/// What a start tag's attributes say (see [`Elements::read_attributes`]), besides its
/// descriptor.
#[derive(Debug, Clone, Copy)]
pub(super) struct Attributes {
    /// Context bits: the element's own and those of its `role` and `itemprop`.
    pub(super) ctx: u16,
    /// Hint bits of its `class`, `id`, `hidden`, `aria-hidden` and `style`.
    pub(super) hints: u16,
    /// `itemprop=author`.
    pub(super) itemprop_author: bool,
    /// `itemprop=datePublished`.
    pub(super) itemprop_date: bool,
}

/// Empties `old` into `fresh`, which gets the room `old` has grown to.
fn reuse<T>(fresh: &mut Vec<T>, old: &mut Vec<T>) {
    old.clear();
    std::mem::swap(fresh, old);
}

impl Elements {
    /// Takes over the buffers of `old`, emptied.
    pub(super) fn reuse(&mut self, old: &mut Elements) {
        reuse(&mut self.stack, &mut old.stack);
        reuse(&mut self.tokenizer_open, &mut old.tokenizer_open);
        std::mem::swap(&mut self.descriptors, &mut old.descriptors);
        std::mem::swap(&mut self.class_hints, &mut old.class_hints);
    }

    /// The context bits of the open elements ([`ctx`]).
    #[inline]
    pub(super) fn context(&self) -> u16 {
        self.ctx_now
    }

    /// The hint bits of the open elements ([`hint`]).
    #[inline]
    pub(super) fn hints(&self) -> u16 {
        self.hints_now
    }

    /// The number of open elements tracked (those beyond [`MAX_STACK`] included).
    #[inline]
    pub(super) fn depth(&self) -> u32 {
        self.stack.len() as u32 + self.overflow
    }

    /// The open elements tracked, outermost first.
    #[inline]
    pub(super) fn open(&self) -> &[Open] {
        &self.stack
    }

    /// The open elements tracked, outermost first, to count a line in.
    #[inline]
    pub(super) fn open_mut(&mut self) -> &mut [Open] {
        &mut self.stack
    }

    /// The depth of the tokenizer's open-element stack.
    #[inline]
    pub(super) fn tokenizer_depth(&self) -> usize {
        self.tokenizer_open.len()
    }

    /// The tokenizer has put an element on its stack.
    #[inline]
    pub(super) fn entered(&mut self, tracked: Tracked) {
        self.tokenizer_open.push(tracked);
    }

    /// The nearest element on the tokenizer's stack, taken off it, while the stack is
    /// deeper than `depth` (an end tag closes the elements above its depth, nearest first).
    #[inline]
    pub(super) fn leave_above(&mut self, depth: usize) -> Option<Tracked> {
        if self.tokenizer_open.len() > depth {
            self.tokenizer_open.pop()
        } else {
            None
        }
    }

    /// What a start tag's attributes say, `ctx` being the context bits of its name; its
    /// `tag.class#id` descriptor, when it has a class or an id, is built in `descriptor`.
    #[inline]
    pub(super) fn read_attributes<'b>(
        &mut self,
        name: &str,
        ctx: u16,
        attrs: &[AttrSpan],
        bytes: &dyn Fn(u64, u64) -> &'b [u8],
        encoding: &'static Encoding,
        descriptor: &mut Option<Descriptor>,
    ) -> Attributes {
        let mut out = Attributes {
            ctx,
            hints: 0,
            itemprop_author: false,
            itemprop_date: false,
        };
        for attr in attrs {
            // Only names of the lengths looked for below are worth reading.
            if !matches!(attr.name_len, 2 | 4 | 5 | 6 | 8 | 11) {
                continue;
            }
            let attr_name = AttrName::of(bytes(attr.name, attr.name + attr.name_len as u64));
            if attr_name == AttrName::Other {
                continue;
            }
            let value = || attr_value(attr, bytes, encoding);
            match attr_name {
                AttrName::Class | AttrName::Id => {
                    let value = value();
                    out.hints |= self.class_hints.get(&value);
                    let d = descriptor.get_or_insert_with(|| {
                        let mut d = Descriptor::default();
                        d.push(name);
                        d
                    });
                    if attr_name == AttrName::Class {
                        for word in value.split_ascii_whitespace() {
                            if d.len() >= MAX_DESCRIPTOR_BYTES {
                                break;
                            }
                            d.push_byte(b'.');
                            d.push(word);
                        }
                    } else if d.len() < MAX_DESCRIPTOR_BYTES {
                        d.push_byte(b'#');
                        d.push(value.trim());
                    }
                }
                AttrName::Role => out.ctx |= role_ctx(&value()),
                AttrName::Hidden => out.hints |= hint::HIDDEN,
                AttrName::AriaHidden if value().eq_ignore_ascii_case("true") => {
                    out.hints |= hint::HIDDEN;
                }
                AttrName::Style if style_hides(&value()) => out.hints |= hint::HIDDEN,
                AttrName::Itemprop => {
                    let v = value();
                    if v.eq_ignore_ascii_case("articlebody") {
                        out.ctx |= ctx::ARTICLE;
                    } else if v.eq_ignore_ascii_case("author") {
                        out.itemprop_author = true;
                    } else if v.eq_ignore_ascii_case("datepublished") {
                        out.itemprop_date = true;
                    }
                }
                _ => {}
            }
        }
        out
    }

    /// Puts an element on the stack, unless it changes nothing a line records; what the
    /// tokenizer's stack keeps of it.
    #[inline]
    pub(super) fn push(
        &mut self,
        info: &TagInfo,
        attrs: Attributes,
        descriptor: Option<&Descriptor>,
    ) -> Tracked {
        let Attributes {
            ctx: ctx_bits,
            hints,
            ..
        } = attrs;
        if !info.breaks && ctx_bits == 0 && hints == 0 && descriptor.is_none() {
            // NOTE: a plain inline element (span, b, em, code, …) changes nothing a line
            // records, so it is not tracked: this saves an end-tag handler per element.
            // Line::depth therefore counts the elements that matter, not every one.
            return None;
        }
        if self.stack.len() >= MAX_STACK {
            self.overflow += 1;
            return Some((OVERFLOW_ID, info.breaks));
        }
        let descriptor = descriptor.map(|d| d.finish(&mut self.descriptors));

        let id = self.next_id;
        self.next_id = self.next_id.wrapping_add(1) % OVERFLOW_ID;
        for bit in set_bits(ctx_bits) {
            self.ctx_counts[bit] += 1;
        }
        for bit in set_bits(hints) {
            self.hint_counts[bit] += 1;
        }
        self.ctx_now |= ctx_bits;
        self.hints_now |= hints;
        self.stack.push(Open {
            id,
            breaks: info.breaks,
            block: info.block,
            heading: info.heading,
            ctx: ctx_bits,
            hints,
            descriptor,
            totals: Totals::default(),
        });
        Some((id, info.breaks))
    }

    /// The element `id` ends, and every element opened inside it.
    pub(super) fn close(&mut self, id: u32) {
        if id == OVERFLOW_ID {
            self.overflow = self.overflow.saturating_sub(1);
        } else if let Some(pos) = self.stack.iter().rposition(|o| o.id == id) {
            self.pop_to(pos);
        }
    }

    /// Pops the element at `pos` and everything above it.
    fn pop_to(&mut self, pos: usize) {
        self.overflow = 0;
        while self.stack.len() > pos {
            let open = self.stack.pop().expect("stack is longer than pos");
            for bit in set_bits(open.ctx) {
                self.ctx_counts[bit] -= 1;
                if self.ctx_counts[bit] == 0 {
                    self.ctx_now &= !(1 << bit);
                }
            }
            for bit in set_bits(open.hints) {
                self.hint_counts[bit] -= 1;
                if self.hint_counts[bit] == 0 {
                    self.hints_now &= !(1 << bit);
                }
            }
        }
    }
}

/// A `tag.class#id` descriptor being built: its first bytes, enough to cut it to
/// [`MAX_DESCRIPTOR_BYTES`] at a character boundary.
// NOTE: built in place and allocated once, as an `Arc<str>`, when the element is kept.
#[derive(Debug)]
pub(super) struct Descriptor {
    buf: [u8; MAX_DESCRIPTOR_BYTES + 8],
    /// Bytes kept in `buf` (the descriptor's length, or `buf.len()` when it is longer).
    len: usize,
}

impl Default for Descriptor {
    fn default() -> Self {
        Descriptor {
            buf: [0; MAX_DESCRIPTOR_BYTES + 8],
            len: 0,
        }
    }
}

impl Descriptor {
    fn push(&mut self, s: &str) {
        let n = s.len().min(self.buf.len() - self.len);
        self.buf[self.len..self.len + n].copy_from_slice(&s.as_bytes()[..n]);
        self.len += n;
    }

    /// [`Descriptor::push`] of one ASCII byte (a copy of a variable length is a call).
    fn push_byte(&mut self, b: u8) {
        if let Some(slot) = self.buf.get_mut(self.len) {
            *slot = b;
            self.len += 1;
        }
    }

    /// The bytes so far (cut at [`MAX_DESCRIPTOR_BYTES`], perhaps inside a character).
    pub(super) fn bytes(&self) -> &[u8] {
        &self.buf[..self.len.min(MAX_DESCRIPTOR_BYTES)]
    }

    /// The length so far, exact up to [`MAX_DESCRIPTOR_BYTES`] and beyond it at least
    /// `MAX_DESCRIPTOR_BYTES + 1`.
    fn len(&self) -> usize {
        self.len
    }

    /// The descriptor, cut to [`MAX_DESCRIPTOR_BYTES`] at a character boundary: the one
    /// in `cache` when it holds the same text.
    fn finish(&self, cache: &mut Descriptors) -> Arc<str> {
        let mut cut = self.len;
        if cut > MAX_DESCRIPTOR_BYTES {
            cut = MAX_DESCRIPTOR_BYTES;
            // Back to the start of the character the cut falls in.
            while self.buf[cut] & 0xC0 == 0x80 {
                cut -= 1;
            }
        }
        cache.get(&self.buf[..cut])
    }
}

/// The slot of `bytes` in a cache of `slots` slots, from a hash of them.
// NOTE: a multiplicative hash over 8 bytes at a time: keys are hashed at every start tag,
// so the hash must cost much less than what the cache saves (a byte-at-a-time hash was a
// tenth of the start tag's time).
fn slot(bytes: &[u8], slots: usize) -> usize {
    const K: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut h = bytes.len() as u64;
    let mut chunks = bytes.chunks_exact(8);
    for c in &mut chunks {
        let w = u64::from_le_bytes([c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7]]);
        h = (h.rotate_left(23) ^ w).wrapping_mul(K);
    }
    let mut last = [0u8; 8];
    last[..chunks.remainder().len()].copy_from_slice(chunks.remainder());
    h = (h.rotate_left(23) ^ u64::from_le_bytes(last)).wrapping_mul(K);
    (h >> 40) as usize % slots
}

/// [`class_hints`] of the `class` and `id` values seen lately: a page repeats most of them
/// many times (the classes of every item of a list), and looking one up costs less than
/// reading its words again. Values are kept whole (up to [`HINT_KEY_BYTES`]), so a look-up
/// gives exactly what [`class_hints`] gives.
#[derive(Debug, Default)]
pub(super) struct ClassHints {
    /// Per slot: where its value is in `keys`, its length and its hints.
    slots: Vec<Option<(u32, u32, u16)>>,
    /// The values of the slots, one after the other.
    keys: Vec<u8>,
}

/// Slots of [`ClassHints`].
const HINT_SLOTS: usize = 512;
/// Longest value kept in [`ClassHints`].
const HINT_KEY_BYTES: usize = 256;
/// Bytes of values kept in [`ClassHints`] before they are all dropped.
const HINT_KEYS_BYTES: usize = 64 * 1024;

impl ClassHints {
    /// [`class_hints`] of `value`.
    pub(super) fn get(&mut self, value: &str) -> u16 {
        let bytes = value.as_bytes();
        if bytes.len() > HINT_KEY_BYTES {
            return class_hints(value);
        }
        if self.slots.is_empty() {
            self.slots.resize(HINT_SLOTS, None);
        }
        let i = slot(bytes, HINT_SLOTS);
        if let Some((start, len, hints)) = self.slots[i] {
            let (start, len) = (start as usize, len as usize);
            if self.keys.get(start..start + len) == Some(bytes) {
                return hints;
            }
        }
        let hints = class_hints(value);
        if self.keys.len() + bytes.len() > HINT_KEYS_BYTES {
            self.keys.clear();
            self.slots.fill(None);
        }
        self.slots[i] = Some((self.keys.len() as u32, bytes.len() as u32, hints));
        self.keys.extend_from_slice(bytes);
        hints
    }
}

/// Descriptors made lately, by a hash of their text: the elements of a page repeat a few
/// `tag.class#id` descriptors many times, and sharing one saves allocating (and freeing)
/// it for every element.
#[derive(Debug, Default)]
pub(super) struct Descriptors(Vec<Option<Arc<str>>>);

/// Slots of [`Descriptors`].
const DESCRIPTOR_SLOTS: usize = 256;

impl Descriptors {
    /// The descriptor with the text `bytes` (UTF-8).
    fn get(&mut self, bytes: &[u8]) -> Arc<str> {
        if self.0.is_empty() {
            self.0.resize(DESCRIPTOR_SLOTS, None);
        }
        let slot = &mut self.0[slot(bytes, DESCRIPTOR_SLOTS)];
        match slot {
            Some(d) if d.as_bytes() == bytes => Arc::clone(d),
            _ => {
                let d: Arc<str> =
                    Arc::from(std::str::from_utf8(bytes).expect("cut at a character boundary"));
                *slot = Some(Arc::clone(&d));
                d
            }
        }
    }
}

/// The positions of the bits set in `bits`, lowest first (most elements set none or one).
fn set_bits(mut bits: u16) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        if bits == 0 {
            return None;
        }
        let bit = bits.trailing_zeros() as usize;
        bits &= bits - 1;
        Some(bit)
    })
}

/// The attributes [`Elements::read_attributes`] looks at.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum AttrName {
    Class,
    Id,
    Role,
    Hidden,
    AriaHidden,
    Style,
    Itemprop,
    Other,
}

impl AttrName {
    /// By name, in any case.
    fn of(name: &[u8]) -> Self {
        const NAMES: [(&[u8], AttrName); 7] = [
            (b"class", AttrName::Class),
            (b"id", AttrName::Id),
            (b"role", AttrName::Role),
            (b"hidden", AttrName::Hidden),
            (b"aria-hidden", AttrName::AriaHidden),
            (b"style", AttrName::Style),
            (b"itemprop", AttrName::Itemprop),
        ];
        NAMES
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map_or(AttrName::Other, |&(_, a)| a)
    }
}

/// Whether an element belongs in the head (HTML's "in head" and "after head" insertion
/// modes; `html` and `head` themselves start nothing either).
pub(super) fn in_head(name: &str) -> bool {
    matches!(
        name,
        "html"
            | "head"
            | "base"
            | "basefont"
            | "bgsound"
            | "link"
            | "meta"
            | "title"
            | "noscript"
            | "noframes"
            | "style"
            | "script"
            | "template"
    )
}

/// A start tag's name as `lol_html` gives it: decoded, ASCII letters in lower case (ASCII
/// names, nearly all, are lower-cased into `buf` when they fit).
pub(super) fn tag_name<'a>(
    raw: &[u8],
    encoding: &'static Encoding,
    buf: &'a mut [u8; 32],
) -> Cow<'a, str> {
    // NOTE: in a UTF-8 page a valid name lower-cased byte by byte is what decoding gives
    // lower-cased (one check of the bytes, not two); other encodings take ASCII names.
    if raw.len() <= buf.len() && (encoding == encoding_rs::UTF_8 || raw.is_ascii()) {
        let buf = &mut buf[..raw.len()];
        for (d, &b) in buf.iter_mut().zip(raw) {
            *d = b.to_ascii_lowercase();
        }
        if let Ok(name) = std::str::from_utf8(buf) {
            return Cow::Borrowed(name);
        }
    }
    Cow::Owned(encoding.decode(raw).0.to_ascii_lowercase())
}

/// The value of the first attribute named `key` (ASCII, any case), as [`attr_value`] gives it.
pub(super) fn find_attr<'b>(
    attrs: &[AttrSpan],
    key: &str,
    bytes: &dyn Fn(u64, u64) -> &'b [u8],
    encoding: &'static Encoding,
) -> Option<Cow<'b, str>> {
    attrs
        .iter()
        .find(|a| bytes(a.name, a.name + a.name_len as u64).eq_ignore_ascii_case(key.as_bytes()))
        .map(|a| attr_value(a, bytes, encoding))
}

/// An attribute's value as `lol_html` gives it: decoded, character references left as they
/// are (ASCII values, nearly all, are borrowed as they are).
fn attr_value<'b>(
    attr: &AttrSpan,
    bytes: &dyn Fn(u64, u64) -> &'b [u8],
    encoding: &'static Encoding,
) -> Cow<'b, str> {
    let raw = attr
        .value
        .map_or(&b""[..], |(start, end)| bytes(start, end));
    // NOTE: a UTF-8 page's valid value is what decoding gives too, but for a byte order
    // mark at its start (which decoding drops); other encodings borrow ASCII values only.
    let borrowed = if encoding == encoding_rs::UTF_8 {
        !raw.starts_with(b"\xEF\xBB\xBF")
    } else {
        raw.is_ascii()
    };
    match std::str::from_utf8(raw) {
        Ok(value) if borrowed => Cow::Borrowed(value),
        _ => Cow::Owned(encoding.decode(raw).0.into_owned()),
    }
}

/// Whether an inline `style` hides the element (`display: none` or `visibility: hidden`,
/// in any case and spacing).
pub(super) fn style_hides(style: &str) -> bool {
    // NOTE: the value without white space, in lower case, is searched at each of its
    // colons (each phrase has one): a style attribute of a few declarations has a few.
    let compact = style
        .bytes()
        .filter(|b| !b.is_ascii_whitespace())
        .map(|b| b.to_ascii_lowercase());
    let mut short = [0u8; 128];
    let mut long = Vec::new();
    let mut n = 0;
    for b in compact {
        if n < short.len() {
            short[n] = b;
        } else {
            if long.is_empty() {
                long.extend_from_slice(&short);
            }
            long.push(b);
        }
        n += 1;
    }
    let c = if long.is_empty() {
        &short[..n]
    } else {
        &long[..]
    };
    let hides = |i: usize| {
        let (before, after) = (&c[..i], &c[i + 1..]);
        (before.ends_with(b"display") && after.starts_with(b"none"))
            || (before.ends_with(b"visibility") && after.starts_with(b"hidden"))
    };
    memchr::memchr_iter(b':', c).any(hides)
}

/// The `charset` parameter of a MIME type such as `text/html; charset=windows-1252` (as
/// the tokenizer reads a `<meta http-equiv="content-type">`: a `type/subtype` first).
pub(super) fn mime_charset(content: &str) -> Option<&str> {
    let mut parts = content.split(';');
    let (kind, sub) = parts.next()?.trim().split_once('/')?;
    if kind.is_empty() || sub.is_empty() {
        return None;
    }
    parts.find_map(|p| {
        let (name, value) = p.split_once('=')?;
        name.trim()
            .eq_ignore_ascii_case("charset")
            .then(|| value.trim().trim_matches('"'))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn descriptors_are_shared_and_never_mixed_up() {
        let mut cache = Descriptors::default();
        // More texts than slots: some share a slot and replace each other.
        let texts: Vec<String> = (0..2000).map(|i| format!("div.c{i}#x")).collect();
        for round in 0..2 {
            for t in &texts {
                assert_eq!(&*cache.get(t.as_bytes()), t.as_str(), "round {round}");
            }
        }
        let a = cache.get(b"li.item");
        let b = cache.get(b"li.item");
        assert!(Arc::ptr_eq(&a, &b));
        assert_eq!(&*cache.get(b""), "");
    }

    #[test]
    fn cached_class_hints_are_those_of_the_value() {
        let mut cache = ClassHints::default();
        let long = "menu ".repeat(60);
        let mut values: Vec<String> = (0..3000)
            .map(|i| match i % 4 {
                0 => format!("item-{i} nav"),
                1 => format!("c{i}"),
                2 => "sidebar widget".to_string(),
                _ => format!("post-body x{}", "y".repeat(i % 300)),
            })
            .collect();
        values.extend([
            "".to_string(),
            long.clone(),
            "footer".into(),
            "Footer".into(),
        ]);
        // Enough bytes that the kept values are dropped and kept again.
        for round in 0..3 {
            for v in &values {
                assert_eq!(cache.get(v), class_hints(v), "{v:?}, round {round}");
            }
        }
    }
}
