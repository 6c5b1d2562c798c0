//! Training-time augmentation: page variants labelled beside the pages as written.
//!
//! `mainline label --augment plain` writes each page's rows twice: as written (`variant`
//! column `original`) and rewritten by [`plain`](super::plain) (`plain`; its page id gets
//! `@plain` appended, [`variant_doc`]), both under the page's site, so that
//! cross-validation keeps a site's pages and their variants on the same side. A recipe
//! trains on a variant's rows only when it names the variant in `augment` ([`Augment`]);
//! `mainline eval --cv` scores the held-out pages of each variant apart.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use super::{LineSpan, Teaser};
use mainline::{Error, Result};

/// A rewriting of a page, labelled beside it for training.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Variant {
    /// [`plain`](super::plain): no HTML5 sectioning elements, no class, id, role, microdata,
    /// `aria-*` or `data-*` attributes, no Open Graph, Twitter or JSON-LD metadata.
    Plain,
    /// [`tables`](super::tables): as [`Variant::Plain`], and each landmark or section the
    /// one cell of a table of its own, as older sites laid out their pages.
    Tables,
    /// [`related`](super::related): an article followed by a block of teasers of other
    /// pages (headlines and summaries), after its last content line. Articles only.
    Related,
    /// [`short`](super::short): a window of the page's content lines, with at most three
    /// lines on either side, after its head: a short page. Pages with content only.
    Short,
    /// [`shell`](super::shell): the page without its content (its first lines before its
    /// first content line and its last lines after its last, at most 5 on either side),
    /// as a page drawn by scripts arrives. Pages with content and something around it
    /// only.
    Shell,
}

/// What a variant may need to know of a page besides its bytes.
#[derive(Debug, Clone, Copy)]
pub struct PageFacts<'a> {
    /// The page's id: it seeds every choice a variant makes, so a page's variant is the
    /// same on every run.
    pub id: &'a str,
    /// Where the page's last content line ends (a byte offset in the page as read), when
    /// the page is an article with content; `None` otherwise.
    pub article_end: Option<usize>,
    /// Teasers of other pages (in the page's language where there are enough) for
    /// [`Variant::Related`] to draw from.
    pub teasers: &'a [Teaser],
    /// The page's lines (where their bytes are, whether they are content), for
    /// [`Variant::Short`]; empty when they are not known.
    pub lines: &'a [LineSpan],
}

impl Variant {
    /// Every variant.
    pub const ALL: [Variant; 5] = [
        Variant::Plain,
        Variant::Tables,
        Variant::Related,
        Variant::Short,
        Variant::Shell,
    ];

    /// The variant's name, as the CSV's `variant` column and recipes write it.
    pub fn name(self) -> &'static str {
        match self {
            Variant::Plain => "plain",
            Variant::Tables => "tables",
            Variant::Related => "related",
            Variant::Short => "short",
            Variant::Shell => "shell",
        }
    }

    /// Whether the variant rewrites only the markup of every page ([`Variant::Plain`],
    /// [`Variant::Tables`]): it applies to any page of any corpus, without its labelled
    /// lines, and its text is its page's.
    ///
    /// ```
    /// use mainline_training::train::Variant;
    ///
    /// assert!(Variant::Tables.markup_only());
    /// assert!(!Variant::Related.markup_only());
    /// ```
    pub fn markup_only(self) -> bool {
        matches!(self, Variant::Plain | Variant::Tables)
    }

    /// Whether the variant holds all of its page's gold text, so that its words are scored
    /// against it: the [`markup_only`](Self::markup_only) variants and [`Variant::Related`]
    /// (the page, then teasers). A short page holds part of it and a shell none.
    pub fn holds_gold_text(self) -> bool {
        self.markup_only() || self == Variant::Related
    }

    /// The page `html` (bytes as read) rewritten as this variant, or `None` when the
    /// variant does not apply to the page ([`Variant::Related`]: a page that is not an
    /// article with content, that has no teasers to draw from, or whose encoding is not
    /// ASCII-compatible; [`Variant::Short`]: a page without content lines, or whose
    /// encoding is not ASCII-compatible; [`Variant::Shell`]: a page without content lines
    /// or with nothing around them).
    ///
    /// # Errors
    /// As [`plain`](super::plain).
    pub fn apply(self, html: &[u8], page: &PageFacts<'_>) -> Result<Option<Vec<u8>>> {
        match self {
            Variant::Plain => super::plain(html).map(Some),
            Variant::Tables => super::tables(html).map(Some),
            Variant::Related => {
                let Some(after) = page.article_end else {
                    return Ok(None);
                };
                let encoding = mainline::internals::input::sniff(html, true).encoding;
                if !encoding.is_ascii_compatible() || page.teasers.len() < 3 {
                    return Ok(None);
                }
                let mut rng = super::related::Rng::for_page(page.id, 0x0072_656c_6174_6564);
                let n = (3 + rng.below(6)).min(page.teasers.len());
                let mut picked: Vec<usize> = Vec::with_capacity(n);
                while picked.len() < n {
                    let i = rng.below(page.teasers.len());
                    if !picked.contains(&i) {
                        picked.push(i);
                    }
                }
                let teasers: Vec<Teaser> =
                    picked.iter().map(|&i| page.teasers[i].clone()).collect();
                let utf8 = encoding == encoding_rs::UTF_8;
                Ok(Some(super::related(
                    html,
                    after,
                    &teasers,
                    rng.next(),
                    utf8,
                )))
            }
            Variant::Short => {
                let encoding = mainline::internals::input::sniff(html, true).encoding;
                if !encoding.is_ascii_compatible() {
                    return Ok(None);
                }
                let mut rng = super::related::Rng::for_page(page.id, 0x0073_686f_7274);
                Ok(super::short(html, page.lines, rng.next()))
            }
            Variant::Shell => {
                let mut rng = super::related::Rng::for_page(page.id, 0x0073_6865_6c6c);
                Ok(super::shell(html, page.lines, rng.next()))
            }
        }
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Variant {
    type Err = Error;

    fn from_str(s: &str) -> Result<Self> {
        Variant::ALL
            .into_iter()
            .find(|v| v.name() == s)
            .ok_or_else(|| {
                Error::Other(format!(
                    "unknown page variant {s:?}: the variants are {}",
                    Variant::ALL.map(Variant::name).join(", ")
                ))
            })
    }
}

/// The page id of a page's variant: the page's id, `@`, the variant's name.
///
/// ```
/// use mainline_training::train::{Variant, variant_doc};
/// assert_eq!(variant_doc("0042", Variant::Plain), "0042@plain");
/// ```
pub fn variant_doc(id: &str, variant: Variant) -> String {
    format!("{id}@{}", variant.name())
}

/// The page id a variant's page id was made from ([`variant_doc`] undone), or `None` when
/// `doc` does not end in `@` and the variant's name.
pub fn original_doc(doc: &str, variant: Variant) -> Option<&str> {
    doc.strip_suffix(variant.name())?.strip_suffix('@')
}

/// Which stages of a two-stage model the variant rows train (the recipe field
/// `augment_stages`).
///
/// ```
/// use mainline_training::train::AugmentStages;
///
/// assert_eq!(AugmentStages::default(), AugmentStages::Both);
/// assert_eq!("second".parse::<AugmentStages>().unwrap(), AugmentStages::Second);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum AugmentStages {
    /// Both stages' weights (the thresholds are chosen on the pages as written).
    #[default]
    Both,
    /// The second stage's weights only: the first stage, which alone decides short pages,
    /// is trained on the pages as written, exactly as without variants; the variant rows
    /// still get its out-of-fold scores, on which the second stage trains.
    Second,
}

impl AugmentStages {
    /// The name used in recipes.
    pub fn name(self) -> &'static str {
        match self {
            AugmentStages::Both => "both",
            AugmentStages::Second => "second",
        }
    }
}

impl FromStr for AugmentStages {
    type Err = Error;

    fn from_str(s: &str) -> Result<Self> {
        match s {
            "both" => Ok(AugmentStages::Both),
            "second" => Ok(AugmentStages::Second),
            other => Err(Error::Other(format!(
                "unknown augment_stages {other:?}: use both or second"
            ))),
        }
    }
}

/// Which variant rows a recipe trains on (the recipe fields `augment` and `augment_share`).
///
/// ```
/// use mainline_training::train::{Augment, Variant};
///
/// let none = Augment::default();
/// assert!(none.trains(None, "0001"));
/// assert!(!none.trains(Some(Variant::Plain), "0001@plain"));
/// let all = Augment { variants: vec![Variant::Plain], share: 1.0 };
/// assert!(all.trains(Some(Variant::Plain), "0001@plain"));
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct Augment {
    /// The variants whose rows train beside the pages as written.
    pub variants: Vec<Variant>,
    /// Share of the pages (chosen by their id, the same for every seed) whose variant rows
    /// train, in (0, 1].
    pub share: f64,
}

impl Default for Augment {
    /// No variant trains.
    fn default() -> Self {
        Augment {
            variants: Vec::new(),
            share: 1.0,
        }
    }
}

impl Augment {
    /// Whether a row of the page `doc`, of `variant` (`None`: the page as written), trains.
    pub fn trains(&self, variant: Option<Variant>, doc: &str) -> bool {
        let Some(v) = variant else { return true };
        if !self.variants.contains(&v) {
            return false;
        }
        if self.share >= 1.0 {
            return true;
        }
        // FNV-1a of the page's own id: a variant trains for the same pages whatever the
        // seed, and the same pages for every variant.
        let id = original_doc(doc, v).unwrap_or(doc);
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        for b in id.bytes() {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
        // The finaliser of splitmix64: FNV alone leaves the high bits of short, similar ids
        // ("0001", "0002", ...) too alike to split them by share.
        h = (h ^ (h >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        h = (h ^ (h >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        h ^= h >> 31;
        ((h >> 11) as f64 / (1u64 << 53) as f64) < self.share
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_unknown_ones_are_refused() {
        for v in Variant::ALL {
            assert_eq!(v.name().parse::<Variant>().unwrap(), v);
            let doc = variant_doc("page-1", v);
            assert_eq!(original_doc(&doc, v), Some("page-1"));
        }
        assert!("modern".parse::<Variant>().is_err());
        assert_eq!(original_doc("0001", Variant::Plain), None);
        assert_eq!(original_doc("0001plain", Variant::Plain), None);
    }

    #[test]
    fn a_share_trains_about_that_share_of_the_pages() {
        let half = Augment {
            variants: vec![Variant::Plain],
            share: 0.5,
        };
        let n = (0..2000)
            .filter(|i| half.trains(Some(Variant::Plain), &format!("{i:04}@plain")))
            .count();
        assert!((900..1100).contains(&n), "{n} of 2000");
        // Originals always train.
        assert!(half.trains(None, "0001"));
    }
}
