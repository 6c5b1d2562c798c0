//! Bylines: elements named for an author.

use std::borrow::Cow;

/// Whether an ancestor's `tag.class#id` descriptor names a byline or an author (and not a
/// comment).
pub(super) fn byline_descriptor(d: &str) -> bool {
    // NOTE: most descriptors name neither; one pass over the bytes tells, without the set-up
    // of a substring search for each word.
    let b = d.as_bytes();
    let named = (0..b.len().saturating_sub(5)).any(|i| match b[i] | 0x20 {
        b'b' => b[i..i + 6].eq_ignore_ascii_case(b"byline"),
        b'a' => b[i..i + 6].eq_ignore_ascii_case(b"author"),
        _ => false,
    });
    if !named {
        return false;
    }
    let lower: Cow<'_, str> = if d.bytes().any(|b| b.is_ascii_uppercase()) {
        d.to_ascii_lowercase().into()
    } else {
        d.into()
    };
    let has = |word: &str| lower.contains(word);
    (has("byline") || has("author")) && !has("comment") && !has("avatar") && !has("bio")
}
