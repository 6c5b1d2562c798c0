//! The piece stream: what the tokenizer reads, in order, as the splitter hears of it.

use super::names::TextMode;

/// An end tag the tokenizer reads that closes open elements: the elements of its open-element
/// stack from `depth` up (the nearest one of the same name and all above it), as `lol_html`
/// pops them and runs their end-tag handlers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct EndTag {
    /// Offset of the tag's `<`.
    pub start: u64,
    /// Offset just after its `>`.
    pub end: u64,
    /// Open elements left below it.
    pub depth: usize,
}

/// The kind of text reported in a text mode.
pub(super) fn kind_of(mode: TextMode) -> Option<TextKind> {
    match mode {
        TextMode::Data => Some(TextKind::Data),
        TextMode::Plain => Some(TextKind::Plain),
        TextMode::CData => Some(TextKind::CData),
        _ => None,
    }
}

/// A start tag the tokenizer reads, as `lol_html` reports it to an element handler.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct StartTag {
    /// Offset of the tag's `<`; its name follows.
    pub start: u64,
    /// Offset just after its `>`.
    pub end: u64,
    /// Length of the name, in bytes.
    pub name_len: usize,
    /// Its attributes, in order (duplicates included): a range of [`Tokenizer::attributes`].
    pub attrs: std::ops::Range<usize>,
    /// The element can have content (it goes on the open-element stack).
    pub content: bool,
}

/// Where an attribute of a start tag is (output offsets).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) struct AttrSpan {
    /// Offset of the name.
    pub name: u64,
    /// Length of the name, in bytes.
    pub name_len: usize,
    /// Offsets of the value (without quotes), when it has one.
    pub value: Option<(u64, u64)>,
}

/// The kinds of text the splitter hears of.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum TextKind {
    /// Text with character references (the data state).
    Data,
    /// Text after `<plaintext>`: taken as it is.
    Plain,
    /// CDATA section text (in `svg`/`math`).
    CData,
}

/// What the tokenizer reads, in order, for the splitter.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Piece {
    /// Text from output offset `start` to `end`: a piece of the current text node.
    Text {
        start: u64,
        end: u64,
        kind: TextKind,
    },
    /// The current text node ends (a tag, comment, doctype or CDATA marker follows, or the
    /// input ends).
    TextEnd,
    /// A start tag.
    Start(StartTag),
    /// An end tag that closes open elements.
    End(EndTag),
    /// The bytes from input offset `at` on are a fill: the tokenizer reads spaces there and
    /// no text is reported. `breaks`: they replace a line-breaking start tag.
    FillStart { at: u64, breaks: bool },
    /// The fill ends at input offset `at`.
    FillEnd { at: u64 },
}
