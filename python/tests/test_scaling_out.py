"""The Spark and Ray Data examples, run on a local Spark session and a local Ray cluster.

Each test is skipped, with the reason, when its framework (or Java, for Spark) is missing.
"""

import importlib.util
import json
import os
import shutil
import sys

import pytest

import mainline
from conftest import ROOT

EXAMPLES = ROOT / "python" / "examples"


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


def test_spark_example(tmp_path, samples):
    pytest.importorskip("pyspark", reason="pyspark is not installed (pip install pyspark)")
    if shutil.which("java") is None and not os.environ.get("JAVA_HOME"):
        pytest.skip("no Java runtime (java on PATH or JAVA_HOME) for pyspark")
    from pyspark.sql import SparkSession

    example = _example("spark_extract")
    pages = _pages(samples)
    src = tmp_path / "pages.jsonl"
    src.write_text("".join(json.dumps({"id": i, "html": p}) + "\n" for i, p in enumerate(pages)))
    os.environ["PYSPARK_PYTHON"] = sys.executable
    # Everything on the loopback interface.
    os.environ["SPARK_LOCAL_IP"] = "127.0.0.1"
    spark = (
        SparkSession.builder.master("local[2]")
        .appName("mainline-test")
        .config("spark.ui.enabled", "false")
        .config("spark.driver.host", "127.0.0.1")
        .config("spark.driver.bindAddress", "127.0.0.1")
        .config("spark.sql.shuffle.partitions", "2")
        .getOrCreate()
    )
    try:
        df = spark.read.json(str(src)).repartition(2)
        out = example.extract_frame(df).collect()
    finally:
        spark.stop()
    got = {r["id"]: (r["text"], r["error"]) for r in out}
    assert len(got) == len(pages)
    assert got == {i: (mainline.extract(p), None) for i, p in enumerate(pages)}
    assert got[len(pages) - 1] == ("", None)


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
