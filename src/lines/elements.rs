//! Start and end tags: the elements kept on the splitter's stack and what each adds to the
//! lines inside it (context, class/id hints, `tag.class#id` descriptors), where the head
//! ends, and the `<meta>` that may switch the encoding while it is only guessed.

use std::borrow::Cow;
use std::sync::Arc;

use encoding_rs::Encoding;

#[cfg(doc)]
use super::Splitter;
use super::line::Totals;
use super::state::{OVERFLOW_ID, Open, State};
use super::tags::{class_hints, classify, role_ctx};
use super::tokenizer::{AttrSpan, EndTag, StartTag};
use super::{MAX_DESCRIPTOR_BYTES, MAX_STACK, ctx, hint, shape};

impl State {
    /// An end tag: the elements it closes on the tokenizer's open-element stack end, nearest
    /// first, each with the end tag's location (as `lol_html` would run their end-tag
    /// handlers).
    pub(super) fn end_tags(&mut self, end: EndTag) {
        while self.tokenizer_open.len() > end.depth {
            if let Some(Some((id, breaks))) = self.tokenizer_open.pop() {
                self.end_tag(id, breaks, end.start as usize..end.end as usize);
            }
        }
    }

    /// A start tag; `bytes` gives the input bytes between two offsets within the tag.
    pub(super) fn start_tag<'b>(
        &mut self,
        tag: &StartTag,
        attrs: &[AttrSpan],
        bytes: &dyn Fn(u64, u64) -> &'b [u8],
    ) -> Option<(u32, bool)> {
        let loc = tag.start as usize..tag.end as usize;
        self.see(loc.end);
        self.last_token_end = loc.end as u64;
        self.node_decoded = 0;
        let encoding = self.encoding.unwrap_or(encoding_rs::UTF_8);
        let name_bytes = bytes(tag.start + 1, tag.start + 1 + tag.name_len as u64);
        if self.adjust && !self.body_started && name_bytes.eq_ignore_ascii_case(b"meta") {
            self.meta(attrs, bytes, encoding);
        }
        if self.meta.is_some() && crate::meta::wanted(name_bytes) {
            self.collect(tag, name_bytes, attrs, bytes, encoding);
        }
        if self.ctx_now & ctx::SKIP != 0 {
            // NOTE: nothing inside script/svg/template/… becomes text, so its elements
            // need neither line breaks nor a place on the stack (which saves an end-tag
            // handler per element; svg icons can hold hundreds).
            return None;
        }
        let mut name_buf = [0u8; 32];
        let name = tag_name(name_bytes, encoding, &mut name_buf);
        if !self.body_started && !in_head(&name) {
            self.body_started = true;
        }
        if name == "head" {
            // NOTE: the head is not an element a line can be inside. In HTML's tree
            // construction ("in head", "after head") it holds only base, link, meta,
            // title, style, script, template, noscript and noframes; the first other start
            // tag (body, p, div, an unknown element …) or the first text that is not white
            // space ends it and starts the body, whether `</head>` was written or not, and
            // a second `<head>` is ignored. What the head holds is hidden by those elements
            // themselves (title, style, script, template and noframes hide their content;
            // base, link and meta are void), so leaving `head` off the stack reads a page
            // as those rules do: a head without `</head>`, with more `<head>` start tags
            // than end tags, or whose `</head>` an unclosed comment or script swallowed
            // ends at the first content, and the lines of the body are the same as with
            // `</head>`. (`noscript` is read as with scripting disabled: the standard's "in
            // head noscript" mode ends the head at a start tag other than link, meta,
            // style and noframes, and its text is the body's.)
            return None;
        }
        let info = classify(&name);
        if info.breaks {
            self.break_at(loc.start as u64);
        }
        if self.shape.is_some() && shape::wanted(&name) {
            self.shape_start(&name, tag, attrs, bytes, encoding);
        }
        if !tag.content {
            return None;
        }

        let mut ctx_bits = info.ctx;
        let mut hints = 0u16;
        let mut descriptor: Option<Descriptor> = None;
        let mut itemprop_author = false;
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
                    hints |= self.class_hints.get(&value);
                    let d = descriptor.get_or_insert_with(|| {
                        let mut d = Descriptor::default();
                        d.push(&name);
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
                AttrName::Role => ctx_bits |= role_ctx(&value()),
                AttrName::Hidden => hints |= hint::HIDDEN,
                AttrName::AriaHidden if value().eq_ignore_ascii_case("true") => {
                    hints |= hint::HIDDEN;
                }
                AttrName::Style if style_hides(&value()) => hints |= hint::HIDDEN,
                AttrName::Itemprop => {
                    let v = value();
                    if v.eq_ignore_ascii_case("articlebody") {
                        ctx_bits |= ctx::ARTICLE;
                    } else if v.eq_ignore_ascii_case("author") {
                        itemprop_author = true;
                    } else if v.eq_ignore_ascii_case("datepublished") {
                        if let Some(m) = self.meta.as_deref_mut() {
                            let date = find_attr(attrs, "content", bytes, encoding)
                                .or_else(|| find_attr(attrs, "datetime", bytes, encoding));
                            m.itemprop_date(date.as_deref());
                        }
                    }
                }
                _ => {}
            }
        }
        if self.meta.is_some() {
            self.author_element(
                &name,
                itemprop_author,
                descriptor.as_ref(),
                (ctx_bits, hints),
                tag,
                attrs,
                bytes,
            );
        }
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

    fn end_tag(&mut self, id: u32, breaks: bool, loc: std::ops::Range<usize>) {
        self.see(loc.end);
        if breaks {
            self.break_at(loc.start as u64);
        }
        if id == OVERFLOW_ID {
            self.overflow = self.overflow.saturating_sub(1);
        } else if let Some(pos) = self.stack.iter().rposition(|o| o.id == id) {
            self.pop_to(pos);
        }
        self.last_token_end = self.last_token_end.max(loc.end as u64);
        self.node_decoded = 0;
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

    /// Gives a start tag that matters to the structure to [`shape::Shapes`].
    fn shape_start<'b>(
        &mut self,
        name: &str,
        tag: &StartTag,
        attrs: &[AttrSpan],
        bytes: &dyn Fn(u64, u64) -> &'b [u8],
        encoding: &'static Encoding,
    ) {
        let depth = self.tokenizer_open.len();
        let at =
            self.cur.text.len() + usize::from(self.cur.pending_space && !self.cur.text.is_empty());
        let get = |key: &str| -> Option<Cow<'b, str>> {
            find_attr(attrs, key, bytes, encoding).map(|v| match v {
                Cow::Borrowed(v) => htmlize::unescape(v),
                Cow::Owned(v) => Cow::Owned(htmlize::unescape(v).into_owned()),
            })
        };
        if let Some(sh) = self.shape.as_deref_mut() {
            sh.start_tag(name, &get, depth, at, tag.content);
            if name == "img" {
                self.cur.image_open = true;
            }
        }
    }

    /// Tells the collector of an element marked as an author's (`itemprop=author`,
    /// `<a rel=author>`, a class or id with an `author` or `byline` word, as its
    /// [`hint::META`] bit tells) outside navigation,
    /// asides, forms, footers outside an article, comments and lists of related pages.
    #[allow(clippy::too_many_arguments)]
    fn author_element<'b>(
        &mut self,
        name: &str,
        itemprop: bool,
        descriptor: Option<&Descriptor>,
        (ctx_bits, hints): (u16, u16),
        tag: &StartTag,
        attrs: &[AttrSpan],
        bytes: &dyn Fn(u64, u64) -> &'b [u8],
    ) {
        use crate::meta::AuthorMark;
        let Some(m) = self.meta.as_deref() else {
            return;
        };
        let own = || descriptor.map(|d| String::from_utf8_lossy(d.bytes()));
        // NOTE: microdata typed as an organisation names a publisher, not a writer.
        let person = || {
            find_attr(attrs, "itemtype", bytes, encoding_rs::UTF_8)
                .is_none_or(|t| !t.contains("Organization"))
        };
        let mark = if itemprop && m.wants_author(AuthorMark::Itemprop) && person() {
            AuthorMark::Itemprop
        } else if name == "a"
            && m.wants_author(AuthorMark::Rel)
            && find_attr(attrs, "rel", bytes, encoding_rs::UTF_8).is_some_and(|r| {
                r.split_ascii_whitespace()
                    .any(|w| w.eq_ignore_ascii_case("author"))
            })
        {
            AuthorMark::Rel
        } else if hints & hint::META != 0
            && m.wants_author(AuthorMark::Class)
            && own().as_deref().is_some_and(crate::meta::byline_descriptor)
        {
            AuthorMark::Class
        } else {
            return;
        };
        // NOTE: microdata marks the author of the item it sits in, which may be an aside.
        let context = self.ctx_now | ctx_bits;
        let aside = if mark == AuthorMark::Itemprop {
            0
        } else {
            ctx::ASIDE
        };
        if context & (ctx::NAV | ctx::FORM | aside) != 0
            || context & ctx::FOOTER != 0 && context & ctx::ARTICLE == 0
        {
            return;
        }
        // Comments name their writers, lists of related pages theirs.
        let comment = |d: &str| {
            let l = d.to_ascii_lowercase();
            l.contains("comment") || l.contains("reply") || l.contains("related")
        };
        if own().as_deref().is_some_and(comment)
            || self
                .stack
                .iter()
                .any(|o| o.descriptor.as_deref().is_some_and(comment))
        {
            return;
        }
        let depth = self.tokenizer_open.len();
        if let Some(m) = self.meta.as_deref_mut() {
            m.author_element(mark, tag.end, depth);
        }
    }

    /// Gives a start tag that matters to metadata to the collector.
    fn collect<'b>(
        &mut self,
        tag: &StartTag,
        name: &[u8],
        attrs: &[AttrSpan],
        bytes: &dyn Fn(u64, u64) -> &'b [u8],
        encoding: &'static Encoding,
    ) {
        let depth = self.tokenizer_open.len();
        let Some(m) = self.meta.as_deref_mut() else {
            return;
        };
        // NOTE: the names wanted are ASCII and at most 6 bytes long ([`crate::meta::wanted`]);
        // attributes are read only when the collector asks for them.
        let mut lower = [0u8; 8];
        let n = name.len().min(lower.len());
        lower[..n].copy_from_slice(&name[..n]);
        lower[..n].make_ascii_lowercase();
        let name = String::from_utf8_lossy(&lower[..n]);
        let get = |key: &str| find_attr(attrs, key, bytes, encoding);
        m.start_tag(&name, &get, tag.end, depth, tag.content);
    }

    /// A `<meta>` in the head when the encoding was guessed. `lol_html`'s rule, which
    /// mainline keeps there, switches the decoding to the first ASCII-compatible charset one
    /// declares (from the next token on); [`State::source_len`] follows a rule of its own,
    /// as it always has. Once the body has started, or when the bytes have shown UTF-8, a
    /// `<meta>` changes nothing (see [`Splitter::begin`]).
    fn meta<'b>(
        &mut self,
        attrs: &[AttrSpan],
        bytes: &dyn Fn(u64, u64) -> &'b [u8],
        encoding: &'static Encoding,
    ) {
        let get = |name: &str| find_attr(attrs, name, bytes, encoding);
        let ascii = |label: &[u8]| {
            Encoding::for_label_no_replacement(label).filter(|e| e.is_ascii_compatible())
        };
        if !self.charset_found {
            let label = get("charset").map(Cow::into_owned).or_else(|| {
                get("http-equiv")
                    .filter(|h| h.eq_ignore_ascii_case("content-type"))
                    .and_then(|_| mime_charset(&get("content")?).map(String::from))
            });
            if let Some(encoding) = label.and_then(|l| ascii(l.trim().as_bytes())) {
                self.charset_found = true;
                self.utf8 = encoding == encoding_rs::UTF_8;
            }
        }
        if self.encoding_found {
            return;
        }
        let charset = get("charset").and_then(|cs| ascii(cs.as_bytes()));
        let charset = charset.or_else(|| {
            get("http-equiv")
                .filter(|h| h.eq_ignore_ascii_case("Content-Type"))
                .and_then(|_| {
                    let mime = get("content")?.parse::<mime::Mime>().ok()?;
                    ascii(mime.get_param("charset")?.as_str().as_bytes())
                })
        });
        if let Some(charset) = charset {
            self.encoding_found = true;
            self.encoding = Some(charset);
        }
    }
}

/// A `tag.class#id` descriptor being built: its first bytes, enough to cut it to
/// [`MAX_DESCRIPTOR_BYTES`] at a character boundary.
// NOTE: built in place and allocated once, as an `Arc<str>`, when the element is kept.
#[derive(Debug)]
struct Descriptor {
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
    fn bytes(&self) -> &[u8] {
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

/// The attributes [`State::start_tag`] looks at.
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
fn in_head(name: &str) -> bool {
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
fn tag_name<'a>(raw: &[u8], encoding: &'static Encoding, buf: &'a mut [u8; 32]) -> Cow<'a, str> {
    if raw.len() <= buf.len() && raw.is_ascii() {
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
fn find_attr<'b>(
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
    match std::str::from_utf8(raw) {
        Ok(value) if raw.is_ascii() => Cow::Borrowed(value),
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
fn mime_charset(content: &str) -> Option<&str> {
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
