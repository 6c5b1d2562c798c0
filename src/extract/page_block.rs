//! The lines of one block of a page held for a page-level second stage ([`PageBlock`]):
//! their first-stage scores, the inputs the second stage reads about them, and the floor
//! that settles the block's decisions.

use super::{AwaitingDecision, ModelScorer};
use crate::second_stage;

/// The lines of one block of a page, waiting for a page-level second stage.
#[derive(Debug)]
pub(super) struct PageBlock {
    pub(super) lookahead: usize,
    pub(super) blocks: second_stage::page::Blocks,
    /// The first lines of the block (of `scores` and the other per-line vectors) that are
    /// context carried over from the previous block, decided there.
    pub(super) context: usize,
    /// The lines not decided yet: those after the context.
    pub(super) lines: Vec<AwaitingDecision>,
    /// The first-stage rows of the lines not scored yet (the last ones), one after the
    /// other: scored together, [`FIRST_ROWS`](super::FIRST_ROWS) at a time and when the block is decided.
    pub(super) first_rows: Vec<f32>,
    /// The first-stage score of each line scored.
    pub(super) scores: Vec<f32>,
    /// Each line's first-stage decision.
    pub(super) keeps: Vec<bool>,
    pub(super) weights: Vec<f32>,
    pub(super) paths: Vec<[u32; crate::lines::PATH_LEVELS]>,
    /// Whether the stage reads the lines' signatures, and the signatures (empty otherwise).
    pub(super) repeats: bool,
    pub(super) sigs: Vec<second_stage::page::Signature>,
    pub(super) signer: second_stage::page::Signer,
    /// Whether the stage reads the page hints, and the lines' hint values, one line after
    /// the other (empty otherwise).
    pub(super) hints_on: bool,
    pub(super) hints: Vec<f32>,
    /// The copied first-stage features of each line, one after the other.
    pub(super) base: Vec<f32>,
    /// The second-stage rows of the block, one after the other (kept for the next block).
    pub(super) rows: Vec<f32>,
    /// Each line's text and prose bytes ([`second_stage::corrections::line_bytes`]).
    pub(super) prose: Vec<(u64, u64)>,
    /// Each line's text outside the landmarks ([`second_stage::corrections::body_bytes`]).
    pub(super) body: Vec<u64>,
    /// Whether a block of the page was decided before this one (the page is longer than
    /// a block, and [`second_stage::corrections::fill_empty_page`], which reads a whole page, does not apply).
    pub(super) split: bool,
    /// The decisions (score, keep) of the lines decided in the block, before they are
    /// queued.
    pub(super) decided: Vec<(f32, bool)>,
    /// Scratch for the floor: the decisions.
    pub(super) keep: Vec<bool>,
    pub(super) floor_scores: Vec<f32>,
    /// Scratch for [`second_stage::corrections::whole_groups`]: the decided lines' groups.
    pub(super) groups: Vec<u64>,
    /// Scratch for [`second_stage::corrections::apply_corrections`]: whether each decided line only repeats the
    /// site's name.
    pub(super) site_names: Vec<bool>,
    /// Each line's table cell ([`second_stage::tables::cell_of`]).
    pub(super) cells: Vec<second_stage::tables::Cell>,
    /// With the signatures, each line's text and structure when it is a
    /// [`second_stage::corrections::repeat_candidate`] (empty otherwise).
    pub(super) texts: Vec<Option<second_stage::corrections::KeptText>>,
    /// The texts kept so far on the page.
    pub(super) seen: second_stage::corrections::RepeatedText,
}

impl PageBlock {
    pub(super) fn new(lookahead: usize, repeats: bool, hints: bool) -> Self {
        // NOTE: room for a whole block from the start: growing vectors of lines by doubling
        // copied each block's lines several times. Untouched capacity costs no memory.
        let n = second_stage::page::MAX_LINES;
        PageBlock {
            repeats,
            sigs: Vec::with_capacity(if repeats { n } else { 0 }),
            signer: second_stage::page::Signer::new(),
            hints_on: hints,
            hints: Vec::with_capacity(if hints {
                n * second_stage::hints::N_LINE_HINTS
            } else {
                0
            }),
            lookahead,
            blocks: second_stage::page::Blocks::new(),
            context: 0,
            lines: Vec::with_capacity(n),
            first_rows: Vec::new(),
            scores: Vec::with_capacity(n),
            keeps: Vec::with_capacity(n),
            weights: Vec::with_capacity(n),
            paths: Vec::with_capacity(n),
            base: Vec::new(),
            rows: Vec::new(),
            prose: Vec::with_capacity(n),
            body: Vec::with_capacity(n),
            split: false,
            decided: Vec::new(),
            keep: Vec::new(),
            floor_scores: Vec::new(),
            groups: Vec::new(),
            site_names: Vec::new(),
            cells: Vec::with_capacity(n),
            texts: Vec::with_capacity(if repeats { n } else { 0 }),
            seen: second_stage::corrections::RepeatedText::new(),
        }
    }

    /// Empties the block for a new page, keeping the room of its buffers: the rows as
    /// they are (every value is written before it is read) and the signatures cached (a
    /// signature depends on its line alone).
    pub(super) fn reset(&mut self) {
        // NOTE: every field is named, so that a new one cannot be forgotten here.
        let PageBlock {
            lookahead: _,
            blocks,
            context,
            lines,
            first_rows,
            scores,
            keeps,
            weights,
            paths,
            repeats: _,
            sigs,
            signer: _,
            hints_on: _,
            hints,
            base,
            rows: _,
            prose,
            body,
            split,
            decided,
            keep,
            floor_scores,
            groups,
            site_names,
            cells,
            texts,
            seen,
        } = self;
        *blocks = second_stage::page::Blocks::new();
        *context = 0;
        lines.clear();
        first_rows.clear();
        scores.clear();
        keeps.clear();
        weights.clear();
        paths.clear();
        sigs.clear();
        hints.clear();
        base.clear();
        prose.clear();
        body.clear();
        *split = false;
        decided.clear();
        keep.clear();
        floor_scores.clear();
        groups.clear();
        site_names.clear();
        cells.clear();
        texts.clear();
        seen.clear();
    }

    /// Applies [`second_stage::corrections::apply_corrections`] to the decisions of the
    /// block's lines `range` (those decided in it, after the context, at `threshold`): the
    /// lines of the site's name dropped when the stage reads the page hints, the `floor`,
    /// the empty-page fill when the block is the `last` of a page that was never split (it
    /// holds the whole page), and whole groups and the texts kept earlier on the page
    /// dropped when the stage reads the lines' signatures.
    pub(super) fn apply_corrections(
        &mut self,
        range: std::ops::Range<usize>,
        floor: second_stage::corrections::Floor,
        threshold: f32,
        last: bool,
    ) {
        if self.repeats {
            self.groups.clear();
            self.groups.extend(
                self.sigs[range.clone()]
                    .iter()
                    .zip(&self.paths[range.clone()])
                    .map(|(s, p)| second_stage::corrections::group_of(s, p)),
            );
        }
        let groups = self.repeats.then_some(&self.groups[..]);
        let texts = self.repeats.then(|| &self.texts[range.clone()]);
        let seen = &mut self.seen;
        if self.hints_on {
            self.site_names.clear();
            let n = second_stage::hints::N_LINE_HINTS;
            self.site_names.extend(
                self.hints[range.start * n..range.end * n]
                    .chunks_exact(n)
                    .map(second_stage::hints::site_name_line),
            );
        }
        let site_names = self.hints_on.then_some(&self.site_names[..]);
        let whole_page = last && !self.split;
        let cells = &self.cells[range.clone()];
        let (bytes, body) = (&self.prose[range.clone()], &self.body[range]);
        redecide(
            &mut self.decided,
            &mut self.keep,
            &mut self.floor_scores,
            |scores, keep| {
                let lines = second_stage::corrections::BlockLines {
                    scores,
                    threshold,
                    bytes,
                    body,
                    groups,
                    site_names,
                    cells: Some(cells),
                    texts,
                };
                second_stage::corrections::apply_corrections(floor, lines, whole_page, seen, keep)
            },
        );
    }

    /// Adds a line; true when the block is full.
    pub(super) fn push(
        &mut self,
        (line, features, kept_hints): AwaitingDecision,
        (weight, link_density, landmark, repeat): (f32, f32, bool, bool),
        base: &[f32],
        hints: Option<&[f32; second_stage::hints::N_LINE_HINTS]>,
    ) -> bool {
        if self.hints_on {
            self.hints
                .extend_from_slice(hints.expect("hint values for a stage that reads them"));
        }
        self.prose.push(second_stage::corrections::line_bytes(
            weight,
            link_density,
            landmark,
        ));
        self.body
            .push(second_stage::corrections::body_bytes(weight, landmark));
        self.weights.push(weight);
        self.paths.push(line.path);
        let place = second_stage::tables::Place {
            tag_cell: line.block == crate::lines::Block::Cell,
            tag_block: matches!(
                line.block,
                crate::lines::Block::P | crate::lines::Block::Div
            ),
            in_cell: line.within(crate::lines::ctx::CELL),
        };
        self.cells
            .push(second_stage::tables::cell_of(place, &line.path));
        if self.repeats {
            let sig = self.signer.signature(&line);
            self.texts
                .push(repeat.then(|| second_stage::corrections::KeptText::of(&sig)));
            self.sigs.push(sig);
        }
        if self.base.capacity() == 0 {
            self.base
                .reserve(second_stage::page::MAX_LINES * base.len());
        }
        self.base.extend_from_slice(base);
        self.lines.push((line, features, kept_hints));
        self.blocks.push(weight)
    }

    /// Scores the rows of `first_rows` (each `width` long) together and empties it.
    pub(super) fn score_first(&mut self, scorer: &ModelScorer, width: usize) {
        if self.first_rows.is_empty() {
            return;
        }
        self.decided.clear();
        scorer.decide_rows(&self.first_rows, width, &mut self.decided);
        self.first_rows.clear();
        self.scores.extend(self.decided.iter().map(|&(s, _)| s));
        self.keeps.extend(self.decided.iter().map(|&(_, k)| k));
    }

    /// Drops the lines before `h.carry_start` (the decided lines must have been taken out
    /// of `lines`): the rest start the next block, those before `h.decided_end` as context.
    pub(super) fn carry(&mut self, h: second_stage::page::Handover) {
        let k = h.carry_start;
        let nb = if self.scores.is_empty() {
            0
        } else {
            self.base.len() / self.scores.len()
        };
        self.scores.drain(..k);
        self.keeps.drain(..k);
        self.weights.drain(..k);
        self.paths.drain(..k);
        self.cells.drain(..k);
        self.prose.drain(..k);
        self.body.drain(..k);
        if self.repeats {
            self.sigs.drain(..k);
            self.texts.drain(..k);
        }
        if self.hints_on {
            self.hints.drain(..k * second_stage::hints::N_LINE_HINTS);
        }
        self.base.drain(..k * nb);
        self.context = h.decided_end - k;
        self.blocks = second_stage::page::Blocks::carrying(&self.weights);
        debug_assert_eq!(self.lines.len() + self.context, self.scores.len());
    }
}

/// Lets `add` ([`second_stage::corrections::apply_corrections`]) add to the `decided` lines' decisions: it gets their
/// scores and decisions, copied into the scratch vectors `scores` and `keep`, and says
/// whether it added a line.
fn redecide(
    decided: &mut [(f32, bool)],
    keep: &mut Vec<bool>,
    scores: &mut Vec<f32>,
    add: impl FnOnce(&[f32], &mut [bool]) -> bool,
) {
    keep.clear();
    keep.extend(decided.iter().map(|d| d.1));
    scores.clear();
    scores.extend(decided.iter().map(|d| d.0));
    if add(scores, keep) {
        for (d, &k) in decided.iter_mut().zip(keep.iter()) {
            d.1 = k;
        }
    }
}
