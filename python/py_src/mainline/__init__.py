"""mainline: the main content of web pages, by a streaming line splitter and a trained
perceptron.

>>> import mainline
>>> mainline.extract("<nav><a href=/>Home</a></nav><p>Some words of text.</p>")
'Some words of text.'

``extract`` is one call for one page; ``Extractor`` loads a model once and has
``extract``, ``extract_document``, ``lines`` (every line with its score, decision and
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


def _shared(threshold: Optional[float], format: str) -> Extractor:
    """One Extractor per (threshold, format) for the built-in model, made on first use."""
    key = (threshold, format)
    with _cache_lock:
        ex = _cache.get(key)
        if ex is None:
            ex = Extractor(threshold=threshold, format=format)
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
) -> str:
    """The main content of one page: its kept lines joined by ``"\\n"``, ``""`` when
    nothing is kept.

    ``html`` is ``bytes`` (gzip is recognised by content; the encoding comes from a byte
    order mark, a ``<meta charset>`` or detection, as for the command line) or ``str``
    (taken as decoded). ``url`` names the page in error messages. ``model`` is a model file
    written by ``mainline train`` (default: the built-in model), ``threshold`` the fixed
    density rule instead of a model (the seed design's value is 0.5). ``format`` is
    ``"text"``.

    A model file is loaded at every call: for many pages, make one ``Extractor`` and reuse
    it. Raises ``MainlineError`` for input that is not HTML (an image, a PDF, corrupt gzip
    data) and for an unusable model file, ``FileNotFoundError`` for a missing one.
    """
    if model is None:
        ex = _shared(threshold, format)
    else:
        ex = Extractor(model=model, threshold=threshold, format=format)
    return ex.extract(html, url=url)
