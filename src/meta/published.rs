//! The page's publication date: which of the dates a page declares, shows or implies is
//! the day it was published ([`Collector::dates`]).

use super::date::{self, iso_date, text_date};
use super::{Collector, NEAR_HEADLINE};

/// The dates chosen for [`super::Metadata`].
pub(super) struct Dates {
    pub(super) published: Option<String>,
    pub(super) modified: Option<String>,
    /// `published` is none or was read from the text of the page.
    pub(super) published_weak: bool,
}

/// Whether a date written `3/4/2025` is read day first in a page of this language: in
/// any but English, and in British, Irish, Australian, New Zealand, Indian and South
/// African English.
fn day_first(lang: Option<&str>) -> bool {
    let Some(l) = lang else { return false };
    let l = l.to_ascii_lowercase();
    if !l.starts_with("en") {
        return !l.is_empty();
    }
    ["en-gb", "en-ie", "en-au", "en-nz", "en-in", "en-za"]
        .iter()
        .any(|p| l.starts_with(p))
}

/// Whether the day shown with the headline is the publication date rather than the
/// declared one: the shown line is short (at most 50 bytes) and writes its date with a month
/// name (`March 4, 2025`, not `03/04/2025`, whose order a reader could take either way); it
/// is not labelled as a change (`Updated …`); the declared day differs from it by more than
/// one day (one day is a time near midnight in two zones); and `article:published_time`
/// does not give the declared day too (two declarations that agree are kept).
fn shown_over_declared(
    shown_text: Option<&str>,
    shown: Option<&str>,
    declared: Option<&str>,
    published_time: Option<&str>,
) -> bool {
    let (Some(text), Some(shown), Some(declared)) = (shown_text, shown, declared) else {
        return false;
    };
    let Some(declared_day) = declared.get(..10) else {
        return false;
    };
    text.len() <= 50
        && !date::update_label(text)
        && date::written_date(text).is_some_and(|d| d.iso() == shown)
        && declared_day != shown
        && !date::one_day_apart(declared_day, shown)
        && published_time.and_then(|p| p.get(..10)) != Some(declared_day)
}

/// The `<meta>` keys that declare a publication date, in the order they are believed
/// (after JSON-LD's `datePublished`), as [`super::normal_key`] writes them.
pub(super) const DECLARED_KEYS: [&str; 26] = [
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
    "og:article:published_time",
    "article:published",
    "publish-date",
    "publish_date",
    "publishdate",
    "published_time",
    "published-date",
    "date_published",
    "sailthru.date",
    "dc.date.created",
    "dcterms.date",
    "dcterms.issued",
    "datecreated",
    "uploaddate",
    "pub_date",
    "article_date_original",
];

impl Collector {
    /// The publication and change dates, from the `<meta>` values `meta` gives by key and
    /// what the collector read: declared dates first, the day shown with the headline over
    /// them when [`shown_over_declared`], then dates read from the text.
    pub(super) fn dates(&self, meta: &dyn Fn(&[&str]) -> Option<String>) -> Dates {
        let ld = &self.json_ld;
        let day_first = day_first(self.lang.as_deref());
        let value_date =
            |s: &str| iso_date(s).or_else(|| text_date(s, day_first).map(date::Day::iso));
        let text_day = |s: &str| text_date(s, day_first).map(date::Day::iso);
        // The date the page declares: JSON-LD, the known `<meta>`s, then any other `<meta>`
        // whose key names a publication date, microdata, a `<time>` marked as the
        // publication's, the day in the canonical URL.
        let declared = ld
            .published
            .as_deref()
            .or(self.meta_ld_published.as_deref())
            .and_then(value_date)
            .or_else(|| {
                DECLARED_KEYS
                    .iter()
                    .find_map(|k| meta(&[k]).as_deref().and_then(value_date))
            })
            .or_else(|| {
                self.metas
                    .iter()
                    .filter(|(k, _)| date_key(k))
                    .find_map(|(_, v)| value_date(v))
            })
            .or_else(|| self.itemprop_date.as_deref().and_then(value_date))
            .or_else(|| self.itemprop_created.as_deref().and_then(value_date))
            .or_else(|| self.pub_time.as_deref().and_then(iso_date))
            .or_else(|| {
                let url = self.canonical.clone().or_else(|| meta(&["og:url"]))?;
                date::url_date(&url).map(date::Day::iso)
            });
        let modified = ld
            .modified
            .as_deref()
            .or(self.meta_ld_modified.as_deref())
            .and_then(iso_date)
            .or_else(|| {
                [
                    "article:modified_time",
                    "og:updated_time",
                    "dcterms.modified",
                    "datemodified",
                ]
                .iter()
                .find_map(|k| meta(&[k]).as_deref().and_then(iso_date))
            });
        let day_of = |s: &str| s.get(..10).map(str::to_string);
        // The line shown with the headline: the first with a date within NEAR_HEADLINE lines
        // after the first `<h1>`, else the last one just before it.
        let before = self
            .before_h1
            .as_ref()
            .filter(|(at, _)| self.h1_line.is_some_and(|h| h <= at + NEAR_HEADLINE / 2))
            .map(|(_, t)| t.as_str());
        let shown_text = self.shown.as_deref().or(before);
        let shown = shown_text.and_then(text_day);
        let shown_override = shown_over_declared(
            shown_text,
            shown.as_deref(),
            declared.as_deref(),
            meta(&["article:published_time"])
                .as_deref()
                .and_then(value_date)
                .as_deref(),
        );
        // A shown day that is the declared change's keeps that value's time and zone.
        let modified_day = modified.as_deref().and_then(day_of);
        let shown = if shown_override && modified_day.is_some() && modified_day == shown {
            modified.clone()
        } else {
            shown
        };
        let mut published_weak = false;
        let published = if shown_override {
            shown.clone()
        } else {
            declared
        }
        .or_else(|| {
            published_weak = true;
            shown
                .clone()
                .or_else(|| self.labelled_date.as_deref().and_then(text_day))
                .or_else(|| self.date_element.as_deref().and_then(text_day))
                .or_else(|| self.time.as_deref().and_then(iso_date))
                .or_else(|| self.first_dated.as_deref().and_then(text_day))
                .or_else(|| self.title_date.as_deref().and_then(value_date))
                // A page that declares only when it changed: that is the best date it has.
                .or_else(|| modified.clone())
        });
        // A declared time one day from the canonical URL's day is near midnight: the path
        // was written in the site's own time zone, whose day is the one readers were shown.
        let published = match (
            &published,
            self.canonical.clone().or_else(|| meta(&["og:url"])),
        ) {
            (Some(p), Some(u)) if !published_weak => {
                match (day_of(p), date::url_date(&u).map(date::Day::iso)) {
                    (Some(pd), Some(ud)) if date::one_day_apart(&pd, &ud) => Some(ud),
                    _ => published,
                }
            }
            _ => published,
        };
        // A declared time shown on the page as the same moment on the day before or after
        // (`03:05:48` declared, `Feb 14, 2026 | 9:05 pm` shown): the shown day is the
        // page's own, in its time zone.
        let published = match &published {
            Some(p) if !published_weak && !shown_override => {
                [shown_text, self.first_dated.as_deref()]
                    .into_iter()
                    .flatten()
                    .find_map(|t| date::local_day(p, t, day_first))
                    .map(date::Day::iso)
                    .or(published)
            }
            _ => published,
        };
        let published_weak = published_weak || published.is_none();
        Dates {
            published,
            modified,
            published_weak,
        }
    }
}

/// Whether a `<meta>` key not in the known lists names a publication date: it holds
/// `date` or `publish` (not `publisher`), and names no change, expiry or review.
pub(super) fn date_key(key: &str) -> bool {
    // NOTE: this runs for every `<meta>` key no list names, also where only the head is
    // read: one pass over the bytes looks for `date` and `publish`, and only a key that has
    // one is looked at again.
    let k = key.as_bytes();
    let at = |i: usize, w: &[u8]| {
        k.get(i..i + w.len())
            .is_some_and(|x| x.eq_ignore_ascii_case(w))
    };
    let named = (0..k.len()).any(|i| match k[i] | 0x20 {
        b'd' => at(i + 1, b"ate"),
        b'p' => at(i + 1, b"ublish") && !at(i + 7, b"er"),
        _ => false,
    });
    let has = |w: &str| {
        k.windows(w.len())
            .any(|x| x.eq_ignore_ascii_case(w.as_bytes()))
    };
    named
        && ![
            "modif", "update", "expir", "review", "valid", "revis", "edit", "change", "crawl",
            "index", "last", "end",
        ]
        .iter()
        .any(|w| has(w))
}
