//! Training: labelled CSV → standardised features → a fitted [`Model`].
//!
//! [`read_labelled_csv`] loads a [`Dataset`]; [`train`] holds out whole groups (domains) for
//! validation, standardises the features with the training rows'
//! statistics, fits a logistic regression (linfa-logistic) or a small MLP (ndarray, Adam,
//! early stopping), then picks the decision threshold that maximises line F1 on the
//! validation rows. The returned model records all of it (see [`mainline::internals::model`]), and the
//! [`TrainReport`] is also stored in the model's `provenance.validation`.
//!
//! ```
//! use mainline_training::train::{Dataset, ModelType, TrainParams, train};
//! use ndarray::Array2;
//!
//! // 20 pages of 20 lines; a line is content when its density exceeds 0.4.
//! let n = 400;
//! let density: Vec<f32> = (0..n).map(|i| ((i * 37) % 100) as f32 / 100.0).collect();
//! let data = Dataset {
//!     features: vec!["density".into()],
//!     x: Array2::from_shape_vec((n, 1), density.clone()).unwrap(),
//!     y: density.iter().map(|&d| d > 0.4).collect(),
//!     groups: (0..n).map(|i| format!("site{}", i / 20)).collect(),
//!     docs: (0..n).map(|i| format!("page{}", i / 20)).collect(),
//! };
//!
//! let params = TrainParams::new(ModelType::Logistic).l2(1e-3).recipe("doc example");
//! let (model, report) = train(&data, &params, &mut |_| {})?;
//! assert!(report.validation.accuracy > 0.95);
//! assert!(model.keep(&[0.9]) && !model.keep(&[0.1]));
//! assert_eq!(model.provenance.recipe, "doc example");
//! # Ok::<(), mainline::Error>(())
//! ```
//!
//! [`train_stacked`] trains a two-stage model (a second stage on the window of first-stage
//! scores around each line, see [`mainline::internals::model::Stage2`]); [`fine_tune`] continues the
//! training of a model on a few labelled pages of one site. `mainline eval --recipe`
//! cross-validates by domain.

pub mod label;

mod augment;
mod dataset;
mod finetune;
mod logistic;
mod metrics;
mod mlp;
mod params;
mod plain;
mod recipe;
mod related;
mod short;
mod split;
mod stacked;
mod trees;

pub use augment::{Augment, AugmentStages, PageFacts, Variant, original_doc, variant_doc};
pub use dataset::{
    Dataset, read_aligned, read_hints, read_labelled_csv, read_labelled_csv_from, read_paths,
    read_signatures, read_variants,
};
pub use finetune::{FineTuneParams, fine_tune};
pub use metrics::LineMetrics;
pub use params::{ModelType, ThresholdObjective, ThresholdRows, TrainParams};
pub use plain::{LAYOUT_ELEMENTS, SEMANTIC_ELEMENTS, plain, tables};
pub use recipe::{Recipe, StackRecipe};
pub use related::{Teaser, related};
pub use short::{LineSpan, shell, short};
pub use split::{group_kfold, group_split};
pub use stacked::{StackParams, StageInputs, train_stacked};
#[cfg(test)]
pub(crate) use stacked::{decide_stacked, stage1_scores, stage2_rows};
pub(crate) use stacked::{keep_stacked, score_stacked};

use ndarray::{Array2, ArrayView2};
use serde::{Deserialize, Serialize};

use crate::model::ModelExt;
use mainline::internals::model::{Model, ModelKind, Scaler};
use mainline::{Error, Result};

/// Progress after one epoch (one pass over the training rows). The logistic model reports
/// once, after fitting.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct EpochReport {
    /// Epoch number, from 1.
    pub epoch: usize,
    /// Maximum number of epochs.
    pub epochs: usize,
    /// Mean cross-entropy over the training rows during the epoch (class-weighted when
    /// [`TrainParams::balance_classes`] is set), without the L2 penalty.
    pub train_loss: f64,
    /// Mean cross-entropy on the validation rows after the epoch, weighted like
    /// `train_loss`; early stopping watches it.
    pub val_loss: f64,
    /// Validation accuracy at threshold 0.5.
    pub val_accuracy: f64,
    /// Validation line F1 at threshold 0.5.
    pub val_f1: f64,
    /// Whether the validation loss reached a new best (these weights are kept so far).
    pub improved: bool,
}

impl std::fmt::Display for EpochReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "epoch {:>3}/{}  train loss {:.4}  val loss {:.4}  val acc {:.4}  val F1 {:.4}{}",
            self.epoch,
            self.epochs,
            self.train_loss,
            self.val_loss,
            self.val_accuracy,
            self.val_f1,
            if self.improved { "  *" } else { "" }
        )
    }
}

/// How training went, measured on the validation rows. Also stored, as JSON, in the
/// model's `provenance.validation`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TrainReport {
    /// The classifier trained.
    pub model: ModelType,
    /// Rows used to fit the weights.
    pub train_rows: usize,
    /// Rows held out for early stopping, the threshold and these metrics.
    pub val_rows: usize,
    /// Distinct groups among the training rows.
    pub train_groups: usize,
    /// Distinct groups among the validation rows.
    pub val_groups: usize,
    /// Epochs run (1 for the logistic model).
    pub epochs_run: usize,
    /// Epoch whose weights were kept (1 for the logistic model).
    pub best_epoch: usize,
    /// Training loss of the kept weights (see [`EpochReport::train_loss`]).
    pub train_loss: f64,
    /// Validation loss of the kept weights (see [`EpochReport::val_loss`]).
    pub val_loss: f64,
    /// The decision threshold chosen: the one of 0.05, 0.06, ..., 0.95 with the best
    /// validation F1.
    pub threshold: f32,
    /// Validation metrics at the chosen threshold. The threshold was tuned on these rows,
    /// so they are slightly optimistic.
    pub validation: LineMetrics,
    /// Validation metrics at threshold 0.5.
    pub validation_at_half: LineMetrics,
    /// Validation metrics of the fixed rule `density > 0.5`, when there is a `density`
    /// feature.
    pub baseline: Option<LineMetrics>,
}

/// Trains a model on `data`, holding out `params.val_fraction` of the rows, in whole groups,
/// for validation (rows of one group never land on both sides).
///
/// Features are standardised with the training rows' mean and standard deviation (a
/// constant feature gets standard deviation 1). The logistic model is fitted by
/// linfa-logistic's L-BFGS; the MLP by Adam on shuffled mini-batches, keeping the weights
/// of the epoch with the lowest validation loss and stopping after `params.patience`
/// epochs without improvement. The threshold is then chosen on the validation rows to
/// maximise line F1, using [`Model::score`] itself. The same data and parameters always give
/// the same model, to the bit.
///
/// `progress` is called after every epoch.
///
/// # Errors
///
/// [`Error::Training`] when the parameters fail [`TrainParams::check`], the dataset is
/// empty or inconsistent, holds a non-finite value, has only one class, or has a single
/// group (no rows can be held out).
pub fn train(
    data: &Dataset,
    params: &TrainParams,
    progress: &mut dyn FnMut(&EpochReport),
) -> Result<(Model, TrainReport)> {
    params.check()?;
    check_dataset(data)?;
    let (train_rows, val_rows) = group_split(&data.groups, params.val_fraction, params.seed);
    if val_rows.is_empty() {
        return Err(Error::Training(format!(
            "cannot hold out validation rows: all {} rows are in one group ({:?}); \
             validation needs at least two groups (domains or pages)",
            data.len(),
            data.groups[0]
        )));
    }
    train_on_rows(data, &train_rows, &val_rows, params, progress)
}

/// About how many bytes training holds at its peak for `rows` rows of `columns` feature
/// columns (`stacked`: a two-stage model): the feature matrix and its standardised copies,
/// plus each row's page and group names, label and indices. An estimate for refusing a
/// training set that cannot fit before reading it, not a bound.
pub fn memory_needed(rows: u64, columns: usize, stacked: bool) -> u64 {
    // NOTE: copies of the matrix measured as peak RSS / matrix bytes (BENCHMARKS.md,
    // "Training memory").
    let (copies_x10, per_row) = if stacked {
        (MEMORY_COPIES_X10_STACKED, MEMORY_PER_ROW_STACKED)
    } else {
        (MEMORY_COPIES_X10, MEMORY_PER_ROW)
    };
    let matrix = rows.saturating_mul(columns as u64).saturating_mul(4);
    (matrix.saturating_mul(copies_x10) / 10).saturating_add(rows.saturating_mul(per_row))
}

/// Copies of the feature matrix at the peak of single-stage training, times 10.
const MEMORY_COPIES_X10: u64 = 40;
/// Other bytes per row in single-stage training.
const MEMORY_PER_ROW: u64 = 160;
/// Copies of the feature matrix at the peak of two-stage training, times 10.
const MEMORY_COPIES_X10_STACKED: u64 = 45;
/// Other bytes per row in two-stage training.
const MEMORY_PER_ROW_STACKED: u64 = 400;

/// [`train`] on given training and validation rows of `data` (indices into its rows), for
/// cross-validation or a split of one's own. Only the selected rows are copied.
///
/// # Errors
///
/// As [`train`], and when either row list is empty, holds an index out of range, or the
/// training rows have only one class.
pub(crate) fn train_on_rows(
    data: &Dataset,
    train_rows: &[usize],
    val_rows: &[usize],
    params: &TrainParams,
    progress: &mut dyn FnMut(&EpochReport),
) -> Result<(Model, TrainReport)> {
    train_rows_towards(data, train_rows, val_rows, None, params, progress)
}

/// [`train_on_rows`], and with `targets` (an MLP only), one probability per training row
/// that the loss pulls the model towards instead of the row's label: an MLP distilled from
/// another model's scores. Validation and the threshold still go by the labels.
fn train_rows_towards(
    data: &Dataset,
    train_rows: &[usize],
    val_rows: &[usize],
    targets: Option<&[f32]>,
    params: &TrainParams,
    progress: &mut dyn FnMut(&EpochReport),
) -> Result<(Model, TrainReport)> {
    params.check()?;
    if targets.is_some_and(|t| t.len() != train_rows.len() || params.model != ModelType::Mlp) {
        return Err(Error::Training(
            "distillation needs an MLP and one target per training row".into(),
        ));
    }
    check_dataset(data)?;
    let fail = |msg: String| Err(Error::Training(msg));
    if train_rows.is_empty() {
        return fail("no training rows".into());
    }
    if val_rows.is_empty() {
        return fail("no validation rows".into());
    }
    if let Some(&i) = train_rows
        .iter()
        .chain(val_rows)
        .find(|&&i| i >= data.len())
    {
        return fail(format!(
            "row {i} is out of range: the data has {} rows",
            data.len()
        ));
    }
    let y_train: Vec<bool> = train_rows.iter().map(|&i| data.y[i]).collect();
    let y_val: Vec<bool> = val_rows.iter().map(|&i| data.y[i]).collect();
    if let Some(class) = single_class(&y_train) {
        return fail(format!(
            "only one class (all {class}) in the training rows; they need both content and \
             boilerplate lines"
        ));
    }

    let scaler = fit_scaler(data.x.view(), train_rows);
    let z_train = standardise(data.x.view(), train_rows, &scaler);
    let z_val = standardise(data.x.view(), val_rows, &scaler);

    // Per-site loss weights (the MLP and trees; the logistic model refuses them).
    let weights = params
        .site_lines
        .map(|cap| site_weights(data, train_rows, cap));
    let weights = if params.word_weight == 0.0 {
        weights
    } else {
        Some(word_weights(
            data,
            train_rows,
            weights.as_deref(),
            params.word_weight,
        )?)
    };
    let (kind, epochs_run, best_epoch, train_loss, val_loss) = match params.model {
        ModelType::Logistic => {
            let kind = logistic::fit(z_train.view(), &y_train, params)?;
            let ModelKind::Logistic { weights, bias } = &kind else {
                unreachable!("logistic::fit returns a logistic model")
            };
            let train_loss = logistic_loss(z_train.view(), &y_train, weights, *bias);
            let val_loss = logistic_loss(z_val.view(), &y_val, weights, *bias);
            let at_half = LineMetrics::new(
                logistic_logits(z_val.view(), weights, *bias)
                    .iter()
                    .map(|&z| z >= 0.0),
                &y_val,
            );
            progress(&EpochReport {
                epoch: 1,
                epochs: 1,
                train_loss,
                val_loss,
                val_accuracy: at_half.accuracy,
                val_f1: at_half.f1,
                improved: true,
            });
            (kind, 1, 1, train_loss, val_loss)
        }
        ModelType::Mlp => {
            let fit = mlp::fit(
                z_train.view(),
                &y_train,
                targets,
                z_val.view(),
                &y_val,
                params,
                weights.as_deref(),
                None,
                progress,
            )?;
            let kind = ModelKind::Mlp { layers: fit.layers };
            (
                kind,
                fit.epochs_run,
                fit.best_epoch,
                fit.train_loss,
                fit.val_loss,
            )
        }
        ModelType::Trees => {
            let fit = trees::fit(
                z_train.view(),
                &y_train,
                z_val.view(),
                &y_val,
                params,
                weights.as_deref(),
                progress,
            )?;
            (
                ModelKind::Trees {
                    trees: fit.trees,
                    bias: fit.bias,
                },
                fit.rounds_run,
                fit.best_round,
                fit.train_loss,
                fit.val_loss,
            )
        }
    };
    drop(z_train);

    let mut model = Model::new(data.features.clone(), scaler, kind);
    model.context = params.context;
    model.validate()?;

    // Score the validation rows exactly as inference will.
    let raw_val = data.x.select(ndarray::Axis(0), val_rows);
    let scores = model.score_batch(raw_val.view()).to_vec();
    let (threshold, validation) =
        choose_threshold(&model, data, train_rows, (&scores, &y_val), params);
    model.threshold = threshold;
    let validation_at_half = LineMetrics::new(scores.iter().map(|&s| s >= 0.5), &y_val);
    let baseline = data
        .feature_index("density")
        .map(|col| LineMetrics::new(raw_val.column(col).iter().map(|&d| d > 0.5), &y_val));

    let report = TrainReport {
        model: params.model,
        train_rows: train_rows.len(),
        val_rows: val_rows.len(),
        train_groups: count_groups(data, train_rows),
        val_groups: count_groups(data, val_rows),
        epochs_run,
        best_epoch,
        train_loss,
        val_loss,
        threshold,
        validation,
        validation_at_half,
        baseline,
    };
    model.provenance.recipe = params.recipe.clone();
    model.provenance.data = params.data.clone();
    model.provenance.params = params.to_json();
    model.provenance.validation =
        serde_json::to_value(&report).expect("a TrainReport has only plain values");
    Ok((model, report))
}

/// The decision threshold of `model` ([`TrainParams::threshold_objective`] on the rows
/// [`TrainParams::threshold_rows`] names) and the validation metrics at it, from the
/// validation rows' scores and labels.
pub(crate) fn choose_threshold(
    model: &Model,
    data: &Dataset,
    train_rows: &[usize],
    (val_scores, y_val): (&[f32], &[bool]),
    params: &TrainParams,
) -> (f32, LineMetrics) {
    match params.threshold_rows {
        ThresholdRows::Validation => {
            metrics::best_threshold(val_scores, y_val, params.threshold_objective)
        }
        ThresholdRows::All => {
            let mut scores = model
                .score_batch(data.x.select(ndarray::Axis(0), train_rows).view())
                .to_vec();
            scores.extend_from_slice(val_scores);
            let mut y: Vec<bool> = train_rows.iter().map(|&i| data.y[i]).collect();
            y.extend_from_slice(y_val);
            let (t, _) = metrics::best_threshold(&scores, &y, params.threshold_objective);
            (
                t,
                LineMetrics::new(val_scores.iter().map(|&s| s >= t), y_val),
            )
        }
    }
}

/// Loss weight of each training row: `min(1, cap / lines of its group)`, scaled to a mean
/// of 1 (see [`TrainParams::site_lines`]).
fn site_weights(data: &Dataset, rows: &[usize], cap: usize) -> Vec<f32> {
    let mut count: std::collections::HashMap<&str, usize> = std::collections::HashMap::new();
    for &r in rows {
        *count.entry(data.groups[r].as_str()).or_default() += 1;
    }
    let raw: Vec<f64> = rows
        .iter()
        .map(|&r| (cap.max(1) as f64 / count[data.groups[r].as_str()] as f64).min(1.0))
        .collect();
    let mean = raw.iter().sum::<f64>() / raw.len().max(1) as f64;
    raw.iter().map(|w| (w / mean) as f32).collect()
}

/// Loss weight of each training row: its weight in `weights` (1 without) times
/// `(1 + words)^a`, the words read from the row's `ln_words` input (`line_ln_words` in a
/// second stage's rows), scaled to a mean of 1 (see [`TrainParams::word_weight`]).
fn word_weights(
    data: &Dataset,
    rows: &[usize],
    weights: Option<&[f32]>,
    a: f64,
) -> Result<Vec<f32>> {
    let name =
        mainline::internals::features::BASE[mainline::internals::features::column::LN_WORDS].0;
    let Some(col) = data
        .feature_index(&format!(
            "{}{name}",
            mainline::internals::second_stage::LINE_PREFIX
        ))
        .or_else(|| data.feature_index(name))
    else {
        return Err(Error::Training(format!(
            "word_weight needs each line's {name} input, which these features lack: train on \
             the full features (features = \"full\"; for a second stage, features = \"base\")"
        )));
    };
    let raw: Vec<f64> = rows
        .iter()
        .enumerate()
        .map(|(k, &r)| {
            let w = weights.map_or(1.0, |w| f64::from(w[k]));
            w * (a * f64::from(data.x[[r, col]])).exp()
        })
        .collect();
    let mean = raw.iter().sum::<f64>() / raw.len().max(1) as f64;
    Ok(raw.iter().map(|w| (w / mean) as f32).collect())
}

fn single_class(y: &[bool]) -> Option<&'static str> {
    match (y.contains(&true), y.contains(&false)) {
        (true, false) => Some("content"),
        (false, true) => Some("boilerplate"),
        _ => None,
    }
}

/// Consistent shapes, at least one row and feature, finite values, both classes.
fn check_dataset(data: &Dataset) -> Result<()> {
    let fail = |msg: String| Err(Error::Training(msg));
    let n = data.x.nrows();
    if n == 0 {
        return fail("no rows to train on".into());
    }
    if data.features.is_empty() || data.x.ncols() == 0 {
        return fail("no feature columns to train on".into());
    }
    if data.x.ncols() != data.features.len() {
        return fail(format!(
            "the feature matrix has {} columns for {} feature names",
            data.x.ncols(),
            data.features.len()
        ));
    }
    if data.y.len() != n || data.groups.len() != n {
        return fail(format!(
            "the dataset has {n} feature rows, {} labels and {} groups",
            data.y.len(),
            data.groups.len()
        ));
    }
    let first_bad = if data.x.iter().all(|v| v.is_finite()) {
        None
    } else {
        data.x.indexed_iter().find(|(_, v)| !v.is_finite())
    };
    if let Some(((row, col), v)) = first_bad {
        return fail(format!(
            "feature \"{}\" of row {row} is {v}; features must be finite",
            data.features[col]
        ));
    }
    if let Some(class) = single_class(&data.y) {
        return fail(format!(
            "only one class (all content/all boilerplate) in the training data: all {n} lines \
             are {class}"
        ));
    }
    Ok(())
}

fn count_groups(data: &Dataset, rows: &[usize]) -> usize {
    rows.iter()
        .map(|&i| data.groups[i].as_str())
        .collect::<std::collections::HashSet<_>>()
        .len()
}

/// Mean and standard deviation of each column over `rows` (accumulated in `f64`); a
/// standard deviation that is zero or negligible becomes 1.
fn fit_scaler(x: ArrayView2<f32>, rows: &[usize]) -> Scaler {
    let f = x.ncols();
    let n = rows.len() as f64;
    let mut sum = vec![0.0_f64; f];
    for &i in rows {
        for (s, &v) in sum.iter_mut().zip(x.row(i)) {
            *s += f64::from(v);
        }
    }
    let mean: Vec<f64> = sum.iter().map(|s| s / n).collect();
    let mut sq = vec![0.0_f64; f];
    for &i in rows {
        for ((s, &v), m) in sq.iter_mut().zip(x.row(i)).zip(&mean) {
            let d = f64::from(v) - m;
            *s += d * d;
        }
    }
    let std = sq
        .iter()
        .zip(&mean)
        .map(|(s, m)| {
            let sd = (s / n).sqrt();
            if sd > 1e-9 * m.abs().max(1.0) {
                sd as f32
            } else {
                1.0
            }
        })
        .collect();
    Scaler {
        mean: mean.iter().map(|&m| m as f32).collect(),
        std,
    }
}

/// The given rows, standardised in `f32` exactly as [`Model::score`] does.
fn standardise(x: ArrayView2<f32>, rows: &[usize], scaler: &Scaler) -> Array2<f32> {
    let f = x.ncols();
    let mut out = Array2::zeros((rows.len(), f));
    for (mut dst, &i) in out.outer_iter_mut().zip(rows) {
        for (j, (d, &v)) in dst.iter_mut().zip(x.row(i)).enumerate() {
            *d = (v - scaler.mean[j]) / scaler.std[j];
        }
    }
    out
}

fn logistic_logits(z: ArrayView2<f32>, weights: &[f32], bias: f32) -> Vec<f32> {
    let w = ndarray::ArrayView1::from(weights);
    (z.dot(&w) + bias).to_vec()
}

fn logistic_loss(z: ArrayView2<f32>, y: &[bool], weights: &[f32], bias: f32) -> f64 {
    let total: f64 = logistic_logits(z, weights, bias)
        .iter()
        .zip(y)
        .map(|(&l, &y)| mlp::bce_from_logit(l, y))
        .sum();
    total / y.len().max(1) as f64
}

#[cfg(test)]
mod tests {
    use super::*;

    fn toy(n: usize, groups: usize) -> Dataset {
        let d: Vec<f32> = (0..n).map(|i| ((i * 37) % 100) as f32 / 100.0).collect();
        let noise: Vec<f32> = (0..n).map(|i| ((i * 13) % 7) as f32).collect();
        let mut x = Array2::zeros((n, 3));
        for i in 0..n {
            x[[i, 0]] = d[i];
            x[[i, 1]] = noise[i];
            x[[i, 2]] = 5.0; // constant
        }
        Dataset {
            features: vec!["density".into(), "noise".into(), "constant".into()],
            x,
            y: d.iter().map(|&v| v > 0.4).collect(),
            groups: (0..n).map(|i| format!("g{}", i % groups)).collect(),
            docs: (0..n).map(|i| format!("d{i}")).collect(),
        }
    }

    fn training_error(data: &Dataset, params: &TrainParams) -> String {
        match train(data, params, &mut |_| {}) {
            Err(Error::Training(msg)) => msg,
            other => panic!("expected a training error, got {other:?}"),
        }
    }

    #[test]
    fn a_constant_feature_gets_unit_scale() {
        let data = toy(50, 5);
        let s = fit_scaler(data.x.view(), &(0..50).collect::<Vec<_>>());
        assert_eq!((s.mean[2], s.std[2]), (5.0, 1.0));
        assert!(s.std[0] > 0.2 && s.std[0] < 0.35);
    }

    #[test]
    fn single_class_data_is_refused() {
        let mut data = toy(100, 5);
        data.y.iter_mut().for_each(|y| *y = true);
        let msg = training_error(&data, &TrainParams::default());
        assert!(
            msg.contains("only one class (all content/all boilerplate) in the training data"),
            "{msg}"
        );
        assert!(msg.ends_with("are content"), "{msg}");
    }

    #[test]
    fn empty_or_inconsistent_data_is_refused() {
        let empty = toy(0, 1);
        assert_eq!(
            training_error(&empty, &TrainParams::default()),
            "no rows to train on"
        );
        let mut short = toy(20, 2);
        short.y.pop();
        assert!(training_error(&short, &TrainParams::default()).contains("19 labels"));
        let mut nan = toy(20, 2);
        nan.x[[3, 1]] = f32::NAN;
        assert!(training_error(&nan, &TrainParams::default()).contains("\"noise\" of row 3"));
    }

    #[test]
    fn a_single_group_leaves_nothing_to_validate_on() {
        let data = toy(100, 1);
        let msg = training_error(&data, &TrainParams::default());
        assert!(msg.contains("at least two groups"), "{msg}");
    }

    #[test]
    fn invalid_parameters_are_refused_before_training() {
        let data = toy(100, 5);
        let msg = training_error(&data, &TrainParams::default().hidden(vec![]));
        assert!(msg.starts_with("hidden"), "{msg}");
    }

    #[test]
    fn the_report_is_stored_in_the_model_and_counts_the_split() {
        let data = toy(400, 10);
        let params = TrainParams::new(ModelType::Logistic).data("toy");
        let mut epochs = 0;
        let (model, report) = train(&data, &params, &mut |_| epochs += 1).unwrap();
        assert_eq!(epochs, 1);
        assert_eq!(report.train_rows + report.val_rows, 400);
        assert_eq!(report.train_groups + report.val_groups, 10);
        assert_eq!(model.threshold, report.threshold);
        assert!(report.baseline.is_some());
        let stored: TrainReport =
            serde_json::from_value(model.provenance.validation.clone()).unwrap();
        assert_eq!(stored, report);
        assert_eq!(model.provenance.data, "toy");
        assert_eq!(model.provenance.params["model"], "logistic");
        assert_eq!(model.scaler.std[2], 1.0);
    }

    #[test]
    fn word_weights_grow_with_a_lines_words_and_keep_a_mean_of_one() {
        let mut data = toy(4, 2);
        data.features[1] = "ln_words".into();
        for (i, words) in [0.0f32, 3.0, 8.0, 99.0].into_iter().enumerate() {
            data.x[[i, 1]] = words.ln_1p();
        }
        let rows = [0, 1, 2, 3];
        let w = word_weights(&data, &rows, None, 0.5).unwrap();
        let mean = w.iter().sum::<f32>() / 4.0;
        assert!((mean - 1.0).abs() < 1e-6, "{w:?}");
        // (1 + 3)^0.5 = 2, (1 + 8)^0.5 = 3, (1 + 99)^0.5 = 10 times the weight of a line
        // without words.
        for (k, ratio) in [(1, 2.0), (2, 3.0), (3, 10.0)] {
            assert!((w[k] / w[0] - ratio).abs() < 1e-4, "{w:?}");
        }
        // A site's weight multiplies the line's.
        let site = [2.0, 1.0, 1.0, 1.0];
        let ws = word_weights(&data, &rows, Some(&site), 0.5).unwrap();
        assert!((ws[0] / ws[1] - 1.0).abs() < 1e-4, "{ws:?}");
        // A second stage's rows name the input with the line prefix.
        data.features[1] = "line_ln_words".into();
        assert_eq!(word_weights(&data, &rows, None, 0.5).unwrap(), w);
    }

    #[test]
    fn word_weights_need_the_words_input_and_a_learner_that_takes_weights() {
        let data = toy(200, 5);
        let msg = training_error(&data, &TrainParams::default().word_weight(0.5));
        assert!(
            msg.contains("word_weight needs each line's ln_words input"),
            "{msg}"
        );
        let msg = training_error(
            &data,
            &TrainParams::new(ModelType::Logistic).word_weight(0.5),
        );
        assert!(
            msg.starts_with("word weights (word_weight) need an MLP"),
            "{msg}"
        );
        let msg = training_error(&data, &TrainParams::default().word_weight(f64::NAN));
        assert!(
            msg.starts_with("word_weight must be between 0 and 2"),
            "{msg}"
        );
    }

    #[test]
    fn train_on_rows_checks_its_row_lists() {
        let data = toy(100, 5);
        let p = TrainParams::new(ModelType::Logistic);
        let err = train_on_rows(&data, &[0, 1, 2], &[], &p, &mut |_| {}).unwrap_err();
        assert!(err.to_string().contains("no validation rows"));
        let err = train_on_rows(&data, &[0, 1, 200], &[3], &p, &mut |_| {}).unwrap_err();
        assert!(err.to_string().contains("row 200 is out of range"));
        let content: Vec<usize> = (0..100).filter(|&i| data.y[i]).collect();
        let err = train_on_rows(&data, &content, &[0], &p, &mut |_| {}).unwrap_err();
        assert!(
            err.to_string()
                .contains("only one class (all content) in the training rows")
        );
    }

    #[test]
    fn the_mlp_reports_every_epoch_and_keeps_the_best_one() {
        let data = toy(600, 12);
        let params = TrainParams::default().epochs(6).patience(2).hidden(vec![8]);
        let mut seen = Vec::new();
        let (_, report) = train(&data, &params, &mut |e| seen.push(e.clone())).unwrap();
        assert_eq!(seen.len(), report.epochs_run);
        assert!(seen.iter().enumerate().all(|(i, e)| e.epoch == i + 1));
        let best = &seen[report.best_epoch - 1];
        assert!(best.improved);
        assert_eq!(best.val_loss, report.val_loss);
        assert!(seen.iter().all(|e| e.val_loss >= report.val_loss));
    }
}

/// The examples of this module's documentation, run as tests (the module is internal to
/// the crate, where documentation tests cannot reach).
#[cfg(test)]
mod doc_examples {
    #[test]
    fn doc_train_memory_needed() -> Result<(), Box<dyn std::error::Error>> {
        // 4.9 million rows of 70 columns: several GB.
        let need = crate::train::memory_needed(4_900_000, 70, false);
        assert!(need > 4_000_000_000 && need < 10_000_000_000);
        Ok(())
    }
}
