//! The tree-builder feedback: the open-element stack, namespaces, the end tags HTML implies,
//! and the pieces reported to the splitter in order.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use super::lexer::{St, Tok};
use super::names::{EMPTY, TextMode, implied, tag, text_adjustment};
use super::pieces::{AttrSpan, EndTag, Piece, StartTag, TextKind, kind_of};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Ns {
    Html,
    Svg,
    MathMl,
}

/// Hashes keys that are already well spread (name hashes, serial numbers) with one
/// multiplication.
#[derive(Debug, Default)]
pub(crate) struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ u64::from(b)).wrapping_mul(0x100_0000_01b3);
        }
    }

    fn write_u64(&mut self, key: u64) {
        self.0 = key.wrapping_mul(0x9e37_79b9_7f4a_7c15);
    }

    fn write_u32(&mut self, key: u32) {
        self.write_u64(u64::from(key));
    }
}

/// How many of the outermost open elements are searched one by one for an end tag's name.
pub(super) const SHALLOW: usize = 64;

/// The tree-builder feedback `lol_html` simulates, and its open-element stack.
#[derive(Debug)]
pub(super) struct Tree {
    ns: Vec<Ns>,
    /// How many elements were open when each namespace of `ns` was entered.
    ns_at: Vec<usize>,
    /// Name keys of the open elements.
    open: Vec<u64>,
    /// Their [`implied`] categories.
    cats: Vec<u16>,
    /// Positions in `open` of the elements of each searched category, lowest first.
    at: [Vec<u32>; implied::SEARCHED],
    /// How many open elements of each name sit at depth [`SHALLOW`] or more (an end tag
    /// whose name is not among them looks for it in the shallow part only).
    // NOTE: most pages stay shallower than that and never touch the map.
    deep_counts: HashMap<u64, u32, BuildHasherDefault<KeyHasher>>,
    /// What the tokenizer has read, in order, not yet taken by the splitter.
    pub(super) events: Vec<Piece>,
    /// Attributes of the start tags in `events`.
    pub(super) attrs: Vec<AttrSpan>,
    /// Where the text not yet reported starts.
    text_from: u64,
    /// The kind of that text (`None`: text the splitter does not hear of).
    text_kind: Option<TextKind>,
    /// Inside a fill: no text is reported.
    in_fill: bool,
}

impl Tree {
    pub(super) fn new() -> Self {
        Tree {
            ns: vec![Ns::Html],
            ns_at: vec![0],
            open: Vec::new(),
            cats: Vec::new(),
            at: Default::default(),
            deep_counts: HashMap::default(),
            events: Vec::new(),
            attrs: Vec::new(),
            text_from: 0,
            text_kind: Some(TextKind::Data),
            in_fill: false,
        }
    }

    /// Takes over the buffers of `old`, emptied: a tree for a new document with the room
    /// the last one's vectors have grown to.
    pub(super) fn reuse(&mut self, old: &mut Tree) {
        super::reuse(&mut self.open, &mut old.open);
        super::reuse(&mut self.cats, &mut old.cats);
        for (fresh, old) in self.at.iter_mut().zip(&mut old.at) {
            super::reuse(fresh, old);
        }
        super::reuse(&mut self.events, &mut old.events);
        super::reuse(&mut self.attrs, &mut old.attrs);
    }

    /// Reports the text from `text_from` up to `at`.
    pub(super) fn text_to(&mut self, at: u64) {
        if at > self.text_from {
            if let Some(kind) = self.text_kind.filter(|_| !self.in_fill) {
                self.events.push(Piece::Text {
                    start: self.text_from,
                    end: at,
                    kind,
                });
            }
            self.text_from = at;
        }
    }

    /// A construct that is not text runs from `start` to `end`; the text after it is of
    /// mode `next`.
    pub(super) fn boundary(&mut self, start: u64, end: u64, next: TextMode) {
        self.text_to(start);
        if matches!(self.text_kind, Some(TextKind::Data | TextKind::Plain)) {
            self.events.push(Piece::TextEnd);
        }
        self.text_from = self.text_from.max(end);
        self.text_kind = kind_of(next);
    }

    /// A fill starts or ends.
    pub(super) fn push_fill(&mut self, piece: Piece) {
        match piece {
            Piece::FillStart { at, .. } => {
                self.text_to(at);
                self.in_fill = true;
            }
            Piece::FillEnd { at } => {
                self.in_fill = false;
                self.text_from = self.text_from.max(at);
            }
            _ => {}
        }
        self.events.push(piece);
    }

    pub(super) fn current(&self) -> Ns {
        *self.ns.last().expect("the namespace stack is never empty")
    }

    pub(super) fn too_deep(&self, limit: usize) -> bool {
        self.open.len() >= limit || self.ns.len() >= limit
    }

    /// Enters a namespace; `cdata_allowed` is the tokenizer's.
    fn enter(&mut self, ns: Ns, cdata_allowed: &mut bool) {
        self.ns.push(ns);
        self.ns_at.push(self.open.len());
        *cdata_allowed = ns != Ns::Html;
    }

    fn leave(&mut self, cdata_allowed: &mut bool) {
        if self.ns.len() > 1 {
            self.ns.pop();
            self.ns_at.pop();
        }
        *cdata_allowed = self.current() != Ns::Html;
    }

    /// Leaves `svg`/`math` content at a tag that breaks out of it (a `p`, `div`, `h1`, … start
    /// tag, a `font` with `color`, `face` or `size`, a `</p>` or `</br>`), which starts at
    /// `mark`. As the standard's tree construction does, the foreign elements of that
    /// namespace are closed too: a page that never closes its `<svg>` goes on with the
    /// `<p>` as the page's content. (`lol_html`'s tokenizer leaves the namespace, and so
    /// does the tokenizer; it only ever left the elements open.)
    fn break_out(&mut self, cdata_allowed: &mut bool, mark: u64) {
        let at = (self.ns.len() > 1).then(|| self.ns_at[self.ns_at.len() - 1]);
        self.leave(cdata_allowed);
        if let Some(at) = at {
            self.close_from(at, mark);
        }
    }

    /// The lowest position a search for an element to close may reach: above the
    /// innermost HTML integration point (`foreignObject`, `desc`, `title` in `svg`; `mi`, …
    /// in `math`), which is a boundary of every scope.
    fn floor(&self) -> usize {
        if self.ns.len() > 1 {
            self.ns_at[self.ns_at.len() - 1] + 1
        } else {
            0
        }
    }

    /// The nearest open element of the searched category `bit` above the floor.
    fn nearest(&self, bit: u16) -> Option<usize> {
        let i = bit.trailing_zeros() as usize;
        let pos = *self.at[i].last()? as usize;
        (pos >= self.floor()).then_some(pos)
    }

    /// The nearest table-structure element (cell, row, section, table, caption or
    /// template: what decides the table insertion mode) and its category.
    fn nearest_struct(&self) -> Option<(usize, u16)> {
        let mut best: Option<(usize, u16)> = None;
        for bit in [
            implied::CELL,
            implied::ROW,
            implied::SECTION,
            implied::TABLE,
            implied::CAPTION,
            implied::TEMPLATE,
        ] {
            if let Some(pos) = self.nearest(bit) {
                if best.is_none_or(|(b, _)| pos > b) {
                    best = Some((pos, bit));
                }
            }
        }
        best
    }

    /// The category of the current element.
    fn top(&self) -> u16 {
        self.cats.last().copied().unwrap_or(0)
    }

    /// Closes the open elements from position `at` up, as implied by a tag that starts at
    /// `mark`: they end there, as if their end tags stood before it.
    fn close_from(&mut self, at: usize, mark: u64) {
        if self.open.len() > at {
            self.drop_from(at);
            self.events.push(Piece::End(EndTag {
                start: mark,
                end: mark,
                depth: at,
            }));
        }
    }

    /// Closes a `p` in button scope.
    fn close_p(&mut self, mark: u64) {
        use implied::*;
        if let Some(p) = self.nearest(P) {
            let bound = self.nearest(SCOPE).max(self.nearest(BUTTON));
            if bound.is_none_or(|b| b < p) {
                self.close_from(p, mark);
            }
        }
    }

    /// Applies the implied end tags of a start tag read as HTML, with rule `rule` (see
    /// [`implied`]), that starts at `mark`, before it is pushed.
    ///
    /// NOTE: the standard's rules as far as they close elements: a start tag never opens
    /// elements here (no implied `tbody` or `tr`), and misnested content is not moved (no
    /// foster parenting or adoption agency). The searches follow the standard's scopes:
    /// an `li` closes the nearest `li` unless an `ul`, `ol`, `table` or other special
    /// element comes first, a `td` closes the open cell of its own table, and so on. With
    /// them, a page that leaves out the end tags HTML lets it leave out gives the same
    /// open elements, and so the same lines, as the page with them, and a 5,000-row table
    /// without end tags stays a few elements deep.
    fn implied(&mut self, rule: u16, mark: u64) {
        use implied::*;
        if rule & R_TABLE != 0 {
            // A table in a table (not in one of its cells) closes that table.
            if let (Some((_, cat)), Some(table)) = (self.nearest_struct(), self.nearest(TABLE)) {
                let in_table = cat & (ROW | SECTION | TABLE) != 0;
                if in_table && self.nearest(TEMPLATE).is_none_or(|t| t < table) {
                    self.close_from(table, mark);
                }
            }
        }
        if rule & (R_LI | R_DDT) != 0 {
            let (item, stop) = if rule & R_LI != 0 {
                (LI, LI_STOP)
            } else {
                (DDT, DDT_STOP)
            };
            if let Some(pos) = self.nearest(item) {
                if self.nearest(stop).is_none_or(|s| s < pos) {
                    self.close_from(pos, mark);
                }
            }
        }
        if rule & (R_CELL | R_ROW | R_SECTION) != 0 {
            while let Some((pos, cat)) = self.nearest_struct() {
                let close = match cat {
                    CELL | CAPTION => true,
                    ROW => rule & (R_ROW | R_SECTION) != 0,
                    SECTION => rule & R_SECTION != 0,
                    _ => false,
                };
                if close {
                    self.close_from(pos, mark);
                } else {
                    // What is open inside the row, section, table or template.
                    self.close_from(pos + 1, mark);
                    break;
                }
            }
        }
        if rule & R_P != 0 {
            self.close_p(mark);
        }
        if rule & R_HEADING != 0 && self.top() & HEADING != 0 {
            self.close_from(self.open.len() - 1, mark);
        }
        if rule & R_BUTTON != 0 {
            if let Some(b) = self.nearest(BUTTON) {
                if self.nearest(SCOPE).is_none_or(|s| s < b) {
                    self.close_from(b, mark);
                }
            }
        }
        if rule & (R_OPTION | R_OPTGROUP) != 0 {
            if self.top() & OPTION != 0 {
                self.close_from(self.open.len() - 1, mark);
            }
            if rule & R_OPTGROUP != 0 && self.top() & OPTGROUP != 0 {
                self.close_from(self.open.len() - 1, mark);
            }
        }
    }

    /// Pushes an open element with name key `key` and category `cat`.
    fn push_open(&mut self, key: u64, cat: u16) {
        let pos = self.open.len() as u32;
        self.open.push(key);
        self.cats.push(cat);
        let mut bits = cat & ((1 << implied::SEARCHED) - 1);
        while bits != 0 {
            self.at[bits.trailing_zeros() as usize].push(pos);
            bits &= bits - 1;
        }
        if self.open.len() > SHALLOW {
            *self.deep_counts.entry(key).or_insert(0) += 1;
        }
    }

    /// Forgets the open elements from position `at` up.
    fn drop_from(&mut self, at: usize) {
        if self.open.len() <= at {
            return;
        }
        if self.open.len() > SHALLOW {
            for k in self.open.drain(at.max(SHALLOW)..) {
                if let Some(n) = self.deep_counts.get_mut(&k) {
                    *n -= 1;
                    if *n == 0 {
                        self.deep_counts.remove(&k);
                    }
                }
            }
        }
        self.open.truncate(at);
        let popped = self.cats[at..].iter().fold(0, |a, &c| a | c);
        self.cats.truncate(at);
        let mut bits = popped & ((1 << implied::SEARCHED) - 1);
        while bits != 0 {
            let stack = &mut self.at[bits.trailing_zeros() as usize];
            while stack.last().is_some_and(|&p| p as usize >= at) {
                stack.pop();
            }
            bits &= bits - 1;
        }
    }

    /// Applies a tag the tokenizer has just emitted; it ends at offset `end`.
    pub(super) fn emit(&mut self, tok: &mut Tok, to_data: bool, end: u64) {
        self.boundary(tok.mark, end, TextMode::Data);
        let t = &tok.tag;
        tok.text_type = TextMode::Data;
        let h = t.hash;
        if t.end {
            let cur = self.current();
            if cur == Ns::Html {
                if self.ns.len() >= 2 {
                    let prev = self.ns[self.ns.len() - 2];
                    let text_point =
                        matches!(h, tag::MI | tag::MO | tag::MN | tag::MS | tag::MTEXT);
                    let html_point = matches!(h, tag::DESC | tag::TITLE | tag::FOREIGN_OBJECT);
                    let annotation = h == EMPTY
                        && prev == Ns::MathMl
                        && t.name_len == 14
                        && t.name() == b"annotation-xml";
                    if (prev == Ns::MathMl && text_point)
                        || (prev == Ns::Svg && html_point)
                        || annotation
                    {
                        self.leave(&mut tok.cdata_allowed);
                    }
                }
            } else if h == tag::P || h == tag::BR {
                self.break_out(&mut tok.cdata_allowed, tok.mark);
            } else if (cur == Ns::Svg && h == tag::SVG) || (cur == Ns::MathMl && h == tag::MATH) {
                self.leave(&mut tok.cdata_allowed);
            }
            if let Some(depth) = self.pop_to(t.key()) {
                self.events.push(Piece::End(EndTag {
                    start: tok.mark,
                    end,
                    depth,
                }));
            }
        } else {
            // Whether the tag is read as HTML (not as a foreign element in svg/math).
            let mut as_html = self.current() == Ns::Html;
            if h == tag::SVG {
                as_html = false;
                self.enter(Ns::Svg, &mut tok.cdata_allowed);
            } else if h == tag::MATH {
                as_html = false;
                self.enter(Ns::MathMl, &mut tok.cdata_allowed);
            } else if self.current() != Ns::Html {
                let cur = self.current();
                if tag::FOREIGN_EXIT.contains(&h) {
                    self.break_out(&mut tok.cdata_allowed, tok.mark);
                    as_html = self.current() == Ns::Html;
                } else if (cur == Ns::Svg
                    && matches!(h, tag::DESC | tag::TITLE | tag::FOREIGN_OBJECT))
                    || (cur == Ns::MathMl
                        && matches!(h, tag::MI | tag::MO | tag::MN | tag::MS | tag::MTEXT))
                {
                    if !t.self_closing {
                        self.enter(Ns::Html, &mut tok.cdata_allowed);
                    }
                } else if h == tag::FONT {
                    if t.font_attr {
                        self.break_out(&mut tok.cdata_allowed, tok.mark);
                        as_html = self.current() == Ns::Html;
                    }
                } else if h == EMPTY
                    && cur == Ns::MathMl
                    && !t.self_closing
                    && t.name_len == 14
                    && t.name() == b"annotation-xml"
                    && t.html_encoding
                {
                    self.enter(Ns::Html, &mut tok.cdata_allowed);
                }
            } else if let Some(text) = text_adjustment(h) {
                tok.text_type = text;
            }
            tok.last_start_hash = h;
            let (rule, cat) = if as_html { implied::of(h) } else { (0, 0) };
            if rule != 0 {
                self.implied(rule, tok.mark);
            }
            let pushed = if self.current() == Ns::Html {
                !tag::is_void(h)
            } else {
                !t.self_closing
            };
            let first = self.attrs.len();
            self.attrs.extend_from_slice(&tok.attrs);
            self.events.push(Piece::Start(StartTag {
                start: tok.mark,
                end,
                name_len: t.name_len,
                attrs: first..self.attrs.len(),
                content: pushed,
            }));
            if pushed {
                self.push_open(t.key(), cat);
            }
        }
        let next = if to_data {
            TextMode::Data
        } else {
            tok.text_type
        };
        tok.state = St::Text(next);
        // NOTE: text is reported with the tree builder's text type even where the lexer
        // reads it in the data state (after `<script a=>`).
        self.text_kind = kind_of(tok.text_type);
    }

    /// Closes the raw-text element named `key` (the current one) at `at`, as if its end
    /// tag stood there: the text after it is data.
    pub(super) fn close_raw(&mut self, key: u64, at: u64) {
        self.text_to(at);
        if let Some(depth) = self.pop_to(key) {
            self.events.push(Piece::End(EndTag {
                start: at,
                end: at,
                depth,
            }));
        }
        self.text_from = self.text_from.max(at);
        self.text_kind = Some(TextKind::Data);
    }

    /// Pops the nearest open element named `key` and those above it; returns how many
    /// elements stay open, if it popped any.
    fn pop_to(&mut self, key: u64) -> Option<usize> {
        // NOTE: the nearest element of that name: in the deep part when the counts say so
        // (then it is found, and the search costs what the pops do), else among the first
        // SHALLOW elements; either way an end tag costs a bounded search.
        let at = if self.deep_counts.contains_key(&key) {
            SHALLOW + self.open[SHALLOW..].iter().rposition(|&k| k == key)?
        } else {
            let shallow = &self.open[..self.open.len().min(SHALLOW)];
            shallow.iter().rposition(|&k| k == key)?
        };
        self.drop_from(at);
        Some(at)
    }
}
