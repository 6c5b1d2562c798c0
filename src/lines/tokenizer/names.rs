//! Tag names as `lol_html` hashes them, and what a start tag does: the elements that switch
//! the tokenizer to a text mode and HTML's implied end tags.

/// The empty (invalid) tag name hash: names too long or with characters other than ASCII
/// letters and the digits 1–6.
pub(super) const EMPTY: u64 = !0;

/// `lol_html`'s tag name hash, which decides which tags it recognises.
pub(super) const fn hash_update(h: u64, ch: u8) -> u64 {
    if h >> (64 - 5) == 0 {
        match ch {
            b'a'..=b'z' | b'A'..=b'Z' => (h << 5) | ((ch as u64 & 0x1F) + 5),
            b'1'..=b'6' => (h << 5) | ((ch as u64 & 0x0F) - 1),
            _ => EMPTY,
        }
    } else {
        EMPTY
    }
}

pub(super) const fn hash(name: &[u8]) -> u64 {
    let mut h = 0;
    let mut i = 0;
    while i < name.len() {
        h = hash_update(h, name[i]);
        i += 1;
    }
    h
}

pub(super) mod tag {
    use super::hash;
    macro_rules! tags {
        ($($c:ident = $s:literal),* $(,)?) => { $(pub const $c: u64 = hash($s);)* };
    }
    tags! {
        SVG = b"svg", MATH = b"math", FONT = b"font", P = b"p", BR = b"br",
        TEXTAREA = b"textarea", TITLE = b"title", PLAINTEXT = b"plaintext", SCRIPT = b"script",
        STYLE = b"style", IFRAME = b"iframe", XMP = b"xmp", NOEMBED = b"noembed",
        NOFRAMES = b"noframes",
        DESC = b"desc", FOREIGN_OBJECT = b"foreignobject",
        MI = b"mi", MO = b"mo", MN = b"mn", MS = b"ms", MTEXT = b"mtext",
    }
    /// Start tags that take the tokenizer out of `svg`/`math` content.
    pub const FOREIGN_EXIT: &[u64] = &[
        hash(b"b"),
        hash(b"big"),
        hash(b"blockquote"),
        hash(b"body"),
        BR,
        hash(b"center"),
        hash(b"code"),
        hash(b"dd"),
        hash(b"div"),
        hash(b"dl"),
        hash(b"dt"),
        hash(b"em"),
        hash(b"embed"),
        hash(b"h1"),
        hash(b"h2"),
        hash(b"h3"),
        hash(b"h4"),
        hash(b"h5"),
        hash(b"h6"),
        hash(b"head"),
        hash(b"hr"),
        hash(b"i"),
        hash(b"img"),
        hash(b"li"),
        hash(b"listing"),
        hash(b"menu"),
        hash(b"meta"),
        hash(b"nobr"),
        hash(b"ol"),
        P,
        hash(b"pre"),
        hash(b"ruby"),
        hash(b"s"),
        hash(b"small"),
        hash(b"span"),
        hash(b"strong"),
        hash(b"strike"),
        hash(b"sub"),
        hash(b"sup"),
        hash(b"table"),
        hash(b"tt"),
        hash(b"u"),
        hash(b"ul"),
        hash(b"var"),
    ];
    /// Whether a name is that of a [`VOID`] element.
    // NOTE: a one-word filter first: most start tags are of other elements.
    #[inline]
    pub fn is_void(h: u64) -> bool {
        VOID_FILTER & (1 << bucket(h)) != 0 && VOID.contains(&h)
    }

    const fn bucket(h: u64) -> u64 {
        h.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 58
    }

    const VOID_FILTER: u64 = {
        let mut f = 0u64;
        let mut i = 0;
        while i < VOID.len() {
            f |= 1 << bucket(VOID[i]);
            i += 1;
        }
        f
    };

    /// Elements without content: never on the open-element stack.
    pub const VOID: &[u64] = &[
        hash(b"area"),
        hash(b"base"),
        hash(b"basefont"),
        hash(b"bgsound"),
        BR,
        hash(b"col"),
        hash(b"embed"),
        hash(b"hr"),
        hash(b"img"),
        hash(b"input"),
        hash(b"keygen"),
        hash(b"link"),
        hash(b"meta"),
        hash(b"param"),
        hash(b"source"),
        hash(b"track"),
        hash(b"wbr"),
    ];
}

/// HTML's implied end tags, as far as they pop open elements: which open elements a start
/// tag read as HTML closes ("in body" and the table insertion modes of the standard's tree
/// construction). Elements are sorted into categories for the searches, and start tags into
/// rules.
pub(super) mod implied {
    use super::hash;

    // What an open element is. The first [`SEARCHED`] categories are searched by position.
    /// `p`
    pub const P: u16 = 1 << 0;
    /// `li`
    pub const LI: u16 = 1 << 1;
    /// `dd`, `dt`
    pub const DDT: u16 = 1 << 2;
    /// `td`, `th`
    pub const CELL: u16 = 1 << 3;
    /// `tr`
    pub const ROW: u16 = 1 << 4;
    /// `tbody`, `thead`, `tfoot`
    pub const SECTION: u16 = 1 << 5;
    /// `table`
    pub const TABLE: u16 = 1 << 6;
    /// `caption`, `colgroup`
    pub const CAPTION: u16 = 1 << 7;
    /// `template`
    pub const TEMPLATE: u16 = 1 << 8;
    /// `button`
    pub const BUTTON: u16 = 1 << 9;
    /// The standard's scope boundaries: applet, caption, html, table, td, th, marquee,
    /// object, template.
    pub const SCOPE: u16 = 1 << 10;
    /// Special elements but address, div, p and li: they end the search for an `li` to
    /// close.
    pub const LI_STOP: u16 = 1 << 11;
    /// Special elements but address, div, p, dd and dt: the same for `dd`/`dt`.
    pub const DDT_STOP: u16 = 1 << 12;
    /// Categories with a stack of positions.
    pub const SEARCHED: usize = 13;
    /// `option` (only ever looked for on top of the stack, as the next two).
    pub const OPTION: u16 = 1 << 13;
    /// `optgroup`
    pub const OPTGROUP: u16 = 1 << 14;
    /// `h1`–`h6`
    pub const HEADING: u16 = 1 << 15;

    // What a start tag does.
    /// Closes a `p` in button scope.
    pub const R_P: u16 = 1 << 0;
    /// `li`: closes the nearest `li` unless a special element comes first.
    pub const R_LI: u16 = 1 << 1;
    /// `dd`/`dt`: the same for `dd`/`dt`.
    pub const R_DDT: u16 = 1 << 2;
    /// `button`: closes a `button` in scope.
    pub const R_BUTTON: u16 = 1 << 3;
    /// `option`: closes an `option` that is the current element.
    pub const R_OPTION: u16 = 1 << 4;
    /// `optgroup`: closes an `option`, then an `optgroup`, that is the current element.
    pub const R_OPTGROUP: u16 = 1 << 5;
    /// `h1`–`h6`: closes a heading that is the current element.
    pub const R_HEADING: u16 = 1 << 6;
    /// `td`/`th`: closes the open cell (or caption) and what is open in the row.
    pub const R_CELL: u16 = 1 << 7;
    /// `tr`: closes the open cell and row and what is open in the table section.
    pub const R_ROW: u16 = 1 << 8;
    /// `tbody`, `thead`, `tfoot`, `caption`, `colgroup`, `col`: closes the open cell, row
    /// and section and what is open in the table.
    pub const R_SECTION: u16 = 1 << 9;
    /// `table` in a table (not in a cell or caption): closes that table.
    pub const R_TABLE: u16 = 1 << 10;

    macro_rules! names {
        ($($c:ident = $s:literal),* $(,)?) => { $(const $c: u64 = hash($s);)* };
    }
    names! {
        ADDRESS = b"address", APPLET = b"applet", ARTICLE = b"article", ASIDE = b"aside",
        BLOCKQUOTE = b"blockquote", BODY = b"body", BUTTON_ = b"button", CAPTION_ = b"caption",
        CENTER = b"center", COL = b"col", COLGROUP = b"colgroup", DD = b"dd",
        DETAILS = b"details", DIALOG = b"dialog", DIR = b"dir", DIV = b"div", DL = b"dl",
        DT = b"dt", FIELDSET = b"fieldset", FIGCAPTION = b"figcaption", FIGURE = b"figure",
        FOOTER = b"footer", FORM = b"form", FRAMESET = b"frameset", H1 = b"h1", H2 = b"h2",
        H3 = b"h3", H4 = b"h4", H5 = b"h5", H6 = b"h6", HEAD = b"head", HEADER = b"header",
        HGROUP = b"hgroup", HR = b"hr", HTML = b"html", IFRAME = b"iframe", LI_ = b"li",
        LISTING = b"listing", MAIN = b"main", MARQUEE = b"marquee", MENU = b"menu",
        NAV = b"nav", NOEMBED = b"noembed", NOFRAMES = b"noframes", NOSCRIPT = b"noscript",
        OBJECT = b"object", OL = b"ol", OPTGROUP_ = b"optgroup", OPTION_ = b"option",
        P_ = b"p", PLAINTEXT = b"plaintext", PRE = b"pre", SCRIPT = b"script",
        SEARCH = b"search", SECTION_ = b"section", SELECT = b"select", STYLE = b"style",
        SUMMARY = b"summary", TABLE_ = b"table", TBODY = b"tbody", TD = b"td",
        TEMPLATE_ = b"template", TEXTAREA = b"textarea", TFOOT = b"tfoot", TH = b"th",
        THEAD = b"thead", TITLE = b"title", TR = b"tr", UL = b"ul", XMP = b"xmp",
    }

    /// Special elements, as both searches see them.
    const SPECIAL: u16 = LI_STOP | DDT_STOP;

    /// The rule of a start tag and the category of its element, by name hash.
    pub fn of(h: u64) -> (u16, u16) {
        match h {
            P_ => (R_P, P),
            LI_ => (R_LI | R_P, LI | DDT_STOP),
            DD | DT => (R_DDT | R_P, DDT | LI_STOP),
            TD | TH => (R_CELL, CELL | SCOPE | SPECIAL),
            TR => (R_ROW, ROW | SPECIAL),
            TBODY | THEAD | TFOOT => (R_SECTION, SECTION | SPECIAL),
            CAPTION_ => (R_SECTION, CAPTION | SCOPE | SPECIAL),
            COLGROUP => (R_SECTION, CAPTION | SPECIAL),
            COL => (R_SECTION, 0),
            TABLE_ => (R_TABLE | R_P, TABLE | SCOPE | SPECIAL),
            TEMPLATE_ => (0, TEMPLATE | SCOPE | SPECIAL),
            BUTTON_ => (R_BUTTON, BUTTON | SPECIAL),
            OPTION_ => (R_OPTION, OPTION),
            OPTGROUP_ => (R_OPTGROUP, OPTGROUP),
            H1 | H2 | H3 | H4 | H5 | H6 => (R_P | R_HEADING, HEADING | SPECIAL),
            ADDRESS | DIV => (R_P, 0),
            ARTICLE | ASIDE | BLOCKQUOTE | CENTER | DETAILS | DIALOG | DIR | DL | FIELDSET
            | FIGCAPTION | FIGURE | FOOTER | FORM | HEADER | HGROUP | LISTING | MAIN | MENU
            | NAV | OL | PLAINTEXT | PRE | SEARCH | SECTION_ | SUMMARY | UL | XMP => (R_P, SPECIAL),
            HR => (R_P, 0),
            APPLET | MARQUEE | OBJECT | HTML => (0, SCOPE | SPECIAL),
            BODY | FRAMESET | HEAD | IFRAME | NOEMBED | NOFRAMES | NOSCRIPT | SCRIPT | SELECT
            | STYLE | TEXTAREA | TITLE => (0, SPECIAL),
            _ => (0, 0),
        }
    }
}

/// Text parsing modes of the tokenizer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum TextMode {
    Data,
    RcData,
    RawText,
    Script,
    Plain,
    CData,
}

/// Which text mode a start tag switches to (in HTML content).
pub(super) fn text_adjustment(h: u64) -> Option<TextMode> {
    match h {
        tag::TEXTAREA | tag::TITLE => Some(TextMode::RcData),
        tag::PLAINTEXT => Some(TextMode::Plain),
        tag::SCRIPT => Some(TextMode::Script),
        // `noscript` is left out: the splitter reads it as a parser with scripting disabled
        // does, as markup (see the module documentation).
        tag::STYLE | tag::IFRAME | tag::XMP | tag::NOEMBED | tag::NOFRAMES => {
            Some(TextMode::RawText)
        }
        _ => None,
    }
}
