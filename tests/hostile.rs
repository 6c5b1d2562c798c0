//! Hostile input: whatever arrives, mainline keeps going, says clearly what went wrong, and
//! loses nothing it could process.
//!
//! Three groups: inputs that must work (correct output, no error, bounded memory), inputs
//! that must fail cleanly (one line naming the file, exit code 1, the other files still
//! processed and written), and the integrity of outputs. Properties over arbitrary bytes
//! and the fuzzing regressions are in `tests/hostile_bytes.rs`.
//!
//! The largest inputs (a 200 MB text node, a 50 MB attribute) are scaled down in debug
//! builds. Their full-size versions, which also measure peak memory with `/usr/bin/time`,
//! are ignored by default: run them with
//! `cargo test --release --test hostile -- --ignored --nocapture`. `tests/memory.rs`
//! measures peak memory on every run, on streams of a few MB.

mod common;

use std::fs;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

use common::{mainline, scratch};
use mainline::internals::lines::MAX_LINE_BYTES;

// ---- helpers -------------------------------------------------------------------------------

/// Runs `mainline filter --threshold 0` (every line with text is kept) on one file and
/// returns its standard output, checking that it succeeded quietly.
fn all_lines(path: &Path) -> String {
    let out = mainline()
        .args(["filter", "--threshold", "0"])
        .arg(path)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{}: {stderr}", path.display());
    assert!(stderr.is_empty(), "{}: {stderr}", path.display());
    String::from_utf8(out.stdout).expect("the output is UTF-8")
}

fn lines_of(text: &str) -> Vec<&str> {
    text.lines().collect()
}

/// Writes `parts` to `dir/name`, streaming (big inputs are never held in memory whole).
fn write_file<'a>(dir: &Path, name: &str, parts: impl IntoIterator<Item = &'a [u8]>) -> PathBuf {
    let path = dir.join(name);
    let mut w = BufWriter::new(fs::File::create(&path).unwrap());
    for part in parts {
        w.write_all(part).unwrap();
    }
    w.flush().unwrap();
    path
}

/// `n` bytes made of `unit` repeated, as an iterator of slices.
fn repeated(unit: &[u8], n: usize) -> impl Iterator<Item = &[u8]> {
    let block = unit.repeat((64 * 1024 / unit.len()).max(1));
    let block: &'static [u8] = Box::leak(block.into_boxed_slice());
    let full = n / block.len();
    let rest = n % block.len();
    std::iter::repeat_n(block, full).chain(std::iter::once(&block[..rest]))
}

/// A size: the full one in release builds, a 25th of it in debug builds (which are slow).
fn scaled(full: usize) -> usize {
    if cfg!(debug_assertions) {
        full / 25
    } else {
        full
    }
}

/// Peak resident memory of `mainline filter FILE` (built-in model) in KiB, measured with
/// `/usr/bin/time -f %M`; fails when it cannot be measured. (`tests/memory.rs` measures
/// streams of a few MB on every run, without outside tools.)
fn peak_rss_kib(file: &Path) -> u64 {
    let time = Path::new("/usr/bin/time");
    assert!(
        time.exists(),
        "/usr/bin/time is missing: the peak memory cannot be measured"
    );
    let bin = assert_cmd::cargo::cargo_bin("mainline");
    let out = std::process::Command::new(time)
        .args(["-f", "%M"])
        .arg(bin)
        .arg("filter")
        .arg(file)
        .stdout(std::process::Stdio::null())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    stderr
        .trim()
        .lines()
        .last()
        .and_then(|l| l.trim().parse().ok())
        .unwrap_or_else(|| panic!("no peak memory in {stderr:?}"))
}

/// Peak memory allowed for any input: a constant, far below the sizes of the big inputs.
const MAX_RSS_KIB: u64 = 64 * 1024;

// ---- 1. inputs that must work ---------------------------------------------------------------

#[test]
fn an_empty_file_gives_no_output() {
    let dir = scratch();
    let path = write_file(dir.path(), "empty.html", [&b""[..]]);
    assert_eq!(all_lines(&path), "");
}

#[test]
fn text_without_tags_is_one_paragraph() {
    let dir = scratch();
    let path = write_file(
        dir.path(),
        "plain.txt",
        [&b"Just some plain text, no tags at all.\nA second source line."[..]],
    );
    assert_eq!(
        all_lines(&path),
        "Just some plain text, no tags at all. A second source line.\n"
    );
}

#[test]
fn unclosed_tags_comments_scripts_and_plaintext() {
    let dir = scratch();
    let cases: [(&str, &[&str]); 6] = [
        (
            "<div><p>First paragraph<p>Second paragraph<li>An item",
            &["First paragraph", "Second paragraph", "An item"],
        ),
        (
            "<p>Visible paragraph</p><!-- never closed <p>hidden text",
            &["Visible paragraph"],
        ),
        (
            "<p>Visible paragraph</p><script>var x = '<p>hidden text'",
            &["Visible paragraph"],
        ),
        (
            "<p>Visible paragraph</p><script><!-- var x = '</script'",
            &["Visible paragraph"],
        ),
        (
            "<p>Visible paragraph</p><plaintext><p>Shown as text</p>",
            &["Visible paragraph", "<p>Shown as text</p>"],
        ),
        (
            "<p>Some text here<div class=\"unterminated value",
            &["Some text here"],
        ),
    ];
    for (i, (html, want)) in cases.iter().enumerate() {
        let path = write_file(dir.path(), &format!("unclosed{i}.html"), [html.as_bytes()]);
        assert_eq!(lines_of(&all_lines(&path)), *want, "{html}");
    }
}

#[test]
fn a_hundred_thousand_nested_divs() {
    let dir = scratch();
    let n = 100_000;
    let path = write_file(
        dir.path(),
        "nested.html",
        repeated(b"<div>", 5 * n)
            .chain([&b"Deep text"[..]])
            .chain(repeated(b"</div>", 6 * n))
            .chain([&b"<p>After the nest</p>"[..]]),
    );
    assert_eq!(lines_of(&all_lines(&path)), ["Deep text", "After the nest"]);
}

/// One text node of `size` bytes of words: comes out whole, in lines of at most
/// [`MAX_LINE_BYTES`].
fn check_text_node(size: usize) -> PathBuf {
    let dir = scratch();
    let path = write_file(
        dir.path(),
        "text.html",
        [&b"<p>"[..]]
            .into_iter()
            .chain(repeated(b"word ", size))
            .chain([&b"</p>"[..]]),
    );
    let out = dir.path().join("out");
    mainline()
        .args(["filter", "--threshold", "0", "--out-dir"])
        .arg(&out)
        .arg(&path)
        .assert()
        .success()
        .stderr("");
    let text = fs::read_to_string(out.join("text.txt")).unwrap();
    let mut letters = 0;
    for line in text.lines() {
        assert!(
            line.len() <= MAX_LINE_BYTES,
            "a line of {} bytes",
            line.len()
        );
        // NOTE: lines are cut at MAX_LINE_BYTES, inside a word if need be.
        assert!(
            line.split(' ').all(|w| "word".contains(w)),
            "{}",
            &line[..80]
        );
        letters += line.bytes().filter(|&b| b != b' ').count();
    }
    assert_eq!(letters, size / 5 * 4, "every letter comes out");
    // Keep the input for a memory measurement.
    let kept = std::env::temp_dir().join(format!("mainline-text-{}.html", std::process::id()));
    fs::rename(&path, &kept).unwrap();
    kept
}

#[test]
fn a_big_text_node() {
    let kept = check_text_node(scaled(200 << 20) / 5 * 5);
    fs::remove_file(kept).unwrap();
}

#[test]
#[ignore = "200 MB: run with --release -- --ignored"]
fn a_200_mb_text_node_in_bounded_memory() {
    let kept = check_text_node(200 << 20);
    let kib = peak_rss_kib(&kept);
    fs::remove_file(&kept).unwrap();
    eprintln!("200 MB text node: peak RSS {kib} KiB");
    assert!(kib < MAX_RSS_KIB, "peak RSS {kib} KiB");
}

fn big_attribute_page(dir: &Path, size: usize) -> PathBuf {
    write_file(
        dir,
        "attribute.html",
        [&b"<p>Before the tag</p><div title=\""[..]]
            .into_iter()
            .chain(repeated(b"x", size))
            .chain([&b"\" class=\"later\">After the tag</div><p>The tail</p>"[..]]),
    )
}

#[test]
fn a_big_attribute_value() {
    let dir = scratch();
    let path = big_attribute_page(dir.path(), scaled(50 << 20));
    assert_eq!(
        lines_of(&all_lines(&path)),
        ["Before the tag", "After the tag", "The tail"]
    );
}

#[test]
#[ignore = "50 MB: run with --release -- --ignored"]
fn a_50_mb_attribute_in_bounded_memory() {
    let dir = scratch();
    let path = big_attribute_page(dir.path(), 50 << 20);
    assert_eq!(
        lines_of(&all_lines(&path)),
        ["Before the tag", "After the tag", "The tail"]
    );
    let kib = peak_rss_kib(&path);
    eprintln!("50 MB attribute: peak RSS {kib} KiB");
    assert!(kib < MAX_RSS_KIB, "peak RSS {kib} KiB");
}

#[test]
fn huge_comments_doctypes_tag_names_and_attribute_lists() {
    let dir = scratch();
    let n = scaled(20 << 20);
    let pages: [(&str, Vec<&[u8]>); 5] = [
        (
            "comment",
            [&b"<p>Before</p><!--"[..]]
                .into_iter()
                .chain(repeated(b"<p>x</p>", n))
                .chain([&b"--><p>After</p>"[..]])
                .collect(),
        ),
        (
            "doctype",
            [&b"<!DOCTYPE html PUBLIC \""[..]]
                .into_iter()
                .chain(repeated(b"x", n))
                .chain([&b"\"><p>After</p>"[..]])
                .collect(),
        ),
        (
            "name",
            [&b"<p>Before</p><div"[..]]
                .into_iter()
                .chain(repeated(b"x", n))
                .chain([&b" class=a>After</div>"[..]])
                .collect(),
        ),
        (
            "attributes",
            [&b"<p>Before</p><div"[..]]
                .into_iter()
                .chain(repeated(b" a", n))
                .chain([&b">After</div>"[..]])
                .collect(),
        ),
        (
            "script",
            [&b"<p>Before</p><script><!--"[..]]
                .into_iter()
                .chain(repeated(b"x=1;", n))
                .chain([&b"</script><p>After</p>"[..]])
                .collect(),
        ),
    ];
    for (name, parts) in pages {
        let path = write_file(dir.path(), &format!("{name}.html"), parts);
        let out = all_lines(&path);
        assert_eq!(out.lines().last(), Some("After"), "{name}: {out}");
        if name != "doctype" {
            assert_eq!(out.lines().next(), Some("Before"), "{name}: {out}");
        }
    }
}

#[test]
fn a_million_br_tags() {
    let dir = scratch();
    let storm = write_file(dir.path(), "storm.html", repeated(b"<br>", 4_000_000));
    assert_eq!(all_lines(&storm), "");
    let after = write_file(
        dir.path(),
        "after.html",
        repeated(b"<br>", 4_000_000).chain([&b"<p>Text after the storm</p>"[..]]),
    );
    assert_eq!(all_lines(&after), "Text after the storm\n");
}

#[test]
fn invalid_utf8_in_a_utf8_page_becomes_replacement_characters() {
    let dir = scratch();
    let declared = write_file(
        dir.path(),
        "declared.html",
        [&b"<meta charset=\"utf-8\"><p>caf\xC3 bad \xFF\xFE bytes \xE2\x82 end</p>"[..]],
    );
    assert_eq!(
        all_lines(&declared),
        "caf\u{FFFD} bad \u{FFFD}\u{FFFD} bytes \u{FFFD} end\n"
    );
    // Undeclared: the encoding is guessed; whatever the guess, the output is UTF-8.
    let mut page = "<p>Grüße, café, naïve — ünïcödé text.</p>"
        .repeat(50)
        .into_bytes();
    page.extend_from_slice(b"<p>stray \xFF\xC3 bytes</p>");
    let undeclared = write_file(dir.path(), "undeclared.html", [&page[..]]);
    let out = all_lines(&undeclared);
    assert!(out.contains("stray"), "{out}");
}

#[test]
fn a_page_declared_as_one_charset_but_in_another_follows_the_declaration_unless_it_is_utf8() {
    let dir = scratch();
    // UTF-8 bytes declared windows-1252: the bytes contradict the declaration (valid UTF-8
    // with multi-byte sequences), so they are read as UTF-8; windows-1252 bytes follow it.
    let path = write_file(
        dir.path(),
        "latin.html",
        [&b"<meta charset=\"windows-1252\"><p>Caf\xC3\xA9 cr\xC3\xA8me</p>"[..]],
    );
    assert_eq!(all_lines(&path), "Caf\u{E9} cr\u{E8}me\n");
    let path = write_file(
        dir.path(),
        "latin1.html",
        [&b"<meta charset=\"windows-1252\"><p>Caf\xE9 cr\xE8me</p>"[..]],
    );
    assert_eq!(all_lines(&path), "Caf\u{E9} cr\u{E8}me\n");
    // Latin-1 bytes declared UTF-8: replacement characters.
    let path = write_file(
        dir.path(),
        "utf8.html",
        [&b"<meta charset=\"utf-8\"><p>Caf\xE9 cr\xE8me</p>"[..]],
    );
    assert_eq!(all_lines(&path), "Caf\u{FFFD} cr\u{FFFD}me\n");
    // UTF-8 declared Shift_JIS: mojibake, but valid UTF-8 and the ASCII intact.
    let path = write_file(
        dir.path(),
        "sjis.html",
        ["<meta charset=\"shift_jis\"><p>日本語 and ASCII</p>".as_bytes()],
    );
    assert!(all_lines(&path).contains("and ASCII"));
}

#[test]
fn utf16_with_a_byte_order_mark() {
    let dir = scratch();
    let text = "<p>Grüße aus Köln</p><p>второй абзац</p>";
    let le: Vec<u8> = [0xFF, 0xFE]
        .into_iter()
        .chain(text.encode_utf16().flat_map(u16::to_le_bytes))
        .collect();
    let be: Vec<u8> = [0xFE, 0xFF]
        .into_iter()
        .chain(text.encode_utf16().flat_map(u16::to_be_bytes))
        .collect();
    for (name, bytes) in [("le.html", le), ("be.html", be)] {
        let path = write_file(dir.path(), name, [&bytes[..]]);
        assert_eq!(
            lines_of(&all_lines(&path)),
            ["Grüße aus Köln", "второй абзац"],
            "{name}"
        );
    }
}

#[test]
fn nul_bytes_are_dropped_from_text() {
    let dir = scratch();
    let path = write_file(
        dir.path(),
        "nul.html",
        [&b"<p>nul\0in\0text</p>\0\0<p\0>in a tag</p><p title=\"\0\">after</p>"[..]],
    );
    assert_eq!(
        lines_of(&all_lines(&path)),
        ["nulintext", "in a tag", "after"]
    );
}

#[test]
fn crlf_and_lone_cr_line_ends() {
    let dir = scratch();
    let path = write_file(
        dir.path(),
        "cr.html",
        [&b"<p>line one\r\nstill one\rstill</p>\r\n<pre>a\r\nb\rc\nd</pre>\r"[..]],
    );
    assert_eq!(
        lines_of(&all_lines(&path)),
        ["line one still one still", "a", "b", "c", "d"]
    );
}

#[test]
#[ignore = "measures the release binary: run with --release -- --ignored"]
fn peak_memory_of_deep_nesting_and_br_storms_is_bounded() {
    let dir = scratch();
    let nested = write_file(
        dir.path(),
        "nested.html",
        repeated(b"<div>", 500_000).chain([&b"deep"[..]]),
    );
    let paragraphs = write_file(dir.path(), "p.html", repeated(b"<p>unclosed ", 12_000_000));
    let storm = write_file(dir.path(), "storm.html", repeated(b"<br>", 4_000_000));
    for (name, path) in [
        ("100,000 nested divs", nested),
        ("a million unclosed <p>", paragraphs),
        ("a million <br>", storm),
    ] {
        let kib = peak_rss_kib(&path);
        eprintln!("{name}: peak RSS {kib} KiB");
        assert!(kib < MAX_RSS_KIB, "{name}: peak RSS {kib} KiB");
    }
}

// ---- 2. inputs that must fail cleanly -------------------------------------------------------

/// Runs `filter --quiet --out-dir` on a good page, `bad`, and another good page (`--quiet`
/// leaves out the summary line, not the failures). Checks: exit code 1, one line on standard
/// error that names `bad` and contains `message`, both good pages
/// written, and nothing else in the output directory (no output, no temporary file).
fn fails_cleanly(dir: &Path, bad: &Path, message: &str) {
    fails_cleanly_as(dir, bad, message, None);
}

/// [`fails_cleanly`], with `mainline` run as the user `uid` (with its group) if given.
fn fails_cleanly_as(dir: &Path, bad: &Path, message: &str, uid: Option<u32>) {
    let good1 = write_file(dir, "good1.html", [&b"<p>The first good page.</p>"[..]]);
    let good2 = write_file(dir, "good2.html", [&b"<p>The second good page.</p>"[..]]);
    let out = dir.join("out");
    let mut command = std::process::Command::new(assert_cmd::cargo::cargo_bin("mainline"));
    if let Some(uid) = uid {
        use std::os::unix::process::CommandExt;
        command.uid(uid).gid(uid);
    }
    let run = command
        .args(["filter", "--quiet", "--threshold", "0.5", "--out-dir"])
        .arg(&out)
        .arg(&good1)
        .arg(bad)
        .arg(&good2)
        .output()
        .unwrap();
    let stderr = String::from_utf8(run.stderr).unwrap();
    assert_eq!(run.status.code(), Some(1), "{stderr}");
    let lines: Vec<&str> = stderr.lines().collect();
    assert_eq!(lines.len(), 1, "one line of error: {stderr}");
    let prefix = format!("mainline: {}: ", bad.display());
    assert!(lines[0].starts_with(&prefix), "{stderr}");
    assert!(lines[0].contains(message), "{stderr}");
    // Each part of the message once (no cause repeated as its own source).
    let detail = &lines[0][prefix.len()..];
    assert!(
        !detail.contains(&format!("{message}: {message}")),
        "{stderr}"
    );
    let mut names: Vec<String> = fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names, ["good1.txt", "good2.txt"], "{stderr}");
    assert_eq!(
        fs::read_to_string(out.join("good2.txt")).unwrap(),
        "The second good page.\n"
    );
}

#[test]
fn a_missing_file() {
    let dir = scratch();
    fails_cleanly(
        dir.path(),
        &dir.path().join("missing.html"),
        "No such file or directory",
    );
}

#[test]
fn a_directory() {
    let dir = scratch();
    let sub = dir.path().join("pages.html");
    fs::create_dir(&sub).unwrap();
    fails_cleanly(dir.path(), &sub, "is a directory");
}

#[test]
fn a_file_without_read_permission() {
    use std::os::unix::fs::PermissionsExt;
    let dir = scratch();
    let path = write_file(dir.path(), "secret.html", [&b"<p>secret</p>"[..]]);
    fs::set_permissions(&path, fs::Permissions::from_mode(0o000)).unwrap();
    // Root (or CAP_DAC_OVERRIDE) reads any file, so there mainline runs as `nobody`, in a
    // directory it may write to.
    let uid = fs::File::open(&path).is_ok().then_some(65_534);
    if uid.is_some() {
        fs::set_permissions(dir.path(), fs::Permissions::from_mode(0o777)).unwrap();
    }
    fails_cleanly_as(dir.path(), &path, "Permission denied", uid);
}

fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    enc.write_all(bytes).unwrap();
    enc.finish().unwrap()
}

#[test]
fn a_truncated_gzip_file() {
    let dir = scratch();
    // Long enough that some lines are decided before the data runs out: the partial output
    // must not be left behind.
    let page = "<p>A paragraph of the page that goes on.</p>".repeat(20_000);
    let gz = gzip(page.as_bytes());
    let path = write_file(dir.path(), "truncated.html.gz", [&gz[..gz.len() / 2]]);
    fails_cleanly(dir.path(), &path, "corrupt gzip data");
}

#[test]
fn a_corrupt_gzip_file() {
    let dir = scratch();
    let mut gz = gzip("<p>A paragraph.</p>".repeat(1000).as_bytes());
    let n = gz.len();
    for b in &mut gz[12..n - 8] {
        *b ^= 0x5A;
    }
    let path = write_file(dir.path(), "corrupt.html.gz", [&gz[..]]);
    fails_cleanly(dir.path(), &path, "corrupt gzip data");
}

#[test]
fn binary_files() {
    let dir = scratch();
    let png = write_file(
        dir.path(),
        "image.png",
        [&b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\0\x01\0\0\0\x01"[..]],
    );
    fails_cleanly(
        dir.path(),
        &png,
        "not an HTML document: the data looks like a PNG image",
    );
    let zip = write_file(
        dir.path(),
        "archive.zip",
        [&b"PK\x03\x04\x14\0\0\0\x08\0<p>not really html</p>"[..]],
    );
    fails_cleanly(
        dir.path(),
        &zip,
        "not an HTML document: the data looks like a ZIP archive",
    );
    // A gzip-compressed image is recognised after decompression.
    let gz = write_file(
        dir.path(),
        "image.png.gz",
        [&gzip(b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR")[..]],
    );
    fails_cleanly(dir.path(), &gz, "looks like a PNG image");
}

/// `filter --model MODEL page`: exit 1 and one line naming the model file.
fn model_is_rejected(model: &Path, message: &str) {
    let dir = scratch();
    let page = write_file(dir.path(), "page.html", [&b"<p>A page.</p>"[..]]);
    let run = mainline()
        .args(["filter", "--model"])
        .arg(model)
        .arg(&page)
        .output()
        .unwrap();
    let stderr = String::from_utf8(run.stderr).unwrap();
    assert_eq!(run.status.code(), Some(1), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.contains(&model.display().to_string()), "{stderr}");
    assert!(stderr.contains(message), "{stderr}");
    assert!(run.stdout.is_empty());
}

#[test]
fn model_files_that_cannot_be_used() {
    let dir = scratch();
    let builtin = fs::read_to_string(
        Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/..")).join("models/default.json"),
    )
    .unwrap();
    let not_json = write_file(dir.path(), "notjson.json", [&b"this is not JSON"[..]]);
    model_is_rejected(&not_json, "not valid JSON");
    let binary = write_file(
        dir.path(),
        "binary.json",
        [&b"\x89PNG\r\n\x1a\n\xff\xfe"[..]],
    );
    model_is_rejected(&binary, "stream did not contain valid UTF-8");
    let version = write_file(
        dir.path(),
        "version.json",
        [with_format(&builtin, 99).as_bytes()],
    );
    model_is_rejected(
        &version,
        "format version 99, this build reads versions 1 to 3",
    );
    let mut json: serde_json::Value = serde_json::from_str(&builtin).unwrap();
    json["features"][0] = "no_such_feature".into();
    let features = write_file(dir.path(), "features.json", [json.to_string().as_bytes()]);
    model_is_rejected(&features, "\"no_such_feature\"");
    model_is_rejected(
        &dir.path().join("missing.json"),
        "No such file or directory",
    );
}

#[test]
fn labelled_csv_files_with_bad_rows() {
    let dir = scratch();
    let page = write_file(
        dir.path(),
        "page.html",
        [&b"<nav><a href=/>Home</a></nav><p>Some text of the article.</p><p>More.</p>"[..]],
    );
    let table = mainline().arg("lines").arg(&page).output().unwrap();
    assert!(table.status.success());
    let table = String::from_utf8(table.stdout).unwrap();
    let mut rows: Vec<Vec<String>> = table
        .lines()
        .map(|l| l.split(',').map(String::from).collect())
        .collect();
    for (i, row) in rows.iter_mut().enumerate().skip(1) {
        row[3] = (i % 2).to_string();
    }
    let header = rows[0].clone();
    let write_csv = |name: &str, rows: &[Vec<String>]| {
        let text: String = rows.iter().map(|r| r.join(",") + "\n").collect();
        write_file(dir.path(), name, [text.as_bytes()])
    };
    let mut bad_label = rows.clone();
    bad_label[2][3] = "maybe".into();
    let first_feature = header.iter().position(|h| h == "density").unwrap();
    let mut bad_value = rows.clone();
    bad_value[1][first_feature] = "abc".into();
    let mut short = rows.clone();
    short[3].truncate(6);
    let cases = [
        (
            write_csv("label.csv", &bad_label),
            "row 2 (line 3), column \"label\": \"maybe\" is not a label".to_string(),
        ),
        (
            write_csv("value.csv", &bad_value),
            format!(
                "row 1 (line 2), column \"{}\": \"abc\" is not a number",
                header[first_feature]
            ),
        ),
        (
            write_csv("short.csv", &short),
            format!(
                "row 3 (line 4): 6 fields, but the header has {}",
                header.len()
            ),
        ),
        (
            write_csv("empty.csv", &[]),
            "empty file: expected a header line".to_string(),
        ),
    ];
    for (csv, message) in cases {
        let model = dir.path().join("model.json");
        let run = mainline()
            .arg("train")
            .arg(&csv)
            .arg("-o")
            .arg(&model)
            .output()
            .unwrap();
        let stderr = String::from_utf8(run.stderr).unwrap();
        assert_eq!(run.status.code(), Some(1), "{stderr}");
        let last = stderr.lines().last().unwrap_or_default();
        assert!(
            last.starts_with(&format!("mainline: {}: ", csv.display())),
            "{stderr}"
        );
        assert!(last.contains(&message), "{message} in {stderr}");
        assert!(!model.exists(), "no model is written");
    }
}

// ---- 3. output integrity --------------------------------------------------------------------

#[test]
fn outputs_are_utf8_whatever_the_input_encoding() {
    let dir = scratch();
    let utf16: Vec<u8> = [0xFF, 0xFE]
        .into_iter()
        .chain(
            "<p>ütf-16 text</p>"
                .encode_utf16()
                .flat_map(u16::to_le_bytes),
        )
        .collect();
    let inputs: Vec<(&str, Vec<u8>)> = vec![
        ("invalid.html", b"<p>bad \xFF\xFE\xC3 bytes</p>".to_vec()),
        (
            "latin1.html",
            b"<meta charset=latin1><p>Caf\xE9 \xAB cr\xE8me \xBB</p>".to_vec(),
        ),
        (
            "sjis.html",
            b"<meta charset=shift_jis><p>\x93\xfa\x96\x7b\x8c\xea \x82\xa0</p>".to_vec(),
        ),
        (
            "koi8.html",
            b"<meta charset=koi8-r><p>\xf0\xd2\xc9\xd7\xc5\xd4 \xff\x80</p>".to_vec(),
        ),
        ("utf16.html", utf16),
        (
            "random.html",
            (0..4096u32)
                .map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8)
                .collect(),
        ),
    ];
    let out = dir.path().join("out");
    let mut cmd = mainline();
    cmd.args(["filter", "--threshold", "0", "--out-dir"])
        .arg(&out);
    for (name, bytes) in &inputs {
        cmd.arg(write_file(dir.path(), name, [&bytes[..]]));
    }
    let run = cmd.output().unwrap();
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    for (name, _) in &inputs {
        let stem = name.strip_suffix(".html").unwrap();
        let bytes = fs::read(out.join(format!("{stem}.txt"))).unwrap();
        let text = String::from_utf8(bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(!text.contains('\0'), "{name}");
    }
    assert_eq!(
        fs::read_to_string(out.join("latin1.txt")).unwrap(),
        "Café « crème »\n"
    );
    assert_eq!(
        fs::read_to_string(out.join("sjis.txt")).unwrap(),
        "日本語 あ\n"
    );
    assert_eq!(
        fs::read_to_string(out.join("koi8.txt")).unwrap(),
        "Привет Ъ─\n"
    );
}

/// The model file `json` with its format version replaced.
fn with_format(json: &str, format: u32) -> String {
    let mut value: serde_json::Value = serde_json::from_str(json).unwrap();
    value["format"] = format.into();
    value.to_string()
}
