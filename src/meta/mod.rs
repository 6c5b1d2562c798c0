//! Page metadata: title, author, dates, site name, description, language, image, canonical
//! URL and the page's own type hints.
//!
//! The [`Splitter`](crate::lines::Splitter) collects what these come from as it reads, when
//! asked to ([`Splitter::with_metadata`](crate::lines::Splitter::with_metadata)): the
//! `<title>` text, `<meta name|property|itemprop content>` (Open Graph `og:*`, `article:*`,
//! `author`, `description`, Dublin Core `dc.*`/`dcterms.*`, `twitter:*`), `<link
//! rel=canonical>`, `<base href>`, `<html lang>`, JSON-LD (`<script
//! type="application/ld+json">`), the first `<time datetime>`, the first `<h1>` line and
//! the inner HTML of the first elements marked as an author's (`itemprop=author`, `<a
//! rel=author>`, a class naming an author or a byline). No second parse is made and memory
//! stays bounded: every value is cut at [`MAX_VALUE_BYTES`], at most [`MAX_META_TAGS`]
//! `<meta>` tags are kept, JSON-LD is read up to [`MAX_JSON_LD_BYTES`] per script and in
//! total, and an author element up to 2 KiB (32 of them a page).
//!
//! What the head gives is complete when the first line of the body comes out; JSON-LD in
//! the body, the first `<h1>` and `<time>` are known at the end.
//!
//! ```
//! use mainline::Splitter;
//!
//! let html = r#"<html lang=en><head><title>Fish soup | The Kitchen</title>
//! <meta property="og:site_name" content="The Kitchen">
//! <meta name="author" content="Ann Lee">
//! <meta property="article:published_time" content="2024-03-01T08:00:00Z">
//! <script type="application/ld+json">{"@type": "Recipe", "description": "A soup."}</script>
//! </head><body><p>Boil the fish.</p></body></html>"#;
//! let mut splitter = Splitter::new().with_metadata(true);
//! splitter.write(html.as_bytes())?;
//! splitter.end()?;
//! let meta = splitter.metadata().expect("asked for");
//! assert_eq!(meta.title.as_deref(), Some("Fish soup"));
//! assert_eq!(meta.site_name.as_deref(), Some("The Kitchen"));
//! assert_eq!(meta.author.as_deref(), Some("Ann Lee"));
//! assert_eq!(meta.published.as_deref(), Some("2024-03-01T08:00:00Z"));
//! assert_eq!(meta.description.as_deref(), Some("A soup."));
//! assert_eq!(meta.language.as_deref(), Some("en"));
//! assert_eq!(meta.page_types, ["Recipe"]);
//! # Ok::<(), mainline::Error>(())
//! ```

mod author;
mod byline;
mod date;
mod json_ld;
mod published;
#[cfg(test)]
mod tests;
mod title;
mod url;

use std::sync::Arc;

pub(crate) use author::AuthorMark;
pub(crate) use byline::byline_descriptor;
pub use date::iso_date;
use date::text_date;
use json_ld::{JsonLd, Ld};
use published::{DECLARED_KEYS, Dates, date_key};
pub use title::trim_site_name;
pub use url::resolve;

/// The longest value kept (a title, a `<meta>` content, a URL), in bytes; longer ones are
/// cut at a character boundary.
pub const MAX_VALUE_BYTES: usize = 4096;

/// The most `<meta>` tags kept (the first ones of the page that mainline reads).
pub const MAX_META_TAGS: usize = 256;

/// The most JSON-LD bytes read, per script and over the page: a longer script is not read.
pub const MAX_JSON_LD_BYTES: usize = 256 * 1024;

/// What a page says about itself.
///
/// Each field is taken from the first source that has it, in the order given. Text is
/// decoded (character references) and whitespace collapsed.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize)]
#[non_exhaustive]
pub struct Metadata {
    /// The title: JSON-LD `headline` (or `name`) of the page's article, `dc.title`,
    /// `dcterms.title`, `og:title`, `twitter:title`, `parsely-title`, `<title>` with the
    /// site name trimmed, the first `<h1>`.
    pub title: Option<String>,
    /// The author(s): JSON-LD `author`, `dc.creator`, `dcterms.creator`, `<meta
    /// name=author>`, `article:author` or `og:article:author` (unless a URL),
    /// `parsely-author`, the `twitter:dataN` labelled `Written by`; else from the body (outside
    /// navigation, forms, asides, comments and lists of related pages): an element marked
    /// `itemprop=author` (its `itemprop=name`), an `<a rel=author>`, the first short line in
    /// an element whose class or id names a byline or an author, such an element within a
    /// line, a line starting `By ` near the headline, a line starting `Written by` or the
    /// line after that label alone.
    pub author: Option<String>,
    /// When the page was first published (ISO 8601): JSON-LD `datePublished`,
    /// `article:published_time`, `dc.date`, `date` and other date-naming `<meta>` keys,
    /// microdata `datePublished`/`dateCreated`, unless the day shown with the headline
    /// says otherwise (see `shown_over_declared`); else a date in the text, the first
    /// `<time datetime>`, the declared `dateModified`.
    pub published: Option<String>,
    /// When it was last changed (ISO 8601): JSON-LD `dateModified`,
    /// `article:modified_time`, `og:updated_time`.
    pub modified: Option<String>,
    /// The site's name: `og:site_name`, JSON-LD `publisher` name, `application-name`.
    pub site_name: Option<String>,
    /// A summary: JSON-LD `description`, `og:description`, `description`,
    /// `dc.description`, `twitter:description`.
    pub description: Option<String>,
    /// The language: `<html lang>`, `og:locale` (as a language tag), `content-language`.
    pub language: Option<String>,
    /// The page's image: `og:image`, `twitter:image`, JSON-LD `image`.
    pub image: Option<String>,
    /// The page's own URL: `<link rel=canonical>`, `og:url` (absolute against `<base
    /// href>` when relative).
    pub url: Option<String>,
    /// The `<base href>`, as written.
    pub base: Option<String>,
    /// The page's own type hints: `og:type`, then the JSON-LD `@type`s, without repeats.
    pub page_types: Vec<String>,
    /// The `<title>` element's text, as written (whitespace collapsed).
    pub html_title: Option<String>,
    /// The text of the first `<h1>` line.
    pub first_h1: Option<String>,
    /// Lines of the page so far.
    pub lines: u64,
    /// Text bytes of those lines.
    pub text_bytes: u64,
    /// Lines inside `<article>`, `<main>`, `role=main|article` or `itemprop=articleBody`.
    pub article_lines: u64,
    /// Text bytes of those lines.
    pub article_text_bytes: u64,
    /// `published` is none or was read from the text of the page, which a date in the
    /// page's URL given from outside (`--url`) comes before.
    #[serde(skip)]
    pub(crate) published_weak: bool,
}

/// What the collector is reading the raw text of.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Target {
    Title,
    JsonLd,
}

/// Raw text being read: the bytes from `next` on, until an end tag leaves `depth` open
/// elements.
#[derive(Debug)]
struct Capture {
    target: Target,
    depth: usize,
    next: u64,
    buf: Vec<u8>,
    /// The text went beyond its cap (a JSON-LD script is then not read).
    over: bool,
}

/// The inner HTML of an author element being read, until an end tag leaves `depth` open
/// elements.
#[derive(Debug)]
struct AuthorCapture {
    mark: AuthorMark,
    depth: usize,
    next: u64,
    buf: Vec<u8>,
}

/// Where a line sits, as [`Collector::line`] needs it (the splitter reads it from the
/// line's context bits).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Place {
    /// Inside `<article>`, `<main>` or an element marked as the article (`role`,
    /// `itemprop=articleBody`).
    pub(crate) article: bool,
    /// Inside a navigation, footer, aside or form.
    pub(crate) boilerplate: bool,
    /// Inside a `<footer>` within the article and no navigation, aside or form: the
    /// article's own footer, which holds its byline and date.
    pub(crate) article_footer: bool,
}

/// Where the page's metadata gives no publication date, or only one read from its text,
/// the day in the path of `url` (the page's address given from outside: `--url`, a WARC
/// record's URI) is the date.
pub(crate) fn published_from_url(meta: &mut Metadata, url: Option<&str>) {
    if meta.published_weak {
        if let Some(day) = url.and_then(date::url_date) {
            meta.published = Some(day.iso());
            meta.published_weak = false;
        }
    }
}

/// How many lines after the first `<h1>` a date written out belongs to the headline.
const NEAR_HEADLINE: u64 = 10;

/// Whether a lower-case `tag.class#id` descriptor (or a class) names a date: `date`,
/// `time`, `publish`, `posted`, `dateline`, and with `strict` unset `meta` too; not
/// comments, updates or modifications.
fn date_named(d: &str, strict: bool) -> bool {
    let named = ["date", "publish", "posted", "pubtime", "timestamp"]
        .iter()
        .any(|w| d.contains(w))
        || (!strict && (d.contains("time") || d.contains("meta") || d.contains("byline")));
    named
        && !["comment", "modif", "update", "reply"]
            .iter()
            .any(|w| d.contains(w))
}

/// Collects metadata for a [`Splitter`](crate::lines::Splitter). Bounded: see the
/// [module documentation](self).
#[derive(Debug, Default)]
pub(crate) struct Collector {
    title: Option<String>,
    /// `(key, content)`: the `name`, `property` or `itemprop` in lower case.
    metas: Vec<(String, String)>,
    canonical: Option<String>,
    base: Option<String>,
    lang: Option<String>,
    time: Option<String>,
    h1: Option<String>,
    byline: Option<String>,
    /// The names of a line starting `By ` near the headline.
    by_line: Option<String>,
    /// The value of an element marked `itemprop=datePublished` (its `content` or
    /// `datetime`).
    itemprop_date: Option<String>,
    /// The `datetime` of the first `<time>` marked as the publication's (`pubdate`,
    /// `itemprop=datePublished`, a class naming publication).
    pub_time: Option<String>,
    /// The line index of the first `<h1>`.
    h1_line: Option<u64>,
    /// The text of the first line within [`NEAR_HEADLINE`] lines after the first `<h1>`
    /// that has a date.
    shown: Option<String>,
    /// The last line before the first `<h1>` that has a date, with its index.
    before_h1: Option<(u64, String)>,
    /// The text of the first line with a date in an element named for a date.
    date_element: Option<String>,
    /// The first line that starts with a date's label (`Published`, `Updated on`, …) and
    /// has a date.
    labelled_date: Option<String>,
    /// The `datetime` of the first `<time>` marked `itemprop=dateCreated` (a question's, a
    /// post's; a `<meta itemprop=dateCreated>` is read with the other `<meta>`s).
    itemprop_created: Option<String>,
    /// The first line of at most 50 bytes with a date.
    first_dated: Option<String>,
    /// The `title` of the first `<span>`, `<abbr>` or `<time>` whose title is a date (a
    /// date shown short, its full form on hover).
    title_date: Option<String>,
    /// The inner HTML of elements marked as an author's being read, by [`AuthorMark`] (an
    /// element with one mark may hold one with another).
    author_capture: [Option<AuthorCapture>; 3],
    /// The names read from elements marked as an author's, by [`AuthorMark`].
    marked: [Option<String>; 3],
    /// Author elements read so far (at most [`author::MAX_AUTHOR_ELEMENTS`]).
    author_elements: u32,
    /// The index of the line after the first line that is a byline's label alone.
    after_label: Option<u64>,
    /// The name on the line after a byline's label alone, or on the first line that starts
    /// with a label only bylines have ([`author::strong_label`]).
    labelled: Option<String>,
    /// Descriptors of ancestors already looked at for a byline, with the answer (the
    /// lines of one container share them).
    byline_seen: Vec<(Arc<str>, bool)>,
    json_ld: JsonLd,
    /// `datePublished` and `dateModified` of JSON-LD held in a `<meta>`'s content.
    meta_ld_published: Option<String>,
    meta_ld_modified: Option<String>,
    json_ld_bytes: usize,
    capture: Option<Capture>,
    /// Open-element depth of an `svg` or `math` element being read (its `<title>` is not
    /// the page's).
    foreign: Option<usize>,
    /// A line of the body has come out.
    body: bool,
    /// Collect only what the head gives ([`Collector::head_only`]).
    head_only: bool,
    /// The metadata as known when the first line of the body came out.
    head: Option<Box<Metadata>>,
    lines: u64,
    text_bytes: u64,
    article_lines: u64,
    article_text_bytes: u64,
}

/// Whether a start tag of this name (as written) matters to the [`Collector`].
pub(crate) fn wanted(name: &[u8]) -> bool {
    const NAMES: [&[u8]; 11] = [
        b"title", b"meta", b"link", b"base", b"html", b"script", b"svg", b"math", b"time", b"span",
        b"abbr",
    ];
    matches!(name.len(), 3..=6) && NAMES.iter().any(|n| n.eq_ignore_ascii_case(name))
}

impl Collector {
    /// A collector that stops once the head has been read: [`Collector::head`] is all it
    /// gives (the page hints of [`crate::second_stage::hints`] read no more).
    pub(crate) fn head_only() -> Self {
        Collector {
            head_only: true,
            ..Collector::default()
        }
    }

    /// The metadata as known when the first line of the body came out: what the head
    /// gives (and whatever came before that line). The same for any chunking of the input.
    pub(crate) fn head(&self) -> Option<&Metadata> {
        self.head.as_deref()
    }

    /// A start tag of a [`wanted`] name (`name` in lower case); `get` gives the value of
    /// its first attribute of a name (in lower case; the name's case in the page is
    /// ignored), decoded; `end` is the offset after the tag and `depth` the number of open
    /// elements before it.
    pub(crate) fn start_tag<'v>(
        &mut self,
        name: &str,
        get: &dyn Fn(&str) -> Option<std::borrow::Cow<'v, str>>,
        end: u64,
        depth: usize,
        content: bool,
    ) {
        if self.capture.is_some() || (self.head_only && self.body) {
            return;
        }
        match name {
            "svg" | "math" if content && self.foreign.is_none() => self.foreign = Some(depth),
            "title" if self.title.is_none() && self.foreign.is_none() && content => {
                self.capture = Some(Capture {
                    target: Target::Title,
                    depth,
                    next: end,
                    buf: Vec::new(),
                    over: false,
                });
            }
            "script" if content && self.json_ld_bytes < MAX_JSON_LD_BYTES => {
                let ld = get("type")
                    .is_some_and(|t| t.trim().eq_ignore_ascii_case("application/ld+json"));
                if ld {
                    self.capture = Some(Capture {
                        target: Target::JsonLd,
                        depth,
                        next: end,
                        buf: Vec::new(),
                        over: false,
                    });
                }
            }
            "meta" => {
                let Some(content) = get("content") else {
                    return;
                };
                // A `<meta>` may carry a whole JSON-LD object as its content (its quotes
                // written `&quot;`): its dates are read, after those of the page's scripts.
                let value = content.trim_start();
                if value.starts_with('{')
                    && value.contains("@type")
                    && self.json_ld_bytes < MAX_JSON_LD_BYTES
                {
                    self.json_ld_bytes += value.len();
                    let value = htmlize::unescape(value);
                    if let Ok(v) = serde_json::from_str::<Ld>(&value) {
                        let mut ld = JsonLd::default();
                        ld.read(&v, 0);
                        self.meta_ld_published = self.meta_ld_published.take().or(ld.published);
                        self.meta_ld_modified = self.meta_ld_modified.take().or(ld.modified);
                    }
                    return;
                }
                for key in ["property", "name", "itemprop", "http-equiv"] {
                    let Some(keys) = get(key) else { continue };
                    // NOTE: a value may name several properties (`property="dc:title
                    // og:title"`).
                    for k in keys.split_ascii_whitespace() {
                        if self.metas.len() < MAX_META_TAGS && interesting(k) {
                            self.metas.push((normal_key(k), clean(&content)));
                        }
                    }
                }
            }
            "link" => {
                let canonical = get("rel").is_some_and(|r| {
                    r.split_ascii_whitespace()
                        .any(|w| w.eq_ignore_ascii_case("canonical"))
                });
                if canonical && self.canonical.is_none() {
                    self.canonical = get("href").map(|h| cut(h.trim()).to_string());
                }
            }
            "base" if self.base.is_none() => {
                self.base = get("href").map(|h| cut(h.trim()).to_string());
            }
            "html" if self.lang.is_none() => {
                self.lang = get("lang")
                    .or_else(|| get("xml:lang"))
                    .map(|l| clean(&l))
                    .filter(|l| !l.is_empty());
            }
            "span" | "abbr" | "time" if self.title_date.is_none() => {
                self.title_attr_date(get);
                if name == "time" {
                    self.time_tag(get);
                }
            }
            "time" => self.time_tag(get),
            _ => {}
        }
    }

    /// A `<span>`, `<abbr>` or `<time>` whose `title` is a date (at most 40 bytes).
    #[cold]
    fn title_attr_date<'v>(&mut self, get: &dyn Fn(&str) -> Option<std::borrow::Cow<'v, str>>) {
        let Some(t) = get("title") else { return };
        let t = clean(&t);
        if t.len() <= 40 && (iso_date(&t).is_some() || text_date(&t, false).is_some()) {
            self.title_date = Some(t);
        }
    }

    /// A `<time>`: its `datetime`, and whether it is marked as the publication's.
    fn time_tag<'v>(&mut self, get: &dyn Fn(&str) -> Option<std::borrow::Cow<'v, str>>) {
        let datetime = || get("datetime").map(|t| clean(&t)).filter(|t| !t.is_empty());
        if self.pub_time.is_none() {
            let marked = get("pubdate").is_some()
                || get("itemprop").is_some_and(|p| p.eq_ignore_ascii_case("datepublished"))
                || get("class").is_some_and(|c| date_named(&c.to_ascii_lowercase(), true));
            if marked {
                self.pub_time = datetime();
            }
        }
        if self.time.is_none() {
            self.time = datetime();
        }
        if self.itemprop_created.is_none()
            && get("itemprop").is_some_and(|p| p.eq_ignore_ascii_case("datecreated"))
        {
            self.itemprop_created = datetime();
        }
    }

    /// An end tag leaves `depth` open elements; it starts at offset `at`.
    pub(crate) fn end_tag(
        &mut self,
        depth: usize,
        at: u64,
        encoding: &'static encoding_rs::Encoding,
    ) {
        if self.foreign.is_some_and(|d| depth <= d) {
            self.foreign = None;
        }
        for i in 0..self.author_capture.len() {
            if self.author_capture[i]
                .as_ref()
                .is_some_and(|c| depth <= c.depth)
            {
                let mut c = self.author_capture[i].take().expect("checked");
                if c.next > at {
                    let extra = usize::try_from(c.next - at).unwrap_or(usize::MAX);
                    c.buf.truncate(c.buf.len().saturating_sub(extra));
                }
                self.finish_author(c, encoding);
            }
        }
        if self.capture.as_ref().is_some_and(|c| depth <= c.depth) {
            let mut c = self.capture.take().expect("checked");
            // Bytes of the end tag itself may already have been taken.
            if c.next > at {
                let extra = usize::try_from(c.next - at).unwrap_or(usize::MAX);
                c.buf.truncate(c.buf.len().saturating_sub(extra));
            }
            self.finish(c, encoding);
        }
    }

    /// While raw text is being read: the offset of its next byte.
    pub(crate) fn capture_next(&self) -> Option<u64> {
        let raw = self.capture.as_ref().map(|c| c.next);
        let authors = self.author_capture.iter().flatten().map(|c| c.next);
        raw.into_iter().chain(authors).min()
    }

    /// The bytes from offset `base` on are `bytes`: takes those of the text being read.
    pub(crate) fn bytes(&mut self, bytes: &[u8], base: u64) {
        let end = base + bytes.len() as u64;
        for c in self.author_capture.iter_mut().flatten() {
            if c.next < end {
                let from = usize::try_from(c.next.saturating_sub(base)).unwrap_or(usize::MAX);
                let piece = bytes.get(from..).unwrap_or_default();
                let room = author::MAX_AUTHOR_HTML.saturating_sub(c.buf.len());
                c.buf.extend_from_slice(&piece[..piece.len().min(room)]);
                c.next = end;
            }
        }
        let Some(c) = &mut self.capture else { return };
        if c.next >= end {
            return;
        }
        let from = usize::try_from(c.next.saturating_sub(base)).unwrap_or(usize::MAX);
        let piece = bytes.get(from..).unwrap_or_default();
        let cap = match c.target {
            Target::Title => MAX_VALUE_BYTES * 2,
            Target::JsonLd => MAX_JSON_LD_BYTES.min(MAX_JSON_LD_BYTES - self.json_ld_bytes),
        };
        let room = cap.saturating_sub(c.buf.len());
        if piece.len() > room {
            c.over = true;
        }
        c.buf.extend_from_slice(&piece[..piece.len().min(room)]);
        c.next = end;
    }

    /// A line of the body has come out with this text, heading level, place (whether it is
    /// inside an article, and inside a navigation, footer, aside or form) and nearest
    /// classed ancestors.
    pub(crate) fn line(&mut self, text: &str, heading: u8, place: Place, ancestors: &[Arc<str>]) {
        if !self.body {
            self.head = Some(Box::new(self.collected(true)));
            self.body = true;
        }
        if self.head_only {
            return;
        }
        let Place {
            article,
            boilerplate,
            article_footer,
        } = place;
        if self.byline.is_none()
            && self.lines < 4096
            && (3..=120).contains(&text.len())
            && !boilerplate
            && text.chars().any(char::is_alphabetic)
            && self.byline_element(ancestors)
        {
            self.byline = byline::byline_name(text);
        }
        if self.labelled.is_none() && !boilerplate && self.lines < 4096 {
            if self.after_label == Some(self.lines)
                || text.len() <= 120 && author::strong_label(text)
            {
                self.labelled = byline::byline_name(text);
            }
            // NOTE: "by" alone is not taken as a label: it ends many lines of code.
            if self.after_label.is_none_or(|l| l < self.lines)
                && author::label_alone(text)
                && !text.trim().eq_ignore_ascii_case("by")
            {
                self.after_label = Some(self.lines + 1);
            }
        }
        if self.by_line.is_none()
            && text.len() <= 100
            && (text.starts_with("By ") || text.starts_with("by "))
            && self
                .h1_line
                .is_some_and(|h| self.lines <= h + NEAR_HEADLINE + 1)
            && !boilerplate
        {
            self.by_line = byline::byline_name(text);
        }
        self.lines += 1;
        self.text_bytes += text.len() as u64;
        if article {
            self.article_lines += 1;
            self.article_text_bytes += text.len() as u64;
        }
        if heading == 1 && self.h1.is_none() {
            self.h1 = Some(cut(text).to_string());
            self.h1_line = Some(self.lines - 1);
        }
        if (self.shown.is_none()
            || self.date_element.is_none()
            || (self.labelled_date.is_none() && date::may_be_labelled(text)))
            && text.len() <= 200
            && self.lines <= 4096
            && (!boilerplate || article_footer)
            && date::has_year(text)
        {
            self.dated_line(text, ancestors);
        }
    }

    /// A line of the body with a year in it: a date near the headline or in an element
    /// named for a date is kept.
    #[cold]
    fn dated_line(&mut self, text: &str, ancestors: &[Arc<str>]) {
        let line = self.lines - 1;
        let Some(_) = text_date(text, false) else {
            return;
        };
        match self.h1_line {
            Some(h) if self.shown.is_none() && line <= h + NEAR_HEADLINE => {
                self.shown = Some(text.to_string());
            }
            None => self.before_h1 = Some((line, text.to_string())),
            _ => {}
        }
        if self.first_dated.is_none() && text.len() <= 50 {
            self.first_dated = Some(text.to_string());
        }
        if self.labelled_date.is_none() && date::labelled(text) {
            self.labelled_date = Some(text.to_string());
        }
        if self.date_element.is_none()
            && ancestors
                .iter()
                .take(2)
                .any(|d| date_named(&d.to_ascii_lowercase(), false))
        {
            self.date_element = Some(text.to_string());
        }
    }

    /// An element marked `itemprop=datePublished`, with its `content` or `datetime`.
    pub(crate) fn itemprop_date(&mut self, value: Option<&str>) {
        if self.itemprop_date.is_none() {
            self.itemprop_date = value.map(clean).filter(|v| !v.is_empty());
        }
    }

    /// Whether one of the two nearest classed ancestors names a byline or an author.
    // NOTE: this runs for most early lines of a page, whose ancestors repeat from line to
    // line: the answers for the last few descriptors are kept (the `Arc`s held, so that
    // their addresses are not reused by other descriptors).
    fn byline_element(&mut self, ancestors: &[Arc<str>]) -> bool {
        ancestors.iter().take(2).any(|d| {
            if let Some((_, yes)) = self.byline_seen.iter().find(|(a, _)| Arc::ptr_eq(a, d)) {
                return *yes;
            }
            let yes = byline_descriptor(d);
            if self.byline_seen.len() >= 8 {
                self.byline_seen.remove(0);
            }
            self.byline_seen.push((Arc::clone(d), yes));
            yes
        })
    }

    /// The input ends.
    pub(crate) fn finish_input(&mut self, encoding: &'static encoding_rs::Encoding) {
        if let Some(c) = self.capture.take() {
            self.finish(c, encoding);
        }
        for i in 0..self.author_capture.len() {
            if let Some(c) = self.author_capture[i].take() {
                self.finish_author(c, encoding);
            }
        }
    }

    /// Whether an element with this mark would be read as an author's: none with that mark
    /// has given a name yet and none is being read.
    pub(crate) fn wants_author(&self, mark: AuthorMark) -> bool {
        !self.head_only
            && self.author_capture[mark as usize].is_none()
            && self.author_elements < author::MAX_AUTHOR_ELEMENTS
            && self.marked[mark as usize].is_none()
    }

    /// An element marked as an author's starts (its start tag ends at offset `end`, with
    /// `depth` open elements before it), outside navigation, asides, forms and comments:
    /// its inner HTML is read for a name.
    pub(crate) fn author_element(&mut self, mark: AuthorMark, end: u64, depth: usize) {
        if !self.wants_author(mark) {
            return;
        }
        self.author_elements += 1;
        self.author_capture[mark as usize] = Some(AuthorCapture {
            mark,
            depth,
            next: end,
            buf: Vec::new(),
        });
    }

    fn finish_author(&mut self, c: AuthorCapture, encoding: &'static encoding_rs::Encoding) {
        let html = encoding.decode_without_bom_handling(&c.buf).0;
        let slot = &mut self.marked[c.mark as usize];
        if slot.is_none() {
            *slot = author::element_name(&html, c.mark == AuthorMark::Itemprop);
        }
    }

    fn finish(&mut self, c: Capture, encoding: &'static encoding_rs::Encoding) {
        let text = encoding.decode_without_bom_handling(&c.buf).0;
        match c.target {
            Target::Title => {
                self.title = Some(clean(&htmlize::unescape(text.as_ref())));
            }
            Target::JsonLd => {
                self.json_ld_bytes += c.buf.len();
                if c.over {
                    return;
                }
                if let Ok(value) = serde_json::from_str::<Ld>(json_ld::unwrap(&text)) {
                    self.json_ld.read(&value, 0);
                }
            }
        }
    }

    /// Whether the head has been read (a line of the body has come out).
    pub(crate) fn head_done(&self) -> bool {
        self.body
    }

    /// The metadata as collected so far.
    pub(crate) fn metadata(&self) -> Metadata {
        self.collected(false)
    }

    /// The metadata as collected so far; with `head`, the title as the head declares it
    /// (what the page hints of [`crate::second_stage::hints`] read), else the first `<h1>` when
    /// the declared title confirms it.
    fn collected(&self, head: bool) -> Metadata {
        let meta = |keys: &[&str]| -> Option<String> {
            keys.iter().find_map(|k| {
                self.metas
                    .iter()
                    .find(|(key, v)| key == k && !v.is_empty())
                    .map(|(_, v)| v.clone())
            })
        };
        let ld = &self.json_ld;
        let site_name = meta(&["og:site_name"])
            .or_else(|| ld.publisher.clone())
            .or_else(|| ld.website.clone())
            .or_else(|| meta(&["application-name"]));
        let html_title = self.title.clone().filter(|t| !t.is_empty());
        let title = ld
            .headline
            .clone()
            .or_else(|| {
                meta(&[
                    "dc.title",
                    "dcterms.title",
                    "og:title",
                    "twitter:title",
                    "parsely-title",
                ])
            })
            .or_else(|| {
                html_title
                    .as_deref()
                    .map(|t| trim_site_name(t, site_name.as_deref()))
            })
            .or_else(|| self.h1.clone());
        let title = if head {
            title
        } else {
            let site = site_name.as_deref();
            let og = meta(&["og:title", "twitter:title"]);
            let confirmed = self.h1.as_deref().map(clean).filter(|h| {
                site.is_none_or(|s| !title::same_words(h, s))
                    && [title.as_deref(), html_title.as_deref(), og.as_deref()]
                        .into_iter()
                        .flatten()
                        .any(|d| title::confirms(h, d))
            });
            confirmed.or_else(|| title.map(|t| trim_site_name(&t, site)))
        };
        let [itemprop_author, rel_author, class_author] = &self.marked;
        let text_byline = itemprop_author
            .clone()
            .or_else(|| rel_author.clone())
            .or_else(|| self.byline.clone())
            .or_else(|| class_author.clone())
            .or_else(|| self.by_line.clone())
            .or_else(|| self.labelled.clone());
        let org = ld.author_org && text_byline.is_some();
        let author = (if org { None } else { ld.author.clone() })
            .or_else(|| meta(&["dc.creator", "dcterms.creator", "author"]))
            .or_else(|| {
                meta(&["article:author", "og:article:author"]).filter(|a| !a.contains("://"))
            })
            .or_else(|| meta(&["parsely-author", "sailthru.author"]))
            .or_else(|| self.twitter_author())
            .or_else(|| text_byline.clone())
            .or_else(|| ld.author.clone());
        let Dates {
            published,
            modified,
            published_weak,
        } = self.dates(&meta);
        let description = ld.description.clone().or_else(|| {
            meta(&[
                "og:description",
                "description",
                "dc.description",
                "dcterms.description",
                "twitter:description",
            ])
        });
        let language = self
            .lang
            .clone()
            .or_else(|| meta(&["og:locale"]).map(|l| l.replace('_', "-")))
            .or_else(|| meta(&["content-language"]));
        let image = meta(&[
            "og:image",
            "og:image:url",
            "twitter:image",
            "twitter:image:src",
        ])
        .or_else(|| ld.image.clone());
        let base = self.base.clone();
        let url = self
            .canonical
            .clone()
            .or_else(|| meta(&["og:url"]))
            .or_else(|| ld.url.clone())
            .filter(|u| !u.is_empty())
            .map(|u| match &base {
                Some(b) => resolve(b, &u).unwrap_or(u),
                None => u,
            });
        let mut page_types: Vec<String> = Vec::new();
        for t in meta(&["og:type"])
            .into_iter()
            .chain(ld.types.iter().cloned())
        {
            if !page_types.contains(&t) {
                page_types.push(t);
            }
        }
        Metadata {
            title: title.filter(|t| !t.is_empty()),
            author,
            published,
            modified,
            site_name,
            description,
            language,
            image,
            url,
            base,
            page_types,
            html_title,
            first_h1: self.h1.clone(),
            lines: self.lines,
            text_bytes: self.text_bytes,
            article_lines: self.article_lines,
            article_text_bytes: self.article_text_bytes,
            published_weak,
        }
    }
}

impl Collector {
    /// The `twitter:dataN` whose `twitter:labelN` is `Written by` or `Author`.
    fn twitter_author(&self) -> Option<String> {
        let (key, _) = self.metas.iter().find(|(k, v)| {
            k.starts_with("twitter:label")
                && ["written by", "author", "by", "authors"]
                    .iter()
                    .any(|l| v.trim_end_matches(':').eq_ignore_ascii_case(l))
        })?;
        let data = format!("twitter:data{}", &key["twitter:label".len()..]);
        let (_, value) = self.metas.iter().find(|(k, _)| *k == data)?;
        byline::given_name(value)
    }
}

/// A `<meta>` key in lower case, Dublin Core's `dc:`/`dcterm:`/`dcterms:` prefixes
/// written `dc.` and `dcterms.`.
fn normal_key(key: &str) -> String {
    let k = key.trim().to_ascii_lowercase();
    for (from, to) in [
        ("dc:", "dc."),
        ("dcterm:", "dcterms."),
        ("dcterms:", "dcterms."),
        ("dcterm.", "dcterms."),
    ] {
        if let Some(rest) = k.strip_prefix(from) {
            return format!("{to}{rest}");
        }
    }
    k
}

/// Whether a `<meta>` key is one that [`Collector::metadata`] reads.
fn interesting(key: &str) -> bool {
    let k = key.trim();
    // NOTE: bytes, not `str` slices: a key may have a multi-byte character where a
    // prefix would end.
    let prefix = |p: &str| {
        k.as_bytes()
            .get(..p.len())
            .is_some_and(|head| head.eq_ignore_ascii_case(p.as_bytes()))
    };
    prefix("og:")
        || prefix("article:")
        || prefix("twitter:")
        || prefix("dc.")
        || prefix("dcterms.")
        || prefix("dc:")
        || prefix("dcterm:")
        || prefix("parsely-")
        || prefix("sailthru.")
        || prefix("citation_")
        || [
            "author",
            "description",
            "application-name",
            "content-language",
            "datemodified",
        ]
        .iter()
        .chain(&DECLARED_KEYS)
        .any(|n| n.eq_ignore_ascii_case(k))
        || date_key(k)
}

/// A value cut at [`MAX_VALUE_BYTES`], at a character boundary.
fn cut(s: &str) -> &str {
    if s.len() <= MAX_VALUE_BYTES {
        return s;
    }
    let mut end = MAX_VALUE_BYTES;
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    &s[..end]
}

/// Character references decoded, whitespace collapsed, cut at [`MAX_VALUE_BYTES`].
fn clean(s: &str) -> String {
    let s = cut(s);
    let decoded = htmlize::unescape(s);
    let mut out = String::with_capacity(decoded.len());
    for word in decoded.split_whitespace() {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(word);
    }
    out
}
