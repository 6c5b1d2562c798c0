//! The library's error type.
//!
//! One enum for every fallible operation of the library. Variants carry the values a user
//! needs to fix the problem; messages never mention command-line flags (that wording belongs
//! to the binary).

use std::path::PathBuf;

/// Errors returned by mainline.
#[derive(Debug)]
#[non_exhaustive]
pub enum Error {
    /// An I/O error while reading input or writing output.
    // NOTE: transparent (the io::Error's message and source), so that a report of the
    // error chain does not print the message twice.
    Io(std::io::Error),

    /// The HTML tokenizer gave up on the input.
    Html(String),

    /// The input is not an HTML or text document (for example an image or an archive).
    NotHtml(String),

    /// A gzip stream was truncated or corrupt.
    Gzip(String),

    // ---- model files -------------------------------------------------------------------
    /// A model file could not be parsed.
    ModelFormat(String),

    /// A model file was written by an incompatible version of mainline.
    ModelVersion {
        /// Newest version this build understands.
        expected: u32,
        /// Version found in the file.
        found: u32,
    },

    /// A model expects features this build does not compute (or in another order).
    FeatureMismatch(String),

    /// Reading or writing a model file failed; `cause` is the underlying error (an
    /// [`Error::Io`], [`Error::ModelFormat`] or [`Error::ModelVersion`]). Its message is
    /// part of this one, so it is not reported again as the error's source.
    ModelFile {
        /// The file.
        path: PathBuf,
        /// What went wrong.
        cause: Box<Error>,
    },

    // ---- labelled CSV and training ------------------------------------------------------
    /// A labelled CSV file is malformed.
    Csv {
        /// The file.
        path: PathBuf,
        /// What is wrong, naming row and column where known.
        message: String,
    },

    /// Training could not proceed (for example only one class in the data).
    Training(String),

    // ---- evaluation ---------------------------------------------------------------------
    /// A corpus directory is not laid out as expected.
    Corpus {
        /// The corpus directory or file.
        path: PathBuf,
        /// What is wrong.
        message: String,
    },

    /// Anything else, with a message for the user.
    Other(String),
}

/// `Result` with [`Error`] as the error type.
pub type Result<T, E = Error> = std::result::Result<T, E>;

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Error::Io(e) => e.fmt(f),
            Error::Html(m) => write!(f, "HTML tokenizer failed: {m}"),
            Error::NotHtml(m) => write!(f, "not an HTML document: {m}"),
            Error::Gzip(m) => write!(f, "corrupt gzip data: {m}"),
            Error::ModelFormat(m) => write!(f, "invalid model file: {m}"),
            Error::ModelVersion { expected, found } => write!(
                f,
                "model file has format version {found}, this build reads versions {} to \
                 {expected}",
                crate::model::MIN_MODEL_FORMAT_VERSION
            ),
            Error::FeatureMismatch(m) => write!(f, "model features do not match this build: {m}"),
            Error::ModelFile { path, cause } => write!(f, "model file {}: {cause}", path.display()),
            Error::Csv { path, message } => write!(f, "{}: {message}", path.display()),
            Error::Training(m) => write!(f, "training failed: {m}"),
            Error::Corpus { path, message } => write!(f, "corpus {}: {message}", path.display()),
            Error::Other(m) => f.write_str(m),
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::Io(e) => e.source(),
            _ => None,
        }
    }
}

impl From<std::io::Error> for Error {
    fn from(e: std::io::Error) -> Self {
        Error::Io(e)
    }
}
