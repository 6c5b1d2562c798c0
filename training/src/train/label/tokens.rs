//! Tokens for the label alignment: a page line or the gold text cut into lower-cased word
//! tokens ([`scan_tokens`]), interned as small integers ([`Interner`]) and laid out by line
//! ([`Tokenized`]).

use std::collections::HashMap;
use std::ops::Range;
use std::sync::LazyLock;

use regex::Regex;

/// Word runs, plus the invisible characters that may sit inside a word in HTML (soft
/// hyphen, zero-width space, word joiner, byte-order mark); those are dropped from tokens.
pub(super) static WORDISH: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"[\w\u{AD}\u{200B}\u{2060}\u{FEFF}]+").expect("valid regex"));

pub(super) fn is_invisible(c: char) -> bool {
    matches!(c, '\u{AD}' | '\u{200B}' | '\u{2060}' | '\u{FEFF}')
}

/// Characters of scripts written without spaces between words; each becomes a token: those
/// the line features count as a word each ([`mainline::internals::features::unspaced`]) and Hangul,
/// whose syllables are aligned one by one as well.
pub(super) fn is_unspaced_script(c: char) -> bool {
    mainline::internals::features::unspaced(c)
        || matches!(c as u32,
            0x1100..=0x11FF     // Hangul Jamo
            | 0x3130..=0x318F   // Hangul compatibility Jamo
            | 0xA960..=0xA97F   // Hangul Jamo extended A
            | 0xAC00..=0xD7FF   // Hangul syllables, Jamo extended B
            | 0xFFA0..=0xFFDC   // half-width Hangul
        )
}

/// Calls `emit` with every alignment token of `text`, using `buf` as scratch space.
pub(super) fn scan_tokens(text: &str, buf: &mut String, mut emit: impl FnMut(&str)) {
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
pub(super) struct Interner {
    pub(super) ids: HashMap<String, u32>,
}

impl Interner {
    pub(super) fn intern(&mut self, token: &str) -> u32 {
        if let Some(&id) = self.ids.get(token) {
            return id;
        }
        let id = u32::try_from(self.ids.len()).expect("fewer than 2^32 distinct tokens");
        self.ids.insert(token.to_owned(), id);
        id
    }

    pub(super) fn len(&self) -> usize {
        self.ids.len()
    }
}

/// A token stream cut into lines.
pub(super) struct Tokenized {
    /// Token ids, all lines concatenated.
    pub(super) tokens: Vec<u32>,
    /// For each token, the index of its line.
    pub(super) line_of: Vec<u32>,
    /// For each line, its token range.
    pub(super) lines: Vec<Range<usize>>,
}

impl Tokenized {
    pub(super) fn new<'a>(
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

    pub(super) fn line_len(&self, token: usize) -> usize {
        self.lines[self.line_of[token] as usize].len()
    }
}
