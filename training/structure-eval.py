#!/usr/bin/env python3
"""How much of a page's structure mainline's Markdown keeps, against Readability's expected.html.

For each page folder (`source.html`, `expected.html`) of Readability's test pages, the page
is filtered with `mainline filter --format markdown` (tables are part of mainline's
Markdown), and four kinds of element of `expected.html` are looked for in the output:

- cells: each `<td>`/`<th>` counts as found when its text is a cell of a GFM table row
  (`| a | b |`) of the output;
- headings: each `<h1>`-`<h6>` when its text is a `#` heading line of the output;
- list items: each `<li>` when its own text (without the lists nested in it) is a `-` or
  `1.` item of the output (the item's continuation lines included);
- pre: each `<pre>` when its text is the content of a fenced code block of the output.

Texts are compared as their lower-cased `\\w+` tokens (the benchmark's word tokens), so
Markdown escapes, emphasis marks and whitespace do not matter; an element whose text has
no token is not counted. Each output element answers for one gold element of the same text
(the output's cells, headings ... are a multiset). The figure per kind is the share of the
gold elements found, over all pages together (`--per-page` adds each page's counts).

    python3 training/structure-eval.py [--mainline target/release/mainline]
        [--corpus ../shared/data/readability-tests/pages] [--per-page] [-- FILTER_ARGS...]

Anything after `--` is passed to `mainline filter` (for instance `--no-headline`).
Standard library only; the pages are read from the corpus, never copied.
"""

import argparse
import collections
import html.parser
import os
import re
import subprocess
import sys

KINDS = ("cells", "headings", "list items", "pre")
TOKEN = re.compile(r"\w+")
VOID = {
    "area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "param",
    "source", "track", "wbr",
}


def tokens(text):
    return " ".join(TOKEN.findall(text.lower()))


class Gold(html.parser.HTMLParser):
    """The texts of the cells, headings, list items and `<pre>` blocks of a page.

    Each open element of interest collects the text inside it; a list item leaves out the
    text of the lists nested in it.
    """

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.found = {k: [] for k in KINDS}
        # Open elements of interest: [kind, tag, collected text, nested-list depth].
        self.open = []

    def handle_starttag(self, tag, attrs):
        if tag in VOID:
            if tag == "br":
                self.handle_data(" ")
            return
        kind = None
        if tag in ("td", "th"):
            kind = "cells"
        elif tag in ("h1", "h2", "h3", "h4", "h5", "h6"):
            kind = "headings"
        elif tag == "li":
            kind = "list items"
        elif tag == "pre":
            kind = "pre"
        if tag in ("ul", "ol"):
            for e in self.open:
                if e[0] == "list items":
                    e[3] += 1
        if kind:
            # An unclosed cell or item closes at the next of its kind at the same level.
            if kind in ("cells", "list items") and self.open and self.open[-1][1] in (
                ("td", "th") if kind == "cells" else ("li",)
            ):
                self._close(len(self.open) - 1)
            self.open.append([kind, tag, [], 0])
        # Block elements separate words.
        self.handle_data(" ")

    def handle_endtag(self, tag):
        if tag in ("ul", "ol"):
            for e in self.open:
                if e[0] == "list items" and e[3] > 0:
                    e[3] -= 1
        for i in range(len(self.open) - 1, -1, -1):
            if self.open[i][1] == tag or (tag in ("td", "th") and self.open[i][1] in ("td", "th")):
                self._close(i)
                break
        self.handle_data(" ")

    def _close(self, i):
        for e in self.open[i:][::-1]:
            self.found[e[0]].append("".join(e[2]))
        del self.open[i:]

    def handle_data(self, data):
        for e in self.open:
            if e[0] != "list items" or e[3] == 0:
                e[2].append(data)

    def close(self):
        super().close()
        if self.open:
            self._close(0)


FENCE = re.compile(r"^(`{3,}|~{3,})")
HEADING = re.compile(r"^#{1,6}(?: (.*)|$)")
ITEM = re.compile(r"^(?:[-*+]|\d{1,9}[.)])(?: (.*)|$)")
QUOTE = re.compile(r"^(?:> ?)+")


def split_row(line):
    """The cells of a GFM table row (`| a | b \\| c |`)."""
    body = line.strip()
    if body.startswith("|"):
        body = body[1:]
    if body.endswith("|") and not body.endswith("\\|"):
        body = body[:-1]
    return re.split(r"(?<!\\)\|", body)


def rendered(markdown):
    """The cells, headings, list items and code blocks of Markdown, as lists of texts."""
    out = {k: [] for k in KINDS}
    fence = None
    code = []
    item = None  # (indentation of its content, collected lines)
    for raw in markdown.split("\n"):
        line = QUOTE.sub("", raw)
        stripped = line.lstrip(" ")
        indent = len(line) - len(stripped)
        if fence is not None:
            close = stripped.strip()
            if len(close) >= len(fence) and set(close) == {fence[0]}:
                out["pre"].append("\n".join(code))
                fence, code = None, []
            else:
                code.append(line)
            continue
        m = FENCE.match(stripped)
        if m:
            fence, code = m.group(1), []
            continue
        if item is not None and (not stripped or indent < item[0] or ITEM.match(stripped)):
            out["list items"].append(" ".join(item[1]))
            item = None
        if not stripped:
            continue
        if stripped.startswith("|"):
            cells = split_row(stripped)
            if all(re.fullmatch(r"\s*:?-{3,}:?\s*", c) for c in cells):
                continue  # the delimiter row
            out["cells"].extend(cells)
            continue
        m = HEADING.match(stripped)
        if m:
            out["headings"].append(m.group(1) or "")
            continue
        m = ITEM.match(stripped)
        if m:
            marker = len(stripped) - len(m.group(1) or "")
            item = (indent + marker, [m.group(1) or ""])
            continue
        if item is not None:
            item[1].append(stripped)
    if item is not None:
        out["list items"].append(" ".join(item[1]))
    if fence is not None:
        out["pre"].append("\n".join(code))
    return out


def score_page(expected_html, markdown):
    """(found, gold) per kind for one page."""
    parser = Gold()
    parser.feed(expected_html)
    parser.close()
    got = rendered(markdown)
    result = {}
    for kind in KINDS:
        have = collections.Counter(t for t in map(tokens, got[kind]) if t)
        gold = [t for t in map(tokens, parser.found[kind]) if t]
        found = 0
        for t in gold:
            if have[t] > 0:
                have[t] -= 1
                found += 1
        result[kind] = (found, len(gold))
    return result


def main():
    argv = sys.argv[1:]
    extra = []
    if "--" in argv:
        i = argv.index("--")
        argv, extra = argv[:i], argv[i + 1 :]
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--mainline", default="target/release/mainline")
    ap.add_argument("--corpus", default="../shared/data/readability-tests/pages")
    ap.add_argument("--per-page", action="store_true")
    args = ap.parse_args(argv)
    if not os.path.isdir(args.corpus):
        sys.exit(f"structure-eval: no corpus at {args.corpus} (Readability's test pages)")
    totals = {k: [0, 0] for k in KINDS}
    pages = 0
    for name in sorted(os.listdir(args.corpus)):
        folder = os.path.join(args.corpus, name)
        src, exp = (os.path.join(folder, f) for f in ("source.html", "expected.html"))
        if not (os.path.isfile(src) and os.path.isfile(exp)):
            continue
        run = subprocess.run(
            [args.mainline, "filter", "--format", "markdown", *extra, src],
            capture_output=True,
        )
        if run.returncode != 0:
            sys.exit(f"structure-eval: mainline failed on {src}: {run.stderr.decode(errors='replace').strip()}")
        with open(exp, encoding="utf-8", errors="replace") as f:
            expected = f.read()
        result = score_page(expected, run.stdout.decode("utf-8"))
        pages += 1
        for k, (found, gold) in result.items():
            totals[k][0] += found
            totals[k][1] += gold
        if args.per_page and any(g for _, g in result.values()):
            counts = "  ".join(f"{k} {f}/{g}" for k, (f, g) in result.items() if g)
            print(f"{name}: {counts}")
    print(f"{pages} pages")
    for k in KINDS:
        found, gold = totals[k]
        share = found / gold if gold else float("nan")
        print(f"{k:<10} {share:.3f}  ({found} of {gold})")


if __name__ == "__main__":
    main()
