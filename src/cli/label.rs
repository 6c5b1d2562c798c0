//! `mainline label`: labelled training data from pages and their gold main text.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;

use anyhow::{Context, Result, bail};
use rayon::prelude::*;

use crate::corpus::{Corpus, Page};
use crate::extract::{Decision, Observe, Scorer};
use crate::train::label::{self, Alignment};

use super::{Failure, stream_file};

/// Write labelled per-line training data (CSV) from HTML pages and their gold main text.
///
/// Each line of a page is labelled 1 (content) or 0 (boilerplate) by aligning the page's
/// words, in order, with the gold text's words (a sequence diff, not substring search): a
/// line is content when most of its words are matched. Text without spaces between words
/// (Chinese, Japanese, Thai) is compared character by character.
///
/// The CSV has the columns of `mainline lines` with `label` filled in and `group` set to the
/// page's site, so that training and cross-validation can keep sites apart. A summary goes
/// to standard error, listing pages whose gold text could not be aligned well.
#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:\n  \
    mainline label --corpus wcxb-dev -o training/wcxb-dev.csv\n  \
    mainline label --html page.html --gold page.txt\n\n\
    wcxb-dev: pages of the development split of WCXB, the Web Content eXtraction Benchmark\n\
    (Murrough Foley; CC-BY-4.0), in its layout: html/NNNN.html.gz and ground-truth/NNNN.json.")]
pub struct Args {
    /// A corpus: a folder laid out like WCXB (html/NNNN.html.gz, ground-truth/NNNN.json,
    /// metadata.json) or a folder of NAME.html pages with their gold text in NAME.txt.
    #[arg(long, value_name = "DIR", conflicts_with_all = ["html", "gold"], required_unless_present = "html")]
    corpus: Option<PathBuf>,

    /// One HTML page (plain or gzip); use with --gold.
    #[arg(long, value_name = "FILE", requires = "gold")]
    html: Option<PathBuf>,

    /// The gold main text of --html, as plain text.
    #[arg(long, value_name = "FILE", requires = "html")]
    gold: Option<PathBuf>,

    /// Write the CSV to FILE instead of standard output.
    #[arg(short, long, value_name = "FILE")]
    output: Option<PathBuf>,
}

/// The labelled lines of one page.
struct Labelled {
    page: Page,
    decisions: Vec<Decision>,
    alignment: Alignment,
}

pub fn run(args: Args) -> Result<ExitCode> {
    let corpus = match (&args.corpus, &args.html, &args.gold) {
        (Some(dir), _, _) => Corpus::open(dir)?,
        (None, Some(html), Some(gold)) => {
            let gold_text = fs::read_to_string(gold)
                .with_context(|| format!("reading gold text {}", gold.display()))?;
            let id = crate::corpus::page_stem(html).unwrap_or_else(|| html.display().to_string());
            Corpus {
                pages: vec![Page {
                    group: id.clone(),
                    id,
                    html: html.clone(),
                    gold: gold_text,
                    page_type: None,
                }],
                skipped: Vec::new(),
            }
        }
        _ => bail!("give --corpus DIR, or --html FILE with --gold FILE"),
    };
    if !corpus.skipped.is_empty() {
        eprintln!(
            "skipping {} pages without gold text: {}",
            corpus.skipped.len(),
            corpus
                .skipped
                .iter()
                .map(|p| p.display().to_string())
                .collect::<Vec<_>>()
                .join(", ")
        );
    }
    let out = super::Output::to(args.output.as_deref())?;
    let name = out.name();
    let mut csv = csv::Writer::from_writer(out);
    csv.write_record(super::csv_header())
        .with_context(|| format!("writing the CSV to {name}"))?;

    let scorer: Arc<dyn Scorer> = Arc::new(Observe);
    let (mut pages, mut lines, mut content, mut failed) = (0usize, 0usize, 0usize, 0usize);
    let mut poor: Vec<(String, f64)> = Vec::new();
    // Pages are labelled in parallel, a batch at a time, and written in corpus order.
    for batch in corpus.pages.chunks(64) {
        let results: Vec<Result<Labelled, (String, anyhow::Error)>> = batch
            .par_iter()
            .map(|page| label_page(page, &scorer).map_err(|e| (page.html.display().to_string(), e)))
            .collect();
        for result in results {
            match result {
                Ok(l) => {
                    pages += 1;
                    lines += l.decisions.len();
                    content += l.alignment.labels.iter().filter(|&&b| b).count();
                    if l.alignment.is_poor() {
                        poor.push((l.page.id.clone(), l.alignment.gold_coverage()));
                    }
                    let aligned = Some(!l.alignment.is_poor());
                    for (d, &y) in l.decisions.iter().zip(&l.alignment.labels) {
                        super::write_csv_row(
                            &mut csv,
                            &l.page.id,
                            &l.page.group,
                            (Some(y), aligned),
                            d,
                        )
                        .with_context(|| format!("writing the CSV to {name}"))?;
                    }
                }
                Err((name, e)) => {
                    failed += 1;
                    eprintln!("mainline: {name}: {e:#}");
                }
            }
        }
    }
    csv.into_inner()
        .map_err(|e| anyhow::Error::new(e.into_error()))
        .and_then(super::Output::finish)
        .with_context(|| format!("writing the CSV to {name}"))?;
    eprintln!(
        "labelled {pages} pages: {lines} lines, {content} content ({:.1}%); {} poorly aligned (gold coverage < {:.0}%), {failed} failed",
        100.0 * content as f64 / lines.max(1) as f64,
        poor.len(),
        100.0 * label::POOR_ALIGNMENT_COVERAGE,
    );
    if !poor.is_empty() {
        let list: Vec<String> = poor
            .iter()
            .map(|(id, c)| format!("{id} ({:.0}%)", 100.0 * c))
            .collect();
        eprintln!("poorly aligned: {}", list.join(", "));
    }
    Ok(if failed > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

fn label_page(page: &Page, scorer: &Arc<dyn Scorer>) -> Result<Labelled> {
    let decisions = page_decisions(&page.html, scorer)?;
    let texts: Vec<&str> = decisions.iter().map(|d| d.line.text.as_str()).collect();
    let alignment = label::align(&texts, &page.gold);
    Ok(Labelled {
        page: page.clone(),
        decisions,
        alignment,
    })
}

/// All decisions (with features) for one page.
pub fn page_decisions(path: &Path, scorer: &Arc<dyn Scorer>) -> Result<Vec<Decision>> {
    let mut decisions = Vec::new();
    let mut sink = |d: Decision| {
        decisions.push(d);
        Ok(())
    };
    match stream_file(path, scorer, true, &mut sink) {
        Ok(_) => Ok(decisions),
        Err(Failure::Input(e)) => Err(e),
        Err(Failure::Output(e)) => Err(e.into()),
    }
}
