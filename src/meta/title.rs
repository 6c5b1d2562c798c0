//! Titles: the `<title>` without the site's name.

/// Separators between a page's title and its site's name in `<title>`.
const SEPARATORS: [&str; 8] = [" | ", " - ", " – ", " — ", " :: ", " » ", " / ", " · "];

/// A `<title>` without the site's name: the part equal to `site` when it is known, else,
/// when the text has a separator, the longest part if it has at least three words.
pub fn trim_site_name(title: &str, site: Option<&str>) -> String {
    let parts: Vec<&str> = {
        let mut parts = vec![title];
        for sep in SEPARATORS {
            parts = parts.iter().flat_map(|p| p.split(sep)).collect();
        }
        parts
            .into_iter()
            .map(str::trim)
            .filter(|p| !p.is_empty())
            .collect()
    };
    if parts.len() < 2 {
        return title.to_string();
    }
    let same = |a: &str, b: &str| {
        let norm = |s: &str| {
            s.chars()
                .filter(|c| c.is_alphanumeric())
                .flat_map(char::to_lowercase)
                .collect::<String>()
        };
        norm(a) == norm(b)
    };
    if let Some(site) = site {
        // Trim parts equal to the site name from either end.
        let mut rest = &parts[..];
        while rest.len() > 1 && same(rest[rest.len() - 1], site) {
            rest = &rest[..rest.len() - 1];
        }
        while rest.len() > 1 && same(rest[0], site) {
            rest = &rest[1..];
        }
        if rest.len() < parts.len() {
            return join_parts(title, rest);
        }
    }
    let longest = parts
        .iter()
        .max_by_key(|p| p.split_whitespace().count())
        .expect("at least two parts");
    if longest.split_whitespace().count() >= 3 {
        longest.to_string()
    } else {
        title.to_string()
    }
}

/// The text of `title` that spans `parts` (consecutive parts of it).
pub(super) fn join_parts(title: &str, parts: &[&str]) -> String {
    let (Some(first), Some(last)) = (parts.first(), parts.last()) else {
        return title.to_string();
    };
    // The parts are slices of `title`: take the span from the first to the last.
    let start = first.as_ptr() as usize - title.as_ptr() as usize;
    let end = last.as_ptr() as usize - title.as_ptr() as usize + last.len();
    title[start..end].to_string()
}

/// The lower-case words (runs of letters and digits) of a text.
fn words(s: &str) -> Vec<String> {
    s.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect()
}

/// Whether two texts have the same words.
pub(super) fn same_words(a: &str, b: &str) -> bool {
    words(a) == words(b)
}

/// Whether a declared title confirms a heading as the page's title: at least half of the
/// heading's words (and at least one) are in the declared title.
pub(super) fn confirms(heading: &str, declared: &str) -> bool {
    let h = words(heading);
    if h.is_empty() || h.len() > 40 {
        return false;
    }
    let d = words(declared);
    let found = h.iter().filter(|w| d.contains(w)).count();
    found * 2 >= h.len()
}
