"""The Spark and Ray Data examples, run on a local Spark session and a local Ray cluster.

Each test is skipped, with the reason, when its framework (or Java, for Spark) is missing;
``.ci/run`` installs them all. The Spark tests check their records against ``mainline
filter`` (the binary ``cargo build`` or ``cargo test`` left in ``target/``).
"""

import importlib.util
import json
import subprocess

import pytest

import mainline
from conftest import ROOT, SAMPLES

EXAMPLES = ROOT / "python" / "examples"
WARC = ROOT / "data" / "warc"


def _example(name):
    spec = importlib.util.spec_from_file_location(name, EXAMPLES / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _pages(samples):
    pages = [p.decode("utf-8", "replace") for p in samples.values()]
    return pages + ["<nav><a href=/>Home</a></nav>"]


def test_spark_partition_function_reports_pages_that_are_not_html():
    example = _example("spark_extract")
    rows = [("<p>A paragraph of plain words.</p>",), (b"%PDF-1.7 ...",), (None,)]
    out = list(example.extract_partition(rows, column=0))
    assert out[0] == (rows[0][0], mainline.extract(rows[0][0]), None)
    assert out[1][1] == "" and "not an HTML document" in out[1][2]
    assert out[2] == (None, "", None)


def _cli_texts(cli, paths):
    """The text ``mainline filter`` writes for each of ``paths`` (one run; the pages are
    split at the line holding a form feed alone that ends each), without the final line
    end."""
    out = subprocess.run([str(cli), "filter", "-q", *map(str, paths)], capture_output=True)
    assert out.returncode == 0, out.stderr
    parts = out.stdout.decode("utf-8").split("\x0c\n")
    assert parts[-1] == "" and len(parts) == len(paths) + 1
    return [p[:-1] if p.endswith("\n") else p for p in parts[:-1]]


def test_spark_example_gives_the_texts_of_mainline_filter(spark, cli, tmp_path):
    example = _example("spark_extract")
    # The sample pages (as UTF-8 text, as a JSON column holds them), a page of menus alone
    # and a page that is not HTML.
    files = [p for p in sorted(SAMPLES.glob("*.html")) if _utf8(p)]
    menu = tmp_path / "menu.html"
    menu.write_text("<nav><a href=/>Home</a></nav>")
    files.append(menu)
    pages = [p.read_text("utf-8") for p in files] + ["%PDF-1.7 ..."]
    src = tmp_path / "pages.jsonl"
    src.write_text("".join(json.dumps({"id": i, "html": p}) + "\n" for i, p in enumerate(pages)))
    df = spark.read.json(str(src)).repartition(2)
    out = example.extract_frame(df).collect()
    got = {r["id"]: (r["text"], r["error"]) for r in out}
    assert len(got) == len(pages)
    texts = _cli_texts(cli, files)
    assert {i: got[i] for i in range(len(files))} == {i: (t, None) for i, t in enumerate(texts)}
    assert got[len(files) - 1] == ("", None)
    assert got[len(files)][0] == "" and "not an HTML document" in got[len(files)][1]


def test_spark_flatmap_of_iter_warc_gives_the_records_of_mainline_filter(spark, cli):
    paths = sorted(str(p) for p in WARC.glob("*.warc*"))
    assert len(paths) >= 4
    # The README's recipe: one WARC file per task, one thread each.
    sc = spark.sparkContext
    lines = (
        sc.parallelize(paths, len(paths))
        .flatMap(lambda p: mainline.iter_warc(p, threads=1))
        .map(json.dumps)
        .collect()
    )
    got = [json.loads(line) for line in lines]
    expected = []
    for p in paths:
        out = subprocess.run([str(cli), "filter", "-q", p], capture_output=True)
        expected += [json.loads(line) for line in out.stdout.decode("utf-8").splitlines()]
    assert got == expected
    assert any(r.get("error") for r in got) and sum(r["text"] is not None for r in got) >= 10


def _utf8(path):
    try:
        path.read_bytes().decode("utf-8")
        return True
    except UnicodeDecodeError:
        return False


def test_ray_example(samples):
    pytest.importorskip("ray.data", reason="ray[data] is not installed (pip install 'ray[data]')")
    import ray

    example = _example("ray_extract")
    pages = _pages(samples)
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, _node_ip_address="127.0.0.1")
    try:
        ds = ray.data.from_items([{"id": i, "html": p} for i, p in enumerate(pages)])
        rows = example.extract_dataset(ds, actors=1).take_all()
    finally:
        ray.shutdown()
    got = {r["id"]: r["text"] for r in rows}
    assert got == {i: mainline.extract(p) for i, p in enumerate(pages)}
    assert got[len(pages) - 1] == ""
