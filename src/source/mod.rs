//! Pages in: the containers pages come in, read the one way every caller reads them, and
//! the ordered parallel run that filters them.
//!
//! - a file is opened by [`open`] (gzip recognised by its magic bytes and undone there; the
//!   encoding chosen by the splitter, from the bytes' byte order mark, `<meta>` charset or
//!   detection), and written to an [`output::Sink`](crate::output::Sink) piece by piece;
//! - [`Page`]: a page a record holds, read the one way every container's pages are read,
//!   with its record's id and where it came from ([`Origin`]);
//! - [`jsonl`]: JSON lines records, one object with an `html` string a line, read in
//!   batches under a memory budget, the html string decoded piece by piece;
//! - [`warc`] (feature `warc`): WARC files, read in batches of records, each HTML response
//!   a page with its URL, its HTTP charset and its record's fields;
//! - [`ordered`]: jobs (a page, a batch of records) on several threads, their outputs
//!   handed on in input order, in bounded memory; an error is an outcome of its job and
//!   never stops the others.
//!
//! A new container is one more file here: an iterator of jobs for [`ordered::run`] and
//! what one of its items gives.

pub mod jsonl;
pub mod ordered;
mod page;
#[cfg(feature = "warc")]
pub mod warc;

pub use page::{At, Origin, Page};

pub use crate::input::{Input, open};
