"""Peak memory of a long extract_many run: RSS after each batch of pages stays flat.

    python python/benches/memory.py ../shared/data/wcxb-dev/html [--pages 10000] [--batch 1000]

Cycles through the folder's pages (kept in memory, decompressed) until --pages pages have
been extracted by extract_many (all cores) in batches of --batch, and prints after each
batch the process's resident memory (RSS) and its peak so far (ru_maxrss).
"""

from __future__ import annotations

import argparse
import itertools
import pathlib
import resource
import sys

sys.path.insert(0, str(pathlib.Path(__file__).parent))
from throughput import load  # noqa: E402


def rss_mb() -> float:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * resource.getpagesize() / 2**20


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", type=pathlib.Path)
    parser.add_argument("--pages", type=int, default=10000)
    parser.add_argument("--batch", type=int, default=1000)
    args = parser.parse_args()

    import mainline

    pages = load(args.folder)
    ex = mainline.Extractor()
    print(f"{len(pages)} distinct pages loaded: RSS {rss_mb():.0f} MiB")
    stream = itertools.cycle(pages)
    done = 0
    while done < args.pages:
        batch = list(itertools.islice(stream, min(args.batch, args.pages - done)))
        texts = ex.extract_many(batch)
        done += len(batch)
        del texts, batch
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        print(f"{done:>7} pages: RSS {rss_mb():6.0f} MiB, peak {peak:6.0f} MiB", flush=True)


if __name__ == "__main__":
    main()
