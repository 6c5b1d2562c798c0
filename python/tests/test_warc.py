"""``mainline.iter_warc`` against ``mainline filter`` on the hand-made WARC files of
``data/warc`` (see ``data/README.md``)."""

import json
import subprocess

import pytest

import mainline
from conftest import ROOT

WARC = ROOT / "data" / "warc"


def cli_lines(cli, *args):
    """The JSON lines of ``mainline filter -q ARGS``, parsed, and the exit code."""
    out = subprocess.run([str(cli), "filter", "-q", *map(str, args)], capture_output=True)
    return [json.loads(line) for line in out.stdout.decode().splitlines()], out.returncode


def as_json(pages):
    """Dicts as they come back from JSON (the CLI's lines are compared after parsing)."""
    return [json.loads(json.dumps(p)) for p in pages]


@pytest.mark.parametrize(
    "name, args",
    [
        ("mixed.warc.gz", {}),
        ("encodings.warc", {}),
        ("charsets.warc.gz", {}),
        ("truncated.warc.gz", {}),
        ("oversize.warc.gz", {"max_payload": 64 * 1024}),
        ("mixed.warc.gz", {"format": "markdown", "links": True}),
        ("charsets.warc.gz", {"format": "json"}),
        ("mixed.warc.gz", {"any_status": True, "threads": 2}),
    ],
)
def test_the_pages_are_the_command_lines_json_lines(cli, name, args):
    flags = []
    if "format" in args:
        flags += ["--format", args["format"]]
    if args.get("links"):
        flags += ["--links"]
    if "max_payload" in args:
        flags += ["--max-payload", str(args["max_payload"])]
    if args.get("any_status"):
        flags += ["--any-status"]
    expected, code = cli_lines(cli, *flags, WARC / name)
    assert expected, name
    got = as_json(mainline.iter_warc(WARC / name, **args))
    assert got == expected
    # The exit code says whether some record failed; so does an "error" field here.
    assert (code == 1) == any(p.get("error") for p in got)


def test_the_fields_of_a_page_and_what_is_skipped():
    pages = mainline.iter_warc(str(WARC / "mixed.warc.gz"), threads=1)
    first = next(pages)
    assert first["warc_record_id"] == "<urn:uuid:00000000-0000-4000-8000-000000000003>"
    assert first["url"] == "https://example.org/news/1"
    assert first["warc_date"] == "2026-01-02T03:04:03Z"
    assert "harbour festival returns this summer" in first["text"]
    assert "error" not in first and "markdown" not in first
    rest = list(pages)
    assert [p["url"] for p in rest] == ["https://example.org/untyped", "https://example.org/news/2"]
    assert pages.skipped == {
        "metadata": 1,
        "non-2xx status": 2,
        "not HTML": 3,
        "request": 1,
        "revisit": 1,
        "warcinfo": 1,
    }
    # An iterator: exhausted once read.
    assert list(pages) == []


def test_damaged_records_are_error_dicts_and_reading_goes_on():
    pages = list(mainline.iter_warc(WARC / "truncated.warc.gz"))
    errors = [p for p in pages if p.get("error")]
    good = [p for p in pages if not p.get("error")]
    assert errors and good
    for p in errors:
        assert p["text"] is None and isinstance(p["warc_offset"], int)
    # The record after the damaged member is read.
    assert pages.index(errors[0]) < len(pages) - 1
    cut = list(mainline.iter_warc(WARC / "oversize.warc.gz", max_payload=64 * 1024))
    assert "cut at 65536 bytes" in cut[0]["error"] and len(cut[0]["text"]) > 1000
    assert "short page after the long one" in cut[1]["text"] and "error" not in cut[1]


def test_an_extractor_reads_warc_files_with_its_own_model_and_format():
    ex = mainline.Extractor(threshold=0.5, format="json")
    pages = list(ex.iter_warc(WARC / "mixed.warc.gz", threads=1))
    assert len(pages) == 3
    assert all("language" in p and "encoding" in p and "markdown" not in p for p in pages)
    assert [p["text"] for p in pages] == [
        p["text"] for p in mainline.iter_warc(WARC / "mixed.warc.gz", threshold=0.5)
    ]


def test_files_that_cannot_be_read_raise(tmp_path):
    with pytest.raises(FileNotFoundError, match="missing.warc.gz"):
        mainline.iter_warc(tmp_path / "missing.warc.gz")
    with pytest.raises(IsADirectoryError):
        mainline.iter_warc(tmp_path)
    with pytest.raises(ValueError, match="threads"):
        mainline.iter_warc(WARC / "mixed.warc.gz", threads=0)
    # A file that is not WARC at all: one error dict, no exception.
    page = tmp_path / "page.html"
    page.write_text("<p>not an archive</p>")
    (only,) = list(mainline.iter_warc(page))
    assert only["text"] is None and "not a WARC record header" in only["error"]


def test_pages_keep_the_file_order_across_batches_and_threads(tmp_path):
    # 300 records, each its own gzip member: several batches of 64 records.
    import gzip

    path = tmp_path / "many.warc.gz"
    with open(path, "wb") as f:
        for i in range(300):
            body = (f"<html><body><article><p>Page {i} says: " + "Words of a page. " * 40
                    + "</p></article></body></html>").encode()
            http = b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n" + body
            head = (f"WARC/1.0\r\nWARC-Type: response\r\nWARC-Record-ID: <urn:uuid:{i}>\r\n"
                    f"WARC-Target-URI: https://example.org/{i}\r\n"
                    f"Content-Length: {len(http)}\r\n\r\n").encode()
            f.write(gzip.compress(head + http + b"\r\n\r\n"))
    pages = mainline.iter_warc(path, threads=2)
    first = next(pages)
    assert first["url"] == "https://example.org/0" and first["text"].startswith("Page 0 says")
    rest = list(pages)
    assert [p["url"] for p in rest] == [f"https://example.org/{i}" for i in range(1, 300)]
    assert [p["text"] for p in rest] == [p["text"] for p in mainline.iter_warc(path, threads=1)][1:]
