//! Scores the whole-document comparison methods on the WCXB development pages.
//!
//! Ignored by default: it needs the corpus beside the repository, at
//! `../shared/data/wcxb-dev` (`html/NNNN.html.gz` and `ground-truth/NNNN.json`; or set
//! `MAINLINE_WCXB_DEV`), and takes a while. Run it with
//!
//! ```text
//! cargo test --release --test methods_corpus -- --ignored --nocapture
//! ```
//!
//! Every method runs on every page with gold text, decoded as `mainline eval` decodes it;
//! none may panic or fail on a page, and each method's mean page word F1 (the benchmark's
//! measure, `crate::eval::word_scores`) must stay at or above a floor: the figure in
//! README.md, which `mainline eval --corpus WCXB-DEV --method all` gives, less 0.01. The
//! methods are fixed algorithms (nothing is trained), so the margin only absorbs changes to
//! the shared parser; a method that loses its way falls below it. The text distribution
//! method is also scored with the standard deviation as its spread measure, to show how the
//! mean absolute deviation compares.

use std::time::{Duration, Instant};

use super::corpus::{in_parallel, open, page_bytes, wcxb_dev};
use crate::eval::{mean, word_scores};
use crate::methods::Method;
use crate::methods::text_distribution::{self, Spread};

/// An extractor of a page's main text from the page decoded.
type Extract = Box<dyn Fn(&str) -> mainline::Result<String> + Sync>;

/// A scored extractor: a method, or a variant of one, and the lowest mean page F1 it may
/// score.
struct Variant {
    name: String,
    floor: f64,
    run: Extract,
}

/// The README's figure for a method, less the margin.
fn floor(method: Method) -> f64 {
    let readme = match method {
        Method::MostLinked => 0.7668,
        Method::TextDistribution => 0.6676,
        Method::Eatiht => 0.5563,
        Method::LteRatio => 0.5464,
    };
    readme - 0.01
}

fn variants() -> Vec<Variant> {
    let mut all: Vec<Variant> = Method::ALL
        .into_iter()
        .map(|m| Variant {
            name: m.name().to_string(),
            floor: floor(m),
            run: Box::new(move |html: &str| m.try_extract(html)),
        })
        .collect();
    all.push(Variant {
        name: "text-distribution (LV = std dev)".to_string(),
        // Not in the README: 0.6216 when this was written, less the margin.
        floor: 0.6216 - 0.01,
        run: Box::new(|html: &str| {
            Ok(text_distribution::extract_with(
                html,
                Spread::StandardDeviation,
            ))
        }),
    });
    all
}

/// A page decoded to UTF-8 with the splitter's encoding rules, as `mainline eval` decodes
/// it for these methods.
fn decode(html: &[u8]) -> String {
    let encoding = mainline::internals::input::sniff(html, true).encoding;
    encoding.decode(html).0.into_owned()
}

/// One variant on one page.
struct Outcome {
    f1: f64,
    precision: f64,
    recall: f64,
    empty: bool,
    time: Duration,
    error: Option<String>,
}

#[test]
#[ignore = "needs the WCXB development pages (../shared/data/wcxb-dev or MAINLINE_WCXB_DEV); slow"]
fn methods_score_on_the_development_corpus() {
    let corpus = open(&wcxb_dev());
    let variants = variants();
    let started = Instant::now();
    let pages: Vec<Vec<Outcome>> = in_parallel(&corpus.pages, |page| {
        let html = decode(&page_bytes(&page.html));
        variants
            .iter()
            .map(|variant| {
                let t = Instant::now();
                let result = (variant.run)(&html);
                let time = t.elapsed();
                let text = result.as_deref().unwrap_or_default();
                let scores = word_scores(text, &page.gold);
                Outcome {
                    f1: scores.f1,
                    precision: scores.precision,
                    recall: scores.recall,
                    empty: text.trim().is_empty(),
                    time,
                    error: result.err().map(|e| format!("{}: {e}", page.id)),
                }
            })
            .collect()
    });
    let wall = started.elapsed();

    let n = pages.len();
    println!("\n{n} pages, {:.1} s wall\n", wall.as_secs_f64());
    println!(
        "{:<34} {:>7} {:>9} {:>7} {:>6} {:>10}",
        "method", "mean F1", "precision", "recall", "empty", "ms/page"
    );
    let mut failures = Vec::new();
    for (i, variant) in variants.iter().enumerate() {
        let of = |f: fn(&Outcome) -> f64| mean(&pages.iter().map(|p| f(&p[i])).collect::<Vec<_>>());
        let f1 = of(|o| o.f1);
        let time: Duration = pages.iter().map(|p| p[i].time).sum();
        println!(
            "{:<34} {:>7.4} {:>9.4} {:>7.4} {:>6} {:>10.2}",
            variant.name,
            f1,
            of(|o| o.precision),
            of(|o| o.recall),
            pages.iter().filter(|p| p[i].empty).count(),
            time.as_secs_f64() * 1000.0 / n as f64
        );
        let errors: Vec<&str> = pages.iter().filter_map(|p| p[i].error.as_deref()).collect();
        if !errors.is_empty() {
            failures.push(format!(
                "{}: failed on {} pages: {}",
                variant.name,
                errors.len(),
                errors.join("; ")
            ));
        }
        if f1 < variant.floor {
            failures.push(format!(
                "{}: mean page word F1 {f1:.4} below its floor {:.4}",
                variant.name, variant.floor
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
