#!/usr/bin/env python3
"""List the pages where `mainline eval --metadata` disagrees with the gold, from its
--per-page CSV, with where the gold day appears in the page's HTML (for dates).

    target/release/mainline eval --corpus ../shared/data/wcxb-dev --metadata --per-page meta.csv
    python3 training/metadata_misses.py meta.csv ../shared/data/wcxb-dev [FIELD]
    python3 training/metadata_misses.py meta.csv ../shared/data/wcxb-dev published --where

With --where (dates only), every place the gold day appears is listed under each miss:
JSON-LD keys, <meta> names, attributes (`tag[attr]` with the element's class), text forms
with the enclosing element and the line's distance to the first <h1> (in text nodes),
and the page's URL. Pages that agreed in OLD.csv and not here: --lost OLD.csv.
"""
import csv
import gzip
import html.parser
import json
import os
import re
import sys

MONTHS = ["january", "february", "march", "april", "may", "june", "july", "august",
          "september", "october", "november", "december"]


def html_of(corpus, doc):
    for path in (f"{corpus}/html/{doc}.html.gz", f"{corpus}/{doc}/source.html"):
        if os.path.exists(path):
            opener = gzip.open if path.endswith(".gz") else open
            with opener(path, "rb") as f:
                return f.read().decode("utf-8", "replace")
    return ""


def day_forms(gold):
    y, m, d = gold[:4], gold[5:7], gold[8:10]
    mi, di = int(m), int(d)
    name = MONTHS[mi - 1]
    return {
        "iso": f"{y}-{m}-{d}",
        "slash-path": f"{y}/{m}/{d}",
        "month-name": rf"(?i)({name}|{name[:3]})\.?\s+{di}(st|nd|rd|th)?,?\s+{y}|{di}(st|nd|rd|th)?\.?\s+(of\s+)?({name}|{name[:3]})\.?,?\s+{y}",
        "numeric": rf"\b0?{mi}/0?{di}/{y}\b|\b0?{di}[./]0?{mi}[./]{y}\b",
    }


MONTHS_OTHER = {
    # German, French, Spanish, Italian, Portuguese, Dutch (shared spellings once).
    1: ["januar", "janvier", "enero", "gennaio", "janeiro", "januari"],
    2: ["februar", "février", "febrero", "febbraio", "fevereiro", "februari"],
    3: ["märz", "mars", "marzo", "março", "maart"],
    4: ["avril", "abril", "aprile"],
    5: ["mai", "mayo", "maggio", "maio", "mei"],
    6: ["juni", "juin", "junio", "giugno", "junho"],
    7: ["juli", "juillet", "julio", "luglio", "julho"],
    8: ["août", "agosto", "augustus"],
    9: ["septembre", "septiembre", "settembre", "setembro"],
    10: ["oktober", "octobre", "octubre", "ottobre", "outubro"],
    11: ["novembre", "noviembre", "novembro"],
    12: ["dezember", "décembre", "diciembre", "dicembre", "dezembro"],
}


def text_patterns(gold):
    """Regexes for the gold day written in text, by form."""
    y, m, d = gold[:4], gold[5:7], gold[8:10]
    mi, di = int(m), int(d)
    names = "|".join([MONTHS[mi - 1], MONTHS[mi - 1][:3]] + MONTHS_OTHER[mi])
    return {
        "iso": rf"{y}-{m}-{d}",
        "ymd-slash": rf"{y}/{m}/{d}|{y}/{mi}/{di}\b",
        "month-day-year": rf"(?i)\b({names})\.?\s+{di}(st|nd|rd|th)?,?\s+{y}",
        "day-month-year": rf"(?i)\b{di}(st|nd|rd|th)?\.?\s+(of\s+|de\s+)?({names})\.?,?\s+(de\s+)?{y}",
        "m/d/y": rf"\b0?{mi}/0?{di}/({y}|{y[2:]})\b",
        "d/m/y": rf"\b0?{di}/0?{mi}/({y}|{y[2:]})\b",
        "d.m.y": rf"\b0?{di}\.0?{mi}\.({y}|{y[2:]})\b",
        "d-m-y": rf"\b0?{di}-0?{mi}-{y}\b",
        "compact": rf"\b{y}{m}{d}\b",
    }


class Where(html.parser.HTMLParser):
    """Where a day's forms sit in one page: attributes, text nodes, <meta>s, JSON-LD."""

    def __init__(self, gold):
        super().__init__(convert_charrefs=True)
        self.pats = {k: re.compile(v) for k, v in text_patterns(gold).items()}
        self.stack = []
        self.hits = []
        self.lines = 0
        self.h1 = None
        self.in_script = None
        self.script = []

    def forms(self, s):
        return [k for k, p in self.pats.items() if p.search(s)]

    def where(self):
        for tag, cls in reversed(self.stack[-4:]):
            if cls:
                return f"{tag}.{cls[:40]}"
        return self.stack[-1][0] if self.stack else "-"

    def handle_starttag(self, tag, attrs):
        a = {k: v or "" for k, v in attrs}
        if tag in ("script", "style"):
            self.in_script = a.get("type", "")
            self.script = []
        if tag == "meta":
            key = a.get("name") or a.get("property") or a.get("itemprop") or "?"
            f = self.forms(a.get("content", ""))
            if f:
                self.hits.append(("meta", key.lower(), f))
        else:
            for k, v in a.items():
                f = self.forms(v) if k not in ("href", "src", "srcset") else []
                if f:
                    self.hits.append(("attr", f"{tag}[{k}] .{a.get('class', '')[:30]} ip={a.get('itemprop', '')}", f))
        if tag == "h1" and self.h1 is None:
            self.h1 = self.lines
        if tag not in ("meta", "link", "br", "img", "input", "hr"):
            self.stack.append((tag, a.get("class", "") or a.get("id", "")))

    def handle_endtag(self, tag):
        if tag in ("script", "style") and self.in_script is not None:
            body = "".join(self.script)
            if "ld+json" in self.in_script:
                self.json_ld(body)
            elif self.forms(body):
                self.hits.append(("script", self.in_script or "js", self.forms(body)))
            self.in_script = None
        for i in range(len(self.stack) - 1, max(-1, len(self.stack) - 8), -1):
            if self.stack[i][0] == tag:
                del self.stack[i:]
                break

    def json_ld(self, body):
        try:
            data = json.loads(body)
        except ValueError:
            if self.forms(body):
                self.hits.append(("json-ld", "unparsed", self.forms(body)))
            return

        def walk(x, path):
            if isinstance(x, dict):
                for k, v in x.items():
                    walk(v, f"{path}.{k}" if path else k)
            elif isinstance(x, list):
                for v in x:
                    walk(v, path)
            elif isinstance(x, str) and self.forms(x):
                self.hits.append(("json-ld", path[-50:], self.forms(x)))

        walk(data, "")

    def handle_data(self, data):
        if self.in_script is not None:
            self.script.append(data)
            return
        t = data.strip()
        if not t:
            return
        self.lines += 1
        f = self.forms(t)
        if f:
            near = "?" if self.h1 is None else self.lines - self.h1
            self.hits.append(("text", f"{self.where()} h1{near:+} {t[:60]!r}" if near != "?" else f"{self.where()} no-h1-yet {t[:60]!r}", f))


def where(html_text, gold, url):
    w = Where(gold)
    try:
        w.feed(html_text)
    except Exception:  # noqa: BLE001 - a broken page still lists what was read
        pass
    hits = w.hits
    if url and any(p.search(url) for p in (re.compile(text_patterns(gold)[k]) for k in ("ymd-slash", "iso", "compact"))):
        hits.append(("url", url[:80], ["url"]))
    return hits


def url_of(corpus, doc):
    path = f"{corpus}/ground-truth/{doc}.json"
    if os.path.exists(path):
        with open(path, encoding="utf-8") as f:
            return json.load(f).get("url")
    return None


def main():
    per_page, corpus = sys.argv[1], sys.argv[2]
    args = sys.argv[3:]
    show_where = "--where" in args
    lost = args[args.index("--lost") + 1] if "--lost" in args else None
    plain = [a for i, a in enumerate(args) if not a.startswith("--") and (i == 0 or args[i - 1] != "--lost")]
    field = plain[0] if plain else "published"
    rows = [r for r in csv.DictReader(open(per_page, encoding="utf-8"))
            if r["field"] == field and r["agree"] == "0"]
    if lost:
        before = {r["doc"] for r in csv.DictReader(open(lost, encoding="utf-8"))
                  if r["field"] == field and r["agree"] == "1"}
        rows = [r for r in rows if r["doc"] in before]
        print(f"{len(rows)} pages agreed in {lost} and not here")
    print(f"{len(rows)} misses of {field}")
    for r in rows:
        line = f"{r['doc']}\tgold={r['gold']!r}\tgot={r['got']!r}"
        if field == "published" and re.match(r"\d{4}-\d\d-\d\d", r["gold"]):
            html = html_of(corpus, r["doc"])
            found = [k for k, pat in day_forms(r["gold"]).items()
                     if (re.search(pat, html) if k in ("month-name", "numeric") else pat in html)]
            line += "\tin-page=" + (",".join(found) or "-")
            if show_where:
                hits = where(html, r["gold"], url_of(corpus, r["doc"]))
                line += "".join(f"\n    {kind:8} {key} {','.join(forms)}" for kind, key, forms in hits[:25])
                if not hits:
                    line += "\n    (nowhere)"
        print(line)


if __name__ == "__main__":
    main()
