//! One page written in its [`Format`] while it is read: [`Sink`].

use std::io::{self, Write};

use super::{Format, Writer};
use crate::{Extractor, Options};

/// Writes a page in the [`Options`]' format while its lines are decided: the bytes of
/// [`Document::output`](crate::Document::output) (a JSON object followed by a line end), from an [`Extractor`] fed
/// in pieces. Text, Markdown and the lines'
/// records are written as each line is decided, so that memory holds only the lines the
/// extractor has not decided; a JSON object needs the whole page, so its lines are held
/// until [`Sink::finish`].
///
/// The Markdown's headline and the `<base href>` its links resolve against are those read
/// of the page by its first kept line (its head, and its first `<h1>` when that comes
/// before): a page whose first `<h1>` comes after it starts with its title.
///
/// The extractor collects what the format needs and no more ([`Sink::extractor`],
/// [`Format::collects`]): the text needs neither metadata nor the lines' structure.
///
/// ```
/// use mainline::{Format, Options, output::Sink};
/// let opts = Options::new().threshold(0.5).format(Format::Markdown);
/// let page = "<title>Tides</title><h1>Tides</h1><p>The tide comes in twice a day, pulled by the moon.</p>";
/// let mut sink = Sink::new(&opts, None);
/// let mut ex = sink.extractor();
/// let mut out = Vec::new();
/// for piece in page.as_bytes().chunks(7) {
///     ex.write(piece)?;
///     sink.take(&mut ex, &mut out)?;
/// }
/// ex.end()?;
/// sink.finish(&mut ex, &mut out)?;
/// assert_eq!(String::from_utf8(out).unwrap(), opts.extract_str(page)?.output());
/// # Ok::<(), mainline::Error>(())
/// ```
#[derive(Debug)]
pub struct Sink {
    opts: Options,
    writer: Box<dyn Writer>,
}

impl Sink {
    /// A sink for one page in `opts`' format. `name` names the page in what is written:
    /// the `doc` of each line's record ([`Format::Lines`]; without a name, the URL given in
    /// the options, else `""`) and a first field `source` of the JSON object
    /// ([`Format::Json`]; none without a name).
    pub fn new(opts: &Options, name: Option<&str>) -> Sink {
        Sink {
            writer: opts.format.writer(opts, name),
            opts: opts.clone(),
        }
    }

    /// An extractor that collects what this sink's format needs, with the options' scorer
    /// and site template.
    pub fn extractor(&self) -> Extractor {
        let opts = &self.opts;
        let mut collect = opts
            .format
            .collects(opts.format.markdown_in_json(opts.markdown_in_json));
        if opts.format == Format::Markdown {
            // Markdown reads the metadata for its headline and for the <base href> of
            // links and images alone.
            collect.metadata = !opts.no_headline || opts.links || opts.images;
        }
        opts.extractor(collect)
    }

    /// Readies an extractor kept from an earlier page of the same options (reset, and
    /// made by [`Sink::extractor`]) for this one: the options' site template.
    pub fn ready(&self, ex: &mut Extractor) {
        ex.set_site(self.opts.site.clone());
    }

    /// Writes the lines `ex` has decided into `out` (for JSON, holds them), and gives back
    /// to `ex` the buffers of those written.
    ///
    /// # Errors
    /// When writing to `out` fails.
    pub fn take(&mut self, ex: &mut Extractor, out: &mut dyn Write) -> io::Result<()> {
        while let Some(d) = ex.next_decision() {
            self.writer.line(ex, d, out)?;
        }
        Ok(())
    }

    /// After [`Extractor::end`]: writes the last lines and what the format writes at the
    /// end of a page (a table held back, the JSON object and its line end). The extractor
    /// can then read another page once [`Extractor::reset`].
    ///
    /// # Errors
    /// When writing to `out` fails.
    pub fn finish(mut self, ex: &mut Extractor, out: &mut dyn Write) -> io::Result<()> {
        self.take(ex, out)?;
        self.writer.finish(ex, out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The sink's output of `html` fed in pieces of `piece` bytes.
    fn streamed(opts: &Options, html: &[u8], piece: usize) -> String {
        let mut sink = Sink::new(opts, None);
        let mut ex = sink.extractor();
        let mut out = Vec::new();
        for p in html.chunks(piece) {
            ex.write(p).unwrap();
            sink.take(&mut ex, &mut out).unwrap();
        }
        ex.end().unwrap();
        sink.finish(&mut ex, &mut out).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn every_format_streamed_is_the_documents_output() {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/data/samples");
        let mut pages: Vec<_> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "html"))
            .collect();
        pages.sort();
        assert!(pages.len() >= 20, "{} sample pages", pages.len());
        for path in &pages {
            let html = std::fs::read(path).unwrap();
            for format in Format::ALL {
                for opts in [
                    Options::new().format(format),
                    Options::new()
                        .format(format)
                        .threshold(0.5)
                        .links(true)
                        .images(true)
                        .markdown_in_json(true)
                        .url("https://example.org/a/page.html"),
                ] {
                    let mut whole = opts.extract(&html).unwrap();
                    if format == Format::Lines {
                        // A page's line records name its URL given in the options alone.
                        whole.metadata.url = None;
                    }
                    let mut want = whole.output();
                    if format == Format::Json {
                        // A stream of JSON objects has one a line.
                        want.push('\n');
                    }
                    for piece in [7, 1 << 16] {
                        let got = streamed(&opts, &html, piece);
                        assert!(
                            got == want,
                            "{} as {format} in pieces of {piece}:\n{got}\n---\n{want}",
                            path.display()
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn a_named_page_is_named_in_its_records_and_json() {
        let opts = Options::new().threshold(0.5);
        let html = b"<p>The tide comes in twice a day, pulled by the moon.</p>";
        for (format, want) in [
            (Format::Json, r#""source":"tides.html""#),
            (Format::Lines, r#""doc":"tides.html""#),
        ] {
            let opts = opts.clone().format(format);
            let mut sink = Sink::new(&opts, Some("tides.html"));
            let mut ex = sink.extractor();
            let mut out = Vec::new();
            ex.write(html).unwrap();
            ex.end().unwrap();
            sink.take(&mut ex, &mut out).unwrap();
            sink.finish(&mut ex, &mut out).unwrap();
            let out = String::from_utf8(out).unwrap();
            assert!(out.contains(want), "{out}");
            assert_eq!(out.matches('\n').count(), 1, "{out}");
            assert!(out.ends_with("}\n"), "{out}");
        }
    }
}
