//! Training labels: which lines of a page are main content.
//!
//! The corpus gives, for every page, the gold main text as plain text. To train a line
//! classifier each text line of the page needs a label instead. [`align`] produces them by
//! aligning the page's tokens, in reading order, with the gold text's tokens through a
//! sequence alignment (close to a longest common subsequence of the two token streams),
//! then calling a line content when most of its tokens were matched. Pages whose gold text
//! the labelled lines reproduce poorly are reported through [`Alignment::gold_coverage`].
//!
//! # How lines are labelled
//!
//! 1. Page lines and gold text are split into tokens by `align_tokens`: lower-cased `\w+`
//!    runs, except that characters of scripts written without spaces between words (Han,
//!    Hiragana, Katakana, Hangul, Thai, Lao, Khmer, Myanmar) are one token each, so a Chinese
//!    line can match in part. Tokens that occur on one side only are dropped before aligning:
//!    they can never match, and without them pages that are mostly boilerplate align fast.
//! 2. Anchors fix the skeleton of the alignment: token trigrams that occur exactly once in
//!    the gold text (within one gold line) are looked up in the page, and the longest chain
//!    of such matches that increases in both page and gold order is kept (a longest
//!    increasing subsequence, `O(n log n)`; among equally long chains the earlier page copy
//!    wins). The stretches between consecutive anchors are diffed with Myers' algorithm from
//!    `similar`. Anchoring keeps the work near linear even when the page repeats the whole
//!    article (responsive layouts rendering it twice, "republish" boxes), where a plain diff
//!    of the token streams is quadratic.
//! 3. A gold phrase that occurs several times in the page (a title in the breadcrumbs, the
//!    navigation and the heading) can be matched to any copy without changing the number of
//!    matched tokens. Each matched run is therefore moved to the identical copy, between its
//!    neighbouring runs, whose distances to those neighbours best agree with the distances
//!    in the gold text: the heading right above the first paragraph wins over the
//!    breadcrumb.
//! 4. A matched run counts only if it is at least [`MIN_RUN_TOKENS`] tokens long, or if it
//!    is a whole one-token page line matched to a whole one-token gold line (a one-word
//!    heading). Isolated single-word matches — a menu entry "Home" that happens to occur in
//!    the article — are chance matches and are ignored.
//! 5. An in-order alignment can match only one of two blocks the page shows in the other
//!    order than the gold text (a sidebar rendered before the article it belongs to). A
//!    second pass aligns what is left unmatched of the gold text with what is left of the
//!    page, the same way, and counts its runs of at least [`REORDERED_MIN_RUN_TOKENS`]
//!    tokens.
//! 6. A line with tokens is content when at least [`MIN_MATCHED_FRACTION`] of its tokens are
//!    in counted runs. A line without tokens (blank, or only punctuation such as `* * *` or
//!    `|`) takes the label of its surroundings: content when the nearest lines with tokens
//!    before and after it are both content, boilerplate otherwise.
//!
//! The Myers diffs run under a time limit ([`TIME_LIMIT`], or the one given to
//! [`align_with_time_limit`]). Once it has passed, `similar` stops refining and leaves the
//! stretches it has not aligned yet unmatched; anchors still match. The labels are then
//! still one per line but may miss content, and depend on the machine's speed. Such pages
//! are flagged by [`Alignment::timed_out`]; otherwise the result depends only on the input.
//!
//! This file holds the alignment and the labels; `tokens.rs` cuts text into the tokens it
//! aligns.

#[cfg(test)]
mod tests;
mod tokens;

use std::collections::HashMap;
use std::ops::Range;
use std::time::{Duration, Instant};

use similar::algorithms::{Algorithm, DiffHook, diff_deadline};

#[cfg(test)]
pub use tokens::align_tokens;
use tokens::{Interner, Tokenized};

/// Share of a line's tokens that must be matched to gold tokens for the line to be labelled
/// content.
///
/// One half keeps lines whose text is mostly gold even when the page adds a few words
/// around it (a "Read more" link after a teaser paragraph, a date in front of a heading),
/// while a line that merely shares a phrase with the gold (a related-article title quoting
/// a few words of the article) stays boilerplate.
pub const MIN_MATCHED_FRACTION: f64 = 0.5;

/// Gold coverage below which a page counts as poorly aligned.
///
/// When less than this share of the gold tokens falls on lines labelled content, the labels
/// do not describe the page's main content well (the gold text may come from a different
/// rendering of the page, or the line splitter lost part of it). Such pages are better
/// reported, and possibly left out of training, than trusted.
pub const POOR_ALIGNMENT_COVERAGE: f64 = 0.8;

/// Shortest run of consecutive matched tokens (consecutive in both the page and the gold
/// text) that counts as a match; see the module documentation for the one exception.
pub const MIN_RUN_TOKENS: usize = 2;

/// Shortest run that counts in the second pass, which matches gold text the page shows in a
/// different order (step 5 of the module documentation). Longer than [`MIN_RUN_TOKENS`] because
/// out of order, a short phrase is more likely to be a repeat in the page's boilerplate than
/// the gold text's copy.
pub const REORDERED_MIN_RUN_TOKENS: usize = 5;

/// Default time limit of the diffs in [`align`].
///
/// A typical page aligns in about a millisecond and large ones in tens of milliseconds; the
/// limit only stops pathological inputs (long, highly repetitive token streams with few
/// anchors) from taking seconds.
pub const TIME_LIMIT: Duration = Duration::from_millis(500);

/// Result of aligning a page's lines with its gold main text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Alignment {
    /// One label per input line: `true` for main content, `false` for boilerplate.
    pub labels: Vec<bool>,
    /// Number of gold tokens (as split by `align_tokens`).
    pub gold_tokens: usize,
    /// Gold tokens matched to a token of a line labelled content. Matches that fall on a
    /// line labelled boilerplate are not counted: this measures how much of the gold text the
    /// content lines reproduce.
    pub matched_gold_tokens: usize,
    /// Number of tokens over all page lines.
    pub page_tokens: usize,
    /// The time limit passed before the alignment finished, so part of the page may have
    /// been left unaligned (see the module documentation).
    pub timed_out: bool,
}

impl Alignment {
    /// Share of the gold tokens reproduced by the lines labelled content:
    /// `matched_gold_tokens / gold_tokens`, or 1 when the gold text has no tokens.
    pub fn gold_coverage(&self) -> f64 {
        if self.gold_tokens == 0 {
            1.0
        } else {
            self.matched_gold_tokens as f64 / self.gold_tokens as f64
        }
    }

    /// Whether the gold coverage is below [`POOR_ALIGNMENT_COVERAGE`].
    pub fn is_poor(&self) -> bool {
        self.gold_coverage() < POOR_ALIGNMENT_COVERAGE
    }
}

/// Matched tokens `page[page..page + len] == gold[gold..gold + len]`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Run {
    page: usize,
    gold: usize,
    len: usize,
}

impl Run {
    fn page_end(&self) -> usize {
        self.page + self.len
    }

    fn gold_end(&self) -> usize {
        self.gold + self.len
    }
}

/// Collects the equal stretches of a diff of two filtered sequences as runs in the
/// coordinates of the unfiltered sequences, one run per matched token (merged later).
struct MatchCollector<'a> {
    page_positions: &'a [usize],
    gold_positions: &'a [usize],
    runs: Vec<Run>,
}

impl DiffHook for MatchCollector<'_> {
    type Error = std::convert::Infallible;

    fn equal(&mut self, old_index: usize, new_index: usize, len: usize) -> Result<(), Self::Error> {
        for k in 0..len {
            self.runs.push(Run {
                page: self.page_positions[old_index + k],
                gold: self.gold_positions[new_index + k],
                len: 1,
            });
        }
        Ok(())
    }
}

/// Merges runs that continue each other in both sequences. `runs` must be in order.
fn merge_runs(runs: Vec<Run>) -> Vec<Run> {
    let mut merged: Vec<Run> = Vec::with_capacity(runs.len());
    for run in runs {
        match merged.last_mut() {
            Some(last) if last.page_end() == run.page && last.gold_end() == run.gold => {
                last.len += run.len;
            }
            _ => merged.push(run),
        }
    }
    merged
}

/// Moves each run to the copy of its tokens, between its neighbours, whose gaps to the
/// neighbouring runs best agree in page and gold (step 3 of the module documentation).
fn shift_runs(runs: &mut [Run], page: &[u32], gold: &[u32], free: &[bool]) {
    for i in 0..runs.len() {
        let run = runs[i];
        let previous = i.checked_sub(1).map(|p| runs[p]);
        let next = runs.get(i + 1).copied();
        let low = previous.map_or(0, |p| p.page_end());
        let high = next.map_or(page.len(), |n| n.page);
        let cost = |start: usize| {
            let before = previous.map_or(0, |p| {
                (start - p.page_end()).abs_diff(run.gold - p.gold_end())
            });
            let after = next.map_or(0, |n| {
                (n.page - (start + run.len)).abs_diff(n.gold - run.gold_end())
            });
            before + after
        };

        let needle = &gold[run.gold..run.gold_end()];
        let mut best = (cost(run.page), run.page);
        if best.0 == 0 {
            continue;
        }
        for start in low..=high - run.len {
            if start != run.page
                && page[start] == needle[0]
                && page[start..][..run.len] == *needle
                && free[start..][..run.len].iter().all(|&f| f)
            {
                let c = cost(start);
                if c < best.0 {
                    best = (c, start);
                }
            }
        }
        runs[i].page = best.1;
    }
}

/// Length of the token n-grams used as anchors.
const ANCHOR_NGRAM: usize = 3;

/// Anchor pairs `(i, j)` with `page[i] == gold[j]`, increasing in both coordinates: the
/// longest chain of page positions where an n-gram starts that occurs exactly once in
/// `gold` (step 2 of the module documentation). `gold_line[j]` is the gold line of `gold[j]`.
///
/// Only n-grams within one gold line are used. An n-gram across a paragraph break would
/// match a second, uninterrupted copy of the text (a "republish this article" box, a print
/// version) but not the article itself when the page puts a link or an advertisement between
/// the paragraphs, and the longest chain would then prefer the copy.
fn anchors(page: &[u32], gold: &[u32], gold_line: &[u32]) -> Vec<(usize, usize)> {
    if page.len() < ANCHOR_NGRAM || gold.len() < ANCHOR_NGRAM {
        return Vec::new();
    }
    let mut unique: HashMap<&[u32], Option<usize>> = HashMap::with_capacity(gold.len());
    for (j, ngram) in gold.windows(ANCHOR_NGRAM).enumerate() {
        if gold_line[j] != gold_line[j + ANCHOR_NGRAM - 1] {
            continue;
        }
        unique
            .entry(ngram)
            .and_modify(|first| *first = None)
            .or_insert(Some(j));
    }
    let pairs: Vec<(usize, usize)> = page
        .windows(ANCHOR_NGRAM)
        .enumerate()
        .filter_map(|(i, ngram)| unique.get(ngram).copied().flatten().map(|j| (i, j)))
        .collect();
    longest_increasing_chain(&pairs)
}

/// Longest subsequence of `pairs` (sorted by strictly increasing first coordinate) whose
/// second coordinate strictly increases, in `O(n log n)`. Among equally long chains, earlier
/// pairs are preferred.
fn longest_increasing_chain(pairs: &[(usize, usize)]) -> Vec<(usize, usize)> {
    // tails[k]: index of the pair ending the best chain of length k + 1 found so far.
    let mut tails: Vec<usize> = Vec::new();
    let mut previous = vec![usize::MAX; pairs.len()];
    for (index, &(_, j)) in pairs.iter().enumerate() {
        let length = tails.partition_point(|&t| pairs[t].1 < j);
        if length > 0 {
            previous[index] = tails[length - 1];
        }
        if length == tails.len() {
            tails.push(index);
        } else if pairs[tails[length]].1 != j {
            tails[length] = index;
        }
    }
    let mut chain = Vec::with_capacity(tails.len());
    let mut at = tails.last().copied().unwrap_or(usize::MAX);
    while at != usize::MAX {
        chain.push(pairs[at]);
        at = previous[at];
    }
    chain.reverse();
    chain
}

/// Diffs the free tokens of `page` against the free tokens of `gold` and returns the
/// matched runs in page order, merged and shifted (steps 2 and 3 of the module
/// documentation). `vocabulary` is the number of distinct token ids.
fn diff_runs(
    page: &Tokenized,
    gold: &Tokenized,
    page_free: &[bool],
    gold_free: &[bool],
    vocabulary: usize,
    deadline: Option<Instant>,
) -> Vec<Run> {
    // Only tokens present on both sides can match; dropping the others keeps the diff
    // small without changing which tokens can be matched.
    let mut in_page = vec![false; vocabulary];
    let mut in_gold = vec![false; vocabulary];
    for (&t, _) in page.tokens.iter().zip(page_free).filter(|(_, f)| **f) {
        in_page[t as usize] = true;
    }
    for (&t, _) in gold.tokens.iter().zip(gold_free).filter(|(_, f)| **f) {
        in_gold[t as usize] = true;
    }
    let page_positions: Vec<usize> = (0..page.tokens.len())
        .filter(|&i| page_free[i] && in_gold[page.tokens[i] as usize])
        .collect();
    let gold_positions: Vec<usize> = (0..gold.tokens.len())
        .filter(|&j| gold_free[j] && in_page[gold.tokens[j] as usize])
        .collect();
    let page_seq: Vec<u32> = page_positions.iter().map(|&i| page.tokens[i]).collect();
    let gold_seq: Vec<u32> = gold_positions.iter().map(|&j| gold.tokens[j]).collect();
    let gold_line: Vec<u32> = gold_positions.iter().map(|&j| gold.line_of[j]).collect();

    let mut collector = MatchCollector {
        page_positions: &page_positions,
        gold_positions: &gold_positions,
        runs: Vec::new(),
    };
    // Diff the stretches between anchors; each anchor is a matched token pair.
    let (mut page_start, mut gold_start) = (0, 0);
    let end = (page_seq.len(), gold_seq.len());
    for (i, j) in anchors(&page_seq, &gold_seq, &gold_line)
        .into_iter()
        .chain([end])
    {
        if page_start < i && gold_start < j {
            let Ok(()) = diff_deadline(
                Algorithm::Myers,
                &mut collector,
                &page_seq,
                page_start..i,
                &gold_seq,
                gold_start..j,
                deadline,
            );
        }
        if (i, j) != end {
            let Ok(()) = collector.equal(i, j, 1);
        }
        (page_start, gold_start) = (i + 1, j + 1);
    }

    let mut runs = merge_runs(collector.runs);
    shift_runs(&mut runs, &page.tokens, &gold.tokens, page_free);
    merge_runs(runs)
}

/// Labels each of `lines` as main content (`true`) or boilerplate (`false`) by aligning it
/// with the gold main text `gold`, with the default [`TIME_LIMIT`].
///
/// `lines` are the page's text lines in reading order; `gold` is the plain gold text
/// (headings on their own lines, paragraphs separated by blank lines). See the module
/// documentation for the rules.
pub fn align<S: AsRef<str>>(lines: &[S], gold: &str) -> Alignment {
    align_with_time_limit(lines, gold, TIME_LIMIT)
}

/// Like [`align`], with a custom time limit for the diffs.
pub fn align_with_time_limit<S: AsRef<str>>(
    lines: &[S],
    gold: &str,
    time_limit: Duration,
) -> Alignment {
    let deadline = Instant::now().checked_add(time_limit);
    let mut interner = Interner::default();
    let mut buf = String::new();
    let page = Tokenized::new(lines.iter().map(AsRef::as_ref), &mut interner, &mut buf);
    let gold = Tokenized::new(gold.lines(), &mut interner, &mut buf);

    // First pass: the whole page against the whole gold text.
    let mut page_free = vec![true; page.tokens.len()];
    let mut gold_free = vec![true; gold.tokens.len()];
    let runs = diff_runs(
        &page,
        &gold,
        &page_free,
        &gold_free,
        interner.len(),
        deadline,
    );
    let mut counted: Vec<Run> = runs
        .into_iter()
        .filter(|run| {
            run.len >= MIN_RUN_TOKENS
                || (run.len == 1 && page.line_len(run.page) == 1 && gold.line_len(run.gold) == 1)
        })
        .collect();

    // Second pass: what is left of the gold text against what is left of the page, for
    // blocks the page shows in a different order than the gold text.
    for run in &counted {
        page_free[run.page..run.page_end()].fill(false);
        gold_free[run.gold..run.gold_end()].fill(false);
    }
    if gold_free.iter().any(|&f| f) {
        let runs = diff_runs(
            &page,
            &gold,
            &page_free,
            &gold_free,
            interner.len(),
            deadline,
        );
        counted.extend(
            runs.into_iter()
                .filter(|run| run.len >= REORDERED_MIN_RUN_TOKENS),
        );
    }
    let timed_out = deadline.is_some_and(|d| Instant::now() >= d);

    let mut matched = vec![0usize; lines.len()];
    for run in &counted {
        for i in run.page..run.page_end() {
            matched[page.line_of[i] as usize] += 1;
        }
    }
    let labels = label_lines(&page.lines, &matched);
    let matched_gold_tokens = counted
        .iter()
        .flat_map(|run| run.page..run.page_end())
        .filter(|&i| labels[page.line_of[i] as usize])
        .count();

    Alignment {
        labels,
        gold_tokens: gold.tokens.len(),
        matched_gold_tokens,
        page_tokens: page.tokens.len(),
        timed_out,
    }
}

/// Labels lines from their matched token counts (step 6 of the module documentation).
fn label_lines(lines: &[Range<usize>], matched: &[usize]) -> Vec<bool> {
    let mut labels: Vec<Option<bool>> = lines
        .iter()
        .zip(matched)
        .map(|(range, &m)| {
            (!range.is_empty()).then(|| m as f64 >= MIN_MATCHED_FRACTION * range.len() as f64)
        })
        .collect();

    // Lines without tokens: content only between two content lines.
    let mut previous = None;
    let mut pending = Vec::new();
    for i in 0..labels.len() {
        match labels[i] {
            None => pending.push(i),
            Some(label) => {
                let fill = previous == Some(true) && label;
                for p in pending.drain(..) {
                    labels[p] = Some(fill);
                }
                previous = Some(label);
            }
        }
    }
    labels.into_iter().map(|l| l.unwrap_or(false)).collect()
}
