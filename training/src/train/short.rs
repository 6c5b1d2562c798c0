//! The `short` page variant: a few lines of a page's content, as a short page.
//!
//! WCXB's pages are long: a few dozen lines of menus and footers around the content, often
//! hundreds of lines in all; 14 of its 1,294 labelled pages have fewer than 32 lines. A
//! second stage trained on them judges each line against a long page (its rank, its
//! position, the scores around it), and on a page of a handful of lines it drops what
//! looks like the tail of an article: the list after the last paragraph, the short lines
//! at the end. Short pages are common in the wild (a note, a short post, a page of the
//! 2000s, a user's first try), so [`short`] cuts a page down to a window of its content
//! lines with at most three lines on each side, keeping its head, so that `mainline label
//! --augment short` labels each page a second time as a short page: the lines keep their
//! text, so the gold text labels them as in the page.
//!
//! The window, its length (1 to 24 lines, most of them short) and the lines around it are
//! drawn from the page's id, so the variant is the same on every run.
//!
//! Short pages without content are common too: a page whose content a script draws
//! arrives as its head, the top of its menus and its footer. [`shell`] cuts a page down to
//! its first and last lines around its content, so that `mainline label --augment shell`
//! labels it as such a page, all of it boilerplate.

use super::related::Rng;

/// Most lines of content a window holds.
pub(crate) const MAX_WINDOW: usize = 24;

/// Most lines kept on either side of the window.
pub(crate) const MAX_AROUND: usize = 3;

/// One line of a page as [`short`] needs it: where its bytes are in the page as read, and
/// whether it is content.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LineSpan {
    /// Offset of the first byte accounted to the line.
    pub start: usize,
    /// Offset just past its last byte.
    pub end: usize,
    /// Whether the gold text calls it content.
    pub content: bool,
}

/// The end of the `<body …>` start tag, if there is one (ASCII case-insensitive, not
/// looking inside comments or scripts: a variant for training needs no more).
fn body_start(html: &[u8]) -> Option<usize> {
    let at = html
        .windows(5)
        .position(|w| w.eq_ignore_ascii_case(b"<body"))?;
    if !html
        .get(at + 5)
        .is_some_and(|&b| b == b'>' || b.is_ascii_whitespace() || b == b'/')
    {
        return None;
    }
    memchr::memchr(b'>', &html[at..]).map(|i| at + i + 1)
}

/// The page `html` (its bytes as read) cut down to a window of its content `lines` with a
/// few lines on either side, after its head (everything up to the `<body>` start tag, when
/// the tag comes before the window), for training-time augmentation (`mainline label
/// --augment short`); `None` when the page has no content line. The window and what is
/// kept around it are drawn from `seed`.
///
/// ```
/// use mainline_training::train::{LineSpan, short};
///
/// let page = b"<html><head><title>T</title></head><body><nav>Home</nav><p>One.</p><p>Two.</p><footer>(c)</footer></body></html>";
/// let span = |start, end, content| LineSpan { start, end, content };
/// // The lines' spans as the splitter counts them (the nav, two paragraphs, the footer).
/// let lines = [span(0, 45, false), span(45, 59, true), span(59, 70, true), span(70, 83, false)];
/// let out = String::from_utf8(short(page, &lines, 7).unwrap()).unwrap();
/// assert!(out.starts_with("<html><head><title>T</title></head><body>"));
/// assert!(out.contains("Two.") || out.contains("One."));
/// ```
pub fn short(html: &[u8], lines: &[LineSpan], seed: u64) -> Option<Vec<u8>> {
    let content: Vec<usize> = (0..lines.len()).filter(|&i| lines[i].content).collect();
    let (&first, &last) = (content.first()?, content.last()?);
    let mut rng = Rng::new(seed);
    // Most windows are short: the length is 1 + 23·u² for u uniform in [0, 1).
    let u = rng.below(1000) as f64 / 1000.0;
    let len = 1 + ((MAX_WINDOW - 1) as f64 * u * u) as usize;
    let end = content[rng.below(content.len())];
    let start = end.saturating_sub(len - 1).max(first);
    let end = end.min(last);
    let from = start.saturating_sub(rng.below(MAX_AROUND + 1));
    let to = (end + rng.below(MAX_AROUND + 1)).min(lines.len() - 1);
    let (a, b) = (
        lines[from].start.min(html.len()),
        lines[to].end.min(html.len()),
    );
    if a >= b {
        return None;
    }
    let mut out = Vec::with_capacity(b - a + 256);
    match body_start(html) {
        Some(head) if head <= a => out.extend_from_slice(&html[..head]),
        _ => {}
    }
    out.extend_from_slice(&html[a..b]);
    out.extend_from_slice(b"\n</body></html>\n");
    Some(out)
}

/// Most lines a [`shell`] keeps on either side of the content it leaves out: a page whose
/// content a script draws arrives short (the top of a menu, a footer), not with all the
/// boilerplate of a long page.
pub(crate) const MAX_SHELL_SIDE: usize = 5;

/// The page `html` (its bytes as read) without its content, as a page whose content a
/// script would have drawn arrives (`mainline label --augment shell`): its first lines
/// before its first content line and its last lines after its last content line, at most
/// the same number on either side, drawn from `seed` between 1 and 5; `None` when the page
/// has no content line or nothing around it. The head stays (it is part of the first
/// line); without a line before the content, so does everything up to the `<body>` tag.
///
/// ```
/// use mainline_training::train::{LineSpan, shell};
///
/// let page = b"<body><nav>Home</nav><p>One.</p><p>Two.</p><footer>(c)</footer></body>";
/// let span = |start, end, content| LineSpan { start, end, content };
/// let lines = [span(0, 21, false), span(21, 32, true), span(32, 43, true), span(43, 61, false)];
/// let out = shell(page, &lines, 7).unwrap();
/// assert_eq!(out, b"<body><nav>Home</nav><footer>(c)</footer></body>");
/// ```
pub fn shell(html: &[u8], lines: &[LineSpan], seed: u64) -> Option<Vec<u8>> {
    let first = lines.iter().position(|l| l.content)?;
    let last = lines.iter().rposition(|l| l.content)?;
    let side = 1 + Rng::new(seed).below(MAX_SHELL_SIDE);
    let (before, after) = (first.min(side), (lines.len() - 1 - last).min(side));
    if before + after == 0 {
        return None;
    }
    let mut out = Vec::new();
    if before > 0 {
        out.extend_from_slice(&html[..lines[before - 1].end.min(html.len())]);
    } else if let Some(head) = body_start(html).filter(|&h| h <= lines[first].start) {
        out.extend_from_slice(&html[..head]);
    }
    if after > 0 {
        out.extend_from_slice(&html[lines[lines.len() - after].start.min(html.len())..]);
    } else {
        out.extend_from_slice(b"\n</body></html>\n");
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn page(n: usize) -> (Vec<u8>, Vec<LineSpan>) {
        let mut html = b"<!doctype html><html><head><title>T</title></head><body>".to_vec();
        let mut lines = Vec::new();
        for i in 0..n {
            let start = html.len();
            let content = (10..n - 10).contains(&i);
            html.extend_from_slice(format!("<p>line {i:03}</p>\n").as_bytes());
            lines.push(LineSpan {
                start: if i == 0 { 0 } else { start },
                end: html.len(),
                content,
            });
        }
        html.extend_from_slice(b"</body></html>");
        (html, lines)
    }

    #[test]
    fn a_window_of_content_with_at_most_three_lines_around_it_after_the_head() {
        let (html, lines) = page(80);
        for seed in 0..300 {
            let out = String::from_utf8(short(&html, &lines, seed).unwrap()).unwrap();
            assert!(out.starts_with("<!doctype html><html><head><title>T</title></head><body>"));
            assert!(out.ends_with("</body></html>\n"));
            let kept: Vec<usize> = (0..80)
                .filter(|i| out.contains(&format!("line {i:03}")))
                .collect();
            assert!(!kept.is_empty());
            // Consecutive lines, at least one of them content.
            assert_eq!(kept.len(), kept[kept.len() - 1] - kept[0] + 1, "{seed}");
            assert!(kept.iter().any(|&i| lines[i].content), "{seed}");
            assert!(kept.len() <= MAX_WINDOW + 2 * MAX_AROUND, "{seed}");
            let before = kept.iter().take_while(|&&i| !lines[i].content).count();
            assert!(before <= MAX_AROUND, "{seed}");
        }
        // Short windows are the most common.
        let lens: Vec<usize> = (0..300)
            .map(|s| {
                String::from_utf8(short(&html, &lines, s).unwrap())
                    .unwrap()
                    .matches("line ")
                    .count()
            })
            .collect();
        assert!(lens.iter().filter(|&&l| l <= 12).count() > 150);
    }

    #[test]
    fn a_page_without_content_has_no_short_variant() {
        let (html, mut lines) = page(30);
        for l in &mut lines {
            l.content = false;
        }
        assert_eq!(short(&html, &lines, 1), None);
    }

    #[test]
    fn a_shell_is_the_first_and_last_lines_around_the_content() {
        let (html, lines) = page(40);
        let mut sides = std::collections::BTreeSet::new();
        for seed in 0..200 {
            let out = String::from_utf8(shell(&html, &lines, seed).unwrap()).unwrap();
            let kept: Vec<usize> = (0..40)
                .filter(|i| out.contains(&format!("line {i:03}")))
                .collect();
            // The same number of lines on either side (the page has 10 of each), from the
            // top of the page and from its end, and no content.
            let n = kept.len() / 2;
            assert!((1..=MAX_SHELL_SIDE).contains(&n), "{seed}: {kept:?}");
            assert_eq!(kept, (0..n).chain(40 - n..40).collect::<Vec<_>>(), "{seed}");
            assert!(out.starts_with("<!doctype html>") && out.ends_with("</body></html>"));
            sides.insert(n);
        }
        assert_eq!(sides.len(), MAX_SHELL_SIDE, "{sides:?}");
        // A page that is all content has nothing around it.
        let all: Vec<LineSpan> = lines
            .iter()
            .map(|l| LineSpan {
                content: true,
                ..*l
            })
            .collect();
        assert_eq!(shell(&html, &all, 1), None);
    }

    #[test]
    fn the_body_tag_is_found_with_attributes_in_any_case() {
        assert_eq!(body_start(b"<head></head><BODY class=x><p>"), Some(27));
        assert_eq!(body_start(b"<bodyx>"), None);
        assert_eq!(body_start(b"<p>no body</p>"), None);
    }
}
