"""mainline.datatrove.Mainline in a real datatrove pipeline: reader -> Mainline -> writer."""

import gzip
import json

import pytest

datatrove = pytest.importorskip("datatrove", reason="datatrove is not installed (pip install datatrove)")

from datatrove.executor import LocalPipelineExecutor  # noqa: E402
from datatrove.pipeline.readers import JsonlReader  # noqa: E402
from datatrove.pipeline.writers import JsonlWriter  # noqa: E402

import mainline  # noqa: E402
from mainline.datatrove import Mainline  # noqa: E402


def _run(tmp_path, pages, **kwargs):
    src = tmp_path / "in"
    src.mkdir()
    with open(src / "pages.jsonl", "w") as f:
        for i, html in enumerate(pages):
            f.write(json.dumps({"id": f"page-{i}", "text": html}) + "\n")
    out = tmp_path / "out"
    LocalPipelineExecutor(
        pipeline=[JsonlReader(str(src)), Mainline(**kwargs), JsonlWriter(str(out))],
        tasks=1,
        logging_dir=str(tmp_path / "logs"),
    ).run()
    docs = []
    for path in sorted(out.glob("*.jsonl.gz")):
        with gzip.open(path, "rt") as f:
            docs.extend(json.loads(line) for line in f)
    return docs


def test_pipeline_extracts_and_drops_empty_documents(tmp_path, samples):
    pages = [p.decode("utf-8", "replace") for p in samples.values()]
    menu = "<nav><ul><li><a href=/>Home</a><li><a href=/a>About</a></ul></nav>"
    docs = _run(tmp_path, pages + [menu])
    expected = {f"page-{i}": mainline.extract(p) for i, p in enumerate(pages)}
    assert {d["id"]: d["text"] for d in docs} == {k: v for k, v in expected.items() if v}
    assert f"page-{len(pages)}" not in {d["id"] for d in docs}  # nothing kept: dropped


def test_pipeline_with_the_subprocess_sandbox_and_a_threshold(tmp_path, samples):
    pages = [samples["table-layout"].decode()]
    docs = _run(tmp_path, pages, threshold=0.5, timeout=30)
    assert [d["text"] for d in docs] == [mainline.extract(pages[0], threshold=0.5)]


def test_bad_arguments_fail_when_the_pipeline_is_built():
    with pytest.raises(ValueError, match="not both"):
        Mainline(model="x.json", threshold=0.5)


def test_the_readme_pipeline_reads_warc_files(tmp_path, cli):
    """[WarcReader(...), Mainline(), JsonlWriter(...)] with what the datatrove extra brings
    (pip install './python[datatrove]'): the texts of ``mainline filter`` on the same file."""
    import subprocess

    from datatrove.pipeline.readers import WarcReader

    from conftest import ROOT

    warc = ROOT / "data" / "warc"
    out = tmp_path / "out"
    LocalPipelineExecutor(
        pipeline=[
            WarcReader(str(warc), glob_pattern="mixed.warc.gz"),
            Mainline(),
            JsonlWriter(str(out)),
        ],
        tasks=1,
        logging_dir=str(tmp_path / "logs"),
    ).run()
    docs = []
    for path in sorted(out.glob("*.jsonl.gz")):
        with gzip.open(path, "rt") as f:
            docs.extend(json.loads(line) for line in f)
    # datatrove's reader takes responses of any HTTP status, as --any-status does.
    run = subprocess.run(
        [str(cli), "filter", "-q", "--any-status", str(warc / "mixed.warc.gz")], capture_output=True
    )
    records = [json.loads(line) for line in run.stdout.decode().splitlines()]
    expected = {r["url"]: r["text"] for r in records if r["text"]}
    assert expected and {d["metadata"]["url"]: d["text"] for d in docs} == expected
