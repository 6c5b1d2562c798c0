//! Two-stage models: a per-line model, then a second stage on the window of first-stage
//! scores. Decisions do not depend on how the input is chunked, the extractor holds a
//! bounded number of lines, a saved model decides exactly like the one trained, and
//! training works on the small CSV of `data/train/`.

use std::path::Path;
use std::sync::Arc;

use super::common::{
    assert_stacked_model_round_trips, decide_in, fragment, hand_made_two_stage, small_stack_params,
    train_csv,
};
use crate::train::{
    self, StackParams, StageInputs, ThresholdObjective, ThresholdRows, TrainParams, decide_stacked,
    read_labelled_csv,
};
use mainline::internals::extract::{Extractor, ModelScorer, Scorer};
use mainline::internals::model::Model;
use proptest::prelude::*;

fn hand_made(lookahead: usize) -> Model {
    hand_made_two_stage(lookahead, false)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn chunking_never_changes_two_stage_decisions(
        parts in prop::collection::vec(fragment(), 0..120),
        lookahead in 0_usize..6,
    ) {
        // After a declared head, so that the pieces reach the tokenizer as written.
        let html = super::common::declared_head() + &parts.concat();
        let scorer: Arc<dyn Scorer> = Arc::new(ModelScorer::new(hand_made(lookahead)).unwrap());
        let whole = decide_in(html.as_bytes(), usize::MAX, Arc::clone(&scorer));
        for chunk in [1, 7, 64] {
            prop_assert_eq!(&decide_in(html.as_bytes(), chunk, Arc::clone(&scorer)), &whole);
        }
    }
}

#[test]
fn the_extractor_holds_at_most_the_context_and_the_lookahead() {
    let (context, lookahead) = (1, 5);
    let mut model = hand_made(lookahead);
    model.context = context;
    let scorer = Arc::new(ModelScorer::new(model).unwrap());
    let mut ex = Extractor::new(scorer);
    // A declared charset and a long head let lines flow at once.
    let head = format!("<meta charset=utf-8><!--{}-->", " ".repeat(1024));
    ex.write(head.as_bytes()).unwrap();
    let mut decided = 0;
    let mut most = 0;
    for i in 0..5000 {
        ex.write(format!("<p>line number {i} of a long page</p>").as_bytes())
            .unwrap();
        most = most.max(ex.buffered_lines());
        while let Some(d) = ex.next_decision() {
            assert_eq!(d.line.text, format!("line number {decided} of a long page"));
            decided += 1;
        }
    }
    assert!(
        most <= context + 1 + lookahead + 1,
        "held {most} lines for context {context} and lookahead {lookahead}"
    );
    // Every line but the last few has been decided while the page was still arriving.
    assert!(decided >= 5000 - (context + lookahead + 2), "{decided}");
    ex.end().unwrap();
    decided += std::iter::from_fn(|| ex.next_decision()).count();
    assert_eq!(decided, 5000);
    assert_eq!(ex.buffered_lines(), 0);
}

fn separable() -> std::path::PathBuf {
    train_csv("separable.csv")
}

fn small_params() -> (TrainParams, StackParams) {
    small_stack_params(3, false)
}

#[test]
fn a_two_stage_model_trains_on_the_small_csv_and_survives_save_and_load() {
    let data = read_labelled_csv(&separable(), None).unwrap();
    let inputs = StageInputs::of(&data, &["density".into(), "ln_text_bytes".into()]).unwrap();
    let (params, stack_params) = small_params();
    let rows: Vec<usize> = (0..data.len()).collect();
    let (model, _) =
        train::train_stacked(&data, &inputs, &rows, &params, &stack_params, &mut |_| {}).unwrap();
    let s2 = model.stack.as_ref().expect("a second stage");
    assert_eq!(s2.lookahead, 3);
    assert_eq!(model.format, 3);
    assert_eq!(model.provenance.params["stack"]["lookahead"], 3);
    assert!(model.provenance.validation["stage2"]["validation"]["accuracy"].is_number());

    let decided = decide_stacked(&model, &data, &inputs, &rows);
    let right = decided.iter().zip(&data.y).filter(|(a, b)| a == b).count();
    assert!(right as f64 / data.len() as f64 > 0.9, "{right} right");

    // Scores, not only decisions, are identical to the bit.
    assert_stacked_model_round_trips(
        &model,
        (&data, &inputs, &rows),
        (&params, &stack_params),
        &decided,
    );
}

#[test]
fn the_second_stage_can_choose_its_threshold_on_all_its_rows() {
    let data = read_labelled_csv(&separable(), None).unwrap();
    let inputs = StageInputs::of(&data, &["density".into(), "ln_text_bytes".into()]).unwrap();
    let (params, mut stack_params) = small_params();
    let rows: Vec<usize> = (0..data.len()).collect();
    let train = |sp: &StackParams| {
        train::train_stacked(&data, &inputs, &rows, &params, sp, &mut |_| {})
            .unwrap()
            .0
    };
    let by_validation = train(&stack_params);
    stack_params.threshold_rows = ThresholdRows::All;
    let by_all = train(&stack_params);
    // Only the second stage's threshold may move; the weights and the first stage stay.
    let (a, b) = (
        by_all.stack.as_ref().unwrap(),
        by_validation.stack.as_ref().unwrap(),
    );
    assert_eq!((&a.kind, &a.scaler), (&b.kind, &b.scaler));
    assert_eq!(by_all.threshold, by_validation.threshold);
    assert_eq!(by_all.kind, by_validation.kind);
    let p = &by_all.provenance.params;
    assert_eq!(p["stack"]["threshold_rows"], "all");
    assert!(p.get("threshold_rows").is_none(), "the first stage's: {p}");
    assert!(
        by_validation.provenance.params["stack"]
            .get("threshold_rows")
            .is_none()
    );
    // On these separable lines it still decides nearly all of them right.
    let decided = decide_stacked(&by_all, &data, &inputs, &rows);
    let right = decided.iter().zip(&data.y).filter(|(a, b)| a == b).count();
    assert!(right as f64 / data.len() as f64 > 0.9, "{right} right");
}

#[test]
fn the_second_stage_can_choose_its_threshold_for_another_objective() {
    // Every second line labelled content: no threshold separates them, and the one with
    // the best F1 keeps more lines than the one with the fewest errors.
    let mut data = read_labelled_csv(&separable(), None).unwrap();
    for (i, y) in data.y.iter_mut().enumerate() {
        *y |= i % 2 == 0;
    }
    let inputs = StageInputs::of(&data, &["density".into(), "ln_text_bytes".into()]).unwrap();
    let (params, mut stack_params) = small_params();
    let rows: Vec<usize> = (0..data.len()).collect();
    let train = |p: &TrainParams, sp: &StackParams| {
        train::train_stacked(&data, &inputs, &rows, p, sp, &mut |_| {})
            .unwrap()
            .0
    };
    let for_f1 = train(&params, &stack_params);
    let accuracy = params
        .clone()
        .threshold_objective(ThresholdObjective::Accuracy);
    let for_accuracy = train(&accuracy, &stack_params);
    stack_params.threshold_objective = Some(ThresholdObjective::Accuracy);
    let mixed = train(&params, &stack_params);
    let s2 = |m: &Model| {
        let s = m.stack.as_ref().unwrap();
        (s.threshold, s.kind.clone())
    };
    // The objectives disagree on these lines, or the test could not tell them apart.
    assert_ne!(s2(&for_f1).0, s2(&for_accuracy).0);
    // The first stage follows the first objective, the second stage its own; the weights
    // are the same throughout.
    assert_eq!(mixed.threshold, for_f1.threshold);
    assert_eq!(mixed.kind, for_f1.kind);
    assert_eq!(s2(&mixed), s2(&for_accuracy));
    let p = &mixed.provenance.params;
    assert_eq!(p["stack"]["threshold_objective"], "accuracy");
    assert_eq!(p["threshold_objective"], "f1");
    assert!(
        for_f1.provenance.params["stack"]
            .get("threshold_objective")
            .is_none()
    );
}

#[test]
fn the_streaming_extractor_decides_like_training_does() {
    // Lines of a page through the extractor, and the same lines' feature rows through the
    // batch path used by training and cross-validation, give the same decisions.
    let html = std::fs::read(
        Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/..")).join("data/samples/article.html"),
    )
    .unwrap();
    let model = hand_made(4);
    let scorer = Arc::new(ModelScorer::new(model.clone()).unwrap());
    let decisions = decide_in(&html, 4096, scorer);
    assert!(decisions.len() > 10);
    let names = mainline::internals::features::names();
    let n = decisions.len();
    let mut x = ndarray::Array2::zeros((n, names.len()));
    for (i, d) in decisions.iter().enumerate() {
        x.row_mut(i)
            .assign(&ndarray::ArrayView1::from(d.features.as_ref().unwrap()));
    }
    let full = train::Dataset {
        features: names.to_vec(),
        x,
        y: vec![false; n],
        groups: vec!["g".into(); n],
        docs: vec!["d".into(); n],
    };
    let cols: Vec<usize> = model
        .features
        .iter()
        .map(|f| full.feature_index(f).unwrap())
        .collect();
    let stage1 = train::Dataset {
        features: model.features.clone(),
        x: full.x.select(ndarray::Axis(1), &cols),
        ..full.clone()
    };
    let inputs = StageInputs::of(&full, &["density".into(), "ln_text_bytes".into()]).unwrap();
    let rows: Vec<usize> = (0..n).collect();
    let batch = decide_stacked(&model, &stage1, &inputs, &rows);
    let streamed: Vec<bool> = decisions.iter().map(|d| d.keep).collect();
    assert_eq!(streamed, batch);
}

#[test]
fn a_second_stage_in_a_format_1_file_or_with_unknown_inputs_is_refused() {
    let model = hand_made(2);
    let json = model
        .to_json()
        .replacen("\"format\": 3", "\"format\": 1", 1);
    let err = Model::from_json(&json).unwrap_err().to_string();
    assert!(err.contains("needs model format 2"), "{err}");

    let mut bad = hand_made(2);
    bad.stack.as_mut().unwrap().features[1] = "prev9_score".into();
    let err = Model::from_json(&bad.to_json()).unwrap_err().to_string();
    assert!(err.contains("second stage"), "{err}");

    let mut bad = hand_made(2);
    let s2 = bad.stack.as_mut().unwrap();
    let last = s2.features.len() - 1;
    s2.features[last] = "line_no_such_feature".into();
    let bad = Model::from_json(&bad.to_json()).unwrap();
    let err = ModelScorer::new(bad).unwrap_err().to_string();
    assert!(err.contains("no_such_feature"), "{err}");
}

/// The small CSV's pages, then each page once more as a variant (`label --augment`): same
/// site, its density halved and every third line's label flipped, so that the best
/// thresholds and weights over all the rows are not those over the pages as written.
/// Returns the rows and the number of rows as written (the first ones).
fn with_variant_rows() -> (train::Dataset, usize) {
    let data = read_labelled_csv(&separable(), None).unwrap();
    let n = data.len();
    let density = data.feature_index("density").unwrap();
    let mut x = ndarray::concatenate(ndarray::Axis(0), &[data.x.view(), data.x.view()]).unwrap();
    for r in n..2 * n {
        x[[r, density]] *= 0.5;
    }
    let variant_doc = |d: &String| train::variant_doc(d, train::Variant::Plain);
    let data = train::Dataset {
        features: data.features.clone(),
        x,
        y: data
            .y
            .iter()
            .copied()
            .chain(data.y.iter().enumerate().map(|(i, &y)| y != (i % 3 == 0)))
            .collect(),
        groups: data.groups.iter().chain(&data.groups).cloned().collect(),
        docs: data
            .docs
            .iter()
            .cloned()
            .chain(data.docs.iter().map(variant_doc))
            .collect(),
    };
    (data, n)
}

#[test]
fn rows_of_page_variants_train_the_weights_but_not_the_thresholds() {
    let (data, n) = with_variant_rows();
    let unmarked = StageInputs::of(&data, &["density".into(), "ln_text_bytes".into()]).unwrap();
    let marks: Vec<bool> = (0..2 * n).map(|r| r >= n).collect();
    let marked = unmarked.clone().with_variants(marks).unwrap();
    let (params, stack_params) = small_params();
    let rows: Vec<usize> = (0..2 * n).collect();
    let train = |inputs: &StageInputs| {
        train::train_stacked(&data, inputs, &rows, &params, &stack_params, &mut |_| {})
            .unwrap()
            .0
    };
    let (by_all, as_written) = (train(&unmarked), train(&marked));
    // The same weights; the thresholds chosen on the validation rows as written alone.
    let (a, b) = (
        by_all.stack.as_ref().unwrap(),
        as_written.stack.as_ref().unwrap(),
    );
    assert_eq!((&a.kind, &a.scaler), (&b.kind, &b.scaler));
    assert_eq!(by_all.kind, as_written.kind);
    assert_ne!(
        (by_all.threshold, a.threshold),
        (as_written.threshold, b.threshold)
    );
    let (_, val) = train::group_split(&data.groups, params.val_fraction, params.seed);
    let val: Vec<usize> = val.into_iter().filter(|&r| r < n).collect();
    let scores = train::stage1_scores(&as_written, &data, &val);
    let y: Vec<bool> = val.iter().map(|&r| data.y[r]).collect();
    let f1 = |t: f32| train::LineMetrics::new(scores.iter().map(|&s| s >= t), &y).f1;
    let best = (5..=95).map(|k| f1(k as f32 / 100.0)).fold(0.0, f64::max);
    assert_eq!(f1(as_written.threshold), best);
    let v = &as_written.provenance.validation;
    assert_eq!(v["validation"]["lines"], val.len());
    assert_eq!(
        v["threshold"].as_f64(),
        Some(f64::from(as_written.threshold))
    );
    assert_eq!(v["stage2"]["validation"]["lines"], val.len());
    // Marks on no row change nothing.
    let none = unmarked.clone().with_variants(vec![false; 2 * n]).unwrap();
    assert_eq!(train(&none).to_json(), by_all.to_json());
}

#[test]
fn rows_of_page_variants_can_train_the_second_stage_alone() {
    let (data, n) = with_variant_rows();
    let names = ["density".into(), "ln_text_bytes".into()];
    let unmarked = StageInputs::of(&data, &names).unwrap();
    let marked = unmarked
        .clone()
        .with_variants((0..2 * n).map(|r| r >= n).collect())
        .unwrap();
    let (params, mut second_only) = small_params();
    second_only.augment_stages = train::AugmentStages::Second;
    let train = |inputs: &StageInputs, rows: &[usize], stack_params: &StackParams| {
        train::train_stacked(&data, inputs, rows, &params, stack_params, &mut |_| {})
            .unwrap()
            .0
    };
    let all: Vec<usize> = (0..2 * n).collect();
    let as_written: Vec<usize> = (0..n).collect();
    let without = train(&unmarked, &as_written, &second_only);
    let second = train(&marked, &all, &second_only);
    // The first stage, weights and threshold, is the one trained without the variant rows.
    assert_eq!(
        (&second.kind, &second.scaler, second.threshold),
        (&without.kind, &without.scaler, without.threshold)
    );
    assert_eq!(
        second.provenance.validation["validation"],
        without.provenance.validation["validation"]
    );
    // The second stage trains on the variant rows too.
    let (a, b) = (
        second.stack.as_ref().unwrap(),
        without.stack.as_ref().unwrap(),
    );
    assert_ne!(a.kind, b.kind);
    assert_eq!(
        second.provenance.params["stack"]["augment_stages"],
        "second"
    );
    // Both stages: the first stage's weights move too.
    let (_, both_params) = small_params();
    let both = train(&marked, &all, &both_params);
    assert_ne!(both.kind, without.kind);
    assert!(
        both.provenance.params["stack"]
            .get("augment_stages")
            .is_none()
    );
    // Without variant rows the field changes nothing but its record.
    let (_, both_params) = small_params();
    let mut unrecorded = without.clone();
    let stack = unrecorded.provenance.params["stack"]
        .as_object_mut()
        .unwrap();
    assert!(stack.remove("augment_stages").is_some());
    assert_eq!(
        train(&unmarked, &as_written, &both_params).to_json(),
        unrecorded.to_json()
    );
}
