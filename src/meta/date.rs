//! Dates: ISO 8601 values (with their time and zone), dates written out in text (month
//! names in nine languages, `17.10.2018`, `10/17/2018`, `2018年10月17日`) and dates in URL
//! paths. A day before [`FIRST_YEAR`] or after today is no publication date.

use std::sync::OnceLock;

/// The first year a publication date may have.
pub const FIRST_YEAR: u16 = 1990;

/// A calendar day.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) struct Day {
    pub(crate) year: u16,
    pub(crate) month: u8,
    pub(crate) day: u8,
}

impl Day {
    /// The day if it exists, is not before [`FIRST_YEAR`] and not after tomorrow (UTC:
    /// a page's own time zone may be ahead).
    pub(crate) fn new(year: u32, month: u32, day: u32) -> Option<Day> {
        let (y, m, d) = (
            u16::try_from(year).ok()?,
            u8::try_from(month).ok()?,
            u8::try_from(day).ok()?,
        );
        if y < FIRST_YEAR || !(1..=12).contains(&m) || d == 0 || d > days_in_month(y, m) {
            return None;
        }
        let day = Day {
            year: y,
            month: m,
            day: d,
        };
        (day <= latest()).then_some(day)
    }

    /// `YYYY-MM-DD`.
    pub(crate) fn iso(self) -> String {
        format!("{:04}-{:02}-{:02}", self.year, self.month, self.day)
    }
}

fn days_in_month(y: u16, m: u8) -> u8 {
    match m {
        2 if (y % 4 == 0 && y % 100 != 0) || y % 400 == 0 => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// Tomorrow (UTC), the latest day a page may give as its publication date.
fn latest() -> Day {
    static LATEST: OnceLock<Day> = OnceLock::new();
    *LATEST.get_or_init(|| {
        let secs = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs());
        let (y, m, d) = civil_from_days((secs / 86_400) as i64 + 1);
        Day {
            year: u16::try_from(y).unwrap_or(u16::MAX),
            month: m as u8,
            day: d as u8,
        }
    })
}

/// The calendar day of a count of days since 1970-01-01 (Howard Hinnant's algorithm).
fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

/// A date as ISO 8601 from its ISO forms (`YYYY-MM-DD` or `YYYY/MM/DD`, then optionally
/// `T` or a space, `hh:mm`, `:ss`, a fraction and a zone `Z`, `±hh:mm`, `±hhmm`, `±hh`,
/// ` UTC` or ` GMT`): the date, with the time and zone as given (the zone written
/// `±hh:mm` or `Z`). Other forms, impossible days and days before `FIRST_YEAR` or in
/// the future give nothing.
pub fn iso_date(s: &str) -> Option<String> {
    let s = s.trim();
    let b = s.as_bytes();
    let num = |r: std::ops::Range<usize>| -> Option<u32> {
        let d = b.get(r)?;
        d.iter()
            .all(u8::is_ascii_digit)
            .then(|| d.iter().fold(0, |n, c| n * 10 + u32::from(c - b'0')))
    };
    let (year, month, day) = (num(0..4)?, num(5..7)?, num(8..10)?);
    if !(b[4] == b[7] && (b[4] == b'-' || b[4] == b'/')) || num(10..11).is_some() {
        return None;
    }
    let date = Day::new(year, month, day)?.iso();
    let rest = &b[10..];
    let Some(t) = rest
        .strip_prefix(b"T")
        .or_else(|| rest.strip_prefix(b" "))
        .filter(|t| t.len() >= 5 && t[2] == b':')
    else {
        return Some(date);
    };
    let two = |i: usize| -> Option<u32> {
        let d = t.get(i..i + 2)?;
        d.iter()
            .all(u8::is_ascii_digit)
            .then(|| u32::from(d[0] - b'0') * 10 + u32::from(d[1] - b'0'))
    };
    let (Some(hour), Some(minute)) = (two(0), two(3)) else {
        return Some(date);
    };
    if hour > 23 || minute > 59 {
        return Some(date);
    }
    let mut end = 5;
    if t.get(5) == Some(&b':') && two(6).is_some_and(|s| s <= 60) {
        end = 8;
        if t.get(8) == Some(&b'.') {
            end = 9 + t[9..].iter().take_while(|c| c.is_ascii_digit()).count();
            if end == 9 {
                end = 8;
            }
        }
    }
    let time = std::str::from_utf8(&t[..end]).ok()?;
    Some(format!("{date}T{time}{}", zone(&t[end..])))
}

/// The time zone at the start of `z`, written `Z` or `±hh:mm`; empty when there is none.
fn zone(z: &[u8]) -> String {
    let digits =
        |r: std::ops::Range<usize>| z.get(r).is_some_and(|d| d.iter().all(u8::is_ascii_digit));
    let text = |r: std::ops::Range<usize>| std::str::from_utf8(&z[r]).unwrap_or("00");
    match z.first() {
        Some(b'Z' | b'z') => "Z".into(),
        Some(&sign @ (b'+' | b'-')) if digits(1..3) => {
            let sign = sign as char;
            if z.get(3) == Some(&b':') && digits(4..6) {
                format!("{sign}{}:{}", text(1..3), text(4..6))
            } else if digits(3..5) {
                format!("{sign}{}:{}", text(1..3), text(3..5))
            } else {
                format!("{sign}{}:00", text(1..3))
            }
        }
        Some(b' ') => {
            let word = z[1..].get(..3).unwrap_or_default();
            if word.eq_ignore_ascii_case(b"utc") || word.eq_ignore_ascii_case(b"gmt") {
                "Z".into()
            } else {
                String::new()
            }
        }
        _ => String::new(),
    }
}

/// The month a word names (lower case, without a trailing dot): English, German, French,
/// Spanish, Italian, Portuguese, Dutch, Russian and Polish names, and their usual
/// abbreviations.
fn month_name(w: &str) -> Option<u8> {
    let m = match w {
        "january" | "jan" | "januar" | "jänner" | "janvier" | "janv" | "enero" | "ene"
        | "gennaio" | "janeiro" | "januari" | "января" | "январь" | "stycznia" | "styczeń" => {
            1
        }
        "february" | "feb" | "februar" | "février" | "fevrier" | "févr" | "fevr" | "febrero"
        | "febbraio" | "fevereiro" | "fev" | "februari" | "февраля" | "февраль" | "lutego"
        | "luty" => 2,
        "march" | "mar" | "märz" | "maerz" | "mär" | "mars" | "marzo" | "março" | "marco"
        | "maart" | "марта" | "март" | "marca" | "marzec" => 3,
        "april" | "apr" | "avril" | "avr" | "abril" | "abr" | "aprile" | "апреля" | "апрель"
        | "kwietnia" | "kwiecień" => 4,
        "may" | "mai" | "mayo" | "maggio" | "maio" | "mei" | "мая" | "май" | "maja" | "maj" => {
            5
        }
        "june" | "jun" | "juni" | "juin" | "junio" | "giugno" | "junho" | "июня" | "июнь"
        | "czerwca" | "czerwiec" => 6,
        "july" | "jul" | "juli" | "juillet" | "juil" | "julio" | "luglio" | "julho" | "июля"
        | "июль" | "lipca" | "lipiec" => 7,
        "august" | "aug" | "août" | "aout" | "agosto" | "ago" | "augustus" | "августа"
        | "август" | "sierpnia" | "sierpień" => 8,
        "september" | "sep" | "sept" | "septembre" | "septiembre" | "setiembre" | "settembre"
        | "setembro" | "set" | "сентября" | "сентябрь" | "września" | "wrzesień" => {
            9
        }
        "october" | "oct" | "oktober" | "okt" | "octobre" | "octubre" | "ottobre" | "outubro"
        | "out" | "октября" | "октябрь" | "października" | "październik" => 10,
        "november" | "nov" | "novembre" | "noviembre" | "novembro" | "ноября" | "ноябрь"
        | "listopada" | "listopad" => 11,
        "december" | "dec" | "dezember" | "dez" | "décembre" | "decembre" | "déc" | "dec."
        | "diciembre" | "dic" | "dicembre" | "dezembro" | "декабря" | "декабрь" | "grudnia"
        | "grudzień" => 12,
        _ => return None,
    };
    Some(m)
}

/// Whether a lower-case word names a month ([`month_name`]).
pub(crate) fn is_month(w: &str) -> bool {
    month_name(w).is_some()
}

/// Words between the parts of a written date that do not break it ("4th of March",
/// "4 de marzo de 2025", "le 4 mars").
fn filler(w: &str) -> bool {
    matches!(
        w,
        "st" | "nd" | "rd" | "th" | "of" | "de" | "del" | "er" | "en" | "г" | "года" | "r"
    )
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum Tok {
    /// A number and its count of digits.
    Num(u32, usize),
    Month(u8),
    /// Any other word.
    Word,
}

/// Whether a text may hold a date: it has a run of four digits starting 19 or 20 (a
/// year). Cheap, for lines that are not worth parsing.
pub(crate) fn has_year(text: &str) -> bool {
    let b = text.as_bytes();
    let mut run = 0;
    for (i, c) in b.iter().enumerate() {
        if c.is_ascii_digit() {
            run += 1;
        } else {
            if run == 4 && matches!(&b[i - 4..i - 2], b"19" | b"20") {
                return true;
            }
            run = 0;
        }
    }
    run == 4 && matches!(&b[b.len() - 4..b.len() - 2], b"19" | b"20")
}

/// The first date written out in a text: a month name with a day and a year (`March 4,
/// 2025`, `4 March 2025`, `4. März 2025`, `4 de marzo de 2025`), `2025-03-04`,
/// `4.3.2025` (day first), `3/4/2025` (month first, unless `day_first` or the first
/// number cannot be a month) or `2025年3月4日`.
pub(crate) fn text_date(text: &str, day_first: bool) -> Option<Day> {
    if !has_year(text) {
        return None;
    }
    let numeric = numeric_date(text, day_first);
    let mut toks: Vec<(usize, Tok)> = Vec::new();
    let mut chars = text.char_indices().peekable();
    while let Some((at, c)) = chars.next() {
        if c.is_ascii_digit() {
            let (mut n, mut len) = (c.to_digit(10).unwrap_or(0), 1usize);
            while let Some(&(_, d)) = chars.peek().filter(|(_, d)| d.is_ascii_digit()) {
                n = n
                    .saturating_mul(10)
                    .saturating_add(d.to_digit(10).unwrap_or(0));
                len += 1;
                chars.next();
            }
            toks.push((at, Tok::Num(n, len)));
        } else if c.is_alphabetic() {
            let mut w = String::new();
            w.extend(c.to_lowercase());
            while let Some(&(_, d)) = chars.peek().filter(|(_, d)| d.is_alphabetic()) {
                w.extend(d.to_lowercase());
                chars.next();
            }
            if filler(&w) {
                continue;
            }
            toks.push((at, month_name(&w).map_or(Tok::Word, Tok::Month)));
        }
    }
    let mut named = None;
    for (i, w) in toks.windows(3).enumerate() {
        let day = match (w[0].1, w[1].1, w[2].1) {
            (Tok::Month(m), Tok::Num(d, 1..=2), Tok::Num(y, 4)) => Day::new(y, m.into(), d),
            (Tok::Num(d, 1..=2), Tok::Month(m), Tok::Num(y, 4)) => Day::new(y, m.into(), d),
            (Tok::Num(y, 4), Tok::Month(m), Tok::Num(d, 1..=2)) => {
                // "2025 March 4", but not "2025 March 14:30" read as its hour.
                let next_is_time = toks.get(i + 3).is_some();
                if next_is_time {
                    None
                } else {
                    Day::new(y, m.into(), d)
                }
            }
            _ => None,
        };
        if let Some(day) = day {
            named = Some((w[0].0, day));
            break;
        }
    }
    match (named, numeric) {
        (Some((a, x)), Some((b, y))) => Some(if b < a { y } else { x }),
        (Some((_, x)), None) => Some(x),
        (None, Some((_, y))) => Some(y),
        (None, None) => None,
    }
}

/// The first date written with a month name in a text (`March 4, 2025`, `4 mars 2025`),
/// not a numeric one, whose order of day and month a reader could take either way.
pub(crate) fn written_date(text: &str) -> Option<Day> {
    if !has_year(text) {
        return None;
    }
    let mut toks: Vec<Tok> = Vec::new();
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if c.is_ascii_digit() {
            let (mut n, mut len) = (c.to_digit(10).unwrap_or(0), 1usize);
            while let Some(d) = chars.peek().filter(|d| d.is_ascii_digit()) {
                n = n
                    .saturating_mul(10)
                    .saturating_add(d.to_digit(10).unwrap_or(0));
                len += 1;
                chars.next();
            }
            toks.push(Tok::Num(n, len));
        } else if c.is_alphabetic() {
            let mut w = String::new();
            w.extend(c.to_lowercase());
            while let Some(d) = chars.peek().filter(|d| d.is_alphabetic()) {
                w.extend(d.to_lowercase());
                chars.next();
            }
            if !filler(&w) {
                toks.push(month_name(&w).map_or(Tok::Word, Tok::Month));
            }
        }
    }
    toks.windows(3).find_map(|w| match (w[0], w[1], w[2]) {
        (Tok::Month(m), Tok::Num(d, 1..=2), Tok::Num(y, 4))
        | (Tok::Num(d, 1..=2), Tok::Month(m), Tok::Num(y, 4)) => Day::new(y, m.into(), d),
        _ => None,
    })
}

/// The first all-numeric date of a text and its byte offset.
fn numeric_date(text: &str, day_first: bool) -> Option<(usize, Day)> {
    let b = text.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if !b[i].is_ascii_digit() || (i > 0 && b[i - 1].is_ascii_digit()) {
            i += 1;
            continue;
        }
        if let Some(day) = numeric_at(
            &b[i..],
            day_first,
            i > 0 && matches!(b[i - 1], b'.' | b'/' | b'-'),
        ) {
            return Some((i, day));
        }
        i += 1;
    }
    None
}

/// A numeric date starting at the beginning of `b`.
fn numeric_at(b: &[u8], day_first: bool, glued: bool) -> Option<Day> {
    if glued {
        return None;
    }
    let run = |from: usize| {
        b.get(from..)
            .map_or(0, |r| r.iter().take_while(|c| c.is_ascii_digit()).count())
    };
    let val = |from: usize, len: usize| {
        b[from..from + len]
            .iter()
            .fold(0u32, |n, c| n * 10 + u32::from(c - b'0'))
    };
    let a = run(0);
    let sep = *b.get(a)?;
    let c = run(a + 1);
    if c == 0 {
        // 2018年10月17日
        return (a == 4 && b[a..].starts_with("年".as_bytes())).then(|| {
            let rest = &b[a + 3..];
            let m = rest.iter().take_while(|c| c.is_ascii_digit()).count();
            let after_m = rest.get(m..)?;
            if !(1..=2).contains(&m) || !after_m.starts_with("月".as_bytes()) {
                return None;
            }
            let rest2 = &after_m[3..];
            let d = rest2.iter().take_while(|c| c.is_ascii_digit()).count();
            if !(1..=2).contains(&d) || !rest2[d..].starts_with("日".as_bytes()) {
                return None;
            }
            let num = |s: &[u8]| s.iter().fold(0u32, |n, c| n * 10 + u32::from(c - b'0'));
            Day::new(val(0, 4), num(&rest[..m]), num(&rest2[..d]))
        })?;
    }
    if !matches!(sep, b'-' | b'/' | b'.') || b.get(a + 1 + c) != Some(&sep) {
        return None;
    }
    let e = run(a + 2 + c);
    let end = a + 2 + c + e;
    // A number glued on after the date (a version, a phone number) is not one.
    if matches!(b.get(end), Some(x) if x.is_ascii_digit())
        || (matches!(b.get(end), Some(&x) if x == sep)
            && matches!(b.get(end + 1), Some(x) if x.is_ascii_digit()))
    {
        return None;
    }
    let (x, y, z) = (val(0, a), val(a + 1, c), val(a + 2 + c, e));
    match (a, c, e) {
        (4, 1..=2, 1..=2) if sep != b'.' => Day::new(x, y, z),
        (1..=2, 1..=2, 4) if sep == b'.' => Day::new(z, y, x),
        (1..=2, 1..=2, 4) => {
            if x > 12 || (day_first && y <= 12) {
                Day::new(z, y, x)
            } else {
                Day::new(z, x, y)
            }
        }
        _ => None,
    }
}

/// Whether two `YYYY-MM-DD` days are one day apart (a time near midnight read in two
/// time zones).
pub(crate) fn one_day_apart(a: &str, b: &str) -> bool {
    let days = |s: &str| -> Option<i64> {
        let y: i64 = s.get(0..4)?.parse().ok()?;
        let m: i64 = s.get(5..7)?.parse().ok()?;
        let d: i64 = s.get(8..10)?.parse().ok()?;
        // Days since 1970-01-01 (Howard Hinnant's algorithm, the inverse of
        // `civil_from_days`).
        let y = if m <= 2 { y - 1 } else { y };
        let era = y.div_euclid(400);
        let yoe = y - era * 400;
        let mp = (m + 9) % 12;
        let doy = (153 * mp + 2) / 5 + d - 1;
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
        Some(era * 146_097 + doe - 719_468)
    };
    matches!((days(a), days(b)), (Some(x), Some(y)) if (x - y).abs() == 1)
}

/// The first clock time written in a line, as minutes after midnight: `9:05 pm`,
/// `9:05pm`, `21:05`, `09:05:48` (`am`/`pm` in either case, `12 am` is midnight). Digits
/// glued to other digits or letters are not a time.
pub(crate) fn clock(text: &str) -> Option<u32> {
    let b = text.as_bytes();
    let mut i = 0;
    while let Some(at) = b[i..].iter().position(|&c| c == b':') {
        let colon = i + at;
        i = colon + 1;
        let start = b[..colon]
            .iter()
            .rev()
            .take_while(|c| c.is_ascii_digit())
            .count();
        let glued = |c: Option<&u8>| c.is_some_and(|c| c.is_ascii_alphanumeric());
        let hour_digits = &b[colon - start..colon];
        let minute_digits = b.get(colon + 1..colon + 3);
        let (Some(m), 1..=2) = (minute_digits, start) else {
            continue;
        };
        if !m.iter().all(u8::is_ascii_digit)
            || (colon > start && glued(b.get(colon - start - 1)))
            || b.get(colon + 3).is_some_and(u8::is_ascii_digit)
        {
            continue;
        }
        let num = |d: &[u8]| d.iter().fold(0, |n, c| n * 10 + u32::from(c - b'0'));
        let (mut hour, minute) = (num(hour_digits), num(m));
        if hour > 23 || minute > 59 {
            continue;
        }
        // Seconds, then an `am`/`pm` after at most one space.
        let mut end = colon + 3;
        if b.get(end) == Some(&b':')
            && b.get(end + 1..end + 3)
                .is_some_and(|s| s.iter().all(u8::is_ascii_digit))
        {
            end += 3;
        }
        let rest = &b[end..];
        let rest = rest.strip_prefix(b" ").unwrap_or(rest);
        let half = rest.get(..2).filter(|_| !glued(rest.get(2)));
        match half.map(|w| w.to_ascii_lowercase()) {
            Some(w) if w == b"am" || w == b"pm" => {
                if !(1..=12).contains(&hour) {
                    continue;
                }
                hour = hour % 12 + if w == b"pm" { 12 } else { 0 };
            }
            _ if glued(b.get(end)) => continue,
            _ => {}
        }
        return Some(hour * 60 + minute);
    }
    None
}

/// The day a page shows for the moment it declares, when the two are one day apart: a
/// declared ISO time (`2026-02-15T03:05:48`, often UTC) and a shown line with its day and
/// clock (`Feb 14, 2026 | 9:05 pm`) are the same moment when they differ by a whole
/// quarter hour of at most 12 hours back or 14 ahead (a time zone's offset). The shown
/// day is then the day in the page's own zone: the day its readers were given.
pub(crate) fn local_day(declared: &str, shown: &str, day_first: bool) -> Option<Day> {
    let b = declared.as_bytes();
    if b.get(10) != Some(&b'T') {
        return None;
    }
    let two = |i: usize| -> Option<u32> {
        let d = b.get(i..i + 2)?;
        d.iter()
            .all(u8::is_ascii_digit)
            .then(|| u32::from(d[0] - b'0') * 10 + u32::from(d[1] - b'0'))
    };
    let declared_clock = two(11)? * 60 + two(14)?;
    let day = text_date(shown, day_first)?;
    let shown_clock = clock(shown)?;
    let declared_day = declared.get(..10)?;
    let shown_day = day.iso();
    if !one_day_apart(declared_day, &shown_day) {
        return None;
    }
    let later = shown_day.as_str() > declared_day;
    let offset =
        if later { 1440 } else { -1440 } + i64::from(shown_clock) - i64::from(declared_clock);
    ((-720..=840).contains(&offset) && offset % 15 == 0 && offset != 0).then_some(day)
}

/// Labels that start a line giving a page's date: `Published`, `Posted`, `Updated`, `Last
/// updated`, `Date`, in English, German, French and Spanish (`Veröffentlicht`,
/// `Aktualisiert`, `Publié`, `Mis à jour`, `Publicado`, `Actualizado`).
const DATE_LABELS: [&str; 13] = [
    "published",
    "posted",
    "updated",
    "last updated",
    "last modified",
    "date:",
    "originally published",
    "veröffentlicht",
    "aktualisiert",
    "publié",
    "mis à jour",
    "publicado",
    "actualizado",
];

/// Whether a line starts with a label of a change (`Updated`, `Last updated`, `Last
/// modified`, `Modified`, `Edited`, `Aktualisiert`, `Mis à jour`, `Actualizado`): its date
/// is when the page changed, not when it was published.
pub(crate) fn update_label(text: &str) -> bool {
    let head: String = text
        .trim_start()
        .chars()
        .take(16)
        .collect::<String>()
        .to_lowercase();
    [
        "updated",
        "last updated",
        "last modified",
        "modified",
        "edited",
        "aktualisiert",
        "mis à jour",
        "actualizado",
    ]
    .iter()
    .any(|l| head.starts_with(l))
}

/// Whether a line may start with one of [`DATE_LABELS`] (by its first letter; cheap).
pub(crate) fn may_be_labelled(text: &str) -> bool {
    text.trim_start()
        .as_bytes()
        .first()
        .is_some_and(|b| b"pulodvamPULODVAM".contains(b))
}

/// Whether a line starts with one of [`DATE_LABELS`] (any case) and has a date.
pub(crate) fn labelled(text: &str) -> bool {
    let t = text.trim_start();
    let head: String = t.chars().take(24).collect::<String>().to_lowercase();
    DATE_LABELS.iter().any(|l| {
        head.strip_prefix(l).is_some_and(|rest| {
            // A label is a word: "Posted" but not "Postedness"; "Date:" carries its colon.
            rest.chars().next().is_none_or(|c| !c.is_alphabetic())
        })
    })
}

/// The day in a URL's path: `/2018/10/17/`, `/2018-10-17-title`, `/20181017/`, with `/`,
/// `-`, `_`, `.` or `+` between the parts.
pub(crate) fn url_date(url: &str) -> Option<Day> {
    let path = match url.find("://") {
        Some(i) => {
            let rest = &url[i + 3..];
            &rest[rest.find('/').unwrap_or(rest.len())..]
        }
        None => url,
    };
    let path = path.split(['?', '#']).next().unwrap_or("");
    let b = path.as_bytes();
    let sep = |c: u8| matches!(c, b'/' | b'-' | b'_' | b'.' | b'+');
    for i in 0..b.len() {
        if i > 0 && b[i - 1].is_ascii_digit() {
            continue;
        }
        let run = b[i..].iter().take_while(|c| c.is_ascii_digit()).count();
        let num = |from: usize, len: usize| {
            b[from..from + len]
                .iter()
                .fold(0u32, |n, c| n * 10 + u32::from(c - b'0'))
        };
        if run == 8 && (i == 0 || sep(b[i - 1])) && b.get(i + 8).is_none_or(|&c| sep(c)) {
            if let Some(d) = Day::new(num(i, 4), num(i + 4, 2), num(i + 6, 2)) {
                return Some(d);
            }
        }
        if run != 4 || !b.get(i + 4).is_some_and(|&c| sep(c)) {
            continue;
        }
        let m = b[i + 5..].iter().take_while(|c| c.is_ascii_digit()).count();
        if !(1..=2).contains(&m) || !b.get(i + 5 + m).is_some_and(|&c| sep(c)) {
            continue;
        }
        let from = i + 6 + m;
        let d = b[from..].iter().take_while(|c| c.is_ascii_digit()).count();
        if !(1..=2).contains(&d) || b.get(from + d).is_some_and(|c| !sep(*c)) {
            continue;
        }
        if let Some(day) = Day::new(num(i, 4), num(i + 5, m), num(from, d)) {
            return Some(day);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn day(s: &str) -> Option<String> {
        text_date(s, false).map(Day::iso)
    }

    #[test]
    fn iso_values_keep_their_time_and_write_the_zone_as_iso() {
        assert_eq!(
            iso_date("2021-11-01T10:52:50+0100").as_deref(),
            Some("2021-11-01T10:52:50+01:00")
        );
        assert_eq!(
            iso_date("2015-03-27T13:07:55.096Z").as_deref(),
            Some("2015-03-27T13:07:55.096Z")
        );
        assert_eq!(
            iso_date("2017-11-03 03:01:00.000000").as_deref(),
            Some("2017-11-03T03:01:00.000000")
        );
        assert_eq!(
            iso_date("2018-04-05T06:00").as_deref(),
            Some("2018-04-05T06:00")
        );
        assert_eq!(
            iso_date("2018-04-05 06:00 GMT").as_deref(),
            Some("2018-04-05T06:00Z")
        );
        assert_eq!(
            iso_date("2018-04-05T06:00-05").as_deref(),
            Some("2018-04-05T06:00-05:00")
        );
        assert_eq!(iso_date("2024-06-25").as_deref(), Some("2024-06-25"));
        assert_eq!(iso_date("2021-13-01"), None);
        assert_eq!(iso_date("2021-02-30"), None);
        assert_eq!(iso_date("May 3, 2021"), None);
    }

    #[test]
    fn days_in_the_future_or_before_1990_are_not_publication_dates() {
        assert_eq!(iso_date("1989-12-31"), None);
        assert_eq!(iso_date("2999-01-01"), None);
        assert_eq!(day("March 4, 1970"), None);
        assert_eq!(day("Posted March 4, 2999"), None);
        assert!(Day::new(1990, 1, 1).is_some());
        assert_eq!(url_date("https://a.org/1985/10/17/x"), None);
    }

    #[test]
    fn dates_written_out_with_month_names() {
        assert_eq!(
            day("Published March 4, 2025").as_deref(),
            Some("2025-03-04")
        );
        assert_eq!(
            day("By Ann Lee | Mar. 4th, 2025, 10:00").as_deref(),
            Some("2025-03-04")
        );
        assert_eq!(day("4 March 2025").as_deref(), Some("2025-03-04"));
        assert_eq!(day("4. März 2025").as_deref(), Some("2025-03-04"));
        assert_eq!(day("le 4 mars 2025").as_deref(), Some("2025-03-04"));
        assert_eq!(day("4 de marzo de 2025").as_deref(), Some("2025-03-04"));
        assert_eq!(day("4 settembre 2025").as_deref(), Some("2025-09-04"));
        assert_eq!(day("17 oktober 2018").as_deref(), Some("2018-10-17"));
        assert_eq!(day("17 октября 2018 г.").as_deref(), Some("2018-10-17"));
        assert_eq!(day("17 października 2018").as_deref(), Some("2018-10-17"));
        assert_eq!(
            day("Sunday, 17th of October 2018").as_deref(),
            Some("2018-10-17")
        );
        assert_eq!(day("March 2025"), None);
        assert_eq!(day("March 18 at 3:57 PM"), None);
    }

    #[test]
    fn numeric_dates_in_the_pages_order() {
        assert_eq!(day("17.10.2018").as_deref(), Some("2018-10-17"));
        assert_eq!(day("on 10/17/2018").as_deref(), Some("2018-10-17"));
        assert_eq!(day("17/10/2018").as_deref(), Some("2018-10-17"));
        assert_eq!(day("05/04/2018").as_deref(), Some("2018-05-04"));
        assert_eq!(
            text_date("05/04/2018", true).map(Day::iso).as_deref(),
            Some("2018-04-05")
        );
        assert_eq!(
            day("Updated 2018-10-17 09:00").as_deref(),
            Some("2018-10-17")
        );
        assert_eq!(day("2018年10月17日").as_deref(), Some("2018-10-17"));
        assert_eq!(day("version 1.2.2018.4"), None);
        assert_eq!(day("call 12-10-20185"), None);
    }

    #[test]
    fn written_dates_need_a_month_name() {
        let w = |s: &str| written_date(s).map(Day::iso);
        assert_eq!(
            w("Friday, December 19, 2025").as_deref(),
            Some("2025-12-19")
        );
        assert_eq!(w("8 Oct 2022").as_deref(), Some("2022-10-08"));
        assert_eq!(w("03/01/2017"), None);
        assert_eq!(w("2025-03-04"), None);
    }

    #[test]
    fn clock_times_in_lines() {
        assert_eq!(clock("Feb 14, 2026 | 9:05 pm"), Some(21 * 60 + 5));
        assert_eq!(clock("posted 12:30AM"), Some(30));
        assert_eq!(clock("at 12:10 pm"), Some(12 * 60 + 10));
        assert_eq!(clock("2024-05-01 09:05:48"), Some(9 * 60 + 5));
        assert_eq!(clock("Ratio 3:2 in 2024"), None);
        assert_eq!(clock("Mark 12:345"), None);
        assert_eq!(clock("a1:30 b"), None);
        assert_eq!(clock("13:05 pm"), None);
        assert_eq!(clock("no time"), None);
    }

    #[test]
    fn the_day_shown_for_the_declared_moment_in_the_pages_zone() {
        let local = |d: &str, s: &str| local_day(d, s, false).map(Day::iso);
        // 03:05 UTC is 21:05 the day before six hours west.
        assert_eq!(
            local("2026-02-15T03:05:48", "Feb 14, 2026 | 9:05 pm").as_deref(),
            Some("2026-02-14")
        );
        // India, five and a half hours east.
        assert_eq!(
            local("2024-03-01T20:40:00Z", "2 March 2024, 02:10").as_deref(),
            Some("2024-03-02")
        );
        // Another minute is another moment; the same day needs no change; no clock, no day.
        assert_eq!(local("2026-02-15T03:05:48", "Feb 14, 2026 | 9:07 pm"), None);
        assert_eq!(local("2026-02-15T03:05:48", "Feb 15, 2026 | 3:05 am"), None);
        assert_eq!(local("2026-02-15T03:05:48", "Feb 14, 2026"), None);
        assert_eq!(local("2026-02-15", "Feb 14, 2026 | 9:05 pm"), None);
        // Further than a time zone can be.
        assert_eq!(local("2026-02-15T23:05:00", "Feb 14, 2026 | 9:05 am"), None);
    }

    #[test]
    fn days_one_apart_across_months_and_years() {
        assert!(one_day_apart("2025-12-18", "2025-12-19"));
        assert!(one_day_apart("2025-03-01", "2025-02-28"));
        assert!(one_day_apart("2024-12-31", "2025-01-01"));
        assert!(!one_day_apart("2024-02-28", "2024-03-01"));
        assert!(!one_day_apart("2025-12-18", "2025-12-18"));
    }

    #[test]
    fn labels_of_changes() {
        assert!(update_label("Updated on Jul 4, 2024"));
        assert!(update_label("Last updated: Dec 4, 2025"));
        assert!(update_label("  Mis à jour le 4 mars 2025"));
        assert!(!update_label("Published March 4, 2025"));
        assert!(!update_label("March 4, 2025"));
    }

    #[test]
    fn url_dates() {
        assert_eq!(
            url_date("https://a.org/2018/10/17/story")
                .map(Day::iso)
                .as_deref(),
            Some("2018-10-17")
        );
        assert_eq!(
            url_date("https://a.org/news/2018-10-17-story.html")
                .map(Day::iso)
                .as_deref(),
            Some("2018-10-17")
        );
        assert_eq!(
            url_date("https://a.org/20181017/story")
                .map(Day::iso)
                .as_deref(),
            Some("2018-10-17")
        );
        assert_eq!(
            url_date("https://a.org/a+2018+10+17+b")
                .map(Day::iso)
                .as_deref(),
            Some("2018-10-17")
        );
        assert_eq!(url_date("https://a.org/2018/10/story"), None);
        assert_eq!(url_date("https://2018.org/p?d=2018/10/17"), None);
        assert_eq!(url_date("https://a.org/id/120181017999"), None);
    }
}
