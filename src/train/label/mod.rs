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
//! 1. Page lines and gold text are split into tokens by [`align_tokens`]: lower-cased `\w+`
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

use std::collections::HashMap;
use std::ops::Range;
use std::sync::LazyLock;
use std::time::{Duration, Instant};

use regex::Regex;
use similar::algorithms::{Algorithm, DiffHook, diff_deadline};

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
    /// Number of gold tokens (as split by [`align_tokens`]).
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

/// Word runs, plus the invisible characters that may sit inside a word in HTML (soft
/// hyphen, zero-width space, word joiner, byte-order mark); those are dropped from tokens.
static WORDISH: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"[\w\u{AD}\u{200B}\u{2060}\u{FEFF}]+").expect("valid regex"));

fn is_invisible(c: char) -> bool {
    matches!(c, '\u{AD}' | '\u{200B}' | '\u{2060}' | '\u{FEFF}')
}

/// Characters of scripts written without spaces between words; each becomes a token: those
/// the line features count as a word each ([`crate::features::unspaced`]) and Hangul,
/// whose syllables are aligned one by one as well.
fn is_unspaced_script(c: char) -> bool {
    crate::features::unspaced(c)
        || matches!(c as u32,
            0x1100..=0x11FF     // Hangul Jamo
            | 0x3130..=0x318F   // Hangul compatibility Jamo
            | 0xA960..=0xA97F   // Hangul Jamo extended A
            | 0xAC00..=0xD7FF   // Hangul syllables, Jamo extended B
            | 0xFFA0..=0xFFDC   // half-width Hangul
        )
}

/// Calls `emit` with every alignment token of `text`, using `buf` as scratch space.
fn scan_tokens(text: &str, buf: &mut String, mut emit: impl FnMut(&str)) {
    for m in WORDISH.find_iter(text) {
        buf.clear();
        for c in m.as_str().chars() {
            if is_invisible(c) {
                continue;
            }
            if is_unspaced_script(c) {
                if !buf.is_empty() {
                    emit(buf);
                    buf.clear();
                }
                let mut one = [0u8; 4];
                emit(c.encode_utf8(&mut one));
            } else {
                // Per-character lower-casing, with final sigma folded to sigma, so a word
                // matches whatever its case or position.
                buf.extend(c.to_lowercase().map(|l| if l == 'ς' { 'σ' } else { l }));
            }
        }
        if !buf.is_empty() {
            emit(buf);
        }
    }
}

/// Splits `text` into the tokens used for alignment.
///
/// Like the benchmark's [`word_tokens`](crate::eval::word_tokens) — lower-cased runs of
/// Unicode word characters, punctuation dropped — with three differences that make page and
/// gold text match more often:
///
/// - characters of scripts written without spaces between words (Han, Hiragana, Katakana,
///   Hangul, Thai, Lao, Khmer, Myanmar) are one token each;
/// - soft hyphens, zero-width spaces, word joiners and byte-order marks inside a word are
///   dropped instead of splitting it;
/// - the Greek final sigma `ς` is folded to `σ`.
///
/// (The alignment itself scans tokens in place; this collects them, for the tests.)
#[cfg(test)]
pub fn align_tokens(text: &str) -> Vec<String> {
    let mut tokens = Vec::new();
    let mut buf = String::new();
    scan_tokens(text, &mut buf, |t| tokens.push(t.to_owned()));
    tokens
}

/// Maps token strings to small integer ids.
#[derive(Default)]
struct Interner {
    ids: HashMap<String, u32>,
}

impl Interner {
    fn intern(&mut self, token: &str) -> u32 {
        if let Some(&id) = self.ids.get(token) {
            return id;
        }
        let id = u32::try_from(self.ids.len()).expect("fewer than 2^32 distinct tokens");
        self.ids.insert(token.to_owned(), id);
        id
    }

    fn len(&self) -> usize {
        self.ids.len()
    }
}

/// A token stream cut into lines.
struct Tokenized {
    /// Token ids, all lines concatenated.
    tokens: Vec<u32>,
    /// For each token, the index of its line.
    line_of: Vec<u32>,
    /// For each line, its token range.
    lines: Vec<Range<usize>>,
}

impl Tokenized {
    fn new<'a>(
        lines: impl Iterator<Item = &'a str>,
        interner: &mut Interner,
        buf: &mut String,
    ) -> Self {
        let mut tokenized = Tokenized {
            tokens: Vec::new(),
            line_of: Vec::new(),
            lines: Vec::new(),
        };
        for (index, line) in lines.enumerate() {
            let start = tokenized.tokens.len();
            let line_id = u32::try_from(index).expect("fewer than 2^32 lines");
            scan_tokens(line, buf, |t| {
                tokenized.tokens.push(interner.intern(t));
                tokenized.line_of.push(line_id);
            });
            tokenized.lines.push(start..tokenized.tokens.len());
        }
        tokenized
    }

    fn line_len(&self, token: usize) -> usize {
        self.lines[self.line_of[token] as usize].len()
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn align_tokens_splits_unspaced_scripts_and_drops_soft_hyphens() {
        assert_eq!(align_tokens("Ein Über\u{AD}blick"), ["ein", "überblick"]);
        assert_eq!(
            align_tokens("東京で2024年"),
            ["東", "京", "で", "2024", "年"]
        );
    }

    const ARTICLE_TITLE: &str = "How to grow tomatoes on a balcony";
    const PARAGRAPH_1: &str = "Tomatoes need at least six hours of direct sun, so pick the \
                               brightest corner of the balcony and a pot of twenty litres or more.";
    const PARAGRAPH_2: &str = "Water them deeply twice a week rather than a little every day; \
                               shallow watering keeps the roots near the surface.";

    fn gold_article() -> String {
        format!("{ARTICLE_TITLE}\n\n{PARAGRAPH_1}\n\n{PARAGRAPH_2}")
    }

    #[test]
    fn navigation_and_footer_are_boilerplate_and_the_article_is_content() {
        let lines = [
            "Home",
            "Garden",
            "Balcony",
            "Subscribe to our newsletter",
            ARTICLE_TITLE,
            "By Jane Doe, 3 May 2024",
            PARAGRAPH_1,
            PARAGRAPH_2,
            "Related: ten herbs for the windowsill",
            "© 2024 Green Thumb Media. All rights reserved.",
        ];
        let a = align(&lines, &gold_article());
        assert_eq!(
            a.labels,
            [
                false, false, false, false, true, false, true, true, false, false
            ]
        );
        assert_eq!(a.gold_coverage(), 1.0);
        assert!(!a.is_poor());
        assert!(!a.timed_out);
        assert_eq!(a.gold_tokens, align_tokens(&gold_article()).len());
        assert_eq!(
            a.page_tokens,
            lines.iter().map(|l| align_tokens(l).len()).sum::<usize>()
        );
    }

    #[test]
    fn a_title_repeated_in_breadcrumbs_and_navigation_is_content_only_above_the_article() {
        let lines = [
            "Home › Garden › How to grow tomatoes on a balcony",
            "Popular: How to grow tomatoes on a balcony",
            "Menu",
            ARTICLE_TITLE,
            "Updated 3 May 2024",
            PARAGRAPH_1,
            PARAGRAPH_2,
            "You may also like: How to grow tomatoes on a balcony",
        ];
        let a = align(&lines, &gold_article());
        assert_eq!(
            a.labels,
            [false, false, false, true, false, true, true, false]
        );
        assert_eq!(a.gold_coverage(), 1.0);
    }

    #[test]
    fn a_title_alone_on_its_line_in_the_navigation_is_not_taken_for_the_heading() {
        // The navigation copy is the same line as the heading; the heading wins because it
        // sits right above the article's first paragraph, as in the gold text.
        let lines = [
            ARTICLE_TITLE,
            "Herbs",
            "Flowers",
            ARTICLE_TITLE,
            PARAGRAPH_1,
            PARAGRAPH_2,
        ];
        let a = align(&lines, &gold_article());
        assert_eq!(a.labels, [false, false, false, true, true, true]);
    }

    #[test]
    fn a_paragraph_with_a_read_more_link_appended_is_still_content() {
        let lines = [
            ARTICLE_TITLE.to_owned(),
            format!("{PARAGRAPH_1} Read more »"),
            PARAGRAPH_2.to_owned(),
        ];
        let a = align(&lines, &gold_article());
        assert_eq!(a.labels, [true, true, true]);
        assert_eq!(a.gold_coverage(), 1.0);
    }

    #[test]
    fn a_line_that_only_quotes_a_few_gold_words_is_boilerplate() {
        let lines = [
            ARTICLE_TITLE,
            PARAGRAPH_1,
            PARAGRAPH_2,
            "Readers also asked whether the roots near the surface need more fertiliser in \
             summer or whether compost is enough for a pot on the balcony",
        ];
        let a = align(&lines, &gold_article());
        assert_eq!(a.labels, [true, true, true, false]);
    }

    #[test]
    fn single_menu_words_that_occur_in_the_article_are_not_matched_by_chance() {
        // "garden", "sun" and "water" occur in the gold text, but only as single words far
        // from each other: no run of two tokens, so the menu stays boilerplate.
        let gold = "The garden opens at nine. Bring water and a hat against the sun.";
        let lines = ["Sun", "Garden", "Water", gold];
        let a = align(&lines, gold);
        assert_eq!(a.labels, [false, false, false, true]);
    }

    #[test]
    fn a_one_word_heading_matching_a_one_word_gold_line_is_content() {
        let gold =
            "Ingredients\n\nTwo eggs, flour and milk.\n\nMethod\n\nWhisk everything together.";
        let lines = [
            "Ingredients",
            "Advertisement",
            "Two eggs, flour and milk.",
            "Method",
            "Sponsored",
            "Whisk everything together.",
        ];
        let a = align(&lines, gold);
        assert_eq!(a.labels, [true, false, true, true, false, true]);
        assert_eq!(a.gold_coverage(), 1.0);
    }

    #[test]
    fn lines_without_tokens_take_the_label_of_their_surroundings() {
        let lines = [
            "—",
            ARTICLE_TITLE,
            "",
            PARAGRAPH_1,
            "* * *",
            PARAGRAPH_2,
            "|",
            "Contact us",
            "···",
        ];
        let a = align(&lines, &gold_article());
        assert_eq!(
            a.labels,
            [false, true, true, true, true, true, false, false, false]
        );
    }

    #[test]
    fn chinese_lines_match_per_character() {
        let gold = "北京今日天气晴朗，最高气温二十五度。\n\n市民纷纷前往公园散步。";
        let lines = [
            "首页 新闻 体育",
            "北京今日天气晴朗，最高气温二十五度。",
            "市民纷纷前往公园散步。点击查看更多",
            "版权所有",
        ];
        let a = align(&lines, gold);
        assert_eq!(a.labels, [false, true, true, false]);
        assert_eq!(a.gold_coverage(), 1.0);
    }

    #[test]
    fn japanese_text_with_a_different_line_break_still_aligns() {
        let gold = "東京で桜が満開になりました。週末は多くの人が花見を楽しみました。";
        let lines = [
            "ログイン",
            "東京で桜が満開になりました。",
            "週末は多くの人が花見を楽しみました。",
            "関連記事",
        ];
        let a = align(&lines, gold);
        assert_eq!(a.labels, [false, true, true, false]);
    }

    #[test]
    fn empty_gold_makes_every_line_boilerplate() {
        let lines = [ARTICLE_TITLE, PARAGRAPH_1, ""];
        for gold in ["", "\n\n", " … "] {
            let a = align(&lines, gold);
            assert_eq!(a.labels, [false, false, false]);
            assert_eq!(a.gold_tokens, 0);
            assert_eq!(a.gold_coverage(), 1.0);
        }
    }

    #[test]
    fn a_page_without_lines_has_no_labels_and_no_coverage() {
        let a = align::<&str>(&[], &gold_article());
        assert!(a.labels.is_empty());
        assert_eq!(a.matched_gold_tokens, 0);
        assert_eq!(a.gold_coverage(), 0.0);
        assert!(a.is_poor());
    }

    #[test]
    fn gold_text_missing_from_the_page_lowers_the_coverage() {
        let lines = [ARTICLE_TITLE, PARAGRAPH_1];
        let a = align(&lines, &gold_article());
        assert_eq!(a.labels, [true, true]);
        let expected = (align_tokens(ARTICLE_TITLE).len() + align_tokens(PARAGRAPH_1).len()) as f64
            / align_tokens(&gold_article()).len() as f64;
        assert!((a.gold_coverage() - expected).abs() < 1e-12);
        assert!(a.is_poor());
    }

    #[test]
    fn punctuation_case_and_soft_hyphens_do_not_matter() {
        let gold = "“Don’t panic,” she said — it’s only a test.";
        let lines = ["\"DON'T PANIC\", she said - it's only a te\u{AD}st!"];
        let a = align(&lines, gold);
        assert_eq!(a.labels, [true]);
        assert_eq!(a.gold_coverage(), 1.0);
    }

    #[test]
    fn paragraphs_the_page_shows_in_another_order_than_the_gold_are_both_content() {
        let lines = [ARTICLE_TITLE, PARAGRAPH_2, "Advertisement", PARAGRAPH_1];
        let a = align(&lines, &gold_article());
        assert_eq!(a.labels, [true, true, false, true]);
        assert_eq!(a.gold_coverage(), 1.0);
    }

    #[test]
    fn a_short_phrase_out_of_order_is_not_matched_by_the_second_pass() {
        // The page lacks the first paragraph; a teaser after the second one quotes four of
        // its words. Out of order and shorter than five tokens: not counted.
        let lines = [PARAGRAPH_2, "Next: pick the brightest corner"];
        let gold = format!("{PARAGRAPH_1}\n\n{PARAGRAPH_2}");
        let a = align(&lines, &gold);
        assert_eq!(a.labels, [true, false]);

        // Five words are enough.
        let lines = [PARAGRAPH_2, "Next: pick the brightest corner of"];
        let a = align(&lines, &gold);
        assert_eq!(a.labels, [true, true]);
    }

    #[test]
    fn an_uninterrupted_copy_of_the_article_later_in_the_page_does_not_take_over() {
        // The article is interrupted by a newsletter box; a "republish this story" box at
        // the end holds the whole text in one line, paragraph breaks included.
        let lines = [
            ARTICLE_TITLE.to_owned(),
            PARAGRAPH_1.to_owned(),
            "Sign up for the newsletter and get the best tips every week".to_owned(),
            PARAGRAPH_2.to_owned(),
            "Republish this story".to_owned(),
            format!("<h1>{ARTICLE_TITLE}</h1> <p>{PARAGRAPH_1}</p> <p>{PARAGRAPH_2}</p>"),
        ];
        let a = align(&lines, &gold_article());
        assert_eq!(a.labels, [true, true, false, true, false, false]);
    }

    #[test]
    fn a_sentence_repeated_in_a_teaser_after_the_article_stays_content_in_the_article() {
        let lines = [
            ARTICLE_TITLE,
            PARAGRAPH_1,
            PARAGRAPH_2,
            "Most read this week",
            PARAGRAPH_2,
        ];
        let a = align(&lines, &gold_article());
        assert_eq!(a.labels, [true, true, true, false, false]);
    }

    #[test]
    fn a_page_repeating_a_long_article_three_times_aligns_with_one_copy() {
        // Pseudo-random words from a small vocabulary: few tokens are unique, the case where
        // a plain diff of the token streams is quadratic.
        let mut state = 7u64;
        let mut word = || {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            format!("w{}", (state >> 33) % 2000)
        };
        let gold_lines: Vec<String> = (0..300)
            .map(|_| (0..30).map(|_| word()).collect::<Vec<_>>().join(" "))
            .collect();
        let menu: Vec<String> = (0..200)
            .map(|_| (0..4).map(|_| word()).collect::<Vec<_>>().join(" "))
            .collect();
        let mut lines = Vec::new();
        for _ in 0..3 {
            lines.extend(menu.iter().cloned());
            lines.extend(gold_lines.iter().cloned());
        }
        let gold = gold_lines.join("\n\n");

        // NOTE: speed is measured by the corpus run (src/tests/label_corpus.rs), not here: a
        // generous limit keeps this test about the result on a loaded machine.
        let a = align_with_time_limit(&lines, &gold, Duration::from_secs(120));
        assert!(!a.timed_out);
        assert_eq!(a.gold_coverage(), 1.0);
        assert_eq!(a.labels.iter().filter(|&&l| l).count(), gold_lines.len());
        // The first copy, by the tie rule for equally good copies.
        assert!(a.labels[200..500].iter().all(|&l| l));
    }

    #[test]
    fn a_zero_time_limit_is_reported_and_still_gives_one_label_per_line() {
        let mut lines = vec!["Menu".to_owned()];
        for i in 0..200 {
            lines.push(format!("item {i} of the list with shared words"));
        }
        let gold: String = (0..200)
            .map(|i| format!("item {} of the list with shared words\n", 199 - i))
            .collect();
        let a = align_with_time_limit(&lines, &gold, Duration::ZERO);
        assert!(a.timed_out);
        assert_eq!(a.labels.len(), lines.len());
    }

    #[test]
    fn alignment_tokens_split_unspaced_scripts_per_character() {
        assert_eq!(
            align_tokens("Samsung 갤럭시 출시, ราคา 30000"),
            [
                "samsung", "갤", "럭", "시", "출", "시", "ร", "า", "ค", "า", "30000"
            ]
        );
        assert_eq!(align_tokens("ΣΟΦΟΣ σοφος"), ["σοφοσ", "σοφοσ"]);
        assert_eq!(align_tokens("a\u{200B}b c"), ["ab", "c"]);
        assert!(align_tokens("— · …").is_empty());
    }

    #[test]
    fn labels_fill_lines_without_tokens_between_content_lines_only() {
        let lines = [0..0, 0..2, 2..2, 2..4, 4..4, 4..6, 6..6];
        let matched = [0, 2, 0, 2, 0, 0, 0];
        assert_eq!(
            label_lines(&lines, &matched),
            [false, true, true, true, false, false, false]
        );
    }

    #[test]
    fn the_anchor_chain_is_the_longest_increasing_one_preferring_earlier_copies() {
        let pairs = [
            (0, 5),
            (1, 0),
            (2, 1),
            (3, 9),
            (4, 2),
            (5, 0),
            (6, 1),
            (7, 3),
        ];
        assert_eq!(
            longest_increasing_chain(&pairs),
            [(1, 0), (2, 1), (4, 2), (7, 3)]
        );
        assert!(longest_increasing_chain(&[]).is_empty());
    }

    #[test]
    fn anchors_are_trigrams_unique_in_the_gold_and_within_one_gold_line() {
        // gold: 1 2 3 | 4 5 6 1 2 3  (the line break falls after the first 3)
        let gold = [1, 2, 3, 4, 5, 6, 1, 2, 3];
        let gold_line = [0, 0, 0, 1, 1, 1, 1, 1, 1];
        // "1 2 3" is not unique and "3 4 5" spans the break: only 4 5 6, 5 6 1 and 6 1 2 anchor.
        let page = [9, 3, 4, 5, 6, 1, 2, 3];
        assert_eq!(anchors(&page, &gold, &gold_line), [(2, 3), (3, 4), (4, 5)]);
    }

    #[test]
    fn shifting_moves_a_run_next_to_its_gold_neighbour() {
        // page: t1 t2 x x x t1 t2 b1 b2 ; gold: t1 t2 b1 b2
        let page = [1, 2, 9, 9, 9, 1, 2, 3, 4];
        let gold = [1, 2, 3, 4];
        let mut runs = vec![
            Run {
                page: 0,
                gold: 0,
                len: 2,
            },
            Run {
                page: 7,
                gold: 2,
                len: 2,
            },
        ];
        shift_runs(&mut runs, &page, &gold, &[true; 9]);
        assert_eq!(
            merge_runs(runs),
            [Run {
                page: 5,
                gold: 0,
                len: 4
            }]
        );
    }
}

/// The examples of this module's documentation, run as tests (the module is internal to
/// the crate, where documentation tests cannot reach).
#[cfg(test)]
mod doc_examples {
    #[test]
    fn doc_train_label() -> Result<(), Box<dyn std::error::Error>> {
        use crate::train::label::align;

        let lines = [
            "Home | News | Sport",
            "Storm closes the harbour",
            "The harbour stayed shut on Monday after the storm damaged the pier.",
            "Share this article",
            "© 2024 Example News",
        ];
        let gold = "Storm closes the harbour\n\n\
                    The harbour stayed shut on Monday after the storm damaged the pier.";

        let alignment = align(&lines, gold);
        assert_eq!(alignment.labels, [false, true, true, false, false]);
        assert_eq!(alignment.gold_coverage(), 1.0);
        Ok(())
    }
}
