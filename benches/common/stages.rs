//! The stages whose throughput is measured, shared by `benches/throughput.rs` (criterion)
//! and `examples/throughput.rs` (a best-of-N timer): lol_html on its own, the line
//! splitter, feature extraction, model scoring and the whole filter.
#![allow(dead_code)]

use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use lol_html::{HtmlRewriter, Settings, doc_text, element};
use mainline::internals::features::{self, LineFeatures, MAX_CONTEXT, N_FEATURES};
use mainline::internals::lines::{Line, Splitter};
use mainline::{Extractor, Scorer};

/// The pages (`.html`, `.html.gz`, …) of the given folders (sorted by name) or files,
/// decompressed into memory. With `every` = n, only every n-th page of each folder.
pub fn load(paths: &[PathBuf], every: usize) -> Vec<Vec<u8>> {
    let mut files = Vec::new();
    for p in paths {
        if p.is_dir() {
            let mut entries: Vec<PathBuf> = std::fs::read_dir(p)
                .expect("a readable folder")
                .map(|e| e.expect("a readable folder entry").path())
                .filter(|f| mainline_training::corpus::page_stem(f).is_some())
                .collect();
            entries.sort();
            files.extend(entries.into_iter().step_by(every.max(1)));
        } else {
            files.push(p.clone());
        }
    }
    files.iter().map(|f| read(f)).collect()
}

fn read(path: &Path) -> Vec<u8> {
    let mut bytes = Vec::new();
    mainline::internals::input::open(path)
        .expect("a readable page")
        .read_to_end(&mut bytes)
        .expect("a readable page");
    bytes
}

/// lol_html with no handlers: the tokenizer's floor.
pub fn lol_html_bare(page: &[u8]) {
    let mut r = HtmlRewriter::new(Settings::new().with_strict(false), |_: &[u8]| {});
    r.write(page).expect("lol_html accepts the page");
    r.end().expect("lol_html accepts the page");
}

/// lol_html with an element and a text handler on "*": the reference the filter is
/// compared with.
pub fn lol_html_element_text(page: &[u8]) {
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
        r.write(page).expect("lol_html accepts the page");
        r.end().expect("lol_html accepts the page");
    }
    std::hint::black_box((n, t));
}

/// lol_html with what the splitter registers: an end-tag handler on every element and a
/// document text handler.
pub fn lol_html_end_tags_doc_text(page: &[u8]) {
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
        r.write(page).expect("lol_html accepts the page");
        r.end().expect("lol_html accepts the page");
    }
    std::hint::black_box((n.get(), t));
}

/// The line splitter, lines taken and dropped.
pub fn splitter(page: &[u8]) {
    for line in split(page) {
        std::hint::black_box(line);
    }
}

/// The lines of a page.
pub fn split(page: &[u8]) -> Vec<Line> {
    let mut s = Splitter::new();
    s.write(page).expect("the splitter accepts the page");
    s.end().expect("the splitter accepts the page");
    std::iter::from_fn(|| s.next_line()).collect()
}

/// Feature extraction: the base features of every line (already split).
pub fn line_features(lines: &[Line]) {
    for line in lines {
        std::hint::black_box(LineFeatures::of(line));
    }
}

/// The full feature rows of a page's lines (with all neighbours), as the scorer sees them.
pub fn rows(lines: &[Line]) -> Vec<f32> {
    let f: Vec<LineFeatures> = lines.iter().map(LineFeatures::of).collect();
    let mut rows = vec![0.0; f.len() * N_FEATURES];
    for (i, row) in rows.chunks_exact_mut(N_FEATURES).enumerate() {
        let before: Vec<&LineFeatures> = f[..i].iter().rev().take(MAX_CONTEXT).collect();
        let after: Vec<&LineFeatures> = f[i + 1..].iter().take(MAX_CONTEXT).collect();
        features::row(&f[i], &before, &after, row);
    }
    rows
}

/// Model scoring: one decision per feature row.
pub fn score(rows: &[f32], scorer: &dyn Scorer, scratch: &mut Vec<f32>) {
    for row in rows.chunks_exact(N_FEATURES) {
        std::hint::black_box(scorer.decide(row, scratch));
    }
}

/// The whole streaming filter, decisions taken and dropped.
pub fn filter(page: &[u8], scorer: &Arc<dyn Scorer>) {
    let mut ex = Extractor::new(Arc::clone(scorer));
    ex.write(page).expect("the filter accepts the page");
    ex.end().expect("the filter accepts the page");
    while let Some(d) = ex.next_decision() {
        std::hint::black_box(d);
    }
}

/// The filter as `mainline filter` runs it on a file: the page written in the command's
/// 64 KiB reads, the lines decided so far written as text after each (into `out`, as the
/// command writes into its buffered standard output), with one extractor kept from page to
/// page and reset after each, which takes the written lines' buffers back. Unlike
/// [`filter`], memory holds only the lines not yet decided, whatever the page's size.
pub fn command(page: &[u8], options: &mainline::Options, ex: &mut Extractor, out: &mut Vec<u8>) {
    let mut sink = mainline::output::Sink::new(options, None);
    sink.ready(ex);
    for piece in page.chunks(64 * 1024) {
        ex.write(piece).expect("the filter accepts the page");
        sink.take(ex, out).expect("writing into memory");
        std::hint::black_box(&*out);
        out.clear();
    }
    ex.end().expect("the filter accepts the page");
    sink.finish(ex, out).expect("writing into memory");
    std::hint::black_box(&*out);
    out.clear();
    ex.reset();
}

/// The streaming filter writing Markdown as `filter --format markdown` does: lines with
/// their structure, the kept lines rendered as they are decided (without `--links` and
/// `--images`, which need the head's metadata for the base URL).
pub fn markdown(page: &[u8], scorer: &Arc<dyn Scorer>) {
    let mut ex = Extractor::new(Arc::clone(scorer)).with_structure(true);
    let mut r = mainline::internals::markdown::Renderer::new(
        mainline::internals::markdown::Options::default(),
    );
    let mut out = String::new();
    ex.write(page).expect("the filter accepts the page");
    ex.end().expect("the filter accepts the page");
    while let Some(d) = ex.next_decision() {
        if d.keep {
            r.push(&d.line, &mut out);
        }
    }
    r.finish(&mut out);
    std::hint::black_box(out);
}

/// One JSON document per page, as `filter --format json` writes it.
pub fn json(page: &[u8], options: &mainline::Options) {
    let doc = options.extract(page).expect("the filter accepts the page");
    // As the command writes it (serde_json::to_writer into a buffered writer).
    let mut out = std::io::BufWriter::with_capacity(64 * 1024, std::io::sink());
    serde_json::to_writer(&mut out, &doc.to_json()).expect("a document serialises");
    std::hint::black_box(out);
}
