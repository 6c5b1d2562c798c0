//! [`Format::Markdown`](super::Format::Markdown): the kept lines as GitHub-flavoured
//! Markdown, rendered line by line as the lines are decided, after the page's headline.

use std::io::{self, Write};

use super::Writer;
use crate::markdown::{self, Renderer, headline::Headline};
use crate::{Decision, Document, Extractor, Line, Metadata, Options};

/// The Markdown of a page's kept lines, written as they come. The headline and the URL
/// that links resolve against come from the metadata known when the first line is kept
/// ([`Stream::begin`]): a whole document's, or what a stream has read of the page by then.
#[derive(Debug)]
pub(crate) struct Stream {
    r: Renderer,
    headline: Headline,
    /// The page's URL given in the options.
    url: Option<String>,
    /// Whether the Markdown starts with the headline.
    with_headline: bool,
    begun: bool,
}

impl Stream {
    pub(crate) fn new(opts: &Options) -> Self {
        Stream {
            r: Renderer::new(markdown::Options {
                links: opts.links,
                images: opts.images,
                base: None,
            }),
            headline: Headline::default(),
            url: opts.url.clone(),
            with_headline: !opts.no_headline,
            begun: false,
        }
    }

    /// Whether [`Stream::begin`] has been called.
    pub(crate) fn begun(&self) -> bool {
        self.begun
    }

    /// Takes the headline and the `<base href>` from `meta`, before the first kept line.
    pub(crate) fn begin(&mut self, meta: Option<&Metadata>) {
        let base = meta.and_then(|m| m.base.as_deref());
        self.r
            .set_base(markdown::base_url(self.url.as_deref(), base));
        if self.with_headline {
            self.headline.set(meta.and_then(markdown::headline::of));
        }
        self.begun = true;
    }

    /// Renders a kept line into `out`.
    pub(crate) fn push(&mut self, line: &Line, out: &mut String) {
        self.headline.push(&mut self.r, line, out);
    }

    /// Renders what the last lines held back (a table, a code block) into `out`.
    pub(crate) fn finish(&mut self, out: &mut String) {
        self.r.finish(out);
    }
}

/// The document's Markdown, with links and images as its options say.
pub(crate) fn render(doc: &Document) -> String {
    let mut s = Stream::new(&doc.opts);
    s.begin(Some(&doc.metadata));
    let mut out = String::new();
    for d in doc.lines.iter().filter(|d| d.keep) {
        s.push(&d.line, &mut out);
    }
    s.finish(&mut out);
    out
}

/// Writes the Markdown of each kept line as it is decided (a table or a code block once it
/// ends).
#[derive(Debug)]
pub(crate) struct Markdown {
    stream: Stream,
    /// What is rendered and not written yet.
    md: String,
}

impl Markdown {
    pub(crate) fn new(opts: &Options) -> Self {
        Markdown {
            stream: Stream::new(opts),
            md: String::new(),
        }
    }
}

impl Writer for Markdown {
    fn line(&mut self, ex: &mut Extractor, d: Decision, out: &mut dyn Write) -> io::Result<()> {
        if d.keep {
            if !self.stream.begun() {
                // The head has been read: links resolve against its <base href>, and the
                // headline is what has been read of the page by now.
                self.stream.begin(ex.metadata().as_ref());
            }
            self.stream.push(&d.line, &mut self.md);
            if !self.md.is_empty() {
                out.write_all(self.md.as_bytes())?;
                self.md.clear();
            }
        }
        ex.recycle(d.line);
        Ok(())
    }

    fn finish(&mut self, _: &mut Extractor, out: &mut dyn Write) -> io::Result<()> {
        self.stream.finish(&mut self.md);
        out.write_all(self.md.as_bytes())
    }
}
