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
features) and ``extract_many`` (many pages on all cores, the GIL released).
``mainline.datatrove`` plugs mainline into datatrove pipelines.
"""

from __future__ import annotations

import os
import threading
from typing import Optional, Union

from ._mainline import (
    FEATURE_NAMES,
    MODEL_VERSION,
    Document,
    Extractor,
    Line,
    MainlineError,
    __version__,
)

__all__ = [
    "FEATURE_NAMES",
    "MODEL_VERSION",
    "Document",
    "Extractor",
    "Line",
    "MainlineError",
    "__version__",
    "extract",
]

_cache: dict = {}
_cache_lock = threading.Lock()


def _shared(threshold: Optional[float], format: str, links: bool, images: bool) -> Extractor:
    """One Extractor per set of options for the built-in model, made on first use."""
    key = (threshold, format, links, images)
    with _cache_lock:
        ex = _cache.get(key)
        if ex is None:
            ex = Extractor(threshold=threshold, format=format, links=links, images=images)
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
) -> str:
    """The main content of one page: its kept lines joined by ``"\\n"``, ``""`` when
    nothing is kept.

    ``html`` is ``bytes`` (gzip is recognised by content; the encoding comes from a byte
    order mark, a ``<meta charset>`` or detection, as for the command line) or ``str``
    (taken as decoded). ``url`` is the page's address: relative links in Markdown are
    resolved against it, and it names the page in error messages. ``format`` is ``"text"``
    (the kept lines), ``"markdown"`` (links written as ``[text](url)`` with ``links=True``,
    images with ``images=True``) or ``"json"`` (one object: metadata, text and counts).
    ``model`` is a model file written by ``mainline train`` (default: the built-in model),
    ``threshold`` the fixed density rule instead of a model (the seed design's value: 0.5).

    A model file is loaded at every call: for many pages, make one ``Extractor`` and reuse
    it. Raises ``MainlineError`` for input that is not HTML (an image, a PDF, corrupt gzip
    data) and for an unusable model file, ``FileNotFoundError`` for a missing one.
    """
    if model is None:
        ex = _shared(threshold, format, links, images)
    else:
        ex = Extractor(model=model, threshold=threshold, format=format, links=links, images=images)
    return ex.extract(html, url=url)
