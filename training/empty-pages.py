#!/usr/bin/env python3
"""Pages that come out empty although they show words: for each page, the words of the
built-in model's text and of all the page's lines (`mainline filter --threshold 0`, every
line with text: the page as the splitter reads it, outside scripts, styles and templates),
counted as the benchmark counts them (`\\w+` tokens). Prints the pages whose text is empty
and whose lines hold at least --min-words words, then a count per corpus.

Usage: python3 training/empty-pages.py [--min-words N] [--mainline BIN] CORPUS...
A CORPUS is a folder of WCXB pages (html/NNNN.html[.gz]), of Readability's tests
(NAME/source.html), or of NAME.html files (data/samples).
"""

import argparse
import json
import re
import subprocess
import sys
from pathlib import Path

WORD = re.compile(r"\w+")


def pages(corpus: Path) -> list[Path]:
    if (corpus / "html").is_dir():
        return sorted(p for p in (corpus / "html").iterdir() if ".htm" in p.name)
    nested = sorted(corpus.glob("*/source.html"))
    if nested:
        return nested
    return sorted(corpus.glob("*.html"))


def texts(mainline: str, files: list[Path], extra: list[str]) -> dict[str, str]:
    """The text `mainline filter --format json` gives each file, by its path."""
    out = subprocess.run(
        [mainline, "filter", "-q", "--format", "json", *extra, *map(str, files)],
        capture_output=True,
        check=True,
    )
    result = {}
    for line in out.stdout.decode("utf-8").splitlines():
        doc = json.loads(line)
        result[doc["source"]] = doc.get("text", "")
    return result


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("corpora", nargs="+", type=Path)
    ap.add_argument("--min-words", type=int, default=50)
    ap.add_argument("--mainline", default="target/release/mainline")
    args = ap.parse_args()
    total = 0
    for corpus in args.corpora:
        files = pages(corpus)
        if not files:
            print(f"empty-pages: no pages in {corpus}", file=sys.stderr)
            return 1
        kept = texts(args.mainline, files, [])
        shown = texts(args.mainline, files, ["--threshold", "0"])
        found = 0
        for f in files:
            name = str(f)
            visible = len(WORD.findall(shown.get(name, "")))
            if not WORD.search(kept.get(name, "")) and visible >= args.min_words:
                found += 1
                print(f"{name}: empty, {visible} words on its lines")
        print(f"{corpus}: {len(files)} pages, {found} empty with {args.min_words}+ words")
        total += found
    print(f"all: {total} empty with {args.min_words}+ words")
    return 0


if __name__ == "__main__":
    sys.exit(main())
