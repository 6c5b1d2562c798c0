//! Scores the whole-document comparison methods on the WCXB development pages.
//!
//! Ignored by default: it needs the corpus next to the repository, at
//! `../shared/data/wcxb-dev` (`html/NNNN.html.gz` and `ground-truth/NNNN.json`), and takes a
//! while. Run it with
//!
//! ```text
//! cargo test --release --test methods_corpus -- --ignored --nocapture
//! ```
//!
//! Every method runs on every page (none may panic) and the mean page word-F1 is printed:
//! lower-cased `\w+` tokens, bag-of-words overlap for precision and recall, F1 per page
//! (1 when both texts are empty, 0 when only one is), averaged over pages. The text
//! distribution method is also scored with the standard deviation as its spread measure,
//! to show how the mean absolute deviation compares.

use std::collections::HashMap;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::LazyLock;
use std::time::{Duration, Instant};

use mainline::methods::Method;
use mainline::methods::text_distribution::{self, Spread};
use regex::Regex;

static WORD: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"\w+").unwrap());

/// A scored extractor: a method, or a variant of one.
struct Variant {
    name: String,
    run: Box<dyn Fn(&str) -> String + Sync>,
}

fn variants() -> Vec<Variant> {
    let mut all: Vec<Variant> = Method::ALL
        .into_iter()
        .map(|m| Variant {
            name: m.name().to_string(),
            run: Box::new(move |html: &str| m.extract(html)),
        })
        .collect();
    all.push(Variant {
        name: "text-distribution (LV = std dev)".to_string(),
        run: Box::new(|html: &str| {
            text_distribution::extract_with(html, Spread::StandardDeviation)
        }),
    });
    all
}

fn bag(text: &str) -> HashMap<String, usize> {
    let lower = text.to_lowercase();
    let mut counts = HashMap::new();
    for word in WORD.find_iter(&lower) {
        *counts.entry(word.as_str().to_string()).or_insert(0) += 1;
    }
    counts
}

/// Precision, recall and F1 of `predicted` against `gold` as bags of words.
fn score(predicted: &HashMap<String, usize>, gold: &HashMap<String, usize>) -> (f64, f64, f64) {
    let p_total: usize = predicted.values().sum();
    let g_total: usize = gold.values().sum();
    match (p_total, g_total) {
        (0, 0) => return (1.0, 1.0, 1.0),
        (0, _) | (_, 0) => return (0.0, 0.0, 0.0),
        _ => {}
    }
    let overlap: usize = predicted
        .iter()
        .map(|(word, &n)| n.min(gold.get(word).copied().unwrap_or(0)))
        .sum();
    let precision = overlap as f64 / p_total as f64;
    let recall = overlap as f64 / g_total as f64;
    let f1 = if overlap == 0 {
        0.0
    } else {
        2.0 * precision * recall / (precision + recall)
    };
    (precision, recall, f1)
}

fn read_page(path: &Path) -> String {
    let file = std::fs::File::open(path).unwrap();
    let mut bytes = Vec::new();
    flate2::read::MultiGzDecoder::new(file)
        .read_to_end(&mut bytes)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    String::from_utf8_lossy(&bytes).into_owned()
}

fn read_gold(path: &Path) -> String {
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    json["ground_truth"]["main_content"]
        .as_str()
        .unwrap_or_default()
        .to_string()
}

/// Per variant: summed precision, recall, F1, empty outputs and time.
#[derive(Default, Clone)]
struct Totals {
    precision: f64,
    recall: f64,
    f1: f64,
    empty: usize,
    time: Duration,
}

#[test]
#[ignore = "needs the WCXB development pages in ../shared/data/wcxb-dev; slow"]
fn methods_score_on_the_development_corpus() {
    // Run only when asked for (`--ignored`): without the pages this fails, saying why.
    let root = std::env::var_os("MAINLINE_WCXB_DEV").map_or_else(
        || PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/data/wcxb-dev"),
        PathBuf::from,
    );
    assert!(
        root.join("html").is_dir() && root.join("ground-truth").is_dir(),
        "needs the WCXB development pages in {} (html/ and ground-truth/; set \
         MAINLINE_WCXB_DEV to their folder)",
        root.display()
    );
    let mut pages: Vec<(PathBuf, PathBuf)> = std::fs::read_dir(root.join("html"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.to_string_lossy().ends_with(".html.gz"))
        .map(|p| {
            let id = p
                .file_name()
                .unwrap()
                .to_string_lossy()
                .replace(".html.gz", "");
            let gold = root.join("ground-truth").join(format!("{id}.json"));
            (p, gold)
        })
        .filter(|(_, gold)| gold.is_file())
        .collect();
    pages.sort();
    assert!(!pages.is_empty(), "no pages under {}", root.display());

    let variants = variants();
    let started = Instant::now();
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let chunk = pages.len().div_ceil(threads);
    let partials: Vec<Vec<Totals>> = std::thread::scope(|scope| {
        let handles: Vec<_> = pages
            .chunks(chunk)
            .map(|chunk| {
                let variants = &variants;
                scope.spawn(move || {
                    let mut totals = vec![Totals::default(); variants.len()];
                    for (html_path, gold_path) in chunk {
                        let html = read_page(html_path);
                        let gold = bag(&read_gold(gold_path));
                        for (variant, total) in variants.iter().zip(&mut totals) {
                            let t = Instant::now();
                            let text = (variant.run)(&html);
                            total.time += t.elapsed();
                            let (p, r, f) = score(&bag(&text), &gold);
                            total.precision += p;
                            total.recall += r;
                            total.f1 += f;
                            total.empty += usize::from(text.trim().is_empty());
                        }
                    }
                    totals
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    let wall = started.elapsed();

    let n = pages.len() as f64;
    println!(
        "\n{} pages, {threads} threads, {:.1} s wall\n",
        pages.len(),
        wall.as_secs_f64()
    );
    println!(
        "{:<34} {:>7} {:>9} {:>7} {:>6} {:>10}",
        "method", "mean F1", "precision", "recall", "empty", "ms/page"
    );
    for (i, variant) in variants.iter().enumerate() {
        let mut sum = Totals::default();
        for partial in &partials {
            let t = &partial[i];
            sum.precision += t.precision;
            sum.recall += t.recall;
            sum.f1 += t.f1;
            sum.empty += t.empty;
            sum.time += t.time;
        }
        println!(
            "{:<34} {:>7.4} {:>9.4} {:>7.4} {:>6} {:>10.2}",
            variant.name,
            sum.f1 / n,
            sum.precision / n,
            sum.recall / n,
            sum.empty,
            sum.time.as_secs_f64() * 1000.0 / n
        );
    }
}
