//! The feature schema: one named, documented list of numeric columns per line.
//!
//! This list is the only definition of the features. The CSV written by `mainline lines`
//! and `mainline label`, the columns `mainline train` reads and the inputs a model file
//! names all come from [`names`]. A row has, in this order:
//!
//! 1. the [`BASE`] features of the line itself: the seed design's three attributes
//!    (`density`, `ln_html_bytes`, `ln_text_bytes`), link density, structural context
//!    (enclosing block, nav/header/footer/aside/…, class and id hints, depth, heading
//!    level) and cheap text statistics;
//! 2. the [`NEIGHBOUR`] attributes of the lines before it (`prev1_…` nearest, up to
//!    `prev3_…`) and after it (`next1_…` … `next3_…`), [`MAX_CONTEXT`] on each side.
//!    A neighbour that does not exist (start or end of the page, or beyond the context a
//!    model uses) has all its values 0.
//!
//! The seed design uses one line of context; models choose 0 to [`MAX_CONTEXT`]
//! ([`select`]), and a decision for a line waits for exactly that many following lines.
//!
//! ```
//! use mainline::internals::features::{self, FeatureSet};
//! let seed = features::select(FeatureSet::Seed, 1);
//! assert_eq!(seed, ["density", "ln_html_bytes", "ln_text_bytes",
//!     "prev1_density", "prev1_ln_html_bytes", "prev1_ln_text_bytes",
//!     "next1_density", "next1_ln_html_bytes", "next1_ln_text_bytes"]);
//! assert!(features::names().len() > 60);
//! ```

use std::sync::LazyLock;

use crate::lines::{Block, Line, ctx, hint};

/// Most neighbour lines on each side that features can use.
pub const MAX_CONTEXT: usize = 3;

/// Declares the [`BASE`] features, each once: the name of its position constant in
/// [`column`], its name, its description and the expression that computes it from the line
/// (`$line`) and the values the set-up statements bind. It writes [`BASE`], [`N_BASE`],
/// [`column`] and [`LineFeatures::of`] from that one list, so that a name, its position and
/// its value cannot come apart.
macro_rules! base_features {
    (
        |$line:ident| { $($setup:stmt;)* }
        $( $id:ident: $name:literal, $desc:literal => $value:expr; )*
    ) => {
        /// The [`BASE`] features in row order (their discriminants are their columns).
        #[allow(non_camel_case_types, clippy::upper_case_acronyms)]
        #[repr(usize)]
        enum Base {
            $($id,)*
        }

        /// The column of each [`BASE`] feature in a row (and in [`BASE`]).
        pub mod column {
            $(
                #[doc = concat!("Column of `", $name, "` (described in [`BASE`](super::BASE)).")]
                pub const $id: usize = super::Base::$id as usize;
            )*
        }

        /// Number of [`BASE`] features.
        pub const N_BASE: usize = [$($name),*].len();

        /// The features of a line itself: `(name, description)`.
        pub const BASE: [(&str, &str); N_BASE] = [$(($name, $desc)),*];

        impl LineFeatures {
            /// Computes the features of `line`.
            pub fn of($line: &Line) -> Self {
                $($setup)*
                LineFeatures([$($value),*])
            }
        }
    };
}

/// Declares the [`NEIGHBOUR`] attributes: the [`column`] of the line's own feature that a
/// neighbour contributes and its description. It writes [`NEIGHBOUR`], [`N_NEIGHBOUR`]
/// and the values a line gives as a neighbour from that one list.
macro_rules! neighbour_features {
    ($( $id:ident: $desc:literal; )*) => {
        /// Attributes repeated for each neighbour line: `(suffix, description)`; the suffix
        /// is the name of the line's own feature.
        pub const NEIGHBOUR: [(&str, &str); N_NEIGHBOUR] = [$((BASE[column::$id].0, $desc)),*];

        /// Number of [`NEIGHBOUR`] attributes.
        pub const N_NEIGHBOUR: usize = [$(column::$id),*].len();

        impl LineFeatures {
            /// The [`NEIGHBOUR`] attributes of this line.
            #[inline]
            fn neighbour(&self) -> [f32; N_NEIGHBOUR] {
                [$(self.0[column::$id]),*]
            }
        }
    };
}

base_features! {
    |line| {
        let t = text_stats(&line.text);
        let c = |bit: u16| flag(line.context & bit != 0);
        let h = |bit: u16| flag(line.hints & bit != 0);
        let b = |block: Block| flag(line.block == block);
    }
    DENSITY: "density",
        "text_bytes / html_bytes, capped at 1 (seed attribute 1)"
        => line.density() as f32;
    LN_HTML_BYTES: "ln_html_bytes",
        "ln(1 + html_bytes) (seed attribute 2)"
        => ln1p(line.html_bytes);
    LN_TEXT_BYTES: "ln_text_bytes",
        "ln(1 + text_bytes) (seed attribute 3)"
        => ln1p(line.text_bytes);
    LINK_DENSITY: "link_density",
        "share of the text inside <a>"
        => line.link_density() as f32;
    LN_DEPTH: "ln_depth",
        "ln(1 + open elements when the text started)"
        => ln1p(line.depth as u64);
    HEADING_LEVEL: "heading_level",
        "1-6 for h1-h6, else 0"
        => line.heading as f32;
    TAG_P: "tag_p",
        "nearest block is <p>"
        => b(Block::P);
    TAG_DIV: "tag_div",
        "nearest block is div/section/article/main/header/footer/nav/aside/form/figure"
        => b(Block::Div);
    TAG_LI: "tag_li",
        "nearest block is li/dt/dd"
        => b(Block::Li);
    TAG_CELL: "tag_cell",
        "nearest block is table/tr/td/th"
        => b(Block::Cell);
    TAG_HEADING: "tag_heading",
        "nearest block is h1-h6"
        => b(Block::Heading);
    TAG_PRE: "tag_pre",
        "nearest block is <pre>"
        => b(Block::Pre);
    TAG_QUOTE: "tag_quote",
        "nearest block is <blockquote>"
        => b(Block::Quote);
    TAG_BODY: "tag_body",
        "no block element around the text"
        => b(Block::Body);
    IN_NAV: "in_nav",
        "inside <nav> or role=navigation"
        => c(ctx::NAV);
    IN_HEADER: "in_header",
        "inside <header> or role=banner"
        => c(ctx::HEADER);
    IN_FOOTER: "in_footer",
        "inside <footer> or role=contentinfo"
        => c(ctx::FOOTER);
    IN_ASIDE: "in_aside",
        "inside <aside> or role=complementary"
        => c(ctx::ASIDE);
    IN_FORM: "in_form",
        "inside <form>"
        => c(ctx::FORM);
    IN_BUTTON: "in_button",
        "inside <button>"
        => c(ctx::BUTTON);
    IN_SELECT: "in_select",
        "inside <select>"
        => c(ctx::SELECT);
    IN_LABEL: "in_label",
        "inside <label>"
        => c(ctx::LABEL);
    IN_MENU: "in_menu",
        "inside <menu> or role=menu/menubar"
        => c(ctx::MENU);
    IN_ARTICLE: "in_article",
        "inside <article>, <main>, role=main/article or itemprop=articleBody"
        => c(ctx::ARTICLE);
    IN_LIST_ITEM: "in_list_item",
        "inside li/dt/dd"
        => c(ctx::LIST_ITEM);
    IN_CELL: "in_cell",
        "inside td/th"
        => c(ctx::CELL);
    IN_FIGURE: "in_figure",
        "inside figure/figcaption"
        => c(ctx::FIGURE);
    HINT_NAV: "hint_nav",
        "an ancestor's class/id says nav/menu/breadcrumb/pagination"
        => h(hint::NAV);
    HINT_FOOTER: "hint_footer",
        "an ancestor's class/id says footer/copyright"
        => h(hint::FOOTER);
    HINT_SIDE: "hint_side",
        "an ancestor's class/id says sidebar/widget/related"
        => h(hint::SIDE);
    HINT_COMMENT: "hint_comment",
        "an ancestor's class/id says comment/reply"
        => h(hint::COMMENT);
    HINT_SOCIAL: "hint_social",
        "an ancestor's class/id says share/social"
        => h(hint::SOCIAL);
    HINT_AD: "hint_ad",
        "an ancestor's class/id says ad/promo/banner/cookie/newsletter/modal"
        => h(hint::AD);
    HINT_META: "hint_meta",
        "an ancestor's class/id says meta/byline/author/date/tags"
        => h(hint::META);
    HINT_HIDDEN: "hint_hidden",
        "an ancestor is hidden (hidden, aria-hidden, display:none, sr-only)"
        => h(hint::HIDDEN);
    HINT_CONTENT: "hint_content",
        "an ancestor's class/id says article/content/post/entry/body/text"
        => h(hint::CONTENT);
    HINT_HEADER: "hint_header",
        "an ancestor's class/id says header/masthead/logo/brand"
        => h(hint::HEADER);
    LN_WORDS: "ln_words",
        "ln(1 + words: whitespace-separated, each Chinese or Japanese character, Thai, … one)"
        => ln1p(t.words);
    CHARS_PER_WORD: "chars_per_word",
        "characters per word"
        => t.chars_per_word;
    PUNCT_RATIO: "punct_ratio",
        "share of characters that are punctuation"
        => t.punct_ratio;
    DIGIT_RATIO: "digit_ratio",
        "share of characters that are digits"
        => t.digit_ratio;
    UPPER_RATIO: "upper_ratio",
        "share of letters that are upper case"
        => t.upper_ratio;
    SENTENCE_ENDS: "sentence_ends",
        "sentence-ending marks (. ! ? and CJK 。！？) followed by a space or the end, at most 10"
        => t.sentence_ends.min(10) as f32;
    ENDS_WITH_PUNCT: "ends_with_punct",
        "the text ends with . ! ? : ; or a CJK full stop"
        => flag(t.ends_with_punct);
    STARTS_UPPER: "starts_upper",
        "the first letter is upper case"
        => flag(t.starts_upper);
    COPYRIGHT: "copyright",
        "contains ©, 'copyright' or 'all rights reserved'"
        => flag(t.copyright);
    SEPARATOR_RATIO: "separator_ratio",
        "share of characters that are | • · » › or /, as in menus and breadcrumbs"
        => t.separator_ratio;
    CONTAINER_LN_TEXT_BYTES: "container_ln_text_bytes",
        "ln(1 + text bytes so far in the block around the line's block, this line included)"
        => ln1p(line.container.text_bytes);
    CONTAINER_LINK_DENSITY: "container_link_density",
        "link density so far in that container"
        => line.container.link_density() as f32;
    CONTAINER_LN_LINES: "container_ln_lines",
        "ln(1 + lines so far in that container)"
        => ln1p(line.container.lines as u64);
    REGION_LN_TEXT_BYTES: "region_ln_text_bytes",
        "ln(1 + text bytes so far in the next block up)"
        => ln1p(line.region.text_bytes);
    REGION_LINK_DENSITY: "region_link_density",
        "link density so far in that region"
        => line.region.link_density() as f32;
    REGION_LN_LINES: "region_ln_lines",
        "ln(1 + lines so far in that region)"
        => ln1p(line.region.lines as u64);
    LN_LINE_INDEX: "ln_line_index",
        "ln(1 + position of the line in the page)"
        => ln1p(line.index);
    LN_OFFSET: "ln_offset",
        "ln(1 + input offset where the line starts)"
        => ln1p(line.start);
}

/// Columns of `in_nav`, `in_footer` and `in_aside` in a row (and in [`BASE`]): the
/// landmarks that hold a page's navigation and asides, never its main text.
pub const LANDMARKS: [usize; 3] = [column::IN_NAV, column::IN_FOOTER, column::IN_ASIDE];

neighbour_features! {
    DENSITY: "the neighbour's density";
    LN_HTML_BYTES: "the neighbour's ln(1 + html_bytes)";
    LN_TEXT_BYTES: "the neighbour's ln(1 + text_bytes)";
    LINK_DENSITY: "the neighbour's link density";
}

/// Total number of columns in a row.
pub const N_FEATURES: usize = N_BASE + 2 * MAX_CONTEXT * N_NEIGHBOUR;

/// The seed design's three attributes (indices into [`BASE`] and [`NEIGHBOUR`]).
const SEED: [&str; 3] = ["density", "ln_html_bytes", "ln_text_bytes"];

static NAMES: LazyLock<Vec<String>> = LazyLock::new(|| {
    let mut names: Vec<String> = BASE.iter().map(|(n, _)| n.to_string()).collect();
    for side in ["prev", "next"] {
        for k in 1..=MAX_CONTEXT {
            for (n, _) in NEIGHBOUR {
                names.push(format!("{side}{k}_{n}"));
            }
        }
    }
    names
});

/// All column names, in row order.
pub fn names() -> &'static [String] {
    &NAMES
}

/// A description of the column `name`, for documentation and `--help`.
pub fn describe(name: &str) -> Option<String> {
    if let Some((_, d)) = BASE.iter().find(|(n, _)| *n == name) {
        return Some(d.to_string());
    }
    let (side, rest) = if let Some(r) = name.strip_prefix("prev") {
        ("previous", r)
    } else {
        ("next", name.strip_prefix("next")?)
    };
    let (k, attr) = rest.split_once('_')?;
    let (_, d) = NEIGHBOUR.iter().find(|(n, _)| *n == attr)?;
    Some(format!("{d}, {k} line(s) {side}"))
}

/// Which columns a model uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FeatureSet {
    /// The seed design's three attributes for the line and each neighbour.
    Seed,
    /// Every column of the schema up to the context width.
    Full,
}

impl std::str::FromStr for FeatureSet {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "seed" => Ok(FeatureSet::Seed),
            "full" => Ok(FeatureSet::Full),
            _ => Err(format!("unknown feature set {s:?}: use seed or full")),
        }
    }
}

/// The column names of `set` with `context` neighbour lines on each side, in row order.
///
/// # Panics
/// When `context` exceeds [`MAX_CONTEXT`].
pub fn select(set: FeatureSet, context: usize) -> Vec<String> {
    assert!(context <= MAX_CONTEXT, "context {context} > {MAX_CONTEXT}");
    let keep = |attr: &str| set == FeatureSet::Full || SEED.contains(&attr);
    let mut out: Vec<String> = BASE
        .iter()
        .filter(|(n, _)| keep(n))
        .map(|(n, _)| n.to_string())
        .collect();
    for side in ["prev", "next"] {
        for k in 1..=context {
            for (n, _) in NEIGHBOUR {
                if keep(n) {
                    out.push(format!("{side}{k}_{n}"));
                }
            }
        }
    }
    out
}

/// The [`BASE`] features of one line, computed once when the line arrives.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LineFeatures(pub [f32; N_BASE]);

fn flag(b: bool) -> f32 {
    if b { 1.0 } else { 0.0 }
}

fn ln1p(x: u64) -> f32 {
    // NOTE: most values are small (depth, words, bytes of short lines, the first lines'
    // index): a table of the same values saves a libm call for them.
    const SMALL: usize = 1024;
    static TABLE: LazyLock<[f32; SMALL]> =
        LazyLock::new(|| std::array::from_fn(|x| ln1p_exact(x as u64)));
    if x < SMALL as u64 {
        TABLE[x as usize]
    } else {
        ln1p_exact(x)
    }
}

fn ln1p_exact(x: u64) -> f32 {
    (x as f64).ln_1p() as f32
}

/// Writes the full row (all [`names`], length [`N_FEATURES`]) for a line.
///
/// `before` holds the preceding lines' features nearest first, `after` the following
/// lines' nearest first; only the first [`MAX_CONTEXT`] of each are used, missing ones are 0.
pub fn row(
    center: &LineFeatures,
    before: &[&LineFeatures],
    after: &[&LineFeatures],
    out: &mut [f32],
) {
    assert_eq!(out.len(), N_FEATURES, "row buffer has the wrong length");
    out[..N_BASE].copy_from_slice(&center.0);
    let mut at = N_BASE;
    for side in [before, after] {
        for k in 0..MAX_CONTEXT {
            let v = side.get(k).map_or([0.0; N_NEIGHBOUR], |f| f.neighbour());
            out[at..at + N_NEIGHBOUR].copy_from_slice(&v);
            at += N_NEIGHBOUR;
        }
    }
}

#[derive(Debug, Default, PartialEq)]
struct TextStats {
    words: u64,
    chars_per_word: f32,
    punct_ratio: f32,
    digit_ratio: f32,
    upper_ratio: f32,
    sentence_ends: u32,
    ends_with_punct: bool,
    starts_upper: bool,
    copyright: bool,
    separator_ratio: f32,
}

/// Character class bits, as [`text_stats`] sees characters.
mod class {
    /// White space (ends a word).
    pub const SPACE: u8 = 1;
    /// A letter.
    pub const ALPHA: u8 = 2;
    /// An upper-case letter.
    pub const UPPER: u8 = 4;
    /// A digit (any numeric character outside ASCII).
    pub const DIGIT: u8 = 8;
    /// A separator of menus and breadcrumbs.
    pub const SEP: u8 = 16;
    /// `.`, `!` or `?`: ends a sentence when a space or the end follows.
    pub const END: u8 = 32;
    /// A CJK full stop, exclamation or question mark: ends a sentence by itself.
    pub const CJK_END: u8 = 64;
    /// The first letter of one of the copyright phrases (`o`, `O`, `i`, `I`).
    pub const COPY: u8 = 128;
}

/// The class of every ASCII byte.
static ASCII_CLASS: [u8; 128] = {
    let mut table = [0u8; 128];
    let mut b = 0u8;
    while b < 128 {
        let mut c = 0;
        if b.is_ascii_whitespace() {
            c |= class::SPACE;
        }
        if b.is_ascii_alphabetic() {
            c |= class::ALPHA;
        }
        if b.is_ascii_uppercase() {
            c |= class::UPPER;
        }
        if b.is_ascii_digit() {
            c |= class::DIGIT;
        }
        if matches!(b, b'|' | b'/' | b'>') {
            c |= class::SEP;
        }
        if matches!(b, b'.' | b'!' | b'?') {
            c |= class::END;
        }
        if matches!(b, b'o' | b'O' | b'i' | b'I') {
            c |= class::COPY;
        }
        table[b as usize] = c;
        b += 1;
    }
    table
};

/// The class of a character outside ASCII.
fn unicode_class(ch: char) -> u8 {
    let mut c = 0;
    if ch.is_whitespace() {
        return class::SPACE;
    }
    if ch.is_alphabetic() {
        c |= class::ALPHA;
        if ch.is_uppercase() {
            c |= class::UPPER;
        }
    } else if ch.is_numeric() {
        c |= class::DIGIT;
    } else if matches!(ch, '•' | '·' | '»' | '›' | '«' | '‹') {
        c |= class::SEP;
    } else if matches!(ch, '。' | '！' | '？') {
        c |= class::CJK_END;
    }
    c
}

/// Whether `ch` is written without spaces between words (Chinese and Japanese characters,
/// Thai, Lao, Khmer, Myanmar): each counts as a word of its own, so that a paragraph of
/// them has words of a few characters as spaced text does, not one word of hundreds.
/// Korean puts spaces between words and is counted as other text.
#[inline]
pub fn unspaced(ch: char) -> bool {
    matches!(ch as u32,
        0x0E00..=0x0EFF     // Thai, Lao
        | 0x1000..=0x109F   // Myanmar
        | 0x1780..=0x17FF   // Khmer
        | 0x2E80..=0x2FDF   // CJK radicals, Kangxi radicals
        | 0x3005..=0x3007   // ideographic iteration mark, closing mark, number zero
        | 0x3040..=0x30FF   // Hiragana, Katakana
        | 0x31F0..=0x31FF   // Katakana phonetic extensions
        | 0x3400..=0x4DBF   // CJK extension A
        | 0x4E00..=0x9FFF   // CJK unified ideographs
        | 0xF900..=0xFAFF   // CJK compatibility ideographs
        | 0xFF66..=0xFF9F   // half-width Katakana
        | 0x20000..=0x3FFFF // CJK extensions B and later
    )
}

/// Whether a copyright phrase starts at the start of `rest` (which starts with a byte of
/// class [`class::COPY`]).
// NOTE: `o` and `i` are frequent; the second letter rules most of them out before the
// rest of the phrase is compared.
#[inline]
fn copyright_at(rest: &[u8]) -> bool {
    match rest {
        [b'o', b'p', ..] => rest.starts_with(b"opyright"),
        [b'O', b'P', ..] => rest.starts_with(b"OPYRIGHT"),
        [b'i', b'g', ..] => {
            rest.starts_with(b"ights reserved") || rest.starts_with(b"ights Reserved")
        }
        [b'I', b'G', ..] => rest.starts_with(b"IGHTS RESERVED"),
        _ => false,
    }
}

/// The text statistics of a line in one pass over its bytes.
///
/// NOTE: this runs for every line. Runs of ASCII are read 8 bytes at a time: the table's
/// classes of the 8 bytes are packed into one word, a byte each, so that a count is the
/// population count of one class bit over the word, and the starts of words and the ends
/// of sentences come from the word shifted by a byte (the byte before). Other characters
/// are classified one at a time by the `char` methods. The copyright phrases ("copyright",
/// "all rights reserved" in the usual casings, ©) are matched where their first letter
/// occurs instead of searching the text six more times. A test compares it with the plain
/// definition on random text.
fn text_stats(text: &str) -> TextStats {
    let bytes = text.as_bytes();
    let mut s = Counts::default();
    let mut i = 0;
    while i < bytes.len() {
        let rest = &bytes[i..];
        let n = rest.len().min(8);
        // NOTE: a whole word is read as one (a copy of a variable length is a call).
        let chunk: [u8; 8] = match rest.first_chunk() {
            Some(&whole) => whole,
            None => {
                let mut chunk = [0u8; 8];
                chunk[..n].copy_from_slice(rest);
                chunk
            }
        };
        let word = u64::from_le_bytes(chunk);
        // The ASCII bytes before the first other one (or the end of the text).
        let high = word & (HIGH_BITS & lanes(n));
        let ascii = if high == 0 {
            n
        } else {
            high.trailing_zeros() as usize / 8
        };
        if ascii > 0 {
            s.ascii(&chunk, ascii, rest);
            i += ascii;
        } else {
            let ch = text[i..].chars().next().expect("i is on a char boundary");
            s.other(ch);
            i += ch.len_utf8();
        }
    }
    s.finish(text)
}

/// The high bit of each byte of a word.
const HIGH_BITS: u64 = 0x8080_8080_8080_8080;

/// The low bit of each byte of a word.
const LOW_BITS: u64 = 0x0101_0101_0101_0101;

/// All bits of the first `n` bytes (1 to 8) of a little-endian word.
#[inline]
fn lanes(n: usize) -> u64 {
    u64::MAX >> (64 - 8 * n)
}

/// The running counts of [`text_stats`].
#[derive(Default)]
struct Counts {
    chars: u32,
    punct: u32,
    digits: u32,
    letters: u32,
    upper: u32,
    seps: u32,
    words: u64,
    in_word: bool,
    sentence_ends: u32,
    /// Whether the last character was `.`, `!` or `?` (a space after it ends a sentence).
    prev_end: bool,
    first_letter: Option<bool>,
    copyright: bool,
}

impl Counts {
    /// The first `n` (1 to 8) bytes of `chunk`, all ASCII; `rest` is the text from the
    /// first of them on.
    #[inline]
    fn ascii(&mut self, chunk: &[u8; 8], n: usize, rest: &[u8]) {
        let mut c = 0u64;
        for (k, &b) in chunk.iter().enumerate() {
            c |= u64::from(ASCII_CLASS[usize::from(b & 0x7f)]) << (8 * k);
        }
        let valid = lanes(n);
        c &= valid;
        let has = |bit: u8| c & (LOW_BITS * u64::from(bit));
        // One bit per byte, at the byte's lowest bit.
        let at = |m: u64, bit: u8| m >> bit.trailing_zeros();
        let space = at(has(class::SPACE), class::SPACE);
        let other = !space & valid & LOW_BITS;
        let alpha = at(has(class::ALPHA), class::ALPHA);
        let digit = at(has(class::DIGIT), class::DIGIT);
        let end = at(has(class::END), class::END);
        let last = 1u64 << (8 * (n - 1));
        let before_other = (other << 8) | u64::from(self.in_word);
        let before_end = (end << 8) | u64::from(self.prev_end);
        self.chars += other.count_ones();
        self.words += u64::from((other & !before_other).count_ones());
        self.sentence_ends += (space & before_end).count_ones();
        self.letters += alpha.count_ones();
        self.upper += has(class::UPPER).count_ones();
        self.digits += digit.count_ones();
        self.punct += (other & !alpha & !digit).count_ones();
        self.seps += has(class::SEP).count_ones();
        self.in_word = other & last != 0;
        self.prev_end = end & last != 0;
        if self.first_letter.is_none() && alpha != 0 {
            let first = alpha & alpha.wrapping_neg();
            self.first_letter = Some(at(has(class::UPPER), class::UPPER) & first != 0);
        }
        let mut copy = has(class::COPY);
        while copy != 0 && !self.copyright {
            self.copyright = copyright_at(&rest[copy.trailing_zeros() as usize / 8..]);
            copy &= copy - 1;
        }
    }

    /// A character outside ASCII.
    #[inline]
    fn other(&mut self, ch: char) {
        self.copyright |= ch == '©';
        let c = unicode_class(ch);
        if c & class::SPACE != 0 {
            self.sentence_ends += u32::from(self.prev_end);
            self.in_word = false;
            self.prev_end = false;
            return;
        }
        let alone = unspaced(ch);
        self.words += u64::from(!self.in_word || alone);
        self.in_word = !alone;
        self.chars += 1;
        self.prev_end = false;
        if c & class::CJK_END != 0 {
            self.sentence_ends += 1;
        }
        if c & class::ALPHA != 0 {
            let up = c & class::UPPER != 0;
            self.letters += 1;
            self.upper += u32::from(up);
            self.first_letter.get_or_insert(up);
        } else if c & class::DIGIT != 0 {
            self.digits += 1;
        } else {
            self.punct += 1;
            self.seps += u32::from(c & class::SEP != 0);
        }
    }

    /// The statistics of `text`, whose characters have all been counted.
    fn finish(self, text: &str) -> TextStats {
        let sentence_ends = self.sentence_ends + u32::from(self.prev_end);
        let last = text.trim_end().chars().last();
        let ratio = |n: u32, d: u32| if d == 0 { 0.0 } else { n as f32 / d as f32 };
        TextStats {
            words: self.words,
            chars_per_word: ratio(self.chars, self.words as u32),
            punct_ratio: ratio(self.punct, self.chars),
            digit_ratio: ratio(self.digits, self.chars),
            upper_ratio: ratio(self.upper, self.letters),
            sentence_ends,
            ends_with_punct: matches!(last, Some('.' | '!' | '?' | ':' | ';' | '。' | '！' | '？')),
            starts_upper: self.first_letter == Some(true),
            copyright: self.copyright,
            separator_ratio: ratio(self.seps, self.chars),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lines::split;

    #[test]
    fn the_schema_has_unique_documented_names_of_the_right_count() {
        let names = names();
        assert_eq!(names.len(), N_FEATURES);
        let mut sorted = names.to_vec();
        sorted.sort();
        sorted.dedup();
        assert_eq!(sorted.len(), N_FEATURES, "duplicate feature names");
        assert_eq!(names[column::LINK_DENSITY], "link_density");
        let landmarks = LANDMARKS.map(|i| names[i].as_str());
        assert_eq!(landmarks, ["in_nav", "in_footer", "in_aside"]);
        for n in names {
            assert!(describe(n).is_some(), "{n} has no description");
        }
    }

    #[test]
    fn columns_values_and_neighbours_follow_the_names() {
        for (i, (n, _)) in BASE.iter().enumerate() {
            assert_eq!(names()[i], *n);
        }
        assert_eq!(BASE[column::LN_TEXT_BYTES].0, "ln_text_bytes");
        assert_eq!(BASE[column::LN_OFFSET].0, "ln_offset");
        assert_eq!(column::LN_OFFSET, N_BASE - 1);
        let lines = split(b"<nav><p><a href=/x>Home</a> and more text</p></nav><p>x</p>").unwrap();
        let f: Vec<LineFeatures> = lines.iter().map(LineFeatures::of).collect();
        assert_eq!(f[0].0[column::IN_NAV], 1.0);
        assert_eq!(f[0].0[column::LINK_DENSITY], lines[0].link_density() as f32);
        assert_eq!(f[0].0[column::LN_LINE_INDEX], 0.0);
        let mut out = vec![f32::NAN; N_FEATURES];
        row(&f[1], &[&f[0]], &[], &mut out);
        for (n, _) in NEIGHBOUR {
            let base = BASE.iter().position(|(b, _)| *b == n).unwrap();
            let at = names()
                .iter()
                .position(|x| *x == format!("prev1_{n}"))
                .unwrap();
            assert_eq!(out[at], f[0].0[base], "{n}");
        }
    }

    #[test]
    fn full_selection_with_max_context_is_the_whole_schema() {
        assert_eq!(select(FeatureSet::Full, MAX_CONTEXT), names());
        assert_eq!(select(FeatureSet::Seed, 0).len(), 3);
        assert_eq!(select(FeatureSet::Seed, 3).len(), 21);
    }

    #[test]
    fn seed_attributes_match_the_line() {
        let lines = split(b"<p>Hello world.</p><p>x</p>").unwrap();
        let f = LineFeatures::of(&lines[0]);
        assert_eq!(f.0[0], lines[0].density() as f32);
        assert_eq!(f.0[1], (lines[0].html_bytes as f64).ln_1p() as f32);
        assert_eq!(f.0[2], (12f64).ln_1p() as f32);
        let idx = |n: &str| BASE.iter().position(|(b, _)| *b == n).unwrap();
        assert_eq!(f.0[idx("tag_p")], 1.0);
        assert_eq!(f.0[idx("sentence_ends")], 1.0);
        assert_eq!(f.0[idx("ends_with_punct")], 1.0);
        assert_eq!(f.0[idx("starts_upper")], 1.0);
        assert_eq!(f.0[idx("ln_words")], 2f32.ln_1p());
    }

    #[test]
    fn text_statistics_by_hand() {
        let t = text_stats("Home | About | Contact");
        assert_eq!(t.words, 5);
        assert_eq!(t.separator_ratio, 2.0 / 18.0);
        assert!(!t.ends_with_punct);
        let t = text_stats("© 2024 ACME. All Rights Reserved.");
        assert!(t.copyright);
        assert_eq!(t.sentence_ends, 2);
        assert_eq!(t.digit_ratio, 4.0 / 28.0);
        let t = text_stats("这是一个句子。这是另一个。");
        assert_eq!(t.sentence_ends, 2);
        assert_eq!(text_stats("").words, 0);
    }

    /// The plain definition of the text statistics, one `char` at a time, that
    /// [`text_stats`] computes faster.
    fn text_stats_by_definition(text: &str) -> TextStats {
        let mut chars = 0u32;
        let mut punct = 0u32;
        let mut digits = 0u32;
        let mut letters = 0u32;
        let mut upper = 0u32;
        let mut seps = 0u32;
        let mut words = 0u64;
        let mut in_word = false;
        let mut sentence_ends = 0u32;
        let mut prev_end = false;
        let mut first_letter: Option<bool> = None;
        for ch in text.chars() {
            if ch.is_whitespace() {
                if prev_end {
                    sentence_ends += 1;
                }
                in_word = false;
                prev_end = false;
                continue;
            }
            if !in_word || unspaced(ch) {
                words += 1;
            }
            in_word = !unspaced(ch);
            chars += 1;
            prev_end = matches!(ch, '.' | '!' | '?');
            if matches!(ch, '。' | '！' | '？') {
                sentence_ends += 1;
                prev_end = false;
            }
            if ch.is_alphabetic() {
                letters += 1;
                upper += ch.is_uppercase() as u32;
                first_letter.get_or_insert(ch.is_uppercase());
            } else if ch.is_numeric() {
                digits += 1;
            } else {
                punct += 1;
                if matches!(ch, '|' | '•' | '·' | '»' | '›' | '/' | '>' | '«' | '‹') {
                    seps += 1;
                }
            }
        }
        if prev_end {
            sentence_ends += 1;
        }
        let last = text.trim_end().chars().last();
        let ratio = |n: u32, d: u32| if d == 0 { 0.0 } else { n as f32 / d as f32 };
        TextStats {
            words,
            chars_per_word: ratio(chars, words as u32),
            punct_ratio: ratio(punct, chars),
            digit_ratio: ratio(digits, chars),
            upper_ratio: ratio(upper, letters),
            sentence_ends,
            ends_with_punct: matches!(last, Some('.' | '!' | '?' | ':' | ';' | '。' | '！' | '？')),
            starts_upper: first_letter == Some(true),
            copyright: text.contains('©')
                || text.contains("opyright")
                || text.contains("OPYRIGHT")
                || text.contains("ights reserved")
                || text.contains("ights Reserved")
                || text.contains("IGHTS RESERVED"),
            separator_ratio: ratio(seps, chars),
        }
    }

    #[test]
    fn each_chinese_or_japanese_character_is_a_word() {
        // 20 characters, and the two marks after them count as words of their own.
        let zh = text_stats("在法国里昂留学的卢宇表示，他还是个中学生时。");
        assert_eq!(zh.words, 22);
        let mixed = text_stats("Tokyo 東京 と Osaka");
        assert_eq!(mixed.words, 5);
        // Korean puts spaces between its words.
        assert_eq!(text_stats("한국어 문장입니다").words, 2);
        assert!(text_stats("在法国里昂留学的卢宇表示").chars_per_word < 1.5);
    }

    proptest::proptest! {
        #[test]
        fn text_statistics_match_their_definition(
            text in "([a-zA-Z0-9 .!?|/>,;:\u{a0}\u{2003}\n\t©•·»›«‹。！？éÉßΣ٣½漢かก한]|opyright|OPYRIGHT|ights reserved|ights Reserved|IGHTS RESERVED|Copyright){0,40}"
        ) {
            proptest::prop_assert_eq!(text_stats(&text), text_stats_by_definition(&text));
        }
    }

    #[test]
    fn small_logarithms_come_from_the_table_unchanged() {
        for x in (0..2048).chain([u32::MAX as u64, u64::MAX]) {
            assert_eq!(
                ln1p(x).to_bits(),
                ((x as f64).ln_1p() as f32).to_bits(),
                "{x}"
            );
        }
    }

    #[test]
    fn rows_place_neighbours_nearest_first_and_zero_missing_ones() {
        let lines = split(b"<p>a</p><p>bb</p><p>ccc</p>").unwrap();
        let f: Vec<LineFeatures> = lines.iter().map(LineFeatures::of).collect();
        let mut out = vec![f32::NAN; N_FEATURES];
        row(&f[1], &[&f[0]], &[&f[2]], &mut out);
        let at = |n: &str| out[names().iter().position(|x| x == n).unwrap()];
        assert_eq!(at("prev1_ln_text_bytes"), 1f32.ln_1p());
        assert_eq!(at("next1_ln_text_bytes"), 3f32.ln_1p());
        assert_eq!(at("prev2_density"), 0.0);
        assert!(out.iter().all(|v| v.is_finite()));
    }
}
