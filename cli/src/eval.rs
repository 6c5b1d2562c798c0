//! `mainline eval`: the fixed threshold against trained models and the other seed
//! algorithms, by line and by page.

use std::collections::BTreeMap;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use anyhow::{Context, Result, bail};

use mainline::internals::model::Model;
use mainline_training::corpus::Corpus;
use mainline_training::cv::{self, CvData, CvOptions, Recipe};
use mainline_training::eval::{self, MethodLines, MethodPages, PageMethod, PageScore, WordScores};
use mainline_training::train;

/// Evaluate extraction: the fixed threshold, trained models and the other seed algorithms.
///
/// Line level (--data DATA.csv): accuracy, precision, recall, F1, false positives and
/// negatives of the fixed threshold and of each --model against the labels, and each
/// model's error reduction relative to the threshold.
///
/// Page level (--corpus DIR): for each --method, mean word precision, recall and F1 over
/// the pages (lower-cased \w+ tokens compared as bags, the WCXB benchmark's score) with 95%
/// bootstrap confidence intervals, per page type when known, and pages/s and MB/s of HTML
/// (one thread, decompressed pages in memory).
///
/// Cross-validation (--cv R with --data, and --corpus for page scores): the sites of
/// the labelled CSV are split into --folds folds; each recipe is trained on the other folds
/// and scored on the held-out sites' lines and pages. --seed-table runs the seed design's
/// experiment this way: the fixed threshold, and logistic and MLP classifiers on 1–3
/// attributes per line (1A density, 2A + HTML bytes, 3A + text length) with 1–3 lines of
/// context on each side (1L–3L).
///
/// Metadata (--corpus DIR --metadata): titles, authors and publication dates against the
/// corpus's own (WCXB's ground truth `title`, `author`, `publish_date`, each page read at
/// the `url` it records; Readability's `expected-metadata.json`), printed as the share of
/// pages with a gold value that agree: titles the same after lower-casing and keeping the
/// \w+ tokens, authors one holding the other after the same normalisation, dates the same
/// calendar day.
///
/// The training settings come from --recipe FILE (a recipe file, as `mainline train` reads;
/// the defaults without one); the flags below override single fields of it.
#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:\n  \
    mainline eval --corpus wcxb-dev --method threshold --method builtin --method eatiht\n  \
    mainline eval --data wcxb-dev.csv --model models/default.json --model models/logistic.json\n  \
    mainline eval --data wcxb-dev.csv --corpus wcxb-dev --cv threshold --cv mlp/full/3\n  \
    mainline eval --data wcxb-dev.csv --corpus wcxb-dev --cv threshold --recipe training/default.toml\n  \
    mainline eval --data wcxb-dev.csv --seed-table\n  \
    mainline eval --corpus wcxb-dev --metadata --per-page meta.csv\n\n\
    wcxb-dev: pages of the development split of WCXB, the Web Content eXtraction Benchmark\n\
    (Murrough Foley; CC-BY-4.0), in its layout: html/NNNN.html.gz and ground-truth/NNNN.json.\n\
    Old spellings still accepted for this release: --lines (now --data), --recipe NAME for a\n\
    recipe name rather than a file (now --cv NAME).")]
pub struct Args {
    /// A labelled CSV (from `mainline label`): line-level metrics, and the data for
    /// cross-validation.
    #[arg(long = "data", alias = "lines", value_name = "DATA.csv")]
    lines: Option<PathBuf>,

    /// A corpus of pages with gold text (the WCXB layout, or NAME.html + NAME.txt files):
    /// page-level word F1.
    #[arg(long, value_name = "DIR")]
    corpus: Option<PathBuf>,

    /// A model file to evaluate (repeatable). On a corpus, each model is also a method.
    #[arg(long = "model", value_name = "FILE")]
    models: Vec<PathBuf>,

    /// A page-level method (repeatable): threshold, builtin (the built-in model),
    /// most-linked, text-distribution, eatiht, lte-ratio, or `all` for every one of them.
    /// Default with --corpus: all.
    #[arg(long = "method", value_name = "NAME")]
    methods: Vec<String>,

    /// Cross-validate this recipe (repeatable): `threshold`, or MODEL/FEATURES/CONTEXT such
    /// as logistic/seed/1 or mlp/full/3 (FEATURES: seed, full, or attributes joined by +),
    /// optionally followed by /stackK for a two-stage model whose second stage reads the
    /// first-stage scores of K lines on each side (e.g. mlp/full/1/stack8), or by /pageK
    /// for one whose second stage also reads page-level inputs: scores against the whole
    /// page and pooled over the elements around the line (e.g. mlp/full/1/page8; the CSV
    /// needs the `path` column that this version of `mainline label` writes).
    #[arg(long = "cv", value_name = "RECIPE")]
    recipes: Vec<String>,

    /// A recipe file (TOML or JSON, as `mainline train --recipe` reads): every --cv recipe
    /// trains with its settings, and its own model (its learner, features, context and
    /// second stage) is cross-validated as one more recipe, named as --cv names it (e.g.
    /// mlp/full/1/page8 for training/default.toml).
    #[arg(long = "recipe", value_name = "FILE")]
    recipe_files: Vec<String>,

    /// Compare titles, authors and publication dates with the corpus's own metadata (see
    /// above); with --per-page, every page's gold and extracted values.
    #[arg(long, requires = "corpus", conflicts_with_all = ["lines", "recipes", "seed_table", "methods", "augment", "models"])]
    metadata: bool,

    /// Run the seed design's experiment (see above) by cross-validation on --data.
    #[arg(long)]
    seed_table: bool,

    /// Number of folds for cross-validation.
    #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u32).range(2..=100))]
    folds: u32,

    /// The text density X of the seed design's fixed rule (keep a line when its density is
    /// above X): the `threshold` method and recipe, as `filter --threshold X` uses it.
    #[arg(long, value_name = "X", default_value_t = 0.5, value_parser = super::parse_unit)]
    threshold: f32,

    #[command(flatten)]
    recipe_args: super::args::RecipeArgs,

    /// Seed for folds, training and the bootstrap. Default: the recipe's (42).
    #[arg(long)]
    seed: Option<u64>,

    /// Bootstrap resamples for the confidence intervals.
    #[arg(long, default_value_t = 1000)]
    bootstrap: usize,

    /// Page level (--corpus without --cv): also score every method on the pages rewritten
    /// as VARIANT (repeatable), reported as "METHOD [VARIANT]". `plain`: as an older site
    /// would have written them (no HTML5 sectioning elements, no class, id, role,
    /// microdata, aria-* or data-* attributes, no Open Graph, Twitter or JSON-LD metadata;
    /// see `mainline label --augment`); `tables`: the same, laid out in tables. In
    /// cross-validation each variant the CSV has is scored this way without it.
    #[arg(long, value_name = "VARIANT", value_parser = parse_variant)]
    augment: Vec<train::Variant>,

    /// Also write the results as JSON to FILE.
    #[arg(long, value_name = "FILE")]
    json: Option<PathBuf>,

    /// Write every page's scores (doc, group, page type, method, precision, recall, F1, and
    /// in cross-validation the page's lines and wrongly decided lines) to FILE as CSV, to
    /// look at the worst pages.
    #[arg(long, value_name = "FILE.csv")]
    per_page: Option<PathBuf>,

    /// Cross-validation: write every line's held-out decision to FILE as CSV (method, doc,
    /// group, the fold that held it out, line index in the page, label, keep, the score
    /// and the threshold it was compared with, heading level, text bytes and the text), to
    /// look at the lines a recipe gets wrong or at other thresholds.
    #[arg(long, value_name = "FILE.csv")]
    per_line: Option<PathBuf>,

    /// Cross-validation: also decide each held-out page in site mode, with the template
    /// learnt from its site's other pages, reported as "RECIPE [site]".
    #[arg(long)]
    by_site: bool,

    /// With --by-site: a line is template when at least this many of the site's other
    /// pages (and half of them) have it.
    #[arg(long, value_name = "N", default_value_t = 2, requires = "by_site")]
    site_min_pages: u32,
}

pub fn run(args: Args) -> Result<ExitCode> {
    let mut report = serde_json::Map::new();
    let seed = cv_recipes(&args)?.1.seed;
    let mut all_pages: Vec<MethodPages> = Vec::new();
    // Outputs are checked before the computation, which may take hours.
    for path in [&args.json, &args.per_page, &args.per_line]
        .into_iter()
        .flatten()
    {
        super::check_writable(path)?;
    }
    if args.metadata {
        return run_metadata(&args, report);
    }
    if let Some(v) = args.augment.iter().find(|v| !v.markup_only()) {
        bail!(
            "--augment {v} needs each page's labelled lines: label the corpus with `mainline \
             label --augment {v}` and cross-validate on that CSV (--cv) instead"
        );
    }
    let cv_mode = args.seed_table || !args.recipes.is_empty() || !args.recipe_files.is_empty();
    if !args.augment.is_empty() && (cv_mode || args.corpus.is_none()) {
        bail!(
            "--augment rewrites the pages of --corpus for page-level scores; in \
             cross-validation the variants come from the CSV (mainline label --augment), and \
             the recipe's augment field says which of them train"
        );
    }
    if args.per_line.is_some() && !cv_mode {
        bail!("--per-line writes cross-validation decisions: give --cv R (and --data)");
    }
    if cv_mode {
        let Some(lines) = &args.lines else {
            bail!(
                "cross-validation (--cv, --seed-table) needs a labelled CSV: give --data DATA.csv"
            );
        };
        let corpus = args.corpus.as_deref().map(open_corpus).transpose()?;
        let data = CvData::load(lines, corpus.as_ref())?;
        eprintln!(
            "{} lines of {} pages from {}",
            data.data.len(),
            data.pages.len(),
            lines.display()
        );
        let (mut recipes, options) = cv_recipes(&args)?;
        if args.seed_table {
            recipes = cv::seed_table(args.threshold);
        }
        let started = Instant::now();
        let mut results = cv::cross_validate(&data, &recipes, &options, &mut |m| {
            eprintln!("[{:>6.1}s] {m}", started.elapsed().as_secs_f64())
        })?;
        if args.by_site {
            let settings = mainline::site::Settings {
                min_pages: args.site_min_pages.max(1),
                ..mainline::site::Settings::default()
            };
            let sited = results
                .iter()
                .map(|r| cv::by_site(&data, r, settings))
                .collect::<mainline::Result<Vec<_>>>()?;
            results.extend(sited);
        }
        if let Some(path) = &args.per_line {
            write_per_line(path, &data, &results)?;
        }
        // The pages as written under the recipe's name; each variant's pages (a CSV of
        // `mainline label --augment`) as one more method, "RECIPE [VARIANT]".
        let line_results: Vec<MethodLines> = results
            .iter()
            .flat_map(|r| {
                std::iter::once(MethodLines {
                    method: r.recipe.clone(),
                    lines: r.lines,
                })
                .chain(r.variant_lines.iter().map(|(v, lines)| MethodLines {
                    method: variant_method(&r.recipe, *v),
                    lines: *lines,
                }))
            })
            .collect();
        outln!(
            "{}-fold cross-validation by site ({} sites), held-out lines:",
            args.folds,
            distinct(data.pages.iter().map(|p| p.group.as_str()))
        );
        if args.seed_table {
            print_seed_table(&line_results)?;
        } else {
            print_line_table(&line_results)?;
        }
        report.insert(
            "cross_validation_lines".into(),
            serde_json::to_value(&line_results)?,
        );
        if corpus.is_some() {
            for r in results {
                // A short page holds part of its page's gold text and a shell none of it,
                // so their word scores against the page's gold text mean nothing: they are
                // scored by their lines only.
                let variants: Vec<Option<train::Variant>> = std::iter::once(None)
                    .chain(
                        r.variant_lines
                            .iter()
                            .map(|(v, _)| *v)
                            .filter(|v| v.holds_gold_text())
                            .map(Some),
                    )
                    .collect();
                for v in variants {
                    all_pages.push(MethodPages {
                        method: v
                            .map_or_else(|| r.recipe.clone(), |v| variant_method(&r.recipe, v)),
                        pages: r
                            .pages
                            .iter()
                            .filter(|p| p.variant == v)
                            .map(|p| PageScore {
                                doc: p.doc.clone(),
                                group: p.group.clone(),
                                page_type: p.page_type.clone(),
                                scores: p.scores,
                                lines: Some((p.lines, p.line_errors)),
                            })
                            .collect(),
                        seconds: None,
                        bytes: 0,
                    });
                }
            }
            outln!();
            outln!(
                "{}-fold cross-validation by site, held-out pages:",
                args.folds
            );
            print_page_table(&all_pages, args.bootstrap, seed)?;
        }
    } else {
        if args.lines.is_none() && args.corpus.is_none() {
            bail!("nothing to evaluate: give --data DATA.csv, --corpus DIR, or both");
        }
        let models: Vec<(String, Model)> = args
            .models
            .iter()
            .map(|p| Ok((p.display().to_string(), Model::load(p)?)))
            .collect::<Result<_>>()?;
        if let Some(lines) = &args.lines {
            let results = eval::line_level(lines, &models, args.threshold)?;
            outln!("Lines of {}:", lines.display());
            print_line_table(&results)?;
            report.insert("lines".into(), serde_json::to_value(&results)?);
        }
        if let Some(dir) = &args.corpus {
            let corpus = open_corpus(dir)?;
            let methods = PageMethod::from_names(&args.methods, &models, args.threshold)?;
            let htmls = read_pages(&corpus)?;
            all_pages = eval::page_level(&corpus, &htmls, &methods, &mut |m| eprintln!("{m}"));
            for &v in &args.augment {
                let rewritten: Vec<Vec<u8>> = htmls
                    .iter()
                    .zip(&corpus.pages)
                    .map(|(html, page)| {
                        let facts = train::PageFacts {
                            id: &page.id,
                            article_end: None,
                            teasers: &[],
                            lines: &[],
                        };
                        let out = v.apply(html, &facts).with_context(|| {
                            format!("{}: rewriting as {v}", page.html.display())
                        })?;
                        Ok(out.unwrap_or_else(|| html.clone()))
                    })
                    .collect::<Result<_>>()?;
                let pages = eval::page_level(&corpus, &rewritten, &methods, &mut |m| {
                    eprintln!("{m} [{v}]")
                });
                all_pages.extend(pages.into_iter().map(|mut m| {
                    m.method = variant_method(&m.method, v);
                    m
                }));
            }
            if args.lines.is_some() {
                outln!();
            }
            outln!("Pages of {} ({} pages):", dir.display(), corpus.pages.len());
            print_page_table(&all_pages, args.bootstrap, seed)?;
        }
    }
    if !all_pages.is_empty() {
        report.insert(
            "pages".into(),
            page_summary(&all_pages, args.bootstrap, seed),
        );
    }
    if let Some(path) = &args.per_page {
        write_per_page(path, &all_pages)?;
    }
    if let Some(path) = &args.json {
        let text = serde_json::to_string_pretty(&serde_json::Value::Object(report))?;
        mainline_training::atomic::write(path, text + "\n")
            .with_context(|| format!("writing {}", path.display()))?;
    }
    Ok(ExitCode::SUCCESS)
}

/// `--metadata`: the corpus's pages read with the built-in model, their metadata
/// compared with the gold.
fn run_metadata(
    args: &Args,
    mut report: serde_json::Map<String, serde_json::Value>,
) -> Result<ExitCode> {
    use mainline_training::eval::metadata::{FIELDS, metadata_level, summarize_field};
    let dir = args.corpus.as_deref().expect("clap requires --corpus");
    let corpus = open_corpus(dir)?;
    let with = corpus.pages.iter().filter(|p| p.meta.is_some()).count();
    if with == 0 {
        bail!(
            "{}: no page has gold metadata (WCXB ground truth, or Readability's \
             expected-metadata.json)",
            dir.display()
        );
    }
    let htmls = read_pages(&corpus)?;
    let results = metadata_level(&corpus, &htmls, &mainline::Options::new())?;
    outln!(
        "Metadata of {} ({with} pages with gold metadata):",
        dir.display()
    );
    outln!(
        "{:<10} {:>6} {:>6} {:>8} {:>7}",
        "field",
        "pages",
        "agree",
        "missing",
        "share"
    );
    let mut summary = serde_json::Map::new();
    for field in FIELDS {
        let s = summarize_field(&results, field);
        outln!(
            "{:<10} {:>6} {:>6} {:>8} {:>7.3}",
            field,
            s.pages,
            s.agree,
            s.missing,
            s.share()
        );
        let mut v = serde_json::to_value(s)?;
        v["share"] = s.share().into();
        summary.insert(field.into(), v);
    }
    report.insert("metadata".into(), summary.into());
    if let Some(path) = &args.per_page {
        write_csv(path, &["doc", "field", "agree", "gold", "got"], |w| {
            for r in &results {
                w.write_record([
                    r.doc.as_str(),
                    r.field,
                    if r.agree { "1" } else { "0" },
                    r.gold.as_str(),
                    r.got.as_deref().unwrap_or(""),
                ])?;
            }
            Ok(())
        })?;
    }
    if let Some(path) = &args.json {
        let text = serde_json::to_string_pretty(&serde_json::Value::Object(report))?;
        mainline_training::atomic::write(path, text + "\n")
            .with_context(|| format!("writing {}", path.display()))?;
    }
    Ok(ExitCode::SUCCESS)
}

fn parse_variant(s: &str) -> Result<train::Variant, String> {
    s.parse().map_err(|e: mainline::Error| e.to_string())
}

/// The name a method's scores on pages rewritten as `variant` are reported under.
fn variant_method(method: &str, variant: train::Variant) -> String {
    format!("{method} [{variant}]")
}

/// The recipes to cross-validate (those of --cv, then the recipe file's) and the options
/// they train with: the recipe file's settings (or the defaults), the flags over them.
fn cv_recipes(args: &Args) -> Result<(Vec<Recipe>, CvOptions)> {
    let mut recipes: Vec<Recipe> = args
        .recipes
        .iter()
        .map(|r| r.parse::<Recipe>())
        .collect::<Result<_, _>>()?;
    let mut file = None;
    for value in &args.recipe_files {
        let path = Path::new(value);
        if path.is_file() {
            usage_ensure!(
                file.is_none(),
                "--recipe FILE takes one recipe file; cross-validate others with --cv"
            );
            file = Some(path);
        } else {
            // The old spelling of --cv.
            recipes.push(value.parse::<Recipe>().map_err(|e| {
                anyhow::anyhow!("--recipe {value}: no such recipe file, nor a --cv recipe: {e}")
            })?);
        }
    }
    let mut r = match file {
        Some(path) => train::Recipe::load(path)?,
        None => train::Recipe::default(),
    };
    args.recipe_args.apply(&mut r);
    if let Some(seed) = args.seed {
        r.seed = seed;
    }
    let mut stack = r.stack.clone().unwrap_or_default();
    args.recipe_args.apply_stack(&mut stack);
    if file.is_some() {
        let own = r.stack.as_ref().map(|s| (s.lookahead, s.page));
        recipes.push(Recipe::Trained {
            model: r.learner,
            features: cv::Attributes::Set(r.features),
            context: r.context,
            stack: own.map(|(k, _)| k),
            page: own.is_some_and(|(_, page)| page),
        });
    }
    r.stack = Some(stack);
    r.check()?;
    let options = CvOptions {
        folds: args.folds as usize,
        seed: r.seed,
        params: r.train_params().seed(r.seed),
        stack: r.stack_params().unwrap_or_default(),
        skip_poorly_aligned: r.skip_poorly_aligned,
        augment: r.augment(),
    };
    Ok((recipes, options))
}

/// Opens a corpus and says on standard error which pages it skips for want of gold text.
fn open_corpus(dir: &Path) -> Result<Corpus> {
    let corpus = Corpus::open(dir)?;
    if !corpus.skipped.is_empty() {
        let names: Vec<String> = corpus
            .skipped
            .iter()
            .map(|p| p.display().to_string())
            .collect();
        eprintln!(
            "mainline: skipping {} pages without gold text: {}",
            names.len(),
            names.join(", ")
        );
    }
    Ok(corpus)
}

/// The pages of a corpus, decompressed into memory.
fn read_pages(corpus: &Corpus) -> Result<Vec<Vec<u8>>> {
    let mut htmls = Vec::with_capacity(corpus.pages.len());
    for page in &corpus.pages {
        let mut bytes = Vec::new();
        super::open_input(&page.html)
            .and_then(|mut r| r.read_to_end(&mut bytes).map_err(Into::into))
            .with_context(|| format!("reading {}", page.html.display()))?;
        htmls.push(bytes);
    }
    Ok(htmls)
}

fn distinct<'a>(items: impl Iterator<Item = &'a str>) -> usize {
    let mut v: Vec<&str> = items.collect();
    v.sort_unstable();
    v.dedup();
    v.len()
}

fn seed_label(recipe: &str) -> String {
    // "mlp/density+ln_html_bytes/2" → "MLP 2A 2L"
    let parts: Vec<&str> = recipe.split('/').collect();
    match parts[..] {
        [model, attrs, context] => {
            let model = if model == "mlp" {
                "MLP"
            } else {
                "SLP (logistic)"
            };
            format!("{model} {}A {context}L", attrs.split('+').count())
        }
        _ => recipe.to_string(),
    }
}

fn print_seed_table(results: &[MethodLines]) -> Result<()> {
    let baseline = results.first().map(|r| r.lines.errors()).unwrap_or(0);
    outln!(
        "{:<22} {:>9} {:>9} {:>9} {:>11}",
        "method",
        "errors",
        "false +",
        "false -",
        "reduction"
    );
    for r in results {
        let c = &r.lines;
        outln!(
            "{:<22} {:>9} {:>9} {:>9} {:>10.1}%",
            seed_label(&r.method),
            c.errors(),
            c.fp,
            c.fn_,
            100.0 * eval::error_reduction(baseline, c.errors()),
        );
    }
    outln!("(reduction: fewer misclassified lines than the fixed threshold)");
    Ok(())
}

fn print_line_table(results: &[MethodLines]) -> Result<()> {
    let baseline = results.first().map(|r| r.lines.errors()).unwrap_or(0);
    let width = results
        .iter()
        .map(|r| r.method.len())
        .max()
        .unwrap_or(6)
        .max(6);
    outln!(
        "{:<width$} {:>9} {:>8} {:>9} {:>8} {:>8} {:>8} {:>8} {:>8} {:>10}",
        "method",
        "lines",
        "accuracy",
        "precision",
        "recall",
        "F1",
        "false +",
        "false -",
        "errors",
        "reduction"
    );
    for r in results {
        let c = &r.lines;
        outln!(
            "{:<width$} {:>9} {:>8.4} {:>9.4} {:>8.4} {:>8.4} {:>8} {:>8} {:>8} {:>9.1}%",
            r.method,
            c.total(),
            c.accuracy(),
            c.precision(),
            c.recall(),
            c.f1(),
            c.fp,
            c.fn_,
            c.errors(),
            100.0 * eval::error_reduction(baseline, c.errors()),
        );
    }
    outln!("(reduction: fewer misclassified lines than the first row, the fixed threshold)");
    Ok(())
}

/// Line-level metrics of the threshold and each model on a labelled CSV.
fn print_page_table(methods: &[MethodPages], resamples: usize, seed: u64) -> Result<()> {
    let width = methods
        .iter()
        .map(|m| m.method.len())
        .max()
        .unwrap_or(6)
        .max(6);
    outln!(
        "{:<width$} {:>6} {:>9} {:>8} {:>8} {:>17} {:>8} {:>8}",
        "method",
        "pages",
        "precision",
        "recall",
        "F1",
        "F1 95% CI",
        "pages/s",
        "MB/s"
    );
    for m in methods {
        let scores: Vec<&WordScores> = m.pages.iter().map(|p| &p.scores).collect();
        let s = eval::summarize(&scores, resamples, seed);
        let (pps, mbps) = match m.seconds {
            Some(sec) if sec > 0.0 => (
                format!("{:.0}", m.pages.len() as f64 / sec),
                format!("{:.1}", m.bytes as f64 / sec / 1e6),
            ),
            _ => ("-".into(), "-".into()),
        };
        outln!(
            "{:<width$} {:>6} {:>9.4} {:>8.4} {:>8.4} {:>17} {:>8} {:>8}",
            m.method,
            s.n,
            s.precision.0,
            s.recall.0,
            s.f1.0,
            format!("[{:.4}, {:.4}]", s.f1.1, s.f1.2),
            pps,
            mbps
        );
    }
    let types = eval::page_types(methods);
    if !types.is_empty() {
        outln!();
        out!("{:<width$}", "F1 by page type");
        for t in &types {
            out!(" {:>13}", t);
        }
        outln!();
        out!("{:<width$}", "(pages)");
        for t in &types {
            let n = methods[0]
                .pages
                .iter()
                .filter(|p| p.page_type.as_deref() == Some(t.as_str()))
                .count();
            out!(" {:>13}", n);
        }
        outln!();
        for m in methods {
            out!("{:<width$}", m.method);
            for t in &types {
                let v: Vec<f64> = m
                    .pages
                    .iter()
                    .filter(|p| p.page_type.as_deref() == Some(t.as_str()))
                    .map(|p| p.scores.f1)
                    .collect();
                // A page variant that applies to some page types only has no pages of
                // the others.
                if v.is_empty() {
                    out!(" {:>13}", "–");
                } else {
                    out!(" {:>13.4}", eval::mean(&v));
                }
            }
            outln!();
        }
    }
    Ok(())
}

fn page_summary(methods: &[MethodPages], resamples: usize, seed: u64) -> serde_json::Value {
    let types = eval::page_types(methods);
    let list: Vec<serde_json::Value> = methods
        .iter()
        .map(|m| {
            let scores: Vec<&WordScores> = m.pages.iter().map(|p| &p.scores).collect();
            let s = eval::summarize(&scores, resamples, seed);
            let mut by_type = BTreeMap::new();
            for t in &types {
                let sc: Vec<&WordScores> = m
                    .pages
                    .iter()
                    .filter(|p| p.page_type.as_deref() == Some(t.as_str()))
                    .map(|p| &p.scores)
                    .collect();
                let st = eval::summarize(&sc, resamples, seed);
                by_type.insert(
                    t.clone(),
                    serde_json::json!({"pages": st.n, "precision": st.precision.0, "recall": st.recall.0, "f1": st.f1.0, "f1_ci95": [st.f1.1, st.f1.2]}),
                );
            }
            serde_json::json!({
                "method": m.method,
                "pages": s.n,
                "precision": s.precision.0,
                "precision_ci95": [s.precision.1, s.precision.2],
                "recall": s.recall.0,
                "recall_ci95": [s.recall.1, s.recall.2],
                "f1": s.f1.0,
                "f1_ci95": [s.f1.1, s.f1.2],
                "seconds": m.seconds,
                "html_bytes": m.bytes,
                "by_page_type": by_type,
            })
        })
        .collect();
    serde_json::Value::Array(list)
}

fn write_per_page(path: &Path, methods: &[MethodPages]) -> Result<()> {
    let header = [
        "doc",
        "group",
        "page_type",
        "method",
        "precision",
        "recall",
        "f1",
        "lines",
        "line_errors",
    ];
    write_csv(path, &header, |w| {
        for m in methods {
            for p in &m.pages {
                w.write_record([
                    p.doc.as_str(),
                    p.group.as_str(),
                    p.page_type.as_deref().unwrap_or(""),
                    m.method.as_str(),
                    &format!("{:.4}", p.scores.precision),
                    &format!("{:.4}", p.scores.recall),
                    &format!("{:.4}", p.scores.f1),
                    &p.lines.map_or(String::new(), |l| l.0.to_string()),
                    &p.lines.map_or(String::new(), |l| l.1.to_string()),
                ])?;
            }
        }
        Ok(())
    })
}

/// Every line's held-out decision under each recipe, with its label and text.
fn write_per_line(path: &Path, data: &CvData, results: &[cv::RecipeResult]) -> Result<()> {
    let header = [
        "method",
        "doc",
        "group",
        "fold",
        "line",
        "label",
        "keep",
        "score",
        "threshold",
        "heading_level",
        "text_bytes",
        "text",
    ];
    let heading = data.data.feature_index("heading_level");
    let flag = |b: bool| if b { "1" } else { "0" };
    write_csv(path, &header, |w| {
        for r in results {
            for (page, result) in data.pages.iter().zip(&r.pages) {
                let fold = (result.fold + 1).to_string();
                for (i, row) in page.rows.clone().enumerate() {
                    let text = data.texts[row].as_str();
                    let (score, threshold) = r.scores[row];
                    w.write_record([
                        r.recipe.as_str(),
                        page.doc.as_str(),
                        page.group.as_str(),
                        &fold,
                        &i.to_string(),
                        flag(data.data.y[row]),
                        flag(r.keep[row]),
                        &score.to_string(),
                        &threshold.to_string(),
                        &heading.map_or(String::new(), |c| data.data.x[[row, c]].to_string()),
                        &text.len().to_string(),
                        text,
                    ])?;
                }
            }
        }
        Ok(())
    })
}

/// Writes a CSV file: the header, then what `rows` writes.
fn write_csv(
    path: &Path,
    header: &[&str],
    rows: impl FnOnce(&mut csv::Writer<mainline_training::atomic::AtomicFile>) -> Result<()>,
) -> Result<()> {
    let writing = || format!("writing {}", path.display());
    let file = mainline_training::atomic::AtomicFile::create(path).with_context(writing)?;
    let mut w = csv::Writer::from_writer(file);
    w.write_record(header).with_context(writing)?;
    rows(&mut w).with_context(writing)?;
    w.into_inner()
        .map_err(|e| anyhow::Error::new(e.into_error()))
        .and_then(|f| f.commit().map_err(Into::into))
        .with_context(writing)
}
