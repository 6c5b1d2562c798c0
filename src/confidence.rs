//! How well a page was likely extracted, from the built-in model's own scores.
//!
//! A pipeline can send the pages whose [`Document::confidence`](crate::Document::confidence)
//! is low to a slower method. The estimate is a ridge regression of a page's word F1 on
//! [`FEATURES`], summaries of the scores the built-in model gave the page's lines (no
//! gold text is needed to compute them). It was fitted on the WCXB development pages with
//! `cargo run --release --example documents -- ../shared/data/wcxb-dev`, which also reports
//! the rank correlation of its cross-validated predictions with the real page F1. It is
//! only meaningful for the model it was fitted on, so documents decided by another scorer
//! have none.

use crate::extract::Decision;

/// The names of the page features, in the order of [`features`].
pub const FEATURES: [&str; 8] = [
    "kept_text_share",
    "kept_line_share",
    "ln_kept_text_bytes",
    "ln_lines",
    "kept_mean_score",
    "dropped_mean_score",
    "doubt",
    "ln_kept_runs",
];

/// The page features of [`FEATURES`] from the decisions of all its lines: the share of the
/// text and of the lines kept, the kept text bytes and the lines (logarithms), the mean
/// score of the kept and of the dropped lines (weighted by text bytes), the mean doubt
/// `4·s·(1−s)` of the scores (weighted), and the number of runs of kept lines (logarithm).
pub fn features(lines: &[Decision]) -> [f64; 8] {
    let mut text = 0.0f64;
    let mut kept_text = 0.0;
    let mut kept_lines = 0.0;
    let (mut kept_score, mut dropped_score, mut dropped_text) = (0.0, 0.0, 0.0);
    let mut doubt = 0.0;
    let mut runs = 0.0f64;
    let mut prev_kept = false;
    for d in lines {
        let w = d.line.text_bytes as f64;
        let s = f64::from(d.score).clamp(0.0, 1.0);
        text += w;
        doubt += w * 4.0 * s * (1.0 - s);
        if d.keep {
            kept_text += w;
            kept_lines += 1.0;
            kept_score += w * s;
            if !prev_kept {
                runs += 1.0;
            }
        } else {
            dropped_text += w;
            dropped_score += w * s;
        }
        prev_kept = d.keep;
    }
    let share = |a: f64, b: f64| if b > 0.0 { a / b } else { 0.0 };
    [
        share(kept_text, text),
        share(kept_lines, lines.len() as f64),
        (1.0 + kept_text).ln(),
        (1.0 + lines.len() as f64).ln(),
        share(kept_score, kept_text),
        share(dropped_score, dropped_text),
        share(doubt, text),
        (1.0 + runs).ln(),
    ]
}

/// The fitted regression: the features' means and standard deviations (for
/// standardising), their weights, and the intercept.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Weights {
    /// Means of the features on the fitting pages.
    pub mean: [f64; 8],
    /// Standard deviations of the features on the fitting pages.
    pub std: [f64; 8],
    /// Weight of each standardised feature.
    pub weight: [f64; 8],
    /// The prediction for a page of mean features.
    pub intercept: f64,
}

impl Weights {
    /// The predicted page F1 for `features`, clipped to [0, 1].
    pub fn predict(&self, features: &[f64; 8]) -> f64 {
        let mut y = self.intercept;
        for (i, x) in features.iter().enumerate() {
            if self.std[i] > 0.0 {
                y += self.weight[i] * (x - self.mean[i]) / self.std[i];
            }
        }
        y.clamp(0.0, 1.0)
    }
}

/// The weights fitted on the WCXB development pages with the built-in model of
/// `models/default.json` (printed by the `documents` example; refit them when that model
/// changes). The built-in model was itself trained on those pages, so its F1 there is
/// higher than on unseen pages.
pub const WEIGHTS: Weights = Weights {
    mean: [
        0.6283705629373921,
        0.33363575219936475,
        8.742651286562937,
        5.43435936271825,
        0.8560051701251189,
        0.08084845858915499,
        0.293678161965732,
        1.7880803689882214,
    ],
    std: [
        0.2416746444842968,
        0.2343350509264502,
        1.369474327747764,
        0.8608363441079727,
        0.1473165459706412,
        0.06691269280580345,
        0.18359265757818552,
        1.038065185763035,
    ],
    weight: [
        0.04895411831860627,
        -0.0008536903423891098,
        -0.01926107479490972,
        -0.0033966298959735956,
        0.07118669551387438,
        -0.012728458380110467,
        -0.05344121346357841,
        0.01723000521521604,
    ],
    intercept: 0.8740472326437874,
};

#[cfg(test)]
mod tests {
    #[test]
    fn confidence_is_in_the_unit_range_and_only_for_the_built_in_model() {
        let html = std::fs::read(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/data/samples/article.html"
        ))
        .unwrap();
        let c = crate::extract(&html).unwrap().confidence().unwrap();
        assert!((0.0..=1.0).contains(&c), "{c}");
        let doc = crate::Options::new().threshold(0.5).extract(&html).unwrap();
        assert_eq!(doc.confidence(), None);
        assert_eq!(doc.to_json()["confidence"], serde_json::Value::Null);
    }

    #[test]
    fn a_page_with_nothing_kept_gets_less_confidence_than_a_clean_article() {
        let html = std::fs::read(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/data/samples/article.html"
        ))
        .unwrap();
        let article = crate::extract(&html).unwrap();
        let menu: String = (0..60)
            .map(|i| format!("<li><a href=/p{i}>Page {i}</a></li>"))
            .collect();
        let menu = crate::extract(format!("<ul>{menu}</ul>").as_bytes()).unwrap();
        assert!(menu.confidence() < article.confidence());
    }
}
