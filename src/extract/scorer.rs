//! The scorers that decide lines: the [`Scorer`] trait, [`Threshold`] (the seed design's
//! density rule) and [`ModelScorer`] (a trained model, one or two stages).

use std::any::Any;
use std::sync::Arc;

use crate::features::{self, MAX_CONTEXT};
use crate::model::{Kernel, Model};
use crate::second_stage;
use crate::{Error, Result};

/// Decides whether a line is kept, from its full feature row.
///
/// [`ModelScorer`] (a trained model) and [`Threshold`] (the seed design's density rule) are
/// the scorers mainline has; any other decision can drive an [`Extractor`](super::Extractor)
/// by implementing the three methods below. The extractor recognises a [`ModelScorer`]
/// given as a `Scorer` and also runs its model's second stage, which decides from the
/// first-stage scores around each line; any other scorer, one that wraps a [`ModelScorer`]
/// included, decides each line from its row alone with [`Scorer::decide`].
///
/// ```
/// use std::sync::Arc;
/// use mainline::{Extractor, Scorer};
///
/// /// Keeps the lines with more than 20 bytes of text.
/// struct Long {
///     /// The `ln_text_bytes` column of a row: ln(1 + text bytes).
///     column: usize,
/// }
///
/// impl Scorer for Long {
///     fn context(&self) -> usize {
///         0 // no neighbour lines needed
///     }
///     fn decide(&self, row: &[f32], _scratch: &mut Vec<f32>) -> (f32, bool) {
///         let ln_text = row[self.column];
///         (ln_text, ln_text > 21f32.ln())
///     }
///     fn describe(&self) -> String {
///         "more than 20 bytes of text".into()
///     }
/// }
///
/// let names = mainline::internals::features::names();
/// let column = names.iter().position(|n| n == "ln_text_bytes").unwrap();
/// let mut ex = Extractor::new(Arc::new(Long { column }));
/// let kept = ex.kept_text(b"<p>Short.</p><p>A line that is long enough to keep.</p>")?;
/// assert_eq!(kept, "A line that is long enough to keep.");
/// # Ok::<(), mainline::Error>(())
/// ```
pub trait Scorer: Any + Send + Sync {
    /// How many neighbour lines on each side the decision needs (at most [`MAX_CONTEXT`]).
    fn context(&self) -> usize;

    /// The score of a line (higher = more likely content) and whether it is kept.
    ///
    /// `row` is the full row in [`features::names`] order; neighbour columns beyond
    /// [`Scorer::context`] are 0. `scratch` is a buffer the scorer may reuse between calls.
    fn decide(&self, row: &[f32], scratch: &mut Vec<f32>) -> (f32, bool);

    /// A short description for reports ("threshold 0.5", a model's recipe, …).
    fn describe(&self) -> String;
}

/// The seed design's fixed rule: keep a line when its density is above the threshold.
///
/// The score is the density itself.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Threshold(pub f32);

impl Default for Threshold {
    /// The seed's threshold, 0.5.
    fn default() -> Self {
        Threshold(0.5)
    }
}

impl Scorer for Threshold {
    fn context(&self) -> usize {
        0
    }

    fn decide(&self, row: &[f32], _: &mut Vec<f32>) -> (f32, bool) {
        let density = row[0];
        (density, density > self.0)
    }

    fn describe(&self) -> String {
        format!("density > {}", self.0)
    }
}

/// A scorer that keeps nothing but asks for the widest context, so that every feature
/// column of a row is filled: for writing feature tables.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct AllFeatures;

impl Scorer for AllFeatures {
    fn context(&self) -> usize {
        MAX_CONTEXT
    }

    fn decide(&self, _: &[f32], _: &mut Vec<f32>) -> (f32, bool) {
        (0.0, false)
    }

    fn describe(&self) -> String {
        "features only".to_string()
    }
}

/// A trained [`Model`] bound to this build's feature schema.
///
/// ```
/// use std::sync::Arc;
/// use mainline::{extract_text, ModelScorer};
/// let scorer = ModelScorer::builtin();
/// let text = extract_text(b"<nav><a href=/>Home</a></nav><p>Some words of text.</p>", Arc::new(scorer))?;
/// assert!(!text.contains("Home"));
/// # Ok::<(), mainline::Error>(())
/// ```
#[derive(Debug, Clone)]
pub struct ModelScorer {
    model: Model,
    /// The first stage's weights laid out for scoring, reading its features from the row.
    kernel: Kernel,
    /// The second stage's weights laid out for scoring, if there is one.
    stage2: Option<Kernel>,
    /// Columns of the row copied into the second stage's inputs.
    stage2_columns: Vec<usize>,
    /// Column of `ln_text_bytes`, the second stage's text weight.
    weight_column: usize,
}

/// The model built into mainline (`models/default.json`, see `models/README.md`).
const BUILTIN_MODEL: &str = include_str!("../../models/default.json");

impl ModelScorer {
    /// Checks `model` ([`Model::validate`]) and binds it to the feature schema of this
    /// build. A model built or edited by hand is checked here as one read from a file is:
    /// whatever its fields hold, this returns an error rather than a scorer that panics or
    /// scores NaN.
    ///
    /// ```
    /// use mainline::ModelScorer;
    /// use mainline::internals::model::{Model, ModelKind, Scaler};
    /// let model = Model::new(
    ///     vec!["density".to_string(), "ln_html_bytes".to_string()],
    ///     Scaler::identity(1), // one entry for two features
    ///     ModelKind::Logistic { weights: vec![1.0, 1.0], bias: 0.0 },
    /// );
    /// assert!(ModelScorer::new(model).is_err());
    /// ```
    ///
    /// # Errors
    /// [`Error::ModelFormat`] or [`Error::ModelVersion`] when the model does not validate;
    /// [`Error::FeatureMismatch`] when it needs features this build does not compute, or
    /// neighbour features beyond its own context or [`MAX_CONTEXT`].
    pub fn new(model: Model) -> Result<Self> {
        model.validate()?;
        if model.context > MAX_CONTEXT {
            return Err(Error::FeatureMismatch(format!(
                "the model uses {} lines of context; this build computes at most {MAX_CONTEXT}",
                model.context
            )));
        }
        for name in &model.features {
            let k = name
                .strip_prefix("prev")
                .or_else(|| name.strip_prefix("next"))
                .and_then(|rest| rest.split_once('_'))
                .and_then(|(k, _)| k.parse::<usize>().ok());
            if let Some(k) = k {
                if k > model.context {
                    return Err(Error::FeatureMismatch(format!(
                        "feature {name} needs {k} lines of context, but the model's context is {}",
                        model.context
                    )));
                }
            }
        }
        let names: Vec<&str> = features::names().iter().map(String::as_str).collect();
        let columns = model.bind(&names)?;
        let kernel = Kernel::with_columns(&model.kind, &model.scaler, &columns);
        let find = |name: &str| {
            names.iter().position(|n| *n == name).ok_or_else(|| {
                Error::FeatureMismatch(format!(
                    "the model's second stage reads feature \"{name}\", which this build does \
                     not compute"
                ))
            })
        };
        let mut stage2_columns = Vec::new();
        if let Some(s2) = &model.stack {
            let copied = &s2.features[s2.n_computed()..];
            for name in copied {
                let feature = name.strip_prefix(second_stage::LINE_PREFIX).unwrap_or(name);
                stage2_columns.push(find(feature)?);
            }
        }
        let weight_column = find("ln_text_bytes")?;
        let stage2 = model.stack.as_ref().map(|s2| {
            let columns: Vec<usize> = (0..s2.features.len()).collect();
            Kernel::with_columns(&s2.kind, &s2.scaler, &columns)
        });
        Ok(ModelScorer {
            model,
            kernel,
            stage2,
            stage2_columns,
            weight_column,
        })
    }

    /// The model built into mainline (`models/default.json`): a first stage scoring each
    /// line and a page-level second stage deciding from those scores (see
    /// `models/README.md`).
    pub fn builtin() -> Self {
        let model = Model::from_json(BUILTIN_MODEL).expect("the built-in model is valid");
        ModelScorer::new(model).expect("the built-in model matches this build's features")
    }

    /// The model.
    pub fn model(&self) -> &Model {
        &self.model
    }
}

impl Scorer for ModelScorer {
    fn context(&self) -> usize {
        self.model.context
    }

    fn decide(&self, row: &[f32], scratch: &mut Vec<f32>) -> (f32, bool) {
        let score = self.kernel.score(row, scratch);
        (score, score >= self.model.threshold)
    }

    fn describe(&self) -> String {
        let p = &self.model.provenance;
        if p.recipe.is_empty() {
            format!("model ({} features)", self.model.features.len())
        } else {
            p.recipe.clone()
        }
    }
}

/// How the [`Extractor`](super::Extractor) drives a trained model's second stage (see
/// `crate::second_stage`): used only for a [`ModelScorer`] whose model has one.
impl ModelScorer {
    /// The model given as a [`Scorer`], when it is a [`ModelScorer`] with a second stage:
    /// the extractor then decides with both stages.
    pub(crate) fn two_stage_of(scorer: &Arc<dyn Scorer>) -> Option<Arc<ModelScorer>> {
        let any: Arc<dyn Any + Send + Sync> = scorer.clone();
        any.downcast::<ModelScorer>()
            .ok()
            .filter(|m| m.model.stack.is_some())
    }

    /// Lines of lookahead of the second stage, at most `second_stage::MAX_LOOKAHEAD`; 0 when
    /// there is none.
    pub(crate) fn lookahead(&self) -> usize {
        self.model.stack.as_ref().map_or(0, |s| s.lookahead)
    }

    /// Whether the second stage also reads page-level inputs (`second_stage::page`): lines are
    /// then held in blocks of a page (`second_stage::page::Blocks`) and decided a block at a
    /// time.
    pub(crate) fn page_stage(&self) -> bool {
        self.model.stack.as_ref().is_some_and(|s| s.page)
    }

    /// With [`ModelScorer::page_stage`]: whether the second stage also reads the inputs of
    /// the lines' signatures ([`crate::model::Stage2::repeats`]).
    pub(crate) fn repeats(&self) -> bool {
        self.model
            .stack
            .as_ref()
            .is_some_and(|s| s.page && s.repeats)
    }

    /// With [`ModelScorer::page_stage`]: whether the second stage also reads the page
    /// hints ([`crate::model::Stage2::hints`]).
    pub(crate) fn hints(&self) -> bool {
        self.model.stack.as_ref().is_some_and(|s| s.page && s.hints)
    }

    /// For a page-level second stage: whether a block of `lines` lines is decided by the
    /// first stage alone ([`crate::model::Stage2::first_stage_only`]).
    pub(crate) fn first_stage_only(&self, lines: usize) -> bool {
        self.model
            .stack
            .as_ref()
            .is_some_and(|s| s.first_stage_only(lines))
    }

    /// For a page-level second stage: the score at which a line is kept, by the second
    /// stage or, for a block decided by the first stage alone (`first_stage_only`), by
    /// the first.
    pub(crate) fn keep_threshold(&self, first_stage_only: bool) -> f32 {
        match &self.model.stack {
            Some(s2) if !first_stage_only => s2.threshold,
            _ => self.model.threshold,
        }
    }

    /// Fills `out` with the line's first-stage features that the second stage copies,
    /// taken from the full `row`, and returns the line's weight in the text-weighted
    /// window mean.
    pub(crate) fn stage2_inputs(&self, row: &[f32], out: &mut Vec<f32>) -> f32 {
        out.clear();
        out.extend(self.stage2_columns.iter().map(|&i| row[i]));
        row[self.weight_column]
    }

    /// [`Scorer::decide`] of each of the consecutive `width`-long rows of `rows`, appended
    /// to `out`, scored several rows together.
    pub(crate) fn decide_rows(&self, rows: &[f32], width: usize, out: &mut Vec<(f32, bool)>) {
        // The same bits as `decide` row by row (`Kernel::score_rows`).
        let threshold = self.model.threshold;
        self.kernel
            .score_rows(rows, width, |score| out.push((score, score >= threshold)));
    }

    /// The second-stage score of a line from its `second_stage::input_names` row, and whether
    /// the line is kept.
    pub(crate) fn decide_stage2(&self, row: &[f32]) -> (f32, bool) {
        let (Some(s2), Some(kernel)) = (&self.model.stack, &self.stage2) else {
            // NOTE: the extractor asks only two-stage scorers; a single-stage model keeps
            // its first-stage decision, the row's first input.
            let score = row.first().copied().unwrap_or(0.0);
            return (score, score >= self.model.threshold);
        };
        s2.check_row(row);
        // The same bits as `Stage2::score`, which training uses.
        let score = kernel.score_alone(row);
        (score, score >= s2.threshold)
    }

    /// [`ModelScorer::decide_stage2`] of each of the consecutive `width`-long rows of
    /// `rows`, appended to `out`, scored several rows together.
    pub(crate) fn decide_stage2_rows(
        &self,
        rows: &[f32],
        width: usize,
        out: &mut Vec<(f32, bool)>,
    ) {
        let (Some(s2), Some(kernel)) = (&self.model.stack, &self.stage2) else {
            out.extend(rows.chunks_exact(width).map(|row| self.decide_stage2(row)));
            return;
        };
        if rows.is_empty() {
            return;
        }
        s2.check_row(&rows[..width]);
        // The same bits as `decide_stage2` row by row (`Kernel::score_rows`).
        kernel.score_rows(rows, width, |score| {
            out.push((score, score >= s2.threshold))
        });
    }
}
