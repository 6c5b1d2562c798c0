//! [`Format::Text`](super::Format::Text): the kept lines, joined by `\n`.

use crate::{Decision, Document};

/// Adds a decided line to a page's text: when kept, its text, after a `\n` if the text
/// has a line already. Every way of taking a page's text joins its lines with this.
///
/// ```
/// use mainline::output::text::push_kept;
/// let doc = mainline::Options::new().threshold(0.5)
///     .extract_str("<p>The first paragraph of words.</p><p>And a second paragraph of words.</p>")?;
/// let mut text = String::new();
/// doc.lines().iter().for_each(|d| push_kept(&mut text, d));
/// assert_eq!(text, doc.text());
/// # Ok::<(), mainline::Error>(())
/// ```
#[inline]
pub fn push_kept(text: &mut String, d: &Decision) {
    if d.keep {
        if !text.is_empty() {
            text.push('\n');
        }
        text.push_str(&d.line.text);
    }
}

/// The document's text with a final newline, or nothing when no line was kept.
pub(crate) fn render(doc: &Document) -> String {
    let text = doc.text();
    if text.is_empty() {
        String::new()
    } else {
        format!("{text}\n")
    }
}
