//! gzip: recognising it and undoing it, for every reader of pages and inputs.
//!
//! gzip is recognised by its magic bytes ([`is_gzip`]), never by a file name. Two readers
//! undo it, for two kinds of caller:
//! - [`lenient`], for inputs (files, standard input, pages handed over as bytes): members
//!   are read one after the other and whatever follows the last one ends the input, as
//!   `gzip -d` does (zero padding silently, anything else with a warning). Errors say that
//!   the gzip data is at fault ("corrupt gzip data: …").
//! - [`strict`], for data that must be gzip to its end (a page given to
//!   [`crate::Options::extract`], an HTTP payload of a WARC record, the first bytes of an
//!   input read ahead): every member is read and bytes after the last one are an error;
//!   the errors are flate2's, for the caller to word.
//!
//! WARC files have their own member-by-member reader (`warc::source`), which needs the
//! offset of each member and resumes after damage; it shares [`MAGIC`] with these.

use std::borrow::Cow;
use std::io::{self, BufRead, Read};

use flate2::bufread::{GzDecoder, MultiGzDecoder};

/// The bytes that start a gzip member.
pub(crate) const MAGIC: [u8; 2] = [0x1f, 0x8b];

/// Whether `data` starts like gzip data (its first two bytes are gzip's magic bytes).
///
/// ```
/// assert!(mainline::internals::input::is_gzip(b"\x1f\x8b\x08\x00"));
/// assert!(!mainline::internals::input::is_gzip(b"<p>plain</p>"));
/// ```
pub fn is_gzip(data: &[u8]) -> bool {
    data.starts_with(&MAGIC)
}

/// Hands a page given whole as bytes to `write`, piece by piece: decompressed when it is
/// gzip ([`is_gzip`]; every member, as [`strict`] reads them), else as it is. This is how
/// the calls that take a page as bytes ([`crate::Options::extract`],
/// [`crate::extract_text`]) read it.
///
/// # Errors
/// [`crate::Error::Gzip`] when the gzip data is corrupt or truncated; what `write` returns.
pub fn feed_page(
    data: &[u8],
    mut write: impl FnMut(&[u8]) -> crate::Result<()>,
) -> crate::Result<()> {
    if !is_gzip(data) {
        return write(data);
    }
    let mut gz = strict(data);
    let mut buf = vec![0u8; 64 * 1024];
    loop {
        let n = match gz.read(&mut buf) {
            Ok(0) => return Ok(()),
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) if e.kind() == io::ErrorKind::UnexpectedEof => {
                return Err(crate::Error::Gzip("the stream is truncated".into()));
            }
            Err(e) => return Err(crate::Error::Gzip(e.to_string())),
        };
        write(&buf[..n])?;
    }
}

/// Receives the warnings about an input that is still read: trailing garbage after gzip
/// data (see [`lenient`]).
pub(crate) type Warn = Box<dyn Fn(&str) + Send + Sync>;

/// A reader over `source`, decompressed when it starts with the gzip magic bytes, else
/// as it is.
///
/// The first two bytes decide, however the stream delivers them (a pipe may hand over one
/// byte first). Concatenated gzip members are one input. After a member, bytes that do not
/// start another member end the input: zero bytes (padding) silently, anything else with a
/// call of `warn` ("trailing garbage"). A corrupt or truncated stream gives an
/// [`io::Error`] of kind `InvalidData` or `UnexpectedEof` whose message starts "corrupt
/// gzip data".
pub(crate) fn lenient<'a>(source: Source<'a>, warn: Warn) -> Box<dyn Read + Send + 'a> {
    let (head, rest) = match peek2(source) {
        Ok(peeked) => peeked,
        // Let the caller see the error on its first read.
        Err(e) => return Box::new(Failing(Some(e))),
    };
    let gzip = head == MAGIC;
    let source: Source<'a> = Box::new(io::Cursor::new(head).chain(rest));
    if gzip {
        Box::new(GzMembers {
            decoder: Some(GzDecoder::new(source)),
            warn,
        })
    } else {
        Box::new(source)
    }
}

/// `data` with gzip undone as [`lenient`] undoes it (borrowed when it is not gzip).
///
/// # Errors
/// Corrupt or truncated gzip data, as [`lenient`] words it.
pub(crate) fn unzip(data: &[u8]) -> io::Result<Cow<'_, [u8]>> {
    if !is_gzip(data) {
        return Ok(Cow::Borrowed(data));
    }
    let mut out = Vec::new();
    lenient(Box::new(data), Box::new(|_| {})).read_to_end(&mut out)?;
    Ok(Cow::Owned(out))
}

/// A reader over the decompressed members of the gzip data `data`, to its end: bytes
/// after the last member that are not another member are an error, as damage is. The
/// errors are flate2's (`UnexpectedEof` for data cut short).
pub fn strict(data: &[u8]) -> MultiGzDecoder<&[u8]> {
    MultiGzDecoder::new(data)
}

/// A buffered byte stream.
type Source<'a> = Box<dyn BufRead + Send + 'a>;

/// Takes up to two bytes off the front of `input` (fewer only at its end), reading as
/// often as needed.
fn peek2(mut input: Source<'_>) -> io::Result<(Vec<u8>, Source<'_>)> {
    let mut head = Vec::with_capacity(2);
    while head.len() < 2 {
        let buf = match input.fill_buf() {
            Ok(buf) => buf,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if buf.is_empty() {
            break;
        }
        let k = (2 - head.len()).min(buf.len());
        head.extend_from_slice(&buf[..k]);
        input.consume(k);
    }
    Ok((head, input))
}

/// A reader whose first read fails (an error met while looking at the first bytes).
struct Failing(Option<io::Error>);

impl Read for Failing {
    fn read(&mut self, _: &mut [u8]) -> io::Result<usize> {
        match self.0.take() {
            Some(e) => Err(e),
            None => Ok(0),
        }
    }
}

/// Decompresses gzip members one after the other, until the input ends or what follows a
/// member is not another one.
struct GzMembers<'a> {
    decoder: Option<GzDecoder<Source<'a>>>,
    warn: Warn,
}

impl Read for GzMembers<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        loop {
            let Some(decoder) = &mut self.decoder else {
                return Ok(0);
            };
            let n = decoder.read(buf).map_err(gzip_error)?;
            if n > 0 || buf.is_empty() {
                return Ok(n);
            }
            // The member has ended: what follows it decides.
            let Some(decoder) = self.decoder.take() else {
                return Ok(0);
            };
            let (head, rest) = peek2(decoder.into_inner())?;
            if head.is_empty() {
                return Ok(0);
            }
            if head == MAGIC {
                let source: Source<'_> = Box::new(io::Cursor::new(head).chain(rest));
                self.decoder = Some(GzDecoder::new(source));
                continue;
            }
            if !only_zeros(&head, rest)? {
                (self.warn)("decompressed the gzip data; trailing garbage after it ignored");
            }
            return Ok(0);
        }
    }
}

/// Whether `head` and the rest of `input` are all zero bytes (padding, as tape archives
/// and some servers add).
fn only_zeros(head: &[u8], mut input: Source<'_>) -> io::Result<bool> {
    if head.iter().any(|&b| b != 0) {
        return Ok(false);
    }
    loop {
        let buf = match input.fill_buf() {
            Ok(buf) => buf,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if buf.is_empty() {
            return Ok(true);
        }
        if buf.iter().any(|&b| b != 0) {
            return Ok(false);
        }
        let n = buf.len();
        input.consume(n);
    }
}

/// Maps flate2's errors to messages that say the gzip data is at fault.
fn gzip_error(e: io::Error) -> io::Error {
    match e.kind() {
        io::ErrorKind::UnexpectedEof => io::Error::new(
            io::ErrorKind::UnexpectedEof,
            "corrupt gzip data: the stream is truncated",
        ),
        io::ErrorKind::InvalidData | io::ErrorKind::InvalidInput => io::Error::new(
            io::ErrorKind::InvalidData,
            format!("corrupt gzip data: {e}"),
        ),
        _ => e,
    }
}
