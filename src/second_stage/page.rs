//! Page-level inputs of a second stage: each line's first-stage score seen against the whole
//! page, and pooled over the elements that contain the line.
//!
//! A window of scores never sees the page as a whole, so a page whose article scores a
//! little low everywhere, or whose menus score a little high, is decided the wrong way from
//! top to bottom. With the page's lines at hand, a line's score can be compared with the
//! page's mean, maximum and quantiles, and pooled over its enclosing elements
//! ([`crate::lines::Line::path`]): the text-weighted mean score of the line's block, its
//! container, its region and elements further up, and whether the line lies inside the
//! element that gathers the most text scored as content (the node a Readability-style
//! extractor would pick, chosen here with learned scores).
//!
//! Memory stays bounded: a page is read in blocks of at most [`MAX_LINES`] lines and about
//! [`MAX_TEXT_BYTES`] of text ([`Blocks`]); each block is treated as a page of its own. So
//! that the lines on either side of a cut are not decided at the edge of a block, blocks
//! overlap ([`handover`]): a full block decides its lines up to the middle of its last
//! [`OVERLAP_LINES`] lines, and those lines start the next block, where the first half is
//! context and the second half is decided. The cut depends only on the lines, never on how
//! the input bytes were chunked, and training cuts the pages of the labelled CSV in the
//! same places.

use crate::lines::{NO_ELEMENT, PATH_LEVELS};

/// Most lines in one block of a page.
pub const MAX_LINES: usize = 4096;

/// A block ends once its lines hold this much text (as read back from `ln_text_bytes`).
pub const MAX_TEXT_BYTES: u64 = 4 << 20;

/// The default [`crate::model::Stage2::min_block_lines`] of newly trained page-level
/// stages: blocks of fewer lines are decided by the first stage alone.
pub const MIN_BLOCK_LINES: usize = 32;

/// Levels of [`crate::lines::Line::path`] whose element's lines are pooled (0: the line's
/// own block, 1: its container, 2: its region, …).
pub const LEVELS: [usize; 6] = [0, 1, 2, 3, 5, 8];

/// The text bytes of a line, from its `ln(1 + text bytes)` feature.
#[inline]
pub fn text_bytes(ln_text_bytes: f32) -> u64 {
    let t = f64::from(ln_text_bytes).exp() - 1.0;
    if t.is_finite() && t > 0.0 {
        t.round() as u64
    } else {
        0
    }
}

/// Where a page is cut into blocks: feed each line's `ln_text_bytes` to [`Blocks::push`],
/// which says when the block that line ends is full.
#[derive(Debug, Clone, Default)]
pub struct Blocks {
    lines: usize,
    bytes: u64,
}

impl Blocks {
    /// A new page.
    pub fn new() -> Self {
        Self::default()
    }

    /// Counts one more line; true when the block is full with it (the next line starts a
    /// new block).
    pub fn push(&mut self, ln_text_bytes: f32) -> bool {
        self.lines += 1;
        self.bytes = self.bytes.saturating_add(text_bytes(ln_text_bytes));
        if self.lines >= MAX_LINES || self.bytes >= MAX_TEXT_BYTES {
            *self = Blocks::default();
            true
        } else {
            false
        }
    }
}

impl Blocks {
    /// A block that starts with lines carried over from the previous one (their
    /// `ln_text_bytes`), as [`handover`] chooses them: they count towards its limits.
    pub fn carrying(ln_text_bytes: &[f32]) -> Self {
        let mut b = Blocks::new();
        for &w in ln_text_bytes {
            let full = b.push(w);
            debug_assert!(!full, "carried lines never fill a block");
        }
        b
    }
}

/// Most lines a full block carries over into the next one (see [`handover`]).
pub const OVERLAP_LINES: usize = 256;

/// How a full block hands over to the next one (see [`handover`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Handover {
    /// The block decides its lines before this one (from its first line that is not
    /// context carried over from the block before).
    pub decided_end: usize,
    /// The block's lines from this one on start the next block; those before
    /// `decided_end` are context there, the others are decided there.
    pub carry_start: usize,
}

/// Where a full block of lines (their `ln_text_bytes`, the first `context` of which are
/// context carried over from the block before) hands over to the next block.
///
/// The last lines of the block, at most [`OVERLAP_LINES`] and half of [`MAX_TEXT_BYTES`] of
/// text, are carried over; the block decides the first half of them, with the second half
/// as lookahead, and the next block the second half, with the first half as look-behind. At
/// least one line of the block is decided, and the carried lines never fill the next block
/// by themselves.
pub fn handover(ln_text_bytes: &[f32], context: usize) -> Handover {
    let n = ln_text_bytes.len();
    let most = OVERLAP_LINES.min(n.saturating_sub(context + 1));
    let (mut carried, mut bytes) = (0, 0u64);
    while carried < most {
        let b = text_bytes(ln_text_bytes[n - 1 - carried]);
        if bytes.saturating_add(b) > MAX_TEXT_BYTES / 2 {
            break;
        }
        bytes += b;
        carried += 1;
    }
    Handover {
        decided_end: n - carried + carried / 2,
        carry_start: n - carried,
    }
}

/// Names of the page-level inputs, in row order.
pub fn names() -> Vec<String> {
    let mut n: Vec<String> = [
        "page_weighted_mean",
        "page_line_mean",
        "page_max",
        "page_q50",
        "page_q90",
        "page_kept_share",
        "ln_page_lines",
        "ln_page_text_bytes",
        "score_minus_page_weighted_mean",
        "score_minus_page_max",
        "score_rank",
        "text_share",
        "position",
    ]
    .map(String::from)
    .to_vec();
    for l in LEVELS {
        for stat in ["mean", "share", "ln_lines"] {
            n.push(format!("up{l}_{stat}"));
        }
    }
    n.extend(
        [
            "in_best",
            "best_mean",
            "best_share",
            "in_best_rel",
            "best_rel_mean",
            "best_rel_share",
            "ancestor_gain",
        ]
        .map(String::from),
    );
    n
}

/// Number of page-level inputs ([`names`]).
pub const N_INPUTS: usize = 13 + 3 * LEVELS.len() + 7;

#[derive(Debug, Clone, Copy, Default)]
struct Agg {
    text: f64,
    scored: f64,
    lines: u32,
    /// Σ text × (score − 0.5) and Σ text × (score − page mean).
    gain: f64,
    gain_rel: f64,
}

impl Agg {
    fn mean(&self) -> f32 {
        if self.text > 0.0 {
            (self.scored / self.text) as f32
        } else {
            0.0
        }
    }
}

/// Marks a missing element in the dense paths of [`append`].
const NONE: u32 = u32::MAX;

/// Page-level inputs ([`names`]) of each line of a block, from the lines' first-stage
/// `scores`, `ln(1 + text bytes)` and [`crate::lines::Line::path`]s (all of one length).
///
/// # Panics
/// When the slices differ in length.
#[cfg(test)]
pub fn inputs(scores: &[f32], ln_text: &[f32], paths: &[[u32; PATH_LEVELS]]) -> Vec<Vec<f32>> {
    let mut flat = vec![0.0; scores.len() * N_INPUTS];
    append(scores, ln_text, paths, None, &mut flat, N_INPUTS, 0);
    flat.chunks_exact(N_INPUTS).map(<[f32]>::to_vec).collect()
}

/// Writes a value at a time to a row.
struct Put<'a>(std::slice::IterMut<'a, f32>);

impl Put<'_> {
    #[inline]
    fn push(&mut self, v: f32) {
        *self.0.next().expect("room in the row") = v;
    }

    #[inline]
    fn extend(&mut self, values: impl IntoIterator<Item = f32>) {
        for v in values {
            self.push(v);
        }
    }
}

/// [`inputs`], written into `out`, whose rows (one per line) are `width` values long,
/// from value `start` of each row on; followed with `sigs` by the [`repeat_names`] inputs.
///
/// # Panics
/// When the slices differ in length, or the rows have no room for the inputs.
pub(crate) fn append(
    scores: &[f32],
    ln_text: &[f32],
    paths: &[[u32; PATH_LEVELS]],
    sigs: Option<&[Signature]>,
    out: &mut [f32],
    width: usize,
    start: usize,
) {
    let n = scores.len();
    assert!(
        ln_text.len() == n
            && paths.len() == n
            && out.len() == n * width
            && sigs.is_none_or(|s| s.len() == n),
        "one value per line"
    );
    if n == 0 {
        return;
    }
    let text: Vec<f64> = ln_text
        .iter()
        .map(|&w| text_bytes(w).max(1) as f64)
        .collect();
    let total: f64 = text.iter().sum();
    let scored: f64 = scores
        .iter()
        .zip(&text)
        .map(|(&s, &t)| f64::from(s) * t)
        .sum();
    let page_mean = (scored / total) as f32;
    let line_mean = (scores.iter().map(|&s| f64::from(s)).sum::<f64>() / n as f64) as f32;
    let max = scores.iter().copied().fold(f32::MIN, f32::max);
    let mut sorted = scores.to_vec();
    sorted.sort_by(f32::total_cmp);
    let quantile = |q: f64| sorted[((n - 1) as f64 * q).round() as usize];
    let kept: f64 = scores
        .iter()
        .zip(&text)
        .filter(|(s, _)| **s >= 0.5)
        .map(|(_, t)| t)
        .sum();

    // Every element on a path, with the lines under it: elements numbered densely in the
    // order first met, and each line's path in those numbers.
    // NOTE: room for as many elements as lines at once: growing the map rehashed it
    // several times per block.
    let mut index: std::collections::HashMap<
        u32,
        u32,
        std::hash::BuildHasherDefault<crate::lines::KeyHasher>,
    > = std::collections::HashMap::with_capacity_and_hasher(n, Default::default());
    let mut serials: Vec<u32> = Vec::new();
    let mut aggs: Vec<Agg> = Vec::new();
    let mut dense: Vec<[u32; PATH_LEVELS]> = Vec::with_capacity(n);
    let mut prev = (&[NO_ELEMENT; PATH_LEVELS], [NONE; PATH_LEVELS]);
    for i in 0..n {
        let (s, t) = (f64::from(scores[i]), text[i]);
        let mut d = [NONE; PATH_LEVELS];
        for (l, &e) in paths[i].iter().enumerate() {
            if e == NO_ELEMENT {
                continue;
            }
            // Lines next to each other mostly share their enclosing elements.
            let j = if prev.0[l] == e {
                prev.1[l]
            } else {
                *index.entry(e).or_insert_with(|| {
                    serials.push(e);
                    aggs.push(Agg::default());
                    (aggs.len() - 1) as u32
                })
            };
            d[l] = j;
            let a = &mut aggs[j as usize];
            a.text += t;
            a.scored += s * t;
            a.lines += 1;
            a.gain += t * (s - 0.5);
            a.gain_rel += t * (s - f64::from(page_mean));
        }
        dense.push(d);
        prev = (&paths[i], d);
    }
    // The best elements, ties broken by the smaller serial number.
    let best_by = |key: fn(&Agg) -> f64| {
        (0..aggs.len())
            .max_by(|&a, &b| {
                key(&aggs[a])
                    .total_cmp(&key(&aggs[b]))
                    .then(serials[b].cmp(&serials[a]))
            })
            .map(|j| (j as u32, aggs[j]))
    };
    let best = best_by(|a| a.gain);
    let best_rel = best_by(|a| a.gain_rel);
    let whole = Agg {
        text: total,
        scored,
        lines: n as u32,
        gain: 0.0,
        gain_rel: 0.0,
    };

    // What a line reads of an element it lies in: mean score, share of the text, lines.
    let pool = |a: &Agg| {
        [
            a.mean(),
            (a.text / total) as f32,
            f64::from(a.lines).ln_1p() as f32,
        ]
    };
    let pooled: Vec<[f32; 3]> = aggs.iter().map(pool).collect();
    let whole_pooled = pool(&whole);

    let ln_lines = (n as f64).ln_1p() as f32;
    let ln_total = total.ln_1p() as f32;
    let common = [
        page_mean,
        line_mean,
        max,
        quantile(0.5),
        quantile(0.9),
        (kept / total) as f32,
        ln_lines,
        ln_total,
    ];
    for (i, row) in out.chunks_exact_mut(width).enumerate() {
        let mut row = Put(row[start..start + N_INPUTS].iter_mut());
        let s = scores[i];
        let d = &dense[i];
        row.extend(common);
        row.push(s - page_mean);
        row.push(s - max);
        row.push(sorted.partition_point(|&v| v < s) as f32 / n as f32);
        row.push((text[i] / total) as f32);
        row.push(if n > 1 {
            i as f32 / (n - 1) as f32
        } else {
            0.0
        });
        for l in LEVELS {
            row.extend(if d[l] == NONE {
                whole_pooled
            } else {
                pooled[d[l] as usize]
            });
        }
        for best in [best, best_rel] {
            match best {
                Some((j, a)) => {
                    row.push(f32::from(u8::from(d.contains(&j))));
                    row.push(a.mean());
                    row.push((a.text / total) as f32);
                }
                None => row.extend([0.0, page_mean, 1.0]),
            }
        }
        let gain = d
            .iter()
            .filter(|&&j| j != NONE)
            .map(|&j| aggs[j as usize].gain)
            .fold(f64::MIN, f64::max);
        row.push(if gain == f64::MIN {
            0.0
        } else {
            (gain / total) as f32
        });
        debug_assert!(row.0.len() == 0, "every page input written");
    }
    if let Some(sigs) = sigs {
        append_repeats(
            scores,
            &text,
            total,
            paths,
            sigs,
            out,
            width,
            start + N_INPUTS,
        );
    }
}

/// Values per line of a [`Signature`].
pub const SIGNATURE_LEN: usize = 3;

/// What a line shares with the lines repeated alongside it, as hashes
/// ([`signature`]): its structure seen from its nearest classed ancestor, its structure
/// through all its listed ancestors, and its text.
pub type Signature = [u32; SIGNATURE_LEN];

/// A multiplicative hash that reads eight bytes at a step (the step of rustc's FxHash),
/// stable across builds and platforms (signatures are stored in the labelled CSV).
#[derive(Clone, Copy)]
struct WordHash(u64);

impl WordHash {
    const K: u64 = 0x517c_c1b7_2722_0a95;

    fn new() -> Self {
        WordHash(0)
    }

    fn word(&mut self, w: u64) {
        self.0 = (self.0.rotate_left(5) ^ w).wrapping_mul(Self::K);
    }

    /// The bytes, then their count (so that consecutive calls never run into each other).
    fn bytes(&mut self, bytes: &[u8]) {
        let mut words = bytes.chunks_exact(8);
        for w in &mut words {
            self.word(u64::from_le_bytes(w.try_into().expect("eight bytes")));
        }
        let rest = words.remainder();
        if !rest.is_empty() {
            let mut last = [0u8; 8];
            last[..rest.len()].copy_from_slice(rest);
            self.word(u64::from_le_bytes(last));
        }
        self.word(bytes.len() as u64);
    }

    /// The bytes of `descriptor` before any `#` (the id), digits left out.
    fn descriptor(&mut self, descriptor: &str) {
        let bytes = descriptor.as_bytes();
        let bytes = &bytes[..memchr::memchr(b'#', bytes).unwrap_or(bytes.len())];
        let mut buf = [0u8; crate::lines::MAX_DESCRIPTOR_BYTES];
        for part in bytes.chunks(buf.len()) {
            // NOTE: every byte is written and the count moves past it unless it is a
            // digit: no branch per byte.
            let mut n = 0;
            for &b in part {
                buf[n] = b;
                n += usize::from(!b.is_ascii_digit());
            }
            self.bytes(&buf[..n]);
        }
    }

    /// 32 bits drawn from the high half of one more product, where every input bit counts.
    fn finish(self) -> u32 {
        (self.0.wrapping_mul(Self::K) >> 32) as u32
    }
}

/// A line's [`Signature`]: lines of repeated sibling items (the cards of a product grid,
/// the rows of a list, the posts of a thread, the items of a menu) share the first two
/// values, lines of repeated text the third.
///
/// The structure is the line's block kind, heading level and depth, then the
/// `tag.class` descriptors of its classed ancestors ([`crate::lines::Line::ancestors`])
/// without their ids and digits, which often number the items: the nearest descriptor
/// for the first value, all of them for the second.
pub fn signature(line: &crate::lines::Line) -> Signature {
    sign(line, |d| descriptor_hash(d))
}

/// The [`signature`] of `line`, each ancestor descriptor hashed by `descriptor`.
fn sign(
    line: &crate::lines::Line,
    mut descriptor: impl FnMut(&std::sync::Arc<str>) -> u64,
) -> Signature {
    let mut near = WordHash::new();
    near.bytes(line.block.name().as_bytes());
    near.word(u64::from(line.heading) | u64::from(line.depth) << 8);
    let mut chain = near;
    for (i, d) in line.ancestors.iter().enumerate() {
        let h = descriptor(d);
        if i == 0 {
            near.word(h);
            chain = near;
        } else {
            chain.word(h);
        }
    }
    let mut text = WordHash::new();
    text.bytes(line.text.as_bytes());
    [near.finish(), chain.finish(), text.finish()]
}

/// The hash of one ancestor descriptor: its bytes before any `#`, digits left out.
fn descriptor_hash(descriptor: &str) -> u64 {
    let mut h = WordHash::new();
    h.descriptor(descriptor);
    h.0
}

/// A line's site fingerprint ([`crate::site`]): its structure through all its listed
/// ancestors (the second value of its [`signature`]: block kind, heading level, depth and
/// the classed ancestors' descriptors without ids and digits) with its text normalised
/// (letters lowercased, digits left out, every other run of characters one space); `None`
/// when the line has no letters. A line with more digits than letters keeps its digits:
/// its numbers are what it says (a size, a part number), and without them the values of
/// every page would share one fingerprint.
pub fn fingerprint(line: &crate::lines::Line) -> Option<u64> {
    fingerprint_and_signature(line).0
}

/// The [`fingerprint`] of a line and its [`signature`].
pub(crate) fn fingerprint_and_signature(line: &crate::lines::Line) -> (Option<u64>, Signature) {
    let sig = sign(line, |d| descriptor_hash(d));
    (fingerprint_of(sig[1], &line.text), sig)
}

/// The [`fingerprint`] of a line of structure `chain` (its [`signature`]'s second value)
/// and text `text`.
pub fn fingerprint_of(chain: u32, text: &str) -> Option<u64> {
    let mut norm = String::with_capacity(text.len());
    let mut gap = false;
    let (letters, digits) = text.chars().fold((0usize, 0usize), |(l, d), c| {
        (
            l + usize::from(c.is_alphabetic()),
            d + usize::from(c.is_numeric()),
        )
    });
    let keep_digits = digits > letters && letters > 0;
    for c in text.chars() {
        if c.is_alphabetic() || (keep_digits && c.is_numeric()) {
            if gap && !norm.is_empty() {
                norm.push(' ');
            }
            gap = false;
            norm.extend(c.to_lowercase());
        } else if !c.is_numeric() {
            gap = true;
        }
    }
    if norm.is_empty() {
        return None;
    }
    let mut h = WordHash::new();
    h.word(u64::from(chain));
    h.bytes(norm.as_bytes());
    Some(h.0.wrapping_mul(WordHash::K) | 1)
}

/// Slots of a [`Signer`]'s cache.
const SIGNER_SLOTS: usize = 64;

/// Computes [`signature`]s of the lines of a document, remembering the hashes of the
/// ancestor descriptors it has seen: the lines of one element share the same descriptors
/// ([`crate::lines::Line::ancestors`] holds shared strings), so most are hashed once. The
/// values are those of [`signature`].
#[derive(Debug, Clone)]
pub struct Signer {
    /// Descriptors seen lately (kept alive, so that an address is never reused while
    /// cached) and their hashes, by address.
    cache: Vec<(Option<std::sync::Arc<str>>, u64)>,
}

impl Default for Signer {
    fn default() -> Self {
        Self::new()
    }
}

impl Signer {
    /// A signer with an empty cache.
    pub fn new() -> Self {
        Signer {
            cache: vec![(None, 0); SIGNER_SLOTS],
        }
    }

    /// The [`signature`] of `line`.
    pub fn signature(&mut self, line: &crate::lines::Line) -> Signature {
        sign(line, |d| self.descriptor(d))
    }

    /// [`descriptor_hash`], remembered by the descriptor's address.
    fn descriptor(&mut self, d: &std::sync::Arc<str>) -> u64 {
        let slot = (std::sync::Arc::as_ptr(d).cast::<u8>() as usize >> 4) % SIGNER_SLOTS;
        if let (Some(seen), h) = &self.cache[slot]
            && std::sync::Arc::ptr_eq(seen, d)
        {
            return *h;
        }
        let h = descriptor_hash(d);
        self.cache[slot] = (Some(std::sync::Arc::clone(d)), h);
        h
    }
}

/// Names of the inputs a page-level stage reads from the lines' [`Signature`]s
/// ([`crate::model::Stage2::repeats`]), in row order, after [`names`].
pub fn repeat_names() -> Vec<String> {
    let mut n = Vec::new();
    for g in ["near", "chain"] {
        for stat in ["mean", "share", "ln_lines", "ln_items"] {
            n.push(format!("rep_{g}_{stat}"));
        }
    }
    n.extend(["dup_ln_lines", "dup_mean"].map(String::from));
    n
}

/// Number of [`repeat_names`].
pub const N_REPEAT_INPUTS: usize = 4 * 2 + 2;

/// Lines sharing one value of a [`Signature`] in a block.
#[derive(Debug, Clone, Copy, Default)]
struct Group {
    text: f64,
    scored: f64,
    score_sum: f64,
    lines: u32,
    /// Runs of consecutive lines of the group under different items (a line's container,
    /// or its block when it has none).
    items: u32,
    last_item: u32,
}

/// The [`repeat_names`] inputs of each line of a block, written into its `width`-long row
/// of `out` from value `start` on.
#[allow(clippy::too_many_arguments)]
fn append_repeats(
    scores: &[f32],
    text: &[f64],
    total: f64,
    paths: &[[u32; PATH_LEVELS]],
    sigs: &[Signature],
    out: &mut [f32],
    width: usize,
    start: usize,
) {
    type Map =
        std::collections::HashMap<u32, u32, std::hash::BuildHasherDefault<crate::lines::KeyHasher>>;
    let n = scores.len();
    let mut maps: [Map; SIGNATURE_LEN] =
        std::array::from_fn(|_| Map::with_capacity_and_hasher(n, Default::default()));
    let mut groups: [Vec<Group>; SIGNATURE_LEN] = Default::default();
    let mut dense = vec![[0u32; SIGNATURE_LEN]; n];
    for i in 0..n {
        let (s, t) = (f64::from(scores[i]), text[i]);
        let item = if paths[i][1] != NO_ELEMENT {
            paths[i][1]
        } else {
            paths[i][0]
        };
        for g in 0..SIGNATURE_LEN {
            let list = &mut groups[g];
            let j = *maps[g].entry(sigs[i][g]).or_insert_with(|| {
                list.push(Group {
                    last_item: NO_ELEMENT,
                    ..Group::default()
                });
                (list.len() - 1) as u32
            });
            dense[i][g] = j;
            let a = &mut list[j as usize];
            a.text += t;
            a.scored += s * t;
            a.score_sum += s;
            a.lines += 1;
            if a.lines == 1 || item != a.last_item {
                a.items += 1;
                a.last_item = item;
            }
        }
    }
    // What a line reads of each group it is in, once per group.
    let structure = |a: &Group| {
        [
            (a.scored / a.text) as f32,
            (a.text / total) as f32,
            f64::from(a.lines).ln_1p() as f32,
            f64::from(a.items).ln_1p() as f32,
        ]
    };
    let near: Vec<[f32; 4]> = groups[0].iter().map(structure).collect();
    let chain: Vec<[f32; 4]> = groups[1].iter().map(structure).collect();
    let dup: Vec<[f32; 2]> = groups[2]
        .iter()
        .map(|a| {
            [
                f64::from(a.lines).ln() as f32,
                (a.score_sum / f64::from(a.lines)) as f32,
            ]
        })
        .collect();
    for (row, d) in out.chunks_exact_mut(width).zip(&dense) {
        let mut row = Put(row[start..start + N_REPEAT_INPUTS].iter_mut());
        row.extend(near[d[0] as usize]);
        row.extend(chain[d[1] as usize]);
        row.extend(dup[d[2] as usize]);
    }
}

/// Formats a [`Signature`] for the labelled CSV's `sig` column: its values joined by
/// spaces.
pub fn format_signature(sig: &Signature) -> String {
    sig.map(|v| v.to_string()).join(" ")
}

/// Reads back [`format_signature`]; `None` when `s` is not such a list.
pub fn parse_signature(s: &str) -> Option<Signature> {
    let mut sig = [0; SIGNATURE_LEN];
    let mut parts = s.split_ascii_whitespace();
    for v in &mut sig {
        *v = parts.next()?.parse().ok()?;
    }
    parts.next().is_none().then_some(sig)
}

/// A line's [`crate::lines::Line::path`] as written in the labelled CSV: the serial
/// numbers joined by spaces, nearest first, unused entries left out.
pub fn format_path(path: &[u32; PATH_LEVELS]) -> String {
    let mut s = String::new();
    for &e in path.iter().filter(|&&e| e != NO_ELEMENT) {
        if !s.is_empty() {
            s.push(' ');
        }
        s.push_str(&e.to_string());
    }
    s
}

/// Reads back [`format_path`]; `None` when `s` is not such a list.
pub fn parse_path(s: &str) -> Option<[u32; PATH_LEVELS]> {
    let mut path = [NO_ELEMENT; PATH_LEVELS];
    for (i, part) in s.split_ascii_whitespace().enumerate() {
        let v: u32 = part.parse().ok()?;
        if i >= PATH_LEVELS || v == NO_ELEMENT {
            return None;
        }
        path[i] = v;
    }
    Some(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_round_trip_through_their_text() {
        let mut p = [NO_ELEMENT; PATH_LEVELS];
        assert_eq!(parse_path(&format_path(&p)), Some(p));
        p[..3].copy_from_slice(&[17, 4, 0]);
        assert_eq!(format_path(&p), "17 4 0");
        assert_eq!(parse_path("17 4 0"), Some(p));
        assert_eq!(parse_path("1 x"), None);
        assert_eq!(parse_path(&["1"; PATH_LEVELS + 1].join(" ")), None);
    }

    #[test]
    fn blocks_are_cut_by_lines_and_by_text() {
        let mut b = Blocks::new();
        let cuts: Vec<usize> = (0..2 * MAX_LINES + 5).filter(|_| b.push(1.0)).collect();
        assert_eq!(cuts.len(), 2);
        let mut b = Blocks::new();
        let big = ((1 << 20) as f32).ln_1p();
        assert_eq!(
            (0..4).map(|_| b.push(big)).collect::<Vec<_>>(),
            [false, false, false, true]
        );
    }

    #[test]
    fn the_input_count_matches_the_names() {
        assert_eq!(names().len(), N_INPUTS);
    }

    #[test]
    fn pooled_means_follow_the_elements() {
        let mut a = [NO_ELEMENT; PATH_LEVELS];
        a[..2].copy_from_slice(&[1, 0]);
        let mut b = a;
        b[0] = 2;
        let w = 3.0_f32.ln_1p();
        let rows = inputs(&[0.9, 0.7, 0.1], &[w, w, w], &[a, a, b]);
        let names = names();
        let col = |n: &str| names.iter().position(|x| x == n).unwrap();
        assert!((rows[0][col("up0_mean")] - 0.8).abs() < 1e-6);
        assert!((rows[2][col("up0_mean")] - 0.1).abs() < 1e-6);
        assert!((rows[2][col("up1_mean")] - 0.5666667).abs() < 1e-6);
        // Level 2 is missing: the whole page.
        assert!((rows[2][col("up2_share")] - 1.0).abs() < 1e-6);
        assert_eq!(rows[0][col("in_best")], 1.0);
        assert_eq!(rows[2][col("in_best")], 0.0);
    }

    #[test]
    fn signatures_round_trip_through_their_text() {
        let s = [0, 17, u32::MAX];
        assert_eq!(format_signature(&s), "0 17 4294967295");
        assert_eq!(parse_signature(&format_signature(&s)), Some(s));
        assert_eq!(parse_signature("1 2"), None);
        assert_eq!(parse_signature("1 2 3 4"), None);
        assert_eq!(parse_signature("1 x 3"), None);
        assert_eq!(repeat_names().len(), N_REPEAT_INPUTS);
    }

    #[test]
    fn repeated_lines_are_pooled_together() {
        // Three cards (elements 1, 2, 3 in container 0), their titles sharing a signature,
        // and a line of other structure whose text repeats the first title.
        let path = |block: u32, container: u32| {
            let mut p = [NO_ELEMENT; PATH_LEVELS];
            p[..2].copy_from_slice(&[block, container]);
            p
        };
        let paths = [path(4, 1), path(5, 2), path(6, 3), path(7, 0)];
        let sigs = [[1, 1, 9], [1, 1, 8], [1, 1, 7], [2, 2, 9]];
        let w = 3.0_f32.ln_1p();
        let names: Vec<String> = names().into_iter().chain(repeat_names()).collect();
        let mut flat = vec![0.0; 4 * names.len()];
        append(
            &[0.9, 0.6, 0.3, 0.1],
            &[w; 4],
            &paths,
            Some(&sigs),
            &mut flat,
            names.len(),
            0,
        );
        let rows: Vec<&[f32]> = flat.chunks_exact(names.len()).collect();
        assert!(rows.iter().all(|r| r.len() == names.len()));
        let col = |n: &str| names.iter().position(|x| x == n).unwrap();
        assert!((rows[1][col("rep_near_mean")] - 0.6).abs() < 1e-6);
        assert!((rows[1][col("rep_chain_share")] - 0.75).abs() < 1e-6);
        assert!((rows[0][col("rep_near_ln_items")] - 4.0_f32.ln()).abs() < 1e-6);
        assert!((rows[3][col("rep_near_ln_items")] - 2.0_f32.ln()).abs() < 1e-6);
        assert!((rows[3][col("dup_ln_lines")] - 2.0_f32.ln()).abs() < 1e-6);
        assert!((rows[3][col("dup_mean")] - 0.5).abs() < 1e-6);
        assert_eq!(rows[1][col("dup_ln_lines")], 0.0);
    }
}

/// The examples of this module's documentation, run as tests (the module is internal to
/// the crate, where documentation tests cannot reach).
#[cfg(test)]
mod doc_examples {
    #[test]
    fn doc_stack_page() -> Result<(), Box<dyn std::error::Error>> {
        use crate::lines::{NO_ELEMENT, PATH_LEVELS};
        use crate::second_stage::page::{inputs, names};

        // Two lines in one paragraph (element 3) inside an article (element 1), and a menu
        // item (element 5) inside a nav (element 4).
        let (mut a, mut b) = ([NO_ELEMENT; PATH_LEVELS], [NO_ELEMENT; PATH_LEVELS]);
        a[..2].copy_from_slice(&[3, 1]);
        b[..2].copy_from_slice(&[5, 4]);
        let rows = inputs(&[0.7, 0.8, 0.3], &[4.0, 4.5, 1.5], &[a, a, b]);
        assert_eq!(rows.len(), 3);
        assert!(rows.iter().all(|r| r.len() == names().len()));
        let in_best = names().iter().position(|n| n == "in_best").unwrap();
        assert_eq!([rows[0][in_best], rows[2][in_best]], [1.0, 0.0]);
        Ok(())
    }

    #[test]
    fn doc_stack_page_handover() -> Result<(), Box<dyn std::error::Error>> {
        use crate::second_stage::page::{Handover, OVERLAP_LINES, handover};
        let h = handover(&[1.0; 4096], 0);
        assert_eq!(h.carry_start, 4096 - OVERLAP_LINES);
        assert_eq!(h.decided_end, 4096 - OVERLAP_LINES / 2);
        // Lines of 1 MiB of text each: two are carried, the first decided here.
        let big = ((1u64 << 20) as f32).ln_1p();
        assert_eq!(
            handover(&[big; 4], 0),
            Handover {
                decided_end: 3,
                carry_start: 2
            }
        );
        Ok(())
    }

    #[test]
    fn doc_stack_page_signature() -> Result<(), Box<dyn std::error::Error>> {
        use crate::second_stage::page::signature;

        let html = b"<ul class=grid><li class=item-1>Red shoe</li><li class=item-2>Blue shoe</li>\
                     <li class=item-3>Red shoe</li></ul><p class=note>Red shoe</p>";
        let lines = crate::lines::split(html).unwrap();
        let s: Vec<_> = lines.iter().map(signature).collect();
        assert_eq!(s[0][..2], s[1][..2]);
        assert_ne!(s[0][0], s[3][0]);
        assert_eq!(s[0][2], s[2][2]);
        assert_ne!(s[0][2], s[1][2]);
        Ok(())
    }

    #[test]
    fn doc_stack_page_signer() -> Result<(), Box<dyn std::error::Error>> {
        use crate::second_stage::page::{Signer, signature};

        let lines = crate::lines::split(b"<div class=a><p class=b>One</p><p class=b>Two</p></div>")
            .unwrap();
        let mut signer = Signer::new();
        for line in &lines {
            assert_eq!(signer.signature(line), signature(line));
        }
        Ok(())
    }
}
