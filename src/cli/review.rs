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

use crate::extract::{Decision, Observe, Scorer};
use crate::lines::NO_ELEMENT;

use super::{Failure, csv_fields, display_name, stream_file};

/// The page's template: markup, style and script; `/*DATA*/null` is replaced by the lines.
const TEMPLATE: &str = include_str!("review.html");

/// The placeholder in [`TEMPLATE`] that the data replaces.
const DATA_SLOT: &str = "/*DATA*/null";

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
}

/// The data the page's script reads.
#[derive(Serialize)]
struct ReviewData {
    version: u32,
    /// The scorer, as the header says it.
    model: String,
    /// The CSV header: `doc, group, line, label, …features…, text`.
    header: Vec<String>,
    pages: Vec<PageData>,
}

#[derive(Serialize)]
struct PageData {
    doc: String,
    group: String,
    lines: Vec<LineData>,
}

/// One line, with short keys: a page of 10,000 lines stays a few megabytes.
#[derive(Serialize)]
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
    let mut pages = Vec::new();
    let mut failed = 0;
    for path in &args.pages {
        let doc = display_name(path);
        let group = match &args.group {
            Some(g) => g.clone(),
            None => folder_name(path),
        };
        // Two passes: the model's scores and decisions, and the feature rows as `mainline
        // label` writes them (every column of the schema, whatever context the model reads).
        let (decisions, rows) = match read_page(path, &scorer) {
            Ok(both) => both,
            Err(Failure::Input(e)) => {
                eprintln!("mainline: {doc}: {e:#}");
                failed += 1;
                continue;
            }
            Err(Failure::Output(e)) => return Err(e.into()),
        };
        let labels = match saved.get(&doc) {
            Some(l) if l.len() == decisions.len() => Some(l.as_bytes()),
            Some(l) => bail!(
                "{}: the labels of {doc} are for {} lines, the page now has {}; \
                 was the page or mainline changed since the review was saved?",
                display_name(args.labels.as_deref().unwrap_or(Path::new("-"))),
                l.len(),
                decisions.len()
            ),
            None => None,
        };
        let lines = decisions
            .iter()
            .enumerate()
            .zip(&rows)
            .map(|((i, d), row)| line_data(&doc, &group, d, row, labels.map(|l| l[i] == b'1')))
            .collect();
        pages.push(PageData { doc, group, lines });
    }
    if pages.is_empty() {
        bail!("no page could be read, so there is nothing to review");
    }
    let data = ReviewData {
        version: LABELS_VERSION,
        model: scorer.describe(),
        header: super::csv_header(),
        pages,
    };
    let html = render(&data)?;
    write_file(&args.output, html.as_bytes())
        .with_context(|| format!("writing {}", args.output.display()))?;
    let lines: usize = data.pages.iter().map(|p| p.lines.len()).sum();
    eprintln!(
        "mainline: {} pages, {lines} lines: open {} in a browser",
        data.pages.len(),
        args.output.display()
    );
    Ok(if failed > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

/// The model's decisions on a page, and the same lines with every feature column.
fn read_page(
    path: &Path,
    scorer: &Arc<dyn Scorer>,
) -> std::result::Result<(Vec<Decision>, Vec<Decision>), Failure> {
    let mut decisions = Vec::new();
    stream_file(path, scorer, false, &mut |d| {
        decisions.push(d);
        Ok(())
    })?;
    let observe: Arc<dyn Scorer> = Arc::new(Observe);
    let mut rows = Vec::new();
    stream_file(path, &observe, true, &mut |d| {
        rows.push(d);
        Ok(())
    })?;
    if rows.len() != decisions.len() {
        return Err(Failure::Input(anyhow::anyhow!(
            "the page gave {} lines and then {}: it changed while it was read",
            decisions.len(),
            rows.len()
        )));
    }
    Ok((decisions, rows))
}

fn line_data(
    doc: &str,
    group: &str,
    d: &Decision,
    row: &Decision,
    label: Option<bool>,
) -> LineData {
    let mut fields = csv_fields(doc, group, (None, None), row);
    // doc, group, line, label | path, sig, aligned, features… | text
    fields.pop();
    let r = fields.split_off(4);
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
        l: u8::from(label.unwrap_or(d.keep)),
        p: d.line
            .path
            .iter()
            .copied()
            .filter(|&e| e != NO_ELEMENT)
            .collect(),
        r,
    }
}

/// The template with the data in place. The JSON goes inside a `<script>` element, so
/// every `<` is escaped: no text of a page can close the element.
fn render(data: &ReviewData) -> Result<String> {
    let json = serde_json::to_string(data)?.replace('<', "\\u003c");
    let Some((before, after)) = TEMPLATE.split_once(DATA_SLOT) else {
        bail!("the review template has no data slot");
    };
    let mut html = String::with_capacity(TEMPLATE.len() + json.len());
    html.push_str(before);
    html.push_str(&json);
    html.push_str(after);
    Ok(html)
}

/// The labels saved from a review, by page name.
fn read_labels(path: &Path) -> Result<HashMap<String, String>> {
    let name = path.display();
    let text = fs::read_to_string(path).with_context(|| format!("reading labels {name}"))?;
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

/// Writes `bytes` to `path` whole or not at all.
fn write_file(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let mut file = crate::atomic::AtomicFile::create(path)?;
    file.write_all(bytes)?;
    file.commit()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_data_cannot_close_its_script_element() {
        let data = ReviewData {
            version: 1,
            model: "m".into(),
            header: vec!["doc".into()],
            pages: vec![PageData {
                doc: "</script><script>alert(1)</script>".into(),
                group: "g".into(),
                lines: vec![],
            }],
        };
        let html = render(&data).unwrap();
        let data_part = html
            .split(r#"<script id="data" type="application/json">"#)
            .nth(1);
        let data_part = data_part.unwrap().split("</script>").next().unwrap();
        assert!(data_part.contains(r"\u003c/script>"));
        assert!(!data_part.contains('<'));
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
