"""Runs one function over the suite's kernels on several threads (a
kernel's work is subprocesses: the lowering, compilers, the program under
test), handing the outcomes back in the kernels' order, so a report reads
the same at any number of jobs."""
import os
from concurrent.futures import ThreadPoolExecutor


def default_jobs():
    """The cores this process may run on."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)


def in_order(items, work, jobs, expected=(Exception,)):
    """Yields `(item, outcome)` in the order of `items`: `work(item)`, or the
    exception of a type in `expected` it raised (any other is raised here).
    With `jobs` > 1, up to `jobs` items are worked on at once."""
    def attempt(item):
        try:
            return work(item)
        except expected as e:
            return e

    if jobs <= 1:
        for item in items:
            yield item, attempt(item)
        return
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        futures = [pool.submit(attempt, item) for item in items]
        for item, future in zip(items, futures):
            yield item, future.result()
