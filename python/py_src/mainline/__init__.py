"""mainline: the main content of web pages, by a streaming line splitter and a trained
perceptron.

>>> import mainline
>>> page = ("<nav><a href=/>Home</a> <a href=/about>About</a> <a href=/maps>Maps</a></nav>"
...         "<article><h1>Tides</h1>"
...         "<p>The tide comes in twice a day, pulled by the moon and, less, by the sun.</p>"
...         "<p>Walkers who know the times cross the sands and come back before the water.</p>"
...         "</article><footer><a href=/privacy>Privacy</a></footer>")
>>> print(mainline.extract(page))
Tides
The tide comes in twice a day, pulled by the moon and, less, by the sun.
Walkers who know the times cross the sands and come back before the water.
>>> print(mainline.extract(page, format="markdown"), end="")
# Tides
<BLANKLINE>
The tide comes in twice a day, pulled by the moon and, less, by the sun.
<BLANKLINE>
Walkers who know the times cross the sands and come back before the water.

``extract`` is one call for one page; ``Extractor`` loads a model once and has
``extract``, ``extract_document`` (text, Markdown, metadata, counts), ``lines`` (every line with its score, decision and
features), ``extract_many`` (many pages on all cores, the GIL released) and
``iter_warc`` (the HTML pages of a WARC file, streamed). ``mainline.iter_warc`` is the
same with the built-in model. ``mainline.datatrove`` plugs mainline into datatrove
pipelines. ``SiteProfile`` learns what a site repeats on its pages (its template) and
extracts them without it; ``site_host`` is the site of a URL.
"""

from __future__ import annotations

import os
import threading
from typing import Any, Dict, Iterator, Optional, Union

from ._mainline import (
    FEATURE_NAMES,
    MODEL_VERSION,
    Document,
    Extractor,
    Line,
    MainlineError,
    SiteProfile,
    WarcPages,
    __version__,
    site_host,
)

__all__ = [
    "FEATURE_NAMES",
    "MODEL_VERSION",
    "Document",
    "Extractor",
    "Line",
    "MainlineError",
    "SiteProfile",
    "WarcPages",
    "__version__",
    "extract",
    "iter_warc",
    "site_host",
]

_cache: dict = {}
_cache_lock = threading.Lock()


def _shared(
    threshold: Optional[float], format: str, links: bool, images: bool, headline: bool
) -> Extractor:
    """One Extractor per set of options for the built-in model, made on first use."""
    key = (threshold, format, links, images, headline)
    with _cache_lock:
        ex = _cache.get(key)
        if ex is None:
            ex = Extractor(
                threshold=threshold, format=format, links=links, images=images, headline=headline
            )
            if len(_cache) < 64:
                _cache[key] = ex
        return ex


def extract(
    html: Union[str, bytes],
    *,
    url: Optional[str] = None,
    format: str = "text",
    model: Union[str, "os.PathLike[str]", None] = None,
    threshold: Optional[float] = None,
    links: bool = False,
    images: bool = False,
    headline: bool = True,
) -> str:
    """The main content of one page: its kept lines joined by ``"\\n"``, ``""`` when
    nothing is kept.

    ``html`` is ``bytes`` (gzip is recognised by content; the encoding comes from a byte
    order mark, a ``<meta charset>`` or detection, as for the command line) or ``str``
    (taken as decoded). ``url`` is the page's address: relative links in Markdown are
    resolved against it, and it names the page in error messages. ``format`` is ``"text"``
    (the kept lines), ``"markdown"`` (links written as ``[text](url)`` with ``links=True``,
    images with ``images=True``; it starts with the page's headline as ``# headline``, its
    first ``<h1>`` else its title, unless ``headline=False``, as ``mainline filter
    --no-headline``) or ``"json"`` (one object: metadata, text and counts, its keys in the
    order of ``mainline filter --format json``).
    ``model`` is a model file written by ``mainline train`` (default: the built-in model),
    ``threshold`` the fixed density rule instead of a model (the seed design's value: 0.5).

    A model file is loaded at every call: for many pages, make one ``Extractor`` and reuse
    it. Raises ``MainlineError`` for input that is not HTML (an image, a PDF, corrupt gzip
    data) and for an unusable model file, ``FileNotFoundError`` for a missing one.
    """
    if model is None:
        ex = _shared(threshold, format, links, images, headline)
    else:
        ex = Extractor(
            model=model,
            threshold=threshold,
            format=format,
            links=links,
            images=images,
            headline=headline,
        )
    return ex.extract(html, url=url)


def iter_warc(
    path: Union[str, "os.PathLike[str]"],
    *,
    format: str = "text",
    model: Union[str, "os.PathLike[str]", None] = None,
    threshold: Optional[float] = None,
    links: bool = False,
    images: bool = False,
    headline: bool = True,
    max_payload: int = 16 * 1024 * 1024,
    any_status: bool = False,
    threads: Optional[int] = None,
) -> Iterator[Dict[str, Any]]:
    """The HTML pages of a WARC file, one ``dict`` per page, streamed: what
    ``mainline filter FILE.warc.gz`` writes as JSON lines.

    For example (``python/tests/test_warc.py`` runs it on the files of ``data/warc``)::

        for page in mainline.iter_warc("CC-MAIN-20250101-00000.warc.gz", threads=1):
            if page.get("error") is None:
                print(page["url"], len(page["text"]))

    Each dict has ``warc_record_id``, ``url`` (the ``WARC-Target-URI``), ``warc_date`` and
    ``text`` (the kept lines); ``format="markdown"`` adds ``markdown``, ``format="json"``
    the page's metadata and counts. A record that cannot be read, or a payload cut at
    ``max_payload`` bytes, gives a dict with an ``error`` (and ``warc_offset``, where the
    record starts in the file); ``text`` is None when nothing could be extracted. Records
    that are not HTML responses (requests, metadata, images, non-2xx statuses unless
    ``any_status``) give nothing; the iterator's ``skipped`` counts them by kind.

    The file is read and extracted in Rust, a batch of records at a time with the GIL
    released, on ``threads`` threads (default: one per core; pass ``1`` inside a Spark or
    Ray task; at most the CPUs the process may run on, as in ``Extractor.extract_many``). ``model``, ``threshold``, ``links``, ``images`` and ``headline`` are those
    of ``Extractor``; for many files, make one ``Extractor`` and call its ``iter_warc``.
    Raises ``FileNotFoundError`` (or another ``OSError``) when the file cannot be opened.
    """
    if model is None:
        ex = _shared(threshold, format, links, images, headline)
    else:
        ex = Extractor(
            model=model,
            threshold=threshold,
            format=format,
            links=links,
            images=images,
            headline=headline,
        )
    return ex.iter_warc(path, max_payload=max_payload, any_status=any_status, threads=threads)
