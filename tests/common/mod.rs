//! Shared helpers for the integration tests: the binary, sample paths, scratch directories.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

use assert_cmd::Command;

/// The `mainline` binary under test.
pub fn mainline() -> Command {
    Command::cargo_bin("mainline").expect("the mainline binary is built")
}

/// A sample page under `data/samples/`.
pub fn sample(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("data/samples")
        .join(name)
}

/// A scratch directory removed when dropped.
pub fn scratch() -> tempfile::TempDir {
    tempfile::tempdir().expect("a temporary directory")
}

/// The words of a text, lower-cased (for comparing outputs with expected texts).
pub fn words(text: &str) -> Vec<String> {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect()
}
