//! Writing one page: the text, Markdown or JSON of an input, to the output or to a file
//! of its own, and the per-line decisions of `--format jsonl`.

use std::fs;
use std::io::Write;
use std::path::Path;
use std::sync::Arc;

use anyhow::{Context, Result};

use mainline::internals::extract::{Extractor, Scorer};
use mainline::internals::markdown::Renderer;
use mainline::output::lines::write_record;
use mainline::{Format, Options};

use super::super::{Failure, display_name, read_input};
use super::engine::{Engine, Extractors, Render};

/// Reads a whole input (decompressed) and decodes it to UTF-8 with the splitter's rules.
/// Also returns the number of bytes read.
///
/// # Errors
/// Also when the input is longer than the comparison methods parse
/// ([`mainline_training::methods::MAX_DOCUMENT_BYTES`]): it is not read further.
pub(super) fn read_decoded(path: &Path) -> Result<(String, u64)> {
    use std::io::Read;
    let max = mainline_training::methods::MAX_DOCUMENT_BYTES;
    let mut bytes = Vec::new();
    let input = super::super::open_input(path)?;
    input.take(max as u64 + 1).read_to_end(&mut bytes)?;
    anyhow::ensure!(
        bytes.len() <= max,
        "longer than {} MiB, the most the comparison methods (--method) parse",
        max >> 20
    );
    if let Some(kind) = mainline::internals::input::binary_kind(&bytes) {
        anyhow::bail!(
            "not an HTML document: the data looks like {}",
            mainline::internals::input::a_binary_kind(kind)
        );
    }
    let encoding = mainline::internals::input::sniff(&bytes, true).encoding;
    Ok((encoding.decode(&bytes).0.into_owned(), bytes.len() as u64))
}

/// The streaming filter on one input into `out`; returns the input bytes read.
pub(super) fn filter_one(
    path: &Path,
    scorer: &Arc<dyn Scorer>,
    extractors: &Extractors,
    template: Option<mainline::site::PageTemplate>,
    format: Format,
    out: &mut dyn Write,
) -> Result<u64, Failure> {
    let doc = display_name(path);
    let features = format.collects(false).features;
    let make = || Extractor::new(Arc::clone(scorer)).with_features(features);
    // NOTE: as stream_file, with an extractor kept from page to page, which takes the
    // written lines back for later ones.
    extractors.with(make, |ex| {
        ex.set_site(template);
        let mut drain = |ex: &mut Extractor| {
            while let Some(d) = ex.next_decision() {
                if format == Format::Lines {
                    write_record(out, &doc, &d).map_err(Failure::Output)?;
                } else if d.keep {
                    // Format::Text; Markdown and JSON are written by markdown_one and json_one.
                    out.write_all(d.line.text.as_bytes())
                        .and_then(|()| out.write_all(b"\n"))
                        .map_err(Failure::Output)?;
                }
                ex.recycle(d.line);
            }
            Ok(())
        };
        let mut run = || {
            let total = read_input(path, |piece| {
                ex.write(piece).map_err(|e| Failure::Input(e.into()))?;
                drain(ex)
            })?;
            ex.end().map_err(|e| Failure::Input(e.into()))?;
            drain(ex)?;
            Ok(total)
        };
        let total = run();
        ex.reset();
        total
    })
}

/// The kept lines of one input as Markdown into `out`, written as they are decided;
/// returns the input bytes read.
pub(super) fn markdown_one(
    path: &Path,
    scorer: &Arc<dyn Scorer>,
    render: &Render,
    template: Option<mainline::site::PageTemplate>,
    out: &mut dyn Write,
) -> Result<u64, Failure> {
    // The metadata gives the headline and the <base href> links and images resolve
    // against; without them it is not collected.
    let mut ex = Extractor::new(Arc::clone(scorer))
        .with_structure(true)
        .with_metadata(render.headline || render.links || render.images);
    ex.set_site(template);
    let mut headline = mainline::internals::markdown::headline::Headline::default();
    let mut r = Renderer::new(mainline::internals::markdown::Options {
        links: render.links,
        images: render.images,
        base: None,
    });
    let mut based = false;
    let mut md = String::new();
    let mut drain = |ex: &mut Extractor, md: &mut String, out: &mut dyn Write| {
        while let Some(d) = ex.next_decision() {
            if d.keep {
                if !based {
                    // The head has been read: links resolve against its <base href>, and
                    // the headline is what has been read of the page by now.
                    let meta = ex.metadata();
                    let base = meta.as_ref().and_then(|m| m.base.as_deref());
                    r.set_base(mainline::internals::markdown::base_url(
                        render.url.as_deref(),
                        base,
                    ));
                    if render.headline {
                        headline.set(
                            meta.as_ref()
                                .and_then(mainline::internals::markdown::headline::of),
                        );
                    }
                    based = true;
                }
                headline.push(&mut r, &d.line, md);
            }
        }
        out.write_all(md.as_bytes()).map_err(Failure::Output)?;
        md.clear();
        Ok(())
    };
    let total = read_input(path, |piece| {
        ex.write(piece).map_err(|e| Failure::Input(e.into()))?;
        drain(&mut ex, &mut md, out)
    })?;
    ex.end().map_err(|e| Failure::Input(e.into()))?;
    drain(&mut ex, &mut md, out)?;
    r.finish(&mut md);
    out.write_all(md.as_bytes()).map_err(Failure::Output)?;
    Ok(total)
}

/// One input as one JSON document (one line) into `out`; returns the input bytes read.
pub(super) fn json_one(
    path: &Path,
    options: &Options,
    out: &mut dyn Write,
) -> Result<u64, Failure> {
    let mut b = options.builder();
    let total = read_input(path, |piece| {
        b.write(piece).map_err(|e| Failure::Input(e.into()))
    })?;
    let doc = b.end().map_err(|e| Failure::Input(e.into()))?;
    let mut obj = serde_json::Map::new();
    obj.insert("source".into(), display_name(path).into());
    if let serde_json::Value::Object(fields) = doc.to_json() {
        obj.extend(fields);
    }
    serde_json::to_writer(&mut *out, &obj).map_err(|e| Failure::Output(e.into()))?;
    out.write_all(b"\n").map_err(Failure::Output)?;
    Ok(total)
}

/// Filters `path` into the file `target`. Writes into a temporary file beside the target
/// ([`mainline_training::atomic`]: a random name, created exclusively) and renames it into place, so
/// an interrupted run never leaves a half-written file under the final name (a power
/// failure still may: nothing is synced to disk).
///
/// A failure to write the file (a full disk) fails this input, naming the file; the run
/// goes on with the next inputs.
pub(super) fn filter_to_file(path: &Path, target: &Path, engine: &Engine) -> Result<u64, Failure> {
    let dir = target.parent().unwrap_or(Path::new("."));
    fs::create_dir_all(dir)
        .with_context(|| format!("creating output directory {}", dir.display()))
        .map_err(Failure::Input)?;
    let writing = || format!("writing {}", target.display());
    let mut out = mainline_training::atomic::AtomicFile::create(target)
        .with_context(writing)
        .map_err(Failure::Input)?;
    // NOTE: no fsync: the rename alone keeps a half-written file from appearing under the
    // final name when the run is interrupted, and a sync per page cost more than the
    // filtering itself (10.5 s instead of 4.5 s for the 1,296 wcxb-dev pages).
    let bytes = match engine.page(path, &mut out) {
        Ok(bytes) => bytes,
        Err(Failure::Output(e)) => {
            return Err(Failure::Input(anyhow::Error::new(e).context(writing())));
        }
        Err(e) => return Err(e),
    };
    out.commit().with_context(writing).map_err(Failure::Input)?;
    Ok(bytes)
}
