//! Second stages with page-level inputs: decisions do not depend on how the input is
//! chunked, the extractor holds at most one block of a page, a saved model scores exactly
//! like the one trained, and training on the small CSV of `data/train/` is deterministic.

use std::path::Path;
use std::sync::Arc;

use super::common::{
    assert_stacked_model_round_trips, decide_in, fragment, hand_made_two_stage, small_stack_params,
    train_csv,
};
use crate::train::{
    self, StackParams, StageInputs, TrainParams, decide_stacked, read_labelled_csv, read_paths,
};
use mainline::internals::extract::{Extractor, ModelScorer, Scorer};
use mainline::internals::model::Model;
use mainline::internals::second_stage::{self, page};
use proptest::prelude::*;

fn hand_made(lookahead: usize) -> Model {
    hand_made_two_stage(lookahead, true)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn chunking_never_changes_page_stage_decisions(
        parts in prop::collection::vec(fragment(), 0..120),
        lookahead in 0_usize..6,
    ) {
        // After a declared head, so that the pieces reach the tokenizer as written.
        let html = super::common::declared_head() + &parts.concat();
        let scorer: Arc<dyn Scorer> = Arc::new(ModelScorer::new(hand_made(lookahead)).unwrap());
        let whole = decide_in(html.as_bytes(), usize::MAX, Arc::clone(&scorer));
        for chunk in [1, 7, 64 << 10] {
            prop_assert_eq!(&decide_in(html.as_bytes(), chunk, Arc::clone(&scorer)), &whole);
        }
    }

    #[test]
    fn chunking_never_changes_the_page_hints_or_the_decisions_that_read_them(
        parts in prop::collection::vec(fragment(), 0..120),
        at in 0_usize..120,
        json_ld_in_body in any::<bool>(),
    ) {
        // A head that names the page's kind and title, the headline somewhere in the body,
        // and (sometimes) JSON-LD in the body, which only the lines after it could see.
        let head = super::common::declared_head_with(
            "<title>Cows in stripes | The Farm</title>\
             <meta property=og:type content=article>\
             <meta name=description content=\"Farmers paint their cows.\">",
        );
        let at = at.min(parts.len());
        let ld = if json_ld_in_body {
            r#"<script type="application/ld+json">{"@type": "ItemList"}</script>"#
        } else {
            ""
        };
        let html = format!(
            "{head}{}{ld}<h1>Cows in stripes</h1>{}",
            parts[..at].concat(),
            parts[at..].concat()
        );
        let model = super::common::hand_made_two_stage_hints(3, true, true, true);
        let scorer: Arc<dyn Scorer> = Arc::new(ModelScorer::new(model).unwrap());
        let whole = decide_in(html.as_bytes(), usize::MAX, Arc::clone(&scorer));
        let title = second_stage::hints::line_names().iter().position(|n| n == "title_line").unwrap();
        let article = second_stage::hints::line_names().iter().position(|n| n == "article").unwrap();
        let headline = whole.iter().find(|d| d.line.text == "Cows in stripes").unwrap();
        prop_assert_eq!(headline.hints.unwrap()[title], 1.0);
        prop_assert!(whole.iter().all(|d| d.hints.unwrap()[article] == 1.0));
        for chunk in [1, 7, 64 << 10] {
            prop_assert_eq!(&decide_in(html.as_bytes(), chunk, Arc::clone(&scorer)), &whole);
        }
    }
}

#[test]
fn a_page_stage_really_reads_the_whole_page() {
    // The same first line, followed by different pages, is decided differently: the
    // window of 2 lines alone could not tell.
    let scorer: Arc<dyn Scorer> = Arc::new(ModelScorer::new(hand_made(2)).unwrap());
    let first = "<p>The first paragraph of plain words.</p><p>x</p><p>y</p><p>z</p>";
    let tail_a = "<p>More plain text that reads like an article body.</p>".repeat(50);
    let tail_b = "<ul><li><a href=/a>a link</a></li></ul>".repeat(50);
    let score_of_first = |tail: &str| {
        let html = format!("{first}{tail}");
        decide_in(html.as_bytes(), usize::MAX, Arc::clone(&scorer))[0].score
    };
    assert_ne!(score_of_first(&tail_a), score_of_first(&tail_b));
}

#[test]
fn the_extractor_holds_at_most_one_block_of_a_long_page() {
    let context = 1;
    let mut model = hand_made(3);
    model.context = context;
    let scorer = Arc::new(ModelScorer::new(model).unwrap());
    let mut ex = Extractor::new(scorer);
    // A declared charset and a long head let lines flow at once.
    let head = format!("<meta charset=utf-8><!--{}-->", " ".repeat(1024));
    ex.write(head.as_bytes()).unwrap();
    let total = 3 * page::MAX_LINES + 100;
    let mut decided = 0;
    let mut most = 0;
    for i in 0..total {
        ex.write(format!("<p>line number {i} of a long page</p>").as_bytes())
            .unwrap();
        most = most.max(ex.buffered_lines());
        while let Some(d) = ex.next_decision() {
            assert_eq!(d.line.text, format!("line number {decided} of a long page"));
            decided += 1;
        }
    }
    assert!(
        most <= page::MAX_LINES + context + 1,
        "held {most} lines; a block has at most {}",
        page::MAX_LINES
    );
    // Every full block has been decided while the page was still arriving, but for the
    // lines it hands over to the next block.
    assert!(
        decided >= 3 * (page::MAX_LINES - page::OVERLAP_LINES),
        "{decided} lines decided"
    );
    assert_eq!(decided + ex.buffered_lines(), total);
    ex.end().unwrap();
    decided += std::iter::from_fn(|| ex.next_decision()).count();
    assert_eq!(decided, total);
    assert_eq!(ex.buffered_lines(), 0);
}

#[test]
fn a_block_also_ends_at_the_text_limit() {
    let scorer = Arc::new(ModelScorer::new(hand_made(1)).unwrap());
    let mut ex = Extractor::new(scorer);
    let head = format!("<meta charset=utf-8><!--{}-->", " ".repeat(1024));
    ex.write(head.as_bytes()).unwrap();
    // Lines of 64 KiB: a block of 4 MiB holds 64 of them.
    let line = format!("<p>{}</p>", "word ".repeat(13_108));
    let mut most = 0;
    let mut decided = 0;
    for _ in 0..200 {
        ex.write(line.as_bytes()).unwrap();
        most = most.max(ex.buffered_lines());
        decided += std::iter::from_fn(|| ex.next_decision()).count();
    }
    assert!(most <= 70, "held {most} lines of 64 KiB or more");
    assert!(decided >= 128, "{decided}");
}

fn paths_csv() -> std::path::PathBuf {
    train_csv("paths.csv")
}

/// The density column of `paths.csv` for the first stage, and the second stage's inputs
/// (density and text length, with the lines' paths).
fn paths_data() -> (train::Dataset, StageInputs) {
    let path = paths_csv();
    let data = read_labelled_csv(&path, Some(&["density".into()])).unwrap();
    let all = read_labelled_csv(&path, None).unwrap();
    let paths = read_paths(&path).unwrap().expect("the CSV has paths");
    let inputs = StageInputs::of(&all, &["density".into(), "ln_text_bytes".into()])
        .unwrap()
        .with_paths(paths)
        .unwrap();
    (data, inputs)
}

fn small_params() -> (TrainParams, StackParams) {
    small_stack_params(2, true)
}

#[test]
fn a_page_stage_trains_deterministically_and_survives_save_and_load() {
    let (data, inputs) = paths_data();
    let (params, stack_params) = small_params();
    let rows: Vec<usize> = (0..data.len()).collect();
    let (model, _) =
        train::train_stacked(&data, &inputs, &rows, &params, &stack_params, &mut |_| {}).unwrap();
    let s2 = model.stack.as_ref().expect("a second stage");
    assert!(s2.page);
    assert_eq!(model.format, 3);
    assert_eq!(model.provenance.params["stack"]["page"], true);

    // Pooling over the article element separates what density alone does not.
    let decided = decide_stacked(&model, &data, &inputs, &rows);
    let right = decided.iter().zip(&data.y).filter(|(a, b)| a == b).count();
    let by_density = data
        .x
        .column(0)
        .iter()
        .zip(&data.y)
        .filter(|(d, y)| (**d > 0.5) == **y)
        .count();
    assert!(
        right > by_density,
        "{right} right, density alone {by_density}"
    );

    assert_stacked_model_round_trips(
        &model,
        (&data, &inputs, &rows),
        (&params, &stack_params),
        &decided,
    );
}

#[test]
fn a_page_stage_without_paths_is_a_clear_training_error() {
    let path = paths_csv();
    let data = read_labelled_csv(&path, Some(&["density".into()])).unwrap();
    let all = read_labelled_csv(&path, None).unwrap();
    let inputs = StageInputs::of(&all, &["density".into(), "ln_text_bytes".into()]).unwrap();
    let (params, stack_params) = small_params();
    let rows: Vec<usize> = (0..data.len()).collect();
    let err = train::train_stacked(&data, &inputs, &rows, &params, &stack_params, &mut |_| {})
        .unwrap_err()
        .to_string();
    assert!(err.contains("\"path\" column"), "{err}");
    // An older CSV without the column reads as no paths.
    let old =
        Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/..")).join("data/train/separable.csv");
    assert_eq!(read_paths(&old).unwrap(), None);
}

#[test]
fn a_second_stage_that_cannot_take_site_weights_fails_before_training() {
    let (data, inputs) = paths_data();
    let (params, mut stack_params) = small_params();
    stack_params.model = crate::train::ModelType::Logistic;
    let rows: Vec<usize> = (0..data.len()).collect();
    let mut progress = Vec::new();
    let err = train::train_stacked(
        &data,
        &inputs,
        &rows,
        &params.site_lines(Some(10)),
        &stack_params,
        &mut |m| progress.push(m.to_string()),
    )
    .unwrap_err()
    .to_string();
    assert!(err.contains("learner = \"mlp\""), "{err}");
    assert!(progress.is_empty(), "trained before failing: {progress:?}");
}

#[test]
fn short_blocks_are_decided_by_the_first_stage_alone() {
    let mut gated = hand_made(2);
    gated.stack.as_mut().unwrap().min_block_lines = 10;
    let mut first_only = gated.clone();
    first_only.stack = None;
    let decide = |m: &Model, html: &str| {
        decide_in(
            html.as_bytes(),
            usize::MAX,
            Arc::new(ModelScorer::new(m.clone()).unwrap()),
        )
    };
    let short = "<p>Plain words of a short page.</p><ul><li><a href=/a>a</a></li></ul><p>More.</p>";
    assert_eq!(decide(&gated, short), decide(&first_only, short));
    let long = "<p>Plain words of a longer page.</p><ul><li><a href=/a>a</a></li></ul>".repeat(6);
    assert_eq!(decide(&gated, &long).len(), 12);
    assert_eq!(decide(&gated, &long), decide(&hand_made(2), &long));
    assert_ne!(decide(&gated, &long), decide(&first_only, &long));
}

/// A page of more than two blocks: paragraphs, with a list of links every few lines and
/// one sentence printed again and again in two structures (copies that
/// `drop_repeated_text` drops, in every block).
fn long_page() -> Vec<u8> {
    let mut html = String::from("<meta charset=utf-8><body>");
    for i in 0..9_000 {
        html.push_str(&match i % 7 {
            0 => format!("<ul><li><a href=/{i}>link {i}</a></li></ul>"),
            3 => format!("<p>{i}</p>"),
            5 => format!(
                "<div class=copy-{}><p>The same sentence of plain words, printed again.</p></div>",
                ["a", "b"][i / 7 % 2]
            ),
            _ => format!("<div><p>Paragraph {i} of a long page, in plain words.</p></div>"),
        });
    }
    html.into_bytes()
}

/// A data table whose first cells are prose and whose last cells are links: a second
/// stage that follows the first stage keeps the prose cells, and the whole tables of
/// `apply_corrections` keep every row whole.
fn table_page() -> Vec<u8> {
    let mut html = String::from("<meta charset=utf-8><body><p>A table of rows.</p><table>");
    for i in 0..12 {
        html.push_str(&format!(
            "<tr><td>Row {i} holds a long cell of plain words and no links.</td>\
             <td><a href=/{i}>{i}</a></td><td><a href=/more/{i}>more</a></td></tr>"
        ));
    }
    html.push_str("</table></body>");
    html.into_bytes()
}

#[test]
fn the_streaming_extractor_decides_like_training_does() {
    for (name, min_block_lines, repeats, hints) in [
        ("article.html", 0, false, false),
        ("table-layout.html", 0, false, false),
        ("entities.html", 0, false, false),
        ("article.html", 8, false, false),
        ("entities.html", 8, false, false),
        ("article.html", 0, true, false),
        ("table-layout.html", 0, true, false),
        ("entities.html", 8, true, false),
        ("long page", 0, false, false),
        ("long page", 0, true, false),
        ("article.html", 0, true, true),
        ("news-related.html", 0, true, true),
        ("entities.html", 8, false, true),
        ("long page", 0, true, true),
        ("news-cards.html", 0, true, true),
        ("news-more.html", 0, true, true),
        ("table page", 0, true, false),
    ] {
        let html = if name == "long page" {
            long_page()
        } else if name == "table page" {
            table_page()
        } else {
            std::fs::read(super::common::sample(name)).unwrap()
        };
        let mut model = super::common::hand_made_two_stage_hints(4, true, repeats, hints);
        model.stack.as_mut().unwrap().min_block_lines = min_block_lines;
        if (name == "long page" && repeats) || name == "table page" {
            // A second stage that follows the line's own first-stage score (its first
            // input), so that the copies of the long page's sentence are kept and the
            // rule that keeps a text once has copies to drop, and the table's prose cells
            // are kept and its link cells are not.
            let s2 = model.stack.as_mut().unwrap();
            let mut weights = vec![0.0; s2.features.len()];
            weights[0] = 10.0;
            s2.kind = mainline::internals::model::ModelKind::Logistic {
                weights,
                bias: -5.0,
            };
        }
        let scorer = Arc::new(ModelScorer::new(model.clone()).unwrap());
        let decisions = decide_in(&html, 4096, scorer);
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
        // The paths go through their CSV text, as in training.
        let paths = decisions
            .iter()
            .map(|d| second_stage::parse_path(&second_stage::format_path(&d.line.path)).unwrap())
            .collect();
        // And so do the signatures.
        let sigs = decisions
            .iter()
            .map(|d| {
                second_stage::parse_signature(&second_stage::format_signature(&page::signature(
                    &d.line,
                )))
            })
            .collect::<Option<Vec<_>>>()
            .unwrap();
        // And the page hints.
        let line_hints = decisions
            .iter()
            .map(|d| {
                second_stage::hints::parse_hints(&second_stage::hints::format_hints(
                    &d.hints.unwrap(),
                ))
            })
            .collect::<Option<Vec<_>>>()
            .unwrap();
        let inputs = StageInputs::of(&full, &["density".into(), "ln_text_bytes".into()])
            .unwrap()
            .with_paths(paths)
            .unwrap()
            .with_signatures(sigs)
            .unwrap()
            .with_hints(line_hints)
            .unwrap();
        let rows: Vec<usize> = (0..n).collect();
        let batch = decide_stacked(&model, &stage1, &inputs, &rows);
        let streamed: Vec<bool> = decisions.iter().map(|d| d.keep).collect();
        assert_eq!(
            streamed, batch,
            "{name}, blocks of at least {min_block_lines} lines, signatures {repeats}, hints {hints}"
        );
        if name == "table page" {
            // The link cells are kept with their rows.
            let links = decisions
                .iter()
                .filter(|d| d.line.text == "more")
                .map(|d| d.keep);
            assert!(links.clone().count() == 12 && links.clone().all(|k| k));
        }
        if name == "long page" && repeats {
            // The copies of the sentence alternate between two structures, the first in
            // `copy-a`: those in `copy-a` are kept, every one in `copy-b` is dropped as a
            // text kept before, in each block of the page.
            let copies: Vec<bool> = decisions
                .iter()
                .filter(|d| d.line.text.starts_with("The same sentence"))
                .map(|d| d.keep)
                .collect();
            assert!(copies.len() > 1000, "{}", copies.len());
            for (k, &kept) in copies.iter().enumerate() {
                assert_eq!(kept, k % 2 == 0, "copy {k}, hints {hints}");
            }
        }
        // The scores too, bit for bit.
        let s1 = train::stage1_scores(&model, &stage1, &rows);
        let x2 = train::stage2_rows(&stage1, &inputs, &rows, &s1, 4, true, (repeats, hints));
        let s2 = model.stack.as_ref().unwrap();
        if min_block_lines == 0 {
            for (d, r) in decisions.iter().zip(x2.outer_iter()) {
                assert_eq!(d.score.to_bits(), s2.score(r.as_slice().unwrap()).to_bits());
            }
        }
    }
}

#[test]
fn page_models_with_and_without_signature_inputs_read_their_own_rows() {
    let html = std::fs::read(super::common::sample("article.html")).unwrap();
    let old = hand_made(3);
    let new = super::common::hand_made_two_stage_with(3, true, true);
    let (s_old, s_new) = (old.stack.as_ref().unwrap(), new.stack.as_ref().unwrap());
    // A stage without the field reads the page inputs alone, as files written before it.
    assert!(!s_old.repeats);
    assert_eq!(
        s_old.features.len() + page::N_REPEAT_INPUTS,
        s_new.features.len()
    );
    assert!(!old.to_json().contains("repeats"));
    assert_eq!(Model::from_json(&old.to_json()).unwrap(), old);
    assert_eq!(Model::from_json(&new.to_json()).unwrap(), new);
    for m in [&old, &new] {
        let d = decide_in(&html, 512, Arc::new(ModelScorer::new(m.clone()).unwrap()));
        assert!(!d.is_empty());
    }
    // A file whose inputs do not match its flag is refused.
    let mut mixed = new.clone();
    mixed.stack.as_mut().unwrap().repeats = false;
    assert!(mixed.validate().is_err());
    let mut mixed = old.clone();
    mixed.stack.as_mut().unwrap().repeats = true;
    assert!(mixed.validate().is_err());
}

#[test]
fn page_models_with_and_without_hints_read_their_own_rows() {
    let html = std::fs::read(super::common::sample("news-related.html")).unwrap();
    let old = super::common::hand_made_two_stage_with(3, true, true);
    let new = super::common::hand_made_two_stage_hints(3, true, true, true);
    let (s_old, s_new) = (old.stack.as_ref().unwrap(), new.stack.as_ref().unwrap());
    // A stage without the field reads no hints, as files written before it.
    assert!(!s_old.hints);
    assert_eq!(
        s_old.features.len() + second_stage::hints::N_INPUTS,
        s_new.features.len()
    );
    assert!(!old.to_json().contains("\"hints\""));
    assert!(new.to_json().contains("\"hints\": true"));
    assert_eq!(Model::from_json(&new.to_json()).unwrap(), new);
    let d_old = decide_in(&html, 512, Arc::new(ModelScorer::new(old.clone()).unwrap()));
    let d_new = decide_in(&html, 512, Arc::new(ModelScorer::new(new.clone()).unwrap()));
    assert_eq!(d_old.len(), d_new.len());
    assert_ne!(
        d_old.iter().map(|d| d.score).collect::<Vec<_>>(),
        d_new.iter().map(|d| d.score).collect::<Vec<_>>()
    );
    // A file whose inputs do not match its flag is refused, and so are hints without the
    // page inputs.
    let mut mixed = new.clone();
    mixed.stack.as_mut().unwrap().hints = false;
    assert!(mixed.validate().is_err());
    let mut mixed = old.clone();
    mixed.stack.as_mut().unwrap().hints = true;
    assert!(mixed.validate().is_err());
    let mut flat = super::common::hand_made_two_stage(3, false);
    flat.stack.as_mut().unwrap().hints = true;
    assert!(flat.validate().is_err());
}

#[test]
fn a_stage_with_signature_inputs_needs_the_signatures() {
    let (data, inputs) = paths_data();
    let (params, mut stack_params) = small_params();
    stack_params.repeats = true;
    let rows: Vec<usize> = (0..data.len()).collect();
    let err = train::train_stacked(&data, &inputs, &rows, &params, &stack_params, &mut |_| {})
        .unwrap_err()
        .to_string();
    assert!(err.contains("\"sig\" column"), "{err}");
    assert_eq!(train::read_signatures(&paths_csv()).unwrap(), None);
}

/// A page stage trained on the paths data with `stack_params`, after a save and load, and
/// the width of its second stage's hidden layer.
fn trained_second_stage(stack_params: &StackParams) -> (Model, usize) {
    let (data, inputs) = paths_data();
    let (params, _) = small_params();
    let rows: Vec<usize> = (0..data.len()).collect();
    let (model, _) =
        train::train_stacked(&data, &inputs, &rows, &params, stack_params, &mut |_| {}).unwrap();
    let mainline::internals::model::ModelKind::Mlp { layers } = &model.stack.as_ref().unwrap().kind
    else {
        panic!("an MLP second stage")
    };
    let width = layers[0].outputs();
    let loaded = Model::from_json(&model.to_json()).unwrap();
    assert_eq!(loaded, model);
    (loaded, width)
}

/// The error of training a page stage on the paths data with `stack_params`.
fn refusal(stack_params: &StackParams) -> String {
    let (data, inputs) = paths_data();
    let (params, _) = small_params();
    let rows: Vec<usize> = (0..data.len()).collect();
    train::train_stacked(&data, &inputs, &rows, &params, stack_params, &mut |_| {})
        .unwrap_err()
        .to_string()
}

#[test]
fn an_ensemble_of_second_stages_ships_as_one_wider_mlp() {
    let (_, mut stack_params) = small_params();
    stack_params.ensemble = 2;
    let (model, width) = trained_second_stage(&stack_params);
    assert_eq!(width, 2 * stack_params.hidden[0]);
    assert_eq!(model.provenance.params["stack"]["ensemble"], 2);
    // Deeper second stages cannot be merged: refused before training.
    stack_params.hidden = vec![4, 4];
    let err = refusal(&stack_params);
    assert!(err.contains("one hidden layer"), "{err}");
}

#[test]
fn a_distilled_ensemble_ships_as_one_second_stage() {
    let (_, mut stack_params) = small_params();
    stack_params.ensemble = 3;
    stack_params.distill = true;
    let (model, width) = trained_second_stage(&stack_params);
    assert_eq!(width, stack_params.hidden[0]);
    assert_eq!(model.provenance.params["stack"]["distill"], true);
    let (data, inputs) = paths_data();
    let rows: Vec<usize> = (0..data.len()).collect();
    // The distilled stage imitates the ensemble it was distilled from (the same members,
    // averaged): it scores the rows as the ensemble does, within a few hundredths, and
    // makes nearly all the same decisions.
    let scores = |m: &Model| -> Vec<f32> {
        train::score_stacked(m, &data, &inputs, &rows)
            .into_iter()
            .map(|(score, _)| score)
            .collect()
    };
    let mut ensemble_params = stack_params.clone();
    ensemble_params.distill = false;
    let (ensemble, _) = trained_second_stage(&ensemble_params);
    let (a, b) = (scores(&model), scores(&ensemble));
    let gap = a.iter().zip(&b).map(|(x, y)| (x - y).abs()).sum::<f32>() / a.len() as f32;
    assert!(gap < 0.05, "mean score gap to the ensemble {gap}");
    let agree = decide_stacked(&model, &data, &inputs, &rows)
        .iter()
        .zip(decide_stacked(&ensemble, &data, &inputs, &rows))
        .filter(|(a, b)| **a == *b)
        .count();
    assert!(
        agree * 10 >= rows.len() * 9,
        "{agree} of {} decisions agree",
        rows.len()
    );
    // Nothing to distil from a single second stage: refused before training.
    stack_params.ensemble = 1;
    let err = refusal(&stack_params);
    assert!(err.contains("--stack-ensemble of 2"), "{err}");
}

/// Paragraphs of made-up prose: 20 to 60 common words each, the same for a given `seed`.
fn prose(paragraphs: usize, seed: u64) -> String {
    const WORDS: &[&str] = &[
        "the", "of", "and", "to", "in", "a", "is", "that", "for", "it", "as", "was", "with", "be",
        "by", "on", "not", "this", "are", "from", "at", "which", "but", "have", "they", "were",
        "there", "would", "their", "been", "when", "will", "more", "about", "into", "than", "only",
        "other", "some", "could", "time", "these", "first", "over", "after", "also", "many",
        "before", "through", "years", "where", "because", "people", "little", "world", "still",
        "work", "life", "under", "never", "great", "water", "house", "garden", "river", "morning",
        "village", "winter", "letters", "history",
    ];
    let mut state = seed;
    let mut next = move || {
        state = state
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (state >> 33) as usize
    };
    let mut html = String::new();
    for _ in 0..paragraphs {
        html.push_str("<p>");
        let n = 20 + next() % 41;
        for w in 0..n {
            if w > 0 {
                html.push(' ');
            }
            html.push_str(WORDS[next() % WORDS.len()]);
        }
        html.push_str(".</p>\n");
    }
    html
}

#[test]
fn the_built_in_model_keeps_a_long_page_of_prose_whole_across_its_blocks() {
    // More than two blocks of pure content: the lines on either side of each cut used to be
    // decided at the edge of their block and dropped.
    let n = 2 * page::MAX_LINES + 800;
    let html = format!(
        "<!doctype html><html><head><title>t</title></head><body><article>\n{}</article></body></html>\n",
        prose(n, 7)
    );
    let scorer = Arc::new(ModelScorer::builtin());
    let decisions = decide_in(html.as_bytes(), 64 << 10, scorer);
    assert_eq!(decisions.len(), n);
    let dropped: Vec<usize> = (0..n).filter(|&i| !decisions[i].keep).collect();
    assert!(dropped.is_empty(), "lines dropped: {dropped:?}");
}

/// The built-in model with a second-stage threshold of 1, which no score reaches: every page keeps
/// nothing, so what comes out is the floor's and the empty-page fill's.
fn dropping_everything() -> Arc<dyn Scorer> {
    let mut model = Model::from_json(include_str!("../../../models/default.json")).unwrap();
    model.stack.as_mut().expect("a two-stage model").threshold = 1.0;
    Arc::new(ModelScorer::new(model).unwrap())
}

/// The texts of the kept lines of `html`, read in pieces of `chunk` bytes.
fn kept(html: &str, chunk: usize, scorer: Arc<dyn Scorer>) -> Vec<String> {
    decide_in(html.as_bytes(), chunk, scorer)
        .into_iter()
        .filter(|d| d.keep)
        .map(|d| d.line.text)
        .collect()
}

#[test]
fn a_page_of_short_lines_dropped_whole_keeps_its_best_lines_outside_the_landmarks() {
    // A listing: no line is prose (names and prices, under 40 bytes), so the floor has
    // nothing to keep; the empty-page fill keeps the best scored lines outside the nav and footer.
    let products: String = (0..12)
        .map(|i| format!("<li><a href=/p/{i}><h3>Walnut side table no. {i}</h3></a><span>$ {i}9.00</span></li>\n"))
        .collect();
    let html = format!(
        "<html><body><nav><a href=/>Home</a> <a href=/sale>Sale</a></nav>\n<main><ul>\n{products}</ul></main>\n\
         <footer><a href=/privacy>Privacy</a> <a href=/terms>Terms of use and sale</a></footer></body></html>"
    );
    let scorer = dropping_everything();
    let whole = kept(&html, 1 << 20, scorer.clone());
    assert!(
        whole.iter().any(|t| t.contains("Walnut side table no. 3")),
        "{whole:?}"
    );
    assert!(
        whole
            .iter()
            .all(|t| !t.contains("Home") && !t.contains("Privacy")),
        "{whole:?}"
    );
    // The same in any pieces.
    assert_eq!(kept(&html, 7, scorer.clone()), whole);
    // Menus and a footer alone, and a page with too little text outside them, stay empty.
    let menus = "<nav><a href=/>Home</a> <a href=/a>About us and our shops</a></nav>\n\
                 <footer>Privacy. Terms of use and sale. © 2026 Shop Ltd, all rights reserved.</footer>";
    assert!(kept(menus, 1 << 20, scorer.clone()).is_empty());
    let little = "<nav><a href=/>Home</a></nav><p>Loading…</p><footer>© 2026 Shop Ltd</footer>";
    assert!(kept(little, 1 << 20, scorer).is_empty());
}

#[test]
fn a_page_longer_than_a_block_is_not_rescued() {
    // Each block of a long page may rightly keep nothing: the empty-page fill reads whole pages.
    let n = page::MAX_LINES + 200;
    let html: String = (0..n)
        .map(|i| format!("<div><a href=/p/{i}>Item {i}</a></div>\n"))
        .collect();
    assert!(kept(&html, 1 << 20, dropping_everything()).is_empty());
}

#[test]
fn lines_that_only_name_the_site_are_never_kept() {
    // The built-in model keeping every line, on a page whose head names its site: the
    // masthead and the footer's name go, the headline and a sentence naming the site stay.
    let mut model = Model::from_json(include_str!("../../../models/default.json")).unwrap();
    model.stack.as_mut().expect("a two-stage model").threshold = 0.0;
    let scorer: Arc<dyn Scorer> = Arc::new(ModelScorer::new(model).unwrap());
    let page = |site: &str| {
        format!(
            "<html><head><title>Gulls return to the harbour | Harbour Gazette</title>{site}</head>\n\
             <body><header><div class=logo>HARBOUR GAZETTE</div></header>\n\
             <article><h1>Gulls return to the harbour</h1>\n\
             <p>Harbour Gazette reporters counted four hundred gulls on the breakwater.</p></article>\n\
             <footer><p>Harbour Gazette</p></footer></body></html>"
        )
    };
    let named = page("<meta property=og:site_name content='Harbour Gazette'>");
    let whole = kept(&named, 1 << 20, scorer.clone());
    assert_eq!(
        whole,
        [
            "Gulls return to the harbour",
            "Harbour Gazette reporters counted four hundred gulls on the breakwater."
        ]
    );
    assert_eq!(kept(&named, 7, scorer.clone()), whole);
    // A head that does not name the site leaves them to the model.
    let unnamed = kept(&page(""), 1 << 20, scorer);
    assert_eq!(unnamed.len(), 4, "{unnamed:?}");
}
