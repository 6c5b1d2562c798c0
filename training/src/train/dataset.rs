//! The labelled CSV: one row per line of a page, a 0/1 label and numeric feature columns.

use std::io::Read;
use std::path::Path;

use ndarray::{Array2, Axis};

use mainline::{Error, Result};

/// Columns that identify or label a line and are never features.
/// `path` lists the line's enclosing elements (see [`mainline::internals::lines::Line::path`]).
/// `variant` names the page variant a row comes from (`mainline label --augment`).
pub const NON_FEATURE_COLUMNS: [&str; 10] = [
    "doc", "group", "line", "label", "aligned", "path", "sig", "hints", "text", "variant",
];

/// Labelled lines in memory: a feature matrix, one label per row, and the page and group
/// each row comes from.
///
/// Fields are public; [`train`](super::train) checks that their lengths agree.
#[derive(Debug, Clone, PartialEq)]
pub struct Dataset {
    /// Names of the columns of `x`.
    pub features: Vec<String>,
    /// Feature matrix, one row per line, one column per feature.
    pub x: Array2<f32>,
    /// Label of each row: `true` for content, `false` for boilerplate.
    pub y: Vec<bool>,
    /// Group of each row (the page's domain, or the page itself when the CSV gives no
    /// group). Splits never separate the rows of one group.
    pub groups: Vec<String>,
    /// Page id of each row.
    pub docs: Vec<String>,
}

impl Dataset {
    /// Number of rows.
    pub fn len(&self) -> usize {
        self.y.len()
    }

    /// Whether there are no rows.
    pub fn is_empty(&self) -> bool {
        self.y.is_empty()
    }

    /// Column of `x` holding the feature `name`.
    pub fn feature_index(&self, name: &str) -> Option<usize> {
        self.features.iter().position(|f| f == name)
    }

    /// A new dataset with the given rows, in the given order.
    ///
    /// # Panics
    ///
    /// If a row index is out of range.
    pub fn select(&self, rows: &[usize]) -> Dataset {
        Dataset {
            features: self.features.clone(),
            x: self.x.select(Axis(0), rows),
            y: rows.iter().map(|&i| self.y[i]).collect(),
            groups: rows.iter().map(|&i| self.groups[i].clone()).collect(),
            docs: rows.iter().map(|&i| self.docs[i].clone()).collect(),
        }
    }
}

/// Reads a labelled CSV file.
///
/// The file has a header. `doc` and `label` are required; `group` is optional (an empty or
/// missing group means the row's `doc`); `line`, `path`, `sig`, `aligned` and `text` are
/// ignored. The features are the
/// columns named in `wanted`, in that order, or with `None` every other column, in file
/// order. Feature values must be finite numbers; labels must be `0` (boilerplate) or `1`
/// (content). Rows are streamed, so the file is never held in memory as text.
///
/// # Errors
///
/// [`Error::Csv`] naming the file and, where it applies, the data row (1-based, header not
/// counted), the file line, the column and the offending value: the file cannot be read,
/// a required or wanted column is missing (the message lists the header), a value is not a
/// number or not finite, a label is empty or not 0/1, or a row has the wrong number of
/// fields.
pub fn read_labelled_csv(path: &Path, wanted: Option<&[String]>) -> Result<Dataset> {
    let file = std::fs::File::open(path).map_err(|e| Error::Csv {
        path: path.to_path_buf(),
        message: format!("cannot open: {e}"),
    })?;
    read_labelled_csv_from(file, path, wanted)
}

/// [`read_labelled_csv`] from any reader; `path` only names the source in error messages.
///
/// ```
/// use mainline_training::train::read_labelled_csv_from;
///
/// let csv = "doc,group,line,label,density,text\n\
///            a,,0,1,0.8,Hello\n\
///            a,,1,0,0.1,Menu\n";
/// let data = read_labelled_csv_from(csv.as_bytes(), "inline.csv".as_ref(), None)?;
/// assert_eq!(data.features, ["density"]);
/// assert_eq!(data.y, [true, false]);
/// assert_eq!(data.groups, ["a", "a"]);
/// # Ok::<(), mainline::Error>(())
/// ```
///
/// # Errors
///
/// As [`read_labelled_csv`].
pub fn read_labelled_csv_from<R: Read>(
    reader: R,
    path: &Path,
    wanted: Option<&[String]>,
) -> Result<Dataset> {
    let fail = |message: String| Error::Csv {
        path: path.to_path_buf(),
        message,
    };
    let mut rdr = csv_reader(SeesCrlf::new(reader));

    let header: Vec<String> = rdr
        .byte_headers()
        .map_err(|e| fail(describe_csv_error(&e)))?
        .iter()
        .enumerate()
        .map(|(i, name)| {
            let name = String::from_utf8_lossy(name);
            let name = if i == 0 {
                name.trim_start_matches('\u{feff}')
            } else {
                &name
            };
            name.trim().to_string()
        })
        .collect();
    if header.iter().all(|h| h.is_empty()) {
        return Err(fail("empty file: expected a header line".into()));
    }

    let find = |name: &str| -> Result<Option<usize>> {
        let mut hits = header.iter().enumerate().filter(|(_, h)| *h == name);
        let first = hits.next().map(|(i, _)| i);
        if hits.next().is_some() {
            return Err(fail(format!(
                "column \"{name}\" appears twice in the header"
            )));
        }
        Ok(first)
    };
    let require = |name: &str| -> Result<usize> {
        find(name)?.ok_or_else(|| fail(missing_column(name, &header)))
    };

    let doc_col = require("doc")?;
    let label_col = require("label")?;
    let group_col = find("group")?;

    let features: Vec<String> = match wanted {
        Some(names) => names.to_vec(),
        None => header
            .iter()
            .filter(|h| !NON_FEATURE_COLUMNS.contains(&h.as_str()))
            .cloned()
            .collect(),
    };
    let mut feature_cols = Vec::with_capacity(features.len());
    for (i, name) in features.iter().enumerate() {
        if features[..i].contains(name) {
            return Err(fail(format!("feature \"{name}\" is requested twice")));
        }
        if NON_FEATURE_COLUMNS.contains(&name.as_str()) {
            return Err(fail(format!("column \"{name}\" cannot be a feature")));
        }
        feature_cols.push(require(name)?);
    }

    let mut x: Vec<f32> = Vec::new();
    let mut y = Vec::new();
    let mut groups: Vec<String> = Vec::new();
    let mut docs: Vec<String> = Vec::new();
    let mut record = csv::ByteRecord::new();
    let mut row = 0_usize;
    loop {
        match rdr.read_byte_record(&mut record) {
            Ok(true) => {}
            Ok(false) => break,
            Err(e) => {
                let crlf = u64::from(rdr.get_ref().crlf());
                return Err(fail(describe_csv_error_at(&e, crlf)));
            }
        }
        row += 1;
        // NOTE: the csv crate counts a line when it reads its `\n`, which for `\r\n` line
        // ends happens only once the next record has begun: every record after the header
        // is then reported a line early.
        let crlf = u64::from(rdr.get_ref().crlf());
        let line = record.position().map_or(0, |p| p.line() + crlf);
        let at = |col: usize| -> String {
            format!("row {row} (line {line}), column \"{}\"", header[col])
        };
        let field = |col: usize| record.get(col).unwrap_or_default();

        let label = std::str::from_utf8(field(label_col))
            .unwrap_or("\u{fffd}")
            .trim();
        y.push(match label {
            "1" | "1.0" => true,
            "0" | "0.0" => false,
            "" => {
                return Err(fail(format!(
                    "{}: empty label; training needs every row labelled 0 (boilerplate) or 1 \
                     (content)",
                    at(label_col)
                )));
            }
            other => {
                return Err(fail(format!(
                    "{}: \"{}\" is not a label; expected 0 (boilerplate) or 1 (content)",
                    at(label_col),
                    shorten(other)
                )));
            }
        });

        for &col in &feature_cols {
            let raw = field(col);
            let text = std::str::from_utf8(raw).map(str::trim);
            match text.map(str::parse::<f32>) {
                Ok(Ok(v)) if v.is_finite() => x.push(v),
                Ok(Ok(_)) => {
                    return Err(fail(format!(
                        "{}: \"{}\" is not a finite number",
                        at(col),
                        shorten(&String::from_utf8_lossy(raw))
                    )));
                }
                _ => {
                    return Err(fail(format!(
                        "{}: \"{}\" is not a number",
                        at(col),
                        shorten(&String::from_utf8_lossy(raw))
                    )));
                }
            }
        }

        // Rows of one page are usually consecutive: reuse the previous strings' contents.
        let doc = field(doc_col);
        let doc = match docs.last() {
            Some(last) if last.as_bytes() == doc => last.clone(),
            _ => String::from_utf8_lossy(doc).into_owned(),
        };
        let group = group_col.map(field).unwrap_or_default();
        let group = if group.iter().all(u8::is_ascii_whitespace) {
            doc.clone()
        } else {
            match groups.last() {
                Some(last) if last.as_bytes() == group => last.clone(),
                _ => String::from_utf8_lossy(group).into_owned(),
            }
        };
        docs.push(doc);
        groups.push(group);
    }

    let x = Array2::from_shape_vec((y.len(), feature_cols.len()), x)
        .expect("one value per feature was pushed for every row");
    Ok(Dataset {
        features,
        x,
        y,
        groups,
        docs,
    })
}

/// A reader of a labelled CSV: a header row, large buffered reads.
/// A reader that notes whether the first line of its input ends with `\r\n`.
struct SeesCrlf<R> {
    inner: R,
    /// Whether the last byte read was `\r`, and what the first `\n` showed.
    last_cr: bool,
    crlf: Option<bool>,
}

impl<R> SeesCrlf<R> {
    fn new(inner: R) -> Self {
        SeesCrlf {
            inner,
            last_cr: false,
            crlf: None,
        }
    }

    /// Whether the first line ended with `\r\n`.
    fn crlf(&self) -> bool {
        self.crlf == Some(true)
    }
}

impl<R: Read> Read for SeesCrlf<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        if self.crlf.is_none() {
            match memchr::memchr(b'\n', &buf[..n]) {
                Some(0) => self.crlf = Some(self.last_cr),
                Some(i) => self.crlf = Some(buf[i - 1] == b'\r'),
                None if n > 0 => self.last_cr = buf[n - 1] == b'\r',
                None => {}
            }
        }
        Ok(n)
    }
}

fn csv_reader<R: Read>(reader: R) -> csv::Reader<R> {
    csv::ReaderBuilder::new()
        .has_headers(true)
        .buffer_capacity(1 << 16)
        .from_reader(reader)
}

/// Reads the `path` column of a labelled CSV (a line's [`Line::path`](mainline::Line::path)
/// as numbers separated by spaces, nearest first), one entry
/// per row: `None` when the file has no such column (a CSV written before it existed).
///
/// # Errors
/// [`Error::Csv`] when the file cannot be read or a path is malformed.
pub fn read_paths(
    path: &Path,
) -> Result<Option<Vec<[u32; mainline::internals::lines::PATH_LEVELS]>>> {
    read_column(
        path,
        "path",
        "a path (element numbers separated by spaces)",
        mainline::internals::second_stage::parse_path,
    )
}

/// Reads the `sig` column of a labelled CSV (a line's signature: three numbers separated
/// by spaces), one
/// entry per row: `None` when the file has no such column (a CSV written before it
/// existed).
///
/// # Errors
/// [`Error::Csv`] when the file cannot be read or a signature is malformed.
pub fn read_signatures(
    path: &Path,
) -> Result<Option<Vec<mainline::internals::second_stage::page::Signature>>> {
    read_column(
        path,
        "sig",
        "a signature (three numbers separated by spaces)",
        mainline::internals::second_stage::parse_signature,
    )
}

/// Reads the `hints` column of a labelled CSV (the page hint values of each line, as
/// `mainline label` writes them), one entry per row. `None` when the file has no
/// such column.
///
/// # Errors
/// [`Error::Csv`] when the file cannot be read or an entry is malformed.
pub fn read_hints(
    path: &Path,
) -> Result<Option<Vec<[f32; mainline::internals::second_stage::hints::N_LINE_HINTS]>>> {
    read_column(
        path,
        "hints",
        "11 page hint values separated by spaces (CSVs labelled before the hint \
         site_name_line have 10: label the pages again with mainline label)",
        mainline::internals::second_stage::hints::parse_hints,
    )
}

/// Reads the `aligned` column of a labelled CSV, one entry per row: whether the row's page
/// aligned well with its gold text (1) or poorly (0: `mainline label` found too little of
/// the gold text on the page).
/// An empty value (a line without gold text) counts as aligned. `None` when the file has no
/// such column (a CSV written before it existed).
///
/// # Errors
/// [`Error::Csv`] when the file cannot be read or a value is not 0, 1 or empty.
pub fn read_aligned(path: &Path) -> Result<Option<Vec<bool>>> {
    read_column(path, "aligned", "0 or 1", |raw| match raw {
        "1" | "" => Some(true),
        "0" => Some(false),
        _ => None,
    })
}

/// Reads the `variant` column of a labelled CSV (`mainline label --augment`), one entry per
/// row: `None` for a row of a page as written (`original`, or empty), otherwise the
/// [`Variant`](super::Variant) it was rewritten as. `None` when the file has no such column.
///
/// # Errors
/// [`Error::Csv`] when the file cannot be read or a value names no variant.
pub fn read_variants(path: &Path) -> Result<Option<Vec<Option<super::Variant>>>> {
    read_column(
        path,
        "variant",
        "a page variant (original or plain)",
        |raw| match raw {
            "" | "original" => Some(None),
            v => v.parse().ok().map(Some),
        },
    )
}

/// Reads one column of a labelled CSV through `parse`; `None` without the column.
fn read_column<T>(
    path: &Path,
    name: &str,
    what: &str,
    parse: impl Fn(&str) -> Option<T>,
) -> Result<Option<Vec<T>>> {
    let fail = |message: String| Error::Csv {
        path: path.to_path_buf(),
        message,
    };
    let file = std::fs::File::open(path).map_err(|e| fail(format!("cannot open: {e}")))?;
    let mut rdr = csv_reader(file);
    let col = rdr
        .byte_headers()
        .map_err(|e| fail(describe_csv_error(&e)))?
        .iter()
        .position(|h| h == name.as_bytes());
    let Some(col) = col else { return Ok(None) };
    let mut out = Vec::new();
    let mut record = csv::ByteRecord::new();
    while rdr
        .read_byte_record(&mut record)
        .map_err(|e| fail(describe_csv_error(&e)))?
    {
        let raw = std::str::from_utf8(record.get(col).unwrap_or_default()).unwrap_or("?");
        let v = parse(raw).ok_or_else(|| {
            fail(format!(
                "row {}: \"{}\" is not {what}",
                out.len() + 1,
                shorten(raw)
            ))
        })?;
        out.push(v);
    }
    Ok(Some(out))
}

fn missing_column(name: &str, header: &[String]) -> String {
    const SHOWN: usize = 20;
    let mut listed = header
        .iter()
        .take(SHOWN)
        .map(String::as_str)
        .collect::<Vec<_>>()
        .join(", ");
    if header.len() > SHOWN {
        listed.push_str(&format!(", ... ({} more)", header.len() - SHOWN));
    }
    format!("missing column \"{name}\"; the header has: {listed}")
}

/// A value for an error message, cut to a readable length.
fn shorten(s: &str) -> String {
    const MAX: usize = 40;
    match s.char_indices().nth(MAX) {
        Some((end, _)) => format!("{}...", &s[..end]),
        None => s.to_string(),
    }
}

fn describe_csv_error(e: &csv::Error) -> String {
    describe_csv_error_at(e, 0)
}

/// [`describe_csv_error`] with `late` added to the line numbers (see `SeesCrlf`).
fn describe_csv_error_at(e: &csv::Error, late: u64) -> String {
    let position = |pos: Option<&csv::Position>| match pos {
        Some(p) => format!("row {} (line {}): ", p.record(), p.line() + late),
        None => String::new(),
    };
    match e.kind() {
        csv::ErrorKind::Io(io) => format!("cannot read: {io}"),
        csv::ErrorKind::UnequalLengths {
            pos,
            expected_len,
            len,
        } => format!(
            "{}{len} fields, but the header has {expected_len}",
            position(pos.as_ref())
        ),
        _ => format!("{}{e}", position(e.position())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str, wanted: Option<&[String]>) -> Result<Dataset> {
        read_labelled_csv_from(text.as_bytes(), Path::new("t.csv"), wanted)
    }

    fn message(text: &str) -> String {
        match read(text, None) {
            Err(Error::Csv { path, message }) => {
                assert_eq!(path, Path::new("t.csv"));
                message
            }
            other => panic!("expected a CSV error, got {other:?}"),
        }
    }

    const GOOD: &str = "doc,group,line,label,density,ln_html_bytes,text\n\
                        p1,example.com,0,1,0.75,3.5,\"Hello, world\"\n\
                        p1,example.com,1,0,0.1,2,Menu\n\
                        p2,,0,1,1e-1, 4 ,x\n";

    #[test]
    fn reads_every_non_identifying_column_as_a_feature_by_default() {
        let d = read(GOOD, None).unwrap();
        assert_eq!(d.features, ["density", "ln_html_bytes"]);
        assert_eq!(d.x, ndarray::array![[0.75, 3.5], [0.1, 2.0], [0.1, 4.0]]);
        assert_eq!(d.y, [true, false, true]);
        assert_eq!(d.docs, ["p1", "p1", "p2"]);
        assert_eq!(d.groups, ["example.com", "example.com", "p2"]);
    }

    #[test]
    fn wanted_columns_are_read_in_the_requested_order() {
        let wanted = ["ln_html_bytes".to_string(), "density".to_string()];
        let d = read(GOOD, Some(&wanted)).unwrap();
        assert_eq!(d.features, wanted);
        assert_eq!(d.x.row(0).to_vec(), [3.5, 0.75]);
    }

    #[test]
    fn a_missing_group_column_groups_by_page() {
        let d = read("label,doc,f\n1,a,1\n0,b,2\n", None).unwrap();
        assert_eq!(d.groups, ["a", "b"]);
        assert_eq!(d.features, ["f"]);
    }

    #[test]
    fn a_byte_order_mark_before_the_header_is_ignored() {
        let d = read("\u{feff}doc,label,f\na,1,1\n", None).unwrap();
        assert_eq!(d.features, ["f"]);
    }

    #[test]
    fn a_missing_column_is_named_with_the_header() {
        let wanted = ["density".to_string(), "link_density".to_string()];
        let err = read(GOOD, Some(&wanted)).unwrap_err().to_string();
        assert!(
            err.contains("missing column \"link_density\"; the header has: doc, group, line"),
            "{err}"
        );
        assert!(message("doc,line,density\n").contains("missing column \"label\""));
    }

    #[test]
    fn a_non_numeric_value_names_row_line_column_and_value() {
        let msg = message("doc,label,density,ln_html_bytes\na,1,0.5,2\na,0,0.25,abc\n");
        assert_eq!(
            msg,
            "row 2 (line 3), column \"ln_html_bytes\": \"abc\" is not a number"
        );
    }

    #[test]
    fn non_finite_values_are_rejected() {
        for bad in ["NaN", "inf", "-infinity", "1e40"] {
            let msg = message(&format!("doc,label,density\na,1,{bad}\n"));
            assert!(
                msg.contains(&format!(
                    "column \"density\": \"{bad}\" is not a finite number"
                )),
                "{msg}"
            );
        }
    }

    #[test]
    fn empty_and_invalid_labels_are_errors_naming_the_row() {
        let msg = message("doc,label,density\na,1,0.5\na,,0.5\n");
        assert!(
            msg.starts_with("row 2 (line 3), column \"label\": empty label"),
            "{msg}"
        );
        let msg = message("doc,label,density\na,2,0.5\n");
        assert!(msg.contains("\"2\" is not a label"), "{msg}");
    }

    #[test]
    fn a_row_with_too_few_fields_is_an_error_naming_the_row() {
        let msg = message("doc,label,density\na,1,0.5\na,1\n");
        assert_eq!(msg, "row 2 (line 3): 2 fields, but the header has 3");
    }

    #[test]
    fn an_empty_file_or_a_duplicated_column_is_an_error() {
        assert!(message("").contains("empty file"));
        assert!(message("doc,label,f,f\n").contains("\"f\" appears twice"));
    }

    #[test]
    fn a_missing_file_is_an_error_naming_it() {
        let err = read_labelled_csv(Path::new("/nonexistent/x.csv"), None).unwrap_err();
        assert!(
            err.to_string()
                .starts_with("/nonexistent/x.csv: cannot open"),
            "{err}"
        );
    }

    #[test]
    fn long_values_are_shortened_in_messages() {
        let long = "z".repeat(100);
        let msg = message(&format!("doc,label,f\na,1,{long}\n"));
        assert!(msg.contains(&format!("\"{}...\"", "z".repeat(40))), "{msg}");
    }

    #[test]
    fn select_keeps_rows_in_the_given_order() {
        let d = read(GOOD, None).unwrap();
        let s = d.select(&[2, 0]);
        assert_eq!(s.y, [true, true]);
        assert_eq!(s.docs, ["p2", "p1"]);
        assert_eq!(s.x.row(0).to_vec(), [0.1, 4.0]);
    }
}
