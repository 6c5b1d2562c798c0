//! Page hints: what a page says about itself, as inputs of a page-level second stage.
//!
//! Line features cannot tell the cards of a related-stories grid after an article from the
//! cards of a listing page: on one they are boilerplate, on the other the content. The page
//! says which it is, in the head, before its first line: its `og:type` and JSON-LD `@type`s
//! (an article, a product, a forum thread, a list), its title (the headline: an article's
//! text follows the line that repeats it), its description (often the article's first
//! paragraph) and its site's name (a line that is only that name is a logo's text or a
//! masthead, which [`super::corrections::apply_corrections`] drops). [`Tracker`] reads those from the
//! metadata known when the first line of the body came out ([`crate::lines::Splitter`]
//! collects it) and gives each line its [`line_names`] values in the stream's order;
//! [`append`] turns the values of a block's lines into the second stage's inputs
//! ([`names`]), with the share of the block's text inside `<article>`/`<main>`.
//!
//! The values depend only on the lines before and at the line and on the head, never on
//! how the input was chunked: the labelled CSV stores them (its `hints` column, see
//! [`format_hints`]) and training reads the same values the extractor computes.

/// Declares a line's hint values once, in order: each a field of [`LineHints`] whose name
/// is the value's name. It writes [`LineHints`], its flat array (the form the labelled CSV
/// and the second stage's rows hold), [`N_LINE_HINTS`] and the names of [`line_names`]
/// from that one list.
macro_rules! line_hints {
    ($( $(#[doc = $doc:literal])* $field:ident, )*) => {
        /// A line's hint values by name; [`Tracker::line`] gives them as a flat array in
        /// this order (see [`line_names`]).
        #[derive(Debug, Clone, Copy, Default, PartialEq)]
        pub struct LineHints {
            $( $(#[doc = $doc])* pub $field: f32, )*
        }

        /// The positions of the values in the flat array (the discriminants; the code
        /// reads only some of them).
        #[allow(non_camel_case_types, dead_code)]
        #[repr(usize)]
        enum Field {
            $($field,)*
        }

        /// Values per line that [`Tracker::line`] gives (see [`line_names`]).
        pub const N_LINE_HINTS: usize = [$(stringify!($field)),*].len();

        /// The names of the values, in order.
        const LINE_NAMES: [&str; N_LINE_HINTS] = [$(stringify!($field)),*];

        impl From<LineHints> for [f32; N_LINE_HINTS] {
            #[inline]
            fn from(h: LineHints) -> Self {
                [$(h.$field),*]
            }
        }

        impl From<[f32; N_LINE_HINTS]> for LineHints {
            #[inline]
            fn from([$($field),*]: [f32; N_LINE_HINTS]) -> Self {
                LineHints { $($field),* }
            }
        }
    };
}

line_hints! {
    /// 1 when the page is an article.
    article,
    /// 1 when the page is a product.
    product,
    /// 1 when the page is a forum thread.
    forum,
    /// 1 when the page is a listing.
    listing,
    /// 1 when the page names none of the kinds above.
    none,
    /// 1 when the line repeats the title.
    title_line,
    /// 1 when a line before it or it repeated the title.
    after_title,
    /// `ln(1 + lines since the last line that repeated the title)`, 0 before one did.
    ln_since_title,
    /// 1 when the line repeats the description.
    description_line,
    /// 1 when the line lies inside `<article>`, `<main>` or their roles.
    in_article,
    /// 1 when the line's whole text is the site's name and not the title too (see
    /// [`site_name_line`]).
    site_name_line,
}

/// The page kinds among a line's values: the first ones, `article` to `none`.
const KINDS: usize = Field::none as usize + 1;

/// The line's values that are second-stage inputs as they are: those before `in_article`.
const INPUT_HINTS: usize = Field::in_article as usize;

// NOTE: the inputs are the line's values but the last two; [`names`] and [`append`] count
// on that order.
const _: () = assert!(
    Field::in_article as usize == N_LINE_HINTS - 2
        && Field::site_name_line as usize == N_LINE_HINTS - 1
);

/// Second-stage inputs that [`append`] writes per line (see [`names`]): the line's
/// values but `in_article` and `site_name_line`, the article share and the title found.
pub const N_INPUTS: usize = INPUT_HINTS + 2;

/// Names of a line's hint values, in order: the page kinds (several may hold; `none` when
/// the page names no kind), whether the line repeats the title, whether a line before it
/// or it did, `ln(1 + lines since that line)`, whether it repeats the description,
/// whether it lies inside `<article>`, `<main>` or their roles, and whether its whole
/// text is the site's name (and not the title too; see [`site_name_line`]).
pub fn line_names() -> Vec<String> {
    LINE_NAMES.map(String::from).to_vec()
}

/// Names of the second-stage inputs of [`append`], in row order: the line's values of
/// [`line_names`] but `in_article` and `site_name_line`, then the share of the block's
/// text inside `<article>`/`<main>` and whether a line of the page so far repeats the
/// title.
pub fn names() -> Vec<String> {
    let mut n: Vec<String> = line_names()[..INPUT_HINTS]
        .iter()
        .map(|s| format!("hint_{s}"))
        .collect();
    n.push("hint_article_share".into());
    n.push("hint_title_found".into());
    n
}

/// Whether a line of these hint values ([`Tracker::line`]) only repeats the site's name:
/// a logo's text, a masthead, the brand over a footer. Such a line is never the main
/// text; [`super::corrections::apply_corrections`] drops it.
///
/// # Panics
/// When `hints` holds fewer than [`N_LINE_HINTS`] values.
#[inline]
pub fn site_name_line(hints: &[f32]) -> bool {
    hints[Field::site_name_line as usize] > 0.0
}

/// Which of the kinds (article, product, forum, listing) a page type names (`og:type` or
/// a JSON-LD `@type`, any case).
fn kinds_of(t: &str) -> [bool; 4] {
    let t = t.trim().to_ascii_lowercase();
    let t = t.rsplit([':', '/']).next().unwrap_or(&t);
    let forum = matches!(
        t,
        "discussionforumposting" | "qapage" | "question" | "socialmediaposting"
    );
    let article = !forum
        && (t.ends_with("article")
            || matches!(t, "blogposting" | "liveblogposting" | "report" | "blog"));
    let product = t.starts_with("product") || t.ends_with("product") || t == "offer";
    let listing = matches!(
        t,
        "itemlist" | "collectionpage" | "searchresultspage" | "offercatalog"
    );
    [article, product, forum, listing]
}

/// The characters of `text` compared with a title or a description: its letters and
/// digits lower-cased, each word followed by one space.
fn normal_chars(text: &str) -> impl Iterator<Item = char> + '_ {
    let mut chars = text.chars();
    let mut lower = None::<std::char::ToLowercase>;
    let mut in_word = false;
    std::iter::from_fn(move || {
        loop {
            if let Some(l) = lower.as_mut() {
                if let Some(c) = l.next() {
                    return Some(c);
                }
                lower = None;
            }
            match chars.next() {
                Some(c) if c.is_ascii_alphanumeric() => {
                    in_word = true;
                    return Some(c.to_ascii_lowercase());
                }
                Some(c) if c.is_alphanumeric() => {
                    in_word = true;
                    lower = Some(c.to_lowercase());
                }
                Some(_) if in_word => {
                    in_word = false;
                    return Some(' ');
                }
                Some(_) => {}
                None if in_word => {
                    in_word = false;
                    return Some(' ');
                }
                None => return None,
            }
        }
    })
}

/// A text a line may repeat (the title, the description, the site's name): its
/// [`normal_chars`].
#[derive(Debug, Clone)]
struct Target {
    words: String,
    /// The shortest and longest line (in bytes) worth comparing.
    bytes: std::ops::RangeInclusive<usize>,
}

impl Target {
    fn new(text: Option<&str>) -> Option<Target> {
        let text = text?;
        let words: String = normal_chars(text).collect();
        if words.is_empty() {
            return None;
        }
        let n = text.len();
        Some(Target {
            bytes: n / 2..=n * 2 + 16,
            words,
        })
    }

    /// Whether `line` repeats the target: the same words, or one of the two starts with the
    /// other and the shorter is at least 80% as long (in UTF-8 bytes) as the longer.
    // NOTE: compared as the line's characters come, without building its words: most lines
    // differ from the target within a few characters.
    fn matches(&self, line: &str) -> bool {
        if !self.bytes.contains(&line.len()) {
            return false;
        }
        let mut target = self.words.chars();
        let mut line_chars = normal_chars(line);
        let mut common = 0;
        let line_len = loop {
            match (line_chars.next(), target.next()) {
                (Some(a), Some(b)) if a == b => common += a.len_utf8(),
                (Some(_), Some(_)) => return false,
                (None, _) => break common,
                (Some(a), None) => {
                    break common + a.len_utf8() + line_chars.map(char::len_utf8).sum::<usize>();
                }
            }
        };
        if line_len == 0 {
            return false;
        }
        let n = self.words.len();
        let (short, long) = (line_len.min(n), line_len.max(n));
        short * 5 >= long * 4
    }

    /// Whether `line` is the target and nothing else: the same words.
    fn is_whole(&self, line: &str) -> bool {
        normal_chars(line).eq(self.words.chars())
    }
}

/// Gives each line of a page its hint values ([`line_names`]), in the order the lines come.
#[derive(Debug, Clone)]
pub struct Tracker {
    kinds: [f32; KINDS],
    titles: Vec<Target>,
    description: Option<Target>,
    /// The site's name.
    site: Option<Target>,
    /// Lines since the last line that repeated the title, once one has.
    since_title: Option<u64>,
}

impl Tracker {
    /// A page of these types (`og:type`, then the JSON-LD `@type`s), title and
    /// description.
    pub fn new(page_types: &[String], title: Option<&str>, description: Option<&str>) -> Self {
        let mut kinds = [0.0; KINDS];
        for t in page_types {
            for (k, yes) in kinds.iter_mut().zip(kinds_of(t)) {
                if yes {
                    *k = 1.0;
                }
            }
        }
        if kinds[..KINDS - 1].iter().all(|&k| k == 0.0) {
            kinds[KINDS - 1] = 1.0;
        }
        Tracker {
            kinds,
            titles: Target::new(title).into_iter().collect(),
            description: Target::new(description),
            site: None,
            since_title: None,
        }
    }

    /// The same tracker, for a site of this name (`og:site_name`, ...): a line whose whole
    /// text is that name, in any case and punctuation, and that does not repeat the title
    /// is a [`site_name_line`].
    #[must_use]
    pub fn with_site_name(mut self, site: Option<&str>) -> Self {
        self.site = Target::new(site);
        self
    }

    /// A page whose head said nothing (or was not read).
    pub fn unknown() -> Self {
        Tracker::new(&[], None, None)
    }

    /// The page as its head describes it: [`crate::meta::Metadata::page_types`], the title
    /// (and the `<title>` with the site's name trimmed, when it differs), the description
    /// and the site's name.
    pub fn of(meta: &crate::meta::Metadata) -> Self {
        let mut t = Tracker::new(
            &meta.page_types,
            meta.title.as_deref(),
            meta.description.as_deref(),
        )
        .with_site_name(meta.site_name.as_deref());
        if let Some(h) = &meta.html_title {
            let trimmed = crate::meta::trim_site_name(h, meta.site_name.as_deref());
            if let Some(target) = Target::new(Some(&trimmed))
                && t.titles.iter().all(|x| x.words != target.words)
            {
                t.titles.push(target);
            }
        }
        t
    }

    /// The values of the page's next line, of this text, inside `<article>`/`<main>` or
    /// not.
    pub fn line(&mut self, text: &str, in_article: bool) -> [f32; N_LINE_HINTS] {
        let title = self.titles.iter().any(|t| t.matches(text));
        if title {
            self.since_title = Some(0);
        } else if let Some(n) = &mut self.since_title {
            *n += 1;
        }
        let [article, product, forum, listing, none] = self.kinds;
        let yes = |b: bool| f32::from(u8::from(b));
        LineHints {
            article,
            product,
            forum,
            listing,
            none,
            title_line: yes(title),
            after_title: yes(self.since_title.is_some()),
            ln_since_title: self.since_title.map_or(0.0, |n| (n as f64).ln_1p() as f32),
            description_line: yes(self.description.as_ref().is_some_and(|d| d.matches(text))),
            in_article: yes(in_article),
            site_name_line: yes(!title && self.site.as_ref().is_some_and(|s| s.is_whole(text))),
        }
        .into()
    }
}

/// The [`names`] inputs of each line of a block, from its lines' [`Tracker::line`] values
/// (`hints`, [`N_LINE_HINTS`] per line) and `ln(1 + text bytes)`, written into each
/// `width`-long row of `out` from value `start` on.
///
/// # Panics
/// When the lengths do not agree.
pub fn append(hints: &[f32], ln_text: &[f32], out: &mut [f32], width: usize, start: usize) {
    let n = ln_text.len();
    assert!(
        hints.len() == n * N_LINE_HINTS && out.len() == n * width,
        "hint values for every line"
    );
    let (mut text, mut inside) = (0.0f64, 0.0f64);
    for (h, &w) in hints.chunks_exact(N_LINE_HINTS).zip(ln_text) {
        let t = super::page::text_bytes(w).max(1) as f64;
        text += t;
        if h[Field::in_article as usize] > 0.0 {
            inside += t;
        }
    }
    let share = if text > 0.0 {
        (inside / text) as f32
    } else {
        0.0
    };
    let found = hints
        .chunks_exact(N_LINE_HINTS)
        .last()
        .map_or(0.0, |h| h[Field::after_title as usize]);
    for (row, h) in out
        .chunks_exact_mut(width)
        .zip(hints.chunks_exact(N_LINE_HINTS))
    {
        let row = &mut row[start..start + N_INPUTS];
        row[..INPUT_HINTS].copy_from_slice(&h[..INPUT_HINTS]);
        row[N_INPUTS - 2] = share;
        row[N_INPUTS - 1] = found;
    }
}

/// Formats a line's hint values for the labelled CSV's `hints` column: joined by spaces.
pub fn format_hints(h: &[f32]) -> String {
    h.iter()
        .map(|v| v.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

/// Reads back [`format_hints`]; `None` unless `s` holds [`N_LINE_HINTS`] finite numbers.
pub fn parse_hints(s: &str) -> Option<[f32; N_LINE_HINTS]> {
    let mut h = [0.0; N_LINE_HINTS];
    let mut parts = s.split_ascii_whitespace();
    for v in &mut h {
        *v = parts.next()?.parse().ok().filter(|x: &f32| x.is_finite())?;
    }
    parts.next().is_none().then_some(h)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn doc_stack_hints() {
        let mut t = Tracker::new(&["NewsArticle".to_string()], Some("Cows in stripes"), None);
        let col = |n: &str| line_names().iter().position(|x| x == n).unwrap();
        let menu = t.line("Home News Sport", false);
        let headline = t.line("Cows in stripes", true);
        let body = t.line("Farmers paint their cows to keep the flies off.", true);
        assert_eq!(menu[col("article")], 1.0);
        assert_eq!(
            [menu[col("title_line")], headline[col("title_line")]],
            [0.0, 1.0]
        );
        assert_eq!(
            [menu[col("after_title")], body[col("after_title")]],
            [0.0, 1.0]
        );
    }

    #[test]
    fn the_named_values_take_their_places_in_the_array() {
        let col = |n: &str| line_names().iter().position(|x| x == n).unwrap();
        let h = LineHints {
            title_line: 1.0,
            ln_since_title: 2.0,
            site_name_line: 3.0,
            ..LineHints::default()
        };
        let a: [f32; N_LINE_HINTS] = h.into();
        assert_eq!(a[col("title_line")], 1.0);
        assert_eq!(a[col("ln_since_title")], 2.0);
        assert_eq!(a[col("site_name_line")], 3.0);
        assert_eq!(a.iter().sum::<f32>(), 6.0);
        assert_eq!(LineHints::from(a), h);
        assert!(site_name_line(&a));
        let mut t = Tracker::new(&["Product".into()], Some("A headline"), None);
        let h = LineHints::from(t.line("A headline", true));
        assert_eq!(
            [h.product, h.title_line, h.after_title, h.in_article],
            [1.0; 4]
        );
        assert_eq!(
            [h.article, h.none, h.ln_since_title, h.description_line],
            [0.0; 4]
        );
    }

    #[test]
    fn the_counts_match_the_names() {
        assert_eq!(line_names().len(), N_LINE_HINTS);
        assert_eq!(names().len(), N_INPUTS);
    }

    #[test]
    fn page_types_name_kinds_in_any_spelling() {
        assert_eq!(kinds_of("NewsArticle"), [true, false, false, false]);
        assert_eq!(kinds_of("article"), [true, false, false, false]);
        assert_eq!(kinds_of("og:product"), [false, true, false, false]);
        assert_eq!(
            kinds_of("https://schema.org/Product"),
            [false, true, false, false]
        );
        assert_eq!(
            kinds_of("DiscussionForumPosting"),
            [false, false, true, false]
        );
        assert_eq!(kinds_of("ItemList"), [false, false, false, true]);
        assert_eq!(kinds_of("BreadcrumbList"), [false; 4]);
        assert_eq!(kinds_of("website"), [false; 4]);
        let t = Tracker::new(&["website".into(), "WebPage".into()], None, None);
        assert_eq!(t.kinds, [0.0, 0.0, 0.0, 0.0, 1.0]);
    }

    #[test]
    fn the_title_is_matched_by_its_words() {
        let t = Target::new(Some("Why farmers paint cows – with zebra stripes")).unwrap();
        assert!(t.matches("Why Farmers Paint Cows: With Zebra Stripes"));
        assert!(t.matches("Why farmers paint cows with zebra stripes!"));
        assert!(!t.matches("Why farmers"));
        assert!(!t.matches("Farmers paint cows with zebra stripes, why?"));
        assert!(!t.matches(""));
        assert!(
            !t.matches("Why farmers paint cows with zebra stripes and other tales of the farm")
        );
        let t = Target::new(Some("Ça coûte CHER, Ödön")).unwrap();
        assert_eq!(t.words, "ça coûte cher ödön ");
        assert!(t.matches("ça coûte cher — ödön!"));
        assert!(Target::new(Some("— !")).is_none());
    }

    #[test]
    fn lines_count_from_the_last_title_line() {
        let mut t = Tracker::new(&[], Some("Headline here"), Some("A lede of the story."));
        let col = |n: &str| line_names().iter().position(|x| x == n).unwrap();
        let rows: Vec<_> = ["Menu", "Headline here", "A lede of the story.", "More"]
            .iter()
            .map(|l| t.line(l, false))
            .collect();
        assert_eq!(rows[0][col("none")], 1.0);
        assert_eq!(
            rows.iter()
                .map(|r| r[col("after_title")])
                .collect::<Vec<_>>(),
            [0.0, 1.0, 1.0, 1.0]
        );
        assert_eq!(rows[3][col("ln_since_title")], 2.0_f32.ln_1p());
        assert_eq!(rows[2][col("description_line")], 1.0);
        let flat: Vec<f32> = rows.iter().flatten().copied().collect();
        let mut out = vec![0.0; 4 * N_INPUTS];
        let w = 9.0_f32.ln_1p();
        append(&flat, &[w; 4], &mut out, N_INPUTS, 0);
        assert_eq!(out[N_INPUTS - 1], 1.0);
        assert_eq!(out[N_INPUTS - 2], 0.0);
        assert_eq!(parse_hints(&format_hints(&rows[3])), Some(rows[3]));
        assert_eq!(parse_hints("1 2"), None);
    }

    #[test]
    fn lines_of_the_site_name_alone_are_marked() {
        let mut t = Tracker::new(&[], Some("Gulls return to the harbour"), None)
            .with_site_name(Some("The Harbour Gazette."));
        let site = |t: &mut Tracker, l: &str| site_name_line(&t.line(l, false));
        assert!(site(&mut t, "THE HARBOUR GAZETTE"));
        assert!(site(&mut t, "  The Harbour   Gazette "));
        assert!(!site(&mut t, "The Harbour Gazette reporters counted them."));
        assert!(!site(&mut t, "Harbour Gazette"));
        assert!(!site(&mut t, "Gulls return to the harbour"));
        // The input rows leave it out.
        let row = t.line("The Harbour Gazette", false);
        let mut out = vec![0.0; N_INPUTS];
        append(&row, &[1.0], &mut out, N_INPUTS, 0);
        assert_eq!(&out[..INPUT_HINTS], &row[..INPUT_HINTS]);
        // A page named as its site (a home page): the line repeats the title and is kept
        // to the model.
        let mut home = Tracker::new(&[], Some("Harbour Gazette"), None)
            .with_site_name(Some("Harbour Gazette"));
        assert!(!site(&mut home, "Harbour Gazette"));
        // No name, no mark.
        let mut none = Tracker::new(&[], None, None).with_site_name(Some(" — "));
        assert!(!site(&mut none, "—"));
    }
}
