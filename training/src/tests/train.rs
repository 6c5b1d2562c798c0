//! Training end to end: labelled CSV → model → file → scores.

use std::path::{Path, PathBuf};
use std::time::Instant;

use crate::model::ModelExt;
use crate::train::{
    Dataset, ModelType, ThresholdObjective, ThresholdRows, TrainParams, group_split,
    read_labelled_csv, train, train_on_rows,
};
use linfa::prelude::Fit;
use mainline::Error;
use mainline::internals::model::{Model, ModelKind};
use ndarray::{Array1, Array2, Axis};

fn separable() -> PathBuf {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/..")).join("data/train/separable.csv")
}

fn load_separable() -> Dataset {
    read_labelled_csv(&separable(), None).unwrap()
}

/// Parameters that let the MLP converge on 400 rows within a test's time.
fn small_mlp() -> TrainParams {
    TrainParams::new(ModelType::Mlp)
        .hidden(vec![8])
        .batch_size(32)
        .learning_rate(0.01)
        .epochs(60)
        .patience(10)
}

fn accuracy(model: &Model, data: &Dataset) -> f64 {
    let scores = model.score_batch(data.x.view());
    let right = scores
        .iter()
        .zip(&data.y)
        .filter(|&(&s, &y)| (s >= model.threshold) == y)
        .count();
    right as f64 / data.len() as f64
}

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

fn csv_message(path: &Path) -> String {
    match read_labelled_csv(path, None) {
        Err(Error::Csv { path: p, message }) => {
            assert_eq!(p, path);
            message
        }
        other => panic!("expected a CSV error, got {other:?}"),
    }
}

#[test]
fn the_separable_csv_reads_with_its_features_and_groups() {
    let data = load_separable();
    assert_eq!(data.features, ["density", "ln_html_bytes", "ln_text_bytes"]);
    assert_eq!(data.len(), 400);
    assert_eq!(data.groups[0], "site0.example");
    // The last site has no group: its pages are their own groups.
    assert_eq!(data.groups[399], "site9-page1");
}

#[test]
fn logistic_regression_learns_the_density_rule() {
    let data = load_separable();
    let params = TrainParams::new(ModelType::Logistic);
    let (model, report) = train(&data, &params, &mut |_| {}).unwrap();
    assert!(report.validation.accuracy >= 0.98, "{report:?}");
    assert!(accuracy(&model, &data) >= 0.98);
    let baseline = report.baseline.expect("the CSV has a density column");
    assert_eq!(baseline.accuracy, 1.0);
    assert!(matches!(model.kind, ModelKind::Logistic { .. }));
}

#[test]
fn the_mlp_learns_the_density_rule() {
    let data = load_separable();
    let (model, report) = train(&data, &small_mlp(), &mut |_| {}).unwrap();
    assert!(report.validation.accuracy >= 0.98, "{report:?}");
    assert!(accuracy(&model, &data) >= 0.98);
    let ModelKind::Mlp { layers } = &model.kind else {
        panic!("expected an MLP")
    };
    assert_eq!(layers.len(), 2);
    assert_eq!((layers[0].inputs(), layers[0].outputs()), (3, 8));
}

fn small_trees() -> TrainParams {
    TrainParams::new(ModelType::Trees).trees(40).depth(3)
}

#[test]
fn boosted_trees_learn_the_density_rule() {
    let data = load_separable();
    let (model, report) = train(&data, &small_trees(), &mut |_| {}).unwrap();
    assert!(report.validation.accuracy >= 0.98, "{report:?}");
    assert!(accuracy(&model, &data) >= 0.98);
    let ModelKind::Trees { trees, .. } = &model.kind else {
        panic!("expected trees")
    };
    assert_eq!(trees.len(), report.best_epoch);
    assert!(trees.iter().all(|t| t.depth() == 3 && t.leaves.len() == 8));
    // The first split of the first tree is the density, the feature that separates.
    let density = data.feature_index("density").unwrap() as u32;
    assert_eq!(trees[0].features[0], density);
}

#[test]
fn logistic_scores_are_linfas_probability_of_content() {
    // Content is the minority here, so linfa's "positive" class is boilerplate.
    let data = load_separable();
    assert!(data.y.iter().filter(|&&y| y).count() * 2 < data.len());
    let params = TrainParams::new(ModelType::Logistic);
    let (model, _) = train(&data, &params, &mut |_| {}).unwrap();

    // Refit linfa on the same standardised training rows.
    let (train_rows, _) = group_split(&data.groups, params.val_fraction, params.seed);
    let x = data.x.select(Axis(0), &train_rows);
    let mut z = x.mapv(f64::from);
    for (j, mut col) in z.axis_iter_mut(Axis(1)).enumerate() {
        let (m, s) = (model.scaler.mean[j], model.scaler.std[j]);
        col.iter_mut()
            .zip(x.column(j))
            .for_each(|(z, &v)| *z = f64::from((v - m) / s));
    }
    let y: Array1<bool> = train_rows.iter().map(|&i| data.y[i]).collect();
    let fitted = linfa_logistic::LogisticRegression::default()
        .alpha(params.l2 * train_rows.len() as f64)
        .max_iterations(params.max_iterations)
        .fit(&linfa::Dataset::new(z.clone(), y))
        .unwrap();
    assert!(!fitted.labels().pos.class, "boilerplate is the majority");
    let p_boilerplate = fitted.predict_probabilities(&z);
    for (i, row) in x.outer_iter().enumerate() {
        let ours = f64::from(model.score(row.as_slice().unwrap()));
        let theirs = 1.0 - p_boilerplate[i];
        assert!((ours - theirs).abs() < 1e-5, "row {i}: {ours} vs {theirs}");
    }
}

/// The lines that `model` decides right among `rows` of `data`.
fn right(model: &Model, data: &Dataset, rows: &[usize]) -> usize {
    rows.iter()
        .filter(|&&i| {
            let row = data.x.row(i).to_vec();
            (model.score(&row) >= model.threshold) == data.y[i]
        })
        .count()
}

#[test]
fn a_threshold_chosen_on_all_rows_follows_the_training_sites_too() {
    // 200 training lines are content above 0.7; 20 validation lines disagree and are
    // content above 0.3 already. The model's scores rise with x either way.
    let x: Vec<f32> = (0..220)
        .map(|i| match i {
            0..200 => (i % 100) as f32 / 100.0 + 0.005,
            _ => (i - 200) as f32 / 20.0 + 0.025,
        })
        .collect();
    let y: Vec<bool> = x
        .iter()
        .enumerate()
        .map(|(i, &v)| v > if i < 200 { 0.7 } else { 0.3 })
        .collect();
    let data = Dataset {
        features: vec!["x".into()],
        x: Array2::from_shape_vec((220, 1), x).unwrap(),
        y,
        groups: (0..220).map(|i| format!("site{}", i / 20)).collect(),
        docs: (0..220).map(|i| format!("page{}", i / 20)).collect(),
    };
    let (train_rows, val_rows): (Vec<usize>, Vec<usize>) = (0..220).partition(|&i| i < 200);
    let all: Vec<usize> = (0..220).collect();
    let base = TrainParams::new(ModelType::Logistic)
        .threshold_objective(ThresholdObjective::Accuracy)
        .l2(0.01);
    let on = |rows| {
        train_on_rows(
            &data,
            &train_rows,
            &val_rows,
            &base.clone().threshold_rows(rows),
            &mut |_| {},
        )
        .unwrap()
    };
    let (by_val, _) = on(ThresholdRows::Validation);
    let (by_all, report) = on(ThresholdRows::All);
    // Validation alone: more validation lines right, many training lines wrong. All rows:
    // the threshold serves the 220 lines better, and the scores are the same.
    let counts = |m| (right(m, &data, &val_rows), right(m, &data, &all));
    let ((val_v, val_all), (all_v, all_all)) = (counts(&by_val), counts(&by_all));
    assert!(
        val_v > all_v && all_all > val_all + 20,
        "{val_v} {val_all} {all_v} {all_all}"
    );
    assert!(by_all.threshold > by_val.threshold);
    assert_eq!(by_all.kind, by_val.kind);
    // The report gives that threshold, measured on the validation lines as before.
    assert_eq!(report.threshold, by_all.threshold);
    let val_right = right(&by_all, &data, &val_rows);
    assert!((report.validation.accuracy - val_right as f64 / 20.0).abs() < 1e-9);
    assert_eq!(
        by_all.provenance.params["threshold_rows"],
        serde_json::json!("all")
    );
    assert!(by_val.provenance.params.get("threshold_rows").is_none());
}

#[test]
fn a_saved_and_loaded_model_scores_bit_for_bit_the_same() {
    let data = load_separable();
    let dir = tempfile::tempdir().unwrap();
    for params in [
        TrainParams::new(ModelType::Logistic),
        small_mlp(),
        small_trees(),
    ] {
        let (model, _) = train(&data, &params, &mut |_| {}).unwrap();
        let path = dir.path().join(format!("{}.json", params.model));
        model.save(&path).unwrap();
        let loaded = Model::load(&path).unwrap();
        assert_eq!(loaded, model);
        let before = model.score_batch(data.x.view());
        let after = loaded.score_batch(data.x.view());
        for ((a, b), row) in before.iter().zip(&after).zip(data.x.outer_iter()) {
            assert_eq!(a.to_bits(), b.to_bits());
            // Row by row and in batches, the same arithmetic.
            assert_eq!(a.to_bits(), model.score(row.as_slice().unwrap()).to_bits());
        }
    }
}

#[test]
fn training_twice_with_one_seed_gives_identical_files() {
    let data = load_separable();
    for params in [
        TrainParams::new(ModelType::Logistic),
        small_mlp(),
        small_trees(),
    ] {
        let (a, _) = train(&data, &params, &mut |_| {}).unwrap();
        let (b, _) = train(&data, &params, &mut |_| {}).unwrap();
        assert_eq!(a.to_json(), b.to_json(), "{}", params.model);
    }
    let (a, _) = train(&data, &small_mlp().seed(1), &mut |_| {}).unwrap();
    let (b, _) = train(&data, &small_mlp().seed(2), &mut |_| {}).unwrap();
    assert_ne!(a.to_json(), b.to_json());
}

#[test]
fn the_model_file_records_how_it_was_made() {
    let data = load_separable();
    let params = small_mlp()
        .context(3)
        .recipe("training/mlp.sh")
        .data("data/train/separable.csv");
    let (model, report) = train(&data, &params, &mut |_| {}).unwrap();
    let json: serde_json::Value = serde_json::from_str(&model.to_json()).unwrap();
    assert_eq!(json["format"], 3);
    assert!(
        json.get("stack").is_none(),
        "a single-stage model has no second stage"
    );
    assert_eq!(json["context"], 3);
    assert_eq!(json["features"][0], "density");
    assert_eq!(json["provenance"]["recipe"], "training/mlp.sh");
    assert_eq!(json["provenance"]["data"], "data/train/separable.csv");
    assert_eq!(
        json["provenance"]["created_by"],
        format!("mainline {}", env!("CARGO_PKG_VERSION"))
    );
    assert_eq!(json["provenance"]["params"]["hidden"][0], 8);
    assert_eq!(
        json["provenance"]["validation"]["validation"]["f1"],
        report.validation.f1
    );
    assert_eq!(json["kind"]["type"], "mlp");
    assert_eq!(json["kind"]["layers"][1]["activation"], "sigmoid");
}

#[test]
fn a_csv_missing_a_wanted_column_names_it_and_the_header() {
    let wanted = vec!["density".to_string(), "link_density".to_string()];
    let err = read_labelled_csv(&separable(), Some(&wanted)).unwrap_err();
    let msg = err.to_string();
    assert!(msg.contains("separable.csv"), "{msg}");
    assert!(
        msg.contains("missing column \"link_density\"; the header has: doc, group, line, label"),
        "{msg}"
    );
}

#[test]
fn a_non_numeric_value_is_reported_with_row_column_and_value() {
    let dir = tempfile::tempdir().unwrap();
    let path = write(
        dir.path(),
        "bad.csv",
        "doc,group,line,label,density,ln_html_bytes\n\
         a,s,0,1,0.9,5\n\
         a,s,1,0,0.1,5\n\
         a,s,2,0,n/a,5\n",
    );
    assert_eq!(
        csv_message(&path),
        "row 3 (line 4), column \"density\": \"n/a\" is not a number"
    );
}

#[test]
fn an_empty_label_is_reported_with_its_row() {
    let dir = tempfile::tempdir().unwrap();
    let path = write(
        dir.path(),
        "unlabelled.csv",
        "doc,group,line,label,density\na,s,0,,0.5\n",
    );
    let msg = csv_message(&path);
    assert!(
        msg.starts_with("row 1 (line 2), column \"label\": empty label"),
        "{msg}"
    );
}

#[test]
fn single_class_data_cannot_be_trained() {
    let dir = tempfile::tempdir().unwrap();
    let mut text = String::from("doc,group,line,label,density\n");
    for i in 0..50 {
        text.push_str(&format!("p{},s{},{i},0,0.{}\n", i % 5, i % 5, i % 10));
    }
    let data = read_labelled_csv(&write(dir.path(), "one.csv", &text), None).unwrap();
    let err = train(&data, &TrainParams::default(), &mut |_| {}).unwrap_err();
    assert!(matches!(err, Error::Training(_)));
    assert!(
        err.to_string()
            .contains("only one class (all content/all boilerplate) in the training data"),
        "{err}"
    );
}

#[test]
fn a_model_is_bound_to_the_schema_or_names_what_is_missing() {
    let data = load_separable();
    let (model, _) = train(&data, &TrainParams::new(ModelType::Logistic), &mut |_| {}).unwrap();
    let columns = model
        .bind(&["text_bytes", "ln_text_bytes", "density", "ln_html_bytes"])
        .unwrap();
    assert_eq!(columns, [2, 3, 1]);
    let err = model.bind(&["density"]).unwrap_err();
    assert!(matches!(err, Error::FeatureMismatch(_)));
    let msg = err.to_string();
    assert!(msg.contains("2 of its 3 features"), "{msg}");
    assert!(
        msg.contains("\"ln_html_bytes\", \"ln_text_bytes\""),
        "{msg}"
    );
}

#[test]
fn a_model_file_of_another_version_is_refused_naming_the_file() {
    let data = load_separable();
    let (model, _) = train(&data, &TrainParams::new(ModelType::Logistic), &mut |_| {}).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let path = write(
        dir.path(),
        "future.json",
        &model
            .to_json()
            .replacen("\"format\": 3", "\"format\": 4", 1),
    );
    let err = Model::load(&path).unwrap_err();
    assert!(
        matches!(&err, Error::ModelFile { cause, .. } if matches!(**cause, Error::ModelVersion { expected: 3, found: 4 })),
        "{err:?}"
    );
    assert_eq!(
        err.to_string(),
        format!(
            "model file {}: model file has format version 4, this build reads versions 1 to 3",
            path.display()
        )
    );
}

/// Synthetic lines: `features` columns, content when a fixed mix of the first columns is
/// high, 1,000 groups.
fn synthetic(rows: usize, features: usize) -> Dataset {
    let mut state = 0x2545_f491_4f6c_dd1d_u64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state >> 40) as f32 / (1u64 << 24) as f32
    };
    let x = Array2::from_shape_simple_fn((rows, features), &mut next);
    let y = x
        .outer_iter()
        .map(|r| r[0] + 0.5 * r[1] - 0.3 * r[2] + 0.2 * (r[3] * 6.0).sin() > 0.6)
        .collect();
    Dataset {
        features: (0..features).map(|i| format!("f{i}")).collect(),
        x,
        y,
        groups: (0..rows)
            .map(|i| format!("g{}", i / (rows / 1000).max(1)))
            .collect(),
        docs: (0..rows).map(|i| format!("d{}", i / 300)).collect(),
    }
}

/// CPU time of this thread in seconds, on Linux (wall-clock time misleads on a busy
/// machine).
fn cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/thread-self/stat").ok()?;
    let fields: Vec<&str> = stat[stat.rfind(')')? + 2..].split(' ').collect();
    let ticks = fields.get(11)?.parse::<f64>().ok()? + fields.get(12)?.parse::<f64>().ok()?;
    Some(ticks / 100.0)
}

/// Wall-clock and CPU time since `start`.
fn since(start: (Instant, Option<f64>)) -> String {
    match (cpu_seconds(), start.1) {
        (Some(now), Some(then)) => {
            format!("{:.2?} wall, {:.2} s CPU", start.0.elapsed(), now - then)
        }
        _ => format!("{:.2?} wall", start.0.elapsed()),
    }
}

fn now() -> (Instant, Option<f64>) {
    (Instant::now(), cpu_seconds())
}

/// Timing on 400,000 × 80 synthetic rows. Not a pass/fail test; run in release:
/// `cargo test --release --test train -- --ignored --nocapture`.
#[test]
#[ignore = "timing; run in release with --ignored --nocapture"]
fn time_training_on_400k_rows_of_80_features() {
    let data = synthetic(400_000, 80);

    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("synthetic.csv");
    {
        use std::io::Write;
        let mut w = std::io::BufWriter::new(std::fs::File::create(&path).unwrap());
        write!(w, "doc,group,line,label").unwrap();
        for f in &data.features {
            write!(w, ",{f}").unwrap();
        }
        writeln!(w).unwrap();
        for (i, row) in data.x.outer_iter().enumerate() {
            write!(
                w,
                "{},{},{i},{}",
                data.docs[i],
                data.groups[i],
                u8::from(data.y[i])
            )
            .unwrap();
            for v in row {
                write!(w, ",{v}").unwrap();
            }
            writeln!(w).unwrap();
        }
    }
    let bytes = std::fs::metadata(&path).unwrap().len();
    let start = now();
    let read = read_labelled_csv(&path, None).unwrap();
    println!(
        "read {} rows × {} features ({:.0} MB): {}",
        read.len(),
        read.features.len(),
        bytes as f64 / 1e6,
        since(start)
    );
    assert_eq!(read.x, data.x);

    let start = now();
    let (logistic, report) =
        train(&data, &TrainParams::new(ModelType::Logistic), &mut |_| {}).unwrap();
    println!(
        "logistic: {}, val F1 {:.4}",
        since(start),
        report.validation.f1
    );

    let start = now();
    let mut epoch_start = now();
    let params = TrainParams::new(ModelType::Mlp).hidden(vec![32]);
    let (mlp, report) = train(&data, &params, &mut |e| {
        println!("  {e}  ({})", since(epoch_start));
        epoch_start = now();
    })
    .unwrap();
    println!(
        "mlp [32]: {} for {} epochs, val F1 {:.4}",
        since(start),
        report.epochs_run,
        report.validation.f1
    );

    for (name, model) in [("logistic", &logistic), ("mlp [32]", &mlp)] {
        let start = now();
        let scores = model.score_batch(data.x.view());
        println!("{name} scoring {} lines: {}", scores.len(), since(start));
    }
}

/// Lines of 30 sites (2 pages of 20 lines each) whose label density alone does not give:
/// a line is content when it is dense and short, or sparse and long (`density > 0.5` XOR
/// `ln_html_bytes > 5.5`), so any rule on one feature is right about half the time.
fn interaction_data() -> Dataset {
    let mut state = 20_240_601_u64;
    let mut uniform = move |lo: f32, hi: f32| {
        state = state
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        lo + (hi - lo) * ((state >> 40) as f32 / (1u64 << 24) as f32)
    };
    let n = 30 * 2 * 20;
    let mut x = Vec::with_capacity(n * 3);
    let mut y = Vec::with_capacity(n);
    for _ in 0..n {
        let density = uniform(0.0, 1.0);
        let html = uniform(3.0, 8.0);
        x.extend([density, html, (html.exp() * density).max(1.0).ln()]);
        y.push((density > 0.5) != (html > 5.5));
    }
    Dataset {
        features: vec![
            "density".into(),
            "ln_html_bytes".into(),
            "ln_text_bytes".into(),
        ],
        x: Array2::from_shape_vec((n, 3), x).unwrap(),
        y,
        groups: (0..n).map(|i| format!("site{}", i / 40)).collect(),
        docs: (0..n).map(|i| format!("page{}", i / 20)).collect(),
    }
}

#[test]
fn models_learn_what_density_alone_does_not_separate_and_hold_it_on_unseen_sites() {
    let data = interaction_data();
    // Sites 0–19 to train on, 20–24 to validate, 25–29 to test: none of the test sites'
    // lines is seen in training.
    let site = |i: usize| i / 40;
    let train_rows: Vec<usize> = (0..data.len()).filter(|&i| site(i) < 20).collect();
    let val_rows: Vec<usize> = (0..data.len())
        .filter(|&i| (20..25).contains(&site(i)))
        .collect();
    let test_rows: Vec<usize> = (0..data.len()).filter(|&i| site(i) >= 25).collect();
    let share = |right: usize| right as f64 / test_rows.len() as f64;
    // The fixed rule on density is right about half the time on the test sites.
    let by_density = test_rows
        .iter()
        .filter(|&&i| (data.x[[i, 0]] > 0.5) == data.y[i])
        .count();
    assert!(
        share(by_density) < 0.65,
        "density alone: {}",
        share(by_density)
    );
    let fit = |params: &TrainParams| {
        train_on_rows(&data, &train_rows, &val_rows, params, &mut |_| {})
            .unwrap()
            .0
    };
    let mlp = small_mlp().hidden(vec![16]).epochs(200).patience(30);
    let mlp = share(right(&fit(&mlp), &data, &test_rows));
    let trees = share(right(&fit(&small_trees()), &data, &test_rows));
    let logistic = share(right(
        &fit(&TrainParams::new(ModelType::Logistic)),
        &data,
        &test_rows,
    ));
    eprintln!("unseen sites: MLP {mlp:.3}, trees {trees:.3}, logistic {logistic:.3}");
    assert!(mlp >= 0.9, "MLP on unseen sites: {mlp}");
    assert!(trees >= 0.9, "trees on unseen sites: {trees}");
    // A linear model cannot draw this boundary: the test tells a learner from a line.
    assert!(logistic < 0.75, "logistic on unseen sites: {logistic}");
}
