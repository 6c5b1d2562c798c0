//! The training subcommands end to end: `train` (models, recipes, their errors), `label`,
//! `eval` and cross-validation.

mod common;

use common::{mainline, sample, scratch, stdout_of};
use predicates::prelude::*;

fn train_dir() -> std::path::PathBuf {
    std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/..")).join("data/train")
}

/// `mainline train` on `data/train/separable.csv` with the seed's features of the line
/// alone and `args`, writing `model`.
fn train_separable(model: &std::path::Path, args: &[&str]) -> assert_cmd::assert::Assert {
    mainline()
        .args(["train", train_dir().join("separable.csv").to_str().unwrap()])
        .args(["--features", "seed", "--context", "0"])
        .args(args)
        .arg("-o")
        .arg(model)
        .assert()
}

/// Trains `args` on the separable CSV and checks that `filter` with the model keeps the
/// text of the table-layout sample; returns the model file as JSON.
fn trained_model_filters_a_page(args: &[&str]) -> serde_json::Value {
    let dir = scratch();
    let model = dir.path().join("m.json");
    train_separable(&model, args)
        .success()
        .stderr(predicate::str::contains("validation"));
    let out = stdout_of(&[
        "filter",
        "--model",
        model.to_str().unwrap(),
        sample("table-layout.html").to_str().unwrap(),
    ]);
    assert!(out.contains("This page illustrates"), "{out}");
    serde_json::from_str(&std::fs::read_to_string(&model).unwrap()).unwrap()
}

#[test]
fn train_writes_a_model_that_filter_can_use() {
    let json = trained_model_filters_a_page(&["--model", "logistic"]);
    assert_eq!(
        json["features"],
        serde_json::json!(["density", "ln_html_bytes", "ln_text_bytes"])
    );
}

/// A recipe file holding `toml`, in `dir`.
fn recipe_file(dir: &tempfile::TempDir, toml: &str) -> String {
    let path = dir.path().join("recipe.toml");
    std::fs::write(&path, toml).unwrap();
    path.to_str().unwrap().to_string()
}

#[test]
fn boosted_trees_train_and_filter_like_the_other_models() {
    let dir = scratch();
    let recipe = recipe_file(&dir, "learner = \"trees\"\ntrees = 20\ndepth = 2\n");
    let json = trained_model_filters_a_page(&["--recipe", &recipe]);
    assert_eq!(json["kind"]["type"], "trees");
    assert_eq!(json["provenance"]["params"]["depth"], 2);
    let recipe = recipe_file(&dir, "learner = \"trees\"\ndepth = 17\n");
    train_separable(&dir.path().join("m.json"), &["--recipe", &recipe])
        .failure()
        .stderr(predicate::str::contains("depth must be between 1 and 16"));
}

#[test]
fn the_threshold_can_be_chosen_on_all_sites_and_is_recorded() {
    let dir = scratch();
    let recipe = recipe_file(&dir, "learner = \"logistic\"\nthreshold_rows = \"all\"\n");
    let json = trained_model_filters_a_page(&["--recipe", &recipe]);
    assert_eq!(json["provenance"]["params"]["threshold_rows"], "all");
    let recipe = recipe_file(&dir, "threshold_rows = \"training\"\n");
    train_separable(&dir.path().join("m.json"), &["--recipe", &recipe])
        .failure()
        .stderr(predicate::str::contains("recipe "))
        .stderr(predicate::str::contains("training"));
}

#[test]
fn flags_override_single_fields_of_a_recipe_and_the_model_records_it() {
    let dir = scratch();
    let recipe = recipe_file(
        &dir,
        "data = \"separable rows\"\nlearner = \"logistic\"\nl2 = 0.001\nseed = 1\n",
    );
    let json = trained_model_filters_a_page(&["--recipe", &recipe, "--seed", "7"]);
    let p = &json["provenance"];
    assert_eq!(
        p["recipe"],
        format!("{recipe} with --features seed --context 0 --seed 7")
    );
    assert_eq!(p["data"], "separable rows");
    assert_eq!(p["params"]["seed"], 7);
    assert_eq!(p["params"]["l2"], 0.001);
    let settings = &p["settings"];
    assert_eq!(settings["learner"], "logistic");
    assert_eq!(settings["seed"], 7);
    // The flags of train_separable are recorded too.
    assert_eq!(settings["features"], "seed");
    assert_eq!(settings["context"], 0);
}

#[test]
fn the_recipe_a_model_records_trains_the_same_model_again() {
    let dir = scratch();
    let first = dir.path().join("first.json");
    train_separable(
        &first,
        &["--learner", "mlp", "--hidden", "4", "--seed", "3"],
    )
    .success();
    let json: serde_json::Value = serde_json::from_slice(&std::fs::read(&first).unwrap()).unwrap();
    let settings = dir.path().join("settings.json");
    std::fs::write(&settings, json["provenance"]["settings"].to_string()).unwrap();
    let again = dir.path().join("again.json");
    mainline()
        .args(["train", train_dir().join("separable.csv").to_str().unwrap()])
        .arg("--recipe")
        .arg(&settings)
        .arg("-o")
        .arg(&again)
        .assert()
        .success();
    let mut again: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&again).unwrap()).unwrap();
    let mut first = json;
    // Only how the recipe is named differs.
    first["provenance"]["recipe"] = serde_json::Value::Null;
    again["provenance"]["recipe"] = serde_json::Value::Null;
    assert_eq!(again, first);
}

#[test]
fn a_recipe_with_an_unknown_field_is_refused_naming_it() {
    let dir = scratch();
    let recipe = recipe_file(&dir, "learner = \"mlp\"\nepoch = 3\n");
    train_separable(&dir.path().join("m.json"), &["--recipe", &recipe])
        .code(1)
        .stderr(predicate::str::contains(&recipe))
        .stderr(predicate::str::contains("epoch"));
    // Second-stage flags need a second stage.
    train_separable(&dir.path().join("m.json"), &["--page"])
        .code(2)
        .stderr(predicate::str::contains("--page set a second stage"));
}

#[test]
fn a_wrong_second_stage_threshold_objective_is_refused_with_the_accepted_ones() {
    // What the option does is pinned in training/src/tests/two_stage.rs; here, its parsing.
    let dir = scratch();
    train_separable(
        &dir.path().join("m.json"),
        &[
            "--model",
            "mlp",
            "--stack",
            "2",
            "--stack-threshold-objective",
            "recall",
        ],
    )
    .code(2)
    .stderr(predicate::str::contains("use f1 or accuracy"));
}

#[test]
fn a_model_expecting_other_features_is_rejected_with_their_names() {
    let dir = scratch();
    let model = dir.path().join("m.json");
    mainline()
        .args([
            "train",
            train_dir().join("separable.csv").to_str().unwrap(),
            "--model",
            "logistic",
            "--features",
            "seed",
            "--context",
            "0",
            "-o",
        ])
        .arg(&model)
        .assert()
        .success();
    let text = std::fs::read_to_string(&model)
        .unwrap()
        .replace("\"ln_text_bytes\"", "\"words_in_bold\"");
    std::fs::write(&model, text).unwrap();
    mainline()
        .args([
            "filter",
            "--model",
            model.to_str().unwrap(),
            sample("article.html").to_str().unwrap(),
        ])
        .assert()
        .code(1)
        .stderr(predicate::str::contains("words_in_bold"));
}

#[test]
fn a_model_file_that_is_not_json_or_of_another_version_is_rejected() {
    let dir = scratch();
    let bad = dir.path().join("bad.json");
    std::fs::write(&bad, "this is not json").unwrap();
    mainline()
        .args([
            "filter",
            "--model",
            bad.to_str().unwrap(),
            sample("article.html").to_str().unwrap(),
        ])
        .assert()
        .code(1)
        .stderr(predicate::str::contains("bad.json"));
    let builtin = std::fs::read_to_string(
        std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
            .join("models/default.json"),
    )
    .unwrap();
    let future = dir.path().join("future.json");
    std::fs::write(&future, {
        let mut value: serde_json::Value = serde_json::from_str(&builtin).unwrap();
        value["format"] = 99.into();
        value.to_string()
    })
    .unwrap();
    mainline()
        .args([
            "filter",
            "--model",
            future.to_str().unwrap(),
            sample("article.html").to_str().unwrap(),
        ])
        .assert()
        .code(1)
        .stderr(predicate::str::contains("version 99"));
}

#[test]
fn training_on_a_csv_with_a_bad_value_names_the_row_and_column() {
    let dir = scratch();
    let csv = dir.path().join("bad.csv");
    std::fs::write(&csv, "doc,group,line,label,density,ln_html_bytes,ln_text_bytes\na,g,0,1,0.9,3,2\nb,h,0,0,oops,3,2\n").unwrap();
    mainline()
        .args([
            "train",
            csv.to_str().unwrap(),
            "--features",
            "seed",
            "--context",
            "0",
            "-o",
        ])
        .arg(dir.path().join("m.json"))
        .assert()
        .code(1)
        .stderr(predicate::str::contains("density"))
        .stderr(predicate::str::contains("oops"));
}

#[test]
fn label_aligns_a_page_with_its_gold_text() {
    let out = mainline()
        .args([
            "label",
            "--html",
            sample("article.html").to_str().unwrap(),
            "--gold",
            sample("article.txt").to_str().unwrap(),
        ])
        .assert()
        .success()
        .stderr(predicate::str::contains("labelled 1 pages"))
        .get_output()
        .stdout
        .clone();
    let mut reader = csv::Reader::from_reader(out.as_slice());
    let header = reader.headers().unwrap().clone();
    let text_col = header.iter().position(|h| h == "text").unwrap();
    let aligned_col = header.iter().position(|h| h == "aligned").unwrap();
    let mut content = Vec::new();
    let mut other = Vec::new();
    for r in reader.records() {
        let r = r.unwrap();
        assert_eq!(&r[aligned_col], "1", "the page aligns well");
        if &r[3] == "1" {
            content.push(r[text_col].to_string())
        } else {
            other.push(r[text_col].to_string())
        }
    }
    assert!(
        content
            .iter()
            .any(|t| t.starts_with("Every baker who switches"))
    );
    assert!(content.iter().any(|t| t == "A schedule that works"));
    assert!(other.iter().any(|t| t == "Popular Posts"));
    assert!(other.iter().any(|t| t.contains("All rights reserved")));
    assert!(
        !content.iter().any(|t| t == "Bread"),
        "menu item labelled content"
    );
}

#[test]
fn eval_scores_methods_on_a_folder_of_pages_with_gold_text() {
    let dir = scratch();
    let per_page = dir.path().join("pages.csv");
    let json = dir.path().join("eval.json");
    let out = mainline()
        .args([
            "eval",
            "--corpus",
            sample("").to_str().unwrap(),
            "--method",
            "threshold",
            "--method",
            "builtin",
            "--method",
            "eatiht",
        ])
        .args([
            "--per-page",
            per_page.to_str().unwrap(),
            "--json",
            json.to_str().unwrap(),
        ])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let out = String::from_utf8(out).unwrap();
    assert!(
        out.contains("density > 0.5") && out.contains("built-in model") && out.contains("eatiht"),
        "{out}"
    );
    let rows = std::fs::read_to_string(&per_page).unwrap();
    let samples = std::fs::read_dir(sample(""))
        .unwrap()
        .filter(|e| {
            e.as_ref()
                .unwrap()
                .path()
                .extension()
                .is_some_and(|x| x == "html")
        })
        .count();
    assert_eq!(rows.lines().count(), 1 + 3 * samples, "{rows}");
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    let pages = report["pages"].as_array().unwrap();
    assert_eq!(pages.len(), 3);
    let f1 = pages[1]["f1"].as_f64().unwrap();
    assert!(f1 > 0.8, "built-in model F1 on the samples: {f1}");
}

#[test]
fn cross_validation_trains_a_recipe_file_and_its_settings() {
    let dir = scratch();
    let csv = concat!(
        concat!(env!("CARGO_MANIFEST_DIR"), "/.."),
        "/data/train/paths.csv"
    );
    let recipe = recipe_file(
        &dir,
        "learner = \"logistic\"\nfeatures = \"seed\"\ncontext = 0\nl2 = 0.01\n",
    );
    let report = |extra: &[&str]| -> serde_json::Value {
        let json = dir.path().join("cv.json");
        mainline()
            .args(["eval", "--data", csv, "--folds", "2", "--cv", "threshold"])
            .args(extra)
            .args(["--json", json.to_str().unwrap()])
            .assert()
            .success();
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap()
    };
    let with_file = report(&["--recipe", &recipe]);
    let methods: Vec<&str> = with_file["cross_validation_lines"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["method"].as_str().unwrap())
        .collect();
    assert_eq!(methods, ["threshold 0.5", "logistic/seed/0"]);
    // The threshold does not depend on the recipe; a --cv recipe trains with the file's
    // settings, as the file's own recipe does.
    let with_default = report(&["--cv", "logistic/seed/0"]);
    assert_eq!(
        with_file["cross_validation_lines"][0],
        with_default["cross_validation_lines"][0]
    );
    let same = report(&["--cv", "logistic/seed/0", "--recipe", &recipe]);
    assert_eq!(
        same["cross_validation_lines"][1],
        with_file["cross_validation_lines"][1]
    );
}

#[test]
fn cross_validation_writes_every_lines_decision() {
    let dir = scratch();
    let per_line = dir.path().join("lines.csv");
    let json = dir.path().join("cv.json");
    let csv = concat!(
        concat!(env!("CARGO_MANIFEST_DIR"), "/.."),
        "/data/train/paths.csv"
    );
    mainline()
        .args([
            "eval",
            "--lines",
            csv,
            "--folds",
            "2",
            "--recipe",
            "threshold",
        ])
        .args(["--recipe", "logistic/density+ln_text_bytes/0"])
        .args(["--per-line", per_line.to_str().unwrap()])
        .args(["--json", json.to_str().unwrap()])
        .assert()
        .success();
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    let mut reader = csv::Reader::from_path(&per_line).unwrap();
    let rows: Vec<csv::StringRecord> = reader.records().map(|r| r.unwrap()).collect();
    let labelled = std::fs::read_to_string(csv).unwrap().lines().count() - 1;
    assert_eq!(rows.len(), 2 * labelled);
    for method in report["cross_validation_lines"].as_array().unwrap() {
        let name = method["method"].as_str().unwrap();
        let lines = &method["lines"];
        let count = |label: &str, keep: &str| {
            rows.iter()
                .filter(|r| &r[0] == name && &r[5] == label && &r[6] == keep)
                .count() as u64
        };
        assert_eq!(count("0", "1"), lines["fp"].as_u64().unwrap(), "{name}");
        assert_eq!(count("1", "0"), lines["fn_"].as_u64().unwrap(), "{name}");
        assert_eq!(count("1", "1"), lines["tp"].as_u64().unwrap(), "{name}");
    }
    for r in &rows {
        // Each decision is its score against its threshold: the fixed rule keeps a density
        // above the value, a model a score at or above its threshold.
        let (score, threshold): (f32, f32) = (r[7].parse().unwrap(), r[8].parse().unwrap());
        let kept = if &r[0] == "threshold 0.5" {
            score > threshold
        } else {
            score >= threshold
        };
        assert_eq!(&r[6] == "1", kept, "{r:?}");
        assert!(&r[3] == "1" || &r[3] == "2", "fold {}", &r[3]);
    }
    let second: Vec<&str> = rows[1].iter().skip(1).take(6).collect();
    assert_eq!(second[..2], ["site0-page0", "site0.example"]);
    assert_eq!(second[3..], ["1", "0", "0"]);
    assert_eq!(&rows[1][11], "Menu");
    // Outside cross-validation there are no held-out decisions to write.
    mainline()
        .args(["eval", "--corpus", sample("").to_str().unwrap()])
        .args(["--per-line", per_line.to_str().unwrap()])
        .assert()
        .failure()
        .stderr(predicate::str::contains("--per-line"));
}
