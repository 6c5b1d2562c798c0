//! Corrections applied after the model's decisions. First, a floor under a page's
//! decisions: a page with prose never comes out empty or nearly so.
//!
//! A model trained on WCXB pages has seen few pages like a user's first try: a handful of
//! paragraphs, a title, maybe a code block. On such pages it can score every line below its
//! threshold, although it still ranks the paragraphs above the rest. The floor looks at
//! what the decisions kept against the page's prose: the text of lines of at least
//! [`PROSE_MIN_BYTES`] that are mostly not links and lie outside the landmarks that hold a
//! page's navigation and asides (`<nav>`, `<footer>`, `<aside>` and their roles), whose
//! text is never the main text however long it is (newsletter terms, addresses, opening
//! hours). Pages with less prose than [`PAGE_MIN_BYTES`] (link lists, forms, empty pages)
//! are left as decided. Otherwise:
//!
//! - when a page comes out nearly empty ([`LONG`]), the threshold of the page is lowered to
//!   the score of the prose line at which the best scored prose lines hold a share of the
//!   prose;
//! - on a short page ([`SHORT`]), every prose line scored at least a fraction of the best
//!   scored prose line's score is kept: a short page is mostly its prose, and where the
//!   first stage scores a paragraph far below the best one (a cookie notice, a sign-up
//!   prompt under a forum post), it is not.
//!
//! Either way every line scored at least as high as the lowest prose line kept is kept as
//! well. The floor only ever adds lines, and the lines it adds are the ones the model
//! scored highest: what the model ranks is kept, where its threshold would have cut.
//!
//! A page without prose can still have a main text: a listing's product names and prices,
//! a shop's category links, lines of fewer than 40 bytes or mostly links. [`fill_empty_page`] keeps
//! such a page from coming out empty: when a whole page keeps nothing although it has at
//! least [`BODY_MIN_BYTES`] of text outside the landmarks, its lines outside the landmarks
//! scored at least [`EMPTY_PAGE_NEAR_BEST`] of the best of them are kept. A page whose text is
//! all menus and footers (a page drawn by scripts before they run) stays empty.
//!
//! The cards of one grid, the rows of one table and the posts of one thread score alike
//! but not equally, and a threshold that falls among them keeps some and drops the rest,
//! or one that falls just above them drops them all. [`whole_groups`] keeps such a group
//! (the lines of one structure, [`super::page::Signature`], within one element a few
//! levels up) whole, outside the landmarks: once a fifth of it is kept, its lines scored
//! at least half as high as the lowest of the group's kept lines; when it is short lines
//! and links holding more text than the lines kept, half of them scored at least 0.6 of
//! the threshold, all of them.
//!
//! A page often prints one text twice: the article again in a print or mobile copy, a
//! product's details in a second layout, a forum post inside the reply that quotes it,
//! the same grid of teasers above and below. Gold text (and a reader) has it once, and the
//! model cannot tell the copies apart: it scores them alike. [`drop_repeated_text`] drops
//! a kept line whose text a line kept before it on the page already holds, in another
//! structure (the second value of their [`super::page::Signature`]s differs) and at least
//! [`REPEAT_MIN_DISTANCE`] lines back, when the text has at least [`REPEAT_MIN_WORDS`]
//! words ([`repeat_candidate`]: not code, not a table cell, whose repeats are the page's
//! content). Copies in one structure are the items of one list or grid (the same terms
//! under each offer of a listing) and copies next to each other a title repeated as its
//! summary: both are left as decided.
//!
//! A line whose whole text is the site's name ([`super::hints::site_name_line`]: a logo's
//! text, a masthead, the one heading of a page drawn by scripts) is never kept: [`apply_corrections`]
//! drops it before the floor and again after the groups.

/// Lines with less text than this (bytes) are not prose: menus, buttons, captions.
pub const PROSE_MIN_BYTES: u64 = 40;

/// Lines whose text lies inside links for at least this share are not prose.
pub const PROSE_MAX_LINK_DENSITY: f64 = 0.5;

/// Pages (blocks) with less prose than this, in bytes, are left as decided.
pub const PAGE_MIN_BYTES: u64 = 250;

/// A whole page that keeps nothing although it holds at least this much text (bytes)
/// outside the navigation, footer and aside landmarks is [`fill_empty_page`]d.
pub const BODY_MIN_BYTES: u64 = 250;

/// The lines [`fill_empty_page`] keeps: those outside the landmarks scored at least this fraction
/// of the best such line's score.
pub const EMPTY_PAGE_NEAR_BEST: f32 = 0.5;

/// When the floor applies, and how much of the prose it then keeps.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Floor {
    /// The decisions are left alone when the kept lines hold at least this many bytes of
    /// text (any text, prose or not) …
    pub min_kept_bytes: u64,
    /// … and at least this share of the page's prose in bytes of text.
    pub min_kept_share: f64,
    /// Otherwise the best scored prose lines are kept until they hold this share of the
    /// prose, with every line scored as high.
    pub share: f64,
    /// Whatever was kept, the prose lines scored at least this fraction of the best scored
    /// prose line's score are kept, with every line scored as high (0: none).
    pub near_best: f32,
}

/// The floor of blocks decided by the second stage: only a page that comes out nearly
/// empty (less than 100 bytes of text) gets the best fifth of its prose. Chosen by
/// cross-validation on WCXB (`training/README.md`): a floor that also applies to pages
/// keeping a small share of their prose adds the teasers and reviews of listing,
/// collection and product pages, whose content is not their prose.
pub const LONG: Floor = Floor {
    min_kept_bytes: 100,
    min_kept_share: 0.0,
    share: 0.2,
    near_best: 0.0,
};

/// The floor of blocks decided by the first stage alone (fewer lines than
/// [`crate::model::Stage2::min_block_lines`]): short pages, mostly prose, where the first
/// stage's scores still carry what it learnt of long pages (a page's first lines are its
/// menus), so it drops the opening paragraphs of a five-paragraph page or the paragraph
/// before a code block. Every prose line scored at least a fifth of the best prose line's
/// score is kept. On WCXB's short pages the boilerplate prose (sign-up prompts and legal
/// notes around a forum post, a "turn on JavaScript" notice) scores under a tenth of the
/// post; on short pages written as prose, the paragraphs the threshold drops score a
/// fifth to four fifths of the best (`training/README.md`).
pub const SHORT: Floor = Floor {
    min_kept_bytes: 0,
    min_kept_share: 0.0,
    share: 0.0,
    near_best: 0.2,
};

/// The prose of a line, in bytes (text outside links), from its text bytes, link density
/// and whether it lies in a navigation, footer or aside landmark: 0 for lines that are not
/// prose (see [`PROSE_MIN_BYTES`], [`PROSE_MAX_LINK_DENSITY`], [`crate::features::LANDMARKS`]).
#[inline]
pub fn prose_bytes(text_bytes: u64, link_density: f32, landmark: bool) -> u64 {
    let link = f64::from(link_density).clamp(0.0, 1.0);
    if landmark || text_bytes < PROSE_MIN_BYTES || link >= PROSE_MAX_LINK_DENSITY {
        0
    } else {
        (text_bytes as f64 * (1.0 - link)).round() as u64
    }
}

/// One line as the floor sees it: its text bytes and its [`prose_bytes`], from its
/// `ln_text_bytes`, `link_density` and landmark features, as the extractor and training
/// both compute them.
#[inline]
pub fn line_bytes(ln_text_bytes: f32, link_density: f32, landmark: bool) -> (u64, u64) {
    let text = super::page::text_bytes(ln_text_bytes);
    (text, prose_bytes(text, link_density, landmark))
}

/// The text of a line outside the navigation, footer and aside landmarks, in bytes (0 in
/// a landmark), from its `ln_text_bytes` feature, as [`fill_empty_page`] counts it.
#[inline]
pub fn body_bytes(ln_text_bytes: f32, landmark: bool) -> u64 {
    if landmark {
        0
    } else {
        super::page::text_bytes(ln_text_bytes)
    }
}

/// Keeps a whole page from coming out empty when it has text outside its landmarks:
/// `scores` are its lines' scores, `body` their [`body_bytes`] and `keep` the decisions.
/// When nothing is kept and the lines hold at least [`BODY_MIN_BYTES`] of body text, the
/// lines with body text scored at least [`EMPTY_PAGE_NEAR_BEST`] of the best of them are kept.
/// Returns whether anything was added. Apply it to a whole page, not to a block of one:
/// a block of a long page may rightly keep nothing.
///
/// # Panics
/// When the slices differ in length.
pub fn fill_empty_page(scores: &[f32], body: &[u64], keep: &mut [bool]) -> bool {
    assert!(
        scores.len() == body.len() && body.len() == keep.len(),
        "one value per line"
    );
    if keep.iter().any(|&k| k) || body.iter().sum::<u64>() < BODY_MIN_BYTES {
        return false;
    }
    let best = scores
        .iter()
        .zip(body)
        .filter(|(_, b)| **b > 0)
        .map(|(&s, _)| s)
        .fold(f32::NEG_INFINITY, f32::max);
    let mut changed = false;
    for ((k, &s), &b) in keep.iter_mut().zip(scores).zip(body) {
        if b > 0 && s >= EMPTY_PAGE_NEAR_BEST * best {
            *k = true;
            changed = true;
        }
    }
    changed
}

/// Groups of repeated lines with fewer lines than this are left as decided by [`whole_groups`].
pub const GROUP_MIN_LINES: u32 = 3;

/// The level of [`crate::lines::Line::path`] whose element a group of [`whole_groups`]
/// lies in (0: the line's block, 1: its container, 2: its region, …).
pub const GROUP_LEVEL: usize = 5;

/// The group of a line for [`whole_groups`]: the first value of its
/// [`super::page::Signature`] within its element at [`GROUP_LEVEL`] of its path.
#[inline]
pub fn group_of(
    signature: &super::page::Signature,
    path: &[u32; crate::lines::PATH_LEVELS],
) -> u64 {
    u64::from(signature[0]) << 32 | u64::from(path[GROUP_LEVEL])
}

/// [`whole_groups`] adds the lines of a group scored at least this fraction of the lowest
/// score of its kept lines.
pub const GROUP_NEAR_KEPT: f32 = 0.5;

/// [`whole_groups`] keeps a group whole once at least this share of its lines is kept.
pub const GROUP_KEEP_SHARE: f64 = 0.2;

/// [`whole_groups`] keeps a group of short or link lines whole when at least half its
/// lines score at least this fraction of the threshold, kept or not, and the group holds
/// more text than the lines kept so far.
pub const GROUP_NEAR_THRESHOLD: f32 = 0.6;

/// Keeps whole the groups of repeated lines that are partly kept, or that hold the page's
/// content although the threshold drops them: the cards of a listing, the rows of a table,
/// the posts of a thread.
///
/// Each line scores on its own, and the cards of one grid score alike but not equally:
/// a model whose threshold falls among them keeps the cards with a longer teaser and drops
/// the rest, and a model whose threshold falls just above a listing of short link lines
/// keeps its heading and drops the listing. `lines` are the block's lines with their
/// groups ([`BlockLines::groups`], [`group_of`]: the same structure seen from the nearest
/// classed ancestor, within one element [`GROUP_LEVEL`] levels up; without them nothing is
/// added); `keep` the decisions. A group
/// of at least [`GROUP_MIN_LINES`] lines is kept whole, its lines outside the landmarks
/// added:
///
/// - when at least [`GROUP_KEEP_SHARE`] of its lines are kept: the lines scored at least
///   [`GROUP_NEAR_KEPT`] of the lowest kept line's score (on a page without classes, where
///   a footer's paragraphs share the structure of the article's, those score far lower);
/// - when its text is mostly not prose (short lines and links, see [`prose_bytes`]), it
///   holds more text than all the lines kept so far outside the landmarks (some) and
///   at least half its lines score at least [`GROUP_NEAR_THRESHOLD`] of the threshold:
///   all of them. The teasers after an article are prose, and the floor sees to prose; a
///   page that keeps nothing is left to the floor and the empty-page fill.
///
/// Returns whether anything was added.
///
/// # Panics
/// When the slices differ in length.
pub fn whole_groups(lines: &BlockLines<'_>, keep: &mut [bool]) -> bool {
    let BlockLines {
        scores,
        threshold,
        bytes,
        body,
        groups,
        ..
    } = *lines;
    let Some(groups) = groups else {
        return false;
    };
    assert!(
        scores.len() == groups.len()
            && groups.len() == bytes.len()
            && bytes.len() == body.len()
            && body.len() == keep.len(),
        "one value per line"
    );
    if !keep.iter().any(|&k| k) {
        return false;
    }
    /// A group's lines, kept lines, lowest kept score, lines scored near the threshold,
    /// body text and prose.
    #[derive(Clone, Copy)]
    struct Count {
        lines: u32,
        kept: u32,
        lowest: f32,
        near: u32,
        body: u64,
        prose: u64,
    }
    let mut counts: std::collections::HashMap<
        u64,
        Count,
        std::hash::BuildHasherDefault<crate::lines::KeyHasher>,
    > = std::collections::HashMap::with_capacity_and_hasher(groups.len(), Default::default());
    let near = GROUP_NEAR_THRESHOLD * threshold;
    let mut kept_body = 0;
    for (i, (&g, &k)) in groups.iter().zip(keep.iter()).enumerate() {
        let (s, b) = (scores[i], body[i]);
        let c = counts.entry(g).or_insert(Count {
            lines: 0,
            kept: 0,
            lowest: f32::INFINITY,
            near: 0,
            body: 0,
            prose: 0,
        });
        c.lines += 1;
        c.near += u32::from(s >= near);
        c.body += b;
        c.prose += bytes[i].1;
        if k {
            c.kept += 1;
            c.lowest = c.lowest.min(s);
            kept_body += b;
        }
    }
    let mut changed = false;
    for (((k, g), &b), &s) in keep.iter_mut().zip(groups).zip(body).zip(scores) {
        if *k || b == 0 {
            continue;
        }
        let c = counts[g];
        let partly_kept = f64::from(c.kept) >= GROUP_KEEP_SHARE * f64::from(c.lines)
            && s >= GROUP_NEAR_KEPT * c.lowest;
        let dropped_listing =
            kept_body > 0 && c.body > kept_body && 2 * c.prose <= c.body && 2 * c.near >= c.lines;
        if c.lines >= GROUP_MIN_LINES && (partly_kept || dropped_listing) {
            *k = true;
            changed = true;
        }
    }
    changed
}

/// Lines with fewer words than this are never dropped by [`drop_repeated_text`]: a short
/// repeated line (a label, a price, "Read more") says little, and whether it belongs is
/// the model's decision. Replayed on WCXB's held-out decisions (training/HISTORY.md, "Text
/// kept twice"), 3, 5, 8 and 12 words gain about alike (0.0049 to 0.0039 of page F1).
pub const REPEAT_MIN_WORDS: f32 = 5.0;

/// [`drop_repeated_text`] drops a copy only when the kept copy before it lies at least this
/// many lines back on the page: a line right after its copy is a heading repeated as the
/// summary under it, which the gold text has twice.
pub const REPEAT_MIN_DISTANCE: usize = 3;

/// The most texts [`RepeatedText`] remembers on one page: past it, later texts are no
/// longer dropped (memory stays bounded on a page of millions of lines).
pub const REPEAT_MAX_TEXTS: usize = 1 << 16;

/// Whether a line may be dropped as a repeat by [`drop_repeated_text`]: from its
/// `ln(1 + words)` and where it stands, at least [`REPEAT_MIN_WORDS`] words and neither
/// code (`<pre>`) nor in a table cell, whose repeats are content.
#[inline]
pub fn repeat_candidate(ln_words: f32, pre: bool, cell: bool) -> bool {
    ln_words >= REPEAT_MIN_WORDS.ln_1p() && !pre && !cell
}

/// [`repeat_candidate`] of a line from its feature row (the columns of `features`).
#[inline]
pub fn repeat_candidate_row(row: &[f32]) -> bool {
    use crate::features::column;
    repeat_candidate(
        row[column::LN_WORDS],
        row[column::TAG_PRE] > 0.0,
        row[column::TAG_CELL] > 0.0 || row[column::IN_CELL] > 0.0,
    )
}

/// A [`repeat_candidate`]'s text and structure for [`drop_repeated_text`]: the third and
/// second values of its [`super::page::Signature`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct KeptText {
    /// The hash of the line's text.
    pub text: u32,
    /// The hash of its structure through its classed ancestors.
    pub structure: u32,
}

impl KeptText {
    /// The text and structure of a line of signature `sig`.
    pub fn of(sig: &super::page::Signature) -> Self {
        KeptText {
            text: sig[2],
            structure: sig[1],
        }
    }
}

/// What [`drop_repeated_text`] remembers of one page: the texts kept so far, each with the
/// line where it was last kept and that line's structure. One per page,
/// [`RepeatedText::clear`]ed between pages; its blocks are passed in order. Texts are
/// compared by their 32-bit hash: two different texts of a page share one about once in
/// four billion pairs, and the later of them is then dropped.
#[derive(Debug, Clone, Default)]
pub struct RepeatedText {
    last_kept: std::collections::HashMap<u32, (usize, u32)>,
    /// The page line of the next block's first decided line.
    next: usize,
}

impl RepeatedText {
    /// Nothing kept yet: the start of a page.
    pub fn new() -> Self {
        Self::default()
    }

    /// Forgets the page (keeps the memory).
    pub fn clear(&mut self) {
        self.last_kept.clear();
        self.next = 0;
    }
}

/// Drops the kept lines of one block whose text a line kept earlier on the page already
/// holds, in another structure and at least [`REPEAT_MIN_DISTANCE`] lines back (see the
/// module's documentation). `texts` holds each decided line's [`KeptText`] when it is a
/// [`repeat_candidate`]; `seen` carries the page's kept texts from block to block. Returns
/// whether a line was dropped.
///
/// # Panics
/// When `texts` and `keep` differ in length.
pub fn drop_repeated_text(
    texts: &[Option<KeptText>],
    seen: &mut RepeatedText,
    keep: &mut [bool],
) -> bool {
    assert_eq!(texts.len(), keep.len(), "one value per line");
    let start = seen.next;
    seen.next += keep.len();
    let mut changed = false;
    for (i, (k, text)) in keep.iter_mut().zip(texts).enumerate() {
        let (true, Some(text)) = (*k, *text) else {
            continue;
        };
        let at = start + i;
        let full = seen.last_kept.len() >= REPEAT_MAX_TEXTS;
        match seen.last_kept.get_mut(&text.text) {
            Some(&mut (line, structure))
                if structure != text.structure && at - line >= REPEAT_MIN_DISTANCE =>
            {
                *k = false;
                changed = true;
            }
            Some(last) => *last = (at, text.structure),
            None if !full => {
                seen.last_kept.insert(text.text, (at, text.structure));
            }
            None => {}
        }
    }
    changed
}

/// The lines of one block as [`apply_corrections`] reads them: their scores, their text and prose
/// bytes ([`line_bytes`]), their [`body_bytes`] and, when known, their groups
/// ([`group_of`]).
#[derive(Debug, Clone, Copy)]
pub struct BlockLines<'a> {
    /// Each line's score.
    pub scores: &'a [f32],
    /// The score at which the lines are kept (the threshold of the stage that decided them).
    pub threshold: f32,
    /// Each line's text and prose bytes.
    pub bytes: &'a [(u64, u64)],
    /// Each line's text outside the landmarks.
    pub body: &'a [u64],
    /// Each line's group, when the lines' signatures are known.
    pub groups: Option<&'a [u64]>,
    /// Whether each line only repeats the site's name
    /// ([`super::hints::site_name_line`]), when the page hints are known.
    pub site_names: Option<&'a [bool]>,
    /// Each line's table cell ([`super::tables::cell_of`]), when the lines' paths are
    /// known.
    pub cells: Option<&'a [super::tables::Cell]>,
    /// Each line's text and structure when it is a [`repeat_candidate`]
    /// ([`drop_repeated_text`]), when the lines' signatures are known.
    pub texts: Option<&'a [Option<KeptText>]>,
}

/// What follows the model's decisions on one block, in order: the lines that only repeat
/// the site's name are dropped (when known: a logo's text, a masthead), then come the
/// `floor`, the [`fill_empty_page`] when the block is the `whole_page`, and [`whole_groups`] when
/// the lines' groups are known, none of which keeps a line of the site's name again; last,
/// with the lines' texts known, the texts kept earlier on the page are dropped
/// ([`drop_repeated_text`], which remembers the page's texts in `seen`). The extractor and
/// training both decide through it, so the order is one. Returns whether any decision
/// changed.
///
/// # Panics
/// When the slices differ in length.
pub fn apply_corrections(
    floor: Floor,
    lines: BlockLines<'_>,
    whole_page: bool,
    seen: &mut RepeatedText,
    keep: &mut [bool],
) -> bool {
    let mut changed = drop_site_names(lines.site_names, keep);
    changed |= floor.apply(lines.scores, lines.bytes, keep);
    if whole_page {
        changed |= fill_empty_page(lines.scores, lines.body, keep);
    }
    changed |= whole_groups(&lines, keep);
    if let Some(cells) = lines.cells {
        changed |= super::tables::whole_tables(cells, lines.body, keep);
    }
    drop_site_names(lines.site_names, keep);
    match lines.texts {
        Some(texts) => changed |= drop_repeated_text(texts, seen, keep),
        // The page's lines still count: a later block's distances are page lines.
        None => seen.next += keep.len(),
    }
    changed
}

/// Drops the kept lines marked in `site_names`; whether any was kept.
fn drop_site_names(site_names: Option<&[bool]>, keep: &mut [bool]) -> bool {
    let Some(site_names) = site_names else {
        return false;
    };
    assert_eq!(site_names.len(), keep.len(), "one value per line");
    let mut changed = false;
    for (k, &site) in keep.iter_mut().zip(site_names) {
        if site && *k {
            *k = false;
            changed = true;
        }
    }
    changed
}

/// Whether a line's [`crate::lines::Line::context`] lies in a navigation, footer or aside
/// landmark (the context bits behind the features that [`in_landmark`] reads).
pub fn landmark_context(context: u16) -> bool {
    use crate::lines::ctx;
    context & (ctx::NAV | ctx::FOOTER | ctx::ASIDE) != 0
}

/// Whether a first-stage feature row (the full schema, [`crate::features::names`]) lies
/// in a navigation, footer or aside landmark.
#[inline]
pub fn in_landmark(row: &[f32]) -> bool {
    crate::features::LANDMARKS.iter().any(|&i| row[i] > 0.0)
}

impl Floor {
    /// Applies the floor to one page (or block of a page): `scores` are the lines'
    /// scores, `bytes` their text and prose bytes ([`line_bytes`]) and `keep` the
    /// decisions, which lines may be added to. Returns whether anything was added.
    ///
    /// # Panics
    /// When the slices differ in length.
    pub fn apply(&self, scores: &[f32], bytes: &[(u64, u64)], keep: &mut [bool]) -> bool {
        assert!(
            scores.len() == bytes.len() && bytes.len() == keep.len(),
            "one value per line"
        );
        let total: u64 = bytes.iter().map(|b| b.1).sum();
        if total < PAGE_MIN_BYTES {
            return false;
        }
        let kept: u64 = bytes
            .iter()
            .zip(keep.iter())
            .filter(|(_, k)| **k)
            .map(|(b, _)| b.0)
            .sum();
        let mut ranked: Vec<(f32, u64)> = scores
            .iter()
            .zip(bytes)
            .filter(|(_, b)| b.1 > 0)
            .map(|(&s, b)| (s, b.1))
            .collect();
        ranked.sort_by(|a, b| b.0.total_cmp(&a.0));
        let mut cut = f32::INFINITY;
        if kept < self.min_kept_bytes || (kept as f64) < self.min_kept_share * total as f64 {
            let want = self.share * total as f64;
            let mut sum = 0u64;
            for &(s, p) in &ranked {
                sum += p;
                cut = s;
                if sum as f64 >= want {
                    break;
                }
            }
        }
        if self.near_best > 0.0 {
            let best = ranked[0].0;
            let near = ranked.iter().take_while(|r| r.0 >= self.near_best * best);
            if let Some(last) = near.last() {
                cut = cut.min(last.0);
            }
        }
        if cut == f32::INFINITY {
            return false;
        }
        let mut changed = false;
        for (k, &s) in keep.iter_mut().zip(scores) {
            if !*k && s >= cut {
                *k = true;
                changed = true;
            }
        }
        changed
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn links_and_short_lines_are_not_prose() {
        assert_eq!(prose_bytes(39, 0.0, false), 0);
        assert_eq!(prose_bytes(100, 0.5, false), 0);
        assert_eq!(prose_bytes(100, 0.49, false), 51);
        assert_eq!(prose_bytes(100, 0.0, false), 100);
        assert_eq!(prose_bytes(500, 0.0, true), 0);
    }

    /// Lines of the given prose bytes, all of it text.
    fn prose(bytes: &[u64]) -> Vec<(u64, u64)> {
        bytes.iter().map(|&b| (b.max(1), b)).collect()
    }

    #[test]
    fn pages_that_keep_enough_text_are_left_alone() {
        let scores = [0.9, 0.15, 0.1];
        let bytes = prose(&[600, 400, 0]);
        let mut keep = [true, false, false];
        assert!(!SHORT.apply(&scores, &bytes, &mut keep));
        assert!(!LONG.apply(&scores, &bytes, &mut keep));
        assert_eq!(keep, [true, false, false]);
    }

    #[test]
    fn pages_without_prose_are_left_empty() {
        let scores = [0.3, 0.2];
        let bytes = prose(&[100, 100]);
        let mut keep = [false, false];
        assert!(!SHORT.apply(&scores, &bytes, &mut keep));
        assert_eq!(keep, [false, false]);
    }

    #[test]
    fn the_best_scored_prose_is_kept_up_to_the_share() {
        // Prose of 1000 bytes: the two best lines hold 600 of it, half is 500.
        let scores = [0.1, 0.4, 0.35, 0.2, 0.38];
        let bytes = prose(&[0, 300, 300, 400, 0]);
        let mut keep = [false; 5];
        let half = Floor { share: 0.5, ..LONG };
        assert!(half.apply(&scores, &bytes, &mut keep));
        // Every line scored at least 0.35 is kept, prose or not.
        assert_eq!(keep, [false, true, true, false, true]);
    }

    #[test]
    fn a_long_page_is_floored_only_when_nearly_empty() {
        let scores = [0.9, 0.1, 0.2];
        // 60 bytes of kept text: nearly empty, whatever the share.
        let mut keep = [true, false, false];
        assert!(LONG.apply(&scores, &[(60, 60), (500, 500), (500, 500)], &mut keep));
        assert_eq!(keep, [true, false, true]);
        // 120 bytes: left alone on a long page.
        let bytes = [(120, 120), (500, 500), (500, 500)];
        let mut keep = [true, false, false];
        assert!(!LONG.apply(&scores, &bytes, &mut keep));
        assert_eq!(keep, [true, false, false]);
    }

    #[test]
    fn a_short_page_keeps_the_prose_scored_near_its_best() {
        // The best prose line scores 0.9: a fifth of it is 0.18.
        let scores = [0.9, 0.1, 0.2, 0.19, 0.3];
        let bytes = [(120, 120), (500, 500), (500, 500), (20, 0), (30, 0)];
        let mut keep = [true, false, false, false, false];
        assert!(SHORT.apply(&scores, &bytes, &mut keep));
        // Line 1 is prose scored below 0.18; lines 3 and 4 are no prose but score at least
        // as high as the lowest prose line kept (0.2), line 3 does not.
        assert_eq!(keep, [true, false, true, false, true]);
    }

    #[test]
    fn landmark_text_is_not_prose_to_floor_with() {
        // A newsletter's terms in a footer, and a cookie note: nothing to floor with.
        let scores = [0.3, 0.2];
        let bytes = [
            (280, prose_bytes(280, 0.1, true)),
            (60, prose_bytes(60, 0.0, false)),
        ];
        let mut keep = [false, false];
        assert!(!LONG.apply(&scores, &bytes, &mut keep));
        assert!(!SHORT.apply(&scores, &bytes, &mut keep));
        assert_eq!(keep, [false, false]);
    }

    #[test]
    fn a_whole_page_with_body_text_is_rescued_only_when_empty() {
        let scores = [0.2, 0.3, 0.1, 0.4];
        // The best body line scores 0.3 (line 3, 0.4, is in a landmark): lines of at
        // least 0.15 with body text are kept.
        let body = [100, 100, 100, 0];
        let mut keep = [false; 4];
        assert!(fill_empty_page(&scores, &body, &mut keep));
        assert_eq!(keep, [true, true, false, false]);
        // A page that keeps something is left alone.
        let mut keep = [false, false, true, false];
        assert!(!fill_empty_page(&scores, &body, &mut keep));
        assert_eq!(keep, [false, false, true, false]);
        // Menus and footers alone, or too little text: left empty.
        let mut keep = [false; 4];
        assert!(!fill_empty_page(&scores, &[0, 0, 0, 0], &mut keep));
        assert!(!fill_empty_page(&scores, &[100, 100, 49, 0], &mut keep));
        assert_eq!(keep, [false; 4]);
        assert_eq!(body_bytes(f64::from(100u32).ln_1p() as f32, false), 100);
        assert_eq!(body_bytes(f64::from(100u32).ln_1p() as f32, true), 0);
    }

    #[test]
    fn text_kept_earlier_elsewhere_on_the_page_is_dropped() {
        let (a, b) = (1, 2);
        let t = |text, structure| Some(KeptText { text, structure });
        // Text 10 kept at line 0 in structure a, again at line 4 in structure b: the copy
        // goes. Text 11, at lines 1 and 2 in two structures, is a copy next to its line and
        // stays; text 12 at lines 3 and 6 in one structure (two cards of one grid) stays.
        // Lines without a text are no candidates (code, a cell, a short line).
        let texts = [
            t(10, a),
            t(11, a),
            t(11, b),
            t(12, a),
            t(10, b),
            None,
            t(12, a),
        ];
        let mut keep = [true; 7];
        let mut seen = RepeatedText::new();
        assert!(drop_repeated_text(&texts, &mut seen, &mut keep));
        assert_eq!(keep, [true, true, true, true, false, true, true]);
        // The next block's copy of text 11, at line 9, is seven lines after its last kept
        // copy (line 2, structure b) and goes in structure a. A line not kept is never
        // seen: text 13, dropped by the model at line 7, stays when kept at line 10.
        let texts = [t(13, a), None, t(11, a)];
        let mut keep = [false, true, true];
        assert!(drop_repeated_text(&texts, &mut seen, &mut keep));
        assert_eq!(keep, [false, true, false]);
        let mut keep = [true];
        assert!(!drop_repeated_text(&[t(13, b)], &mut seen, &mut keep));
        assert_eq!(keep, [true]);
        // A new page starts empty.
        seen.clear();
        let mut keep = [true];
        assert!(!drop_repeated_text(&[t(10, b)], &mut seen, &mut keep));
        assert_eq!(keep, [true]);
    }

    #[test]
    fn repeat_candidates_are_long_lines_outside_code_and_cells() {
        let five = 5f32.ln_1p();
        assert!(repeat_candidate(five, false, false));
        assert!(!repeat_candidate(4f32.ln_1p(), false, false));
        assert!(!repeat_candidate(five, true, false));
        assert!(!repeat_candidate(five, false, true));
    }

    #[test]
    fn lines_of_the_site_name_are_never_kept() {
        let settled = |scores: &[f32], keep: &mut [bool], site: Option<&[bool]>| {
            let n = scores.len();
            let lines = BlockLines {
                scores,
                threshold: 0.5,
                bytes: &vec![(100, 0); n],
                body: &vec![100; n],
                groups: None,
                site_names: site,
                cells: None,
                texts: None,
            };
            apply_corrections(LONG, lines, true, &mut RepeatedText::new(), keep)
        };
        let site = [true, false, false];
        let mut keep = [true, true, false];
        assert!(settled(&[0.9, 0.8, 0.1], &mut keep, Some(&site)));
        assert_eq!(keep, [false, true, false]);
        // Dropping the name leaves the page empty: the empty-page fill keeps the lines scored near
        // the best, but not the name again.
        let mut keep = [true, false, false];
        assert!(settled(&[0.9, 0.6, 0.1], &mut keep, Some(&site)));
        assert_eq!(keep, [false, true, false]);
        // Unknown names change nothing.
        let mut keep = [true, true, false];
        assert!(!settled(&[0.9, 0.8, 0.1], &mut keep, None));
        assert_eq!(keep, [true, true, false]);
    }

    /// [`whole_groups`] of lines with these scores, body text and prose (the text of a
    /// line without prose is short or links), kept at `threshold`.
    fn groups_kept(
        scores: &[f32],
        threshold: f32,
        (body, prose): (&[u64], &[u64]),
        groups: &[u64],
        keep: &mut [bool],
    ) -> bool {
        let bytes: Vec<(u64, u64)> = body.iter().copied().zip(prose.iter().copied()).collect();
        let lines = BlockLines {
            scores,
            threshold,
            bytes: &bytes,
            body,
            groups: Some(groups),
            site_names: None,
            cells: None,
            texts: None,
        };
        whole_groups(&lines, keep)
    }

    #[test]
    fn partly_kept_groups_are_kept_whole() {
        // Five cards of one grid (group 7), two of them kept; a menu (group 9) in a
        // landmark, one item kept; a pair (group 3), one kept.
        let groups = [9, 9, 9, 7, 7, 7, 7, 7, 3, 3];
        let body = [0, 0, 0, 30, 30, 30, 30, 30, 30, 30];
        let text = (&body[..], &[0; 10][..]);
        let mut keep = [
            true, false, false, true, false, true, false, false, true, false,
        ];
        assert!(groups_kept(&[0.5; 10], 0.9, text, &groups, &mut keep));
        assert_eq!(
            keep,
            [
                true, false, false, true, true, true, true, true, true, false
            ]
        );
        // Lines scored under half the lowest kept line of their group stay dropped.
        let mut keep = [true, true, false, false, false];
        let scores = [0.6, 0.5, 0.3, 0.24, 0.1];
        assert!(groups_kept(
            &scores,
            1.0,
            (&[10; 5], &[0; 5]),
            &[1; 5],
            &mut keep
        ));
        assert_eq!(keep, [true, true, true, false, false]);
        // A group of which less than a fifth is kept, its lines scored far under the
        // threshold, stays as decided.
        let text = (&[10; 6][..], &[0; 6][..]);
        let mut keep = [true, false, false, false, false, false];
        assert!(!groups_kept(&[0.5; 6], 0.9, text, &[1; 6], &mut keep));
        assert_eq!(keep, [true, false, false, false, false, false]);
        // Nothing kept: nothing added.
        let mut keep = [false; 6];
        assert!(!groups_kept(&[0.5; 6], 0.9, text, &[1; 6], &mut keep));
        assert_eq!(keep, [false; 6]);
    }

    #[test]
    fn dropped_listings_scored_near_the_threshold_are_kept_whole() {
        // A heading kept (group 5) over a listing of four short rows (group 1) dropped by
        // a narrow margin: three rows score at least 0.6 of the threshold (0.5) and the
        // rows hold more text than the heading, so all four are kept but the one in a
        // landmark. Links (group 2) scored far lower stay dropped.
        let scores = [0.6, 0.4, 0.35, 0.31, 0.1, 0.1, 0.2, 0.1];
        let groups = [5, 1, 1, 1, 1, 2, 2, 2];
        let body = [25, 10, 10, 10, 0, 10, 10, 10];
        let prose = [0; 8];
        let mut keep = [true, false, false, false, false, false, false, false];
        assert!(groups_kept(
            &scores,
            0.5,
            (&body, &prose),
            &groups,
            &mut keep
        ));
        assert_eq!(keep, [true, true, true, true, false, false, false, false]);
        // A group with less text than the kept lines stays dropped, however near the
        // threshold.
        let body = [40, 10, 10, 10, 0, 10, 10, 10];
        let mut keep = [true, false, false, false, false, false, false, false];
        assert!(!groups_kept(
            &scores,
            0.5,
            (&body, &prose),
            &groups,
            &mut keep
        ));
        // So does prose: the teasers after an article, left to the floor.
        let scores = [0.6, 0.4, 0.35, 0.31];
        let (body, prose) = ([45, 60, 60, 60], [45, 60, 60, 0]);
        let mut keep = [true, false, false, false];
        assert!(!groups_kept(
            &scores,
            0.5,
            (&body, &prose),
            &[5, 1, 1, 1],
            &mut keep
        ));
        // Half the lines near the threshold is enough; fewer is not.
        let text = (&[10; 5][..], &[0; 5][..]);
        let groups = [5, 1, 1, 1, 1];
        let mut keep = [true, false, false, false, false];
        let scores = [0.9, 0.35, 0.3, 0.1, 0.1];
        assert!(groups_kept(&scores, 0.5, text, &groups, &mut keep));
        assert_eq!(keep, [true; 5]);
        let mut keep = [true, false, false, false, false];
        let scores = [0.9, 0.35, 0.29, 0.1, 0.1];
        assert!(!groups_kept(&scores, 0.5, text, &groups, &mut keep));
        // A page that keeps nothing, or only in its landmarks, is left to the floor and
        // the empty-page fill.
        let scores = [0.9, 0.45, 0.45, 0.45, 0.45];
        let mut keep = [false; 5];
        assert!(!groups_kept(&scores, 0.5, text, &groups, &mut keep));
        let mut keep = [true, false, false, false, false];
        let in_nav = (&[0, 10, 10, 10, 10][..], &[0; 5][..]);
        assert!(!groups_kept(&scores, 0.5, in_nav, &groups, &mut keep));
        // Two lines near the threshold are not a group.
        let mut keep = [true, false, false];
        let text = (&[1, 10, 10][..], &[0; 3][..]);
        assert!(!groups_kept(
            &[0.9, 0.4, 0.4],
            0.5,
            text,
            &[5, 1, 1],
            &mut keep
        ));
    }

    #[test]
    fn text_bytes_come_back_from_the_feature() {
        assert_eq!(
            line_bytes(f64::from(100u32).ln_1p() as f32, 0.25, false),
            (100, 75)
        );
        assert_eq!(line_bytes(0.0, 0.0, false), (0, 0));
        assert_eq!(
            line_bytes(f64::from(100u32).ln_1p() as f32, 0.0, true),
            (100, 0)
        );
    }
}

/// The examples of this module's documentation, run as tests (the module is internal to
/// the crate, where documentation tests cannot reach).
#[cfg(test)]
mod doc_examples {
    #[test]
    fn doc_stack_floor() -> Result<(), Box<dyn std::error::Error>> {
        use crate::second_stage::corrections::{SHORT, prose_bytes};

        // Three paragraphs scored below a threshold of 0.5, and a short menu line.
        let scores = [0.30, 0.25, 0.28, 0.10];
        let bytes = [(400, 0.0), (300, 0.0), (350, 0.1), (12, 1.0)]
            .map(|(t, l)| (t, prose_bytes(t, l, false)));
        let mut keep = [false; 4];
        assert!(SHORT.apply(&scores, &bytes, &mut keep));
        assert_eq!(keep, [true, true, true, false]);
        Ok(())
    }

    #[test]
    fn doc_stack_floor_rescue() -> Result<(), Box<dyn std::error::Error>> {
        use crate::second_stage::corrections::fill_empty_page;

        // A listing: product names and prices in short link lines the model scores low,
        // and a footer (no body text). The names are kept; the prices, scored under half
        // the best name, are not.
        let scores = [0.30, 0.28, 0.12, 0.26, 0.11, 0.05];
        let body = [120, 110, 20, 100, 20, 0];
        let mut keep = [false; 6];
        assert!(fill_empty_page(&scores, &body, &mut keep));
        assert_eq!(keep, [true, true, false, true, false, false]);
        Ok(())
    }
}
