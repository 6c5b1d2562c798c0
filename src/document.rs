//! One call from HTML to a [`Document`] (see there): its text, Markdown, metadata and
//! every line with its score and decision.

use std::sync::{Arc, LazyLock, OnceLock};

use crate::Result;
use crate::confidence;
use crate::extract::{Decision, Extractor, ModelScorer, Scorer, Threshold};
use crate::meta::Metadata;
use crate::output::{self, Format};

/// The built-in model, parsed once.
static BUILTIN: LazyLock<Arc<ModelScorer>> = LazyLock::new(|| Arc::new(ModelScorer::builtin()));

/// How to extract: the model (or a fixed threshold), the output format, links, images and
/// the page's URL. `Options::default()` is the built-in model, text, no links, no images.
///
/// ```
/// use mainline::{Format, Options};
/// let opts = Options::new()
///     .threshold(0.5)
///     .format(Format::Markdown)
///     .links(true)
///     .url("https://ex.org/a/");
/// let doc = opts.extract_str("<p>See <a href=b.html>the next page</a> for more about the tides.</p>")?;
/// assert_eq!(doc.output(), "See [the next page](https://ex.org/a/b.html) for more about the tides.\n");
/// # Ok::<(), mainline::Error>(())
/// ```
#[derive(Clone, Default)]
pub struct Options {
    pub(crate) format: Format,
    pub(crate) scorer: Option<Arc<dyn Scorer>>,
    pub(crate) links: bool,
    pub(crate) images: bool,
    pub(crate) markdown_in_json: bool,
    /// The lines' structure is not collected ([`Options::markdown_structure`]).
    no_structure: bool,
    /// The Markdown does not start with the headline ([`Options::headline`]).
    pub(crate) no_headline: bool,
    pub(crate) url: Option<String>,
    /// Site mode ([`Options::site`]).
    pub(crate) site: Option<crate::site::PageTemplate>,
}

impl std::fmt::Debug for Options {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Options")
            .field("format", &self.format)
            .field("scorer", &self.scorer.as_ref().map(|s| s.describe()))
            .field("links", &self.links)
            .field("images", &self.images)
            .field("markdown_in_json", &self.markdown_in_json)
            .field("markdown_structure", &!self.no_structure)
            .field("headline", &!self.no_headline)
            .field("url", &self.url)
            .field("site", &self.site.as_ref().map(|t| t.other_pages()))
            .finish()
    }
}

impl Options {
    /// The defaults: the built-in model, [`Format::Text`], no links, no images, no URL.
    pub fn new() -> Self {
        Options::default()
    }

    /// What [`Document::output`] writes. Default: [`Format::Text`].
    pub fn format(mut self, format: Format) -> Self {
        self.format = format;
        self
    }

    /// Decide with this model instead of the built-in one.
    pub fn model(mut self, model: ModelScorer) -> Self {
        self.scorer = Some(Arc::new(model));
        self
    }

    /// Decide with any [`Scorer`]. Default: the built-in model.
    pub fn scorer(mut self, scorer: Arc<dyn Scorer>) -> Self {
        self.scorer = Some(scorer);
        self
    }

    /// Keep a line when its text density is above `x` (the seed design's fixed rule,
    /// usually 0.5) instead of using a model.
    pub fn threshold(mut self, x: f32) -> Self {
        self.scorer = Some(Arc::new(Threshold(x)));
        self
    }

    /// Write links in Markdown as `[text](url)`. Default: off (their text only).
    pub fn links(mut self, yes: bool) -> Self {
        self.links = yes;
        self
    }

    /// Write images in Markdown as `![alt](src)`. Default: off.
    pub fn images(mut self, yes: bool) -> Self {
        self.images = yes;
        self
    }

    /// Start the Markdown with the page's headline as `# headline`: its first `<h1>`
    /// (unless that is only the site's name), else its title metadata, whether or not the
    /// model kept that line; a kept heading of the same text is not written again. A page
    /// that keeps nothing stays empty. The text is the same either way. Default: on.
    ///
    /// ```
    /// use mainline::Options;
    /// let page = "<title>Tides | Sea Notes</title><h1>Tides</h1>\
    ///     <p>The tide comes in twice a day, pulled by the moon and, less, by the sun.</p>";
    /// let opts = Options::new().threshold(0.5);
    /// let doc = opts.clone().extract_str(page)?;
    /// assert_eq!(doc.markdown(), "# Tides\n\nThe tide comes in twice a day, pulled by the moon and, less, by the sun.\n");
    /// let doc = opts.headline(false).extract_str(page)?;
    /// assert_eq!(doc.markdown(), "The tide comes in twice a day, pulled by the moon and, less, by the sun.\n");
    /// # Ok::<(), mainline::Error>(())
    /// ```
    pub fn headline(mut self, yes: bool) -> Self {
        self.no_headline = !yes;
        self
    }

    /// Include the Markdown in [`Document::to_json`]. Default: off.
    pub fn markdown_in_json(mut self, yes: bool) -> Self {
        self.markdown_in_json = yes;
        self
    }

    /// Collect the structure that [`Document::markdown`] renders: lists, tables, code
    /// blocks, quotes, emphasis, inline code, links and images. Default: on.
    ///
    /// Turning it off makes extraction faster (every line's structure is otherwise built
    /// and kept until the page ends) when the Markdown will not be asked for: text, JSON
    /// without Markdown, metadata, lines. [`Document::markdown`] then renders every kept
    /// line as a paragraph (a heading still as a heading), its text escaped as always,
    /// without links or images. Text, metadata, lines and decisions are the same either
    /// way.
    ///
    /// ```
    /// use mainline::Options;
    /// let page = "<ul><li>Salt from the *flats*, carried north.</li><li>Dates from the oasis, carried south.</li></ul>";
    /// let full = Options::new().threshold(0.5).extract_str(page)?;
    /// let plain = Options::new().threshold(0.5).markdown_structure(false).extract_str(page)?;
    /// assert_eq!(plain.text(), full.text());
    /// assert_eq!(full.markdown(), "- Salt from the \\*flats\\*, carried north.\n- Dates from the oasis, carried south.\n");
    /// assert_eq!(plain.markdown(), "Salt from the \\*flats\\*, carried north.\n\nDates from the oasis, carried south.\n");
    /// # Ok::<(), mainline::Error>(())
    /// ```
    pub fn markdown_structure(mut self, yes: bool) -> Self {
        self.no_structure = !yes;
        self
    }

    /// The page's URL: relative links are resolved against it (a `<base href>` in the page
    /// wins), and it is the document's `url`. Default: none (the page's canonical link).
    pub fn url(mut self, url: impl Into<String>) -> Self {
        self.url = Some(url.into());
        self
    }

    /// The scorer these options decide with.
    pub fn scorer_or_builtin(&self) -> Arc<dyn Scorer> {
        match &self.scorer {
            Some(s) => Arc::clone(s),
            None => BUILTIN.clone(),
        }
    }

    /// Extracts a page given as bytes: gzip-compressed or not (recognised by content), in
    /// any encoding (a byte order mark, a `<meta>` charset or detection decides).
    ///
    /// # Errors
    /// [`Error::NotHtml`](crate::Error::NotHtml) when the data starts like a binary format,
    /// [`Error::Gzip`](crate::Error::Gzip) when
    /// gzip data is corrupt or truncated.
    pub fn extract(&self, html: &[u8]) -> Result<Document> {
        let mut b = self.builder();
        crate::gzip::feed_page(html, |piece| b.write(piece))?;
        b.end()
    }

    /// Extracts a page that is already decoded text: a `<meta charset>` in it is ignored.
    ///
    /// # Errors
    /// As [`Options::extract`] (a `&str` is never gzip).
    pub fn extract_str(&self, html: &str) -> Result<Document> {
        let mut b = self.builder_str();
        b.write(html.as_bytes())?;
        b.end()
    }

    /// A [`Builder`] for a page that is already decoded text, fed as its UTF-8 bytes in
    /// pieces (cut anywhere): as with [`Options::extract_str`], a `<meta charset>` in it is
    /// ignored.
    ///
    /// ```
    /// let mut b = mainline::Options::new().threshold(0.5).builder_str();
    /// let page = "<meta charset=iso-8859-1><p>Déjà vu, in two pieces of a paragraph.</p>";
    /// let (one, two) = page.as_bytes().split_at(page.find('é').unwrap() + 1);
    /// b.write(one)?;
    /// b.write(two)?;
    /// assert_eq!(b.end()?.text(), "Déjà vu, in two pieces of a paragraph.");
    /// # Ok::<(), mainline::Error>(())
    /// ```
    pub fn builder_str(&self) -> Builder {
        let mut b = self.builder();
        b.ex = b.ex.with_encoding(encoding_rs::UTF_8);
        b
    }

    /// Site mode: the page is extracted with its site's template
    /// ([`crate::Extractor::set_site`]), and [`Document::to_json`] counts its lines that
    /// matched the template under `"site"`.
    pub fn site(mut self, template: Option<crate::site::PageTemplate>) -> Self {
        self.site = template;
        self
    }

    /// A [`Builder`] to feed a page in pieces.
    pub fn builder(&self) -> Builder {
        // A document always has its metadata; the structure unless turned off.
        let collect = output::Collect {
            metadata: true,
            structure: !self.no_structure,
            ..self.format.collects(self.markdown_in_json)
        };
        Builder {
            ex: self.extractor(collect),
            opts: self.clone(),
            lines: Vec::new(),
            bytes: 0,
        }
    }

    /// An extractor with these options' scorer and site template that collects what
    /// `collect` asks, the structure only when [`Options::markdown_structure`] is on.
    pub(crate) fn extractor(&self, collect: output::Collect) -> Extractor {
        let mut ex = Extractor::new(self.scorer_or_builtin())
            .with_metadata(collect.metadata)
            .with_structure(collect.structure && !self.no_structure)
            .with_features(collect.features);
        ex.set_site(self.site.clone());
        ex
    }
}

/// Builds a [`Document`] from a page fed in pieces (not decompressed: see
/// [`Options::extract`] for gzip).
///
/// ```
/// let mut b = mainline::Options::new().threshold(0.5).builder();
/// for piece in ["<p>A paragraph of words ", "in two pieces.</p>"] {
///     b.write(piece.as_bytes())?;
/// }
/// assert_eq!(b.end()?.text(), "A paragraph of words in two pieces.");
/// # Ok::<(), mainline::Error>(())
/// ```
#[derive(Debug)]
pub struct Builder {
    ex: Extractor,
    opts: Options,
    lines: Vec<Decision>,
    bytes: u64,
}

impl Builder {
    /// Feeds the next piece of the page.
    ///
    /// # Errors
    /// As [`Extractor::write`].
    pub fn write(&mut self, bytes: &[u8]) -> Result<()> {
        self.bytes += bytes.len() as u64;
        self.ex.write(bytes)?;
        self.lines
            .extend(std::iter::from_fn(|| self.ex.next_decision()));
        Ok(())
    }

    /// Ends the page.
    ///
    /// # Errors
    /// As [`Extractor::end`].
    pub fn end(mut self) -> Result<Document> {
        self.ex.end()?;
        self.lines
            .extend(std::iter::from_fn(|| self.ex.next_decision()));
        Ok(Document::assemble(
            &self.ex, self.lines, self.opts, self.bytes,
        ))
    }
}

impl Document {
    /// The document of a page that `ex` has read to its end and decided into `lines`.
    pub(crate) fn assemble(
        ex: &Extractor,
        lines: Vec<Decision>,
        opts: Options,
        input_bytes: u64,
    ) -> Document {
        let mut metadata = ex.metadata().unwrap_or_default();
        crate::meta::published_from_url(&mut metadata, opts.url.as_deref());
        let mut text = String::new();
        lines
            .iter()
            .for_each(|d| output::text::push_kept(&mut text, d));
        let encoding = ex
            .splitter()
            .encoding()
            .map_or("UTF-8", |s| s.encoding.name());
        Document {
            lines,
            text,
            markdown: OnceLock::new(),
            metadata,
            encoding,
            input_bytes,
            opts,
        }
    }
}

/// An extracted page.
///
/// One call from HTML to a [`Document`]: its text, Markdown, metadata and every line with
/// its score and decision.
///
/// [`extract`] and [`extract_str`] use the built-in model and default [`Options`];
/// [`Options::extract`] takes others. Both are built on the streaming
/// [`Extractor`](crate::Extractor), which stays the low-level API (bounded memory,
/// bytes in pieces); a `Document` holds the whole page's lines.
///
/// ```
/// let doc = mainline::extract(b"<title>Tides | Sea Notes</title>
///     <nav><a href=/>Home</a> <a href=/about>About</a> <a href=/maps>Maps</a></nav>
///     <article><h1>Tides</h1>
///     <p>The tide comes in twice a day, pulled by the moon and, less, by the sun.</p>
///     <p>Walkers who know the times cross the sands and come back before the water.</p>
///     </article><footer><a href=/privacy>Privacy</a></footer>")?;
/// assert!(doc.text().ends_with("pulled by the moon and, less, by the sun.\n\
///     Walkers who know the times cross the sands and come back before the water."));
/// assert!(!doc.text().contains("Privacy"));
/// assert!(doc.markdown().ends_with("by the sun.\n\nWalkers who know the times cross the sands and come back before the water.\n"));
/// assert_eq!(doc.metadata().title.as_deref(), Some("Tides"));
/// assert_eq!(doc.lines().len(), 5); // the menu, the heading, two paragraphs, the footer
/// # Ok::<(), mainline::Error>(())
/// ```
#[derive(Debug)]
pub struct Document {
    pub(crate) lines: Vec<Decision>,
    text: String,
    markdown: OnceLock<String>,
    pub(crate) metadata: Metadata,
    encoding: &'static str,
    input_bytes: u64,
    pub(crate) opts: Options,
}

impl Document {
    /// The main content: the kept lines joined by `\n`.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// The main content as GitHub-flavoured Markdown, with
    /// links and images as the [`Options`] say, after the page's headline
    /// ([`Options::headline`]). With [`Options::markdown_structure`] off,
    /// every kept line is a paragraph (a heading a heading), without links or images.
    pub fn markdown(&self) -> &str {
        self.markdown.get_or_init(|| output::markdown::render(self))
    }

    /// What the page says about itself: title, author, dates, … (see [`Metadata`]).
    pub fn metadata(&self) -> &Metadata {
        &self.metadata
    }

    /// Every line of the page, in order, with its score and whether it was kept.
    pub fn lines(&self) -> &[Decision] {
        &self.lines
    }

    /// How many lines were kept.
    pub fn kept_lines(&self) -> usize {
        self.lines.iter().filter(|d| d.keep).count()
    }

    /// The name of the character encoding the page was decoded from (`UTF-8`,
    /// `windows-1252`, …).
    pub fn encoding(&self) -> &'static str {
        self.encoding
    }

    /// The document of a page decoded before extraction: its encoding is the one the
    /// page was decoded from, not the UTF-8 of the text extraction read.
    pub(crate) fn decoded_from(mut self, encoding: &'static encoding_rs::Encoding) -> Self {
        self.encoding = encoding.name();
        self
    }

    /// How well the page was likely extracted, from 0 to 1: the page word F1 predicted
    /// from the built-in model's scores of its lines. `None`
    /// when another model or a threshold decided, and for a page without a line of text
    /// (an empty input): there is nothing to predict from.
    ///
    /// ```
    /// assert_eq!(mainline::extract(b"")?.confidence(), None);
    /// assert_eq!(mainline::extract(b"")?.to_json()["confidence"], serde_json::Value::Null);
    /// # Ok::<(), mainline::Error>(())
    /// ```
    pub fn confidence(&self) -> Option<f64> {
        (self.opts.scorer.is_none() && !self.lines.is_empty())
            .then(|| confidence::WEIGHTS.predict(&confidence::features(&self.lines)))
    }

    /// Bytes of HTML read (after gzip decompression).
    pub fn input_bytes(&self) -> u64 {
        self.input_bytes
    }

    /// The page's URL: the one given in the [`Options`], else its canonical link.
    pub fn url(&self) -> Option<&str> {
        self.opts.url.as_deref().or(self.metadata.url.as_deref())
    }

    /// The content in the [`Options`]' format (see [`crate::output`]): text (with a final
    /// newline when not empty), Markdown, the JSON object of [`Document::to_json`] on one
    /// line, or one JSON object per line of the page.
    pub fn output(&self) -> String {
        self.opts.format.render(self)
    }

    /// The document as one JSON object: `url`, `title`, `author`, `published`,
    /// `modified`, `site_name`, `description`, `language`, `image`, `page_types`, `text`,
    /// `markdown` (with [`Options::markdown_in_json`] or [`Format::Markdown`]),
    /// `kept_lines`, `total_lines`, `encoding` and `confidence` (see
    /// [`Document::confidence`]), in that order. Absent values are `null`.
    ///
    /// ```
    /// let opts = mainline::Options::new().threshold(0.5);
    /// let doc = opts.extract(b"<html lang=en><title>A page</title>
    ///     <p>Words and more words, enough of them to outweigh the markup of the head.</p>")?;
    /// let j = doc.to_json();
    /// assert_eq!(j["title"], "A page");
    /// assert_eq!(j["language"], "en");
    /// assert_eq!(j["text"], "Words and more words, enough of them to outweigh the markup of the head.");
    /// assert_eq!(j["total_lines"], 1);
    /// # Ok::<(), mainline::Error>(())
    /// ```
    pub fn to_json(&self) -> serde_json::Value {
        output::json::object(self)
    }
}

/// Extracts a page with the built-in model: gzip or not (by content), in any encoding.
///
/// ```
/// let doc = mainline::extract(b"<nav><a href=/>Home</a> <a href=/news>News</a> <a href=/maps>Maps</a></nav>
///     <article><h1>Tides</h1><p>The tide comes in twice a day, pulled by the moon and the sun.</p>
///     <p>Walkers who know the times cross the sands and come back before the water.</p></article>
///     <footer><a href=/privacy>Privacy</a></footer>")?;
/// assert!(doc.text().contains("The tide comes in twice a day"));
/// assert!(!doc.text().contains("Home"));
/// # Ok::<(), mainline::Error>(())
/// ```
///
/// # Errors
/// As [`Options::extract`].
pub fn extract(html: &[u8]) -> Result<Document> {
    Options::default().extract(html)
}

/// Extracts a page that is already decoded text, with the built-in model: a `<meta
/// charset>` in it is ignored.
///
/// ```
/// let html = "<meta charset=iso-8859-1><title>Café</title>
///     <nav><a href=/>Home</a> <a href=/recipes>Recipes</a> <a href=/about>About</a></nav>
///     <article><h1>Crème brûlée</h1>
///     <p>Heat the cream with the vanilla, then whisk it into the yolks and the sugar.</p>
///     <p>Bake in a water bath until just set, chill, and burn sugar on top to serve.</p>
///     </article><footer><a href=/privacy>Privacy</a></footer>";
/// let doc = mainline::extract_str(html)?;
/// assert!(doc.text().contains("Heat the cream with the vanilla"));
/// assert_eq!(doc.metadata().title.as_deref(), Some("Café"));
/// # Ok::<(), mainline::Error>(())
/// ```
///
/// # Errors
/// As [`Options::extract_str`].
pub fn extract_str(html: &str) -> Result<Document> {
    Options::default().extract_str(html)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Error;

    /// A small article page whose paragraphs the built-in model keeps.
    fn page(body: &str) -> String {
        format!(
            "<html><body><nav><ul><li><a href=/>Home</a></li><li><a href=/news>News</a></li></ul></nav>\
             <article><h1>A day at the coast</h1><p>{body}</p>\
             <p>The tide comes in twice a day, pulled by the moon and, to a lesser degree, by the sun.</p>\
             <p>Walkers who know the times cross the sands to the island and come back before the water returns.</p>\
             </article><footer><a href=/about>About us</a></footer></body></html>"
        )
    }

    #[test]
    fn plain_gzip_is_recognised_by_content() {
        use std::io::Write;
        let html = page("Compressed words of a page, written to check that gzip is read.");
        let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        enc.write_all(html.as_bytes()).unwrap();
        let gz = enc.finish().unwrap();
        let doc = extract(&gz).unwrap();
        assert_eq!(doc.text(), extract(html.as_bytes()).unwrap().text());
        assert!(
            doc.text().contains("Compressed words of a page"),
            "{}",
            doc.text()
        );
        let err = extract(&gz[..gz.len() / 2]).unwrap_err();
        assert!(matches!(err, Error::Gzip(_)), "{err}");
    }

    #[test]
    fn extract_text_reads_bytes_as_extract_does() {
        use std::io::Write;
        let html = format!(
            "<meta charset=iso-8859-1>{}",
            page("Déjà vu, the words of a café, compressed to check that gzip is read.")
        );
        let latin1 = encoding_rs::WINDOWS_1252.encode(&html).0.into_owned();
        let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        enc.write_all(&latin1).unwrap();
        let gz = enc.finish().unwrap();
        let builtin: Arc<dyn Scorer> = BUILTIN.clone();
        let threshold: Arc<dyn Scorer> = Arc::new(Threshold(0.5));
        for scorer in [builtin, threshold] {
            let opts = Options::new().scorer(Arc::clone(&scorer));
            for bytes in [html.as_bytes(), &latin1, &gz] {
                let text = crate::extract_text(bytes, Arc::clone(&scorer)).unwrap();
                assert!(text.contains("Déjà vu, the words of a café"), "{text}");
                assert_eq!(text, opts.extract(bytes).unwrap().text());
            }
            let cut = &gz[..gz.len() / 2];
            let err = crate::extract_text(cut, Arc::clone(&scorer)).unwrap_err();
            assert!(matches!(err, Error::Gzip(_)), "{err}");
            assert_eq!(err.to_string(), opts.extract(cut).unwrap_err().to_string());
        }
    }

    #[test]
    fn binary_input_is_an_error() {
        assert!(matches!(
            extract(b"%PDF-1.7 ...").unwrap_err(),
            Error::NotHtml(_)
        ));
    }

    #[test]
    fn a_str_ignores_its_meta_charset_and_bytes_follow_it() {
        let html = format!(
            "<meta charset=iso-8859-1>{}",
            page("Déjà vu, the words of a café.")
        );
        let doc = extract_str(&html).unwrap();
        assert!(
            doc.text().contains("Déjà vu, the words of a café."),
            "{}",
            doc.text()
        );
        assert_eq!(doc.encoding(), "UTF-8");
        let latin1 = encoding_rs::WINDOWS_1252.encode(&html).0;
        let doc = extract(&latin1).unwrap();
        assert!(
            doc.text().contains("Déjà vu, the words of a café."),
            "{}",
            doc.text()
        );
        assert_eq!(doc.encoding(), "windows-1252");
    }

    #[test]
    fn the_threshold_option_replaces_the_model() {
        let doc = Options::new()
            .threshold(0.5)
            .extract(b"<p>Plain words win.</p><ul><li><a href=/x>x</a></li></ul>")
            .unwrap();
        assert_eq!(doc.text(), "Plain words win.");
        assert_eq!(doc.lines().len(), 2);
        assert_eq!(doc.kept_lines(), 1);
    }
    #[test]
    fn without_structure_markdown_is_plain_paragraphs_and_the_rest_is_the_same() {
        let page = "<title>Tides</title><h2>Crossing the <em>sands</em></h2>\
                    <ol><li>Read the table of the tides before setting out.</li>\
                    <li>Walk back <a href=/t>well before</a> the water returns.</li></ol>\
                    <pre>low  06:12\n\nhigh 12:30</pre>\
                    <table><tr><th>Day</th><th>Low water</th></tr><tr><td>Monday</td><td>06:12</td></tr></table>";
        let opts = Options::new()
            .threshold(0.0)
            .links(true)
            .markdown_in_json(true);
        let full = opts.extract_str(page).unwrap();
        let plain = opts.markdown_structure(false).extract_str(page).unwrap();
        assert_eq!(plain.text(), full.text());
        assert_eq!(plain.metadata(), full.metadata());
        let stripped: Vec<Decision> = full
            .lines()
            .iter()
            .cloned()
            .map(|mut d| {
                d.line.structure = None;
                d
            })
            .collect();
        assert_eq!(plain.lines(), stripped.as_slice());
        assert!(full.markdown().contains("1. Read"), "{}", full.markdown());
        assert_eq!(
            plain.markdown(),
            "# Tides\n\n## Crossing the sands\n\nRead the table of the tides before setting out.\n\n\
             Walk back well before the water returns.\n\nlow  06:12\nhigh 12:30\n\n\
             Day\n\nLow water\n\nMonday\n\n06:12\n"
        );
        assert_eq!(plain.to_json()["markdown"], plain.markdown());
        assert_eq!(plain.to_json()["text"], full.to_json()["text"]);
    }
}
