//! `mainline review` and `mainline train --init`: the review page's data, reopening saved
//! labels, and fine-tuning on labelled lines. The page's behaviour in a browser is tested
//! by `tests/browser/review.test.mjs`.

mod common;

use std::fs;

use common::{mainline, sample, scratch};
use mainline::internals::model::Model;

/// The JSON inside the review page.
fn review_data(html: &str) -> serde_json::Value {
    let start = r#"<script id="data" type="application/json">"#;
    let data = html.split(start).nth(1).expect("the data element");
    let data = data.split("</script>").next().unwrap();
    serde_json::from_str(data).expect("the data is JSON")
}

/// The rows of `mainline lines` for a page.
fn lines_csv(page: &std::path::Path) -> Vec<Vec<String>> {
    let out = mainline().arg("lines").arg(page).output().unwrap();
    assert!(out.status.success());
    csv::Reader::from_reader(&out.stdout[..])
        .records()
        .map(|r| r.unwrap().iter().map(String::from).collect())
        .collect()
}

#[test]
fn the_review_page_carries_every_line_with_the_feature_row_that_lines_writes() {
    let dir = scratch();
    let out = dir.path().join("review.html");
    let page = sample("article.html");
    mainline()
        .args(["review", "--group", "example.org", "-o"])
        .arg(&out)
        .arg(&page)
        .assert()
        .success();
    let data = review_data(&fs::read_to_string(&out).unwrap());
    let rows = lines_csv(&page);
    let lines = data["pages"][0]["lines"].as_array().unwrap();
    assert_eq!(lines.len(), rows.len());
    assert_eq!(data["pages"][0]["group"], "example.org");
    let filter = mainline()
        .args(["filter", "--format", "jsonl"])
        .arg(&page)
        .output()
        .unwrap();
    let decisions: Vec<serde_json::Value> = String::from_utf8(filter.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    for ((line, row), decision) in lines.iter().zip(&rows).zip(&decisions) {
        // doc, group, line, label | path, sig, aligned, features… | text
        let fields: Vec<&str> = line["r"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_str().unwrap())
            .collect();
        assert_eq!(fields, row[4..row.len() - 1]);
        assert_eq!(line["t"], row[row.len() - 1]);
        assert_eq!(line["m"], u8::from(decision["keep"].as_bool().unwrap()));
        assert_eq!(
            line["l"], line["m"],
            "without --labels a review starts from the model"
        );
    }
}

#[test]
fn saved_labels_reopen_the_review_and_wrong_ones_are_refused() {
    let dir = scratch();
    let page = sample("article.html");
    let doc = page.display().to_string();
    let n = lines_csv(&page).len();
    let labels: String = (0..n).map(|i| if i % 3 == 0 { '1' } else { '0' }).collect();
    let file = dir.path().join("labels.json");
    let json = serde_json::json!({"format": "mainline-labels", "version": 1,
        "pages": [{"doc": doc, "labels": labels}]});
    fs::write(&file, json.to_string()).unwrap();
    let out = dir.path().join("review.html");
    mainline()
        .arg("review")
        .arg(&page)
        .arg("--labels")
        .arg(&file)
        .arg("-o")
        .arg(&out)
        .assert()
        .success();
    let data = review_data(&fs::read_to_string(&out).unwrap());
    let got: String = data["pages"][0]["lines"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| if l["l"] == 1 { '1' } else { '0' })
        .collect();
    assert_eq!(got, labels);

    let short = serde_json::json!({"format": "mainline-labels", "version": 1,
        "pages": [{"doc": doc, "labels": "0101"}]});
    fs::write(&file, short.to_string()).unwrap();
    let other = dir.path().join("other.html");
    mainline()
        .arg("review")
        .arg(&page)
        .arg("--labels")
        .arg(&file)
        .arg("-o")
        .arg(&other)
        .assert()
        .code(1)
        .stderr(predicates::str::contains(format!(
            "the labels of {doc} are for 4 lines, the page now has {n}"
        )));
    assert!(
        !other.exists(),
        "nothing is written when the labels do not fit"
    );
}

#[test]
fn a_page_that_cannot_be_read_is_reported_and_the_others_are_reviewed() {
    let dir = scratch();
    let out = dir.path().join("review.html");
    let missing = dir.path().join("missing.html");
    mainline()
        .arg("review")
        .arg(&missing)
        .arg(sample("article.html"))
        .arg("-o")
        .arg(&out)
        .assert()
        .code(1)
        .stderr(predicates::str::contains("missing.html"));
    let data = review_data(&fs::read_to_string(&out).unwrap());
    assert_eq!(data["pages"].as_array().unwrap().len(), 1);
}

/// A labelled CSV of the sample article whose labels also keep its menu (lines 1–6): a
/// site convention the built-in model does not follow.
fn menu_as_content_csv(dir: &std::path::Path) -> std::path::PathBuf {
    let csv = dir.join("labelled.csv");
    mainline()
        .arg("label")
        .arg("--html")
        .arg(sample("article.html"))
        .arg("--gold")
        .arg(sample("article.txt"))
        .arg("-o")
        .arg(&csv)
        .assert()
        .success();
    let mut reader = csv::Reader::from_path(&csv).unwrap();
    let header = reader.headers().unwrap().clone();
    let label = header.iter().position(|h| h == "label").unwrap();
    let rows: Vec<csv::StringRecord> = reader
        .records()
        .map(|r| {
            let r = r.unwrap();
            let line: usize = r[2].parse().unwrap();
            let mut fields: Vec<String> = r.iter().map(String::from).collect();
            if (1..=6).contains(&line) {
                fields[label] = "1".into();
            }
            csv::StringRecord::from(fields)
        })
        .collect();
    let mut w = csv::Writer::from_path(&csv).unwrap();
    w.write_record(&header).unwrap();
    for r in rows {
        w.write_record(&r).unwrap();
    }
    w.flush().unwrap();
    csv
}

#[test]
fn fine_tuning_the_builtin_model_learns_the_labelled_convention() {
    let dir = scratch();
    let csv = menu_as_content_csv(dir.path());
    let tuned = dir.path().join("tuned.json");
    mainline()
        .arg("train")
        .arg(&csv)
        .args(["--init", "builtin", "-o"])
        .arg(&tuned)
        .assert()
        .success();
    let model = Model::load(&tuned).unwrap();
    let builtin = mainline::ModelScorer::builtin().model().clone();
    // The first stage learns; the second stage, which reads its scores, is kept.
    assert_ne!(model.kind, builtin.kind);
    assert_eq!(model.stack, builtin.stack);
    assert_eq!(model.scaler, builtin.scaler);
    assert_eq!(model.provenance.extra["fine_tuned"]["from"], "builtin");
    // On the labelled lines the tuned first stage agrees with the labels better, and scores
    // the menu that the labels call content higher.
    let data = mainline_training::train::read_labelled_csv(&csv, Some(&builtin.features)).unwrap();
    let loss = |m: &Model| -> f64 {
        data.x
            .outer_iter()
            .zip(&data.y)
            .map(|(row, &y)| {
                let p = f64::from(m.score(row.as_slice().unwrap())).clamp(1e-6, 1.0 - 1e-6);
                if y { -p.ln() } else { -(1.0 - p).ln() }
            })
            .sum::<f64>()
    };
    assert!(loss(&model) < loss(&builtin));
    let menu = |m: &Model| -> f32 {
        (1..=6)
            .map(|i| m.score(data.x.row(i).as_slice().unwrap()))
            .sum::<f32>()
    };
    assert!(menu(&model) > menu(&builtin));
    // The tuned model still extracts the article.
    let out = mainline()
        .args(["filter", "--model"])
        .arg(&tuned)
        .arg(sample("article.html"))
        .output()
        .unwrap();
    assert!(
        String::from_utf8(out.stdout)
            .unwrap()
            .contains("A schedule that works")
    );
}

#[test]
fn fine_tuning_refuses_what_it_cannot_use() {
    let dir = scratch();
    let csv = menu_as_content_csv(dir.path());
    let out = dir.path().join("m.json");
    let logistic = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
        .join("models/logistic.json");
    mainline()
        .arg("train")
        .arg(&csv)
        .arg("--init")
        .arg(&logistic)
        .arg("-o")
        .arg(&out)
        .assert()
        .code(1)
        .stderr(predicates::str::contains("only an MLP can be fine-tuned"));
    // One class only.
    let text = fs::read_to_string(&csv).unwrap();
    let mut one_class = csv::Writer::from_path(dir.path().join("one.csv")).unwrap();
    let mut reader = csv::Reader::from_reader(text.as_bytes());
    let header = reader.headers().unwrap().clone();
    let label = header.iter().position(|h| h == "label").unwrap();
    one_class.write_record(&header).unwrap();
    for r in reader.records() {
        let mut f: Vec<String> = r.unwrap().iter().map(String::from).collect();
        f[label] = "1".into();
        one_class.write_record(&f).unwrap();
    }
    one_class.flush().unwrap();
    mainline()
        .arg("train")
        .arg(dir.path().join("one.csv"))
        .args(["--init", "builtin", "-o"])
        .arg(&out)
        .assert()
        .code(1)
        .stderr(predicates::str::contains("all of one class"));
    assert!(!out.exists());
}
