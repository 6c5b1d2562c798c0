//! The splitter's state, and the dispatch of what the tokenizer reports (the tokenizer's
//! [`Piece`]s): text to the text node ([`text`](super::text)), start and end tags to the
//! open elements ([`elements`](super::elements)) and to the lines they break
//! ([`current`](super::current)), and what tags say of the page to its metadata, its
//! structure and the encoding while it is only guessed.

use std::borrow::Cow;

use encoding_rs::Encoding;

use super::current::Lines;
use super::elements::{Descriptor, Elements, Tracked, find_attr, in_head, mime_charset, tag_name};
use super::tags::classify;
use super::text::{TextNode, TextOut};
use super::tokenizer::{AttrSpan, EndTag, Piece, StartTag, TextKind};
#[cfg(doc)]
use super::{Splitter, tokenizer};
use super::{ctx, hint, shape};

/// Everything the tokenizer's reports update.
#[derive(Debug, Default)]
pub(super) struct State {
    /// The elements open around the text.
    pub(super) elements: Elements,
    /// The line being built and the lines ready, with what is collected from them.
    pub(super) lines: Lines,
    /// The current text node.
    text: TextNode,
    /// The tokenizer is being shown a fill (see [`tokenizer`]): its text is not the page's.
    in_fill: bool,
    /// The tokenizer decodes the input as UTF-8 (as is, or transcoded from UTF-16).
    pub(super) utf8: bool,
    /// A `<meta>` has set the encoding [`super::text`]'s source lengths assume.
    charset_found: bool,
    /// The encoding text, tag names and attribute values are decoded from (UTF-8 for
    /// transcoded inputs).
    pub(super) encoding: Option<&'static Encoding>,
    /// A `<meta>` may switch `encoding` (it was guessed).
    pub(super) adjust: bool,
    /// A `<meta>` has switched `encoding`.
    encoding_found: bool,
    /// The body has started (HTML's "in head" and "after head" rules: a start tag of an
    /// element that does not belong in the head, or text that is not white space): the
    /// text decoded so far commits the document to its encoding, and a `<meta>` no longer
    /// switches it.
    body_started: bool,
}

impl State {
    /// Takes over the buffers of `old`, emptied (see [`Splitter::reuse`]).
    pub(super) fn reuse(&mut self, old: &mut State) {
        self.elements.reuse(&mut old.elements);
        self.lines.reuse(&mut old.lines);
        self.text.reuse(&mut old.text);
    }

    /// The encoding text is decoded from now.
    fn encoding(&self) -> &'static Encoding {
        self.encoding.unwrap_or(encoding_rs::UTF_8)
    }

    /// Applies what the tokenizer has read (see [`tokenizer::Piece`]); `out` holds the bytes
    /// from offset `base` on.
    pub(super) fn apply(&mut self, events: &[Piece], attrs: &[AttrSpan], out: &[u8], base: u64) {
        let bytes = |start: u64, end: u64| -> &[u8] {
            let from = usize::try_from(start.saturating_sub(base)).unwrap_or(usize::MAX);
            let to = usize::try_from(end.saturating_sub(base)).unwrap_or(usize::MAX);
            out.get(from..to.min(out.len())).unwrap_or_default()
        };
        for event in events {
            match event {
                Piece::Text { start, end, kind } => {
                    self.lines.see(*end);
                    if *kind != TextKind::CData && !self.in_fill {
                        self.text_piece(bytes(*start, *end), *kind);
                    }
                }
                Piece::TextEnd => self.text_end(),
                Piece::Start(tag) => {
                    let attrs = attrs.get(tag.attrs.clone()).unwrap_or_default();
                    let tracked = self.start_tag(tag, attrs, &bytes);
                    if tag.content {
                        self.elements.entered(tracked);
                    }
                }
                Piece::End(end) => {
                    let encoding = self.encoding();
                    if let Some(m) = self.lines.meta.as_deref_mut() {
                        if let Some(from) = m.capture_next() {
                            m.bytes(bytes(from, end.start), from);
                        }
                        m.end_tag(end.depth, end.start, encoding);
                    }
                    self.end_tags(*end);
                    let at = self.lines.text_len();
                    if let Some(sh) = self.lines.shape.as_deref_mut() {
                        sh.end_tag(end.depth, at);
                    }
                }
                Piece::FillStart { at, breaks } => self.fill_start(*at, *breaks),
                Piece::FillEnd { at } => self.fill_end(*at),
            }
        }
    }

    /// Where the text node's characters go.
    fn text_out(&mut self) -> (&mut TextNode, TextOut<'_>) {
        let out = TextOut {
            lines: &mut self.lines,
            elements: &mut self.elements,
            utf8: self.utf8,
        };
        (&mut self.text, out)
    }

    /// Text of the current text node, as the input has it.
    fn text_piece(&mut self, raw: &[u8], kind: TextKind) {
        if !self.body_started
            && self.elements.context() & ctx::SKIP == 0
            && !raw.iter().all(u8::is_ascii_whitespace)
        {
            self.body_started = true;
        }
        let encoding = self.encoding();
        let (text, mut out) = self.text_out();
        text.text(raw, kind, encoding, &mut out);
    }

    /// The current text node ends.
    fn text_end(&mut self) {
        if !self.text.is_open() {
            return;
        }
        let in_fill = self.in_fill;
        let (text, mut out) = self.text_out();
        text.end(in_fill, &mut out);
    }

    /// Decodes the text held back for a possible character reference.
    fn flush_carry(&mut self) {
        let (text, mut out) = self.text_out();
        text.flush_carry(&mut out);
    }

    /// Ends the current line at a tag that starts at `pos`.
    fn break_at(&mut self, pos: u64) {
        self.lines.break_at(pos, &mut self.elements);
    }

    /// The bytes from `at` on stand for a construct the tokenizer cut or a start tag it
    /// dropped; `breaks` when that tag would have ended the line.
    fn fill_start(&mut self, at: u64, breaks: bool) {
        self.flush_carry();
        self.text.fill_starts();
        if breaks {
            self.break_at(at);
        }
        self.in_fill = true;
    }

    /// The fill ends at `at`: a new text node starts there.
    fn fill_end(&mut self, at: u64) {
        self.in_fill = false;
        self.lines.see(at);
        self.lines.last_token_end = self.lines.last_token_end.max(at);
        self.text.fill_ends();
    }

    pub(super) fn finish(&mut self, total: u64) {
        self.text_end();
        self.flush_carry();
        self.lines.saw_all(total);
        self.break_at(total);
        let encoding = self.encoding();
        if let Some(m) = self.lines.meta.as_deref_mut() {
            m.finish_input(encoding);
        }
    }

    /// An end tag: the elements it closes on the tokenizer's open-element stack end, nearest
    /// first, each with the end tag's location (as `lol_html` would run their end-tag
    /// handlers).
    fn end_tags(&mut self, end: EndTag) {
        while let Some(tracked) = self.elements.leave_above(end.depth) {
            if let Some((id, breaks)) = tracked {
                self.end_tag(id, breaks, end.start as usize..end.end as usize);
            }
        }
    }

    fn end_tag(&mut self, id: u32, breaks: bool, loc: std::ops::Range<usize>) {
        self.lines.see(loc.end as u64);
        if breaks {
            self.break_at(loc.start as u64);
        }
        self.elements.close(id);
        self.lines.last_token_end = self.lines.last_token_end.max(loc.end as u64);
        self.text.after_tag();
    }

    /// A start tag; `bytes` gives the input bytes between two offsets within the tag. What
    /// the tokenizer's open-element stack keeps of the element.
    fn start_tag<'b>(
        &mut self,
        tag: &StartTag,
        attrs: &[AttrSpan],
        bytes: &dyn Fn(u64, u64) -> &'b [u8],
    ) -> Tracked {
        let loc = tag.start as usize..tag.end as usize;
        self.lines.see(loc.end as u64);
        self.lines.last_token_end = loc.end as u64;
        self.text.after_tag();
        let encoding = self.encoding();
        let name_bytes = bytes(tag.start + 1, tag.start + 1 + tag.name_len as u64);
        if self.adjust && !self.body_started && name_bytes.eq_ignore_ascii_case(b"meta") {
            self.meta(attrs, bytes, encoding);
        }
        if self.lines.meta.is_some() && crate::meta::wanted(name_bytes) {
            self.collect(tag, name_bytes, attrs, bytes, encoding);
        }
        if self.elements.context() & ctx::SKIP != 0 {
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
        if self.lines.shape.is_some() && shape::wanted(&name) {
            self.shape_start(&name, tag, attrs, bytes, encoding);
        }
        if !tag.content {
            return None;
        }
        let mut descriptor = None;
        let read =
            self.elements
                .read_attributes(&name, info.ctx, attrs, bytes, encoding, &mut descriptor);
        if read.itemprop_date {
            if let Some(m) = self.lines.meta.as_deref_mut() {
                let date = find_attr(attrs, "content", bytes, encoding)
                    .or_else(|| find_attr(attrs, "datetime", bytes, encoding));
                m.itemprop_date(date.as_deref());
            }
        }
        if self.lines.meta.is_some() {
            self.author_element(
                &name,
                read.itemprop_author,
                descriptor.as_ref(),
                (read.ctx, read.hints),
                tag,
                attrs,
                bytes,
            );
        }
        self.elements.push(&info, read, descriptor.as_ref())
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
        let depth = self.elements.tokenizer_depth();
        let at = self.lines.next_at();
        let get = |key: &str| -> Option<Cow<'b, str>> {
            find_attr(attrs, key, bytes, encoding).map(|v| match v {
                Cow::Borrowed(v) => htmlize::unescape(v),
                Cow::Owned(v) => Cow::Owned(htmlize::unescape(v).into_owned()),
            })
        };
        if let Some(sh) = self.lines.shape.as_deref_mut() {
            sh.start_tag(name, &get, depth, at, tag.content);
            if name == "img" {
                self.lines.image_added();
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
        let Some(m) = self.lines.meta.as_deref() else {
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
        let context = self.elements.context() | ctx_bits;
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
                .elements
                .open()
                .iter()
                .any(|o| o.descriptor.as_deref().is_some_and(comment))
        {
            return;
        }
        let depth = self.elements.tokenizer_depth();
        if let Some(m) = self.lines.meta.as_deref_mut() {
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
        let depth = self.elements.tokenizer_depth();
        let Some(m) = self.lines.meta.as_deref_mut() else {
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
    /// declares (from the next token on); the text node's source lengths follow a rule of their own,
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
