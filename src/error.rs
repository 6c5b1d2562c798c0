//! The library's error type.
//!
//! One enum for every fallible operation of the library. Variants carry the values a user
//! needs to fix the problem; messages never mention command-line flags (that wording belongs
//! to the binary).

use std::path::PathBuf;

/// Errors returned by mainline.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// An I/O error while reading input or writing output.
    // NOTE: transparent, so that a report of the error chain does not print the message
    // twice (once for this variant, once for the io::Error as its source).
    #[error(transparent)]
    Io(#[from] std::io::Error),

    /// The HTML tokenizer gave up on the input.
    #[error("HTML tokenizer failed: {0}")]
    Html(String),

    /// The input is not an HTML or text document (for example an image or an archive).
    #[error("not an HTML document: {0}")]
    NotHtml(String),

    /// A gzip stream was truncated or corrupt.
    #[error("corrupt gzip data: {0}")]
    Gzip(String),

    // ---- model files -------------------------------------------------------------------
    /// A model file could not be parsed.
    #[error("invalid model file: {0}")]
    ModelFormat(String),

    /// A model file was written by an incompatible version of mainline.
    #[error(
        "model file has format version {found}, this build reads versions {} to {expected}",
        crate::model::MIN_MODEL_FORMAT_VERSION
    )]
    ModelVersion {
        /// Newest version this build understands.
        expected: u32,
        /// Version found in the file.
        found: u32,
    },

    /// A model expects features this build does not compute (or in another order).
    #[error("model features do not match this build: {0}")]
    FeatureMismatch(String),

    /// Reading or writing a model file failed; `cause` is the underlying error (an
    /// [`Error::Io`], [`Error::ModelFormat`] or [`Error::ModelVersion`]). Its message is
    /// part of this one, so it is not reported again as the error's source.
    #[error("model file {}: {cause}", path.display())]
    ModelFile {
        /// The file.
        path: PathBuf,
        /// What went wrong.
        cause: Box<Error>,
    },

    // ---- labelled CSV and training ------------------------------------------------------
    /// A labelled CSV file is malformed.
    #[error("{path}: {message}")]
    Csv {
        /// The file.
        path: PathBuf,
        /// What is wrong, naming row and column where known.
        message: String,
    },

    /// Training could not proceed (for example only one class in the data).
    #[error("training failed: {0}")]
    Training(String),

    // ---- evaluation ---------------------------------------------------------------------
    /// A corpus directory is not laid out as expected.
    #[error("corpus {path}: {message}")]
    Corpus {
        /// The corpus directory or file.
        path: PathBuf,
        /// What is wrong.
        message: String,
    },

    /// Anything else, with a message for the user.
    #[error("{0}")]
    Other(String),
}

/// `Result` with [`Error`] as the error type.
pub type Result<T, E = Error> = std::result::Result<T, E>;
