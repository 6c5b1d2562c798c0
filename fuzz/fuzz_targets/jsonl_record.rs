//! `filter --input-format jsonl` records: any input line gives exactly one output line,
//! a JSON object with `text` a string (or null with an `error` string), and the record's
//! other fields as they came; the reader of lines keeps at most the cap of a line.
//!
//! NOTE: the record code lives in the binary (src/cli/filter/jsonl.rs); it is compiled
//! into this target by path, with the two items of the binary it names supplied here.
#![no_main]

use std::io::BufReader;

use libfuzzer_sys::fuzz_target;

mod cli {
    use std::path::Path;
    pub fn open_input(path: &Path) -> mainline::Result<mainline::input::Input> {
        mainline::input::open(path)
    }
}

#[allow(dead_code)]
mod walk {
    use std::path::PathBuf;
    pub enum Found {
        Page { path: PathBuf, out_name: PathBuf },
        Unreadable { path: PathBuf, error: std::io::Error },
    }
}

#[allow(dead_code)]
#[path = "../../src/cli/filter/jsonl.rs"]
mod jsonl;

/// A stand-in for the filter: the text is the html upper-cased, empty html is an error.
fn text_of(html: &str) -> Result<(String, jsonl::Extra), String> {
    if html.is_empty() {
        Err("no text".into())
    } else {
        Ok((html.to_uppercase(), jsonl::Extra::new()))
    }
}

fuzz_target!(|data: &[u8]| {
    // Every line of the input, read with a small cap, gives one record.
    let cap = 64;
    let mut reader = BufReader::with_capacity(16, data);
    let mut lines = 0;
    while let Some(line) = jsonl::read_line(&mut reader, cap).expect("reading memory") {
        lines += 1;
        let r = match line {
            jsonl::Line::Record(line) => {
                assert!(line.len() <= cap);
                jsonl::record(&line, false, text_of)
            }
            jsonl::Line::TooLong(bytes) => {
                assert!(bytes as usize > cap);
                jsonl::too_long(bytes, cap)
            }
        };
        assert!(r.line.ends_with(b"\n"));
        assert_eq!(r.line.iter().filter(|&&b| b == b'\n').count(), 1);
        let v: serde_json::Value = serde_json::from_slice(&r.line).expect("the output is JSON");
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
