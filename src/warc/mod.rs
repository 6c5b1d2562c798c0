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
//! WARC, a `Content-Length` that does not match the block, which must be followed by CRLF
//! CRLF) is one `Err` item of the iterator, and the reader goes on at the first of: the
//! next line that starts with `WARC/1.` (looked for from the bad record's first byte on,
//! so that a length too large does not swallow the records it covers) and the next gzip
//! member. A record may continue from one gzip member into the next; a damaged member
//! loses only the records whose bytes it holds.
//!
//! A record is *well formed* when it starts at the beginning of the file, of a gzip member
//! or of a line; its header is a `WARC/1.x` line, field lines and an empty line; its
//! `Content-Length` is a decimal number N, with N bytes of block after the header and then
//! CRLF CRLF; all its bytes lie in gzip members that are whole (right CRC-32 and length);
//! and it does not lie inside the claimed extent of an earlier well-formed record. Every
//! well-formed record comes out exactly once, provided the bytes that are not well-formed
//! records hold no line starting `WARC/1.` and no gzip member header of their own, and no
//! block is longer than the cap ([`Reader::max_block`]: past the cap a block is read
//! past, and the reader cannot look back into it). `tests/warc_framing.rs` and the
//! `warc_framing` fuzz target check this.
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

use encoding_rs::Encoding;

pub use http::{Content, Html, HtmlOptions, Skip};
use source::{Fault, Source};

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
    /// The error of a record whose page was read only in part ([`Html::cut`]): the page's
    /// text comes out, and this says it is the beginning of the page.
    pub fn cut_message(&self, options: &HtmlOptions) -> String {
        format!(
            "payload cut at {} bytes (the record's block is {} bytes)",
            options.max_payload,
            self.content_length()
        )
    }

    /// An error of this record (its page could not be read or extracted), with where it
    /// starts and its WARC fields.
    pub fn error(&self, message: String) -> RecordError {
        RecordError {
            offset: self.offset(),
            id: self.id().map(str::to_string),
            target_uri: self.target_uri().map(str::to_string),
            date: self.date().map(str::to_string),
            message,
        }
    }

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
    /// Decompressed bytes; `buf[pos..]` is not parsed yet. They may come from several
    /// members: a record that a member does not finish continues in the next one.
    buf: Vec<u8>,
    pos: usize,
    /// The members whose bytes start after `buf[0]`, in order: where in `buf`, and their
    /// offsets in the file. `buf[0]` belongs to the member at `first_member`.
    starts: Vec<(usize, u64)>,
    first_member: u64,
    /// Where in `buf` the current member's bytes start (0 when before `buf[0]`).
    current_start: usize,
    /// Members started so far (or tried: a damaged member header counts), and the count
    /// when the current record's first byte was read.
    started: u64,
    record_member: u64,
    in_member: bool,
    member_ended: bool,
    /// No member after the current one.
    at_end: bool,
    /// Damaged compressed data follows the last byte of `buf`: a record that needs bytes
    /// past it is broken; reading goes on with the member after the damage.
    damage_after: bool,
    /// The offset of the last damaged member.
    fault_offset: u64,
    /// After an error: no record error is reported again until a record header is read
    /// (damaged compressed data is reported all the same).
    recovering: bool,
    /// Damage met while moving past a bad record, reported after it.
    pending: Option<RecordError>,
    max_block: usize,
    done: bool,
}

/// Why a record could not be read.
enum Bad {
    /// Damaged compressed data (the source has moved to the next member already), or an
    /// input error.
    Fault(Fault),
    /// The record runs into damaged data reported before.
    Damage,
    /// The record is not well formed: look for the next record header.
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
            starts: Vec::new(),
            first_member: 0,
            current_start: 0,
            started: 0,
            record_member: 0,
            in_member: false,
            member_ended: false,
            at_end: false,
            damage_after: false,
            fault_offset: 0,
            recovering: false,
            pending: None,
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

    /// Where the record that starts at `buf[i]` starts in the file: the offset of the
    /// member its first byte is in (compressed file) or of that byte (plain file).
    fn offset_at(&self, i: usize) -> u64 {
        if !self.src.is_gzip() {
            return self.src.position() - (self.buf.len() - i) as u64;
        }
        self.starts
            .iter()
            .rev()
            .find(|s| s.0 <= i)
            .map_or(self.first_member, |s| s.1)
    }

    /// The first `n` bytes of `buf` are gone: moves the member starts along.
    fn rebase(&mut self, n: usize) {
        let mut first = self.first_member;
        self.starts.retain_mut(|s| {
            if s.0 <= n {
                first = s.1;
                false
            } else {
                s.0 -= n;
                true
            }
        });
        self.first_member = first;
        self.current_start = self.current_start.saturating_sub(n);
    }

    /// Makes sure `buf[pos..]` holds at least `n` bytes, reading on into the next members
    /// when the current one ends. Returns whether it does (`false` at the end of the input).
    fn fill(&mut self, n: usize) -> Result<bool, Bad> {
        while self.buf.len() - self.pos < n {
            if !self.more(n, true)? {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// Reads more of the current member into `buf` (about what `buf[pos..]` lacks of `n`
    /// bytes), or, when it has ended and `cross` is set, starts the next member. Returns
    /// `false` when there is nothing more to read.
    fn more(&mut self, n: usize, cross: bool) -> Result<bool, Bad> {
        if self.in_member && !self.member_ended {
            if self.pos > 0 && self.pos >= self.buf.len() / 2 {
                let n = self.pos;
                self.buf.drain(..n);
                self.pos = 0;
                self.rebase(n);
            }
            let want = n.saturating_sub(self.buf.len() - self.pos).max(READ_BYTES);
            match self.src.read(&mut self.buf, want) {
                Ok(0) => self.member_ended = true,
                Ok(_) => {}
                Err(f) => return Err(self.damaged(f)),
            }
            return Ok(true);
        }
        if !cross {
            return Ok(false);
        }
        if self.damage_after {
            if self.pos < self.buf.len() {
                return Err(Bad::Damage);
            }
            self.damage_after = false;
        }
        if self.at_end {
            return Ok(false);
        }
        if self.pos == self.buf.len() {
            self.buf.clear();
            self.pos = 0;
            self.starts.clear();
        }
        let at = self.buf.len();
        self.current_start = at;
        self.in_member = true;
        self.started += 1;
        match self.src.next_member() {
            Ok(true) => {}
            Ok(false) => {
                self.in_member = false;
                self.at_end = true;
                return Ok(false);
            }
            Err(f) => return Err(self.damaged(f)),
        }
        self.member_ended = false;
        let offset = self.src.member_offset();
        if at == 0 {
            self.first_member = offset;
        } else {
            self.starts.push((at, offset));
        }
        Ok(true)
    }

    /// Damaged compressed data (or an input error): what the damaged member gave after
    /// `pos` is dropped, and the source moves on to the next member, to be read once
    /// `buf` is parsed to its end.
    fn damaged(&mut self, f: Fault) -> Bad {
        self.fault_offset = self.src.member_offset();
        self.in_member = false;
        match &f {
            Fault::Io(_) => self.at_end = true,
            Fault::Corrupt(_) => {
                let cut = self.current_start.max(self.pos);
                self.buf.truncate(cut);
                self.starts.retain(|s| s.0 < cut);
                self.damage_after = true;
                if !matches!(self.src.resync(), Ok(true)) {
                    self.at_end = true;
                }
            }
        }
        Bad::Fault(f)
    }

    /// As [`Reader::fill`], for a record whose first bytes are no longer in `buf`.
    fn fill_on(&mut self, n: usize) -> Result<bool, Bad> {
        if self.buf.len() - self.pos < n && self.damage_after {
            return Err(Bad::Damage);
        }
        self.fill(n)
    }

    /// Reads the next record; `Ok(None)` at the end of the input.
    fn record(
        &mut self,
        offset: &mut u64,
        partial: &mut Option<Record>,
    ) -> Result<Option<Record>, Bad> {
        // Records are separated by CRLF CRLF (checked after each block); be lenient about
        // white space before a record.
        loop {
            match self.fill(1) {
                Ok(true) => {}
                Ok(false) => return Ok(None),
                Err(e) => {
                    *offset = self.fault_offset;
                    return Err(e);
                }
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
        *offset = self.offset_at(self.pos);
        self.record_member = self.started;
        // (Offsets into `buf` are kept relative to `pos`, the record's first byte, which
        // stays put while the record is read: reading more may move the buffer's contents.)
        self.fill(8)?;
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
            if !self.fill(have + 1)? {
                return Err(Bad::Format("the file ends inside the record header".into()));
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
        self.recovering = false;
        let mut record = Record {
            version,
            headers,
            data: Vec::new(),
            start: 0,
            length: 0,
            offset: *offset,
        };
        let length = match record.header("Content-Length") {
            Some(v) if !v.is_empty() && v.bytes().all(|b| b.is_ascii_digit()) => v.parse::<u64>(),
            Some(_) => {
                *partial = Some(record);
                return Err(Bad::Format("Content-Length is not a number".into()));
            }
            None => {
                *partial = Some(record);
                return Err(Bad::Format("the record has no Content-Length".into()));
            }
        };
        let Ok(length) = length else {
            *partial = Some(record);
            return Err(Bad::Format("Content-Length is too large".into()));
        };
        record.length = length;
        let keep = usize::try_from(length)
            .unwrap_or(usize::MAX)
            .min(self.max_block);
        let result = if keep as u64 == length {
            self.whole_block(&mut record, end, keep)
        } else {
            self.cut_block(&mut record, end, keep)
        };
        match result {
            Ok(()) => Ok(Some(record)),
            Err(e) => {
                *partial = Some(record);
                Err(e)
            }
        }
    }

    /// Reads a block kept whole: `keep` bytes after the header's `end`, then the CRLF CRLF
    /// that ends the record. The bytes stay in `buf` until then, so that a record whose
    /// block is not where its `Content-Length` says is looked through for the next record.
    fn whole_block(&mut self, record: &mut Record, end: usize, keep: usize) -> Result<(), Bad> {
        let block_end = end.saturating_add(keep);
        let need = block_end.saturating_add(4);
        if !self.fill(need)? {
            let got = (self.buf.len() - self.pos - end).min(keep);
            return Err(Bad::Format(cut_short(got as u64, record.length)));
        }
        if &self.buf[self.pos + block_end..self.pos + need] != b"\r\n\r\n" {
            return Err(Bad::Format(not_followed(record.length)));
        }
        self.settle(need)?;
        let have = self.buf.len() - self.pos;
        if have - need <= TAIL_BYTES {
            // Little after the record: the buffer becomes the record's, and what follows
            // the record starts a new one.
            let start = self.pos + end;
            let tail = self.buf[self.pos + need..].to_vec();
            let mut data = std::mem::replace(&mut self.buf, tail);
            data.truncate(start + keep);
            record.data = data;
            record.start = start;
            let n = self.pos + need;
            self.pos = 0;
            self.rebase(n);
        } else {
            record.data = self.buf[self.pos + end..self.pos + block_end].to_vec();
            self.pos += need;
        }
        Ok(())
    }

    /// Reads a block longer than the cap: its first `keep` bytes, then past the rest, then
    /// the CRLF CRLF that ends the record.
    fn cut_block(&mut self, record: &mut Record, end: usize, keep: usize) -> Result<(), Bad> {
        let length = record.length;
        if !self.fill(end + keep)? {
            let got = self.buf.len() - self.pos - end;
            return Err(Bad::Format(cut_short(got as u64, length)));
        }
        record.data = self.buf[self.pos + end..self.pos + end + keep].to_vec();
        self.pos += end + keep;
        let mut left = length - keep as u64;
        while left > 0 {
            if self.pos == self.buf.len() && !self.fill_on(1)? {
                return Err(Bad::Format(cut_short(length - left, length)));
            }
            let n = ((self.buf.len() - self.pos) as u64).min(left) as usize;
            self.pos += n;
            left -= n as u64;
        }
        if !self.fill_on(4)? {
            return Err(Bad::Format(cut_short(length, length)));
        }
        if &self.buf[self.pos..self.pos + 4] != b"\r\n\r\n" {
            return Err(Bad::Format(not_followed(length)));
        }
        self.settle(4)?;
        self.pos += 4;
        Ok(())
    }

    /// Reads on in the member that holds the record's last byte (`buf[pos + end - 1]`):
    /// one byte past it, or to the member's end, so that a member's checksum is checked
    /// before its record is handed out. A record that ends in a member found damaged
    /// already (further on) is damaged too.
    fn settle(&mut self, end: usize) -> Result<(), Bad> {
        while self.in_member
            && !self.member_ended
            && (self.buf.len() - self.pos <= end || self.src.damage_ahead())
        {
            self.more(end + 1, false)?;
        }
        Ok(())
    }

    /// Moves past a record that is not well formed, to the first of: the next line that
    /// starts with `WARC/1.` after its first byte, the next gzip member, the member after
    /// damaged data.
    fn skip_to_next_header(&mut self) -> Result<(), Bad> {
        loop {
            let pos = self.pos;
            let next_start = self.starts.iter().map(|s| s.0).find(|&i| i > pos);
            // (A header line may start before a member boundary and go on after it.)
            let limit = next_start.map_or(self.buf.len(), |s| (s + 7).min(self.buf.len()));
            if let Some(i) = memchr::memmem::find(&self.buf[pos..limit], b"\nWARC/1.")
                && next_start.is_none_or(|s| pos + i < s)
            {
                self.pos += i + 1;
                return Ok(());
            }
            if let Some(s) = next_start {
                // (Reading more may move the buffer's contents: `s` is kept as a distance
                // from `pos`.)
                let ahead = s - pos;
                if self.buf.len() < s + 7 {
                    match self.fill(ahead + 7) {
                        Ok(true) => continue,
                        // The member that starts at `s` ends (or ends damaged) before the
                        // seven bytes: the next record can only start there.
                        Ok(false) | Err(Bad::Damage) => {}
                        Err(e) => {
                            self.pos += ahead;
                            return Err(e);
                        }
                    }
                }
                self.pos += ahead;
                return Ok(());
            }
            if self.damage_after {
                self.pos = self.buf.len();
                return Ok(());
            }
            // Keep the last bytes, which may begin a header line.
            self.pos = self.buf.len().saturating_sub(7).max(pos);
            let have = self.buf.len() - self.pos;
            let started = self.started;
            if !self.fill(have + 1)? {
                self.pos = self.buf.len();
                return Ok(());
            }
            if have == 0 && self.started != started {
                // A new member, starting at `pos`.
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

    /// What to say of damaged compressed data or an input error.
    fn fault_message(&self, f: &Fault) -> String {
        match f {
            Fault::Io(e) => format!("reading the file failed: {e}"),
            Fault::Corrupt(m) => {
                format!(
                    "corrupt gzip data in the member at offset {}: {m}",
                    self.fault_offset
                )
            }
        }
    }
}

/// The error of a record whose block ends early.
fn cut_short(got: u64, length: u64) -> String {
    if got < length {
        format!("truncated record: the file ends after {got} of the {length} bytes of its block")
    } else {
        "truncated record: the file ends before the CRLF CRLF that ends it".into()
    }
}

/// The error of a record whose block is not followed by CRLF CRLF.
fn not_followed(length: u64) -> String {
    format!(
        "the record's block is not followed by CRLF CRLF: its Content-Length ({length}) \
         does not match the block"
    )
}

impl<R: Read> Iterator for Reader<R> {
    type Item = Result<Record, RecordError>;

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            if let Some(e) = self.pending.take() {
                return Some(Err(e));
            }
            if self.done {
                return None;
            }
            let mut offset = self.fault_offset;
            let mut partial = None;
            let mut bad = match self.record(&mut offset, &mut partial) {
                Ok(Some(r)) => return Some(Ok(r)),
                Ok(None) => {
                    self.done = true;
                    return None;
                }
                Err(bad) => bad,
            };
            if matches!(bad, Bad::Format(_)) {
                // A record read from a member known to be damaged further on: its bytes
                // may be the damage's, so the damage is what to report, once.
                while self.in_member && !self.member_ended && self.src.damage_ahead() {
                    if let Err(b) = self.more(1, false) {
                        bad = b;
                    }
                }
            }
            let (report, message) = match &bad {
                Bad::Fault(f) => (true, self.fault_message(f)),
                Bad::Damage => (
                    !self.recovering,
                    format!(
                        "the record runs into the damaged gzip member at offset {}",
                        self.fault_offset
                    ),
                ),
                Bad::Format(m) => (!self.recovering, m.clone()),
            };
            let mut e = self.error(offset, partial, message);
            let mut report = report;
            self.recovering = true;
            if matches!(bad, Bad::Fault(Fault::Io(_))) {
                self.done = true;
            } else {
                let before = (self.pos, self.buf.len(), self.src.position(), self.started);
                let skipped = self.skip_to_next_header();
                if (self.pos, self.buf.len(), self.src.position(), self.started) == before
                    && self.pos < self.buf.len()
                {
                    // Nothing moved: the next turn would fail the same way, for ever. (No
                    // input is known to get here; this keeps the reader going if one does.)
                    self.pos += 1;
                }
                match skipped {
                    Ok(()) | Err(Bad::Damage | Bad::Format(_)) => {}
                    Err(Bad::Fault(f)) => {
                        let message = self.fault_message(&f);
                        if self.started == self.record_member && !matches!(f, Fault::Io(_)) {
                            // The damage is in the member the record starts in: it is what
                            // made the record unreadable.
                            e.message = message;
                            report = true;
                        } else {
                            self.pending = Some(self.error(self.fault_offset, None, message));
                        }
                        if matches!(f, Fault::Io(_)) {
                            self.done = true;
                        }
                    }
                }
            }
            if report {
                return Some(Err(e));
            }
        }
    }
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
