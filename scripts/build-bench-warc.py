#!/usr/bin/env python3
"""Builds the benchmark WARC from the WCXB development pages.

    python3 scripts/build-bench-warc.py [PAGES_DIR] [OUT]

PAGES_DIR defaults to ../shared/data/wcxb-dev/html (the NNNN.html.gz pages), OUT to
target/bench/wcxb-dev.warc.gz. The file is laid out as Common Crawl writes its WARC files:
a `warcinfo` record, then for every page a `request`, a `response` (the page behind an
HTTP/1.1 200 header, as fetched, without Content-Encoding) and a `metadata` record, each
record its own gzip member. Record ids and dates are derived from the page numbers, so the
file is the same on every run. The pages are CC-BY-4.0 (see the data set's LICENSE): the
file is built under target/ and never committed.
"""

import gzip
import io
import json
import os
import sys
import uuid

NAMESPACE = uuid.UUID("6f1d3c52-1d8e-4a43-9a0f-6c2b7d6e9a10")


def record(kind, headers, block):
    lines = ["WARC/1.0", f"WARC-Type: {kind}"]
    lines += [f"{k}: {v}" for k, v in headers]
    lines.append(f"Content-Length: {len(block)}")
    head = ("\r\n".join(lines) + "\r\n\r\n").encode("utf-8")
    buf = io.BytesIO()
    # One gzip member per record, level 6 as Common Crawl's writer uses by default.
    with gzip.GzipFile(fileobj=buf, mode="wb", compresslevel=6, mtime=0) as gz:
        gz.write(head + block + b"\r\n\r\n")
    return buf.getvalue()


def rid(*parts):
    return "<urn:uuid:%s>" % uuid.uuid5(NAMESPACE, "/".join(parts))


def main():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    pages = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
        root, "..", "shared", "data", "wcxb-dev", "html")
    out = sys.argv[2] if len(sys.argv) > 2 else os.path.join(
        root, "target", "bench", "wcxb-dev.warc.gz")
    meta_path = os.path.join(os.path.dirname(os.path.abspath(pages)), "metadata.json")
    domains = {}
    if os.path.exists(meta_path):
        with open(meta_path) as f:
            domains = {k: v.get("domain", "example.org")
                       for k, v in json.load(f)["files"].items()}
    names = sorted(n for n in os.listdir(pages) if n.endswith(".html.gz"))
    os.makedirs(os.path.dirname(os.path.abspath(out)), exist_ok=True)
    tmp = out + ".tmp"
    html_bytes = 0
    with open(tmp, "wb") as w:
        info = b"software: mainline scripts/build-bench-warc.py\r\nformat: WARC File Format 1.0\r\n"
        w.write(record("warcinfo", [
            ("WARC-Date", "2026-01-01T00:00:00Z"),
            ("WARC-Record-ID", rid("warcinfo")),
            ("Content-Type", "application/warc-fields"),
        ], info))
        for i, name in enumerate(names):
            page_id = name[: -len(".html.gz")]
            with gzip.open(os.path.join(pages, name), "rb") as f:
                html = f.read()
            html_bytes += len(html)
            url = f"https://{domains.get(page_id, 'example.org')}/wcxb/{page_id}"
            date = "2026-01-01T%02d:%02d:%02dZ" % (i // 3600 % 24, i // 60 % 60, i % 60)
            host = url.split("/")[2]
            request = (f"GET /wcxb/{page_id} HTTP/1.1\r\nHost: {host}\r\n"
                       "User-Agent: mainline-bench\r\nAccept: text/html\r\n\r\n").encode()
            req_id, resp_id = rid(page_id, "request"), rid(page_id, "response")
            w.write(record("request", [
                ("WARC-Date", date), ("WARC-Record-ID", req_id),
                ("Content-Type", "application/http; msgtype=request"),
                ("WARC-Target-URI", url),
            ], request))
            http = (b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n"
                    b"Content-Length: %d\r\n\r\n" % len(html)) + html
            w.write(record("response", [
                ("WARC-Date", date), ("WARC-Record-ID", resp_id),
                ("Content-Type", "application/http; msgtype=response"),
                ("WARC-Concurrent-To", req_id), ("WARC-Target-URI", url),
            ], http))
            meta = f"fetchTimeMs: {100 + i % 900}\r\n".encode()
            w.write(record("metadata", [
                ("WARC-Date", date), ("WARC-Record-ID", rid(page_id, "metadata")),
                ("Content-Type", "application/warc-fields"),
                ("WARC-Concurrent-To", resp_id), ("WARC-Target-URI", url),
            ], meta))
    os.replace(tmp, out)
    print(f"{out}: {len(names)} pages, {html_bytes} bytes of HTML, "
          f"{os.path.getsize(out)} bytes compressed", file=sys.stderr)


if __name__ == "__main__":
    main()
