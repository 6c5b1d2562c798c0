//! One page through the extractor: the page arguments of Python calls, the extractors
//! each thread keeps for its next pages, and library errors as Python exceptions.

use std::io::ErrorKind;
use std::panic::{self, AssertUnwindSafe};
use std::sync::Arc;

use mainline::internals::gzip;
use mainline::{Decision, Error, Extractor as Engine, Options, Scorer};
use pyo3::exceptions::{
    PyFileNotFoundError, PyIsADirectoryError, PyOSError, PyPermissionError, PyTypeError,
};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyString};

use crate::MainlineError;

/// How much of a page is fed to the extractor at a time; its decisions are taken out after
/// each piece, so what is held besides the page itself stays bounded.
pub(crate) const PIECE: usize = 64 * 1024;

/// A page handed over by Python: its bytes, and whether they are a decoded `str` (then
/// UTF-8, whatever a `<meta charset>` in it says).
#[derive(Clone, Copy)]
pub(crate) struct Page<'a> {
    pub(crate) bytes: &'a [u8],
    pub(crate) decoded: bool,
}

/// Runs the extractor over one page, handing each decision to `each` in document order.
///
/// Bytes are read as [`mainline::Options::extract`] reads them: gzip is recognised by its
/// magic bytes (concatenated members are one stream), the encoding is sniffed by the
/// splitter.
pub(crate) fn run(
    scorer: &Arc<dyn Scorer>,
    page: Page<'_>,
    with_features: bool,
    each: &mut dyn FnMut(Decision),
) -> mainline::Result<()> {
    with_engine(scorer, with_features, page.decoded, |ex| {
        run_on(ex, page, each)
    })
}

/// Most extractors a thread keeps for its next pages (one per scorer and setting).
const KEPT_ENGINES: usize = 4;

/// What a kept extractor was built for: its scorer (by address; the kept extractor holds
/// the scorer, so the address cannot be taken by another while it is kept), whether it
/// keeps features, whether pages are decoded `str`s.
#[derive(Clone, Copy, PartialEq, Eq)]
struct EngineKey {
    scorer: usize,
    features: bool,
    decoded: bool,
}

thread_local! {
    /// The extractors this thread has used, kept to serve its next pages: a page reuses
    /// the buffers the pages before it grew ([`Engine::reset`]) instead of allocating and
    /// filling them again. Bounded by [`KEPT_ENGINES`], the least recently used dropped.
    static ENGINES: std::cell::RefCell<Vec<(EngineKey, Engine)>> =
        const { std::cell::RefCell::new(Vec::new()) };
}

/// Runs `f` with an extractor for `scorer` and these settings: one this thread kept,
/// reset, or a new one. The extractor is kept again afterwards, unless `f` panicked (then
/// it is dropped, whatever state it was left in).
fn with_engine<T>(
    scorer: &Arc<dyn Scorer>,
    features: bool,
    decoded: bool,
    f: impl FnOnce(&mut Engine) -> T,
) -> T {
    let key = EngineKey {
        scorer: Arc::as_ptr(scorer).cast::<()>() as usize,
        features,
        decoded,
    };
    let kept = ENGINES.with_borrow_mut(|kept| {
        let i = kept.iter().position(|(k, _)| *k == key)?;
        Some(kept.remove(i).1)
    });
    let mut ex = match kept {
        Some(mut ex) => {
            ex.reset();
            ex
        }
        None => {
            let ex = Engine::new(Arc::clone(scorer)).with_features(features);
            if decoded {
                ex.with_encoding(encoding_rs::UTF_8)
            } else {
                ex
            }
        }
    };
    let out = f(&mut ex);
    ENGINES.with_borrow_mut(|kept| {
        if kept.len() >= KEPT_ENGINES {
            kept.remove(0);
        }
        kept.push((key, ex));
    });
    out
}

/// [`run`] on a given extractor, ready for a new document. Bytes are read as
/// [`mainline::Options::extract`] reads them ([`gzip::feed_page`]); the page goes to the
/// extractor in pieces of [`PIECE`] bytes, its decisions taken after each.
fn run_on(ex: &mut Engine, page: Page<'_>, each: &mut dyn FnMut(Decision)) -> mainline::Result<()> {
    let mut feed = |bytes: &[u8]| -> mainline::Result<()> {
        for piece in bytes.chunks(PIECE) {
            ex.write(piece)?;
            while let Some(d) = ex.next_decision() {
                each(d);
            }
        }
        Ok(())
    };
    if page.decoded {
        feed(page.bytes)?;
    } else {
        gzip::feed_page(page.bytes, &mut feed)?;
    }
    ex.end()?;
    while let Some(d) = ex.next_decision() {
        each(d);
    }
    Ok(())
}

/// [`run`] with a panic turned into an error: a bug in mainline must not take the
/// interpreter down.
pub(crate) fn guarded<T>(f: impl FnOnce() -> mainline::Result<T>) -> mainline::Result<T> {
    panic::catch_unwind(AssertUnwindSafe(f)).unwrap_or_else(|payload| {
        let what = payload
            .downcast_ref::<&str>()
            .map(|s| (*s).to_string())
            .or_else(|| payload.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "unknown panic".into());
        Err(Error::Other(format!(
            "internal error in mainline (please report it with the page): {what}"
        )))
    })
}

/// The kept lines of a page joined by `\n`; `""` when nothing is kept.
pub(crate) fn text_of(scorer: &Arc<dyn Scorer>, page: Page<'_>) -> mainline::Result<String> {
    guarded(|| {
        let mut out = String::new();
        run(scorer, page, false, &mut |d| {
            mainline::output::text::push_kept(&mut out, &d)
        })?;
        Ok(out)
    })
}

/// The Python exception for a library error; `name` (a URL, a page index) prefixes the
/// message as the CLI prefixes it with the file name.
pub(crate) fn py_error(e: &Error, name: Option<&str>) -> PyErr {
    let message = match name {
        Some(name) => format!("{name}: {e}"),
        None => e.to_string(),
    };
    let io = match e {
        Error::Io(io) => Some(io.kind()),
        Error::ModelFile { cause, .. } => match &**cause {
            Error::Io(io) => Some(io.kind()),
            _ => None,
        },
        _ => None,
    };
    match io {
        Some(ErrorKind::NotFound) => PyFileNotFoundError::new_err(message),
        Some(ErrorKind::PermissionDenied) => PyPermissionError::new_err(message),
        Some(ErrorKind::IsADirectory) => PyIsADirectoryError::new_err(message),
        // Corrupt or truncated gzip data is a bad page, not a failing device.
        Some(ErrorKind::InvalidData | ErrorKind::UnexpectedEof) | None => {
            MainlineError::new_err(message)
        }
        Some(_) => PyOSError::new_err(message),
    }
}

/// A page argument of a call, held while the call reads it: `bytes` as they are, `str`
/// encoded as UTF-8 (and marked as decoded).
pub(crate) struct PageArg<'py> {
    bytes: Bound<'py, PyBytes>,
    decoded: bool,
}

impl<'py> PageArg<'py> {
    /// The page `obj`, which must be `str` or `bytes`.
    pub(crate) fn new(obj: &Bound<'py, PyAny>) -> PyResult<Self> {
        if let Ok(b) = obj.cast::<PyBytes>() {
            return Ok(PageArg {
                bytes: b.clone(),
                decoded: false,
            });
        }
        if let Ok(s) = obj.cast::<PyString>() {
            return Ok(PageArg {
                bytes: s.encode_utf8()?,
                decoded: true,
            });
        }
        Err(PyTypeError::new_err(format!(
            "a page must be str or bytes, not {}",
            obj.get_type().name()?
        )))
    }

    /// The page, to be read with the GIL released.
    pub(crate) fn page(&self) -> Page<'_> {
        Page {
            bytes: self.bytes.as_bytes(),
            decoded: self.decoded,
        }
    }
}

/// The whole `Document` of a page with `options`: a decoded `str` as text, bytes as
/// [`Options::extract`] reads them (gzip undone, the encoding sniffed).
pub(crate) fn document_of(
    options: &Options,
    page: Page<'_>,
) -> mainline::Result<mainline::Document> {
    if page.decoded {
        // The bytes of a Python str are UTF-8.
        let text = std::str::from_utf8(page.bytes)
            .map_err(|e| Error::Other(format!("a str that is not UTF-8: {e}")))?;
        options.extract_str(text)
    } else {
        options.extract(page.bytes)
    }
}
