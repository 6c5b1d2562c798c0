//! Line-level classification metrics and the choice of a decision threshold.

use serde::{Deserialize, Serialize};

/// Confusion counts and scores of line decisions against labels; content is the positive
/// class. Precision, recall and F1 are 0 when undefined (no predicted or no actual content).
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
pub struct LineMetrics {
    /// Lines scored.
    pub lines: usize,
    /// Content lines kept.
    pub true_positives: usize,
    /// Boilerplate lines kept.
    pub false_positives: usize,
    /// Boilerplate lines dropped.
    pub true_negatives: usize,
    /// Content lines dropped.
    pub false_negatives: usize,
    /// Wrong decisions: false positives plus false negatives.
    pub errors: usize,
    /// Fraction of right decisions.
    pub accuracy: f64,
    /// Fraction of kept lines that are content.
    pub precision: f64,
    /// Fraction of content lines that are kept.
    pub recall: f64,
    /// Harmonic mean of precision and recall.
    pub f1: f64,
}

impl LineMetrics {
    /// Metrics of `predicted` (kept or not) against `actual` (content or not).
    ///
    /// ```
    /// use mainline_training::train::LineMetrics;
    ///
    /// let m = LineMetrics::new([true, true, false, false], &[true, false, false, true]);
    /// assert_eq!((m.true_positives, m.errors), (1, 2));
    /// assert_eq!(m.f1, 0.5);
    /// ```
    ///
    /// # Panics
    ///
    /// If `predicted` yields a different number of items than `actual` holds.
    pub fn new(predicted: impl IntoIterator<Item = bool>, actual: &[bool]) -> Self {
        let mut counts = [0_usize; 4];
        let mut n = 0;
        for (p, &a) in predicted.into_iter().zip(actual) {
            counts[usize::from(p) * 2 + usize::from(a)] += 1;
            n += 1;
        }
        assert_eq!(n, actual.len(), "one prediction per label");
        let [tn, fn_, fp, tp] = counts;
        Self::from_counts(tp, fp, tn, fn_)
    }

    /// Metrics from the four confusion counts.
    pub fn from_counts(tp: usize, fp: usize, tn: usize, fn_: usize) -> Self {
        let ratio = |a: usize, b: usize| if b == 0 { 0.0 } else { a as f64 / b as f64 };
        let lines = tp + fp + tn + fn_;
        let precision = ratio(tp, tp + fp);
        let recall = ratio(tp, tp + fn_);
        LineMetrics {
            lines,
            true_positives: tp,
            false_positives: fp,
            true_negatives: tn,
            false_negatives: fn_,
            errors: fp + fn_,
            accuracy: ratio(tp + tn, lines),
            precision,
            recall,
            f1: ratio(2 * tp, 2 * tp + fp + fn_),
        }
    }
}

/// Candidate thresholds: 0.05, 0.06, ..., 0.95, computed in `f32` exactly as stored.
fn candidates() -> impl Iterator<Item = f32> {
    (5..=95).map(|k| k as f32 / 100.0)
}

/// The threshold among 0.05, 0.06, ..., 0.95 that maximises line F1 of `score >= t`, and
/// the metrics there. Ties go to the threshold closest to 0.5, then the lower one.
pub(crate) fn best_threshold(
    scores: &[f32],
    actual: &[bool],
    objective: super::params::ThresholdObjective,
) -> (f32, LineMetrics) {
    let value = |m: &LineMetrics| match objective {
        super::params::ThresholdObjective::F1 => m.f1,
        super::params::ThresholdObjective::Accuracy => m.accuracy,
    };
    let mut best: Option<(f32, LineMetrics)> = None;
    for t in candidates() {
        let m = LineMetrics::new(scores.iter().map(|&s| s >= t), actual);
        let better = match &best {
            None => true,
            Some((bt, bm)) => {
                value(&m) > value(bm)
                    || (value(&m) == value(bm) && (t - 0.5).abs() < (bt - 0.5).abs())
            }
        };
        if better {
            best = Some((t, m));
        }
    }
    best.expect("there is at least one candidate threshold")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn metrics_match_a_hand_count() {
        // tp=3 fp=1 tn=4 fn=2
        let m = LineMetrics::from_counts(3, 1, 4, 2);
        assert_eq!(m.lines, 10);
        assert_eq!(m.errors, 3);
        assert_eq!(m.accuracy, 0.7);
        assert_eq!(m.precision, 0.75);
        assert_eq!(m.recall, 0.6);
        assert!((m.f1 - 2.0 * 0.75 * 0.6 / 1.35).abs() < 1e-12);
    }

    #[test]
    fn undefined_scores_are_zero() {
        let m = LineMetrics::from_counts(0, 0, 5, 0);
        assert_eq!(
            (m.precision, m.recall, m.f1, m.accuracy),
            (0.0, 0.0, 0.0, 1.0)
        );
        assert_eq!(LineMetrics::new([], &[]).accuracy, 0.0);
    }

    #[test]
    fn the_best_threshold_separates_the_scores() {
        let scores = [0.1, 0.2, 0.22, 0.7, 0.8, 0.25];
        let actual = [false, false, false, true, true, true];
        let (t, m) = best_threshold(
            &scores,
            &actual,
            super::super::params::ThresholdObjective::F1,
        );
        assert_eq!(m.f1, 1.0);
        // 0.23, 0.24 and 0.25 all separate; the one nearest 0.5 wins.
        assert_eq!(t, 0.25);
    }

    #[test]
    fn ties_prefer_the_threshold_nearest_one_half() {
        let (t, _) = best_threshold(
            &[0.01, 0.99],
            &[false, true],
            super::super::params::ThresholdObjective::F1,
        );
        assert_eq!(t, 0.5);
    }
}
