//! Fine-tuning: a trained model adapted to a handful of labelled pages of one site.
//!
//! A site whose conventions the model gets wrong (its code listings are content, its
//! teaser cards are not) is fixed by labelling two or three of its pages (`mainline
//! review`) and continuing training from the model on them, without the data the model was
//! first trained on. The classifier keeps its shape, its standardisation and its
//! threshold; its weights take a few passes of Adam over the new rows at a small learning
//! rate.
//!
//! Which stage learns: a model whose second stage reads the page ([`Stage2::page`]) decides
//! pages of any length worth labelling in its second stage, from the first stage's scores.
//! Changing the first stage would change those inputs under the second stage, so only the
//! second stage is tuned, on rows built from the unchanged first stage's scores exactly as
//! the extractor builds them. A single-stage MLP (or a window-only second stage) tunes the
//! first stage.

use super::mlp;
use super::stacked::{StageInputs, stage1_scores, stage2_rows};
use super::{Dataset, EpochReport, TrainParams, standardise};
use crate::model::{Model, ModelKind};
use crate::stack::{LINE_PREFIX, Stage2};
use crate::{Error, Result};

/// How a model is fine-tuned.
#[derive(Debug, Clone, PartialEq)]
pub struct FineTuneParams {
    /// Adam steps (mini-batches) to take, at least: the passes over the new rows are as
    /// many as that needs (at least one), so a single page gets as much training as
    /// three. Default 400.
    pub steps: usize,
    /// Adam's step size. Default 1e-3.
    pub learning_rate: f64,
    /// Rows per mini-batch. Default 32.
    pub batch_size: usize,
    /// L2 penalty on the weights. Default 1e-4.
    pub l2: f64,
    /// Seed of the shuffling. Default 42.
    pub seed: u64,
}

impl Default for FineTuneParams {
    fn default() -> Self {
        FineTuneParams {
            steps: 400,
            learning_rate: 1e-3,
            batch_size: 32,
            l2: 1e-4,
            seed: 42,
        }
    }
}

impl FineTuneParams {
    /// The parameters as JSON, for the tuned model's provenance.
    pub fn to_json(&self) -> serde_json::Value {
        serde_json::json!({
            "steps": self.steps,
            "learning_rate": self.learning_rate,
            "batch_size": self.batch_size,
            "l2": self.l2,
            "seed": self.seed,
        })
    }

    /// Training parameters for `rows` rows.
    fn train_params(&self, rows: usize) -> TrainParams {
        let batches = rows.div_ceil(self.batch_size.max(1)).max(1);
        let mut p = TrainParams::new(super::ModelType::Mlp);
        p.epochs = self.steps.div_ceil(batches).max(1);
        p.learning_rate = self.learning_rate;
        p.batch_size = self.batch_size;
        p.l2 = self.l2;
        p.seed = self.seed;
        // No rows are held out (a site's few pages are all there is): every pass counts.
        p.patience = p.epochs;
        p
    }
}

/// The columns a fine-tuning of `model` reads from the labelled CSV: the first stage's
/// features, and a page-level second stage's copied features and `ln_text_bytes`.
pub fn fine_tune_columns(model: &Model) -> Vec<String> {
    let mut columns = model.features.clone();
    if let Some(stage2) = model.stack.as_deref().filter(|s| s.page) {
        for name in stage2_base(stage2).chain(["ln_text_bytes"]) {
            if !columns.iter().any(|c| c == name) {
                columns.push(name.to_string());
            }
        }
    }
    columns
}

/// Which stage [`fine_tune`] changes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TunedStage {
    /// The per-line classifier.
    First,
    /// The page-level second stage.
    Second,
}

/// Fine-tunes `init` on the labelled rows of `data` (read with [`fine_tune_columns`]);
/// `inputs` must carry the rows' paths and signatures when `init` has a page-level second
/// stage (see [`StageInputs::with_paths`]). `progress` is called after every pass.
///
/// # Errors
/// [`Error::Training`] when the stage to tune is not an MLP, the data has no rows or one
/// class only, or holds a non-finite value; [`Error::FeatureMismatch`] when a column the
/// model reads is missing.
pub fn fine_tune(
    init: &Model,
    data: &Dataset,
    inputs: Option<&StageInputs>,
    params: &FineTuneParams,
    progress: &mut dyn FnMut(&EpochReport),
) -> Result<(Model, TunedStage)> {
    if data.is_empty() {
        return Err(Error::Training("no labelled rows to fine-tune on".into()));
    }
    if data.y.iter().all(|&y| y) || data.y.iter().all(|&y| !y) {
        return Err(Error::Training(
            "the labelled rows are all of one class; fine-tuning needs content and \
             boilerplate lines"
                .into(),
        ));
    }
    if data.x.iter().any(|v| !v.is_finite()) {
        return Err(Error::Training("the data holds a non-finite value".into()));
    }
    let rows: Vec<usize> = (0..data.len()).collect();
    let first = first_stage_view(init, data)?;
    let tp = params.train_params(data.len());
    let mut model = init.clone();
    let stage = match init.stack.as_deref().filter(|s| s.page) {
        Some(stage2) => {
            let inputs = inputs.ok_or_else(|| {
                Error::Training(
                    "the model's second stage reads the page: fine-tuning needs the lines' \
                     paths and signatures (the `path` and `sig` columns of `mainline \
                     review`'s or `mainline label`'s CSV)"
                        .into(),
                )
            })?;
            let scores = stage1_scores(init, &first, &rows);
            let x2 = stage2_rows(
                data,
                inputs,
                &rows,
                &scores,
                stage2.lookahead,
                true,
                stage2.repeats,
            );
            let z2 = standardise(x2.view(), &rows, &stage2.scaler);
            let layers = mlp_layers(&stage2.kind, "second stage")?;
            let fit = mlp::fit(
                z2.view(),
                &data.y,
                None,
                z2.view(),
                &data.y,
                &tp,
                None,
                Some(layers),
                progress,
            )?;
            let tuned = Stage2 {
                kind: ModelKind::Mlp { layers: fit.layers },
                ..stage2.clone()
            };
            model.stack = Some(Box::new(tuned));
            TunedStage::Second
        }
        None => {
            let z = standardise(first.x.view(), &rows, &init.scaler);
            let layers = mlp_layers(&init.kind, "first stage")?;
            let fit = mlp::fit(
                z.view(),
                &data.y,
                None,
                z.view(),
                &data.y,
                &tp,
                None,
                Some(layers),
                progress,
            )?;
            model.kind = ModelKind::Mlp { layers: fit.layers };
            TunedStage::First
        }
    };
    model.validate()?;
    Ok((model, stage))
}

/// The features a page-level second stage copies from the first stage's columns.
fn stage2_base(stage2: &Stage2) -> impl Iterator<Item = &str> {
    stage2
        .features
        .iter()
        .filter_map(|f| f.strip_prefix(LINE_PREFIX))
}

/// The second stage's copied feature names, for [`StageInputs::of`].
pub fn stage2_base_names(model: &Model) -> Vec<String> {
    model
        .stack
        .as_deref()
        .map(|s| stage2_base(s).map(String::from).collect())
        .unwrap_or_default()
}

/// `data`'s columns in the order the first stage reads them.
fn first_stage_view(model: &Model, data: &Dataset) -> Result<Dataset> {
    let idx: Vec<usize> = model
        .features
        .iter()
        .map(|name| {
            data.feature_index(name).ok_or_else(|| {
                Error::FeatureMismatch(format!(
                    "the model reads feature {name:?}, which the data lacks"
                ))
            })
        })
        .collect::<Result<_>>()?;
    Ok(Dataset {
        features: model.features.clone(),
        x: data.x.select(ndarray::Axis(1), &idx),
        ..data.clone()
    })
}

fn mlp_layers<'a>(kind: &'a ModelKind, stage: &str) -> Result<&'a [crate::model::Layer]> {
    match kind {
        ModelKind::Mlp { layers } => Ok(layers),
        _ => Err(Error::Training(format!(
            "only an MLP can be fine-tuned; the model's {stage} is not one"
        ))),
    }
}
