"""``mainline.iter_warc`` on WARC files whose framing is wrong: one error dict per bad
record, at its offset, the records around it read, as ``mainline filter`` gives them
(``tests/warc_framing.rs`` tests the command itself)."""

import gzip
import json
import subprocess

import pytest

import mainline


def page(i):
    return (b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n<html><body><p>Page number %d "
            b"has a paragraph of text that is long enough to keep.</p></body></html>" % i)


def record(i, http, delta=0):
    head = (f"WARC/1.0\r\nWARC-Type: response\r\nWARC-Record-ID: <urn:uuid:{i}>\r\n"
            f"WARC-Target-URI: https://example.org/{i}\r\n"
            f"Content-Length: {len(http) + delta}\r\n\r\n").encode()
    return head + http + b"\r\n\r\n"


def chunked(size):
    body = b"<html><body><p>A chunked page with a paragraph of text.</p></body></html>"
    return (b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nTransfer-Encoding: chunked\r\n\r\n"
            + size + b"\r\n" + body + b"\r\n0\r\n\r\n")


def files(second):
    """Four records, the second one ``second``: plain, and one gzip member per record."""
    recs = [record(1, page(1)), second, record(3, page(3)), record(4, page(4))]
    members = [gzip.compress(r) for r in recs]
    return [("a.warc", b"".join(recs), len(recs[0])),
            ("a.warc.gz", b"".join(members), len(members[0]))]


@pytest.mark.parametrize(
    "second, what",
    [
        (record(2, page(2), 10), "Content-Length (153)"),
        (record(2, page(2), -10), "Content-Length (133)"),
        (record(2, chunked(b"zz")), 'chunk size "zz"'),
        (record(2, chunked(b"-5")), 'chunk size "-5"'),
        (record(2, chunked(b"1" * 21)), "at most 16 digits"),
    ],
)
def test_a_bad_record_is_one_error_dict_at_its_offset(cli, tmp_path, second, what):
    for name, data, offset in files(second):
        path = tmp_path / name
        path.write_bytes(data)
        pages = list(mainline.iter_warc(path))
        assert [p["warc_record_id"] for p in pages] == [f"<urn:uuid:{i}>" for i in (1, 2, 3, 4)]
        errors = [p for p in pages if p.get("error")]
        assert len(errors) == 1 and errors[0] is pages[1], pages
        assert errors[0]["text"] is None and errors[0]["warc_offset"] == offset
        assert what in errors[0]["error"]
        for i, p in zip((1, 3, 4), (pages[0], pages[2], pages[3])):
            assert f"Page number {i} " in p["text"]
        out = subprocess.run([str(cli), "filter", "-q", str(path)], capture_output=True)
        assert out.returncode == 1
        lines = [json.loads(line) for line in out.stdout.decode().splitlines()]
        assert json.loads(json.dumps(pages)) == lines


def test_records_are_read_across_gzip_member_boundaries(tmp_path):
    plain = b"".join(record(i, page(i)) for i in (1, 2, 3))
    cuts = [0, 30, 300, 301, len(plain)]
    path = tmp_path / "s.warc.gz"
    path.write_bytes(b"".join(gzip.compress(plain[a:b]) for a, b in zip(cuts, cuts[1:])))
    pages = list(mainline.iter_warc(path))
    assert [p["url"] for p in pages] == [f"https://example.org/{i}" for i in (1, 2, 3)]
    assert not any(p.get("error") for p in pages)
