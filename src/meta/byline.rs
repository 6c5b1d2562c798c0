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

/// Labels a byline starts with, in lower case, each followed by a space or a colon.
const LABELS: [&str; 22] = [
    "written by",
    "posted by",
    "published by",
    "words by",
    "reviewed by",
    "story by",
    "text by",
    "authored by",
    "by",
    "par",
    "por",
    "von",
    "door",
    "di",
    "av",
    "author",
    "authors",
    "autor",
    "auteur",
    "autore",
    "written",
    "the author",
];

/// Words of calls to action, account links and page furniture, which a name never holds.
const NOT_NAMES: [&str; 16] = [
    "sign in",
    "sign up",
    "log in",
    "login",
    "subscribe",
    "register",
    "follow",
    "share",
    "newsletter",
    "read more",
    "comments",
    "menu",
    "cookie",
    "notes",
    "click",
    "download",
];

/// Words that make a line a commenter's heading rather than a byline.
const COMMENTER: [&str; 5] = [" wrote", " says", " said:", "commented", " replied"];

/// The name(s) a byline's text gives: without a leading label (`By`, `Written by`,
/// `Par`, `Author:` …) and without what follows the names (a date, a time, `|`, `—`,
/// `Updated …`); `None` when it is a commenter's heading, a call to action or account
/// links, a label alone, or holds no name.
pub(crate) fn byline_name(text: &str) -> Option<String> {
    let lower = text.to_lowercase();
    if COMMENTER.iter().any(|w| lower.contains(w)) || lower.trim_end().ends_with(':') {
        return None;
    }
    let mut rest = text.trim();
    loop {
        let l = rest.to_lowercase();
        let Some(label) = LABELS.iter().find(|p| {
            l.starts_with(*p)
                && l[p.len()..]
                    .chars()
                    .next()
                    .is_none_or(|c| c == ' ' || c == ':' || c == '\u{a0}')
        }) else {
            break;
        };
        rest = rest[label.len()..].trim_start_matches([' ', ':', '\u{a0}', '-', '|']);
    }
    // The names end where a date, a time, a separator or a label of what follows starts.
    let mut end = rest.len();
    for (i, c) in rest.char_indices() {
        if c.is_ascii_digit() || matches!(c, '|' | '—' | '–' | '•' | '·' | '/' | '(' | '\n')
        {
            end = i;
            break;
        }
    }
    let mut names = &rest[..end];
    let ln = names.to_lowercase();
    for stop in [
        " on ",
        " at ",
        " - ",
        "updated",
        "published",
        "posted",
        "follow",
        " le ",
        " el ",
        " am ",
        " il ",
    ] {
        if let Some(i) = ln.find(stop) {
            if names.is_char_boundary(i) && i < names.len() {
                names = &names[..i];
            }
        }
    }
    let names =
        strip_month(names.trim_end_matches(|c: char| {
            c.is_whitespace() || matches!(c, ',' | ';' | ':' | '-' | '.')
        }));
    let names = names.trim_end_matches(|c: char| c.is_whitespace() || c == ',');
    let l = names.to_lowercase();
    let words = names.split_whitespace().count();
    if words == 0
        || words > 12
        || !names.chars().any(char::is_alphabetic)
        || NOT_NAMES.iter().any(|w| l.contains(w))
        || LABELS.contains(&l.as_str())
        || l == "admin"
    {
        return None;
    }
    Some(names.split_whitespace().collect::<Vec<_>>().join(" "))
}

/// The text without a month's name at its end, written on or glued to the last word
/// ("Jeffrey ZeldmanNovember").
fn strip_month(s: &str) -> &str {
    let Some(last) = s.split_whitespace().last() else {
        return s;
    };
    let start = s.len() - last.len();
    for (i, c) in last.char_indices() {
        if c.is_uppercase() || i == 0 {
            let tail = last[i..].trim_end_matches('.').to_lowercase();
            if super::date::is_month(&tail) {
                return s[..start + i].trim_end();
            }
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::byline_name;

    #[test]
    fn bylines_are_names_without_labels_or_dates() {
        let name = |s| byline_name(s);
        assert_eq!(
            name("By Maria Keller March 14, 2024").as_deref(),
            Some("Maria Keller")
        );
        assert_eq!(name("By Ann   Lee").as_deref(), Some("Ann Lee"));
        assert_eq!(
            name("Written by: Sam Doe | 3 min read").as_deref(),
            Some("Sam Doe")
        );
        assert_eq!(
            name("by Jeffrey ZeldmanNovember 20, 2007").as_deref(),
            Some("Jeffrey Zeldman")
        );
        assert_eq!(
            name("Par Alexandre Hervaud et Jérémy Piette — 24 novembre 2017").as_deref(),
            Some("Alexandre Hervaud et Jérémy Piette")
        );
        assert_eq!(name("Jane Roe Updated Jan 3").as_deref(), Some("Jane Roe"));
        assert_eq!(
            name("Stella Kim and Jennifer Jett").as_deref(),
            Some("Stella Kim and Jennifer Jett")
        );
    }

    #[test]
    fn commenters_dates_labels_and_calls_to_action_are_not_bylines() {
        for text in [
            "Alexander Petrov wrote on March 11th, 2015 at 02:57:",
            "Sign In| Sign Up| Subscribe",
            "March 18 at 3:57 PM Follow @someone",
            "Written By",
            "Author",
            "The Author",
            "16 December 2025",
            "Jo says:",
            "Follow Author",
        ] {
            assert_eq!(byline_name(text), None, "{text}");
        }
    }
}
