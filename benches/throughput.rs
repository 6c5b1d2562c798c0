//! Throughput of each stage of mainline, in MB/s of HTML, against lol_html on its own.
//!
//! ```text
//! cargo bench --bench throughput            # all stages, both page sets
//! cargo bench --bench throughput -- filter  # the stages whose name contains "filter"
//! ```
//!
//! Page sets: `samples` (the pages under `data/samples/`) and, when the folder
//! `../shared/data/wcxb-dev/html/` exists beside the crate, `wcxb-dev` (every 10th of its
//! pages; `MAINLINE_BENCH_EVERY=1` takes them all). Pages are decompressed into memory
//! before anything is timed. Each stage runs over all pages of a set, one page at a time,
//! on one thread. See BENCHMARKS.md for results.

// NOTE: criterion_group! defines an undocumented public function.
#![allow(missing_docs)]

#[path = "common/stages.rs"]
mod stages;

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use mainline::internals::lines::Line;
use mainline::{ModelScorer, Scorer, Threshold};

fn page_sets() -> Vec<(&'static str, Vec<Vec<u8>>)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut sets = vec![("samples", stages::load(&[root.join("data/samples")], 1))];
    let wcxb: PathBuf = root.join("../shared/data/wcxb-dev/html");
    if wcxb.is_dir() {
        let every = std::env::var("MAINLINE_BENCH_EVERY")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(10);
        sets.push(("wcxb-dev", stages::load(&[wcxb], every)));
    }
    sets
}

fn throughput(c: &mut Criterion) {
    let model: Arc<dyn Scorer> = Arc::new(ModelScorer::builtin());
    let threshold: Arc<dyn Scorer> = Arc::new(Threshold(0.5));
    for (set, pages) in page_sets() {
        let bytes: u64 = pages.iter().map(|p| p.len() as u64).sum();
        let lines: Vec<Vec<Line>> = pages.iter().map(|p| stages::split(p)).collect();
        let rows: Vec<Vec<f32>> = lines.iter().map(|l| stages::rows(l)).collect();

        let mut g = c.benchmark_group(set);
        // NOTE: decimal bytes, so that criterion prints MB/s (10^6 bytes) like
        // examples/throughput.rs and BENCHMARKS.md.
        g.throughput(Throughput::BytesDecimal(bytes));
        g.sample_size(10);
        g.warm_up_time(Duration::from_secs(1));
        g.measurement_time(Duration::from_secs(3));

        g.bench_function("lol_html/no-handlers", |b| {
            b.iter(|| pages.iter().for_each(|p| stages::lol_html_bare(p)))
        });
        g.bench_function("lol_html/element+text", |b| {
            b.iter(|| pages.iter().for_each(|p| stages::lol_html_element_text(p)))
        });
        g.bench_function("lol_html/end-tag+doc-text", |b| {
            b.iter(|| {
                pages
                    .iter()
                    .for_each(|p| stages::lol_html_end_tags_doc_text(p))
            })
        });
        g.bench_function("splitter", |b| {
            b.iter(|| pages.iter().for_each(|p| stages::splitter(p)))
        });
        g.bench_function("features", |b| {
            b.iter(|| lines.iter().for_each(|l| stages::line_features(l)))
        });
        let mut scratch = Vec::new();
        for (name, scorer) in [("model", &model), ("threshold", &threshold)] {
            g.bench_function(BenchmarkId::new("score", name), |b| {
                b.iter(|| {
                    rows.iter()
                        .for_each(|r| stages::score(r, scorer.as_ref(), &mut scratch))
                })
            });
        }
        for (name, scorer) in [("model", &model), ("threshold", &threshold)] {
            g.bench_function(BenchmarkId::new("filter", name), |b| {
                b.iter(|| pages.iter().for_each(|p| stages::filter(p, scorer)))
            });
        }
        g.finish();
    }
}

criterion_group!(benches, throughput);
criterion_main!(benches);
