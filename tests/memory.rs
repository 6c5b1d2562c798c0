//! Bounded memory, measured where it runs: the peak resident memory of a process that
//! streams a few MB through the extractor with the built-in model (which holds a block of
//! up to 4,096 lines of a page before deciding it), as `mainline filter -` does.
//!
//! The README promises that memory stays bounded whatever the input, 19 MB at the peak
//! for a 1 GiB stream (release build). A test build's own footprint is larger (its code
//! and debug information), so each check is made on what streaming the input adds to the
//! peak of the same process streaming nothing. Each measurement runs in a fresh process
//! (this test binary, running [`child`]), which generates its input piece by piece so
//! that only what the extractor holds counts, and reads its peak (`VmHWM`) from
//! `/proc/self/status` at the end. A test fails when the peak cannot be read: a check that
//! cannot measure must not pass.

mod common;

use std::io::Write;
use std::process::Command;
use std::sync::Arc;

use mainline::{Extractor, ModelScorer};

/// The README's peak for a 1 GiB stream through the release build, in KiB (19 MB).
const README_PEAK_KIB: u64 = 19_000_000 / 1024;

/// What a stream three times as long may add to the peak: far less than the extra input
/// (any state that grew with the input, even its text alone, would exceed it).
const GROWTH_KIB: u64 = 2 * 1024;

/// The environment variable that tells [`child`] what to stream.
const CHILD: &str = "MAINLINE_MEMORY_CHILD";

/// The peak resident memory of this process, in KiB.
fn own_peak_kib() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status")
        .expect("/proc/self/status is readable: the peak memory cannot be measured without it");
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().strip_suffix("kB"))
        .and_then(|v| v.trim().parse().ok())
        .expect("VmHWM in /proc/self/status: the peak memory cannot be measured without it")
}

/// The input named `kind`, `bytes` long, written to `write` in pieces of 64 KiB, generated
/// as it goes.
fn stream(kind: &str, bytes: usize, write: &mut dyn FnMut(&[u8])) {
    const WORDS: &[&str] = &[
        "the", "river", "of", "morning", "and", "a", "village", "in", "winter", "letters",
        "history", "through", "garden", "water", "house", "people", "little", "world",
    ];
    let (head, unit, tail): (&[u8], &[u8], &[u8]) = match kind {
        "prose" => (
            b"<!doctype html><title>t</title><article>",
            b"",
            b"</article>",
        ),
        "text node" => (b"<p>", b"word ", b"</p>"),
        "nested divs" => (b"", b"<div>", b"deep"),
        "unclosed p" => (b"", b"<p>unclosed ", b""),
        "br storm" => (b"", b"<br>", b"x"),
        "attribute" => (b"<p>before<div title=\"", b"x", b"\">after</div>"),
        other => panic!("unknown input {other:?}"),
    };
    if bytes == 0 {
        return;
    }
    write(head);
    let mut piece = Vec::with_capacity(64 * 1024 + 1024);
    let mut state = 7u64;
    let mut written = head.len();
    while written < bytes {
        if unit.is_empty() {
            // A paragraph of 20 to 59 words.
            piece.extend_from_slice(b"<p>");
            let n = 20 + (state >> 40) % 40;
            for _ in 0..n {
                state = state
                    .wrapping_mul(6_364_136_223_846_793_005)
                    .wrapping_add(1_442_695_040_888_963_407);
                piece.extend_from_slice(WORDS[(state >> 33) as usize % WORDS.len()].as_bytes());
                piece.push(b' ');
            }
            piece.extend_from_slice(b"end.</p>\n");
        } else {
            piece.extend_from_slice(unit);
        }
        if piece.len() >= 64 * 1024 {
            written += piece.len();
            write(&piece);
            piece.clear();
        }
    }
    write(&piece);
    write(tail);
}

/// Not a test of its own: the body of the child processes of the tests below. It streams
/// the input named in `MAINLINE_MEMORY_CHILD` (`kind:bytes`) through the extractor with the
/// built-in model and prints its peak resident memory and the bytes of text kept.
#[test]
#[ignore = "run by the memory tests in a child process"]
fn child() {
    let spec = std::env::var(CHILD).expect("run by the memory tests");
    let (kind, bytes) = spec.rsplit_once(':').unwrap();
    let bytes: usize = bytes.parse().unwrap();
    let mut ex = Extractor::new(Arc::new(ModelScorer::builtin()));
    let mut kept = 0;
    let mut take = |ex: &mut Extractor| {
        while let Some(d) = ex.next_decision() {
            if d.keep {
                kept += d.line.text.len() + 1;
            }
        }
    };
    stream(kind, bytes, &mut |piece| {
        ex.write(piece).unwrap();
        take(&mut ex);
    });
    ex.end().unwrap();
    take(&mut ex);
    let mut out = std::io::stdout().lock();
    writeln!(out, "peak_kib={} kept={kept}", own_peak_kib()).unwrap();
}

/// The peak resident memory, in KiB, of a fresh process streaming `bytes` of the input
/// `kind` through the built-in model, and the bytes of text it kept.
fn peak_kib(kind: &str, bytes: usize) -> (u64, usize) {
    let exe = std::env::current_exe().unwrap();
    let out = Command::new(exe)
        .args([
            "--exact",
            "child",
            "--ignored",
            "--nocapture",
            "--test-threads",
            "1",
        ])
        .env(CHILD, format!("{kind}:{bytes}"))
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{kind}: {stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let line = stdout
        .lines()
        .find_map(|l| l.split_once("peak_kib=").map(|(_, rest)| rest))
        .unwrap_or_else(|| panic!("{kind}: no measurement in {stdout:?}"));
    let mut fields = line
        .split(' ')
        .map(|f| f.split_once('=').map_or(f, |(_, v)| v));
    let peak = fields.next().unwrap().parse().unwrap();
    let kept = fields.next().unwrap().parse().unwrap();
    (peak, kept)
}

#[test]
fn a_longer_stream_does_not_raise_the_peak_of_the_built_in_model() {
    let (empty, _) = peak_kib("prose", 0);
    let (short, short_kept) = peak_kib("prose", 1_500_000);
    let (long, long_kept) = peak_kib("prose", 4_500_000);
    eprintln!("peak RSS: nothing {empty} KiB, 1.5 MB {short} KiB, 4.5 MB {long} KiB");
    // Both streams are several blocks long, and their prose comes out.
    assert!(short_kept > 1_000_000, "{short_kept} bytes kept of 1.5 MB");
    assert!(
        long_kept > 3 * short_kept - 100_000,
        "{long_kept} bytes kept of 4.5 MB"
    );
    assert!(
        long <= short + GROWTH_KIB,
        "3 MB more input raised the peak from {short} to {long} KiB"
    );
    assert!(
        long - empty <= README_PEAK_KIB,
        "streaming 4.5 MB added {} KiB to the peak; the README promises {README_PEAK_KIB} \
         KiB in all",
        long - empty
    );
}

#[test]
fn hostile_streams_stay_within_the_readme_bound() {
    let (empty, _) = peak_kib("prose", 0);
    let inputs = [
        ("text node", 4 << 20),
        ("nested divs", 500_000),
        ("unclosed p", 2 << 20),
        ("br storm", 2 << 20),
        ("attribute", 2 << 20),
    ];
    // One child process per input, side by side (each measures its own peak).
    let peaks: Vec<u64> = std::thread::scope(|s| {
        let spawned: Vec<_> = inputs
            .iter()
            .map(|&(kind, bytes)| s.spawn(move || peak_kib(kind, bytes).0))
            .collect();
        spawned.into_iter().map(|h| h.join().unwrap()).collect()
    });
    for ((kind, bytes), peak) in inputs.into_iter().zip(peaks) {
        eprintln!("{kind}, {bytes} bytes: peak RSS {peak} KiB (nothing: {empty} KiB)");
        assert!(
            peak - empty <= README_PEAK_KIB,
            "{kind} added {} KiB to the peak; the README promises {README_PEAK_KIB} KiB in all",
            peak - empty
        );
    }
}
