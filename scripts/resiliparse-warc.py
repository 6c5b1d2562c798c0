#!/usr/bin/env python3
"""Times resiliparse's main-content extraction over a WARC file read with FastWARC.

    pip install resiliparse fastwarc
    python3 scripts/resiliparse-warc.py target/bench/wcxb-dev.warc.gz [OUT.jsonl]

One process, one thread: FastWARC's ArchiveIterator over the response records, the HTML
2xx ones with Content-Type text/html or application/xhtml+xml decoded with resiliparse's
bytes_to_str(detect_encoding(...)) and passed to extract_plain_text(main_content=True).
Prints records, seconds and MB/s (compressed file and HTML payload) and the peak RSS.
With OUT, also writes one JSON line per page (url, text) for comparing the texts.
"""

import json
import os
import resource
import sys
import time

from fastwarc.warc import ArchiveIterator, WarcRecordType
from resiliparse.extract.html2text import extract_plain_text
from resiliparse.parse.encoding import bytes_to_str, detect_encoding
from resiliparse.parse.html import HTMLTree


def main():
    path = sys.argv[1]
    out = open(sys.argv[2], "w") if len(sys.argv) > 2 else None
    start = time.perf_counter()
    pages = html_bytes = 0
    with open(path, "rb") as f:
        for record in ArchiveIterator(f, record_types=WarcRecordType.response, parse_http=True):
            ctype = (record.http_content_type or "").lower()
            if ctype not in ("text/html", "application/xhtml+xml"):
                continue
            if record.http_headers.status_code // 100 != 2:
                continue
            body = record.reader.read()
            html_bytes += len(body)
            tree = HTMLTree.parse(bytes_to_str(body, detect_encoding(body)))
            text = extract_plain_text(tree, main_content=True)
            pages += 1
            if out:
                out.write(json.dumps({"url": record.headers.get("WARC-Target-URI"), "text": text}) + "\n")
    secs = time.perf_counter() - start
    size = os.path.getsize(path)
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print(f"resiliparse: {pages} pages, {html_bytes} bytes of HTML in {secs:.2f} s: "
          f"{size / secs / 1e6:.1f} MB/s compressed, {html_bytes / secs / 1e6:.1f} MB/s of HTML, "
          f"peak RSS {rss} kB")


if __name__ == "__main__":
    main()
