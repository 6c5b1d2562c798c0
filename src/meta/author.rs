//! Authors from the markup that marks them: an element with `itemprop=author` (its nested
//! `itemprop=name`), a link with `rel=author`, an element whose class or id names an author
//! or a byline; and the name a line of its own labels (`Written by` alone, the name on the
//! next line).

use super::byline::{byline_name, given_name};
use super::clean;

/// What marks an element as an author's.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum AuthorMark {
    /// `itemprop=author` (schema.org microdata).
    Itemprop = 0,
    /// `<a rel=author>`.
    Rel = 1,
    /// A class or id naming an author or a byline.
    Class = 2,
}

/// The most bytes of an author element's inner HTML read; the name comes first, and what
/// follows a longer element (a biography, images) is not read.
pub(super) const MAX_AUTHOR_HTML: usize = 2048;

/// The most author elements read on a page (a list of posts names an author in each).
pub(super) const MAX_AUTHOR_ELEMENTS: u32 = 32;

/// Whether a line is a byline's label alone (`Written by`, `By:`, `Author`), whose name
/// follows on the next line.
pub(super) fn label_alone(text: &str) -> bool {
    // NOTE: this runs for most lines: the first letter rules nearly all of them out before
    // any lower-casing.
    if text.len() > 24 || !first_letter_in(text, b"abpstw") {
        return false;
    }
    let l = text
        .trim()
        .trim_end_matches([':', ' ', '\u{a0}'])
        .to_lowercase();
    matches!(
        l.as_str(),
        "by" | "written by"
            | "posted by"
            | "published by"
            | "words by"
            | "story by"
            | "article by"
            | "authored by"
            | "author"
            | "authors"
            | "the author"
            | "about the author"
            | "written"
    )
}

/// Whether a line starts with a label that only a byline has (`Written by`, `Posted by`
/// …; not `By` alone, which starts other sentences too).
pub(super) fn strong_label(text: &str) -> bool {
    if !first_letter_in(text, b"apsw") {
        return false;
    }
    let head = text
        .get(..text.len().min(12))
        .unwrap_or(text)
        .to_lowercase();
    [
        "written by",
        "posted by",
        "authored by",
        "words by",
        "story by",
        "article by",
    ]
    .iter()
    .any(|l| head.starts_with(l))
}

/// Whether the first byte of the text (trimmed) is one of these lower-case ASCII letters, in
/// either case.
fn first_letter_in(text: &str, letters: &[u8]) -> bool {
    text.trim_start()
        .as_bytes()
        .first()
        .is_some_and(|b| letters.contains(&(b | 0x20)))
}

/// The name(s) an author element's inner HTML gives: with `itemprop`, the text (or
/// `content`) of a nested `itemprop=name` when there is one; else its first line of text
/// (after a label alone) read as a byline ([`byline_name`]).
pub(super) fn element_name(html: &str, itemprop: bool) -> Option<String> {
    let read = read_html(html);
    if itemprop {
        if let Some(name) = read.itemprop_name.as_deref().map(clean) {
            if let Some(n) = given_name(&name) {
                return Some(n);
            }
        }
    }
    let mut lines = read
        .lines
        .iter()
        .map(|l| clean(l))
        .filter(|l| l.chars().any(char::is_alphabetic));
    let mut line = lines.next()?;
    if label_alone(&line) {
        line = lines.next()?;
    }
    byline_name(&line)
}

/// Inner HTML as lines of text (split at block elements and `<br>`), with the text or
/// `content` of the first `itemprop=name`.
#[derive(Debug, Default)]
struct Read {
    lines: Vec<String>,
    itemprop_name: Option<String>,
}

/// Tags that end a line of text.
fn breaks(name: &str) -> bool {
    matches!(
        name,
        "p" | "div"
            | "br"
            | "li"
            | "ul"
            | "ol"
            | "dl"
            | "dt"
            | "dd"
            | "h1"
            | "h2"
            | "h3"
            | "h4"
            | "h5"
            | "h6"
            | "tr"
            | "td"
            | "th"
            | "table"
            | "section"
            | "header"
            | "footer"
            | "figure"
            | "figcaption"
            | "blockquote"
            | "button"
    )
}

fn read_html(html: &str) -> Read {
    let mut read = Read::default();
    let mut cur = String::new();
    // The tag name of the `itemprop=name` element being read, and its text so far.
    let mut name: Option<(String, String)> = None;
    let mut rest = html;
    while !rest.is_empty() {
        let Some(lt) = rest.find('<') else {
            push_text(&mut cur, &mut name, rest);
            break;
        };
        push_text(&mut cur, &mut name, &rest[..lt]);
        rest = &rest[lt..];
        if let Some(after) = rest.strip_prefix("<!--") {
            rest = after.find("-->").map_or("", |i| &after[i + 3..]);
            continue;
        }
        let Some(gt) = rest.find('>') else { break };
        let tag = &rest[1..gt];
        rest = &rest[gt + 1..];
        let (end, body) = match tag.strip_prefix('/') {
            Some(b) => (true, b),
            None => (false, tag),
        };
        let tag_name: String = body
            .chars()
            .take_while(char::is_ascii_alphanumeric)
            .map(|c| c.to_ascii_lowercase())
            .collect();
        if tag_name.is_empty() {
            continue;
        }
        if !end && matches!(tag_name.as_str(), "script" | "style" | "template" | "svg") {
            let close = format!("</{tag_name}");
            rest = rest
                .to_ascii_lowercase()
                .find(&close)
                .map_or("", |i| &rest[i..]);
            continue;
        }
        if breaks(&tag_name) {
            read.lines.push(std::mem::take(&mut cur));
        }
        if end {
            if name.as_ref().is_some_and(|(n, _)| *n == tag_name) {
                let (_, text) = name.take().expect("checked");
                read.itemprop_name.get_or_insert(text);
            }
        } else if read.itemprop_name.is_none()
            && name.is_none()
            && attr(body, "itemprop").is_some_and(|p| {
                p.split_ascii_whitespace()
                    .any(|w| w.eq_ignore_ascii_case("name"))
            })
        {
            match attr(body, "content") {
                Some(content) => read.itemprop_name = Some(content.to_string()),
                None => name = Some((tag_name, String::new())),
            }
        }
    }
    if let Some((_, text)) = name {
        read.itemprop_name.get_or_insert(text);
    }
    read.lines.push(cur);
    read
}

fn push_text(cur: &mut String, name: &mut Option<(String, String)>, text: &str) {
    cur.push_str(text);
    if let Some((_, t)) = name {
        t.push_str(text);
    }
}

/// The value of an attribute of a start tag's text (`name attr=value …`), as written.
fn attr<'t>(tag: &'t str, key: &str) -> Option<&'t str> {
    let bytes = tag.as_bytes();
    let mut i = tag.find(|c: char| c.is_ascii_whitespace())?;
    while i < bytes.len() {
        while i < bytes.len() && (bytes[i].is_ascii_whitespace() || bytes[i] == b'/') {
            i += 1;
        }
        let start = i;
        while i < bytes.len() && !bytes[i].is_ascii_whitespace() && !matches!(bytes[i], b'=' | b'/')
        {
            i += 1;
        }
        let attr_name = &tag[start..i];
        while i < bytes.len() && bytes[i].is_ascii_whitespace() {
            i += 1;
        }
        let mut value = "";
        if bytes.get(i) == Some(&b'=') {
            i += 1;
            while i < bytes.len() && bytes[i].is_ascii_whitespace() {
                i += 1;
            }
            match bytes.get(i) {
                Some(&q) if q == b'"' || q == b'\'' => {
                    let from = i + 1;
                    let to = tag[from..].find(q as char).map_or(tag.len(), |n| from + n);
                    value = &tag[from..to];
                    i = to + 1;
                }
                _ => {
                    let from = i;
                    while i < bytes.len() && !bytes[i].is_ascii_whitespace() {
                        i += 1;
                    }
                    value = &tag[from..i];
                }
            }
        }
        if attr_name.is_empty() {
            i += 1;
        } else if attr_name.eq_ignore_ascii_case(key) {
            return Some(value);
        }
    }
    None
}
