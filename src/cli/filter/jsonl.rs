//! `--input-format jsonl`: one JSON object per line in, one per line out.
//!
//! The contract (also in `mainline filter --help`):
//!
//! - every input line gives exactly one output line, in the same order;
//! - a record is a JSON object with a string field `html`. The output object has the
//!   record's fields in their order, values byte for byte as they came, except `html`
//!   (kept with `--keep-html`) and any `text` or `error` field; then `text`, the kept
//!   lines joined by `\n`;
//! - a record that cannot be filtered (not JSON, not an object, no `html` string, an
//!   empty line, a document the filter rejects) gives its fields as above, `"text": null`
//!   and `"error"` saying why. It never stops the stream, and is not an input failure for
//!   the exit code.

use std::fmt;
use std::io::{self, BufRead, BufReader};
use std::path::PathBuf;

use serde::Deserialize;
use serde::de::{MapAccess, Visitor};
use serde_json::value::RawValue;

use super::walk::Found;

/// Most records in one job.
const BATCH_RECORDS: usize = 256;

/// Most input bytes in one job (a job ends after the record that reaches it).
const BATCH_BYTES: usize = 1 << 20;

/// The fields of a JSON object in their order, values as raw JSON text.
struct Fields(Vec<(String, Box<RawValue>)>);

impl<'de> Deserialize<'de> for Fields {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct FieldsVisitor;
        impl<'de> Visitor<'de> for FieldsVisitor {
            type Value = Fields;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a JSON object")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Fields, A::Error> {
                let mut fields = Vec::with_capacity(map.size_hint().unwrap_or(4));
                while let Some(entry) = map.next_entry::<String, Box<RawValue>>()? {
                    fields.push(entry);
                }
                Ok(Fields(fields))
            }
        }
        d.deserialize_map(FieldsVisitor)
    }
}

/// What a record came to.
pub struct Record {
    /// The output line, with its `\n`.
    pub line: Vec<u8>,
    /// Bytes of the record's `html`.
    pub html_bytes: u64,
    /// Whether the record has an `error`.
    pub failed: bool,
}

/// Filters one input line (without its line end) with `text_of`, which gives the text of
/// an HTML document or why it has none.
pub fn record(
    line: &[u8],
    keep_html: bool,
    text_of: impl FnOnce(&str) -> Result<String, String>,
) -> Record {
    let parsed = if line.iter().all(u8::is_ascii_whitespace) {
        Err("empty line".to_string())
    } else {
        std::str::from_utf8(line)
            .map_err(|e| format!("not UTF-8: {e}"))
            .and_then(|s| {
                serde_json::from_str::<Fields>(s).map_err(|e| format!("not a JSON object: {e}"))
            })
    };
    let (fields, result, html_bytes) = match parsed {
        Err(e) => (Vec::new(), Err(e), 0),
        Ok(Fields(fields)) => {
            let html = fields
                .iter()
                .find(|(k, _)| k == "html")
                .map(|(_, v)| serde_json::from_str::<String>(v.get()));
            match html {
                None => (fields, Err("the record has no html field".to_string()), 0),
                Some(Err(_)) => (fields, Err("the html field is not a string".to_string()), 0),
                Some(Ok(html)) => {
                    let n = html.len() as u64;
                    (fields, text_of(&html), n)
                }
            }
        }
    };
    let mut out = Vec::with_capacity(match &result {
        Ok(text) => text.len() + 64,
        Err(_) => 128,
    });
    out.push(b'{');
    for (key, value) in &fields {
        if key == "text" || key == "error" || (key == "html" && !keep_html) {
            continue;
        }
        push_str(&mut out, key);
        out.push(b':');
        out.extend_from_slice(value.get().as_bytes());
        out.push(b',');
    }
    out.extend_from_slice(b"\"text\":");
    let failed = result.is_err();
    match result {
        Ok(text) => push_str(&mut out, &text),
        Err(error) => {
            out.extend_from_slice(b"null,\"error\":");
            push_str(&mut out, &error);
        }
    }
    out.extend_from_slice(b"}\n");
    Record {
        line: out,
        html_bytes,
        failed,
    }
}

fn push_str(out: &mut Vec<u8>, s: &str) {
    serde_json::to_writer(&mut *out, s).expect("writing into memory");
}

/// The lines of the inputs in batches: each batch is a job for one thread.
pub struct Batches {
    inputs: std::vec::IntoIter<Found>,
    current: Option<(PathBuf, BufReader<mainline::input::Input>)>,
    /// A read error to report after the lines read before it.
    failure: Option<Batch>,
}

/// One item of [`Batches`].
pub enum Batch {
    /// Lines without their line ends.
    Lines(Vec<Vec<u8>>),
    /// An input that could not be opened or read to its end (after the lines read).
    Failed(PathBuf, anyhow::Error),
}

impl Batches {
    /// Batches of the lines of `inputs`, read one after the other.
    pub fn new(inputs: Vec<Found>) -> Self {
        Batches {
            inputs: inputs.into_iter(),
            current: None,
            failure: None,
        }
    }
}

impl Iterator for Batches {
    type Item = Batch;

    fn next(&mut self) -> Option<Batch> {
        if let Some(failure) = self.failure.take() {
            return Some(failure);
        }
        let mut lines = Vec::new();
        let mut bytes = 0;
        loop {
            let Some((path, reader)) = &mut self.current else {
                let path = match self.inputs.next()? {
                    Found::Page { path, .. } => path,
                    Found::Unreadable { path, error } => {
                        let error = anyhow::Error::new(error).context("reading the directory");
                        return Some(Batch::Failed(path, error));
                    }
                };
                match mainline::input::open(&path) {
                    Ok(input) => {
                        self.current = Some((path, BufReader::with_capacity(1 << 16, input)))
                    }
                    Err(e) => return Some(Batch::Failed(path, e.into())),
                }
                continue;
            };
            // NOTE: hand on what has been read before a read that may wait for more input
            // (a pipe fed slowly), so that records do not wait for a full batch.
            if !lines.is_empty() && !reader.buffer().contains(&b'\n') {
                return Some(Batch::Lines(lines));
            }
            let mut line = Vec::new();
            match read_line(reader, &mut line) {
                Ok(0) => {
                    self.current = None;
                    if !lines.is_empty() {
                        return Some(Batch::Lines(lines));
                    }
                }
                Ok(n) => {
                    bytes += n;
                    lines.push(line);
                    if lines.len() >= BATCH_RECORDS || bytes >= BATCH_BYTES {
                        return Some(Batch::Lines(lines));
                    }
                }
                Err(e) => {
                    let failure = Batch::Failed(path.clone(), e.into());
                    self.current = None;
                    if lines.is_empty() {
                        return Some(failure);
                    }
                    self.failure = Some(failure);
                    return Some(Batch::Lines(lines));
                }
            }
        }
    }
}

/// Reads one line into `line` without its `\n` (or `\r\n`); returns the bytes consumed,
/// 0 at the end of the input.
fn read_line(reader: &mut impl BufRead, line: &mut Vec<u8>) -> io::Result<usize> {
    let n = reader.read_until(b'\n', line)?;
    if line.last() == Some(&b'\n') {
        line.pop();
        if line.last() == Some(&b'\r') {
            line.pop();
        }
    }
    Ok(n)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn upper(html: &str) -> Result<String, String> {
        if html.is_empty() {
            Err("nothing".into())
        } else {
            Ok(html.to_uppercase())
        }
    }

    fn out(line: &str) -> String {
        String::from_utf8(record(line.as_bytes(), false, upper).line).unwrap()
    }

    #[test]
    fn other_fields_pass_through_unchanged_and_in_order() {
        assert_eq!(
            out(r#"{"z": 1e2, "html": "<p>a</p>", "a": [1, {"b": null}], "text": "old"}"#),
            "{\"z\":1e2,\"a\":[1, {\"b\": null}],\"text\":\"<P>A</P>\"}\n"
        );
        let kept = record(br#"{"html":"x\u0041"}"#, true, upper);
        assert_eq!(kept.line, b"{\"html\":\"x\\u0041\",\"text\":\"XA\"}\n");
        assert_eq!(kept.html_bytes, 2);
    }

    #[test]
    fn bad_records_say_why_and_keep_what_they_can() {
        for (line, error) in [
            ("", "empty line"),
            ("  ", "empty line"),
            ("[1]", "not a JSON object"),
            ("{\"html\": ", "not a JSON object"),
            (r#"{"id": 7}"#, "no html field"),
            (r#"{"id": 7, "html": 3}"#, "not a string"),
            (r#"{"id": 7, "html": ""}"#, "nothing"),
        ] {
            let r = record(line.as_bytes(), false, upper);
            assert!(r.failed, "{line}");
            let v: serde_json::Value = serde_json::from_slice(&r.line).unwrap();
            assert!(v["error"].as_str().unwrap().contains(error), "{line}: {v}");
            assert!(v["text"].is_null());
            if line.contains("id") {
                assert_eq!(v["id"], 7);
            }
        }
        assert!(record(b"\xff", false, upper).failed);
    }

    #[test]
    fn batches_keep_every_line_in_order_and_split_large_inputs() {
        let dir = tempfile::tempdir().unwrap();
        let a = dir.path().join("a.jsonl");
        let lines: Vec<String> = (0..600).map(|i| format!("{{\"i\":{i}}}")).collect();
        std::fs::write(&a, lines.join("\r\n") + "\n\n").unwrap();
        let mut got = Vec::new();
        let mut batches = 0;
        let inputs = [a, dir.path().join("missing.jsonl")].map(|path| Found::Page {
            path,
            out_name: PathBuf::new(),
        });
        for batch in Batches::new(inputs.into()) {
            match batch {
                Batch::Lines(l) => {
                    batches += 1;
                    got.extend(l.into_iter().map(|l| String::from_utf8(l).unwrap()));
                }
                Batch::Failed(p, _) => got.push(format!("failed {}", p.display())),
            }
        }
        assert!(batches >= 3, "{batches}");
        assert_eq!(got.len(), 602);
        assert_eq!(got[..600], lines[..]);
        assert_eq!(got[600], "");
        assert!(got[601].starts_with("failed") && got[601].ends_with("missing.jsonl"));
    }
}
