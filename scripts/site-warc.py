#!/usr/bin/env python3
"""Builds a WARC file of many sites' pages, to measure site mode's memory and speed.

    python3 scripts/site-warc.py [SITES] [PAGES_PER_SITE] [OUT]

Defaults: 1,000 sites of 100 pages (100,000 pages) into target/bench/sites.warc. Each site
has its own template (a menu, a most-read list, a newsletter box, footer paragraphs, in
words drawn for the site) and each page its own article (paragraphs of words drawn for the
page); the pages of a site are spread over the file (round robin), as a crawl meets them.
The words come from a fixed seed: the file is the same on every run. Plain WARC (one
`response` record per page), never committed.
"""

import os
import random
import sys

WORDS = (
    "harbour tide ferry island quay market council school garden bakery bridge museum "
    "library regatta lighthouse festival river road station village winter summer spring "
    "autumn morning evening storm boat crew fish net rope stone wall path cliff beach sand "
    "water wind rain sun moon star field farm orchard barn mill church chapel choir song "
    "book letter paper story news report plan project fund grant money price trade shop "
    "street square park tree flower bird seal gull tern oyster crab salt light house door"
).split()


def sentence(rng, n):
    words = [rng.choice(WORDS) for _ in range(n)]
    return " ".join(words).capitalize() + "."


def paragraph(rng, sentences):
    return " ".join(sentence(rng, rng.randint(8, 16)) for _ in range(sentences))


def template(site):
    rng = random.Random(site)
    menu = "".join(f'<li><a href="/{w}/">{w.title()}</a></li>' for w in rng.sample(WORDS, 8))
    most = "".join(f'<li><a href="/n/{i}">{sentence(rng, 6)}</a></li>' for i in range(5))
    news = paragraph(rng, 2)
    foot = "".join(f"<p>{paragraph(rng, 2)}</p>" for _ in range(2))
    head = f'<header class="top"><nav class="menu"><ul>{menu}</ul></nav></header>'
    side = (
        f'<aside class="side"><section class="most"><h2>Most read</h2><ol>{most}</ol></section>'
        f'<section class="letter"><h2>Newsletter</h2><p>{news}</p></section></aside>'
    )
    return head, side, f'<footer class="foot">{foot}</footer>'


def page(site, n, parts):
    rng = random.Random(site * 1_000_003 + n)
    head, side, foot = parts
    body = "".join(f"<p>{paragraph(rng, rng.randint(2, 4))}</p>" for _ in range(rng.randint(3, 6)))
    return (
        f"<!DOCTYPE html><html><head><title>{sentence(rng, 5)}</title></head><body>{head}"
        f"<main><article><h1>{sentence(rng, 6)}</h1>{body}</article>{side}</main>{foot}"
        "</body></html>"
    ).encode("utf-8")


def record(uri, html):
    http = b"HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\n"
    http += f"Content-Length: {len(html)}\r\n\r\n".encode() + html
    head = (
        "WARC/1.0\r\nWARC-Type: response\r\n"
        f"WARC-Target-URI: {uri}\r\n"
        "Content-Type: application/http; msgtype=response\r\n"
        f"Content-Length: {len(http)}\r\n\r\n"
    ).encode()
    return head + http + b"\r\n\r\n"


def main():
    sites = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    per_site = int(sys.argv[2]) if len(sys.argv) > 2 else 100
    out = sys.argv[3] if len(sys.argv) > 3 else "target/bench/sites.warc"
    os.makedirs(os.path.dirname(out) or ".", exist_ok=True)
    parts = [template(s) for s in range(sites)]
    total = 0
    with open(out, "wb") as f:
        for n in range(per_site):
            for s in range(sites):
                r = record(f"https://site{s}.example/page/{n}.html", page(s, n, parts[s]))
                total += len(r)
                f.write(r)
    print(f"{out}: {sites * per_site} pages of {sites} sites, {total / 1e6:.1f} MB")


if __name__ == "__main__":
    main()
