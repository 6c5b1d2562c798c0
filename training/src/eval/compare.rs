//! Comparing extraction methods: the fixed threshold and models on the lines of a labelled
//! CSV, and any method (threshold, model, comparison algorithm) on the pages of a corpus,
//! with the benchmark's word scores and bootstrap intervals. `mainline eval` prints and
//! writes what these return.

use std::path::Path;
use std::sync::Arc;
use std::time::Instant;

use serde::Serialize;

use super::{Confusion, WordScores, bootstrap_ci, mean, word_scores};
use crate::corpus::Corpus;
use crate::methods::Method;
use mainline::internals::extract::{ModelScorer, Scorer, Threshold, extract_text};
use mainline::internals::model::Model;
use mainline::{Error, Result};

/// Line results of one method.
#[derive(Debug, Clone, Serialize)]
pub struct MethodLines {
    /// The method's name, as reported.
    pub method: String,
    /// Its confusion counts against the labels.
    pub lines: Confusion,
}

/// One page's scores under one method.
#[derive(Debug, Clone, Serialize)]
pub struct PageScore {
    /// The page's id.
    pub doc: String,
    /// Its group (site).
    pub group: String,
    /// Its page type, when the corpus knows it.
    pub page_type: Option<String>,
    /// Word precision, recall and F1 against the gold text.
    pub scores: WordScores,
    /// Cross-validation: the page's labelled lines and how many were decided wrongly.
    pub lines: Option<(usize, usize)>,
}

/// Page scores of one method.
#[derive(Debug, Clone, Serialize)]
pub struct MethodPages {
    /// The method's name, as reported.
    pub method: String,
    /// One score per page, in corpus order.
    pub pages: Vec<PageScore>,
    /// Seconds spent extracting (page level on a corpus only).
    pub seconds: Option<f64>,
    /// Bytes of HTML extracted.
    pub bytes: u64,
}

/// Scores the fixed rule `density > threshold` and each of `models` (named) on the lines of
/// a labelled CSV (from `mainline label`), the rule first.
///
/// # Errors
/// When the CSV cannot be read or lacks a column a model reads.
pub fn line_level(
    csv: &Path,
    models: &[(String, Model)],
    threshold: f32,
) -> Result<Vec<MethodLines>> {
    let density = crate::train::read_labelled_csv(csv, Some(&["density".to_string()]))?;
    let mut results = vec![MethodLines {
        method: format!("density > {threshold}"),
        lines: confusion(
            (0..density.len()).map(|i| density.x[[i, 0]] > threshold),
            &density.y,
        ),
    }];
    for (name, model) in models {
        let data = crate::train::read_labelled_csv(csv, Some(&model.features))?;
        let mut row = Vec::with_capacity(model.features.len());
        let keep = (0..data.len()).map(|i| {
            row.clear();
            row.extend(data.x.row(i).iter().copied());
            model.keep(&row)
        });
        results.push(MethodLines {
            method: name.clone(),
            lines: confusion(keep, &data.y),
        });
    }
    Ok(results)
}

fn confusion(predicted: impl Iterator<Item = bool>, truth: &[bool]) -> Confusion {
    let mut c = Confusion::default();
    for (p, &t) in predicted.zip(truth) {
        c.add(p, t);
    }
    c
}

/// A method that extracts whole pages.
pub enum PageMethod {
    /// The streaming extractor with a scorer (the threshold, the built-in model or a model
    /// file), and its name.
    Streaming(String, Arc<dyn Scorer>),
    /// A DOM-based comparison algorithm.
    Dom(Method),
}

impl PageMethod {
    /// The method's name, as reported.
    pub fn name(&self) -> String {
        match self {
            PageMethod::Streaming(name, _) => name.clone(),
            PageMethod::Dom(m) => m.name().to_string(),
        }
    }

    /// The methods named (`threshold`, `builtin`, a comparison algorithm's name, or `all`
    /// for every one; none: all), then one per model.
    ///
    /// # Errors
    /// An unknown name, or a model the extractor cannot use.
    pub fn from_names(
        names: &[String],
        models: &[(String, Model)],
        threshold: f32,
    ) -> Result<Vec<PageMethod>> {
        let mut names: Vec<String> = names.to_vec();
        if names.is_empty() || names.iter().any(|n| n == "all") {
            names = ["threshold", "builtin"].map(String::from).to_vec();
            names.extend(Method::ALL.iter().map(|m| m.name().to_string()));
        }
        let mut methods = Vec::new();
        for name in names {
            methods.push(match name.as_str() {
                "threshold" => PageMethod::Streaming(
                    format!("density > {threshold}"),
                    Arc::new(Threshold(threshold)),
                ),
                "builtin" => {
                    PageMethod::Streaming("built-in model".into(), Arc::new(ModelScorer::builtin()))
                }
                other => PageMethod::Dom(
                    other
                        .parse::<Method>()
                        .map_err(|e| Error::Other(format!("{e} (or threshold, builtin, all)")))?,
                ),
            });
        }
        for (name, model) in models {
            let scorer = ModelScorer::new(model.clone())
                .map_err(|e| Error::Other(format!("cannot use the model {name}: {e}")))?;
            methods.push(PageMethod::Streaming(name.clone(), Arc::new(scorer)));
        }
        Ok(methods)
    }
}

/// Runs every method on every page of `corpus`, whose HTML (decompressed) is `htmls`, in
/// the same order: pages are held in memory so that the timings measure extraction alone.
/// A page a method fails on scores as an empty text, and `progress` hears of it, as of
/// each method's time.
pub fn page_level(
    corpus: &Corpus,
    htmls: &[Vec<u8>],
    methods: &[PageMethod],
    progress: &mut dyn FnMut(&str),
) -> Vec<MethodPages> {
    let bytes: u64 = htmls.iter().map(|h| h.len() as u64).sum();
    let mut out = Vec::new();
    for method in methods {
        let mut texts = Vec::with_capacity(htmls.len());
        let started = Instant::now();
        for (page, html) in corpus.pages.iter().zip(htmls) {
            let text = match method {
                PageMethod::Streaming(_, scorer) => extract_text(html, Arc::clone(scorer)),
                PageMethod::Dom(m) => m.try_extract(&decode(html)),
            };
            match text {
                Ok(t) => texts.push(t),
                Err(e) => {
                    progress(&format!(
                        "mainline: {}: {}: {e}",
                        page.html.display(),
                        method.name()
                    ));
                    texts.push(String::new());
                }
            }
        }
        let seconds = started.elapsed().as_secs_f64();
        let pages = corpus
            .pages
            .iter()
            .zip(&texts)
            .map(|(page, text)| PageScore {
                doc: page.id.clone(),
                group: page.group.clone(),
                page_type: page.page_type.clone(),
                scores: word_scores(text, &page.gold),
                lines: None,
            })
            .collect();
        progress(&format!("{}: {:.1} s", method.name(), seconds));
        out.push(MethodPages {
            method: method.name(),
            pages,
            seconds: Some(seconds),
            bytes,
        });
    }
    out
}

/// Decodes a whole page to UTF-8 for the DOM methods, with the same encoding rules as the
/// streaming splitter.
fn decode(html: &[u8]) -> String {
    let encoding = mainline::internals::input::sniff(html, true).encoding;
    let (text, _, _) = encoding.decode(html);
    text.into_owned()
}

/// Mean word precision, recall and F1 of some pages, each with its 95% bootstrap interval:
/// `(mean, low, high)`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Summary {
    /// How many pages.
    pub n: usize,
    /// Word precision.
    pub precision: (f64, f64, f64),
    /// Word recall.
    pub recall: (f64, f64, f64),
    /// Word F1.
    pub f1: (f64, f64, f64),
}

/// The [`Summary`] of `scores`, intervals from `resamples` bootstrap resamples drawn with
/// `seed`.
///
/// ```
/// use mainline_training::eval::{summarize, word_scores};
///
/// let pages = [word_scores("a b", "a b"), word_scores("a", "a b")];
/// let s = summarize(&pages.iter().collect::<Vec<_>>(), 100, 7);
/// assert_eq!(s.n, 2);
/// assert_eq!(s.precision.0, 1.0);
/// assert!(s.f1.1 <= s.f1.0 && s.f1.0 <= s.f1.2);
/// ```
pub fn summarize(scores: &[&WordScores], resamples: usize, seed: u64) -> Summary {
    let stat = |f: &dyn Fn(&WordScores) -> f64| {
        let v: Vec<f64> = scores.iter().map(|s| f(s)).collect();
        let (lo, hi) = bootstrap_ci(&v, resamples, 0.95, seed);
        (mean(&v), lo, hi)
    };
    Summary {
        n: scores.len(),
        precision: stat(&|s| s.precision),
        recall: stat(&|s| s.recall),
        f1: stat(&|s| s.f1),
    }
}

/// The page types of the first method's pages, sorted, each once.
pub fn page_types(methods: &[MethodPages]) -> Vec<String> {
    let mut t: Vec<String> = methods
        .first()
        .map(|m| m.pages.iter().filter_map(|p| p.page_type.clone()).collect())
        .unwrap_or_default();
    t.sort();
    t.dedup();
    t
}
