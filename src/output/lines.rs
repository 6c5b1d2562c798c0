//! [`Format::Lines`](super::Format::Lines) (`--format jsonl`): every line of a page as
//! one JSON object, kept or not, with its score, decision and, when collected, features.

use std::io::{self, Write};

use super::Writer;
use crate::{Decision, Document, Extractor, features};

/// Writes one line's record, and a line end, into `out`; `doc` names the page.
///
/// # Errors
/// When writing fails.
pub fn write_record(out: &mut dyn Write, doc: &str, d: &Decision) -> io::Result<()> {
    let line = &d.line;
    let mut obj = serde_json::json!({
        "doc": doc,
        "line": line.index,
        "text": line.text,
        "keep": d.keep,
        "score": d.score,
        "html_bytes": line.html_bytes,
        "text_bytes": line.text_bytes,
        "link_bytes": line.link_bytes,
        "density": line.density(),
        "block": line.block.name(),
        "heading": line.heading,
        "depth": line.depth,
        "ancestors": line.ancestors,
    });
    if let Some(values) = &d.features {
        let map: serde_json::Map<String, serde_json::Value> = features::names()
            .iter()
            .zip(values)
            .map(|(n, v)| (n.clone(), serde_json::json!(v)))
            .collect();
        obj["features"] = serde_json::Value::Object(map);
    }
    if let Some(m) = &d.template {
        obj["template"] = serde_json::json!({"pages": m.pages, "of": m.of, "dropped": m.dropped});
    }
    serde_json::to_writer(&mut *out, &obj)?;
    out.write_all(b"\n")
}

/// Every line's record, each named by the document's URL (`""` without one).
pub(crate) fn render(doc: &Document) -> String {
    let name = doc.url().unwrap_or("");
    let mut out = Vec::new();
    for d in doc.lines() {
        write_record(&mut out, name, d).expect("writing to memory does not fail");
    }
    String::from_utf8(out).expect("JSON is UTF-8")
}

/// Writes each line's record as it is decided, named `doc`.
#[derive(Debug)]
pub(crate) struct Lines {
    pub(crate) doc: String,
}

impl Writer for Lines {
    fn line(&mut self, ex: &mut Extractor, d: Decision, out: &mut dyn Write) -> io::Result<()> {
        write_record(out, &self.doc, &d)?;
        ex.recycle(d.line);
        Ok(())
    }
}
