"""``extract_many(threads=N)`` starts at most as many threads as there are CPUs, and keeps
one set of them between calls: the threads alive are counted in a fresh interpreter each
time (``Threads`` of ``/proc/self/status``), so that no other test's threads count."""

import os
import pathlib
import subprocess
import sys
import textwrap

import pytest

pytestmark = pytest.mark.skipif(
    not pathlib.Path("/proc/self/status").exists(),
    reason="counts threads with /proc/self/status (Linux)",
)

# The CPUs this process may run on; mainline's cap heeds cgroup quotas too, so it is at
# most this.
CPUS = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()

# The interpreter's own thread, one pool of CPUS threads, and a few to spare.
BOUND = 1 + CPUS + 3

CHILD = textwrap.dedent(
    """
    import sys, time
    import mainline

    def threads():
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith("Threads:"):
                    return int(line.split()[1])
        raise SystemExit("no Threads in /proc/self/status")

    page = "<article><p>" + "The tide comes in twice a day, pulled by the moon. " * 8 + "</p></article>"
    ex = mainline.Extractor()
    expected = ex.extract(page)
    most = 0
    for n in [int(a) for a in sys.argv[1:]]:
        out = ex.extract_many([page] * 16, threads=n)
        assert out == [expected] * 16, out
        most = max(most, threads())
    # Threads of a replaced pool end on their own, soon after.
    deadline = time.monotonic() + 10
    while threads() > BOUND and time.monotonic() < deadline:
        time.sleep(0.05)
    print(most, threads())
    """
)


def threads_after(*ns: int) -> tuple:
    """Runs ``extract_many`` with each thread count of ``ns`` in turn in a fresh
    interpreter; returns the most threads alive after a call, and those alive at the end."""
    done = subprocess.run(
        [sys.executable, "-c", f"BOUND = {BOUND}\n" + CHILD, *map(str, ns)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    most, end = map(int, done.stdout.split())
    return most, end


def test_a_huge_thread_count_runs_on_at_most_the_cpus():
    most, end = threads_after(10_000)
    assert most <= BOUND, f"{most} threads alive after extract_many(threads=10000)"
    assert end <= BOUND


def test_a_million_threads_asked_for_do_not_hang():
    most, _ = threads_after(10**6)
    assert most <= BOUND


def test_calls_with_many_thread_counts_do_not_pile_threads_up():
    most, end = threads_after(*range(1, 41))
    assert end <= BOUND, f"{end} threads alive after threads=1..40 in turn"
    assert most <= BOUND + CPUS, f"{most} threads alive at once"
