//! The `mainline` binary end to end: outputs, exit codes and error messages.

mod common;

use std::io::{Read, Write};
use std::process::Stdio;

use common::{mainline, sample, scratch, words};
use predicates::prelude::*;

fn stdout_of(args: &[&str]) -> String {
    let out = mainline()
        .args(args)
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    String::from_utf8(out).expect("output is UTF-8")
}

#[test]
fn filter_prints_the_article_without_menu_sidebar_comments_or_footer() {
    let out = stdout_of(&["filter", sample("article.html").to_str().unwrap()]);
    for wanted in [
        "Every baker who switches from commercial yeast",
        "The cold overnight proof is the secret",
        "Temperature changes fermentation speed",
    ] {
        assert!(out.contains(wanted), "missing {wanted:?} in:\n{out}");
    }
    for unwanted in [
        "Preserves",
        "Popular Posts",
        "Privacy Policy",
        "All rights reserved",
        "Leave a Reply",
        "We use cookies",
    ] {
        assert!(!out.contains(unwanted), "kept {unwanted:?} in:\n{out}");
    }
}

#[test]
fn the_threshold_rule_keeps_dense_lines_only() {
    let out = stdout_of(&[
        "filter",
        "--threshold",
        "0.5",
        sample("table-layout.html").to_str().unwrap(),
    ]);
    assert!(out.contains("This page illustrates how you can write proper HTML"));
    assert!(!out.contains("Menu item"));
    // A threshold above every density keeps nothing.
    let out = stdout_of(&[
        "filter",
        "--threshold",
        "1",
        sample("table-layout.html").to_str().unwrap(),
    ]);
    assert_eq!(out, "");
}

#[test]
fn character_references_are_decoded() {
    let out = stdout_of(&[
        "filter",
        "--threshold",
        "0.5",
        sample("entities.html").to_str().unwrap(),
    ]);
    let expected = std::fs::read_to_string(sample("entities.txt")).unwrap();
    assert_eq!(out, expected);
}

#[test]
fn a_windows_1252_page_declared_by_meta_comes_out_as_utf8() {
    let out = stdout_of(&[
        "filter",
        "--threshold",
        "0.5",
        sample("windows-1252.html").to_str().unwrap(),
    ]);
    assert!(
        out.contains("Fondé en 1862, le café sert depuis plus d’un siècle"),
        "{out}"
    );
    assert!(out.contains("un café coûte 2€"), "{out}");
}

#[test]
fn a_page_with_a_two_megabyte_script_is_filtered() {
    let dir = scratch();
    let page = dir.path().join("big-script.html");
    let script = "var data = [".to_string() + &"123456789, ".repeat(200_000) + "];";
    let html = format!(
        "<html><head><script>{script}</script></head><body><nav><a href=/>Home</a></nav>\
         <p>The text after a very large script is still found and printed.</p></body></html>"
    );
    assert!(html.len() > 2_000_000);
    std::fs::write(&page, &html).unwrap();
    let out = stdout_of(&["filter", page.to_str().unwrap()]);
    assert!(
        out.contains("The text after a very large script is still found"),
        "{out}"
    );
    assert!(!out.contains("123456789"));
    assert!(!out.contains("Home"));
}

#[test]
fn gzip_input_gives_the_same_output() {
    let dir = scratch();
    let gz = dir.path().join("article.html.gz");
    let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    enc.write_all(&std::fs::read(sample("article.html")).unwrap())
        .unwrap();
    std::fs::write(&gz, enc.finish().unwrap()).unwrap();
    assert_eq!(
        stdout_of(&["filter", gz.to_str().unwrap()]),
        stdout_of(&["filter", sample("article.html").to_str().unwrap()])
    );
}

#[test]
fn standard_input_is_read_with_a_dash_or_no_file() {
    let html = std::fs::read(sample("article.html")).unwrap();
    let expected = stdout_of(&["filter", sample("article.html").to_str().unwrap()]);
    for args in [vec!["filter", "-"], vec!["filter"]] {
        let out = mainline()
            .args(&args)
            .write_stdin(html.clone())
            .assert()
            .success();
        assert_eq!(
            String::from_utf8(out.get_output().stdout.clone()).unwrap(),
            expected
        );
    }
}

#[test]
fn a_missing_file_is_reported_by_name_and_the_others_are_still_filtered() {
    let good = sample("table-layout.html");
    mainline()
        .args([
            "filter",
            "--threshold",
            "0.5",
            "no/such/page.html",
            good.to_str().unwrap(),
        ])
        .assert()
        .code(1)
        .stdout(predicate::str::contains("This page illustrates"))
        .stderr(predicate::str::contains("no/such/page.html"))
        .stderr(predicate::str::contains("No such file"));
}

#[test]
fn a_directory_is_an_error_naming_it() {
    let dir = scratch();
    mainline()
        .args(["filter", dir.path().to_str().unwrap()])
        .assert()
        .code(1)
        .stderr(predicate::str::contains("is a directory"));
}

#[test]
fn a_binary_file_is_an_error_and_the_run_goes_on() {
    let dir = scratch();
    let png = dir.path().join("image.png");
    std::fs::write(&png, b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\0\x01").unwrap();
    mainline()
        .args([
            "filter",
            png.to_str().unwrap(),
            sample("entities.html").to_str().unwrap(),
        ])
        .assert()
        .code(1)
        .stdout(predicate::str::contains("Café & Crème"))
        .stderr(predicate::str::contains(
            "image.png: not an HTML document: the data looks like a PNG image",
        ));
}

#[test]
fn usage_errors_exit_with_two() {
    mainline()
        .args(["filter", "--no-such-flag"])
        .assert()
        .code(2);
    mainline().args(["frobnicate"]).assert().code(2);
    mainline()
        .args([
            "filter",
            "--threshold",
            "0.5",
            "--model",
            "m.json",
            "x.html",
        ])
        .assert()
        .code(2);
}

#[test]
fn out_dir_writes_one_text_file_per_input_named_by_its_stem() {
    let dir = scratch();
    let out = dir.path().join("texts");
    mainline()
        .args([
            "filter",
            "--out-dir",
            out.to_str().unwrap(),
            sample("article.html").to_str().unwrap(),
            sample("entities.html").to_str().unwrap(),
        ])
        .assert()
        .success()
        .stdout("");
    let mut names: Vec<String> = std::fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names, ["article.txt", "entities.txt"]);
    let text = std::fs::read_to_string(out.join("article.txt")).unwrap();
    assert_eq!(
        text,
        stdout_of(&["filter", sample("article.html").to_str().unwrap()])
    );
}

#[test]
fn jsonl_shows_every_line_with_its_features_score_and_decision() {
    let out = stdout_of(&[
        "filter",
        "--format",
        "jsonl",
        sample("article.html").to_str().unwrap(),
    ]);
    let rows: Vec<serde_json::Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert!(rows.len() > 20);
    for key in [
        "text",
        "html_bytes",
        "text_bytes",
        "density",
        "score",
        "keep",
        "features",
    ] {
        assert!(rows[0].get(key).is_some(), "missing {key}");
    }
    let features = rows[0]["features"].as_object().unwrap();
    assert_eq!(features.len(), mainline::features::names().len());
    assert!(rows.iter().any(|r| r["keep"] == true));
    assert!(rows.iter().any(|r| r["keep"] == false));
    let kept: Vec<&str> = rows
        .iter()
        .filter(|r| r["keep"] == true)
        .map(|r| r["text"].as_str().unwrap())
        .collect();
    let text = stdout_of(&["filter", sample("article.html").to_str().unwrap()]);
    assert_eq!(kept.join("\n") + "\n", text);
}

#[test]
fn lines_writes_the_feature_table_with_an_empty_label_column() {
    let out = stdout_of(&["lines", sample("table-layout.html").to_str().unwrap()]);
    let mut reader = csv::Reader::from_reader(out.as_bytes());
    let header: Vec<String> = reader.headers().unwrap().iter().map(String::from).collect();
    assert_eq!(&header[..4], ["doc", "group", "line", "label"]);
    assert_eq!(&header[4..header.len() - 1], mainline::features::names());
    assert_eq!(header.last().unwrap(), "text");
    let rows: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
    assert!(rows.len() >= 8);
    assert!(rows.iter().all(|r| r[3].is_empty()));
    assert_eq!(&rows[0][header.len() - 1], "Welcome to My Web Page!");
}

#[test]
fn writing_into_a_closed_pipe_ends_quietly() {
    let dir = scratch();
    let page = dir.path().join("long.html");
    let para = "<p>A long paragraph of plain words that keeps going and going.</p>\n";
    std::fs::write(&page, para.repeat(200_000)).unwrap();
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("mainline"))
        .args(["filter", "--threshold", "0.5", page.to_str().unwrap()])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = [0u8; 100];
    child
        .stdout
        .as_mut()
        .unwrap()
        .read_exact(&mut first)
        .unwrap();
    drop(child.stdout.take());
    let status = child.wait().unwrap();
    let mut err = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut err)
        .unwrap();
    assert!(status.success(), "exit {status:?}, stderr {err}");
    assert_eq!(err, "");
}

#[test]
fn the_expected_sample_texts_match_the_threshold_output_in_words() {
    // The gold texts under data/samples describe the main content; the fixed threshold
    // finds the article body of the table layout page (seed 001's example).
    let out = stdout_of(&[
        "filter",
        "--threshold",
        "0.5",
        sample("table-layout.html").to_str().unwrap(),
    ]);
    let gold = std::fs::read_to_string(sample("table-layout.txt")).unwrap();
    let out_words = words(&out);
    let gold_words = words(&gold);
    let common = out_words.iter().filter(|w| gold_words.contains(w)).count();
    assert!(common as f64 / out_words.len() as f64 > 0.95);
}
