//! The streaming line splitter: HTML bytes in, [`Line`]s out.
//!
//! A *line* is what a text-mode browser puts on a line of its own: the text between two
//! line-breaking tags (block-level elements such as `p`, `div`, `li`, `td`, `h1`–`h6`, and
//! `<br>`). Each line carries its text and the exact number of input bytes it took to
//! describe it — tags, attributes, scripts, comments and the text itself — from the end of
//! the previous line to the end of this one, which gives the text density of the seed
//! design (`text_bytes / html_bytes`).
//!
//! The splitter tokenizes HTML the way `lol_html` does, byte for byte: no DOM is built, and
//! memory does not grow with the input. Bytes go in by [`Splitter::write`] in pieces of any
//! size, and complete lines come out of [`Splitter::next_line`] as soon as the tag that ends
//! them has been read.
//!
//! # Data flow
//! The input (transcoded to UTF-8 first when it is UTF-16 or ISO-2022-JP) goes through the
//! tokenizer (`tokenizer/`, its type `Tokenizer`), which follows `lol_html`'s lexer state by
//! state, with its tree-builder feedback, and reports what that tokenizer would report to
//! an element handler on `"*"`, a document text handler and the end-tag handlers: start
//! tags (name and attribute ranges, duplicates included, and whether the element can have
//! content), the text of data and plain-text nodes, the end tags that close open elements,
//! in document order. The splitter
//! reads names and values from those ranges and decodes them as `lol_html` does (with
//! `encoding_rs`, from the document's encoding, which a `<meta charset>` in the head switches
//! when the encoding was only guessed from ASCII bytes); it decodes text nodes as `lol_html`'s text decoder does
//! (replacement characters, characters split between pieces) and then character
//! references. `lol_html` itself is no longer run on the input: the tokenizer's tests check it
//! against `lol_html`'s own reports, token for token.
//!
//! ```
//! use mainline::Splitter;
//!
//! let mut splitter = Splitter::new();
//! let mut lines = Vec::new();
//! let pieces = ["<nav><a href=/>Home</a></nav><p>Fish &amp; ", "chips are ", "good.</p>"];
//! for piece in pieces {
//!     splitter.write(piece.as_bytes())?;
//!     while let Some(line) = splitter.next_line() {
//!         lines.push(line);
//!     }
//! }
//! splitter.end()?;
//! lines.extend(std::iter::from_fn(|| splitter.next_line()));
//!
//! assert_eq!(lines.len(), 2);
//! assert_eq!(lines[0].text, "Home");
//! assert_eq!(lines[0].link_bytes, 4);
//! assert_eq!(lines[1].text, "Fish & chips are good.");
//! // Every input byte belongs to a line or to the trailing bytes after the last line.
//! let total: u64 = lines.iter().map(|l| l.html_bytes).sum::<u64>() + splitter.trailing_bytes();
//! assert_eq!(total, pieces.concat().len() as u64);
//! # Ok::<(), mainline::Error>(())
//! ```
//!
//! # Rules
//! - Elements end where HTML's tree construction ends them: at their end tag, or where a
//!   start tag implies it (a `<p>` ends an open `p`, a `<td>` the open cell, a `<li>` the
//!   open item, a `<p>` or `<div>` an unclosed `<svg>` or `<math>`, …), so leaving out the
//!   end tags HTML lets a page leave out changes no line but its byte offsets.
//! - Text is decoded (character references by the WHATWG rules, including legacy forms
//!   without `;`) and whitespace is collapsed, except inside `<pre>`, where whitespace is
//!   kept and every source line becomes a line.
//! - The contents of `script`, `style`, `template`, `svg`, `math`, `title`, `textarea`,
//!   `object` and comments never become text; their bytes count towards the next line's
//!   `html_bytes`.
//! - The head ends as HTML's tree construction ends it: at `</head>`, or at the first start
//!   tag of an element that does not belong in the head (`body`, `p`, `div`, …) or the
//!   first text that is not white space, so a page without `</head>` (or whose `</head>`
//!   an unclosed comment or script swallowed) gives the same lines as with it.
//! - `<noscript>` is read as a parser with scripting disabled reads it, as markup, and
//!   breaks lines like a `<div>`: forum software such as Discourse serves every post of a
//!   thread inside it (`lol_html`, which follows a browser with scripting enabled, reads it
//!   as raw text; see `tokenizer/`).
//! - A `<title>`, `<textarea>` or `<style>` that is never closed (a page cut or spliced by
//!   its crawler) is closed, as libxml2 closes it, at a `<` that starts a tag of a common
//!   element (for `<style>`, `<body` or `</head`) when the element's end tag is not among
//!   the next [`RAW_TEXT_WINDOW`] bytes; the standard would make the rest of the page its
//!   text.
//! - Lines without text are not emitted: their bytes roll into the next line, as in the seed
//!   design, so a page of a million `<br>`s and no text yields no lines at all.
//! - A line is split when its text reaches [`MAX_LINE_BYTES`], so memory stays bounded even
//!   for a single text node of hundreds of megabytes.
//!
//! # Limits
//! Whatever the input, a splitter's memory stays within a fixed bound (a few megabytes in
//! the worst case). There is no maximum input size: offsets and counts are 64-bit. What
//! would otherwise grow with the input is capped, and none of the caps is reached by
//! ordinary pages:
//!
//! | Cap | Value | Beyond it |
//! |-----|-------|-----------|
//! | [`MAX_LINE_BYTES`] | 1 MiB | the line is split; the text goes on in the next line |
//! | [`MAX_TAG_BYTES`] | 1 MiB | a tag, comment, doctype or bogus comment is cut there: a tag keeps its name and the attributes before the cut, and the rest of the construct, up to where it really ends, is skipped; script text after `<!--` is released in pieces of this size |
//! | [`MAX_ATTRIBUTES`] | 1024 | the tag is cut after this many attributes, as above |
//! | [`MAX_OPEN_ELEMENTS`] | 16,384 | further start tags are skipped (their text is kept, and a line-breaking one still ends the line) until end tags close some; void elements and `script`, `style`, `textarea`, `title` and the other raw-text elements still count |
//! | [`MAX_STACK`] | 512 | deeper elements count towards [`Line::depth`] but add no context, class or id |
//! | [`MAX_ANCESTORS`] | 4 | a line lists the nearest ones |
//! | [`MAX_DESCRIPTOR_BYTES`] | 64 | a `tag.class#id` descriptor is cut |
//! | [`DETECT_BYTES`] | 64 KiB | held back while the encoding is not yet known |
//! | [`RAW_TEXT_WINDOW`] | 8 KiB | held after a tag-shaped `<` in a `<title>`, `<textarea>` or `<style>`, looking for its end tag; without one there, the element is closed at the `<` |
//!
//! The open-element count is the tokenizer's: it rises with every start tag of an element
//! that can have content and falls with end tags and with the end tags HTML implies (a
//! `<p>` closes an open `p`, a `<td>` the open cell, a `<tr>` the open row, an `<li>` the
//! open item, a `<div>` inside an unclosed `<svg>` the svg, …; see `tokenizer/`), so pages
//! that leave out optional end tags stay as shallow as with them, and only elements that
//! really nest (a hundred thousand `<div>`s) reach the cap. Cut constructs and skipped start tags change the bytes the tokenizer
//! sees one for one (see `tokenizer/`), so offsets and byte accounting are those of the
//! input, and the result does not depend on how the input is cut into pieces. Between two
//! pieces the splitter keeps at most the start tag being read (within [`MAX_TAG_BYTES`]).
//!
//! # Byte accounting
//! A line ends where the tag that breaks it starts; its `html_bytes` run from the end of
//! the previous line to there. The sum of `html_bytes` over all lines plus
//! [`Splitter::trailing_bytes`] is exactly [`Splitter::input_bytes`]. Offsets are counted
//! in the input's own encoding; only inputs that are not ASCII-compatible (UTF-16,
//! ISO-2022-JP), which `lol_html` cannot tokenize either, are counted in their UTF-8
//! transcoding. Where a line is split
//! inside a text node (in `<pre>`, or at [`MAX_LINE_BYTES`]) the split offset is computed
//! from the decoded text, counting for each character the fewest bytes it can have taken in
//! the input: exact for valid UTF-8 without character references, and never beyond the
//! bytes read, so that it does not depend on how the input is cut into pieces.

mod current;
mod elements;
mod line;
mod shape;
mod splitter;
mod state;
mod tags;
mod text;
mod tokenizer;

pub use line::{Line, NO_ELEMENT, PATH_LEVELS, Totals};
pub use shape::{CodeBlock, ListItem, Span, SpanKind, Structure, TableCell};
pub use splitter::Splitter;
pub use tags::{Block, ctx, hint};
pub(crate) use tokenizer::KeyHasher;
pub use tokenizer::{MAX_ATTRIBUTES, MAX_OPEN_ELEMENTS, MAX_TAG_BYTES, RAW_TEXT_WINDOW};

use crate::Result;
#[cfg(doc)]
use crate::input::DETECT_BYTES;

/// The longest line text, in bytes, before a line is split.
pub const MAX_LINE_BYTES: usize = 1 << 20;

/// How many open elements are tracked one by one. Deeper elements still count towards
/// [`Line::depth`], but their class, id and context are not recorded.
pub const MAX_STACK: usize = 512;

/// How many of the nearest ancestors with a class or id a line lists in [`Line::ancestors`].
pub const MAX_ANCESTORS: usize = 4;

/// The longest `tag.class#id` descriptor kept per ancestor, in bytes (longer ones are cut).
pub const MAX_DESCRIPTOR_BYTES: usize = 64;

/// Splits a whole document held in memory. A convenience over [`Splitter`].
///
/// ```
/// let lines = mainline::internals::lines::split(b"<h1>Title</h1><p>Body text.</p>")?;
/// assert_eq!(lines.len(), 2);
/// assert_eq!(lines[0].heading, 1);
/// # Ok::<(), mainline::Error>(())
/// ```
///
/// # Errors
/// As for [`Splitter::write`].
pub fn split(html: &[u8]) -> Result<Vec<Line>> {
    let mut splitter = Splitter::new();
    splitter.write(html)?;
    splitter.end()?;
    Ok(std::iter::from_fn(|| splitter.next_line()).collect())
}

#[cfg(test)]
mod tests;

#[cfg(test)]
mod tree_tests;
