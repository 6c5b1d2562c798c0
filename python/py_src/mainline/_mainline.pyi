"""Type stubs of mainline's compiled core (see ``mainline``)."""

import os
from typing import Any, Dict, Iterable, Iterator, List, Literal, Optional, Tuple, Union

__version__: str
MODEL_VERSION: str
"""Version of the built-in model: 16 hex digits of a digest of its weights."""
FEATURE_NAMES: List[str]
"""The names of the features of ``Line.features``, in the models' column order."""

class MainlineError(ValueError):
    """A page or a model that mainline cannot read; the message is the library's."""

class Document:
    """A page's main content and what was counted while reading it."""

    @property
    def text(self) -> str:
        """The kept lines joined by ``"\\n"`` (``""`` when nothing is kept)."""
    @property
    def markdown(self) -> str:
        """The kept lines as GitHub-flavoured Markdown."""
    @property
    def metadata(self) -> Dict[str, Any]:
        """What the page says about itself: title, author, published, modified, site_name,
        description, language, image, url, base, page_types, html_title, first_h1."""
    @property
    def url(self) -> Optional[str]:
        """The URL given, else the page's canonical link."""
    @property
    def lines(self) -> int:
        """Lines of the page."""
    @property
    def kept_lines(self) -> int:
        """Lines kept."""
    @property
    def text_bytes(self) -> int:
        """UTF-8 bytes of the kept lines' text."""
    @property
    def input_bytes(self) -> int:
        """Bytes of HTML read (after gzip decompression)."""
    @property
    def encoding(self) -> str:
        """The encoding the page was decoded with (``"UTF-8"`` for a ``str``)."""

class Line:
    """One line of a page and what was decided about it."""

    @property
    def index(self) -> int: ...
    @property
    def text(self) -> str: ...
    @property
    def keep(self) -> bool:
        """The decision: whether the line is main content."""
    @property
    def score(self) -> float: ...
    @property
    def html_bytes(self) -> int: ...
    @property
    def text_bytes(self) -> int: ...
    @property
    def link_bytes(self) -> int: ...
    @property
    def density(self) -> float: ...
    @property
    def block(self) -> str: ...
    @property
    def heading(self) -> int: ...
    @property
    def depth(self) -> int: ...
    @property
    def ancestors(self) -> List[str]: ...
    @property
    def features(self) -> Dict[str, float]:
        """Every feature the model reads, by name (``FEATURE_NAMES``)."""

class WarcPages(Iterator[Dict[str, Any]]):
    """The HTML pages of a WARC file as dicts (``Extractor.iter_warc``), read and extracted
    a batch of records at a time."""

    def __iter__(self) -> "WarcPages": ...
    def __next__(self) -> Dict[str, Any]: ...
    @property
    def skipped(self) -> Dict[str, int]:
        """Records that gave no page so far, by kind (``request``, ``metadata``,
        ``not HTML``, ``non-2xx status``, …)."""

class Extractor:
    """Extracts the main content of web pages with one model, loaded once.

    ``Extractor()`` uses the built-in model, ``Extractor(model=PATH)`` a model file written
    by ``mainline train``, ``Extractor(threshold=0.5)`` the fixed density rule. Safe to
    share between threads.
    """

    def __init__(
        self,
        model: Union[str, "os.PathLike[str]", None] = None,
        threshold: Optional[float] = None,
        *,
        format: Literal["text", "markdown", "json"] = "text",
        links: bool = False,
        images: bool = False,
        headline: bool = True,
    ) -> None: ...
    @property
    def model_version(self) -> Optional[str]:
        """16 hex digits of a digest of the model's weights; None for a threshold."""
    @property
    def model(self) -> str:
        """What decides: the model's recipe, or ``"threshold X"``."""
    @property
    def format(self) -> str: ...
    def extract(self, html: Union[str, bytes], *, url: Optional[str] = None) -> str:
        """The main content of one page in the extractor's format, ``""`` when nothing is
        kept; ``url`` resolves relative links and names the page in errors."""
    def extract_document(
        self, html: Union[str, bytes], *, url: Optional[str] = None
    ) -> Document:
        """Text, Markdown, metadata and counts of one page."""
    def lines(self, html: Union[str, bytes], *, url: Optional[str] = None) -> List[Line]:
        """Every line with its score, decision and features, in document order."""
    def extract_many(
        self,
        pages: Iterable[Union[str, bytes]],
        threads: Optional[int] = None,
        *,
        errors: Literal["none", "raise", "ignore"] = "none",
    ) -> List[Optional[str]]:
        """The main content of many pages, in order, on ``threads`` threads (default: all
        cores; at most the CPUs the process may run on, the threads kept for the next call
        with the same number) with the GIL released; ``None`` for a page that could not be
        read (with ``errors="raise"``, ``MainlineError`` instead)."""
    def iter_warc(
        self,
        path: Union[str, "os.PathLike[str]"],
        *,
        max_payload: int = 16777216,
        any_status: bool = False,
        threads: Optional[int] = None,
    ) -> WarcPages:
        """The HTML pages of a WARC file (plain or gzip), one dict per page with the fields
        of ``mainline filter``'s JSON lines (``warc_record_id``, ``url``, ``warc_date``,
        ``text``, what the format adds; ``error`` and ``warc_offset`` for a record that
        failed), streamed a batch at a time with the GIL released."""

class SiteProfile:
    """What a site repeats on most of its pages (its template), learnt from its pages;
    ``extract`` gives a page's text with its site's template dropped."""

    def __init__(
        self,
        pages: Optional[Iterable[Union[str, bytes, Tuple[Optional[str], Union[str, bytes]]]]] = None,
        *,
        memory: int = 536870912,
    ) -> None: ...
    def learn(self, html: Union[str, bytes], *, url: Optional[str] = None) -> Optional[str]:
        """Learns one page; returns its site, or None when it has none."""
    def extract(self, html: Union[str, bytes], *, url: Optional[str] = None) -> str:
        """The page's main text, its site's template dropped."""
    @property
    def sites(self) -> int: ...
    def pages(self, host: str) -> int: ...
    def to_json(self) -> str: ...
    @staticmethod
    def from_json(json: str) -> "SiteProfile": ...
    def save(self, path: Union[str, "os.PathLike[str]"]) -> None: ...
    @staticmethod
    def load(path: Union[str, "os.PathLike[str]"]) -> "SiteProfile": ...

def site_host(url: str) -> Optional[str]:
    """The site of a URL: its host, lowercased, without a port or a leading ``www.``."""
