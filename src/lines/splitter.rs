//! The splitter itself: it holds the first bytes back until the encoding is chosen,
//! transcodes inputs that are not ASCII-compatible, feeds the tokenizer in bounded pieces and
//! hands its reports to the [`State`], forgetting the bytes no later report refers to.

use encoding_rs::{Decoder, Encoding};

use super::line::Line;
use super::state::State;
use super::tokenizer::{Limits, Tokenizer};
#[cfg(doc)]
use super::{MAX_ATTRIBUTES, MAX_OPEN_ELEMENTS, MAX_TAG_BYTES, Structure};
use crate::input::{self, DETECT_BYTES, EncodingSource, PRESCAN_BYTES, Sniffed, Utf8Evidence};
use crate::{Error, Result};

enum Stage {
    /// Collecting the first bytes to choose the encoding.
    Sniffing(Vec<u8>),
    Running {
        /// For encodings that are not ASCII-compatible (UTF-16, ISO-2022-JP): decoder to
        /// UTF-8.
        transcoder: Option<Decoder>,
        tokenizer: Box<Tokenizer>,
    },
    Ended,
    Failed,
}

/// Streaming line splitter: cuts a page, fed in pieces, into the [`Line`]s a text-mode
/// browser would show.
pub struct Splitter {
    state: Box<State>,
    stage: Stage,
    /// Bytes given to the tokenizer (after transcoding, if any).
    fed: u64,
    /// Bytes given to [`Splitter::write`].
    written: u64,
    sniffed: Option<Sniffed>,
    /// A charset given from outside the document (an HTTP header's).
    transport: Option<&'static encoding_rs::Encoding>,
    trailing: u64,
    limits: Limits,
    /// The tokenizer's output from offset `out_start` on: what later events may still refer to
    /// and the bytes of the last piece.
    out: Vec<u8>,
    out_start: u64,
    /// An encoding given by the caller ([`Splitter::with_encoding`]).
    given: Option<&'static Encoding>,
    /// The tokenizer of the last document, kept for the room of its buffers
    /// ([`Splitter::reuse`]).
    spare: Option<Box<Tokenizer>>,
}

impl Default for Splitter {
    fn default() -> Self {
        Self::new()
    }
}

impl std::fmt::Debug for Splitter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Splitter")
            .field("written", &self.written)
            .field("sniffed", &self.sniffed)
            .finish_non_exhaustive()
    }
}

impl Splitter {
    /// A splitter for one document.
    pub fn new() -> Self {
        Splitter {
            state: Box::default(),
            stage: Stage::Sniffing(Vec::new()),
            fed: 0,
            written: 0,
            sniffed: None,
            transport: None,
            trailing: 0,
            limits: Limits::default(),
            out: Vec::new(),
            out_start: 0,
            given: None,
            spare: None,
        }
    }

    /// Takes over the buffers of `old` (the line queue, the element stacks, the tokenizer's
    /// event lists, the output buffer), emptied: for a splitter that starts a new document
    /// with the room the last one's have grown to. Settings and everything else stay as
    /// they are in `self`.
    pub(crate) fn reuse(&mut self, old: &mut Splitter) {
        self.state.reuse(&mut old.state);
        self.spare = match std::mem::replace(&mut old.stage, Stage::Failed) {
            Stage::Running { tokenizer, .. } => Some(tokenizer),
            _ => old.spare.take(),
        };
        old.out.clear();
        std::mem::swap(&mut self.out, &mut old.out);
    }

    /// Decodes the document with `encoding` (a charset given from outside it, such as an
    /// HTTP header's) unless it starts with a byte order mark; `None` leaves the choice to
    /// the document ([`input::sniff`]). See [`input::sniff_with_transport`]; unlike
    /// [`Splitter::with_encoding`], a byte order mark still wins. Set it before the first
    /// [`Splitter::write`].
    ///
    /// ```
    /// use mainline::Splitter;
    /// let mut s = Splitter::new().with_transport_encoding(Some(encoding_rs::WINDOWS_1252));
    /// s.write(b"<meta charset=utf-8><p>caf")?;
    /// s.write(b"\xe9</p>")?;
    /// s.end()?;
    /// assert_eq!(s.next_line().unwrap().text, "caf\u{e9}");
    /// # Ok::<(), mainline::Error>(())
    /// ```
    pub fn with_transport_encoding(
        mut self,
        encoding: Option<&'static encoding_rs::Encoding>,
    ) -> Self {
        self.transport = encoding;
        self
    }

    /// A splitter with other limits than [`MAX_TAG_BYTES`], [`MAX_ATTRIBUTES`] and
    /// [`MAX_OPEN_ELEMENTS`] (small ones make the cuts easy to test).
    #[cfg(test)]
    pub(super) fn with_limits(limits: Limits) -> Self {
        Splitter {
            limits,
            ..Splitter::new()
        }
    }

    /// Feeds the next piece of the document. Pieces may be of any size and may split
    /// tags, characters and character references anywhere.
    ///
    /// The first bytes are held back until the encoding is known: up to [`PRESCAN_BYTES`]
    /// when UTF-8 is declared (or a byte order mark says so), up to [`DETECT_BYTES`] when no
    /// encoding is declared or a legacy one is (whether the bytes contradict it decides).
    ///
    /// # Errors
    /// [`Error::NotHtml`] when the input starts with the signature of a binary format; the
    /// splitter is unusable afterwards.
    pub fn write(&mut self, bytes: &[u8]) -> Result<()> {
        self.written += bytes.len() as u64;
        match &mut self.stage {
            Stage::Sniffing(head)
                if head.is_empty()
                    && (self.given.is_some() || sniffing_done(bytes, 0, self.transport)) =>
            {
                // NOTE: a first write that settles the encoding by itself goes to the
                // tokenizer without being copied (a whole page is often written at once).
                self.stage = Stage::Sniffing(Vec::new());
                self.begin(bytes, false)
            }
            Stage::Sniffing(head) => {
                let before = head.len();
                head.extend_from_slice(bytes);
                if sniffing_done(head, before, self.transport) {
                    self.start(false)?;
                }
                Ok(())
            }
            Stage::Running { .. } => {
                self.feed(bytes);
                Ok(())
            }
            Stage::Ended => Err(Error::Other("write after end".into())),
            Stage::Failed => Err(Error::Html("the splitter failed earlier".into())),
        }
    }

    /// Ends the document: the last line is completed and [`Splitter::trailing_bytes`] set.
    ///
    /// # Errors
    /// As for [`Splitter::write`].
    pub fn end(&mut self) -> Result<()> {
        if let Stage::Sniffing(_) = self.stage {
            self.start(true)?;
        }
        match std::mem::replace(&mut self.stage, Stage::Failed) {
            Stage::Running {
                transcoder,
                mut tokenizer,
            } => {
                let mut bytes = Vec::new();
                if let Some(mut decoder) = transcoder {
                    transcode(&mut decoder, &[], true, &mut bytes);
                    self.fed += bytes.len() as u64;
                }
                if !tokenizer.scan(&bytes, &mut self.out) {
                    self.out.extend_from_slice(&bytes);
                }
                tokenizer.finish(&mut self.out);
                Self::events(
                    &mut self.state,
                    &mut tokenizer,
                    &mut self.out,
                    &mut self.out_start,
                    None,
                );
                let st = &mut self.state;
                st.finish(self.fed);
                self.trailing = self.fed - st.lines.line_start;
                self.stage = Stage::Ended;
                self.spare = Some(tokenizer);
                Ok(())
            }
            Stage::Ended => {
                self.stage = Stage::Ended;
                Ok(())
            }
            Stage::Failed => Err(Error::Html("the splitter failed earlier".into())),
            Stage::Sniffing(_) => unreachable!("start() leaves the sniffing stage"),
        }
    }

    /// The next complete line, if any.
    pub fn next_line(&mut self) -> Option<Line> {
        self.state.lines.pop()
    }

    /// Gives back a line that is no longer needed: the buffers of its text and ancestors
    /// hold a later line's (of this document or, after [`Extractor::reset`], the next),
    /// which saves allocating them. Optional; lines may as well be dropped. At most 4,096
    /// lines are kept (a block of a page), and no text buffer over 1 KiB.
    ///
    /// ```
    /// let mut s = mainline::Splitter::new();
    /// s.write(b"<p>One line.</p><p>Another one.</p>")?;
    /// s.end()?;
    /// while let Some(line) = s.next_line() {
    ///     assert!(line.text.ends_with("line.") || line.text.ends_with("one."));
    ///     s.recycle(line);
    /// }
    /// # Ok::<(), mainline::Error>(())
    /// ```
    ///
    /// [`Extractor::reset`]: crate::extract::Extractor::reset
    pub fn recycle(&mut self, line: Line) {
        let Line {
            mut text,
            mut ancestors,
            ..
        } = line;
        let spares = &mut self.state.lines.spare_lines;
        if spares.len() < SPARE_LINES && (1..=SPARE_TEXT_BYTES).contains(&text.capacity()) {
            text.clear();
            ancestors.clear();
            spares.push((text, ancestors));
        }
    }

    /// Bytes given to the tokenizer so far: the input length, or for transcoded inputs
    /// (UTF-16, ISO-2022-JP) the length of their UTF-8 transcoding.
    pub fn input_bytes(&self) -> u64 {
        self.fed
    }

    /// Bytes after the end of the last line (known after [`Splitter::end`]).
    pub fn trailing_bytes(&self) -> u64 {
        self.trailing
    }

    /// The encoding chosen for the document, once known.
    pub fn encoding(&self) -> Option<Sniffed> {
        self.sniffed
    }

    /// Whether to collect the page's [`Metadata`](crate::meta::Metadata) as it is read (off
    /// by default). Set it before the first [`Splitter::write`].
    ///
    /// ```
    /// let mut s = mainline::Splitter::new().with_metadata(true);
    /// s.write(b"<title>Hi</title><p>Some text.</p>")?;
    /// s.end()?;
    /// assert!(s.head_done());
    /// assert_eq!(s.metadata().unwrap().title.as_deref(), Some("Hi"));
    /// # Ok::<(), mainline::Error>(())
    /// ```
    pub fn with_metadata(mut self, yes: bool) -> Self {
        self.state.lines.meta = yes.then(Box::default);
        self
    }

    /// Collects what the head says about the page ([`Splitter::head_metadata`]) and no
    /// more, unless all the metadata is collected already ([`Splitter::with_metadata`]).
    pub(crate) fn with_head_metadata(mut self) -> Self {
        if self.state.lines.meta.is_none() {
            self.state.lines.meta = Some(Box::new(crate::meta::Collector::head_only()));
        }
        self
    }

    /// The metadata as known when the first line of the body came out, once it has (with
    /// [`Splitter::with_metadata`] or [`Splitter::with_head_metadata`]).
    pub(crate) fn head_metadata(&self) -> Option<&crate::meta::Metadata> {
        self.state.lines.meta.as_deref().and_then(|m| m.head())
    }

    /// Decode the document with `encoding` whatever it declares (a byte order mark, a
    /// `<meta charset>`), without holding back its first bytes: for text that is already
    /// decoded, such as a Rust `&str` with UTF-8. Set it before the first
    /// [`Splitter::write`].
    ///
    /// ```
    /// let mut s = mainline::Splitter::new().with_encoding(encoding_rs::UTF_8);
    /// s.write("<meta charset=iso-8859-1><p>Déjà vu</p>".as_bytes())?;
    /// assert_eq!(s.next_line().unwrap().text, "Déjà vu");
    /// # Ok::<(), mainline::Error>(())
    /// ```
    pub fn with_encoding(mut self, encoding: &'static Encoding) -> Self {
        self.given = Some(encoding);
        self
    }

    /// Whether each line records its [`Structure`] (off by default): lists, tables, `<pre>`
    /// blocks, quotes and inline spans, for rendering Markdown. Lines are otherwise the
    /// same. Set it before the first [`Splitter::write`].
    ///
    /// ```
    /// let mut s = mainline::Splitter::new().with_structure(true);
    /// s.write(b"<ol start=3><li>Three <em>four</em></li></ol>")?;
    /// s.end()?;
    /// let line = s.next_line().unwrap();
    /// let st = line.structure.as_deref().unwrap();
    /// assert_eq!(st.item.as_ref().map(|i| (i.ordered, i.ordinal)), Some((true, 3)));
    /// assert_eq!((st.spans[0].start, st.spans[0].end), (6, 10));
    /// # Ok::<(), mainline::Error>(())
    /// ```
    pub fn with_structure(mut self, yes: bool) -> Self {
        self.state.lines.shape = yes.then(Box::default);
        self
    }

    /// The metadata collected so far, when asked for with [`Splitter::with_metadata`]:
    /// what the head gives once [`Splitter::head_done`], all of it after [`Splitter::end`].
    pub fn metadata(&self) -> Option<crate::meta::Metadata> {
        self.state.lines.meta.as_ref().map(|m| m.metadata())
    }

    /// Whether the head has been read: the first line of the body has come out (or the
    /// document has ended).
    pub fn head_done(&self) -> bool {
        matches!(self.stage, Stage::Ended)
            || self
                .state
                .lines
                .meta
                .as_ref()
                .is_some_and(|m| m.head_done())
            || self.state.lines.index > 0
    }

    fn start(&mut self, complete: bool) -> Result<()> {
        let Stage::Sniffing(head) = std::mem::replace(&mut self.stage, Stage::Failed) else {
            return Ok(());
        };
        self.begin(&head, complete)
    }

    /// Chooses the encoding from the document's first bytes `head` (all of them when
    /// `complete`), sets up the tokenizer and feeds it `head`.
    fn begin(&mut self, head: &[u8], complete: bool) -> Result<()> {
        self.stage = Stage::Failed;
        if let Some(kind) = input::binary_kind(head) {
            return Err(Error::NotHtml(format!(
                "the data looks like {}",
                input::a_binary_kind(kind)
            )));
        }
        let sniffed = match self.given {
            Some(encoding) => Sniffed {
                encoding,
                source: EncodingSource::Given,
            },
            None => input::sniff_with_transport(head, complete, self.transport),
        };
        self.sniffed = Some(sniffed);
        let (encoding, transcoder) = if sniffed.encoding.is_ascii_compatible() {
            (sniffed.encoding, None)
        } else {
            (
                encoding_rs::UTF_8,
                Some(sniffed.encoding.new_decoder_with_bom_removal()),
            )
        };
        let st = &mut self.state;
        // A later <meta charset> in the head may correct a guess, but never a BOM, an early
        // declaration, or UTF-8 that the bytes have shown (multi-byte sequences in the first
        // DETECT_BYTES): that would turn the rest of a UTF-8 page into mojibake.
        st.adjust = sniffed.source == EncodingSource::Detected
            && transcoder.is_none()
            && !(sniffed.encoding == encoding_rs::UTF_8
                && input::utf8_evidence(head, complete) == Utf8Evidence::MultiByte);
        st.utf8 = transcoder.is_some() || sniffed.encoding == encoding_rs::UTF_8;
        st.encoding = Some(encoding);
        let tokenizer = match self.spare.take() {
            Some(mut tokenizer) => {
                tokenizer.reset(self.limits);
                tokenizer
            }
            None => Box::new(Tokenizer::new(self.limits)),
        };
        self.stage = Stage::Running {
            transcoder,
            tokenizer,
        };
        self.feed(head);
        Ok(())
    }

    fn feed(&mut self, bytes: &[u8]) {
        let Stage::Running {
            transcoder,
            tokenizer,
        } = &mut self.stage
        else {
            unreachable!("feed is only called while running");
        };
        let mut transcoded = Vec::new();
        let bytes = match transcoder {
            Some(decoder) => {
                transcoded.reserve(bytes.len() * 3 / 2 + 16);
                transcode(decoder, bytes, false, &mut transcoded);
                &transcoded[..]
            }
            None => bytes,
        };
        self.fed += bytes.len() as u64;
        // NOTE: pieces of at most FEED_BYTES, so that the bytes kept between pieces (at most
        // a start tag, which the tokenizer keeps within MAX_TAG_BYTES), those of one piece and
        // its events stay bounded. While bytes are kept, the tokenizer's output is copied after
        // them: short pieces then, until the tag ends and pieces can be read in place.
        let mut rest = bytes;
        while !rest.is_empty() {
            let size = if self.out.is_empty() {
                FEED_BYTES
            } else {
                KEPT_FEED_BYTES
            };
            let (piece, tail) = rest.split_at(size.min(rest.len()));
            rest = tail;
            let copied = tokenizer.scan(piece, &mut self.out);
            let unchanged = (!copied).then_some(piece);
            Self::events(
                &mut self.state,
                tokenizer,
                &mut self.out,
                &mut self.out_start,
                unchanged,
            );
        }
    }

    /// Applies the tokenizer's events and forgets the bytes no later event refers to. The
    /// tokenizer's output is `out` from offset `out_start` on, or `unchanged` (then `out` is
    /// empty).
    fn events(
        state: &mut State,
        tokenizer: &mut Tokenizer,
        out: &mut Vec<u8>,
        out_start: &mut u64,
        unchanged: Option<&[u8]>,
    ) {
        let bytes = unchanged.unwrap_or(out);
        state.apply(
            tokenizer.events(),
            tokenizer.attributes(),
            bytes,
            *out_start,
        );
        if let Some(m) = state.lines.meta.as_deref_mut() {
            if m.capture_next().is_some() {
                m.bytes(bytes, *out_start);
            }
        }
        tokenizer.clear_events();
        let keep = tokenizer.keep_from().max(*out_start);
        let drop = usize::try_from(keep - *out_start)
            .unwrap_or(usize::MAX)
            .min(bytes.len());
        match unchanged {
            Some(input) => out.extend_from_slice(&input[drop..]),
            None => {
                out.drain(..drop);
            }
        }
        *out_start += drop as u64;
    }
}

/// Whether the first bytes of a document, `head`, of which the first `before` were already
/// looked at, are enough to choose the encoding.
fn sniffing_done(
    head: &[u8],
    before: usize,
    transport: Option<&'static encoding_rs::Encoding>,
) -> bool {
    // NOTE: the declaration prescan looks at the first PRESCAN_BYTES only, so it runs
    // once, when they are complete (not again for every small write). With a charset from
    // outside, only a byte order mark (at most 3 bytes) can overrule it. A declared legacy
    // encoding is settled only once DETECT_BYTES show whether the bytes contradict it
    // (valid UTF-8 with multi-byte sequences), unless they already cannot.
    (transport.is_some() && head.len() >= 3)
        || head.len() >= DETECT_BYTES
        || (before < PRESCAN_BYTES && head.len() >= PRESCAN_BYTES && {
            let first = &head[..PRESCAN_BYTES];
            let sniffed = input::sniff(first, false);
            match sniffed.source {
                EncodingSource::Bom | EncodingSource::Given | EncodingSource::Transport => true,
                EncodingSource::Meta => {
                    sniffed.encoding == encoding_rs::UTF_8
                        || input::utf8_evidence(first, false) == Utf8Evidence::Invalid
                }
                EncodingSource::Detected | EncodingSource::Contradicted(_) => false,
            }
        })
}

/// Most lines given back with [`Splitter::recycle`] that a splitter keeps (those of a
/// block of a page, [`crate::second_stage::page::MAX_LINES`]).
const SPARE_LINES: usize = 4096;

/// Longest text buffer of a line given back that is kept, in bytes.
const SPARE_TEXT_BYTES: usize = 1024;

/// The most bytes given to the tokenizer in one go.
const FEED_BYTES: usize = 16 * 1024;

/// The same while the bytes of a start tag are kept from the previous piece.
const KEPT_FEED_BYTES: usize = 1024;

fn transcode(decoder: &mut Decoder, mut bytes: &[u8], last: bool, out: &mut Vec<u8>) {
    let mut buf = [0u8; 8192];
    loop {
        let (result, read, written, _) = decoder.decode_to_utf8(bytes, &mut buf, last);
        out.extend_from_slice(&buf[..written]);
        bytes = &bytes[read..];
        if result == encoding_rs::CoderResult::InputEmpty {
            break;
        }
    }
}
