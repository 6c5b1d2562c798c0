//! [`Format::Text`](super::Format::Text): the kept lines, joined by `\n`.

use std::io::{self, Write};

use super::Writer;
use crate::{Decision, Document, Extractor};

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

/// Writes each kept line and its line end as it is decided.
#[derive(Debug)]
pub(crate) struct Text;

impl Writer for Text {
    fn line(&mut self, ex: &mut Extractor, d: Decision, out: &mut dyn Write) -> io::Result<()> {
        if d.keep {
            out.write_all(d.line.text.as_bytes())?;
            out.write_all(b"\n")?;
        }
        ex.recycle(d.line);
        Ok(())
    }
}
