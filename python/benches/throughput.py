"""Throughput of mainline's Python package, and of other extractors' Python packages, on the
same pages.

    python python/benches/throughput.py ../shared/data/wcxb-dev/html [--rounds 3]

Reads every *.html / *.html.gz page of the folder into memory (decompressed), then times,
best of --rounds:
  1. mainline ``Extractor.extract_many`` on the pages as bytes with 1 and 2 threads
     (speed-up), and ``extract`` called once per page (the per-call overhead);
  2. with the pages as ``str`` (decoded as UTF-8, invalid bytes replaced), one thread each:
     mainline ``extract``, resiliparse ``extract_plain_text(html, main_content=True)`` and
     trafilatura ``extract(html)`` (rs-trafilatura's package when it is installed), for
     those that are installed.
MB are 10^6 bytes of decompressed HTML. Run ``cargo run --release --example throughput``
on the same folder for the Rust library's figure.
"""

from __future__ import annotations

import argparse
import gzip
import pathlib
import time


def load(folder: pathlib.Path) -> list[bytes]:
    pages = []
    for path in sorted(folder.iterdir()):
        if path.name.endswith((".html.gz", ".htm.gz")):
            pages.append(gzip.decompress(path.read_bytes()))
        elif path.name.endswith((".html", ".htm")):
            pages.append(path.read_bytes())
    if not pages:
        raise SystemExit(f"no .html or .html.gz pages in {folder}")
    return pages


CLOCK = time.perf_counter


def best(rounds: int, run) -> float:
    """The shortest of ``rounds`` runs, by CLOCK."""
    times = []
    for _ in range(rounds):
        start = CLOCK()
        run()
        times.append(CLOCK() - start)
    return min(times)


def report(name: str, seconds: float, pages: int, size: int, extra: str = "") -> None:
    print(f"{name:<58} {pages / seconds:>8.1f} pages/s {size / seconds / 1e6:>7.1f} MB/s"
          f"  ({seconds:.2f} s){extra}", flush=True)


def cpu_and_wall(run) -> tuple[float, float]:
    """CPU seconds of the process (all threads) and wall seconds of one run."""
    cpu, wall = time.process_time(), time.perf_counter()
    run()
    return time.process_time() - cpu, time.perf_counter() - wall


def extractors():
    """(name, function of one str page) for each installed comparison extractor."""
    found = []
    try:
        from resiliparse.extract.html2text import extract_plain_text

        found.append(("resiliparse extract_plain_text(main_content=True)",
                      lambda html: extract_plain_text(html, main_content=True)))
    except ImportError:
        print("resiliparse: not installed (pip install resiliparse)")
    try:
        import rs_trafilatura

        found.append(("rs-trafilatura extract", lambda html: rs_trafilatura.extract(html)))
    except ImportError:
        try:
            import trafilatura

            found.append(("trafilatura extract", lambda html: trafilatura.extract(html)))
        except ImportError:
            print("trafilatura: not installed (pip install trafilatura)")
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", type=pathlib.Path)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--others-rounds", type=int, default=1,
                        help="rounds for the other extractors (default 1)")
    parser.add_argument("--cpu", action="store_true",
                        help="time single-threaded runs by the process's CPU time instead of "
                             "the wall clock (for a machine busy with other work)")
    args = parser.parse_args()
    global CLOCK
    if args.cpu:
        CLOCK = time.process_time

    import mainline

    pages = load(args.folder)
    size = sum(map(len, pages))
    n = len(pages)
    print(f"{n} pages, {size / 1e6:.1f} MB; mainline {mainline.__version__}, "
          f"model {mainline.MODEL_VERSION}")
    ex = mainline.Extractor()
    ex.extract_many(pages[:50])  # warm up

    # Threads are timed by the wall clock; the CPU time says how much work each run did.
    runs = {1: [], 2: []}
    for _ in range(args.rounds):
        for threads in (1, 2):
            runs[threads].append(cpu_and_wall(lambda: ex.extract_many(pages, threads=threads)))
    (c1, w1), (c2, w2) = (min(runs[t], key=lambda r: r[1]) for t in (1, 2))
    print(f"load average: {open('/proc/loadavg').read().split()[0]}")
    report("mainline extract_many(bytes), threads=1 (wall)", w1, n, size, f"  CPU {c1:.2f} s")
    report("mainline extract_many(bytes), threads=2 (wall)", w2, n, size,
           f"  CPU {c2:.2f} s; speed-up {w1 / w2:.2f}x, CPU ratio {c2 / c1:.2f}")
    t1 = best(args.rounds, lambda: ex.extract_many(pages, threads=1))
    report("mainline extract_many(bytes), threads=1", t1, n, size)
    te = best(args.rounds, lambda: [ex.extract(p) for p in pages])
    report("mainline extract(bytes) per page", te, n, size)
    tiny = ["<p>x</p>"] * 10000
    tt = best(args.rounds, lambda: [ex.extract(p) for p in tiny])
    print(f"mainline extract('<p>x</p>'): {tt / len(tiny) * 1e6:.2f} µs per call")

    texts = [p.decode("utf-8", "replace") for p in pages]
    ssize = sum(len(t.encode("utf-8")) for t in texts)
    ts = best(args.rounds, lambda: [ex.extract(t) for t in texts])
    report("mainline extract(str) per page", ts, n, ssize)
    for name, fn in extractors():
        fn(texts[0])
        t = best(args.others_rounds, lambda: [fn(x) for x in texts])
        report(name, t, n, ssize, f"  mainline is {t / ts:.2f}x as fast")


if __name__ == "__main__":
    main()
