//! `filter --input-format jsonl` records: any input line gives exactly one output line,
//! a JSON object with `text` a string (or null with an `error` string), and the record's
//! other fields as they came; the reader of lines keeps at most the cap of a line.
//!
//! NOTE: the records are read by the library (`mainline::source::jsonl`); their output
//! lines are written by the command's crate (cli/src/filter/jsonl.rs, a binary crate that
//! cannot be depended on), which is compiled into this target by path.
#![no_main]

use std::io::BufReader;
use std::path::Path;

use libfuzzer_sys::fuzz_target;
use mainline::source::jsonl::{Html, Line, PIECE, Record, read_line};
use mainline::source::{At, Origin, Page};

#[allow(dead_code, unused_imports)]
#[path = "../../cli/src/filter/jsonl.rs"]
mod jsonl;

/// The pieces of a record's html: none empty or longer than [`PIECE`], their bytes the
/// decoded length, UTF-8.
fn check_pieces(html: &Html) {
    let mut text = Vec::new();
    html.pieces(|p| {
        assert!(!p.is_empty() && p.len() <= PIECE);
        text.extend_from_slice(p);
        Ok::<(), ()>(())
    })
    .expect("collecting never fails");
    assert_eq!(text.len(), html.decoded_len());
    String::from_utf8(text).expect("decoded JSON text is UTF-8");
}

/// A stand-in for the filter: the text is the html upper-cased, empty html is an error.
fn text_of(page: Page) -> Result<(String, jsonl::Extra), String> {
    let text = page.decode().0;
    assert_eq!(text.len(), page.len());
    if text.is_empty() {
        Err("no text".into())
    } else {
        Ok((text.to_uppercase(), jsonl::Extra::new()))
    }
}

fuzz_target!(|data: &[u8]| {
    // Every line of the input, read with a small cap, gives one record.
    let cap = 64;
    let mut reader = BufReader::with_capacity(16, data);
    let mut lines = 0;
    while let Some(line) = read_line(&mut reader, cap).expect("reading memory") {
        lines += 1;
        let mut out = Vec::new();
        let mut input = None;
        let r = match line {
            Line::Record(line) => {
                assert!(line.len() <= cap);
                let origin = Origin {
                    container: Path::new("-"),
                    at: At::Line(lines as u64),
                };
                // The record's html as the command reads it, checked piece by piece.
                if let Ok(record) = Record::parse(&line, origin) {
                    if let Ok(html) = record.html() {
                        check_pieces(html);
                    }
                }
                let r =
                    jsonl::record(&line, origin, false, text_of, &mut out).expect("writing memory");
                input = Some(line);
                r
            }
            Line::TooLong(bytes) => {
                assert!(bytes as usize > cap);
                jsonl::too_long(bytes, cap, &mut out).expect("writing memory")
            }
        };
        assert!(out.ends_with(b"\n"));
        assert_eq!(out.iter().filter(|&&b| b == b'\n').count(), 1);
        let v: serde_json::Value = match serde_json::from_slice(&out) {
            Ok(v) => v,
            Err(e) => {
                // The record's other fields pass through byte for byte, with what a strict
                // reader refuses in them (a lone surrogate escape, `"\ud800"`): only a
                // record that serde_json refuses itself gives such a line.
                let input = input.expect("a too-long record's line is JSON");
                assert!(
                    serde_json::from_slice::<serde_json::Value>(&input).is_err(),
                    "the output is not JSON ({e}) though the record is"
                );
                continue;
            }
        };
        let obj = v.as_object().expect("the output is an object");
        match (&obj["text"], obj.get("error")) {
            (serde_json::Value::String(_), None) => assert!(!r.failed),
            (serde_json::Value::Null, Some(serde_json::Value::String(_))) => assert!(r.failed),
            other => panic!("text and error: {other:?}"),
        }
    }
    let newlines = data.iter().filter(|&&b| b == b'\n').count();
    let expected = newlines + usize::from(!data.is_empty() && data.last() != Some(&b'\n'));
    assert_eq!(lines, expected);
});
