//! Dates: ISO 8601 forms.

/// A date as ISO 8601 (`YYYY-MM-DD`, with the time as given when there is one), from the
/// ISO forms and `YYYY/MM/DD`; other forms give nothing.
pub fn iso_date(s: &str) -> Option<String> {
    let s = s.trim();
    let b = s.as_bytes();
    let digits =
        |r: std::ops::Range<usize>| b.get(r).is_some_and(|d| d.iter().all(u8::is_ascii_digit));
    if !(digits(0..4) && digits(5..7) && digits(8..10)) {
        return None;
    }
    if !(b[4] == b[7] && (b[4] == b'-' || b[4] == b'/')) {
        return None;
    }
    let month: u32 = s[5..7].parse().ok()?;
    let day: u32 = s[8..10].parse().ok()?;
    if !(1..=12).contains(&month) || !(1..=31).contains(&day) {
        return None;
    }
    let date = format!("{}-{}-{}", &s[..4], &s[5..7], &s[8..10]);
    let rest = &s[10..];
    let time = rest.strip_prefix('T').or_else(|| rest.strip_prefix(' '));
    match time {
        Some(t) if t.len() >= 5 && t.as_bytes()[2] == b':' && t.is_ascii() => {
            let t: String = t.chars().take_while(|c| !c.is_whitespace()).collect();
            Some(format!("{date}T{t}"))
        }
        _ => Some(date),
    }
}
