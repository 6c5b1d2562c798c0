"""Shared by the replay scripts of training/ (rescue-replay.py, groups-replay.py,
near-groups-replay.py): the page word F1 of decisions over a page's labelled lines, as they
approximate the benchmark's score, and the loading of held-out decisions and of the
labelled CSV's line facts. Standard library only."""
import collections
import csv
import re

WORD = re.compile(r"\w+")

TYPES = ("article", "collection", "documentation", "forum", "listing", "product", "service")

# Positions in a line's `hints` values (src/stack/hints.rs, `line_names`).
HINT_ARTICLE = 0
HINT_IN_ARTICLE = 9


def words(text):
    """The benchmark's words of a text: its `\\w+` tokens, counted."""
    return len(WORD.findall(text))


def labelled_words(row):
    """A `--per-line` row as `word_f1` reads a line: (is content, words)."""
    return row["label"] == "1", words(row["text"])


def group_key(fact, level):
    """The group of a line of `labelled_lines` facts: its first signature value within its
    element `level` levels up (the whole page when `level` is None or deeper than the line's
    path), as stack::floor::group_of groups lines."""
    path = fact["path"]
    return fact["sig"], path[level] if level is not None and level < len(path) else ""


def word_f1(lines, keep):
    """Word F1 of the decisions `keep` (one bool per line) over `lines`, (is content, words)
    pairs: the words of kept content lines against those of all kept and all content lines.
    A page with no content and nothing kept scores 1."""
    tp = fp = fn = 0
    for (label, words), k in zip(lines, keep):
        if k and label:
            tp += words
        elif k:
            fp += words
        elif label:
            fn += words
    if tp + fp + fn == 0:
        return 1.0
    p = tp / (tp + fp) if tp + fp else 0.0
    r = tp / (tp + fn) if tp + fn else 0.0
    return 2 * p * r / (p + r) if p + r else 0.0


def labelled_lines(labelled, original_only):
    """(doc, line) -> {"label": is content, "sig": first signature value, "path": path
    elements, "landmark": in nav, footer or aside, "link_density": float, "article": the
    page hint `article`, "in_article": inside <article>/<main>} from the labelled CSV, of the
    pages as written only or of every variant too (a CSV without a `variant` column holds
    the pages as written alone)."""
    csv.field_size_limit(1 << 30)
    facts = {}
    with open(labelled, newline="") as f:
        rows = csv.reader(f)
        head = next(rows)
        at = {k: head.index(k) for k in ("doc", "line", "label", "sig", "path", "hints", "link_density")}
        variant = head.index("variant") if "variant" in head else None
        marks = [head.index(k) for k in ("in_nav", "in_footer", "in_aside")]
        for r in rows:
            if original_only and variant is not None and r[variant] != "original":
                continue
            hints = r[at["hints"]].split()
            facts[(r[at["doc"]], r[at["line"]])] = {
                "label": r[at["label"]] == "1",
                "sig": r[at["sig"]].split()[0],
                "path": r[at["path"]].split(),
                "landmark": any(float(r[i]) > 0 for i in marks),
                "link_density": float(r[at["link_density"]]),
                "article": hints[HINT_ARTICLE] == "1",
                "in_article": hints[HINT_IN_ARTICLE] == "1",
            }
    return facts


def held_out_pages(lines_csv, with_variants):
    """The model's held-out lines of `mainline eval --cv --per-line` by page (the pages as
    written, and their variants' pages `DOC@VARIANT` when `with_variants`), and each page's
    type from the `--per-page` file beside it (LINES.csv → PAGES.csv), when there is one."""
    pages = collections.defaultdict(list)
    with open(lines_csv, newline="") as f:
        for r in csv.DictReader(f):
            if not r["method"].startswith("mlp") or "[" in r["method"]:
                continue
            if with_variants or "@" not in r["doc"]:
                pages[r["doc"]].append(r)
    kinds = {}
    try:
        with open(lines_csv.replace("-lines.csv", "-pages.csv"), newline="") as f:
            kinds = {r["doc"]: r["page_type"] for r in csv.DictReader(f)}
    except OSError:
        pass
    return pages, kinds
