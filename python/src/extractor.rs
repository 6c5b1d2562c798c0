//! `mainline.Extractor`: one model and output format, and its calls on pages (one page,
//! many in parallel, the lines of a page, the pages of a WARC file).

use std::collections::{BTreeMap, VecDeque};
use std::path::PathBuf;
use std::sync::{Arc, Mutex, OnceLock};

use mainline::internals::model::Model;
use mainline::warc::HtmlOptions;
use mainline::{Format, ModelScorer, Options, Scorer, Threshold};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyList;
use rayon::prelude::*;

use crate::convert::{Document, Line, ReadDocument};
use crate::pages::{Page, PageArg, document_of, guarded, py_error, run, text_of};
use crate::threads::{capped, pool};
use crate::warc::{WarcPages, WarcSpec, WarcState};

/// The output formats of a page, by their names in Python (those of
/// `mainline filter --format`).
const FORMATS: [Format; 3] = [Format::Text, Format::Markdown, Format::Json];

/// FNV-1a, 64 bits: a short, stable digest of a model for its version string.
fn fnv1a64(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// The version of a model: 16 hex digits of a digest of its canonical JSON, so that two
/// files with the same weights have the same version and any change of a weight changes it.
fn model_version(model: &Model) -> String {
    format!("{:016x}", fnv1a64(model.to_json().as_bytes()))
}

/// The built-in model, parsed once per process.
pub(crate) fn builtin() -> &'static (Arc<dyn Scorer>, String, String) {
    static BUILTIN: OnceLock<(Arc<dyn Scorer>, String, String)> = OnceLock::new();
    BUILTIN.get_or_init(|| {
        let scorer = ModelScorer::builtin();
        let version = model_version(scorer.model());
        let describe = scorer.describe();
        (Arc::new(scorer), version, describe)
    })
}

/// Extracts the main content of web pages with one model, loaded once.
///
/// ``Extractor()`` uses the built-in model; ``Extractor(model="my-model.json")`` a model
/// file written by ``mainline train``; ``Extractor(threshold=0.5)`` the fixed rule (keep a
/// line when its text density is above the threshold) and no model. ``format`` is what
/// ``extract`` and ``extract_many`` return: ``"text"`` (the kept lines), ``"markdown"``
/// (with ``links`` and ``images`` written when asked; starting with the page's headline as
/// ``# headline`` unless ``headline=False``, as ``mainline filter --no-headline``) or
/// ``"json"`` (one JSON object with the metadata, text and counts, its keys in the order
/// of ``mainline filter --format json``). The same object can be used from several
/// threads at once.
///
/// >>> import mainline
/// >>> ex = mainline.Extractor(format="markdown")
/// >>> page = "<nav><a href=/>Home</a> <a href=/about>About</a> <a href=/maps>Maps</a></nav>" \
/// ...        "<article><h1>Tides</h1><p>The tide comes in twice a day, pulled by the moon " \
/// ...        "and, less, by the sun.</p><p>Walkers who know the times cross the sands and come " \
/// ...        "back before the water.</p></article><footer><a href=/privacy>Privacy</a></footer>"
/// >>> ex.extract(page).splitlines()[0]
/// '# Tides'
/// >>> ex.extract_document(page).metadata["first_h1"]
/// 'Tides'
#[pyclass(frozen, module = "mainline", name = "Extractor")]
pub(crate) struct PyExtractor {
    scorer: Arc<dyn Scorer>,
    version: Option<String>,
    describe: String,
    format: Format,
    options: Options,
}

impl PyExtractor {
    /// The options of one call: the extractor's, with the page's URL.
    fn options(&self, url: Option<&str>) -> Options {
        match url {
            Some(url) => self.options.clone().url(url),
            None => self.options.clone(),
        }
    }

    /// The whole-page path: text, Markdown, metadata.
    fn document(&self, page: Page<'_>, url: Option<&str>) -> mainline::Result<mainline::Document> {
        let options = self.options(url);
        guarded(|| document_of(&options, page))
    }

    /// What `extract` returns for one page, in the extractor's format.
    fn output(&self, page: Page<'_>, url: Option<&str>) -> mainline::Result<String> {
        if self.format == Format::Text {
            // NOTE: the streaming path: no Markdown structure or metadata is collected.
            return text_of(&self.scorer, page);
        }
        Ok(self.document(page, url)?.output())
    }
}

#[pymethods]
impl PyExtractor {
    #[new]
    #[pyo3(signature = (model = None, threshold = None, *, format = "text", links = false, images = false, headline = true))]
    fn new(
        model: Option<PathBuf>,
        threshold: Option<f64>,
        format: &str,
        links: bool,
        images: bool,
        headline: bool,
    ) -> PyResult<Self> {
        let Some(&kind) = FORMATS.iter().find(|f| f.name() == format) else {
            return Err(PyValueError::new_err(format!(
                "unknown format {format:?}: choose one of {}",
                FORMATS.map(|f| format!("{:?}", f.name())).join(", ")
            )));
        };
        let (scorer, version, describe): (Arc<dyn Scorer>, _, _) = match (model, threshold) {
            (Some(_), Some(_)) => {
                return Err(PyValueError::new_err(
                    "give a model or a threshold, not both: the threshold is the fixed density \
                     rule that replaces a model",
                ));
            }
            (None, Some(t)) => {
                if !t.is_finite() {
                    return Err(PyValueError::new_err(format!(
                        "threshold must be a number, e.g. 0.5 (got {t})"
                    )));
                }
                (
                    Arc::new(Threshold(t as f32)),
                    None,
                    format!("threshold {t}"),
                )
            }
            (Some(path), None) => {
                let model = Model::load(&path).map_err(|e| py_error(&e, None))?;
                let version = model_version(&model);
                let scorer = ModelScorer::new(model).map_err(|e| {
                    py_error(
                        &e,
                        Some(&format!("cannot use the model {}", path.display())),
                    )
                })?;
                let describe = scorer.describe();
                (Arc::new(scorer), Some(version), describe)
            }
            (None, None) => {
                let (scorer, version, describe) = builtin();
                (Arc::clone(scorer), Some(version.clone()), describe.clone())
            }
        };
        // NOTE: the built-in model is left to Options' default (the same model), which
        // is what makes `confidence` reported, as `mainline filter --format json` does.
        let options = if Arc::ptr_eq(&scorer, &builtin().0) {
            Options::new()
        } else {
            Options::new().scorer(Arc::clone(&scorer))
        };
        let options = options
            .format(kind)
            .links(links)
            .images(images)
            .headline(headline);
        Ok(PyExtractor {
            scorer,
            version,
            describe,
            format: kind,
            options,
        })
    }

    /// The version of the model (16 hex digits of a digest of its weights), or None for
    /// the fixed threshold.
    #[getter]
    fn model_version(&self) -> Option<String> {
        self.version.clone()
    }

    /// What decides: the model's recipe, or ``"threshold X"``.
    #[getter]
    fn model(&self) -> String {
        self.describe.clone()
    }

    /// The output format given to the constructor.
    #[getter]
    fn format(&self) -> &'static str {
        self.format.name()
    }

    /// The main content of one page in the extractor's format; ``""`` when nothing is
    /// kept.
    ///
    /// ``html`` is ``bytes`` (gzip is recognised by content; the encoding comes from a byte
    /// order mark, a ``<meta charset>`` or detection, as for the command line) or ``str``
    /// (taken as decoded). ``url`` is the page's address: relative links in Markdown are
    /// resolved against it, and it names the page in error messages.
    ///
    /// Raises ``MainlineError`` for input that is not HTML (an image, a PDF, corrupt gzip
    /// data).
    #[pyo3(signature = (html, *, url = None))]
    fn extract(
        &self,
        py: Python<'_>,
        html: &Bound<'_, PyAny>,
        url: Option<&str>,
    ) -> PyResult<String> {
        let arg = PageArg::new(html)?;
        let page = arg.page();
        py.detach(|| self.output(page, url))
            .map_err(|e| py_error(&e, url))
    }

    /// The whole of one page: text, Markdown, metadata and counts, as a ``Document``.
    #[pyo3(signature = (html, *, url = None))]
    fn extract_document(
        &self,
        py: Python<'_>,
        html: &Bound<'_, PyAny>,
        url: Option<&str>,
    ) -> PyResult<Document> {
        let arg = PageArg::new(html)?;
        let page = arg.page();
        let read = py
            .detach(|| self.document(page, url).map(ReadDocument::of))
            .map_err(|e| py_error(&e, url))?;
        read.into_py(py)
    }

    /// Every line of a page with its score, decision and features: why each line was kept
    /// or dropped. A list of ``Line``, in document order.
    #[pyo3(signature = (html, *, url = None))]
    fn lines(
        &self,
        py: Python<'_>,
        html: &Bound<'_, PyAny>,
        url: Option<&str>,
    ) -> PyResult<Vec<Line>> {
        let arg = PageArg::new(html)?;
        let page = arg.page();
        let scorer = &self.scorer;
        let decisions = py
            .detach(|| {
                guarded(|| {
                    let mut all = Vec::new();
                    run(scorer, page, true, &mut |d| all.push(d))?;
                    Ok(all)
                })
            })
            .map_err(|e| py_error(&e, url))?;
        decisions.into_iter().map(|d| Line::of(py, d)).collect()
    }

    /// The main content of many pages, in their order, extracted in parallel with the GIL
    /// released.
    ///
    /// ``pages`` is an iterable of ``str`` or ``bytes``; ``threads`` is how many threads
    /// work on them (default: one per core), at most the CPUs the process may run on (a
    /// larger number runs on that many; the threads are kept for the next call with the
    /// same number, and the process holds one such set at a time). A page that cannot be read (not HTML, corrupt
    /// gzip data) does not stop the others: with ``errors="none"`` (the default) its place
    /// in the list holds ``None``, which no page that was read gives (a page with no main
    /// content gives ``""``); ``errors="raise"`` raises ``MainlineError`` naming the first
    /// such page's index instead. ``"ignore"`` is an older name of ``"none"``.
    #[pyo3(signature = (pages, threads = None, *, errors = "none"))]
    fn extract_many(
        &self,
        py: Python<'_>,
        pages: &Bound<'_, PyAny>,
        threads: Option<usize>,
        errors: &str,
    ) -> PyResult<Py<PyList>> {
        let raise = match errors {
            "raise" => true,
            "none" | "ignore" => false,
            other => {
                return Err(PyValueError::new_err(format!(
                    "errors must be \"none\" (a failed page gives None) or \"raise\" (got {other:?})"
                )));
            }
        };
        if threads == Some(0) {
            return Err(PyValueError::new_err("threads must be at least 1"));
        }
        let mut held = Vec::new();
        for (i, obj) in pages.try_iter()?.enumerate() {
            let obj = obj?;
            let page = PageArg::new(&obj)
                .map_err(|e| PyTypeError::new_err(format!("page {i}: {}", e.value(py))))?;
            held.push(page);
        }
        let list: Vec<Page<'_>> = held.iter().map(PageArg::page).collect();
        let one = |page: &Page<'_>| self.output(*page, None);
        let threads = capped(threads);
        let pool = match threads {
            Some(1) => None,
            Some(n) => Some(pool(n)?),
            None => None,
        };
        let results: Vec<mainline::Result<String>> = py.detach(|| match (threads, pool) {
            (Some(1), _) => list.iter().map(one).collect(),
            (_, Some(pool)) => pool.install(|| list.par_iter().map(one).collect()),
            (_, None) => list.par_iter().map(one).collect(),
        });
        let mut out: Vec<Option<String>> = Vec::with_capacity(results.len());
        for (i, r) in results.into_iter().enumerate() {
            match r {
                Ok(text) => out.push(Some(text)),
                Err(e) if raise => return Err(py_error(&e, Some(&format!("page {i}")))),
                Err(_) => out.push(None),
            }
        }
        Ok(PyList::new(py, out)?.unbind())
    }

    /// The HTML pages of a WARC file, one ``dict`` per page, read as they are needed.
    ///
    /// ``path`` is a WARC file, plain or gzip-compressed (Common Crawl's ``.warc.gz``,
    /// one gzip member per record). Each ``response`` record whose HTTP payload is HTML
    /// gives a dict with the fields of ``mainline filter``'s JSON lines:
    /// ``warc_record_id``, ``url`` (``WARC-Target-URI``, also the URL links are resolved
    /// against), ``warc_date``, ``text`` (the kept lines joined by ``"\n"``, whatever the
    /// format), and with ``format="markdown"`` a ``markdown`` field, with
    /// ``format="json"`` the page's metadata and counts. Other records (requests,
    /// metadata, revisits, images, non-2xx responses unless ``any_status``) give nothing
    /// and are counted in ``skipped``. A record that cannot be read gives a dict with
    /// ``"text": None``, ``error`` and ``warc_offset``, and reading goes on at the next
    /// record; a payload over ``max_payload`` bytes is cut, and its dict has the text of
    /// the beginning and an ``error``.
    ///
    /// Records are read and extracted in batches (at most 64 records or 512 KiB) with the
    /// GIL released, on ``threads`` threads (default: one per core; ``1`` in a Spark or
    /// Ray task that already has its core; at most the CPUs available, as in
    /// ``extract_many``), so memory stays bounded whatever the file's
    /// size. Raises ``FileNotFoundError`` (or another ``OSError``) when the file cannot be
    /// opened.
    #[pyo3(signature = (path, *, max_payload = mainline::warc::DEFAULT_MAX_PAYLOAD, any_status = false, threads = None))]
    fn iter_warc(
        &self,
        py: Python<'_>,
        path: PathBuf,
        max_payload: usize,
        any_status: bool,
        threads: Option<usize>,
    ) -> PyResult<WarcPages> {
        if threads == Some(0) {
            return Err(PyValueError::new_err("threads must be at least 1"));
        }
        if max_payload == 0 {
            return Err(PyValueError::new_err("max_payload must be at least 1 byte"));
        }
        let threads = capped(threads);
        let pool = match threads {
            Some(1) | None => None,
            Some(n) => Some(pool(n)?),
        };
        let name = path.display().to_string();
        let reader = py
            .detach(|| mainline::source::warc::open(&path, max_payload))
            .map_err(|e| py_error(&e, Some(&name)))?;
        Ok(WarcPages {
            state: Mutex::new(WarcState {
                reader: Some(reader),
                ready: VecDeque::new(),
                skipped: BTreeMap::new(),
            }),
            spec: WarcSpec {
                path,
                scorer: Arc::clone(&self.scorer),
                options: self.options.clone(),
                html: HtmlOptions {
                    any_status,
                    max_payload,
                },
                threads,
                pool,
                extractors: Mutex::default(),
            },
        })
    }

    fn __repr__(&self) -> String {
        format!(
            "Extractor(model={:?}, format={:?})",
            self.describe,
            self.format.name()
        )
    }
}
