//! `mainline._mainline`: the compiled core of the Python package `mainline`.
//!
//! The pure-Python package in `py_src/mainline` re-exports what is defined here and adds the
//! adapters (datatrove). Everything that touches a page runs with the GIL released; a Rust
//! panic is caught and raised as `mainline.MainlineError`, never unwound into the
//! interpreter.

use std::collections::{BTreeMap, VecDeque};
use std::io::{Cursor, ErrorKind, Read};
use std::panic::{self, AssertUnwindSafe};
use std::path::PathBuf;
use std::sync::{Arc, Mutex, OnceLock};

use mainline::model::Model;
use mainline::warc::{Content, Html, HtmlOptions, Reader, Record, RecordError};
use mainline::{Decision, Extractor as Engine, ModelScorer, Scorer, Threshold};
use mainline::{Error, Format, Options};
use mainline::{features, input};
use pyo3::create_exception;
use pyo3::exceptions::{
    PyFileNotFoundError, PyIsADirectoryError, PyOSError, PyPermissionError, PyTypeError,
    PyValueError,
};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList, PyString};
use rayon::prelude::*;

create_exception!(
    mainline,
    MainlineError,
    PyValueError,
    "A page or a model that mainline cannot read: the message is the library's, naming \
     the input when it has a name (a URL, a page index or a model file)."
);

/// How much of a page is fed to the extractor at a time; its decisions are taken out after
/// each piece, so what is held besides the page itself stays bounded.
const PIECE: usize = 64 * 1024;

/// The output formats, by their names in Python (those of `mainline filter --format`).
const FORMATS: [(&str, Format); 3] = [
    ("text", Format::Text),
    ("markdown", Format::Markdown),
    ("json", Format::Json),
];

/// A page handed over by Python: its bytes, and whether they are a decoded `str` (then
/// UTF-8, whatever a `<meta charset>` in it says).
#[derive(Clone, Copy)]
struct Page<'a> {
    bytes: &'a [u8],
    decoded: bool,
}

/// Runs the extractor over one page, handing each decision to `each` in document order.
///
/// Bytes go through the CLI's input path: gzip is recognised by its magic bytes (and
/// concatenated members are read as one stream), the encoding is sniffed by the splitter.
fn run(
    scorer: &Arc<dyn Scorer>,
    page: Page<'_>,
    with_features: bool,
    each: &mut dyn FnMut(Decision),
) -> mainline::Result<()> {
    with_engine(scorer, with_features, page.decoded, |ex| {
        run_on(ex, page, each)
    })
}

/// Most extractors a thread keeps for its next pages (one per scorer and setting).
const KEPT_ENGINES: usize = 4;

/// What a kept extractor was built for: its scorer (by address; the kept extractor holds
/// the scorer, so the address cannot be taken by another while it is kept), whether it
/// keeps features, whether pages are decoded `str`s.
#[derive(Clone, Copy, PartialEq, Eq)]
struct EngineKey {
    scorer: usize,
    features: bool,
    decoded: bool,
}

thread_local! {
    /// The extractors this thread has used, kept to serve its next pages: a page reuses
    /// the buffers the pages before it grew ([`Engine::reset`]) instead of allocating and
    /// filling them again. Bounded by [`KEPT_ENGINES`], the least recently used dropped.
    static ENGINES: std::cell::RefCell<Vec<(EngineKey, Engine)>> =
        const { std::cell::RefCell::new(Vec::new()) };
}

/// Runs `f` with an extractor for `scorer` and these settings: one this thread kept,
/// reset, or a new one. The extractor is kept again afterwards, unless `f` panicked (then
/// it is dropped, whatever state it was left in).
fn with_engine<T>(
    scorer: &Arc<dyn Scorer>,
    features: bool,
    decoded: bool,
    f: impl FnOnce(&mut Engine) -> T,
) -> T {
    let key = EngineKey {
        scorer: Arc::as_ptr(scorer).cast::<()>() as usize,
        features,
        decoded,
    };
    let kept = ENGINES.with_borrow_mut(|kept| {
        let i = kept.iter().position(|(k, _)| *k == key)?;
        Some(kept.remove(i).1)
    });
    let mut ex = match kept {
        Some(mut ex) => {
            ex.reset();
            ex
        }
        None => {
            let ex = Engine::new(Arc::clone(scorer)).with_features(features);
            if decoded {
                ex.with_encoding(encoding_rs::UTF_8)
            } else {
                ex
            }
        }
    };
    let out = f(&mut ex);
    ENGINES.with_borrow_mut(|kept| {
        if kept.len() >= KEPT_ENGINES {
            kept.remove(0);
        }
        kept.push((key, ex));
    });
    out
}

/// [`run`] on a given extractor, ready for a new document.
fn run_on(ex: &mut Engine, page: Page<'_>, each: &mut dyn FnMut(Decision)) -> mainline::Result<()> {
    let mut feed = |ex: &mut Engine, bytes: &[u8]| -> mainline::Result<()> {
        ex.write(bytes)?;
        while let Some(d) = ex.next_decision() {
            each(d);
        }
        Ok(())
    };
    if !page.decoded && input::is_gzip(page.bytes) {
        let mut reader = input::wrap(Box::new(Cursor::new(page.bytes.to_vec())));
        let mut buf = vec![0; PIECE];
        loop {
            match reader.read(&mut buf) {
                Ok(0) => break,
                Ok(n) => feed(ex, &buf[..n])?,
                Err(e) if e.kind() == ErrorKind::Interrupted => {}
                Err(e) => return Err(e.into()),
            }
        }
    } else {
        for piece in page.bytes.chunks(PIECE) {
            feed(ex, piece)?;
        }
    }
    ex.end()?;
    while let Some(d) = ex.next_decision() {
        each(d);
    }
    Ok(())
}

/// [`run`] with a panic turned into an error: a bug in mainline must not take the
/// interpreter down.
fn guarded<T>(f: impl FnOnce() -> mainline::Result<T>) -> mainline::Result<T> {
    panic::catch_unwind(AssertUnwindSafe(f)).unwrap_or_else(|payload| {
        let what = payload
            .downcast_ref::<&str>()
            .map(|s| (*s).to_string())
            .or_else(|| payload.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "unknown panic".into());
        Err(Error::Other(format!(
            "internal error in mainline (please report it with the page): {what}"
        )))
    })
}

/// The kept lines of a page joined by `\n`; `""` when nothing is kept.
fn text_of(scorer: &Arc<dyn Scorer>, page: Page<'_>) -> mainline::Result<String> {
    guarded(|| {
        let mut out = String::new();
        run(scorer, page, false, &mut |d| {
            if d.keep {
                if !out.is_empty() {
                    out.push('\n');
                }
                out.push_str(&d.line.text);
            }
        })?;
        Ok(out)
    })
}

/// The Python exception for a library error; `name` (a URL, a page index) prefixes the
/// message as the CLI prefixes it with the file name.
fn py_error(e: &Error, name: Option<&str>) -> PyErr {
    let message = match name {
        Some(name) => format!("{name}: {e}"),
        None => e.to_string(),
    };
    let io = match e {
        Error::Io(io) => Some(io.kind()),
        Error::ModelFile { cause, .. } => match &**cause {
            Error::Io(io) => Some(io.kind()),
            _ => None,
        },
        _ => None,
    };
    match io {
        Some(ErrorKind::NotFound) => PyFileNotFoundError::new_err(message),
        Some(ErrorKind::PermissionDenied) => PyPermissionError::new_err(message),
        Some(ErrorKind::IsADirectory) => PyIsADirectoryError::new_err(message),
        // Corrupt or truncated gzip data is a bad page, not a failing device.
        Some(ErrorKind::InvalidData | ErrorKind::UnexpectedEof) | None => {
            MainlineError::new_err(message)
        }
        Some(_) => PyOSError::new_err(message),
    }
}

/// A page argument as bytes: `bytes` as they are, `str` encoded as UTF-8 (and marked as
/// decoded).
fn page_bytes<'py>(obj: &Bound<'py, PyAny>) -> PyResult<(Bound<'py, PyBytes>, bool)> {
    if let Ok(b) = obj.cast::<PyBytes>() {
        return Ok((b.clone(), false));
    }
    if let Ok(s) = obj.cast::<PyString>() {
        return Ok((s.encode_utf8()?, true));
    }
    Err(PyTypeError::new_err(format!(
        "a page must be str or bytes, not {}",
        obj.get_type().name()?
    )))
}

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
fn builtin() -> &'static (Arc<dyn Scorer>, String, String) {
    static BUILTIN: OnceLock<(Arc<dyn Scorer>, String, String)> = OnceLock::new();
    BUILTIN.get_or_init(|| {
        let scorer = ModelScorer::builtin();
        let version = model_version(scorer.model());
        let describe = scorer.describe();
        (Arc::new(scorer), version, describe)
    })
}

/// The most threads `extract_many` and `iter_warc` start: the CPUs this process may run on
/// (`std::thread::available_parallelism`, which heeds CPU affinity and cgroup quotas).
/// More threads than that only wait for a CPU, each with its stack.
fn max_threads() -> usize {
    std::thread::available_parallelism().map_or(1, usize::from)
}

/// How many threads `threads=N` runs on: N, at most [`max_threads`].
fn capped(threads: Option<usize>) -> Option<usize> {
    threads.map(|n| n.min(max_threads()))
}

/// The thread pool of `threads=N` (N already [`capped`]): one pool is kept for the process,
/// and a call with another N replaces it (the old pool's threads end when the calls using
/// it are done), so the threads alive stay at most a pool's, whatever Ns are asked for.
fn pool(threads: usize) -> PyResult<Arc<rayon::ThreadPool>> {
    static POOL: Mutex<Option<Arc<rayon::ThreadPool>>> = Mutex::new(None);
    let mut kept = POOL.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    if let Some(p) = kept.as_ref().filter(|p| p.current_num_threads() == threads) {
        return Ok(Arc::clone(p));
    }
    let p = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .thread_name(|i| format!("mainline-{i}"))
        .build()
        .map_err(|e| PyOSError::new_err(format!("cannot start {threads} threads: {e}")))?;
    let p = Arc::new(p);
    *kept = Some(Arc::clone(&p));
    Ok(p)
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
struct PyExtractor {
    scorer: Arc<dyn Scorer>,
    version: Option<String>,
    describe: String,
    format: &'static str,
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
        guarded(|| {
            if page.decoded {
                // The bytes of a Python str are UTF-8.
                let text = std::str::from_utf8(page.bytes)
                    .map_err(|e| Error::Other(format!("a str that is not UTF-8: {e}")))?;
                options.extract_str(text)
            } else {
                options.extract(page.bytes)
            }
        })
    }

    /// What `extract` returns for one page, in the extractor's format.
    fn output(&self, page: Page<'_>, url: Option<&str>) -> mainline::Result<String> {
        if self.format == "text" {
            // NOTE: the streaming path: no Markdown structure or metadata is collected.
            return text_of(&self.scorer, page);
        }
        let doc = self.document(page, url)?;
        Ok(match self.format {
            "markdown" => doc.markdown().to_string(),
            _ => doc.to_json().to_string(),
        })
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
        let Some(&(format, kind)) = FORMATS.iter().find(|(name, _)| *name == format) else {
            return Err(PyValueError::new_err(format!(
                "unknown format {format:?}: choose one of {}",
                FORMATS.map(|(f, _)| format!("{f:?}")).join(", ")
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
            format,
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
        self.format
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
        let (bytes, decoded) = page_bytes(html)?;
        let page = Page {
            bytes: bytes.as_bytes(),
            decoded,
        };
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
        let (bytes, decoded) = page_bytes(html)?;
        let page = Page {
            bytes: bytes.as_bytes(),
            decoded,
        };
        let doc = py
            .detach(|| {
                self.document(page, url).map(|doc| {
                    let text_bytes = doc
                        .lines()
                        .iter()
                        .filter(|d| d.keep)
                        .map(|d| d.line.text_bytes)
                        .sum();
                    let metadata = serde_json::to_value(doc.metadata())
                        .expect("metadata has string keys and plain values");
                    (doc.markdown().to_string(), text_bytes, metadata, doc)
                })
            })
            .map_err(|e| py_error(&e, url))?;
        let (markdown, text_bytes, metadata, doc) = doc;
        let metadata = match json_to_py(py, &metadata)?.cast_into::<PyDict>() {
            Ok(d) => d.unbind(),
            Err(_) => PyDict::new(py).unbind(),
        };
        Ok(Document {
            text: doc.text().to_string(),
            markdown,
            metadata,
            url: doc.url().map(str::to_string),
            lines: doc.lines().len() as u64,
            kept_lines: doc.kept_lines() as u64,
            text_bytes,
            input_bytes: doc.input_bytes(),
            encoding: doc.encoding().to_string(),
        })
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
        let (bytes, decoded) = page_bytes(html)?;
        let page = Page {
            bytes: bytes.as_bytes(),
            decoded,
        };
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
        let names = features::names();
        decisions
            .into_iter()
            .map(|d| {
                let feats = PyDict::new(py);
                for (name, value) in names.iter().zip(d.features.iter().flatten()) {
                    feats.set_item(name, *value)?;
                }
                let line = d.line;
                Ok(Line {
                    index: line.index,
                    density: line.density(),
                    block: line.block.name(),
                    text: line.text,
                    keep: d.keep,
                    score: d.score,
                    html_bytes: line.html_bytes,
                    text_bytes: line.text_bytes,
                    link_bytes: line.link_bytes,
                    heading: line.heading,
                    depth: line.depth,
                    ancestors: line.ancestors.iter().map(|a| a.to_string()).collect(),
                    features: feats.unbind(),
                })
            })
            .collect()
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
            let page = page_bytes(&obj)
                .map_err(|e| PyTypeError::new_err(format!("page {i}: {}", e.value(py))))?;
            held.push(page);
        }
        let list: Vec<Page<'_>> = held
            .iter()
            .map(|(b, decoded)| Page {
                bytes: b.as_bytes(),
                decoded: *decoded,
            })
            .collect();
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
            .detach(|| -> mainline::Result<_> {
                let file = std::fs::File::open(&path)?;
                if file.metadata()?.is_dir() {
                    return Err(Error::Io(std::io::Error::new(
                        ErrorKind::IsADirectory,
                        "is a directory",
                    )));
                }
                let input: Box<dyn Read + Send> = Box::new(file);
                Ok(Reader::new(input).max_block(max_payload))
            })
            .map_err(|e| py_error(&e, Some(&name)))?;
        Ok(WarcPages {
            state: Mutex::new(WarcState {
                reader: Some(reader),
                ready: VecDeque::new(),
                skipped: BTreeMap::new(),
            }),
            spec: WarcSpec {
                scorer: Arc::clone(&self.scorer),
                options: self.options.clone(),
                format: self.format,
                html: HtmlOptions {
                    any_status,
                    max_payload,
                },
                threads,
                pool,
            },
        })
    }

    fn __repr__(&self) -> String {
        format!(
            "Extractor(model={:?}, format={:?})",
            self.describe, self.format
        )
    }
}

/// Records in one batch of `iter_warc` at most.
const WARC_BATCH_RECORDS: usize = 64;

/// Block bytes in one batch of `iter_warc` (a batch ends after the record that reaches it).
const WARC_BATCH_BYTES: usize = 512 * 1024;

/// What `iter_warc` extracts with: the extractor's model and options, and the reader's.
struct WarcSpec {
    scorer: Arc<dyn Scorer>,
    options: Options,
    format: &'static str,
    html: HtmlOptions,
    threads: Option<usize>,
    pool: Option<Arc<rayon::ThreadPool>>,
}

/// One page (or one record that failed) of a WARC file, before it becomes a dict.
struct WarcItem {
    id: Option<String>,
    url: Option<String>,
    date: Option<String>,
    text: Option<String>,
    /// What ``format="json"`` or ``"markdown"`` adds.
    fields: serde_json::Map<String, serde_json::Value>,
    error: Option<String>,
    offset: u64,
}

impl WarcItem {
    fn failed(e: RecordError) -> Self {
        WarcItem {
            id: e.id,
            url: e.target_uri,
            date: e.date,
            text: None,
            fields: serde_json::Map::new(),
            error: Some(e.message),
            offset: e.offset,
        }
    }

    fn of(record: &Record) -> Self {
        WarcItem {
            id: record.id().map(str::to_string),
            url: record.target_uri().map(str::to_string),
            date: record.date().map(str::to_string),
            text: None,
            fields: serde_json::Map::new(),
            error: None,
            offset: record.offset(),
        }
    }

    /// The dict of `mainline filter`'s JSON line: the WARC fields, the text, what the
    /// format adds, and for an error `error` and `warc_offset`.
    fn into_dict(self, py: Python<'_>) -> PyResult<Bound<'_, PyDict>> {
        let d = PyDict::new(py);
        d.set_item("warc_record_id", self.id)?;
        d.set_item("url", self.url)?;
        d.set_item("warc_date", self.date)?;
        d.set_item("text", self.text)?;
        for (k, v) in &self.fields {
            if !matches!(
                k.as_str(),
                "warc_record_id" | "url" | "warc_date" | "text" | "error"
            ) {
                d.set_item(k, json_to_py(py, v)?)?;
            }
        }
        if let Some(e) = self.error {
            d.set_item("error", e)?;
            d.set_item("warc_offset", self.offset)?;
        }
        Ok(d)
    }
}

impl WarcSpec {
    /// The text of a page (and the fields of its format), as `mainline filter` gives them.
    fn page(
        &self,
        html: &Html,
        uri: Option<&str>,
    ) -> mainline::Result<(String, serde_json::Map<String, serde_json::Value>)> {
        guarded(|| {
            if self.format == "text" {
                let text = mainline::warc::extract_text(html, Arc::clone(&self.scorer))?;
                return Ok((text, serde_json::Map::new()));
            }
            let (decoded, encoding) = mainline::warc::decode(html);
            let options = match uri {
                Some(uri) => self.options.clone().url(uri),
                None => self.options.clone(),
            };
            let doc = options.extract_str(&decoded)?;
            let mut fields = match doc.to_json() {
                serde_json::Value::Object(o) => o,
                _ => serde_json::Map::new(),
            };
            if self.format == "markdown" {
                fields.retain(|k, _| k == "markdown");
            }
            fields.remove("text");
            fields.remove("url");
            if let Some(e) = fields.get_mut("encoding") {
                // The page was decoded here, before extract_str saw it.
                *e = serde_json::Value::from(encoding.name());
            }
            Ok((doc.text().to_string(), fields))
        })
    }

    /// What one record gives: `None` for a record that is skipped.
    fn record(&self, r: Result<Record, RecordError>) -> Result<WarcItem, String> {
        let record = match r {
            Ok(record) => record,
            Err(e) => return Ok(WarcItem::failed(e)),
        };
        let mut item = WarcItem::of(&record);
        match record.html(&self.html) {
            Ok(Content::Skip(why)) => Err(why.category().to_string()),
            Err(message) => {
                item.error = Some(message);
                Ok(item)
            }
            Ok(Content::Html(html)) => {
                match self.page(&html, record.target_uri()) {
                    Ok((text, fields)) => {
                        item.text = Some(text);
                        item.fields = fields;
                        if html.cut {
                            item.error = Some(format!(
                                "payload cut at {} bytes (the record's block is {} bytes)",
                                self.html.max_payload,
                                record.content_length()
                            ));
                        }
                    }
                    Err(e) => item.error = Some(e.to_string()),
                }
                Ok(item)
            }
        }
    }
}

/// Where `iter_warc` is in its file.
struct WarcState {
    /// `None` once the file is read to its end.
    reader: Option<Reader<Box<dyn Read + Send>>>,
    /// Pages extracted and not handed out yet.
    ready: VecDeque<WarcItem>,
    skipped: BTreeMap<String, u64>,
}

impl WarcState {
    /// Reads and extracts the next batch of records (call with the GIL released).
    fn fill(&mut self, spec: &WarcSpec) {
        let Some(reader) = &mut self.reader else {
            return;
        };
        let mut batch = Vec::new();
        let mut bytes = 0;
        for r in reader.by_ref() {
            bytes += r.as_ref().map_or(0, |r| r.block().len());
            batch.push(r);
            if batch.len() >= WARC_BATCH_RECORDS || bytes >= WARC_BATCH_BYTES {
                break;
            }
        }
        if batch.is_empty() {
            self.reader = None;
            return;
        }
        let items: Vec<Result<WarcItem, String>> = match (spec.threads, &spec.pool) {
            (Some(1), _) => batch.into_iter().map(|r| spec.record(r)).collect(),
            (_, Some(pool)) => {
                pool.install(|| batch.into_par_iter().map(|r| spec.record(r)).collect())
            }
            (_, None) => batch.into_par_iter().map(|r| spec.record(r)).collect(),
        };
        for item in items {
            match item {
                Ok(item) => self.ready.push_back(item),
                Err(category) => *self.skipped.entry(category).or_default() += 1,
            }
        }
    }
}

/// The pages of a WARC file, as ``Extractor.iter_warc`` and ``mainline.iter_warc`` give
/// them: an iterator of dicts, read and extracted a batch at a time.
#[pyclass(module = "mainline")]
struct WarcPages {
    state: Mutex<WarcState>,
    spec: WarcSpec,
}

#[pymethods]
impl WarcPages {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__<'py>(&mut self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyDict>>> {
        let spec = &self.spec;
        let state = self
            .state
            .get_mut()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        loop {
            if let Some(item) = state.ready.pop_front() {
                return item.into_dict(py).map(Some);
            }
            if state.reader.is_none() {
                return Ok(None);
            }
            py.detach(|| state.fill(spec));
        }
    }

    /// Records that gave no page so far, by kind: ``request``, ``metadata``,
    /// ``revisit``, ``warcinfo``, ``not HTML``, ``non-2xx status``, …
    #[getter]
    fn skipped(&mut self) -> BTreeMap<String, u64> {
        self.state
            .get_mut()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .skipped
            .clone()
    }

    fn __repr__(&self) -> String {
        "WarcPages(…)".to_string()
    }
}

/// A page's main content, what the page says about itself, and what was counted while
/// reading it.
#[pyclass(frozen, module = "mainline", get_all)]
struct Document {
    /// The kept lines joined by ``"\n"`` (``""`` when nothing is kept).
    text: String,
    /// The kept lines as GitHub-flavoured Markdown (links and images as the extractor's
    /// options say).
    markdown: String,
    /// What the page says about itself: ``title``, ``author``, ``published``,
    /// ``modified``, ``site_name``, ``description``, ``language``, ``image``, ``url``,
    /// ``base``, ``page_types``, ``html_title``, ``first_h1`` (None when absent).
    metadata: Py<PyDict>,
    /// The page's URL: the one given, else its canonical link; None when neither.
    url: Option<String>,
    /// Lines of the page.
    lines: u64,
    /// Lines kept.
    kept_lines: u64,
    /// UTF-8 bytes of the kept lines' text.
    text_bytes: u64,
    /// Bytes of HTML read (after gzip decompression).
    input_bytes: u64,
    /// The encoding the page was decoded with (``"UTF-8"`` for a ``str``).
    encoding: String,
}

#[pymethods]
impl Document {
    fn __repr__(&self) -> String {
        format!(
            "Document(url={:?}, lines={}, kept_lines={}, text_bytes={}, input_bytes={}, encoding={:?})",
            self.url, self.lines, self.kept_lines, self.text_bytes, self.input_bytes, self.encoding
        )
    }
}

/// A JSON value as the Python value `json.loads` would give.
fn json_to_py<'py>(py: Python<'py>, v: &serde_json::Value) -> PyResult<Bound<'py, PyAny>> {
    use pyo3::IntoPyObjectExt;
    use serde_json::Value;
    Ok(match v {
        Value::Null => py.None().into_bound(py),
        Value::Bool(b) => b.into_bound_py_any(py)?,
        Value::Number(n) => match (n.as_i64(), n.as_f64()) {
            (Some(i), _) => i.into_bound_py_any(py)?,
            (None, Some(f)) => f.into_bound_py_any(py)?,
            (None, None) => n.to_string().into_bound_py_any(py)?,
        },
        Value::String(s) => s.into_bound_py_any(py)?,
        Value::Array(items) => {
            let list = PyList::empty(py);
            for item in items {
                list.append(json_to_py(py, item)?)?;
            }
            list.into_any()
        }
        Value::Object(map) => {
            let dict = PyDict::new(py);
            for (k, item) in map {
                dict.set_item(k, json_to_py(py, item)?)?;
            }
            dict.into_any()
        }
    })
}

/// One line of a page and what was decided about it (the fields of ``mainline filter
/// --format jsonl``).
#[pyclass(frozen, module = "mainline", get_all)]
struct Line {
    /// Position of the line in the page, from 0.
    index: u64,
    /// The text, whitespace collapsed.
    text: String,
    /// The decision: whether the line is main content.
    keep: bool,
    /// The model's score (the second stage's for a two-stage model; the density for the
    /// fixed threshold).
    score: f32,
    /// Input bytes from the end of the previous line to the end of this one.
    html_bytes: u64,
    /// UTF-8 bytes of the text.
    text_bytes: u64,
    /// Bytes of the text inside links.
    link_bytes: u64,
    /// text_bytes / html_bytes, capped at 1.
    density: f64,
    /// The nearest line-breaking element (``"p"``, ``"li"``, ``"td"``, …).
    block: &'static str,
    /// Heading level 1–6, or 0.
    heading: u8,
    /// Open elements around the text.
    depth: u32,
    /// ``tag.class#id`` of the nearest ancestors with a class or id, nearest first.
    ancestors: Vec<String>,
    /// Every feature the model reads, by name.
    features: Py<PyDict>,
}

#[pymethods]
impl Line {
    fn __repr__(&self) -> String {
        let mut text: String = self.text.chars().take(40).collect();
        if text.len() < self.text.len() {
            text.push('…');
        }
        format!(
            "Line(index={}, keep={}, score={:.4}, text={text:?})",
            self.index,
            if self.keep { "True" } else { "False" },
            self.score
        )
    }
}

/// What a site repeats on most of its pages — menus, a "Most read" list, a newsletter box,
/// footer paragraphs — is its template: a site profile learns it from the site's pages
/// and extracts each page without it (see the README's "Sites").
///
/// ``SiteProfile(pages)`` learns from an iterable of pages: each ``str`` or ``bytes``
/// (its site is the host of its canonical link) or a ``(url, html)`` pair. ``learn`` adds
/// one more; ``extract`` gives a page's text with its site's template dropped (a page of
/// a site with no other page learnt is extracted as ``mainline.extract`` does). ``save``
/// and ``load`` write and read the profile file of ``mainline site learn``.
#[pyclass(module = "mainline", name = "SiteProfile")]
struct PySiteProfile {
    profile: mainline::site::Profile,
}

impl PySiteProfile {
    /// Learns one item of an iterable: a page, or a `(url, page)` pair.
    fn learn_item(&mut self, py: Python<'_>, item: &Bound<'_, PyAny>) -> PyResult<Option<String>> {
        if let Ok((url, html)) = item.extract::<(Option<String>, Bound<'_, PyAny>)>() {
            return self.learn(py, &html, url.as_deref());
        }
        self.learn(py, item, None)
    }
}

#[pymethods]
impl PySiteProfile {
    #[new]
    #[pyo3(signature = (pages = None, *, memory = mainline::site::DEFAULT_MEMORY))]
    fn new(py: Python<'_>, pages: Option<&Bound<'_, PyAny>>, memory: usize) -> PyResult<Self> {
        let mut p = PySiteProfile {
            profile: mainline::site::Profile::new().with_memory(memory),
        };
        if let Some(pages) = pages {
            for item in pages.try_iter()? {
                p.learn_item(py, &item?)?;
            }
        }
        Ok(p)
    }

    /// Learns one page; returns its site (the host of ``url``, else of the page's
    /// canonical link), or None when it has none (then it is not learnt).
    #[pyo3(signature = (html, *, url = None))]
    fn learn(
        &mut self,
        py: Python<'_>,
        html: &Bound<'_, PyAny>,
        url: Option<&str>,
    ) -> PyResult<Option<String>> {
        let (bytes, _) = page_bytes(html)?;
        let bytes = bytes.as_bytes();
        let profile = &mut self.profile;
        py.detach(|| guarded(|| profile.learn_page(bytes, url)))
            .map_err(|e| py_error(&e, url))
    }

    /// The main text of one page (as ``mainline.extract``), its site's template dropped.
    #[pyo3(signature = (html, *, url = None))]
    fn extract(
        &self,
        py: Python<'_>,
        html: &Bound<'_, PyAny>,
        url: Option<&str>,
    ) -> PyResult<String> {
        let (bytes, decoded) = page_bytes(html)?;
        let bytes = bytes.as_bytes();
        let profile = &self.profile;
        py.detach(|| {
            guarded(|| {
                let template = profile.page_template(bytes, url);
                let options = Options::new().site(template);
                let doc = if decoded {
                    let text = std::str::from_utf8(bytes)
                        .map_err(|e| Error::Other(format!("a str that is not UTF-8: {e}")))?;
                    options.extract_str(text)?
                } else {
                    options.extract(bytes)?
                };
                Ok(doc.text().to_string())
            })
        })
        .map_err(|e| py_error(&e, url))
    }

    /// The number of sites learnt.
    #[getter]
    fn sites(&self) -> usize {
        self.profile.sites()
    }

    /// The number of pages learnt of ``host``.
    fn pages(&self, host: &str) -> u32 {
        self.profile.site(host).map_or(0, |t| t.pages())
    }

    /// The profile as JSON (the profile file's text).
    fn to_json(&self) -> String {
        self.profile.to_json()
    }

    /// A profile from ``to_json``'s text; raises ``MainlineError`` when it is not one.
    #[staticmethod]
    fn from_json(json: &str) -> PyResult<Self> {
        let profile = mainline::site::Profile::from_json(json).map_err(|e| py_error(&e, None))?;
        Ok(PySiteProfile { profile })
    }

    /// Writes the profile file.
    fn save(&self, path: PathBuf) -> PyResult<()> {
        self.profile
            .save(&path)
            .map_err(|e| py_error(&e, path.to_str()))
    }

    /// Reads a profile file (of ``save`` or ``mainline site learn``).
    #[staticmethod]
    fn load(path: PathBuf) -> PyResult<Self> {
        let profile = mainline::site::Profile::load(&path).map_err(|e| py_error(&e, None))?;
        Ok(PySiteProfile { profile })
    }

    fn __repr__(&self) -> String {
        format!("SiteProfile(sites={})", self.profile.sites())
    }
}

/// The site of a URL as site mode groups pages: its host, lowercased, without a port or a
/// leading ``www.``; None when it has none.
#[pyfunction]
fn site_host(url: &str) -> Option<String> {
    mainline::site::host(url)
}

/// The compiled core of `mainline`.
#[pymodule]
fn _mainline(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add("MODEL_VERSION", builtin().1.as_str())?;
    m.add("FEATURE_NAMES", features::names().to_vec())?;
    m.add("MainlineError", m.py().get_type::<MainlineError>())?;
    m.add_class::<PyExtractor>()?;
    m.add_class::<Document>()?;
    m.add_class::<Line>()?;
    m.add_class::<WarcPages>()?;
    m.add_class::<PySiteProfile>()?;
    m.add_function(wrap_pyfunction!(site_host, m)?)?;
    Ok(())
}
