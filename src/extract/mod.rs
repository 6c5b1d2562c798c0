//! The streaming extractor (see [`Extractor`]) and the scorers that decide lines.
//!
//! This file holds the [`Extractor`] and the [`Decision`]s it gives; `scorer.rs` the
//! [`Scorer`] trait and the scorers mainline has; `page_block.rs` the block of lines a
//! page-level second stage holds.

mod page_block;
mod scorer;
#[cfg(test)]
mod tests;

use std::collections::VecDeque;
use std::sync::Arc;

use crate::Result;
use crate::features::{self, LineFeatures, MAX_CONTEXT, N_FEATURES};
use crate::lines::{Line, Splitter};
use crate::second_stage::{self, Window};

use page_block::PageBlock;
pub use scorer::AllFeatures;
pub use scorer::{ModelScorer, Scorer, Threshold};

/// One line and what was decided about it.
#[derive(Debug, Clone, PartialEq)]
pub struct Decision {
    /// The line.
    pub line: Line,
    /// The scorer's score for it (the second stage's, for a two-stage model).
    pub score: f32,
    /// Whether it is part of the main content.
    pub keep: bool,
    /// The full feature row, when requested with [`Extractor::with_features`].
    pub features: Option<Vec<f32>>,
    /// The line's page hints (`second_stage::hints::line_names`), when requested with
    /// [`Extractor::with_features`]: for the labelled CSV.
    #[doc(hidden)]
    pub hints: Option<[f32; second_stage::hints::N_LINE_HINTS]>,
    /// How the line matched its site's template, in site mode
    /// ([`Extractor::set_site`]): `None` when it appears on none of the site's other pages.
    pub template: Option<crate::site::Match>,
}

/// How many first-stage rows of a page block wait to be scored together (a few times the
/// kernel's rows at once; their buffer stays small).
const FIRST_ROWS: usize = 64;

/// A line waiting for its decision, with its feature row and page hints when kept.
type AwaitingDecision = (
    Line,
    Option<Vec<f32>>,
    Option<[f32; second_stage::hints::N_LINE_HINTS]>,
);

/// Streaming extractor: bytes in, a keep/drop [`Decision`] per line out.
///
/// [`Extractor`] wires the stages together: the [`Splitter`] turns bytes into lines, each
/// line's [`LineFeatures`] are computed once, and a [`Scorer`] decides each line as soon as
/// the lines after it that its features need have arrived (its [`Scorer::context`]). A
/// two-stage model then waits for its second stage's lookahead of first-stage scores
/// (at most 32 lines on each side). Only those windows of lines are held, so
/// memory does not depend on the page length. A second stage with page-level inputs
/// (as in the built-in model) holds the lines of one block of the page instead, at most
/// 4,096 lines and about 4 MiB of text.
///
/// ```
/// use std::sync::Arc;
/// use mainline::{Extractor, Threshold};
///
/// let mut ex = Extractor::new(Arc::new(Threshold(0.5)));
/// let mut kept = Vec::new();
/// for piece in ["<div class=menu><a href=/a>A</a> <a href=/b>B</a></div>",
///               "<p>A paragraph of plain text has a high ", "text density.</p>"] {
///     ex.write(piece.as_bytes())?;
///     while let Some(d) = ex.next_decision() {
///         if d.keep { kept.push(d.line.text) }
///     }
/// }
/// ex.end()?;
/// kept.extend(std::iter::from_fn(|| ex.next_decision()).filter(|d| d.keep).map(|d| d.line.text));
/// assert_eq!(kept, ["A paragraph of plain text has a high text density."]);
/// # Ok::<(), mainline::Error>(())
/// ```
pub struct Extractor {
    splitter: Splitter,
    scorer: Arc<dyn Scorer>,
    /// The scorer as a [`ModelScorer`], when its model has a second stage.
    stages: Option<Arc<ModelScorer>>,
    context: usize,
    keep_features: bool,
    /// Lines read but not yet decided (at most `context + 1`).
    pending: VecDeque<Line>,
    /// The features of the last `decided` lines decided (at most `context`), oldest first,
    /// then those of the `pending` lines: the features are written once per line and not
    /// moved while its neighbours need them.
    features: VecDeque<LineFeatures>,
    decided: usize,
    /// Two-stage scorers: lines scored by the first stage and waiting for the lines after
    /// them (at most the lookahead + 1), with their feature rows when kept.
    window: Option<Window<AwaitingDecision>>,
    /// Scorers with page-level inputs: the lines of the current block of the page.
    page: Option<PageBlock>,
    /// The page hints of the lines, once the first line has come out (when the scorer
    /// reads them or the features are kept).
    hints: Option<second_stage::hints::Tracker>,
    base: Vec<f32>,
    out: VecDeque<Decision>,
    row: Vec<f32>,
    scratch: Vec<f32>,
    /// What the `with_` methods set on the splitter, for [`Extractor::reset`].
    settings: Settings,
    /// Site mode: the template of the page's site ([`Extractor::set_site`]).
    site: Option<crate::site::PageTemplate>,
    /// Scratch for site mode: how each line of a block matched the template.
    site_matches: Vec<Option<crate::site::Match>>,
}

/// What the `with_` methods of an [`Extractor`] set on its splitter: every setting of the
/// splitter is recorded here, so that [`Extractor::reset`] can make a new one.
#[derive(Debug, Clone, Copy, Default)]
struct Settings {
    structure: bool,
    metadata: bool,
    /// Collect what the head says about the page, for the page hints.
    head: bool,
    encoding: Option<&'static encoding_rs::Encoding>,
    transport: Option<&'static encoding_rs::Encoding>,
}

impl Settings {
    /// A splitter with these settings.
    fn splitter(&self) -> Splitter {
        let mut s = Splitter::new()
            .with_structure(self.structure)
            .with_metadata(self.metadata)
            .with_transport_encoding(self.transport);
        if self.head {
            s = s.with_head_metadata();
        }
        if let Some(e) = self.encoding {
            s = s.with_encoding(e);
        }
        s
    }
}

impl std::fmt::Debug for Extractor {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Extractor")
            .field("scorer", &self.scorer.describe())
            .field("splitter", &self.splitter)
            .finish_non_exhaustive()
    }
}

impl Extractor {
    /// An extractor for one document, deciding with `scorer`. For many documents, one
    /// extractor can be [reset](Extractor::reset) between them.
    pub fn new(scorer: Arc<dyn Scorer>) -> Self {
        let context = scorer.context().min(MAX_CONTEXT);
        let stages = ModelScorer::two_stage_of(&scorer);
        let (mut window, mut page, mut head) = (None, None, false);
        if let Some(m) = &stages {
            let lookahead = m.lookahead().min(second_stage::MAX_LOOKAHEAD);
            if m.page_stage() {
                page = Some(PageBlock::new(lookahead, m.repeats(), m.hints()));
                head = m.hints();
            } else {
                window = Some(Window::new(lookahead));
            }
        }
        let paged = page.is_some();
        let settings = Settings {
            head,
            ..Settings::default()
        };
        Extractor {
            splitter: settings.splitter(),
            scorer,
            stages,
            context,
            keep_features: false,
            pending: VecDeque::with_capacity(context + 2),
            features: VecDeque::with_capacity(2 * context + 2),
            decided: 0,
            window,
            page,
            hints: None,
            base: Vec::new(),
            out: VecDeque::with_capacity(if paged {
                second_stage::page::MAX_LINES
            } else {
                0
            }),
            row: vec![0.0; N_FEATURES],
            scratch: Vec::new(),
            settings,
            site: None,
            site_matches: Vec::new(),
        }
    }

    /// Gets ready for another document: what is read of the current one, and its
    /// decisions not taken yet, are dropped, and the next [`Extractor::write`] starts a
    /// document as a new extractor with the same scorer and settings
    /// ([`Extractor::with_features`], [`Extractor::with_structure`],
    /// [`Extractor::with_metadata`], [`Extractor::with_encoding`],
    /// [`Extractor::with_transport_encoding`]) would, with the same decisions. The room
    /// the buffers have grown to is kept (bounded, as the extractor's memory is, by the
    /// limits of a block of a page), so that a run over many documents does not allocate
    /// and fill it again for each.
    ///
    /// ```
    /// use std::sync::Arc;
    /// use mainline::{Extractor, Threshold};
    /// let mut ex = Extractor::new(Arc::new(Threshold(0.5)));
    /// ex.write(b"<p>The first page, left unfinished")?;
    /// ex.reset();
    /// assert_eq!(ex.kept_text(b"<p>The second page.</p>")?, "The second page.");
    /// assert_eq!(ex.kept_text(b"<p>And a third.</p>")?, "And a third.");
    /// # Ok::<(), mainline::Error>(())
    /// ```
    pub fn reset(&mut self) {
        // NOTE: every field is named, so that a new one cannot be forgotten here.
        let Extractor {
            splitter,
            scorer: _,
            stages,
            context: _,
            keep_features: _,
            pending,
            features,
            decided,
            window,
            page,
            hints,
            base,
            out,
            row,
            scratch,
            settings,
            site,
            site_matches,
        } = self;
        *hints = None;
        *site = None;
        site_matches.clear();
        let mut fresh = settings.splitter();
        fresh.reuse(splitter);
        *splitter = fresh;
        pending.clear();
        features.clear();
        *decided = 0;
        if let (Some(w), Some(m)) = (window, stages) {
            *w = Window::new(m.lookahead().min(second_stage::MAX_LOOKAHEAD));
        }
        if let Some(p) = page {
            p.reset();
        }
        base.clear();
        out.clear();
        row.clear();
        row.resize(N_FEATURES, 0.0);
        scratch.clear();
    }

    /// Site mode for the next document (until [`Extractor::reset`]): its lines that are the
    /// template of its site are dropped unless the page's own evidence for them is strong
    /// (see [`crate::site`]), and each [`Decision::template`] says how the line matched.
    /// `None` decides the page alone. Site mode applies to page-level second stages (the
    /// built-in model's); other scorers decide as without it. Call before the first
    /// [`Extractor::write`] of the document.
    pub fn set_site(&mut self, template: Option<crate::site::PageTemplate>) {
        self.site = template;
    }

    /// Whether each [`Decision`] carries its feature row (off by default).
    pub fn with_features(mut self, yes: bool) -> Self {
        self.keep_features = yes;
        self.settings.head = self.wants_hints();
        if self.settings.head {
            self.splitter = std::mem::take(&mut self.splitter).with_head_metadata();
        }
        self
    }

    /// Whether the lines' page hints are computed: for a second stage that reads them, or
    /// for the decisions' [`Decision::hints`].
    fn wants_hints(&self) -> bool {
        self.keep_features || self.page.as_ref().is_some_and(|p| p.hints_on)
    }

    /// Decodes the document with `encoding`, a charset given from outside it (such as an
    /// HTTP header's), unless it starts with a byte order mark; see
    /// [`Splitter::with_transport_encoding`]. Call before the first [`Extractor::write`].
    pub fn with_transport_encoding(
        mut self,
        encoding: Option<&'static encoding_rs::Encoding>,
    ) -> Self {
        self.set_transport_encoding(encoding);
        self
    }

    /// [`Extractor::with_transport_encoding`] for an extractor in place: between documents
    /// (after [`Extractor::reset`] or [`Extractor::kept_text`]), the next one's charset.
    pub fn set_transport_encoding(&mut self, encoding: Option<&'static encoding_rs::Encoding>) {
        self.settings.transport = encoding;
        self.splitter = std::mem::take(&mut self.splitter).with_transport_encoding(encoding);
    }

    /// Extracts a whole document held in memory with this extractor: the kept lines
    /// joined by `\n`, with the settings of `self`, such as
    /// [`Extractor::with_transport_encoding`]. The extractor is then
    /// [reset](Extractor::reset), ready for the next document (also after an error).
    ///
    /// The bytes are read as they are, as everything an extractor is fed is: gzip is not
    /// undone here but by the caller that knows its input's format (a WARC record's
    /// `Content-Encoding`, a file opened with gzip undone). For a page as bytes that
    /// may be gzip, [`extract_text`] gives the same text after undoing it.
    ///
    /// ```
    /// use std::sync::Arc;
    /// use mainline::{Extractor, Threshold};
    /// let mut ex = Extractor::new(Arc::new(Threshold(0.5)))
    ///     .with_transport_encoding(Some(encoding_rs::WINDOWS_1252));
    /// assert_eq!(ex.kept_text(b"<p>Caf\xe9 au lait.</p>")?, "Café au lait.");
    /// assert_eq!(ex.kept_text(b"<p>Cr\xe8me.</p>")?, "Crème.");
    /// # Ok::<(), mainline::Error>(())
    /// ```
    ///
    /// # Errors
    /// As [`Splitter::write`].
    pub fn kept_text(&mut self, html: &[u8]) -> Result<String> {
        let text = self.whole_text(html);
        self.reset();
        text
    }

    /// [`Extractor::kept_text`] without the reset: for an extractor used once.
    fn whole_text(&mut self, html: &[u8]) -> Result<String> {
        self.write(html)?;
        self.end_text(html.len())
    }

    /// Ends the document and joins its kept lines by `\n`; `len` is its length in bytes.
    fn end_text(&mut self, len: usize) -> Result<String> {
        self.end()?;
        // NOTE: the kept text of a page is mostly well under a sixteenth of its HTML; room
        // for that at once saves growing the string from nothing, page after page.
        let mut out = String::with_capacity(len / 16);
        while let Some(d) = self.next_decision() {
            crate::output::text::push_kept(&mut out, &d);
            self.recycle(d.line);
        }
        Ok(out)
    }

    /// Feeds the next piece of the document.
    ///
    /// # Errors
    /// As [`Splitter::write`].
    pub fn write(&mut self, bytes: &[u8]) -> Result<()> {
        self.splitter.write(bytes)?;
        self.pump();
        Ok(())
    }

    /// Ends the document and decides the remaining lines.
    ///
    /// # Errors
    /// As [`Splitter::end`].
    pub fn end(&mut self) -> Result<()> {
        self.splitter.end()?;
        self.pump();
        while !self.pending.is_empty() {
            self.decide_front();
        }
        if let Some(w) = &mut self.window {
            w.finish();
        }
        self.drain_window();
        self.decide_block(true);
        Ok(())
    }

    /// Lines read and not yet decided: at most the scorer's context + 1, plus its
    /// second stage's lookahead + 1, or with page-level inputs the lines of the current
    /// block (fewer than 4,096). Decided lines wait in the output until
    /// taken with [`Extractor::next_decision`].
    pub fn buffered_lines(&self) -> usize {
        self.pending.len()
            + self.window.as_ref().map_or(0, Window::pending)
            + self.page.as_ref().map_or(0, |p| p.lines.len())
    }

    /// The next decided line, in document order.
    pub fn next_decision(&mut self) -> Option<Decision> {
        self.out.pop_front()
    }

    /// Gives back a decided line that is no longer needed, for a later line's buffers
    /// ([`Splitter::recycle`]).
    #[doc(hidden)]
    pub fn recycle(&mut self, line: Line) {
        self.splitter.recycle(line);
    }

    /// The underlying splitter (for byte counts and the detected encoding).
    pub fn splitter(&self) -> &Splitter {
        &self.splitter
    }

    /// Whether each line records its [`Structure`](crate::lines::Structure), for
    /// rendering Markdown (off by default; see [`Splitter::with_structure`]). Decisions
    /// are the same either way. Set it before the first [`Extractor::write`].
    pub fn with_structure(mut self, yes: bool) -> Self {
        self.settings.structure = yes;
        self.splitter = std::mem::take(&mut self.splitter).with_structure(yes);
        self
    }

    /// Decode the document with `encoding`, whatever it declares (see
    /// [`Splitter::with_encoding`]). Set it before the first [`Extractor::write`].
    pub fn with_encoding(mut self, encoding: &'static encoding_rs::Encoding) -> Self {
        self.settings.encoding = Some(encoding);
        self.splitter = std::mem::take(&mut self.splitter).with_encoding(encoding);
        self
    }

    /// Whether to collect the page's [`Metadata`](crate::Metadata) as it is read (off by
    /// default). Set it before the first [`Extractor::write`].
    pub fn with_metadata(mut self, yes: bool) -> Self {
        self.settings.metadata = yes;
        self.splitter = std::mem::take(&mut self.splitter).with_metadata(yes);
        if self.settings.head {
            self.splitter = std::mem::take(&mut self.splitter).with_head_metadata();
        }
        self
    }

    /// The metadata collected so far, when asked for with [`Extractor::with_metadata`]:
    /// what the head gives once [`Splitter::head_done`] (the splitter holds the first
    /// bytes back until the encoding is known, see [`Splitter::write`]), all of it after
    /// [`Extractor::end`].
    ///
    /// ```
    /// use std::sync::Arc;
    /// use mainline::{Extractor, ModelScorer};
    ///
    /// let mut ex = Extractor::new(Arc::new(ModelScorer::builtin())).with_metadata(true);
    /// ex.write(b"<head><title>Tides | Sea Notes</title>")?;
    /// ex.write(b"<meta property=og:site_name content='Sea Notes'></head>")?;
    /// ex.write(b"<body><p>The tide comes in twice a day.</p>")?;
    /// ex.end()?;
    /// assert!(ex.splitter().head_done());
    /// assert_eq!(ex.metadata().unwrap().title.as_deref(), Some("Tides"));
    /// # Ok::<(), mainline::Error>(())
    /// ```
    pub fn metadata(&self) -> Option<crate::meta::Metadata> {
        self.splitter.metadata()
    }

    fn pump(&mut self) {
        while let Some(line) = self.splitter.next_line() {
            self.features.push_back(LineFeatures::of(&line));
            self.pending.push_back(line);
            if self.pending.len() > self.context {
                self.decide_front();
            }
        }
    }

    fn decide_front(&mut self) {
        let line = self
            .pending
            .pop_front()
            .expect("decide_front is called with pending lines");
        {
            let at = self.decided;
            let all = &self.features;
            let f = &all[at];
            let mut before: [&LineFeatures; MAX_CONTEXT] = [f; MAX_CONTEXT];
            let nb = at.min(self.context);
            for (d, slot) in before.iter_mut().take(nb).enumerate() {
                *slot = &all[at - 1 - d];
            }
            let mut after: [&LineFeatures; MAX_CONTEXT] = [f; MAX_CONTEXT];
            let na = self.pending.len().min(self.context);
            for (d, slot) in after.iter_mut().take(na).enumerate() {
                *slot = &all[at + 1 + d];
            }
            features::row(f, &before[..nb], &after[..na], &mut self.row);
        }
        // NOTE: a page block's first-stage scores are only read when the block is decided:
        // its rows are kept and scored together, FIRST_ROWS at a time and then (see
        // `Kernel::score_rows`).
        let (score, keep) = if self.page.is_some() {
            (f32::NAN, false)
        } else {
            self.scorer.decide(&self.row, &mut self.scratch)
        };
        self.decided += 1;
        if self.decided > self.context {
            self.features.pop_front();
            self.decided -= 1;
        }
        let features = self.keep_features.then(|| self.row.clone());
        let hints = if self.wants_hints() {
            let splitter = &self.splitter;
            let tracker = self.hints.get_or_insert_with(|| {
                splitter.head_metadata().map_or_else(
                    second_stage::hints::Tracker::unknown,
                    second_stage::hints::Tracker::of,
                )
            });
            let in_article = line.context & crate::lines::ctx::ARTICLE != 0;
            Some(tracker.line(&line.text, in_article))
        } else {
            None
        };
        let kept_hints = if self.keep_features { hints } else { None };
        if let (Some(p), Some(m)) = (&mut self.page, &self.stages) {
            let weight = m.stage2_inputs(&self.row, &mut self.base);
            let link_density = self.row[features::column::LINK_DENSITY];
            let landmark = second_stage::corrections::in_landmark(&self.row);
            let repeat = second_stage::corrections::repeat_candidate_row(&self.row);
            p.first_rows.extend_from_slice(&self.row);
            if p.first_rows.len() >= FIRST_ROWS * self.row.len() {
                p.score_first(m, self.row.len());
            }
            if p.push(
                (line, features, kept_hints),
                (weight, link_density, landmark, repeat),
                &self.base,
                hints.as_ref(),
            ) {
                self.decide_block(false);
            }
            return;
        }
        match (&mut self.window, &self.stages) {
            (Some(w), Some(m)) => {
                let weight = m.stage2_inputs(&self.row, &mut self.base);
                w.push((line, features, kept_hints), score, weight, &self.base);
                self.drain_window();
            }
            _ => self.out.push_back(Decision {
                line,
                score,
                keep,
                features,
                hints: kept_hints,
                template: None,
            }),
        }
    }

    /// Decides the lines of the current block of the page (page-level second stages), with
    /// the floor of [`second_stage::corrections`] under the decisions: all
    /// of them at the end of the page (`last`), else those before the block's handover to
    /// the next one ([`second_stage::page::handover`]), whose lines it then starts with.
    fn decide_block(&mut self, last: bool) {
        let (Some(p), Some(m)) = (&mut self.page, &self.stages) else {
            return;
        };
        if p.lines.is_empty() {
            return;
        }
        p.score_first(m, self.row.len());
        let n = p.scores.len();
        let handover = if last {
            second_stage::page::Handover {
                decided_end: n,
                carry_start: n,
            }
        } else {
            second_stage::page::handover(&p.weights, p.context)
        };
        let decided = handover.decided_end - p.context;
        let range = p.context..handover.decided_end;
        p.decided.clear();
        let short = m.first_stage_only(n);
        if short {
            let first = p.scores[range.clone()].iter().zip(&p.keeps[range.clone()]);
            p.decided.extend(first.map(|(&s, &k)| (s, k)));
        } else {
            let nb = p.base.len() / n;
            let shape = second_stage::BlockRows {
                lookahead: p.lookahead,
                repeats: p.repeats,
                hints: p.hints_on,
                base_len: nb,
            };
            let base = &p.base;
            // NOTE: the rows keep the longest length they have had (every value of the
            // block's rows is written): growing them again for every block and page
            // filled them with zeros first.
            let len = n * shape.width();
            if p.rows.len() < len {
                p.rows.resize(len, 0.0);
            }
            second_stage::block_rows_in(
                shape,
                &p.scores,
                &p.weights,
                &p.paths,
                p.repeats.then_some(&p.sigs[..]),
                p.hints_on.then_some(&p.hints[..]),
                &mut |i, tail| tail.copy_from_slice(&base[i * nb..(i + 1) * nb]),
                &mut p.rows[..len],
            );
            let width = shape.width();
            let rows = &p.rows[p.context * width..(p.context + decided) * width];
            m.decide_stage2_rows(rows, width, &mut p.decided);
        }
        if !last {
            p.split = true;
        }
        p.apply_corrections(
            range,
            if short {
                second_stage::corrections::SHORT
            } else {
                second_stage::corrections::LONG
            },
            m.keep_threshold(short),
            last,
        );
        self.site_matches.clear();
        if let Some(t) = &self.site {
            t.veto(
                p.lines[..decided].iter().map(|h| &h.0),
                &mut p.decided,
                m.keep_threshold(short),
                &mut self.site_matches,
            );
        }
        for (i, ((line, features, hints), &(score, keep))) in
            p.lines.drain(..decided).zip(&p.decided).enumerate()
        {
            self.out.push_back(Decision {
                line,
                score,
                keep,
                features,
                hints,
                template: self.site_matches.get(i).copied().flatten(),
            });
        }
        p.carry(handover);
    }

    /// Decides the lines whose second-stage rows are ready.
    fn drain_window(&mut self) {
        let (Some(w), Some(m)) = (&mut self.window, &self.stages) else {
            return;
        };
        while let Some((held, row)) = w.pop() {
            decide_stage2(m, held, &row, &mut self.out);
        }
    }
}

/// Decides a held line from its second-stage row and queues the decision.
fn decide_stage2(
    scorer: &ModelScorer,
    (line, features, hints): AwaitingDecision,
    row: &[f32],
    out: &mut VecDeque<Decision>,
) {
    let (score, keep) = scorer.decide_stage2(row);
    out.push_back(Decision {
        line,
        score,
        keep,
        features,
        hints,
        template: None,
    });
}

/// Extracts the main text of a whole document in memory: kept lines joined by `\n`.
///
/// The page is read as [`crate::Options::extract`] reads it: gzip or not (recognised by
/// content), in any encoding (a byte order mark, a `<meta>` charset or detection decides),
/// and the text is that of the [`crate::Document`] it gives with the same scorer
/// ([`crate::Options::scorer`]). This is the text alone, without the document's Markdown,
/// metadata and line records, and so quicker to get.
///
/// ```
/// use std::sync::Arc;
/// use mainline::{extract_text, Threshold};
/// let text = extract_text(b"<p>Plain words win.</p><ul><li><a href=/x>x</a></li></ul>", Arc::new(Threshold(0.5)))?;
/// assert_eq!(text, "Plain words win.");
/// # Ok::<(), mainline::Error>(())
/// ```
///
/// # Errors
/// As [`crate::Options::extract`].
pub fn extract_text(html: &[u8], scorer: Arc<dyn Scorer>) -> Result<String> {
    let mut ex = Extractor::new(scorer);
    crate::gzip::feed_page(html, |piece| ex.write(piece))?;
    ex.end_text(html.len())
}
