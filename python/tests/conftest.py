import os
import pathlib

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
