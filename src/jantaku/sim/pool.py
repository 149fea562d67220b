"""Worker processes for the commands that play many games (``simulate``, ``analyze``, ``evaluate``).

>>> available_cpus() >= 1
True
"""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

__all__ = ["POOL_ATTEMPTS", "available_cpus", "process_pool", "run_despite_dead_workers"]

POOL_ATTEMPTS = 2
"""How often a job whose worker process died (killed, out of memory) is run: the jobs are deterministic (seeded
games, record files), so the second attempt does the same work."""


def available_cpus() -> int:
    """The CPUs this process may run on (its affinity where the system tells it, else the machine's count)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - macOS and Windows have no affinity call
        return max(1, os.cpu_count() or 1)


def process_pool(workers: int) -> ProcessPoolExecutor:
    """A pool of ``workers`` processes started by a fork server, not forked from the caller: the lab,
    ``jantaku evaluate`` and ``jantaku simulate`` seat any Python policy, and a caller that has run a threaded
    library (torch's OpenMP threads, after training a network) can deadlock a child forked from it. Each worker
    imports what its jobs need. Where there is no fork server, the workers are spawned."""
    methods = multiprocessing.get_all_start_methods()
    method = "forkserver" if "forkserver" in methods else "spawn"  # (Windows has neither fork nor a fork server)
    return ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context(method))


def run_despite_dead_workers(
    fn: Callable[[Any], Any],
    jobs: Sequence[Any],
    workers: int,
    on_result: Callable[[int, Any], None],
    attempts: int = POOL_ATTEMPTS,
) -> list[int]:
    """Run ``fn(job)`` for every job in ``workers`` processes (:func:`process_pool`), calling ``on_result(index,
    result)`` in the jobs' order as they finish. A job whose worker died is run again in a new pool, ``attempts``
    times in all. Returns the indices of the jobs never finished. An exception a job raises (not a dead worker)
    propagates as it is."""
    pending = list(range(len(jobs)))
    for _ in range(attempts):
        if not pending:
            break
        failed = []
        with process_pool(workers) as pool:
            futures = [(i, pool.submit(fn, jobs[i])) for i in pending]
            for i, future in futures:
                try:
                    result = future.result()
                except BrokenProcessPool:
                    failed.append(i)
                else:
                    on_result(i, result)
        pending = failed
    return pending
