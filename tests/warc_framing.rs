//! Exact WARC framing: `Content-Length` against the block and the CRLF CRLF after it,
//! records across gzip member boundaries, damaged members, chunked bodies, and what the
//! command says of each (its JSON-lines error records and its standard error), plus the
//! property that every well-formed record comes out exactly once (`common/warc_framing.rs`
//! defines "well formed").

#[path = "common/warc_framing.rs"]
mod case;

use std::io::Write;

use proptest::prelude::*;

proptest! {
    #![proptest_config(ProptestConfig::with_cases(600))]

    /// Every well-formed record in a generated file comes out exactly once.
    #[test]
    fn every_well_formed_record_comes_out_exactly_once(bytes in proptest::collection::vec(any::<u8>(), 0..400)) {
        let c = case::build(&bytes);
        if let Err(e) = case::check(&c) {
            prop_assert!(false, "{e}");
        }
    }
}

// The command on hand-built files: four response records, the second one altered.

use std::path::Path;

use assert_cmd::Command;
use serde_json::Value;

fn response(i: usize, http: &[u8], delta: i64) -> Vec<u8> {
    let mut r = format!(
        "WARC/1.0\r\nWARC-Type: response\r\nWARC-Record-ID: <urn:uuid:{i}>\r\n\
         WARC-Target-URI: https://example.org/{i}\r\nContent-Length: {}\r\n\r\n",
        http.len() as i64 + delta
    )
    .into_bytes();
    r.extend_from_slice(http);
    r.extend_from_slice(b"\r\n\r\n");
    r
}

fn page(i: usize) -> Vec<u8> {
    format!(
        "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n<html><body><p>Page number {i} \
         has a paragraph of text that is long enough to keep.</p></body></html>"
    )
    .into_bytes()
}

fn gz(data: &[u8]) -> Vec<u8> {
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    e.write_all(data).unwrap();
    e.finish().unwrap()
}

/// Records 1 to 4, the second with its `Content-Length` changed by `delta`.
fn records(delta: i64) -> Vec<Vec<u8>> {
    (1..=4)
        .map(|i| response(i, &page(i), if i == 2 { delta } else { 0 }))
        .collect()
}

/// `mainline filter FILE`: the output lines, the exit code, standard error.
fn filter(dir: &Path, name: &str, data: &[u8]) -> (Vec<Value>, i32, String) {
    let path = dir.join(name);
    std::fs::write(&path, data).unwrap();
    let out = Command::cargo_bin("mainline")
        .unwrap()
        .arg("filter")
        .arg(&path)
        .output()
        .unwrap();
    let lines = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    (
        lines,
        out.status.code().unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

/// Records 1, 3 and 4 with their text, and one error line for record 2 at `offset`, in
/// the output and on standard error.
fn one_error_at(out: &(Vec<Value>, i32, String), name: &str, offset: usize) -> String {
    let (lines, code, stderr) = out;
    assert_eq!(*code, 1, "{stderr}");
    let ids: Vec<&str> = lines
        .iter()
        .map(|l| l["warc_record_id"].as_str().unwrap_or("-"))
        .collect();
    assert_eq!(lines.len(), 4, "{lines:?}");
    for (i, n) in [(0, 1), (2, 3), (3, 4)] {
        assert_eq!(ids[i], format!("<urn:uuid:{n}>"), "{lines:?}");
        assert!(
            lines[i]["text"]
                .as_str()
                .unwrap()
                .contains(&format!("Page number {n} ")),
            "{lines:?}"
        );
    }
    let bad = &lines[1];
    assert!(bad["text"].is_null(), "{bad}");
    assert_eq!(bad["warc_offset"].as_u64(), Some(offset as u64), "{bad}");
    let errors: Vec<&str> = stderr
        .lines()
        .filter(|l| l.contains("record at offset"))
        .collect();
    assert_eq!(errors.len(), 1, "{stderr}");
    assert!(
        errors[0].starts_with("mainline: ")
            && errors[0].contains(&format!("{name}: record at offset {offset}")),
        "{stderr}"
    );
    assert!(
        stderr.contains("3 HTML records, 1 record with errors"),
        "{stderr}"
    );
    bad["error"].as_str().unwrap().to_string()
}

fn plain_and_gzip(delta: i64, what: &str) {
    let dir = tempfile::tempdir().unwrap();
    let recs = records(delta);
    let plain = recs.concat();
    let out = filter(dir.path(), "a.warc", &plain);
    let e = one_error_at(&out, "a.warc", recs[0].len());
    assert!(e.contains(what), "{e}");
    let members: Vec<Vec<u8>> = recs.iter().map(|r| gz(r)).collect();
    let out = filter(dir.path(), "a.warc.gz", &members.concat());
    let e = one_error_at(&out, "a.warc.gz", members[0].len());
    assert!(e.contains(what), "{e}");
}

#[test]
fn a_content_length_larger_than_the_block_is_one_error_and_the_next_record_is_read() {
    plain_and_gzip(10, "Content-Length (");
    plain_and_gzip(2, "Content-Length (");
    plain_and_gzip(500, "");
}

#[test]
fn a_content_length_smaller_than_the_block_is_one_error() {
    plain_and_gzip(-10, "Content-Length (");
    plain_and_gzip(-1, "Content-Length (");
}

#[test]
fn a_truncated_or_damaged_member_is_one_error_with_its_offset() {
    let dir = tempfile::tempdir().unwrap();
    let recs = records(0);
    let mut members: Vec<Vec<u8>> = recs.iter().map(|r| gz(r)).collect();
    let n = members[1].len();
    members[1].truncate(n / 2);
    let out = filter(dir.path(), "t.warc.gz", &members.concat());
    let e = one_error_at(&out, "t.warc.gz", members[0].len());
    assert!(
        e.contains("corrupt gzip data in the member at offset"),
        "{e}"
    );
    // A checksum that does not match.
    let mut members: Vec<Vec<u8>> = recs.iter().map(|r| gz(r)).collect();
    members[1][n - 6] ^= 0x55;
    let out = filter(dir.path(), "c.warc.gz", &members.concat());
    let e = one_error_at(&out, "c.warc.gz", members[0].len());
    assert!(e.contains("CRC-32"), "{e}");
}

#[test]
fn records_are_read_across_gzip_member_boundaries() {
    let dir = tempfile::tempdir().unwrap();
    let recs = records(0);
    let plain = recs.concat();
    // Members that end inside a header, inside a block, inside the CRLF CRLF, and one
    // that is empty.
    let cuts = [
        0,
        30,
        recs[0].len() + 100,
        recs[0].len() + recs[1].len() - 2,
        recs[0].len() + recs[1].len() - 2,
        plain.len(),
    ];
    let data: Vec<u8> = cuts
        .windows(2)
        .flat_map(|w| gz(&plain[w[0]..w[1]]))
        .collect();
    let (lines, code, stderr) = filter(dir.path(), "s.warc.gz", &data);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(lines.len(), 4, "{lines:?}");
    for (i, l) in lines.iter().enumerate() {
        assert!(
            l["text"]
                .as_str()
                .unwrap()
                .contains(&format!("Page number {} ", i + 1))
        );
    }
    assert!(
        stderr.contains("4 HTML records, 0 records with errors"),
        "{stderr}"
    );
    // The member holding the end of record 2 and the start of record 3 damaged: those two
    // are lost, with one error, and record 4 is read.
    let cuts = [
        0,
        recs[0].len() + 50,
        recs[0].len() + recs[1].len() + 50,
        plain.len(),
    ];
    let mut members: Vec<Vec<u8>> = cuts.windows(2).map(|w| gz(&plain[w[0]..w[1]])).collect();
    let n = members[1].len();
    members[1][n - 7] ^= 0x01;
    let (lines, code, stderr) = filter(dir.path(), "d.warc.gz", &members.concat());
    assert_eq!(code, 1, "{stderr}");
    let ids: Vec<&str> = lines
        .iter()
        .map(|l| l["warc_record_id"].as_str().unwrap_or("-"))
        .collect();
    assert_eq!(
        ids,
        ["<urn:uuid:1>", "<urn:uuid:2>", "<urn:uuid:4>"],
        "{lines:?}"
    );
    assert!(lines[1]["text"].is_null());
    assert_eq!(lines[1]["warc_offset"].as_u64(), Some(0));
    assert!(
        stderr.contains("2 HTML records, 1 record with errors"),
        "{stderr}"
    );
}

#[test]
fn a_bad_chunk_size_is_an_error_for_its_record() {
    let dir = tempfile::tempdir().unwrap();
    let body = b"<html><body><p>A chunked page with a paragraph of text.</p></body></html>";
    let head = b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nTransfer-Encoding: chunked\r\n\r\n";
    let chunks = |size: &[u8], last: bool| {
        let mut c = head.to_vec();
        c.extend_from_slice(size);
        c.extend_from_slice(b"\r\n");
        c.extend_from_slice(body);
        c.extend_from_slice(b"\r\n");
        if last {
            c.extend_from_slice(b"0\r\n\r\n");
        }
        c
    };
    let good = format!("{:x}", body.len());
    for (size, last, what) in [
        (&b"zz"[..], true, "\"zz\""),
        (b"-5", true, "\"-5\""),
        (b"111111111111111111111", true, "16 digits"),
        (good.as_bytes(), false, "last (zero-size) chunk"),
    ] {
        let recs = [
            response(1, &page(1), 0),
            response(2, &chunks(size, last), 0),
            response(3, &page(3), 0),
            response(4, &page(4), 0),
        ];
        let out = filter(dir.path(), "c.warc", &recs.concat());
        let e = one_error_at(&out, "c.warc", recs[0].len());
        assert!(e.starts_with("bad chunked transfer encoding"), "{e}");
        assert!(e.contains(what), "{e}");
    }
    // Well-formed chunks still decode.
    let recs = [response(1, &chunks(good.as_bytes(), true), 0)];
    let (lines, code, _) = filter(dir.path(), "g.warc", &recs.concat());
    assert_eq!(code, 0);
    assert_eq!(lines[0]["text"], "A chunked page with a paragraph of text.");
}

#[test]
fn messages_say_what_is_wrong_in_plain_words() {
    let dir = tempfile::tempdir().unwrap();
    // A member cut short: no inflate internals ("repeated call with bad state").
    let big: Vec<u8> = (0..20_000u32)
        .map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8)
        .collect();
    let mut http = page(1);
    http.extend_from_slice(&big);
    let first = gz(&response(1, &http, 0));
    let data = [&first[..78], &gz(&response(2, &page(2), 0))[..]].concat();
    let (lines, code, stderr) = filter(dir.path(), "m.warc.gz", &data);
    assert_eq!(code, 1);
    assert!(
        !stderr.contains("bad state") && !stderr.contains("deflate decompression"),
        "{stderr}"
    );
    assert!(stderr.contains("m.warc.gz: record at offset 0"), "{stderr}");
    assert!(
        lines[0]["error"]
            .as_str()
            .unwrap()
            .contains("corrupt gzip data in the member at offset 0")
    );
    assert_eq!(lines.last().unwrap()["warc_record_id"], "<urn:uuid:2>");
    // A payload that is an executable.
    let mut elf = b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n\x7fELF\x02\x01\x01".to_vec();
    elf.extend_from_slice(&[0; 64]);
    let (lines, _, stderr) = filter(dir.path(), "e.warc", &response(1, &elf, 0));
    assert!(stderr.contains("looks like an ELF executable"), "{stderr}");
    assert!(
        lines[0]["error"]
            .as_str()
            .unwrap()
            .ends_with("looks like an ELF executable")
    );
    // Counts in the singular.
    let (_, code, stderr) = filter(dir.path(), "o.warc", &response(1, &page(1), 0));
    assert_eq!(code, 0);
    assert!(
        stderr.contains("mainline: 1 WARC file (0 failed), 1 HTML record, 0 records with errors"),
        "{stderr}"
    );
}

/// A fuzz finding (`tests/regressions/NAME`: the bytes a case is built from), checked as
/// the fuzz target checks it.
fn fuzz_finding(name: &str) {
    let bytes = std::fs::read(format!(
        "{}/tests/regressions/{name}",
        concat!(env!("CARGO_MANIFEST_DIR"), "/..")
    ))
    .unwrap();
    case::check(&case::build(&bytes)).unwrap();
}

/// A record whose header runs from one gzip member into the next two, the last of them
/// damaged: the reader looked for the next header at the second member's start, ran into
/// the damage there, and tried again at the same place for ever.
#[test]
fn fuzz_a_header_cut_by_a_damaged_member_is_read_past() {
    fuzz_finding("warc_framing-no-progress.bin");
}

/// The property test's finding: a record header that ends in a gzip member whose deflate
/// data is damaged (so its `Content-Length` reads `130}`) was one error for the header and
/// another for the member's checksum; the damage is what to report, once.
#[test]
fn proptest_a_header_read_from_a_damaged_member_is_one_error() {
    fuzz_finding("warc_framing-damaged-header.bin");
}

/// After a record whose block is not followed by CRLF CRLF, the reader went to the next
/// gzip member's start as it was before reading on, which had moved the buffer: its
/// position fell past the buffer's end (an overflow in a debug build).
#[test]
fn fuzz_the_next_member_is_found_after_the_buffer_moves() {
    fuzz_finding("warc_framing-buffer-moved.bin");
}

/// A record header that runs into a gzip member cut short: the member gave garbled bytes
/// (`Content-Length: 91m`) before it said it was cut short, and the reader reported the
/// header and then the member; the damage is what to report, once.
#[test]
fn fuzz_a_header_read_from_a_member_cut_short_is_one_error() {
    fuzz_finding("warc_framing-cut-member-header.bin");
}

/// A case whose altered `Content-Length` came to end where CRLF CRLF follows once the
/// headers after it had grown by a digit: the generator checked each length against the
/// file as it was before the later records were rewritten. (The reader read that record
/// as well formed, as the definition says; the file is now built again until no altered
/// length ends there.)
#[test]
fn fuzz_no_altered_length_ends_at_crlf_crlf_in_the_final_file() {
    fuzz_finding("warc_framing-length-moved.bin");
}
