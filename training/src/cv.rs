//! Cross-validation by site: train on some domains, score pages of the others.
//!
//! The labelled CSV (from `mainline label`) holds every line of every page with its
//! features, text and label. [`cross_validate`] splits the *domains* into `k` folds
//! ([`crate::train::group_kfold`]); for each fold it trains every [`Recipe`] on the lines of
//! the other folds (holding out a fifth of those domains for early stopping and the
//! threshold) and decides the held-out lines. A held-out page's predicted text is its kept
//! lines joined by newlines, exactly what `mainline filter` prints for it, since the
//! features in the CSV are the ones the streaming filter computes. Pages are scored against
//! their gold text by word F1 ([`crate::eval::word_scores`]), lines by their labels.

use std::collections::HashMap;
use std::ops::Range;
use std::path::Path;
use std::str::FromStr;

use ndarray::Axis;

use crate::eval::{self, Confusion, WordScores};
use crate::train::{self, Augment, Dataset, ModelType, TrainParams, Variant};
use mainline::internals::features::{self, FeatureSet};
use mainline::{Error, Result};

/// How a method is made: the fixed threshold, or a classifier on a feature set with a
/// context width. Written `threshold`, `logistic/seed/1`, `mlp/full/3`, or with an explicit
/// feature list for the seed experiment's attribute counts: `mlp/density+ln_html_bytes/2`.
#[derive(Debug, Clone, PartialEq)]
pub enum Recipe {
    /// The seed's fixed rule: keep a line when its density is above the value.
    Threshold(f32),
    /// A trained classifier.
    Trained {
        /// Logistic regression or MLP.
        model: ModelType,
        /// The attributes per line: a feature set, or a list of seed attributes.
        features: Attributes,
        /// Neighbour lines on each side.
        context: usize,
        /// A second stage on the first-stage scores of this many lines on each side
        /// (written `/stackK` after the context), trained on out-of-fold scores.
        stack: Option<usize>,
        /// Whether the second stage also reads the page-level inputs
        /// ([`mainline::internals::second_stage::page`]); written `/pageK` instead of `/stackK`.
        page: bool,
    },
}

/// The seed design's experiment: the fixed rule `density > threshold`, then logistic and
/// MLP classifiers on 1–3 attributes per line (1A density, 2A + HTML bytes, 3A + text
/// length) with 1–3 lines of context on each side (1L–3L).
pub fn seed_table(threshold: f32) -> Vec<Recipe> {
    let attrs = [
        vec!["density"],
        vec!["density", "ln_html_bytes"],
        vec!["density", "ln_html_bytes", "ln_text_bytes"],
    ];
    let mut recipes = vec![Recipe::Threshold(threshold)];
    for model in [ModelType::Logistic, ModelType::Mlp] {
        for context in 1..=3 {
            for a in &attrs {
                recipes.push(Recipe::Trained {
                    model,
                    features: Attributes::List(a.iter().map(|s| s.to_string()).collect()),
                    context,
                    stack: None,
                    page: false,
                });
            }
        }
    }
    recipes
}

/// Which attributes a trained recipe uses.
#[derive(Debug, Clone, PartialEq)]
pub enum Attributes {
    /// A named feature set.
    Set(FeatureSet),
    /// These attributes for the line and each neighbour (names of [`features::NEIGHBOUR`]).
    List(Vec<String>),
}

impl Recipe {
    /// The feature columns the recipe trains on.
    pub fn columns(&self) -> Vec<String> {
        match self {
            Recipe::Threshold(_) => vec!["density".to_string()],
            Recipe::Trained {
                features, context, ..
            } => match features {
                Attributes::Set(set) => features::select(*set, *context),
                Attributes::List(attrs) => {
                    let mut cols: Vec<String> = attrs.clone();
                    for side in ["prev", "next"] {
                        for k in 1..=*context {
                            cols.extend(attrs.iter().map(|a| format!("{side}{k}_{a}")));
                        }
                    }
                    cols
                }
            },
        }
    }
}

impl std::fmt::Display for Recipe {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Recipe::Threshold(t) => write!(f, "threshold {t}"),
            Recipe::Trained {
                model,
                features,
                context,
                stack,
                page,
            } => {
                let feats = match features {
                    Attributes::Set(FeatureSet::Seed) => "seed".to_string(),
                    Attributes::Set(FeatureSet::Full) => "full".to_string(),
                    Attributes::List(a) => a.join("+"),
                };
                write!(f, "{model}/{feats}/{context}")?;
                if let Some(k) = stack {
                    let word = if *page { "page" } else { "stack" };
                    write!(f, "/{word}{k}")?;
                }
                Ok(())
            }
        }
    }
}

impl FromStr for Recipe {
    type Err = Error;

    fn from_str(s: &str) -> Result<Self> {
        let bad = || {
            Error::Other(format!(
                "recipe {s:?} is not understood: write threshold, threshold=X, or \
                 MODEL/FEATURES/CONTEXT[/stackK|/pageK] such as logistic/seed/1, mlp/full/3 \
                 or mlp/full/1/stack8 (MODEL: logistic, mlp or trees; FEATURES: seed, full, or \
                 attributes joined by +; stackK: a second stage on K lines each side; \
                 pageK: the same with page-level inputs)"
            ))
        };
        if s == "threshold" {
            return Ok(Recipe::Threshold(0.5));
        }
        if let Some(t) = s.strip_prefix("threshold=") {
            return t.parse().map(Recipe::Threshold).map_err(|_| bad());
        }
        let parts: Vec<&str> = s.split('/').collect();
        let (model, feats, context, stack, page) = match parts[..] {
            [m, f, c] => (m, f, c, None, false),
            [m, f, c, st] => {
                let (rest, page) = match st.strip_prefix("page") {
                    Some(rest) => (Some(rest), true),
                    None => (st.strip_prefix("stack"), false),
                };
                let k: usize = rest.and_then(|k| k.parse().ok()).ok_or_else(bad)?;
                if k > mainline::internals::second_stage::MAX_LOOKAHEAD {
                    return Err(bad());
                }
                (m, f, c, Some(k), page)
            }
            _ => return Err(bad()),
        };
        let model: ModelType = model.parse().map_err(|_| bad())?;
        let context: usize = context.parse().map_err(|_| bad())?;
        if context > features::MAX_CONTEXT {
            return Err(bad());
        }
        let features = match feats {
            "seed" => Attributes::Set(FeatureSet::Seed),
            "full" => Attributes::Set(FeatureSet::Full),
            list => {
                let attrs: Vec<String> = list.split('+').map(String::from).collect();
                if attrs
                    .iter()
                    .any(|a| !features::NEIGHBOUR.iter().any(|(n, _)| n == a))
                {
                    return Err(bad());
                }
                Attributes::List(attrs)
            }
        };
        Ok(Recipe::Trained {
            model,
            features,
            context,
            stack,
            page,
        })
    }
}

/// The labelled lines of a corpus, grouped into pages, with each page's gold text.
#[derive(Debug)]
pub struct CvData {
    /// All feature columns of every line.
    pub data: Dataset,
    /// Each line's text.
    pub texts: Vec<String>,
    /// The pages: id, group, rows, page type and gold text.
    pub pages: Vec<CvPage>,
    /// Each line's enclosing elements, when the CSV has a `path` column.
    pub paths: Option<Vec<[u32; mainline::internals::lines::PATH_LEVELS]>>,
    /// Each line's [`mainline::internals::second_stage::page::signature`], when the CSV has a `sig` column.
    pub sigs: Option<Vec<mainline::internals::second_stage::page::Signature>>,
    /// Each line's page hint values ([`mainline::internals::second_stage::hints`]), when the CSV has a `hints`
    /// column.
    pub hints: Option<Vec<[f32; mainline::internals::second_stage::hints::N_LINE_HINTS]>>,
    /// Whether each line's page aligned well with its gold text, when the CSV has an
    /// `aligned` column.
    pub aligned: Option<Vec<bool>>,
    /// The variant each line's page was rewritten as (`None`: the page as written), when
    /// the CSV has a `variant` column (`mainline label --augment`).
    pub variants: Option<Vec<Option<Variant>>>,
}

/// One page of [`CvData`].
#[derive(Debug, Clone)]
pub struct CvPage {
    /// Page id (the CSV's `doc`).
    pub doc: String,
    /// Its site.
    pub group: String,
    /// Its rows in [`CvData::data`] (pages are contiguous in the CSV).
    pub rows: Range<usize>,
    /// Page type, when known.
    pub page_type: Option<String>,
    /// Gold main text.
    pub gold: String,
    /// The variant the page was rewritten as (`None`: the page as written).
    pub variant: Option<Variant>,
}

impl CvData {
    /// Reads a labelled CSV and attaches the gold text of each page from `corpus`.
    ///
    /// Pages of the corpus with no lines in the CSV (for example pages whose HTML could not
    /// be read) are included with no rows, so they score as empty predictions. Without a
    /// corpus, pages have no gold text: only line results are meaningful.
    ///
    /// # Errors
    /// As [`train::read_labelled_csv`]; [`Error::Corpus`] when the CSV names a page the
    /// corpus does not have, or a page's lines are not contiguous; [`Error::Csv`] when a
    /// variant's page id is not its page's id followed by `@` and the variant's name.
    pub fn load(csv: &Path, corpus: Option<&crate::corpus::Corpus>) -> Result<CvData> {
        let data = train::read_labelled_csv(csv, None)?;
        let texts = read_texts(csv)?;
        if texts.len() != data.len() {
            return Err(Error::Csv {
                path: csv.to_path_buf(),
                message: format!("read {} texts for {} rows", texts.len(), data.len()),
            });
        }
        let variants = train::read_variants(csv)?;
        let by_id: HashMap<&str, &crate::corpus::Page> = corpus
            .map(|c| c.pages.iter().map(|p| (p.id.as_str(), p)).collect())
            .unwrap_or_default();
        let mut pages: Vec<CvPage> = Vec::new();
        let mut seen: HashMap<String, usize> = HashMap::new();
        let mut start = 0;
        for i in 1..=data.len() {
            if i == data.len() || data.docs[i] != data.docs[start] {
                let doc = data.docs[start].clone();
                let variant = variants.as_ref().and_then(|v| v[start]);
                let id = match variant {
                    None => doc.as_str(),
                    Some(v) => train::original_doc(&doc, v).ok_or_else(|| Error::Csv {
                        path: csv.to_path_buf(),
                        message: format!(
                            "page {doc:?} is of variant {v}, but its id does not end in \"@{v}\""
                        ),
                    })?,
                };
                let page = by_id.get(id);
                if corpus.is_some() && page.is_none() {
                    return Err(Error::Corpus {
                        path: csv.to_path_buf(),
                        message: format!("the CSV has page {doc:?}, which the corpus does not"),
                    });
                }
                if seen.insert(doc.clone(), pages.len()).is_some() {
                    return Err(Error::Csv {
                        path: csv.to_path_buf(),
                        message: format!("the lines of page {doc:?} are not contiguous"),
                    });
                }
                pages.push(CvPage {
                    doc,
                    group: data.groups[start].clone(),
                    rows: start..i,
                    page_type: page.and_then(|p| p.page_type.clone()),
                    gold: page.map(|p| p.gold.clone()).unwrap_or_default(),
                    variant,
                });
                start = i;
            }
        }
        // Every variant the CSV has, for every page of the corpus: a page without lines
        // (as written or rewritten) scores as an empty prediction. The related and short
        // variants apply to some pages only (articles; pages with content): the pages they
        // have no lines of are the others.
        let mut in_csv: Vec<Option<Variant>> = vec![None];
        for p in &pages {
            if !in_csv.contains(&p.variant) && p.variant.is_some_and(Variant::markup_only) {
                in_csv.push(p.variant);
            }
        }
        for &variant in &in_csv {
            for p in corpus.map(|c| c.pages.as_slice()).unwrap_or_default() {
                let doc = variant.map_or_else(|| p.id.clone(), |v| train::variant_doc(&p.id, v));
                if !seen.contains_key(&doc) {
                    pages.push(CvPage {
                        doc,
                        group: p.group.clone(),
                        rows: 0..0,
                        page_type: p.page_type.clone(),
                        gold: p.gold.clone(),
                        variant,
                    });
                }
            }
        }
        let paths = train::read_paths(csv)?;
        let sigs = train::read_signatures(csv)?;
        let hints = train::read_hints(csv)?;
        let aligned = train::read_aligned(csv)?;
        Ok(CvData {
            data,
            texts,
            pages,
            paths,
            sigs,
            hints,
            aligned,
            variants,
        })
    }
}

fn read_texts(csv: &Path) -> Result<Vec<String>> {
    let err = |e: csv::Error| Error::Csv {
        path: csv.to_path_buf(),
        message: e.to_string(),
    };
    let mut reader = csv::Reader::from_path(csv).map_err(err)?;
    let idx = reader
        .headers()
        .map_err(err)?
        .iter()
        .position(|h| h == "text")
        .ok_or_else(|| Error::Csv {
            path: csv.to_path_buf(),
            message: "missing column \"text\" (write the CSV with mainline label)".into(),
        })?;
    let mut texts = Vec::new();
    let mut record = csv::StringRecord::new();
    while reader.read_record(&mut record).map_err(err)? {
        texts.push(record.get(idx).unwrap_or("").to_string());
    }
    Ok(texts)
}

/// One page's result under one recipe.
#[derive(Debug, Clone, serde::Serialize)]
pub struct PageResult {
    /// Page id.
    pub doc: String,
    /// Its site.
    pub group: String,
    /// Page type, when known.
    pub page_type: Option<String>,
    /// The fold the page was held out in.
    pub fold: usize,
    /// The variant the page was rewritten as (`None`: the page as written).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub variant: Option<Variant>,
    /// Word precision, recall and F1 against the gold text.
    pub scores: WordScores,
    /// Labelled lines of the page.
    pub lines: usize,
    /// Of those, lines decided against their label.
    pub line_errors: usize,
}

/// All results of one recipe.
#[derive(Debug, Clone, serde::Serialize)]
pub struct RecipeResult {
    /// The recipe, as written.
    pub recipe: String,
    /// Per page, in corpus order.
    pub pages: Vec<PageResult>,
    /// Line decisions against the labels, over all held-out lines of the pages as written.
    pub lines: Confusion,
    /// The same over the lines of each page variant the CSV has, by variant.
    pub variant_lines: Vec<(Variant, Confusion)>,
    /// Each line's held-out decision (keep or not), in the rows' order.
    #[serde(skip)]
    pub keep: Vec<bool>,
    /// Each line's held-out score and the threshold it was compared with, in the rows'
    /// order: the density and the fixed value for a threshold recipe, otherwise the
    /// deciding model's score (kept when it is at least the threshold).
    #[serde(skip)]
    pub scores: Vec<(f32, f32)>,
}

/// Options of [`cross_validate`].
#[derive(Debug, Clone)]
pub struct CvOptions {
    /// Number of folds.
    pub folds: usize,
    /// Seed for the fold assignment and training.
    pub seed: u64,
    /// Training parameters shared by all trained recipes (model type, features and context
    /// come from each recipe).
    pub params: TrainParams,
    /// Second-stage parameters of stacked recipes (the lookahead comes from each recipe).
    pub stack: train::StackParams,
    /// Whether the pages that aligned poorly with their gold text ([`CvData::aligned`])
    /// are left out of training; they are still scored.
    pub skip_poorly_aligned: bool,
    /// Which rows of page variants ([`CvData::variants`]) train; all are scored.
    pub augment: Augment,
}

/// Cross-validates `recipes` on `cv`, calling `progress` with a message after each training.
///
/// # Errors
/// When a recipe names a feature the CSV lacks, or training fails on a fold.
pub fn cross_validate(
    cv: &CvData,
    recipes: &[Recipe],
    options: &CvOptions,
    progress: &mut dyn FnMut(&str),
) -> Result<Vec<RecipeResult>> {
    // Folds are assigned on the pages as written (so a CSV with variants splits its sites
    // as one without them); a variant's page goes with its site.
    let originals: Vec<usize> = (0..cv.pages.len())
        .filter(|&p| cv.pages[p].variant.is_none())
        .collect();
    let page_groups: Vec<String> = originals
        .iter()
        .map(|&p| cv.pages[p].group.clone())
        .collect();
    let original_fold = train::group_kfold(&page_groups, options.folds, options.seed);
    let group_fold: HashMap<&str, usize> = page_groups
        .iter()
        .zip(&original_fold)
        .map(|(g, &f)| (g.as_str(), f))
        .collect();
    let page_fold: Vec<usize> = cv
        .pages
        .iter()
        .map(|p| group_fold.get(p.group.as_str()).copied().unwrap_or(0))
        .collect();
    let mut row_fold = vec![0usize; cv.data.len()];
    for (p, page) in cv.pages.iter().enumerate() {
        for r in page.rows.clone() {
            row_fold[r] = page_fold[p];
        }
    }
    if options.skip_poorly_aligned && cv.aligned.is_none() {
        return Err(Error::Other(
            "leaving poorly aligned pages out of training needs the CSV's \"aligned\" column; \
             write it again with this build's mainline label"
                .into(),
        ));
    }
    let row_variant = |r: usize| cv.variants.as_ref().and_then(|v| v[r]);
    let trainable = |r: usize| {
        (!options.skip_poorly_aligned || cv.aligned.as_ref().is_none_or(|a| a[r]))
            && options
                .augment
                .trains(row_variant(r), cv.data.docs[r].as_str())
    };
    let mut results = Vec::new();
    for recipe in recipes {
        let columns = recipe.columns();
        let idx: Vec<usize> = columns
            .iter()
            .map(|c| {
                cv.data.feature_index(c).ok_or_else(|| {
                    Error::FeatureMismatch(format!(
                        "the CSV has no column {c:?} needed by {recipe}"
                    ))
                })
            })
            .collect::<Result<_>>()?;
        let mut keep = vec![false; cv.data.len()];
        let mut scores = vec![(0.0f32, 0.0f32); cv.data.len()];
        match recipe {
            Recipe::Threshold(t) => {
                for (r, k) in keep.iter_mut().enumerate() {
                    let density = cv.data.x[[r, idx[0]]];
                    *k = density > *t;
                    scores[r] = (density, *t);
                }
            }
            Recipe::Trained {
                model,
                context,
                stack,
                page,
                ..
            } => {
                let base = match stack {
                    Some(_) => {
                        let inputs = train::StageInputs::of(&cv.data, &options.stack.base)?;
                        let inputs = match (&cv.paths, &cv.sigs, page) {
                            (Some(paths), Some(sigs), true) if options.stack.repeats => inputs
                                .with_paths(paths.clone())?
                                .with_signatures(sigs.clone())?,
                            (Some(paths), _, true) => inputs.with_paths(paths.clone())?,
                            _ => inputs,
                        };
                        let inputs = match (&cv.hints, page) {
                            (Some(hints), true) if options.stack.hints => {
                                inputs.with_hints(hints.clone())?
                            }
                            _ => inputs,
                        };
                        // Variant rows train, but the thresholds are chosen on the pages
                        // as written.
                        Some(match &cv.variants {
                            Some(v) => {
                                inputs.with_variants(v.iter().map(Option::is_some).collect())?
                            }
                            None => inputs,
                        })
                    }
                    None => None,
                };
                let sub = Dataset {
                    features: columns.clone(),
                    x: cv.data.x.select(Axis(1), &idx),
                    y: cv.data.y.clone(),
                    groups: cv.data.groups.clone(),
                    docs: cv.data.docs.clone(),
                };
                for fold in 0..options.folds {
                    let train_all: Vec<usize> = (0..sub.len())
                        .filter(|&r| row_fold[r] != fold && trainable(r))
                        .collect();
                    let test: Vec<usize> =
                        (0..sub.len()).filter(|&r| row_fold[r] == fold).collect();
                    if test.is_empty() {
                        continue;
                    }
                    let mut params = options.params.clone();
                    params.model = *model;
                    params.context = *context;
                    params.seed = options.seed.wrapping_add(fold as u64);
                    if let (Some(k), Some(base)) = (stack, &base) {
                        let stack_params = train::StackParams {
                            lookahead: *k,
                            page: *page,
                            ..options.stack.clone()
                        };
                        let (m, _) = train::train_stacked(
                            &sub,
                            base,
                            &train_all,
                            &params,
                            &stack_params,
                            &mut |m| progress(&format!("{recipe}: fold {}: {m}", fold + 1)),
                        )?;
                        let decided = train::score_stacked(&m, &sub, base, &test);
                        let kept = train::keep_stacked(&m, &sub, base, &test, &decided);
                        for ((&r, scored), k) in test.iter().zip(decided).zip(kept) {
                            keep[r] = k;
                            scores[r] = scored;
                        }
                        continue;
                    }
                    let train_groups: Vec<String> =
                        train_all.iter().map(|&r| sub.groups[r].clone()).collect();
                    let (t_idx, v_idx) = train::group_split(
                        &train_groups,
                        options.params.val_fraction,
                        options.seed.wrapping_add(fold as u64),
                    );
                    let train_rows: Vec<usize> = t_idx.iter().map(|&i| train_all[i]).collect();
                    let val_rows: Vec<usize> = v_idx.iter().map(|&i| train_all[i]).collect();
                    let (m, report) =
                        train::train_on_rows(&sub, &train_rows, &val_rows, &params, &mut |_| {})?;
                    let mut row = Vec::with_capacity(columns.len());
                    for &r in &test {
                        row.clear();
                        row.extend(sub.x.row(r).iter().copied());
                        let score = m.score(&row);
                        keep[r] = score >= m.threshold;
                        scores[r] = (score, m.threshold);
                    }
                    progress(&format!(
                        "{recipe}: fold {}/{}: {} epochs, validation line F1 {:.3}",
                        fold + 1,
                        options.folds,
                        report.epochs_run,
                        report.validation.f1
                    ));
                }
            }
        }
        let mut lines = Confusion::default();
        let mut variant_lines: Vec<(Variant, Confusion)> = Vec::new();
        for (r, &k) in keep.iter().enumerate() {
            match row_variant(r) {
                None => lines.add(k, cv.data.y[r]),
                Some(v) => {
                    let at = match variant_lines.iter().position(|(w, _)| *w == v) {
                        Some(at) => at,
                        None => {
                            variant_lines.push((v, Confusion::default()));
                            variant_lines.len() - 1
                        }
                    };
                    variant_lines[at].1.add(k, cv.data.y[r]);
                }
            }
        }
        variant_lines.sort_by_key(|(v, _)| *v);
        let pages = cv
            .pages
            .iter()
            .zip(&page_fold)
            .map(|(page, &fold)| {
                let text: Vec<&str> = page
                    .rows
                    .clone()
                    .filter(|&r| keep[r])
                    .map(|r| cv.texts[r].as_str())
                    .collect();
                PageResult {
                    doc: page.doc.clone(),
                    group: page.group.clone(),
                    page_type: page.page_type.clone(),
                    fold,
                    variant: page.variant,
                    scores: eval::word_scores(&text.join("\n"), &page.gold),
                    lines: page.rows.len(),
                    line_errors: page
                        .rows
                        .clone()
                        .filter(|&r| keep[r] != cv.data.y[r])
                        .count(),
                }
            })
            .collect();
        results.push(RecipeResult {
            recipe: recipe.to_string(),
            pages,
            lines,
            variant_lines,
            keep,
            scores,
        });
    }
    Ok(results)
}

/// Site mode ([`mainline::site`]) over the held-out decisions of `result`: each page's
/// template is learnt from its site's other pages as written (all in the page's fold, so
/// never from training data, and the page is not its own evidence), and its kept lines are
/// vetoed as the extractor vetoes them. Returns the result as "RECIPE \[site\]"; the pages
/// of variants are left as they were decided.
///
/// # Errors
/// When the CSV has no `sig` column (the lines' structure).
pub fn by_site(
    cv: &CvData,
    result: &RecipeResult,
    settings: mainline::site::Settings,
) -> Result<RecipeResult> {
    use mainline::site::{PageTemplate, SiteTable};
    use std::sync::Arc;
    let sigs = cv.sigs.as_ref().ok_or_else(|| {
        Error::Other(
            "site mode needs the lines' structure, the CSV's \"sig\" column: label again".into(),
        )
    })?;
    let fp = |r: usize| {
        mainline::internals::second_stage::page::fingerprint_of(sigs[r][1], &cv.texts[r])
    };
    let mut tables: HashMap<&str, SiteTable> = HashMap::new();
    for (i, p) in cv.pages.iter().enumerate() {
        if p.variant.is_none() && !p.rows.is_empty() {
            let t = tables.entry(p.group.as_str()).or_default();
            t.add(i as u64, p.rows.clone().filter_map(fp));
        }
    }
    let tables: HashMap<&str, Arc<SiteTable>> =
        tables.into_iter().map(|(k, v)| (k, Arc::new(v))).collect();
    let mut out = result.clone();
    out.recipe = format!("{} [site]", result.recipe);
    let (mut fps, mut site_lines, mut decided, mut matches) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    for (page, scored) in cv.pages.iter().zip(out.pages.iter_mut()) {
        let Some(table) = tables.get(page.group.as_str()) else {
            continue;
        };
        if page.variant.is_some() || page.rows.is_empty() {
            continue;
        }
        let template = PageTemplate::of_table(Arc::clone(table), true, settings);
        fps.clear();
        fps.extend(page.rows.clone().map(fp));
        site_lines.clear();
        site_lines.extend(page.rows.clone().map(|r| mainline::site::SiteLine {
            text_bytes: cv.texts[r].len() as u64,
            near: sigs[r][0],
            text: sigs[r][2],
        }));
        decided.clear();
        decided.extend(
            page.rows
                .clone()
                .map(|r| (out.scores[r].0 - out.scores[r].1, out.keep[r])),
        );
        template.veto_fingerprints(&fps, &site_lines, &mut decided, 0.0, &mut matches);
        for (r, &(_, k)) in page.rows.clone().zip(&decided) {
            out.keep[r] = k;
        }
        let text: Vec<&str> = page
            .rows
            .clone()
            .filter(|&r| out.keep[r])
            .map(|r| cv.texts[r].as_str())
            .collect();
        scored.scores = eval::word_scores(&text.join("\n"), &page.gold);
        scored.line_errors = page
            .rows
            .clone()
            .filter(|&r| out.keep[r] != cv.data.y[r])
            .count();
    }
    let mut lines = Confusion::default();
    for (r, &k) in out.keep.iter().enumerate() {
        if cv.variants.as_ref().and_then(|v| v[r]).is_none() {
            lines.add(k, cv.data.y[r]);
        }
    }
    out.lines = lines;
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn recipes_parse_and_print_back() {
        for s in [
            "logistic/seed/1",
            "mlp/full/3",
            "mlp/density+ln_html_bytes/2",
            "mlp/full/1/stack8",
            "mlp/full/1/page8",
        ] {
            assert_eq!(s.parse::<Recipe>().unwrap().to_string(), s);
        }
        assert_eq!(
            "threshold".parse::<Recipe>().unwrap(),
            Recipe::Threshold(0.5)
        );
        assert!("mlp/full/9".parse::<Recipe>().is_err());
        assert!("svm/full/1".parse::<Recipe>().is_err());
        assert!("mlp/nonsense/1".parse::<Recipe>().is_err());
    }

    #[test]
    fn attribute_lists_expand_over_the_context() {
        let r: Recipe = "logistic/density+ln_text_bytes/1".parse().unwrap();
        assert_eq!(
            r.columns(),
            [
                "density",
                "ln_text_bytes",
                "prev1_density",
                "prev1_ln_text_bytes",
                "next1_density",
                "next1_ln_text_bytes"
            ]
        );
        let seed: Recipe = "logistic/seed/2".parse().unwrap();
        assert_eq!(seed.columns(), features::select(FeatureSet::Seed, 2));
    }
}
