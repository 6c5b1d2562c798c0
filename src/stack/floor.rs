//! A floor under a page's decisions: a page with prose never comes out empty or nearly so.
//!
//! A model trained on WCXB pages has seen few pages like a user's first try: a handful of
//! paragraphs, a title, maybe a code block. On such pages it can score every line below its
//! threshold, although it still ranks the paragraphs above the rest. The floor looks at
//! what the decisions kept against the page's prose (the text of lines of at least
//! [`PROSE_MIN_BYTES`] that are mostly not links). When the page comes out nearly empty
//! ([`LONG`]), or a short page keeps less than half its prose ([`SHORT`]), the threshold of
//! the page is lowered to the score of the prose line at which the best scored prose
//! lines hold a share of the prose, and every line scored at least as high is kept as
//! well. Pages with less prose than [`PAGE_MIN_BYTES`] (link lists, forms, empty pages)
//! are left as decided.
//!
//! The floor only ever adds lines, and the lines it adds are the ones the model scored
//! highest: what the model ranks is kept, where its threshold would have cut.
//!
//! ```
//! use mainline::stack::floor::{prose_bytes, SHORT};
//!
//! // Three paragraphs scored below a threshold of 0.5, and a short menu line.
//! let scores = [0.30, 0.25, 0.28, 0.10];
//! let bytes = [(400, 0.0), (300, 0.0), (350, 0.1), (12, 1.0)].map(|(t, l)| (t, prose_bytes(t, l)));
//! let mut keep = [false; 4];
//! assert!(SHORT.apply(&scores, &bytes, &mut keep));
//! assert_eq!(keep, [true, true, true, false]);
//! ```

/// Lines with less text than this (bytes) are not prose: menus, buttons, captions.
pub const PROSE_MIN_BYTES: u64 = 40;

/// Lines whose text lies inside links for at least this share are not prose.
pub const PROSE_MAX_LINK_DENSITY: f64 = 0.5;

/// Pages (blocks) with less prose than this, in bytes, are left as decided.
pub const PAGE_MIN_BYTES: u64 = 250;

/// When the floor applies, and how much of the prose it then keeps.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Floor {
    /// The decisions are left alone when the kept lines hold at least this many bytes of
    /// text (any text, prose or not) …
    pub min_kept_bytes: u64,
    /// … and at least this share of the page's prose in bytes of text.
    pub min_kept_share: f64,
    /// Otherwise the best scored prose lines are kept until they hold this share of the
    /// prose, with every line scored as high.
    pub share: f64,
}

/// The floor of blocks decided by the second stage: only a page that comes out nearly
/// empty (less than 100 bytes of text) gets the best fifth of its prose. Chosen by
/// cross-validation on WCXB (`training/README.md`): a floor that also applies to pages
/// keeping a small share of their prose adds the teasers and reviews of listing,
/// collection and product pages, whose content is not their prose.
pub const LONG: Floor = Floor {
    min_kept_bytes: 100,
    min_kept_share: 0.0,
    share: 0.2,
};

/// The floor of blocks decided by the first stage alone (fewer lines than
/// [`crate::model::Stage2::min_block_lines`]): short pages, mostly prose, where the first
/// stage's scores still carry what it learnt of long pages (a page's first lines are its
/// menus), so it drops the opening paragraphs of a five-paragraph page. When less than
/// half the prose is kept, the best scored prose is kept up to four fifths of it.
pub const SHORT: Floor = Floor {
    min_kept_bytes: 100,
    min_kept_share: 0.5,
    share: 0.8,
};

/// The prose of a line, in bytes (text outside links), from its text bytes and link
/// density: 0 for lines that are not prose (see [`PROSE_MIN_BYTES`],
/// [`PROSE_MAX_LINK_DENSITY`]).
#[inline]
pub fn prose_bytes(text_bytes: u64, link_density: f32) -> u64 {
    let link = f64::from(link_density).clamp(0.0, 1.0);
    if text_bytes < PROSE_MIN_BYTES || link >= PROSE_MAX_LINK_DENSITY {
        0
    } else {
        (text_bytes as f64 * (1.0 - link)).round() as u64
    }
}

/// One line as the floor sees it: its text bytes and its [`prose_bytes`], from its
/// `ln_text_bytes` and `link_density` features, as the extractor and training both
/// compute them.
#[inline]
pub fn line_bytes(ln_text_bytes: f32, link_density: f32) -> (u64, u64) {
    let text = super::page::text_bytes(ln_text_bytes);
    (text, prose_bytes(text, link_density))
}

impl Floor {
    /// Applies the floor to one page (or block of a page): `scores` are the lines'
    /// scores, `bytes` their text and prose bytes ([`line_bytes`]) and `keep` the
    /// decisions, which lines may be added to. Returns whether anything was added.
    ///
    /// # Panics
    /// When the slices differ in length.
    pub fn apply(&self, scores: &[f32], bytes: &[(u64, u64)], keep: &mut [bool]) -> bool {
        assert!(
            scores.len() == bytes.len() && bytes.len() == keep.len(),
            "one value per line"
        );
        let total: u64 = bytes.iter().map(|b| b.1).sum();
        if total < PAGE_MIN_BYTES {
            return false;
        }
        let kept: u64 = bytes
            .iter()
            .zip(keep.iter())
            .filter(|(_, k)| **k)
            .map(|(b, _)| b.0)
            .sum();
        if kept >= self.min_kept_bytes && kept as f64 >= self.min_kept_share * total as f64 {
            return false;
        }
        let want = self.share * total as f64;
        let mut ranked: Vec<(f32, u64)> = scores
            .iter()
            .zip(bytes)
            .filter(|(_, b)| b.1 > 0)
            .map(|(&s, b)| (s, b.1))
            .collect();
        ranked.sort_by(|a, b| b.0.total_cmp(&a.0));
        let mut sum = 0u64;
        let mut cut = f32::INFINITY;
        for (s, p) in ranked {
            sum += p;
            cut = s;
            if sum as f64 >= want {
                break;
            }
        }
        let mut changed = false;
        for (k, &s) in keep.iter_mut().zip(scores) {
            if !*k && s >= cut {
                *k = true;
                changed = true;
            }
        }
        changed
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn links_and_short_lines_are_not_prose() {
        assert_eq!(prose_bytes(39, 0.0), 0);
        assert_eq!(prose_bytes(100, 0.5), 0);
        assert_eq!(prose_bytes(100, 0.49), 51);
        assert_eq!(prose_bytes(100, 0.0), 100);
    }

    /// Lines of the given prose bytes, all of it text.
    fn prose(bytes: &[u64]) -> Vec<(u64, u64)> {
        bytes.iter().map(|&b| (b.max(1), b)).collect()
    }

    #[test]
    fn pages_that_keep_enough_text_are_left_alone() {
        let scores = [0.9, 0.2, 0.1];
        let bytes = prose(&[600, 400, 0]);
        let mut keep = [true, false, false];
        assert!(!SHORT.apply(&scores, &bytes, &mut keep));
        assert!(!LONG.apply(&scores, &bytes, &mut keep));
        assert_eq!(keep, [true, false, false]);
    }

    #[test]
    fn pages_without_prose_are_left_empty() {
        let scores = [0.3, 0.2];
        let bytes = prose(&[100, 100]);
        let mut keep = [false, false];
        assert!(!SHORT.apply(&scores, &bytes, &mut keep));
        assert_eq!(keep, [false, false]);
    }

    #[test]
    fn the_best_scored_prose_is_kept_up_to_the_share() {
        // Prose of 1000 bytes: the two best lines hold 600 of it, half is 500.
        let scores = [0.1, 0.4, 0.35, 0.2, 0.38];
        let bytes = prose(&[0, 300, 300, 400, 0]);
        let mut keep = [false; 5];
        let half = Floor { share: 0.5, ..LONG };
        assert!(half.apply(&scores, &bytes, &mut keep));
        // Every line scored at least 0.35 is kept, prose or not.
        assert_eq!(keep, [false, true, true, false, true]);
    }

    #[test]
    fn a_long_page_is_floored_only_when_nearly_empty() {
        let scores = [0.9, 0.1, 0.2];
        // 60 bytes of kept text: nearly empty, whatever the share.
        let mut keep = [true, false, false];
        assert!(LONG.apply(&scores, &[(60, 60), (500, 500), (500, 500)], &mut keep));
        assert_eq!(keep, [true, false, true]);
        // 120 bytes: left alone on a long page, floored on a short one.
        let bytes = [(120, 120), (500, 500), (500, 500)];
        let mut keep = [true, false, false];
        assert!(!LONG.apply(&scores, &bytes, &mut keep));
        assert!(SHORT.apply(&scores, &bytes, &mut keep));
        assert_eq!(keep, [true, true, true]);
    }

    #[test]
    fn text_bytes_come_back_from_the_feature() {
        assert_eq!(
            line_bytes(f64::from(100u32).ln_1p() as f32, 0.25),
            (100, 75)
        );
        assert_eq!(line_bytes(0.0, 0.0), (0, 0));
    }
}
