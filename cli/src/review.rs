//! `mainline review`: a page's lines in the browser, to label and retrain on.
//!
//! The command runs the model over each page and writes one self-contained HTML file (no
//! server, no network): the lines in reading order with their block, score and decision,
//! and a small script that lets a person toggle lines and save the result, either as a
//! labelled CSV in exactly the format `mainline train` reads (the feature rows travel inside
//! the file) or as the labels alone, which `--labels` reads back to reopen a review.

use std::collections::HashMap;
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, Result, bail};
use serde::{Deserialize, Serialize};

use std::sync::Arc;

use mainline::internals::extract::{AllFeatures, Decision, Scorer};
use mainline::internals::lines::NO_ELEMENT;

use super::{Failure, csv_fields, display_name, stream_file};

/// The page's template: markup, style and script; `/*DATA*/null` is replaced by the lines.
const TEMPLATE: &str = include_str!("review.html");

/// The placeholder in [`TEMPLATE`] that the data replaces.
const DATA_SLOT: &str = "/*DATA*/null";

/// The most lines of one page a review shows; a page with more is refused. Ordinary pages
/// have hundreds (at most 2,641 among the 1,294 WCXB development pages), and a browser
/// page listing more is slow to use.
const MAX_LINES: usize = 10_000;

/// The default largest review file (`--max-bytes`): 128 MiB, about 150 pages of the
/// usual size (a few hundred bytes per line), or 16 pages of [`MAX_LINES`].
const MAX_REVIEW_BYTES: u64 = 128 << 20;

/// The largest labels file `--labels` reads: 32 MiB, as for model files. A review holds at
/// most [`MAX_REVIEW_BYTES`] of data, a few hundred bytes per line, and its labels file one
/// byte per line.
const MAX_LABELS_BYTES: u64 = 32 << 20;

/// The `format` value of a labels file, and its version.
const LABELS_FORMAT: &str = "mainline-labels";
const LABELS_VERSION: u32 = 1;

/// Review pages in the browser: label their lines and save training data.
///
/// Writes one self-contained HTML file that opens from disk in any browser (no server, no
/// network). It lists every line of each page in reading order with its block (heading,
/// paragraph, list item, cell, code …), the model's score as a bar and its keep/drop
/// decision; kept lines are highlighted. Click a line (or move with j/k and press space) to
/// toggle it; shift-click toggles a range; + and - keep or drop the whole element around the
/// current line. "Save CSV" downloads a labelled CSV in the format `mainline train` reads
/// (`--init` fine-tunes a model on it); "Save labels" downloads the labels alone, which
/// `--labels` applies when the review is written again.
///
/// Memory and the file stay bounded: a page of more than 10,000 lines, or one that does not
/// fit in the file's --max-bytes with the pages before it, is refused (a one-line error
/// naming it, exit code 1) and the review of the other pages is still written.
#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:\n  \
    mainline review site/*.html -o review.html\n  \
    mainline review site/*.html --labels labels.json -o review.html   # reopen a saved review\n  \
    mainline train labels.csv --init builtin -o site-model.json       # fine-tune on the saved CSV")]
pub struct Args {
    /// The pages (HTML, plain or gzip).
    #[arg(value_name = "PAGE", required = true)]
    pages: Vec<PathBuf>,

    /// Where to write the review page (HTML).
    #[arg(short, long, value_name = "FILE")]
    output: PathBuf,

    /// A model file whose scores and decisions are shown (default: the built-in model).
    #[arg(long, value_name = "FILE")]
    model: Option<PathBuf>,

    /// The site the pages belong to: the `group` column of the saved CSV, which training
    /// keeps on one side of a validation split. Default: the name of the folder that holds
    /// each page.
    #[arg(long, value_name = "NAME")]
    group: Option<String>,

    /// A labels file saved from an earlier review: its labels replace the model's decisions
    /// as the starting point (pages are matched by name and must have the same lines).
    #[arg(long, value_name = "FILE")]
    labels: Option<PathBuf>,

    /// The largest review file, in bytes (128 MiB by default): what holds the review in
    /// memory too. A page that would take it over is refused and the others are reviewed.
    #[arg(long, value_name = "BYTES", default_value_t = MAX_REVIEW_BYTES)]
    max_bytes: u64,
}

// The data the page's script reads (written by `render`): `{"version", "model" (the
// scorer, as the header says it), "header" (the CSV header: doc, group, line, label,
// …features…, text), "pages": [{"doc", "group", "lines": [LineData…]}…]}`.

/// One line, with short keys: a page of 10,000 lines stays a few megabytes.
#[derive(Serialize, Default)]
struct LineData {
    /// Text.
    t: String,
    /// Block (`p`, `li`, `cell`, `pre`, `h2` …).
    b: String,
    /// Score.
    s: f32,
    /// The model's decision (1 keep, 0 drop).
    m: u8,
    /// The starting label: the decision, or the label read from `--labels`.
    l: u8,
    /// The enclosing line-breaking elements, nearest first (for "keep/drop this element").
    p: Vec<u32>,
    /// The CSV fields between `label` and `text`.
    r: Vec<String>,
}

/// A labels file: what the page's "Save labels" writes.
#[derive(Serialize, Deserialize)]
struct LabelsFile {
    format: String,
    version: u32,
    pages: Vec<PageLabels>,
}

#[derive(Serialize, Deserialize)]
struct PageLabels {
    doc: String,
    /// One character per line: `1` content, `0` boilerplate.
    labels: String,
}

pub fn run(args: Args) -> Result<ExitCode> {
    super::check_writable(&args.output)?;
    let scorer = super::scorer(None, args.model.as_deref())?;
    let saved = match &args.labels {
        Some(path) => read_labels(path)?,
        None => HashMap::new(),
    };
    let model = script_json(&scorer.describe())?;
    let header = script_json(&super::csv_header())?;
    // What the file holds besides the pages: the template and the data's other fields.
    let fixed = TEMPLATE.len() - DATA_SLOT.len() + model.len() + header.len() + 64;
    let mut budget = usize::try_from(args.max_bytes)
        .unwrap_or(usize::MAX)
        .saturating_sub(fixed);
    let mut pages: Vec<String> = Vec::new();
    let mut lines = 0;
    let mut failed = 0;
    for path in &args.pages {
        let doc = display_name(path);
        let group = match &args.group {
            Some(g) => g.clone(),
            None => folder_name(path),
        };
        let refuse = |e: anyhow::Error| eprintln!("mainline: {doc}: {e:#}");
        let room = budget.saturating_sub(usize::from(!pages.is_empty()));
        // Two passes: the model's scores and decisions, and the feature rows as `mainline
        // label` writes them (every column of the schema, whatever context the model reads).
        let shown = match first_pass(path, &scorer, room, args.max_bytes) {
            Ok(shown) => shown,
            Err(Failure::Input(e)) => {
                refuse(e);
                failed += 1;
                continue;
            }
            Err(Failure::Output(e)) => return Err(e.into()),
        };
        let labels = match saved.get(&doc) {
            Some(l) if l.len() == shown.len() => Some(l.as_bytes()),
            Some(l) => bail!(
                "{}: the labels of {doc} are for {} lines, the page now has {}; \
                 was the page or mainline changed since the review was saved?",
                display_name(args.labels.as_deref().unwrap_or(Path::new("-"))),
                l.len(),
                shown.len()
            ),
            None => None,
        };
        let n = shown.len();
        let page = Page {
            doc: &doc,
            group: &group,
            labels,
        };
        match second_pass(path, shown, &page, room, args.max_bytes) {
            Ok(json) => {
                budget = room - json.len();
                lines += n;
                pages.push(json);
            }
            Err(Failure::Input(e)) => {
                refuse(e);
                failed += 1;
            }
            Err(Failure::Output(e)) => return Err(e.into()),
        }
    }
    if pages.is_empty() {
        bail!("no page could be read, so there is nothing to review");
    }
    write_review(&args.output, &model, &header, &pages)
        .with_context(|| format!("writing {}", args.output.display()))?;
    eprintln!(
        "mainline: {} pages, {lines} lines: open {} in a browser",
        pages.len(),
        args.output.display()
    );
    Ok(if failed > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

/// The error of a page that does not fit in what is left of the review's `max` bytes.
fn too_big(max: u64) -> anyhow::Error {
    anyhow::anyhow!(
        "the page does not fit in the review's {max} bytes (--max-bytes) with the pages \
         before it; review it on its own or in a smaller set"
    )
}

/// The page being reviewed: its name, its site and the labels it starts from.
struct Page<'a> {
    doc: &'a str,
    group: &'a str,
    labels: Option<&'a [u8]>,
}

/// The first pass over a page: the model's score and decision of each line, with what the
/// review shows of it. Reading stops, with an error, at the line after [`MAX_LINES`] or when
/// the lines' text alone exceeds `room` bytes (of the review's `max`).
fn first_pass(
    path: &Path,
    scorer: &Arc<dyn Scorer>,
    room: usize,
    max: u64,
) -> std::result::Result<Vec<LineData>, Failure> {
    let mut shown = Vec::new();
    let mut text_bytes = 0usize;
    let mut over = None;
    let result = stream_file(path, scorer, false, &mut |d| {
        text_bytes += d.line.text.len();
        if shown.len() == MAX_LINES {
            over = Some(anyhow::anyhow!(
                "the page has more than {MAX_LINES} lines; review shows at most that many \
                 (`mainline filter --format jsonl` lists every line)"
            ));
        } else if text_bytes > room {
            over = Some(too_big(max));
        }
        if over.is_some() {
            return Err(std::io::Error::other("over the cap"));
        }
        shown.push(shown_line(&d));
        Ok(())
    });
    match (result, over) {
        (_, Some(e)) => Err(Failure::Input(e)),
        (Err(e), None) => Err(e),
        (Ok(_), None) => Ok(shown),
    }
}

/// The second pass over a page: its feature rows, joined to `shown` (the first pass's
/// lines), each line written out as JSON as soon as it is complete. Returns the page's JSON,
/// or an error when it would exceed `room` bytes (of the review's `max`).
fn second_pass(
    path: &Path,
    mut shown: Vec<LineData>,
    page: &Page<'_>,
    room: usize,
    max: u64,
) -> std::result::Result<String, Failure> {
    let head = |key: &str, value: &str| -> std::result::Result<String, Failure> {
        let v = script_json(&value).map_err(Failure::Input)?;
        Ok(format!("\"{key}\":{v}"))
    };
    let mut json = format!(
        "{{{},{},\"lines\":[",
        head("doc", page.doc)?,
        head("group", page.group)?
    );
    let observe: Arc<dyn Scorer> = Arc::new(AllFeatures);
    let expected = shown.len();
    let mut i = 0;
    let mut over = None;
    let result = stream_file(path, &observe, true, &mut |row| {
        let Some(line) = shown.get_mut(i) else {
            i += 1;
            return Err(std::io::Error::other("more lines than the first pass"));
        };
        let mut line = std::mem::take(line);
        let mut fields = csv_fields(page.doc, page.group, (None, None), &row);
        // doc, group, line, label | path, sig, aligned, features… | text
        fields.pop();
        line.r = fields.split_off(4);
        if let Some(labels) = page.labels {
            line.l = u8::from(labels[i] == b'1');
        }
        if i > 0 {
            json.push(',');
        }
        match script_json(&line) {
            Ok(j) => json.push_str(&j),
            Err(e) => over = Some(e),
        }
        i += 1;
        if over.is_none() && json.len() + 2 > room {
            over = Some(too_big(max));
        }
        match over {
            Some(_) => Err(std::io::Error::other("over the cap")),
            None => Ok(()),
        }
    });
    if let Some(e) = over {
        return Err(Failure::Input(e));
    }
    match result {
        Err(Failure::Output(_)) | Ok(_) if i != expected => Err(Failure::Input(anyhow::anyhow!(
            "the page gave {expected} lines and then {i}: it changed while it was read"
        ))),
        Err(e) => Err(e),
        Ok(_) => {
            json.push_str("]}");
            Ok(json)
        }
    }
}

/// What the review shows of a line from the first pass; the label starts as the model's
/// decision and the CSV fields (`r`) come with the second pass.
fn shown_line(d: &Decision) -> LineData {
    let block = if d.line.heading > 0 {
        format!("h{}", d.line.heading)
    } else {
        d.line.block.name().to_string()
    };
    LineData {
        t: d.line.text.clone(),
        b: block,
        s: d.score,
        m: u8::from(d.keep),
        l: u8::from(d.keep),
        p: d.line
            .path
            .iter()
            .copied()
            .filter(|&e| e != NO_ELEMENT)
            .collect(),
        r: Vec::new(),
    }
}

/// `value` as JSON to go inside the page's `<script>` element: every `<` is escaped (it
/// can only occur in strings), so no text of a page can close the element.
fn script_json(value: &impl Serialize) -> Result<String> {
    Ok(serde_json::to_string(value)?.replace('<', "\\u003c"))
}

/// Writes the template with the data in place: the fields of [`ReviewData`], the pages
/// already as JSON (from [`script_json`]).
fn render(out: &mut dyn Write, model: &str, header: &str, pages: &[String]) -> Result<()> {
    let Some((before, after)) = TEMPLATE.split_once(DATA_SLOT) else {
        bail!("the review template has no data slot");
    };
    out.write_all(before.as_bytes())?;
    write!(
        out,
        "{{\"version\":{LABELS_VERSION},\"model\":{model},\"header\":{header},\"pages\":["
    )?;
    for (i, page) in pages.iter().enumerate() {
        if i > 0 {
            out.write_all(b",")?;
        }
        out.write_all(page.as_bytes())?;
    }
    out.write_all(b"]}")?;
    out.write_all(after.as_bytes())?;
    Ok(())
}

/// The labels saved from a review, by page name.
fn read_labels(path: &Path) -> Result<HashMap<String, String>> {
    use std::io::Read;
    let name = path.display();
    let mut bytes = Vec::new();
    fs::File::open(path)
        .and_then(|f| f.take(MAX_LABELS_BYTES + 1).read_to_end(&mut bytes))
        .with_context(|| format!("reading labels {name}"))?;
    if bytes.len() as u64 > MAX_LABELS_BYTES {
        bail!(
            "{name}: the file is longer than {} MiB, more than any labels file a review saves",
            MAX_LABELS_BYTES >> 20
        );
    }
    let text = String::from_utf8(bytes).with_context(|| format!("reading labels {name}"))?;
    let file: LabelsFile = serde_json::from_str(&text).with_context(|| {
        format!("{name} is not a labels file saved by `mainline review` (\"Save labels\")")
    })?;
    if file.format != LABELS_FORMAT || file.version != LABELS_VERSION {
        bail!(
            "{name}: format {:?} version {} is not {LABELS_FORMAT:?} version {LABELS_VERSION}",
            file.format,
            file.version
        );
    }
    let mut out = HashMap::new();
    for page in file.pages {
        if let Some(bad) = page.labels.chars().find(|c| *c != '0' && *c != '1') {
            bail!(
                "{name}: the labels of {} hold {bad:?}; only 0 and 1 are labels",
                page.doc
            );
        }
        out.insert(page.doc, page.labels);
    }
    Ok(out)
}

/// The name of the folder holding `path`, the default site of a page.
fn folder_name(path: &Path) -> String {
    let dir = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    fs::canonicalize(dir)
        .ok()
        .and_then(|d| d.file_name().map(|n| n.to_string_lossy().into_owned()))
        .unwrap_or_else(|| "site".to_string())
}

/// Writes the review to `path` whole or not at all.
fn write_review(path: &Path, model: &str, header: &str, pages: &[String]) -> Result<()> {
    let mut file = mainline_training::atomic::AtomicFile::create(path)?;
    render(&mut file, model, header, pages)?;
    Ok(file.commit()?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_data_cannot_close_its_script_element() {
        let page = script_json(&"</script><script>alert(1)</script>").unwrap();
        let page = format!(r#"{{"doc":{page},"group":"g","lines":[]}}"#);
        let mut html = Vec::new();
        render(&mut html, r#""m""#, r#"["doc"]"#, &[page]).unwrap();
        let html = String::from_utf8(html).unwrap();
        let data_part = html
            .split(r#"<script id="data" type="application/json">"#)
            .nth(1);
        let data_part = data_part.unwrap().split("</script>").next().unwrap();
        assert!(data_part.contains(r"\u003c/script>"));
        assert!(!data_part.contains('<'));
        let data: serde_json::Value = serde_json::from_str(data_part).unwrap();
        assert_eq!(
            data["pages"][0]["doc"],
            "</script><script>alert(1)</script>"
        );
        assert_eq!(data["version"], 1);
    }

    #[test]
    fn labels_files_are_checked() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("l.json");
        fs::write(
            &path,
            r#"{"format":"mainline-labels","version":1,"pages":[{"doc":"a","labels":"01x"}]}"#,
        )
        .unwrap();
        let err = read_labels(&path).unwrap_err().to_string();
        assert!(err.contains("'x'"), "{err}");
        fs::write(&path, r#"{"format":"other","version":1,"pages":[]}"#).unwrap();
        let err = read_labels(&path).unwrap_err().to_string();
        assert!(err.contains("\"other\""), "{err}");
        fs::write(
            &path,
            r#"{"format":"mainline-labels","version":1,"pages":[{"doc":"a","labels":"0110"}]}"#,
        )
        .unwrap();
        assert_eq!(read_labels(&path).unwrap()["a"], "0110");
    }
}
