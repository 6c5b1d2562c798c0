//! Page metadata: title, author, dates, site name, description, language, image, canonical
//! URL and the page's own type hints.
//!
//! The [`Splitter`](crate::lines::Splitter) collects what these come from as it reads, when
//! asked to ([`Splitter::with_metadata`](crate::lines::Splitter::with_metadata)): the
//! `<title>` text, `<meta name|property|itemprop content>` (Open Graph `og:*`, `article:*`,
//! `author`, `description`, Dublin Core `dc.*`/`dcterms.*`, `twitter:*`), `<link
//! rel=canonical>`, `<base href>`, `<html lang>`, JSON-LD (`<script
//! type="application/ld+json">`), the first `<time datetime>` and the first `<h1>` line. No
//! second parse is made and memory stays bounded: every value is cut at [`MAX_VALUE_BYTES`],
//! at most [`MAX_META_TAGS`] `<meta>` tags are kept, and JSON-LD is read up to
//! [`MAX_JSON_LD_BYTES`] per script and in total.
//!
//! What the head gives is complete when the first line of the body comes out; JSON-LD in
//! the body, the first `<h1>` and `<time>` are known at the end.
//!
//! ```
//! use mainline::lines::Splitter;
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

use std::borrow::Cow;
use std::sync::Arc;

use serde::Deserialize;

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
    /// The author(s), joined by `, `: JSON-LD `author`, `dc.creator`, `dcterms.creator`,
    /// `<meta name=author>`, `article:author` (unless a URL), `parsely-author`, else the
    /// text of the first short line of the body in an element whose class or id names a
    /// byline or an author (outside navigation, footers, asides and comments).
    pub author: Option<String>,
    /// When the page was first published (ISO 8601): JSON-LD `datePublished`,
    /// `article:published_time`, `dc.date`, `date`, the first `<time datetime>`.
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
}

/// The fields read from JSON-LD.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
struct JsonLd {
    /// `@type`s of every object, in order.
    types: Vec<String>,
    /// Fields of the main object (an article if there is one).
    headline: Option<String>,
    author: Option<String>,
    published: Option<String>,
    modified: Option<String>,
    publisher: Option<String>,
    description: Option<String>,
    image: Option<String>,
    url: Option<String>,
    /// The main object is article-like (it gets precedence over another).
    article: bool,
    /// The name of a `WebSite` object.
    website: Option<String>,
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

/// Where a line sits, as [`Collector::line`] needs it (the splitter reads it from the
/// line's context bits).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Place {
    /// Inside `<article>`, `<main>` or an element marked as the article (`role`,
    /// `itemprop=articleBody`).
    pub(crate) article: bool,
    /// Inside a navigation, footer, aside or form.
    pub(crate) boilerplate: bool,
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
    /// Descriptors of ancestors already looked at for a byline, with the answer (the
    /// lines of one container share them).
    byline_seen: Vec<(Arc<str>, bool)>,
    json_ld: JsonLd,
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
    const NAMES: [&[u8]; 9] = [
        b"title", b"meta", b"link", b"base", b"html", b"script", b"svg", b"math", b"time",
    ];
    matches!(name.len(), 3..=6) && NAMES.iter().any(|n| n.eq_ignore_ascii_case(name))
}

impl Collector {
    /// A collector that stops once the head has been read: [`Collector::head`] is all it
    /// gives (the page hints of [`crate::stack::hints`] read no more).
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
            "time" if self.time.is_none() => {
                self.time = get("datetime").map(|t| clean(&t)).filter(|t| !t.is_empty());
            }
            _ => {}
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
        self.capture.as_ref().map(|c| c.next)
    }

    /// The bytes from offset `base` on are `bytes`: takes those of the text being read.
    pub(crate) fn bytes(&mut self, bytes: &[u8], base: u64) {
        let Some(c) = &mut self.capture else { return };
        let end = base + bytes.len() as u64;
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
            self.head = Some(Box::new(self.metadata()));
            self.body = true;
        }
        if self.head_only {
            return;
        }
        let Place {
            article,
            boilerplate,
        } = place;
        if self.byline.is_none()
            && self.lines < 4096
            && (3..=120).contains(&text.len())
            && !boilerplate
            && text.chars().any(char::is_alphabetic)
            && self.byline_element(ancestors)
        {
            self.byline = Some(clean(text));
        }
        self.lines += 1;
        self.text_bytes += text.len() as u64;
        if article {
            self.article_lines += 1;
            self.article_text_bytes += text.len() as u64;
        }
        if heading == 1 && self.h1.is_none() {
            self.h1 = Some(cut(text).to_string());
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
                if let Ok(value) = serde_json::from_str::<Ld>(text.trim()) {
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
        let author = ld
            .author
            .clone()
            .or_else(|| meta(&["dc.creator", "dcterms.creator", "author"]))
            .or_else(|| meta(&["article:author"]).filter(|a| !a.contains("://")))
            .or_else(|| meta(&["parsely-author", "sailthru.author"]))
            .or_else(|| self.byline.clone());
        let published = ld
            .published
            .as_deref()
            .and_then(iso_date)
            .or_else(|| {
                [
                    "article:published_time",
                    "og:published_time",
                    "dc.date",
                    "dcterms.created",
                    "dc.date.issued",
                    "date",
                    "pubdate",
                    "parsely-pub-date",
                    "citation_publication_date",
                    "datepublished",
                ]
                .iter()
                .find_map(|k| meta(&[k]).as_deref().and_then(iso_date))
            })
            .or_else(|| self.time.as_deref().and_then(iso_date));
        let modified = ld.modified.as_deref().and_then(iso_date).or_else(|| {
            [
                "article:modified_time",
                "og:updated_time",
                "dcterms.modified",
                "datemodified",
            ]
            .iter()
            .find_map(|k| meta(&[k]).as_deref().and_then(iso_date))
        });
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
        }
    }
}

/// Whether an ancestor's `tag.class#id` descriptor names a byline or an author (and not a
/// comment).
fn byline_descriptor(d: &str) -> bool {
    // NOTE: most descriptors name neither; one pass over the bytes tells, without the set-up
    // of a substring search for each word.
    let b = d.as_bytes();
    let named = (0..b.len().saturating_sub(5)).any(|i| match b[i] | 0x20 {
        b'b' => b[i..i + 6].eq_ignore_ascii_case(b"byline"),
        b'a' => b[i..i + 6].eq_ignore_ascii_case(b"author"),
        _ => false,
    });
    if !named {
        return false;
    }
    let lower: Cow<'_, str> = if d.bytes().any(|b| b.is_ascii_uppercase()) {
        d.to_ascii_lowercase().into()
    } else {
        d.into()
    };
    let has = |word: &str| lower.contains(word);
    (has("byline") || has("author")) && !has("comment") && !has("avatar") && !has("bio")
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
            "date",
            "pubdate",
            "application-name",
            "content-language",
            "datepublished",
            "datemodified",
        ]
        .iter()
        .any(|n| n.eq_ignore_ascii_case(k))
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

/// Separators between a page's title and its site's name in `<title>`.
const SEPARATORS: [&str; 8] = [" | ", " - ", " – ", " — ", " :: ", " » ", " / ", " · "];

/// A `<title>` without the site's name: the part equal to `site` when it is known, else,
/// when the text has a separator, the longest part if it has at least three words.
pub fn trim_site_name(title: &str, site: Option<&str>) -> String {
    let parts: Vec<&str> = {
        let mut parts = vec![title];
        for sep in SEPARATORS {
            parts = parts.iter().flat_map(|p| p.split(sep)).collect();
        }
        parts
            .into_iter()
            .map(str::trim)
            .filter(|p| !p.is_empty())
            .collect()
    };
    if parts.len() < 2 {
        return title.to_string();
    }
    let same = |a: &str, b: &str| {
        let norm = |s: &str| {
            s.chars()
                .filter(|c| c.is_alphanumeric())
                .flat_map(char::to_lowercase)
                .collect::<String>()
        };
        norm(a) == norm(b)
    };
    if let Some(site) = site {
        // Trim parts equal to the site name from either end.
        let mut rest = &parts[..];
        while rest.len() > 1 && same(rest[rest.len() - 1], site) {
            rest = &rest[..rest.len() - 1];
        }
        while rest.len() > 1 && same(rest[0], site) {
            rest = &rest[1..];
        }
        if rest.len() < parts.len() {
            return join_parts(title, rest);
        }
    }
    let longest = parts
        .iter()
        .max_by_key(|p| p.split_whitespace().count())
        .expect("at least two parts");
    if longest.split_whitespace().count() >= 3 {
        longest.to_string()
    } else {
        title.to_string()
    }
}

/// The text of `title` that spans `parts` (consecutive parts of it).
fn join_parts(title: &str, parts: &[&str]) -> String {
    let (Some(first), Some(last)) = (parts.first(), parts.last()) else {
        return title.to_string();
    };
    // The parts are slices of `title`: take the span from the first to the last.
    let start = first.as_ptr() as usize - title.as_ptr() as usize;
    let end = last.as_ptr() as usize - title.as_ptr() as usize + last.len();
    title[start..end].to_string()
}

/// A date as ISO 8601 (`YYYY-MM-DD`, with the time as given when there is one), from the
/// ISO forms and `YYYY/MM/DD`; other forms give nothing.
pub fn iso_date(s: &str) -> Option<String> {
    let s = s.trim();
    let b = s.as_bytes();
    let digits =
        |r: std::ops::Range<usize>| b.get(r).is_some_and(|d| d.iter().all(u8::is_ascii_digit));
    if !(digits(0..4) && digits(5..7) && digits(8..10)) {
        return None;
    }
    if !(b[4] == b[7] && (b[4] == b'-' || b[4] == b'/')) {
        return None;
    }
    let month: u32 = s[5..7].parse().ok()?;
    let day: u32 = s[8..10].parse().ok()?;
    if !(1..=12).contains(&month) || !(1..=31).contains(&day) {
        return None;
    }
    let date = format!("{}-{}-{}", &s[..4], &s[5..7], &s[8..10]);
    let rest = &s[10..];
    let time = rest.strip_prefix('T').or_else(|| rest.strip_prefix(' '));
    match time {
        Some(t) if t.len() >= 5 && t.as_bytes()[2] == b':' && t.is_ascii() => {
            let t: String = t.chars().take_while(|c| !c.is_whitespace()).collect();
            Some(format!("{date}T{t}"))
        }
        _ => Some(date),
    }
}

/// JSON-LD types of articles (schema.org's Article and its subtypes that pages use).
fn article_type(t: &str) -> bool {
    matches!(
        t,
        "Article"
            | "NewsArticle"
            | "BlogPosting"
            | "ScholarlyArticle"
            | "TechArticle"
            | "Report"
            | "AnalysisNewsArticle"
            | "OpinionNewsArticle"
            | "ReportageNewsArticle"
            | "ReviewNewsArticle"
            | "BackgroundNewsArticle"
            | "AdvertiserContentArticle"
            | "SatiricalArticle"
            | "SocialMediaPosting"
            | "LiveBlogPosting"
            | "DiscussionForumPosting"
            | "MedicalScholarlyArticle"
            | "APIReference"
            | "Review"
            | "Recipe"
            | "HowTo"
    )
}

/// A JSON-LD value as read: strings borrowed from the script's text when they hold no
/// escapes, objects as their fields in order.
// NOTE: a `serde_json::Value` copied every string and hashed every key (an IndexMap),
// for the few fields `JsonLd::read` looks at.
#[derive(Debug)]
enum Ld<'a> {
    Str(Cow<'a, str>),
    Array(Vec<Ld<'a>>),
    Object(Vec<(Cow<'a, str>, Ld<'a>)>),
    /// A number, `true`, `false` or `null`.
    Other,
}

impl Ld<'_> {
    fn as_str(&self) -> Option<&str> {
        match self {
            Ld::Str(s) => Some(s),
            _ => None,
        }
    }
}

/// The value of a key of an object (the last one, as in a JSON map, when a key repeats).
fn get<'v, 'a>(map: &'v [(Cow<'a, str>, Ld<'a>)], key: &str) -> Option<&'v Ld<'a>> {
    map.iter().rev().find(|(k, _)| k == key).map(|(_, v)| v)
}

impl<'de> Deserialize<'de> for Ld<'de> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> serde::de::Visitor<'de> for V {
            type Value = Ld<'de>;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a JSON value")
            }
            fn visit_bool<E>(self, _: bool) -> Result<Ld<'de>, E> {
                Ok(Ld::Other)
            }
            fn visit_i64<E>(self, _: i64) -> Result<Ld<'de>, E> {
                Ok(Ld::Other)
            }
            fn visit_u64<E>(self, _: u64) -> Result<Ld<'de>, E> {
                Ok(Ld::Other)
            }
            fn visit_f64<E>(self, _: f64) -> Result<Ld<'de>, E> {
                Ok(Ld::Other)
            }
            fn visit_unit<E>(self) -> Result<Ld<'de>, E> {
                Ok(Ld::Other)
            }
            fn visit_borrowed_str<E>(self, s: &'de str) -> Result<Ld<'de>, E> {
                Ok(Ld::Str(Cow::Borrowed(s)))
            }
            fn visit_str<E>(self, s: &str) -> Result<Ld<'de>, E> {
                Ok(Ld::Str(Cow::Owned(s.to_string())))
            }
            fn visit_string<E>(self, s: String) -> Result<Ld<'de>, E> {
                Ok(Ld::Str(Cow::Owned(s)))
            }
            fn visit_seq<A: serde::de::SeqAccess<'de>>(
                self,
                mut seq: A,
            ) -> Result<Ld<'de>, A::Error> {
                let mut items = Vec::new();
                while let Some(item) = seq.next_element::<Ld<'de>>()? {
                    items.push(item);
                }
                Ok(Ld::Array(items))
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                mut map: A,
            ) -> Result<Ld<'de>, A::Error> {
                let mut fields = Vec::new();
                while let Some((key, value)) = map.next_entry::<Ld<'de>, Ld<'de>>()? {
                    // JSON keys are strings.
                    if let Ld::Str(key) = key {
                        fields.push((key, value));
                    }
                }
                Ok(Ld::Object(fields))
            }
        }
        d.deserialize_any(V)
    }
}

impl JsonLd {
    /// Reads a JSON-LD value: an object, an array of them or a `@graph`.
    fn read(&mut self, value: &Ld, level: usize) {
        if level > 4 {
            return;
        }
        match value {
            Ld::Array(items) => {
                for item in items.iter().take(256) {
                    self.read(item, level + 1);
                }
            }
            Ld::Object(map) => {
                if let Some(graph) = get(map, "@graph") {
                    self.read(graph, level + 1);
                }
                let types = type_names(get(map, "@type"));
                for t in &types {
                    if self.types.len() < 32 && !self.types.contains(t) {
                        self.types.push(t.clone());
                    }
                }
                if types.iter().any(|t| t == "WebSite") && self.website.is_none() {
                    self.website = string(get(map, "name"));
                }
                let article = types.iter().any(|t| article_type(t));
                let page = types.iter().any(|t| t.ends_with("Page"));
                let useful = get(map, "headline").is_some()
                    || (article || page) && get(map, "name").is_some();
                // An article's fields win over another object's; the first of each kind
                // wins.
                if useful && (article && !self.article || self.headline.is_none()) {
                    let keep_old = |new: Option<String>, old: &Option<String>| {
                        if article && !self.article {
                            new.or_else(|| old.clone())
                        } else {
                            old.clone().or(new)
                        }
                    };
                    let headline =
                        string(get(map, "headline")).or_else(|| string(get(map, "name")));
                    self.headline = keep_old(headline, &self.headline);
                    self.author = keep_old(names(get(map, "author")), &self.author);
                    self.published = keep_old(string(get(map, "datePublished")), &self.published);
                    self.modified = keep_old(string(get(map, "dateModified")), &self.modified);
                    self.publisher = keep_old(names(get(map, "publisher")), &self.publisher);
                    self.description = keep_old(string(get(map, "description")), &self.description);
                    self.image = keep_old(image(get(map, "image")), &self.image);
                    self.url = keep_old(string(get(map, "url")), &self.url);
                    self.article |= article;
                } else if self.description.is_none() && (article || page) {
                    self.description = string(get(map, "description"));
                }
                if let Some(main) = get(map, "mainEntity").or_else(|| get(map, "mainEntityOfPage"))
                {
                    if matches!(main, Ld::Object(_)) {
                        self.read(main, level + 1);
                    }
                }
            }
            _ => {}
        }
    }
}

/// The `@type` names of a JSON-LD object (a string or an array of strings).
fn type_names(v: Option<&Ld>) -> Vec<String> {
    match v {
        Some(Ld::Str(s)) => vec![clean(s)],
        Some(Ld::Array(a)) => a.iter().filter_map(Ld::as_str).map(clean).collect(),
        _ => Vec::new(),
    }
}

/// A string value, cleaned; empty strings give nothing.
fn string(v: Option<&Ld>) -> Option<String> {
    match v? {
        Ld::Str(s) => Some(clean(s)).filter(|s| !s.is_empty()),
        Ld::Array(a) => a.iter().find_map(|x| string(Some(x))),
        _ => None,
    }
}

/// Names of people or organisations: strings, `{ "name": … }` objects or arrays of them,
/// joined by `, `.
fn names(v: Option<&Ld>) -> Option<String> {
    let one = |x: &Ld| match x {
        Ld::Str(s) => Some(clean(s)),
        Ld::Object(m) => string(get(m, "name")),
        _ => None,
    };
    let all: Vec<String> = match v? {
        Ld::Array(a) => a.iter().take(32).filter_map(one).collect(),
        x => one(x).into_iter().collect(),
    };
    let all: Vec<String> = all.into_iter().filter(|s| !s.is_empty()).collect();
    (!all.is_empty()).then(|| all.join(", "))
}

/// An image: a URL string, an `ImageObject` with a `url`, or the first of an array.
fn image(v: Option<&Ld>) -> Option<String> {
    match v? {
        Ld::Str(s) => Some(clean(s)).filter(|s| !s.is_empty()),
        Ld::Object(m) => string(get(m, "url")).or_else(|| string(get(m, "contentUrl"))),
        Ld::Array(a) => a.iter().find_map(|x| image(Some(x))),
        _ => None,
    }
}

/// `href` made absolute against `base` (an absolute URL), as a browser resolves links:
/// scheme-relative, absolute-path, query, fragment and relative-path references, with `.`
/// and `..` segments removed. `None` when `base` is not absolute and `href` is relative.
pub fn resolve(base: &str, href: &str) -> Option<String> {
    let href = href.trim();
    if scheme_len(href).is_some() {
        return Some(href.to_string());
    }
    let base = base.trim();
    let scheme = scheme_len(base)?;
    let (scheme_part, rest) = base.split_at(scheme + 1);
    // Authority: after `//` up to the next `/`, `?` or `#`.
    let (authority, path_etc) = match rest.strip_prefix("//") {
        Some(r) => {
            let end = r.find(['/', '?', '#']).unwrap_or(r.len());
            (&rest[..end + 2], &r[end..])
        }
        None => ("", rest),
    };
    let no_fragment = path_etc.split('#').next().unwrap_or("");
    let path = no_fragment.split('?').next().unwrap_or("");
    if href.is_empty() {
        return Some(format!("{scheme_part}{authority}{no_fragment}"));
    }
    if let Some(r) = href.strip_prefix("//") {
        return Some(format!("{scheme_part}//{r}"));
    }
    if href.starts_with('#') {
        return Some(format!("{scheme_part}{authority}{no_fragment}{href}"));
    }
    if href.starts_with('?') {
        return Some(format!("{scheme_part}{authority}{path}{href}"));
    }
    let (href_path, tail) = match href.find(['?', '#']) {
        Some(i) => href.split_at(i),
        None => (href, ""),
    };
    let merged = if href_path.starts_with('/') {
        href_path.to_string()
    } else {
        let dir = match path.rfind('/') {
            Some(i) => &path[..=i],
            None => "/",
        };
        format!("{dir}{href_path}")
    };
    Some(format!(
        "{scheme_part}{authority}{}{tail}",
        remove_dot_segments(&merged)
    ))
}

/// The length of a URL's scheme (before its `:`), if it starts with one.
fn scheme_len(s: &str) -> Option<usize> {
    let colon = s.find(':')?;
    let scheme = &s[..colon];
    let mut chars = scheme.chars();
    let first = chars.next()?;
    (first.is_ascii_alphabetic() && chars.all(|c| c.is_ascii_alphanumeric() || "+-.".contains(c)))
        .then_some(colon)
}

/// RFC 3986's "remove dot segments".
fn remove_dot_segments(path: &str) -> String {
    let mut out: Vec<&str> = Vec::new();
    let segments: Vec<&str> = path.split('/').collect();
    let n = segments.len();
    for (i, seg) in segments.iter().enumerate() {
        match *seg {
            "." => {
                if i == n - 1 {
                    out.push("");
                }
            }
            ".." => {
                if out.len() > 1 {
                    out.pop();
                }
                if i == n - 1 {
                    out.push("");
                }
            }
            s => out.push(s),
        }
    }
    let joined = out.join("/");
    if joined.starts_with('/') {
        joined
    } else {
        format!("/{joined}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lines::Splitter;

    #[test]
    fn meta_keys_with_multibyte_characters_where_a_prefix_ends_are_not_interesting() {
        for key in [
            "vi\u{fffd}wport",
            "o\u{e9}:title",
            "dc\u{fffd}",
            "twitter\u{e9}x",
            "\u{e9}",
        ] {
            assert!(!interesting(key), "{key}");
        }
        assert!(interesting("OG:title"));
        let m = meta_of("<meta name=\"o\u{e9}:x\" content=a><meta property=og:title content=T>");
        assert_eq!(m.title.as_deref(), Some("T"));
    }

    fn meta_of(html: &str) -> Metadata {
        let mut s = Splitter::new().with_metadata(true);
        s.write(html.as_bytes()).unwrap();
        s.end().unwrap();
        s.metadata().unwrap()
    }

    #[test]
    fn json_ld_graph_article_wins_over_the_website() {
        let m = meta_of(
            r#"<head><script type="application/ld+json">{"@context":"https://schema.org","@graph":[
            {"@type":"WebSite","name":"Daily Bugle","url":"https://bugle.example/"},
            {"@type":["NewsArticle"],"headline":"Spider &amp; Man seen","author":[{"@type":"Person","name":"Peter Parker"},{"name":"Eddie Brock"}],
             "datePublished":"2023-05-01T10:00:00+02:00","dateModified":"2023-05-02","publisher":{"@type":"Organization","name":"Bugle Media"},
             "image":{"@type":"ImageObject","url":"https://bugle.example/p.jpg"},"description":"A sighting."}]}</script>
            <title>Ignored | Daily Bugle</title></head><body><p>Text.</p>"#,
        );
        assert_eq!(m.title.as_deref(), Some("Spider & Man seen"));
        assert_eq!(m.author.as_deref(), Some("Peter Parker, Eddie Brock"));
        assert_eq!(m.published.as_deref(), Some("2023-05-01T10:00:00+02:00"));
        assert_eq!(m.modified.as_deref(), Some("2023-05-02"));
        assert_eq!(m.site_name.as_deref(), Some("Bugle Media"));
        assert_eq!(m.image.as_deref(), Some("https://bugle.example/p.jpg"));
        assert_eq!(m.description.as_deref(), Some("A sighting."));
        assert_eq!(m.page_types, ["WebSite", "NewsArticle"]);
        assert_eq!(m.html_title.as_deref(), Some("Ignored | Daily Bugle"));
    }

    #[test]
    fn json_ld_escapes_decode_and_the_last_of_a_repeated_key_wins() {
        let m = meta_of(
            r#"<script type="application/ld+json">{"@type":"Article","headline":"first",
            "headline":"Caf\u00e9 \"quoted\" \ud83d\ude00","author":{"name":"A\/B"},
            "wordCount":1200,"isFree":true,"x":null,"n":[1.5e3,{"deep":[[]]}]}</script>
            <p>Text.</p>"#,
        );
        assert_eq!(m.title.as_deref(), Some("Café \"quoted\" 😀"));
        assert_eq!(m.author.as_deref(), Some("A/B"));
        assert_eq!(m.page_types, ["Article"]);
    }

    #[test]
    fn open_graph_and_title_trimming() {
        let m = meta_of(
            "<html lang='de-CH'><head><base href='https://ex.org/news/'>\
             <link rel=canonical href='2024/story.html'>\
             <meta property=og:type content=article>\
             <meta name=description content='Short &amp; sweet.'>\
             <title> The   long story of things — Example News </title>\
             <meta property=og:site_name content='Example News'></head><h1>Big</h1>",
        );
        assert_eq!(m.title.as_deref(), Some("The long story of things"));
        assert_eq!(
            m.url.as_deref(),
            Some("https://ex.org/news/2024/story.html")
        );
        assert_eq!(m.language.as_deref(), Some("de-CH"));
        assert_eq!(m.description.as_deref(), Some("Short & sweet."));
        assert_eq!(m.page_types, ["article"]);
        assert_eq!(m.first_h1.as_deref(), Some("Big"));
        assert_eq!((m.lines, m.text_bytes, m.article_lines), (1, 3, 0));
    }

    #[test]
    fn svg_titles_and_broken_json_are_ignored() {
        let m = meta_of(
            "<body><svg><title>icon</title></svg><h1>Heading</h1>\
             <script type=application/ld+json>{not json</script>\
             <time datetime='2020/01/02'>2 Jan</time><p>x</p>",
        );
        assert_eq!(m.html_title, None);
        assert_eq!(m.title.as_deref(), Some("Heading"));
        assert_eq!(m.published.as_deref(), Some("2020-01-02"));
        let m = meta_of("<p>out</p><main><p>in one</p><article><p>in two</p></article></main>");
        assert_eq!((m.lines, m.article_lines, m.article_text_bytes), (3, 2, 12));
    }

    #[test]
    fn pieces_of_any_size_give_the_same_metadata() {
        let html = r#"<html lang=fr><head><title>Un &eacute;t&eacute; | Site</title>
            <script type="application/ld+json">{"@type":"BlogPosting","headline":"Été","author":"Zoé"}</script>
            </head><body><p>Du texte.</p><script>var x = "</title>";</script></body>"#;
        let whole = meta_of(html);
        for size in [1, 3, 7, 64] {
            let mut s = Splitter::new().with_metadata(true);
            for piece in html.as_bytes().chunks(size) {
                s.write(piece).unwrap();
            }
            s.end().unwrap();
            assert_eq!(s.metadata().unwrap(), whole, "pieces of {size}");
        }
        assert_eq!(whole.html_title.as_deref(), Some("Un été | Site"));
        assert_eq!(whole.title.as_deref(), Some("Été"));
        assert_eq!(whole.author.as_deref(), Some("Zoé"));
    }

    #[test]
    fn an_oversized_json_ld_script_is_skipped_and_memory_stays_bounded() {
        let big = format!(
            r#"<script type="application/ld+json">{{"@type":"Article","headline":"Big","x":"{}"}}</script>"#,
            "a".repeat(MAX_JSON_LD_BYTES)
        );
        let m = meta_of(&format!("{big}<title>Small</title><p>x</p>"));
        assert_eq!(m.title.as_deref(), Some("Small"));
    }

    #[test]
    fn the_head_is_known_as_soon_as_the_body_starts() {
        let head = format!(
            "<meta charset=utf-8><title>Early</title><meta name=author content=Me><!--{}-->",
            " ".repeat(1100)
        );
        let mut s = Splitter::new().with_metadata(true);
        s.write(head.as_bytes()).unwrap();
        assert!(!s.head_done());
        s.write(b"<p>First words.</p><p>More").unwrap();
        assert!(s.head_done());
        let m = s.metadata().unwrap();
        assert_eq!(m.title.as_deref(), Some("Early"));
        assert_eq!(m.author.as_deref(), Some("Me"));
    }

    #[test]
    fn dublin_core_in_any_spelling_and_bylines_in_the_body() {
        let m = meta_of(
            "<meta property='dc:title og:title' content='Preferred'>\
             <meta name=author content='Meta Author'><meta name='DC.creator' content='DC Author'>\
             <title>Other</title><body><nav><span class=author>Menu Author</span></nav>\
             <p>Text.</p>",
        );
        assert_eq!(m.title.as_deref(), Some("Preferred"));
        assert_eq!(m.author.as_deref(), Some("DC Author"));
        let m = meta_of(
            "<body><div class=comment-author>Troll</div><h1>T</h1>\
             <div class='post-byline'>By Ann   Lee</div><p>Words.</p>",
        );
        assert_eq!(m.author.as_deref(), Some("By Ann Lee"));
    }

    #[test]
    fn dates_are_iso_8601_or_nothing() {
        assert_eq!(iso_date("2021-13-01"), None);
        assert_eq!(iso_date("May 3, 2021"), None);
        assert_eq!(
            iso_date("2021/05/03 10:20").as_deref(),
            Some("2021-05-03T10:20")
        );
    }

    #[test]
    fn titles_keep_their_text_without_a_known_site() {
        assert_eq!(trim_site_name("Home | Acme", None), "Home | Acme");
        assert_eq!(
            trim_site_name("How to boil an egg - Acme", None),
            "How to boil an egg"
        );
        assert_eq!(
            trim_site_name("Acme | How to boil", Some("ACME")),
            "How to boil"
        );
    }
}

/// The examples of this module's documentation, run as tests (the module is internal to
/// the crate, where documentation tests cannot reach).
#[cfg(test)]
mod doc_examples {
    #[test]
    fn doc_meta_resolve() -> Result<(), Box<dyn std::error::Error>> {
        use crate::meta::resolve;
        let base = "https://example.org/a/b/page.html?q=1";
        assert_eq!(
            resolve(base, "../c.html").as_deref(),
            Some("https://example.org/a/c.html")
        );
        assert_eq!(
            resolve(base, "/top").as_deref(),
            Some("https://example.org/top")
        );
        assert_eq!(
            resolve(base, "//cdn.org/x").as_deref(),
            Some("https://cdn.org/x")
        );
        assert_eq!(
            resolve(base, "#s").as_deref(),
            Some("https://example.org/a/b/page.html?q=1#s")
        );
        assert_eq!(
            resolve(base, "mailto:a@b.c").as_deref(),
            Some("mailto:a@b.c")
        );
        Ok(())
    }
}
