//! Input: opening files and streams, transparent gzip, and choosing the character encoding.
//!
//! [`open`] gives a reader over the *decompressed* bytes of a file (or of standard input for
//! `-`): gzip is recognised by its magic bytes, not by the file name, and concatenated gzip
//! members are read as one stream.
//!
//! [`sniff`] decides how the HTML bytes are to be decoded, in the order browsers use: a byte
//! order mark, then a `charset` declared in a `<meta>` element within the first
//! [`PRESCAN_BYTES`] bytes, else a guess from the first [`DETECT_BYTES`] bytes (valid UTF-8 is
//! taken as UTF-8; anything else is left to `chardetng`). A declared legacy encoding that
//! the bytes contradict (the first [`DETECT_BYTES`] are valid UTF-8 with multi-byte
//! sequences, which text in GB2312, ISO-8859-1 or Shift_JIS practically never is) gives way
//! to UTF-8: a page saved as UTF-8 under an old template's `<meta>` is read as its author
//! sees it. Whatever the input encoding, everything mainline outputs is UTF-8.

use std::fs::File;
use std::io::{self, BufReader, Read};
use std::path::Path;
use std::sync::{LazyLock, Mutex};

use encoding_rs::Encoding;
use regex::bytes::Regex;

pub(crate) use crate::gzip::Warn;
pub use crate::gzip::is_gzip;
use crate::{Error, Result, gzip};

/// How many leading bytes are searched for a `<meta charset>` declaration (the HTML
/// standard's prescan length).
pub const PRESCAN_BYTES: usize = 1024;

/// How many leading bytes are looked at to guess the encoding when nothing is declared.
///
/// A bounded prefix: the splitter buffers at most this much before it starts tokenizing.
pub const DETECT_BYTES: usize = 64 * 1024;

/// Where the encoding of a document came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EncodingSource {
    /// A byte order mark at the start of the input.
    Bom,
    /// A charset given with the document from outside it, such as the `charset` of an HTTP
    /// `Content-Type` header ([`sniff_with_transport`]).
    Transport,
    /// A `<meta charset>` or `<meta http-equiv="content-type">` declaration.
    Meta,
    /// No declaration: the bytes were valid UTF-8, or `chardetng` guessed.
    Detected,
    /// Given by the caller (text that is already decoded).
    Given,
    /// A `<meta>` declared this legacy encoding, but the bytes are valid UTF-8 with
    /// multi-byte sequences: they are read as UTF-8.
    Contradicted(&'static Encoding),
}

impl std::fmt::Display for Sniffed {
    /// How the document is decoded and why, for reports: `UTF-8 (byte order mark)`,
    /// `windows-1252 (declared)`, `UTF-8 (detected)`, `UTF-8 (declared GBK, contradicted
    /// by the bytes)`.
    ///
    /// ```
    /// let s = mainline::internals::input::sniff("<meta charset=gb2312><p>中文</p>".as_bytes(), true);
    /// assert_eq!(s.to_string(), "UTF-8 (declared GBK, contradicted by the bytes)");
    /// ```
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let name = self.encoding.name();
        match self.source {
            EncodingSource::Bom => write!(f, "{name} (byte order mark)"),
            EncodingSource::Meta => write!(f, "{name} (declared)"),
            EncodingSource::Detected => write!(f, "{name} (detected)"),
            EncodingSource::Given => write!(f, "{name} (given)"),
            EncodingSource::Transport => write!(f, "{name} (from the transport)"),
            EncodingSource::Contradicted(declared) => write!(
                f,
                "{name} (declared {}, contradicted by the bytes)",
                declared.name()
            ),
        }
    }
}

/// What the first bytes of a document say about UTF-8.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Utf8Evidence {
    /// A byte sequence that is not UTF-8.
    Invalid,
    /// Only ASCII (and perhaps a sequence cut off at the end of an incomplete prefix).
    Ascii,
    /// Valid UTF-8 with at least one multi-byte sequence.
    MultiByte,
}

/// Looks at the first [`DETECT_BYTES`] of `head` (the whole document when `complete`).
pub(crate) fn utf8_evidence(head: &[u8], complete: bool) -> Utf8Evidence {
    let prefix = &head[..head.len().min(DETECT_BYTES)];
    let valid = match std::str::from_utf8(prefix) {
        Ok(_) => prefix.len(),
        // An incomplete sequence cut off at the end of the prefix may still be UTF-8.
        Err(e) if e.error_len().is_none() && !(complete && prefix.len() == head.len()) => {
            e.valid_up_to()
        }
        Err(_) => return Utf8Evidence::Invalid,
    };
    if prefix[..valid].is_ascii() {
        Utf8Evidence::Ascii
    } else {
        Utf8Evidence::MultiByte
    }
}

/// The outcome of [`sniff`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Sniffed {
    /// The encoding to decode the document with.
    pub encoding: &'static Encoding,
    /// How it was found.
    pub source: EncodingSource,
}

/// Chooses the encoding of a document from its first bytes.
///
/// `head` is the start of the document (ideally at least [`DETECT_BYTES`] long, or the
/// whole document if it is shorter); `complete` says whether `head` is the whole document.
/// A byte order mark wins over everything; a declared encoding other than UTF-8 gives way to
/// UTF-8 when the first [`DETECT_BYTES`] are valid UTF-8 with multi-byte sequences
/// ([`EncodingSource::Contradicted`]).
///
/// ```
/// use mainline::internals::input::{sniff, EncodingSource};
/// let s = sniff(b"<meta charset=\"windows-1252\"><p>caf\xe9</p>", true);
/// assert_eq!(s.encoding, encoding_rs::WINDOWS_1252);
/// assert_eq!(s.source, EncodingSource::Meta);
/// let s = sniff("<p>café</p>".as_bytes(), true);
/// assert_eq!(s.encoding, encoding_rs::UTF_8);
/// ```
pub fn sniff(head: &[u8], complete: bool) -> Sniffed {
    if let Some((encoding, _)) = Encoding::for_bom(head) {
        return Sniffed {
            encoding,
            source: EncodingSource::Bom,
        };
    }
    if let Some(encoding) = prescan_meta(&head[..head.len().min(PRESCAN_BYTES)]) {
        if encoding != encoding_rs::UTF_8
            && utf8_evidence(head, complete) == Utf8Evidence::MultiByte
        {
            return Sniffed {
                encoding: encoding_rs::UTF_8,
                source: EncodingSource::Contradicted(encoding),
            };
        }
        return Sniffed {
            encoding,
            source: EncodingSource::Meta,
        };
    }
    let prefix = &head[..head.len().min(DETECT_BYTES)];
    if utf8_evidence(head, complete) != Utf8Evidence::Invalid {
        return Sniffed {
            encoding: encoding_rs::UTF_8,
            source: EncodingSource::Detected,
        };
    }
    let mut detector = chardetng::EncodingDetector::new();
    detector.feed(prefix, complete && prefix.len() == head.len());
    Sniffed {
        encoding: detector.guess(None, true),
        source: EncodingSource::Detected,
    }
}

/// Chooses the encoding of a document that came with a charset from outside it (the
/// `charset` of an HTTP `Content-Type` header, as in a WARC response): a byte order mark
/// still wins, then `transport`, then what [`sniff`] finds. This is the HTML standard's
/// order, in which the transport layer's charset comes before a `<meta>` declaration.
///
/// ```
/// use mainline::internals::input::{sniff_with_transport, EncodingSource};
/// let page = b"<meta charset=utf-8><p>caf\xe9</p>";
/// let s = sniff_with_transport(page, true, Some(encoding_rs::WINDOWS_1252));
/// assert_eq!((s.encoding, s.source), (encoding_rs::WINDOWS_1252, EncodingSource::Transport));
/// assert_eq!(sniff_with_transport(page, true, None).source, EncodingSource::Meta);
/// ```
pub fn sniff_with_transport(
    head: &[u8],
    complete: bool,
    transport: Option<&'static Encoding>,
) -> Sniffed {
    match transport {
        Some(encoding) if Encoding::for_bom(head).is_none() => Sniffed {
            encoding,
            source: EncodingSource::Transport,
        },
        _ => sniff(head, complete),
    }
}

static META: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"(?i-u)<meta\b[^>]*>").expect("static regex is valid"));
static CHARSET: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r#"(?i-u)charset\s*=\s*["']?\s*([a-z0-9_:.\-]+)"#).expect("static regex is valid")
});

/// Finds a charset declared by a `<meta>` element in `head`.
///
/// Covers `<meta charset="X">` and `<meta http-equiv="Content-Type" content="…; charset=X">`.
/// As the HTML standard prescribes, a declared UTF-16 is read as UTF-8 (a page that really is
/// UTF-16 starts with a byte order mark), and `x-user-defined` as windows-1252.
pub(crate) fn prescan_meta(head: &[u8]) -> Option<&'static Encoding> {
    for meta in META.find_iter(head) {
        if let Some(caps) = CHARSET.captures(meta.as_bytes()) {
            if let Some(enc) = Encoding::for_label(&caps[1]) {
                if enc == encoding_rs::UTF_16LE || enc == encoding_rs::UTF_16BE {
                    return Some(encoding_rs::UTF_8);
                }
                if enc == encoding_rs::X_USER_DEFINED {
                    return Some(encoding_rs::WINDOWS_1252);
                }
                return Some(enc);
            }
        }
    }
    None
}

/// Signatures of common binary formats, checked at the start of the (decompressed) input.
const BINARY_MAGIC: &[(&[u8], &str)] = &[
    (b"\x89PNG\r\n\x1a\n", "PNG image"),
    (b"\xff\xd8\xff", "JPEG image"),
    (b"GIF87a", "GIF image"),
    (b"GIF89a", "GIF image"),
    (b"RIFF", "RIFF media (WebP, WAV or AVI)"),
    (b"%PDF-", "PDF document"),
    (b"PK\x03\x04", "ZIP archive (or a file format built on ZIP)"),
    (b"PK\x05\x06", "ZIP archive"),
    (b"\x7fELF", "ELF executable"),
    (b"\x00\x00\x01\x00", "icon image"),
    (b"\x1f\x8b", "gzip data nested in gzip data"),
    (b"BZh", "bzip2 data"),
    (b"\xfd7zXZ\x00", "xz data"),
    (b"7z\xbc\xaf\x27\x1c", "7-zip archive"),
    (b"\x28\xb5\x2f\xfd", "zstd data"),
    (b"wOFF", "WOFF font"),
    (b"wOF2", "WOFF2 font"),
    (b"\x00asm", "WebAssembly module"),
    (b"OggS", "Ogg media"),
    (b"fLaC", "FLAC audio"),
    (b"ID3", "MP3 audio"),
];

/// Recognises input that is certainly not HTML: a known binary signature at the start.
///
/// Returns a short description of what the input looks like. This is deliberately narrow:
/// HTML with stray NUL bytes or invalid UTF-8 is still HTML and is processed, and text
/// with no tags at all is a document of one paragraph. Only inputs that start with the
/// signature of a known binary format (images, archives, executables, media, fonts) are
/// rejected, so the decision is the same however the input is chunked.
///
/// ```
/// assert_eq!(mainline::internals::input::binary_kind(b"\x89PNG\r\n\x1a\n...."), Some("PNG image"));
/// assert_eq!(mainline::internals::input::binary_kind(b"<p>hello</p>"), None);
/// ```
pub fn binary_kind(head: &[u8]) -> Option<&'static str> {
    BINARY_MAGIC
        .iter()
        .find(|(magic, _)| head.starts_with(magic))
        .map(|&(_, what)| what)
}

/// A [`binary_kind`] with its article, for messages: `a PNG image`, `an ELF executable`,
/// `bzip2 data`.
///
/// ```
/// assert_eq!(mainline::internals::input::a_binary_kind("ELF executable"), "an ELF executable");
/// assert_eq!(mainline::internals::input::a_binary_kind("xz data"), "xz data");
/// ```
pub fn a_binary_kind(kind: &str) -> String {
    if [" data", " media", " audio"]
        .iter()
        .any(|w| kind.contains(w))
    {
        return kind.to_string();
    }
    let vowel = kind.starts_with(['A', 'E', 'I', 'O', 'U', 'a', 'e', 'i', 'o', 'u']);
    format!("{} {kind}", if vowel { "an" } else { "a" })
}

/// The longest signature in [`binary_kind`]'s table: how many bytes it needs to decide.
pub const BINARY_MAGIC_BYTES: usize = 8;

/// Whether bytes start like an HTML document, by the WHATWG MIME Sniffing Standard's HTML
/// patterns: after an optional BOM and white space, one of its tags (`<!doctype html`,
/// `<html`, `<head`, `<p`, `<div`, a comment `<!--`, …) in any case, followed by a space
/// or `>`. Used for files without an HTML extension and WARC payloads without a media type.
pub fn looks_like_html(head: &[u8]) -> bool {
    const TAGS: &[&[u8]] = &[
        b"<!doctype html",
        b"<html",
        b"<head",
        b"<script",
        b"<iframe",
        b"<h1",
        b"<div",
        b"<font",
        b"<table",
        b"<a",
        b"<style",
        b"<title",
        b"<b",
        b"<body",
        b"<br",
        b"<p",
        b"<!--",
    ];
    let head = head.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(head);
    let start = head
        .iter()
        .position(|b| !matches!(b, b' ' | b'\t' | b'\n' | b'\x0C' | b'\r'))
        .unwrap_or(head.len());
    let head = &head[start..];
    TAGS.iter().any(|tag| {
        head.len() > tag.len()
            && head[..tag.len()].eq_ignore_ascii_case(tag)
            && matches!(head[tag.len()], b' ' | b'>')
    })
}

/// A reader over the decompressed bytes of an input.
pub type Input = Box<dyn Read + Send>;

/// Opens `path` for reading (`-` is standard input), decompressing gzip transparently.
///
/// Bytes after the last gzip member that do not start another member are ignored without
/// a word (the `mainline` command warns about them).
///
/// ```
/// use std::io::{Read, Write};
///
/// let path = std::env::temp_dir().join(format!("mainline-doc-{}.html.gz", std::process::id()));
/// let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
/// gz.write_all(b"<p>Hello</p>")?;
/// std::fs::write(&path, gz.finish()?)?;
///
/// let mut html = String::new();
/// mainline::source::open(&path)?.read_to_string(&mut html)?;
/// std::fs::remove_file(&path)?;
/// assert_eq!(html, "<p>Hello</p>");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
/// [`Error::Io`] when the file cannot be opened or is a directory.
pub fn open(path: &Path) -> Result<Input> {
    open_with_warnings(path, Box::new(|_| {}))
}

/// As [`open`], handing `warn` a message when the input is read only in part (see
/// [`wrap_with_warnings`]).
///
/// # Errors
/// [`Error::Io`] when the file cannot be opened or is a directory.
pub fn open_with_warnings(path: &Path, warn: Warn) -> Result<Input> {
    Ok(wrap_with_warnings(open_raw(path)?, warn))
}

/// Opens `path` (`-` is standard input) as its raw bytes, gzip or not: for a container
/// that undoes gzip member by member itself (WARC files).
///
/// # Errors
/// [`Error::Io`] when the file cannot be opened or is a directory.
pub(crate) fn open_raw(path: &Path) -> Result<Input> {
    if path.as_os_str() == "-" {
        return Ok(stdin());
    }
    open_file(path)
}

/// Opens the file `path` as its raw bytes (`-` is a file of that name).
///
/// # Errors
/// [`Error::Io`] when the file cannot be opened or is a directory.
pub(crate) fn open_file(path: &Path) -> Result<Input> {
    let file = File::open(path)?;
    if file.metadata()?.is_dir() {
        return Err(Error::Io(io::Error::new(
            io::ErrorKind::IsADirectory,
            "is a directory",
        )));
    }
    Ok(Box::new(file))
}

/// Raw bytes of standard input read ahead by [`stdin_head`], to be read again first.
static STDIN_AHEAD: Mutex<Vec<u8>> = Mutex::new(Vec::new());

/// Most raw bytes [`stdin_head`] reads ahead.
const STDIN_AHEAD_MAX: usize = 64 * 1024;

/// Standard input as raw bytes (not decompressed), beginning with the bytes
/// [`stdin_head`] read ahead, if any. [`open`] reads `-` from here.
pub fn stdin() -> Box<dyn Read + Send> {
    let ahead = std::mem::take(&mut *STDIN_AHEAD.lock().unwrap_or_else(|p| p.into_inner()));
    if ahead.is_empty() {
        Box::new(io::stdin())
    } else {
        Box::new(io::Cursor::new(ahead).chain(io::stdin()))
    }
}

/// The first `n` bytes of standard input after gzip decompression (fewer when the input
/// is shorter, or when its first 64 KiB decompress to less), to tell what it holds
/// before reading it. The raw bytes read for this are kept: [`stdin`] and [`open`] of
/// `-` give them again, so nothing of the input is lost. Corrupt gzip data gives the
/// bytes decompressed before it; reading it again reports the damage.
///
/// # Errors
/// A read error of standard input.
pub fn stdin_head(n: usize) -> io::Result<Vec<u8>> {
    head_of(
        &mut io::stdin(),
        n,
        &mut STDIN_AHEAD.lock().unwrap_or_else(|p| p.into_inner()),
    )
}

/// The first `n` decompressed bytes of `raw`, appending the raw bytes read to `ahead`
/// (which may already hold some).
fn head_of(raw: &mut dyn Read, n: usize, ahead: &mut Vec<u8>) -> io::Result<Vec<u8>> {
    let mut eof = false;
    loop {
        let enough = eof || ahead.len() >= STDIN_AHEAD_MAX;
        if gzip::is_gzip(ahead) {
            let mut out = Vec::with_capacity(n);
            // NOTE: an error here is data cut short (more may come) or damage (reported
            // when the input is read for real); what decompressed before it is kept.
            let _ = gzip::strict(ahead).take(n as u64).read_to_end(&mut out);
            if out.len() >= n || enough {
                return Ok(out);
            }
        } else if ahead.len() >= n || enough {
            return Ok(ahead[..n.min(ahead.len())].to_vec());
        }
        let len = ahead.len();
        ahead.resize(len + 4096, 0);
        let k = loop {
            match raw.read(&mut ahead[len..]) {
                Ok(k) => break k,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => {
                    ahead.truncate(len);
                    return Err(e);
                }
            }
        };
        ahead.truncate(len + k);
        eof = k == 0;
    }
}

/// Wraps a byte stream, decompressing it when it starts with the gzip magic bytes.
///
/// Errors from a corrupt or truncated gzip stream surface as [`io::Error`]s of kind
/// `InvalidData` or `UnexpectedEof` from `read`. Trailing bytes after the gzip data are
/// ignored silently.
pub fn wrap(reader: Box<dyn Read + Send>) -> Input {
    wrap_with_warnings(reader, Box::new(|_| {}))
}

/// Wraps a byte stream as [`wrap`] does, and calls `warn` when bytes after the gzip data
/// are ignored.
///
/// The first two bytes decide whether the input is gzip, however the stream delivers them
/// (a pipe may hand over one byte first). Concatenated gzip members are one input. After a
/// member, bytes that do not start another member end the input, as `gzip -d` does:
/// zero bytes (padding) silently, anything else with a warning ("trailing garbage").
pub fn wrap_with_warnings(reader: Box<dyn Read + Send>, warn: Warn) -> Input {
    gzip::lenient(Box::new(BufReader::with_capacity(64 * 1024, reader)), warn)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A reader that gives one byte per call, like a slow pipe.
    struct OneByOne<'a>(&'a [u8]);
    impl Read for OneByOne<'_> {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            let Some((&b, rest)) = self.0.split_first() else {
                return Ok(0);
            };
            buf[0] = b;
            self.0 = rest;
            Ok(1)
        }
    }

    #[test]
    fn the_head_of_a_stream_is_read_ahead_and_kept() {
        let plain = b"WARC/1.0\r\nWARC-Type: warcinfo\r\n";
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        io::Write::write_all(&mut gz, plain).unwrap();
        let gz = gz.finish().unwrap();
        for raw in [&plain[..], &gz[..]] {
            let mut ahead = Vec::new();
            let head = head_of(&mut OneByOne(raw), 7, &mut ahead).unwrap();
            assert_eq!(head, b"WARC/1.");
            // Only what was needed is read ahead, and those are the input's first bytes.
            assert!(raw.starts_with(&ahead));
            assert!(ahead.len() < raw.len() || raw == &plain[..7]);
        }
        // A short input gives what there is.
        let mut ahead = Vec::new();
        assert_eq!(head_of(&mut &b"<p>"[..], 7, &mut ahead).unwrap(), b"<p>");
        assert_eq!(ahead, b"<p>");
        // Damaged gzip data gives what decompressed before the damage, without an error.
        // (After the 10-byte member header, 0xff starts a block of the reserved type 3.)
        let mut broken = gz[..10].to_vec();
        broken.extend_from_slice(&[0xff; 40]);
        let mut ahead = Vec::new();
        let head = head_of(&mut &broken[..], 7, &mut ahead).unwrap();
        assert!(head.is_empty(), "{head:?}");
        assert_eq!(ahead, broken);
    }
    use std::io::Write;

    #[test]
    fn a_bom_wins_over_a_meta_declaration() {
        let s = sniff(b"\xef\xbb\xbf<meta charset=latin1>", true);
        assert_eq!(s.encoding, encoding_rs::UTF_8);
        assert_eq!(s.source, EncodingSource::Bom);
        let s = sniff(b"\xff\xfe<\x00p\x00", true);
        assert_eq!(s.encoding, encoding_rs::UTF_16LE);
    }

    #[test]
    fn a_legacy_declaration_the_bytes_contradict_gives_way_to_utf8() {
        for label in ["gb2312", "iso-8859-1", "shift_jis", "windows-1252"] {
            let html = format!("<meta charset={label}><p>中文内容 café</p>");
            let s = sniff(html.as_bytes(), true);
            assert_eq!(s.encoding, encoding_rs::UTF_8, "{label}");
            assert!(
                matches!(s.source, EncodingSource::Contradicted(_)),
                "{label}"
            );
        }
        // Text really in the declared encoding, and ASCII, keep the declaration.
        let (gbk, _, _) = encoding_rs::GBK.encode("<meta charset=gb2312><p>中文内容</p>");
        assert_eq!(sniff(&gbk, true).encoding, encoding_rs::GBK);
        let s = sniff(b"<meta charset=iso-8859-1><p>plain</p>", true);
        assert_eq!(
            (s.encoding, s.source),
            (encoding_rs::WINDOWS_1252, EncodingSource::Meta)
        );
        // A byte order mark still wins.
        let s = sniff("\u{feff}<meta charset=gb2312><p>中文</p>".as_bytes(), true);
        assert_eq!(s.source, EncodingSource::Bom);
    }

    #[test]
    fn meta_http_equiv_declarations_are_found() {
        let head = br#"<html><head><META HTTP-EQUIV="Content-Type" CONTENT="text/html; charset=Shift_JIS">"#;
        assert_eq!(prescan_meta(head), Some(encoding_rs::SHIFT_JIS));
    }

    #[test]
    fn a_declared_utf16_is_read_as_utf8() {
        assert_eq!(
            prescan_meta(b"<meta charset=utf-16>"),
            Some(encoding_rs::UTF_8)
        );
    }

    #[test]
    fn a_meta_after_the_prescan_window_is_not_used_by_sniff() {
        let mut head = vec![b' '; PRESCAN_BYTES];
        head.extend_from_slice(b"<meta charset=koi8-r>");
        assert_eq!(sniff(&head, true).source, EncodingSource::Detected);
    }

    #[test]
    fn undeclared_legacy_bytes_are_detected() {
        let text = "<p>Déjà vu, voilà: où est la fenêtre? Très bien, merci à vous.</p>".repeat(20);
        let (bytes, _, _) = encoding_rs::WINDOWS_1252.encode(&text);
        let s = sniff(&bytes, true);
        assert_eq!(s.encoding, encoding_rs::WINDOWS_1252);
        assert_eq!(s.source, EncodingSource::Detected);
    }

    #[test]
    fn a_utf8_sequence_cut_at_the_end_of_a_partial_head_is_still_utf8() {
        let bytes = "ça".as_bytes();
        assert_eq!(sniff(&bytes[..1], false).encoding, encoding_rs::UTF_8);
    }

    #[test]
    fn gzip_input_is_decompressed_by_magic_not_by_name() {
        let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        enc.write_all(b"<p>one</p>").unwrap();
        let mut data = enc.finish().unwrap();
        // A second member: concatenated gzip streams are one input.
        let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        enc.write_all(b"<p>two</p>").unwrap();
        data.extend(enc.finish().unwrap());
        let mut out = String::new();
        wrap(Box::new(io::Cursor::new(data)))
            .read_to_string(&mut out)
            .unwrap();
        assert_eq!(out, "<p>one</p><p>two</p>");
    }

    #[test]
    fn truncated_gzip_is_an_error_that_says_so() {
        let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        enc.write_all(&b"<p>hello</p>".repeat(1000)).unwrap();
        let data = enc.finish().unwrap();
        let mut out = Vec::new();
        let err = wrap(Box::new(io::Cursor::new(data[..data.len() / 2].to_vec())))
            .read_to_end(&mut out)
            .unwrap_err();
        assert!(err.to_string().contains("corrupt gzip"), "{err}");
    }

    #[test]
    fn binary_signatures_are_recognised() {
        assert_eq!(binary_kind(b"%PDF-1.7"), Some("PDF document"));
        assert_eq!(
            binary_kind(b"PK\x03\x04rest"),
            Some("ZIP archive (or a file format built on ZIP)")
        );
        assert_eq!(binary_kind(b"plain text"), None);
    }

    fn gzip(bytes: &[u8]) -> Vec<u8> {
        let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        enc.write_all(bytes).unwrap();
        enc.finish().unwrap()
    }

    /// Reads in pieces of one byte at first, as a slow pipe may deliver them.
    struct Trickle(io::Cursor<Vec<u8>>, usize);

    impl Read for Trickle {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            self.1 += 1;
            let n = if self.1 <= 3 {
                1.min(buf.len())
            } else {
                buf.len()
            };
            self.0.read(&mut buf[..n])
        }
    }

    fn read_warned(data: Vec<u8>, trickle: bool) -> (io::Result<Vec<u8>>, Vec<String>) {
        let warnings = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
        let seen = std::sync::Arc::clone(&warnings);
        let warn: Warn = Box::new(move |m: &str| seen.lock().unwrap().push(m.to_string()));
        let reader: Box<dyn Read + Send> = if trickle {
            Box::new(Trickle(io::Cursor::new(data), 0))
        } else {
            Box::new(io::Cursor::new(data))
        };
        let mut out = Vec::new();
        let result = wrap_with_warnings(reader, warn)
            .read_to_end(&mut out)
            .map(|_| out);
        let warnings = warnings.lock().unwrap().clone();
        (result, warnings)
    }

    #[test]
    fn gzip_is_recognised_when_the_magic_bytes_arrive_one_at_a_time() {
        let (out, warnings) = read_warned(gzip(b"<p>one</p>"), true);
        assert_eq!(out.unwrap(), b"<p>one</p>");
        assert!(warnings.is_empty());
        let (out, _) = read_warned(b"<".to_vec(), true);
        assert_eq!(out.unwrap(), b"<");
        let (out, _) = read_warned(b"\x1f".to_vec(), true);
        assert_eq!(out.unwrap(), b"\x1f");
    }

    #[test]
    fn trailing_garbage_after_gzip_data_is_ignored_with_a_warning() {
        let mut data = gzip(b"<p>one</p>");
        data.extend(gzip(b"<p>two</p>"));
        data.extend_from_slice(b"\n<garbage>");
        let (out, warnings) = read_warned(data, false);
        assert_eq!(out.unwrap(), b"<p>one</p><p>two</p>");
        assert_eq!(warnings.len(), 1);
        assert!(warnings[0].contains("trailing garbage"), "{warnings:?}");
    }

    #[test]
    fn zero_padding_after_gzip_data_is_ignored_quietly() {
        let mut data = gzip(b"<p>one</p>");
        data.extend(vec![0; 100_000]);
        let (out, warnings) = read_warned(data, true);
        assert_eq!(out.unwrap(), b"<p>one</p>");
        assert!(warnings.is_empty(), "{warnings:?}");
        // One magic byte alone at the end is garbage, not a member.
        let mut data = gzip(b"<p>one</p>");
        data.push(0x1f);
        let (out, warnings) = read_warned(data, false);
        assert_eq!(out.unwrap(), b"<p>one</p>");
        assert_eq!(warnings.len(), 1);
    }

    #[test]
    fn a_corrupt_second_member_is_still_an_error() {
        let mut data = gzip(b"<p>one</p>");
        let second = gzip(&b"<p>two</p>".repeat(100));
        data.extend_from_slice(&second[..second.len() / 2]);
        let (out, _) = read_warned(data, false);
        assert!(out.unwrap_err().to_string().contains("corrupt gzip"));
    }
}

/// The examples of this module's documentation, run as tests (the module is internal to
/// the crate, where documentation tests cannot reach).
#[cfg(test)]
mod doc_examples {
    #[test]
    fn doc_input_utf8_evidence() -> Result<(), Box<dyn std::error::Error>> {
        use crate::input::{Utf8Evidence, utf8_evidence};
        assert_eq!(
            utf8_evidence("<p>café</p>".as_bytes(), true),
            Utf8Evidence::MultiByte
        );
        assert_eq!(
            utf8_evidence(b"<p>caf\xe9</p>", true),
            Utf8Evidence::Invalid
        );
        assert_eq!(utf8_evidence(b"<p>cafe</p>", true), Utf8Evidence::Ascii);
        Ok(())
    }

    #[test]
    fn doc_input_looks_like_html() -> Result<(), Box<dyn std::error::Error>> {
        use crate::input::looks_like_html;
        assert!(looks_like_html(b"\n  <!DOCTYPE html><html>"));
        assert!(looks_like_html(b"<!-- saved --><p>text"));
        assert!(!looks_like_html(b"<pre>text"));
        assert!(!looks_like_html(b"{\"json\": 1}"));
        Ok(())
    }

    #[test]
    fn doc_input_wrap_with_warnings() -> Result<(), Box<dyn std::error::Error>> {
        use std::io::{Read, Write};
        use std::sync::{Arc, Mutex};
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        gz.write_all(b"<p>hello</p>")?;
        let mut data = gz.finish()?;
        data.extend_from_slice(b"junk");
        let warnings = Arc::new(Mutex::new(Vec::new()));
        let seen = Arc::clone(&warnings);
        let warn = Box::new(move |m: &str| seen.lock().unwrap().push(m.to_string()));
        let mut text = String::new();
        crate::input::wrap_with_warnings(Box::new(std::io::Cursor::new(data)), warn)
            .read_to_string(&mut text)?;
        assert_eq!(text, "<p>hello</p>");
        assert!(warnings.lock().unwrap()[0].contains("trailing garbage"));
        Ok(())
    }
}
