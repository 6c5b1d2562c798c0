//! WARC files as a source of pages: records read in batches ([`batch`], [`Batches`] over
//! several files), and what one record gives ([`read`]): a page, a record skipped, or an
//! error with what is known of the record.
//!
//! The contract every caller keeps (the `mainline` command's `--input-format warc` and
//! Python's `iter_warc`):
//!
//! - a `response` record whose HTTP payload is HTML is a page: its text (or whatever the
//!   caller makes of it) with the record's `WARC-Record-ID`, `WARC-Target-URI` and
//!   `WARC-Date`; its [`Page`] has the id, the URI and the record's offset ([`At::Offset`]);
//! - other records (requests, metadata, revisits, other media types, non-2xx responses)
//!   are skipped and counted by kind ([`Skip::category`]);
//! - a record that cannot be read or decoded is an error with its offset and the fields
//!   known of it; a payload over the cap gives the page of its beginning and an error
//!   saying it was cut. The file is read on from the next record.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use super::{At, Origin, Page};
use crate::warc::{Content, Html, HtmlOptions, Reader, Record, RecordError};

#[cfg(doc)]
use crate::warc::Skip;

/// Records in one batch at most.
pub const BATCH_RECORDS: usize = 64;

/// Block bytes in one batch (a batch ends after the record that reaches it).
pub const BATCH_BYTES: usize = 512 * 1024;

/// Largest block of a record whose buffer is given back to the reader ([`Spares`]).
const SPARE_BLOCK: usize = 1024 * 1024;

/// The next records of `reader`: [`BATCH_RECORDS`] of them, or fewer whose blocks reach
/// [`BATCH_BYTES`]; none at the end of the file.
///
/// ```
/// use mainline::source::warc::batch;
/// use mainline::warc::Reader;
/// let file = b"WARC/1.0\r\nWARC-Type: request\r\nContent-Length: 0\r\n\r\n\r\n\r\n";
/// let mut reader = Reader::new(&file[..]);
/// assert_eq!(batch(&mut reader).len(), 1);
/// assert!(batch(&mut reader).is_empty());
/// ```
pub fn batch<R: Read>(reader: &mut Reader<R>) -> Vec<Result<Record, RecordError>> {
    let mut records = Vec::new();
    let mut bytes = 0;
    for r in reader.by_ref() {
        bytes += r.as_ref().map_or(0, |r| r.block().len());
        records.push(r);
        if records.len() >= BATCH_RECORDS || bytes >= BATCH_BYTES {
            break;
        }
    }
    records
}

/// A reader of the WARC file `path` (a file; `-` is a file of that name), its records'
/// blocks cut at `max_block` bytes ([`Reader::max_block`]).
///
/// # Errors
/// [`crate::Error::Io`] when the file cannot be opened or is a directory.
pub fn open(path: &Path, max_block: usize) -> crate::Result<Reader<crate::input::Input>> {
    Ok(Reader::new(crate::input::open_file(path)?).max_block(max_block))
}

/// What one record gives.
#[derive(Debug)]
pub enum Outcome<T> {
    /// An HTML response: what was made of its page (`None` when that failed), and the
    /// error of the record (why its page failed, or that its payload was cut).
    Page {
        /// Bytes of the decoded payload.
        html_bytes: u64,
        /// What the caller made of the page.
        value: Option<T>,
        /// The record's error, if any.
        error: Option<String>,
    },
    /// No page: the kind of record skipped ([`Skip::category`]).
    Skipped(String),
    /// The record's payload could not be decoded.
    Failed(RecordError),
}

/// What `record` of the file `container` gives, making of its page what `page` makes of
/// it: `page` has the record's HTML and its [`Page`], at the record's target URI, with its
/// `WARC-Record-ID` ([`Page::get_id`]) and its offset in `container` ([`At::Offset`]).
///
/// ```
/// use std::path::Path;
/// use mainline::source::At;
/// use mainline::source::warc::{Outcome, read};
/// use mainline::warc::{HtmlOptions, Reader};
/// let file = b"WARC/1.0\r\nWARC-Type: response\r\nWARC-Target-URI: https://example.com/\r\n\
///     WARC-Record-ID: <urn:uuid:1>\r\n\
///     Content-Type: application/http; msgtype=response\r\nContent-Length: 56\r\n\r\n\
///     HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n<p>Hello</p>\r\n\r\n";
/// let record = Reader::new(&file[..]).next().unwrap().unwrap();
/// let got = read(&record, &HtmlOptions::default(), Path::new("a.warc"), |html, page| {
///     let origin = page.get_origin().expect("a record's page has its origin");
///     assert_eq!((origin.container, origin.at), (Path::new("a.warc"), At::Offset(0)));
///     Ok((html.body.len(), page.get_url().map(str::to_string), page.get_id().map(str::to_string)))
/// });
/// let Outcome::Page { value: Some((12, Some(url), Some(id))), error: None, .. } = got else {
///     panic!("{got:?}")
/// };
/// assert_eq!((url.as_str(), id.as_str()), ("https://example.com/", "<urn:uuid:1>"));
/// ```
pub fn read<T>(
    record: &Record,
    options: &HtmlOptions,
    container: &Path,
    page: impl FnOnce(&Html<'_>, Page<'_>) -> Result<T, String>,
) -> Outcome<T> {
    match record.html(options) {
        Ok(Content::Skip(why)) => Outcome::Skipped(why.category().to_string()),
        Err(message) => Outcome::Failed(record.error(message)),
        Ok(Content::Html(html)) => {
            let origin = Origin {
                container,
                at: At::Offset(record.offset()),
            };
            let of = html
                .page(record.target_uri())
                .id(record.id())
                .origin(Some(origin));
            let value = page(&html, of);
            let (value, error) = match (value, html.cut) {
                (Err(e), _) => (None, Some(e)),
                (Ok(v), true) => (Some(v), Some(record.cut_message(options))),
                (Ok(v), false) => (Some(v), None),
            };
            Outcome::Page {
                html_bytes: html.body.len() as u64,
                value,
                error,
            }
        }
    }
}

/// Records read already, whose buffers the reader reuses ([`Reader::recycle`]); shared
/// between the thread that reads and those that filter.
#[derive(Clone, Default)]
pub struct Spares(Arc<Mutex<Vec<Record>>>);

impl Spares {
    /// Keeps a record done with for the reader, unless enough are waiting or its block is
    /// large (the reader keeps only a few MiB of buffers).
    pub fn give_back(&self, record: Record) {
        if record.block().len() <= SPARE_BLOCK
            && let Ok(mut v) = self.0.lock()
            && v.len() < BATCH_RECORDS
        {
            v.push(record);
        }
    }

    /// Hands the waiting records to `reader`.
    pub fn refill<R: Read>(&self, reader: &mut Reader<R>) {
        if let Ok(mut v) = self.0.lock() {
            for r in v.drain(..) {
                reader.recycle(r);
            }
        }
    }
}

/// One item of [`Batches`]: records of one file, or the end of a file.
pub enum Batch {
    /// Records of input `file` (its index), in file order.
    Records {
        /// The input they belong to.
        file: usize,
        /// The records, or what is known of those that could not be read.
        records: Vec<Result<Record, RecordError>>,
    },
    /// The end of input `file`: how many bytes were read from it, or why it could not be
    /// opened.
    End {
        /// The input that ended.
        file: usize,
        /// Bytes read from it (compressed, as stored).
        read: u64,
        /// Why it could not be opened.
        failure: Option<crate::Error>,
    },
}

impl Batch {
    /// The input this batch belongs to.
    pub fn file(&self) -> usize {
        match self {
            Batch::Records { file, .. } | Batch::End { file, .. } => *file,
        }
    }
}

/// The records of WARC files (`-` is standard input), read one file after the other in
/// batches, every file ended by a [`Batch::End`].
pub struct Batches {
    inputs: Vec<PathBuf>,
    next: usize,
    current: Option<(usize, Reader<crate::input::Input>)>,
    max_block: usize,
    spares: Spares,
}

impl Batches {
    /// The batches of `inputs`, whose records' blocks are cut at `max_block` bytes
    /// ([`Reader::max_block`]).
    pub fn new(inputs: Vec<PathBuf>, max_block: usize) -> Self {
        Batches {
            inputs,
            next: 0,
            current: None,
            max_block,
            spares: Spares::default(),
        }
    }

    /// Where records done with go back to the reader.
    pub fn spares(&self) -> Spares {
        self.spares.clone()
    }
}

impl Iterator for Batches {
    type Item = Batch;

    fn next(&mut self) -> Option<Batch> {
        loop {
            if let Some((file, reader)) = &mut self.current {
                let file = *file;
                self.spares.refill(reader);
                let records = batch(reader);
                if !records.is_empty() {
                    return Some(Batch::Records { file, records });
                }
                let read = reader.bytes_read();
                self.current = None;
                return Some(Batch::End {
                    file,
                    read,
                    failure: None,
                });
            }
            let file = self.next;
            let path = self.inputs.get(file)?;
            self.next += 1;
            match crate::input::open_raw(path) {
                Ok(input) => {
                    self.current = Some((file, Reader::new(input).max_block(self.max_block)));
                }
                Err(e) => {
                    return Some(Batch::End {
                        file,
                        read: 0,
                        failure: Some(e),
                    });
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(kind: &str, id: &str, block: &[u8]) -> Vec<u8> {
        let mut r = format!(
            "WARC/1.0\r\nWARC-Type: {kind}\r\nWARC-Record-ID: <{id}>\r\n\
             WARC-Target-URI: https://example.org/{id}\r\nContent-Length: {}\r\n\r\n",
            block.len()
        )
        .into_bytes();
        r.extend_from_slice(block);
        r.extend_from_slice(b"\r\n\r\n");
        r
    }

    fn response(id: &str, headers: &str, payload: &[u8]) -> Vec<u8> {
        let mut http = format!("HTTP/1.1 200 OK\r\n{headers}\r\n").into_bytes();
        http.extend_from_slice(payload);
        record("response", id, &http)
    }

    /// What each record of `file` gives, as a string, with payloads cut at `max_payload`.
    fn outcomes(file: &[u8], max_payload: usize) -> Vec<String> {
        let options = HtmlOptions {
            max_payload,
            ..HtmlOptions::default()
        };
        let mut reader = Reader::new(file);
        let mut got = Vec::new();
        loop {
            let records = batch(&mut reader);
            if records.is_empty() {
                return got;
            }
            for r in records {
                let Ok(r) = r else {
                    got.push("unreadable".to_string());
                    continue;
                };
                got.push(
                    match read(&r, &options, Path::new("t.warc"), |html, page| {
                        if html.body.starts_with(b"bad") {
                            return Err("rejected".to_string());
                        }
                        Ok(format!(
                            "{} {}",
                            page.get_url().unwrap_or(""),
                            html.body.len()
                        ))
                    }) {
                        Outcome::Page { value, error, .. } => format!("{value:?} {error:?}"),
                        Outcome::Skipped(kind) => format!("skipped {kind}"),
                        Outcome::Failed(e) => format!("failed {}", e.message),
                    },
                );
            }
        }
    }

    #[test]
    fn records_give_pages_skips_and_errors_in_order() {
        let html = "Content-Type: text/html\r\n";
        let mut file = response("a", html, b"<p>Hello</p>");
        file.extend(record("request", "b", b"GET / HTTP/1.1\r\n\r\n"));
        file.extend(response("c", html, b"bad page"));
        file.extend(response("d", html, &[b'x'; 100]));
        file.extend(response(
            "e",
            "Content-Type: text/html\r\nContent-Encoding: compress\r\n",
            b"<p>Hello</p>",
        ));
        let got = outcomes(&file, 50);
        assert_eq!(got[0], "Some(\"https://example.org/a 12\") None");
        assert_eq!(got[1], "skipped request");
        assert_eq!(got[2], "None Some(\"rejected\")");
        assert!(
            got[3].starts_with("Some(\"https://example.org/d 50\") Some(\"payload cut at 50"),
            "{}",
            got[3]
        );
        assert_eq!(got[4], "failed unsupported Content-Encoding \"compress\"");
        assert_eq!(got.len(), 5);
    }

    #[test]
    fn a_page_has_its_records_id_and_offset_in_its_file() {
        let html = "Content-Type: text/html\r\n";
        let mut file = record("request", "a", b"GET / HTTP/1.1\r\n\r\n");
        let second = file.len() as u64;
        file.extend(response("b", html, b"<p>Hello</p>"));
        let file_name = Path::new("dir/crawl.warc");
        let mut got = Vec::new();
        for r in Reader::new(&file[..]) {
            let r = r.unwrap();
            let outcome = read(&r, &HtmlOptions::default(), file_name, |_, page| {
                let origin = page.get_origin().unwrap();
                let id = page.get_id().map(str::to_string);
                Ok((id, origin.container.to_path_buf(), origin.at))
            });
            if let Outcome::Page { value, .. } = outcome {
                got.push(value.unwrap());
            }
        }
        assert_eq!(
            got,
            [(
                Some("<b>".to_string()),
                file_name.to_path_buf(),
                At::Offset(second)
            )]
        );
    }

    #[test]
    fn a_batch_ends_at_its_record_count() {
        let file: Vec<u8> = (0..BATCH_RECORDS + 3)
            .flat_map(|i| record("metadata", &i.to_string(), b"x"))
            .collect();
        let mut reader = Reader::new(&file[..]);
        assert_eq!(batch(&mut reader).len(), BATCH_RECORDS);
        assert_eq!(batch(&mut reader).len(), 3);
        assert!(batch(&mut reader).is_empty());
    }

    #[test]
    fn every_file_ends_and_a_missing_one_fails_in_its_turn() {
        let dir = tempfile::tempdir().unwrap();
        let a = dir.path().join("a.warc");
        std::fs::write(&a, record("metadata", "m", b"x")).unwrap();
        let files = vec![a.clone(), dir.path().join("missing.warc"), a];
        let got: Vec<String> = Batches::new(files, 1 << 20)
            .map(|b| match b {
                Batch::Records { file, records } => format!("{file}: {}", records.len()),
                Batch::End { file, failure, .. } => format!("{file} ends {}", failure.is_some()),
            })
            .collect();
        assert_eq!(
            got,
            [
                "0: 1",
                "0 ends false",
                "1 ends true",
                "2: 1",
                "2 ends false"
            ]
        );
    }
}
