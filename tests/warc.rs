//! `mainline filter` on WARC files: the hand-made files of `data/warc/` (see
//! `data/README.md`), end to end through the binary.

use std::io::Read;
use std::path::{Path, PathBuf};

use assert_cmd::Command;
use serde_json::Value;

fn data(name: &str) -> PathBuf {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
        .join("data/warc")
        .join(name)
}

fn mainline() -> Command {
    Command::cargo_bin("mainline").unwrap()
}

/// The output lines of `mainline filter ARGS`, parsed, with the exit code and stderr.
fn filter(args: &[&str]) -> (Vec<Value>, i32, String) {
    let out = mainline().arg("filter").args(args).output().unwrap();
    let lines = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect();
    (
        lines,
        out.status.code().unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

fn urls(lines: &[Value]) -> Vec<&str> {
    lines
        .iter()
        .map(|l| l["url"].as_str().unwrap_or(""))
        .collect()
}

fn text(line: &Value) -> &str {
    line["text"].as_str().unwrap_or("")
}

#[test]
fn only_html_responses_give_lines_and_the_rest_is_counted() {
    let path = data("mixed.warc.gz");
    let (lines, code, stderr) = filter(&[path.to_str().unwrap()]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(
        urls(&lines),
        [
            "https://example.org/news/1",
            "https://example.org/untyped",
            "https://example.org/news/2"
        ]
    );
    let first = &lines[0];
    assert_eq!(
        first["warc_record_id"],
        "<urn:uuid:00000000-0000-4000-8000-000000000003>"
    );
    assert_eq!(first["warc_date"], "2026-01-02T03:04:03Z");
    assert!(text(first).contains("harbour festival returns this summer"));
    assert!(!text(first).contains("Privacy"), "{}", text(first));
    assert!(first.get("error").is_none());
    for skipped in [
        "1 metadata",
        "2 non-2xx status",
        "3 not HTML",
        "1 request",
        "1 revisit",
        "1 warcinfo",
    ] {
        assert!(stderr.contains(skipped), "{skipped}: {stderr}");
    }
}

#[test]
fn a_warc_file_is_recognised_without_being_named_one() {
    let dir = tempfile::tempdir().unwrap();
    let renamed = dir.path().join("crawl.bin");
    std::fs::copy(data("mixed.warc.gz"), &renamed).unwrap();
    let (lines, code, _) = filter(&["-q", renamed.to_str().unwrap()]);
    assert_eq!(code, 0);
    assert_eq!(lines.len(), 3);
    // Standard input is read as WARC when asked.
    let out = mainline()
        .args(["filter", "-q", "--input-format", "warc"])
        .pipe_stdin(data("mixed.warc.gz"))
        .unwrap()
        .output()
        .unwrap();
    assert_eq!(String::from_utf8(out.stdout).unwrap().lines().count(), 3);
}

#[test]
fn a_warc_file_on_standard_input_is_recognised() {
    // Gzip-compressed and plain, as `-` and with no file named: the same lines as the file.
    for name in ["mixed.warc.gz", "encodings.warc"] {
        let from_file = mainline()
            .args(["filter", "-q", data(name).to_str().unwrap()])
            .output()
            .unwrap();
        assert!(
            String::from_utf8_lossy(&from_file.stdout).starts_with("{\"warc_record_id\""),
            "{name}"
        );
        for args in [&["filter", "-q", "-"][..], &["filter", "-q"][..]] {
            let piped = mainline()
                .args(args)
                .pipe_stdin(data(name))
                .unwrap()
                .output()
                .unwrap();
            assert_eq!(
                piped.status.code(),
                from_file.status.code(),
                "{name} {args:?}"
            );
            assert_eq!(piped.stdout, from_file.stdout, "{name} {args:?}");
        }
    }
    // A page on standard input is still a page, read from its first byte.
    let page =
        Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/..")).join("data/samples/article.html");
    let from_file = mainline()
        .args(["filter", "-q", page.to_str().unwrap()])
        .output()
        .unwrap();
    let piped = mainline()
        .args(["filter", "-q"])
        .pipe_stdin(&page)
        .unwrap()
        .output()
        .unwrap();
    assert!(!from_file.stdout.is_empty());
    assert_eq!(piped.stdout, from_file.stdout);
    // As is a WARC file mixed with standard input that is not one.
    let out = mainline()
        .args(["filter", "-q", data("mixed.warc.gz").to_str().unwrap(), "-"])
        .pipe_stdin(&page)
        .unwrap()
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("is a WARC file and"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn warc_and_html_inputs_are_not_mixed() {
    let page =
        Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/..")).join("data/samples/article.html");
    let (_, code, stderr) = filter(&[
        data("mixed.warc.gz").to_str().unwrap(),
        page.to_str().unwrap(),
    ]);
    assert_eq!(code, 2);
    assert!(stderr.contains("is a WARC file and"), "{stderr}");
}

#[test]
fn non_2xx_responses_are_read_when_asked() {
    let (lines, code, _) = filter(&[
        "-q",
        "--any-status",
        data("mixed.warc.gz").to_str().unwrap(),
    ]);
    assert_eq!(code, 0);
    let got = urls(&lines);
    assert!(got.contains(&"https://example.org/missing"), "{got:?}");
    // A 301 with an empty body has no HTML to read: its type is unknown and it is skipped.
    assert!(!got.contains(&"https://example.org/old"), "{got:?}");
}

#[test]
fn chunked_and_compressed_payloads_are_decoded() {
    let (lines, code, stderr) = filter(&["-q", data("encodings.warc").to_str().unwrap()]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(lines.len(), 4);
    for (line, words) in lines.iter().zip([
        "sent in chunks of one hundred bytes",
        "deflate content coding",
        "sent in chunks and not compressed",
        "compressed with brotli",
    ]) {
        assert!(text(line).contains(words), "{line}");
    }
}

#[test]
fn the_http_charset_is_used_after_a_bom_and_before_meta() {
    let (lines, code, _) = filter(&["-q", data("charsets.warc.gz").to_str().unwrap()]);
    assert_eq!(code, 0);
    assert_eq!(lines.len(), 4);
    // The header (windows-1251) wins over a wrong <meta charset=utf-8>.
    assert!(
        text(&lines[0]).contains("в субботу на набережной"),
        "{}",
        lines[0]
    );
    // A charset the header names but that does not exist is ignored: the <meta> decides.
    assert!(
        text(&lines[1]).contains("Déjà vu à la fenêtre"),
        "{}",
        lines[1]
    );
    // A byte order mark wins over the header.
    assert!(
        text(&lines[2]).contains("Schöne Grüße aus München"),
        "{}",
        lines[2]
    );
    assert!(
        text(&lines[3]).contains("El señor García llegó mañana"),
        "{}",
        lines[3]
    );
}

#[test]
fn damaged_members_give_error_lines_and_reading_goes_on() {
    let (lines, code, stderr) = filter(&[data("truncated.warc.gz").to_str().unwrap()]);
    assert_eq!(code, 1);
    assert_eq!(
        urls(&lines),
        [
            "https://example.org/a",
            "https://example.org/b",
            "https://example.org/c",
            "https://example.org/d"
        ]
    );
    assert!(text(&lines[0]).contains("first page is whole"));
    assert!(lines[1]["text"].is_null());
    assert!(
        lines[1]["error"]
            .as_str()
            .unwrap()
            .contains("corrupt gzip data")
    );
    assert!(lines[1]["warc_offset"].as_u64().unwrap() > 0);
    assert!(text(&lines[2]).contains("follows the broken member"));
    assert!(lines[3]["error"].as_str().unwrap().contains("ends inside"));
    assert!(stderr.contains("2 records with errors"), "{stderr}");
    assert!(
        stderr.contains("truncated.warc.gz: record at offset"),
        "{stderr}"
    );
}

#[test]
fn a_record_over_the_cap_is_cut_with_an_error_and_the_next_is_read() {
    let path = data("oversize.warc.gz");
    let (lines, code, _) = filter(&["-q", path.to_str().unwrap()]);
    assert_eq!(code, 0, "the default cap is far above 100 KB");
    assert!(lines[0].get("error").is_none());
    let whole = text(&lines[0]).len();
    let (lines, code, _) = filter(&["-q", "--max-payload", "64K", path.to_str().unwrap()]);
    assert_eq!(code, 1);
    assert_eq!(lines.len(), 2);
    let cut = text(&lines[0]).len();
    assert!(cut > 1000 && cut < whole, "{cut} of {whole}");
    assert!(
        lines[0]["error"]
            .as_str()
            .unwrap()
            .contains("cut at 65536 bytes")
    );
    assert!(text(&lines[1]).contains("short page after the long one"));
    assert!(lines[1].get("error").is_none());
}

#[test]
fn bad_payload_sizes_are_usage_errors() {
    let (_, code, stderr) = filter(&[
        "--max-payload",
        "lots",
        data("mixed.warc.gz").to_str().unwrap(),
    ]);
    assert_eq!(code, 2);
    assert!(stderr.contains("--max-payload"), "{stderr}");
}

#[test]
fn jobs_do_not_change_the_output() {
    let files: Vec<String> = [
        "mixed.warc.gz",
        "encodings.warc",
        "truncated.warc.gz",
        "charsets.warc.gz",
    ]
    .iter()
    .map(|f| data(f).to_str().unwrap().to_string())
    .collect();
    let run = |jobs: &str| {
        let mut args = vec!["filter", "-q", "--jobs", jobs];
        args.extend(files.iter().map(String::as_str));
        mainline().args(&args).output().unwrap().stdout
    };
    let one = run("1");
    assert!(!one.is_empty());
    assert_eq!(one, run("3"));
}

#[test]
fn out_dir_writes_one_gzip_file_per_warc_file() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("texts");
    let status = mainline()
        .args([
            "filter",
            "-q",
            "--jobs",
            "2",
            "--out-dir",
            out.to_str().unwrap(),
        ])
        .arg(data("mixed.warc.gz"))
        .arg(data("encodings.warc"))
        .arg(data("truncated.warc.gz"))
        .output()
        .unwrap()
        .status;
    assert_eq!(status.code(), Some(1), "the truncated file has bad records");
    let mut names: Vec<String> = std::fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(
        names,
        ["encodings.jsonl.gz", "mixed.jsonl.gz", "truncated.jsonl.gz"],
        "no temporary file is left"
    );
    let mut text = String::new();
    flate2::read::GzDecoder::new(std::fs::File::open(out.join("truncated.jsonl.gz")).unwrap())
        .read_to_string(&mut text)
        .unwrap();
    assert_eq!(text.lines().count(), 4, "the error lines are kept: {text}");
    let mut text = String::new();
    flate2::read::GzDecoder::new(std::fs::File::open(out.join("mixed.jsonl.gz")).unwrap())
        .read_to_string(&mut text)
        .unwrap();
    assert_eq!(text.lines().count(), 3);
}

#[test]
fn a_missing_warc_file_is_reported_and_the_others_are_read() {
    let (lines, code, stderr) = filter(&[
        "--input-format",
        "warc",
        "no-such-file.warc.gz",
        data("mixed.warc.gz").to_str().unwrap(),
    ]);
    assert_eq!(code, 1);
    assert_eq!(lines.len(), 3);
    assert!(stderr.contains("no-such-file.warc.gz"), "{stderr}");
}

#[test]
fn per_line_output_is_refused_for_warc_input() {
    let (_, code, stderr) = filter(&["--format", "jsonl", data("mixed.warc.gz").to_str().unwrap()]);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("WARC"), "{stderr}");
}

#[test]
fn format_json_adds_the_page_metadata_to_each_record() {
    let (lines, code, _) = filter(&[
        "-q",
        "--format",
        "json",
        data("charsets.warc.gz").to_str().unwrap(),
    ]);
    assert_eq!(code, 0);
    assert_eq!(lines[0]["url"], "https://example.org/ru");
    assert_eq!(lines[0]["title"], "Ярмарка");
    assert_eq!(lines[0]["encoding"], "windows-1251");
    assert!(text(&lines[0]).contains("в субботу на набережной"));
    let (lines, _, _) = filter(&[
        "-q",
        "--format",
        "markdown",
        data("mixed.warc.gz").to_str().unwrap(),
    ]);
    assert!(
        lines[0]["markdown"]
            .as_str()
            .unwrap()
            .contains("harbour festival")
    );
}
