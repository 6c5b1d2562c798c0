//! Trained line classifiers: a model scores one line's feature row and keeps the line when
//! the score reaches the model's threshold.
//!
//! A [`Model`] is plain data (see [`file`](self#the-model-file) below): the names of the
//! features it reads, how to standardise them, the weights of a logistic regression or a
//! small multi-layer perceptron, the decision threshold and how it was trained. Inference
//! is a few plain loops over `f32`; it needs no training library.
//!
//! # Scoring a line
//!
//! ```
//! use mainline::internals::model::{Model, ModelKind, Scaler};
//!
//! // P(content) = sigmoid(4 · (density - 0.5) / 0.25)
//! let model = Model::new(
//!     vec!["density".to_string()],
//!     Scaler { mean: vec![0.5], std: vec![0.25] },
//!     ModelKind::Logistic { weights: vec![4.0], bias: 0.0 },
//! );
//! model.validate()?;
//!
//! let dense = model.score(&[0.9]);
//! let sparse = model.score(&[0.1]);
//! assert!(dense > 0.9 && sparse < 0.01);
//! assert!(model.keep(&[0.9]) && !model.keep(&[0.1]));
//! # Ok::<(), mainline::Error>(())
//! ```
//!
//! # Binding a model to this build's feature schema
//!
//! A model names the features it was trained on; the running build computes its own list of
//! columns. [`Model::bind`] maps one onto the other once, and fails with
//! [`Error::FeatureMismatch`] when the build does not compute
//! a feature the model needs:
//!
//! ```
//! # use mainline::internals::model::{Model, ModelKind, Scaler};
//! # let model = Model::new(
//! #     vec!["density".to_string()],
//! #     Scaler { mean: vec![0.5], std: vec![0.25] },
//! #     ModelKind::Logistic { weights: vec![4.0], bias: 0.0 },
//! # );
//! let schema = ["ln_html_bytes", "density", "link_density"];
//! let columns = model.bind(&schema)?;
//! assert_eq!(columns, vec![1]);
//!
//! let full_row = [4.2_f32, 0.9, 0.0];
//! let row: Vec<f32> = columns.iter().map(|&i| full_row[i]).collect();
//! assert!(model.keep(&row));
//!
//! assert!(model.bind(&["ln_html_bytes"]).is_err());
//! # Ok::<(), mainline::Error>(())
//! ```
//!
//! # The model file
//!
//! [`Model::to_json`] writes pretty-printed JSON whose fields mirror the structs of this
//! module; [`Model::from_json`] and [`Model::load`] read it back and check it
//! ([`Model::validate`]). A file starts with `"format"`, the version of the layout
//! ([`MODEL_FORMAT_VERSION`], 3; versions 1 and 2 are read too); a reader refuses other
//! versions with [`Error::ModelVersion`].
//!
//! ```json
//! {
//!   "format": 3,
//!   "provenance": { "recipe": "training/logistic.toml", "data": "train.csv",
//!                   "created_by": "mainline 0.1.0", "params": {}, "validation": {} },
//!   "features": ["density", "ln_html_bytes"],
//!   "context": 2,
//!   "threshold": 0.47,
//!   "scaler": { "mean": [0.41, 5.2], "std": [0.3, 1.7] },
//!   "kind": { "type": "logistic", "weights": [2.1, -0.4], "bias": -0.3 }
//! }
//! ```
//!
//! An MLP has `"kind": { "type": "mlp", "layers": [ {"activation": "tanh", "weights":
//! [...], "bias": [...]}, ..., {"activation": "sigmoid", ...} ] }`; each layer's weights are
//! row-major, one row of inputs per output.
//!
//! A two-stage model (format 2) adds `"stack": { "lookahead": 8, "features": ["score",
//! "prev1_score", ...], "threshold": 0.6, "scaler": {...}, "kind": {...} }`: a second
//! classifier on the window of first-stage scores around each line, which then makes the
//! decision (see [`Stage2`]). The top-level `threshold` is the first stage's own.
//! Format 3 allows `"page": true` in the second stage: it also reads page-level inputs,
//! the scores of the whole page and of the elements around the line.

mod file;
mod kernel;
mod mlp;
mod stage2;
mod trees;

pub use file::MAX_MODEL_BYTES;
pub use kernel::Kernel;
pub use mlp::{Activation, Layer};
pub use stage2::Stage2;
pub use trees::{MAX_DEPTH, Tree};

use serde::{Deserialize, Serialize};

use crate::{Error, Result};

/// Version of the model file layout written by this build. Version 2 added the optional
/// second stage ([`Model::stack`]), version 3 its page-level inputs
/// ([`Stage2::page`]); this build also reads versions 1 and 2.
pub const MODEL_FORMAT_VERSION: u32 = 3;

/// The oldest model file layout this build reads.
pub const MIN_MODEL_FORMAT_VERSION: u32 = 1;

/// A trained line classifier.
///
/// Fields are public so that models can be built by hand and inspected; call
/// [`Model::validate`] after building or editing one ([`Model::from_json`] and
/// [`Model::load`] do it for you). Scoring a model that does not validate may panic or
/// return meaningless scores.
///
/// A model file (such as one written by `mainline train`) is loaded with [`Model::load`]
/// and decides lines as a [`ModelScorer`](crate::ModelScorer):
///
/// ```
/// use mainline::{Model, ModelScorer, Options};
///
/// let builtin = ModelScorer::builtin().model().clone();
/// let path = std::env::temp_dir().join(format!("mainline-doc-{}.json", std::process::id()));
/// std::fs::write(&path, builtin.to_json())?; // mainline-training: ModelExt::save
/// let model = Model::load(&path)?;
/// std::fs::remove_file(&path)?;
/// assert_eq!(model, builtin);
///
/// let html = b"<nav><a href=/>Home</a> <a href=/about>About</a></nav><article>
///   <p>A starter is a community of wild yeasts and lactic acid bacteria that leavens bread.</p>
///   <p>Feed it with flour and water every day, and keep it somewhere warm while it ferments.</p>
///   </article><footer><a href=/privacy>Privacy</a></footer>";
/// let doc = Options::new().model(ModelScorer::new(model)?).extract(html)?;
/// assert!(doc.text().starts_with("A starter is a community of wild yeasts"));
/// assert_eq!(doc.text(), mainline::extract(html)?.text());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Model {
    /// Layout version of the file this model came from; [`MODEL_FORMAT_VERSION`] for new
    /// models.
    pub format: u32,
    /// How the model was trained. Kept near the top of the file for readers.
    pub provenance: Provenance,
    /// Names of the input features, in the order [`Model::score`] expects them.
    #[serde(deserialize_with = "file::bounded_names")]
    pub features: Vec<String>,
    /// Number of neighbouring lines on each side that the features were computed over.
    /// Recorded for the caller, who must compute features the same way; scoring ignores it.
    pub context: usize,
    /// Decision threshold on the score: a line is kept when `score >= threshold`.
    pub threshold: f32,
    /// Standardisation applied to each feature before the weights.
    pub scaler: Scaler,
    /// The classifier and its weights.
    pub kind: ModelKind,
    /// The second stage of a two-stage model (format 2): the decision comes from a
    /// classifier on the first-stage scores of the lines around each line (see
    /// [`Stage2`]). [`Model::score`] and [`Model::keep`] are the first stage alone.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stack: Option<Box<Stage2>>,
}

/// The classifier inside a [`Model`]: a JSON object with its `"type"` and the variant's
/// fields.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ModelKind {
    /// Logistic regression: `P(content) = sigmoid(weights · z + bias)` where `z` is the
    /// standardised row.
    Logistic {
        /// One weight per feature.
        weights: Vec<f32>,
        /// Intercept.
        bias: f32,
    },
    /// Multi-layer perceptron: the standardised row goes through each layer in turn; the
    /// last layer has one output and a sigmoid activation, its output is `P(content)`.
    Mlp {
        /// The layers, input side first.
        layers: Vec<Layer>,
    },
    /// Gradient-boosted oblivious decision trees: `P(content) = sigmoid(bias + Σ leaf)`,
    /// one leaf of each tree chosen by comparisons of the standardised row (see [`Tree`]).
    Trees {
        /// The trees, in the order they were grown.
        trees: Vec<Tree>,
        /// The logit before any tree (the log-odds of content in the training rows).
        bias: f32,
    },
}

/// Per-feature standardisation: `z[i] = (x[i] - mean[i]) / std[i]`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Scaler {
    /// Mean of each feature over the training rows.
    pub mean: Vec<f32>,
    /// Standard deviation of each feature over the training rows; features that were
    /// constant get 1 so they pass through unscaled. Must be positive.
    pub std: Vec<f32>,
}

impl Scaler {
    /// A scaler that leaves `n` features unchanged (mean 0, std 1).
    pub fn identity(n: usize) -> Self {
        Scaler {
            mean: vec![0.0; n],
            std: vec![1.0; n],
        }
    }

    /// Writes the standardised values of `row` into `out`, as many as both hold.
    pub(crate) fn standardise_into(&self, row: &[f32], out: &mut [f32]) {
        let standardised = row.iter().zip(&self.mean).zip(&self.std);
        for (z, ((x, m), s)) in out.iter_mut().zip(standardised) {
            *z = (x - m) / s;
        }
    }
}

/// How a model was made. Unknown keys are kept in [`Provenance::extra`] so that a file
/// written by a newer build round-trips. It is read from JSON text (`serde_json`) and at
/// most 1 MiB of it.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Provenance {
    /// The recipe that produced the model (for example a script under `training/`).
    #[serde(default)]
    pub recipe: String,
    /// The training data (for example the labelled CSV and its version).
    #[serde(default)]
    pub data: String,
    /// The program that wrote the model, e.g. `mainline 0.1.0`.
    #[serde(default)]
    pub created_by: String,
    /// Training hyper-parameters.
    #[serde(default)]
    pub params: serde_json::Value,
    /// Scores on the validation split.
    #[serde(default)]
    pub validation: serde_json::Value,
    /// Any other keys found in the file.
    #[serde(flatten)]
    pub extra: serde_json::Map<String, serde_json::Value>,
}

/// `mainline <version>`, the value of [`Provenance::created_by`] for models made by this
/// build.
pub fn created_by() -> String {
    format!("mainline {}", env!("CARGO_PKG_VERSION"))
}

impl Model {
    /// A model with the current format version, threshold 0.5, no context and empty
    /// provenance (except [`Provenance::created_by`]). Does not validate; see
    /// [`Model::validate`].
    pub fn new(features: Vec<String>, scaler: Scaler, kind: ModelKind) -> Self {
        Model {
            format: MODEL_FORMAT_VERSION,
            provenance: Provenance {
                created_by: created_by(),
                ..Provenance::default()
            },
            features,
            context: 0,
            threshold: 0.5,
            scaler,
            kind,
            stack: None,
        }
    }

    /// Number of input features.
    pub fn n_features(&self) -> usize {
        self.features.len()
    }

    /// Probability that the line is content, in `[0, 1]`.
    ///
    /// `row` holds the model's features in the order of [`Model::features`] (see
    /// [`Model::bind`]). A NaN anywhere in `row` gives NaN, which [`Model::keep`] drops.
    /// Does not allocate, except for an MLP with a layer wider than 256 units.
    ///
    /// # Panics
    ///
    /// If `row.len()` differs from the number of features, or the model does not
    /// [validate](Model::validate).
    #[inline]
    pub fn score(&self, row: &[f32]) -> f32 {
        assert_eq!(
            row.len(),
            self.features.len(),
            "row has {} values, the model reads {} features",
            row.len(),
            self.features.len()
        );
        score_with(&self.kind, &self.scaler, row)
    }

    /// Whether to keep the line: `score(row) >= threshold`.
    ///
    /// The comparison is inclusive, so a threshold of 0 keeps every line (except rows with
    /// NaN) and a score exactly at the threshold counts as content. Training chooses the
    /// threshold with the same comparison.
    #[inline]
    pub fn keep(&self, row: &[f32]) -> bool {
        self.score(row) >= self.threshold
    }

    /// Maps each of the model's features to its column in `schema` (the feature names the
    /// running build computes), so that `row[i] = full_row[columns[i]]`.
    ///
    /// # Errors
    ///
    /// [`Error::FeatureMismatch`] naming the first few features the model needs that
    /// `schema` lacks, and how many are missing in all.
    pub fn bind(&self, schema: &[&str]) -> Result<Vec<usize>> {
        let mut index = std::collections::HashMap::with_capacity(schema.len());
        for (i, name) in schema.iter().enumerate() {
            index.entry(*name).or_insert(i);
        }
        let mut columns = Vec::with_capacity(self.features.len());
        let mut missing = Vec::new();
        for name in &self.features {
            match index.get(name.as_str()) {
                Some(&i) => columns.push(i),
                None => missing.push(name.as_str()),
            }
        }
        if missing.is_empty() {
            return Ok(columns);
        }
        const SHOWN: usize = 5;
        let mut names = missing
            .iter()
            .take(SHOWN)
            .map(|n| format!("\"{n}\""))
            .collect::<Vec<_>>()
            .join(", ");
        if missing.len() > SHOWN {
            names.push_str(&format!(", ... ({} more)", missing.len() - SHOWN));
        }
        Err(Error::FeatureMismatch(format!(
            "the model needs {} of its {} features that this build does not compute: {names}; \
             retrain the model with this build's features",
            missing.len(),
            self.features.len()
        )))
    }
}

/// The score of a standardised-then-classified row (`row` already checked for length).
#[inline]
pub fn score_with(kind: &ModelKind, scaler: &Scaler, row: &[f32]) -> f32 {
    match kind {
        ModelKind::Logistic { weights, bias } => {
            sigmoid(bias + standardised_dot(weights, row, scaler))
        }
        ModelKind::Mlp { layers } => mlp::forward(layers, scaler, row),
        ModelKind::Trees { trees, bias } => trees::score(trees, *bias, scaler, row),
    }
}

/// The logistic function, in `[0, 1]`, without overflow for large `|x|`.
#[inline]
pub fn sigmoid(x: f32) -> f32 {
    if x >= 0.0 {
        1.0 / (1.0 + (-x).exp())
    } else {
        let e = x.exp();
        e / (1.0 + e)
    }
}

/// Number of independent accumulators in the dot products. Fixed so that results do not
/// depend on the target's vector width, and wide enough for the compiler to vectorise.
pub(crate) const LANES: usize = 8;

/// `a · b`, summed in [`LANES`] interleaved partial sums.
#[inline]
pub(crate) fn dot(a: &[f32], b: &[f32]) -> f32 {
    debug_assert_eq!(a.len(), b.len());
    let n = a.len().min(b.len());
    let (a, b) = (&a[..n], &b[..n]);
    let whole = n - n % LANES;
    let mut acc = [0.0_f32; LANES];
    let mut i = 0;
    while i < whole {
        acc = mul_add(acc, &group(a, i), &group(b, i));
        i += LANES;
    }
    for (k, (x, y)) in a[whole..].iter().zip(&b[whole..]).enumerate() {
        acc[k] += x * y;
    }
    sum_lanes(acc)
}

/// `w · ((x - mean) / std)` without materialising the standardised row; rounds exactly
/// like standardising into a buffer and calling [`dot`].
#[inline]
fn standardised_dot(w: &[f32], x: &[f32], scaler: &Scaler) -> f32 {
    debug_assert!(x.len() == w.len() && scaler.mean.len() == w.len());
    let n = w.len();
    let (x, m, s) = (&x[..n], &scaler.mean[..n], &scaler.std[..n]);
    let whole = n - n % LANES;
    let mut acc = [0.0_f32; LANES];
    let mut i = 0;
    while i < whole {
        let (xc, mc, sc) = (group(x, i), group(m, i), group(s, i));
        let z: [f32; LANES] = std::array::from_fn(|k| (xc[k] - mc[k]) / sc[k]);
        acc = mul_add(acc, &group(w, i), &z);
        i += LANES;
    }
    let rest = w[whole..]
        .iter()
        .zip(&x[whole..])
        .zip(&m[whole..])
        .zip(&s[whole..]);
    for (a, (((w, x), m), s)) in acc.iter_mut().zip(rest) {
        *a += w * ((x - m) / s);
    }
    sum_lanes(acc)
}

/// The [`LANES`] values of `s` from `at` (which must leave room for them).
#[inline(always)]
pub(crate) fn group(s: &[f32], at: usize) -> [f32; LANES] {
    s[at..at + LANES]
        .try_into()
        .expect("a group of LANES values")
}

/// `acc + w · x` lane by lane. Whole arrays by value, so that the compiler keeps them in
/// vector registers.
#[inline(always)]
pub(crate) fn mul_add(acc: [f32; LANES], w: &[f32; LANES], x: &[f32; LANES]) -> [f32; LANES] {
    std::array::from_fn(|k| acc[k] + w[k] * x[k])
}

#[inline]
pub(crate) fn sum_lanes(acc: [f32; LANES]) -> f32 {
    ((acc[0] + acc[4]) + (acc[1] + acc[5])) + ((acc[2] + acc[6]) + (acc[3] + acc[7]))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn logistic(features: &[&str], weights: Vec<f32>, bias: f32) -> Model {
        let n = features.len();
        Model::new(
            features.iter().map(|s| s.to_string()).collect(),
            Scaler::identity(n),
            ModelKind::Logistic { weights, bias },
        )
    }

    #[test]
    fn sigmoid_stays_in_unit_interval_for_extreme_inputs() {
        assert_eq!(sigmoid(1000.0), 1.0);
        assert_eq!(sigmoid(-1000.0), 0.0);
        assert_eq!(sigmoid(0.0), 0.5);
        assert!(sigmoid(f32::NAN).is_nan());
    }

    #[test]
    fn dot_matches_a_plain_sum_for_every_length() {
        for n in 0..40 {
            let a: Vec<f32> = (0..n).map(|i| i as f32 * 0.5 - 3.0).collect();
            let b: Vec<f32> = (0..n).map(|i| 1.0 + (i % 3) as f32).collect();
            let plain: f64 = a
                .iter()
                .zip(&b)
                .map(|(x, y)| (*x as f64) * (*y as f64))
                .sum();
            assert!((dot(&a, &b) as f64 - plain).abs() < 1e-3, "n = {n}");
        }
    }

    #[test]
    fn logistic_score_standardises_then_applies_the_weights() {
        let mut m = logistic(&["a", "b"], vec![1.0, -2.0], 0.5);
        m.scaler = Scaler {
            mean: vec![1.0, 2.0],
            std: vec![2.0, 4.0],
        };
        let z = 0.5 + 1.0 * (3.0 - 1.0) / 2.0 - 2.0 * (6.0 - 2.0) / 4.0;
        assert!((m.score(&[3.0, 6.0]) - sigmoid(z)).abs() < 1e-7);
    }

    #[test]
    fn keep_is_inclusive_at_the_threshold() {
        let mut m = logistic(&["a"], vec![0.0], 0.0);
        m.threshold = 0.5;
        assert_eq!(m.score(&[1.0]), 0.5);
        assert!(m.keep(&[1.0]));
        m.threshold = 0.500_001;
        assert!(!m.keep(&[1.0]));
    }

    #[test]
    fn a_nan_feature_is_never_kept() {
        let mut m = logistic(&["a"], vec![1.0], 0.0);
        m.threshold = 0.0;
        assert!(!m.keep(&[f32::NAN]));
    }

    #[test]
    #[should_panic(expected = "row has 1 values, the model reads 2 features")]
    fn score_panics_on_a_row_of_the_wrong_length() {
        logistic(&["a", "b"], vec![1.0, 1.0], 0.0).score(&[1.0]);
    }

    #[test]
    fn bind_maps_features_to_schema_columns() {
        let m = logistic(&["b", "a"], vec![1.0, 1.0], 0.0);
        assert_eq!(m.bind(&["a", "x", "b"]).unwrap(), vec![2, 0]);
    }

    #[test]
    fn bind_names_the_missing_features_and_counts_them() {
        let names: Vec<String> = (0..8).map(|i| format!("f{i}")).collect();
        let refs: Vec<&str> = names.iter().map(|s| s.as_str()).collect();
        let m = logistic(&refs, vec![0.0; 8], 0.0);
        let err = m.bind(&["f0"]).unwrap_err();
        assert!(matches!(err, Error::FeatureMismatch(_)));
        let msg = err.to_string();
        assert!(msg.contains("7 of its 8 features"), "{msg}");
        assert!(msg.contains("\"f1\"") && msg.contains("\"f5\""), "{msg}");
        assert!(!msg.contains("\"f6\""), "{msg}");
        assert!(msg.contains("(2 more)"), "{msg}");
    }
}
