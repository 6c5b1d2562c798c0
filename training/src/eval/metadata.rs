//! Metadata against a corpus's own: titles, authors and publication dates compared with
//! the gold ones of each page ([`crate::corpus::GoldMeta`]).
//!
//! - title: the same after lower-casing and keeping the `\w+` tokens ([`word_tokens`]);
//! - author: after the same normalisation, one holds the other (as whole tokens);
//! - published: the same calendar day (the date part of each ISO 8601 value, as
//!   written, in the page's own time zone).
//!
//! Only pages with a gold value count for a field; a page where mainline gives nothing
//! counts as a miss.

use serde::Serialize;

use super::word_tokens;
use crate::corpus::Corpus;
use mainline::internals::document::Options;

/// The fields compared.
pub const FIELDS: [&str; 3] = ["title", "author", "published"];

/// One field of one page: the gold value, mainline's and whether they agree.
#[derive(Debug, Clone, Serialize)]
pub struct FieldResult {
    /// The page's id.
    pub doc: String,
    /// `title`, `author` or `published`.
    pub field: &'static str,
    /// The corpus's value.
    pub gold: String,
    /// mainline's value, if any.
    pub got: Option<String>,
    /// Whether they agree by the field's rule.
    pub agree: bool,
}

/// Agreement of one field over a corpus.
#[derive(Debug, Clone, Copy, Serialize, PartialEq)]
pub struct FieldSummary {
    /// Pages with a gold value.
    pub pages: usize,
    /// Pages where mainline's value agrees.
    pub agree: usize,
    /// Pages where mainline gives nothing.
    pub missing: usize,
}

impl FieldSummary {
    /// The share of pages that agree (0 without pages).
    pub fn share(&self) -> f64 {
        if self.pages == 0 {
            0.0
        } else {
            self.agree as f64 / self.pages as f64
        }
    }
}

/// The `\w+` tokens of a text, lower-cased, joined by single spaces.
fn normal(text: &str) -> String {
    word_tokens(text).join(" ")
}

/// Whether two titles are the same after normalisation.
pub fn same_title(got: &str, gold: &str) -> bool {
    let g = normal(gold);
    !g.is_empty() && normal(got) == g
}

/// Whether, after normalisation, one author holds the other as whole tokens.
pub fn same_author(got: &str, gold: &str) -> bool {
    let (a, b) = (normal(got), normal(gold));
    if a.is_empty() || b.is_empty() {
        return false;
    }
    let (a, b) = (format!(" {a} "), format!(" {b} "));
    a.contains(&b) || b.contains(&a)
}

/// The calendar day of an ISO 8601 date or date-time (`YYYY-MM-DD`, as written), if it
/// starts with one.
pub fn day(value: &str) -> Option<&str> {
    let v = value.trim();
    let b = v.as_bytes();
    let ok = b.len() >= 10
        && b[..4].iter().all(u8::is_ascii_digit)
        && b[4] == b'-'
        && b[5..7].iter().all(u8::is_ascii_digit)
        && b[7] == b'-'
        && b[8..10].iter().all(u8::is_ascii_digit);
    ok.then(|| &v[..10])
}

/// Whether two dates fall on the same calendar day.
pub fn same_day(got: &str, gold: &str) -> bool {
    matches!((day(got), day(gold)), (Some(a), Some(b)) if a == b)
}

/// Reads every page of `corpus` that has gold metadata (`htmls[i]` is the HTML of page
/// `i`), at the URL the corpus records for it, and compares each field that has a gold
/// value. A gold date that is not ISO 8601 is left out.
pub fn metadata_level(
    corpus: &Corpus,
    htmls: &[Vec<u8>],
    options: &Options,
) -> mainline::Result<Vec<FieldResult>> {
    let mut out = Vec::new();
    for (page, html) in corpus.pages.iter().zip(htmls) {
        let Some(gold) = &page.meta else { continue };
        let mut opts = options.clone();
        if let Some(url) = &page.url {
            opts = opts.url(url.clone());
        }
        let doc = opts.extract(html)?;
        let m = doc.metadata();
        let fields = [
            (
                FIELDS[0],
                &gold.title,
                &m.title,
                same_title as fn(&str, &str) -> bool,
            ),
            (FIELDS[1], &gold.author, &m.author, same_author),
            (FIELDS[2], &gold.published, &m.published, same_day),
        ];
        for (field, gold, got, agree) in fields {
            let Some(gold) = gold else { continue };
            if field == "published" && day(gold).is_none() {
                continue;
            }
            out.push(FieldResult {
                doc: page.id.clone(),
                field,
                gold: gold.clone(),
                got: got.clone(),
                agree: got.as_deref().is_some_and(|g| agree(g, gold)),
            });
        }
    }
    Ok(out)
}

/// The agreement of `field` over `results`.
pub fn summarize_field(results: &[FieldResult], field: &str) -> FieldSummary {
    let of: Vec<&FieldResult> = results.iter().filter(|r| r.field == field).collect();
    FieldSummary {
        pages: of.len(),
        agree: of.iter().filter(|r| r.agree).count(),
        missing: of.iter().filter(|r| r.got.is_none()).count(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn titles_agree_after_case_folding_and_punctuation() {
        assert!(same_title("Fish Soup: a recipe!", "fish soup — A recipe"));
        assert!(!same_title("Fish soup | The Kitchen", "Fish soup"));
        assert!(!same_title("", ""));
    }

    #[test]
    fn authors_agree_when_one_holds_the_other_as_whole_words() {
        assert!(same_author("By Ann Lee", "Ann Lee"));
        assert!(same_author("Ann", "Ann Lee, Bob Ray"));
        assert!(!same_author("Annabel Lee", "Ann"));
        assert!(!same_author("", "Ann"));
    }

    #[test]
    fn dates_agree_on_the_calendar_day_as_written() {
        assert!(same_day("2024-03-01T23:30:00-05:00", "2024-03-01"));
        assert!(!same_day("2024-03-02", "2024-03-01T10:00:00Z"));
        assert!(!same_day("March 1, 2024", "2024-03-01"));
        assert_eq!(day("2017-11-03 03:01:00.000000"), Some("2017-11-03"));
    }
}
