//! Evaluation metrics.
//!
//! Pure functions that turn extracted text, gold text and per-line decisions into numbers:
//!
//! - [`word_scores`] — the benchmark's word-level precision, recall and F1 of one page:
//!   lower-case the text, take the `\w+` tokens (Unicode word characters) and compare the
//!   two bags of tokens (multiset overlap). Pages are scored one by one and the scores
//!   averaged with [`mean`].
//! - [`Confusion`] — line-level confusion counts of a content/boilerplate classifier, and
//!   [`error_reduction`] to compare its error count with a baseline's.
//! - [`bootstrap_ci`] — a percentile bootstrap confidence interval for a mean of per-page
//!   scores, and [`summarize`] — the means and intervals of a method's pages.
//! - [`line_level`] and [`page_level`] — methods compared on the lines of a labelled CSV and
//!   on the pages of a corpus ([`PageMethod`]: the threshold, a model or a comparison
//!   algorithm); `mainline eval` prints what they return.
//! - [`metadata`] — titles, authors and publication dates against a corpus's own
//!   metadata (`mainline eval --metadata`).
//!
//! ```
//! use mainline_training::eval::{bootstrap_ci, mean, word_scores};
//!
//! let page = word_scores("The cat sat.", "the cat sat on the mat");
//! assert_eq!(page.precision, 1.0);
//! assert_eq!(page.recall, 0.5);
//!
//! let f1s = [page.f1, 1.0, 0.5];
//! let (low, high) = bootstrap_ci(&f1s, 1000, 0.95, 7);
//! assert!(low <= mean(&f1s) && mean(&f1s) <= high);
//! ```

mod compare;
pub mod metadata;

use std::collections::HashMap;
use std::sync::LazyLock;

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use regex::Regex;
use serde::Serialize;

pub use compare::{
    MethodLines, MethodPages, PageMethod, PageScore, Summary, line_level, page_level, page_types,
    summarize,
};

/// `\w+` with Unicode word characters, the benchmark's token pattern.
static WORD: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"\w+").expect("valid regex"));

/// Splits `text` into the benchmark's word tokens: the text is lower-cased (Unicode rules),
/// then every maximal run of Unicode word characters (`\w+`) is one token.
///
/// Punctuation and whitespace separate tokens and are dropped. Scripts written without
/// spaces between words stay in one token per run: `"東京都に住む"` is a single token. That
/// is the benchmark's rule, so it is kept here even though it is coarse for such text.
///
/// ```
/// use mainline_training::eval::word_tokens;
///
/// assert_eq!(word_tokens("Don't PANIC, Müller!"), ["don", "t", "panic", "müller"]);
/// ```
pub fn word_tokens(text: &str) -> Vec<String> {
    let lower = text.to_lowercase();
    WORD.find_iter(&lower)
        .map(|m| m.as_str().to_owned())
        .collect()
}

/// Word-level precision, recall and F1 of one page, as computed by [`word_scores`].
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct WordScores {
    /// Share of the predicted tokens that are also in the gold text (multiset overlap).
    pub precision: f64,
    /// Share of the gold tokens that are also in the prediction (multiset overlap).
    pub recall: f64,
    /// Harmonic mean of precision and recall; 0 when both are 0.
    pub f1: f64,
}

/// Scores a predicted text against the gold text with the benchmark's rule: tokens from
/// [`word_tokens`], compared as bags (a token counts as often as it occurs in both texts).
///
/// Conventions when a side has no tokens at all (empty text, or only punctuation):
///
/// | prediction | gold      | precision | recall | F1 |
/// |------------|-----------|-----------|--------|----|
/// | empty      | empty     | 1         | 1      | 1  |
/// | empty      | non-empty | 0         | 0      | 0  |
/// | non-empty  | empty     | 0         | 0      | 0  |
///
/// Predicting nothing for a page without main content is a perfect answer. Predicting
/// nothing for a page with content scores 0 throughout (precision is undefined there and
/// counted as 0, so an empty answer is never rewarded). Predicting text for a page without
/// content has precision 0; its recall is undefined and counted as 0.
///
/// ```
/// use mainline_training::eval::word_scores;
///
/// let s = word_scores("the cat, the dog", "The dog and the cat");
/// assert_eq!((s.precision, s.recall), (1.0, 0.8));
/// ```
pub fn word_scores(predicted: &str, gold: &str) -> WordScores {
    let predicted = word_tokens(predicted);
    let gold = word_tokens(gold);
    match (predicted.is_empty(), gold.is_empty()) {
        (true, true) => {
            return WordScores {
                precision: 1.0,
                recall: 1.0,
                f1: 1.0,
            };
        }
        (true, false) | (false, true) => {
            return WordScores {
                precision: 0.0,
                recall: 0.0,
                f1: 0.0,
            };
        }
        (false, false) => {}
    }

    let mut gold_counts: HashMap<&str, u32> = HashMap::with_capacity(gold.len());
    for token in &gold {
        *gold_counts.entry(token.as_str()).or_insert(0) += 1;
    }
    let mut overlap = 0usize;
    for token in &predicted {
        if let Some(count) = gold_counts.get_mut(token.as_str())
            && *count > 0
        {
            *count -= 1;
            overlap += 1;
        }
    }

    let precision = overlap as f64 / predicted.len() as f64;
    let recall = overlap as f64 / gold.len() as f64;
    WordScores {
        precision,
        recall,
        f1: harmonic_mean(precision, recall),
    }
}

/// `2pr / (p + r)`, or 0 when both are 0.
fn harmonic_mean(p: f64, r: f64) -> f64 {
    if p + r == 0.0 {
        0.0
    } else {
        2.0 * p * r / (p + r)
    }
}

/// `numerator / denominator`, or 0 when the denominator is 0.
fn ratio_or_zero(numerator: u64, denominator: u64) -> f64 {
    if denominator == 0 {
        0.0
    } else {
        numerator as f64 / denominator as f64
    }
}

/// Line-level confusion counts of a content/boilerplate classifier, where "positive" means
/// content.
///
/// Ratios whose denominator is zero are reported as 0 (for example the precision of a
/// classifier that never predicted content). Accumulate with [`Confusion::add`] and combine
/// pages or folds with [`Confusion::merge`].
///
/// ```
/// use mainline_training::eval::Confusion;
///
/// let mut c = Confusion::default();
/// for (predicted, truth) in [(true, true), (true, false), (false, false), (false, true)] {
///     c.add(predicted, truth);
/// }
/// assert_eq!(c.errors(), 2);
/// assert_eq!(c.accuracy(), 0.5);
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Confusion {
    /// Content lines predicted as content.
    pub tp: u64,
    /// Boilerplate lines predicted as content.
    pub fp: u64,
    /// Boilerplate lines predicted as boilerplate.
    pub tn: u64,
    /// Content lines predicted as boilerplate.
    pub fn_: u64,
}

impl Confusion {
    /// Counts one line: `predicted` is the classifier's decision, `truth` the label
    /// (`true` = content).
    pub fn add(&mut self, predicted: bool, truth: bool) {
        match (predicted, truth) {
            (true, true) => self.tp += 1,
            (true, false) => self.fp += 1,
            (false, false) => self.tn += 1,
            (false, true) => self.fn_ += 1,
        }
    }

    /// Adds the counts of `other` to `self`.
    pub fn merge(&mut self, other: &Confusion) {
        self.tp += other.tp;
        self.fp += other.fp;
        self.tn += other.tn;
        self.fn_ += other.fn_;
    }

    /// Number of lines counted.
    pub fn total(&self) -> u64 {
        self.tp + self.fp + self.tn + self.fn_
    }

    /// Misclassified lines: false positives plus false negatives.
    pub fn errors(&self) -> u64 {
        self.fp + self.fn_
    }

    /// Share of lines classified correctly; 0 when no line was counted.
    pub fn accuracy(&self) -> f64 {
        ratio_or_zero(self.tp + self.tn, self.total())
    }

    /// Share of predicted content lines that are content; 0 when nothing was predicted as
    /// content.
    pub fn precision(&self) -> f64 {
        ratio_or_zero(self.tp, self.tp + self.fp)
    }

    /// Share of content lines predicted as content; 0 when there is no content line.
    pub fn recall(&self) -> f64 {
        ratio_or_zero(self.tp, self.tp + self.fn_)
    }

    /// Harmonic mean of [`precision`](Self::precision) and [`recall`](Self::recall), i.e.
    /// `2tp / (2tp + fp + fn)`; 0 when there are no true positives.
    pub fn f1(&self) -> f64 {
        ratio_or_zero(2 * self.tp, 2 * self.tp + self.fp + self.fn_)
    }
}

/// Relative error reduction against a baseline: `1 - errors / baseline_errors`.
///
/// 1 means every baseline error is gone, 0 no change, negative values more errors than the
/// baseline. A baseline without errors leaves nothing to reduce and gives 0.
///
/// ```
/// use mainline_training::eval::error_reduction;
///
/// assert_eq!(error_reduction(200, 150), 0.25);
/// ```
pub fn error_reduction(baseline_errors: u64, errors: u64) -> f64 {
    if baseline_errors == 0 {
        0.0
    } else {
        1.0 - errors as f64 / baseline_errors as f64
    }
}

/// Arithmetic mean; 0 for an empty slice.
pub fn mean(values: &[f64]) -> f64 {
    if values.is_empty() {
        0.0
    } else {
        values.iter().sum::<f64>() / values.len() as f64
    }
}

/// Percentile bootstrap confidence interval of the mean of `values`.
///
/// Draws `resamples` samples of `values.len()` values with replacement, takes the mean of
/// each, and returns the `(1 - confidence) / 2` and `(1 + confidence) / 2` quantiles of those
/// means (linear interpolation between order statistics). `confidence` is clamped to
/// `0..=1`; 0.95 gives the usual 95 % interval.
///
/// The result depends only on the arguments: the random generator is seeded with `seed`.
/// An empty `values` gives `(0, 0)`; `resamples == 0` gives the degenerate interval
/// `(mean, mean)`.
pub fn bootstrap_ci(values: &[f64], resamples: usize, confidence: f64, seed: u64) -> (f64, f64) {
    if values.is_empty() {
        return (0.0, 0.0);
    }
    if resamples == 0 {
        let m = mean(values);
        return (m, m);
    }
    let confidence = if confidence.is_nan() {
        0.0
    } else {
        confidence.clamp(0.0, 1.0)
    };

    let mut rng = StdRng::seed_from_u64(seed);
    let n = values.len();
    let mut means: Vec<f64> = (0..resamples)
        .map(|_| {
            let sum: f64 = (0..n).map(|_| values[rng.gen_range(0..n)]).sum();
            sum / n as f64
        })
        .collect();
    means.sort_by(f64::total_cmp);

    let tail = (1.0 - confidence) / 2.0;
    (quantile(&means, tail), quantile(&means, 1.0 - tail))
}

/// Quantile `q` (0..=1) of sorted, non-empty `sorted`, interpolating linearly between
/// neighbouring order statistics.
fn quantile(sorted: &[f64], q: f64) -> f64 {
    let position = q * (sorted.len() - 1) as f64;
    let below = position.floor() as usize;
    let above = position.ceil() as usize;
    let weight = position - below as f64;
    sorted[below] * (1.0 - weight) + sorted[above] * weight
}

#[cfg(test)]
mod tests {
    use super::*;

    fn assert_close(actual: f64, expected: f64) {
        assert!(
            (actual - expected).abs() < 1e-12,
            "expected {expected}, got {actual}"
        );
    }

    #[test]
    fn tokens_are_lowercased_word_runs_without_punctuation() {
        assert_eq!(
            word_tokens("Hello, World! It's 2024-05-01; foo_bar."),
            ["hello", "world", "it", "s", "2024", "05", "01", "foo_bar"]
        );
    }

    #[test]
    fn tokens_keep_accented_letters_and_lowercase_them_by_unicode_rules() {
        assert_eq!(
            word_tokens("MÜLLER Straße ÉCOLE"),
            ["müller", "straße", "école"]
        );
        assert_eq!(word_tokens("ΣΟΦΟΣ"), ["σοφος"]);
    }

    #[test]
    fn a_run_of_cjk_characters_is_one_token_as_the_benchmark_rule_says() {
        assert_eq!(word_tokens("東京都に住む。はい"), ["東京都に住む", "はい"]);
    }

    #[test]
    fn text_without_word_characters_has_no_tokens() {
        assert!(word_tokens("").is_empty());
        assert!(word_tokens(" — … !!! ").is_empty());
    }

    #[test]
    fn word_scores_count_overlap_as_a_multiset() {
        // predicted: the, cat, the            (3 tokens)
        // gold:      the, cat, sat, on, the, mat (6 tokens; "the" twice)
        // overlap:   the ×2 (gold has two), cat ×1 = 3
        // P = 3/3 = 1, R = 3/6 = 0.5, F1 = 2·1·0.5 / 1.5 = 2/3
        let s = word_scores("the cat the", "The cat sat on the mat");
        assert_close(s.precision, 1.0);
        assert_close(s.recall, 0.5);
        assert_close(s.f1, 2.0 / 3.0);
    }

    #[test]
    fn repeated_predicted_tokens_count_only_as_often_as_in_gold() {
        // predicted: the ×4, cat; gold: the, cat, sat
        // overlap: the ×1, cat ×1 = 2 → P = 2/5, R = 2/3, F1 = 2·(2/5)(2/3) / (2/5 + 2/3) = 1/2
        let s = word_scores("the the the the cat", "the cat sat");
        assert_close(s.precision, 0.4);
        assert_close(s.recall, 2.0 / 3.0);
        assert_close(s.f1, 0.5);
    }

    #[test]
    fn word_scores_ignore_case_and_punctuation() {
        let s = word_scores("MÜLLER, said: “hello”!", "müller said hello");
        assert_eq!(
            s,
            WordScores {
                precision: 1.0,
                recall: 1.0,
                f1: 1.0
            }
        );
    }

    #[test]
    fn cjk_text_matches_only_as_whole_runs() {
        // One token each: "東京都に住む" vs "東京都" — no overlap under the benchmark rule.
        let s = word_scores("東京都に住む", "東京都");
        assert_eq!(s.f1, 0.0);
        let s = word_scores("東京都に住む。", "東京都に住む");
        assert_eq!(s.f1, 1.0);
    }

    #[test]
    fn disjoint_texts_score_zero() {
        let s = word_scores("menu login", "article text");
        assert_eq!((s.precision, s.recall, s.f1), (0.0, 0.0, 0.0));
    }

    #[test]
    fn two_empty_texts_score_one() {
        let s = word_scores("", "...");
        assert_eq!((s.precision, s.recall, s.f1), (1.0, 1.0, 1.0));
    }

    #[test]
    fn an_empty_prediction_for_a_page_with_content_scores_zero() {
        let s = word_scores("", "some content");
        assert_eq!((s.precision, s.recall, s.f1), (0.0, 0.0, 0.0));
    }

    #[test]
    fn a_prediction_for_a_page_without_content_scores_zero() {
        let s = word_scores("some boilerplate", "  ");
        assert_eq!((s.precision, s.recall, s.f1), (0.0, 0.0, 0.0));
    }

    #[test]
    fn confusion_metrics_match_hand_computed_values() {
        let mut c = Confusion::default();
        // 3 tp, 1 fp, 4 tn, 2 fn
        for _ in 0..3 {
            c.add(true, true);
        }
        c.add(true, false);
        for _ in 0..4 {
            c.add(false, false);
        }
        for _ in 0..2 {
            c.add(false, true);
        }
        assert_eq!(
            c,
            Confusion {
                tp: 3,
                fp: 1,
                tn: 4,
                fn_: 2
            }
        );
        assert_eq!(c.total(), 10);
        assert_eq!(c.errors(), 3);
        assert_close(c.accuracy(), 0.7);
        assert_close(c.precision(), 0.75);
        assert_close(c.recall(), 0.6);
        // 2·3 / (2·3 + 1 + 2) = 6/9
        assert_close(c.f1(), 2.0 / 3.0);
        assert_close(c.f1(), harmonic_mean(c.precision(), c.recall()));
    }

    #[test]
    fn merging_confusions_adds_their_counts() {
        let mut a = Confusion {
            tp: 1,
            fp: 2,
            tn: 3,
            fn_: 4,
        };
        a.merge(&Confusion {
            tp: 10,
            fp: 20,
            tn: 30,
            fn_: 40,
        });
        assert_eq!(
            a,
            Confusion {
                tp: 11,
                fp: 22,
                tn: 33,
                fn_: 44
            }
        );
    }

    #[test]
    fn undefined_confusion_ratios_are_zero() {
        let empty = Confusion::default();
        assert_eq!(
            (
                empty.accuracy(),
                empty.precision(),
                empty.recall(),
                empty.f1()
            ),
            (0.0, 0.0, 0.0, 0.0)
        );
        let all_negative = Confusion {
            tn: 5,
            ..Confusion::default()
        };
        assert_eq!(all_negative.accuracy(), 1.0);
        assert_eq!(all_negative.precision(), 0.0);
        assert_eq!(all_negative.recall(), 0.0);
        assert_eq!(all_negative.f1(), 0.0);
    }

    #[test]
    fn error_reduction_is_relative_to_the_baseline() {
        assert_close(error_reduction(100, 75), 0.25);
        assert_close(error_reduction(100, 0), 1.0);
        assert_close(error_reduction(100, 100), 0.0);
        assert_close(error_reduction(100, 150), -0.5);
        assert_eq!(error_reduction(0, 0), 0.0);
        assert_eq!(error_reduction(0, 3), 0.0);
    }

    #[test]
    fn mean_of_nothing_is_zero() {
        assert_eq!(mean(&[]), 0.0);
        assert_close(mean(&[1.0, 2.0, 6.0]), 3.0);
    }

    #[test]
    fn bootstrap_is_deterministic_for_a_seed() {
        let values: Vec<f64> = (0..50).map(|i| (i * 37 % 101) as f64 / 100.0).collect();
        let a = bootstrap_ci(&values, 500, 0.95, 42);
        let b = bootstrap_ci(&values, 500, 0.95, 42);
        assert_eq!(a, b);
        let c = bootstrap_ci(&values, 500, 0.95, 43);
        assert_ne!(a, c);
    }

    #[test]
    fn bootstrap_interval_contains_the_mean_and_narrows_with_lower_confidence() {
        let values: Vec<f64> = (0..200)
            .map(|i| ((i * 7919) % 1000) as f64 / 1000.0)
            .collect();
        let m = mean(&values);
        let (low95, high95) = bootstrap_ci(&values, 2000, 0.95, 1);
        assert!(low95 < m && m < high95, "{low95} < {m} < {high95}");
        let (low50, high50) = bootstrap_ci(&values, 2000, 0.5, 1);
        assert!(low95 <= low50 && high50 <= high95);
        // The standard error of the mean is about 0.29 / sqrt(200) ≈ 0.02, so the 95 %
        // interval is about ±0.04 wide.
        assert!(high95 - low95 < 0.1);
    }

    #[test]
    fn bootstrap_degenerate_inputs() {
        assert_eq!(bootstrap_ci(&[], 100, 0.95, 0), (0.0, 0.0));
        assert_eq!(bootstrap_ci(&[0.3, 0.5], 0, 0.95, 0), (0.4, 0.4));
        let (low, high) = bootstrap_ci(&[0.7; 10], 100, 0.95, 0);
        assert_close(low, 0.7);
        assert_close(high, 0.7);
        // Zero confidence collapses to the median of the resampled means.
        let (low, high) = bootstrap_ci(&[0.0, 1.0], 101, 0.0, 0);
        assert_eq!(low, high);
    }
}
