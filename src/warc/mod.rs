//! Reading WARC files: their records, the HTTP responses in them, and the HTML pages.
//!
//! A [`Reader`] reads the records of a WARC file (plain or gzip-compressed, usually one
//! gzip member per record as Common Crawl writes them) one after the other, in bounded
//! memory: a record's block is kept up to a cap ([`DEFAULT_MAX_PAYLOAD`] by default) and
//! the rest of it is read past. [`Record::html`] takes the HTTP response out of a
//! `response` record: the status, the `Content-Type` and its charset, the payload with
//! chunked transfer encoding and gzip, deflate or brotli content encoding undone. Records
//! that are not HTML responses come back as a [`Skip`] saying why.
//!
//! A record that cannot be read (a truncated or damaged gzip member, a header that is not
//! WARC, a block cut short) is an `Err` item of the iterator, and the reader goes on at
//! the next gzip member or the next line that starts with `WARC/1.`: one bad record never
//! hides the records after it.
//!
//! ```
//! use std::io::Write;
//! use mainline::warc::{Content, Reader};
//!
//! let page = b"<p>Hello from an archive.</p>";
//! let http = [&b"HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\n\r\n"[..], page].concat();
//! let mut warc = Vec::new();
//! write!(warc, "WARC/1.0\r\nWARC-Type: response\r\nWARC-Record-ID: <urn:uuid:1>\r\n\
//!     WARC-Target-URI: https://example.org/\r\nContent-Length: {}\r\n\r\n", http.len())?;
//! warc.extend_from_slice(&http);
//! warc.extend_from_slice(b"\r\n\r\n");
//!
//! let mut pages = 0;
//! for record in Reader::new(&warc[..]) {
//!     let record = record?;
//!     assert_eq!(record.target_uri(), Some("https://example.org/"));
//!     if let Content::Html(html) = record.html(&Default::default())? {
//!         assert_eq!(html.status, 200);
//!         assert_eq!(html.charset, Some(encoding_rs::UTF_8));
//!         assert_eq!(&html.body[..], page);
//!         pages += 1;
//!     }
//! }
//! assert_eq!(pages, 1);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod http;
mod source;

use std::fmt;
use std::io::Read;
use std::sync::Arc;

use encoding_rs::Encoding;

pub use http::{Content, Html, HtmlOptions, Skip};
use source::{Fault, Source};

use crate::extract::{Extractor, Scorer};

/// The default cap on a record's block and on a decoded payload: 16 MiB.
pub const DEFAULT_MAX_PAYLOAD: usize = 16 * 1024 * 1024;

/// Longest WARC record header accepted.
const MAX_HEADER: usize = 256 * 1024;

/// Decompressed bytes asked for at once.
const READ_BYTES: usize = 64 * 1024;

/// Most bytes after a record's block in the reader's buffer for the buffer itself to
/// become the record's (the rest is copied back); a longer rest (records of a plain file)
/// has the block copied out instead.
const TAIL_BYTES: usize = 4 * 1024;

/// One WARC record: its named fields and (up to the cap) its block.
#[derive(Debug, Clone)]
pub struct Record {
    version: String,
    headers: Vec<(String, String)>,
    /// The block is `data[start..]` (what comes before it is not part of the record: the
    /// reader hands over its buffer rather than copying the block out of it).
    data: Vec<u8>,
    start: usize,
    length: u64,
    offset: u64,
}

impl Record {
    /// The WARC version of the record, e.g. `WARC/1.0`.
    pub fn version(&self) -> &str {
        &self.version
    }

    /// The value of the named field (the first, if repeated), compared without regard to
    /// case.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// All named fields in their order.
    pub fn headers(&self) -> &[(String, String)] {
        &self.headers
    }

    /// `WARC-Type`: `response`, `request`, `metadata`, `warcinfo`, `revisit`, … (empty
    /// when missing).
    pub fn kind(&self) -> &str {
        self.header("WARC-Type").unwrap_or("")
    }

    /// `WARC-Record-ID`, e.g. `<urn:uuid:…>`.
    pub fn id(&self) -> Option<&str> {
        self.header("WARC-Record-ID")
    }

    /// `WARC-Target-URI`: the URL the record was fetched from.
    pub fn target_uri(&self) -> Option<&str> {
        // NOTE: WARC 1.0 files written by some tools wrap the URI in angle brackets.
        self.header("WARC-Target-URI")
            .map(|u| u.trim_start_matches('<').trim_end_matches('>'))
    }

    /// `WARC-Date`: when the record was captured (ISO 8601, UTC).
    pub fn date(&self) -> Option<&str> {
        self.header("WARC-Date")
    }

    /// The record's block (for a `response`, the HTTP header and payload), at most the
    /// reader's cap long.
    pub fn block(&self) -> &[u8] {
        &self.data[self.start..]
    }

    /// The block's length as declared by `Content-Length`.
    pub fn content_length(&self) -> u64 {
        self.length
    }

    /// Whether the block was longer than the reader's cap and [`Record::block`] is its
    /// beginning only.
    pub fn is_cut(&self) -> bool {
        (self.block().len() as u64) < self.length
    }

    /// Where the record starts in the file: the offset of its gzip member (for a
    /// compressed file) or of its first byte.
    pub fn offset(&self) -> u64 {
        self.offset
    }

    /// The HTML page in a `response` record, or why there is none.
    ///
    /// # Errors
    /// When the HTTP response cannot be decoded (no HTTP status line, broken chunked
    /// encoding, damaged compressed content, an unknown content encoding).
    pub fn html(&self, options: &HtmlOptions) -> Result<Content<'_>, String> {
        http::html(self, options)
    }
}

/// A record that could not be read, with what is known of it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RecordError {
    /// Where the record (or the damaged data) starts in the file.
    pub offset: u64,
    /// `WARC-Record-ID`, when the record's header was read.
    pub id: Option<String>,
    /// `WARC-Target-URI`, when the record's header was read.
    pub target_uri: Option<String>,
    /// `WARC-Date`, when the record's header was read.
    pub date: Option<String>,
    /// What went wrong.
    pub message: String,
}

impl fmt::Display for RecordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "record at offset {}", self.offset)?;
        if let Some(id) = &self.id {
            write!(f, " ({id})")?;
        }
        write!(f, ": {}", self.message)
    }
}

impl std::error::Error for RecordError {}

/// Reads the records of a WARC file. See the [module documentation](self).
///
/// The iterator yields every record in file order, `Err` for those that cannot be read;
/// it ends at the end of the input (or after an input error that stops reading).
pub struct Reader<R> {
    src: Source<R>,
    /// Decompressed bytes of the current member; `buf[pos..]` is not parsed yet.
    buf: Vec<u8>,
    pos: usize,
    in_member: bool,
    member_ended: bool,
    /// After damaged data: no error is reported again until a record header is read.
    recovering: bool,
    max_block: usize,
    done: bool,
}

/// Why a record could not be read: damaged compressed data (move to the next member) or
/// a record that is not well formed (look for the next record header).
enum Bad {
    Fault(Fault),
    Format(String),
}

impl<R: Read> Reader<R> {
    /// A reader over a WARC file, plain or gzip-compressed (recognised by its magic
    /// bytes), with blocks kept up to [`DEFAULT_MAX_PAYLOAD`].
    pub fn new(input: R) -> Self {
        let mut src = Source::new(input);
        src.set_one_shot_max(DEFAULT_MAX_PAYLOAD + MAX_HEADER);
        Reader {
            src,
            buf: Vec::new(),
            pos: 0,
            in_member: false,
            member_ended: false,
            recovering: false,
            max_block: DEFAULT_MAX_PAYLOAD,
            done: false,
        }
    }

    /// Keeps at most `bytes` of each record's block (default [`DEFAULT_MAX_PAYLOAD`]); the
    /// rest is read past, and [`Record::is_cut`] says so.
    pub fn max_block(mut self, bytes: usize) -> Self {
        self.max_block = bytes;
        // A member is decompressed in one piece only when that holds no more than a
        // record's header and a block up to the cap.
        self.src.set_one_shot_max(bytes.saturating_add(MAX_HEADER));
        self
    }

    /// Gives back a record that is no longer needed: its buffer is reused for a later
    /// record instead of allocating and zeroing a new one. Optional; records may as well be
    /// dropped.
    ///
    /// ```
    /// use mainline::warc::Reader;
    ///
    /// let warc = b"WARC/1.0\r\nWARC-Type: request\r\nContent-Length: 0\r\n\r\n\r\n\r\n";
    /// let mut reader = Reader::new(&warc[..]);
    /// while let Some(Ok(record)) = reader.next() {
    ///     assert_eq!(record.header("WARC-Type"), Some("request"));
    ///     reader.recycle(record);
    /// }
    /// ```
    pub fn recycle(&mut self, record: Record) {
        self.src.recycle(record.data);
    }

    /// Whether the input is gzip-compressed.
    pub fn is_gzip(&self) -> bool {
        self.src.is_gzip()
    }

    /// Compressed (or, for a plain file, plain) bytes read from the input so far.
    pub fn bytes_read(&self) -> u64 {
        self.src.position()
    }

    /// Makes sure `buf[pos..]` holds at least `n` bytes, unless the member ends first.
    /// Returns whether it does.
    fn fill(&mut self, n: usize) -> Result<bool, Fault> {
        while self.buf.len() - self.pos < n {
            if self.member_ended {
                return Ok(false);
            }
            if self.pos > 0 && self.pos >= self.buf.len() / 2 {
                self.buf.drain(..self.pos);
                self.pos = 0;
            }
            let want = (n - (self.buf.len() - self.pos)).max(READ_BYTES);
            if self.src.read(&mut self.buf, want)? == 0 {
                self.member_ended = true;
            }
        }
        Ok(true)
    }

    fn start_member(&mut self) -> Result<bool, Fault> {
        self.buf.clear();
        self.pos = 0;
        self.member_ended = false;
        let more = self.src.next_member()?;
        self.in_member = more;
        if !more {
            self.done = true;
        }
        Ok(more)
    }

    /// Reads the next record of the current member; `Ok(None)` when the member holds no
    /// more.
    fn record(
        &mut self,
        offset: &mut u64,
        partial: &mut Option<Record>,
    ) -> Result<Option<Record>, Bad> {
        // Records are separated by CRLF CRLF; be lenient about how many.
        loop {
            if !self.fill(1).map_err(Bad::Fault)? {
                return Ok(None);
            }
            let rest = &self.buf[self.pos..];
            let ws = rest
                .iter()
                .take_while(|b| matches!(b, b'\r' | b'\n' | b' ' | b'\t'))
                .count();
            self.pos += ws;
            if ws < rest.len() {
                break;
            }
        }
        *offset = if self.src.is_gzip() {
            self.src.member_offset()
        } else {
            self.src.position() - (self.buf.len() - self.pos) as u64
        };
        self.fill(8).map_err(Bad::Fault)?;
        if !self.buf[self.pos..].starts_with(b"WARC/") {
            let head = &self.buf[self.pos..(self.pos + 16).min(self.buf.len())];
            return Err(Bad::Format(format!(
                "not a WARC record header (it starts with {:?})",
                String::from_utf8_lossy(head)
            )));
        }
        // The header ends at the first empty line.
        let mut searched = 0;
        let end = loop {
            let rest = &self.buf[self.pos..];
            let crlf = memchr::memmem::find(&rest[searched..], b"\n\r\n").map(|i| i + 3);
            let lf = memchr::memmem::find(&rest[searched..], b"\n\n").map(|i| i + 2);
            let first = match (crlf, lf) {
                (Some(a), Some(b)) => Some(a.min(b)),
                (a, b) => a.or(b),
            };
            if let Some(i) = first {
                break searched + i;
            }
            searched = rest.len().saturating_sub(2);
            if rest.len() > MAX_HEADER {
                return Err(Bad::Format(format!(
                    "the record header is longer than {} KiB",
                    MAX_HEADER / 1024
                )));
            }
            let have = rest.len();
            if !self.fill(have + 1).map_err(Bad::Fault)? {
                return Err(Bad::Format(
                    "the member ends inside the record header".into(),
                ));
            }
        };
        let head = &self.buf[self.pos..self.pos + end];
        let text = String::from_utf8_lossy(head);
        let mut lines = text.split('\n').map(|l| l.strip_suffix('\r').unwrap_or(l));
        let version = lines.next().unwrap_or("").trim().to_string();
        if !version.starts_with("WARC/1.") {
            return Err(Bad::Format(format!("unknown WARC version {version:?}")));
        }
        let mut headers: Vec<(String, String)> = Vec::with_capacity(12);
        for line in lines {
            if line.is_empty() {
                continue;
            }
            if line.starts_with([' ', '\t']) {
                if let Some((_, v)) = headers.last_mut() {
                    v.push(' ');
                    v.push_str(line.trim());
                }
                continue;
            }
            if let Some((k, v)) = line.split_once(':') {
                headers.push((k.trim().to_string(), v.trim().to_string()));
            }
        }
        self.pos += end;
        self.recovering = false;
        let mut record = Record {
            version,
            headers,
            data: Vec::new(),
            start: 0,
            length: 0,
            offset: *offset,
        };
        let length = match record.header("Content-Length").map(|v| v.parse::<u64>()) {
            Some(Ok(n)) => n,
            Some(Err(_)) => {
                *partial = Some(record);
                return Err(Bad::Format("Content-Length is not a number".into()));
            }
            None => {
                *partial = Some(record);
                return Err(Bad::Format("the record has no Content-Length".into()));
            }
        };
        record.length = length;
        let keep = usize::try_from(length)
            .unwrap_or(usize::MAX)
            .min(self.max_block);
        let have = self.buf.len() - self.pos;
        if keep as u64 == length && have >= keep && have - keep <= TAIL_BYTES {
            // The whole block is in the buffer, and little after it: the buffer becomes
            // the record's, and what follows the block starts a new one.
            let end = self.pos + keep;
            let tail = self.buf[end..].to_vec();
            let mut data = std::mem::replace(&mut self.buf, tail);
            data.truncate(end);
            record.data = data;
            record.start = self.pos;
            self.pos = 0;
            return self.after_block(record, partial).map(Some);
        }
        let mut block = Vec::with_capacity(keep.min(self.buf.len() - self.pos));
        let mut left = length;
        // Bytes already decompressed first, then straight from the source.
        let take = (self.buf.len() - self.pos).min(keep);
        block.extend_from_slice(&self.buf[self.pos..self.pos + take]);
        self.pos += take;
        left -= take as u64;
        let result = (|| -> Result<bool, Fault> {
            while block.len() < keep {
                if self.member_ended {
                    return Ok(false);
                }
                let want = keep - block.len();
                block.reserve_exact(want);
                if self.src.read(&mut block, want)? == 0 {
                    self.member_ended = true;
                    return Ok(false);
                }
                if block.len() > keep {
                    // Inflate may give more than asked: the excess belongs after the block.
                    self.buf.clear();
                    self.pos = 0;
                    self.buf.extend_from_slice(&block[keep..]);
                    block.truncate(keep);
                }
            }
            left = length - block.len() as u64;
            // Past the cap: read through the rest of the block.
            while left > 0 {
                if !self.fill(1)? {
                    return Ok(false);
                }
                let n = ((self.buf.len() - self.pos) as u64).min(left) as usize;
                self.pos += n;
                left -= n as u64;
            }
            Ok(true)
        })();
        let got = length - left;
        record.data = block;
        match result {
            Ok(true) => {}
            Ok(false) => {
                *partial = Some(record);
                return Err(Bad::Format(format!(
                    "truncated record: the block ends after {got} of {length} bytes"
                )));
            }
            Err(f) => {
                *partial = Some(record);
                return Err(Bad::Fault(f));
            }
        }
        self.after_block(record, partial).map(Some)
    }

    /// Reads past the CRLF CRLF after a record's block, then at least one more byte or
    /// to the member's end, so that a member's checksum is checked before its record is
    /// handed out.
    fn after_block(&mut self, record: Record, partial: &mut Option<Record>) -> Result<Record, Bad> {
        match self.fill(5) {
            Ok(_) => Ok(record),
            Err(f) => {
                *partial = Some(record);
                Err(Bad::Fault(f))
            }
        }
    }

    /// Moves past a record that is not well formed: to the next line starting with
    /// `WARC/1.` in the current member, else to the next member.
    fn skip_to_next_header(&mut self) -> Result<(), Fault> {
        loop {
            let rest = &self.buf[self.pos..];
            if let Some(i) = memchr::memmem::find(rest, b"\nWARC/1.") {
                self.pos += i + 1;
                return Ok(());
            }
            self.pos = self.buf.len().saturating_sub(7).max(self.pos);
            let have = self.buf.len() - self.pos;
            if !self.fill(have + 1)? {
                self.in_member = false;
                return Ok(());
            }
        }
    }

    fn error(&self, offset: u64, partial: Option<Record>, message: String) -> RecordError {
        let field = |r: &Option<Record>, name: &str| {
            r.as_ref().and_then(|r| r.header(name)).map(str::to_string)
        };
        RecordError {
            offset,
            id: field(&partial, "WARC-Record-ID"),
            target_uri: partial
                .as_ref()
                .and_then(|r| r.target_uri())
                .map(str::to_string),
            date: field(&partial, "WARC-Date"),
            message,
        }
    }
}

impl<R: Read> Iterator for Reader<R> {
    type Item = Result<Record, RecordError>;

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            if self.done {
                return None;
            }
            if !self.in_member {
                let offset = self.src.position();
                match self.start_member() {
                    Ok(true) => {}
                    Ok(false) => return None,
                    Err(f) => {
                        let report = !self.recovering;
                        let e = self.after_fault(offset, None, f);
                        if report {
                            return Some(Err(e));
                        }
                        continue;
                    }
                }
            }
            let mut offset = self.src.member_offset();
            let mut partial = None;
            match self.record(&mut offset, &mut partial) {
                Ok(Some(r)) => return Some(Ok(r)),
                Ok(None) => {
                    self.in_member = false;
                }
                Err(Bad::Fault(f)) => {
                    let report = !self.recovering || partial.is_some();
                    let e = self.after_fault(offset, partial, f);
                    if report {
                        return Some(Err(e));
                    }
                }
                Err(Bad::Format(message)) => {
                    let report = !self.recovering;
                    let e = self.error(offset, partial, message);
                    self.recovering = true;
                    if let Err(f) = self.skip_to_next_header() {
                        self.after_fault(offset, None, f);
                    }
                    if report {
                        return Some(Err(e));
                    }
                }
            }
        }
    }
}

impl<R: Read> Reader<R> {
    /// Handles damaged compressed data or an input error: the error to report, after
    /// moving to the next member (or ending, for an input error).
    fn after_fault(&mut self, offset: u64, partial: Option<Record>, f: Fault) -> RecordError {
        let e = self.error(offset, partial, f.to_string());
        self.in_member = false;
        match f {
            Fault::Io(_) => self.done = true,
            Fault::Corrupt(_) => {
                self.recovering = true;
                match self.src.resync() {
                    Ok(true) => {}
                    Ok(false) => self.done = true,
                    Err(_) => self.done = true,
                }
            }
        }
        e
    }
}

/// The text an extractor keeps from a page of a WARC file: the kept lines joined by `\n`.
///
/// The page is decoded as [`crate::lines::Splitter`] decodes any page, except that the
/// HTTP header's charset (when it names an encoding) comes before a `<meta>` declaration:
/// a byte order mark, then the HTTP charset, then `<meta charset>`, then detection.
///
/// # Errors
/// As [`crate::lines::Splitter::write`] (a payload that starts like a binary format).
pub fn extract_text(html: &Html<'_>, scorer: Arc<dyn Scorer>) -> crate::Result<String> {
    kept_text(&mut Extractor::new(scorer), html)
}

/// [`extract_text`] with an extractor kept from page to page: the same text, without
/// building a new extractor and growing its buffers again for every record
/// ([`Extractor::reset`]). The extractor is reset afterwards; its transport encoding is the
/// page's HTTP charset.
///
/// ```
/// use std::sync::Arc;
/// use mainline::{Extractor, Threshold};
/// use mainline::warc::{kept_text, Html};
/// let mut ex = Extractor::new(Arc::new(Threshold(0.5)));
/// for (body, text) in [(&b"<p>caf\xe9</p>"[..], "café"), (b"<p>cr\xe8me</p>", "crème")] {
///     let page = Html { status: 200, charset: Some(encoding_rs::WINDOWS_1252), body: body.into(), cut: false };
///     assert_eq!(kept_text(&mut ex, &page)?, text);
/// }
/// # Ok::<(), mainline::Error>(())
/// ```
///
/// # Errors
/// As [`extract_text`].
pub fn kept_text(ex: &mut Extractor, html: &Html<'_>) -> crate::Result<String> {
    ex.set_transport_encoding(html.charset);
    ex.kept_text(&html.body)
}

/// The page decoded to text, with the encoding chosen as [`extract_text`] chooses it: a
/// byte order mark, then the HTTP header's charset, then `<meta charset>`, then detection.
/// For the whole-document path ([`crate::Options::extract_str`]: Markdown, metadata).
///
/// ```
/// use mainline::warc::{decode, Html};
/// let page = Html { status: 200, charset: Some(encoding_rs::WINDOWS_1252), body: b"<p>caf\xe9</p>"[..].into(), cut: false };
/// let (text, encoding) = decode(&page);
/// assert_eq!((&*text, encoding.name()), ("<p>café</p>", "windows-1252"));
/// ```
pub fn decode<'a>(html: &'a Html<'_>) -> (std::borrow::Cow<'a, str>, &'static Encoding) {
    let encoding = crate::input::sniff_with_transport(&html.body, true, html.charset).encoding;
    (encoding.decode(&html.body).0, encoding)
}

/// Whether decompressed input starts like a WARC file (`WARC/1.`).
pub fn looks_like_warc(head: &[u8]) -> bool {
    head.starts_with(b"WARC/1.")
}

/// The encoding a `charset` label names, as browsers read it from an HTTP header.
pub fn charset(label: &str) -> Option<&'static Encoding> {
    Encoding::for_label(label.trim().trim_matches(['"', '\'']).as_bytes())
}

#[cfg(test)]
mod tests;
