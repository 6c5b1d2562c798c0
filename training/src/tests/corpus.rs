//! The corpora that live beside the repository (`../shared/data/…`), for the `#[ignore]`d
//! corpus tests. Each is found through an environment variable first, else at its place
//! beside the repository; a test that asks for one that is not there fails, saying where it
//! looked and which variable to set, rather than passing without having read a page.

use std::io::Read;
use std::path::{Path, PathBuf};

use crate::corpus::Corpus;

/// The WCXB development pages (`html/NNNN.html.gz`, `ground-truth/NNNN.json`):
/// `MAINLINE_WCXB_DEV`, else `../shared/data/wcxb-dev`.
pub fn wcxb_dev() -> PathBuf {
    let dir = std::env::var_os("MAINLINE_WCXB_DEV")
        .map_or_else(|| beside_the_repository("wcxb-dev"), PathBuf::from);
    assert!(
        dir.join("html").is_dir() && dir.join("ground-truth").is_dir(),
        "needs the WCXB development pages in {} (html/ and ground-truth/; set \
         MAINLINE_WCXB_DEV to their folder)",
        dir.display()
    );
    dir
}

/// Mozilla Readability's test pages (`NAME/source.html`, `NAME/expected.html`):
/// `MAINLINE_READABILITY_TESTS`, else `../shared/data/readability-tests/pages`.
pub fn readability_tests() -> PathBuf {
    let dir = std::env::var_os("MAINLINE_READABILITY_TESTS").map_or_else(
        || beside_the_repository("readability-tests").join("pages"),
        PathBuf::from,
    );
    assert!(
        dir.is_dir(),
        "needs Mozilla Readability's test pages in {} (NAME/source.html and \
         NAME/expected.html; set MAINLINE_READABILITY_TESTS to their folder)",
        dir.display()
    );
    dir
}

fn beside_the_repository(name: &str) -> PathBuf {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
        .join("../shared/data")
        .join(name)
}

/// The pages of the corpus in `dir` with their gold text (pages without one are left out,
/// as `mainline eval` leaves them out).
pub fn open(dir: &Path) -> Corpus {
    let corpus = Corpus::open(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    assert!(!corpus.pages.is_empty(), "no pages in {}", dir.display());
    corpus
}

/// The bytes of a page as stored (gzip-compressed pages decompressed).
pub fn page_bytes(path: &Path) -> Vec<u8> {
    let raw = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    if !mainline::internals::gzip::is_gzip(&raw) {
        return raw;
    }
    let mut bytes = Vec::new();
    mainline::internals::gzip::strict(&raw)
        .read_to_end(&mut bytes)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    bytes
}

/// Runs `each` on every item on all cores, keeping the order of the results.
pub fn in_parallel<T: Sync, R: Send>(items: &[T], each: impl Fn(&T) -> R + Sync) -> Vec<R> {
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let chunk = items.len().div_ceil(threads).max(1);
    std::thread::scope(|scope| {
        let handles: Vec<_> = items
            .chunks(chunk)
            .map(|part| {
                let each = &each;
                scope.spawn(move || part.iter().map(each).collect::<Vec<R>>())
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().expect("a worker thread"))
            .collect()
    })
}
