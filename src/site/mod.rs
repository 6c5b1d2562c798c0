//! Site mode: what a site repeats on most of its pages is its template, not its content.
//!
//! A [`Profile`] learns, for each site (host), on how many of its pages each line appears:
//! a line is known by its fingerprint, a hash of its normalised text together with its
//! place in the page's structure (block kind, heading level, the descriptors of its
//! classed ancestors). When a page of a learnt site is extracted with its
//! [`PageTemplate`], a line that the model kept is dropped when it appears on at least
//! half of the site's *other* pages (see [`Settings`]), unless the page's own evidence for
//! it is strong: its score clears the threshold by a margin that grows with the number of
//! pages seen. Nothing is dropped from a block of the page when that would drop most of
//! its kept text (a site whose pages all carry the same text, such as a standard
//! disclaimer, keeps it). Nor are the parts of the page's own items: a line the page
//! writes several times with other numbers (the rating of each product card), and a label
//! followed by the page's own line, in the same structure or written on each of the page's
//! items ("Dimensions", then the page's size); see [`PageTemplate`].
//!
//! A page is never its own evidence: a page that was learnt (known by the digest of its
//! bytes) is decided against the other pages only, so a site of one page is decided
//! exactly as without site mode.
//!
//! Memory is bounded: a site's table has [`SLOTS`] fingerprints of 16 bytes and at most
//! [`MAX_DIGESTS`] page digests (72 KiB per site in all); a [`Profile`] learns at most as
//! many sites as fit its memory cap ([`Profile::with_memory`], 512 MiB by default), and
//! the pages of sites met after that are not learnt.
//!
//! ```
//! use mainline::site::Profile;
//! use mainline::{Extractor, ModelScorer};
//! use std::sync::Arc;
//!
//! let page = |w: &str| format!(
//!     "<html><body><div class=promo><p>Get the week's news in our free newsletter: \
//!      <a href=/signup>sign up</a></p></div><article><p>The {w} story begins in the \
//!      harbour, where the {w} crews worked all winter long.</p><p>The harbour master says \
//!      work on the {w} will be over by Friday.</p><p>Traders welcomed the {w} news, though \
//!      some fear the summer rush.</p></article></body></html>");
//! let words = ["quay", "ferry", "market", "bridge", "school", "garden", "museum", "library",
//!     "beach", "chapel"];
//! let pages: Vec<String> = words.iter().map(|w| page(w)).collect();
//! let mut profile = Profile::new();
//! for p in &pages {
//!     profile.learn("harbour.example", p.as_bytes())?;
//! }
//! let mut ex = Extractor::new(Arc::new(ModelScorer::builtin()));
//! let template = profile.page("harbour.example", pages[0].as_bytes());
//! assert_eq!(template.as_ref().map(|t| t.other_pages()), Some(9));
//! ex.set_site(template);
//! let text = ex.kept_text(pages[0].as_bytes())?;
//! assert!(text.contains("The quay story begins") && !text.contains("newsletter"));
//! # Ok::<(), mainline::Error>(())
//! ```

use std::collections::HashMap;
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};

/// Fingerprint slots of a site's table.
pub const SLOTS: usize = 4096;
/// Page digests a site keeps (to know its own pages when deciding them).
pub const MAX_DIGESTS: usize = 1024;
/// Bytes a site's table takes: its slots and its page digests.
pub const SITE_BYTES: usize = SLOTS * 16 + MAX_DIGESTS * 8;
/// The default cap on the memory of a [`Profile`]'s tables.
pub const DEFAULT_MEMORY: usize = 512 << 20;

/// The profile file's format name and version (2: lines with more digits than letters
/// keep their digits in the fingerprint, and pages are digested a word at a time).
const FORMAT: &str = "mainline-site-profile";
const VERSION: u32 = 2;

/// How the template enters the decision.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Settings {
    /// A line is template when it appears on at least this share of the site's other
    /// pages.
    pub min_share: f32,
    /// ... and on at least this many of them.
    pub min_pages: u32,
    /// A template line the model kept stays when its score is at least the threshold plus
    /// `margin` times the square root of the number of other pages.
    pub margin: f32,
    /// Nothing is dropped from a block of the page when that would drop more than this
    /// share of its kept text.
    pub max_dropped_share: f32,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            min_share: 0.5,
            min_pages: 2,
            margin: 0.2,
            max_dropped_share: 0.8,
        }
    }
}

impl Settings {
    fn validate(&self) -> std::result::Result<(), String> {
        let unit = |v: f32| v.is_finite() && (0.0..=1.0).contains(&v);
        if !unit(self.min_share) || self.min_share == 0.0 {
            return Err(format!("min_share {} is not in (0, 1]", self.min_share));
        }
        if !self.margin.is_finite() || self.margin < 0.0 {
            return Err(format!(
                "margin {} is not a non-negative number",
                self.margin
            ));
        }
        if !unit(self.max_dropped_share) {
            return Err(format!(
                "max_dropped_share {} is not in [0, 1]",
                self.max_dropped_share
            ));
        }
        if self.min_pages == 0 {
            return Err("min_pages is 0; a line needs at least one other page".into());
        }
        Ok(())
    }
}

/// One fingerprint and the number of pages it appeared on.
#[derive(Debug, Clone, Copy, Default)]
struct Slot {
    fingerprint: u64,
    pages: u32,
    /// The serial number of the last page that counted it (a line repeated on a page
    /// counts once).
    last: u32,
}

/// What was learnt of one site: on how many pages each line appeared.
#[derive(Debug, Clone)]
pub struct SiteTable {
    pages: u32,
    /// Open addressing by the fingerprint; a fingerprint of 0 marks a free slot.
    slots: Vec<Slot>,
    used: usize,
    /// The digests of the pages learnt (the first [`MAX_DIGESTS`]).
    digests: Vec<u64>,
}

impl Default for SiteTable {
    fn default() -> Self {
        Self::new()
    }
}

impl SiteTable {
    /// An empty table.
    pub fn new() -> Self {
        SiteTable {
            pages: 0,
            slots: vec![Slot::default(); SLOTS],
            used: 0,
            digests: Vec::new(),
        }
    }

    /// The number of pages learnt.
    pub fn pages(&self) -> u32 {
        self.pages
    }

    /// The number of distinct lines held.
    pub fn lines(&self) -> usize {
        self.used
    }

    fn find(&self, fp: u64) -> Option<usize> {
        let mask = SLOTS - 1;
        let mut i = (fp >> 20) as usize & mask;
        for _ in 0..SLOTS {
            let s = &self.slots[i];
            if s.fingerprint == fp {
                return Some(i);
            }
            if s.fingerprint == 0 {
                return None;
            }
            i = (i + 1) & mask;
        }
        None
    }

    /// The number of pages `fp` appeared on.
    fn count(&self, fp: u64) -> u32 {
        self.find(fp).map_or(0, |i| self.slots[i].pages)
    }

    fn insert(&mut self, fp: u64, pages: u32, last: u32) {
        let mask = SLOTS - 1;
        let mut i = (fp >> 20) as usize & mask;
        while self.slots[i].fingerprint != 0 {
            i = (i + 1) & mask;
        }
        self.slots[i] = Slot {
            fingerprint: fp,
            pages,
            last,
        };
        self.used += 1;
    }

    /// Counts a page: its lines' fingerprints and the digest of its bytes.
    fn add_page(&mut self, digest: u64, fingerprints: impl IntoIterator<Item = u64>) {
        self.pages += 1;
        let serial = self.pages;
        if self.digests.len() < MAX_DIGESTS {
            self.digests.push(digest);
        }
        for fp in fingerprints {
            match self.find(fp) {
                Some(i) => {
                    let s = &mut self.slots[i];
                    if s.last != serial {
                        s.last = serial;
                        s.pages += 1;
                    }
                }
                None => {
                    if self.used >= SLOTS * 3 / 4 {
                        self.prune();
                    }
                    self.insert(fp, 1, serial);
                }
            }
        }
    }

    /// Frees slots when the table is three quarters full: the lines seen on the fewest
    /// pages go (at least those seen on one page, and all those on less than an eighth of
    /// the pages), until at most half of the slots are used. The lines of a template,
    /// seen on most pages, stay.
    fn prune(&mut self) {
        let mut cut = (self.pages / 8).max(1);
        loop {
            let kept: Vec<Slot> = self
                .slots
                .iter()
                .filter(|s| s.fingerprint != 0 && s.pages > cut)
                .copied()
                .collect();
            if kept.len() <= SLOTS / 2 {
                self.slots.iter_mut().for_each(|s| *s = Slot::default());
                self.used = 0;
                for s in kept {
                    self.insert(s.fingerprint, s.pages, s.last);
                }
                return;
            }
            cut = cut.saturating_mul(2);
        }
    }
}

/// The template of every site learnt, by host.
#[derive(Debug, Clone)]
pub struct Profile {
    settings: Settings,
    sites: HashMap<String, Arc<SiteTable>>,
    memory: usize,
    /// Pages not learnt because the memory cap was reached.
    skipped: u64,
}

impl Default for Profile {
    fn default() -> Self {
        Self::new()
    }
}

/// A site's host as site mode groups pages: the host of `url` (an absolute http(s) URL or
/// one starting with `//`), lowercased, without a port, user or a leading `www.`; `None`
/// when `url` has no host.
///
/// ```
/// assert_eq!(mainline::site::host("https://www.Example.org:8080/a?b").as_deref(), Some("example.org"));
/// assert_eq!(mainline::site::host("/relative/path"), None);
/// ```
pub fn host(url: &str) -> Option<String> {
    let url = url.trim();
    let rest = if let Some(r) = url.strip_prefix("//") {
        r
    } else {
        let (scheme, r) = url.split_once("://")?;
        if scheme.is_empty()
            || !scheme
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || "+-.".contains(c))
        {
            return None;
        }
        r
    };
    let end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    let auth = &rest[..end];
    let auth = auth.rsplit_once('@').map_or(auth, |(_, h)| h);
    let host = if auth.starts_with('[') {
        auth.split_once(']')
            .map_or(auth, |(h, _)| h)
            .trim_start_matches('[')
    } else {
        auth.split_once(':').map_or(auth, |(h, _)| h)
    };
    let host = host.trim_end_matches('.').to_ascii_lowercase();
    let host = host.strip_prefix("www.").unwrap_or(&host).to_string();
    (!host.is_empty()).then_some(host)
}

/// The digest of a page's bytes, by which a site knows the pages it learnt.
#[doc(hidden)]
pub fn digest(html: &[u8]) -> u64 {
    // Eight bytes at a time, each word folded in by a multiply and a rotation, then the
    // length and the last bytes: stable across builds and machines (digests are saved in
    // profile files, little-endian words whatever the machine).
    const K: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut h: u64 = 0xcbf2_9ce4_8422_2325 ^ html.len() as u64;
    let mut words = html.chunks_exact(8);
    for w in &mut words {
        let w = u64::from_le_bytes(w.try_into().expect("chunks of 8"));
        h = (h ^ w).wrapping_mul(K).rotate_left(29);
    }
    let mut last = [0u8; 8];
    last[..words.remainder().len()].copy_from_slice(words.remainder());
    h = (h ^ u64::from_le_bytes(last)).wrapping_mul(K);
    h ^ (h >> 29)
}

/// A page's bytes with gzip undone (borrowed when they are not compressed).
fn plain(html: &[u8]) -> Result<std::borrow::Cow<'_, [u8]>> {
    Ok(crate::gzip::unzip(html)?)
}

/// The fingerprints of a page's lines, read with the splitter alone.
fn fingerprints(html: &[u8]) -> Result<Vec<u64>> {
    Ok(read_page(html, None, false)?.0)
}

/// The fingerprints of a page's lines and, when `want_url`, its own URL (its canonical
/// link, `og:url`), read with the splitter alone, decoded with `transport` (an HTTP
/// charset) unless the page says otherwise as
/// [`crate::lines::Splitter::with_transport_encoding`] says. Without `want_url` no
/// metadata is collected (a WARC record's or a JSON lines record's site is its URL's).
#[doc(hidden)]
pub fn read_page(
    html: &[u8],
    transport: Option<&'static encoding_rs::Encoding>,
    want_url: bool,
) -> Result<(Vec<u64>, Option<String>)> {
    let mut s = crate::lines::Splitter::new()
        .with_metadata(want_url)
        .with_transport_encoding(transport);
    let mut out = Vec::new();
    let mut take = |s: &mut crate::lines::Splitter| {
        while let Some(line) = s.next_line() {
            if let Some(fp) = crate::second_stage::page::fingerprint(&line) {
                out.push(fp);
            }
            s.recycle(line);
        }
    };
    for piece in html.chunks(64 << 10) {
        s.write(piece)?;
        take(&mut s);
    }
    s.end()?;
    take(&mut s);
    let url = s.metadata().and_then(|m| m.url);
    Ok((out, url))
}

impl Profile {
    /// An empty profile with the default [`Settings`] and memory cap.
    pub fn new() -> Self {
        Profile {
            settings: Settings::default(),
            sites: HashMap::new(),
            memory: DEFAULT_MEMORY,
            skipped: 0,
        }
    }

    /// The same with `settings`.
    ///
    /// # Errors
    /// When a setting is out of its range.
    pub fn with_settings(mut self, settings: Settings) -> Result<Self> {
        settings.validate().map_err(Error::Other)?;
        self.settings = settings;
        Ok(self)
    }

    /// The same with a cap of `bytes` on the memory of the sites' tables: room for
    /// `bytes / SITE_BYTES` sites (at least one).
    pub fn with_memory(mut self, bytes: usize) -> Self {
        self.memory = bytes;
        self
    }

    /// The settings.
    pub fn settings(&self) -> Settings {
        self.settings
    }

    /// The number of sites learnt.
    pub fn sites(&self) -> usize {
        self.sites.len()
    }

    /// The pages not learnt because the memory cap was reached.
    pub fn skipped(&self) -> u64 {
        self.skipped
    }

    /// What was learnt of `host`.
    pub fn site(&self, host: &str) -> Option<&SiteTable> {
        self.sites.get(host).map(|t| &**t)
    }

    /// Learns one page of the site `host` from its HTML bytes (plain, or gzip).
    ///
    /// # Errors
    /// When the page cannot be read (a gzip stream that is cut).
    pub fn learn(&mut self, host: &str, html: &[u8]) -> Result<()> {
        let html = &plain(html)?[..];
        let fps = fingerprints(html)?;
        self.learn_fingerprints(host, digest(html), fps);
        Ok(())
    }

    /// Learns one page whose site is the host of `url`, else of the page's canonical link
    /// (or `og:url`); returns the host, `None` when the page has none (it is not learnt).
    ///
    /// # Errors
    /// As [`Profile::learn`].
    pub fn learn_page(&mut self, html: &[u8], url: Option<&str>) -> Result<Option<String>> {
        let html = &plain(html)?[..];
        let (fps, canonical) = read_page(html, None, url.is_none())?;
        let Some(host) = url.or(canonical.as_deref()).and_then(host) else {
            return Ok(None);
        };
        self.learn_fingerprints(&host, digest(html), fps);
        Ok(Some(host))
    }

    /// The template of a page ([`Profile::page`]) whose site is the host of `url`, else of
    /// the page's canonical link; `None` when the site was not learnt.
    pub fn page_template(&self, html: &[u8], url: Option<&str>) -> Option<PageTemplate> {
        let html = plain(html).ok()?;
        let host = match url {
            Some(u) => host(u),
            None => read_page(&html, None, true)
                .ok()?
                .1
                .as_deref()
                .and_then(host),
        }?;
        self.page_of_plain(&host, &html)
    }

    /// Learns a page given by its digest and its lines' fingerprints.
    #[doc(hidden)]
    pub fn learn_fingerprints(&mut self, host: &str, digest: u64, fps: Vec<u64>) {
        if !self.sites.contains_key(host) {
            let cap = (self.memory / SITE_BYTES).max(1);
            if self.sites.len() >= cap {
                self.skipped += 1;
                return;
            }
            self.sites
                .insert(host.to_string(), Arc::new(SiteTable::new()));
        }
        let table = self.sites.get_mut(host).expect("inserted above");
        Arc::make_mut(table).add_page(digest, fps);
    }

    /// The template to extract a page of `host` with (given its HTML bytes, by which a
    /// page that was learnt is known and not counted as its own evidence); `None` when the
    /// site was not learnt.
    pub fn page(&self, host: &str, html: &[u8]) -> Option<PageTemplate> {
        self.page_of_plain(host, &plain(html).ok()?)
    }

    /// [`Profile::page`] of bytes with gzip undone.
    fn page_of_plain(&self, host: &str, html: &[u8]) -> Option<PageTemplate> {
        let table = self.sites.get(host)?;
        let d = digest(html);
        Some(PageTemplate {
            table: Arc::clone(table),
            own: table.digests.contains(&d),
            settings: self.settings,
        })
    }

    /// The template to extract a page of `host` with when its bytes are not known ahead (a
    /// stream): the page is taken not to be one of those learnt.
    pub fn stream_page(&self, host: &str) -> Option<PageTemplate> {
        self.template(host, false)
    }

    /// The template to extract a page of `host` with that is known to have been learnt
    /// (two passes over the same pages).
    pub fn learnt_page(&self, host: &str) -> Option<PageTemplate> {
        self.template(host, true)
    }

    fn template(&self, host: &str, own: bool) -> Option<PageTemplate> {
        let table = self.sites.get(host)?;
        Some(PageTemplate {
            table: Arc::clone(table),
            own: own && table.pages > 0,
            settings: self.settings,
        })
    }

    /// The profile as JSON (the profile file), sites in host order.
    pub fn to_json(&self) -> String {
        let mut hosts: Vec<&String> = self.sites.keys().collect();
        hosts.sort();
        let sites = hosts
            .into_iter()
            .map(|h| {
                let t = &self.sites[h];
                let mut lines: Vec<(u64, u32)> = t
                    .slots
                    .iter()
                    .filter(|s| s.fingerprint != 0)
                    .map(|s| (s.fingerprint, s.pages))
                    .collect();
                lines.sort_unstable();
                SiteFile {
                    host: h.clone(),
                    pages: t.pages,
                    digests: t.digests.iter().map(|d| format!("{d:016x}")).collect(),
                    lines: lines
                        .into_iter()
                        .map(|(f, p)| (format!("{f:016x}"), p))
                        .collect(),
                }
            })
            .collect();
        let file = ProfileFile {
            format: FORMAT.into(),
            version: VERSION,
            settings: self.settings,
            sites,
        };
        serde_json::to_string(&file).expect("a profile serialises")
    }

    /// Reads a profile written by [`Profile::to_json`], validated: its format and version,
    /// the settings' ranges, at most [`SLOTS`]` * 3 / 4` lines and [`MAX_DIGESTS`] digests
    /// a site, counts no larger than the site's pages, no host twice.
    ///
    /// # Errors
    /// [`Error::Other`] saying what is wrong.
    pub fn from_json(json: &str) -> Result<Self> {
        let file: ProfileFile = serde_json::from_str(json)
            .map_err(|e| Error::Other(format!("not a site profile: {e}")))?;
        if file.format != FORMAT {
            return Err(Error::Other(format!(
                "format {:?} is not {FORMAT:?}",
                file.format
            )));
        }
        if file.version != VERSION {
            return Err(Error::Other(format!(
                "site profile version {} is not supported (this mainline reads version {VERSION}): \
                 learn it again with `mainline site learn`",
                file.version
            )));
        }
        file.settings.validate().map_err(Error::Other)?;
        let mut sites = HashMap::with_capacity(file.sites.len());
        for s in file.sites {
            let bad = |what: String| Err(Error::Other(format!("site {:?}: {what}", s.host)));
            if s.lines.len() > SLOTS * 3 / 4 {
                return bad(format!(
                    "{} lines, more than {}",
                    s.lines.len(),
                    SLOTS * 3 / 4
                ));
            }
            if s.digests.len() > MAX_DIGESTS || s.digests.len() > s.pages as usize {
                return bad(format!(
                    "{} page digests for {} pages",
                    s.digests.len(),
                    s.pages
                ));
            }
            let hex = |v: &str| u64::from_str_radix(v, 16).ok().filter(|_| v.len() == 16);
            let mut t = SiteTable::new();
            t.pages = s.pages;
            for d in &s.digests {
                let Some(d) = hex(d) else {
                    return bad(format!("digest {d:?} is not 16 hex digits"));
                };
                t.digests.push(d);
            }
            for (f, p) in &s.lines {
                let Some(fp) = hex(f).filter(|&v| v != 0) else {
                    return bad(format!("fingerprint {f:?} is not 16 hex digits"));
                };
                if *p == 0 || *p > s.pages {
                    return bad(format!("a line on {p} of {} pages", s.pages));
                }
                if t.find(fp).is_some() {
                    return bad(format!("fingerprint {f} twice"));
                }
                t.insert(fp, *p, 0);
            }
            if sites.insert(s.host.clone(), Arc::new(t)).is_some() {
                return bad("listed twice".into());
            }
        }
        Ok(Profile {
            settings: file.settings,
            sites,
            memory: DEFAULT_MEMORY,
            skipped: 0,
        })
    }

    /// Writes the profile file.
    ///
    /// # Errors
    /// When the file cannot be written.
    pub fn save(&self, path: &std::path::Path) -> Result<()> {
        std::fs::write(path, self.to_json() + "\n")?;
        Ok(())
    }

    /// Reads a profile file, validated ([`Profile::from_json`]).
    ///
    /// # Errors
    /// When it cannot be read or is not a valid profile; the message names the file.
    pub fn load(path: &std::path::Path) -> Result<Self> {
        /// A profile file larger than this is refused before it is read.
        const MAX_FILE: u64 = 1 << 30;
        let name = path.display();
        let len = std::fs::metadata(path)
            .map_err(|e| Error::Other(format!("{name}: {e}")))?
            .len();
        if len > MAX_FILE {
            return Err(Error::Other(format!(
                "{name}: {len} bytes, larger than a site profile may be ({MAX_FILE})"
            )));
        }
        let json =
            std::fs::read_to_string(path).map_err(|e| Error::Other(format!("{name}: {e}")))?;
        Self::from_json(&json).map_err(|e| Error::Other(format!("{name}: {e}")))
    }
}

/// The profile file.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct ProfileFile {
    format: String,
    version: u32,
    settings: Settings,
    sites: Vec<SiteFile>,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct SiteFile {
    host: String,
    pages: u32,
    digests: Vec<String>,
    lines: Vec<(String, u32)>,
}

/// What the veto reads of a line besides its fingerprint.
#[derive(Debug, Clone, Copy)]
#[doc(hidden)]
pub struct SiteLine {
    /// The bytes of its text.
    pub text_bytes: u64,
    /// Its near structure (the first value of [`crate::second_stage::page::signature`]).
    pub near: u32,
    /// The hash of its text (the third value of the signature).
    pub text: u32,
}

/// A site's template, to extract one page of the site with
/// ([`crate::Extractor::set_site`]).
#[derive(Debug, Clone)]
pub struct PageTemplate {
    table: Arc<SiteTable>,
    /// The page was learnt: its own lines are taken out of the counts.
    own: bool,
    settings: Settings,
}

/// How a line matched its site's template.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Match {
    /// The number of the site's other pages the line appears on.
    pub pages: u32,
    /// The number of the site's other pages.
    pub of: u32,
    /// Whether site mode dropped the line.
    pub dropped: bool,
}

impl PageTemplate {
    /// The site's pages other than this one.
    pub fn other_pages(&self) -> u32 {
        self.table.pages - u32::from(self.own)
    }

    /// Whether a match is template enough to drop a kept line scored `score` at
    /// `threshold`.
    fn drops(&self, m: &Match, score: f32) -> bool {
        self.is_template(m) && score < self.threshold_for(m.of)
    }

    /// Whether a line is on enough of the other pages to be the site's template.
    fn is_template(&self, m: &Match) -> bool {
        let s = &self.settings;
        m.of >= s.min_pages && m.pages >= s.min_pages && m.pages as f32 >= s.min_share * m.of as f32
    }

    fn threshold_for(&self, others: u32) -> f32 {
        self.settings.margin * (others as f32).sqrt()
    }

    /// Applies the template to the decisions of a block of a page: `lines` with their
    /// (score, keep) decisions at `threshold`; writes each line's match into `matches`.
    pub(crate) fn veto<'a>(
        &self,
        lines: impl Iterator<Item = &'a crate::lines::Line>,
        decided: &mut [(f32, bool)],
        threshold: f32,
        matches: &mut Vec<Option<Match>>,
    ) {
        matches.clear();
        if self.other_pages() == 0 {
            matches.resize(decided.len(), None);
            return;
        }
        let mut sites = Vec::with_capacity(decided.len());
        let fps = lines.map(|l| {
            let (fp, [near, _, text]) = crate::second_stage::page::fingerprint_and_signature(l);
            sites.push(SiteLine {
                text_bytes: l.text.len() as u64,
                near,
                text,
            });
            fp
        });
        let fps: Vec<Option<u64>> = fps.collect();
        self.veto_fingerprints(&fps, &sites, decided, threshold, matches);
    }

    /// [`PageTemplate::veto`] of lines given by their fingerprints
    /// ([`crate::second_stage::page::fingerprint`]), text bytes and near structures.
    ///
    /// Two kinds of template line are kept, as parts of the page's own items:
    /// - a line the page writes more than once with different texts that are one
    ///   fingerprint (digits and punctuation aside: "(12) reviews", "(3) reviews"): the
    ///   field of repeated items, a rating or a price, whose values are the page's own;
    /// - a line followed by a kept line that is not template, when the two have the same
    ///   near structure (the first value of [`crate::second_stage::page::signature`]) or the page
    ///   writes the line more than once: the label of a field whose value is the page's
    ///   own ("Dimensions", then the page's size; "Features:" on each product card, then
    ///   the card's features), a line of code among the page's own lines.
    ///
    /// Lists that are template (a menu, a most-read list) repeat as a whole, each line
    /// once, and are still dropped. Nothing is dropped from a block all of whose kept lines
    /// are template, nor when that would drop more than
    /// [`Settings::max_dropped_share`] of its kept text.
    #[doc(hidden)]
    pub fn veto_fingerprints(
        &self,
        fingerprints: &[Option<u64>],
        lines: &[SiteLine],
        decided: &mut [(f32, bool)],
        threshold: f32,
        matches: &mut Vec<Option<Match>>,
    ) {
        matches.clear();
        let others = self.other_pages();
        if others == 0 {
            matches.resize(decided.len(), None);
            return;
        }
        let own = u32::from(self.own);
        matches.extend(fingerprints.iter().map(|fp| {
            let n = fp.map_or(0, |fp| self.table.count(fp));
            let pages = n.saturating_sub(own);
            (pages > 0).then_some(Match {
                pages,
                of: others,
                dropped: false,
            })
        }));
        let candidate = |m: &Option<Match>, &(score, keep): &(f32, bool)| {
            keep && m.is_some_and(|m| self.drops(&m, score - threshold))
        };
        // A block whose kept text is all template has nothing of its own to tell the
        // template from (a site that prints the same notice on every page): nothing is
        // dropped from it.
        if !matches
            .iter()
            .zip(decided.iter())
            .any(|(m, d)| candidate(m, d))
            || matches
                .iter()
                .zip(decided.iter())
                .all(|(m, &(_, keep))| !keep || m.is_some_and(|m| self.is_template(&m)))
        {
            return;
        }
        // The fingerprints the template knows of the page's kept lines, with their texts.
        let mut written: Vec<(u64, u32)> = fingerprints
            .iter()
            .zip(matches.iter())
            .zip(lines.iter().zip(decided.iter()))
            .filter_map(|((fp, m), (line, &(_, keep)))| {
                let fp = (*fp)?;
                (keep && m.is_some()).then_some((fp, line.text))
            })
            .collect();
        written.sort_unstable();
        // Those the page writes more than once, and those it writes with different texts
        // (sorted, as `written` is).
        let (mut repeated, mut varied) = (Vec::new(), Vec::new());
        for w in written.windows(2).filter(|w| w[0].0 == w[1].0) {
            if repeated.last() != Some(&w[0].0) {
                repeated.push(w[0].0);
            }
            if w[0].1 != w[1].1 && varied.last() != Some(&w[0].0) {
                varied.push(w[0].0);
            }
        }
        let is_in =
            |set: &[u64], fp: &Option<u64>| fp.is_some_and(|fp| set.binary_search(&fp).is_ok());
        let (mut kept, mut dropped) = (0u64, 0u64);
        // The next kept line after each kept line: (its near structure, template), walking
        // backwards.
        let mut next: Option<(u32, bool)> = None;
        for (((m, &(score, keep)), line), fp) in matches
            .iter_mut()
            .zip(decided.iter())
            .zip(lines)
            .zip(fingerprints)
            .rev()
        {
            if !keep {
                continue;
            }
            kept += line.text_bytes;
            let template = candidate(m, &(score, keep)) && !is_in(&varied, fp);
            let labels_own =
                next.is_some_and(|(near, t)| !t && (near == line.near || is_in(&repeated, fp)));
            if template
                && !labels_own
                && let Some(m) = m
            {
                m.dropped = true;
                dropped += line.text_bytes;
            }
            next = Some((line.near, template));
        }
        if dropped as f64 > f64::from(self.settings.max_dropped_share) * kept as f64 {
            for m in matches.iter_mut().flatten() {
                m.dropped = false;
            }
            return;
        }
        for (m, d) in matches.iter().zip(decided.iter_mut()) {
            if m.is_some_and(|m| m.dropped) {
                d.1 = false;
            }
        }
    }

    /// A template of `table` (for cross-validation, whose pages were all learnt).
    #[doc(hidden)]
    pub fn of_table(table: Arc<SiteTable>, own: bool, settings: Settings) -> Self {
        PageTemplate {
            table,
            own,
            settings,
        }
    }
}

impl SiteTable {
    /// Counts a page given by its lines' fingerprints (cross-validation).
    #[doc(hidden)]
    pub fn add(&mut self, digest: u64, fingerprints: impl IntoIterator<Item = u64>) {
        self.add_page(digest, fingerprints);
    }
}

#[cfg(test)]
mod tests;
