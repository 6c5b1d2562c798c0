//! The streaming extractor (see [`Extractor`]) and the scorers that decide lines.

use std::collections::VecDeque;
use std::sync::Arc;

use crate::features::{self, LineFeatures, MAX_CONTEXT, N_FEATURES};
use crate::lines::{Line, Splitter};
use crate::model::{Kernel, Model};
use crate::stack::{self, Window};
use crate::{Error, Result};

/// Decides whether a line is kept, from its full feature row.
///
/// [`ModelScorer`] (a trained model) and [`Threshold`] (the seed design's density rule) are
/// the scorers mainline has; any other decision can drive an [`Extractor`]:
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
/// let names = mainline::features::names();
/// let column = names.iter().position(|n| n == "ln_text_bytes").unwrap();
/// let mut ex = Extractor::new(Arc::new(Long { column }));
/// let kept = ex.kept_text(b"<p>Short.</p><p>A line that is long enough to keep.</p>")?;
/// assert_eq!(kept, "A line that is long enough to keep.");
/// # Ok::<(), mainline::Error>(())
/// ```
pub trait Scorer: Send + Sync {
    /// How many neighbour lines on each side the decision needs (at most [`MAX_CONTEXT`]).
    fn context(&self) -> usize;

    /// The score of a line (higher = more likely content) and whether it is kept.
    ///
    /// `row` is the full row in [`features::names`] order; neighbour columns beyond
    /// [`Scorer::context`] are 0. `scratch` is a buffer the scorer may reuse between calls.
    fn decide(&self, row: &[f32], scratch: &mut Vec<f32>) -> (f32, bool);

    /// A short description for reports ("threshold 0.5", a model's recipe, …).
    fn describe(&self) -> String;

    // NOTE: the methods below are how a trained two-stage model (ModelScorer) drives the
    // extractor's second stage; their defaults are right for any other scorer, so they
    // are left out of the documentation.
    /// Whether a second stage makes the decision from the window of [`Scorer::decide`]
    /// scores around each line (see `crate::stack`). Default: no.
    #[doc(hidden)]
    fn two_stage(&self) -> bool {
        false
    }

    /// Lines of lookahead of the second stage, at most `stack::MAX_LOOKAHEAD`; 0 when
    /// there is none.
    #[doc(hidden)]
    fn lookahead(&self) -> usize {
        0
    }

    /// Whether the second stage also reads page-level inputs (`stack::page`): lines are
    /// then held in blocks of a page (`stack::page::Blocks`) and decided a block at a
    /// time. Default: no.
    #[doc(hidden)]
    fn page_stage(&self) -> bool {
        false
    }

    /// With [`Scorer::page_stage`]: whether the second stage also reads the inputs of the
    /// lines' signatures ([`crate::model::Stage2::repeats`]). Default: no.
    #[doc(hidden)]
    fn repeats(&self) -> bool {
        false
    }

    /// With [`Scorer::page_stage`]: whether the second stage also reads the page hints
    /// ([`crate::model::Stage2::hints`]). Default: no.
    fn hints(&self) -> bool {
        false
    }

    /// For a page-level second stage: whether a block of `lines` lines is decided by
    /// [`Scorer::decide`] alone ([`crate::model::Stage2::first_stage_only`]). Default: no.
    #[doc(hidden)]
    fn first_stage_only(&self, lines: usize) -> bool {
        let _ = lines;
        false
    }

    /// For a page-level second stage: the score at which a line is kept, by the second
    /// stage or, for a block decided by the first stage alone (`first_stage_only`), by
    /// [`Scorer::decide`]. Default: 0.5.
    #[doc(hidden)]
    fn keep_threshold(&self, first_stage_only: bool) -> f32 {
        let _ = first_stage_only;
        0.5
    }

    /// For a two-stage scorer: fills `out` with the line's first-stage features that the
    /// second stage copies, taken from the full `row`, and returns the line's weight in
    /// the text-weighted window mean.
    #[doc(hidden)]
    fn stage2_inputs(&self, row: &[f32], out: &mut Vec<f32>) -> f32 {
        let _ = row;
        out.clear();
        0.0
    }

    /// For a two-stage scorer: the second-stage score of a line from its
    /// `stack::input_names` row, and whether the line is kept.
    ///
    /// Default (for a scorer that says it is [`Scorer::two_stage`] without a second stage
    /// of its own): the line's first-stage score, the row's first input, kept when it is at
    /// least 0.5.
    #[doc(hidden)]
    fn decide_stage2(&self, row: &[f32]) -> (f32, bool) {
        let score = row.first().copied().unwrap_or(0.0);
        (score, score >= 0.5)
    }

    /// [`Scorer::decide`] of each of the consecutive `width`-long rows of `rows`, appended
    /// to `out` (a trained model scores several rows together).
    #[doc(hidden)]
    fn decide_rows(
        &self,
        rows: &[f32],
        width: usize,
        scratch: &mut Vec<f32>,
        out: &mut Vec<(f32, bool)>,
    ) {
        out.extend(
            rows.chunks_exact(width)
                .map(|row| self.decide(row, scratch)),
        );
    }

    /// [`Scorer::decide_stage2`] of each of the consecutive `width`-long rows of `rows`,
    /// appended to `out` (a trained model scores several rows together).
    #[doc(hidden)]
    fn decide_stage2_rows(&self, rows: &[f32], width: usize, out: &mut Vec<(f32, bool)>) {
        out.extend(rows.chunks_exact(width).map(|row| self.decide_stage2(row)));
    }
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
#[cfg(feature = "cli")]
pub struct Observe;

#[cfg(feature = "cli")]
impl Scorer for Observe {
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
const BUILTIN_MODEL: &str = include_str!("../models/default.json");

impl ModelScorer {
    /// Checks `model` ([`Model::validate`]) and binds it to the feature schema of this
    /// build. A model built or edited by hand is checked here as one read from a file is:
    /// whatever its fields hold, this returns an error rather than a scorer that panics or
    /// scores NaN.
    ///
    /// ```
    /// use mainline::ModelScorer;
    /// use mainline::model::{Model, ModelKind, Scaler};
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
                let feature = name.strip_prefix(stack::LINE_PREFIX).unwrap_or(name);
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

    fn decide_rows(
        &self,
        rows: &[f32],
        width: usize,
        _: &mut Vec<f32>,
        out: &mut Vec<(f32, bool)>,
    ) {
        // The same bits as `decide` row by row (`Kernel::score_rows`).
        let threshold = self.model.threshold;
        self.kernel
            .score_rows(rows, width, |score| out.push((score, score >= threshold)));
    }

    fn two_stage(&self) -> bool {
        self.model.stack.is_some()
    }

    fn lookahead(&self) -> usize {
        self.model.stack.as_ref().map_or(0, |s| s.lookahead)
    }

    fn page_stage(&self) -> bool {
        self.model.stack.as_ref().is_some_and(|s| s.page)
    }

    fn repeats(&self) -> bool {
        self.model
            .stack
            .as_ref()
            .is_some_and(|s| s.page && s.repeats)
    }

    fn hints(&self) -> bool {
        self.model.stack.as_ref().is_some_and(|s| s.page && s.hints)
    }

    fn first_stage_only(&self, lines: usize) -> bool {
        self.model
            .stack
            .as_ref()
            .is_some_and(|s| s.first_stage_only(lines))
    }

    fn keep_threshold(&self, first_stage_only: bool) -> f32 {
        match &self.model.stack {
            Some(s2) if !first_stage_only => s2.threshold,
            _ => self.model.threshold,
        }
    }

    fn stage2_inputs(&self, row: &[f32], out: &mut Vec<f32>) -> f32 {
        out.clear();
        out.extend(self.stage2_columns.iter().map(|&i| row[i]));
        row[self.weight_column]
    }

    fn decide_stage2(&self, row: &[f32]) -> (f32, bool) {
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

    fn decide_stage2_rows(&self, rows: &[f32], width: usize, out: &mut Vec<(f32, bool)>) {
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

    fn describe(&self) -> String {
        let p = &self.model.provenance;
        if p.recipe.is_empty() {
            format!("model ({} features)", self.model.features.len())
        } else {
            p.recipe.clone()
        }
    }
}

/// One line and what was decided about it.
#[derive(Debug, Clone, PartialEq)]
pub struct Decision {
    /// The line.
    pub line: Line,
    /// The scorer's score for it (the second stage's, for a two-stage model).
    pub score: f32,
    /// Whether it is part of the main content.
    pub keep: bool,
    /// The full feature row, when requested with [`Extractor::with_features`].
    pub features: Option<Vec<f32>>,
    /// The line's page hints (`stack::hints::line_names`), when requested with
    /// [`Extractor::with_features`]: for the labelled CSV.
    pub(crate) hints: Option<[f32; stack::hints::N_LINE_HINTS]>,
    /// How the line matched its site's template, in site mode
    /// ([`Extractor::set_site`]): `None` when it appears on none of the site's other pages.
    pub template: Option<crate::site::Match>,
}

/// How many first-stage rows of a page block wait to be scored together (a few times the
/// kernel's rows at once; their buffer stays small).
const FIRST_ROWS: usize = 64;

/// A line waiting for its decision, with its feature row and page hints when kept.
type Held = (
    Line,
    Option<Vec<f32>>,
    Option<[f32; stack::hints::N_LINE_HINTS]>,
);

/// Streaming extractor: bytes in, a keep/drop [`Decision`] per line out.
///
/// [`Extractor`] wires the stages together: the [`Splitter`] turns bytes into lines, each
/// line's [`LineFeatures`] are computed once, and a [`Scorer`] decides each line as soon as
/// the lines after it that its features need have arrived (its [`Scorer::context`]). A
/// two-stage model then waits for its second stage's lookahead of first-stage scores
/// (at most 32 lines on each side). Only those windows of lines are held, so
/// memory does not depend on the page length. A second stage with page-level inputs
/// (as in the built-in model) holds the lines of one block of the page instead, at most
/// 4,096 lines and about 4 MiB of text.
///
/// ```
/// use std::sync::Arc;
/// use mainline::{Extractor, Threshold};
///
/// let mut ex = Extractor::new(Arc::new(Threshold(0.5)));
/// let mut kept = Vec::new();
/// for piece in ["<div class=menu><a href=/a>A</a> <a href=/b>B</a></div>",
///               "<p>A paragraph of plain text has a high ", "text density.</p>"] {
///     ex.write(piece.as_bytes())?;
///     while let Some(d) = ex.next_decision() {
///         if d.keep { kept.push(d.line.text) }
///     }
/// }
/// ex.end()?;
/// kept.extend(std::iter::from_fn(|| ex.next_decision()).filter(|d| d.keep).map(|d| d.line.text));
/// assert_eq!(kept, ["A paragraph of plain text has a high text density."]);
/// # Ok::<(), mainline::Error>(())
/// ```
pub struct Extractor {
    splitter: Splitter,
    scorer: Arc<dyn Scorer>,
    context: usize,
    keep_features: bool,
    /// Lines read but not yet decided (at most `context + 1`).
    pending: VecDeque<Line>,
    /// The features of the last `decided` lines decided (at most `context`), oldest first,
    /// then those of the `pending` lines: the features are written once per line and not
    /// moved while its neighbours need them.
    features: VecDeque<LineFeatures>,
    decided: usize,
    /// Two-stage scorers: lines scored by the first stage and waiting for the lines after
    /// them (at most the lookahead + 1), with their feature rows when kept.
    window: Option<Window<Held>>,
    /// Scorers with page-level inputs: the lines of the current block of the page.
    page: Option<PageBlock>,
    /// The page hints of the lines, once the first line has come out (when the scorer
    /// reads them or the features are kept).
    hints: Option<stack::hints::Tracker>,
    base: Vec<f32>,
    out: VecDeque<Decision>,
    row: Vec<f32>,
    scratch: Vec<f32>,
    /// What the `with_` methods set on the splitter, for [`Extractor::reset`].
    settings: Settings,
    /// Site mode: the template of the page's site ([`Extractor::set_site`]).
    site: Option<crate::site::PageTemplate>,
    /// Scratch for site mode: how each line of a block matched the template.
    site_matches: Vec<Option<crate::site::Match>>,
}

/// What the `with_` methods of an [`Extractor`] set on its splitter: every setting of the
/// splitter is recorded here, so that [`Extractor::reset`] can make a new one.
#[derive(Debug, Clone, Copy, Default)]
struct Settings {
    structure: bool,
    metadata: bool,
    /// Collect what the head says about the page, for the page hints.
    head: bool,
    encoding: Option<&'static encoding_rs::Encoding>,
    transport: Option<&'static encoding_rs::Encoding>,
}

impl Settings {
    /// A splitter with these settings.
    fn splitter(&self) -> Splitter {
        let mut s = Splitter::new()
            .with_structure(self.structure)
            .with_metadata(self.metadata)
            .with_transport_encoding(self.transport);
        if self.head {
            s = s.with_head_metadata();
        }
        if let Some(e) = self.encoding {
            s = s.with_encoding(e);
        }
        s
    }
}

impl std::fmt::Debug for Extractor {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Extractor")
            .field("scorer", &self.scorer.describe())
            .field("splitter", &self.splitter)
            .finish_non_exhaustive()
    }
}

impl Extractor {
    /// An extractor for one document, deciding with `scorer`. For many documents, one
    /// extractor can be [reset](Extractor::reset) between them.
    pub fn new(scorer: Arc<dyn Scorer>) -> Self {
        let context = scorer.context().min(MAX_CONTEXT);
        let lookahead = scorer.lookahead().min(stack::MAX_LOOKAHEAD);
        let paged = scorer.two_stage() && scorer.page_stage();
        let window = (scorer.two_stage() && !paged).then(|| Window::new(lookahead));
        let page = paged.then(|| PageBlock::new(lookahead, scorer.repeats(), scorer.hints()));
        let settings = Settings {
            head: paged && scorer.hints(),
            ..Settings::default()
        };
        Extractor {
            splitter: settings.splitter(),
            scorer,
            context,
            keep_features: false,
            pending: VecDeque::with_capacity(context + 2),
            features: VecDeque::with_capacity(2 * context + 2),
            decided: 0,
            window,
            page,
            hints: None,
            base: Vec::new(),
            out: VecDeque::with_capacity(if paged { stack::page::MAX_LINES } else { 0 }),
            row: vec![0.0; N_FEATURES],
            scratch: Vec::new(),
            settings,
            site: None,
            site_matches: Vec::new(),
        }
    }

    /// Gets ready for another document: what is read of the current one, and its
    /// decisions not taken yet, are dropped, and the next [`Extractor::write`] starts a
    /// document as a new extractor with the same scorer and settings
    /// ([`Extractor::with_features`], [`Extractor::with_structure`],
    /// [`Extractor::with_metadata`], [`Extractor::with_encoding`],
    /// [`Extractor::with_transport_encoding`]) would, with the same decisions. The room
    /// the buffers have grown to is kept (bounded, as the extractor's memory is, by the
    /// limits of a block of a page), so that a run over many documents does not allocate
    /// and fill it again for each.
    ///
    /// ```
    /// use std::sync::Arc;
    /// use mainline::{Extractor, Threshold};
    /// let mut ex = Extractor::new(Arc::new(Threshold(0.5)));
    /// ex.write(b"<p>The first page, left unfinished")?;
    /// ex.reset();
    /// assert_eq!(ex.kept_text(b"<p>The second page.</p>")?, "The second page.");
    /// assert_eq!(ex.kept_text(b"<p>And a third.</p>")?, "And a third.");
    /// # Ok::<(), mainline::Error>(())
    /// ```
    pub fn reset(&mut self) {
        // NOTE: every field is named, so that a new one cannot be forgotten here.
        let Extractor {
            splitter,
            scorer,
            context: _,
            keep_features: _,
            pending,
            features,
            decided,
            window,
            page,
            hints,
            base,
            out,
            row,
            scratch,
            settings,
            site,
            site_matches,
        } = self;
        *hints = None;
        *site = None;
        site_matches.clear();
        let mut fresh = settings.splitter();
        fresh.reuse(splitter);
        *splitter = fresh;
        pending.clear();
        features.clear();
        *decided = 0;
        if let Some(w) = window {
            *w = Window::new(scorer.lookahead().min(stack::MAX_LOOKAHEAD));
        }
        if let Some(p) = page {
            p.reset();
        }
        base.clear();
        out.clear();
        row.clear();
        row.resize(N_FEATURES, 0.0);
        scratch.clear();
    }

    /// Site mode for the next document (until [`Extractor::reset`]): its lines that are the
    /// template of its site are dropped unless the page's own evidence for them is strong
    /// (see [`crate::site`]), and each [`Decision::template`] says how the line matched.
    /// `None` decides the page alone. Site mode applies to page-level second stages (the
    /// built-in model's); other scorers decide as without it. Call before the first
    /// [`Extractor::write`] of the document.
    pub fn set_site(&mut self, template: Option<crate::site::PageTemplate>) {
        self.site = template;
    }

    /// Whether each [`Decision`] carries its feature row (off by default).
    pub fn with_features(mut self, yes: bool) -> Self {
        self.keep_features = yes;
        self.settings.head = self.wants_hints();
        if self.settings.head {
            self.splitter = std::mem::take(&mut self.splitter).with_head_metadata();
        }
        self
    }

    /// Whether the lines' page hints are computed: for a second stage that reads them, or
    /// for the decisions' [`Decision::hints`].
    fn wants_hints(&self) -> bool {
        self.keep_features || self.page.as_ref().is_some_and(|p| p.hints_on)
    }

    /// Decodes the document with `encoding`, a charset given from outside it (such as an
    /// HTTP header's), unless it starts with a byte order mark; see
    /// [`Splitter::with_transport_encoding`]. Call before the first [`Extractor::write`].
    pub fn with_transport_encoding(
        mut self,
        encoding: Option<&'static encoding_rs::Encoding>,
    ) -> Self {
        self.set_transport_encoding(encoding);
        self
    }

    /// [`Extractor::with_transport_encoding`] for an extractor in place: between documents
    /// (after [`Extractor::reset`] or [`Extractor::kept_text`]), the next one's charset.
    pub fn set_transport_encoding(&mut self, encoding: Option<&'static encoding_rs::Encoding>) {
        self.settings.transport = encoding;
        self.splitter = std::mem::take(&mut self.splitter).with_transport_encoding(encoding);
    }

    /// Extracts a whole document held in memory with this extractor: the kept lines
    /// joined by `\n` (what [`extract_text`] returns, with the settings of `self`, such as
    /// [`Extractor::with_transport_encoding`]). The extractor is then
    /// [reset](Extractor::reset), ready for the next document (also after an error).
    ///
    /// ```
    /// use std::sync::Arc;
    /// use mainline::{Extractor, Threshold};
    /// let mut ex = Extractor::new(Arc::new(Threshold(0.5)))
    ///     .with_transport_encoding(Some(encoding_rs::WINDOWS_1252));
    /// assert_eq!(ex.kept_text(b"<p>Caf\xe9 au lait.</p>")?, "Café au lait.");
    /// assert_eq!(ex.kept_text(b"<p>Cr\xe8me.</p>")?, "Crème.");
    /// # Ok::<(), mainline::Error>(())
    /// ```
    ///
    /// # Errors
    /// As [`Splitter::write`].
    pub fn kept_text(&mut self, html: &[u8]) -> Result<String> {
        let text = self.whole_text(html);
        self.reset();
        text
    }

    /// [`Extractor::kept_text`] without the reset: for an extractor used once.
    fn whole_text(&mut self, html: &[u8]) -> Result<String> {
        self.write(html)?;
        self.end()?;
        // NOTE: the kept text of a page is mostly well under a sixteenth of its HTML; room
        // for that at once saves growing the string from nothing, page after page.
        let mut out = String::with_capacity(html.len() / 16);
        while let Some(d) = self.next_decision() {
            if d.keep {
                if !out.is_empty() {
                    out.push('\n');
                }
                out.push_str(&d.line.text);
            }
            self.recycle(d.line);
        }
        Ok(out)
    }

    /// Feeds the next piece of the document.
    ///
    /// # Errors
    /// As [`Splitter::write`].
    pub fn write(&mut self, bytes: &[u8]) -> Result<()> {
        self.splitter.write(bytes)?;
        self.pump();
        Ok(())
    }

    /// Ends the document and decides the remaining lines.
    ///
    /// # Errors
    /// As [`Splitter::end`].
    pub fn end(&mut self) -> Result<()> {
        self.splitter.end()?;
        self.pump();
        while !self.pending.is_empty() {
            self.decide_front();
        }
        if let Some(w) = &mut self.window {
            w.finish();
        }
        self.drain_window();
        self.decide_block(true);
        Ok(())
    }

    /// Lines read and not yet decided: at most the scorer's context + 1, plus its
    /// second stage's lookahead + 1, or with page-level inputs the lines of the current
    /// block (fewer than 4,096). Decided lines wait in the output until
    /// taken with [`Extractor::next_decision`].
    pub fn buffered_lines(&self) -> usize {
        self.pending.len()
            + self.window.as_ref().map_or(0, Window::pending)
            + self.page.as_ref().map_or(0, |p| p.lines.len())
    }

    /// The next decided line, in document order.
    pub fn next_decision(&mut self) -> Option<Decision> {
        self.out.pop_front()
    }

    /// Gives back a decided line that is no longer needed, for a later line's buffers
    /// ([`Splitter::recycle`]).
    pub(crate) fn recycle(&mut self, line: Line) {
        self.splitter.recycle(line);
    }

    /// The underlying splitter (for byte counts and the detected encoding).
    pub fn splitter(&self) -> &Splitter {
        &self.splitter
    }

    /// Whether each line records its [`Structure`](crate::lines::Structure), for
    /// rendering Markdown (off by default; see [`Splitter::with_structure`]). Decisions
    /// are the same either way. Set it before the first [`Extractor::write`].
    pub fn with_structure(mut self, yes: bool) -> Self {
        self.settings.structure = yes;
        self.splitter = std::mem::take(&mut self.splitter).with_structure(yes);
        self
    }

    /// Decode the document with `encoding`, whatever it declares (see
    /// [`Splitter::with_encoding`]). Set it before the first [`Extractor::write`].
    pub fn with_encoding(mut self, encoding: &'static encoding_rs::Encoding) -> Self {
        self.settings.encoding = Some(encoding);
        self.splitter = std::mem::take(&mut self.splitter).with_encoding(encoding);
        self
    }

    /// Whether to collect the page's [`Metadata`](crate::Metadata) as it is read (off by
    /// default). Set it before the first [`Extractor::write`].
    pub fn with_metadata(mut self, yes: bool) -> Self {
        self.settings.metadata = yes;
        self.splitter = std::mem::take(&mut self.splitter).with_metadata(yes);
        if self.settings.head {
            self.splitter = std::mem::take(&mut self.splitter).with_head_metadata();
        }
        self
    }

    /// The metadata collected so far, when asked for with [`Extractor::with_metadata`]:
    /// what the head gives once [`Splitter::head_done`] (the splitter holds the first
    /// bytes back until the encoding is known, see [`Splitter::write`]), all of it after
    /// [`Extractor::end`].
    ///
    /// ```
    /// use std::sync::Arc;
    /// use mainline::{Extractor, ModelScorer};
    ///
    /// let mut ex = Extractor::new(Arc::new(ModelScorer::builtin())).with_metadata(true);
    /// ex.write(b"<head><title>Tides | Sea Notes</title>")?;
    /// ex.write(b"<meta property=og:site_name content='Sea Notes'></head>")?;
    /// ex.write(b"<body><p>The tide comes in twice a day.</p>")?;
    /// ex.end()?;
    /// assert!(ex.splitter().head_done());
    /// assert_eq!(ex.metadata().unwrap().title.as_deref(), Some("Tides"));
    /// # Ok::<(), mainline::Error>(())
    /// ```
    pub fn metadata(&self) -> Option<crate::meta::Metadata> {
        self.splitter.metadata()
    }

    fn pump(&mut self) {
        while let Some(line) = self.splitter.next_line() {
            self.features.push_back(LineFeatures::of(&line));
            self.pending.push_back(line);
            if self.pending.len() > self.context {
                self.decide_front();
            }
        }
    }

    fn decide_front(&mut self) {
        let line = self
            .pending
            .pop_front()
            .expect("decide_front is called with pending lines");
        {
            let at = self.decided;
            let all = &self.features;
            let f = &all[at];
            let mut before: [&LineFeatures; MAX_CONTEXT] = [f; MAX_CONTEXT];
            let nb = at.min(self.context);
            for (d, slot) in before.iter_mut().take(nb).enumerate() {
                *slot = &all[at - 1 - d];
            }
            let mut after: [&LineFeatures; MAX_CONTEXT] = [f; MAX_CONTEXT];
            let na = self.pending.len().min(self.context);
            for (d, slot) in after.iter_mut().take(na).enumerate() {
                *slot = &all[at + 1 + d];
            }
            features::row(f, &before[..nb], &after[..na], &mut self.row);
        }
        // NOTE: a page block's first-stage scores are only read when the block is decided:
        // its rows are kept and scored together, FIRST_ROWS at a time and then (see
        // `Kernel::score_rows`).
        let (score, keep) = if self.page.is_some() {
            (f32::NAN, false)
        } else {
            self.scorer.decide(&self.row, &mut self.scratch)
        };
        self.decided += 1;
        if self.decided > self.context {
            self.features.pop_front();
            self.decided -= 1;
        }
        let features = self.keep_features.then(|| self.row.clone());
        let hints = if self.wants_hints() {
            let splitter = &self.splitter;
            let tracker = self.hints.get_or_insert_with(|| {
                splitter
                    .head_metadata()
                    .map_or_else(stack::hints::Tracker::unknown, stack::hints::Tracker::of)
            });
            let in_article = line.context & crate::lines::ctx::ARTICLE != 0;
            Some(tracker.line(&line.text, in_article))
        } else {
            None
        };
        let kept_hints = if self.keep_features { hints } else { None };
        if let Some(p) = &mut self.page {
            let weight = self.scorer.stage2_inputs(&self.row, &mut self.base);
            let link_density = self.row[features::column::LINK_DENSITY];
            let landmark = stack::floor::in_landmark(&self.row);
            p.first_rows.extend_from_slice(&self.row);
            if p.first_rows.len() >= FIRST_ROWS * self.row.len() {
                p.score_first(&*self.scorer, self.row.len(), &mut self.scratch);
            }
            if p.push(
                (line, features, kept_hints),
                (weight, link_density, landmark),
                &self.base,
                hints.as_ref(),
            ) {
                self.decide_block(false);
            }
            return;
        }
        match &mut self.window {
            None => self.out.push_back(Decision {
                line,
                score,
                keep,
                features,
                hints: kept_hints,
                template: None,
            }),
            Some(w) => {
                let weight = self.scorer.stage2_inputs(&self.row, &mut self.base);
                w.push((line, features, kept_hints), score, weight, &self.base);
                self.drain_window();
            }
        }
    }

    /// Decides the lines of the current block of the page (page-level second stages), with
    /// the floor of [`stack::floor`] under the decisions: all
    /// of them at the end of the page (`last`), else those before the block's handover to
    /// the next one ([`stack::page::handover`]), whose lines it then starts with.
    fn decide_block(&mut self, last: bool) {
        let Some(p) = &mut self.page else { return };
        if p.lines.is_empty() {
            return;
        }
        p.score_first(&*self.scorer, self.row.len(), &mut self.scratch);
        let n = p.scores.len();
        let handover = if last {
            stack::page::Handover {
                decided_end: n,
                carry_start: n,
            }
        } else {
            stack::page::handover(&p.weights, p.context)
        };
        let decided = handover.decided_end - p.context;
        let range = p.context..handover.decided_end;
        p.decided.clear();
        let short = self.scorer.first_stage_only(n);
        if short {
            let first = p.scores[range.clone()].iter().zip(&p.keeps[range.clone()]);
            p.decided.extend(first.map(|(&s, &k)| (s, k)));
        } else {
            let nb = p.base.len() / n;
            let shape = stack::BlockRows {
                lookahead: p.lookahead,
                repeats: p.repeats,
                hints: p.hints_on,
                base_len: nb,
            };
            let base = &p.base;
            // NOTE: the rows keep the longest length they have had (every value of the
            // block's rows is written): growing them again for every block and page
            // filled them with zeros first.
            let len = n * shape.width();
            if p.rows.len() < len {
                p.rows.resize(len, 0.0);
            }
            stack::block_rows_in(
                shape,
                &p.scores,
                &p.weights,
                &p.paths,
                p.repeats.then_some(&p.sigs[..]),
                p.hints_on.then_some(&p.hints[..]),
                &mut |i, tail| tail.copy_from_slice(&base[i * nb..(i + 1) * nb]),
                &mut p.rows[..len],
            );
            let width = shape.width();
            let rows = &p.rows[p.context * width..(p.context + decided) * width];
            self.scorer.decide_stage2_rows(rows, width, &mut p.decided);
        }
        if !last {
            p.split = true;
        }
        p.settle(
            range,
            if short {
                stack::floor::SHORT
            } else {
                stack::floor::LONG
            },
            self.scorer.keep_threshold(short),
            last,
        );
        self.site_matches.clear();
        if let Some(t) = &self.site {
            t.veto(
                p.lines[..decided].iter().map(|h| &h.0),
                &mut p.decided,
                self.scorer.keep_threshold(short),
                &mut self.site_matches,
            );
        }
        for (i, ((line, features, hints), &(score, keep))) in
            p.lines.drain(..decided).zip(&p.decided).enumerate()
        {
            self.out.push_back(Decision {
                line,
                score,
                keep,
                features,
                hints,
                template: self.site_matches.get(i).copied().flatten(),
            });
        }
        p.carry(handover);
    }

    /// Decides the lines whose second-stage rows are ready.
    fn drain_window(&mut self) {
        let Some(w) = &mut self.window else { return };
        while let Some((held, row)) = w.pop() {
            decide_stage2(&*self.scorer, held, &row, &mut self.out);
        }
    }
}

/// Decides a held line from its second-stage row and queues the decision.
fn decide_stage2(
    scorer: &dyn Scorer,
    (line, features, hints): Held,
    row: &[f32],
    out: &mut VecDeque<Decision>,
) {
    let (score, keep) = scorer.decide_stage2(row);
    out.push_back(Decision {
        line,
        score,
        keep,
        features,
        hints,
        template: None,
    });
}

/// The lines of one block of a page, waiting for a page-level second stage.
#[derive(Debug)]
struct PageBlock {
    lookahead: usize,
    blocks: stack::page::Blocks,
    /// The first lines of the block (of `scores` and the other per-line vectors) that are
    /// context carried over from the previous block, decided there.
    context: usize,
    /// The lines not decided yet: those after the context.
    lines: Vec<Held>,
    /// The first-stage rows of the lines not scored yet (the last ones), one after the
    /// other: scored together, [`FIRST_ROWS`] at a time and when the block is decided.
    first_rows: Vec<f32>,
    /// The first-stage score of each line scored.
    scores: Vec<f32>,
    /// Each line's first-stage decision.
    keeps: Vec<bool>,
    weights: Vec<f32>,
    paths: Vec<[u32; crate::lines::PATH_LEVELS]>,
    /// Whether the stage reads the lines' signatures, and the signatures (empty otherwise).
    repeats: bool,
    sigs: Vec<stack::page::Signature>,
    signer: stack::page::Signer,
    /// Whether the stage reads the page hints, and the lines' hint values, one line after
    /// the other (empty otherwise).
    hints_on: bool,
    hints: Vec<f32>,
    /// The copied first-stage features of each line, one after the other.
    base: Vec<f32>,
    /// The second-stage rows of the block, one after the other (kept for the next block).
    rows: Vec<f32>,
    /// Each line's text and prose bytes ([`stack::floor::line_bytes`]).
    prose: Vec<(u64, u64)>,
    /// Each line's text outside the landmarks ([`stack::floor::body_bytes`]).
    body: Vec<u64>,
    /// Whether a block of the page was decided before this one (the page is longer than
    /// a block, and [`stack::floor::rescue`], which reads a whole page, does not apply).
    split: bool,
    /// The decisions (score, keep) of the lines decided in the block, before they are
    /// queued.
    decided: Vec<(f32, bool)>,
    /// Scratch for the floor: the decisions.
    keep: Vec<bool>,
    floor_scores: Vec<f32>,
    /// Scratch for [`stack::floor::whole_groups`]: the decided lines' groups.
    groups: Vec<u64>,
    /// Scratch for [`stack::floor::settle`]: whether each decided line only repeats the
    /// site's name.
    site_names: Vec<bool>,
    /// Each line's table cell ([`stack::tables::cell_of`]).
    cells: Vec<stack::tables::Cell>,
}

impl PageBlock {
    fn new(lookahead: usize, repeats: bool, hints: bool) -> Self {
        // NOTE: room for a whole block from the start: growing vectors of lines by doubling
        // copied each block's lines several times. Untouched capacity costs no memory.
        let n = stack::page::MAX_LINES;
        PageBlock {
            repeats,
            sigs: Vec::with_capacity(if repeats { n } else { 0 }),
            signer: stack::page::Signer::new(),
            hints_on: hints,
            hints: Vec::with_capacity(if hints {
                n * stack::hints::N_LINE_HINTS
            } else {
                0
            }),
            lookahead,
            blocks: stack::page::Blocks::new(),
            context: 0,
            lines: Vec::with_capacity(n),
            first_rows: Vec::new(),
            scores: Vec::with_capacity(n),
            keeps: Vec::with_capacity(n),
            weights: Vec::with_capacity(n),
            paths: Vec::with_capacity(n),
            base: Vec::new(),
            rows: Vec::new(),
            prose: Vec::with_capacity(n),
            body: Vec::with_capacity(n),
            split: false,
            decided: Vec::new(),
            keep: Vec::new(),
            floor_scores: Vec::new(),
            groups: Vec::new(),
            site_names: Vec::new(),
            cells: Vec::with_capacity(n),
        }
    }

    /// Empties the block for a new page, keeping the room of its buffers: the rows as
    /// they are (every value is written before it is read) and the signatures cached (a
    /// signature depends on its line alone).
    fn reset(&mut self) {
        // NOTE: every field is named, so that a new one cannot be forgotten here.
        let PageBlock {
            lookahead: _,
            blocks,
            context,
            lines,
            first_rows,
            scores,
            keeps,
            weights,
            paths,
            repeats: _,
            sigs,
            signer: _,
            hints_on: _,
            hints,
            base,
            rows: _,
            prose,
            body,
            split,
            decided,
            keep,
            floor_scores,
            groups,
            site_names,
            cells,
        } = self;
        *blocks = stack::page::Blocks::new();
        *context = 0;
        lines.clear();
        first_rows.clear();
        scores.clear();
        keeps.clear();
        weights.clear();
        paths.clear();
        sigs.clear();
        hints.clear();
        base.clear();
        prose.clear();
        body.clear();
        *split = false;
        decided.clear();
        keep.clear();
        floor_scores.clear();
        groups.clear();
        site_names.clear();
        cells.clear();
    }

    /// Applies [`stack::floor::settle`] to the decisions of the block's lines `range` (those
    /// decided in it, after the context, at `threshold`): the lines of the site's name
    /// dropped when the stage reads the page hints, the `floor`, the rescue when the block
    /// is the `last` of a page that was never split (it holds the whole page), and whole
    /// groups when the stage reads the lines' signatures.
    fn settle(
        &mut self,
        range: std::ops::Range<usize>,
        floor: stack::floor::Floor,
        threshold: f32,
        last: bool,
    ) {
        if self.repeats {
            self.groups.clear();
            self.groups.extend(
                self.sigs[range.clone()]
                    .iter()
                    .zip(&self.paths[range.clone()])
                    .map(|(s, p)| stack::floor::group_of(s, p)),
            );
        }
        let groups = self.repeats.then_some(&self.groups[..]);
        if self.hints_on {
            self.site_names.clear();
            let n = stack::hints::N_LINE_HINTS;
            self.site_names.extend(
                self.hints[range.start * n..range.end * n]
                    .chunks_exact(n)
                    .map(stack::hints::site_name_line),
            );
        }
        let site_names = self.hints_on.then_some(&self.site_names[..]);
        let whole_page = last && !self.split;
        let cells = &self.cells[range.clone()];
        let (bytes, body) = (&self.prose[range.clone()], &self.body[range]);
        redecide(
            &mut self.decided,
            &mut self.keep,
            &mut self.floor_scores,
            |scores, keep| {
                let lines = stack::floor::BlockLines {
                    scores,
                    threshold,
                    bytes,
                    body,
                    groups,
                    site_names,
                    cells: Some(cells),
                };
                stack::floor::settle(floor, lines, whole_page, keep)
            },
        );
    }

    /// Adds a line; true when the block is full.
    fn push(
        &mut self,
        (line, features, kept_hints): Held,
        (weight, link_density, landmark): (f32, f32, bool),
        base: &[f32],
        hints: Option<&[f32; stack::hints::N_LINE_HINTS]>,
    ) -> bool {
        if self.hints_on {
            self.hints
                .extend_from_slice(hints.expect("hint values for a stage that reads them"));
        }
        self.prose
            .push(stack::floor::line_bytes(weight, link_density, landmark));
        self.body.push(stack::floor::body_bytes(weight, landmark));
        self.weights.push(weight);
        self.paths.push(line.path);
        let place = stack::tables::Place {
            tag_cell: line.block == crate::lines::Block::Cell,
            tag_block: matches!(
                line.block,
                crate::lines::Block::P | crate::lines::Block::Div
            ),
            in_cell: line.within(crate::lines::ctx::CELL),
        };
        self.cells.push(stack::tables::cell_of(place, &line.path));
        if self.repeats {
            self.sigs.push(self.signer.signature(&line));
        }
        if self.base.capacity() == 0 {
            self.base.reserve(stack::page::MAX_LINES * base.len());
        }
        self.base.extend_from_slice(base);
        self.lines.push((line, features, kept_hints));
        self.blocks.push(weight)
    }

    /// Scores the rows of `first_rows` (each `width` long) together and empties it.
    fn score_first(&mut self, scorer: &dyn Scorer, width: usize, scratch: &mut Vec<f32>) {
        if self.first_rows.is_empty() {
            return;
        }
        self.decided.clear();
        scorer.decide_rows(&self.first_rows, width, scratch, &mut self.decided);
        self.first_rows.clear();
        self.scores.extend(self.decided.iter().map(|&(s, _)| s));
        self.keeps.extend(self.decided.iter().map(|&(_, k)| k));
    }

    /// Drops the lines before `h.carry_start` (the decided lines must have been taken out
    /// of `lines`): the rest start the next block, those before `h.decided_end` as context.
    fn carry(&mut self, h: stack::page::Handover) {
        let k = h.carry_start;
        let nb = if self.scores.is_empty() {
            0
        } else {
            self.base.len() / self.scores.len()
        };
        self.scores.drain(..k);
        self.keeps.drain(..k);
        self.weights.drain(..k);
        self.paths.drain(..k);
        self.cells.drain(..k);
        self.prose.drain(..k);
        self.body.drain(..k);
        if self.repeats {
            self.sigs.drain(..k);
        }
        if self.hints_on {
            self.hints.drain(..k * stack::hints::N_LINE_HINTS);
        }
        self.base.drain(..k * nb);
        self.context = h.decided_end - k;
        self.blocks = stack::page::Blocks::carrying(&self.weights);
        debug_assert_eq!(self.lines.len() + self.context, self.scores.len());
    }
}

/// Lets `add` ([`stack::floor::settle`]) add to the `decided` lines' decisions: it gets their
/// scores and decisions, copied into the scratch vectors `scores` and `keep`, and says
/// whether it added a line.
fn redecide(
    decided: &mut [(f32, bool)],
    keep: &mut Vec<bool>,
    scores: &mut Vec<f32>,
    add: impl FnOnce(&[f32], &mut [bool]) -> bool,
) {
    keep.clear();
    keep.extend(decided.iter().map(|d| d.1));
    scores.clear();
    scores.extend(decided.iter().map(|d| d.0));
    if add(scores, keep) {
        for (d, &k) in decided.iter_mut().zip(keep.iter()) {
            d.1 = k;
        }
    }
}

/// Extracts the main text of a whole document in memory: kept lines joined by `\n`.
///
/// ```
/// use std::sync::Arc;
/// use mainline::{extract_text, Threshold};
/// let text = extract_text(b"<p>Plain words win.</p><ul><li><a href=/x>x</a></li></ul>", Arc::new(Threshold(0.5)))?;
/// assert_eq!(text, "Plain words win.");
/// # Ok::<(), mainline::Error>(())
/// ```
///
/// # Errors
/// As [`Splitter::write`].
pub fn extract_text(html: &[u8], scorer: Arc<dyn Scorer>) -> Result<String> {
    Extractor::new(scorer).whole_text(html)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Keeps a line when the previous and next lines (context 1) are both long.
    struct NeighboursLong;
    impl Scorer for NeighboursLong {
        fn context(&self) -> usize {
            1
        }
        fn decide(&self, row: &[f32], _: &mut Vec<f32>) -> (f32, bool) {
            let names = features::names();
            let p = row[names
                .iter()
                .position(|n| n == "prev1_ln_text_bytes")
                .unwrap()];
            let n = row[names
                .iter()
                .position(|n| n == "next1_ln_text_bytes")
                .unwrap()];
            let s = p.min(n);
            (s, s > 2.0)
        }
        fn describe(&self) -> String {
            "test".into()
        }
    }

    #[test]
    fn decisions_wait_only_for_the_context_lines() {
        let mut ex = Extractor::new(Arc::new(NeighboursLong));
        // NOTE: the splitter holds the first bytes until the encoding is known; a declared
        // charset and a head longer than the prescan window let lines flow at once.
        let head = format!("<meta charset=utf-8><!--{}-->", " ".repeat(1024));
        ex.write(head.as_bytes()).unwrap();
        ex.write(b"<p>first long line</p><p>x</p>").unwrap();
        // "first long line" is decided once "x" has arrived; "x" waits for its next line.
        let d = ex.next_decision().unwrap();
        assert_eq!(d.line.text, "first long line");
        assert!(ex.next_decision().is_none());
        ex.write(b"<p>third long line</p>").unwrap();
        let d = ex.next_decision().unwrap();
        assert_eq!(d.line.text, "x");
        assert!(d.keep, "both neighbours are long");
        ex.end().unwrap();
        assert_eq!(ex.next_decision().unwrap().line.text, "third long line");
        assert!(ex.next_decision().is_none());
    }

    /// Every decision of `html` fed to `ex` in pieces of `piece` bytes.
    fn decisions(ex: &mut Extractor, html: &[u8], piece: usize) -> Result<Vec<Decision>> {
        let mut out = Vec::new();
        for chunk in html.chunks(piece) {
            ex.write(chunk)?;
            out.extend(std::iter::from_fn(|| ex.next_decision()));
        }
        ex.end()?;
        out.extend(std::iter::from_fn(|| ex.next_decision()));
        Ok(out)
    }

    #[test]
    fn a_reset_extractor_decides_as_a_new_one() {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/data/samples");
        let mut pages: Vec<Vec<u8>> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|x| x == "html"))
            .map(|p| std::fs::read(p).unwrap())
            .collect();
        pages.sort();
        assert!(pages.len() >= 5, "the sample pages are there");
        // Eight sample pages and the long one are enough for the property: each page is
        // extracted 36 times below, which costs minutes in a debug build for all samples.
        pages.truncate(8);
        // Longer than a block of the page (stack::page::MAX_LINES lines), in windows-1252.
        let mut long = b"<title>Long</title><ul>".to_vec();
        for i in 0..5000 {
            long.extend(format!("<li><a href=/{i}>Item {i}</a> caf").bytes());
            long.push(0xe9);
            long.extend(format!(" <p>Words of line {i}.").bytes());
        }
        pages.insert(0, long);
        let scorers: Vec<Arc<dyn Scorer>> = vec![
            Arc::new(ModelScorer::builtin()),
            Arc::new(Threshold(0.5)),
            Arc::new(NeighboursLong),
        ];
        for scorer in scorers {
            for settings in 0..3 {
                let make = || {
                    let ex = Extractor::new(Arc::clone(&scorer));
                    match settings {
                        0 => ex,
                        1 => ex
                            .with_structure(true)
                            .with_metadata(true)
                            .with_features(true),
                        _ => ex.with_transport_encoding(Some(encoding_rs::WINDOWS_1252)),
                    }
                };
                let mut reused = make();
                // A page that fails, then a reset; most of a long page, then a reset.
                let png = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR";
                assert!(reused.write(png).and_then(|()| reused.end()).is_err());
                reused.reset();
                reused.write(&pages[0][..pages[0].len() * 3 / 4]).unwrap();
                reused.reset();
                for (i, page) in pages.iter().chain(pages.iter().rev()).enumerate() {
                    let piece = [4096, 1 << 20, 777][i % 3];
                    let mut fresh = make();
                    let want = decisions(&mut fresh, page, piece).unwrap();
                    let got = decisions(&mut reused, page, piece).unwrap();
                    assert_eq!(
                        got,
                        want,
                        "page {i}, settings {settings}, {}",
                        scorer.describe()
                    );
                    assert_eq!(reused.metadata(), fresh.metadata());
                    assert_eq!(reused.splitter().encoding(), fresh.splitter().encoding());
                    reused.reset();
                    // kept_text gives the lines' buffers back for the next pages' lines.
                    let text = reused.kept_text(page).unwrap();
                    assert_eq!(text, make().whole_text(page).unwrap(), "page {i}");
                }
            }
        }
    }

    #[test]
    fn the_threshold_is_strictly_greater() {
        let t = Threshold(0.5);
        let mut row = vec![0.0; N_FEATURES];
        row[0] = 0.5;
        assert!(!t.decide(&row, &mut Vec::new()).1);
        row[0] = 0.51;
        assert!(t.decide(&row, &mut Vec::new()).1);
    }

    #[test]
    fn features_are_attached_on_request() {
        let mut ex = Extractor::new(Arc::new(Threshold(0.5))).with_features(true);
        ex.write(b"<p>hello</p>").unwrap();
        ex.end().unwrap();
        let d = ex.next_decision().unwrap();
        assert_eq!(d.features.unwrap().len(), N_FEATURES);
    }
}
