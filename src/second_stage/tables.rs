//! Data tables decided as tables: a row is kept or dropped whole, and a kept table is kept
//! whole.
//!
//! The model scores each line on its own, and the cells of a table are lines: a release
//! table's dates are prose-like and kept while the version numbers beside them are links
//! and dropped, leaving rows with holes (`|  | April 2014 |`). A data table is recognised
//! by its rows' repeated shape: at least [`TABLE_MIN_ROWS`] rows whose text sits directly
//! in their cells, most of them ([`TABLE_SHAPE_SHARE`]) with the same number of cells, at
//! least two. Layout tables (one cell per row, or a menu cell beside a content cell whose
//! text lies in paragraphs and lists) do not look like that. In a data table, outside the
//! navigation, footer and aside landmarks:
//!
//! - a row of which a cell is kept is kept whole;
//! - once at least [`TABLE_KEEP_SHARE`] of its rows are kept, every row is;
//! - a table of which nothing is kept is kept whole when the lines on either side of it
//!   (of the tables around it, when it is nested in others) are kept text: a table in the
//!   middle of an article.
//!
//! The rule only adds lines, only to tables of which the decisions kept something, and
//! reads nothing but the lines' enclosing elements ([`crate::lines::Line::path`]) and
//! whether their text sits in a table cell, which the extractor and training both know;
//! it is applied after the model's decisions and the groups of [`super::corrections`] (see
//! [`super::corrections::apply_corrections`]).

use std::collections::{HashMap, HashSet};

/// Tables with fewer rows than this are left as decided.
pub const TABLE_MIN_ROWS: usize = 3;

/// A data table's rows: at least this share of them has the most common number of cells.
pub const TABLE_SHAPE_SHARE: f64 = 0.75;

/// A data table is kept whole once at least this share of its rows is kept.
pub const TABLE_KEEP_SHARE: f64 = 0.2;

/// Where a line sits in a table: the serial numbers of its cell, row and table (or row
/// group: `<thead>`, `<tbody>`), when its text sits in a cell ([`cell_of`]).
pub type Cell = Option<[u32; 3]>;

/// What [`cell_of`] reads of a line: its nearest line-breaking element is a table element
/// (`tag_cell`), or a paragraph or division (`tag_block`), and it lies in a `<td>` or
/// `<th>` (`in_cell`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Place {
    /// The nearest line-breaking element is `td`, `th`, `tr` or `table`.
    pub tag_cell: bool,
    /// The nearest line-breaking element is a `p` or a division (`div`, `section`, ...).
    pub tag_block: bool,
    /// The line lies in a `td` or `th`.
    pub in_cell: bool,
}

/// The [`Cell`] of a line in a table cell: for text directly in the cell, its path's first
/// three elements (the cell, its row, the row's table or row group); for text in a
/// paragraph or division in a cell, the three above that block (the cell when the block
/// is directly in it, as in the tables office suites and wikis write; a block further
/// down gives rows of a shape no data table has). `None` for other lines.
#[inline]
pub fn cell_of(place: Place, path: &[u32; crate::lines::PATH_LEVELS]) -> Cell {
    let from = match place {
        Place {
            in_cell: true,
            tag_cell: true,
            ..
        } => 0,
        Place {
            in_cell: true,
            tag_block: true,
            ..
        } => 1,
        _ => return None,
    };
    let p = &path[from..from + 3];
    (!p.contains(&crate::lines::NO_ELEMENT)).then(|| [p[0], p[1], p[2]])
}

/// Keeps the rows of data tables whole (see the [module documentation](self)). `cells`
/// are the lines' [`Cell`]s, `body` their text outside the landmarks
/// ([`super::corrections::body_bytes`]: lines without are never added) and `keep` the
/// decisions. Returns whether anything was added.
///
/// # Panics
/// When the slices differ in length.
pub fn whole_tables(cells: &[Cell], body: &[u64], keep: &mut [bool]) -> bool {
    assert!(
        cells.len() == body.len() && body.len() == keep.len(),
        "one value per line"
    );
    /// A row: its cells (serial numbers, in order, each once) and whether a line of it
    /// with body text is kept.
    #[derive(Default)]
    struct Row {
        cells: Vec<u32>,
        kept: bool,
    }
    /// A table: its rows in order, and its first and last line.
    struct Table {
        rows: Vec<(u32, Row)>,
        first: usize,
        last: usize,
    }
    let mut tables: HashMap<u32, Table> = HashMap::new();
    for (i, (c, (&b, &k))) in cells.iter().zip(body.iter().zip(keep.iter())).enumerate() {
        let Some([cell, row, table]) = *c else {
            continue;
        };
        let t = tables.entry(table).or_insert(Table {
            rows: Vec::new(),
            first: i,
            last: i,
        });
        t.last = i;
        if t.rows.last().is_none_or(|r| r.0 != row) {
            t.rows.push((row, Row::default()));
        }
        let r = &mut t.rows.last_mut().expect("pushed").1;
        if r.cells.last() != Some(&cell) {
            r.cells.push(cell);
        }
        r.kept |= k && b > 0;
    }
    // Whether the lines next to the run of table lines around `first..=last` are kept
    // text outside the landmarks.
    let kept_text = |i: usize| keep[i] && body[i] > 0;
    let enclosed = |first: usize, last: usize| {
        let before = (0..first).rev().find(|&i| cells[i].is_none());
        let after = (last + 1..cells.len()).find(|&i| cells[i].is_none());
        before.is_some_and(kept_text) && after.is_some_and(kept_text)
    };
    let mut whole: HashSet<u32> = HashSet::new();
    let mut kept_rows: HashSet<u32> = HashSet::new();
    for (&id, t) in &tables {
        if !is_data_table(t.rows.iter().map(|r| r.1.cells.len())) {
            continue;
        }
        let kept = t.rows.iter().filter(|r| r.1.kept).count();
        if kept > 0 && kept as f64 >= TABLE_KEEP_SHARE * t.rows.len() as f64
            || kept == 0 && enclosed(t.first, t.last)
        {
            whole.insert(id);
        } else {
            kept_rows.extend(t.rows.iter().filter(|r| r.1.kept).map(|r| r.0));
        }
    }
    let mut changed = false;
    for ((c, &b), k) in cells.iter().zip(body).zip(keep.iter_mut()) {
        let Some([_, row, table]) = *c else {
            continue;
        };
        if !*k && b > 0 && (whole.contains(&table) || kept_rows.contains(&row)) {
            *k = true;
            changed = true;
        }
    }
    changed
}

/// Whether rows of these numbers of cells have a data table's shape: at least
/// [`TABLE_MIN_ROWS`] rows, at least [`TABLE_SHAPE_SHARE`] of them with the most common
/// number of cells, which is at least two.
fn is_data_table(widths: impl Iterator<Item = usize>) -> bool {
    let mut counts: HashMap<usize, usize> = HashMap::new();
    let mut rows = 0;
    for w in widths {
        *counts.entry(w).or_default() += 1;
        rows += 1;
    }
    let Some((&width, &n)) = counts.iter().max_by_key(|&(&w, &n)| (n, w)) else {
        return false;
    };
    rows >= TABLE_MIN_ROWS && width >= 2 && n as f64 >= TABLE_SHAPE_SHARE * rows as f64
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Lines of a table `t`, one per cell, `rows` rows of `width` cells.
    fn table(t: u32, rows: u32, width: u32) -> Vec<Cell> {
        let mut v = Vec::new();
        for r in 0..rows {
            for c in 0..width {
                v.push(Some([t * 1000 + r * 10 + c, t * 1000 + r * 10 + 9, t]));
            }
        }
        v
    }

    #[test]
    fn a_row_with_a_kept_cell_is_kept_whole() {
        // Ten rows of a version and a date: the date of one row kept (less than a fifth
        // of the rows), so that row is kept whole and the others stay dropped.
        let cells = table(1, 10, 2);
        let body = vec![10; 20];
        let mut keep = vec![false; 20];
        keep[1] = true;
        let mut expected = keep.clone();
        expected[0] = true;
        assert!(whole_tables(&cells, &body, &mut keep));
        assert_eq!(keep, expected);
    }

    #[test]
    fn a_table_kept_in_a_fifth_of_its_rows_is_kept_whole() {
        let cells = table(1, 5, 3);
        let body = vec![10; 15];
        let mut keep = vec![false; 15];
        keep[4] = true; // one row of five
        assert!(whole_tables(&cells, &body, &mut keep));
        assert_eq!(keep, vec![true; 15]);
    }

    #[test]
    fn landmark_cells_and_untouched_tables_stay_as_decided() {
        let mut cells = table(1, 4, 2);
        cells.extend(table(2, 4, 2));
        let mut body = vec![10; 16];
        body[3] = 0; // a cell in a landmark
        let mut keep = vec![false; 16];
        keep[0] = true;
        assert!(whole_tables(&cells, &body, &mut keep));
        let mut expected = vec![true; 8];
        expected[3] = false;
        expected.extend([false; 8]);
        assert_eq!(keep, expected);
        // Nothing kept: nothing added.
        let mut keep = vec![false; 16];
        assert!(!whole_tables(&cells, &body, &mut keep));
    }

    #[test]
    fn a_dropped_table_between_kept_text_is_kept_whole() {
        let mut cells = vec![None];
        cells.extend(table(1, 3, 2));
        cells.push(None);
        let body = vec![10; 8];
        let mut keep = vec![true, false, false, false, false, false, false, true];
        assert!(whole_tables(&cells, &body, &mut keep));
        assert_eq!(keep, vec![true; 8]);
        // Text dropped on one side: left as decided.
        let mut keep = vec![true, false, false, false, false, false, false, false];
        assert!(!whole_tables(&cells, &body, &mut keep));
        // A table at the end of the block: nothing after it.
        let cells = &cells[..7];
        let mut keep = vec![true, false, false, false, false, false, false];
        assert!(!whole_tables(cells, &body[..7], &mut keep));
    }

    #[test]
    fn layout_tables_are_not_data_tables() {
        // One cell per row.
        let cells = table(1, 6, 1);
        let mut keep = vec![false; 6];
        keep[0] = true;
        assert!(!whole_tables(&cells, &[10; 6], &mut keep));
        // Two rows: a layout's menu beside its content.
        let cells = table(1, 2, 2);
        let mut keep = vec![false, true, false, false];
        assert!(!whole_tables(&cells, &[10; 4], &mut keep));
        // Rows of every width.
        let mut cells = table(1, 1, 2);
        cells.extend(
            table(1, 1, 3)
                .into_iter()
                .map(|c| c.map(|[a, _, t]| [a + 100, 1, t])),
        );
        cells.extend(
            table(1, 1, 4)
                .into_iter()
                .map(|c| c.map(|[a, _, t]| [a + 200, 2, t])),
        );
        cells.extend(
            table(1, 1, 5)
                .into_iter()
                .map(|c| c.map(|[a, _, t]| [a + 300, 3, t])),
        );
        let n = cells.len();
        let mut keep = vec![false; n];
        keep[0] = true;
        assert!(!whole_tables(&cells, &vec![10; n], &mut keep));
        // Lines outside cells are never touched.
        let mut cells = table(1, 3, 2);
        cells.push(None);
        let mut keep = vec![true, false, false, false, false, false, false];
        assert!(whole_tables(&cells, &[10; 7], &mut keep));
        assert_eq!(keep, [true, true, true, true, true, true, false]);
    }

    #[test]
    fn a_cell_is_a_line_in_a_td_or_th_or_in_a_block_in_one() {
        let mut path = [crate::lines::NO_ELEMENT; crate::lines::PATH_LEVELS];
        path[..4].copy_from_slice(&[8, 7, 6, 5]);
        let place = |tag_cell, tag_block, in_cell| Place {
            tag_cell,
            tag_block,
            in_cell,
        };
        assert_eq!(cell_of(place(true, false, true), &path), Some([8, 7, 6]));
        // A paragraph in a cell: the cell is the paragraph's parent.
        assert_eq!(cell_of(place(false, true, true), &path), Some([7, 6, 5]));
        // A list item in a cell, a table's own text, a cell at the top of the page.
        assert_eq!(cell_of(place(false, false, true), &path), None);
        assert_eq!(cell_of(place(true, false, false), &path), None);
        path[3] = crate::lines::NO_ELEMENT;
        assert_eq!(cell_of(place(false, true, true), &path), None);
    }
}
