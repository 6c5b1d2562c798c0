use std::io::Write;

use super::*;
use crate::extract::{Extractor, Scorer};
use std::sync::Arc;

fn record(kind: &str, id: &str, block: &[u8]) -> Vec<u8> {
    let mut r = format!(
        "WARC/1.0\r\nWARC-Type: {kind}\r\nWARC-Record-ID: <urn:uuid:{id}>\r\n\
         WARC-Target-URI: https://example.org/{id}\r\nWARC-Date: 2026-01-01T00:00:00Z\r\n\
         Content-Length: {}\r\n\r\n",
        block.len()
    )
    .into_bytes();
    r.extend_from_slice(block);
    r.extend_from_slice(b"\r\n\r\n");
    r
}

fn response(id: &str, headers: &str, payload: &[u8]) -> Vec<u8> {
    let mut http = format!("HTTP/1.1 200 OK\r\n{headers}\r\n").into_bytes();
    http.extend_from_slice(payload);
    record("response", id, &http)
}

fn gz(data: &[u8]) -> Vec<u8> {
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    e.write_all(data).unwrap();
    e.finish().unwrap()
}

/// Each record read: its id, or `Err(message)`.
fn ids(data: &[u8]) -> Vec<Result<String, String>> {
    Reader::new(data)
        .map(|r| match r {
            Ok(r) => Ok(r.id().unwrap_or("").to_string()),
            Err(e) => Err(e.message),
        })
        .collect()
}

fn ok(ids: &[&str]) -> Vec<Result<String, String>> {
    ids.iter().map(|i| Ok(format!("<urn:uuid:{i}>"))).collect()
}

#[test]
fn plain_and_per_record_gzip_files_give_the_same_records() {
    let recs = [
        record("warcinfo", "0", b"software: test\r\n"),
        record("request", "1", b"GET / HTTP/1.1\r\n\r\n"),
        response("2", "Content-Type: text/html\r\n", b"<p>hi</p>"),
    ];
    let plain: Vec<u8> = recs.concat();
    let members: Vec<u8> = recs.iter().flat_map(|r| gz(r)).collect();
    let whole = gz(&plain);
    for data in [&plain, &members, &whole] {
        assert_eq!(ids(data), ok(&["0", "1", "2"]));
    }
}

#[test]
fn records_report_their_offsets() {
    let a = gz(&record("request", "1", b"x"));
    let b = gz(&record("request", "2", b"y"));
    let data = [a.clone(), b].concat();
    let offsets: Vec<u64> = Reader::new(&data[..])
        .map(|r| r.unwrap().offset())
        .collect();
    assert_eq!(offsets, vec![0, a.len() as u64]);
    let plain = [record("request", "1", b"x"), record("request", "2", b"y")].concat();
    let offsets: Vec<u64> = Reader::new(&plain[..])
        .map(|r| r.unwrap().offset())
        .collect();
    assert_eq!(offsets, vec![0, record("request", "1", b"x").len() as u64]);
}

#[test]
fn a_truncated_member_is_one_error_and_the_next_record_is_read() {
    let big = response(
        "2",
        "Content-Type: text/html\r\n",
        &b"<p>words</p>".repeat(2000),
    );
    let cut = gz(&big);
    let data = [
        gz(&record("request", "1", b"x")),
        cut[..cut.len() / 2].to_vec(),
        gz(&record("request", "3", b"z")),
    ]
    .concat();
    let got = ids(&data);
    assert_eq!(got.len(), 3, "{got:?}");
    assert_eq!(got[0], Ok("<urn:uuid:1>".into()));
    assert!(got[1].is_err(), "{got:?}");
    assert_eq!(got[2], Ok("<urn:uuid:3>".into()));
    // The error names the record whose header was read.
    let err = Reader::new(&data[..]).nth(1).unwrap().unwrap_err();
    assert_eq!(err.id.as_deref(), Some("<urn:uuid:2>"));
    assert_eq!(err.target_uri.as_deref(), Some("https://example.org/2"));
}

#[test]
fn a_file_cut_inside_its_last_member_ends_with_an_error() {
    let last = gz(&response("2", "", &b"<p>words</p>".repeat(500)));
    let data = [
        gz(&record("request", "1", b"x")),
        last[..last.len() - 20].to_vec(),
    ]
    .concat();
    let got = ids(&data);
    assert_eq!(got[0], Ok("<urn:uuid:1>".into()));
    assert!(
        matches!(&got[1], Err(m) if m.contains("corrupt gzip")),
        "{got:?}"
    );
    assert_eq!(got.len(), 2);
}

#[test]
fn garbage_between_records_is_one_error() {
    let plain = [
        record("request", "1", b"x"),
        b"this is not a record\r\n\r\nnor this\r\n".to_vec(),
        record("request", "2", b"y"),
    ]
    .concat();
    let got = ids(&plain);
    assert_eq!(got.len(), 3, "{got:?}");
    assert!(got[1].is_err());
    assert_eq!(got[2], Ok("<urn:uuid:2>".into()));
    let gzipped = [
        gz(&record("request", "1", b"x")),
        b"\x00\x01garbage bytes".to_vec(),
        gz(&record("request", "2", b"y")),
    ]
    .concat();
    let got = ids(&gzipped);
    assert_eq!(got.len(), 3, "{got:?}");
    assert!(got[1].is_err());
    assert_eq!(got[2], Ok("<urn:uuid:2>".into()));
}

#[test]
fn a_block_shorter_than_its_content_length_is_an_error() {
    let mut r = record("request", "1", b"0123456789");
    // Claims 20 bytes, has 10 (+4 for the CRLFs) before the member ends: the block runs
    // on into the next member, and is not followed by CRLF CRLF there.
    let s = String::from_utf8(r.clone())
        .unwrap()
        .replace("Content-Length: 10", "Content-Length: 20");
    r = s.into_bytes();
    let data = [gz(&r), gz(&record("request", "2", b"y"))].concat();
    let got = ids(&data);
    assert!(
        matches!(&got[0], Err(m) if m.contains("Content-Length (20)")),
        "{got:?}"
    );
    assert_eq!(got[1], Ok("<urn:uuid:2>".into()));
}

#[test]
fn blocks_over_the_cap_are_cut_and_the_reader_goes_on() {
    let payload = b"<p>long</p>".repeat(100);
    let data = [
        gz(&response("1", "Content-Type: text/html\r\n", &payload)),
        gz(&record("request", "2", b"y")),
    ]
    .concat();
    let recs: Vec<Record> = Reader::new(&data[..])
        .max_block(100)
        .map(Result::unwrap)
        .collect();
    assert_eq!(recs.len(), 2);
    assert!(recs[0].is_cut());
    assert_eq!(recs[0].block().len(), 100);
    assert!(recs[0].content_length() > 1000);
    let Content::Html(html) = recs[0].html(&HtmlOptions::default()).unwrap() else {
        panic!("not html");
    };
    assert!(html.cut);
    assert!(!recs[1].is_cut());
}

#[test]
fn responses_are_sorted_into_html_and_skips() {
    let html = |headers: &str, payload: &[u8]| {
        let data = response("1", headers, payload);
        let r = Reader::new(&data[..]).next().unwrap().unwrap();
        r.html(&HtmlOptions::default()).map(Content::into_owned)
    };
    assert!(matches!(
        html("Content-Type: text/html\r\n", b"<p>x"),
        Ok(Content::Html(_))
    ));
    assert!(matches!(
        html("Content-Type: application/xhtml+xml\r\n", b"<p>x"),
        Ok(Content::Html(_))
    ));
    assert_eq!(
        html("Content-Type: image/png\r\n", b"\x89PNG"),
        Ok(Content::Skip(Skip::NotHtml("image/png".into())))
    );
    // No type: sniffed.
    assert!(matches!(
        html("", b"  <!DOCTYPE html><p>x"),
        Ok(Content::Html(_))
    ));
    assert_eq!(
        html("", b"%PDF-1.5"),
        Ok(Content::Skip(Skip::NotHtml("unknown".into())))
    );
    let request = record("request", "1", b"GET / HTTP/1.1\r\n\r\n");
    let r = Reader::new(&request[..]).next().unwrap().unwrap();
    assert_eq!(
        r.html(&HtmlOptions::default()),
        Ok(Content::Skip(Skip::Record("request".into())))
    );
}

#[test]
fn non_2xx_responses_are_skipped_unless_asked() {
    let mut http = b"HTTP/1.1 404 Not Found\r\nContent-Type: text/html\r\n\r\n<p>gone</p>".to_vec();
    let data = record("response", "1", &http);
    let r = Reader::new(&data[..]).next().unwrap().unwrap();
    assert_eq!(
        r.html(&HtmlOptions::default()),
        Ok(Content::Skip(Skip::Status(404)))
    );
    let any = HtmlOptions {
        any_status: true,
        ..HtmlOptions::default()
    };
    assert!(matches!(r.html(&any), Ok(Content::Html(h)) if h.status == 404));
    http.clear();
}

#[test]
fn transfer_and_content_encodings_are_undone() {
    let page = b"<p>compressed page</p>".repeat(10);
    let chunked_gzip = {
        let z = gz(&page);
        let mut c = Vec::new();
        for piece in z.chunks(50) {
            c.extend_from_slice(format!("{:x}\r\n", piece.len()).as_bytes());
            c.extend_from_slice(piece);
            c.extend_from_slice(b"\r\n");
        }
        c.extend_from_slice(b"0\r\n\r\n");
        c
    };
    let data = response(
        "1",
        "Content-Type: text/html\r\nTransfer-Encoding: chunked\r\nContent-Encoding: gzip\r\n",
        &chunked_gzip,
    );
    let r = Reader::new(&data[..]).next().unwrap().unwrap();
    let Ok(Content::Html(h)) = r.html(&HtmlOptions::default()) else {
        panic!()
    };
    assert_eq!(h.body, page);
    let mut z = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::fast());
    z.write_all(&page).unwrap();
    let data = response("1", "Content-Encoding: deflate\r\n", &z.finish().unwrap());
    let r = Reader::new(&data[..]).next().unwrap().unwrap();
    assert!(matches!(r.html(&HtmlOptions::default()), Ok(Content::Html(h)) if h.body == page));
    let data = response("1", "Content-Encoding: zstd\r\n", b"\x28\xb5\x2f\xfd");
    let r = Reader::new(&data[..]).next().unwrap().unwrap();
    assert!(r.html(&HtmlOptions::default()).is_err());
}

#[test]
fn a_decoded_payload_over_the_cap_is_cut() {
    let page = b"<p>bomb</p>".repeat(10_000);
    let data = response("1", "Content-Encoding: gzip\r\n", &gz(&page));
    let r = Reader::new(&data[..]).next().unwrap().unwrap();
    let opts = HtmlOptions {
        max_payload: 1000,
        ..HtmlOptions::default()
    };
    let Ok(Content::Html(h)) = r.html(&opts) else {
        panic!()
    };
    assert_eq!(h.body.len(), 1000);
    assert!(h.cut);
}

#[test]
fn the_http_charset_comes_before_meta_but_after_a_bom() {
    let scorer: Arc<dyn Scorer> = Arc::new(crate::extract::Threshold(0.0));
    let page = b"<meta charset=utf-8><p>\xcf\xf0\xe8\xe2\xe5\xf2</p>"; // "Привет" in windows-1251
    let data = response(
        "1",
        "Content-Type: text/html; charset=windows-1251\r\n",
        page,
    );
    let r = Reader::new(&data[..]).next().unwrap().unwrap();
    let Ok(Content::Html(h)) = r.html(&HtmlOptions::default()) else {
        panic!()
    };
    assert_eq!(h.charset, Some(encoding_rs::WINDOWS_1251));
    assert_eq!(
        h.page(None)
            .text(&mut Extractor::new(Arc::clone(&scorer)))
            .unwrap(),
        "Привет"
    );
    let bom = [&b"\xef\xbb\xbf"[..], "<p>Привет</p>".as_bytes()].concat();
    let data = response(
        "1",
        "Content-Type: text/html; charset=windows-1251\r\n",
        &bom,
    );
    let r = Reader::new(&data[..]).next().unwrap().unwrap();
    let Ok(Content::Html(h)) = r.html(&HtmlOptions::default()) else {
        panic!()
    };
    assert_eq!(
        h.page(None).text(&mut Extractor::new(scorer)).unwrap(),
        "Привет"
    );
}

mod damage {
    use super::*;
    use proptest::prelude::*;

    fn file() -> (Vec<u8>, Vec<std::ops::Range<usize>>) {
        let mut data = Vec::new();
        let mut members = Vec::new();
        for i in 0..6 {
            let page = format!("<p>page {i}</p>").repeat(20 + i * 30);
            let m = gz(&response(
                &i.to_string(),
                "Content-Type: text/html\r\n",
                page.as_bytes(),
            ));
            members.push(data.len()..data.len() + m.len());
            data.extend(m);
        }
        (data, members)
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(200))]

        /// A byte changed anywhere in one member loses that record only: every other
        /// record is read whole, in order, and the reader ends.
        #[test]
        fn a_damaged_member_loses_only_its_own_record(at in 0usize..10_000, xor in 1u8..=255) {
            let (mut data, members) = file();
            let at = at % data.len();
            data[at] ^= xor;
            let hit = members.iter().position(|m| m.contains(&at)).unwrap();
            let got: Vec<String> = Reader::new(&data[..])
                .filter_map(|r| r.ok())
                .map(|r| r.id().unwrap_or("").to_string())
                .collect();
            let want: Vec<String> = (0..6).filter(|&i| i != hit).map(|i| format!("<urn:uuid:{i}>")).collect();
            // The damaged record itself may survive a change the checksum does not cover
            // (a header field such as the time stamp).
            let survived: Vec<String> = got.iter().filter(|id| **id != format!("<urn:uuid:{hit}>")).cloned().collect();
            prop_assert_eq!(survived, want);
        }

        /// Any prefix of the file is read without a panic, and every complete member in it
        /// gives its record.
        #[test]
        fn a_cut_file_gives_its_complete_records(cut in 0usize..10_000) {
            let (data, members) = file();
            let cut = cut % (data.len() + 1);
            let complete = members.iter().filter(|m| m.end <= cut).count();
            let ok = Reader::new(&data[..cut]).filter(|r| r.is_ok()).count();
            prop_assert_eq!(ok, complete);
        }
    }
}
