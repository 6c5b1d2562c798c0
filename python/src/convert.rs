//! What Python receives: a page's `Document`, its `Line`s, and JSON values as the Python
//! values `json.loads` would give.

use mainline::Decision;
use mainline::internals::features;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

/// A page's main content, what the page says about itself, and what was counted while
/// reading it.
#[pyclass(frozen, module = "mainline", get_all)]
pub(crate) struct Document {
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

/// What a [`Document`] is made of, taken from the library's document with the GIL
/// released.
pub(crate) struct ReadDocument {
    doc: mainline::Document,
    markdown: String,
    text_bytes: u64,
    metadata: serde_json::Value,
}

impl ReadDocument {
    pub(crate) fn of(doc: mainline::Document) -> Self {
        let text_bytes = doc
            .lines()
            .iter()
            .filter(|d| d.keep)
            .map(|d| d.line.text_bytes)
            .sum();
        let metadata = serde_json::to_value(doc.metadata())
            .expect("metadata has string keys and plain values");
        ReadDocument {
            markdown: doc.markdown().to_string(),
            text_bytes,
            metadata,
            doc,
        }
    }

    /// The Python `Document` (with the GIL held).
    pub(crate) fn into_py(self, py: Python<'_>) -> PyResult<Document> {
        let ReadDocument {
            doc,
            markdown,
            text_bytes,
            metadata,
        } = self;
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
}

/// A JSON value as the Python value `json.loads` would give.
pub(crate) fn json_to_py<'py>(
    py: Python<'py>,
    v: &serde_json::Value,
) -> PyResult<Bound<'py, PyAny>> {
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
pub(crate) struct Line {
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

impl Line {
    /// The line of a decision, with the features by name.
    pub(crate) fn of(py: Python<'_>, d: Decision) -> PyResult<Self> {
        let feats = PyDict::new(py);
        for (name, value) in features::names().iter().zip(d.features.iter().flatten()) {
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
    }
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
