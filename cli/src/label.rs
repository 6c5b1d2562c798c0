//! `mainline label`: labelled training data from pages and their gold main text.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;

use anyhow::{Context, Result, bail};
use rayon::prelude::*;

use mainline::internals::extract::{AllFeatures, Decision, Scorer};
use mainline_training::corpus::{Corpus, Page};
use mainline_training::train::label::{self, Alignment};
use mainline_training::train::{LineSpan, PageFacts, Teaser, Variant};

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
///
/// With --augment VARIANT each page is labelled twice: as written, and rewritten as the
/// variant (its own lines, aligned with the same gold text). The CSV then has a `variant`
/// column (`original`, or the variant's name); a variant's rows follow its page's, with the
/// page id followed by `@` and the variant's name and the same site, so that
/// cross-validation keeps both on the same side. Recipes train on a variant's rows only
/// when their `augment` field names it; `mainline eval --cv` scores each variant's held-out
/// pages apart.
#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:\n  \
    mainline label --corpus wcxb-dev -o training/wcxb-dev.csv\n  \
    mainline label --html page.html --gold page.txt\n  \
    mainline label --corpus wcxb-dev --augment plain -o wcxb-dev-plain.csv\n  \
    mainline label --corpus wcxb-dev --augment related --augment short --augment shell \\\n      -o wcxb-dev.csv   (the built-in recipe's variants)\n\n\
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

    /// Also label each page rewritten as VARIANT (repeatable). `plain`: as an older site
    /// would have written it: HTML5 sectioning elements (article, main, nav, header,
    /// footer, aside, section, figure, ...) become div; class, id, role, microdata, aria-*
    /// and data-* attributes, Open Graph and Twitter <meta> and JSON-LD are dropped; the
    /// text is untouched. `tables`: as `plain`, and each landmark or section (article, main,
    /// nav, header, footer, aside, section, search) the one cell of a table of its own, as
    /// older sites laid out their pages. `related`: an article (page type `article` in the
    /// corpus's metadata) followed, after its last content line, by a block of teasers of
    /// other pages of the corpus (their titles and descriptions, as a related-stories grid
    /// or a "more from" list), which its labels call boilerplate; other pages get no
    /// variant.
    /// `short`: a window of 1-24 of the page's lines ending at a content line, with up to
    /// three lines on either side, after its head (pages with content). `shell`: the page
    /// without its content (its first lines before its first content line and its last
    /// lines after its last, 1-5 on either side), all of it boilerplate.
    #[arg(long, value_name = "VARIANT", value_parser = parse_variant)]
    augment: Vec<Variant>,

    /// Also write each page variant as an HTML file, DIR/ID@VARIANT.html (in the page's
    /// encoding), to see what was labelled. DIR must exist.
    #[arg(long, value_name = "DIR", requires = "augment")]
    write_variants: Option<PathBuf>,

    /// Write the CSV to FILE instead of standard output.
    #[arg(short, long, value_name = "FILE")]
    output: Option<PathBuf>,
}

/// The labelled lines of one page, and of each of its variants.
struct Labelled {
    page: Page,
    decisions: Vec<Decision>,
    alignment: Alignment,
    variants: Vec<(Variant, Vec<Decision>, Alignment)>,
}

fn parse_variant(s: &str) -> Result<Variant, String> {
    s.parse().map_err(|e: mainline::Error| e.to_string())
}

pub fn run(args: Args) -> Result<ExitCode> {
    let corpus = match (&args.corpus, &args.html, &args.gold) {
        (Some(dir), _, _) => Corpus::open(dir)?,
        (None, Some(html), Some(gold)) => {
            let gold_text = fs::read_to_string(gold)
                .with_context(|| format!("reading gold text {}", gold.display()))?;
            let id = mainline_training::corpus::page_stem(html)
                .unwrap_or_else(|| html.display().to_string());
            Corpus {
                pages: vec![Page {
                    group: id.clone(),
                    id,
                    html: html.clone(),
                    gold: gold_text,
                    page_type: None,
                    url: None,
                    meta: None,
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
    let mut augment = args.augment.clone();
    augment.sort();
    augment.dedup();
    // The `variant` column, after `aligned`, only when there are variants: without them
    // the CSV is what it always was.
    let mut header = super::csv_header();
    let variant_at = header
        .iter()
        .position(|h| h == "aligned")
        .map_or(0, |i| i + 1);
    if !augment.is_empty() {
        header.insert(variant_at, "variant".to_string());
    }
    csv.write_record(&header)
        .with_context(|| format!("writing the CSV to {name}"))?;

    let scorer: Arc<dyn Scorer> = Arc::new(AllFeatures);
    let teasers = if augment.contains(&Variant::Related) {
        teaser_pool(&corpus.pages)
    } else {
        TeaserPool::default()
    };
    let (mut pages, mut lines, mut content, mut failed) = (0usize, 0usize, 0usize, 0usize);
    let mut poor: Vec<(String, f64)> = Vec::new();
    // Pages and lines of each variant, and the variants' pages that aligned poorly.
    let mut variant_counts: std::collections::BTreeMap<Variant, (usize, usize)> =
        std::collections::BTreeMap::new();
    let mut variant_poor = 0usize;
    // Pages are labelled in parallel, a batch at a time, and written in corpus order.
    for batch in corpus.pages.chunks(64) {
        let results: Vec<Result<Labelled, (String, anyhow::Error)>> = batch
            .par_iter()
            .map(|page| {
                label_page(
                    page,
                    &scorer,
                    &augment,
                    &teasers,
                    args.write_variants.as_deref(),
                )
                .map_err(|e| (page.html.display().to_string(), e))
            })
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
                    if augment.is_empty() {
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
                    } else {
                        let original = (None, &l.decisions, &l.alignment);
                        let variants = l.variants.iter().map(|(v, d, a)| (Some(*v), d, a));
                        for (v, decisions, alignment) in std::iter::once(original).chain(variants) {
                            let doc = match v {
                                Some(v) => mainline_training::train::variant_doc(&l.page.id, v),
                                None => l.page.id.clone(),
                            };
                            let variant = v.map_or("original", Variant::name);
                            // A short page holds part of the gold text and a shell none of
                            // it: their alignment is as good as their page's.
                            let whole = v.is_none_or(Variant::holds_gold_text);
                            let aligned = if whole {
                                !alignment.is_poor()
                            } else {
                                !l.alignment.is_poor()
                            };
                            if let Some(v) = v {
                                let c = variant_counts.entry(v).or_default();
                                c.0 += 1;
                                c.1 += decisions.len();
                                if !aligned {
                                    variant_poor += 1;
                                }
                            }
                            let aligned = Some(aligned);
                            for (d, &y) in decisions.iter().zip(&alignment.labels) {
                                let mut fields =
                                    super::csv_fields(&doc, &l.page.group, (Some(y), aligned), d);
                                fields.insert(variant_at, variant.to_string());
                                csv.write_record(&fields)
                                    .with_context(|| format!("writing the CSV to {name}"))?;
                            }
                        }
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
    if !augment.is_empty() {
        eprintln!(
            "and their variants: {}; {variant_poor} poorly aligned",
            augment
                .iter()
                .map(|v| {
                    let (pages, lines) = variant_counts.get(v).copied().unwrap_or_default();
                    format!("{v} {pages} pages, {lines} lines")
                })
                .collect::<Vec<_>>()
                .join("; ")
        );
    }
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

/// Teasers of the corpus's pages ([`Variant::Related`]), by the page's language.
#[derive(Default)]
struct TeaserPool {
    /// Page id, language (lower case, before any `-`), teaser; in corpus order.
    teasers: Vec<(String, String, Teaser)>,
    /// The language of every page read, by page id ([`language_key`]).
    languages: std::collections::HashMap<String, String>,
}

impl TeaserPool {
    /// The teasers page `id` may show: of other pages in its language when there are at
    /// least 50 of them, else of every other page.
    fn for_page(&self, id: &str) -> Vec<Teaser> {
        let language = self.languages.get(id).map_or("", String::as_str);
        let same: Vec<Teaser> = self
            .teasers
            .iter()
            .filter(|(i, l, _)| i != id && l == language)
            .map(|(_, _, t)| t.clone())
            .collect();
        if same.len() >= 50 {
            return same;
        }
        self.teasers
            .iter()
            .filter(|(i, _, _)| i != id)
            .map(|(_, _, t)| t.clone())
            .collect()
    }
}

/// A page's language as the pool groups it: `en` for `en-GB`, `""` when unknown.
fn language_key(language: Option<&str>) -> String {
    language
        .unwrap_or("")
        .split(['-', '_'])
        .next()
        .unwrap_or("")
        .trim()
        .to_ascii_lowercase()
}

/// The title and description of every page that has a title of 20–150 characters (and a
/// description of 40–400 characters, when it has one that is not its title): what a
/// related-stories block would show of it.
fn teaser_pool(pages: &[Page]) -> TeaserPool {
    let options = mainline::Options::new().threshold(0.5);
    // Each page read: its language, and its teaser when it has a title to show.
    let found: Vec<Option<(String, Option<Teaser>)>> = pages
        .par_iter()
        .map(|page| {
            let html = read_page(&page.html).ok()?;
            let doc = options.extract(&html).ok()?;
            let meta = doc.metadata();
            let language = language_key(meta.language.as_deref());
            let teaser = meta.title.as_deref().map(headline).and_then(|title| {
                if !(20..=150).contains(&title.chars().count()) {
                    return None;
                }
                let summary = meta
                    .description
                    .as_deref()
                    .map(str::trim)
                    .filter(|d| (40..=400).contains(&d.chars().count()) && *d != title)
                    .map(str::to_string);
                Some(Teaser { title, summary })
            });
            Some((language, teaser))
        })
        .collect();
    let mut pool = TeaserPool::default();
    for (page, found) in pages.iter().zip(found) {
        let Some((language, teaser)) = found else {
            continue;
        };
        if let Some(teaser) = teaser {
            pool.teasers
                .push((page.id.clone(), language.clone(), teaser));
        }
        pool.languages.insert(page.id.clone(), language);
    }
    pool
}

/// A title as a headline: without a trailing ` | Site` or ` - Site` of at most 30
/// characters when at least 20 characters are left.
fn headline(title: &str) -> String {
    let title = title.trim();
    for sep in [" | ", " - ", " – ", " — ", " :: "] {
        if let Some(at) = title.rfind(sep) {
            let (head, tail) = (&title[..at], &title[at + sep.len()..]);
            if tail.chars().count() <= 30 && head.chars().count() >= 20 {
                return head.trim().to_string();
            }
        }
    }
    title.to_string()
}

/// A page's bytes as read (gzip undone).
fn read_page(path: &Path) -> Result<Vec<u8>> {
    let mut html = Vec::new();
    super::read_input(path, |piece| {
        html.extend_from_slice(piece);
        Ok(())
    })
    .map_err(|e| match e {
        Failure::Input(e) => e,
        Failure::Output(e) => e.into(),
    })?;
    Ok(html)
}

fn label_page(
    page: &Page,
    scorer: &Arc<dyn Scorer>,
    augment: &[Variant],
    pool: &TeaserPool,
    write_variants: Option<&Path>,
) -> Result<Labelled> {
    let decisions = page_decisions(&page.html, scorer)?;
    let align = |decisions: &[Decision]| {
        let texts: Vec<&str> = decisions.iter().map(|d| d.line.text.as_str()).collect();
        label::align(&texts, &page.gold)
    };
    let alignment = align(&decisions);
    let mut variants = Vec::with_capacity(augment.len());
    if !augment.is_empty() {
        let html = read_page(&page.html)?;
        // An article's last content line, where a related-stories block would follow it.
        let article = page.page_type.as_deref() == Some("article") && !alignment.is_poor();
        let article_end = alignment
            .labels
            .iter()
            .rposition(|&y| y)
            .filter(|_| article)
            .map(|i| (decisions[i].line.start + decisions[i].line.html_bytes) as usize);
        let teasers = if augment.contains(&Variant::Related) && article_end.is_some() {
            pool.for_page(&page.id)
        } else {
            Vec::new()
        };
        let spans: Vec<LineSpan> = decisions
            .iter()
            .zip(&alignment.labels)
            .map(|(d, &content)| LineSpan {
                start: d.line.start as usize,
                end: (d.line.start + d.line.html_bytes) as usize,
                content,
            })
            .collect();
        let facts = PageFacts {
            id: &page.id,
            article_end,
            teasers: &teasers,
            lines: if alignment.is_poor() { &[] } else { &spans },
        };
        for &v in augment {
            let Some(rewritten) = v.apply(&html, &facts)? else {
                continue;
            };
            if let Some(dir) = write_variants {
                let path = dir.join(format!(
                    "{}.html",
                    mainline_training::train::variant_doc(&page.id, v)
                ));
                fs::write(&path, &rewritten)
                    .with_context(|| format!("writing the page variant {}", path.display()))?;
            }
            let decisions = bytes_decisions(&rewritten, scorer)?;
            let alignment = align(&decisions);
            variants.push((v, decisions, alignment));
        }
    }
    Ok(Labelled {
        page: page.clone(),
        decisions,
        alignment,
        variants,
    })
}

/// All decisions (with features) for a page held in memory.
fn bytes_decisions(html: &[u8], scorer: &Arc<dyn Scorer>) -> Result<Vec<Decision>> {
    let mut ex =
        mainline::internals::extract::Extractor::new(Arc::clone(scorer)).with_features(true);
    let mut decisions = Vec::new();
    for piece in html.chunks(super::CHUNK) {
        ex.write(piece)?;
        while let Some(d) = ex.next_decision() {
            decisions.push(d);
        }
    }
    ex.end()?;
    while let Some(d) = ex.next_decision() {
        decisions.push(d);
    }
    Ok(decisions)
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
