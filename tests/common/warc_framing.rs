//! WARC files built from a few bytes of description, with what a reader must give back:
//! shared by `tests/warc_framing.rs` (proptest) and the `warc_framing` fuzz target.
//!
//! A file holds 1 to 6 records: `request`-like records with any block, and `response`
//! records with a chunked HTML payload. Any record may have its `Content-Length` altered
//! (larger or smaller than its block) or the CRLF CRLF after its block replaced by a
//! single line end; garbage lines may sit between records; any record may have a bad
//! chunked body (a chunk size `zz`, `-1` or of 21 hex digits, or no last chunk). The file
//! is plain, one gzip member per record, gzip members split anywhere (not at record
//! boundaries, possibly empty), or one member; one member may then be damaged (cut short,
//! its CRC-32 changed, a byte of its deflate data changed).
//!
//! **A well-formed record** is one that starts at the beginning of the file, of a gzip
//! member or of a line; whose header is a `WARC/1.x` line, field lines and an empty line;
//! whose `Content-Length` is a decimal number N, with N bytes of block after the header
//! and then CRLF CRLF; all of whose bytes (header to the CRLF CRLF) lie in gzip members
//! that are whole (a compressed file: members that decompress with the right CRC-32 and
//! length); and that does not lie inside the claimed extent (header, `Content-Length`
//! bytes, CRLF CRLF) of an earlier well-formed record. The check is that every well-formed
//! record comes out of [`mainline::warc::Reader`] exactly once, with its block byte for
//! byte, that its chunked payload decodes to the page when it is well formed and is an
//! error when it is not, and that there are no more error items than damaged things (bad
//! records, garbage, a damaged member).
//!
//! What the reader is promised, and so what the files here keep to: the bytes that are
//! not well-formed records (their blocks, garbage) hold no line that starts `WARC/1.` and
//! no gzip magic bytes (blocks here hold no `W` and no 0x1f byte), and blocks are no
//! longer than the reader's cap (a block over the cap is read past, not kept, so the
//! reader cannot look back into it for the next record). A record whose altered
//! `Content-Length` happens to end where CRLF CRLF follows is well formed by the
//! definition and the records it covers are not; the files here change such a length
//! further instead.
#![allow(dead_code)]

use std::io::Write;

use mainline::warc::{Content, HtmlOptions, Reader};

/// The bytes a case is built from, read one at a time (zeros once they run out).
struct Bytes<'a>(&'a [u8]);

impl Bytes<'_> {
    fn byte(&mut self) -> u8 {
        match self.0.split_first() {
            Some((&b, rest)) => {
                self.0 = rest;
                b
            }
            None => 0,
        }
    }

    fn below(&mut self, n: usize) -> usize {
        usize::from(self.byte()) % n
    }

    /// Content bytes: anything but `W` and 0x1f.
    fn content(&mut self, len: usize) -> Vec<u8> {
        (0..len)
            .map(|_| match self.byte() {
                b'W' => b'w',
                0x1f => b' ',
                b => b,
            })
            .collect()
    }
}

/// One generated record.
#[derive(Debug, Clone)]
pub struct Generated {
    pub id: String,
    pub block: Vec<u8>,
    /// The page a chunked payload decodes to, or `None` for a record that is not a
    /// chunked response; whether the chunked body is broken.
    pub page: Option<Vec<u8>>,
    pub bad_chunks: bool,
    /// Where the record's bytes lie in the decompressed stream.
    pub span: std::ops::Range<usize>,
    /// Whether its framing is altered (a record that is not well formed).
    pub altered: bool,
}

/// A generated WARC file and what it holds.
#[derive(Debug, Clone)]
pub struct Case {
    pub data: Vec<u8>,
    pub records: Vec<Generated>,
    /// How many things are wrong in it: records not well formed, garbage runs, a damaged
    /// member.
    pub damage: usize,
    /// The decompressed ranges of damaged members.
    pub damaged: Vec<std::ops::Range<usize>>,
    pub layout: &'static str,
}

impl Case {
    /// Whether record `i` is well formed (and must come out exactly once).
    pub fn well_formed(&self, i: usize) -> bool {
        let r = &self.records[i];
        !r.altered
            && !self
                .damaged
                .iter()
                .any(|d| d.start < r.span.end && r.span.start < d.end)
    }
}

fn gzip(data: &[u8]) -> Vec<u8> {
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    e.write_all(data).unwrap();
    e.finish().unwrap()
}

fn chunked(b: &mut Bytes, page: &[u8], bad: bool) -> Vec<u8> {
    let mut out = Vec::new();
    let mut rest = page;
    let bad_kind = b.below(4);
    let bad_at = b.below(3);
    let mut n = 0;
    while !rest.is_empty() {
        let size = (1 + b.below(40)).min(rest.len());
        if bad && n == bad_at && bad_kind < 3 {
            out.extend_from_slice([&b"zz"[..], b"-1", b"100000000000000000000"][bad_kind]);
        } else {
            write!(out, "{size:x}").unwrap();
        }
        out.extend_from_slice(b"\r\n");
        out.extend_from_slice(&rest[..size]);
        out.extend_from_slice(b"\r\n");
        rest = &rest[size..];
        n += 1;
    }
    if bad && (bad_kind == 3 || bad_at >= n) {
        // No last chunk.
        return out;
    }
    out.extend_from_slice(b"0\r\n\r\n");
    out
}

/// What a generated record's bytes are made of besides its id and block (kept in its
/// [`Generated`]), before the file is put together.
struct Parts {
    /// Garbage lines before the record.
    garbage: Vec<u8>,
    /// What follows the block: CRLF CRLF, or one line end.
    trailer: &'static [u8],
    /// The Content-Length its header says.
    length: i64,
}

/// Builds a case from any bytes.
pub fn build(input: &[u8]) -> Case {
    let mut b = Bytes(input);
    let count = 1 + b.below(6);
    let mut records = Vec::new();
    let mut damage = 0;
    let mut parts: Vec<Parts> = Vec::new();
    for i in 0..count {
        let mut garbage = Vec::new();
        if b.below(8) == 0 {
            // Garbage lines between records.
            let len = 1 + b.below(30);
            let mut g = b.content(len);
            if g.iter().all(|c| c.is_ascii_whitespace()) {
                g[0] = b'x';
            }
            g.extend_from_slice(b"\r\n");
            // (Garbage that starts with white space then text is one error too.)
            garbage = g;
            damage += 1;
        }
        let id = format!("<urn:uuid:{i}>");
        let response = b.below(3) == 0;
        let (block, page, bad_chunks) = if response {
            let len = 1 + b.below(120);
            let mut page = b"<p>".to_vec();
            page.extend(b.content(len));
            let bad = b.below(4) == 0;
            let body = chunked(&mut b, &page, bad);
            let mut block =
                b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nTransfer-Encoding: chunked\r\n\r\n"
                    .to_vec();
            block.extend_from_slice(&body);
            (block, Some(page), bad)
        } else {
            let len = b.below(200);
            (b.content(len), None, false)
        };
        let alter = b.below(6);
        let delta: i64 = match alter {
            0 => 1 + b.below(40) as i64,
            1 => -(1 + b.below(40) as i64),
            2 => 300 + 7 * b.below(200) as i64,
            _ => 0,
        };
        let bad_trailer = alter == 3 && b.below(2) == 0;
        let length = (block.len() as i64 + delta).max(0);
        let altered = length != block.len() as i64 || bad_trailer;
        if altered {
            damage += 1;
        }
        let trailer: &'static [u8] = if bad_trailer { b"\r\n" } else { b"\r\n\r\n" };
        records.push(Generated {
            id,
            block,
            page,
            bad_chunks,
            span: 0..0,
            altered,
        });
        parts.push(Parts {
            garbage,
            trailer,
            length,
        });
    }
    // An altered length must not end where CRLF CRLF follows (see the module
    // documentation): grow it until it does not. A header's length in digits may change,
    // which moves what follows and so where the lengths before it end: the file is built
    // again until no altered length ends there.
    let stream = loop {
        let mut stream = Vec::new();
        let mut ends = Vec::new();
        for (i, p) in parts.iter().enumerate() {
            let length = p.length;
            // (Responses are the records with a chunked page.)
            let kind = if records[i].page.is_some() {
                "response"
            } else {
                "request"
            };
            stream.extend_from_slice(&p.garbage);
            let start = stream.len();
            let id = &records[i].id;
            write!(
                stream,
                "WARC/1.0\r\nWARC-Type: {kind}\r\nWARC-Record-ID: {id}\r\n\
                 WARC-Target-URI: https://example.org/{i}\r\nContent-Length: {length}\r\n\r\n"
            )
            .unwrap();
            ends.push(stream.len() + length as usize);
            stream.extend_from_slice(&records[i].block);
            stream.extend_from_slice(p.trailer);
            records[i].span = start..stream.len();
        }
        let mut grown = false;
        for (i, end) in ends.into_iter().enumerate() {
            let p = &mut parts[i];
            if p.length != records[i].block.len() as i64
                && stream.get(end..end + 4) == Some(&b"\r\n\r\n"[..])
            {
                p.length += 1;
                grown = true;
            }
        }
        if !grown {
            break stream;
        }
    };

    let layout = b.below(4);
    let mut damaged = Vec::new();
    let (data, layout) = if layout == 0 {
        (stream, "plain")
    } else {
        // Member boundaries in the stream.
        let mut cuts: Vec<usize> = match layout {
            1 => records.iter().map(|r| r.span.end).collect(),
            2 => {
                let n = b.below(6);
                (0..n)
                    .map(|_| {
                        ((usize::from(b.byte()) << 8) | usize::from(b.byte())) % (stream.len() + 1)
                    })
                    .collect()
            }
            _ => Vec::new(),
        };
        cuts.push(0);
        cuts.push(stream.len());
        cuts.sort_unstable();
        if layout == 1 {
            cuts.dedup();
        }
        let mut members: Vec<Vec<u8>> =
            cuts.windows(2).map(|w| gzip(&stream[w[0]..w[1]])).collect();
        if b.below(3) == 0 {
            let m = b.below(members.len());
            let member = &mut members[m];
            let n = member.len();
            match b.below(3) {
                0 => member.truncate(n - 1 - b.below(n - 1).min(n - 11)),
                1 => member[n - 8 + b.below(4)] ^= 1 + b.below(255) as u8,
                _ => {
                    let at = 10 + b.below(n - 18);
                    member[at] ^= 1 + b.below(255) as u8;
                }
            }
            damaged.push(cuts[m]..cuts[m + 1]);
            damage += 1;
        }
        (
            members.concat(),
            ["plain", "per-record members", "split members", "one member"][layout],
        )
    };
    Case {
        data,
        records,
        damage,
        damaged,
        layout,
    }
}

/// Reads the case's file and checks it (see the module documentation).
pub fn check(case: &Case) -> Result<(), String> {
    let mut seen = vec![0usize; case.records.len()];
    let mut errors = Vec::new();
    for r in Reader::new(&case.data[..]) {
        let r = match r {
            Ok(r) => r,
            Err(e) => {
                errors.push(e.to_string());
                continue;
            }
        };
        let Some(i) = case
            .records
            .iter()
            .position(|g| Some(g.id.as_str()) == r.id())
        else {
            continue;
        };
        let g = &case.records[i];
        if r.block() != &g.block[..] {
            if case.well_formed(i) {
                return Err(format!("record {i} came out with another block"));
            }
            continue;
        }
        seen[i] += 1;
        if let Some(page) = &g.page {
            match r.html(&HtmlOptions::default()) {
                Ok(Content::Html(h)) if !g.bad_chunks => {
                    if h.body != &page[..] {
                        return Err(format!("record {i}: the chunked payload decodes wrong"));
                    }
                }
                Err(_) if g.bad_chunks => {}
                other => {
                    return Err(format!(
                        "record {i} (bad chunks: {}): {:?}",
                        g.bad_chunks,
                        other.map(Content::into_owned)
                    ));
                }
            }
        }
    }
    for (i, n) in seen.iter().enumerate() {
        if case.well_formed(i) && *n != 1 {
            return Err(format!(
                "well-formed record {i} came out {n} times ({}; errors: {errors:?})",
                case.layout
            ));
        }
        if *n > 1 {
            return Err(format!("record {i} came out {n} times"));
        }
    }
    if errors.len() > case.damage {
        return Err(format!(
            "{} errors for {} damaged things ({}): {errors:?}",
            errors.len(),
            case.damage,
            case.layout
        ));
    }
    Ok(())
}
