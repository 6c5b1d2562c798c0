#!/usr/bin/env python3
"""Writes the small WARC files of data/warc/ (see data/README.md).

    python3 data/warc/make.py

Every file is the same on every run (fixed ids and dates, gzip without a time stamp). The
brotli payload needs the `brotli` module (pip install brotli); the other files need only
the standard library.
"""

import gzip
import io
import os
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))

ARTICLE = """<!DOCTYPE html>
<html><head><title>{title}</title></head>
<body>
<nav><ul><li><a href="/">Home</a></li><li><a href="/news">News</a></li><li><a href="/about">About</a></li></ul></nav>
<article>
<h1>{title}</h1>
<p>{body}</p>
<p>Those who were there remember the evening well: the hall was full long before the first speaker arrived, and the questions went on until the caretaker switched off the lights.</p>
</article>
<footer><p><a href="/privacy">Privacy</a> | <a href="/contact">Contact</a></p></footer>
</body></html>
"""


def page(title, body):
    return ARTICLE.format(title=title, body=body)


def record(kind, n, block, uri=None, extra=()):
    head = ["WARC/1.0", f"WARC-Type: {kind}",
            f"WARC-Record-ID: <urn:uuid:00000000-0000-4000-8000-{n:012d}>",
            f"WARC-Date: 2026-01-02T03:04:{n % 60:02d}Z"]
    if uri:
        head.append(f"WARC-Target-URI: {uri}")
    head += list(extra)
    head.append(f"Content-Length: {len(block)}")
    return ("\r\n".join(head) + "\r\n\r\n").encode() + block + b"\r\n\r\n"


def response(n, uri, payload, headers="Content-Type: text/html; charset=utf-8",
             status="200 OK"):
    http = (f"HTTP/1.1 {status}\r\n" + "".join(h + "\r\n" for h in headers.split("\n") if h)
            + "\r\n").encode() + payload
    return record("response", n, http, uri,
                  ["Content-Type: application/http; msgtype=response"])


def member(data):
    buf = io.BytesIO()
    with gzip.GzipFile(fileobj=buf, mode="wb", mtime=0) as gz:
        gz.write(data)
    return buf.getvalue()


def write(name, data):
    with open(os.path.join(HERE, name), "wb") as f:
        f.write(data)


def chunked(data, size=100):
    out = b""
    for i in range(0, len(data), size):
        piece = data[i:i + size]
        out += b"%x\r\n" % len(piece) + piece + b"\r\n"
    return out + b"0\r\n\r\n"


def main():
    # mixed.warc.gz: every kind of record Common Crawl writes, and some it does not.
    recs = [
        record("warcinfo", 1, b"software: mainline data/warc/make.py\r\n", None,
               ["Content-Type: application/warc-fields"]),
        record("request", 2, b"GET /news/1 HTTP/1.1\r\nHost: example.org\r\n\r\n",
               "https://example.org/news/1"),
        response(3, "https://example.org/news/1", page(
            "Harbour festival returns",
            "The harbour festival returns this summer after a pause of three years, with boats, music and a night market along the quay.").encode()),
        record("metadata", 4, b"fetchTimeMs: 120\r\n", "https://example.org/news/1",
               ["Content-Type: application/warc-fields"]),
        response(5, "https://example.org/logo.png", b"\x89PNG\r\n\x1a\n" + bytes(64),
                 "Content-Type: image/png"),
        response(6, "https://example.org/report.pdf", b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n",
                 "Content-Type: application/pdf"),
        record("revisit", 7, b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n",
               "https://example.org/news/1",
               ["WARC-Profile: http://netpreserve.org/warc/1.0/revisit/identical-payload-digest"]),
        response(8, "https://example.org/missing", page("Not found", "There is no page here.").encode(),
                 status="404 Not Found"),
        response(9, "https://example.org/old", b"", "Location: https://example.org/new",
                 status="301 Moved Permanently"),
        response(10, "https://example.org/untyped", page(
            "A page without a type",
            "This response has no Content-Type header, so its first bytes decide that it is HTML: a doctype and an html element.").encode(),
            headers=""),
        response(11, "https://example.org/data.json", b'{"not": "html"}', headers=""),
        response(12, "https://example.org/news/2", page(
            "Library opens on Sundays",
            "From next month the city library opens on Sundays from ten until four, after a petition signed by more than two thousand readers.").encode(),
            "Content-Type: application/xhtml+xml"),
    ]
    write("mixed.warc.gz", b"".join(member(r) for r in recs))

    # encodings.warc: chunked transfer encoding and content encodings, uncompressed file.
    body = page("Chunked and compressed",
                "This payload was sent in chunks of one hundred bytes, each piece of a gzip stream, and arrives whole.").encode()
    recs = [
        response(21, "https://example.org/chunked-gzip", chunked(member(body)),
                 "Content-Type: text/html\nTransfer-Encoding: chunked\nContent-Encoding: gzip"),
        response(22, "https://example.org/deflate", zlib.compress(page(
            "Deflated", "This payload was compressed with the deflate content coding, a zlib stream.").encode()),
            "Content-Type: text/html\nContent-Encoding: deflate"),
        response(23, "https://example.org/chunked", chunked(page(
            "Only chunked", "This payload was sent in chunks and not compressed at all, with a chunk extension on none of them.").encode(), 37),
            "Content-Type: text/html\nTransfer-Encoding: chunked"),
    ]
    try:
        import brotli
        recs.append(response(24, "https://example.org/brotli", brotli.compress(page(
            "Brotli", "This payload was compressed with brotli, the br content coding most browsers ask for.").encode()),
            "Content-Type: text/html\nContent-Encoding: br"))
    except ImportError:
        raise SystemExit("the br record needs the brotli module: pip install brotli")
    write("encodings.warc", b"".join(recs))

    # charsets.warc.gz: the HTTP charset against <meta> and a byte order mark.
    cyr = "Новости: в субботу на набережной откроется ярмарка ремёсел и музыки."
    recs = [
        # The header is right and the <meta> wrong: the header wins.
        response(31, "https://example.org/ru", ('<meta charset="utf-8">' + page("Ярмарка", cyr)).encode("windows-1251"),
                 "Content-Type: text/html; charset=windows-1251"),
        # The header names no encoding that exists: the <meta> decides.
        response(32, "https://example.org/fr", ('<meta charset="windows-1252">' + page("Café", "Déjà vu à la fenêtre: où est le café crème?")).encode("windows-1252"),
                 "Content-Type: text/html; charset=klingon"),
        # A byte order mark beats the header.
        response(33, "https://example.org/bom", b"\xef\xbb\xbf" + page("Grüße", "Schöne Grüße aus München, über die Brücke.").encode("utf-8"),
                 "Content-Type: text/html; charset=iso-8859-1"),
        # No <meta>: the header says latin-1 and is right.
        response(34, "https://example.org/latin1", page("Señor", "El señor García llegó mañana a la estación.").encode("latin-1"),
                 "Content-Type: text/html; charset=ISO-8859-1"),
    ]
    write("charsets.warc.gz", b"".join(member(r) for r in recs))

    # truncated.warc.gz: a member cut in half in the middle, and the last one cut short.
    first = member(response(41, "https://example.org/a", page("First", "The first page is whole and is read as usual.").encode()))
    broken = member(response(42, "https://example.org/b", page("Second", "The second page is cut in half. " * 40).encode()))
    third = member(response(43, "https://example.org/c", page("Third", "The third page follows the broken member and is read.").encode()))
    last = member(response(44, "https://example.org/d", page("Fourth", "The file ends in the middle of this page. " * 40).encode()))
    write("truncated.warc.gz", first + broken[: len(broken) // 2] + third + last[: len(last) - 30])

    # oversize.warc.gz: one page of 100 KB (over a cap of 64K), then a small one.
    big = page("A very long page", "Every sentence of this page is the same, and there are many of them. " * 1500)
    recs = [
        response(51, "https://example.org/long", big.encode()),
        response(52, "https://example.org/short", page("Short", "A short page after the long one is read whole.").encode()),
    ]
    write("oversize.warc.gz", b"".join(member(r) for r in recs))


if __name__ == "__main__":
    main()
