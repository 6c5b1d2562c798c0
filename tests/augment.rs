//! Training-time augmentation from the command line: `label --augment`, the recipe's
//! `augment` field, and the scores of page variants in `eval`.

mod common;

use common::{mainline, scratch, stdout_of};

/// The CSV's rows as (header, rows) of fields.
fn read_csv(path: &std::path::Path) -> (Vec<String>, Vec<Vec<String>>) {
    let mut rdr = csv::Reader::from_path(path).unwrap();
    let header = rdr.headers().unwrap().iter().map(String::from).collect();
    let rows = rdr
        .records()
        .map(|r| r.unwrap().iter().map(String::from).collect())
        .collect();
    (header, rows)
}

fn label(args: &[&str], out: &std::path::Path) {
    let result = mainline()
        .args(["label", "--corpus", "data/samples", "-o"])
        .arg(out)
        .args(args)
        .output()
        .unwrap();
    assert!(
        result.status.success(),
        "{}",
        String::from_utf8_lossy(&result.stderr)
    );
}

#[test]
fn label_augment_writes_each_page_as_written_then_plain_under_the_same_site() {
    let dir = scratch();
    let (plain_csv, csv) = (dir.path().join("plain.csv"), dir.path().join("data.csv"));
    label(&["--augment", "plain"], &plain_csv);
    label(&[], &csv);
    let (header, rows) = read_csv(&csv);
    let (aug_header, aug_rows) = read_csv(&plain_csv);
    assert!(!header.iter().any(|h| h == "variant"));
    let at = aug_header.iter().position(|h| h == "variant").unwrap();
    assert_eq!(aug_header[at - 1], "aligned");
    let col = |name: &str| aug_header.iter().position(|h| h == name).unwrap();
    let (doc, group, text) = (col("doc"), col("group"), col("text"));
    // The rows as written are the CSV without --augment, the variant column aside.
    let originals: Vec<Vec<String>> = aug_rows
        .iter()
        .filter(|r| r[at] == "original")
        .map(|r| {
            let mut r = r.clone();
            r.remove(at);
            r
        })
        .collect();
    assert_eq!(originals, rows);
    // Each page's plain rows follow its rows, as page "ID@plain" of the same site, and
    // these pages keep their text.
    let plain: Vec<&Vec<String>> = aug_rows.iter().filter(|r| r[at] == "plain").collect();
    assert_eq!(plain.len() + rows.len(), aug_rows.len());
    assert!(!plain.is_empty());
    for p in &plain {
        let id = p[doc].strip_suffix("@plain").expect("a variant's page id");
        let first = aug_rows.iter().position(|r| r[doc] == id).unwrap();
        assert_eq!(aug_rows[first][group], p[group]);
    }
    let texts = |d: &str| -> Vec<&str> {
        aug_rows
            .iter()
            .filter(|r| r[doc] == d)
            .map(|r| r[text].as_str())
            .collect()
    };
    assert_eq!(texts("news-related"), texts("news-related@plain"));
    // The hints of the head (og:type, JSON-LD) are gone from the plain variant.
    let hints = col("hints");
    let hint_of = |d: &str| {
        aug_rows
            .iter()
            .find(|r| r[doc] == d)
            .map(|r| r[hints].clone())
            .unwrap()
    };
    assert_ne!(hint_of("news-related"), hint_of("news-related@plain"));
}

#[test]
fn cross_validation_scores_the_variants_apart_and_trains_on_them_only_when_asked() {
    let dir = scratch();
    let (plain_csv, csv) = (dir.path().join("plain.csv"), dir.path().join("data.csv"));
    label(&["--augment", "plain"], &plain_csv);
    label(&[], &csv);
    let cv = |data: &std::path::Path, recipe: Option<&std::path::Path>| {
        let mut args = vec![
            "eval".to_string(),
            "--data".into(),
            data.display().to_string(),
            "--corpus".into(),
            "data/samples".into(),
            "--folds".into(),
            "3".into(),
            "--cv".into(),
            "threshold".into(),
            "--cv".into(),
            "logistic/seed/1".into(),
        ];
        if let Some(r) = recipe {
            args.extend(["--recipe".into(), r.display().to_string()]);
        }
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        stdout_of(&args)
    };
    let plain_out = cv(&plain_csv, None);
    let out = cv(&csv, None);
    // The pages as written score as without the variants (same folds, same training rows).
    let rows_of = |text: &str, method: &str| -> Vec<String> {
        text.lines()
            .filter(|l| l.starts_with(&format!("{method} ")) && !l.contains("[plain]"))
            .map(|l| l.split_whitespace().collect::<Vec<_>>().join(" "))
            .collect()
    };
    assert_eq!(
        rows_of(&plain_out, "logistic/seed/1"),
        rows_of(&out, "logistic/seed/1")
    );
    assert!(plain_out.contains("logistic/seed/1 [plain]"), "{plain_out}");
    assert!(!out.contains("[plain]"), "{out}");
    // A recipe that trains on the variant changes the model.
    let recipe = dir.path().join("augment.toml");
    std::fs::write(&recipe, "learner = \"logistic\"\naugment = [\"plain\"]\n").unwrap();
    let trained = cv(&plain_csv, Some(&recipe));
    let plain_rows = |text: &str| -> Vec<String> {
        text.lines()
            .filter(|l| l.starts_with("logistic/seed/1 [plain]"))
            .map(|l| l.split_whitespace().collect::<Vec<_>>().join(" "))
            .collect()
    };
    assert_eq!(plain_rows(&trained).len(), 2, "{trained}");
    assert_ne!(plain_rows(&trained), plain_rows(&plain_out));
}

#[test]
fn eval_scores_a_corpus_rewritten_and_refuses_augment_where_it_means_nothing() {
    let out = stdout_of(&[
        "eval",
        "--corpus",
        "data/samples",
        "--method",
        "threshold",
        "--augment",
        "plain",
    ]);
    assert!(out.contains("density > 0.5 [plain]"), "{out}");
    let refused = mainline()
        .args([
            "eval",
            "--data",
            "x.csv",
            "--cv",
            "threshold",
            "--augment",
            "plain",
        ])
        .output()
        .unwrap();
    assert!(!refused.status.success());
    let err = String::from_utf8_lossy(&refused.stderr);
    assert!(
        err.contains("--augment") && err.lines().count() == 1,
        "{err}"
    );
    let unknown = mainline()
        .args(["label", "--corpus", "data/samples", "--augment", "modern"])
        .output()
        .unwrap();
    assert_eq!(unknown.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&unknown.stderr).contains("plain"));
}

#[test]
fn a_recipe_that_trains_on_variants_needs_them_in_the_csv() {
    let dir = scratch();
    let csv = dir.path().join("data.csv");
    label(&[], &csv);
    let recipe = dir.path().join("augment.toml");
    std::fs::write(&recipe, "learner = \"logistic\"\naugment = [\"plain\"]\n").unwrap();
    let model = dir.path().join("m.json");
    let train = || {
        mainline()
            .arg("train")
            .arg(&csv)
            .arg("--recipe")
            .arg(&recipe)
            .arg("-o")
            .arg(&model)
            .output()
            .unwrap()
    };
    let out = train();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("variant") && err.contains("--augment plain"),
        "{err}"
    );
    for bad in [
        "augment = [\"modern\"]",
        "augment_share = 0.0",
        "augment_share = 1.5",
        "augment_stages = \"first\"",
        // A single-stage recipe has no second stage to train alone.
        "augment_stages = \"second\"",
    ] {
        std::fs::write(&recipe, format!("learner = \"logistic\"\n{bad}\n")).unwrap();
        let out = train();
        assert!(!out.status.success(), "{bad}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(bad.split(' ').next().unwrap()), "{bad}: {err}");
    }
}
