//! Many inputs at once: parallel runs give the same outputs as sequential ones, directories
//! are walked, and JSON lines records go through in order.

mod common;

use std::fs;
use std::path::{Path, PathBuf};

use common::{mainline, sample, scratch, stdout_bytes_of};
use predicates::prelude::*;

const SAMPLES: [&str; 4] = [
    "article.html",
    "entities.html",
    "table-layout.html",
    "windows-1252.html",
];

fn samples() -> Vec<String> {
    SAMPLES
        .iter()
        .map(|s| sample(s).to_str().unwrap().to_string())
        .collect()
}

/// Every file below `dir`, by relative path, with its contents.
fn tree(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    fn walk(root: &Path, dir: &Path, out: &mut Vec<(PathBuf, Vec<u8>)>) {
        for entry in fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                walk(root, &path, out);
            } else {
                let rel = path.strip_prefix(root).unwrap().to_path_buf();
                out.push((rel, fs::read(&path).unwrap()));
            }
        }
    }
    let mut out = Vec::new();
    walk(dir, dir, &mut out);
    out.sort();
    out
}

#[test]
fn jobs_4_writes_the_same_bytes_as_jobs_1_in_input_order() {
    // Each sample twice, so that outputs of different lengths finish out of order.
    let mut files = samples();
    files.extend(samples().into_iter().rev());
    for extra in [
        &[][..],
        &["--format", "jsonl"][..],
        &["--threshold", "0.5"][..],
    ] {
        let run = |jobs: &str| {
            let mut args = vec!["filter", "--jobs", jobs];
            args.extend_from_slice(extra);
            args.extend(files.iter().map(String::as_str));
            stdout_bytes_of(&args)
        };
        let one = run("1");
        assert!(!one.is_empty());
        assert_eq!(run("4"), one, "{extra:?}");
        // And the same as the pages filtered one at a time, each page's text then ended
        // by a line holding a form feed alone (JSON lines need none).
        let mut each = Vec::new();
        for f in &files {
            let mut args = vec!["filter"];
            args.extend_from_slice(extra);
            args.push(f);
            each.extend(stdout_bytes_of(&args));
            if !extra.contains(&"jsonl") {
                each.extend(b"\x0c\n");
            }
        }
        assert_eq!(one, each, "{extra:?}");
    }
}

#[test]
fn out_dir_files_are_the_same_with_one_job_and_with_four() {
    let dir = scratch();
    let mut outs = Vec::new();
    for jobs in ["1", "4"] {
        let out = dir.path().join(format!("out{jobs}"));
        let mut args = vec!["filter", "--jobs", jobs, "--out-dir", out.to_str().unwrap()];
        let files = samples();
        args.extend(files.iter().map(String::as_str));
        mainline().args(&args).assert().success().stdout("");
        outs.push(tree(&out));
    }
    assert_eq!(outs[0].len(), SAMPLES.len());
    assert_eq!(outs[0], outs[1]);
    let article = outs[0]
        .iter()
        .find(|(p, _)| p == Path::new("article.txt"))
        .unwrap();
    assert_eq!(
        article.1,
        stdout_bytes_of(&["filter", sample("article.html").to_str().unwrap()])
    );
}

/// A nested folder of pages, two of them with the same name in different folders.
fn nested_pages(root: &Path) {
    let article = fs::read(sample("article.html")).unwrap();
    let entities = fs::read(sample("entities.html")).unwrap();
    for (path, bytes) in [
        ("index.html", &article),
        ("news/index.html", &entities),
        ("news/2024/story.HTM", &article),
        ("news/2024/notes.txt", &entities),
        ("old/page.html.gz", &gzip(&entities)),
    ] {
        let p = root.join(path);
        fs::create_dir_all(p.parent().unwrap()).unwrap();
        fs::write(p, bytes).unwrap();
    }
}

fn gzip(bytes: &[u8]) -> Vec<u8> {
    use std::io::Write;
    let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    enc.write_all(bytes).unwrap();
    enc.finish().unwrap()
}

#[test]
fn recursive_walks_a_nested_folder_and_mirrors_it_under_out_dir() {
    let dir = scratch();
    let pages = dir.path().join("pages");
    nested_pages(&pages);
    let out = dir.path().join("texts");
    mainline()
        .args([
            "filter",
            "--recursive",
            "--jobs",
            "3",
            "--out-dir",
            out.to_str().unwrap(),
            pages.to_str().unwrap(),
        ])
        .assert()
        .success()
        .stderr(predicate::str::contains("mainline: 4 files (0 failed), "));
    let files: Vec<PathBuf> = tree(&out).into_iter().map(|(p, _)| p).collect();
    let expected: Vec<PathBuf> = [
        "index.txt",
        "news/2024/story.txt",
        "news/index.txt",
        "old/page.txt",
    ]
    .iter()
    .map(PathBuf::from)
    .collect();
    assert_eq!(files, expected);
    assert_eq!(
        fs::read(out.join("news/2024/story.txt")).unwrap(),
        stdout_bytes_of(&["filter", sample("article.html").to_str().unwrap()])
    );

    // To standard output: the pages in name order (index.html, news/2024/story.HTM,
    // news/index.html, old/page.html.gz), the same with any number of jobs.
    let order = [
        "article.html",
        "article.html",
        "entities.html",
        "entities.html",
    ];
    let expected: Vec<u8> = order
        .iter()
        .flat_map(|s| {
            let mut page = stdout_bytes_of(&["filter", sample(s).to_str().unwrap()]);
            page.extend(b"\x0c\n");
            page
        })
        .collect();
    for jobs in ["1", "2"] {
        let got = stdout_bytes_of(&["filter", "-r", "-j", jobs, pages.to_str().unwrap()]);
        assert_eq!(got, expected, "--jobs {jobs}");
    }
}

#[test]
fn without_recursive_a_directory_is_still_an_error() {
    let dir = scratch();
    nested_pages(dir.path());
    mainline()
        .args(["filter", "--jobs", "2", dir.path().to_str().unwrap()])
        .assert()
        .code(1)
        .stderr(predicate::str::contains("is a directory"));
}

#[test]
fn of_two_inputs_that_would_overwrite_each_other_only_the_second_fails() {
    let dir = scratch();
    let a = dir.path().join("a");
    let b = dir.path().join("b");
    for d in [&a, &b] {
        fs::create_dir_all(d).unwrap();
        fs::copy(sample("article.html"), d.join("page.html")).unwrap();
    }
    mainline()
        .args(["filter", "--out-dir"])
        .arg(dir.path().join("out"))
        .arg(a.join("page.html"))
        .arg(b.join("page.html"))
        .assert()
        .code(1)
        .stderr(predicate::str::contains("is already written to"));
    // The first input's text is there all the same.
    let text = fs::read_to_string(dir.path().join("out/page.txt")).unwrap();
    assert!(!text.is_empty());
}

#[test]
fn a_failure_among_many_inputs_is_reported_in_order_and_counted() {
    let good = sample("table-layout.html");
    let out = mainline()
        .args(["filter", "--jobs", "4", "no/such/page.html"])
        .arg(&good)
        .arg("no/such/other.html")
        .assert()
        .code(1)
        .stdout(predicate::str::contains("This page illustrates"))
        .get_output()
        .stderr
        .clone();
    let err = String::from_utf8(out).unwrap();
    let first = err.find("no/such/page.html").unwrap();
    let second = err.find("no/such/other.html").unwrap();
    assert!(first < second, "{err}");
    assert!(err.contains("3 files (2 failed)"), "{err}");
}

#[test]
fn quiet_leaves_only_failures_on_standard_error() {
    let files = samples();
    mainline()
        .args(["filter", "--quiet", "--jobs", "2"])
        .args(&files)
        .assert()
        .success()
        .stderr("");
}

fn json_lines(out: &[u8]) -> Vec<serde_json::Value> {
    std::str::from_utf8(out)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// The text the streaming filter gives for a sample, as a JSONL record's `text`.
fn text_of(name: &str, extra: &[&str]) -> String {
    let mut args = vec!["filter"];
    args.extend_from_slice(extra);
    let path = sample(name);
    args.push(path.to_str().unwrap());
    let out = String::from_utf8(stdout_bytes_of(&args)).unwrap();
    out.strip_suffix('\n').unwrap_or(&out).to_string()
}

#[test]
fn jsonl_records_round_trip_in_order_with_their_other_fields() {
    let dir = scratch();
    let input = dir.path().join("pages.jsonl");
    let mut lines = Vec::new();
    for (i, name) in SAMPLES.iter().enumerate() {
        let bytes = fs::read(sample(name)).unwrap();
        let html = if name.contains("1252") {
            encoding_rs::WINDOWS_1252.decode(&bytes).0.into_owned()
        } else {
            String::from_utf8(bytes).unwrap()
        };
        let record = serde_json::json!({"id": i, "url": format!("https://example.org/{name}"),
            "html": html, "meta": {"b": 2, "a": [1, 2.50]}});
        lines.push(serde_json::to_string(&record).unwrap());
    }
    // Bad records among the good ones: each gives one error record in its place.
    lines.insert(1, "{\"id\": \"no html\"}".to_string());
    lines.insert(3, "not json at all".to_string());
    lines.insert(4, String::new());
    lines.insert(5, "{\"html\": 42, \"id\": \"number\"}".to_string());
    fs::write(&input, lines.join("\n") + "\n").unwrap();

    let mut outputs = Vec::new();
    for jobs in ["1", "3"] {
        let out = mainline()
            .args(["filter", "--input-format", "jsonl", "--jobs", jobs])
            .arg(&input)
            .assert()
            .success()
            .stderr("")
            .get_output()
            .stdout
            .clone();
        outputs.push(out);
    }
    assert_eq!(outputs[0], outputs[1]);
    let records = json_lines(&outputs[0]);
    assert_eq!(records.len(), lines.len());

    let good: Vec<&serde_json::Value> = records.iter().filter(|r| r["error"].is_null()).collect();
    assert_eq!(good.len(), SAMPLES.len());
    for (i, (r, name)) in good.iter().zip(SAMPLES).enumerate() {
        let keys: Vec<&str> = r.as_object().unwrap().keys().map(String::as_str).collect();
        assert_eq!(keys, ["id", "url", "meta", "text"], "{name}");
        assert_eq!(r["id"], i);
        // Values pass through as they were written, nested order included.
        assert!(
            String::from_utf8_lossy(&outputs[0]).contains(r#""meta":{"b":2,"a":[1,2.5]}"#),
            "{name}"
        );
        // A record's html is already decoded: it is filtered as the same text in UTF-8
        // would be from a file (a byte order mark overrides the page's <meta> charset).
        let expected = if name.contains("1252") {
            let bytes = fs::read(sample(name)).unwrap();
            let utf8 = dir.path().join("utf8.html");
            let decoded = encoding_rs::WINDOWS_1252.decode(&bytes).0.into_owned();
            fs::write(&utf8, format!("\u{feff}{decoded}")).unwrap();
            let out =
                String::from_utf8(stdout_bytes_of(&["filter", utf8.to_str().unwrap()])).unwrap();
            out.strip_suffix('\n').unwrap_or(&out).to_string()
        } else {
            text_of(name, &[])
        };
        assert_eq!(r["text"].as_str().unwrap(), expected, "{name}");
    }
    for (at, id) in [
        (1, Some("no html")),
        (3, None),
        (4, None),
        (5, Some("number")),
    ] {
        let r = &records[at];
        assert!(r["text"].is_null(), "{r}");
        assert!(r["error"].is_string(), "{r}");
        assert_eq!(r["id"].as_str(), id, "{r}");
    }
    assert!(records[4]["error"].as_str().unwrap().contains("empty line"));
}

#[test]
fn jsonl_from_standard_input_keeps_html_on_request_and_accepts_the_threshold() {
    let html = fs::read_to_string(sample("table-layout.html")).unwrap();
    let record = serde_json::json!({"html": html, "n": 1}).to_string();
    let out = mainline()
        .args([
            "filter",
            "--input-format",
            "jsonl",
            "--keep-html",
            "--threshold",
            "0.5",
            "-",
        ])
        .write_stdin(format!("{record}\r\n{record}"))
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let records = json_lines(&out);
    assert_eq!(records.len(), 2);
    for r in &records {
        assert_eq!(r["html"].as_str().unwrap(), html);
        assert_eq!(
            r["text"].as_str().unwrap(),
            text_of("table-layout.html", &["--threshold", "0.5"])
        );
    }
}

#[test]
fn jsonl_input_refuses_options_that_describe_pages() {
    for extra in [&["--format", "jsonl"][..], &["--out-dir", "x"][..]] {
        mainline()
            .args(["filter", "--input-format", "jsonl"])
            .args(extra)
            .write_stdin("{}")
            .assert()
            .code(2)
            .stderr(predicate::str::contains("--input-format jsonl"));
    }
    mainline()
        .args(["filter", "--keep-html"])
        .write_stdin("<p>x</p>")
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--keep-html"));
}

#[test]
fn recursive_jsonl_reads_the_json_lines_files_of_a_folder_in_name_order() {
    let dir = scratch();
    let root = dir.path();
    fs::create_dir_all(root.join("b")).unwrap();
    let record = |n: u32, text: &str| format!("{{\"n\":{n},\"html\":\"<p>{text}</p>\"}}\n");
    fs::write(root.join("a.jsonl"), record(1, "one two three four")).unwrap();
    let b = record(2, "five six seven eight") + &record(3, "nine ten eleven twelve");
    fs::write(root.join("b/c.ndjson.gz"), gzip(b.as_bytes())).unwrap();
    fs::copy(sample("article.html"), root.join("b/page.html")).unwrap();
    let out = stdout_bytes_of(&[
        "filter",
        "-r",
        "-j",
        "2",
        "--input-format",
        "jsonl",
        "--threshold",
        "0.5",
        root.to_str().unwrap(),
    ]);
    let records = json_lines(&out);
    let got: Vec<(i64, &str)> = records
        .iter()
        .map(|r| (r["n"].as_i64().unwrap(), r["text"].as_str().unwrap()))
        .collect();
    assert_eq!(
        got,
        [
            (1, "one two three four"),
            (2, "five six seven eight"),
            (3, "nine ten eleven twelve")
        ]
    );
}
