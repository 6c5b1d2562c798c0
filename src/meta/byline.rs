//! Bylines: elements named for an author.

use std::borrow::Cow;

/// Whether an ancestor's `tag.class#id` descriptor names a byline or an author (and not a
/// comment).
pub(crate) fn byline_descriptor(d: &str) -> bool {
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
const LABELS: [&str; 25] = [
    "written by",
    "article by",
    "posted by",
    "post by",
    "via",
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
    // A digit glued to the letters of a single word is part of a user name ("user3080392").
    let mut end = rest.len();
    let mut after_letter = false;
    let mut words = false;
    for (i, c) in rest.char_indices() {
        if (c.is_ascii_digit() && (!after_letter || words))
            || matches!(
                c,
                '|' | '—' | '–' | '•' | '·' | '/' | '(' | '\n' | '»' | '«'
            )
        {
            end = i;
            break;
        }
        after_letter = c.is_alphanumeric() || (c == '_' && after_letter);
        words |= c.is_whitespace();
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
        || !name_like(names)
    {
        return None;
    }
    Some(names.split_whitespace().collect::<Vec<_>>().join(" "))
}

/// A name given as such (the text of an `itemprop=name`): without a leading label, and
/// not a call to action; `None` when it holds no name.
pub(crate) fn given_name(text: &str) -> Option<String> {
    let mut rest = text.trim();
    let l = rest.to_lowercase();
    if let Some(label) = LABELS
        .iter()
        .find(|p| l.starts_with(*p) && l[p.len()..].starts_with([' ', ':', '\u{a0}']))
    {
        rest = rest[label.len()..].trim_start_matches([' ', ':', '\u{a0}']);
    }
    let l = rest.to_lowercase();
    let words = rest.split_whitespace().count();
    if words == 0
        || words > 12
        || !rest.chars().any(char::is_alphabetic)
        || NOT_NAMES.iter().any(|w| l.contains(w))
    {
        return None;
    }
    Some(rest.split_whitespace().collect::<Vec<_>>().join(" "))
}

/// Words written in lower case within names ("Ann de la Cruz", "Jo and Al").
const PARTICLES: [&str; 19] = [
    "and", "und", "et", "y", "e", "de", "la", "le", "van", "von", "der", "den", "da", "di", "du",
    "del", "dos", "of", "bin",
];

/// Whether words read as names: written all in lower case (user names), or with at most
/// one word in lower case other than [`PARTICLES`]; a sentence has more.
fn name_like(s: &str) -> bool {
    let lower = |w: &&str| w.chars().next().is_some_and(char::is_lowercase);
    s.split_whitespace().all(|w| lower(&w))
        || s.split_whitespace()
            .filter(|w| {
                lower(w) && !PARTICLES.contains(&w.trim_end_matches(',').to_lowercase().as_str())
            })
            .count()
            <= 1
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
        assert_eq!(name("user3080392").as_deref(), Some("user3080392"));
        assert_eq!(
            name("by Lucas Nolan22 Dec 2016").as_deref(),
            Some("Lucas Nolan")
        );
        assert_eq!(name("Post by Simple07 » Mon").as_deref(), Some("Simple07"));
        assert_eq!(name("via scvalex").as_deref(), Some("scvalex"));
        assert_eq!(name("crazy lennys").as_deref(), Some("crazy lennys"));
        assert_eq!(name("by Ejp55230 2 years ago").as_deref(), Some("Ejp55230"));
        assert_eq!(
            name("Ana de la Cruz and Jan van der Berg").as_deref(),
            Some("Ana de la Cruz and Jan van der Berg")
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
            "I dove into the zero waste lifestyle in 2019",
            "A note from the editor",
        ] {
            assert_eq!(byline_name(text), None, "{text}");
        }
    }
}
