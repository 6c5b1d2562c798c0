//! Training recipes as files (see [`Recipe`]).

use std::path::Path;

use serde::{Deserialize, Serialize};

use super::{ModelType, StackParams, ThresholdObjective, ThresholdRows, TrainParams};
use mainline::internals::features::{self, FeatureSet};
use mainline::internals::model::Activation;
use mainline::{Error, Result};

/// A training recipe: every setting that shapes a model, read from a TOML or JSON file.
///
/// A recipe names the learner, the features, the context, the training settings and, for a
/// two-stage model, the second stage ([`StackRecipe`]). `mainline train DATA.csv --recipe
/// FILE` trains what it says; flags given beside it override single fields. Each shipped
/// model has its recipe under `training/` (`training/default.toml` for `models/default.json`),
/// and a model records the recipe it was trained with in its provenance (the `settings`
/// key), so a model file tells how to train it again.
///
/// A field left out of a file takes its default ([`Recipe::default`]); an unknown field is an
/// error, so a misspelt setting never goes unnoticed.
///
/// ```
/// use mainline_training::train::{ModelType, Recipe};
///
/// let recipe = Recipe::from_toml(
///     r#"
///     learner = "mlp"
///     features = "full"
///     context = 1
///     seed = 7
///
///     [stack]
///     lookahead = 8
///     page = true
///     "#,
/// )
/// .unwrap();
/// assert_eq!(recipe.learner, ModelType::Mlp);
/// assert_eq!(recipe.train_params().seed, 7);
/// assert_eq!(recipe.stack_params().unwrap().lookahead, 8);
/// // Written back as JSON (as in a model's provenance), it reads the same.
/// let json = serde_json::to_string(&recipe).unwrap();
/// assert_eq!(Recipe::from_json(&json).unwrap(), recipe);
/// ```
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Recipe {
    /// What the training data is, recorded in the model (default: the CSV's path).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub data: Option<String>,
    /// The classifier: `logistic`, `mlp` or `trees`.
    pub learner: ModelType,
    /// Which features: `seed` or `full`.
    #[serde(with = "feature_set")]
    pub features: FeatureSet,
    /// Neighbour lines on each side the features look at (0 to [`features::MAX_CONTEXT`]).
    pub context: usize,
    /// MLP: hidden layer widths (one or two layers).
    pub hidden: Vec<usize>,
    /// MLP: hidden activation, `tanh` or `relu`.
    pub activation: Activation,
    /// MLP: most passes over the training rows.
    pub epochs: usize,
    /// MLP: rows per mini-batch.
    pub batch_size: usize,
    /// MLP: Adam learning rate.
    pub learning_rate: f64,
    /// MLP: stop after this many epochs without a better validation loss.
    pub patience: usize,
    /// L2 penalty on the weights (trees: on the leaf values).
    pub l2: f64,
    /// MLP: weight both classes equally in the loss.
    pub balance_classes: bool,
    /// MLP and trees: a site counts as at most this many lines in the loss.
    pub site_lines: Option<usize>,
    /// MLP and trees: each line weighted by `(1 + words)^word_weight` in the first stage's
    /// loss (0, the default: every line alike; see [`TrainParams::word_weight`]).
    #[serde(skip_serializing_if = "is_zero")]
    pub word_weight: f64,
    /// Leave the pages whose gold text aligned poorly with their lines out of training.
    pub skip_poorly_aligned: bool,
    /// Page variants whose rows (in a CSV of `mainline label --augment`) train beside the
    /// pages as written (a two-stage model's thresholds are still chosen on the pages as
    /// written alone, see [`StageInputs::variant`](super::StageInputs::variant)); the rows
    /// of any other variant are left out of training.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub augment: Vec<super::Variant>,
    /// Share of the pages whose `augment` variants train (chosen by page id), in (0, 1].
    #[serde(skip_serializing_if = "is_one")]
    pub augment_share: f64,
    /// Which stages of a two-stage model the `augment` variants train: `both` (their
    /// weights), or `second` (the first stage trains on the pages as written alone).
    #[serde(skip_serializing_if = "is_both")]
    pub augment_stages: super::AugmentStages,
    /// Share of the sites held out for validation.
    pub val_fraction: f64,
    /// Seed for the split, the initial weights and the batch order.
    pub seed: u64,
    /// Logistic: most L-BFGS iterations.
    pub max_iterations: u64,
    /// Trees: most boosting rounds.
    pub trees: usize,
    /// Trees: levels of each tree.
    pub depth: usize,
    /// Trees: factor each new tree's leaf values are shrunk by.
    pub shrinkage: f64,
    /// What the (first stage's) decision threshold maximises: `f1` or `accuracy`.
    pub threshold_objective: ThresholdObjective,
    /// Which sites the (first stage's) threshold is chosen on: `validation` or `all`.
    pub threshold_rows: ThresholdRows,
    /// A second stage, for a two-stage model.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stack: Option<StackRecipe>,
}

/// The second stage of a two-stage recipe (the `[stack]` table of a TOML recipe).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct StackRecipe {
    /// First-stage scores read on each side of a line (0 to 32).
    pub lookahead: usize,
    /// Also read the page-level inputs (the scores of the whole page and of the elements
    /// around the line).
    pub page: bool,
    /// Page-level inputs: also pool the scores over repeated lines (the CSV's `sig` column).
    pub repeats: bool,
    /// Page-level inputs: also read the page hints (what the head says the page is and
    /// where each line stands against its title; the CSV's `hints` column).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub hints: bool,
    /// The line's own features it reads: `few` or `base`.
    pub features: String,
    /// The second-stage classifier: `logistic`, `mlp` or `trees`.
    pub learner: ModelType,
    /// MLP hidden layer widths.
    pub hidden: Vec<usize>,
    /// Group folds of the training sites for the out-of-fold first-stage scores.
    pub inner_folds: usize,
    /// Page-level inputs: a block of fewer lines is decided by the first stage alone.
    pub page_min_lines: usize,
    /// Second stages trained from different seeds, their logits averaged.
    pub ensemble: usize,
    /// With `ensemble` above 1: ship one second stage distilled from the ensemble.
    pub distill: bool,
    /// Which sites its threshold is chosen on: `validation` or `all`.
    pub threshold_rows: ThresholdRows,
    /// What its threshold maximises, `f1` or `accuracy` (default: the first stage's).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub threshold_objective: Option<ThresholdObjective>,
    /// Each line weighted by `(1 + words)^word_weight` in the second stage's loss (0, the
    /// default: every line alike; see [`TrainParams::word_weight`]).
    #[serde(skip_serializing_if = "is_zero")]
    pub word_weight: f64,
}

impl Default for Recipe {
    /// The defaults of `mainline train`: an MLP on every feature with one line of context on
    /// each side, one stage.
    fn default() -> Self {
        let p = TrainParams::default();
        Recipe {
            data: None,
            learner: p.model,
            features: FeatureSet::Full,
            context: 1,
            hidden: p.hidden,
            activation: p.activation,
            epochs: p.epochs,
            batch_size: p.batch_size,
            learning_rate: p.learning_rate,
            patience: p.patience,
            l2: p.l2,
            balance_classes: p.balance_classes,
            site_lines: p.site_lines,
            word_weight: p.word_weight,
            skip_poorly_aligned: false,
            augment: Vec::new(),
            augment_share: 1.0,
            augment_stages: super::AugmentStages::Both,
            val_fraction: p.val_fraction,
            seed: p.seed,
            max_iterations: p.max_iterations,
            trees: p.trees,
            depth: p.depth,
            shrinkage: p.shrinkage,
            threshold_objective: p.threshold_objective,
            threshold_rows: p.threshold_rows,
            stack: None,
        }
    }
}

impl Default for StackRecipe {
    fn default() -> Self {
        let p = StackParams::default();
        StackRecipe {
            lookahead: p.lookahead,
            page: p.page,
            repeats: p.repeats,
            hints: p.hints,
            features: "few".into(),
            learner: p.model,
            hidden: p.hidden,
            inner_folds: p.inner_folds,
            page_min_lines: p.min_block_lines,
            ensemble: p.ensemble,
            distill: p.distill,
            threshold_rows: p.threshold_rows,
            threshold_objective: p.threshold_objective,
            word_weight: p.word_weight,
        }
    }
}

impl Recipe {
    /// Reads a recipe file: JSON when its name ends in `.json`, TOML otherwise.
    ///
    /// # Errors
    /// [`Error::Other`] naming the file when it cannot be read, does not parse, has an
    /// unknown field or a value out of range.
    pub fn load(path: &Path) -> Result<Recipe> {
        let fail = |m: String| Error::Other(format!("recipe {}: {m}", path.display()));
        let text = std::fs::read_to_string(path).map_err(|e| fail(e.to_string()))?;
        let json = path
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("json"));
        let parsed = if json {
            Recipe::from_json(&text)
        } else {
            Recipe::from_toml(&text)
        };
        parsed.map_err(|e| fail(e.to_string()))
    }

    /// Parses a TOML recipe and checks its ranges.
    ///
    /// # Errors
    /// [`Error::Other`] when it does not parse, has an unknown field or a value out of range.
    pub fn from_toml(text: &str) -> Result<Recipe> {
        let recipe: Recipe =
            toml::from_str(text).map_err(|e| Error::Other(e.to_string().trim().to_string()))?;
        recipe.check()?;
        Ok(recipe)
    }

    /// Parses a JSON recipe (for example a model's `provenance.settings`) and checks its
    /// ranges.
    ///
    /// # Errors
    /// As [`Recipe::from_toml`].
    pub fn from_json(text: &str) -> Result<Recipe> {
        let recipe: Recipe = serde_json::from_str(text).map_err(|e| Error::Other(e.to_string()))?;
        recipe.check()?;
        Ok(recipe)
    }

    /// Checks what the types alone do not: the context, the lookahead and the second stage's
    /// features (the training parameters are checked when training starts).
    ///
    /// # Errors
    /// [`Error::Other`] naming the field.
    pub fn check(&self) -> Result<()> {
        let bad = |m: String| Err(Error::Other(m));
        if self.context > features::MAX_CONTEXT {
            return bad(format!(
                "context must be at most {}, got {}",
                features::MAX_CONTEXT,
                self.context
            ));
        }
        if !(self.augment_share > 0.0 && self.augment_share <= 1.0) {
            return bad(format!(
                "augment_share must be above 0 and at most 1, got {}",
                self.augment_share
            ));
        }
        if self.augment_stages != super::AugmentStages::Both && self.stack.is_none() {
            return bad(format!(
                "augment_stages = {:?} needs a two-stage recipe (a [stack] table)",
                self.augment_stages.name()
            ));
        }
        let word_weight = |name: &str, w: f64| {
            if w.is_finite() && (0.0..=2.0).contains(&w) {
                Ok(())
            } else {
                bad(format!("{name} must be between 0 and 2, got {w}"))
            }
        };
        word_weight("word_weight", self.word_weight)?;
        if let Some(s) = &self.stack {
            word_weight("stack.word_weight", s.word_weight)?;
            if s.lookahead > mainline::internals::second_stage::MAX_LOOKAHEAD {
                return bad(format!(
                    "stack.lookahead must be at most {}, got {}",
                    mainline::internals::second_stage::MAX_LOOKAHEAD,
                    s.lookahead
                ));
            }
            stack_base(&s.features)?;
            if !(2..=20).contains(&s.inner_folds) {
                return bad(format!(
                    "stack.inner_folds must be 2 to 20, got {}",
                    s.inner_folds
                ));
            }
            if !(1..=16).contains(&s.ensemble) {
                return bad(format!(
                    "stack.ensemble must be 1 to 16, got {}",
                    s.ensemble
                ));
            }
        }
        Ok(())
    }

    /// The first stage's training parameters (without the recipe and data texts, which the
    /// caller records).
    pub fn train_params(&self) -> TrainParams {
        TrainParams::new(self.learner)
            .hidden(self.hidden.clone())
            .activation(self.activation)
            .epochs(self.epochs)
            .batch_size(self.batch_size)
            .learning_rate(self.learning_rate)
            .patience(self.patience)
            .trees(self.trees)
            .depth(self.depth)
            .shrinkage(self.shrinkage)
            .l2(self.l2)
            .balance_classes(self.balance_classes)
            .site_lines(self.site_lines)
            .word_weight(self.word_weight)
            .val_fraction(self.val_fraction)
            .seed(self.seed)
            .max_iterations(self.max_iterations)
            .threshold_objective(self.threshold_objective)
            .threshold_rows(self.threshold_rows)
            .context(self.context)
    }

    /// Which variant rows train ([`Augment`](super::Augment)).
    pub fn augment(&self) -> super::Augment {
        super::Augment {
            variants: self.augment.clone(),
            share: self.augment_share,
        }
    }

    /// The second stage's parameters, when the recipe has one.
    pub fn stack_params(&self) -> Option<StackParams> {
        let s = self.stack.as_ref()?;
        Some(StackParams {
            lookahead: s.lookahead,
            inner_folds: s.inner_folds,
            model: s.learner,
            hidden: s.hidden.clone(),
            // Checked by `Recipe::check`; a recipe built in code falls back to `few`.
            base: stack_base(&s.features).unwrap_or_default(),
            page: s.page,
            min_block_lines: s.page_min_lines,
            repeats: s.repeats,
            hints: s.hints,
            ensemble: s.ensemble,
            distill: s.distill,
            threshold_rows: s.threshold_rows,
            threshold_objective: s.threshold_objective,
            augment_stages: self.augment_stages,
            word_weight: s.word_weight,
        })
    }

    /// The recipe as JSON, as a model's provenance records it.
    pub fn to_json(&self) -> serde_json::Value {
        serde_json::to_value(self).unwrap_or_default()
    }
}

fn is_zero(v: &f64) -> bool {
    *v == 0.0
}

fn is_one(v: &f64) -> bool {
    *v == 1.0
}

fn is_both(v: &super::AugmentStages) -> bool {
    *v == super::AugmentStages::Both
}

/// The first-stage features a second stage copies: `few` ([`mainline::internals::second_stage::BASE_INPUTS`]) or
/// `base` (every feature of the line itself, [`features::BASE`]).
///
/// # Errors
/// [`Error::Other`] for any other name.
pub fn stack_base(name: &str) -> Result<Vec<String>> {
    Ok(match name {
        "few" => mainline::internals::second_stage::BASE_INPUTS
            .iter()
            .map(|s| s.to_string())
            .collect(),
        "base" => features::BASE.iter().map(|(n, _)| n.to_string()).collect(),
        other => {
            return Err(Error::Other(format!(
                "unknown second-stage features {other:?}: use few or base"
            )));
        }
    })
}

/// [`FeatureSet`] as its name.
mod feature_set {
    use super::FeatureSet;
    use serde::{Deserialize, Deserializer, Serializer};

    pub(super) fn serialize<S: Serializer>(set: &FeatureSet, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(match set {
            FeatureSet::Seed => "seed",
            FeatureSet::Full => "full",
        })
    }

    pub(super) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<FeatureSet, D::Error> {
        let name = String::deserialize(d)?;
        name.parse().map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_empty_recipe_is_the_default() {
        assert_eq!(Recipe::from_toml("").unwrap(), Recipe::default());
        assert_eq!(Recipe::from_json("{}").unwrap(), Recipe::default());
    }

    #[test]
    fn the_default_recipe_trains_what_the_default_parameters_do() {
        let p = Recipe::default().train_params();
        let q = TrainParams::default().context(1);
        assert_eq!(p.to_json(), q.to_json());
        assert_eq!(p.context, 1);
        assert!(Recipe::default().stack_params().is_none());
    }

    #[test]
    fn unknown_fields_and_bad_values_are_errors_naming_them() {
        let err = |t: &str| Recipe::from_toml(t).unwrap_err().to_string();
        assert!(err("sed = 3").contains("sed"));
        assert!(err("learner = \"forest\"").contains("forest"));
        assert!(err("features = \"some\"").contains("some"));
        assert!(err("context = 9").contains("context"));
        assert!(err("[stack]\nlookahead = 99").contains("lookahead"));
        assert!(err("[stack]\nfeatures = \"all\"").contains("all"));
        assert!(err("[stack]\nensemble = 0").contains("ensemble"));
        assert!(err("[stack]\nwidth = 3").contains("width"));
        assert!(err("augment_stages = \"first\"").contains("first"));
        assert!(err("augment_stages = \"second\"").contains("[stack]"));
        assert!(err("word_weight = -1.0").contains("word_weight"));
        assert!(err("[stack]\nword_weight = 3.0").contains("stack.word_weight"));
    }

    #[test]
    fn a_stack_table_gives_second_stage_parameters() {
        let r = Recipe::from_toml(
            "[stack]\nlookahead = 4\npage = true\nfeatures = \"base\"\nensemble = 3\n\
             threshold_objective = \"accuracy\"\nthreshold_rows = \"all\"\nword_weight = 0.5",
        )
        .unwrap();
        assert_eq!(r.train_params().word_weight, 0.0);
        let s = r.stack_params().unwrap();
        assert_eq!(s.word_weight, 0.5);
        assert_eq!(s.lookahead, 4);
        assert!(s.page);
        assert_eq!(s.base.len(), features::BASE.len());
        assert_eq!(s.ensemble, 3);
        assert_eq!(s.threshold_objective, Some(ThresholdObjective::Accuracy));
        assert_eq!(s.threshold_rows, ThresholdRows::All);
    }

    #[test]
    fn json_and_toml_read_the_same_recipe() {
        let toml = Recipe::from_toml(
            "learner = \"logistic\"\nfeatures = \"seed\"\nsite_lines = 500\n[stack]\nrepeats = true",
        )
        .unwrap();
        let json = serde_json::to_string(&toml.to_json()).unwrap();
        assert_eq!(Recipe::from_json(&json).unwrap(), toml);
    }
}
