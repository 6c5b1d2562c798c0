//! The inputs named on the command line, with directories walked for `--recursive`, and
//! the names of their outputs ([`stem`]).

use mainline::internals::input::looks_like_html;
use std::ffi::{OsStr, OsString};
use std::fs;
use std::io;
use std::path::{Path, PathBuf};

/// One input to filter.
#[derive(Debug)]
pub enum Found {
    /// A page (or `-`), and the name of its output under `--out-dir` without the
    /// extension: the stem of a file named on the command line, or for a file found by
    /// walking a directory its path below that directory with the stem as the last part.
    Page { path: PathBuf, out_name: PathBuf },
    /// A directory that could not be read while walking.
    Unreadable { path: PathBuf, error: io::Error },
}

/// Whether a file name is that of a page: `.html`, `.htm` or `.xhtml`, gzipped or not, in
/// any case, with something before the extension; or such a name followed by a query string,
/// as tools that save pages write them (`index.html?p=2`). The name need not be UTF-8.
pub fn is_page(name: &OsStr) -> bool {
    let bytes = name.as_encoded_bytes();
    let before_query = match bytes.iter().position(|&b| b == b'?') {
        Some(q) => &bytes[..q],
        None => bytes,
    };
    has_extension(before_query, &[".html", ".htm", ".xhtml"])
}

/// Whether a file name is that of a JSON lines file: `.jsonl` or `.ndjson`, gzipped or not,
/// in any case.
pub fn is_jsonl(name: &OsStr) -> bool {
    has_extension(name.as_encoded_bytes(), &[".jsonl", ".ndjson"])
}

fn has_extension(name: &[u8], extensions: &[&str]) -> bool {
    let lower = name.to_ascii_lowercase();
    let lower = lower.strip_suffix(b".gz").unwrap_or(&lower);
    extensions
        .iter()
        .any(|ext| lower.len() > ext.len() && lower.ends_with(ext.as_bytes()))
}

/// Whether a file name has no extension (no `.` after its first byte).
fn has_no_extension(name: &OsStr) -> bool {
    !name.as_encoded_bytes().iter().skip(1).any(|&b| b == b'.')
}

/// Whether the file starts as an HTML document does: after white space (and a byte order
/// mark), one of the tags of the HTML pattern of the WHATWG MIME Sniffing Standard
/// (`<!DOCTYPE HTML`, `<html`, `<head`, `<body`, `<p`, `<!--`, …) followed by a space or
/// `>`. Reads at most 512 bytes.
pub fn sniffs_as_html(path: &Path) -> bool {
    use std::io::Read;
    let mut head = Vec::with_capacity(512);
    let read = fs::File::open(path).and_then(|f| f.take(512).read_to_end(&mut head));
    read.is_ok() && looks_like_html(&head)
}

/// Which files a directory walk takes.
#[derive(Clone, Copy)]
pub enum Wanted {
    /// Pages: names [`is_page`] accepts, and files without an extension that
    /// [`sniffs_as_html`].
    Pages,
    /// Files whose name the function accepts.
    Named(fn(&OsStr) -> bool),
}

impl Wanted {
    fn takes(self, path: &Path, name: &OsStr) -> bool {
        match self {
            Wanted::Pages => is_page(name) || (has_no_extension(name) && sniffs_as_html(path)),
            Wanted::Named(f) => f(name),
        }
    }
}

/// What [`expand`] found.
#[derive(Debug, Default)]
pub struct Expanded {
    /// The inputs, in order.
    pub found: Vec<Found>,
    /// The files below the directories walked that were not taken, in order.
    pub skipped: Vec<PathBuf>,
}

/// The inputs, in order: each argument as it is, or, with `recursive`, the files below each
/// directory argument that `wanted` takes, sorted by name at every level. Symbolic links to
/// files are followed; symbolic links to directories are not (they could form a cycle).
pub fn expand(args: Vec<PathBuf>, recursive: bool, wanted: Wanted) -> Expanded {
    let mut out = Expanded::default();
    for arg in args {
        if recursive && arg.as_os_str() != "-" && arg.is_dir() {
            walk(&arg, Path::new(""), wanted, &mut out);
        } else {
            let out_name = PathBuf::from(stem(&arg));
            out.found.push(Found::Page {
                path: arg,
                out_name,
            });
        }
    }
    out
}

/// The skipped files counted by extension, most first: `3 files (.txt 2, .json 1)`.
pub fn summary(skipped: &[PathBuf]) -> String {
    let mut counts: Vec<(String, usize)> = Vec::new();
    for path in skipped {
        let ext = match path.extension() {
            Some(e) => format!(".{}", e.to_string_lossy().to_ascii_lowercase()),
            None => "no extension".to_string(),
        };
        match counts.iter_mut().find(|(e, _)| *e == ext) {
            Some((_, n)) => *n += 1,
            None => counts.push((ext, 1)),
        }
    }
    counts.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    let shown: Vec<String> = counts
        .iter()
        .take(5)
        .map(|(e, n)| format!("{e} {n}"))
        .collect();
    let more = if counts.len() > 5 { ", …" } else { "" };
    let files = if skipped.len() == 1 { "file" } else { "files" };
    format!("{} {files} ({}{more})", skipped.len(), shown.join(", "))
}

fn walk(dir: &Path, below: &Path, wanted: Wanted, out: &mut Expanded) {
    let entries = fs::read_dir(dir).and_then(|entries| {
        let mut all = entries.collect::<io::Result<Vec<fs::DirEntry>>>()?;
        all.sort_by_key(|e| e.file_name());
        Ok(all)
    });
    let entries = match entries {
        Ok(entries) => entries,
        Err(error) => {
            out.found.push(Found::Unreadable {
                path: dir.to_path_buf(),
                error,
            });
            return;
        }
    };
    for entry in entries {
        let path = entry.path();
        let name = entry.file_name();
        let Ok(kind) = entry.file_type() else {
            continue;
        };
        if kind.is_dir() {
            walk(&path, &below.join(&name), wanted, out);
        } else if !(kind.is_file() || path.is_file()) {
            // Sockets, devices, dangling links: not files to read.
            out.skipped.push(path);
        } else if wanted.takes(&path, &name) {
            let out_name = below.join(stem(&path));
            out.found.push(Found::Page { path, out_name });
        } else {
            out.skipped.push(path);
        }
    }
}

/// The output name of an input: its file name without `.gz`, then without `.html`/`.htm`
/// (in any case). The name is kept as the file system gave it: names that are not UTF-8
/// stay distinct.
pub(crate) fn stem(path: &Path) -> OsString {
    if path.as_os_str() == "-" {
        return OsString::from("stdin");
    }
    let Some(name) = path.file_name() else {
        return OsString::from("input");
    };
    let mut name = Path::new(name);
    if name.extension().is_some_and(|e| e == "gz") {
        name = Path::new(name.file_stem().unwrap_or(name.as_os_str()));
    }
    let is_html = |e: &std::ffi::OsStr| {
        ["html", "htm", "xhtml"]
            .iter()
            .any(|x| e.as_encoded_bytes().eq_ignore_ascii_case(x.as_bytes()))
    };
    // A page saved with its query string (`index.html?p=2`): the extension is the one
    // before the query, which stays in the name (`index?p=2`).
    if let Some((base, query)) = name.to_str().and_then(|n| n.split_once('?')) {
        let base = Path::new(base);
        if let (Some(stem), true) = (base.file_stem(), base.extension().is_some_and(is_html)) {
            let mut out = stem.to_os_string();
            out.push("?");
            out.push(query);
            return out;
        }
    }
    match name.file_stem() {
        Some(stem) if name.extension().is_some_and(is_html) => stem.to_os_string(),
        _ => name.as_os_str().to_os_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stems_drop_compression_and_html_extensions() {
        assert_eq!(stem(Path::new("a/0001.html.gz")), "0001");
        assert_eq!(stem(Path::new("page.HTM")), "page");
        assert_eq!(stem(Path::new("notes.txt")), "notes.txt");
        assert_eq!(stem(Path::new(".html")), ".html");
        assert_eq!(stem(Path::new("-")), "stdin");
    }

    #[test]
    fn stems_of_pages_saved_with_their_query_drop_the_extension_before_it() {
        assert_eq!(stem(Path::new("site/index.html?p=2")), "index?p=2");
        assert_eq!(stem(Path::new("index.HTM?a=b?c")), "index?a=b?c");
        assert_eq!(stem(Path::new("index.html?p=2.gz")), "index?p=2");
        assert_eq!(stem(Path::new("notes.txt?x=1")), "notes.txt?x=1");
        assert_eq!(stem(Path::new("index.html")), "index");
    }

    #[test]
    fn pages_are_recognised_by_their_extension_in_any_case() {
        let os = OsStr::new;
        for name in [
            "a.html",
            "a.HTM",
            "a.html.gz",
            "b.Htm.GZ",
            "c.xhtml",
            "index.html?p=2",
            "list.htm?sort=new&page=3",
        ] {
            assert!(is_page(os(name)), "{name}");
        }
        for name in [
            ".html",
            "a.txt",
            "a.gz",
            "html",
            "a.xhtml.zip",
            "?p=2",
            "a.php?x.html",
        ] {
            assert!(!is_page(os(name)), "{name}");
        }
        assert!(is_jsonl(os("part-0001.JSONL.gz")) && is_jsonl(os("x.ndjson")));
        assert!(!is_jsonl(os("x.json")) && !is_jsonl(os("a.html")));
    }

    #[test]
    fn walking_finds_pages_in_order_and_mirrors_their_paths() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        for f in [
            "b.html",
            "a/z.htm.gz",
            "a/b/c.HTML",
            "a/notes.txt",
            "c.html.gz",
        ] {
            let p = root.join(f);
            fs::create_dir_all(p.parent().unwrap()).unwrap();
            fs::write(p, "<p>x</p>").unwrap();
        }
        let expanded = expand(
            vec![root.to_path_buf(), PathBuf::from("-")],
            true,
            Wanted::Pages,
        );
        let names: Vec<String> = expanded
            .found
            .iter()
            .map(|f| match f {
                Found::Page { out_name, .. } => out_name.display().to_string(),
                Found::Unreadable { path, .. } => panic!("{}", path.display()),
            })
            .collect();
        assert_eq!(names, ["a/b/c", "a/z", "b", "c", "stdin"]);
        assert_eq!(expanded.skipped, [root.join("a/notes.txt")]);
    }

    #[test]
    fn html_is_sniffed_as_the_mime_sniffing_standard_does() {
        for head in [
            "<!DOCTYPE html>\n<p>x",
            "\u{feff}  \n<html lang=en>",
            "<HEAD>",
            "<p>text",
            "<!-- saved -->",
            "\t<Body class=x>",
        ] {
            assert!(looks_like_html(head.as_bytes()), "{head:?}");
        }
        for head in [
            "",
            "<",
            "<?xml version=\"1.0\"?>",
            "<pre>",
            "<html",
            "{\"a\": 1}",
            "Hello <p>",
            "<bx>",
        ] {
            assert!(!looks_like_html(head.as_bytes()), "{head:?}");
        }
    }
}
