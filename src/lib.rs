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
//! Underneath, the page is read as a stream: [`lines::Splitter`] cuts it into the lines a
//! text-mode browser would show, [`features`] describes each line and its neighbours, and a
//! trained [`Model`] (as a [`ModelScorer`]) decides which to keep. [`Extractor`] wires these
//! together with bounded memory, for pages fed in pieces, and gives a [`Decision`] per line;
//! [`markdown::Renderer`] renders the kept lines as Markdown as they come.
//!
//! # What is public
//! - At the root: one call ([`extract`], [`extract_str`], or [`Options`] and a [`Builder`]
//!   for bytes in pieces) to a [`Document`]; the streaming [`Extractor`] and the
//!   [`Scorer`]s that decide lines ([`ModelScorer`], [`Threshold`]); [`Line`], [`Metadata`],
//!   [`Model`], [`Error`].
//! - [`lines`]: the splitter and the line record; [`features`]: the feature row a scorer
//!   reads; [`input`]: opening files (gzip) and choosing a document's encoding;
//!   [`markdown`]: the streaming Markdown renderer; [`model`]: model files and their
//!   classifiers; [`confidence`]: how [`Document::confidence`] is estimated.
//! - With the `train` feature, `train` (models from a labelled CSV), `eval` (word F1, and
//!   the comparisons `mainline eval` prints) and `corpus` (pages with their gold text); with
//!   `methods`, `methods` (the DOM-based comparison algorithms); with `warc`, `warc`
//!   (reading WARC files).
//!
//! The rest (the second stage's inputs, cross-validation, labelling against gold text, the
//! command itself) is internal to the crate.
//!
//! # Cargo features
//! The library without default features needs only what extraction needs. The default
//! features build the `mainline` command; a library user depends on
//! `mainline = { version = "…", default-features = false }` and adds what they use:
//! - `simd`: model scoring with AVX2 where the CPU has it, chosen at run time (the same
//!   scores either way);
//! - `train`: training and evaluation (modules `train`, `eval`, `corpus`);
//! - `methods`: the DOM-based comparison algorithms (module `methods`);
//! - `warc`: reading WARC files (module `warc`);
//! - `cli`: the `mainline` command (implies `train`, `methods` and `warc`), with its
//!   cross-validation (`mainline eval --recipe`) and labelling (`mainline label`);
//! - `plot`: the command's `plot` subcommand.
#![deny(rustdoc::broken_intra_doc_links)]
#![warn(missing_docs)]

pub mod confidence;
mod document;
mod error;
mod extract;
pub mod features;
mod gzip;
pub mod input;
pub mod lines;
pub mod markdown;
mod meta;
pub mod model;
pub mod output;
mod second_stage;
pub mod site;
pub mod source;

#[cfg(feature = "train")]
mod atomic;
#[cfg(feature = "train")]
pub mod corpus;
#[cfg(feature = "cli")]
mod cv;
#[cfg(feature = "train")]
pub mod eval;
#[cfg(feature = "methods")]
pub mod methods;
#[cfg(feature = "train")]
pub mod train;
#[cfg(feature = "warc")]
pub mod warc;

/// The `mainline` command's entry point (`src/main.rs` calls [`cli::main`]): not part of the
/// library's API.
#[cfg(feature = "cli")]
#[doc(hidden)]
pub mod cli;

#[cfg(all(test, feature = "cli"))]
mod tests;

pub use document::{Builder, Document, Options, extract, extract_str};
pub use error::{Error, Result};
pub use extract::{Decision, Extractor, ModelScorer, Scorer, Threshold, extract_text};
pub use lines::Line;
pub use meta::Metadata;
pub use model::Model;
pub use output::Format;
