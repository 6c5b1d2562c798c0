//! The second stage of a two-stage model as stored in a model file: a classifier on the
//! rows that [`crate::second_stage`] computes from the first-stage scores.

use serde::{Deserialize, Serialize};

use super::{ModelKind, Scaler};
use crate::second_stage::computed_len;

/// The second stage of a model file: a classifier on `input_names` rows.
///
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Stage2 {
    /// Lines of lookahead (and of look-behind) of the score window.
    pub lookahead: usize,
    /// Whether the stage also reads the page-level inputs (`page::names`, model format
    /// 3): the extractor then holds a page's lines, in blocks of at most
    /// `page::MAX_LINES`, until the block is decided.
    ///
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub page: bool,
    /// With `page`: a block of a page (`page::Blocks`) of fewer lines than this is
    /// decided by the first stage alone. The page-level inputs of a handful of lines say
    /// little, and the pages a model is trained on have hundreds. 0 (the default, and what
    /// files without the field mean): every block goes through the second stage.
    ///
    #[serde(default, skip_serializing_if = "is_zero")]
    pub min_block_lines: usize,
    /// With `page`: whether the page inputs are followed by those of the lines'
    /// `page::signature`s (`page::repeat_names`): scores pooled over the lines repeated
    /// alongside the line, and over the lines of the same text. False (the default, and
    /// what files without the field mean): the page inputs alone.
    ///
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub repeats: bool,
    /// With `page`: whether the page hints follow (`hints::names`): what the page says
    /// about itself in its head (its kind, its title and description) and where each line
    /// stands against them. False (the default, and what files without the field mean): no
    /// hints. A build that predates the field refuses a file that sets it.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub hints: bool,
    /// Names of the inputs: `window_names` of `lookahead`, then (with `page`)
    /// `page::names` (with `repeats` and `hints` followed by their inputs), then the
    /// first-stage features copied, each prefixed with `LINE_PREFIX`; checked when the
    /// model is read.
    ///
    #[serde(deserialize_with = "super::file::bounded_names")]
    pub features: Vec<String>,
    /// Decision threshold on the second-stage score: a line is kept when `score >=
    /// threshold`.
    pub threshold: f32,
    /// Standardisation of the inputs.
    pub scaler: Scaler,
    /// The classifier.
    pub kind: ModelKind,
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

impl Stage2 {
    /// Whether a block of `lines` lines of a page is decided by the first stage alone
    /// (see [`Stage2::min_block_lines`]).
    pub fn first_stage_only(&self, lines: usize) -> bool {
        self.page && lines < self.min_block_lines
    }

    /// Number of inputs before the copied first-stage features.
    pub fn n_computed(&self) -> usize {
        computed_len(self.lookahead, self.page, self.repeats, self.hints)
    }

    /// Probability that the line is content, from its `input_names`
    /// row.
    ///
    /// # Panics
    /// If `row.len()` differs from the number of inputs.
    #[inline]
    pub fn score(&self, row: &[f32]) -> f32 {
        self.check_row(row);
        super::score_with(&self.kind, &self.scaler, row)
    }

    /// Panics unless `row` has one value per input.
    pub(crate) fn check_row(&self, row: &[f32]) {
        assert_eq!(
            row.len(),
            self.features.len(),
            "row has {} values, the second stage reads {} inputs",
            row.len(),
            self.features.len()
        );
    }
}
