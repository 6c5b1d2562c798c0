//! The inputs of the second stage in training: the copied first-stage features of each
//! row ([`StageInputs`]), the pages and page blocks of a set of rows, the first stage's
//! scores and the second stage's rows built from them as the extractor builds them.

use ndarray::Array2;

use super::super::Dataset;
use mainline::internals::lines::PATH_LEVELS;
use mainline::internals::model::Model;
use mainline::internals::second_stage::{self, Window};
use mainline::{Error, Result};

/// Pages of `rows` (ascending row indices): runs of consecutive rows of one document.
pub(super) fn pages(data: &Dataset, rows: &[usize]) -> Vec<std::ops::Range<usize>> {
    let mut out = Vec::new();
    let mut start = 0;
    for i in 1..=rows.len() {
        if i == rows.len()
            || rows[i] != rows[i - 1] + 1
            || data.docs[rows[i]] != data.docs[rows[i - 1]]
        {
            if start < i {
                out.push(start..i);
            }
            start = i;
        }
    }
    out
}

/// One block of a page for a page-level second stage: its lines and the lines it decides,
/// as ranges of positions in `rows`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct PageBlock {
    pub(super) lines: std::ops::Range<usize>,
    pub(super) decided: std::ops::Range<usize>,
    /// Whether the block holds its whole page (the page fits in one block).
    pub(super) whole: bool,
    /// Whether the block is its page's first.
    pub(super) first: bool,
}

/// The blocks that the pages of `rows` are cut into for a page-level second stage, in the
/// places the extractor cuts them, overlapping as it does ([`second_stage::page::Blocks`],
/// [`second_stage::page::handover`]).
pub(super) fn page_blocks(data: &Dataset, inputs: &StageInputs, rows: &[usize]) -> Vec<PageBlock> {
    let mut out = Vec::new();
    for range in pages(data, rows) {
        let mut blocks = second_stage::page::Blocks::new();
        let (mut start, mut context) = (range.start, 0);
        for i in range.clone() {
            if blocks.push(inputs.weight[rows[i]]) {
                let weights: Vec<f32> = (start..=i).map(|j| inputs.weight[rows[j]]).collect();
                let h = second_stage::page::handover(&weights, context);
                out.push(PageBlock {
                    lines: start..i + 1,
                    decided: start + context..start + h.decided_end,
                    whole: false,
                    first: start == range.start,
                });
                blocks = second_stage::page::Blocks::carrying(&weights[h.carry_start..]);
                context = h.decided_end - h.carry_start;
                start += h.carry_start;
            }
        }
        if start + context < range.end {
            out.push(PageBlock {
                lines: start..range.end,
                decided: start + context..range.end,
                whole: start == range.start,
                first: start == range.start,
            });
        }
    }
    out
}

/// The first-stage values the second stage reads besides the scores, for every row of a
/// dataset: the copied features and each line's text weight.
#[derive(Debug, Clone)]
pub struct StageInputs {
    /// Names of the copied features.
    pub names: Vec<String>,
    /// Their values, one row per row of the dataset.
    pub base: Array2<f32>,
    /// `ln(1 + text bytes)` of each row.
    pub weight: Vec<f32>,
    /// The link density of each row (for the floor that keeps some prose on every page);
    /// 0 for data
    /// without the column.
    pub link_density: Vec<f32>,
    /// Whether each row lies in a navigation, footer or aside landmark (for the floor);
    /// false for data without the columns.
    pub landmark: Vec<bool>,
    /// Whether each row may be dropped as a copy of a text kept before it on its page
    /// ([`second_stage::corrections::repeat_candidate`]); false for data without the
    /// columns (`ln_words`, `tag_pre`, `tag_cell`, `in_cell`).
    pub repeat: Vec<bool>,
    /// Where each row sits against table cells (for the whole tables of
    /// [`second_stage::corrections::apply_corrections`]); nowhere for data without the
    /// columns (`tag_cell`, `tag_p`, `tag_div`, `in_cell`).
    pub place: Vec<second_stage::tables::Place>,
    /// Each row's enclosing elements ([`mainline::internals::lines::Line::path`], the CSV's `path`
    /// column), when known; page-level second stages need them.
    pub paths: Option<Vec<[u32; PATH_LEVELS]>>,
    /// Each row's signature (the CSV's `sig` column), when known; page-level
    /// stages with [`Stage2::repeats`](mainline::internals::model::Stage2::repeats) need them.
    pub sigs: Option<Vec<second_stage::page::Signature>>,
    /// Each row's page hint values (the CSV's `hints` column), when known; stages with
    /// [`Stage2::hints`](mainline::internals::model::Stage2::hints) need them.
    pub hints: Option<Vec<[f32; second_stage::hints::N_LINE_HINTS]>>,
    /// Whether each row comes from a page variant (the CSV's `variant` column, `mainline
    /// label --augment`), when known. Such rows train both stages (or the second alone,
    /// [`StackParams::augment_stages`](super::StackParams::augment_stages)), but the thresholds of both are chosen on the rows
    /// of the pages as written alone.
    pub variant: Option<Vec<bool>>,
}

impl StageInputs {
    /// Takes the columns `names`, `ln_text_bytes` and `link_density` (when `data` has it)
    /// from `data`.
    ///
    /// # Errors
    /// [`Error::FeatureMismatch`] when `data` lacks one of them.
    pub fn of(data: &Dataset, names: &[String]) -> Result<StageInputs> {
        let find = |name: &str| {
            data.feature_index(name).ok_or_else(|| {
                Error::FeatureMismatch(format!(
                    "the second stage reads feature {name:?}, which the data lacks"
                ))
            })
        };
        let idx: Vec<usize> = names.iter().map(|n| find(n)).collect::<Result<_>>()?;
        let w = find("ln_text_bytes")?;
        let link_density = match data.feature_index("link_density") {
            Some(l) => data.x.column(l).to_vec(),
            None => vec![0.0; data.len()],
        };
        let landmarks: Vec<usize> = mainline::internals::features::LANDMARKS
            .iter()
            .filter_map(|&i| data.feature_index(&mainline::internals::features::names()[i]))
            .collect();
        let landmark = (0..data.len())
            .map(|r| landmarks.iter().any(|&c| data.x[[r, c]] > 0.0))
            .collect();
        let column = |name: &str| data.feature_index(name).map(|c| data.x.column(c));
        let on = |c: &Option<ndarray::ArrayView1<'_, f32>>, r: usize| {
            c.as_ref().is_some_and(|c| c[r] > 0.0)
        };
        let [tag_cell, tag_p, tag_div, in_cell, tag_pre, ln_words] = [
            "tag_cell", "tag_p", "tag_div", "in_cell", "tag_pre", "ln_words",
        ]
        .map(column);
        let place: Vec<second_stage::tables::Place> = (0..data.len())
            .map(|r| second_stage::tables::Place {
                tag_cell: on(&tag_cell, r),
                tag_block: on(&tag_p, r) || on(&tag_div, r),
                in_cell: on(&in_cell, r),
            })
            .collect();
        let repeat = match (&ln_words, &tag_pre, &tag_cell, &in_cell) {
            (Some(words), Some(_), Some(_), Some(_)) => (0..data.len())
                .map(|r| {
                    let cell = place[r].tag_cell || place[r].in_cell;
                    second_stage::corrections::repeat_candidate(words[r], on(&tag_pre, r), cell)
                })
                .collect(),
            _ => vec![false; data.len()],
        };
        Ok(StageInputs {
            names: names.to_vec(),
            base: data.x.select(ndarray::Axis(1), &idx),
            weight: data.x.column(w).to_vec(),
            link_density,
            landmark,
            repeat,
            place,
            paths: None,
            sigs: None,
            hints: None,
            variant: None,
        })
    }

    /// Adds the rows' paths (as read by [`crate::train::read_paths`]).
    ///
    /// # Errors
    /// [`Error::FeatureMismatch`] when there is not one path per row.
    pub fn with_paths(mut self, paths: Vec<[u32; PATH_LEVELS]>) -> Result<StageInputs> {
        self.paths = Some(self.one_per_row(paths, "paths")?);
        Ok(self)
    }

    /// Adds the rows' signatures (as read by [`crate::train::read_signatures`]).
    ///
    /// # Errors
    /// [`Error::FeatureMismatch`] when there is not one signature per row.
    pub fn with_signatures(
        mut self,
        sigs: Vec<second_stage::page::Signature>,
    ) -> Result<StageInputs> {
        self.sigs = Some(self.one_per_row(sigs, "signatures")?);
        Ok(self)
    }

    /// Adds the rows' page hint values (as read by [`crate::train::read_hints`]).
    ///
    /// # Errors
    /// [`Error::FeatureMismatch`] when there are not values for every row.
    pub fn with_hints(
        mut self,
        hints: Vec<[f32; second_stage::hints::N_LINE_HINTS]>,
    ) -> Result<StageInputs> {
        self.hints = Some(self.one_per_row(hints, "hint values")?);
        Ok(self)
    }

    /// Marks the rows of page variants (`true`; from the CSV's `variant` column, see
    /// [`crate::train::read_variants`]): they train, but take no part in choosing the
    /// thresholds.
    ///
    /// # Errors
    /// [`Error::FeatureMismatch`] when there is not one mark per row.
    pub fn with_variants(mut self, variant: Vec<bool>) -> Result<StageInputs> {
        self.variant = Some(self.one_per_row(variant, "variant marks")?);
        Ok(self)
    }

    /// `values`, when there is one per row.
    fn one_per_row<T>(&self, values: Vec<T>, what: &str) -> Result<Vec<T>> {
        if values.len() == self.weight.len() {
            Ok(values)
        } else {
            Err(Error::FeatureMismatch(format!(
                "{} {what} for {} rows",
                values.len(),
                self.weight.len()
            )))
        }
    }

    pub(super) fn input_names(
        &self,
        k: usize,
        page: bool,
        repeats: bool,
        hints: bool,
    ) -> Vec<String> {
        let names: Vec<&str> = self.names.iter().map(String::as_str).collect();
        if page {
            second_stage::page_input_names(k, repeats, hints, &names)
        } else {
            second_stage::input_names(k, &names)
        }
    }
}

/// Second-stage rows for `rows` given their first-stage `scores` (one per row, same order).
///
/// With `page`, the rows of a page-level stage ([`second_stage::page_input_names`]), each page cut
/// into blocks as the extractor cuts it ([`second_stage::page::Blocks`]); with `repeats` too, of a
/// stage that also reads the lines' signatures ([`Stage2::repeats`](mainline::internals::model::Stage2::repeats)), and with `hints` too
/// the page hints ([`Stage2::hints`](mainline::internals::model::Stage2::hints)): `(repeats, hints)`. Both without `page` change
/// nothing.
///
/// # Panics
/// With `page`, when `inputs` has no paths; with `repeats` too, when it has no signatures;
/// with `hints` too, when it has no hint values.
pub fn stage2_rows(
    data: &Dataset,
    inputs: &StageInputs,
    rows: &[usize],
    scores: &[f32],
    lookahead: usize,
    page: bool,
    (repeats, hints): (bool, bool),
) -> Array2<f32> {
    let hints = page && hints;
    let n2 = inputs.input_names(lookahead, page, repeats, hints).len();
    let mut out = Array2::zeros((rows.len(), n2));
    let mut buf = Vec::with_capacity(inputs.names.len());
    if page {
        let mut flat = Vec::new();
        let paths = inputs
            .paths
            .as_ref()
            .expect("a page-level second stage needs the lines' paths");
        for PageBlock {
            lines: block,
            decided,
            ..
        } in page_blocks(data, inputs, rows)
        {
            let r: Vec<usize> = block.clone().map(|j| rows[j]).collect();
            let weights: Vec<f32> = r.iter().map(|&x| inputs.weight[x]).collect();
            let p: Vec<[u32; PATH_LEVELS]> = r.iter().map(|&x| paths[x]).collect();
            let sigs: Option<Vec<second_stage::page::Signature>> = repeats.then(|| {
                let sigs = inputs
                    .sigs
                    .as_ref()
                    .expect("a second stage with signature inputs needs the lines' signatures");
                r.iter().map(|&x| sigs[x]).collect()
            });
            let line_hints: Option<Vec<f32>> = hints.then(|| {
                let h = inputs
                    .hints
                    .as_ref()
                    .expect("a second stage with page hints needs the lines' hint values");
                r.iter().flat_map(|&x| h[x]).collect()
            });
            let shape = second_stage::BlockRows {
                lookahead,
                repeats,
                hints,
                base_len: inputs.base.ncols(),
            };
            second_stage::block_rows(
                shape,
                &scores[block.clone()],
                &weights,
                &p,
                sigs.as_deref(),
                line_hints.as_deref(),
                &mut |j, tail| {
                    for (t, &v) in tail.iter_mut().zip(inputs.base.row(r[j])) {
                        *t = v;
                    }
                },
                &mut flat,
            );
            let skip = decided.start - block.start;
            for (j, row) in decided.zip(flat.chunks_exact(n2).skip(skip)) {
                out.row_mut(j)
                    .as_slice_mut()
                    .expect("standard layout")
                    .copy_from_slice(row);
            }
        }
        return out;
    }
    for page in pages(data, rows) {
        let mut w = Window::new(lookahead);
        let drain = |w: &mut Window<usize>, out: &mut Array2<f32>| {
            while let Some((i, row)) = w.pop() {
                out.row_mut(i)
                    .as_slice_mut()
                    .expect("standard layout")
                    .copy_from_slice(&row);
            }
        };
        for i in page {
            let r = rows[i];
            buf.clear();
            buf.extend(inputs.base.row(r).iter().copied());
            w.push(i, scores[i], inputs.weight[r], &buf);
            drain(&mut w, &mut out);
        }
        w.finish();
        drain(&mut w, &mut out);
    }
    out
}

/// Stage-1 scores of `rows` by `model` (which reads the columns of `data` in order).
pub fn stage1_scores(model: &Model, data: &Dataset, rows: &[usize]) -> Vec<f32> {
    let mut row = Vec::with_capacity(data.features.len());
    rows.iter()
        .map(|&r| {
            row.clear();
            row.extend(data.x.row(r).iter().copied());
            model.score(&row)
        })
        .collect()
}
