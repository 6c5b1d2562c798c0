//! `mainline plot` end to end: the files it writes and how it fails.

mod common;

use std::fs;
use std::path::Path;

use common::{mainline, sample, scratch};
use predicates::prelude::*;

/// The number of lines mainline finds in a page (one JSON object per line).
fn line_count(page: &Path) -> usize {
    let out = mainline()
        .args(["filter", "--format", "jsonl"])
        .arg(page)
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    String::from_utf8(out).unwrap().lines().count()
}

fn read_svg(path: &Path) -> String {
    let svg = fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let start = svg.trim_start();
    assert!(
        start.starts_with("<svg") || start.starts_with("<?xml"),
        "{} does not start like SVG: {:?}",
        path.display(),
        &svg[..svg.len().min(80)]
    );
    assert!(
        svg.trim_end().ends_with("</svg>"),
        "{} is cut short",
        path.display()
    );
    svg
}

#[test]
fn plot_writes_the_bytes_and_density_charts_as_svg() {
    let dir = scratch();
    let page = sample("article.html");
    let lines = line_count(&page);
    assert!(lines > 10, "{lines} lines");

    let out = mainline()
        .arg("plot")
        .arg(&page)
        .arg("--out-dir")
        .arg(dir.path())
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let out = String::from_utf8(out).unwrap();
    let bytes_path = dir.path().join("article-bytes.svg");
    let density_path = dir.path().join("article-density.svg");
    assert_eq!(
        out.lines().collect::<Vec<_>>(),
        [
            bytes_path.display().to_string(),
            density_path.display().to_string()
        ]
    );

    // One bar per line, plus the background and the legend's swatches.
    let bytes = read_svg(&bytes_path);
    assert!(
        bytes.matches("<rect").count() >= lines,
        "{} rects for {lines} lines",
        bytes.matches("<rect").count()
    );
    assert!(bytes.contains("HTML bytes (log scale)"));
    assert!(bytes.contains(&format!("({lines} lines,")));

    // A density marker and a score marker per line.
    let density = read_svg(&density_path);
    assert!(
        density.matches("<circle").count() >= 2 * lines,
        "{} circles for {lines} lines",
        density.matches("<circle").count()
    );
    for label in [
        "fixed threshold 0.5",
        "model threshold",
        "text density",
        "model score, line kept",
        "kept by the model",
    ] {
        assert!(density.contains(label), "no {label:?} in the density chart");
    }
}

#[test]
fn png_charts_are_png_files() {
    let dir = scratch();
    mainline()
        .args(["plot", "--image-format", "png", "--out-dir"])
        .arg(dir.path())
        .arg(sample("article.html"))
        .assert()
        .success();
    for name in ["article-bytes.png", "article-density.png"] {
        let data = fs::read(dir.path().join(name)).unwrap();
        assert!(
            data.starts_with(b"\x89PNG\r\n\x1a\n"),
            "{name} is not a PNG"
        );
        assert!(data.len() > 1000, "{name} is only {} bytes", data.len());
    }
    assert!(!dir.path().join("article-bytes.svg").exists());
}

#[test]
fn the_threshold_line_and_the_model_are_options() {
    let dir = scratch();
    let logistic =
        Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/..")).join("models/logistic.json");
    mainline()
        .args(["plot", "--mark-threshold", "0.3", "--model"])
        .arg(&logistic)
        .arg(sample("table-layout.html"))
        .arg("--out-dir")
        .arg(dir.path().join("new/sub"))
        .assert()
        .success();
    let density = read_svg(&dir.path().join("new/sub/table-layout-density.svg"));
    assert!(density.contains("fixed threshold 0.3"));
    assert!(!density.contains("fixed threshold 0.5"));
}

#[test]
fn standard_input_is_plotted_as_stdin() {
    let dir = scratch();
    mainline()
        .args(["plot", "-", "--out-dir"])
        .arg(dir.path())
        .write_stdin(fs::read(sample("article.html")).unwrap())
        .assert()
        .success();
    read_svg(&dir.path().join("stdin-bytes.svg"));
    read_svg(&dir.path().join("stdin-density.svg"));
}

#[test]
fn a_missing_page_is_an_error_naming_it() {
    let dir = scratch();
    mainline()
        .args(["plot", "no/such/page.html", "--out-dir"])
        .arg(dir.path())
        .assert()
        .code(1)
        .stdout("")
        .stderr(predicate::str::contains("no/such/page.html"))
        .stderr(predicate::str::contains("No such file"));
    assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 0);
}

#[test]
fn a_threshold_outside_zero_to_one_is_refused() {
    let dir = scratch();
    mainline()
        .args(["plot", "--mark-threshold", "1.5", "--out-dir"])
        .arg(dir.path())
        .arg(sample("article.html"))
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--mark-threshold"));
}

#[test]
fn an_unreadable_model_is_an_error_naming_it() {
    let dir = scratch();
    mainline()
        .args(["plot", "--model", "no/such/model.json", "--out-dir"])
        .arg(dir.path())
        .arg(sample("article.html"))
        .assert()
        .code(1)
        .stderr(predicate::str::contains("no/such/model.json"));
}
