//! The HTTP response in a WARC `response` record: status, media type, charset, and the
//! payload with its transfer and content encodings undone.

use std::borrow::Cow;
use std::io::Read;

use encoding_rs::Encoding;

use super::{DEFAULT_MAX_PAYLOAD, Record};
use crate::input::looks_like_html;

/// What [`Record::html`] accepts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HtmlOptions {
    /// Also read responses whose HTTP status is not 2xx (default: skip them).
    pub any_status: bool,
    /// Most bytes of a decoded payload kept (default [`DEFAULT_MAX_PAYLOAD`]); a longer
    /// one is cut and [`Html::cut`] set.
    pub max_payload: usize,
}

impl Default for HtmlOptions {
    fn default() -> Self {
        HtmlOptions {
            any_status: false,
            max_payload: DEFAULT_MAX_PAYLOAD,
        }
    }
}

/// What a record holds, as far as HTML goes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Content<'a> {
    /// An HTML page.
    Html(Html<'a>),
    /// No HTML page, and why.
    Skip(Skip),
}

/// Why a record holds no HTML page to read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Skip {
    /// The record is not a `response` (its `WARC-Type`: `request`, `metadata`, `revisit`,
    /// `warcinfo`, …).
    Record(String),
    /// The HTTP status is not 2xx (see [`HtmlOptions::any_status`]).
    Status(u16),
    /// The payload is not HTML: its media type (`image/png`, `application/pdf`, …), or
    /// `unknown` when there was none and the payload does not look like HTML.
    NotHtml(String),
}

impl Skip {
    /// A short name for counting skipped records: the record type, `status`, or
    /// `not HTML`.
    pub fn category(&self) -> &str {
        match self {
            Skip::Record(kind) if kind.is_empty() => "untyped",
            Skip::Record(kind) => kind,
            Skip::Status(_) => "non-2xx status",
            Skip::NotHtml(_) => "not HTML",
        }
    }
}

/// An HTML page taken out of a `response` record.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Html<'a> {
    /// The HTTP status code.
    pub status: u16,
    /// The encoding named by the `charset` of the HTTP `Content-Type`, if it names one
    /// that exists.
    pub charset: Option<&'static Encoding>,
    /// The payload: chunked transfer encoding and content encodings undone (borrowed
    /// from the record when there were none).
    pub body: Cow<'a, [u8]>,
    /// Whether the payload is only the beginning of the page: the record's block was
    /// longer than the reader's cap, or the decoded payload longer than
    /// [`HtmlOptions::max_payload`].
    pub cut: bool,
}

impl Html<'_> {
    /// The page, read as every container's pages are ([`crate::source::Page`]): its
    /// charset the HTTP header's, which comes after a byte order mark and before a
    /// `<meta charset>`; its URL `url` (the record's target URI).
    ///
    /// ```
    /// use std::sync::Arc;
    /// use mainline::{Extractor, Threshold};
    /// use mainline::warc::Html;
    /// let mut ex = Extractor::new(Arc::new(Threshold(0.5)));
    /// for (body, text) in [(&b"<p>caf\xe9</p>"[..], "café"), (b"<p>cr\xe8me</p>", "crème")] {
    ///     let html = Html { status: 200, charset: Some(encoding_rs::WINDOWS_1252), body: body.into(), cut: false };
    ///     assert_eq!(html.page(None).text(&mut ex)?, text);
    /// }
    /// # Ok::<(), mainline::Error>(())
    /// ```
    pub fn page<'p>(&'p self, url: Option<&'p str>) -> crate::source::Page<'p> {
        crate::source::Page::bytes(&self.body)
            .charset(self.charset)
            .url(url)
    }
}

impl Content<'_> {
    /// The same content, owning its page (to keep it after its record is gone).
    pub fn into_owned(self) -> Content<'static> {
        match self {
            Content::Html(html) => Content::Html(html.into_owned()),
            Content::Skip(why) => Content::Skip(why),
        }
    }
}

impl Html<'_> {
    /// The same page, owning its payload (to keep it after its record is gone).
    pub fn into_owned(self) -> Html<'static> {
        Html {
            status: self.status,
            charset: self.charset,
            body: Cow::Owned(self.body.into_owned()),
            cut: self.cut,
        }
    }
}

/// The HTML page in `record`, or why there is none.
pub fn html<'a>(record: &'a Record, options: &HtmlOptions) -> Result<Content<'a>, String> {
    if !record.kind().eq_ignore_ascii_case("response") {
        return Ok(Content::Skip(Skip::Record(
            record.kind().to_ascii_lowercase(),
        )));
    }
    let block = record.block();
    let mut cut = record.is_cut();
    if !block.starts_with(b"HTTP/") {
        return Err("the response record does not hold an HTTP response".into());
    }
    let Some(end) = header_end(block) else {
        return Err(if cut {
            "the HTTP header is longer than the record cap".into()
        } else {
            "the HTTP header has no end".into()
        });
    };
    let head = String::from_utf8_lossy(&block[..end]);
    let mut lines = head.split('\n').map(|l| l.strip_suffix('\r').unwrap_or(l));
    let status_line = lines.next().unwrap_or("");
    let status = status_line
        .split_ascii_whitespace()
        .nth(1)
        .and_then(|s| s.parse::<u16>().ok())
        .filter(|s| (100..1000).contains(s))
        .ok_or_else(|| format!("no HTTP status in {status_line:?}"))?;
    if !(200..300).contains(&status) && !options.any_status {
        return Ok(Content::Skip(Skip::Status(status)));
    }
    let mut content_type = None;
    let mut transfer = String::new();
    let mut coding = String::new();
    for line in lines {
        let Some((k, v)) = line.split_once(':') else {
            continue;
        };
        let (k, v) = (k.trim(), v.trim());
        if k.eq_ignore_ascii_case("content-type") {
            // NOTE: the last one wins, as in browsers.
            content_type = Some(v.to_string());
        } else if k.eq_ignore_ascii_case("transfer-encoding") {
            push_list(&mut transfer, v);
        } else if k.eq_ignore_ascii_case("content-encoding") {
            push_list(&mut coding, v);
        }
    }
    let (media, charset) = match &content_type {
        Some(ct) => parse_content_type(ct),
        None => (String::new(), None),
    };
    // Without a Content-Type, Common Crawl's identified type, else the payload decides.
    let media = if media.is_empty() {
        record
            .header("WARC-Identified-Payload-Type")
            .map(|t| parse_content_type(t).0)
            .unwrap_or_default()
    } else {
        media
    };
    if !media.is_empty() && !is_html_type(&media) {
        return Ok(Content::Skip(Skip::NotHtml(media)));
    }
    let mut body = Cow::Borrowed(&block[end..]);
    if transfer
        .split(',')
        .any(|t| t.trim().eq_ignore_ascii_case("chunked"))
    {
        body = dechunk(&block[end..], cut)?;
    }
    for c in coding.rsplit(',') {
        let c = c.trim().to_ascii_lowercase();
        let decoded = match c.as_str() {
            "" | "identity" | "none" => continue,
            "gzip" | "x-gzip" => {
                if !crate::gzip::is_gzip(&body) {
                    // Stored already decoded (some crawlers keep the header).
                    continue;
                }
                decode(crate::gzip::strict(&body), options, cut)
            }
            "deflate" => decode(flate2::read::ZlibDecoder::new(&body[..]), options, cut)
                .or_else(|_| decode(flate2::read::DeflateDecoder::new(&body[..]), options, cut)),
            "br" => decode(
                brotli_decompressor::Decompressor::new(&body[..], 64 * 1024),
                options,
                cut,
            ),
            other => return Err(format!("unsupported Content-Encoding {other:?}")),
        };
        let (decoded, over) =
            decoded.map_err(|e| format!("the {c} content encoding is damaged: {e}"))?;
        body = Cow::Owned(decoded);
        cut |= over;
    }
    if body.len() > options.max_payload {
        body = match body {
            Cow::Borrowed(b) => Cow::Borrowed(&b[..options.max_payload]),
            Cow::Owned(mut b) => {
                b.truncate(options.max_payload);
                Cow::Owned(b)
            }
        };
        cut = true;
    }
    if media.is_empty() && !looks_like_html(&body) {
        return Ok(Content::Skip(Skip::NotHtml("unknown".into())));
    }
    Ok(Content::Html(Html {
        status,
        charset,
        body,
        cut,
    }))
}

fn push_list(list: &mut String, v: &str) {
    if !list.is_empty() {
        list.push(',');
    }
    list.push_str(v);
}

/// Where the HTTP header ends (after its empty line).
fn header_end(block: &[u8]) -> Option<usize> {
    let crlf = memchr::memmem::find(block, b"\r\n\r\n").map(|i| i + 4);
    let lf = memchr::memmem::find(block, b"\n\n").map(|i| i + 2);
    match (crlf, lf) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    }
}

/// The media type (lower case, no parameters) and the encoding its `charset` names.
fn parse_content_type(ct: &str) -> (String, Option<&'static Encoding>) {
    let mut parts = ct.split(';');
    let media = parts.next().unwrap_or("").trim().to_ascii_lowercase();
    let charset = parts
        .filter_map(|p| p.split_once('='))
        .find(|(k, _)| k.trim().eq_ignore_ascii_case("charset"))
        .and_then(|(_, v)| super::charset(v));
    (media, charset)
}

fn is_html_type(media: &str) -> bool {
    media == "text/html" || media == "application/xhtml+xml"
}

/// Undoes chunked transfer encoding. A payload that does not start with a chunk size but
/// like an HTML page was stored already decoded (some crawlers keep the header) and is
/// returned as it is. A payload cut short by the reader's cap (`cut`) gives what it has.
///
/// # Errors
/// A chunk size that is not a hexadecimal number (or does not fit in 64 bits), a chunk
/// not followed by its line end, a payload that ends before its last (zero-size) chunk.
fn dechunk(data: &[u8], cut: bool) -> Result<Cow<'_, [u8]>, String> {
    if !data.first().is_some_and(u8::is_ascii_hexdigit) && looks_like_html(data) {
        return Ok(Cow::Borrowed(data));
    }
    let mut out = Vec::with_capacity(data.len());
    let mut rest = data;
    let ends_early = |what: &str| format!("bad chunked transfer encoding: the payload ends {what}");
    loop {
        let Some(nl) = memchr::memchr(b'\n', rest) else {
            if cut {
                break;
            }
            return Err(ends_early(if rest.is_empty() {
                "without its last (zero-size) chunk"
            } else {
                "inside a chunk-size line"
            }));
        };
        let line = &rest[..nl];
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        let size = line
            .split(|&b| b == b';')
            .next()
            .unwrap_or(b"")
            .trim_ascii();
        let parsed =
            (!size.is_empty() && size.len() <= 16 && size.iter().all(u8::is_ascii_hexdigit))
                .then(|| std::str::from_utf8(size).ok())
                .flatten()
                .and_then(|s| u64::from_str_radix(s, 16).ok());
        let Some(size) = parsed else {
            let shown: String = String::from_utf8_lossy(line).chars().take(24).collect();
            return Err(format!(
                "bad chunked transfer encoding: the chunk size {shown:?} is not a hexadecimal number of at most 16 digits"
            ));
        };
        rest = &rest[nl + 1..];
        if size == 0 {
            break;
        }
        let size = usize::try_from(size).unwrap_or(usize::MAX);
        if rest.len() < size {
            if cut {
                out.extend_from_slice(rest);
                break;
            }
            return Err(ends_early(&format!(
                "inside a chunk ({} of its {size} bytes)",
                rest.len()
            )));
        }
        out.extend_from_slice(&rest[..size]);
        rest = &rest[size..];
        // The line end after the chunk.
        if let Some(r) = rest
            .strip_prefix(b"\r\n")
            .or_else(|| rest.strip_prefix(b"\n"))
        {
            rest = r;
        } else if !(cut && rest.len() < 2) {
            return Err(format!(
                "bad chunked transfer encoding: a chunk of {size} bytes is not followed by a line end"
            ));
        }
    }
    Ok(Cow::Owned(out))
}

/// Reads a decoder to its end, up to `max_payload` bytes; also says whether there was
/// more. A payload cut short (`cut`) may end inside the compressed data: what was decoded
/// is kept.
fn decode(
    reader: impl Read,
    options: &HtmlOptions,
    cut: bool,
) -> Result<(Vec<u8>, bool), std::io::Error> {
    let mut out = Vec::new();
    let limit = options.max_payload as u64 + 1;
    match reader.take(limit).read_to_end(&mut out) {
        Ok(_) => {}
        Err(e) if cut || (e.kind() == std::io::ErrorKind::UnexpectedEof && !out.is_empty()) => {
            // NOTE: a truncated compressed payload is common in crawls; keep its text.
            let _ = e;
        }
        Err(e) => return Err(e),
    }
    let over = out.len() > options.max_payload;
    if over {
        out.truncate(options.max_payload);
    }
    Ok((out, over))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chunked_payloads_are_joined() {
        let ok = |data: &[u8], cut| dechunk(data, cut).unwrap().into_owned();
        assert_eq!(
            ok(b"5\r\nHello\r\n7;x=y\r\n, world\r\n0\r\n\r\n", false),
            b"Hello, world"
        );
        assert_eq!(ok(b"<html>not chunked", false), b"<html>not chunked");
        // Cut by the reader's cap: what there is.
        assert_eq!(ok(b"5\r\nHel", true), b"Hel");
        assert!(dechunk(b"5\r\nHel", false).is_err());
    }

    #[test]
    fn html_is_sniffed_by_its_first_tag() {
        assert!(looks_like_html(b"\n  <!DOCTYPE html><html>"));
        assert!(looks_like_html(b"<p>text"));
        assert!(!looks_like_html(b"<pre>text"));
        assert!(!looks_like_html(b"%PDF-1.4"));
        assert!(!looks_like_html(b"{\"json\": 1}"));
    }

    #[test]
    fn content_types_give_media_and_charset() {
        let (m, c) = parse_content_type("Text/HTML; Charset=\"ISO-8859-1\"");
        assert_eq!(m, "text/html");
        assert_eq!(c, Some(encoding_rs::WINDOWS_1252));
        assert_eq!(parse_content_type("text/html; charset=nonsense").1, None);
    }
}
