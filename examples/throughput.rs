//! Throughput of mainline's stages against the tokenizer it stands on, over the same bytes.
//!
//! ```text
//! cargo run --release --example throughput -- ../shared/data/wcxb-dev/html
//! ```
//!
//! Reads every `.html`/`.html.gz` file of the given folders (or files) into memory,
//! decompressed, then times, on one thread, each stage over all pages, one page at a time:
//! lol_html with no handlers, lol_html with element + text handlers on "*", lol_html with
//! the handlers the splitter registers, the line splitter, feature extraction and model
//! scoring (on lines and rows prepared beforehand), and the whole filter with the fixed
//! threshold and with the built-in model, the filter as the command runs it (64 KiB
//! reads, text written as lines are decided, one extractor for all pages), and with the
//! built-in model writing Markdown and JSON documents. Prints MB/s of uncompressed HTML (1 MB = 10^6
//! bytes) and the ratio to lol_html with element + text handlers; the best of `--rounds`
//! runs. `ONLY=text` runs only the stages whose name contains `text` (for profiling one
//! stage). The stages are those of `benches/throughput.rs`.

#[path = "../benches/common/stages.rs"]
mod stages;

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

use mainline::internals::lines::Line;
use mainline::{Scorer, Threshold};

/// Times `run` over all pages; returns MB/s (or None when skipped by `ONLY`).
fn time(
    name: &str,
    bytes: usize,
    rounds: usize,
    reference: Option<f64>,
    mut run: impl FnMut(),
) -> Option<f64> {
    if let Ok(only) = std::env::var("ONLY") {
        if !name.contains(&only) {
            return None;
        }
    }
    let mut best = f64::MAX;
    for _ in 0..rounds {
        let start = Instant::now();
        run();
        best = best.min(start.elapsed().as_secs_f64());
    }
    let mbs = bytes as f64 / best / 1e6;
    let ratio = reference.map_or(String::new(), |r| format!("  {:>5.2} × e+t", mbs / r));
    println!(
        "{name:<44} {mbs:>8.1} MB/s  ({best:.3} s for {:.1} MB){ratio}",
        bytes as f64 / 1e6
    );
    Some(mbs)
}

fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let mut rounds = 3;
    if let Some(i) = args.iter().position(|a| a == "--rounds") {
        rounds = args[i + 1].parse().expect("--rounds N");
        args.drain(i..=i + 1);
    }
    let paths: Vec<PathBuf> = args.iter().map(PathBuf::from).collect();
    assert!(
        !paths.is_empty(),
        "usage: throughput [--rounds N] DIR_OR_FILE..."
    );
    let pages = stages::load(&paths, 1);
    let bytes: usize = pages.iter().map(Vec::len).sum();
    println!("{} pages, one thread, best of {rounds}", pages.len());

    time("lol_html, no handlers", bytes, rounds, None, || {
        pages.iter().for_each(|p| stages::lol_html_bare(p))
    });
    let et = time(
        "lol_html, element + text handlers on \"*\"",
        bytes,
        rounds,
        None,
        || pages.iter().for_each(|p| stages::lol_html_element_text(p)),
    );
    time(
        "lol_html, + end-tag and document text handlers",
        bytes,
        rounds,
        et,
        || {
            pages
                .iter()
                .for_each(|p| stages::lol_html_end_tags_doc_text(p))
        },
    );
    time("mainline line splitter", bytes, rounds, et, || {
        pages.iter().for_each(|p| stages::splitter(p))
    });
    let scorers: Vec<(&str, Arc<dyn Scorer>)> = vec![
        ("threshold 0.5", Arc::new(Threshold(0.5))),
        // NOTE: the built-in model the library's `Options` use (parsed once per process),
        // so that the JSON stage does not pay for parsing it a second time.
        (
            "built-in model",
            mainline::Options::new().scorer_or_builtin(),
        ),
    ];
    if std::env::var("ONLY").is_err() {
        let lines: Vec<Vec<Line>> = pages.iter().map(|p| stages::split(p)).collect();
        time(
            "mainline features (lines split beforehand)",
            bytes,
            rounds,
            et,
            || lines.iter().for_each(|l| stages::line_features(l)),
        );
        let rows: Vec<Vec<f32>> = lines.iter().map(|l| stages::rows(l)).collect();
        let mut scratch = Vec::new();
        let (_, model) = &scorers[1];
        time(
            "mainline scoring, built-in model (rows ready)",
            bytes,
            rounds,
            et,
            || {
                rows.iter()
                    .for_each(|r| stages::score(r, model.as_ref(), &mut scratch))
            },
        );
    }
    for (name, scorer) in &scorers {
        time(
            &format!("mainline filter, {name}"),
            bytes,
            rounds,
            et,
            || pages.iter().for_each(|p| stages::filter(p, scorer)),
        );
    }
    // As the command runs it: 64 KiB reads, text written as lines are decided.
    let options = mainline::Options::new();
    let mut ex = mainline::output::Sink::new(&options, None).extractor();
    let mut out = Vec::new();
    time(
        "mainline filter command, built-in model",
        bytes,
        rounds,
        et,
        || {
            pages
                .iter()
                .for_each(|p| stages::command(p, &options, &mut ex, &mut out))
        },
    );
    let (_, model) = &scorers[1];
    time(
        "mainline filter, markdown, built-in model",
        bytes,
        rounds,
        et,
        || pages.iter().for_each(|p| stages::markdown(p, model)),
    );
    // As `filter --format json` builds it: no Markdown, so no structure.
    let options = mainline::Options::new().markdown_structure(false);
    time(
        "mainline filter, json, built-in model",
        bytes,
        rounds,
        et,
        || pages.iter().for_each(|p| stages::json(p, &options)),
    );
}
