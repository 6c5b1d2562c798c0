//! Throughput of mainline's stages against the tokenizer it stands on, over the same bytes.
//!
//! ```text
//! cargo run --release --example throughput -- ../shared/data/wcxb-dev/html
//! ```
//!
//! Reads every `.html`/`.html.gz` file of the given folders (or files) into memory,
//! decompressed, then times, on one thread, each stage over all pages, one page at a time:
//! lol_html with no handlers, lol_html with element + text handlers on "*", the line
//! splitter, and the whole filter with the fixed threshold and with the built-in model.
//! Prints MB/s of uncompressed HTML (1 MB = 10^6 bytes); the best of `--rounds` runs.
//! `ONLY=text` runs only the stages whose name contains `text` (for profiling one stage).

use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

use lol_html::{HtmlRewriter, Settings, doc_text, element};
use mainline::extract::{Extractor, Scorer, Threshold};
use mainline::lines::Splitter;

fn load(paths: &[PathBuf]) -> Vec<Vec<u8>> {
    let mut files = Vec::new();
    for p in paths {
        if p.is_dir() {
            let mut entries: Vec<PathBuf> = std::fs::read_dir(p)
                .unwrap()
                .map(|e| e.unwrap().path())
                .collect();
            entries.sort();
            files.extend(entries);
        } else {
            files.push(p.clone());
        }
    }
    files
        .iter()
        .filter(|f| mainline::corpus::page_stem(f).is_some())
        .map(|f| {
            let mut bytes = Vec::new();
            mainline::input::open(Path::new(f))
                .unwrap()
                .read_to_end(&mut bytes)
                .unwrap();
            bytes
        })
        .collect()
}

fn time(name: &str, pages: &[Vec<u8>], rounds: usize, mut run: impl FnMut(&[u8])) {
    if let Ok(only) = std::env::var("ONLY") {
        if !name.contains(&only) {
            return;
        }
    }
    let bytes: usize = pages.iter().map(Vec::len).sum();
    let mut best = f64::MAX;
    for _ in 0..rounds {
        let start = Instant::now();
        for page in pages {
            run(page);
        }
        best = best.min(start.elapsed().as_secs_f64());
    }
    println!(
        "{name:<44} {:>8.1} MB/s  ({:.3} s for {:.1} MB)",
        bytes as f64 / best / 1e6,
        best,
        bytes as f64 / 1e6
    );
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
    let pages = load(&paths);
    println!("{} pages, one thread, best of {rounds}", pages.len());

    time("lol_html, no handlers", &pages, rounds, |page| {
        let mut r = HtmlRewriter::new(Settings::new().with_strict(false), |_: &[u8]| {});
        r.write(page).unwrap();
        r.end().unwrap();
    });
    time(
        "lol_html, element + text handlers on \"*\"",
        &pages,
        rounds,
        |page| {
            let mut n = 0usize;
            let mut t = 0usize;
            {
                let settings = Settings::new()
                    .with_strict(false)
                    .append_element_content_handler(element!("*", |_el| {
                        n += 1;
                        Ok(())
                    }))
                    .append_element_content_handler(lol_html::text!("*", |c| {
                        t += c.as_str().len();
                        Ok(())
                    }));
                let mut r = HtmlRewriter::new(settings, |_: &[u8]| {});
                r.write(page).unwrap();
                r.end().unwrap();
            }
            std::hint::black_box((n, t));
        },
    );
    time(
        "lol_html, + end-tag and document text handlers",
        &pages,
        rounds,
        |page| {
            let n = std::cell::Cell::new(0usize);
            let mut t = 0usize;
            {
                let settings = Settings::new()
                    .with_strict(false)
                    .append_element_content_handler(element!("*", |el| {
                        n.set(n.get() + 1);
                        if let Some(h) = el.end_tag_handlers() {
                            h.push(lol_html::end_tag!(|_end| Ok(())));
                        }
                        Ok(())
                    }))
                    .append_document_content_handler(doc_text!(|c| {
                        t += c.as_str().len();
                        Ok(())
                    }));
                let mut r = HtmlRewriter::new(settings, |_: &[u8]| {});
                r.write(page).unwrap();
                r.end().unwrap();
            }
            std::hint::black_box((n.get(), t));
        },
    );
    time("mainline line splitter", &pages, rounds, |page| {
        let mut s = Splitter::new();
        s.write(page).unwrap();
        s.end().unwrap();
        while let Some(l) = s.next_line() {
            std::hint::black_box(l);
        }
    });
    let scorers: Vec<(&str, Arc<dyn Scorer>)> = vec![
        ("mainline filter, threshold 0.5", Arc::new(Threshold(0.5))),
        (
            "mainline filter, built-in model",
            Arc::new(mainline::extract::ModelScorer::builtin()),
        ),
    ];
    for (name, scorer) in scorers {
        time(name, &pages, rounds, |page| {
            let mut ex = Extractor::new(Arc::clone(&scorer));
            ex.write(page).unwrap();
            ex.end().unwrap();
            while let Some(d) = ex.next_decision() {
                std::hint::black_box(d);
            }
        });
    }
}
