//! Argument groups that `train` and `eval` share: boosted trees and second stages.

use anyhow::Result;

use mainline::train::{ModelType, StackParams, ThresholdObjective, ThresholdRows, TrainParams};

/// The settings of boosted trees, shared by `train` and `eval`.
#[derive(Debug, Clone, clap::Args)]
pub(crate) struct TreeArgs {
    /// Trees: most boosting rounds, one tree each (training stops earlier once the
    /// validation loss has not improved for 20 rounds; progress counts rounds as epochs).
    #[arg(long, default_value_t = 300)]
    trees: usize,

    /// Trees: levels of each tree (2^depth leaves, 1–16).
    #[arg(long, default_value_t = 6)]
    depth: usize,

    /// Trees: factor each new tree's leaf values are shrunk by (above 0, at most 1).
    #[arg(long, default_value_t = 0.1)]
    shrinkage: f64,
}

impl TreeArgs {
    /// `params` with these settings.
    pub(crate) fn apply(&self, params: TrainParams) -> TrainParams {
        params
            .trees(self.trees)
            .depth(self.depth)
            .shrinkage(self.shrinkage)
    }
}

/// A classifier kind: `logistic`, `mlp` or `trees`.
pub(crate) fn parse_model(s: &str) -> Result<ModelType, String> {
    s.parse()
        .map_err(|_| format!("unknown model {s:?}: use logistic, mlp or trees"))
}

/// The options of a second stage, shared by `train --stack` and `eval`'s two-stage recipes.
#[derive(Debug, clap::Args)]
pub(crate) struct StackArgs {
    /// Two-stage models: the second-stage classifier, `logistic`, `mlp` or `trees`.
    #[arg(long, default_value = "mlp", value_parser = parse_model)]
    stack_model: ModelType,

    /// Two-stage models: the second stage's MLP hidden layer widths, comma-separated.
    #[arg(long, value_delimiter = ',', default_value = "16")]
    stack_hidden: Vec<usize>,

    /// Two-stage models: the line's own features the second stage reads besides the
    /// scores: `few` (density, length, links, heading, block and container hints) or `base`
    /// (every feature of the line itself, no neighbours).
    #[arg(long, default_value = "few")]
    stack_features: String,

    /// Two-stage models: group folds of the training sites for the out-of-fold
    /// first-stage scores the second stage learns from.
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u32).range(2..=20))]
    inner_folds: u32,

    /// Page-level second stages: a block of a page with fewer lines than this is decided
    /// by the first stage alone (its page-level inputs would rest on a handful of lines,
    /// unlike the pages the stage learned from). 0 sends every block through the second
    /// stage.
    #[arg(long, default_value_t = mainline::stack::page::MIN_BLOCK_LINES)]
    page_min_lines: usize,

    /// Page-level second stages: also read the lines' signatures (the CSV's `sig`
    /// column): first-stage scores pooled over the lines repeated alongside each line (the
    /// cards of a grid, the rows of a list, the items of a menu) and over the lines of the
    /// same text.
    #[arg(long)]
    repeats: bool,

    /// Train this many second stages from different seeds and average their logits (MLPs
    /// with one hidden layer; the model file holds them as one wider MLP).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=16))]
    stack_ensemble: u32,

    /// With --stack-ensemble above 1: ship one second stage of --stack-hidden units instead
    /// of the ensemble, trained towards the ensemble's averaged scores (distillation). It
    /// costs what a single second stage costs when filtering.
    #[arg(long)]
    stack_distill: bool,

    /// Two-stage models: which sites the second stage's threshold is chosen on,
    /// `validation` or `all` (as --threshold-rows, which sets the first stage's).
    #[arg(long, default_value = "validation")]
    stack_threshold_rows: ThresholdRows,

    /// Two-stage models: what the second stage's threshold maximises, `f1` or `accuracy`.
    /// By default that of --threshold-objective; given, --threshold-objective sets the first
    /// stage's alone (which, with --page, decides only blocks shorter than
    /// --page-min-lines: short pages, mostly content, where `f1` keeps more of it).
    #[arg(long, value_name = "OBJECTIVE")]
    stack_threshold_objective: Option<ThresholdObjective>,
}

impl StackArgs {
    /// The second stage's training parameters, reading `lookahead` lines on each side.
    pub(crate) fn params(&self, lookahead: usize) -> Result<StackParams> {
        Ok(StackParams {
            lookahead,
            inner_folds: self.inner_folds as usize,
            model: self.stack_model,
            hidden: self.stack_hidden.clone(),
            base: stack_base(&self.stack_features)?,
            page: false,
            min_block_lines: self.page_min_lines,
            repeats: self.repeats,
            ensemble: self.stack_ensemble as usize,
            distill: self.stack_distill,
            threshold_rows: self.stack_threshold_rows,
            threshold_objective: self.stack_threshold_objective,
        })
    }
}

/// The first-stage features a second stage copies: `few` or `base`.
pub(crate) fn stack_base(name: &str) -> Result<Vec<String>> {
    Ok(mainline::train::stack_base(name)?)
}
