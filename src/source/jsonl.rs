//! JSON lines records as a source of pages: one JSON object with an `html` string a line,
//! read in batches ([`Batches`]) under a memory budget ([`Budget`]), each line a
//! [`Record`] whose page has its `url`, its `id` and its line ([`At::Line`]), the html
//! string checked and decoded piece by piece as it is read ([`Html`]).
//!
//! NOTE: memory: a line is held only up to a cap (the rest of a longer one is read and
//! dropped), a record is not copied (its fields are borrowed from the line as raw JSON
//! text), and its html string is decoded in pieces of at most [`PIECE`] bytes, so a large
//! record is held once.

use std::fmt;
use std::io::{self, BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Condvar, Mutex};

use serde::Deserialize;
use serde::de::{MapAccess, Visitor};
use serde_json::value::RawValue;

use super::{At, Origin, Page};
use crate::input::Input;

/// Most records in one batch.
const BATCH_RECORDS: usize = 256;

/// Most input bytes in one batch (a batch ends after the record that reaches it).
const BATCH_BYTES: usize = 1 << 20;

/// The fields of a JSON object in their order, values as raw JSON text borrowed from the
/// record (a record is not copied: its `html` string is the only large value).
pub struct Fields<'a>(pub Vec<(String, &'a RawValue)>);

impl<'de: 'a, 'a> Deserialize<'de> for Fields<'a> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct FieldsVisitor<'a>(std::marker::PhantomData<&'a ()>);
        impl<'de: 'a, 'a> Visitor<'de> for FieldsVisitor<'a> {
            type Value = Fields<'a>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a JSON object")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Fields<'a>, A::Error> {
                let mut fields = Vec::with_capacity(map.size_hint().unwrap_or(4));
                while let Some(entry) = map.next_entry::<String, &'de RawValue>()? {
                    fields.push(entry);
                }
                Ok(Fields(fields))
            }
        }
        d.deserialize_map(FieldsVisitor(std::marker::PhantomData))
    }
}

/// Most bytes of a record's html handed on at once ([`Html::pieces`]).
pub const PIECE: usize = 64 * 1024;

/// A record's `html` string as it stands in the record: JSON text, escapes and all. Its
/// text is decoded piece by piece as it is read ([`Html::pieces`]), so that a large record
/// is not held a second time, decoded.
#[derive(Debug)]
pub struct Html<'a> {
    /// Between the quotes.
    json: &'a str,
    /// The length of the decoded text.
    len: usize,
}

impl<'a> Html<'a> {
    /// The html field's value, checked: a string whose escapes all decode (`\\uXXXX`
    /// escapes of surrogates in pairs).
    ///
    /// # Errors
    /// Why the value is not such a string, for the record's `error` field.
    pub fn new(raw: &'a RawValue) -> Result<Self, String> {
        let json = raw.get();
        if !json.starts_with('"') {
            return Err("the html field is not a string".to_string());
        }
        // NOTE: the raw value is valid JSON (serde_json checked its quotes, escapes and
        // control characters), so what is left to check is that surrogates come in pairs.
        let inner = &json[1..json.len() - 1];
        let mut len = 0;
        let ok = decode(inner, |piece| {
            len += piece.len();
            Ok::<(), ()>(())
        });
        match ok {
            Ok(()) => Ok(Html { json: inner, len }),
            Err(_) => Err(match lone_surrogate(json) {
                Some((at, escape)) => format!(
                    "the html string has a lone surrogate escape {escape} at byte {at} of the \
                     field (JSON text must pair \\ud800-\\udbff with a following \\udc00-\\udfff)"
                ),
                None => match serde_json::from_str::<String>(json) {
                    Err(e) => format!("the html string is not valid JSON text: {e}"),
                    Ok(_) => "the html string is not valid JSON text".to_string(),
                },
            }),
        }
    }

    /// The length of the decoded text, in bytes.
    pub fn decoded_len(&self) -> usize {
        self.len
    }

    /// The decoded text, whole.
    pub fn decoded(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(self.len);
        let Ok(()) = self.pieces(|p| {
            out.extend_from_slice(p);
            Ok::<(), std::convert::Infallible>(())
        });
        out
    }

    /// Hands the decoded text to `piece` in order, in pieces of at most [`PIECE`] bytes
    /// (cut anywhere, even inside a character); stops at the first error `piece` returns.
    pub fn pieces<E>(&self, mut piece: impl FnMut(&[u8]) -> Result<(), E>) -> Result<(), E> {
        decode(self.json, |p| p.chunks(PIECE).try_for_each(&mut piece)).map_err(|e| match e {
            Decoded::Piece(e) => e,
            Decoded::Bad => unreachable!("checked by Html::new"),
        })
    }
}

/// Why [`decode`] stopped.
enum Decoded<E> {
    /// An escape does not decode (a lone surrogate).
    Bad,
    /// The consumer failed.
    Piece(E),
}

impl<E> From<E> for Decoded<E> {
    fn from(e: E) -> Self {
        Decoded::Piece(e)
    }
}

/// Decodes the inside of a valid JSON string, handing `piece` the runs between escapes
/// as they stand (borrowed) and the escapes decoded, collected in a small buffer.
fn decode<E>(json: &str, mut piece: impl FnMut(&[u8]) -> Result<(), E>) -> Result<(), Decoded<E>> {
    let b = json.as_bytes();
    let mut buf: Vec<u8> = Vec::new();
    let mut i = 0;
    let hex = |at: usize| -> Option<u32> {
        let h = json.get(at..at + 4)?;
        u32::from_str_radix(h, 16).ok()
    };
    while i < b.len() {
        let Some(k) = memchr::memchr(b'\\', &b[i..]) else {
            if !buf.is_empty() {
                piece(&buf)?;
            }
            piece(&b[i..])?;
            return Ok(());
        };
        let run = &b[i..i + k];
        if buf.len() + run.len() > PIECE {
            if !buf.is_empty() {
                piece(&buf)?;
                buf.clear();
            }
            piece(run)?;
        } else {
            buf.extend_from_slice(run);
        }
        let at = i + k;
        let (ch, used) = match b.get(at + 1) {
            Some(b'"') => ('"', 2),
            Some(b'\\') => ('\\', 2),
            Some(b'/') => ('/', 2),
            Some(b'b') => ('\u{8}', 2),
            Some(b'f') => ('\u{c}', 2),
            Some(b'n') => ('\n', 2),
            Some(b'r') => ('\r', 2),
            Some(b't') => ('\t', 2),
            Some(b'u') => {
                let unit = hex(at + 2).ok_or(Decoded::Bad)?;
                match unit {
                    0xd800..=0xdbff => {
                        let low = (b.get(at + 6) == Some(&b'\\') && b.get(at + 7) == Some(&b'u'))
                            .then(|| hex(at + 8))
                            .flatten()
                            .filter(|l| (0xdc00..=0xdfff).contains(l))
                            .ok_or(Decoded::Bad)?;
                        let c = 0x10000 + ((unit - 0xd800) << 10) + (low - 0xdc00);
                        (char::from_u32(c).ok_or(Decoded::Bad)?, 12)
                    }
                    0xdc00..=0xdfff => return Err(Decoded::Bad),
                    _ => (char::from_u32(unit).ok_or(Decoded::Bad)?, 6),
                }
            }
            _ => return Err(Decoded::Bad),
        };
        let mut utf8 = [0u8; 4];
        buf.extend_from_slice(ch.encode_utf8(&mut utf8).as_bytes());
        if buf.len() >= PIECE {
            piece(&buf)?;
            buf.clear();
        }
        i = at + used;
    }
    if !buf.is_empty() {
        piece(&buf)?;
    }
    Ok(())
}

/// The first `\uXXXX` escape in a JSON string that is half of a surrogate pair without the
/// other half, and its byte offset.
fn lone_surrogate(json: &str) -> Option<(usize, &str)> {
    let bytes = json.as_bytes();
    let unit = |at: usize| -> Option<u16> {
        let hex = json.get(at + 2..at + 6)?;
        (bytes.get(at) == Some(&b'\\') && bytes.get(at + 1) == Some(&b'u'))
            .then(|| u16::from_str_radix(hex, 16).ok())
            .flatten()
    };
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] != b'\\' {
            i += 1;
            continue;
        }
        match unit(i) {
            Some(0xd800..=0xdbff) => {
                if !matches!(unit(i + 6), Some(0xdc00..=0xdfff)) {
                    return Some((i, &json[i..i + 6]));
                }
                i += 12;
            }
            Some(0xdc00..=0xdfff) => return Some((i, &json[i..i + 6])),
            Some(_) => i += 6,
            // Any other escape is two characters (`\\`, `\"`, `\n`, ...).
            None => i += 2,
        }
    }
    None
}

/// A record's page for site mode's first pass: its `url` field (when a string) and its
/// `html` field decoded; `None` for a line that is not such a record.
pub fn page_of(line: &[u8]) -> Option<(Option<String>, Vec<u8>)> {
    let Fields(fields) = parse(line).ok()?;
    let html = fields
        .iter()
        .find(|(k, _)| k == "html")
        .and_then(|(_, v)| Html::new(v).ok())?;
    Some((url_of(&fields), html.decoded()))
}

/// The record's `url` field, when it is a string.
pub fn url_of(fields: &[(String, &RawValue)]) -> Option<String> {
    let (_, v) = fields.iter().find(|(k, _)| k == "url")?;
    serde_json::from_str::<String>(v.get()).ok()
}

/// One line of a JSON lines input read as a record: its fields in their order (values as
/// raw JSON text borrowed from the line), and its page: the `html` string at the `url`
/// field, with the `id` field and the line's [`Origin`].
///
/// ```
/// use std::path::Path;
/// use mainline::source::{At, Origin};
/// use mainline::source::jsonl::Record;
/// let line = br#"{"id": "tea", "url": "https://example.org/tea", "html": "<p>Tea.</p>"}"#;
/// let here = Origin { container: Path::new("pages.jsonl"), at: At::Line(7) };
/// let record = Record::parse(line, here)?;
/// assert_eq!(record.fields.len(), 3);
/// let page = record.page().expect("an html string");
/// assert_eq!((page.get_id(), page.get_url()), (Some("tea"), Some("https://example.org/tea")));
/// assert_eq!((page.get_origin(), page.len()), (Some(here), 11));
/// # Ok::<(), String>(())
/// ```
pub struct Record<'a> {
    /// The record's fields in their order, values as raw JSON text.
    pub fields: Vec<(String, &'a RawValue)>,
    /// The `html` string, or why the record has none.
    html: Result<Html<'a>, String>,
    url: Option<String>,
    id: Option<String>,
    origin: Origin<'a>,
}

impl<'a> Record<'a> {
    /// The record of `line` (without its line end), which is at `origin`. Its id is its
    /// `id` field: a string, or a number as it is written.
    ///
    /// # Errors
    /// As [`parse`]: why the line is not a record.
    pub fn parse(line: &'a [u8], origin: Origin<'a>) -> Result<Self, String> {
        let Fields(fields) = parse(line)?;
        let html = match fields.iter().find(|(k, _)| k == "html") {
            None => Err("the record has no html field".to_string()),
            Some((_, v)) => Html::new(v),
        };
        let id = fields.iter().find(|(k, _)| k == "id").and_then(|(_, v)| {
            let raw = v.get();
            match raw.as_bytes().first() {
                Some(b'"') => serde_json::from_str::<String>(raw).ok(),
                Some(b'-' | b'0'..=b'9') => Some(raw.to_string()),
                _ => None,
            }
        });
        Ok(Record {
            url: url_of(&fields),
            fields,
            html,
            id,
            origin,
        })
    }

    /// The record's `html` string, or why it has none (no such field, not a string, a
    /// lone surrogate escape), for its `error` field.
    ///
    /// # Errors
    /// Why the record has no page.
    pub fn html(&self) -> Result<&Html<'a>, &str> {
        self.html.as_ref().map_err(String::as_str)
    }

    /// The record's page ([`Page::json_string`]) at its `url`, with its id and origin.
    ///
    /// # Errors
    /// As [`Record::html`].
    pub fn page(&self) -> Result<Page<'_>, &str> {
        Ok(Page::json_string(self.html()?)
            .url(self.url.as_deref())
            .id(self.id.as_deref())
            .origin(Some(self.origin)))
    }
}

/// The fields of a record.
///
/// # Errors
/// Why the line is not a record (an empty line, not UTF-8, not a JSON object), for the
/// record's `error` field.
pub fn parse(line: &[u8]) -> Result<Fields<'_>, String> {
    if line.iter().all(u8::is_ascii_whitespace) {
        Err("empty line".to_string())
    } else {
        std::str::from_utf8(line)
            .map_err(|e| format!("not UTF-8: {e}"))
            .and_then(|s| {
                serde_json::from_str::<Fields>(s).map_err(|e| format!("not a JSON object: {e}"))
            })
    }
}

/// One input line.
pub enum Line {
    /// The line, without its line end.
    Record(Vec<u8>),
    /// A line longer than the cap: how many bytes it had (read and dropped).
    TooLong(u64),
}

/// The lines of the inputs in batches: each batch is a job for one thread.
///
/// NOTE: memory: a line is held only up to the cap (the rest of a longer one is read and
/// dropped), and batches are handed out only while the bytes of those not yet finished
/// stay within a budget ([`Budget`]), so a run of large records is not queued up whole for
/// the threads.
pub struct Batches {
    inputs: std::vec::IntoIter<Result<PathBuf, (PathBuf, crate::Error)>>,
    open: fn(&Path) -> crate::Result<Input>,
    current: Option<Current>,
    /// A read error to report after the lines read before it.
    failure: Option<Batch>,
    max_record: usize,
    budget: Arc<Budget>,
}

/// One item of [`Batches`].
pub enum Batch {
    /// Lines, and their claim on the budget (given back when the batch is dropped).
    Lines(Lines, Ticket),
    /// An input that could not be opened or read to its end (after the lines read).
    Failed(PathBuf, crate::Error),
}

/// Lines of one input that follow each other.
pub struct Lines {
    /// The input.
    pub input: Arc<Path>,
    /// The number of the first line in the input, counted from 1.
    pub first: u64,
    /// The lines.
    pub lines: Vec<Line>,
}

impl Lines {
    /// The lines, each with where it is ([`At::Line`] of [`Lines::input`]).
    pub fn iter(&self) -> impl Iterator<Item = (Origin<'_>, &Line)> {
        (self.first..).zip(&self.lines).map(|(n, line)| {
            let origin = Origin {
                container: &self.input,
                at: At::Line(n),
            };
            (origin, line)
        })
    }
}

/// Bytes of the batches handed out and not yet finished, and how many may be.
pub struct Budget {
    limit: usize,
    held: Mutex<usize>,
    freed: Condvar,
}

impl Budget {
    /// A budget of `limit` bytes. A batch larger than that is handed out when no other is
    /// held.
    pub fn new(limit: usize) -> Arc<Self> {
        Arc::new(Budget {
            limit,
            held: Mutex::new(0),
            freed: Condvar::new(),
        })
    }

    /// Waits until `bytes` more fit, and claims them.
    fn claim(self: &Arc<Self>, bytes: usize) -> Ticket {
        let mut held = self.held.lock().unwrap_or_else(|e| e.into_inner());
        while *held > 0 && *held + bytes > self.limit {
            held = self.freed.wait(held).unwrap_or_else(|e| e.into_inner());
        }
        *held += bytes;
        Ticket {
            budget: Arc::clone(self),
            bytes,
        }
    }
}

/// A batch's claim on the [`Budget`], given back when it is dropped.
pub struct Ticket {
    budget: Arc<Budget>,
    bytes: usize,
}

impl Drop for Ticket {
    fn drop(&mut self) {
        let mut held = self.budget.held.lock().unwrap_or_else(|e| e.into_inner());
        *held -= self.bytes;
        self.budget.freed.notify_all();
    }
}

impl Batches {
    /// Batches of the lines of `inputs`, opened by `open` ([`super::open`]: gzip
    /// undone) and read one after the other; an input given as an error fails in its
    /// turn. Lines longer than `max_record` bytes are dropped ([`Line::TooLong`]); at most
    /// `budget` bytes of lines are handed out and unfinished at a time (or one batch,
    /// however large).
    ///
    /// ```
    /// use mainline::source::jsonl::{Batch, Batches, Line};
    /// let path = std::env::temp_dir().join(format!("mainline-doc-{}.jsonl", std::process::id()));
    /// std::fs::write(&path, "{\"html\": \"<p>a</p>\"}\n{}\n")?;
    /// let mut lines = 0;
    /// for batch in Batches::new(vec![Ok(path.clone())], mainline::source::open, 1 << 20, 1 << 20) {
    ///     let Batch::Lines(batch, _ticket) = batch else { panic!("a failed input") };
    ///     lines += batch.lines.iter().filter(|l| matches!(l, Line::Record(_))).count();
    /// }
    /// std::fs::remove_file(&path)?;
    /// assert_eq!(lines, 2);
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn new(
        inputs: Vec<Result<PathBuf, (PathBuf, crate::Error)>>,
        open: fn(&Path) -> crate::Result<Input>,
        max_record: usize,
        budget: usize,
    ) -> Self {
        Batches {
            inputs: inputs.into_iter(),
            open,
            current: None,
            failure: None,
            max_record,
            budget: Budget::new(budget),
        }
    }

    fn hand_out(&self, lines: Lines, bytes: usize) -> Batch {
        Batch::Lines(lines, self.budget.claim(bytes))
    }
}

/// The input being read.
struct Current {
    path: Arc<Path>,
    reader: BufReader<Input>,
    /// Lines read from it so far.
    lines: u64,
}

impl Iterator for Batches {
    type Item = Batch;

    fn next(&mut self) -> Option<Batch> {
        if let Some(failure) = self.failure.take() {
            return Some(failure);
        }
        // The lines of the batch, from one input: a batch ends with its input.
        let mut batch: Option<Lines> = None;
        let mut bytes = 0;
        loop {
            let Some(current) = &mut self.current else {
                let path = match self.inputs.next() {
                    Some(Ok(path)) => path,
                    Some(Err((path, error))) => return Some(Batch::Failed(path, error)),
                    None => return batch.map(|b| self.hand_out(b, bytes)),
                };
                match (self.open)(&path) {
                    Ok(input) => {
                        self.current = Some(Current {
                            path: path.into(),
                            reader: BufReader::with_capacity(1 << 16, input),
                            lines: 0,
                        })
                    }
                    Err(e) => return Some(Batch::Failed(path, e)),
                }
                continue;
            };
            // NOTE: hand on what has been read before a read that may wait for more input
            // (a pipe fed slowly), so that records do not wait for a full batch.
            if batch.is_some() && !current.reader.buffer().contains(&b'\n') {
                return batch.map(|b| self.hand_out(b, bytes));
            }
            match read_line(&mut current.reader, self.max_record) {
                Ok(None) => {
                    self.current = None;
                    if let Some(b) = batch {
                        return Some(self.hand_out(b, bytes));
                    }
                }
                Ok(Some(line)) => {
                    bytes += match &line {
                        Line::Record(l) => l.len() + 1,
                        Line::TooLong(_) => 1,
                    };
                    current.lines += 1;
                    let lines = &mut batch
                        .get_or_insert_with(|| Lines {
                            input: Arc::clone(&current.path),
                            first: current.lines,
                            lines: Vec::new(),
                        })
                        .lines;
                    lines.push(line);
                    if lines.len() >= BATCH_RECORDS || bytes >= BATCH_BYTES {
                        return batch.map(|b| self.hand_out(b, bytes));
                    }
                }
                Err(e) => {
                    let failure = Batch::Failed(current.path.to_path_buf(), e.into());
                    self.current = None;
                    let Some(b) = batch else {
                        return Some(failure);
                    };
                    self.failure = Some(failure);
                    return Some(self.hand_out(b, bytes));
                }
            }
        }
    }
}

/// Reads one line without its `\n` (or `\r\n`), holding at most `cap` bytes of it: a
/// longer line is read to its end and dropped (its length without the `\n` is kept).
/// `None` at the end of the input.
pub fn read_line(reader: &mut impl BufRead, cap: usize) -> io::Result<Option<Line>> {
    let mut line = Vec::new();
    let mut total: u64 = 0;
    let mut too_long = false;
    loop {
        let buf = match reader.fill_buf() {
            Ok(buf) => buf,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if buf.is_empty() {
            if total == 0 {
                return Ok(None);
            }
            break;
        }
        let (piece, used, ended) = match memchr::memchr(b'\n', buf) {
            Some(i) => (&buf[..i], i + 1, true),
            None => (buf, buf.len(), false),
        };
        total += piece.len() as u64;
        if !too_long {
            if line.len() + piece.len() > cap + 1 {
                // NOTE: one byte over the cap is kept, for a `\r` before the `\n`.
                too_long = true;
                line = Vec::new();
            } else {
                line.extend_from_slice(piece);
            }
        }
        reader.consume(used);
        if ended {
            break;
        }
    }
    if too_long {
        return Ok(Some(Line::TooLong(total)));
    }
    if line.last() == Some(&b'\r') {
        line.pop();
    }
    if line.len() > cap {
        return Ok(Some(Line::TooLong(total)));
    }
    Ok(Some(Line::Record(line)))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The decoded text of a record's html.
    fn decoded(html: &Html) -> String {
        let mut text = Vec::new();
        html.pieces(|p| {
            text.extend_from_slice(p);
            Ok::<(), ()>(())
        })
        .unwrap();
        assert_eq!(text.len(), html.decoded_len());
        String::from_utf8(text).unwrap()
    }

    /// `s` as a JSON string whose characters are written as `\\uXXXX` escapes where
    /// `escape` says (surrogate pairs beyond the BMP), else as serde_json writes them.
    fn json_of(s: &str, escape: impl Fn(usize) -> bool) -> String {
        let mut json = String::from("\"");
        for (i, c) in s.chars().enumerate() {
            if escape(i) {
                let mut units = [0u16; 2];
                for u in c.encode_utf16(&mut units) {
                    json.push_str(&format!("\\u{u:04X}"));
                }
            } else {
                let one = serde_json::to_string(&c.to_string()).unwrap();
                json.push_str(&one[1..one.len() - 1]);
            }
        }
        json.push('"');
        json
    }

    proptest::proptest! {
        #[test]
        fn html_strings_decode_in_pieces_as_serde_json_decodes_them(
            s in "(\\PC|[\"\\\\/\\n\\r\\t\\x08\\x0c\\x00-\\x1f]|😀){0,64}",
            every in 1usize..5,
        ) {
            let json = json_of(&s, |i| i % every == 0);
            let raw: &RawValue = serde_json::from_str(&json).unwrap();
            let html = Html::new(raw).unwrap();
            proptest::prop_assert_eq!(decoded(&html), serde_json::from_str::<String>(&json).unwrap());
        }
    }

    #[test]
    fn a_large_html_string_comes_in_pieces_of_at_most_64_kib() {
        let s = "<p class=\"a\">Déjà vu 😀\n</p>\t".repeat(20_000);
        let json = serde_json::to_string(&s).unwrap();
        let raw: &RawValue = serde_json::from_str(&json).unwrap();
        let html = Html::new(raw).unwrap();
        let mut sizes = Vec::new();
        let mut text = Vec::new();
        html.pieces(|p| {
            sizes.push(p.len());
            text.extend_from_slice(p);
            Ok::<(), ()>(())
        })
        .unwrap();
        assert_eq!(text, s.as_bytes());
        assert!(
            sizes.len() > 5 && sizes.iter().all(|&n| n <= PIECE),
            "{sizes:?}"
        );
        let plain = "x".repeat(3 * PIECE + 1);
        let json = serde_json::to_string(&plain).unwrap();
        let raw: &RawValue = serde_json::from_str(&json).unwrap();
        let mut sizes = Vec::new();
        Html::new(raw)
            .unwrap()
            .pieces(|p| {
                sizes.push(p.len());
                Ok::<(), ()>(())
            })
            .unwrap();
        assert_eq!(sizes, [PIECE, PIECE, PIECE, 1]);
    }

    #[test]
    fn a_records_page_has_its_id_and_its_line() {
        let dir = tempfile::tempdir().unwrap();
        let a = dir.path().join("a.jsonl");
        let b = dir.path().join("b.jsonl");
        std::fs::write(&a, "{\"id\": \"x\\u0041\", \"html\": \"<p>a</p>\"}\n\n").unwrap();
        std::fs::write(&b, "{\"html\": 3}\n{\"id\": 12, \"html\": \"\"}\n").unwrap();
        let mut got = Vec::new();
        let inputs = vec![Ok(a.clone()), Ok(b.clone())];
        for batch in Batches::new(inputs, crate::input::open, 1 << 20, 1 << 20) {
            let Batch::Lines(lines, _) = batch else {
                panic!("a failed input")
            };
            for (origin, line) in lines.iter() {
                let Line::Record(line) = line else {
                    panic!("a long line")
                };
                let page = match Record::parse(line, origin) {
                    Err(e) => format!("not a record: {e}"),
                    Ok(r) => match r.page() {
                        Err(e) => format!("no page: {e}"),
                        Ok(p) => {
                            assert_eq!(p.get_origin(), Some(origin));
                            format!("page {:?}", p.get_id())
                        }
                    },
                };
                got.push((origin.container.to_path_buf(), origin.at, page));
            }
        }
        let no_string = "no page: the html field is not a string".to_string();
        assert_eq!(
            got,
            [
                (a.clone(), At::Line(1), "page Some(\"xA\")".to_string()),
                (a, At::Line(2), "not a record: empty line".to_string()),
                (b.clone(), At::Line(1), no_string),
                (b, At::Line(2), "page Some(\"12\")".to_string()),
            ]
        );
    }

    #[test]
    fn batches_keep_every_line_in_order_and_split_large_inputs() {
        let dir = tempfile::tempdir().unwrap();
        let a = dir.path().join("a.jsonl");
        let lines: Vec<String> = (0..600).map(|i| format!("{{\"i\":{i}}}")).collect();
        std::fs::write(&a, lines.join("\r\n") + "\n\n").unwrap();
        let mut got = Vec::new();
        let mut batches = 0;
        let inputs = vec![Ok(a), Ok(dir.path().join("missing.jsonl"))];
        for batch in Batches::new(inputs, crate::input::open, 1 << 20, 1 << 20) {
            match batch {
                Batch::Lines(l, _) => {
                    batches += 1;
                    assert_eq!(l.first, got.len() as u64 + 1);
                    got.extend(l.lines.into_iter().map(|l| match l {
                        Line::Record(l) => String::from_utf8(l).unwrap(),
                        Line::TooLong(n) => format!("too long {n}"),
                    }));
                }
                Batch::Failed(p, _) => got.push(format!("failed {}", p.display())),
            }
        }
        assert!(batches >= 3, "{batches}");
        assert_eq!(got.len(), 602);
        assert_eq!(got[..600], lines[..]);
        assert_eq!(got[600], "");
        assert!(got[601].starts_with("failed") && got[601].ends_with("missing.jsonl"));
    }
}
