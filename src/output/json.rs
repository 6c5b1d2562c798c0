//! [`Format::Json`]: one JSON object per page, its metadata, text
//! and counts.

use std::io::{self, Write};

use super::{Format, Writer};
use crate::{Decision, Document, Extractor, Options};

/// The fields of a JSON object.
pub type Fields = serde_json::Map<String, serde_json::Value>;

/// The document as one JSON object (see [`Document::to_json`]).
pub(crate) fn object(doc: &Document) -> serde_json::Value {
    serde_json::Value::Object(fields(doc))
}

/// The fields of the document's JSON object, in order.
pub(crate) fn fields(doc: &Document) -> Fields {
    let m = &doc.metadata;
    let mut o = Fields::new();
    o.insert("url".into(), doc.url().into());
    o.insert("title".into(), m.title.as_deref().into());
    o.insert("author".into(), m.author.as_deref().into());
    o.insert("published".into(), m.published.as_deref().into());
    o.insert("modified".into(), m.modified.as_deref().into());
    o.insert("site_name".into(), m.site_name.as_deref().into());
    o.insert("description".into(), m.description.as_deref().into());
    o.insert("language".into(), m.language.as_deref().into());
    o.insert("image".into(), m.image.as_deref().into());
    o.insert("page_types".into(), m.page_types.clone().into());
    o.insert("text".into(), doc.text().into());
    if doc.opts.format.markdown_in_json(doc.opts.markdown_in_json) {
        o.insert("markdown".into(), doc.markdown().into());
    }
    o.insert("kept_lines".into(), doc.kept_lines().into());
    o.insert("total_lines".into(), doc.lines.len().into());
    o.insert("encoding".into(), doc.encoding().into());
    o.insert(
        "confidence".into(),
        doc.confidence()
            .map(|c| (c * 1000.0).round() / 1000.0)
            .into(),
    );
    if let Some(t) = &doc.opts.site {
        let matched = doc.lines.iter().filter_map(|d| d.template);
        let (n, dropped) =
            matched.fold((0u64, 0u64), |(n, k), m| (n + 1, k + u64::from(m.dropped)));
        o.insert(
            "site".into(),
            serde_json::json!({"pages": t.other_pages(), "template_lines": n, "dropped": dropped}),
        );
    }
    o
}

/// A document's text, and the fields a record of it gains beside its text in `format`:
/// every field of [`Document::to_json`] but `text` for [`Format::Json`], only `markdown`
/// for [`Format::Markdown`], none for the others.
///
/// ```
/// use mainline::{Format, Options};
/// let page = "<title>Tides</title><p>The tide comes in twice a day, pulled by the moon.</p>";
/// let doc = Options::new().threshold(0.5).format(Format::Markdown).extract_str(page)?;
/// let (text, fields) = mainline::output::json::record_fields(&doc, Format::Markdown);
/// assert_eq!(text, "The tide comes in twice a day, pulled by the moon.");
/// assert_eq!(fields.keys().collect::<Vec<_>>(), ["markdown"]);
/// # Ok::<(), mainline::Error>(())
/// ```
pub fn record_fields(doc: &Document, format: Format) -> (String, Fields) {
    let mut fields = match format {
        Format::Json | Format::Markdown => self::fields(doc),
        _ => Fields::new(),
    };
    if format == Format::Markdown {
        fields.retain(|k, _| k == "markdown");
    }
    fields.remove("text");
    (doc.text().to_string(), fields)
}

/// Holds a page's lines, and writes its JSON object and a line end once it ends: first
/// `source` when the page is named, then the fields of [`Document::to_json`].
#[derive(Debug)]
pub(crate) struct Json {
    pub(crate) opts: Options,
    pub(crate) source: Option<String>,
    pub(crate) lines: Vec<Decision>,
}

impl Writer for Json {
    fn line(&mut self, _: &mut Extractor, d: Decision, _: &mut dyn Write) -> io::Result<()> {
        self.lines.push(d);
        Ok(())
    }

    fn finish(&mut self, ex: &mut Extractor, out: &mut dyn Write) -> io::Result<()> {
        let lines = std::mem::take(&mut self.lines);
        let bytes = ex.splitter().input_bytes();
        let doc = Document::assemble(ex, lines, self.opts.clone(), bytes);
        let mut obj = Fields::new();
        if let Some(name) = &self.source {
            obj.insert("source".into(), name.as_str().into());
        }
        obj.extend(fields(&doc));
        serde_json::to_writer(&mut *out, &obj)?;
        out.write_all(b"\n")
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_documents_fields_keep_their_order() {
        let doc = crate::Options::new()
            .threshold(0.5)
            .extract_str("<title>Tides</title><p>The tide comes in twice a day.</p>")
            .unwrap();
        let json = doc.to_json().to_string();
        let at = |key: &str| json.find(&format!("\"{key}\":")).unwrap();
        let keys = [
            "url",
            "title",
            "author",
            "published",
            "text",
            "kept_lines",
            "encoding",
        ];
        assert!(keys.windows(2).all(|k| at(k[0]) < at(k[1])), "{json}");
    }
}
