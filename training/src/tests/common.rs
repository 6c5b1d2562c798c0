//! Helpers of the tests in this folder: sample paths, scratch directories, decisions of a
//! page fed in pieces, hand-made two-stage models and page fragments.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use proptest::prelude::*;

use crate::model::ModelExt;
use crate::train::{
    self, Dataset, ModelType, StackParams, StageInputs, TrainParams, decide_stacked,
};
use mainline::internals::extract::{Decision, Extractor, Scorer};
use mainline::internals::model::{Model, ModelKind, Scaler, Stage2};
use mainline::internals::second_stage;

/// A sample page under `data/samples/`.
pub fn sample(name: &str) -> PathBuf {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
        .join("data/samples")
        .join(name)
}

/// A scratch directory removed when dropped.
pub fn scratch() -> tempfile::TempDir {
    tempfile::tempdir().expect("a temporary directory")
}

/// A KiB-long head that declares UTF-8. The splitter holds input back until it knows the
/// encoding (a BOM, a `<meta charset>` once the first KiB has arrived, else 64 KiB), so a
/// short page without one reaches the tokenizer in one piece however it is written; after
/// this head, every piece reaches it as written.
pub fn declared_head() -> String {
    declared_head_with("")
}

/// [`declared_head`] with `extra` (a `<title>`, `<meta>` tags, …) before its comment.
pub fn declared_head_with(extra: &str) -> String {
    let head = format!("<!doctype html><meta charset=\"utf-8\">{extra}<!--");
    format!(
        "{head}{}-->",
        "x".repeat(1024usize.saturating_sub(head.len()))
    )
}

/// The decisions (with feature rows) of `scorer` for `html` written in pieces of `chunk`
/// bytes, taking each decision as soon as the extractor gives it.
pub fn decide_in(html: &[u8], chunk: usize, scorer: Arc<dyn Scorer>) -> Vec<Decision> {
    let mut ex = Extractor::new(scorer).with_features(true);
    let mut out = Vec::new();
    for piece in html.chunks(chunk) {
        ex.write(piece).unwrap();
        out.extend(std::iter::from_fn(|| ex.next_decision()));
    }
    ex.end().unwrap();
    out.extend(std::iter::from_fn(|| ex.next_decision()));
    out
}

/// A two-stage model by hand: density (minus link density) first, then a logistic second
/// stage with weights on every input, so that a wrong window or page aggregate changes the
/// decisions. `page` selects the page-level inputs.
pub fn hand_made_two_stage(lookahead: usize, page: bool) -> Model {
    hand_made_two_stage_with(lookahead, page, false)
}

/// [`hand_made_two_stage`]; with `page` and `repeats`, the stage also reads the inputs of
/// the lines' signatures.
pub fn hand_made_two_stage_with(lookahead: usize, page: bool, repeats: bool) -> Model {
    hand_made_two_stage_hints(lookahead, page, repeats, false)
}

/// [`hand_made_two_stage_with`]; with `page` and `hints`, the stage also reads the page
/// hints.
pub fn hand_made_two_stage_hints(
    lookahead: usize,
    page: bool,
    repeats: bool,
    hints: bool,
) -> Model {
    let mut m = Model::new(
        vec!["density".into(), "link_density".into()],
        Scaler::identity(2),
        ModelKind::Logistic {
            weights: vec![6.0, -3.0],
            bias: -2.5,
        },
    );
    let base = ["density", "ln_text_bytes"];
    let features = if page {
        second_stage::page_input_names(lookahead, repeats, hints, &base)
    } else {
        second_stage::input_names(lookahead, &base)
    };
    let n = features.len();
    let weights = (0..n).map(|i| ((i * 7 % 11) as f32 - 5.0) / 5.0).collect();
    m.stack = Some(Box::new(Stage2 {
        lookahead,
        page,
        min_block_lines: 0,
        repeats: page && repeats,
        hints: page && hints,
        features,
        threshold: 0.5,
        scaler: Scaler::identity(n),
        kind: ModelKind::Logistic { weights, bias: 0.1 },
    }));
    m.validate().unwrap();
    m
}

/// Checks that a two-stage `model`, trained with `params` and `stack` on `rows` of `data`
/// and deciding them as `decided`, survives a save and a load unchanged: the same model,
/// second-stage scores identical to the bit, the same decisions; and that training again
/// with the same settings (and seed) gives the same file.
pub fn assert_stacked_model_round_trips(
    model: &Model,
    (data, inputs, rows): (&Dataset, &StageInputs, &[usize]),
    (params, stack): (&TrainParams, &StackParams),
    decided: &[bool],
) {
    let dir = scratch();
    let path = dir.path().join("two-stage.json");
    model.save(&path).unwrap();
    let loaded = Model::load(&path).unwrap();
    assert_eq!(&loaded, model);
    let scores = |m: &Model| {
        let s1 = train::stage1_scores(m, data, rows);
        let x2 = train::stage2_rows(
            data,
            inputs,
            rows,
            &s1,
            stack.lookahead,
            stack.page,
            (stack.repeats, stack.hints),
        );
        let s2 = m.stack.as_ref().unwrap();
        x2.outer_iter()
            .map(|r| s2.score(r.as_slice().unwrap()).to_bits())
            .collect::<Vec<u32>>()
    };
    assert_eq!(scores(&loaded), scores(model));
    assert_eq!(decide_stacked(&loaded, data, inputs, rows), decided);

    let (again, _) = train::train_stacked(data, inputs, rows, params, stack, &mut |_| {}).unwrap();
    assert_eq!(again.to_json(), model.to_json());
}

/// Pieces of pages for property tests: paragraphs, content and navigation containers,
/// links, line breaks and runs of text.
pub fn fragment() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("<p>".to_string()),
        Just("</p>".to_string()),
        Just("<div class=\"post-content\">".to_string()),
        Just("</div>".to_string()),
        Just("<li><a href=\"/x\">link</a></li>".to_string()),
        Just("<nav><ul>".to_string()),
        Just("</ul></nav>".to_string()),
        Just("<article>".to_string()),
        Just("</article>".to_string()),
        Just("<br>".to_string()),
        "[a-zA-Z .,]{1,40}",
    ]
}

/// A labelled CSV under `data/train/`.
pub fn train_csv(name: &str) -> PathBuf {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
        .join("data/train")
        .join(name)
}

/// Small, quick training settings for two-stage models: an 8-unit first stage, a 4-unit
/// second stage over `lookahead` lines on each side (with page-level inputs if `page`).
pub fn small_stack_params(lookahead: usize, page: bool) -> (TrainParams, StackParams) {
    let params = TrainParams::new(ModelType::Mlp)
        .hidden(vec![8])
        .batch_size(32)
        .learning_rate(0.01)
        .epochs(30)
        .patience(5);
    let stack = StackParams {
        lookahead,
        inner_folds: 3,
        model: ModelType::Mlp,
        hidden: vec![4],
        base: vec!["density".into(), "ln_text_bytes".into()],
        page,
        min_block_lines: 0,
        repeats: false,
        hints: false,
        ensemble: 1,
        distill: false,
        threshold_rows: crate::train::ThresholdRows::Validation,
        threshold_objective: None,
        augment_stages: crate::train::AugmentStages::Both,
        word_weight: 0.0,
    };
    (params, stack)
}
