//! Shared helpers for the integration tests: the binary, sample paths, scratch directories,
//! decisions of a page fed in pieces.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::sync::Arc;

use assert_cmd::Command;
use mainline::{Decision, Extractor, Scorer};

/// The repository's root, where the tests' relative paths (`data/samples`, …) start.
pub const ROOT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/..");

/// The `mainline` binary under test, run in the repository's root.
pub fn mainline() -> Command {
    let mut command = Command::cargo_bin("mainline").expect("the mainline binary is built");
    command.current_dir(ROOT);
    command
}

/// The standard output of a successful run of `mainline` with `args`.
pub fn stdout_bytes_of(args: &[&str]) -> Vec<u8> {
    mainline()
        .args(args)
        .assert()
        .success()
        .get_output()
        .stdout
        .clone()
}

/// The standard output of a successful run of `mainline` with `args`, which must be UTF-8.
pub fn stdout_of(args: &[&str]) -> String {
    String::from_utf8(stdout_bytes_of(args)).expect("output is UTF-8")
}

/// A sample page under `data/samples/`.
pub fn sample(name: &str) -> PathBuf {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
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

/// A KiB-long head that declares UTF-8. The splitter holds input back until it knows the
/// encoding (a BOM, a `<meta charset>` once the first KiB has arrived, else 64 KiB), so a
/// short page without one reaches the tokenizer in one piece however it is written; after
/// this head, every piece reaches it as written.
pub fn declared_head() -> String {
    let head = "<!doctype html><meta charset=\"utf-8\"><!--";
    format!("{head}{}-->", "x".repeat(1024 - head.len()))
}

/// The decisions (with feature rows) of `scorer` for `html` written in pieces of `chunk`
/// bytes, taking each decision as soon as the extractor gives it.
pub fn decide_in(html: &[u8], chunk: usize, scorer: Arc<dyn Scorer>) -> Vec<Decision> {
    let mut ex = Extractor::new(scorer).with_features(true);
    let mut out = Vec::new();
    for piece in html.chunks(chunk) {
        ex.write(piece).unwrap();
        out.extend(std::iter::from_fn(|| ex.next_decision()));
    }
    ex.end().unwrap();
    out.extend(std::iter::from_fn(|| ex.next_decision()));
    out
}

/// The outcome of a run: exit code, standard error (without `time`'s line) and the peak
/// resident memory in KiB.
pub struct Run {
    pub code: Option<i32>,
    pub stderr: String,
    pub peak_kib: u64,
}

/// Runs the binary with `args` under `/usr/bin/time -f %M`. Panics when that tool is
/// missing or says nothing readable: a check that cannot measure must not pass.
pub fn measured(args: &[&std::ffi::OsStr]) -> Run {
    let time = Path::new("/usr/bin/time");
    assert!(
        time.exists(),
        "/usr/bin/time (GNU time) is needed to measure the peak memory"
    );
    let out = std::process::Command::new(time)
        .args(["-f", "%M"])
        .arg(assert_cmd::cargo::cargo_bin("mainline"))
        .args(args)
        .stdout(std::process::Stdio::null())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    let (rest, last) = stderr
        .trim_end()
        .rsplit_once('\n')
        .unwrap_or(("", stderr.trim_end()));
    let peak_kib = last
        .trim()
        .parse()
        .unwrap_or_else(|_| panic!("no peak memory in the output of /usr/bin/time: {stderr}"));
    eprintln!("peak RSS {peak_kib} KiB for {args:?}");
    // GNU time also says when the command failed.
    let rest: Vec<&str> = rest
        .lines()
        .filter(|l| !l.starts_with("Command exited with non-zero status"))
        .collect();
    Run {
        code: out.status.code(),
        stderr: rest.join("\n"),
        peak_kib,
    }
}
