import os
import pathlib
import shutil
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "data" / "samples"


@pytest.fixture(scope="session")
def samples():
    """The HTML sample pages of the repository, by stem."""
    pages = {p.stem: p.read_bytes() for p in sorted(SAMPLES.glob("*.html"))}
    assert pages, f"no sample pages in {SAMPLES}"
    return pages


@pytest.fixture(scope="session")
def cli():
    """The mainline binary built by `cargo test` or `cargo build` (MAINLINE_BIN overrides)."""
    explicit = os.environ.get("MAINLINE_BIN")
    candidates = [pathlib.Path(explicit)] if explicit else [
        ROOT / "target" / "debug" / "mainline",
        ROOT / "target" / "release" / "mainline",
    ]
    for c in candidates:
        if c.is_file():
            return c
    pytest.skip(f"no mainline binary at {', '.join(map(str, candidates))}: run cargo build first")


@pytest.fixture(scope="session")
def spark():
    """A local Spark session on two cores, shared by every test that needs one (a session
    takes seconds to start), on the loopback interface; skipped, with the
    reason, without pyspark or a Java runtime."""
    pytest.importorskip("pyspark", reason="pyspark is not installed (pip install pyspark)")
    if shutil.which("java") is None and not os.environ.get("JAVA_HOME"):
        pytest.skip("no Java runtime (java on PATH or JAVA_HOME) for pyspark")
    from pyspark.sql import SparkSession

    # The workers run this interpreter, which has mainline installed.
    os.environ["PYSPARK_PYTHON"] = sys.executable
    os.environ["SPARK_LOCAL_IP"] = "127.0.0.1"
    session = (
        SparkSession.builder.master("local[2]")
        .appName("mainline-test")
        .config("spark.ui.enabled", "false")
        .config("spark.driver.host", "127.0.0.1")
        .config("spark.driver.bindAddress", "127.0.0.1")
        .config("spark.sql.shuffle.partitions", "2")
        .getOrCreate()
    )
    yield session
    session.stop()
