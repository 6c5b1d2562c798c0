"""mainline as a datatrove extractor: ``Mainline()`` is a drop-in for ``Trafilatura()``.

>>> from datatrove.pipeline.extractors import Trafilatura          # doctest: +SKIP
>>> from mainline.datatrove import Mainline
>>> pipeline = [WarcReader(...), Mainline(), JsonlWriter(...)]     # doctest: +SKIP

Each document's ``text`` (its HTML) is replaced by the main content; a document with no
main content is dropped, as datatrove's extractors do. mainline reads a page in one pass
with bounded memory, so by default it runs in the worker's own process, without the
per-document subprocess and pipe that ``BaseExtractor`` uses to guard against extractors
that hang; give ``timeout=`` (seconds) to get that sandbox anyway.
"""

from __future__ import annotations

import os
from typing import Optional, Union

from datatrove.data import DocumentsPipeline
from datatrove.pipeline.extractors.base import BaseExtractor
from datatrove.utils.logging import logger
from datatrove.utils.typeshelper import StatHints

from . import Extractor, MainlineError

__all__ = ["Mainline"]


class Mainline(BaseExtractor):
    """datatrove extractor running mainline.

    Args:
        model: a model file written by ``mainline train`` (default: the built-in model).
        threshold: the fixed density rule instead of a model (the seed design's value: 0.5).
        timeout: seconds per document; when given, documents are extracted in
            ``BaseExtractor``'s subprocess sandbox (default: in-process, no timeout).
    """

    name = "⛏ Mainline"

    def __init__(
        self,
        model: Union[str, "os.PathLike[str]", None] = None,
        threshold: Optional[float] = None,
        timeout: Optional[float] = None,
    ):
        super().__init__(timeout=timeout if timeout is not None else 1)
        self.sandboxed = timeout is not None
        self.model = None if model is None else os.fspath(model)
        self.threshold = threshold
        # Checks the arguments now, in the process that builds the pipeline.
        self._extractor: Optional[Extractor] = Extractor(model=self.model, threshold=threshold)

    def __getstate__(self):
        # The compiled extractor does not pickle; each worker makes its own.
        state = self.__dict__.copy()
        state["_extractor"] = None
        return state

    def extract(self, text: str) -> str:
        """The main content of the HTML ``text``; ``""`` when there is none."""
        if self._extractor is None:
            self._extractor = Extractor(model=self.model, threshold=self.threshold)
        return self._extractor.extract(text)

    def run(self, data: DocumentsPipeline, rank: int = 0, world_size: int = 1) -> DocumentsPipeline:
        if self.sandboxed:
            yield from super().run(data, rank, world_size)
            return
        for doc in data:
            self.stat_update(StatHints.total)
            with self.track_time():
                try:
                    doc.text = self.extract(doc.text)
                    self.stat_update("extracted")
                except MainlineError as e:
                    self.stat_update("clean_error")
                    if not self._warned_error:
                        logger.warning(f'❌ Error "{e}" while extracting {doc.id}. Skipping record. '
                                       "This message will only appear once.")
                        self._warned_error = True
                    continue
            if doc.text:
                self.stat_update(StatHints.forwarded)
                self.update_doc_stats(doc)
                yield doc
            else:
                self.stat_update(StatHints.dropped)
