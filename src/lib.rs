//! mainline: streaming main-content extraction from HTML.
//!
//! One call takes a page (bytes in any encoding, gzip or not) to its main content as text
//! or Markdown, with what the page says about itself:
//!
//! ```
//! let html = b"<html lang=en><head><title>Sourdough | Bakery Notes</title>
//!   <meta property=og:site_name content='Bakery Notes'></head>
//!   <body><nav><a href=/>Home</a> <a href=/recipes>Recipes</a> <a href=/about>About</a></nav>
//!   <article><h1>Sourdough</h1>
//!   <p>A starter is a community of wild yeasts and lactic acid bacteria that leavens the bread.</p>
//!   <p>Feed it with flour and water every day, and keep it somewhere warm while it ferments.</p>
//!   <ul><li>Feed it daily.</li><li>Keep it warm.</li></ul></article>
//!   <footer><a href=/privacy>Privacy</a></footer></body></html>";
//! let doc = mainline::extract(html)?;
//! assert!(doc.text().contains("A starter is a community of wild yeasts"));
//! assert!(!doc.text().contains("Privacy"));
//! assert!(doc.markdown().ends_with("ferments.\n\n- Feed it daily.\n- Keep it warm.\n"));
//! assert_eq!(doc.metadata().title.as_deref(), Some("Sourdough"));
//! assert_eq!(doc.metadata().language.as_deref(), Some("en"));
//! # Ok::<(), mainline::Error>(())
//! ```
//!
//! [`Options`] choose another model or a fixed density threshold, links and images in the
//! Markdown, and the page's URL; [`extract_str`] takes text that is already decoded.
//!
//! Bytes are read one way: gzip undone when they start like it, and the encoding chosen by
//! a byte order mark, a `<meta>` charset, then detection. [`extract`] and [`Options::extract`]
//! give the whole [`Document`]; [`extract_text`] gives only its text, reading the bytes the
//! same way. [`Extractor::kept_text`] and [`Builder`], the streaming layer under them, read
//! the bytes they are fed as they are: gzip is undone by whoever knows the input's format.
//!
//! Underneath, the page is read as a stream: a [`Splitter`] cuts it into the lines a
//! text-mode browser would show, each line is described with its neighbours by a row of
//! features, and a trained [`Model`] (as a [`ModelScorer`]) decides which to keep.
//! [`Extractor`] wires these together with bounded memory, for pages fed in pieces, and
//! gives a [`Decision`] per line.
//!
//! # What is public
//! - At the root: one call ([`extract`], [`extract_str`], or [`Options`] and a [`Builder`]
//!   for bytes in pieces) to a [`Document`] in a [`Format`]; the streaming [`Extractor`]
//!   and the [`Scorer`]s that decide lines ([`ModelScorer`], [`Threshold`]); the
//!   [`Splitter`] and its [`Line`]s; [`Metadata`], [`Model`], [`Error`].
//! - [`source`]: the containers pages come in (files, JSON lines, WARC records) and the
//!   ordered parallel run over them; [`output`]: the formats a [`Document`] is written in;
//!   [`site`]: templates learnt from a site's pages; with the `warc` feature, `warc`
//!   (reading WARC files).
//!
//! Everything else is internal. The `internals` module, hidden from this documentation,
//! gives mainline's own crates (training and evaluation, the `mainline` command, the Python
//! binding) what they need of the library's insides: it is not part of the stable API and
//! changes without notice.
//!
//! # Cargo features
//! Extraction, Markdown, JSON documents and the built-in model need no feature (the
//! defaults are none); the `mainline` command, training and plots are other crates of the
//! workspace.
//! - `simd`: model scoring with AVX2 where the CPU has it, chosen at run time (the same
//!   scores either way);
//! - `warc`: reading WARC files (module `warc`);
//! - `clap`: [`Format`] as a command-line value (clap's `ValueEnum`), for the command.
#![deny(rustdoc::broken_intra_doc_links)]
#![warn(missing_docs)]

mod confidence;
mod document;
mod error;
mod extract;
mod features;
mod gzip;
mod input;
mod lines;
mod markdown;
mod meta;
mod model;
pub mod output;
mod second_stage;
pub mod site;
pub mod source;

#[cfg(feature = "warc")]
pub mod warc;

pub use document::{Builder, Document, Options, extract, extract_str};
pub use error::{Error, Result};
pub use extract::{Decision, Extractor, ModelScorer, Scorer, Threshold, extract_text};
pub use lines::{Line, Splitter};
pub use meta::Metadata;
pub use model::Model;
pub use output::Format;

/// The library's insides as mainline's own crates reach them (`mainline-training`, the
/// `mainline` command, the Python binding, the benches and the fuzz targets). Not part of
/// the stable API: these paths change without notice.
#[doc(hidden)]
pub mod internals {
    /// Confidence of a document's decisions.
    pub mod confidence {
        pub use crate::confidence::*;
    }
    /// Documents: options and builders.
    pub mod document {
        pub use crate::document::*;
    }
    /// Errors.
    pub mod error {
        pub use crate::error::*;
    }
    /// The streaming extractor and its scorers.
    pub mod extract {
        pub use crate::extract::*;
    }
    /// The first stage's feature rows.
    pub mod features {
        pub use crate::features::*;
    }
    /// Gzip detection and decoding.
    pub mod gzip {
        pub use crate::gzip::*;
    }
    /// Opening inputs and choosing their encoding.
    pub mod input {
        pub use crate::input::*;
    }
    /// The splitter and the line record.
    pub mod lines {
        pub use crate::lines::*;
    }
    /// The streaming Markdown renderer.
    pub mod markdown {
        pub use crate::markdown::*;
    }
    /// What a page says about itself.
    pub mod meta {
        pub use crate::meta::*;
    }
    /// Model files and their classifiers.
    pub mod model {
        pub use crate::model::*;
    }
    /// The second stage: its inputs, hints, corrections and tables.
    pub mod second_stage {
        pub use crate::second_stage::*;
    }
    /// Site templates.
    pub mod site {
        pub use crate::site::*;
    }
}
