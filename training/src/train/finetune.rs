//! Fine-tuning: a trained model adapted to a handful of labelled pages of one site.
//!
//! A site whose conventions the model gets wrong (its code listings are content, its
//! teaser cards are not) is fixed by labelling a few of its pages (`mainline review`) and
//! continuing training from the model on them, without the data the model was first
//! trained on. The model keeps its shape, its standardisation and its thresholds; the
//! first stage's weights take a fixed number of Adam steps over the new rows, with content
//! and boilerplate lines weighed equally and an L2 pull back towards the starting weights.
//!
//! Only the first stage learns, also in a two-stage model: its scores are what the second
//! stage reads, so a site's lines scored better are decided better. A second stage learns
//! from scores over hundreds of pages; one page would teach it that page's share of
//! content (`training/HISTORY.md`, "Measurements once written in the code", has the
//! figures).

use super::mlp;
use super::{Dataset, EpochReport, TrainParams, standardise};
use mainline::internals::model::{Model, ModelKind};
use mainline::{Error, Result};

/// How a model is fine-tuned. The defaults are the setting `training/finetune.sh` measured
/// best.
#[derive(Debug, Clone, PartialEq)]
pub struct FineTuneParams {
    /// Adam steps (mini-batches) to take, at least: the passes over the new rows are as
    /// many as that needs (at least one), so a single page gets as much training as
    /// three. Default 100.
    pub steps: usize,
    /// Adam's step size. Default 3e-4.
    pub learning_rate: f64,
    /// Rows per mini-batch. Default 32.
    pub batch_size: usize,
    /// How strongly the weights are pulled back towards the model's: an L2 penalty on
    /// their change, `anchor / 2 · |w - w0|²`. Default 0.1.
    pub anchor: f64,
    /// Seed of the shuffling. Default 42.
    pub seed: u64,
}

impl Default for FineTuneParams {
    fn default() -> Self {
        FineTuneParams {
            steps: 100,
            learning_rate: 3e-4,
            batch_size: 32,
            anchor: 0.1,
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
            "anchor": self.anchor,
            "seed": self.seed,
        })
    }

    /// Training parameters for `rows` rows.
    fn train_params(&self, rows: usize) -> TrainParams {
        let batches = rows.div_ceil(self.batch_size.max(1)).max(1);
        let mut p = TrainParams::new(super::ModelType::Mlp);
        p.epochs = self.steps.div_ceil(batches).max(1);
        // No rows are held out (a site's few pages are all there is): every pass counts.
        p.patience = p.epochs;
        p.learning_rate = self.learning_rate;
        p.batch_size = self.batch_size;
        // A page has a content share of its own (5% on a shop's product page, 90% on a
        // blog post); equal class weights keep one page from moving the model's prior.
        p.balance_classes = true;
        p.l2 = 0.0;
        p.seed = self.seed;
        p
    }
}

/// Fine-tunes the first stage of `init` on the labelled rows of `data`, which must hold the
/// columns [`Model::features`] names (a CSV from `mainline review` or `mainline label`).
/// `progress` is called after every pass over the rows.
///
/// # Errors
/// [`Error::Training`] when the first stage is not an MLP, or the data has no rows, one
/// class only, or a non-finite value; [`Error::FeatureMismatch`] when a column the model
/// reads is missing.
pub fn fine_tune(
    init: &Model,
    data: &Dataset,
    params: &FineTuneParams,
    progress: &mut dyn FnMut(&EpochReport),
) -> Result<Model> {
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
    let ModelKind::Mlp { layers } = &init.kind else {
        return Err(Error::Training(
            "only an MLP can be fine-tuned; the model's first stage is not one".into(),
        ));
    };
    let idx: Vec<usize> = init
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
    let x = data.x.select(ndarray::Axis(1), &idx);
    if x.iter().any(|v| !v.is_finite()) {
        return Err(Error::Training("the data holds a non-finite value".into()));
    }
    let rows: Vec<usize> = (0..data.len()).collect();
    let z = standardise(x.view(), &rows, &init.scaler);
    let start = mlp::Start {
        layers,
        anchor: params.anchor as f32,
    };
    let fit = mlp::fit(
        z.view(),
        &data.y,
        None,
        z.view(),
        &data.y,
        &params.train_params(data.len()),
        None,
        Some(start),
        progress,
    )?;
    let mut model = init.clone();
    model.kind = ModelKind::Mlp { layers: fit.layers };
    model.validate()?;
    Ok(model)
}
