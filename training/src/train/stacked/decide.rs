//! The decisions of a trained two-stage model on labelled rows, made as the streaming
//! extractor makes them: scores and thresholds ([`score_stacked`]), then the floor and
//! the rest of [`mainline::internals::second_stage::corrections::apply_corrections`] per page block ([`keep_stacked`]).

use super::super::Dataset;
use super::inputs::{StageInputs, page_blocks, stage1_scores, stage2_rows};
use mainline::internals::model::Model;
use mainline::internals::second_stage;

/// Keep/drop decisions of a two-stage `model` for `rows` of `data` (ascending, pages
/// contiguous), computed as the streaming extractor does (see [`keep_stacked`]).
#[cfg(test)]
pub fn decide_stacked(
    model: &Model,
    data: &Dataset,
    inputs: &StageInputs,
    rows: &[usize],
) -> Vec<bool> {
    let scored = score_stacked(model, data, inputs, rows);
    keep_stacked(model, data, inputs, rows, &scored)
}

/// The decisions from the scores and thresholds of [`score_stacked`]: a line is kept when
/// its score reaches its threshold, and with a page-level second stage the floor of
/// [`second_stage::corrections`], the empty-page fill of a page of one block and (with signatures) whole groups
/// are applied to each block of a page by [`second_stage::corrections::apply_corrections`], as in the extractor.
pub fn keep_stacked(
    model: &Model,
    data: &Dataset,
    inputs: &StageInputs,
    rows: &[usize],
    scored: &[(f32, f32)],
) -> Vec<bool> {
    let mut keep: Vec<bool> = scored.iter().map(|&(s, t)| s >= t).collect();
    if let Some(s2) = model.stack.as_ref().filter(|s2| s2.page) {
        // The texts kept on the page so far; the blocks of a page come in order.
        let mut seen = second_stage::corrections::RepeatedText::new();
        for block in page_blocks(data, inputs, rows) {
            if block.first {
                seen.clear();
            }
            let floor = if s2.first_stage_only(block.lines.len()) {
                second_stage::corrections::SHORT
            } else {
                second_stage::corrections::LONG
            };
            let scores: Vec<f32> = block.decided.clone().map(|i| scored[i].0).collect();
            let (bytes, body): (Vec<(u64, u64)>, Vec<u64>) = block
                .decided
                .clone()
                .map(|i| {
                    let (r, landmark) = (rows[i], inputs.landmark[rows[i]]);
                    let weight = inputs.weight[r];
                    (
                        second_stage::corrections::line_bytes(
                            weight,
                            inputs.link_density[r],
                            landmark,
                        ),
                        second_stage::corrections::body_bytes(weight, landmark),
                    )
                })
                .unzip();
            let groups: Option<Vec<u64>> = inputs
                .sigs
                .as_ref()
                .filter(|_| s2.repeats)
                .zip(inputs.paths.as_ref())
                .map(|(sigs, paths)| {
                    block
                        .decided
                        .clone()
                        .map(|i| {
                            second_stage::corrections::group_of(&sigs[rows[i]], &paths[rows[i]])
                        })
                        .collect()
                });
            let site_names: Option<Vec<bool>> =
                inputs.hints.as_ref().filter(|_| s2.hints).map(|hints| {
                    block
                        .decided
                        .clone()
                        .map(|i| second_stage::hints::site_name_line(&hints[rows[i]]))
                        .collect()
                });
            let cells: Option<Vec<second_stage::tables::Cell>> =
                inputs.paths.as_ref().map(|paths| {
                    block
                        .decided
                        .clone()
                        .map(|i| {
                            second_stage::tables::cell_of(inputs.place[rows[i]], &paths[rows[i]])
                        })
                        .collect()
                });
            let texts: Option<Vec<Option<second_stage::corrections::KeptText>>> =
                inputs.sigs.as_ref().filter(|_| s2.repeats).map(|sigs| {
                    block
                        .decided
                        .clone()
                        .map(|i| {
                            inputs.repeat[rows[i]]
                                .then(|| second_stage::corrections::KeptText::of(&sigs[rows[i]]))
                        })
                        .collect()
                });
            // One threshold decides a block: the second stage's, or the first stage's.
            let threshold = block.decided.clone().next().map_or(0.5, |i| scored[i].1);
            let lines = second_stage::corrections::BlockLines {
                scores: &scores,
                threshold,
                bytes: &bytes,
                body: &body,
                groups: groups.as_deref(),
                site_names: site_names.as_deref(),
                cells: cells.as_deref(),
                texts: texts.as_deref(),
            };
            second_stage::corrections::apply_corrections(
                floor,
                lines,
                block.whole,
                &mut seen,
                &mut keep[block.decided],
            );
        }
    }
    keep
}

/// The score that decides each of `rows` under a two-stage `model`, with the threshold it
/// is compared with (kept when score ≥ threshold): the second stage's, or the first
/// stage's for the lines of page blocks too short for the second stage.
pub fn score_stacked(
    model: &Model,
    data: &Dataset,
    inputs: &StageInputs,
    rows: &[usize],
) -> Vec<(f32, f32)> {
    let scores = stage1_scores(model, data, rows);
    let Some(s2) = &model.stack else {
        return scores.iter().map(|&s| (s, model.threshold)).collect();
    };
    let x2 = stage2_rows(
        data,
        inputs,
        rows,
        &scores,
        s2.lookahead,
        s2.page,
        (s2.repeats, s2.hints),
    );
    let mut row = Vec::with_capacity(x2.ncols());
    let mut decided: Vec<(f32, f32)> = (0..rows.len())
        .map(|i| {
            row.clear();
            row.extend(x2.row(i).iter().copied());
            (s2.score(&row), s2.threshold)
        })
        .collect();
    if s2.page {
        for block in page_blocks(data, inputs, rows) {
            if s2.first_stage_only(block.lines.len()) {
                for i in block.decided {
                    decided[i] = (scores[i], model.threshold);
                }
            }
        }
    }
    decided
}
