//! `mainline filter`: the main job. HTML in, main-content text out.
//!
//! Inputs are filtered one after the other, or with several inputs (or JSON lines
//! records) on `--jobs` threads, whose outputs are written in input order
//! ([`mainline::source::ordered`]). `--recursive` walks directories ([`walk`]);
//! `--input-format jsonl` reads and writes one JSON object per line ([`jsonl`], reading
//! with [`mainline::source::jsonl`]); `--input-format warc` reads WARC files ([`warc`], with
//! [`mainline::source::warc`]).
//!
//! This file holds the options and the run over the inputs; [`engine`] the engines and
//! the job of one input; [`pages`] how one page is written (text, Markdown, JSON, the
//! per-line decisions).

mod engine;
pub(super) mod jsonl;
mod pages;
mod warc;

use std::collections::HashMap;
use std::io::{self, IsTerminal, Write};
use std::num::NonZeroUsize;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{Context, Result};

use mainline::Format;
use mainline::source::jsonl::{Batch, Batches};
use mainline::source::ordered;
use mainline_training::methods::Method;

use super::{display_name, inputs_or_stdin};
use crate::args::{InputFormat, parse_size};
use crate::walk::{self, Found};
use engine::{Engine, Job, Outcome, Render, Shared, execute, page_jobs};
use pages::Extractors;

/// Write the main content of HTML pages as text, one output line per kept line.
///
/// Each input is read as a stream (gzip is decompressed, the character encoding is taken
/// from a byte order mark, a <meta> charset or detection; output is always UTF-8) and each
/// line is decided as soon as what the model needs has been read: the lines after it, or,
/// for a model that weighs the whole page (the built-in one), the rest of its block of the
/// page (at most 4,096 lines and 4 MiB of text, so memory stays bounded).
///
/// By default the model built into mainline decides (two small perceptrons: one scores
/// each line, the second decides from those scores across the page); --model uses another
/// model file and --threshold the seed design's fixed rule (keep a line when its text
/// density is above X).
///
/// Several inputs are filtered in parallel (--jobs); the output is the same as one after
/// the other, in the order of the inputs. With more than one input a summary line (files,
/// bytes, failures, seconds) ends standard error, and when standard error is a terminal
/// (and standard output is not, or --out-dir or -o is given) a progress bar shows pages/s and
/// MB/s; --quiet turns both off.
///
/// An input that cannot be read is reported on standard error with its name, the other
/// inputs are still processed, and the exit code is 1. Inputs that start like a binary
/// format (PNG, JPEG, GIF, PDF, ZIP, ...) are such errors; anything else is read as HTML.
///
/// Limits: memory stays bounded whatever the input, and there is no maximum input size.
/// A line's text is cut into pieces of at most 1 MiB; a tag, comment or doctype longer
/// than 1 MiB is cut there (the rest of it is skipped), a tag keeps at most 1024
/// attributes, at most 16,384 elements are tracked as open (further start tags are skipped,
/// their text is kept), a line records the tag, class and id of its 4 nearest classed
/// ancestors (64 bytes each), and up to 64 KiB of an input are held back until its
/// encoding is known.
///
/// JSON lines (--input-format jsonl), for pipelines such as Spark's RDD.pipe, Hadoop
/// streaming or GNU parallel: every input line is one JSON object with an "html" string.
/// Every input line gives exactly one output line, in order: the record's other fields in
/// their order, unchanged, then "text" (the kept lines joined by "\n"). "html" is left out
/// unless --keep-html; input fields named "text" or "error" are replaced. A record that
/// cannot be filtered (not a JSON object, no "html" string, an empty line, a document the
/// filter rejects) gets "text": null and "error": why; it never stops the stream and does
/// not change the exit code. The html string is taken as decoded text: a <meta> charset in
/// it is ignored.
///
/// WARC files (--input-format warc, chosen by itself for inputs that start with "WARC/1."
/// after gzip; Common Crawl's .warc.gz files): every response record whose HTTP payload is
/// HTML (Content-Type text/html or application/xhtml+xml, or no type and a payload that
/// starts like HTML) gives one JSON line, in file order: "warc_record_id", "url" (the
/// WARC-Target-URI, also the URL links are resolved against), "warc_date", "text", and
/// with --format json the page's metadata, with --format markdown its "markdown". Requests, metadata, revisits, other media
/// types and responses with a status other than 2xx (unless --any-status) are skipped and
/// counted in the summary. The payload's chunked transfer encoding and gzip, deflate or br
/// content encoding are undone; its encoding is taken from a byte order mark, then the HTTP
/// header's charset, then a <meta> charset, then detection. A record that cannot be read
/// gives a line with "text": null, "error" and "warc_offset" (where it starts in the file),
/// and reading goes on at the next gzip member or WARC header; a payload over
/// --max-payload is cut, and its line has the text of the beginning and an "error". Either
/// makes the exit code 1. One thread reads and decompresses, --jobs threads extract.
/// --out-dir writes DIR/<stem>.jsonl.gz per WARC file (whole or not at all).
#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:\n  \
    mainline filter page.html\n  \
    mainline filter --out-dir texts/ pages/*.html.gz\n  \
    mainline filter --recursive --out-dir texts/ crawl/\n  \
    mainline filter --recursive -o texts.txt crawl/\n  \
    curl -s https://example.org | mainline filter --format jsonl | jq 'select(.keep|not).text'\n  \
    zcat pages.jsonl.gz | mainline filter --input-format jsonl --jobs 8 > texts.jsonl\n  \
    mainline filter CC-MAIN-20250101-00000.warc.gz > texts.jsonl\n  \
    mainline filter --input-format warc --jobs 8 --out-dir texts/ crawl/*.warc.gz")]
pub struct Args {
    /// HTML files (plain or gzip), or directories with --recursive. `-` or no file reads
    /// standard input.
    #[arg(value_name = "FILE")]
    files: Vec<PathBuf>,

    /// Write each input's text to DIR/<stem>.txt (the file name without .gz and without
    /// .html, .htm or .xhtml, also where a query string follows them: index.html?p=2
    /// gives index?p=2.txt) instead of standard output. Each file is written whole or not
    /// at all. Pages found by --recursive keep their path below the directory given
    /// (DIR/<sub/dirs>/<stem>.txt). Without it, several inputs in text or Markdown go to
    /// standard output one after the other, each ended by a line holding a form feed alone
    /// (\f, "\x0c\n": no page's text has one), inputs that failed or kept nothing too, so
    /// that the output splits into one part per input, in input order.
    #[arg(long, value_name = "DIR", conflicts_with = "output")]
    out_dir: Option<PathBuf>,

    /// Write everything that would go to standard output to FILE instead, whole or not at
    /// all (as `label`, `train` and `review` write theirs): the same bytes, put in place
    /// when the run ends. --out-dir writes one file per input instead.
    #[arg(short, long, value_name = "FILE")]
    output: Option<PathBuf>,

    /// Output format: `text` (the kept lines), `markdown` (GitHub-flavoured Markdown: the
    /// page's headline (see --no-headline), headings, lists, code blocks, tables, quotes,
    /// inline code and emphasis), `json` (one JSON object per page: source, url, title,
    /// author, published, modified, site_name, description, language, image, page_types,
    /// text, kept_lines, total_lines, encoding, confidence: the page's likely word F1, from
    /// 0 to 1, predicted from the built-in model's scores, null with another model and for
    /// an empty input) or `jsonl` (one JSON object for every line
    /// of the page with its text, byte counts, density, score, decision and feature
    /// values). With --input-format jsonl, `json` adds the page's fields to each record and
    /// `markdown` adds "markdown".
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,

    /// With --format markdown (and the "markdown" of --format json): write links as
    /// [text](url), made absolute against the page's <base href> or --url. Only URLs of
    /// the allow-list are written: relative, http:, https: and mailto: (javascript:,
    /// data:, vbscript: … links are written as their text; tabs and newlines in a URL are
    /// removed first, as browsers do).
    #[arg(long)]
    links: bool,

    /// With --format markdown (and the "markdown" of --format json): write images inside
    /// kept lines as ![alt](src). Only sources of the allow-list are written: relative,
    /// http:, https: and data:image/…; other images are left out.
    #[arg(long)]
    images: bool,

    /// The page's URL: relative links resolve against it (a <base href> in the page wins)
    /// and it is the "url" of --format json (else the page's canonical link).
    #[arg(long, value_name = "URL")]
    url: Option<String>,

    /// With --format json: add the Markdown of the page as "markdown".
    #[arg(long)]
    with_markdown: bool,

    /// With --format markdown (and the "markdown" of --format json): do not start the
    /// Markdown with the page's headline. By default it starts with "# headline": the
    /// page's first <h1> (unless that is only the site's name), else its title, whether
    /// or not the model kept that line (a kept heading of the same text is not written
    /// again). Text output never has it: benchmarks leave the headline out of the text.
    #[arg(long)]
    no_headline: bool,

    /// What the inputs hold: `html` (one page per input; inputs that start with "WARC/1."
    /// are read as WARC files), `jsonl` (one JSON object per line, each with the page in its
    /// "html" field) or `warc` (WARC files, plain or gzip; see above).
    #[arg(long, value_enum, value_name = "FORMAT", default_value_t = InputFormat::Html)]
    input_format: InputFormat,

    /// With --input-format jsonl: keep the "html" field in the output records.
    #[arg(long)]
    keep_html: bool,

    /// With --input-format jsonl: the longest record (input line) read, in bytes, with an
    /// optional K, M or G suffix (powers of 1024). A longer record is read to its end
    /// without being kept, and gets an "error" line; the stream goes on.
    #[arg(long, value_name = "BYTES", default_value = "64M", value_parser = parse_size)]
    max_record_bytes: usize,

    /// With WARC input: the most bytes of a record kept, and of its payload once decoded,
    /// with an optional K, M or G suffix (powers of 1024). Beyond it the record is cut: its
    /// line has the text of the beginning and an "error".
    #[arg(long, value_name = "BYTES", default_value = "16M", value_parser = parse_size)]
    max_payload: usize,

    /// With WARC input: also read responses whose HTTP status is not 2xx (error pages,
    /// redirects with a body).
    #[arg(long)]
    any_status: bool,

    /// Walk directories given as inputs, and their subdirectories, for pages, in name order:
    /// files named *.html, *.htm or *.xhtml (or .gz, in any case), saved pages such as
    /// index.html?p=2, and files without an extension that start as HTML does; with
    /// --input-format jsonl, files named *.jsonl or *.ndjson (or .gz). Symbolic links to
    /// directories are not followed. The files skipped are counted on standard error
    /// (named with -v).
    #[arg(short, long)]
    recursive: bool,

    /// Filter up to N inputs (or batches of JSON lines records) at once, on N threads.
    /// Default: one per core. The output does not depend on N.
    #[arg(short, long, value_name = "N", value_parser = super::parse_jobs)]
    jobs: Option<NonZeroUsize>,

    /// No progress bar and no summary line on standard error (failures are still reported).
    #[arg(short, long)]
    quiet: bool,

    /// With --recursive: name on standard error each file the walk skipped (by default one
    /// line counts them by extension).
    #[arg(short, long)]
    verbose: bool,

    /// Keep lines whose text density (text bytes / HTML bytes) is above X, the seed
    /// design's fixed rule (its value: 0.5), instead of using a model.
    #[arg(long, value_name = "X", conflicts_with = "model", value_parser = super::parse_unit)]
    threshold: Option<f32>,

    /// Decide with the model in FILE (written by `mainline train`) instead of the
    /// built-in model.
    #[arg(long, value_name = "FILE")]
    model: Option<PathBuf>,

    /// How pages are filtered: `builtin` (the default: the streaming line filter with the
    /// built-in model), `threshold` (the streaming line filter with the seed design's fixed
    /// density rule, 0.5 unless --threshold says otherwise), or, for comparison, one of the
    /// seed algorithms `most-linked`, `text-distribution`, `eatiht` or `lte-ratio` (the names
    /// `mainline eval --method` uses). The seed algorithms are whole-document DOM methods,
    /// NOT streaming: each page is read and parsed whole (html5ever) before anything is
    /// written, and they write text only. Limits, so that time and memory stay bounded: a
    /// page of at most 32 MiB, elements nested at most 2,000 deep, and at most 10,000
    /// elements plus one per 2 bytes of the page (1,000,000 in all); a page beyond them is
    /// reported as an error (parsing stops there) and the other inputs go on.
    #[arg(long, value_name = "NAME", value_parser = parse_method)]
    method: Option<FilterMethod>,

    /// With --method most-linked: also write the seed's graphviz graph of the pruned tree,
    /// with the chosen node filled, to FILE (for one input; render with `dot -Tpng`).
    #[arg(long, value_name = "FILE")]
    dot: Option<PathBuf>,

    /// Site mode over files, directories, WARC files and JSON lines: a first pass learns the
    /// template of each site (host: from --url, a WARC record's URI, a JSON lines record's
    /// "url" field, else the page's canonical link),
    /// what it repeats on most of its pages; a second pass extracts, dropping the template's
    /// lines unless the page's own evidence for them is strong. A page whose site has no
    /// other page is filtered as without it. With --format jsonl each line that appears on
    /// other pages of its site gets "template": {"pages", "of", "dropped"}; --format json
    /// counts them under "site". Standard input cannot be read twice: use --site-profile.
    #[arg(long, conflicts_with = "site_profile")]
    by_site: bool,

    /// Site mode with the templates saved by `mainline site learn` in FILE, for inputs read
    /// once (standard input with --url, a live crawl).
    #[arg(long, value_name = "FILE")]
    site_profile: Option<PathBuf>,

    /// With --by-site: the most memory the sites' tables take (72 KiB a site), with an
    /// optional K, M or G suffix; the pages of sites met after it is reached are filtered
    /// without site mode.
    #[arg(long, value_name = "BYTES", default_value = "512M", value_parser = parse_size)]
    site_memory: usize,
}

/// A value of `filter --method`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum FilterMethod {
    /// The streaming filter with the built-in model (or --model).
    Builtin,
    /// The streaming filter with the fixed density rule.
    Threshold,
    /// A whole-document comparison method.
    Comparison(Method),
}

fn parse_method(s: &str) -> Result<FilterMethod, String> {
    let names = || {
        let dom: Vec<&str> = Method::ALL.iter().map(|m| m.name()).collect();
        format!("builtin, threshold, {}", dom.join(", "))
    };
    match s.trim().to_ascii_lowercase().as_str() {
        "builtin" => Ok(FilterMethod::Builtin),
        "threshold" => Ok(FilterMethod::Threshold),
        "all" => Err(format!(
            "`all` compares every method in `mainline eval --method all`; filter \
             writes one method's text: name one of {}",
            names()
        )),
        _ => s
            .parse()
            .map(FilterMethod::Comparison)
            .map_err(|_| format!("unknown method {s:?}; use {}", names())),
    }
}

pub fn run(args: Args) -> Result<ExitCode> {
    let jsonl_in = args.input_format == InputFormat::Jsonl;
    match args.method {
        Some(FilterMethod::Builtin) => usage_ensure!(
            args.threshold.is_none(),
            "--threshold sets the density rule of --method threshold; --method builtin uses a model"
        ),
        Some(FilterMethod::Threshold) => usage_ensure!(
            args.model.is_none(),
            "--model names a model; --method threshold uses the density rule"
        ),
        Some(FilterMethod::Comparison(method)) => usage_ensure!(
            args.model.is_none() && args.threshold.is_none(),
            "--model and --threshold apply to the streaming filter; --method {method} is another algorithm"
        ),
        None => {}
    }
    usage_ensure!(
        args.dot.is_none() || matches!(args.method, Some(FilterMethod::Comparison(_))),
        "--dot draws the tree of most-linked; use it with --method most-linked"
    );
    if let Some(FilterMethod::Comparison(method)) = args.method {
        usage_ensure!(
            args.format == Format::Text,
            "--format {} needs the streaming filter's lines; --method {method} writes text only \
             (--format text)",
            args.format.name()
        );
        usage_ensure!(
            args.dot.is_none() || method == Method::MostLinked,
            "--dot draws the tree of most-linked; use it with --method most-linked"
        );
    }
    usage_ensure!(
        !(jsonl_in && args.format == Format::Lines),
        "--format jsonl describes every line of a page; with --input-format jsonl each record gets its text"
    );
    usage_ensure!(
        !(jsonl_in && args.out_dir.is_some()),
        "--input-format jsonl writes one output record per input record to standard output; drop --out-dir"
    );
    usage_ensure!(
        !(jsonl_in && args.dot.is_some()),
        "--dot draws the tree of one page; it does not apply to --input-format jsonl"
    );
    usage_ensure!(
        jsonl_in || !args.keep_html,
        "--keep-html applies to --input-format jsonl"
    );
    usage_ensure!(
        !args.with_markdown || args.format == Format::Json,
        "--with-markdown adds Markdown to --format json; use it with --format json"
    );
    usage_ensure!(
        !(args.links || args.images) || matches!(args.format, Format::Markdown | Format::Json),
        "--links and --images shape the Markdown; use them with --format markdown or json"
    );
    usage_ensure!(
        !args.no_headline || matches!(args.format, Format::Markdown | Format::Json),
        "--no-headline shapes the Markdown; use it with --format markdown or json"
    );
    // Created before any work, so that an output that cannot be written stops the run at
    // once; it is put in place by `finish` at the end (and removed if the run stops).
    let mut output = super::Output::to(args.output.as_deref())?;
    let threshold = match args.method {
        Some(FilterMethod::Threshold) => Some(args.threshold.unwrap_or(0.5)),
        _ => args.threshold,
    };
    let mut engine = match args.method {
        Some(FilterMethod::Comparison(method)) => Engine::Method {
            method,
            dot: args.dot.clone(),
        },
        Some(FilterMethod::Builtin | FilterMethod::Threshold) | None => Engine::Model {
            scorer: super::scorer(threshold, args.model.as_deref())?,
            format: args.format,
            render: Render {
                links: args.links,
                images: args.images,
                url: args.url.clone(),
                markdown: args.with_markdown,
                headline: !args.no_headline,
                builtin: args.threshold.is_none() && args.model.is_none(),
            },
            extractors: Extractors::default(),
            site: None,
        },
    };
    let warc_in = args.input_format == InputFormat::Warc;
    let wanted = if warc_in {
        walk::Wanted::Named(warc::is_warc)
    } else if jsonl_in {
        walk::Wanted::Named(walk::is_jsonl)
    } else {
        walk::Wanted::Pages
    };
    if args.files.is_empty() && io::stdin().is_terminal() && !args.quiet {
        eprintln!(
            "mainline: reading HTML from standard input (end it with Ctrl-D); \
             `mainline filter --help` shows how to name files"
        );
    }
    let walk::Expanded { found, skipped } =
        walk::expand(inputs_or_stdin(args.files), args.recursive, wanted);
    if args.verbose {
        for path in &skipped {
            eprintln!("mainline: skipped {}", path.display());
        }
    } else if !skipped.is_empty() && !args.quiet {
        eprintln!(
            "mainline: --recursive skipped {} (-v names them)",
            walk::summary(&skipped)
        );
    }
    if found.is_empty() && !args.quiet {
        eprintln!(
            "mainline: no inputs found: the directories given hold no file that --recursive \
             takes (see --help){}",
            if skipped.is_empty() {
                String::new()
            } else {
                format!("; {} skipped", skipped.len())
            }
        );
    }
    let site_mode = args.by_site || args.site_profile.is_some();
    if site_mode {
        usage_ensure!(
            matches!(engine, Engine::Model { .. }),
            "--by-site and --site-profile apply to the streaming filter, not to --method"
        );
    }
    if args.by_site {
        usage_ensure!(
            !found
                .iter()
                .any(|f| matches!(f, Found::Page { path, .. } if path.as_os_str() == "-")),
            "--by-site reads its inputs twice and standard input cannot be; learn the sites \
             with `mainline site learn PAGES -o FILE` and filter the stream with --site-profile FILE"
        );
        let mut learner =
            super::site::Learner::new(args.site_memory, args.url.as_deref(), args.max_payload)
                .unreported();
        if jsonl_in {
            learner = learner.jsonl(args.max_record_bytes);
        }
        for f in &found {
            learner.add(f);
        }
        if !args.quiet {
            eprintln!(
                "mainline: --by-site learnt {} pages of {} sites{}",
                learner.pages.learnt,
                learner.profile.sites(),
                if learner.profile.skipped() > 0 {
                    format!(
                        " ({} pages beyond --site-memory not learnt)",
                        learner.profile.skipped()
                    )
                } else {
                    String::new()
                }
            );
        }
        set_site(
            &mut engine,
            super::site::SiteMode {
                profile: Arc::new(learner.profile),
                learnt: true,
                url_host: args.url.as_deref().and_then(mainline::site::host),
                hosts: learner.hosts,
            },
        );
    } else if let Some(file) = &args.site_profile {
        let profile = mainline::site::Profile::load(file).map_err(anyhow::Error::msg)?;
        set_site(
            &mut engine,
            super::site::SiteMode {
                profile: Arc::new(profile),
                learnt: false,
                url_host: args.url.as_deref().and_then(mainline::site::host),
                hosts: HashMap::new(),
            },
        );
    }
    if warc_in || (args.input_format == InputFormat::Html && warc::detect(&found)?) {
        usage_ensure!(
            args.format != Format::Lines,
            "--format jsonl describes every line of a page; WARC input gives one JSON line per \
             record (with --format json or markdown, their fields are added to it)"
        );
        usage_ensure!(
            args.dot.is_none(),
            "--dot draws the tree of one page; it does not apply to WARC input"
        );
        let threads = args
            .jobs
            .or_else(|| std::thread::available_parallelism().ok())
            .map_or(1, NonZeroUsize::get);
        let settings = warc::Settings {
            out_dir: args.out_dir,
            output,
            max_payload: args.max_payload,
            any_status: args.any_status,
            threads,
            quiet: args.quiet,
        };
        return warc::run(found, engine, settings);
    }
    usage_ensure!(
        args.dot.is_none() || found.len() == 1,
        "--dot writes one graph: give one input"
    );
    let inputs = found.len();
    let threads = args
        .jobs
        .or_else(|| std::thread::available_parallelism().ok())
        .map_or(1, NonZeroUsize::get);
    let jobs: Box<dyn Iterator<Item = Job> + Send> = if jsonl_in {
        let inputs = found
            .into_iter()
            .map(|f| match f {
                Found::Page { path, .. } => Ok(path),
                Found::Unreadable { path, error } => Err((
                    path,
                    mainline::Error::Other(format!("reading the directory: {error}")),
                )),
            })
            .collect();
        let batches = Batches::new(
            inputs,
            super::open_input,
            args.max_record_bytes,
            records_budget(threads),
        );
        Box::new(batches.map(|b| match b {
            Batch::Lines(lines, ticket) => Job::Records(lines, ticket),
            Batch::Failed(path, error) => Job::Failed(path, anyhow::Error::new(error)),
        }))
    } else {
        Box::new(page_jobs(found, args.out_dir.as_deref(), args.format)?.into_iter())
    };
    let separate = !jsonl_in
        && args.out_dir.is_none()
        && inputs > 1
        && matches!(args.format, Format::Text | Format::Markdown);
    let ctx = Arc::new(Shared {
        engine,
        keep_html: args.keep_html,
        max_record: args.max_record_bytes,
        separate,
    });
    let show = !args.quiet && (inputs > 1 || jsonl_in);
    let progress = (show
        && io::stderr().is_terminal()
        && (args.out_dir.is_some() || args.output.is_some() || !io::stdout().is_terminal()))
    .then(|| progress_bar(if jsonl_in { None } else { Some(inputs) }));
    let mut tally = Tally::new(progress, jsonl_in);

    let writing = format!("writing to {}; the run stops", output.name());
    if threads > 1 && (inputs > 1 || jsonl_in) {
        let work_ctx = Arc::clone(&ctx);
        ordered::run(
            jobs,
            threads,
            window(threads),
            move |job, out| execute(job, &work_ctx, out),
            |event| match event {
                ordered::Event::Data(bytes) => output.write_all(&bytes),
                ordered::Event::Done(outcome) => tally.add(outcome?),
                ordered::Event::Idle => output.flush(),
            },
        )
        .context(writing)?;
    } else {
        for job in jobs {
            let records = matches!(job, Job::Records(..));
            let outcome = execute(job, &ctx, &mut output).context(writing.clone())?;
            tally.add(outcome)?;
            if records {
                // Records stream through: hand each batch on as soon as it is done.
                output.flush().context(writing.clone())?;
            }
        }
    }
    output.finish()?;
    tally.finish((!args.quiet && inputs > 1).then_some(inputs));
    Ok(if tally.failed > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

/// Puts the streaming filter in site mode.
fn set_site(engine: &mut Engine, mode: super::site::SiteMode) {
    if let Engine::Model { site, .. } = engine {
        *site = Some(Arc::new(mode));
    }
}

/// How many jobs may wait, finished or not, for the output of an earlier one.
///
/// NOTE: page sizes vary a lot; with a window of 2 jobs per thread, a worker that finished
/// the small pages after a large one sat idle (1.2 cores busy of 2 on the wcxb-dev pages).
/// A waiting job holds at most 4 pieces of 64 KiB, so memory stays bounded.
fn window(threads: usize) -> usize {
    (8 * threads).max(32)
}

/// Bytes of JSON lines records read and not yet filtered, over all threads (a larger
/// record is read when no other is waiting).
///
/// NOTE: each thread has a few batches of at most 1 MiB queued, enough to keep it busy;
/// without a budget 32 records of 100 MB were queued for two threads (1.65 GB).
fn records_budget(threads: usize) -> usize {
    threads.saturating_mul(4 << 20)
}

/// Counts what the jobs came to, reports failures, and draws the progress bar.
struct Tally {
    start: Instant,
    progress: Option<indicatif::ProgressBar>,
    records: bool,
    pages: u64,
    bytes: u64,
    bad_records: u64,
    /// Inputs that failed.
    failed: u64,
}

fn progress_bar(len: Option<usize>) -> indicatif::ProgressBar {
    let (bar, template) = match len {
        Some(n) => (
            indicatif::ProgressBar::new(n as u64),
            "{elapsed_precise} [{wide_bar}] {pos}/{len} pages, {msg}",
        ),
        None => (
            indicatif::ProgressBar::new_spinner(),
            "{spinner} {elapsed_precise} {pos} records, {msg}",
        ),
    };
    let style = indicatif::ProgressStyle::with_template(template)
        .expect("the progress template is valid")
        .progress_chars("=> ");
    bar.set_style(style);
    bar.enable_steady_tick(Duration::from_millis(250));
    bar
}

impl Tally {
    fn new(progress: Option<indicatif::ProgressBar>, records: bool) -> Self {
        Tally {
            start: Instant::now(),
            progress,
            records,
            pages: 0,
            bytes: 0,
            bad_records: 0,
            failed: 0,
        }
    }

    fn add(&mut self, outcome: Outcome) -> io::Result<()> {
        self.pages += outcome.pages;
        self.bytes += outcome.bytes;
        self.bad_records += outcome.bad_records;
        if let Some((path, e)) = outcome.failure {
            self.failed += 1;
            let message = format!("mainline: {}: {e:#}", display_name(&path));
            match &self.progress {
                Some(bar) => bar.suspend(|| eprintln!("{message}")),
                None => eprintln!("{message}"),
            }
        }
        if let Some(bar) = &self.progress {
            let secs = self.start.elapsed().as_secs_f64().max(1e-9);
            bar.inc(if self.records {
                outcome.pages + outcome.bad_records
            } else {
                1
            });
            bar.set_message(format!(
                "{:.0} {}/s, {:.1} MB/s",
                self.pages as f64 / secs,
                if self.records { "records" } else { "pages" },
                self.bytes as f64 / secs / 1e6
            ));
        }
        Ok(())
    }

    /// Clears the progress bar and, given the number of inputs, writes the summary line:
    /// `mainline: 3 files (1 failed), 2.1 MB in 0.05 s, 42.0 MB/s`, with the records (and
    /// how many had errors) for JSON lines.
    fn finish(&self, inputs: Option<usize>) {
        if let Some(bar) = &self.progress {
            bar.finish_and_clear();
        }
        let Some(inputs) = inputs else { return };
        let secs = self.start.elapsed().as_secs_f64();
        let records = if self.records {
            let n = self.pages + self.bad_records;
            format!(
                ", {n} record{} ({} with errors)",
                if n == 1 { "" } else { "s" },
                self.bad_records
            )
        } else {
            String::new()
        };
        eprintln!(
            "mainline: {inputs} file{} ({} failed){records}, {:.1} MB in {secs:.2} s, {:.1} MB/s",
            if inputs == 1 { "" } else { "s" },
            self.failed,
            self.bytes as f64 / 1e6,
            self.bytes as f64 / 1e6 / secs.max(1e-9),
        );
    }
}
