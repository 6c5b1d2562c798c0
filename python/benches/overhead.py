"""What a Python call adds to the Rust library, in instructions (exact whatever the load).

    for mode in load many each; do
      valgrind --tool=callgrind --callgrind-out-file=/tmp/cg.$mode \\
        python python/benches/overhead.py DIR 29 $mode
    done

Loads the first N pages of DIR (decompressed, and decoded to str) and makes an Extractor
(mode ``load``), then extracts them with one ``extract_many(pages, threads=1)`` call
(``many``), one ``extract`` call per page (``each``; ``str`` for the decoded pages), or
per page with resiliparse's ``extract_plain_text(html, main_content=True)``
(``resiliparse``) or trafilatura's ``extract(html)`` (``trafilatura``; the first page
twice, to warm its caches, which the count includes). The difference to ``load`` is the cost of the
extraction seen from Python; against the Rust library's ``filter, built-in model`` stage of
``examples/throughput.rs`` on the same pages (``ONLY=built-in``) it gives the overhead.
"""

import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).parent))
from throughput import load  # noqa: E402

import mainline  # noqa: E402

folder, n, mode = pathlib.Path(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
pages = load(folder)[:n]
texts = [p.decode("utf-8", "replace") for p in pages]
ex = mainline.Extractor()
if mode == "str":
    for text in texts:
        ex.extract(text)
elif mode == "resiliparse":
    from resiliparse.extract.html2text import extract_plain_text

    for text in texts:
        extract_plain_text(text, main_content=True)
elif mode == "trafilatura":
    import trafilatura

    trafilatura.extract(texts[0])  # imports and caches, as in a long run
    for text in texts:
        trafilatura.extract(text)
elif mode == "many":
    ex.extract_many(pages, threads=1)
elif mode == "each":
    for page in pages:
        ex.extract(page)
elif mode != "load":
    raise SystemExit(f"unknown mode {mode!r}: load, many, each, str, resiliparse, trafilatura")
