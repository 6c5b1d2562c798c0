//! Site mode in the command: `filter --by-site`, `site learn`, `filter --site-profile`.

use std::path::{Path, PathBuf};

use assert_cmd::Command;
use serde_json::Value;

fn harbour() -> PathBuf {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/..")).join("data/site/harbour")
}

/// The names of the harbour pages (without `.html`), in order.
fn harbour_names() -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(harbour())
        .unwrap()
        .filter_map(|e| {
            let n = e.unwrap().file_name().into_string().unwrap();
            n.strip_suffix(".html").map(str::to_string)
        })
        .collect();
    names.sort();
    names
}

fn page(name: &str) -> PathBuf {
    harbour().join(format!("{name}.html"))
}

/// The command, run in the repository's root (the relative paths under `data/`).
fn mainline() -> Command {
    let mut command = Command::cargo_bin("mainline").unwrap();
    command.current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/.."));
    command
}

fn stdout(args: &[&str]) -> String {
    let out = mainline().args(args).output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// Headlines of teasers that every page but one carries (the model keeps them alone): the
/// one page is the story's own, whose headline it is.
const TEMPLATE: [&str; 3] = [
    "Lighthouse opens its lantern room to visitors",
    "Hilltop estates get a bus service after long campaign",
    "Museum brings a restored pilot cutter home",
];

/// Whether `line` is in the hand-written text of harbour page `name` (its own headline).
fn own(name: &str, line: &str) -> bool {
    std::fs::read_to_string(harbour().join(format!("{name}.txt")))
        .unwrap()
        .lines()
        .any(|l| l == line)
}

#[test]
fn by_site_drops_the_template_and_keeps_the_articles() {
    let dir = harbour();
    let alone = stdout(&["filter", "-q", "-r", s(&dir)]);
    let sited = stdout(&["filter", "-q", "--by-site", "-r", s(&dir)]);
    // Pages in the same order, one part each, every article paragraph kept.
    let (a, b): (Vec<&str>, Vec<&str>) = (
        alone.split("\x0c\n").collect(),
        sited.split("\x0c\n").collect(),
    );
    assert_eq!(a.len(), b.len());
    assert_eq!(a.len(), 25);
    // The teasers go, each story's own headline stays.
    for (name, part) in harbour_names().iter().zip(&b) {
        for t in TEMPLATE {
            assert!(alone.contains(t), "{t}");
            assert_eq!(part.contains(t), own(name, t), "{name}: {t}");
        }
    }
    let cliff = std::fs::read_to_string(dir.join("cliff-path.txt")).unwrap();
    let part = b
        .iter()
        .position(|p| p.contains("The coast path between the harbour"))
        .unwrap();
    for line in cliff.lines().skip(1) {
        assert!(b[part].contains(line), "{line}");
    }
}

#[test]
fn a_site_of_one_page_is_filtered_as_without_site_mode() {
    for format in ["text", "jsonl", "markdown"] {
        let p = page("quay-repairs");
        let alone = stdout(&["filter", "--format", format, s(&p)]);
        let sited = stdout(&["filter", "--by-site", "--format", format, "-q", s(&p)]);
        assert_eq!(alone, sited, "{format}");
    }
    // Two pages of two sites.
    let a = page("quay-repairs");
    let alone = stdout(&["filter", "-q", s(&a), "data/samples/article.html"]);
    let sited = stdout(&[
        "filter",
        "-q",
        "--by-site",
        s(&a),
        "data/samples/article.html",
    ]);
    assert_eq!(alone, sited);
}

#[test]
fn jsonl_says_which_lines_were_template_and_json_counts_them() {
    let dir = harbour();
    let out = stdout(&[
        "filter",
        "-q",
        "--by-site",
        "--format",
        "jsonl",
        "-r",
        s(&dir),
    ]);
    let lines: Vec<Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let teaser = lines
        .iter()
        .find(|l| l["text"] == TEMPLATE[0])
        .expect("a teaser line");
    assert_eq!(teaser["keep"], false);
    assert_eq!(teaser["template"]["dropped"], true);
    assert_eq!(teaser["template"]["of"], 23);
    assert_eq!(teaser["template"]["pages"], 23);
    let article = lines
        .iter()
        .find(|l| {
            l["text"]
                .as_str()
                .unwrap()
                .starts_with("The coast path between")
        })
        .unwrap();
    assert_eq!(article["keep"], true);
    assert!(article.get("template").is_none());
    let out = stdout(&[
        "filter",
        "-q",
        "--by-site",
        "--format",
        "json",
        "-r",
        s(&dir),
    ]);
    let first: Value = serde_json::from_str(out.lines().next().unwrap()).unwrap();
    assert_eq!(first["site"]["pages"], 23);
    // The first page's teasers, four headlines, are its dropped lines.
    let dropped = lines
        .iter()
        .filter(|l| {
            l["doc"].as_str().unwrap().ends_with("artist-studio.html")
                && l["template"]["dropped"] == true
        })
        .count();
    assert_eq!(dropped, 4);
    assert_eq!(first["site"]["dropped"], 4);
    // Without site mode the fields are absent.
    let out = stdout(&["filter", "--format", "json", s(&page("quay-repairs"))]);
    assert!(!out.contains("\"site\""));
}

#[test]
fn a_saved_profile_filters_a_stream() {
    let tmp = tempfile::tempdir().unwrap();
    let profile = tmp.path().join("harbour.profile");
    let learn = mainline()
        .args(["site", "learn", "-r", s(&harbour()), "-o", s(&profile)])
        .output()
        .unwrap();
    assert!(learn.status.success());
    assert!(String::from_utf8_lossy(&learn.stderr).contains("24 pages of 1 sites"));
    let html = std::fs::read(page("museum-boat")).unwrap();
    let out = mainline()
        .args(["filter", "--site-profile", s(&profile)])
        .args([
            "--url",
            "https://harbour-gazette.example/news/museum-boat.html",
        ])
        .write_stdin(html.clone())
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(!text.contains(TEMPLATE[0]));
    assert!(text.contains("The maritime museum has bought back the pilot cutter"));
    // A file: the page's canonical link gives its site, and the page is not its own
    // evidence; the same text as --by-site.
    let p = page("museum-boat");
    let with_profile = stdout(&["filter", "--site-profile", s(&profile), s(&p)]);
    let by_site = stdout(&["filter", "-q", "--by-site", "-r", s(&harbour())]);
    assert!(by_site.contains(&with_profile));
    // Another site's page is filtered as without site mode.
    let other = stdout(&[
        "filter",
        "--site-profile",
        s(&profile),
        "data/samples/article.html",
    ]);
    assert_eq!(other, stdout(&["filter", "data/samples/article.html"]));
}

#[test]
fn standard_input_and_bad_profiles_are_refused_with_a_message() {
    let out = mainline()
        .args(["filter", "--by-site"])
        .write_stdin("<p>x</p>")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--site-profile"));
    let tmp = tempfile::tempdir().unwrap();
    let bad = tmp.path().join("bad.profile");
    std::fs::write(&bad, r#"{"format":"mainline-site-profile","version":7}"#).unwrap();
    let out = mainline()
        .args([
            "filter",
            "--site-profile",
            s(&bad),
            s(&page("quay-repairs")),
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("bad.profile"), "{err}");
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    // An input that cannot be read is said once, by the pass that extracts.
    let out = mainline()
        .args([
            "filter",
            "-q",
            "--by-site",
            "--input-format",
            "jsonl",
            "x.jsonl",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(err.matches("x.jsonl").count(), 1, "{err}");
}

/// A WARC file of HTML responses for the pages given, each with its URL.
fn warc(pages: &[(String, Vec<u8>)]) -> Vec<u8> {
    let mut out = Vec::new();
    for (url, body) in pages {
        let mut http = b"HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\n".to_vec();
        http.extend(format!("Content-Length: {}\r\n\r\n", body.len()).as_bytes());
        http.extend(body);
        out.extend(
            format!(
                "WARC/1.0\r\nWARC-Type: response\r\nWARC-Target-URI: {url}\r\n\
                 WARC-Record-ID: <urn:uuid:{:08}>\r\nContent-Type: application/http; msgtype=response\r\n\
                 Content-Length: {}\r\n\r\n",
                out.len(),
                http.len()
            )
            .as_bytes(),
        );
        out.extend(http);
        out.extend(b"\r\n\r\n");
    }
    out
}

#[test]
fn by_site_reads_warc_files_by_the_records_uri() {
    let names = harbour_names();
    // The pages' canonical links are not read: the record's URI names the site.
    let pages: Vec<(String, Vec<u8>)> = names
        .iter()
        .map(|n| {
            let html = std::fs::read_to_string(page(n))
                .unwrap()
                .replace("harbour-gazette.example", "elsewhere.example");
            (
                format!("https://gazette.example/{n}.html"),
                html.into_bytes(),
            )
        })
        .collect();
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("site.warc");
    std::fs::write(&file, warc(&pages)).unwrap();
    let records = |args: &[&str]| -> Vec<Value> {
        stdout(args)
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect()
    };
    let alone = records(&["filter", "-q", s(&file)]);
    let sited = records(&["filter", "-q", "--by-site", s(&file)]);
    assert_eq!(alone.len(), names.len());
    assert_eq!(sited.len(), names.len());
    let mut with_teaser = 0;
    for ((a, b), name) in alone.iter().zip(&sited).zip(&names) {
        assert_eq!(a["url"], b["url"]);
        let (a, b) = (a["text"].as_str().unwrap(), b["text"].as_str().unwrap());
        with_teaser += usize::from(a.contains(TEMPLATE[2]));
        assert_eq!(b.contains(TEMPLATE[2]), own(name, TEMPLATE[2]), "{b}");
        // The article stays: its first paragraph is the same with or without site mode.
        let first = b.lines().find(|l| l.len() > 80).unwrap();
        assert!(a.contains(first));
    }
    assert!(with_teaser >= names.len() / 4, "{with_teaser}");
}

/// The harbour pages as JSON lines records, each with its URL, in name order.
fn harbour_jsonl() -> (String, Vec<String>) {
    let names = harbour_names();
    let records = names
        .iter()
        .map(|n| {
            let html = std::fs::read_to_string(page(n)).unwrap();
            let url = format!("https://harbour-gazette.example/news/{n}");
            serde_json::json!({"id": n, "url": url, "html": html}).to_string() + "\n"
        })
        .collect();
    (records, names)
}

#[test]
fn by_site_reads_json_lines_by_the_records_url() {
    let (records, names) = harbour_jsonl();
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("harbour.jsonl");
    std::fs::write(&input, &records).unwrap();
    let texts = |out: String| -> Vec<String> {
        out.lines()
            .map(|l| {
                let v: Value = serde_json::from_str(l).unwrap();
                v["text"].as_str().unwrap().to_string()
            })
            .collect()
    };
    let sited = texts(stdout(&[
        "filter",
        "-q",
        "--by-site",
        "--input-format",
        "jsonl",
        s(&input),
    ]));
    assert_eq!(sited.len(), names.len());
    // Each record gets the text its page gets as a file in site mode (the files in name
    // order, one part each).
    let files = stdout(&["filter", "-q", "--by-site", "-r", s(&harbour())]);
    let parts: Vec<&str> = files.split("\x0c\n").collect();
    assert_eq!(parts.len(), names.len() + 1);
    for ((name, text), part) in names.iter().zip(&sited).zip(&parts) {
        assert_eq!(text.trim_end(), part.trim_end(), "{name}");
        for t in TEMPLATE {
            assert_eq!(text.contains(t), own(name, t), "{name}: {t}");
        }
    }
    // A profile learnt from the records filters them read once, on standard input, as
    // the two passes do.
    let profile = dir.path().join("h.profile");
    stdout(&[
        "site",
        "learn",
        "--input-format",
        "jsonl",
        s(&input),
        "-o",
        s(&profile),
    ]);
    let out = mainline()
        .args([
            "filter",
            "-q",
            "--input-format",
            "jsonl",
            "--site-profile",
            s(&profile),
        ])
        .write_stdin(records.clone())
        .output()
        .unwrap();
    assert!(out.status.success());
    assert_eq!(texts(String::from_utf8(out.stdout).unwrap()), sited);
    // Without site mode the template stays.
    let alone = texts(stdout(&[
        "filter",
        "-q",
        "--input-format",
        "jsonl",
        s(&input),
    ]));
    assert!(TEMPLATE.iter().all(|t| alone.iter().any(|a| a.contains(t))));
}
