//! Training hyper-parameters, their defaults and their validation.

use serde::{Deserialize, Serialize};

use mainline::internals::model::Activation;
use mainline::{Error, Result};

/// Which classifier to train.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ModelType {
    /// Logistic regression, fitted by L-BFGS (linfa-logistic).
    Logistic,
    /// A multi-layer perceptron with one or two hidden layers, fitted by Adam. The default.
    #[default]
    Mlp,
    /// Gradient-boosted oblivious decision trees ([`mainline::internals::model::Tree`]).
    Trees,
}

impl ModelType {
    /// The lowercase name: `logistic`, `mlp` or `trees`.
    pub fn name(self) -> &'static str {
        match self {
            ModelType::Logistic => "logistic",
            ModelType::Mlp => "mlp",
            ModelType::Trees => "trees",
        }
    }
}

impl std::fmt::Display for ModelType {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for ModelType {
    type Err = Error;

    /// Parses `logistic`, `mlp` or `trees`.
    fn from_str(s: &str) -> Result<Self> {
        match s {
            "logistic" => Ok(ModelType::Logistic),
            "mlp" => Ok(ModelType::Mlp),
            "trees" => Ok(ModelType::Trees),
            _ => Err(Error::Training(format!(
                "unknown model type \"{s}\"; expected logistic, mlp or trees"
            ))),
        }
    }
}

/// Hyper-parameters of [`train`](super::train).
///
/// Build with [`TrainParams::new`] or [`TrainParams::default`] and the setters, each named
/// after its field; every setter documents its default. [`TrainParams::check`] validates
/// the values (training calls it first).
///
/// ```
/// use mainline_training::train::{ModelType, TrainParams};
///
/// let params = TrainParams::new(ModelType::Mlp).hidden(vec![16, 8]).epochs(20).seed(7);
/// params.check()?;
/// assert!(TrainParams::default().val_fraction(1.0).check().is_err());
/// # Ok::<(), mainline::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct TrainParams {
    /// Which classifier to train.
    pub model: ModelType,
    /// MLP: width of each hidden layer (one or two layers).
    pub hidden: Vec<usize>,
    /// MLP: activation of the hidden layers.
    pub activation: Activation,
    /// MLP: maximum number of passes over the training split.
    pub epochs: usize,
    /// MLP: rows per mini-batch.
    pub batch_size: usize,
    /// MLP: Adam step size.
    pub learning_rate: f64,
    /// MLP: stop after this many epochs without a lower validation loss.
    pub patience: usize,
    /// Trees: most boosting rounds (one tree each); training stops earlier once the
    /// validation loss has not improved for 20 rounds.
    pub trees: usize,
    /// Trees: levels of each tree (`2^depth` leaves).
    pub depth: usize,
    /// Trees: factor each new tree's leaf values are shrunk by.
    pub shrinkage: f64,
    /// L2 penalty `l2 / 2 · ‖w‖²` added to the mean cross-entropy (weights only, not
    /// biases). For the logistic model this is linfa's `alpha` divided by the number of
    /// training rows, so the two models share one scale; for trees the leaf values are the
    /// weights (`λ = l2 · rows` in the Newton step).
    pub l2: f64,
    /// MLP: weight each class by `rows / (2 · rows of the class)` in the loss, so both
    /// classes count equally.
    pub balance_classes: bool,
    /// MLP and trees: when set, a site (group) with more than this many training lines has each line
    /// weighted by `site_lines / lines of the site` in the loss, so that a few big sites do
    /// not outweigh the rest (weights are then scaled to a mean of 1).
    pub site_lines: Option<usize>,
    /// MLP and trees: each training line's loss weight is multiplied by
    /// `(1 + words)^word_weight`, its words read from its `ln_words` input (a second
    /// stage's `line_ln_words`), then all are scaled to a mean of 1. The benchmark's score
    /// counts words, not lines: four lines in five of the WCXB development pages hold under
    /// 50 bytes of text, and with `0` (the default) each of them counts as much as a
    /// paragraph.
    pub word_weight: f64,
    /// Fraction of rows (whole groups) held out for validation.
    pub val_fraction: f64,
    /// Seed for the split, the initial weights and the batch order.
    pub seed: u64,
    /// Logistic: maximum number of L-BFGS iterations.
    pub max_iterations: u64,
    /// Neighbouring lines on each side the features were computed over; recorded in the
    /// model.
    pub context: usize,
    /// How the model is made (for example the recipe's path); recorded in the model.
    pub recipe: String,
    /// Which data it is trained on (for example the CSV's path); recorded in the model.
    pub data: String,
    /// What the decision threshold is chosen to maximise, on the rows that
    /// [`TrainParams::threshold_rows`] names.
    pub threshold_objective: ThresholdObjective,
    /// Which rows the decision threshold is chosen on.
    pub threshold_rows: ThresholdRows,
}

/// Which rows the decision threshold is chosen on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ThresholdRows {
    /// The validation rows alone (the default): scores the model never trained on, from
    /// one fifth of the sites by default.
    #[default]
    Validation,
    /// The training and validation rows together: the training rows' scores are
    /// in-sample, but five times as many sites make the threshold steadier. Early
    /// stopping and the reported validation metrics still use the validation rows.
    All,
}

impl ThresholdRows {
    /// Adds `"threshold_rows"` to the provenance object `json` unless it is the default,
    /// so that models made before the option existed keep their provenance.
    pub(crate) fn record_in(self, json: &mut serde_json::Value) {
        if self != ThresholdRows::Validation {
            json["threshold_rows"] = serde_json::json!(self);
        }
    }
}

impl std::str::FromStr for ThresholdRows {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "validation" => Ok(ThresholdRows::Validation),
            "all" => Ok(ThresholdRows::All),
            _ => Err(format!(
                "unknown threshold rows {s:?}: use validation or all"
            )),
        }
    }
}

/// What the decision threshold is chosen to maximise (on the rows [`ThresholdRows`] names).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ThresholdObjective {
    /// Line F1 of the content class (the default): favours recall of content lines.
    #[default]
    F1,
    /// Line accuracy: the fewest misclassified lines.
    Accuracy,
}

impl std::str::FromStr for ThresholdObjective {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "f1" => Ok(ThresholdObjective::F1),
            "accuracy" => Ok(ThresholdObjective::Accuracy),
            _ => Err(format!(
                "unknown threshold objective {s:?}: use f1 or accuracy"
            )),
        }
    }
}

impl Default for TrainParams {
    fn default() -> Self {
        TrainParams::new(ModelType::Mlp)
    }
}

impl TrainParams {
    /// Default parameters for the given model type.
    pub fn new(model: ModelType) -> Self {
        TrainParams {
            model,
            hidden: vec![32],
            activation: Activation::Tanh,
            epochs: 40,
            batch_size: 256,
            learning_rate: 1e-3,
            patience: 5,
            trees: 300,
            depth: 6,
            shrinkage: 0.1,
            l2: 1e-4,
            balance_classes: false,
            site_lines: None,
            word_weight: 0.0,
            val_fraction: 0.2,
            seed: 42,
            max_iterations: 200,
            context: 0,
            recipe: String::new(),
            data: String::new(),
            threshold_objective: ThresholdObjective::F1,
            threshold_rows: ThresholdRows::Validation,
        }
    }

    /// Which classifier to train. Default: [`ModelType::Mlp`].
    pub fn model(mut self, model: ModelType) -> Self {
        self.model = model;
        self
    }

    /// Hidden layer widths of the MLP, one or two layers. Default: `[32]`.
    pub fn hidden(mut self, hidden: Vec<usize>) -> Self {
        self.hidden = hidden;
        self
    }

    /// Activation of the MLP's hidden layers. Default: [`Activation::Tanh`].
    pub fn activation(mut self, activation: Activation) -> Self {
        self.activation = activation;
        self
    }

    /// Maximum number of MLP epochs. Default: 40.
    pub fn epochs(mut self, epochs: usize) -> Self {
        self.epochs = epochs;
        self
    }

    /// MLP mini-batch size. Default: 256.
    pub fn batch_size(mut self, batch_size: usize) -> Self {
        self.batch_size = batch_size;
        self
    }

    /// Adam learning rate of the MLP. Default: `1e-3`.
    pub fn learning_rate(mut self, learning_rate: f64) -> Self {
        self.learning_rate = learning_rate;
        self
    }

    /// Early-stopping patience of the MLP, in epochs. Default: 5.
    pub fn patience(mut self, patience: usize) -> Self {
        self.patience = patience;
        self
    }

    /// Most boosting rounds of trees. Default: 300.
    pub fn trees(mut self, trees: usize) -> Self {
        self.trees = trees;
        self
    }

    /// Levels of each tree. Default: 6.
    pub fn depth(mut self, depth: usize) -> Self {
        self.depth = depth;
        self
    }

    /// Shrinkage of each new tree. Default: 0.1.
    pub fn shrinkage(mut self, shrinkage: f64) -> Self {
        self.shrinkage = shrinkage;
        self
    }

    /// L2 penalty on the weights, on the scale of the mean loss. Default: `1e-4`.
    pub fn l2(mut self, l2: f64) -> Self {
        self.l2 = l2;
        self
    }

    /// Weight the classes equally in the MLP's loss. Default: `false`.
    pub fn balance_classes(mut self, balance_classes: bool) -> Self {
        self.balance_classes = balance_classes;
        self
    }

    /// Cap the weight of a site at this many lines in the MLP's loss (see
    /// [`TrainParams::site_lines`]). Default: no cap.
    pub fn site_lines(mut self, site_lines: Option<usize>) -> Self {
        self.site_lines = site_lines;
        self
    }

    /// Weight each line by `(1 + words)^word_weight` in the loss (see
    /// [`TrainParams::word_weight`]). Default: 0, every line alike.
    pub fn word_weight(mut self, word_weight: f64) -> Self {
        self.word_weight = word_weight;
        self
    }

    /// Fraction of the rows held out for validation, in whole groups. Default: 0.2.
    pub fn val_fraction(mut self, val_fraction: f64) -> Self {
        self.val_fraction = val_fraction;
        self
    }

    /// Random seed. Default: 42.
    pub fn seed(mut self, seed: u64) -> Self {
        self.seed = seed;
        self
    }

    /// Maximum number of L-BFGS iterations of the logistic model. Default: 200.
    pub fn max_iterations(mut self, max_iterations: u64) -> Self {
        self.max_iterations = max_iterations;
        self
    }

    /// Context width recorded in the model. Default: 0.
    pub fn context(mut self, context: usize) -> Self {
        self.context = context;
        self
    }

    /// Recipe recorded in the model's provenance. Default: empty.
    pub fn recipe(mut self, recipe: impl Into<String>) -> Self {
        self.recipe = recipe.into();
        self
    }

    /// Data description recorded in the model's provenance. Default: empty.
    /// What the threshold maximises. Default: [`ThresholdObjective::F1`].
    pub fn threshold_objective(mut self, objective: ThresholdObjective) -> Self {
        self.threshold_objective = objective;
        self
    }

    /// Which rows the threshold is chosen on. Default: [`ThresholdRows::Validation`].
    pub fn threshold_rows(mut self, rows: ThresholdRows) -> Self {
        self.threshold_rows = rows;
        self
    }

    /// Which data the model is trained on, recorded in the model. Default: empty.
    pub fn data(mut self, data: impl Into<String>) -> Self {
        self.data = data.into();
        self
    }

    /// Checks every parameter the chosen model uses.
    ///
    /// # Errors
    ///
    /// [`Error::Training`] naming the first invalid parameter and its value.
    pub fn check(&self) -> Result<()> {
        let bad = |msg: String| Err(Error::Training(msg));
        if !(self.val_fraction > 0.0 && self.val_fraction < 1.0) {
            return bad(format!(
                "val_fraction must be between 0 and 1 (exclusive), got {}",
                self.val_fraction
            ));
        }
        if !(self.l2.is_finite() && self.l2 >= 0.0) {
            return bad(format!("l2 must be zero or positive, got {}", self.l2));
        }
        if !(self.word_weight.is_finite() && (0.0..=2.0).contains(&self.word_weight)) {
            return bad(format!(
                "word_weight must be between 0 and 2, got {}",
                self.word_weight
            ));
        }
        match self.model {
            ModelType::Logistic => {
                if self.max_iterations == 0 {
                    return bad("max_iterations must be at least 1".into());
                }
                if self.balance_classes {
                    return bad(
                        "balance_classes needs an MLP (the logistic model is fitted without \
                         sample weights): drop it or train an mlp"
                            .into(),
                    );
                }
                if self.word_weight != 0.0 {
                    return bad(
                        "word weights (word_weight) need an MLP or trees (the logistic model \
                         is fitted without sample weights): drop word_weight or train an mlp"
                            .into(),
                    );
                }
                if self.site_lines.is_some() {
                    return bad(
                        "per-site weights (site_lines) need an MLP (the logistic model is \
                         fitted without sample weights): drop site_lines (--site-lines) or train \
                         an mlp (for a second stage, learner = \"mlp\" in the [stack] table)"
                            .into(),
                    );
                }
            }
            ModelType::Mlp => {
                if !(1..=2).contains(&self.hidden.len()) {
                    return bad(format!(
                        "hidden must list 1 or 2 layer widths, got {}",
                        self.hidden.len()
                    ));
                }
                if let Some(w) = self.hidden.iter().find(|&&w| w == 0 || w > 4096) {
                    return bad(format!(
                        "hidden layer widths must be between 1 and 4096, got {w}"
                    ));
                }
                if self.epochs == 0 {
                    return bad("epochs must be at least 1".into());
                }
                if self.batch_size == 0 {
                    return bad("batch_size must be at least 1".into());
                }
                if !(self.learning_rate.is_finite() && self.learning_rate > 0.0) {
                    return bad(format!(
                        "learning_rate must be positive, got {}",
                        self.learning_rate
                    ));
                }
                if self.patience == 0 {
                    return bad("patience must be at least 1".into());
                }
            }
            ModelType::Trees => {
                if self.trees == 0 {
                    return bad("trees must be at least 1".into());
                }
                if !(1..=mainline::internals::model::MAX_DEPTH).contains(&self.depth) {
                    return bad(format!(
                        "depth must be between 1 and {}, got {}",
                        mainline::internals::model::MAX_DEPTH,
                        self.depth
                    ));
                }
                if !(self.shrinkage.is_finite() && self.shrinkage > 0.0 && self.shrinkage <= 1.0) {
                    return bad(format!(
                        "shrinkage must be above 0 and at most 1, got {}",
                        self.shrinkage
                    ));
                }
                if self.balance_classes {
                    return bad("balance_classes needs an MLP: drop it or train an mlp".into());
                }
            }
        }
        Ok(())
    }

    /// The parameters that shaped the model, as recorded in its provenance (the recipe and
    /// data are recorded beside them).
    pub fn to_json(&self) -> serde_json::Value {
        let mut json = self.shape_json();
        if self.word_weight != 0.0 {
            json["word_weight"] = serde_json::json!(self.word_weight);
        }
        self.threshold_rows.record_in(&mut json);
        json
    }

    fn shape_json(&self) -> serde_json::Value {
        match self.model {
            ModelType::Logistic => serde_json::json!({
                "model": self.model,
                "l2": self.l2,
                "max_iterations": self.max_iterations,
                "val_fraction": self.val_fraction,
                "seed": self.seed,
                "threshold_objective": self.threshold_objective,
            }),
            ModelType::Mlp => serde_json::json!({
                "model": self.model,
                "hidden": self.hidden,
                "activation": self.activation,
                "epochs": self.epochs,
                "batch_size": self.batch_size,
                "learning_rate": self.learning_rate,
                "patience": self.patience,
                "l2": self.l2,
                "balance_classes": self.balance_classes,
                "site_lines": self.site_lines,
                "val_fraction": self.val_fraction,
                "seed": self.seed,
                "threshold_objective": self.threshold_objective,
            }),
            ModelType::Trees => serde_json::json!({
                "model": self.model,
                "trees": self.trees,
                "depth": self.depth,
                "shrinkage": self.shrinkage,
                "l2": self.l2,
                "site_lines": self.site_lines,
                "val_fraction": self.val_fraction,
                "seed": self.seed,
                "threshold_objective": self.threshold_objective,
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn complaint(p: TrainParams) -> String {
        match p.check() {
            Err(Error::Training(msg)) => msg,
            other => panic!("expected a training error, got {other:?}"),
        }
    }

    #[test]
    fn the_defaults_pass_the_check_for_every_model() {
        TrainParams::default().check().unwrap();
        TrainParams::new(ModelType::Logistic).check().unwrap();
        TrainParams::new(ModelType::Trees).check().unwrap();
    }

    #[test]
    fn each_invalid_parameter_is_named() {
        let p = TrainParams::default;
        assert!(complaint(p().hidden(vec![])).starts_with("hidden"));
        assert!(complaint(p().hidden(vec![8, 8, 8])).contains("1 or 2"));
        assert!(complaint(p().hidden(vec![0])).starts_with("hidden"));
        assert!(complaint(p().epochs(0)).starts_with("epochs"));
        assert!(complaint(p().batch_size(0)).starts_with("batch_size"));
        assert!(complaint(p().learning_rate(f64::NAN)).starts_with("learning_rate"));
        assert!(complaint(p().learning_rate(0.0)).starts_with("learning_rate"));
        assert!(complaint(p().patience(0)).starts_with("patience"));
        assert!(complaint(p().l2(-1.0)).starts_with("l2"));
        assert!(complaint(p().val_fraction(0.0)).starts_with("val_fraction"));
        assert!(complaint(p().val_fraction(1.0)).starts_with("val_fraction"));
        let logistic = || TrainParams::new(ModelType::Logistic);
        assert!(complaint(logistic().max_iterations(0)).starts_with("max_iterations"));
        assert!(complaint(logistic().balance_classes(true)).starts_with("balance_classes"));
        let trees = || TrainParams::new(ModelType::Trees);
        assert!(complaint(trees().trees(0)).starts_with("trees"));
        assert!(complaint(trees().depth(0)).starts_with("depth"));
        assert!(complaint(trees().depth(17)).starts_with("depth"));
        assert!(complaint(trees().shrinkage(0.0)).starts_with("shrinkage"));
        assert!(complaint(trees().shrinkage(1.5)).starts_with("shrinkage"));
        assert!(complaint(trees().balance_classes(true)).starts_with("balance_classes"));
        // The MLP's settings do not concern trees.
        trees().hidden(vec![]).epochs(0).check().unwrap();
    }

    #[test]
    fn mlp_only_parameters_do_not_matter_for_the_logistic_model() {
        TrainParams::new(ModelType::Logistic)
            .hidden(vec![])
            .epochs(0)
            .check()
            .unwrap();
    }

    #[test]
    fn model_types_parse_from_their_names() {
        for t in [ModelType::Logistic, ModelType::Mlp, ModelType::Trees] {
            assert_eq!(t.name().parse::<ModelType>().unwrap(), t);
        }
        assert!("forest".parse::<ModelType>().is_err());
    }
}
