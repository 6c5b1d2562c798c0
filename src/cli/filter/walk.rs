//! The inputs named on the command line, with directories walked for `--recursive`.

use std::ffi::OsStr;
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

/// Whether a file name is that of a page: `.html`, `.htm`, `.html.gz` or `.htm.gz`, in any
/// case, with something before the extension. The name need not be UTF-8.
pub fn is_page(name: &OsStr) -> bool {
    has_extension(name, &[".html", ".htm"])
}

/// Whether a file name is that of a JSON lines file: `.jsonl` or `.ndjson`, gzipped or not,
/// in any case.
pub fn is_jsonl(name: &OsStr) -> bool {
    has_extension(name, &[".jsonl", ".ndjson"])
}

fn has_extension(name: &OsStr, extensions: &[&str]) -> bool {
    let lower = name.as_encoded_bytes().to_ascii_lowercase();
    let lower = lower.strip_suffix(b".gz").unwrap_or(&lower);
    extensions
        .iter()
        .any(|ext| lower.len() > ext.len() && lower.ends_with(ext.as_bytes()))
}

/// The inputs, in order: each argument as it is, or, with `recursive`, the files below each
/// directory argument whose name `wanted` accepts, sorted by name at every level. Symbolic
/// links to files are followed; symbolic links to directories are not (they could form a
/// cycle).
pub fn expand(args: Vec<PathBuf>, recursive: bool, wanted: fn(&OsStr) -> bool) -> Vec<Found> {
    let mut found = Vec::new();
    for arg in args {
        if recursive && arg.as_os_str() != "-" && arg.is_dir() {
            walk(&arg, Path::new(""), wanted, &mut found);
        } else {
            let out_name = PathBuf::from(super::stem(&arg));
            found.push(Found::Page {
                path: arg,
                out_name,
            });
        }
    }
    found
}

fn walk(dir: &Path, below: &Path, wanted: fn(&OsStr) -> bool, found: &mut Vec<Found>) {
    let entries = fs::read_dir(dir).and_then(|entries| {
        let mut all = entries.collect::<io::Result<Vec<fs::DirEntry>>>()?;
        all.sort_by_key(|e| e.file_name());
        Ok(all)
    });
    let entries = match entries {
        Ok(entries) => entries,
        Err(error) => {
            found.push(Found::Unreadable {
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
            walk(&path, &below.join(&name), wanted, found);
        } else if wanted(&name) && (kind.is_file() || path.is_file()) {
            let out_name = below.join(super::stem(&path));
            found.push(Found::Page { path, out_name });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pages_are_recognised_by_their_extension_in_any_case() {
        let os = OsStr::new;
        for name in ["a.html", "a.HTM", "a.html.gz", "b.Htm.GZ"] {
            assert!(is_page(os(name)), "{name}");
        }
        for name in [".html", "a.txt", "a.gz", "html", "a.xhtml.zip"] {
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
        let found = expand(vec![root.to_path_buf(), PathBuf::from("-")], true, is_page);
        let names: Vec<String> = found
            .iter()
            .map(|f| match f {
                Found::Page { out_name, .. } => out_name.display().to_string(),
                Found::Unreadable { path, .. } => panic!("{}", path.display()),
            })
            .collect();
        assert_eq!(names, ["a/b/c", "a/z", "b", "c", "stdin"]);
    }
}
