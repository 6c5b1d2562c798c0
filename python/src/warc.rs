//! `iter_warc`: the HTML pages of a WARC file as dicts, read and extracted a batch at a
//! time with the GIL released; the records are read and sorted into pages, skips and
//! errors by `mainline::source::warc`, as the `mainline` command reads them.

use std::collections::{BTreeMap, VecDeque};
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use mainline::source::Page;
use mainline::source::warc::{self as source, Outcome};
use mainline::warc::{Html, HtmlOptions, Reader, Record, RecordError};
use mainline::{Extractor, Options, Scorer};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use rayon::prelude::*;

use crate::convert::json_to_py;
use crate::pages::guarded;

/// What `iter_warc` extracts with: the extractor's model and options, and the reader's.
pub(crate) struct WarcSpec {
    /// The WARC file, as it was named.
    pub(crate) path: PathBuf,
    pub(crate) scorer: Arc<dyn Scorer>,
    pub(crate) options: Options,
    pub(crate) html: HtmlOptions,
    pub(crate) threads: Option<usize>,
    pub(crate) pool: Option<Arc<rayon::ThreadPool>>,
    /// Extractors between pages, reset ([`Page::text`] leaves them so): those of the
    /// threads that have needed one at the same time, at most one a thread.
    pub(crate) extractors: Mutex<Vec<Extractor>>,
}

/// One page (or one record that failed) of a WARC file, before it becomes a dict.
pub(crate) struct WarcItem {
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
        page: Page<'_>,
    ) -> mainline::Result<(String, serde_json::Map<String, serde_json::Value>)> {
        guarded(|| {
            let (text, mut fields) = page.record(&self.options, |page| self.text(page))?;
            fields.remove("url");
            Ok((text, fields))
        })
    }

    /// The kept text of a page, with an extractor this iterator kept from an earlier page
    /// (reset; one for each thread that has needed one at the same time) or a new one.
    /// An extractor that panicked is not kept: it is dropped as the panic unwinds.
    fn text(&self, page: &Page<'_>) -> mainline::Result<String> {
        let kept = self.extractors.lock().ok().and_then(|mut v| v.pop());
        let mut ex = kept.unwrap_or_else(|| Extractor::new(Arc::clone(&self.scorer)));
        let text = page.text(&mut ex);
        if let Ok(mut v) = self.extractors.lock() {
            v.push(ex);
        }
        text
    }

    /// What one record gives: `Err` with its kind for a record that is skipped.
    fn record(&self, r: Result<Record, RecordError>) -> Result<WarcItem, String> {
        let record = match r {
            Ok(record) => record,
            Err(e) => return Ok(WarcItem::failed(e)),
        };
        let page = |_: &Html<'_>, page: Page<'_>| self.page(page).map_err(|e| e.to_string());
        match source::read(&record, &self.html, &self.path, page) {
            Outcome::Skipped(kind) => Err(kind),
            Outcome::Failed(e) => Ok(WarcItem::failed(e)),
            Outcome::Page { value, error, .. } => {
                let mut item = WarcItem::of(&record);
                if let Some((text, fields)) = value {
                    item.text = Some(text);
                    item.fields = fields;
                }
                item.error = error;
                Ok(item)
            }
        }
    }
}

/// Where `iter_warc` is in its file.
pub(crate) struct WarcState {
    /// `None` once the file is read to its end.
    pub(crate) reader: Option<Reader<mainline::internals::input::Input>>,
    /// Pages extracted and not handed out yet.
    pub(crate) ready: VecDeque<WarcItem>,
    pub(crate) skipped: BTreeMap<String, u64>,
}

impl WarcState {
    /// Reads and extracts the next batch of records (call with the GIL released).
    fn fill(&mut self, spec: &WarcSpec) {
        let Some(reader) = &mut self.reader else {
            return;
        };
        let batch = source::batch(reader);
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
pub(crate) struct WarcPages {
    pub(crate) state: Mutex<WarcState>,
    pub(crate) spec: WarcSpec,
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
