//! Two-stage training: a per-line model, then a second stage on the window of first-stage
//! scores around each line (see [`mainline::internals::second_stage`]).
//!
//! The second stage must learn from scores like the ones it will see on new sites, not from
//! a first stage that has already seen the page. So the training rows are split by group
//! into `inner_folds` folds; a first stage trained on the other folds scores each fold
//! (out-of-fold scores), and the second stage trains on those. The first stage that ships
//! is then trained on all the training rows as [`train_on_rows`] does.
//!
//! This file holds the parameters ([`StackParams`]) and the training; `inputs.rs` the
//! inputs the second stage reads ([`StageInputs`], its rows, the first stage's scores);
//! `decide.rs` the decisions of a trained two-stage model on labelled rows, as the
//! extractor makes them.

mod decide;
mod inputs;

#[cfg(test)]
pub use decide::decide_stacked;
pub use decide::{keep_stacked, score_stacked};
pub use inputs::{StageInputs, stage1_scores, stage2_rows};

use super::{
    AugmentStages, Dataset, ModelType, ThresholdObjective, ThresholdRows, TrainParams, TrainReport,
    group_kfold, group_split, train_on_rows,
};
use crate::model::ModelExt;
use mainline::internals::model::Model;
use mainline::internals::model::Stage2;
use mainline::internals::second_stage;
use mainline::{Error, Result};

/// Parameters of the second stage.
#[derive(Debug, Clone, PartialEq)]
pub struct StackParams {
    /// Lines of lookahead (and look-behind) of the score window.
    pub lookahead: usize,
    /// Group folds for the out-of-fold first-stage scores.
    pub inner_folds: usize,
    /// The second-stage classifier.
    pub model: ModelType,
    /// Its hidden layers, when an MLP.
    pub hidden: Vec<usize>,
    /// First-stage features of the line that the second stage also reads.
    pub base: Vec<String>,
    /// Whether the second stage also reads the page-level inputs (the scores of the whole
    /// page and of the elements around the line);
    /// needs the lines' paths ([`StageInputs::paths`]).
    pub page: bool,
    /// With `page`: blocks of fewer lines are decided by the first stage alone
    /// ([`Stage2::min_block_lines`]).
    pub min_block_lines: usize,
    /// With `page`: whether the second stage also reads the inputs of the lines'
    /// signatures ([`Stage2::repeats`]); needs [`StageInputs::sigs`].
    pub repeats: bool,
    /// With `page`: whether the second stage also reads the page hints
    /// ([`Stage2::hints`]); needs [`StageInputs::hints`].
    pub hints: bool,
    /// Second stages trained from different seeds on the same rows whose logits are
    /// averaged (an MLP with one hidden layer: they ship as one MLP with their hidden
    /// units side by side). 1: a single second stage.
    pub ensemble: usize,
    /// With an `ensemble` of more than one: ship a single second stage of the same shape
    /// instead, trained towards the ensemble's averaged scores on the training rows
    /// (distillation), which keeps most of the ensemble's steadiness at the cost of one.
    pub distill: bool,
    /// Which rows the second stage's threshold is chosen on (the first stage's is
    /// [`TrainParams::threshold_rows`]).
    pub threshold_rows: ThresholdRows,
    /// What the second stage's threshold maximises; `None`: the first stage's
    /// [`TrainParams::threshold_objective`]. With page inputs, the first stage's threshold
    /// decides only blocks of fewer than [`StackParams::min_block_lines`] lines, short
    /// pages that are mostly content, where recall ([`ThresholdObjective::F1`]) serves
    /// better than the fewest misclassified lines over long pages.
    pub threshold_objective: Option<ThresholdObjective>,
    /// Which stages the rows of page variants ([`StageInputs::variant`]) train:
    /// [`AugmentStages::Second`] trains every first stage (the one that ships and those of
    /// the inner folds) on the rows as written alone, split into the same folds and sides as
    /// without the variants, and scores the variant rows out of fold for the second stage.
    pub augment_stages: AugmentStages,
    /// The second stage's [`TrainParams::word_weight`]: each training line weighted by
    /// `(1 + words)^word_weight` in its loss. 0: every line alike (the first stage's is
    /// [`TrainParams::word_weight`]).
    pub word_weight: f64,
}

impl Default for StackParams {
    fn default() -> Self {
        StackParams {
            lookahead: 8,
            inner_folds: 3,
            model: ModelType::Mlp,
            hidden: vec![16],
            base: second_stage::BASE_INPUTS
                .iter()
                .map(|s| s.to_string())
                .collect(),
            page: false,
            min_block_lines: second_stage::page::MIN_BLOCK_LINES,
            repeats: false,
            hints: false,
            ensemble: 1,
            distill: false,
            threshold_rows: ThresholdRows::Validation,
            threshold_objective: None,
            augment_stages: AugmentStages::Both,
            word_weight: 0.0,
        }
    }
}

impl StackParams {
    /// The parameters as JSON, for a model's provenance.
    pub fn to_json(&self) -> serde_json::Value {
        let mut json = serde_json::json!({
            "lookahead": self.lookahead,
            "inner_folds": self.inner_folds,
            "model": self.model.name(),
            "hidden": self.hidden,
            "base": self.base,
            "page": self.page,
            "min_block_lines": self.min_block_lines,
            "repeats": self.repeats,
            "ensemble": self.ensemble,
            "distill": self.distill,
        });
        if self.hints {
            json["hints"] = serde_json::json!(true);
        }
        self.threshold_rows.record_in(&mut json);
        if let Some(objective) = self.threshold_objective {
            json["threshold_objective"] = serde_json::json!(objective);
        }
        if self.augment_stages != AugmentStages::Both {
            json["augment_stages"] = serde_json::json!(self.augment_stages);
        }
        if self.word_weight != 0.0 {
            json["word_weight"] = serde_json::json!(self.word_weight);
        }
        json
    }
}

/// Trains a two-stage model on `rows` of `data` (ascending, pages contiguous): the first
/// stage on `data`'s columns with `params`, the second on out-of-fold scores.
///
/// `inputs` holds the copied features of every row of `data`, the ones named in
/// `stack_params.base` (see [`StageInputs::of`]). The returned report is the first stage's; the second stage's
/// validation is stored in the model's provenance under `stage2`.
///
/// # Errors
/// As `train_on_rows`; [`Error::Training`] when the rows have too few groups for the
/// inner folds.
pub fn train_stacked(
    data: &Dataset,
    inputs: &StageInputs,
    rows: &[usize],
    params: &TrainParams,
    stack_params: &StackParams,
    progress: &mut dyn FnMut(&str),
) -> Result<(Model, TrainReport)> {
    let k = stack_params.lookahead;
    if k > second_stage::MAX_LOOKAHEAD {
        return Err(Error::Training(format!(
            "lookahead {k} is more than {}",
            second_stage::MAX_LOOKAHEAD
        )));
    }
    let page = stack_params.page;
    let repeats = page && stack_params.repeats;
    let hints = page && stack_params.hints;
    if hints && inputs.hints.is_none() {
        return Err(Error::Training(
            "a second stage with page hints needs each line's hint values: the labelled CSV \
             has no \"hints\" column; write it again with this build's mainline label"
                .into(),
        ));
    }
    if repeats && inputs.sigs.is_none() {
        return Err(Error::Training(
            "a second stage with signature inputs needs each line's signature: the labelled \
             CSV has no \"sig\" column; write it again with this build's mainline label"
                .into(),
        ));
    }
    if page && inputs.paths.is_none() {
        return Err(Error::Training(
            "a second stage with page inputs needs each line's path: the labelled CSV has no \
             \"path\" column; write it again with this build's mainline label"
                .into(),
        ));
    }
    // The second stage's parameters, checked before any training.
    let mut p2 = params.clone();
    p2.model = stack_params.model;
    p2.hidden = stack_params.hidden.clone();
    p2.context = 0;
    p2.word_weight = stack_params.word_weight;
    p2.threshold_rows = stack_params.threshold_rows;
    p2.threshold_objective = stack_params
        .threshold_objective
        .unwrap_or(params.threshold_objective);
    p2.check()?;
    if stack_params.distill && stack_params.ensemble < 2 {
        return Err(Error::Training(format!(
            "distilling the second stage needs an ensemble to distil: --stack-ensemble of 2 \
             or more, got {}",
            stack_params.ensemble
        )));
    }
    if stack_params.ensemble == 0
        || (stack_params.ensemble > 1 && (p2.model != ModelType::Mlp || p2.hidden.len() != 1))
    {
        return Err(Error::Training(format!(
            "an ensemble of {} second stages needs at least one, and MLPs with one hidden \
             layer (the [stack] table's learner = \"mlp\" and one hidden size)",
            stack_params.ensemble
        )));
    }
    let groups: Vec<String> = rows.iter().map(|&r| data.groups[r].clone()).collect();
    // Rows of page variants train the weights, not the thresholds: with none among the
    // rows, training is as without the marks.
    let variant = inputs
        .variant
        .as_deref()
        .filter(|v| rows.iter().any(|&r| v[r]));
    // With variants training the second stage alone, the first stages see only the rows
    // as written (`first[i]`), in the folds and sides they would have without variants.
    let first: Vec<bool> = match variant {
        Some(v) if stack_params.augment_stages == AugmentStages::Second => {
            rows.iter().map(|&r| !v[r]).collect()
        }
        _ => vec![true; rows.len()],
    };
    let folds = by_group(&groups, &first, |g| {
        group_kfold(g, stack_params.inner_folds, params.seed)
    });
    let mut oof = vec![0.0_f32; rows.len()];
    for f in 0..stack_params.inner_folds {
        let held: Vec<usize> = (0..rows.len()).filter(|&i| folds[i] == f).collect();
        let rest: Vec<usize> = (0..rows.len())
            .filter(|&i| folds[i] != f && first[i])
            .collect();
        if held.is_empty() || rest.is_empty() {
            return Err(Error::Training(format!(
                "the {} training groups are too few for {} inner folds",
                distinct(&groups),
                stack_params.inner_folds
            )));
        }
        let rest_groups: Vec<String> = rest.iter().map(|&i| groups[i].clone()).collect();
        let seed = params.seed.wrapping_add(1000 + f as u64);
        let (t, v) = group_split(&rest_groups, params.val_fraction, seed);
        let t: Vec<usize> = t.iter().map(|&i| rows[rest[i]]).collect();
        let v: Vec<usize> = v.iter().map(|&i| rows[rest[i]]).collect();
        let mut p = params.clone();
        p.seed = seed;
        let (m, report) = train_on_rows(data, &t, &v, &p, &mut |_| {})?;
        let held_rows: Vec<usize> = held.iter().map(|&i| rows[i]).collect();
        for (&i, s) in held.iter().zip(stage1_scores(&m, data, &held_rows)) {
            oof[i] = s;
        }
        progress(&format!(
            "inner fold {}/{}: first stage {} epochs, validation line F1 {:.3}",
            f + 1,
            stack_params.inner_folds,
            report.epochs_run,
            report.validation.f1
        ));
    }

    // The first stage that ships: all the rows, as a single-stage model would be trained.
    let (t, v) = group_split(&groups, params.val_fraction, params.seed);
    let sides = by_group(&groups, &first, |g| {
        let (_, v) = group_split(g, params.val_fraction, params.seed);
        let mut side = vec![0; g.len()];
        for i in v {
            side[i] = 1;
        }
        side
    });
    let on_side = |s: usize| -> Vec<usize> {
        (0..rows.len())
            .filter(|&i| first[i] && sides[i] == s)
            .map(|i| rows[i])
            .collect()
    };
    let (t1, v1) = (on_side(0), on_side(1));
    let (mut model, mut report) = train_on_rows(data, &t1, &v1, params, &mut |_| {})?;
    if let Some(variant) = variant.filter(|_| first.iter().all(|&f| f)) {
        threshold_as_written(&mut model, &mut report, data, (&t1, &v1), params, |r| {
            !variant[r]
        });
    }
    progress(&format!(
        "first stage: {} epochs, validation line F1 {:.3}, threshold {:.2}",
        report.epochs_run, report.validation.f1, report.threshold
    ));

    // The second stage, on the out-of-fold scores, split by group the same way.
    let x2 = stage2_rows(data, inputs, rows, &oof, k, page, (repeats, hints));
    let d2 = Dataset {
        features: inputs.input_names(k, page, repeats, hints),
        x: x2,
        y: rows.iter().map(|&r| data.y[r]).collect(),
        groups,
        docs: rows.iter().map(|&r| data.docs[r].clone()).collect(),
    };
    let (mut m2, mut r2) = train_ensemble(
        &d2,
        &t,
        &v,
        &p2,
        stack_params.ensemble,
        stack_params.distill,
    )?;
    if let Some(variant) = variant {
        threshold_as_written(&mut m2, &mut r2, &d2, (&t, &v), &p2, |i| !variant[rows[i]]);
    }
    let made = match stack_params.ensemble {
        1 => String::new(),
        k if stack_params.distill => format!(" (distilled from {k})"),
        k => format!(" (an average of {k})"),
    };
    progress(&format!(
        "second stage{made}: {} epochs, validation line F1 {:.3}, accuracy {:.4}, threshold {:.2}",
        r2.epochs_run, r2.validation.f1, r2.validation.accuracy, r2.threshold
    ));
    if page {
        model.format = mainline::internals::model::MODEL_FORMAT_VERSION;
    }
    model.stack = Some(Box::new(Stage2 {
        lookahead: k,
        page,
        min_block_lines: if page {
            stack_params.min_block_lines
        } else {
            0
        },
        repeats,
        hints,
        features: m2.features,
        threshold: m2.threshold,
        scaler: m2.scaler,
        kind: m2.kind,
    }));
    if let serde_json::Value::Object(params_json) = &mut model.provenance.params {
        params_json.insert("stack".into(), stack_params.to_json());
    }
    if let serde_json::Value::Object(v) = &mut model.provenance.validation {
        v.insert(
            "stage2".into(),
            serde_json::to_value(&r2).expect("a TrainReport has only plain values"),
        );
    }
    model.validate()?;
    Ok((model, report))
}
/// `model`'s threshold chosen again as training chose it (`params`), on the rows of
/// `train_rows` and `val_rows` (indices into `data`) that are `as_written`; `report`'s
/// threshold and validation metrics (on the validation rows as written; the model's
/// provenance records the report) follow it. No change when no validation row is as
/// written.
fn threshold_as_written(
    model: &mut Model,
    report: &mut TrainReport,
    data: &Dataset,
    (train_rows, val_rows): (&[usize], &[usize]),
    params: &TrainParams,
    as_written: impl Fn(usize) -> bool,
) {
    let t: Vec<usize> = train_rows
        .iter()
        .copied()
        .filter(|&r| as_written(r))
        .collect();
    let v: Vec<usize> = val_rows
        .iter()
        .copied()
        .filter(|&r| as_written(r))
        .collect();
    if v.is_empty() {
        return;
    }
    let scores = model
        .score_batch(data.x.select(ndarray::Axis(0), &v).view())
        .to_vec();
    let y: Vec<bool> = v.iter().map(|&r| data.y[r]).collect();
    let (threshold, validation) = super::choose_threshold(model, data, &t, (&scores, &y), params);
    model.threshold = threshold;
    report.threshold = threshold;
    report.validation = validation;
    model.provenance.validation =
        serde_json::to_value(&*report).expect("a TrainReport has only plain values");
}

/// A value for each of `groups` (one per row) that `assign` gives each row of the rows
/// `counted`, spread to every row of the same group: `assign` sees the groups of the
/// counted rows and of the rows of groups without any counted row, in order. With every
/// row counted, `assign(groups)`.
fn by_group(
    groups: &[String],
    counted: &[bool],
    assign: impl Fn(&[String]) -> Vec<usize>,
) -> Vec<usize> {
    if counted.iter().all(|&c| c) {
        return assign(groups);
    }
    let with_counted: std::collections::HashSet<&str> = groups
        .iter()
        .zip(counted)
        .filter(|&(_, &c)| c)
        .map(|(g, _)| g.as_str())
        .collect();
    let basis: Vec<String> = groups
        .iter()
        .zip(counted)
        .filter(|&(g, &c)| c || !with_counted.contains(g.as_str()))
        .map(|(g, _)| g.clone())
        .collect();
    let of_group: std::collections::HashMap<&str, usize> = basis
        .iter()
        .map(String::as_str)
        .zip(assign(&basis))
        .collect();
    groups.iter().map(|g| of_group[g.as_str()]).collect()
}

fn distinct(groups: &[String]) -> usize {
    groups
        .iter()
        .collect::<std::collections::HashSet<_>>()
        .len()
}

/// [`averaged`], or with `distill` (and `k` > 1) one model of the members' shape trained
/// from seed `params.seed + k` towards the average's scores on the training rows, with its
/// own early stopping and threshold on the validation rows.
fn train_ensemble(
    data: &Dataset,
    train_rows: &[usize],
    val_rows: &[usize],
    params: &TrainParams,
    k: usize,
    distill: bool,
) -> Result<(Model, TrainReport)> {
    if !distill || k < 2 {
        return averaged(data, train_rows, val_rows, params, k);
    }
    // The averaged teacher's own threshold is never used: the student chooses its own.
    let (model, _) = averaged(data, train_rows, val_rows, &threshold_unread(params), k)?;
    let targets: Vec<f32> = model
        .score_batch(data.x.select(ndarray::Axis(0), train_rows).view())
        .to_vec();
    let mut p = params.clone();
    p.seed = params.seed.wrapping_add(k as u64);
    super::train_rows_towards(data, train_rows, val_rows, Some(&targets), &p, &mut |_| {})
}

/// `params` for a model whose own threshold nobody reads (an ensemble's member, a
/// distilled stage's teacher): the threshold is searched on the validation rows alone, the
/// cheapest search, whatever `params.threshold_rows` says.
fn threshold_unread(params: &TrainParams) -> TrainParams {
    TrainParams {
        threshold_rows: ThresholdRows::Validation,
        ..params.clone()
    }
}

/// `k` models trained on the same rows from seeds `params.seed`, `params.seed + 1`, …, as
/// one MLP whose logit is the mean of theirs, with its threshold chosen again (on the rows
/// `params.threshold_rows` names). `k = 1`: [`train_on_rows`].
fn averaged(
    data: &Dataset,
    train_rows: &[usize],
    val_rows: &[usize],
    params: &TrainParams,
    k: usize,
) -> Result<(Model, TrainReport)> {
    if k <= 1 {
        return train_on_rows(data, train_rows, val_rows, params, &mut |_| {});
    }
    // The members' own thresholds are never used: the average's is chosen below.
    let member = threshold_unread(params);
    let (mut model, mut report) = train_on_rows(data, train_rows, val_rows, &member, &mut |_| {})?;
    let mut members = vec![model.kind.clone()];
    for i in 1..k {
        let mut p = member.clone();
        p.seed = params.seed.wrapping_add(i as u64);
        let (m, _) = train_on_rows(data, train_rows, val_rows, &p, &mut |_| {})?;
        if m.scaler != model.scaler {
            return Err(Error::Training(
                "the members of an ensemble were standardised differently".into(),
            ));
        }
        members.push(m.kind);
    }
    model.kind = merge_mlps(&members)?;
    model.validate()?;
    let raw_val = data.x.select(ndarray::Axis(0), val_rows);
    let y_val: Vec<bool> = val_rows.iter().map(|&i| data.y[i]).collect();
    let scores = model.score_batch(raw_val.view()).to_vec();
    let (threshold, validation) =
        super::choose_threshold(&model, data, train_rows, (&scores, &y_val), params);
    model.threshold = threshold;
    report.threshold = threshold;
    report.validation = validation;
    report.validation_at_half = super::LineMetrics::new(scores.iter().map(|&s| s >= 0.5), &y_val);
    model.provenance.params = params.to_json();
    model.provenance.validation =
        serde_json::to_value(&report).expect("a TrainReport has only plain values");
    Ok((model, report))
}

/// MLPs with one hidden layer on the same inputs as one MLP: the hidden units side by side,
/// the output the mean of their logits.
fn merge_mlps(
    members: &[mainline::internals::model::ModelKind],
) -> Result<mainline::internals::model::ModelKind> {
    use mainline::internals::model::{Layer, ModelKind};
    let bad = || Error::Training("only MLPs with one hidden layer can be merged".into());
    let mut hidden: Option<Layer> = None;
    let mut out: Option<Layer> = None;
    let k = members.len() as f32;
    for m in members {
        let ModelKind::Mlp { layers } = m else {
            return Err(bad());
        };
        let [h, o] = &layers[..] else {
            return Err(bad());
        };
        if o.outputs() != 1 || o.inputs() != h.outputs() {
            return Err(bad());
        }
        match &mut hidden {
            None => hidden = Some(h.clone()),
            Some(acc) => {
                if acc.activation != h.activation || acc.inputs() != h.inputs() {
                    return Err(bad());
                }
                acc.weights.extend_from_slice(&h.weights);
                acc.bias.extend_from_slice(&h.bias);
            }
        }
        let scaled: Vec<f32> = o.weights.iter().map(|w| w / k).collect();
        match &mut out {
            None => {
                out = Some(Layer {
                    activation: o.activation,
                    weights: scaled,
                    bias: vec![o.bias[0] / k],
                })
            }
            Some(acc) => {
                acc.weights.extend(scaled);
                acc.bias[0] += o.bias[0] / k;
            }
        }
    }
    match (hidden, out) {
        (Some(h), Some(o)) => Ok(ModelKind::Mlp { layers: vec![h, o] }),
        _ => Err(bad()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use mainline::internals::model::{Activation, Layer, ModelKind, Scaler};

    fn mlp(w: &[f32], b: &[f32], out_w: &[f32], out_b: f32) -> ModelKind {
        ModelKind::Mlp {
            layers: vec![
                Layer {
                    activation: Activation::Tanh,
                    weights: w.to_vec(),
                    bias: b.to_vec(),
                },
                Layer {
                    activation: Activation::Sigmoid,
                    weights: out_w.to_vec(),
                    bias: vec![out_b],
                },
            ],
        }
    }

    #[test]
    fn a_merged_ensemble_averages_the_members_logits() {
        let a = mlp(&[0.5, -1.0, 2.0, 0.1], &[0.1, -0.2], &[1.5, -0.7], 0.3);
        let b = mlp(&[-0.3, 0.8], &[0.05], &[2.0], -0.4);
        let merged = merge_mlps(&[a.clone(), b.clone()]).unwrap();
        let score = |k: &ModelKind, row: &[f32]| {
            mainline::internals::model::score_with(k, &Scaler::identity(2), row)
        };
        let logit = |p: f32| (p / (1.0 - p)).ln();
        for row in [[0.0, 0.0], [1.0, -2.0], [0.3, 0.9]] {
            let want = (logit(score(&a, &row)) + logit(score(&b, &row))) / 2.0;
            assert!((logit(score(&merged, &row)) - want).abs() < 1e-4);
        }
        let two_layers = mlp(&[1.0, 1.0], &[0.0], &[1.0], 0.0);
        let ModelKind::Mlp { mut layers } = two_layers else {
            unreachable!()
        };
        layers.insert(0, layers[0].clone());
        assert!(merge_mlps(&[ModelKind::Mlp { layers }]).is_err());
    }
}
