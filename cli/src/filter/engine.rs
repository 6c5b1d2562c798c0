//! The engines of `mainline filter` and the jobs they run: the streaming filter or a
//! comparison method ([`Engine`]), how documents are rendered ([`Render`]), one job per
//! input ([`Job`], [`execute`]) and a page's own output file ([`filter_to_file`]).

use std::collections::HashMap;
use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use anyhow::{Context, Result};

use mainline::Scorer;
use mainline::source::Page;
use mainline::{Extractor, Format, Options};
use mainline_training::methods::Method;

use super::super::{Failure, display_name};
use super::jsonl;
use super::pages::{Extractors, filter_one, read_decoded};
use crate::walk::Found;

/// How Markdown and JSON documents are written.
#[derive(Debug, Clone, Default)]
pub(super) struct Render {
    pub(super) links: bool,
    pub(super) images: bool,
    pub(super) url: Option<String>,
    /// Markdown in JSON documents.
    pub(super) markdown: bool,
    /// Markdown starts with the page's headline.
    pub(super) headline: bool,
    /// The scorer is the built-in model (whose documents have a confidence).
    pub(super) builtin: bool,
}

impl Render {
    /// The library's options for these settings.
    pub(super) fn options(&self, scorer: &Arc<dyn Scorer>, format: Format) -> Options {
        let mut o = Options::new();
        if !self.builtin {
            o = o.scorer(Arc::clone(scorer));
        }
        // Without Markdown in the output, the lines' structure is not collected.
        let markdown = format.collects(self.markdown).structure;
        let mut o = o
            .format(format)
            .links(self.links)
            .images(self.images)
            .markdown_in_json(markdown)
            .markdown_structure(markdown)
            .headline(self.headline);
        if let Some(url) = &self.url {
            o = o.url(url.clone());
        }
        o
    }
}

/// How pages are filtered.
pub(super) enum Engine {
    /// The streaming extractor, deciding with a scorer (the built-in model, another model
    /// or a threshold).
    Model {
        scorer: Arc<dyn Scorer>,
        format: Format,
        render: Render,
        /// Extractors kept from document to document.
        extractors: Extractors,
        /// Site mode (--by-site, --site-profile).
        site: Option<Arc<super::super::site::SiteMode>>,
    },
    /// A comparison method (--method), which reads a page whole.
    Method {
        method: Method,
        dot: Option<PathBuf>,
    },
}

/// What every job needs.
pub(super) struct Shared {
    pub(super) engine: Engine,
    pub(super) keep_html: bool,
    /// The cap on a JSON lines record, for its error message.
    pub(super) max_record: usize,
    /// End each page's output on standard output with [`PAGE_END`].
    pub(super) separate: bool,
}

/// What ends each page's text or Markdown on standard output when there are several
/// inputs: a line holding a form feed alone. Whitespace is collapsed in a page's lines and a
/// line is never blank, so no line of a page is this one.
pub(super) const PAGE_END: &[u8] = b"\x0c\n";

/// One unit of work, done on any thread; its output keeps its place in the input order.
pub(super) enum Job {
    /// A page, written to standard output or, with --out-dir, to the file given.
    Page {
        path: PathBuf,
        target: Option<PathBuf>,
    },
    /// JSON lines records, and their claim on the bytes read ahead.
    Records(jsonl::Lines, mainline::source::jsonl::Ticket),
    /// An input that could not be read, reported in its turn.
    Failed(PathBuf, anyhow::Error),
}

/// What a job came to, for the report on standard error.
#[derive(Debug, Default)]
pub(super) struct Outcome {
    /// Input bytes filtered (decompressed HTML; for records, their html strings).
    pub(super) bytes: u64,
    /// Pages filtered (for records: records with a text).
    pub(super) pages: u64,
    /// Records with an error.
    pub(super) bad_records: u64,
    /// The input that failed, and why.
    pub(super) failure: Option<(PathBuf, anyhow::Error)>,
}

/// The page jobs, with their output files under `out_dir`. An input whose output file is
/// that of an earlier input fails alone (reported in its turn); the others are filtered.
///
/// # Errors
/// When the output directory cannot be created.
pub(super) fn page_jobs(
    found: Vec<Found>,
    out_dir: Option<&Path>,
    format: Format,
) -> Result<Vec<Job>> {
    let ext = format.extension();
    let mut targets: HashMap<PathBuf, PathBuf> = HashMap::new();
    let mut jobs = Vec::with_capacity(found.len());
    if let Some(dir) = out_dir {
        fs::create_dir_all(dir)
            .with_context(|| format!("creating output directory {}", dir.display()))?;
    }
    for f in found {
        match f {
            Found::Unreadable { path, error } => {
                let error = anyhow::Error::new(error).context("reading the directory");
                jobs.push(Job::Failed(path, error));
            }
            Found::Page { path, out_name } => {
                let target = out_dir.map(|dir| {
                    let mut name = out_name.into_os_string();
                    name.push(".");
                    name.push(ext);
                    dir.join(name)
                });
                if let Some(t) = &target {
                    if let Some(other) = targets.get(t) {
                        // The earlier input keeps the file; only this one fails.
                        let error = anyhow::anyhow!(
                            "{} is already written to {}; filter this input separately",
                            display_name(other),
                            t.display()
                        );
                        jobs.push(Job::Failed(path, error));
                        continue;
                    }
                    targets.insert(t.clone(), path.clone());
                }
                jobs.push(Job::Page { path, target });
            }
        }
    }
    Ok(jobs)
}

/// Does one job, writing what goes to standard output into `out`.
///
/// # Errors
/// When writing the output fails (a closed pipe, a full disk): the run stops.
pub(super) fn execute(job: Job, ctx: &Shared, out: &mut dyn Write) -> io::Result<Outcome> {
    match job {
        Job::Failed(path, error) => {
            if ctx.separate {
                out.write_all(PAGE_END)?;
            }
            Ok(Outcome {
                failure: Some((path, error)),
                ..Outcome::default()
            })
        }
        Job::Page { path, target } => {
            let result = match &target {
                Some(target) => filter_to_file(&path, target, &ctx.engine),
                None => {
                    let result = ctx.engine.page(&path, out);
                    if ctx.separate && !matches!(result, Err(Failure::Output(_))) {
                        out.write_all(PAGE_END)?;
                    }
                    result
                }
            };
            match result {
                Ok(bytes) => Ok(Outcome {
                    bytes,
                    pages: 1,
                    ..Outcome::default()
                }),
                Err(Failure::Input(e)) => Ok(Outcome {
                    failure: Some((path, e)),
                    ..Outcome::default()
                }),
                Err(Failure::Output(e)) => Err(e),
            }
        }
        Job::Records(lines, _ticket) => {
            let mut outcome = Outcome::default();
            for (origin, line) in lines.iter() {
                let r = match line {
                    jsonl::Line::Record(line) => jsonl::record(
                        line,
                        origin,
                        ctx.keep_html,
                        |page| ctx.engine.record_text(page),
                        out,
                    )?,
                    jsonl::Line::TooLong(bytes) => jsonl::too_long(*bytes, ctx.max_record, out)?,
                };
                outcome.bytes += r.html_bytes;
                if r.failed {
                    outcome.bad_records += 1;
                } else {
                    outcome.pages += 1;
                }
            }
            Ok(outcome)
        }
    }
}

impl Engine {
    /// Filters one page into `out`; returns the input bytes read.
    pub(super) fn page(&self, path: &Path, out: &mut dyn Write) -> Result<u64, Failure> {
        let template = match self {
            Engine::Model { site: Some(s), .. } => s.file_template(path),
            _ => None,
        };
        match self {
            Engine::Model {
                scorer,
                format,
                render,
                extractors,
                ..
            } => {
                let options = render.options(scorer, *format).site(template);
                filter_one(path, &options, extractors, out)
            }
            Engine::Method { method, dot } => {
                let (html, bytes) = read_decoded(path).map_err(Failure::Input)?;
                let mut text = method
                    .try_extract(&html)
                    .with_context(|| format!("--method {method}"))
                    .map_err(Failure::Input)?;
                if !text.is_empty() && !text.ends_with('\n') {
                    text.push('\n');
                }
                if let Some(dot) = dot {
                    let graph = mainline_training::methods::most_linked::try_dot(&html)
                        .with_context(|| format!("--method {method}"))
                        .map_err(Failure::Input)?;
                    mainline_training::atomic::write(dot, graph)
                        .with_context(|| format!("writing {}", dot.display()))
                        .map_err(Failure::Input)?;
                }
                out.write_all(text.as_bytes()).map_err(Failure::Output)?;
                Ok(bytes)
            }
        }
    }

    /// The text of an HTML page from a WARC file (the kept lines joined by `\n`), and for
    /// --format json or markdown the other fields of its record. The page's URL is its
    /// record's target URI unless --url gives one.
    pub(super) fn warc_text(
        &self,
        html: &mainline::warc::Html,
        page: Page<'_>,
    ) -> Result<(String, jsonl::Extra), String> {
        let template = match self {
            Engine::Model { site: Some(s), .. } => s.template(
                page.get_url().and_then(mainline::site::host).as_deref(),
                Some(&html.body),
            ),
            _ => None,
        };
        let (text, mut fields) = self.record(page, template)?;
        fields.remove("url");
        Ok((text, fields))
    }

    /// The text of a JSON lines record's html, decoded piece by piece as it is read, and
    /// for --format json or markdown the other fields of its record. In site mode the
    /// record's site is the host of --url, else of its `url` field, else of its canonical
    /// link, as the first pass took it ([`super::super::site::Learner`]).
    pub(super) fn record_text(&self, page: Page<'_>) -> Result<(String, jsonl::Extra), String> {
        let template = match self {
            Engine::Model { site: Some(s), .. } => {
                // NOTE: site mode holds the record's page decoded as well, to know its
                // host and whether it was learnt.
                s.record_template(page.get_url(), page.decode().0.as_bytes())
            }
            _ => None,
        };
        self.record(page, template)
    }

    /// The text of a page that a record holds, and the other fields of its record
    /// ([`Page::record`]).
    fn record(
        &self,
        page: Page<'_>,
        template: Option<mainline::site::PageTemplate>,
    ) -> Result<(String, jsonl::Extra), String> {
        match self {
            Engine::Model {
                scorer,
                format,
                render,
                extractors,
                ..
            } => {
                let options = render.options(scorer, *format).site(template.clone());
                // An extractor is taken only for the formats whose text it extracts (the
                // others make the page's whole document).
                page.record(&options, |page| {
                    extractors.with(
                        || Extractor::new(Arc::clone(scorer)),
                        |ex| {
                            ex.set_site(template);
                            page.text(ex)
                        },
                    )
                })
                .map_err(|e| e.to_string())
            }
            Engine::Method { method, .. } => {
                // The comparison methods parse a page whole.
                let mut text = method
                    .try_extract(&page.decode().0)
                    .map_err(|e| e.to_string())?;
                text.truncate(text.trim_end_matches('\n').len());
                Ok((text, jsonl::Extra::new()))
            }
        }
    }
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
