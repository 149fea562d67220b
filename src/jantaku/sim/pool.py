"""Worker processes for the commands that play many games (``simulate``, ``analyze``, ``evaluate``).

>>> available_cpus() >= 1
True
"""

from __future__ import annotations

import multiprocessing
import os
from concurrent.futures import ProcessPoolExecutor

__all__ = ["available_cpus", "process_pool"]


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
