//! Measures mainline's documents: Markdown against text, the confidence estimate, and
//! metadata against Mozilla Readability's.
//!
//! ```text
//! cargo run --release --example documents -- f1 ../shared/data/wcxb-dev
//! cargo run --release --example documents -- metadata ../shared/data/readability-tests/pages
//! ```
//!
//! `f1`: for every page of a corpus (built-in model), the word F1 against the gold text of
//! the text and of the Markdown with its syntax stripped (`mainline::internals::markdown::strip`),
//! averaged over pages; then the confidence estimate (`mainline::internals::confidence`): 5-fold
//! cross-validation grouped by site of a ridge regression of the page F1 on the page
//! features, the Spearman rank correlation of the held-out predictions with the real F1,
//! and the weights fitted on all pages (as Rust, for `src/confidence.rs`).
//!
//! `metadata`: for every page folder with `source.html` and `expected-metadata.json`, how
//! often mainline's title, author, description, language, site name and published date
//! agree with Readability's title, byline, excerpt, lang, siteName and publishedTime (both
//! absent, or equal after collapsing whitespace; dates by their first 10 characters).

// NOTE: the least-squares code below indexes matrices by row and column, which reads
// better than iterators here.
#![allow(clippy::needless_range_loop)]

use std::path::{Path, PathBuf};

use rayon::prelude::*;

use mainline::internals::confidence::{FEATURES, Weights, features};
use mainline_training::corpus::Corpus;
use mainline_training::eval::word_scores;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.as_slice() {
        [mode, dir] if mode == "f1" => f1(Path::new(dir)),
        [mode, dir] if mode == "metadata" => metadata(Path::new(dir)),
        _ => {
            eprintln!("usage: documents f1 CORPUS_DIR | documents metadata PAGES_DIR");
            std::process::exit(2);
        }
    }
}

struct PageResult {
    group: String,
    text_f1: f64,
    markdown_f1: f64,
    features: [f64; 8],
}

fn f1(dir: &Path) {
    let corpus = Corpus::open(dir).expect("a corpus");
    let results: Vec<PageResult> = corpus
        .pages
        .par_iter()
        .filter_map(|page| {
            let html = std::fs::read(&page.html).ok()?;
            let doc = mainline::extract(&html).ok()?;
            Some(PageResult {
                group: page.group.clone(),
                text_f1: word_scores(doc.text(), &page.gold).f1,
                markdown_f1: word_scores(
                    &mainline::internals::markdown::strip(doc.markdown()),
                    &page.gold,
                )
                .f1,
                features: features(doc.lines()),
            })
        })
        .collect();
    let n = results.len() as f64;
    let text = results.iter().map(|r| r.text_f1).sum::<f64>() / n;
    let md = results.iter().map(|r| r.markdown_f1).sum::<f64>() / n;
    let worst = results
        .iter()
        .map(|r| (r.markdown_f1 - r.text_f1).abs())
        .fold(0.0, f64::max);
    let differ = results
        .iter()
        .filter(|r| (r.markdown_f1 - r.text_f1).abs() > 1e-9)
        .count();
    println!("{} pages", results.len());
    println!("mean word F1, text:                      {text:.4}");
    println!(
        "mean word F1, Markdown, syntax stripped: {md:.4}  (difference {:+.4})",
        md - text
    );
    println!("pages whose two F1 differ: {differ}; largest difference on a page: {worst:.4}");

    // Confidence: grouped 5-fold cross-validation of a ridge regression.
    let fold_of = |g: &str| {
        let mut h: u64 = 0xcbf29ce484222325;
        for b in g.bytes() {
            h = (h ^ u64::from(b)).wrapping_mul(0x100000001b3);
        }
        (h % 5) as usize
    };
    let mut predicted = vec![0.0; results.len()];
    for fold in 0..5 {
        let train: Vec<&PageResult> = results
            .iter()
            .filter(|r| fold_of(&r.group) != fold)
            .collect();
        let w = fit(&train, 1.0);
        for (i, r) in results.iter().enumerate() {
            if fold_of(&r.group) == fold {
                predicted[i] = w.predict(&r.features);
            }
        }
    }
    let real: Vec<f64> = results.iter().map(|r| r.text_f1).collect();
    println!(
        "confidence: Spearman rank correlation of held-out predictions with page F1 \
         (5 folds by site): {:.3}; Pearson {:.3}",
        spearman(&predicted, &real),
        pearson(&predicted, &real)
    );
    let all: Vec<&PageResult> = results.iter().collect();
    let w = fit(&all, 1.0);
    println!("weights fitted on all pages (features {FEATURES:?}):");
    println!("{w:#?}");
}

/// Ridge regression of the text F1 on the standardised features.
fn fit(pages: &[&PageResult], lambda: f64) -> Weights {
    let n = pages.len() as f64;
    let mut mean = [0.0; 8];
    let mut std = [0.0; 8];
    for p in pages {
        for i in 0..8 {
            mean[i] += p.features[i] / n;
        }
    }
    for p in pages {
        for i in 0..8 {
            std[i] += (p.features[i] - mean[i]).powi(2) / n;
        }
    }
    for s in &mut std {
        *s = s.sqrt();
    }
    let z = |p: &PageResult, i: usize| {
        if std[i] > 0.0 {
            (p.features[i] - mean[i]) / std[i]
        } else {
            0.0
        }
    };
    let intercept = pages.iter().map(|p| p.text_f1).sum::<f64>() / n;
    // Normal equations (ZᵀZ + λI) w = Zᵀ(y − ȳ).
    let mut a = [[0.0; 9]; 8];
    for p in pages {
        for i in 0..8 {
            for j in 0..8 {
                a[i][j] += z(p, i) * z(p, j);
            }
            a[i][8] += z(p, i) * (p.text_f1 - intercept);
        }
    }
    for (i, row) in a.iter_mut().enumerate() {
        row[i] += lambda;
    }
    // Gaussian elimination with partial pivoting.
    for col in 0..8 {
        let pivot = (col..8)
            .max_by(|&x, &y| a[x][col].abs().total_cmp(&a[y][col].abs()))
            .expect("rows");
        a.swap(col, pivot);
        for row in 0..8 {
            if row != col {
                let f = a[row][col] / a[col][col];
                for k in col..9 {
                    a[row][k] -= f * a[col][k];
                }
            }
        }
    }
    let mut weight = [0.0; 8];
    for i in 0..8 {
        weight[i] = a[i][8] / a[i][i];
    }
    Weights {
        mean,
        std,
        weight,
        intercept,
    }
}

fn ranks(v: &[f64]) -> Vec<f64> {
    let mut idx: Vec<usize> = (0..v.len()).collect();
    idx.sort_by(|&a, &b| v[a].total_cmp(&v[b]));
    let mut r = vec![0.0; v.len()];
    let mut i = 0;
    while i < idx.len() {
        let mut j = i;
        while j + 1 < idx.len() && v[idx[j + 1]] == v[idx[i]] {
            j += 1;
        }
        let avg = (i + j) as f64 / 2.0;
        for k in i..=j {
            r[idx[k]] = avg;
        }
        i = j + 1;
    }
    r
}

fn pearson(a: &[f64], b: &[f64]) -> f64 {
    let n = a.len() as f64;
    let (ma, mb) = (a.iter().sum::<f64>() / n, b.iter().sum::<f64>() / n);
    let cov: f64 = a.iter().zip(b).map(|(x, y)| (x - ma) * (y - mb)).sum();
    let va: f64 = a.iter().map(|x| (x - ma).powi(2)).sum();
    let vb: f64 = b.iter().map(|y| (y - mb).powi(2)).sum();
    cov / (va.sqrt() * vb.sqrt())
}

fn spearman(a: &[f64], b: &[f64]) -> f64 {
    pearson(&ranks(a), &ranks(b))
}

fn metadata(dir: &Path) {
    let mut pages: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect("a folder of pages")
        .filter_map(|e| Some(e.ok()?.path()))
        .filter(|p| p.join("source.html").is_file() && p.join("expected-metadata.json").is_file())
        .collect();
    pages.sort();
    // (ours, Readability's)
    let fields = [
        ("title", "title"),
        ("author", "byline"),
        ("description", "excerpt"),
        ("language", "lang"),
        ("site_name", "siteName"),
        ("published", "publishedTime"),
    ];
    let mut agree = [0usize; 6];
    let mut both = [0usize; 6];
    let mut theirs = [0usize; 6];
    let norm = |v: &serde_json::Value| -> Option<String> {
        let s = v.as_str()?.split_whitespace().collect::<Vec<_>>().join(" ");
        (!s.is_empty()).then_some(s)
    };
    for p in &pages {
        let html = std::fs::read(p.join("source.html")).expect("source.html");
        let expected: serde_json::Value =
            serde_json::from_slice(&std::fs::read(p.join("expected-metadata.json")).unwrap())
                .expect("JSON");
        let doc = mainline::extract(&html).expect("a document");
        let ours = doc.to_json();
        for (k, (o, t)) in fields.iter().enumerate() {
            let (a, b) = (norm(&ours[o]), norm(&expected[t]));
            let same = match (&a, &b) {
                (None, None) => true,
                (Some(x), Some(y)) if *t == "publishedTime" => {
                    x.get(..10).is_some() && x.get(..10) == y.get(..10)
                }
                (Some(x), Some(y)) => x == y,
                _ => false,
            };
            agree[k] += usize::from(same);
            theirs[k] += usize::from(b.is_some());
            both[k] += usize::from(b.is_some() && same);
        }
    }
    println!(
        "{} pages; agreement with Readability's expected metadata:",
        pages.len()
    );
    println!(
        "{:<28} {:>9} {:>22}",
        "field (ours / theirs)", "agree", "agree where they have one"
    );
    for (k, (o, t)) in fields.iter().enumerate() {
        println!(
            "{:<28} {:>8.1}% {:>13}/{:<4} {:>5.1}%",
            format!("{o} / {t}"),
            100.0 * agree[k] as f64 / pages.len() as f64,
            both[k],
            theirs[k],
            100.0 * both[k] as f64 / theirs[k].max(1) as f64
        );
    }
}
