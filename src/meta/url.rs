//! URLs: references made absolute.

/// `href` made absolute against `base` (an absolute URL), as a browser resolves links:
/// scheme-relative, absolute-path, query, fragment and relative-path references, with `.`
/// and `..` segments removed. `None` when `base` is not absolute and `href` is relative.
pub fn resolve(base: &str, href: &str) -> Option<String> {
    let href = href.trim();
    if scheme_len(href).is_some() {
        return Some(href.to_string());
    }
    let base = base.trim();
    let scheme = scheme_len(base)?;
    let (scheme_part, rest) = base.split_at(scheme + 1);
    // Authority: after `//` up to the next `/`, `?` or `#`.
    let (authority, path_etc) = match rest.strip_prefix("//") {
        Some(r) => {
            let end = r.find(['/', '?', '#']).unwrap_or(r.len());
            (&rest[..end + 2], &r[end..])
        }
        None => ("", rest),
    };
    let no_fragment = path_etc.split('#').next().unwrap_or("");
    let path = no_fragment.split('?').next().unwrap_or("");
    if href.is_empty() {
        return Some(format!("{scheme_part}{authority}{no_fragment}"));
    }
    if let Some(r) = href.strip_prefix("//") {
        return Some(format!("{scheme_part}//{r}"));
    }
    if href.starts_with('#') {
        return Some(format!("{scheme_part}{authority}{no_fragment}{href}"));
    }
    if href.starts_with('?') {
        return Some(format!("{scheme_part}{authority}{path}{href}"));
    }
    let (href_path, tail) = match href.find(['?', '#']) {
        Some(i) => href.split_at(i),
        None => (href, ""),
    };
    let merged = if href_path.starts_with('/') {
        href_path.to_string()
    } else {
        let dir = match path.rfind('/') {
            Some(i) => &path[..=i],
            None => "/",
        };
        format!("{dir}{href_path}")
    };
    Some(format!(
        "{scheme_part}{authority}{}{tail}",
        remove_dot_segments(&merged)
    ))
}

/// The length of a URL's scheme (before its `:`), if it starts with one.
pub(super) fn scheme_len(s: &str) -> Option<usize> {
    let colon = s.find(':')?;
    let scheme = &s[..colon];
    let mut chars = scheme.chars();
    let first = chars.next()?;
    (first.is_ascii_alphabetic() && chars.all(|c| c.is_ascii_alphanumeric() || "+-.".contains(c)))
        .then_some(colon)
}

/// RFC 3986's "remove dot segments".
pub(super) fn remove_dot_segments(path: &str) -> String {
    let mut out: Vec<&str> = Vec::new();
    let segments: Vec<&str> = path.split('/').collect();
    let n = segments.len();
    for (i, seg) in segments.iter().enumerate() {
        match *seg {
            "." => {
                if i == n - 1 {
                    out.push("");
                }
            }
            ".." => {
                if out.len() > 1 {
                    out.pop();
                }
                if i == n - 1 {
                    out.push("");
                }
            }
            s => out.push(s),
        }
    }
    let joined = out.join("/");
    if joined.starts_with('/') {
        joined
    } else {
        format!("/{joined}")
    }
}
