//! `filter --recursive` finds the pages a crawl or a browser saved, says what it skipped,
//! and says so when it found nothing.

mod common;

use std::fs;

use common::{mainline, sample, scratch};
use predicates::prelude::*;

#[test]
fn recursive_takes_xhtml_saved_pages_and_extensionless_html_and_counts_the_rest() {
    let dir = scratch();
    let root = dir.path();
    let article = fs::read(sample("article.html")).unwrap();
    for name in [
        "a.xhtml",
        "index.html?p=2",
        "about",
        "notes.txt",
        "data.json",
        "logo",
    ] {
        let bytes: &[u8] = match name {
            "notes.txt" => b"<p>a text file, named as one</p>",
            "data.json" => b"{\"a\": 1}",
            "logo" => b"\x89PNG\r\n\x1a\n",
            _ => &article,
        };
        fs::write(root.join(name), bytes).unwrap();
    }
    let out = root.join("out");
    mainline()
        .args(["filter", "-r", "--out-dir", out.to_str().unwrap()])
        .arg(root)
        .assert()
        .success()
        .stderr(predicate::str::contains("mainline: 3 files (0 failed)"))
        .stderr(predicate::str::contains(
            "--recursive skipped 3 files (.json 1, .txt 1, no extension 1) (-v names them)",
        ));
    let mut written: Vec<String> = fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    written.sort();
    assert_eq!(written, ["a.txt", "about.txt", "index?p=2.txt"]);

    let listed = mainline()
        .args(["filter", "-r", "-v"])
        .arg(root)
        .assert()
        .success()
        .get_output()
        .stderr
        .clone();
    let listed = String::from_utf8(listed).unwrap();
    for name in ["notes.txt", "data.json", "logo"] {
        let line = format!("mainline: skipped {}", root.join(name).display());
        assert!(listed.contains(&line), "{line} not in {listed}");
    }
    assert!(!listed.contains("(-v names them)"), "{listed}");
}

#[test]
fn a_walk_that_finds_no_page_says_so_and_counts_what_it_skipped() {
    let dir = scratch();
    fs::write(dir.path().join("readme.md"), "# not a page").unwrap();
    mainline()
        .args(["filter", "-r"])
        .arg(dir.path())
        .assert()
        .success()
        .stdout("")
        .stderr(predicate::str::contains("no inputs found"))
        .stderr(predicate::str::contains("1 skipped"));
    mainline()
        .args(["filter", "-r", "--quiet"])
        .arg(dir.path())
        .assert()
        .success()
        .stderr("");
}
