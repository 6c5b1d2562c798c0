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
//!
//! The records are read by [`mainline::source::jsonl`]; this file writes their output lines.

use std::io::{self, Write};

use mainline::source::jsonl::Record as JsonRecord;
pub use mainline::source::jsonl::{Line, Lines};
use mainline::source::{Origin, Page};
use serde_json::value::RawValue;

/// What a record came to (its output line is written by [`record`] or [`too_long`]).
pub struct Record {
    /// Bytes of the record's `html`, decoded.
    pub html_bytes: u64,
    /// Whether the record has an `error`.
    pub failed: bool,
}

/// Fields a record gains besides "text" (with --format json: the page's metadata).
pub type Extra = serde_json::Map<String, serde_json::Value>;

/// Filters one input line (without its line end), which is at `origin`, with `text_of`,
/// which gives the text of the record's page (its html string, decoded piece by piece as
/// it is read) and the other fields the record gains, or why it has none; writes the output
/// line, with its `\n`, to `out`.
///
/// NOTE: memory: the html string is decoded piece by piece as `text_of` reads it, and the
/// output line is written straight from the input line and the text, so a record is held
/// once, with its text (issue 23: a 500 MB record peaked at 2.9 times its size).
///
/// # Errors
/// When writing to `out` fails.
pub fn record(
    line: &[u8],
    origin: Origin<'_>,
    keep_html: bool,
    text_of: impl FnOnce(Page<'_>) -> Result<(String, Extra), String>,
    out: &mut dyn Write,
) -> io::Result<Record> {
    let (fields, result, html_bytes) = match JsonRecord::parse(line, origin) {
        Err(e) => (Vec::new(), Err(e), 0),
        Ok(record) => {
            let (result, n) = match record.page() {
                Ok(page) => (text_of(page), page.len() as u64),
                Err(e) => (Err(e.to_string()), 0),
            };
            (record.fields, result, n)
        }
    };
    finish(&fields, keep_html, result, html_bytes, out)
}

/// Writes the output line of a record longer than the cap: its `bytes` were read and
/// dropped.
///
/// # Errors
/// When writing to `out` fails.
pub fn too_long(bytes: u64, cap: usize, out: &mut dyn Write) -> io::Result<Record> {
    let error = format!(
        "the record is {bytes} bytes long, more than the {cap} bytes allowed \
         (--max-record-bytes); skipped"
    );
    finish(&[], false, Err(error), 0, out)
}

fn finish(
    fields: &[(String, &RawValue)],
    keep_html: bool,
    result: Result<(String, Extra), String>,
    html_bytes: u64,
    out: &mut dyn Write,
) -> io::Result<Record> {
    let no_extra = Extra::new();
    let extra = match &result {
        Ok((_, extra)) => extra,
        Err(_) => &no_extra,
    };
    out.write_all(b"{")?;
    for (key, value) in fields {
        if key == "text"
            || key == "error"
            || (key == "html" && !keep_html)
            || extra.contains_key(key.as_str())
        {
            continue;
        }
        write_str(out, key)?;
        out.write_all(b":")?;
        out.write_all(value.get().as_bytes())?;
        out.write_all(b",")?;
    }
    for (key, value) in extra {
        write_str(out, key)?;
        out.write_all(b":")?;
        serde_json::to_writer(&mut *out, value)?;
        out.write_all(b",")?;
    }
    out.write_all(b"\"text\":")?;
    let failed = result.is_err();
    match &result {
        Ok((text, _)) => write_str(out, text)?,
        Err(error) => {
            out.write_all(b"null,\"error\":")?;
            write_str(out, error)?;
        }
    }
    out.write_all(b"}\n")?;
    Ok(Record { html_bytes, failed })
}

fn write_str(out: &mut dyn Write, s: &str) -> io::Result<()> {
    serde_json::to_writer(out, s).map_err(io::Error::from)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn upper(page: Page<'_>) -> Result<(String, Extra), String> {
        let html = page.decode().0;
        if html.is_empty() {
            Err("nothing".into())
        } else {
            Ok((html.to_uppercase(), Extra::new()))
        }
    }

    /// The output line of a record and what it came to.
    fn record_line(line: &[u8], keep_html: bool) -> (Vec<u8>, Record) {
        let mut out = Vec::new();
        let origin = Origin {
            container: std::path::Path::new("-"),
            at: mainline::source::At::Line(1),
        };
        let r = record(line, origin, keep_html, upper, &mut out).unwrap();
        (out, r)
    }

    fn out(line: &str) -> String {
        String::from_utf8(record_line(line.as_bytes(), false).0).unwrap()
    }

    #[test]
    fn other_fields_pass_through_unchanged_and_in_order() {
        assert_eq!(
            out(r#"{"z": 1e2, "html": "<p>a</p>", "a": [1, {"b": null}], "text": "old"}"#),
            "{\"z\":1e2,\"a\":[1, {\"b\": null}],\"text\":\"<P>A</P>\"}\n"
        );
        let (line, kept) = record_line(br#"{"html":"x\u0041"}"#, true);
        assert_eq!(line, b"{\"html\":\"x\\u0041\",\"text\":\"XA\"}\n");
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
            (
                r#"{"id": 7, "html": "a\ud800b"}"#,
                "lone surrogate escape \\ud800 at byte 2",
            ),
            (
                r#"{"id": 7, "html": "\\\udc00"}"#,
                "lone surrogate escape \\udc00 at byte 3",
            ),
        ] {
            let (out, r) = record_line(line.as_bytes(), false);
            assert!(r.failed, "{line}");
            let v: serde_json::Value = serde_json::from_slice(&out).unwrap();
            assert!(v["error"].as_str().unwrap().contains(error), "{line}: {v}");
            assert!(v["text"].is_null());
            if line.contains("id") {
                assert_eq!(v["id"], 7);
            }
        }
        assert!(record_line(b"\xff", false).1.failed);
    }
}
