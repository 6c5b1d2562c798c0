//! The `mainline` binary end to end: outputs, exit codes and error messages.

mod common;

use std::io::{Read, Write};
use std::process::Stdio;

use common::{mainline, sample, scratch, stdout_of, words};
use predicates::prelude::*;

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
fn short_pages_come_out_whole_and_a_menu_alone_comes_out_empty() {
    // Pages of a handful of lines, each of which is all content: the built-in model keeps
    // every line (the list that ends an article, the paragraphs around a code block).
    for name in [
        "short-list",
        "short-code",
        "short-notes",
        "para-5-list",
        "code",
    ] {
        let out = stdout_of(&["filter", sample(&format!("{name}.html")).to_str().unwrap()]);
        let gold = std::fs::read_to_string(sample(&format!("{name}.txt"))).unwrap();
        assert_eq!(words(&out), words(&gold), "{name}:\n{out}");
    }
    // A page whose content never arrived (drawn by a script): its menu and footer are not
    // its main text, however short the page.
    let dir = scratch();
    for (i, page) in [
        "<nav><ul><li><a href=/>Home</a><li><a href=/a>About</a></ul></nav>",
        "<nav><a href=/>Home</a></nav>",
        "<html><body><header><a href=/>Shop</a> <a href=/cart>Cart (0)</a></header>\
         <div id=app></div><footer><a href=/privacy>Privacy</a> <a href=/terms>Terms</a> \
         © 2026 Shop Ltd</footer></body></html>",
    ]
    .iter()
    .enumerate()
    {
        let path = dir.path().join(format!("menu-{i}.html"));
        std::fs::write(&path, page).unwrap();
        let out = stdout_of(&["filter", path.to_str().unwrap()]);
        assert_eq!(out, "", "{page}");
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
    let article = std::fs::read_to_string(sample("article.html")).unwrap();
    let html = article.replacen("</head>", &format!("<script>{script}</script></head>"), 1);
    assert!(html.len() > 2_000_000);
    std::fs::write(&page, &html).unwrap();
    let out = stdout_of(&["filter", page.to_str().unwrap()]);
    assert!(
        out.contains("Every baker who switches from commercial yeast"),
        "{out}"
    );
    assert!(
        out.contains("Temperature changes fermentation speed"),
        "{out}"
    );
    assert!(!out.contains("123456789"));
    assert!(!out.contains("Popular Posts"));
    // The script's bytes belong to the first line after it.
    let jsonl = stdout_of(&["filter", "--format", "jsonl", page.to_str().unwrap()]);
    let first: serde_json::Value = serde_json::from_str(jsonl.lines().next().unwrap()).unwrap();
    assert!(first["html_bytes"].as_u64().unwrap() > 2_000_000);
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
    assert_eq!(features.len(), mainline::internals::features::names().len());
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

/// A column of numbers separated by spaces (a line's signature or path in the table).
fn numbers(field: &str) -> Vec<u64> {
    field
        .split_ascii_whitespace()
        .map(|v| v.parse().expect("a number"))
        .collect()
}

#[test]
fn lines_writes_the_feature_table_with_an_empty_label_column() {
    let out = stdout_of(&["lines", sample("table-layout.html").to_str().unwrap()]);
    let mut reader = csv::Reader::from_reader(out.as_bytes());
    let header: Vec<String> = reader.headers().unwrap().iter().map(String::from).collect();
    assert_eq!(
        &header[..8],
        [
            "doc", "group", "line", "label", "path", "sig", "hints", "aligned"
        ]
    );
    assert_eq!(
        &header[8..header.len() - 1],
        mainline::internals::features::names()
    );
    assert_eq!(header.last().unwrap(), "text");
    let rows: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
    assert!(rows.len() >= 8);
    assert!(rows.iter().all(|r| r[3].is_empty() && r[7].is_empty()));
    // Every line has its eleven page hints, the fifth saying that the page names no kind.
    for r in &rows {
        let hints: Vec<f32> = r[6].split(' ').map(|v| v.parse().unwrap()).collect();
        assert_eq!(hints.len(), 11);
        assert_eq!(hints[4], 1.0);
    }
    // Every line has a signature; the menu items share theirs.
    let sigs: Vec<_> = rows.iter().map(|r| numbers(&r[5])).collect();
    assert!(
        sigs.iter()
            .all(|s| !s.is_empty() && s.len() == sigs[0].len())
    );
    assert!(sigs.windows(2).any(|w| w[0][..2] == w[1][..2]));
    // Every line lists its enclosing elements, and lines share some of them.
    let paths: Vec<_> = rows.iter().map(|r| numbers(&r[4])).collect();
    assert!(
        paths
            .iter()
            .all(|p| !p.is_empty() && p.len() <= mainline::internals::lines::PATH_LEVELS)
    );
    assert!(
        paths
            .iter()
            .flatten()
            .all(|&e| e != u64::from(mainline::internals::lines::NO_ELEMENT))
    );
    assert!(paths.windows(2).any(|w| w[0][1..].contains(&w[1][1])));
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

#[test]
fn every_subcommand_explains_its_options_and_filter_states_its_limits() {
    for sub in ["filter", "lines", "label", "train", "eval", "plot"] {
        mainline()
            .args([sub, "--help"])
            .assert()
            .success()
            .stdout(predicate::str::contains("Options:"));
    }
    // Help text is wrapped to the terminal's width: compare with whitespace collapsed.
    let help = mainline().args(["filter", "--help"]).output().unwrap();
    let help = String::from_utf8(help.stdout).unwrap();
    let help = help.split_whitespace().collect::<Vec<_>>().join(" ");
    for limit in [
        "no maximum input size",
        "at most 1 MiB",
        "at most 1024 attributes",
        "at most 16,384 elements",
        "4 nearest classed ancestors (64 bytes each)",
        "up to 64 KiB",
    ] {
        assert!(help.contains(limit), "{limit:?} in {help}");
    }
}

#[test]
fn filter_output_writes_what_standard_output_gets_into_one_file() {
    let dir = scratch();
    let warc = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
        .join("data/warc/mixed.warc.gz");
    let pages = [sample("article.html"), sample("entities.html")];
    let pages: Vec<&str> = pages.iter().map(|p| p.to_str().unwrap()).collect();
    let cases: [Vec<&str>; 3] = [
        pages.clone(),
        [&["--format", "jsonl", "-j", "2"][..], &pages].concat(),
        vec![warc.to_str().unwrap()],
    ];
    for (i, args) in cases.iter().enumerate() {
        let file = dir.path().join(format!("out-{i}"));
        let expected = mainline().arg("filter").args(args).output().unwrap().stdout;
        assert!(!expected.is_empty());
        mainline()
            .arg("filter")
            .args(args)
            .arg("-o")
            .arg(&file)
            .assert()
            .stdout("");
        assert_eq!(std::fs::read(&file).unwrap(), expected, "{args:?}");
    }
    // Only the file is left: no temporary file beside it.
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), cases.len());
    // A file that cannot be written stops the run before any work, naming it.
    mainline()
        .args(["filter", "--output"])
        .arg(dir.path().join("no/such/dir/out.txt"))
        .arg(sample("article.html"))
        .assert()
        .code(1)
        .stdout("")
        .stderr(predicate::str::contains("no/such/dir/out.txt"));
    // One file, or one file per input: not both.
    mainline()
        .args(["filter", "-o", "out.txt", "--out-dir", "texts"])
        .arg(sample("article.html"))
        .current_dir(dir.path())
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--output"))
        .stderr(predicate::str::contains("--out-dir"));
    assert!(!dir.path().join("out.txt").exists() && !dir.path().join("texts").exists());
}

#[test]
fn filter_method_all_is_refused_naming_the_option_and_eval() {
    mainline()
        .args(["filter", "--method", "all"])
        .arg(sample("article.html"))
        .assert()
        .code(2)
        .stdout("")
        .stderr(predicate::str::contains("'--method <NAME>'"))
        .stderr(predicate::str::contains("mainline eval --method all"));
}

#[test]
fn lines_writes_one_table_for_several_files_each_named_in_order() {
    let a = sample("table-layout.html");
    let b = sample("article.html");
    let (a, b) = (a.to_str().unwrap(), b.to_str().unwrap());
    let rows = |out: &str| -> Vec<(String, usize)> {
        csv::Reader::from_reader(out.as_bytes())
            .records()
            .map(|r| {
                let r = r.unwrap();
                (r[0].to_string(), r[2].parse().unwrap())
            })
            .collect()
    };
    let one_a = rows(&stdout_of(&["lines", a]));
    let one_b = rows(&stdout_of(&["lines", b]));
    let both = stdout_of(&["lines", a, b]);
    assert_eq!(both.matches("doc,group,line,label").count(), 1);
    assert_eq!(rows(&both), [one_a.clone(), one_b.clone()].concat());
    assert!(one_a.iter().all(|(doc, _)| doc == a) && one_b.iter().all(|(doc, _)| doc == b));
    // A file that cannot be read is named, the others are still written, and the exit
    // code is 1.
    let out = mainline()
        .args(["lines", "no/such/page.html", b])
        .assert()
        .code(1)
        .stderr(predicate::str::contains("no/such/page.html"))
        .get_output()
        .stdout
        .clone();
    assert_eq!(rows(&String::from_utf8(out).unwrap()), one_b);
}

/// Each option of a subcommand's --help with its value placeholder: `-o, --output <FILE>`.
fn options_of(sub: &[&str]) -> Vec<String> {
    let help = mainline().args(sub).arg("--help").output().unwrap();
    String::from_utf8(help.stdout)
        .unwrap()
        .lines()
        // Options start two spaces in (six without a short form), their descriptions ten.
        .filter(|l| {
            let option = l.trim_start();
            let indent = l.len() - option.len();
            (indent == 2 || indent == 6) && option.starts_with('-')
        })
        .map(|l| l.trim().split("  ").next().unwrap().to_string())
        .collect()
}

#[test]
fn an_option_name_means_one_thing_and_takes_one_placeholder_everywhere() {
    let mut subs: Vec<&[&str]> = vec![
        &["filter"],
        &["lines"],
        &["label"],
        &["train"],
        &["eval"],
        &["review"],
        &["site", "learn"],
    ];
    if cfg!(feature = "plot") {
        subs.push(&["plot"]);
    }
    let mut seen: Vec<(&str, String)> = Vec::new();
    for sub in &subs {
        for option in options_of(sub) {
            if option.contains("-o,") {
                assert_eq!(option, "-o, --output <FILE>", "{sub:?}");
            }
            if let Some(at) = option.find("--out-dir") {
                assert_eq!(&option[at..], "--out-dir <DIR>", "{sub:?}");
            }
            if let Some(at) = option.find("--threshold ") {
                assert_eq!(&option[at..], "--threshold <X>", "{sub:?}");
            }
            if option.starts_with("--format") {
                seen.push((sub[0], option.clone()));
            }
        }
    }
    // `--format` is the output document's format; only filter writes documents of
    // several formats (plot's charts have --image-format).
    assert_eq!(seen, [("filter", "--format <FORMAT>".to_string())]);
}

#[cfg(feature = "plot")]
#[test]
fn plot_writes_into_the_current_directory_and_draws_the_threshold_it_is_told() {
    let dir = scratch();
    mainline()
        .args(["plot", "--mark-threshold", "0.25", "--image-format", "svg"])
        .arg(sample("article.html"))
        .current_dir(dir.path())
        .assert()
        .success()
        .stdout("./article-bytes.svg\n./article-density.svg\n");
    let density = std::fs::read_to_string(dir.path().join("article-density.svg")).unwrap();
    assert!(density.contains("fixed threshold 0.25"));
    // -o is an output file everywhere; plot writes two, into --out-dir.
    mainline()
        .args(["plot", "-o", "plots"])
        .arg(sample("article.html"))
        .current_dir(dir.path())
        .assert()
        .code(2)
        .stderr(predicate::str::contains("'-o'"));
    // The old spellings are still read.
    mainline()
        .args([
            "plot",
            "--format",
            "png",
            "--threshold",
            "0.25",
            "--out-dir",
            "old",
        ])
        .arg(sample("article.html"))
        .current_dir(dir.path())
        .assert()
        .success();
    assert!(dir.path().join("old/article-density.png").exists());
}
