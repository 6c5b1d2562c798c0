//! One page as a container hands it over ([`Page`]), and the one way a page is read:
//! its encoding chosen, its text, document or record made.

use std::borrow::Cow;
use std::path::Path;

use encoding_rs::Encoding;

use super::jsonl;
use crate::output::json::{Fields, record_fields};
use crate::{Document, Extractor, Format, Options, Result};

/// A page as a container gives it: a WARC record's payload, a JSON lines record's `html`
/// string, a page held in memory. Every container's pages are read the same way here: the
/// encoding chosen once ([`Page::decode`]), the text ([`Page::text`]), the document
/// ([`Page::document`]) and what a record of it gains ([`Page::record`]). A page read
/// from a container also says which record it was ([`Page::get_id`]) and where that
/// record is ([`Page::get_origin`]), as the container's reader found them.
///
/// ```
/// use std::sync::Arc;
/// use mainline::{Extractor, Options, Threshold, source::Page};
/// let page = Page::bytes(b"<meta charset=utf-8><p>Caf\xe9 au lait, with the morning papers.</p>")
///     .charset(Some(encoding_rs::WINDOWS_1252))
///     .url(Some("https://example.org/cafe"));
/// let mut ex = Extractor::new(Arc::new(Threshold(0.5)));
/// assert_eq!(page.text(&mut ex)?, "Café au lait, with the morning papers.");
/// let doc = page.document(&Options::new().threshold(0.5))?;
/// assert_eq!((doc.text(), doc.encoding()), ("Café au lait, with the morning papers.", "windows-1252"));
/// assert_eq!(doc.url(), Some("https://example.org/cafe"));
/// # Ok::<(), mainline::Error>(())
/// ```
#[derive(Debug, Clone, Copy)]
pub struct Page<'a> {
    body: Body<'a>,
    url: Option<&'a str>,
    charset: Option<&'static Encoding>,
    id: Option<&'a str>,
    origin: Option<Origin<'a>>,
}

/// Where a page came from: the container that held it, and where its record is in it.
/// The WARC reader ([`super::warc::read`]) and the JSON lines reader
/// ([`super::jsonl::Record`]) set it on the pages they make.
///
/// ```
/// use std::path::Path;
/// use mainline::source::{At, Origin, Page};
/// let here = Origin { container: Path::new("pages.jsonl"), at: At::Line(3) };
/// let page = Page::bytes(b"<p>Tea.</p>").id(Some("tea")).origin(Some(here));
/// assert_eq!(page.get_id(), Some("tea"));
/// assert_eq!(page.get_origin().map(|o| o.at), Some(At::Line(3)));
/// assert_eq!(Page::bytes(b"<p>Tea.</p>").get_origin(), None);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Origin<'a> {
    /// The container: its path as it was named (`-` for standard input).
    pub container: &'a Path,
    /// Where the page's record is in the container.
    pub at: At,
}

/// Where a record is in its container.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum At {
    /// The byte offset where a WARC record starts in its file: that of its gzip member in a
    /// compressed file ([`crate::warc::Record::offset`], the command's `warc_offset`).
    Offset(u64),
    /// The line of a JSON lines record in its input, counted from 1 (every line counts,
    /// empty or not a record).
    Line(u64),
}

/// A page's content.
#[derive(Debug, Clone, Copy)]
enum Body<'a> {
    /// Bytes in the page's own encoding, gzip undone (a WARC record's payload).
    Bytes(&'a [u8]),
    /// Text decoded already, read piece by piece (a JSON record's `html` string).
    Text(&'a jsonl::Html<'a>),
}

impl<'a> Page<'a> {
    /// A page of bytes in its own encoding (already decompressed), which a byte order
    /// mark, [`Page::charset`], a `<meta charset>` or detection decides, in that order.
    pub fn bytes(body: &'a [u8]) -> Self {
        Page {
            body: Body::Bytes(body),
            url: None,
            charset: None,
            id: None,
            origin: None,
        }
    }

    /// The page of a JSON lines record's `html` string: text, so a `<meta charset>` in it
    /// is ignored.
    pub fn json_string(html: &'a jsonl::Html<'a>) -> Self {
        Page {
            body: Body::Text(html),
            url: None,
            charset: None,
            id: None,
            origin: None,
        }
    }

    /// The page's URL, as its container gives it (a WARC record's target URI): the
    /// document's URL unless the [`Options`] give one.
    pub fn url(mut self, url: Option<&'a str>) -> Self {
        self.url = url;
        self
    }

    /// The charset declared beside the page (an HTTP header's): it comes after a byte
    /// order mark and before the page's `<meta charset>`. Text pages ignore it.
    pub fn charset(mut self, charset: Option<&'static Encoding>) -> Self {
        self.charset = charset;
        self
    }

    /// The id of the page's record, as its container gives it (a WARC record's
    /// `WARC-Record-ID`, a JSON lines record's `id`).
    pub fn id(mut self, id: Option<&'a str>) -> Self {
        self.id = id;
        self
    }

    /// Where the page came from.
    pub fn origin(mut self, origin: Option<Origin<'a>>) -> Self {
        self.origin = origin;
        self
    }

    /// The page's URL as its container gave it ([`Page::url`]).
    pub fn get_url(&self) -> Option<&'a str> {
        self.url
    }

    /// The id of the page's record ([`Page::id`]).
    pub fn get_id(&self) -> Option<&'a str> {
        self.id
    }

    /// Where the page came from ([`Page::origin`]).
    pub fn get_origin(&self) -> Option<Origin<'a>> {
        self.origin
    }

    /// Bytes of the page's content (decoded, for a text page).
    pub fn len(&self) -> usize {
        match self.body {
            Body::Bytes(b) => b.len(),
            Body::Text(h) => h.decoded_len(),
        }
    }

    /// Whether the page has no content.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The page as text, and the encoding it was decoded from: a byte order mark, then
    /// the declared charset, then `<meta charset>`, then detection (UTF-8 for a text page).
    /// For readers that parse a page whole.
    pub fn decode(&self) -> (Cow<'a, str>, &'static Encoding) {
        match self.body {
            Body::Bytes(b) => {
                let encoding = crate::input::sniff_with_transport(b, true, self.charset).encoding;
                (encoding.decode(b).0, encoding)
            }
            Body::Text(h) => {
                // The pieces of a JSON string are UTF-8: one copy, not a check and a copy.
                let text = String::from_utf8(h.decoded())
                    .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned());
                (Cow::Owned(text), encoding_rs::UTF_8)
            }
        }
    }

    /// The page's kept lines joined by `\n`, with `ex`, which is reset afterwards (so an
    /// extractor serves page after page without being built again).
    ///
    /// # Errors
    /// As [`Extractor::write`] (bytes that start like a binary format).
    pub fn text(&self, ex: &mut Extractor) -> Result<String> {
        match self.body {
            Body::Bytes(b) => {
                ex.set_transport_encoding(self.charset);
                ex.kept_text(b)
            }
            Body::Text(h) => {
                let text = Self::text_of_string(h, ex);
                ex.reset();
                text
            }
        }
    }

    /// The kept text of a JSON string's page, fed in pieces.
    fn text_of_string(h: &jsonl::Html<'_>, ex: &mut Extractor) -> Result<String> {
        ex.set_transport_encoding(None);
        let mut text = String::new();
        let mut take = |ex: &mut Extractor| {
            while let Some(d) = ex.next_decision() {
                crate::output::text::push_kept(&mut text, &d);
                ex.recycle(d.line);
            }
        };
        // NOTE: the text is decoded already; a byte order mark makes the splitter read it
        // as UTF-8 whatever a <meta> in it declares.
        ex.write("\u{feff}".as_bytes())?;
        // In pieces, taking the decisions after each, so that a large record's lines are
        // not all held at once.
        h.pieces(|piece| {
            ex.write(piece)?;
            take(ex);
            Ok::<(), crate::Error>(())
        })?;
        ex.end()?;
        take(ex);
        Ok(text)
    }

    /// The page's whole [`Document`] with `options`, at the page's URL unless the options
    /// give one; its [`Document::encoding`] is the one the page was decoded from.
    ///
    /// # Errors
    /// As [`Options::extract_str`].
    pub fn document(&self, options: &Options) -> Result<Document> {
        let options = match self.url {
            Some(url) if options.url.is_none() => options.clone().url(url),
            _ => options.clone(),
        };
        match self.body {
            Body::Bytes(_) => {
                let (text, encoding) = self.decode();
                Ok(options.extract_str(&text)?.decoded_from(encoding))
            }
            Body::Text(h) => {
                let mut b = options.builder_str();
                h.pieces(|piece| b.write(piece))?;
                b.end()
            }
        }
    }

    /// What a record of the page holds in `options`' format: its text (the kept lines
    /// joined by `\n`), and the fields a record gains beside it
    /// ([`record_fields`]: the document's for [`Format::Json`], its `markdown` for
    /// [`Format::Markdown`], none for the others). For those others the text is what
    /// `text` gives (as a rule [`Page::text`] with an extractor kept from page to page);
    /// `text` is called only for them, so an extractor is taken only when one is used.
    ///
    /// ```
    /// use std::sync::Arc;
    /// use mainline::{Extractor, Format, Options, Threshold, source::Page};
    /// let page = Page::bytes(b"<title>Tea</title><p>Tea, with the morning papers.</p>");
    /// let mut ex = Extractor::new(Arc::new(Threshold(0.5)));
    /// let text = Options::new().threshold(0.5).format(Format::Text);
    /// let (t, fields) = page.record(&text, |page| page.text(&mut ex))?;
    /// assert_eq!((t.as_str(), fields.len()), ("Tea, with the morning papers.", 0));
    /// let json = text.clone().format(Format::Json);
    /// let (t, fields) = page.record(&json, |_| unreachable!("a document is made"))?;
    /// assert_eq!((t.as_str(), fields["title"].as_str()), ("Tea, with the morning papers.", Some("Tea")));
    /// # Ok::<(), mainline::Error>(())
    /// ```
    ///
    /// # Errors
    /// As `text` and [`Page::document`].
    pub fn record(
        &self,
        options: &Options,
        text: impl FnOnce(&Self) -> Result<String>,
    ) -> Result<(String, Fields)> {
        match options.format {
            Format::Json | Format::Markdown => {
                Ok(record_fields(&self.document(options)?, options.format))
            }
            Format::Text | Format::Lines => Ok((text(self)?, Fields::new())),
        }
    }
}
