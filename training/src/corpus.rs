//! Corpora of pages with their gold main text, for labelling and evaluation.
//!
//! Two layouts are read:
//! - the layout of the WCXB benchmark: `html/NNNN.html.gz`, `ground-truth/NNNN.json`
//!   (the gold text in `ground_truth.main_content`, the page type in
//!   `_internal.page_type.primary`, the gold metadata in `ground_truth.title`, `.author`
//!   and `.publish_date`, the page's URL in `url`) and `metadata.json` (domain and page
//!   type per id);
//! - a plain folder of `NAME.html`, `NAME.htm` or `NAME.html.gz` pages, each with its gold
//!   text in `NAME.txt` beside it (pages without one are skipped and counted);
//! - the layout of Mozilla Readability's test pages: one folder per page, `NAME/source.html`
//!   with the reference extraction in `NAME/expected.html`. The gold text is the text of
//!   `expected.html` as the line splitter reads it (each block element on its own line);
//!   folders without `expected.html` are skipped and counted. The expected metadata, in
//!   `NAME/expected-metadata.json` when there is one, is the page's [`GoldMeta`].
//!
//! ```
//! let dir = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/..")).join("data/samples");
//! let corpus = mainline_training::corpus::Corpus::open(&dir)?;
//! assert!(corpus.pages.iter().any(|p| p.id == "article"));
//! # Ok::<(), mainline::Error>(())
//! ```

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

use serde_json::Value;

use mainline::{Error, Result};

/// One page of a corpus.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Page {
    /// The page's id (file stem).
    pub id: String,
    /// Path of the HTML (plain or gzip).
    pub html: PathBuf,
    /// The gold main text.
    pub gold: String,
    /// The group the page belongs to for cross-validation: its site (domain) when known,
    /// else its id.
    pub group: String,
    /// The page type (article, forum, product, …) when known.
    pub page_type: Option<String>,
    /// The URL the page was fetched from, when the corpus records it (WCXB's ground truth
    /// `url`).
    pub url: Option<String>,
    /// The page's gold metadata, when the corpus has it (WCXB's ground truth `title`,
    /// `author` and `publish_date`; Readability's `expected-metadata.json`).
    pub meta: Option<GoldMeta>,
}

/// A page's gold metadata: each field `None` when the corpus gives none for the page.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct GoldMeta {
    /// The title.
    pub title: Option<String>,
    /// The author(s) or byline.
    pub author: Option<String>,
    /// The publication date (or date and time), as the corpus writes it.
    pub published: Option<String>,
}

impl GoldMeta {
    /// WCXB's `ground_truth` fields `title`, `author` and `publish_date`, where the
    /// string `"None"` (as well as `null` or an empty string) means none.
    fn wcxb(gt: Option<&Value>) -> Option<GoldMeta> {
        let gt = gt?;
        let field = |k: &str| {
            gt.get(k)
                .and_then(Value::as_str)
                .map(str::trim)
                .filter(|v| !v.is_empty() && *v != "None")
                .map(String::from)
        };
        Some(GoldMeta {
            title: field("title"),
            author: field("author"),
            published: field("publish_date"),
        })
    }

    /// Readability's `expected-metadata.json`: `title`, `byline` and `publishedTime`.
    fn readability(json: &Value) -> GoldMeta {
        let field = |k: &str| {
            json.get(k)
                .and_then(Value::as_str)
                .map(str::trim)
                .filter(|v| !v.is_empty())
                .map(String::from)
        };
        GoldMeta {
            title: field("title"),
            author: field("byline"),
            published: field("publishedTime"),
        }
    }
}

/// A set of pages with gold text.
#[derive(Debug, Clone, Default)]
pub struct Corpus {
    /// The pages, sorted by id.
    pub pages: Vec<Page>,
    /// HTML files skipped because they had no gold text (no `.txt` beside them, no
    /// ground-truth file, or a ground truth whose main content is null).
    pub skipped: Vec<PathBuf>,
}

fn corpus_err(path: &Path, message: impl Into<String>) -> Error {
    Error::Corpus {
        path: path.to_path_buf(),
        message: message.into(),
    }
}

impl Corpus {
    /// Reads the corpus in `dir`, in either layout.
    ///
    /// # Errors
    /// [`Error::Corpus`] when `dir` is not a directory, has no pages, or a ground-truth file
    /// is not valid.
    pub fn open(dir: &Path) -> Result<Corpus> {
        if !dir.is_dir() {
            return Err(corpus_err(dir, "not a directory"));
        }
        let corpus = if dir.join("html").is_dir() && dir.join("ground-truth").is_dir() {
            Self::open_wcxb(dir)?
        } else if has_page_folders(dir)? {
            Self::open_page_folders(dir)?
        } else {
            Self::open_folder(dir)?
        };
        if corpus.pages.is_empty() {
            return Err(corpus_err(
                dir,
                "no pages with gold text found (expected html/ + ground-truth/, NAME.html files \
                 with NAME.txt beside them, or NAME/source.html with NAME/expected.html)",
            ));
        }
        Ok(corpus)
    }

    fn open_wcxb(dir: &Path) -> Result<Corpus> {
        let meta_path = dir.join("metadata.json");
        let metadata: Value = if meta_path.exists() {
            let text = fs::read_to_string(&meta_path)
                .map_err(|e| corpus_err(&meta_path, e.to_string()))?;
            serde_json::from_str(&text).map_err(|e| corpus_err(&meta_path, e.to_string()))?
        } else {
            Value::Null
        };
        let mut htmls: BTreeMap<String, PathBuf> = BTreeMap::new();
        let html_dir = dir.join("html");
        for entry in fs::read_dir(&html_dir).map_err(|e| corpus_err(&html_dir, e.to_string()))? {
            let path = entry
                .map_err(|e| corpus_err(&html_dir, e.to_string()))?
                .path();
            if let Some(id) = page_stem(&path) {
                htmls.insert(id, path);
            }
        }
        let mut corpus = Corpus::default();
        for (id, html) in htmls {
            let gt = dir.join("ground-truth").join(format!("{id}.json"));
            if !gt.exists() {
                corpus.skipped.push(html);
                continue;
            }
            let text = fs::read_to_string(&gt).map_err(|e| corpus_err(&gt, e.to_string()))?;
            let json: Value =
                serde_json::from_str(&text).map_err(|e| corpus_err(&gt, e.to_string()))?;
            let gold = match json.pointer("/ground_truth/main_content") {
                Some(Value::String(s)) => s.clone(),
                // A page whose ground truth has no main content cannot be scored.
                Some(Value::Null) | None => {
                    corpus.skipped.push(html);
                    continue;
                }
                Some(_) => {
                    return Err(corpus_err(&gt, "ground_truth.main_content is not a string"));
                }
            };
            let meta = metadata.pointer(&format!("/files/{id}"));
            let page_type = meta
                .and_then(|m| m.get("page_type"))
                .or_else(|| json.pointer("/_internal/page_type/primary"))
                .and_then(Value::as_str)
                .map(String::from);
            let group = meta
                .and_then(|m| m.get("domain"))
                .and_then(Value::as_str)
                .map(String::from)
                .or_else(|| json.get("url").and_then(Value::as_str).and_then(host))
                .unwrap_or_else(|| id.clone());
            corpus.pages.push(Page {
                id,
                html,
                gold,
                group,
                page_type,
                url: json.get("url").and_then(Value::as_str).map(String::from),
                meta: GoldMeta::wcxb(json.get("ground_truth")),
            });
        }
        Ok(corpus)
    }

    fn open_folder(dir: &Path) -> Result<Corpus> {
        let mut corpus = Corpus::default();
        for html in sorted_entries(dir)? {
            let Some(id) = page_stem(&html) else { continue };
            let gold_path = html.with_file_name(format!("{id}.txt"));
            match fs::read_to_string(&gold_path) {
                Ok(gold) => corpus.pages.push(Page {
                    group: id.clone(),
                    id,
                    html,
                    gold,
                    page_type: None,
                    url: None,
                    meta: None,
                }),
                Err(_) => corpus.skipped.push(html),
            }
        }
        Ok(corpus)
    }

    fn open_page_folders(dir: &Path) -> Result<Corpus> {
        let mut corpus = Corpus::default();
        for sub in sorted_entries(dir)? {
            let html = sub.join("source.html");
            if !html.is_file() {
                continue;
            }
            let expected = sub.join("expected.html");
            let Ok(bytes) = fs::read(&expected) else {
                corpus.skipped.push(html);
                continue;
            };
            let gold = html_text(&bytes).map_err(|e| corpus_err(&expected, e.to_string()))?;
            let id = sub
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            let meta_path = sub.join("expected-metadata.json");
            let meta = match fs::read_to_string(&meta_path) {
                Ok(text) => {
                    let json: Value = serde_json::from_str(&text)
                        .map_err(|e| corpus_err(&meta_path, e.to_string()))?;
                    Some(GoldMeta::readability(&json))
                }
                Err(_) => None,
            };
            corpus.pages.push(Page {
                group: id.clone(),
                id,
                html,
                gold,
                page_type: None,
                url: None,
                meta,
            });
        }
        Ok(corpus)
    }

    /// The distinct page types, sorted.
    pub fn page_types(&self) -> Vec<String> {
        let mut t: Vec<String> = self
            .pages
            .iter()
            .filter_map(|p| p.page_type.clone())
            .collect();
        t.sort();
        t.dedup();
        t
    }
}

/// The paths in `dir`, sorted.
fn sorted_entries(dir: &Path) -> Result<Vec<PathBuf>> {
    let mut entries: Vec<PathBuf> = fs::read_dir(dir)
        .map_err(|e| corpus_err(dir, e.to_string()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .collect();
    entries.sort();
    Ok(entries)
}

/// Whether `dir` holds page folders (`NAME/source.html`) rather than page files.
fn has_page_folders(dir: &Path) -> Result<bool> {
    Ok(sorted_entries(dir)?
        .iter()
        .any(|sub| sub.join("source.html").is_file()))
}

/// The text of an HTML document or fragment as the line splitter reads it: one line per
/// block element, lines without text left out.
fn html_text(bytes: &[u8]) -> Result<String> {
    let mut splitter = mainline::internals::lines::Splitter::new();
    splitter.write(bytes)?;
    splitter.end()?;
    let mut text = String::new();
    while let Some(line) = splitter.next_line() {
        if line.text.trim().is_empty() {
            continue;
        }
        if !text.is_empty() {
            text.push('\n');
        }
        text.push_str(&line.text);
    }
    Ok(text)
}

/// The id of an HTML page file: its name without `.gz` and `.html`/`.htm`, or `None` when
/// the file is not an HTML page.
pub fn page_stem(path: &Path) -> Option<String> {
    let name = path.file_name()?.to_str()?;
    let name = name.strip_suffix(".gz").unwrap_or(name);
    for ext in [".html", ".htm"] {
        if let Some(stem) = name.strip_suffix(ext) {
            if !stem.is_empty() {
                return Some(stem.to_string());
            }
        }
    }
    None
}

fn host(url: &str) -> Option<String> {
    let rest = url.split_once("://")?.1;
    let host = rest.split(['/', '?', '#']).next()?;
    let host = host.rsplit_once('@').map_or(host, |(_, h)| h);
    let host = host.split(':').next()?;
    let host = host.strip_prefix("www.").unwrap_or(host);
    (!host.is_empty()).then(|| host.to_ascii_lowercase())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn page_stems_accept_html_and_gzip_only() {
        assert_eq!(
            page_stem(Path::new("a/0001.html.gz")).as_deref(),
            Some("0001")
        );
        assert_eq!(page_stem(Path::new("x.htm")).as_deref(), Some("x"));
        assert_eq!(page_stem(Path::new("x.txt")), None);
        assert_eq!(page_stem(Path::new(".html")), None);
    }

    #[test]
    fn hosts_drop_scheme_port_credentials_and_www() {
        assert_eq!(
            host("https://www.Example.com:8080/a?b").as_deref(),
            Some("example.com")
        );
        assert_eq!(
            host("http://u:p@news.site.org/x").as_deref(),
            Some("news.site.org")
        );
        assert_eq!(host("nonsense"), None);
    }

    #[test]
    fn a_wcxb_layout_is_read_with_groups_and_types() {
        let dir = tempfile::tempdir().unwrap();
        fs::create_dir(dir.path().join("html")).unwrap();
        fs::create_dir(dir.path().join("ground-truth")).unwrap();
        fs::write(dir.path().join("html/0001.html.gz"), b"").unwrap();
        fs::write(dir.path().join("html/0002.html.gz"), b"").unwrap();
        fs::write(
            dir.path().join("ground-truth/0001.json"),
            r#"{"url":"https://www.a.com/x","ground_truth":{"main_content":"Gold."},"_internal":{"page_type":{"primary":"forum"}}}"#,
        )
        .unwrap();
        let c = Corpus::open(dir.path()).unwrap();
        assert_eq!(c.pages.len(), 1);
        assert_eq!(c.pages[0].group, "a.com");
        assert_eq!(c.pages[0].page_type.as_deref(), Some("forum"));
        assert_eq!(c.pages[0].gold, "Gold.");
        assert_eq!(c.skipped.len(), 1);
    }

    #[test]
    fn page_folders_take_the_text_of_the_expected_extraction() {
        let dir = tempfile::tempdir().unwrap();
        for name in ["a", "b"] {
            fs::create_dir(dir.path().join(name)).unwrap();
            fs::write(dir.path().join(name).join("source.html"), b"<p>x</p>").unwrap();
        }
        fs::write(
            dir.path().join("a/expected.html"),
            "<div><h1>Title</h1><p>One <b>para</b>graph.</p><script>no()</script><p>Two.</p></div>",
        )
        .unwrap();
        let c = Corpus::open(dir.path()).unwrap();
        assert_eq!(c.pages.len(), 1);
        assert_eq!(c.pages[0].id, "a");
        assert_eq!(c.pages[0].html, dir.path().join("a/source.html"));
        assert_eq!(c.pages[0].gold, "Title\nOne paragraph.\nTwo.");
        assert_eq!(c.skipped, [dir.path().join("b/source.html")]);
    }

    #[test]
    fn a_folder_without_pages_is_an_error() {
        let dir = tempfile::tempdir().unwrap();
        let err = Corpus::open(dir.path()).unwrap_err();
        assert!(err.to_string().contains("no pages with gold text"), "{err}");
    }
}
