//! Arguments that several subcommands share: the input formats and sizes of `filter` and
//! `site`, and the fields of a recipe file that flags of `train` and `eval` may override.

use anyhow::Result;

use mainline_training::train::{ModelType, Recipe, StackRecipe, ThresholdObjective, ThresholdRows};

/// A classifier kind: `logistic`, `mlp` or `trees`.
pub(crate) fn parse_model(s: &str) -> Result<ModelType, String> {
    s.parse()
        .map_err(|_| format!("unknown model {s:?}: use logistic, mlp or trees"))
}

/// The flags over a recipe's fields that `train` and `eval` share: the training settings
/// the shipped recipes set. Each given flag overrides one field of the recipe file (or of
/// the defaults).
#[derive(Debug, clap::Args)]
pub(crate) struct RecipeArgs {
    /// MLP and trees: weight a site's lines in the loss so that it counts as at most this
    /// many lines (big sites otherwise dominate training).
    #[arg(long, value_name = "N")]
    site_lines: Option<usize>,

    /// What the decision threshold maximises on the validation sites: `f1` (line F1 of the
    /// content class) or `accuracy` (fewest misclassified lines). Default: f1.
    #[arg(long, value_name = "OBJECTIVE")]
    threshold_objective: Option<ThresholdObjective>,

    /// Two-stage models: the line's own features the second stage reads besides the
    /// scores: `few` (density, length, links, heading, block and container hints) or `base`
    /// (every feature of the line itself, no neighbours). Default: few.
    #[arg(long, value_name = "SET")]
    stack_features: Option<String>,

    /// Page-level second stages: also read the lines' signatures (the CSV's `sig`
    /// column): first-stage scores pooled over the lines repeated alongside each line (the
    /// cards of a grid, the rows of a list, the items of a menu) and over the lines of the
    /// same text.
    #[arg(long)]
    repeats: bool,

    /// Two-stage models: train this many second stages from different seeds and average
    /// their logits (MLPs with one hidden layer; the model file holds them as one wider
    /// MLP). Default: 1.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=16))]
    stack_ensemble: Option<u32>,

    /// With --stack-ensemble above 1: ship one second stage instead of the ensemble,
    /// trained towards the ensemble's averaged scores (distillation). It costs what a
    /// single second stage costs when filtering.
    #[arg(long)]
    stack_distill: bool,

    /// Two-stage models: which sites the second stage's threshold is chosen on:
    /// `validation` (the held-out sites alone) or `all` (the training sites as well: their
    /// scores are in-sample, but five times as many sites make the threshold steadier).
    /// Default: validation.
    #[arg(long, value_name = "ROWS")]
    stack_threshold_rows: Option<ThresholdRows>,

    /// Two-stage models: what the second stage's threshold maximises, `f1` or `accuracy`.
    /// By default that of --threshold-objective; given, --threshold-objective sets the first
    /// stage's alone (which, with --page, decides only short pages).
    #[arg(long, value_name = "OBJECTIVE")]
    stack_threshold_objective: Option<ThresholdObjective>,
}

impl RecipeArgs {
    /// Sets the first-stage fields given in `recipe`; returns them as written.
    pub(crate) fn apply(&self, recipe: &mut Recipe) -> Vec<String> {
        let mut given = Vec::new();
        if let Some(n) = self.site_lines {
            recipe.site_lines = Some(n);
            given.push(format!("--site-lines {n}"));
        }
        if let Some(o) = self.threshold_objective {
            recipe.threshold_objective = o;
            given.push(format!("--threshold-objective {}", objective_word(o)));
        }
        given
    }

    /// Sets the second-stage fields given in `stack`; returns them as written.
    pub(crate) fn apply_stack(&self, stack: &mut StackRecipe) -> Vec<String> {
        let mut given = Vec::new();
        if let Some(f) = &self.stack_features {
            stack.features = f.clone();
            given.push(format!("--stack-features {f}"));
        }
        if self.repeats {
            stack.repeats = true;
            given.push("--repeats".into());
        }
        if let Some(n) = self.stack_ensemble {
            stack.ensemble = n as usize;
            given.push(format!("--stack-ensemble {n}"));
        }
        if self.stack_distill {
            stack.distill = true;
            given.push("--stack-distill".into());
        }
        if let Some(rows) = self.stack_threshold_rows {
            stack.threshold_rows = rows;
            given.push(format!("--stack-threshold-rows {}", rows_word(rows)));
        }
        if let Some(o) = self.stack_threshold_objective {
            stack.threshold_objective = Some(o);
            given.push(format!("--stack-threshold-objective {}", objective_word(o)));
        }
        given
    }
}

fn rows_word(rows: ThresholdRows) -> &'static str {
    match rows {
        ThresholdRows::Validation => "validation",
        ThresholdRows::All => "all",
    }
}

fn objective_word(o: ThresholdObjective) -> &'static str {
    match o {
        ThresholdObjective::F1 => "f1",
        ThresholdObjective::Accuracy => "accuracy",
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum InputFormat {
    /// One HTML page per input.
    Html,
    /// One JSON object per line, with the page in its "html" field.
    Jsonl,
    /// WARC files: one JSON line per HTML response record.
    Warc,
}

/// Parses a size in bytes: a number with an optional `K`, `M` or `G` suffix (powers of
/// 1024, `KiB`, `MiB`, `GiB` and a trailing `B` accepted).
pub(crate) fn parse_size(s: &str) -> Result<usize, String> {
    let t = s.trim();
    let t = t.strip_suffix(['b', 'B']).unwrap_or(t);
    let t = t.strip_suffix(['i', 'I']).unwrap_or(t);
    let (digits, shift) = match t.char_indices().last() {
        Some((i, 'k' | 'K')) => (&t[..i], 10),
        Some((i, 'm' | 'M')) => (&t[..i], 20),
        Some((i, 'g' | 'G')) => (&t[..i], 30),
        _ => (t, 0),
    };
    digits
        .trim()
        .parse::<usize>()
        .ok()
        .and_then(|n| n.checked_mul(1 << shift))
        .filter(|&n| n > 0)
        .ok_or_else(|| format!("expected a positive size in bytes such as 65536 or 64M, got {s:?}"))
}
