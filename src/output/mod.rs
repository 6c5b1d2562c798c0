//! The output edge: how a [`Document`] is written. One [`Format`] names
//! each way, and each has its file: [`text`] (the kept lines), [`markdown`], [`json`] (one
//! object per page) and [`lines`] (one JSON object per line, with its score and decision).
//!
//! A format also says what extraction must collect for it ([`Format::collects`]): text
//! needs neither metadata nor the lines' Markdown structure, so extracting for text does
//! no work that the text does not show.
//!
//! ```
//! use mainline::{Format, Options};
//! let page = "<title>Tides</title><p>The tide comes in twice a day, pulled by the moon.</p>";
//! let opts = Options::new().threshold(0.5);
//! let doc = opts.clone().format(Format::Text).extract_str(page)?;
//! assert_eq!(doc.output(), "The tide comes in twice a day, pulled by the moon.\n");
//! let doc = opts.format(Format::Json).extract_str(page)?;
//! let json: serde_json::Value = serde_json::from_str(&doc.output()).unwrap();
//! assert_eq!(json["title"], "Tides");
//! # Ok::<(), mainline::Error>(())
//! ```

pub mod json;
pub mod lines;
pub mod markdown;
mod sink;
pub mod text;

pub use sink::Sink;

use std::io::{self, Write};

use crate::{Decision, Document, Extractor, Options};

/// How one format writes a page as its lines are decided, behind a [`Sink`]: each format's
/// file has one.
pub(crate) trait Writer: std::fmt::Debug + Send {
    /// Writes (or holds) a decided line, and gives its buffers back to `ex`
    /// ([`Extractor::recycle`]) once done with it.
    fn line(&mut self, ex: &mut Extractor, d: Decision, out: &mut dyn Write) -> io::Result<()>;

    /// Writes what the format writes once the page has ended.
    fn finish(&mut self, ex: &mut Extractor, out: &mut dyn Write) -> io::Result<()> {
        let _ = (ex, out);
        Ok(())
    }
}

/// How a document is written ([`crate::Document::output`], `mainline filter --format`):
/// each is rendered by its module, [`text`], [`markdown`], [`json`] and [`lines`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
#[non_exhaustive]
pub enum Format {
    /// The kept lines.
    #[default]
    Text,
    /// The kept lines as GitHub-flavoured Markdown.
    Markdown,
    /// One JSON object per page: metadata, text, counts.
    Json,
    /// Every line as a JSON object, with features, score and decision.
    #[cfg_attr(feature = "clap", value(name = "jsonl"))]
    Lines,
}

/// What extraction collects beside the lines' text and decisions, as a format needs it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Collect {
    /// The page's metadata (title, dates, `<base href>`, …).
    pub metadata: bool,
    /// The lines' Markdown structure (lists, tables, links, …).
    pub structure: bool,
    /// Every line's feature values.
    pub features: bool,
}

impl Format {
    /// Every format, in the order of their names.
    pub const ALL: [Format; 4] = [Format::Text, Format::Markdown, Format::Json, Format::Lines];

    /// The format's name: `text`, `markdown`, `json` or `jsonl` (those of
    /// `mainline filter --format`).
    pub fn name(self) -> &'static str {
        match self {
            Format::Text => "text",
            Format::Markdown => "markdown",
            Format::Json => "json",
            Format::Lines => "jsonl",
        }
    }

    /// The extension of a file in this format: `txt`, `md`, `json` or `jsonl`.
    pub fn extension(self) -> &'static str {
        match self {
            Format::Text => "txt",
            Format::Markdown => "md",
            Format::Json => "json",
            Format::Lines => "jsonl",
        }
    }

    /// What extraction must collect to write this format; `markdown_in_json` is whether
    /// a JSON document holds the Markdown ([`crate::Options::markdown_in_json`]).
    ///
    /// ```
    /// use mainline::Format;
    /// let text = Format::Text.collects(true);
    /// assert!(!text.metadata && !text.structure && !text.features);
    /// assert!(Format::Json.collects(true).structure);
    /// assert!(!Format::Json.collects(false).structure);
    /// ```
    pub fn collects(self, markdown_in_json: bool) -> Collect {
        Collect {
            metadata: matches!(self, Format::Json | Format::Markdown),
            structure: self == Format::Markdown || (self == Format::Json && markdown_in_json),
            features: self == Format::Lines,
        }
    }

    /// Whether a JSON document in this format holds the Markdown.
    pub(crate) fn markdown_in_json(self, asked: bool) -> bool {
        asked || self == Format::Markdown
    }

    /// The writer of one page in this format, with `opts`; `name` names the page (see
    /// [`Sink::new`]).
    pub(crate) fn writer(self, opts: &Options, name: Option<&str>) -> Box<dyn Writer> {
        match self {
            Format::Text => Box::new(text::Text),
            Format::Markdown => Box::new(markdown::Markdown::new(opts)),
            Format::Json => Box::new(json::Json {
                opts: opts.clone(),
                source: name.map(str::to_string),
                lines: Vec::new(),
            }),
            Format::Lines => Box::new(lines::Lines {
                doc: name.or(opts.url.as_deref()).unwrap_or("").to_string(),
            }),
        }
    }

    /// `doc` written in this format.
    pub(crate) fn render(self, doc: &Document) -> String {
        match self {
            Format::Text => text::render(doc),
            Format::Markdown => doc.markdown().to_string(),
            Format::Json => json::object(doc).to_string(),
            Format::Lines => lines::render(doc),
        }
    }
}

impl std::fmt::Display for Format {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}
