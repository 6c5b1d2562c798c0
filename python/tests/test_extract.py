"""mainline's Python API against the library's behaviour on the repository's sample pages."""

import gzip
import json
import pathlib
import re
import subprocess
import threading
import time

import pytest

import mainline
from conftest import ROOT, SAMPLES

ARTICLE_FIRST = "Every baker who switches from commercial yeast to a sourdough starter"


def test_extract_keeps_the_article_and_drops_the_boilerplate(samples):
    text = mainline.extract(samples["article"])
    assert text.startswith(ARTICLE_FIRST)
    assert "We use cookies" not in text
    assert "Home" not in text.splitlines()
    assert not text.endswith("\n")


def test_str_bytes_and_gzip_give_the_same_text(samples):
    html = samples["article"]
    expected = mainline.extract(html)
    assert mainline.extract(html.decode("utf-8")) == expected
    assert mainline.extract(gzip.compress(html)) == expected
    # Concatenated gzip members are one stream, as for the command line.
    half = len(html) // 2
    assert mainline.extract(gzip.compress(html[:half]) + gzip.compress(html[half:])) == expected


def test_bytes_are_decoded_with_the_declared_charset_and_str_is_taken_as_decoded(samples):
    raw = samples["windows-1252"]
    assert b"<meta" in raw.lower()
    gold = (SAMPLES / "windows-1252.txt").read_text(encoding="utf-8")
    text = mainline.extract(raw)
    assert "\ufffd" not in text
    # The same page decoded by Python first gives the same text.
    assert mainline.extract(raw.decode("windows-1252")) == text
    assert set(re.findall(r"\w+", text.lower())) & set(re.findall(r"\w+", gold.lower()))
    # A str is not re-decoded by its <meta charset>: "é" stays "é".
    page = '<meta charset="windows-1252"><p>Un café crème, s\'il vous plaît, et un croissant.</p>'
    assert "café crème" in mainline.extract(page, threshold=0.5)


def test_empty_string_when_nothing_is_kept():
    assert mainline.extract("") == ""
    assert mainline.extract(b"") == ""
    assert mainline.extract("<nav><ul><li><a href=/>Home</a><li><a href=/a>About</a></ul></nav>") == ""


def test_threshold_is_the_seed_rule(samples):
    # The README's example of the fixed rule on the table-layout page.
    text = mainline.extract(samples["table-layout"], threshold=0.5)
    assert text.splitlines()[0].startswith("This page illustrates how you can write proper HTML")
    assert len(text.splitlines()) == 3
    assert mainline.Extractor(threshold=0.5).model == "threshold 0.5"
    assert mainline.Extractor(threshold=0.5).model_version is None


def test_a_model_file_is_loaded(samples):
    path = ROOT / "models" / "logistic.json"
    ex = mainline.Extractor(model=path)
    assert ex.model_version and re.fullmatch(r"[0-9a-f]{16}", ex.model_version)
    assert ex.model_version != mainline.MODEL_VERSION
    assert ex.extract(samples["article"]) == mainline.extract(samples["article"], model=str(path))
    assert mainline.Extractor().model_version == mainline.MODEL_VERSION


def test_versions():
    cargo = (ROOT / "Cargo.toml").read_text()
    version = re.search(r'^version = "([^"]+)"', cargo, re.M).group(1)
    assert mainline.__version__ == version
    assert re.fullmatch(r"[0-9a-f]{16}", mainline.MODEL_VERSION)


def test_the_same_text_as_the_command_line(samples, cli):
    for name in samples:
        path = SAMPLES / f"{name}.html"
        out = subprocess.run([cli, "filter", path], capture_output=True, check=True).stdout.decode()
        assert mainline.extract(path.read_bytes()) + ("\n" if out else "") == out, name


def test_errors_are_exceptions_with_the_library_messages(tmp_path, samples):
    png = b"\x89PNG\r\n\x1a\n" + bytes(64)
    with pytest.raises(mainline.MainlineError, match=r"^page\.png: not an HTML document: .*PNG"):
        mainline.extract(png, url="page.png")
    with pytest.raises(ValueError):  # MainlineError is a ValueError
        mainline.extract(png)
    with pytest.raises(mainline.MainlineError, match="corrupt gzip data"):
        mainline.extract(gzip.compress(samples["article"])[:200])
    with pytest.raises(TypeError, match="must be str or bytes, not int"):
        mainline.extract(42)
    with pytest.raises(FileNotFoundError, match="model file .*missing.json"):
        mainline.Extractor(model=tmp_path / "missing.json")
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    with pytest.raises(mainline.MainlineError, match="invalid model file: not valid JSON"):
        mainline.Extractor(model=bad)
    with pytest.raises(ValueError, match="not both"):
        mainline.Extractor(model=ROOT / "models" / "logistic.json", threshold=0.5)
    with pytest.raises(ValueError, match="threshold must be a number"):
        mainline.Extractor(threshold=float("nan"))
    with pytest.raises(ValueError, match='unknown format "xml": choose one of "text", "markdown", "json"'):
        mainline.extract("<p>x</p>", format="xml")


def test_lines_explain_every_decision(samples):
    ex = mainline.Extractor()
    lines = ex.lines(samples["article"])
    assert [l.index for l in lines] == list(range(len(lines)))
    assert "\n".join(l.text for l in lines if l.keep) == ex.extract(samples["article"])
    assert any(not l.keep for l in lines) and any(l.keep for l in lines)
    first = lines[0]
    assert first.text.startswith("We use cookies") and not first.keep
    assert list(first.features) == mainline.FEATURE_NAMES
    assert first.features["density"] == pytest.approx(first.density, rel=1e-6)
    assert first.html_bytes > 0 and first.text_bytes == len(first.text.encode())
    assert first.block == "p" and "div#cookie-banner.cookie-consent" in first.ancestors
    assert "keep=False" in repr(first)


def test_extract_document_counts(samples):
    doc = mainline.Extractor().extract_document(samples["article"])
    lines = mainline.Extractor().lines(samples["article"])
    assert doc.text == mainline.extract(samples["article"])
    assert doc.lines == len(lines)
    assert doc.kept_lines == sum(l.keep for l in lines)
    assert doc.text_bytes == sum(l.text_bytes for l in lines if l.keep)
    assert doc.input_bytes == len(samples["article"])
    assert doc.encoding == "UTF-8"
    assert mainline.Extractor().extract_document(samples["windows-1252"]).encoding == "windows-1252"


def test_extract_many_is_extract_in_order(samples):
    pages = list(samples.values()) + [p.decode("utf-8", "replace") for p in samples.values()]
    ex = mainline.Extractor()
    expected = [ex.extract(p) for p in pages]
    assert ex.extract_many(pages) == expected
    assert ex.extract_many(pages, threads=1) == expected
    assert ex.extract_many(pages, threads=2) == expected
    assert ex.extract_many(iter(pages), threads=3) == expected
    assert ex.extract_many([]) == []


def test_a_page_comes_out_the_same_whatever_came_before(samples):
    # Each thread keeps its extractors for its next pages (reset, not rebuilt): another
    # page, a page cut short by an error, or a str before it must change nothing.
    def on_a_new_thread(page):
        out = []
        t = threading.Thread(target=lambda: out.append(mainline.extract(page)))
        t.start()
        t.join()
        return out[0]

    names = sorted(samples)
    expected = {n: on_a_new_thread(samples[n]) for n in names}
    broken = gzip.compress(samples["article"])[:400]
    for n in names + names[::-1]:
        with pytest.raises(mainline.MainlineError, match="corrupt gzip data"):
            mainline.extract(broken)
        assert mainline.extract(samples[n]) == expected[n], n
        mainline.extract(samples[n].decode("utf-8", "replace"))
        assert mainline.extract(samples[n]) == expected[n], n


def test_extract_many_gives_none_for_a_bad_page_and_goes_on():
    ex = mainline.Extractor()
    pages = ["<p>fine</p>", b"%PDF-1.7 ...", "<p>also fine</p>", ""]
    texts = ex.extract_many(pages)
    # The failed page is None, the empty page "": the two cannot be mistaken.
    assert texts == [ex.extract(pages[0]), None, ex.extract(pages[2]), ""]
    assert ex.extract_many(pages, threads=2, errors="none") == texts
    assert ex.extract_many(pages, errors="ignore") == texts
    assert mainline.Extractor(format="json").extract_many(pages)[1] is None
    with pytest.raises(mainline.MainlineError, match=r"^page 1: not an HTML document"):
        ex.extract_many(pages, errors="raise")
    with pytest.raises(TypeError, match="page 2: a page must be str or bytes, not NoneType"):
        ex.extract_many(["<p>a</p>", b"<p>b</p>", None])
    with pytest.raises(ValueError, match="threads must be at least 1"):
        ex.extract_many(pages, threads=0)
    with pytest.raises(ValueError, match="errors must be"):
        ex.extract_many(pages, errors="skip")


def test_extract_many_releases_the_gil(samples):
    """A Python thread keeps running while extract_many works."""
    pages = [samples["article"]] * 400
    ex = mainline.Extractor()
    ticks = []
    stop = threading.Event()

    def heartbeat():
        while not stop.is_set():
            ticks.append(time.perf_counter())
            time.sleep(0.001)

    t = threading.Thread(target=heartbeat)
    start = time.perf_counter()
    t.start()
    ex.extract_many(pages, threads=1)
    end = time.perf_counter()
    stop.set()
    t.join()
    during = [x for x in ticks if start < x < end]
    # With the GIL held for the whole call the heartbeat could not tick at all; how often
    # it ticks otherwise depends on how busy the machine is, so only a few are asked for.
    assert end - start > 0.05, "the call was too short to tell"
    assert len(during) >= 5, f"{len(during)} ticks in {end - start:.3f} s"


def test_docstring_examples():
    import doctest

    assert doctest.testmod(mainline, raise_on_error=False).failed == 0
    finder = doctest.DocTestFinder()
    runner = doctest.DocTestRunner()
    for test in finder.find(mainline.Extractor, "Extractor", globs={"mainline": mainline}):
        runner.run(test)
    assert runner.failures == 0 and runner.tries >= 4


def test_markdown_json_and_metadata(samples):
    html = samples["article"]
    md = mainline.extract(html, format="markdown")
    assert md.startswith("# Why Sourdough Needs Time\n\n" + ARTICLE_FIRST) and md.endswith("\n")
    assert "\n\n" in md and "We use cookies" not in md
    page = ('<html lang=en><title>Tides | Sea Notes</title><nav><a href=/>Home</a> '
            '<a href=/about>About</a> <a href=/maps>Maps</a></nav><article><h1>Tides</h1>'
            '<p>The tide comes in twice a day, pulled by the moon and, less, by the '
            '<a href="sun.html">sun</a>.</p><p>Walkers who know the times cross the sands and '
            'come back before the water.</p></article><footer><a href=/privacy>Privacy</a></footer>')
    linked = mainline.extract(page, format="markdown", links=True, url="https://sea.example/notes/")
    assert "[sun](https://sea.example/notes/sun.html)" in linked
    assert "[sun]" not in mainline.extract(page, format="markdown")
    record = json.loads(mainline.extract(page, format="json"))
    assert record["language"] == "en" and record["text"] == mainline.extract(page)
    doc = mainline.Extractor(links=True, format="markdown").extract_document(page, url="https://sea.example/notes/")
    assert doc.url == "https://sea.example/notes/"
    assert doc.metadata["language"] == "en" and doc.metadata["first_h1"] == "Tides"
    assert "[sun](https://sea.example/notes/sun.html)" in doc.markdown
    assert doc.text == mainline.extract(page)
    # Nothing kept: empty in every format but JSON, whose text is empty.
    menu = "<nav><ul><li><a href=/>Home</a><li><a href=/a>About</a></ul></nav>"
    assert mainline.extract(menu, format="markdown") == ""
    assert json.loads(mainline.extract(menu, format="json"))["text"] == ""


def test_extract_many_in_other_formats(samples):
    pages = list(samples.values())
    ex = mainline.Extractor(format="markdown")
    assert ex.extract_many(pages, threads=2) == [ex.extract(p) for p in pages]


def test_json_keys_come_in_the_order_of_the_cli(cli):
    page = SAMPLES / "article.html"
    run = subprocess.run([str(cli), "filter", "--format", "json", str(page)], capture_output=True, check=True)
    cli_keys = [k for k in json.loads(run.stdout) if k != "source"]
    keys = list(json.loads(mainline.extract(page.read_bytes(), format="json")))
    assert keys == cli_keys
    assert keys[:3] == ["url", "title", "author"]


def test_markdown_starts_with_the_headline_unless_asked_not_to(samples):
    # The model drops the sample article's <h1>, as the benchmarks' gold leaves it out.
    html = samples["article"]
    md = mainline.extract(html, format="markdown")
    assert md.startswith("# Why Sourdough Needs Time\n\n" + ARTICLE_FIRST)
    assert md.count("Why Sourdough Needs Time") == 1
    bare = mainline.extract(html, format="markdown", headline=False)
    assert bare.startswith(ARTICLE_FIRST) and md == "# Why Sourdough Needs Time\n\n" + bare
    assert mainline.Extractor(format="markdown", headline=False).extract(html) == bare
    doc = json.loads(mainline.Extractor(format="json", headline=False).extract(html))
    assert "Why Sourdough" not in doc["text"]
    pages = list(mainline.iter_warc(ROOT / "data" / "warc" / "mixed.warc.gz", format="markdown"))
    assert pages[0]["markdown"].startswith("# Harbour festival returns\n\n")
    # A kept heading of the same text is not written twice.
    page = ("<title>Tides | Sea Notes</title><article><h1>Tides and the moon</h1><p>The tide "
            "comes in twice a day, pulled by the moon and, less, by the sun.</p></article>")
    assert mainline.extract(page, format="markdown", threshold=0.0).count("Tides and the moon") == 1
