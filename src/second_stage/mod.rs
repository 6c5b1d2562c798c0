//! The second stage of a two-stage model: a line's decision from the first-stage scores of
//! the lines around it.
//!
//! A per-line classifier sees one line and its nearest neighbours; a site's menu and its
//! article text are told apart better by the run of scores they sit in. The second stage
//! reads, for each line, the first-stage score of the line and of up to `lookahead` lines on
//! each side, window means, maxima and minima of those scores, running aggregates of all
//! the scores before the line (the page so far), and some of the line's own first-stage
//! features (by default [`BASE_INPUTS`]). Its inputs are named by [`input_names`].
//!
//! [`Window`] computes those inputs in a stream: it holds the lines of the window, emits a
//! line's row once `lookahead` later lines (or the end of the page) have arrived, and keeps
//! only constant-size aggregates of the older lines. Training and inference both go through
//! it, so the rows a second stage is trained on are the rows it decides in `filter`.
//!
//! A page-level second stage ([`Stage2::page`](crate::model::Stage2::page)) also reads the inputs of [`page`]: the
//! line's score against the whole page and pooled over its enclosing elements. Its rows
//! ([`page_input_names`]) are computed a block of the page at a time by [`block_rows`].

pub mod corrections;
pub mod hints;
pub mod page;
pub mod tables;

use std::collections::VecDeque;

pub use page::{format_path, format_signature};
pub use page::{parse_path, parse_signature};

/// Most lines of lookahead a second stage may use.
pub const MAX_LOOKAHEAD: usize = 32;

/// First-stage features of the line itself that a second stage reads by default (names of
/// [`crate::features::names`]); a model may list others (see [`input_names`]).
pub const BASE_INPUTS: [&str; 10] = [
    "density",
    "ln_text_bytes",
    "link_density",
    "heading_level",
    "tag_p",
    "in_article",
    "hint_content",
    "container_link_density",
    "container_ln_text_bytes",
    "region_link_density",
];

/// Half-widths of the windows whose mean, maximum and minimum score are inputs (capped at
/// the lookahead).
const WINDOWS: [usize; 3] = [1, 3, 8];

/// Decay of the running averages of the scores before the line.
const DECAYS: [f32; 2] = [0.5, 0.1];

/// Prefix of the second-stage inputs that copy a first-stage feature of the line.
pub const LINE_PREFIX: &str = "line_";

/// Names of the second-stage inputs for a lookahead of `k` lines that read the window of
/// scores, in row order.
pub fn window_names(k: usize) -> Vec<String> {
    let mut names = vec!["score".to_string()];
    for d in 1..=k {
        names.push(format!("prev{d}_score"));
    }
    for d in 1..=k {
        names.push(format!("next{d}_score"));
    }
    for w in windows(k) {
        for stat in ["mean", "max", "min"] {
            names.push(format!("window{w}_{stat}"));
        }
    }
    names.push(format!("before{k}_mean"));
    names.push(format!("after{k}_mean"));
    names.push(format!("window{k}_text_mean"));
    names.push("lines_before".into());
    names.push("lines_after".into());
    names.push("page_mean".into());
    for a in DECAYS {
        names.push(format!("decayed{}_mean", (a * 100.0).round() as u32));
    }
    names.push("ln_line_index".into());
    names
}

/// Number of [`window_names`] for a lookahead of `k`, counted without building them (the
/// extractor needs it per block).
pub fn window_len(k: usize) -> usize {
    // score, k before, k after, 3 per window, before/after/text means, lines before/after,
    // page mean, the decayed means, ln line index.
    1 + 2 * k + 3 * windows(k).len() + 3 + 2 + 1 + DECAYS.len() + 1
}

/// Number of inputs before the copied first-stage features: [`window_len`], then with
/// `page` the page inputs, with `repeats` too the repeat inputs and with `hints` too the
/// page hints ([`page_input_names`]).
pub(crate) fn computed_len(k: usize, page: bool, repeats: bool, hints: bool) -> usize {
    window_len(k)
        + if page {
            page::N_INPUTS
                + if repeats { page::N_REPEAT_INPUTS } else { 0 }
                + if hints { hints::N_INPUTS } else { 0 }
        } else {
            0
        }
}

/// Names of all second-stage inputs: [`window_names`], then each of `base` (first-stage
/// feature names) prefixed with [`LINE_PREFIX`].
pub fn input_names(k: usize, base: &[&str]) -> Vec<String> {
    let mut names = window_names(k);
    names.extend(base.iter().map(|s| format!("{LINE_PREFIX}{s}")));
    names
}

/// Names of the inputs of a page-level second stage: [`window_names`], the page inputs
/// ([`page::names`]), with `repeats` the inputs of the lines' signatures
/// ([`page::repeat_names`], see `Stage2::repeats`), with `hints` the page hints
/// ([`hints::names`], see `Stage2::hints`), then each of `base` prefixed with
/// [`LINE_PREFIX`].
pub fn page_input_names(k: usize, repeats: bool, hints: bool, base: &[&str]) -> Vec<String> {
    let mut names = window_names(k);
    names.extend(page::names());
    if repeats {
        names.extend(page::repeat_names());
    }
    if hints {
        names.extend(hints::names());
    }
    names.extend(base.iter().map(|s| format!("{LINE_PREFIX}{s}")));
    names
}

/// Rows of a page-level second stage ([`page_input_names`]) for the lines of one block of
/// a page (see [`page::Blocks`]), written one after the other to `out` (resized to hold them), each
/// [`BlockRows::width`] values long: the score window of `lookahead` lines run over the
/// block (the values [`Window`] gives), the page inputs of the block, then the `base_len`
/// copied features `base(i, tail)` writes into the tail of line `i`'s row. `scores`,
/// `weights` (`ln(1 + text bytes)`) and `paths` have one entry per line. With the lines'
/// `sigs` ([`page::signature`]), the [`page::repeat_names`] inputs follow the page inputs;
/// with the lines' `hints` ([`hints::N_LINE_HINTS`] values of [`hints::Tracker::line`] per
/// line, one line after the other), the [`hints::names`] inputs follow those.
///
/// # Panics
/// When the slices differ in length, or `sigs` is given to a shape without `repeats` (or
/// missing from one with it), or `hints` to a shape without `hints` (or the other way).
#[allow(clippy::too_many_arguments)]
pub fn block_rows(
    shape: BlockRows,
    scores: &[f32],
    weights: &[f32],
    paths: &[[u32; crate::lines::PATH_LEVELS]],
    sigs: Option<&[page::Signature]>,
    hints: Option<&[f32]>,
    base: &mut dyn FnMut(usize, &mut [f32]),
    out: &mut Vec<f32>,
) {
    // Every value is written: only new room needs filling.
    out.resize(scores.len() * shape.width(), 0.0);
    block_rows_in(shape, scores, weights, paths, sigs, hints, base, out);
}

/// [`block_rows`] into `out`, which is exactly as long as the rows (`scores.len()` times
/// [`BlockRows::width`]): every value of it is written, so a buffer kept from block to block
/// needs no filling.
///
/// # Panics
/// As [`block_rows`], and when `out` has another length.
#[allow(clippy::too_many_arguments)]
pub fn block_rows_in(
    shape: BlockRows,
    scores: &[f32],
    weights: &[f32],
    paths: &[[u32; crate::lines::PATH_LEVELS]],
    sigs: Option<&[page::Signature]>,
    hints: Option<&[f32]>,
    base: &mut dyn FnMut(usize, &mut [f32]),
    out: &mut [f32],
) {
    let n = scores.len();
    assert!(weights.len() == n, "one weight per line");
    assert_eq!(
        sigs.is_some(),
        shape.repeats,
        "signatures exactly with repeats"
    );
    assert_eq!(
        hints.is_some(),
        shape.hints,
        "hint values exactly with hints"
    );
    let width = shape.width();
    assert_eq!(out.len(), n * width, "room for exactly the rows");
    let n_window = window_len(shape.lookahead);
    window_rows(shape.lookahead, scores, weights, out, width);
    page::append(scores, weights, paths, sigs, out, width, n_window);
    if let Some(h) = hints {
        let start = n_window
            + page::N_INPUTS
            + if shape.repeats {
                page::N_REPEAT_INPUTS
            } else {
                0
            };
        hints::append(h, weights, out, width, start);
    }
    let tail = width - shape.base_len;
    for (i, row) in out.chunks_exact_mut(width).enumerate() {
        base(i, &mut row[tail..]);
    }
}

/// The shape of the rows of [`block_rows`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BlockRows {
    /// Lines of lookahead (and look-behind) of the score window.
    pub lookahead: usize,
    /// Whether the [`page::repeat_names`] inputs follow the page inputs.
    pub repeats: bool,
    /// Whether the [`hints::names`] inputs follow those.
    pub hints: bool,
    /// Copied first-stage features at the end of each row.
    pub base_len: usize,
}

impl BlockRows {
    /// Values per row: the length of [`page_input_names`] with `base_len` names.
    pub fn width(&self) -> usize {
        computed_len(self.lookahead, true, self.repeats, self.hints) + self.base_len
    }
}

/// The [`window_names`] inputs of every line of a block whose scores are all known, written
/// to the start of each `width`-long row of `out`: what a [`Window`] run over the block
/// gives ([`window_values`]), without holding the lines in it.
fn window_rows(k: usize, scores: &[f32], weights: &[f32], out: &mut [f32], width: usize) {
    let n = scores.len();
    let ws = windows(k);
    let n_window = window_len(k);
    let line = |j: usize| (scores[j], weights[j].max(0.0));
    let mut past = Past::new();
    for (i, row) in out.chunks_exact_mut(width).enumerate() {
        // The lines around, nearest first, on the stack.
        let mut before = [(0.0_f32, 0.0_f32); MAX_LOOKAHEAD];
        let n_before = i.min(k);
        for (d, b) in before[..n_before].iter_mut().enumerate() {
            *b = line(i - 1 - d);
        }
        let mut after = [(0.0_f32, 0.0_f32); MAX_LOOKAHEAD];
        let n_after = (n - 1 - i).min(k);
        for (d, a) in after[..n_after].iter_mut().enumerate() {
            *a = line(i + 1 + d);
        }
        window_values(
            k,
            &ws,
            line(i),
            &before[..n_before],
            &after[..n_after],
            &past,
            &mut row[..n_window],
        );
        past.add(scores[i]);
    }
}

/// Running aggregates of the scores of the lines before a line: their count, sum and
/// decayed means.
#[derive(Debug, Clone)]
struct Past {
    lines: u64,
    sum: f64,
    decayed: [f32; DECAYS.len()],
}

impl Past {
    fn new() -> Past {
        Past {
            lines: 0,
            sum: 0.0,
            decayed: [0.5; DECAYS.len()],
        }
    }

    /// Folds in the next line's score.
    fn add(&mut self, score: f32) {
        self.lines += 1;
        self.sum += f64::from(score);
        for (d, a) in self.decayed.iter_mut().zip(DECAYS) {
            *d += a * (score - *d);
        }
    }
}

/// The [`window_names`] inputs of one line, written to `row` ([`window_len`] values), from
/// its own `(score, weight)`, those of the lines `before` and `after` it (nearest first, at
/// most `k` each, weights clipped at 0), the window widths `ws` ([`windows`]) and the
/// aggregates of every line before it. The order of the sums is part of the values: the
/// line, then the lines before it, then those after, nearest first.
fn window_values(
    k: usize,
    ws: &[usize],
    own: (f32, f32),
    before: &[(f32, f32)],
    after: &[(f32, f32)],
    past: &Past,
    row: &mut [f32],
) {
    // NOTE: this runs for every line of every page. The widths `ws` grow, so each
    // window's maximum and minimum are the previous window's taken further (the scores
    // are never NaN or -0.0, so the order does not matter to them), and the sums of the
    // windows share the line and the lines before it (a running sum, in their order);
    // each window adds its lines after to that, nearest first, as the definition does. A
    // test compares it with the definition, bit for bit.
    let s = own.0;
    row[0] = s;
    let (prev, next) = row[1..1 + 2 * k].split_at_mut(k);
    prev.fill(0.0);
    next.fill(0.0);
    for (r, b) in prev.iter_mut().zip(before) {
        *r = b.0;
    }
    for (r, a) in next.iter_mut().zip(after) {
        *r = a.0;
    }
    let mut at = 1 + 2 * k;
    let (mut head, mut max, mut min) = (s, s, s);
    let (mut nb, mut na) = (0, 0);
    for &w in ws {
        let (wb, wa) = (w.min(before.len()), w.min(after.len()));
        for &(v, _) in &before[nb..wb] {
            head += v;
            max = max.max(v);
            min = min.min(v);
        }
        for &(v, _) in &after[na..wa] {
            max = max.max(v);
            min = min.min(v);
        }
        (nb, na) = (wb, wa);
        let mut total = head;
        for &(v, _) in &after[..wa] {
            total += v;
        }
        row[at] = total / (1 + wb + wa) as f32;
        row[at + 1] = max;
        row[at + 2] = min;
        at += 3;
    }
    let mean = |v: &[(f32, f32)]| {
        if v.is_empty() {
            return 0.0;
        }
        let mut total = 0.0_f32;
        for &(x, _) in v {
            total += x;
        }
        total / v.len() as f32
    };
    row[at] = mean(before);
    row[at + 1] = mean(after);
    // (From 0, as the definition sums: 0.0 + x is not x when x is -0.0.)
    let (mut wsum, mut wt) = (0.0_f32 + own.0 * own.1, 0.0_f32 + own.1);
    for &(v, w) in before {
        wsum += v * w;
        wt += w;
    }
    for &(v, w) in after {
        wsum += v * w;
        wt += w;
    }
    row[at + 2] = if wt > 0.0 { wsum / wt } else { s };
    let kf = k.max(1) as f32;
    row[at + 3] = before.len() as f32 / kf;
    row[at + 4] = after.len() as f32 / kf;
    row[at + 5] = if past.lines == 0 {
        0.5
    } else {
        (past.sum / past.lines as f64) as f32
    };
    at += 6;
    row[at..at + DECAYS.len()].copy_from_slice(&past.decayed);
    row[at + DECAYS.len()] = ((past.lines + 1) as f64).ln() as f32;
}

fn windows(k: usize) -> Vec<usize> {
    let mut w: Vec<usize> = WINDOWS
        .iter()
        .map(|&w| w.min(k))
        .filter(|&w| w > 0)
        .collect();
    w.dedup();
    w
}

/// One line waiting in a [`Window`].
#[derive(Debug, Clone)]
struct Slot<T> {
    item: T,
    score: f32,
    weight: f32,
    base: Vec<f32>,
}

/// Streaming computation of second-stage rows.
///
/// Holds at most `lookahead + 1` undecided lines and the scores of the `lookahead` lines
/// before them.
#[derive(Debug, Clone)]
pub struct Window<T> {
    k: usize,
    width: usize,
    windows: Vec<usize>,
    /// Lines pushed and not yet emitted; the front is the next to emit.
    pending: VecDeque<Slot<T>>,
    /// Scores and text weights of the last emitted lines, most recent last.
    past: VecDeque<(f32, f32)>,
    ready: VecDeque<(T, Vec<f32>)>,
    /// The lines emitted so far.
    emitted: Past,
    ended: bool,
}

impl<T> Window<T> {
    /// A window with `lookahead` lines on each side.
    ///
    /// # Panics
    /// When `lookahead` exceeds [`MAX_LOOKAHEAD`].
    pub fn new(lookahead: usize) -> Self {
        assert!(
            lookahead <= MAX_LOOKAHEAD,
            "lookahead {lookahead} > {MAX_LOOKAHEAD}"
        );
        Window {
            k: lookahead,
            width: window_len(lookahead),
            windows: windows(lookahead),
            pending: VecDeque::with_capacity(lookahead + 2),
            past: VecDeque::with_capacity(lookahead + 1),
            ready: VecDeque::new(),
            emitted: Past::new(),
            ended: false,
        }
    }

    /// Lines pushed and not yet emitted.
    pub fn pending(&self) -> usize {
        self.pending.len()
    }

    /// Adds the next line of the page: its first-stage score, its weight in the
    /// text-weighted mean (`ln(1 + text bytes)`) and the first-stage features the second
    /// stage copies (appended to the line's row as they are).
    pub fn push(&mut self, item: T, score: f32, weight: f32, base: &[f32]) {
        self.pending.push_back(Slot {
            item,
            score,
            weight: weight.max(0.0),
            base: base.to_vec(),
        });
        if self.pending.len() > self.k {
            self.emit_front();
        }
    }

    /// Ends the page: every pending line gets its row.
    pub fn finish(&mut self) {
        self.ended = true;
        while !self.pending.is_empty() {
            self.emit_front();
        }
    }

    /// The next line whose row is ready, in the order pushed.
    pub fn pop(&mut self) -> Option<(T, Vec<f32>)> {
        self.ready.pop_front()
    }

    fn emit_front(&mut self) {
        let k = self.k;
        let slot = self.pending.pop_front().expect("called with pending lines");
        // The scores and weights of the lines around, nearest first, on the stack.
        let mut after_buf = [(0.0_f32, 0.0_f32); MAX_LOOKAHEAD];
        let mut n_after = 0;
        for (a, s) in after_buf.iter_mut().zip(self.pending.iter().take(k)) {
            *a = (s.score, s.weight);
            n_after += 1;
        }
        let after = &after_buf[..n_after];
        let mut before_buf = [(0.0_f32, 0.0_f32); MAX_LOOKAHEAD];
        let mut n_before = 0;
        for (b, p) in before_buf.iter_mut().zip(self.past.iter().rev().take(k)) {
            *b = *p;
            n_before += 1;
        }
        let before = &before_buf[..n_before];
        let own = (slot.score, slot.weight);
        let mut row = Vec::with_capacity(self.width + slot.base.len());
        row.resize(self.width, 0.0);
        window_values(
            k,
            &self.windows,
            own,
            before,
            after,
            &self.emitted,
            &mut row,
        );
        row.extend_from_slice(&slot.base);

        // Fold the line into the aggregates of the lines before the next one.
        self.emitted.add(slot.score);
        if k > 0 {
            if self.past.len() == k {
                self.past.pop_front();
            }
            self.past.push_back(own);
        }
        self.ready.push_back((slot.item, row));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lines::{NO_ELEMENT, PATH_LEVELS};
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

    /// The window inputs as first written: every window summed from the line on, then
    /// its lines before and after, nearest first.
    fn window_values_by_definition(
        k: usize,
        ws: &[usize],
        own: (f32, f32),
        before: &[(f32, f32)],
        after: &[(f32, f32)],
        past: &Past,
        row: &mut [f32],
    ) {
        let s = own.0;
        row[0] = s;
        let (prev, next) = row[1..1 + 2 * k].split_at_mut(k);
        prev.fill(0.0);
        next.fill(0.0);
        for (r, b) in prev.iter_mut().zip(before) {
            *r = b.0;
        }
        for (r, a) in next.iter_mut().zip(after) {
            *r = a.0;
        }
        let mut at = 1 + 2 * k;
        for &w in ws {
            let (b, a) = (&before[..w.min(before.len())], &after[..w.min(after.len())]);
            let (mut total, mut max, mut min) = (s, s, s);
            for &(v, _) in b.iter().chain(a) {
                total += v;
                max = max.max(v);
                min = min.min(v);
            }
            row[at] = total / (1 + b.len() + a.len()) as f32;
            row[at + 1] = max;
            row[at + 2] = min;
            at += 3;
        }
        let mean = |v: &[(f32, f32)]| {
            if v.is_empty() {
                return 0.0;
            }
            let mut total = 0.0_f32;
            for &(x, _) in v {
                total += x;
            }
            total / v.len() as f32
        };
        row[at] = mean(before);
        row[at + 1] = mean(after);
        let (mut wsum, mut wt) = (0.0_f32, 0.0_f32);
        for &(v, w) in std::iter::once(&own).chain(before).chain(after) {
            wsum += v * w;
            wt += w;
        }
        row[at + 2] = if wt > 0.0 { wsum / wt } else { s };
        let kf = k.max(1) as f32;
        row[at + 3] = before.len() as f32 / kf;
        row[at + 4] = after.len() as f32 / kf;
        row[at + 5] = if past.lines == 0 {
            0.5
        } else {
            (past.sum / past.lines as f64) as f32
        };
        at += 6;
        row[at..at + DECAYS.len()].copy_from_slice(&past.decayed);
        row[at + DECAYS.len()] = ((past.lines + 1) as f64).ln() as f32;
    }

    /// [`window_values`] gives the definition's values bit for bit, for every lookahead,
    /// with lines missing on either side, scores of every size (0 and 1 included) and
    /// weights of 0.
    #[test]
    fn window_values_are_the_definition_bit_for_bit() {
        let mut rng = StdRng::seed_from_u64(26);
        for k in 0..=MAX_LOOKAHEAD {
            let ws = windows(k);
            let n = window_len(k);
            for _ in 0..200 {
                let pair = |rng: &mut StdRng| {
                    let s = match rng.gen_range(0..8) {
                        0 => 0.0,
                        1 => 1.0,
                        2 => rng.gen_range(0.0..1e-6),
                        _ => rng.gen_range(0.0..1.0),
                    };
                    let w = if rng.gen_bool(0.2) {
                        0.0
                    } else {
                        rng.gen_range(0.0..9.0)
                    };
                    (s, w)
                };
                let own = pair(&mut rng);
                let nb = rng.gen_range(0..=k);
                let before: Vec<_> = (0..nb).map(|_| pair(&mut rng)).collect();
                let na = rng.gen_range(0..=k);
                let after: Vec<_> = (0..na).map(|_| pair(&mut rng)).collect();
                let mut past = Past::new();
                for _ in 0..rng.gen_range(0..5) {
                    past.add(rng.gen_range(0.0..1.0));
                }
                let (mut got, mut want) = (vec![f32::NAN; n], vec![f32::NAN; n]);
                window_values(k, &ws, own, &before, &after, &past, &mut got);
                window_values_by_definition(k, &ws, own, &before, &after, &past, &mut want);
                let bits = |v: &[f32]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
                assert_eq!(bits(&got), bits(&want), "lookahead {k}");
            }
        }
    }

    /// The window part of a block's rows is what a [`Window`] run over the block gives,
    /// bit for bit, for every lookahead and for blocks shorter and longer than it.
    #[test]
    fn block_rows_read_the_window_a_window_would() {
        let mut rng = StdRng::seed_from_u64(17);
        for k in [0, 1, 2, 3, 8, 9, MAX_LOOKAHEAD] {
            for n in [1, 2, k, k + 1, 2 * k + 3, 70] {
                if n == 0 {
                    continue;
                }
                let scores: Vec<f32> = (0..n).map(|_| rng.gen_range(0.0..1.0)).collect();
                // Some weights below zero: both clip them.
                let weights: Vec<f32> = (0..n).map(|_| rng.gen_range(-0.5..6.0)).collect();
                let mut w = Window::new(k);
                let mut want = Vec::new();
                for (i, (&s, &wt)) in scores.iter().zip(&weights).enumerate() {
                    w.push(i, s, wt, &[]);
                    while let Some((_, row)) = w.pop() {
                        want.push(row);
                    }
                }
                w.finish();
                while let Some((_, row)) = w.pop() {
                    want.push(row);
                }
                let shape = BlockRows {
                    lookahead: k,
                    repeats: false,
                    hints: false,
                    base_len: 2,
                };
                let paths = vec![[NO_ELEMENT; PATH_LEVELS]; n];
                // Stale values in the buffer must all be overwritten.
                let mut out = vec![f32::NAN; 3 * n * shape.width()];
                block_rows(
                    shape,
                    &scores,
                    &weights,
                    &paths,
                    None,
                    None,
                    &mut |i, tail| tail.fill(i as f32),
                    &mut out,
                );
                assert_eq!(out.len(), n * shape.width());
                let nw = window_len(k);
                assert_eq!(nw, window_names(k).len());
                for (i, (row, want)) in out.chunks_exact(shape.width()).zip(&want).enumerate() {
                    let bits = |v: &[f32]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
                    assert_eq!(
                        bits(&row[..nw]),
                        bits(want),
                        "lookahead {k}, {n} lines, line {i}"
                    );
                    assert!(row.iter().all(|v| v.is_finite()));
                    assert_eq!(row[row.len() - 2..], [i as f32; 2]);
                }
            }
        }
    }
}

/// The examples of this module's documentation, run as tests (the module is internal to
/// the crate, where documentation tests cannot reach).
#[cfg(test)]
mod doc_examples {
    #[test]
    fn doc_stack() -> Result<(), Box<dyn std::error::Error>> {
        use crate::second_stage::{Window, input_names};

        let mut w = Window::new(2);
        let mut rows = Vec::new();
        for (i, score) in [0.1_f32, 0.9, 0.8, 0.7].into_iter().enumerate() {
            // Each line: its score, its ln(1 + text bytes), and one copied feature.
            w.push(i, score, 3.0, &[0.5]);
            while let Some((line, row)) = w.pop() {
                rows.push((line, row));
            }
        }
        w.finish();
        while let Some((line, row)) = w.pop() {
            rows.push((line, row));
        }
        assert_eq!(
            rows.iter().map(|(l, _)| *l).collect::<Vec<_>>(),
            [0, 1, 2, 3]
        );
        assert_eq!(rows[0].1.len(), input_names(2, &["density"]).len());
        Ok(())
    }

    #[test]
    fn doc_stack_block_rows() -> Result<(), Box<dyn std::error::Error>> {
        use crate::lines::{NO_ELEMENT, PATH_LEVELS};
        use crate::second_stage::{BlockRows, block_rows, page_input_names};

        let paths = [[NO_ELEMENT; PATH_LEVELS]; 3];
        let mut rows = Vec::new();
        let shape = BlockRows {
            lookahead: 2,
            repeats: false,
            hints: false,
            base_len: 1,
        };
        block_rows(
            shape,
            &[0.2, 0.9, 0.7],
            &[1.0, 3.0, 2.5],
            &paths,
            None,
            None,
            &mut |i, tail| tail[0] = i as f32,
            &mut rows,
        );
        assert_eq!(rows.len(), 3 * shape.width());
        assert_eq!(
            shape.width(),
            page_input_names(2, false, false, &["density"]).len()
        );
        assert_eq!(rows[2 * shape.width() - 1], 1.0);
        Ok(())
    }
}
