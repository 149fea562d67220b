"""Heavy requests: the work that costs seconds of CPU or hundreds of megabytes runs in worker processes.

Reading an uploaded record (``POST /api/replay``, ``/api/replay/export``, the league's import), reviewing a game
(``/api/review``, ``/api/games/{id}/review``), an analysis (``/api/analyse``) and the whole game of a table of
four bots (``POST /api/tables``) are *heavy*. The server hands
each to a :class:`HeavyPool`: a few worker processes of its own (the server's process, and so every seat's move,
never waits on that work: no shared interpreter lock, no shared memory), within limits a host can reason about
(:class:`HeavyLimits`, each a ``jantaku serve`` option):

- at most ``per_address`` heavy requests from one address running or waiting (more: 429), and at most
  ``workers + queue`` in all (more: 503 at once);
- a request waits at most ``wait_seconds`` for a free worker (then 503, nothing done);
- each kind of work has a deadline (:data:`DEADLINES`, or the host's) counted in the worker's processor time
  from the moment the worker has started (a new worker's start-up is not the job's, :data:`STARTUP_SECONDS`),
  so that a busy machine slows a request without cutting it short, and a wall-clock cap of :data:`WALL_FACTOR`
  times that: a worker past either is ended and replaced, and the request answers 503 naming the limit;
- a worker's memory is capped (``memory_mb`` of address space: a record that would need more is refused with
  413), and a worker that grew past half of it, or did ``recycle_after`` jobs, is replaced by a fresh one, so
  the server's memory stays flat however long it runs; a worker idle for :data:`IDLE_SECONDS` ends.

Workers are Python processes of their own (``python -m jantaku.web.heavy_tasks``; about 0.5 s of CPU to start),
started on the first heavy request and ended with the application. A worker whose server dies ends when its
job is done (its input closes).

>>> limits = HeavyLimits(workers=1, queue=0, per_address=1)
>>> limits.workers + limits.queue  # heavy requests admitted at once, in all
1
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import pickle
import queue
import select
import subprocess
import sys
import threading
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, BinaryIO

from .tables import TooManyRequests, Unavailable, WebError

__all__ = ["DEADLINES", "STARTUP_SECONDS", "WALL_FACTOR", "HeavyLimits", "HeavyPool", "WorkerError", "receive", "send"]

log = logging.getLogger("jantaku.web")

DEADLINES: dict[str, float] = {
    "replay": 20.0,
    "export": 20.0,
    "import": 20.0,
    "review": 35.0,
    "analyse": 90.0,
    "bots": 60.0,
}
"""The seconds of processor time each kind of heavy work may take before its worker is ended (the review stops
itself at :data:`~jantaku.web.review.REVIEW_SECONDS`, 30 s of its processor time, with a clearer message; 35 s is
the backstop); on a machine without ``/proc`` (the worker's processor time unknown), wall-clock seconds. Reading an
8 MB record takes about 1-3 s (one with more events than allowed is refused by its count first), reviewing a
hanchan with the strong bot 2-5 s, the largest analysis the web page allows about 55 s on one core, a table of
four strong bots plays a hanchan in about 2-3 s."""


WALL_FACTOR = 4.0
"""A heavy request ends after this many times its deadline in wall-clock seconds however little processor time
its worker got (a worker starved by other work on the machine: below the server's priority, it is the first to
wait)."""

STARTUP_SECONDS = 60.0
"""Wall-clock seconds a new worker may take to start (import what its jobs use: about 0.5 s of processor time)
before its first job; not counted in the job's deadline. Past it the request answers 503 and the worker is replaced."""

IDLE_SECONDS = 600.0
"""A worker without a job for this long ends (a server idle for a while gives its workers' memory back); the pool
replaces one idle for this less a minute before sending it a job, so none ends under a job (the default of
:attr:`HeavyLimits.idle_seconds`)."""


@dataclass(frozen=True)
class HeavyLimits:
    """The limits of :class:`HeavyPool` (``jantaku serve --heavy-workers``, ``--heavy-queue``,
    ``--heavy-per-address``, ``--heavy-memory``).

    ``workers``: worker processes (each does one job at a time; 1 leaves a 2-core machine's other core to the
    tables); ``queue``: jobs that may wait for a worker, in all; ``per_address``: jobs running or waiting from
    one address; ``wait_seconds``: the longest wait for a worker; ``memory_mb``: a worker's address-space cap;
    ``recycle_after``: jobs before a worker is replaced by a fresh one; ``idle_seconds``: how long a worker
    waits for a job before it ends; ``deadlines``: seconds per kind of work
    that differ from :data:`DEADLINES` (``jantaku serve --heavy-deadline KIND=SECONDS``)."""

    workers: int = 1
    queue: int = 4
    per_address: int = 2
    wait_seconds: float = 15.0
    memory_mb: int = 2048
    recycle_after: int = 200
    deadlines: tuple[tuple[str, float], ...] = ()
    idle_seconds: float = IDLE_SECONDS

    def deadline(self, kind: str) -> float:
        """The wall-clock seconds a job of ``kind`` may take."""
        return dict(self.deadlines).get(kind, DEADLINES[kind])

    def __post_init__(self) -> None:
        if self.workers < 1:
            raise ValueError("heavy workers: at least 1")
        if self.queue < 0 or self.per_address < 1:
            raise ValueError("heavy queue: 0 or more; per address: at least 1")
        if not self.idle_seconds > 0:
            raise ValueError("heavy idle seconds: more than 0")
        if self.memory_mb < 256:
            raise ValueError("heavy memory: at least 256 MB (a worker holds numpy and the record readers)")
        for kind, seconds in self.deadlines:
            if kind not in DEADLINES:
                raise ValueError(f"heavy deadline: no kind {kind!r} (one of {', '.join(DEADLINES)})")
            if not 0 < seconds <= 3600:
                raise ValueError(f"heavy deadline: {kind} takes more than 0 and at most 3600 seconds, not {seconds}")


class WorkerError(WebError):
    """A heavy job refused by its worker: the worker's status and message (a :class:`WebError` raised there,
    400 for a :class:`~jantaku.errors.JantakuError`, 413 when the job ran out of memory)."""

    def __init__(self, status: int, message: str, kind: str = "") -> None:
        super().__init__(message)
        self.status = status
        self.kind = kind


class HeavyPool:
    """Worker processes for heavy requests, within :class:`HeavyLimits`. Call :meth:`run` from the event loop;
    :meth:`close` ends the workers (the application's lifespan does)."""

    def __init__(self, limits: HeavyLimits | None = None) -> None:
        self.limits = limits or HeavyLimits()
        self._lock = threading.Lock()
        self._by_address: Counter[str] = Counter()
        self._admitted = 0
        self._idle: queue.LifoQueue[_Worker | None] = queue.LifoQueue()
        for _ in range(self.limits.workers):
            self._idle.put(None)  # a worker not started yet: started when first taken
        self._threads = ThreadPoolExecutor(
            max_workers=self.limits.workers + self.limits.queue, thread_name_prefix="jantaku-heavy"
        )
        self._closed = False
        self._workers: set[_Worker] = set()
        self.stats: Counter[str] = Counter()
        """Counts: ``jobs``, ``refused`` (over a limit), ``timeouts``, ``recycled``, ``crashed``."""

    async def run(self, kind: str, address: str | None, task: str, *args: Any) -> Any:
        """Run ``task`` (a name in :data:`jantaku.web.heavy_tasks.TASKS`) on ``args`` in a worker; its result,
        or the :class:`WebError` it raised. ``kind`` picks the deadline (:meth:`HeavyLimits.deadline`)."""
        who = address or "?"
        self._admit(who)
        try:
            loop = asyncio.get_running_loop()
            return await loop.run_in_executor(self._threads, self._call, kind, task, args)
        finally:
            self._release(who)

    def _release(self, who: str) -> None:
        with self._lock:
            self._admitted -= 1
            self._by_address[who] -= 1
            if self._by_address[who] <= 0:
                del self._by_address[who]

    def _admit(self, who: str) -> None:
        lim = self.limits
        with self._lock:
            if self._closed:
                raise Unavailable("the server is stopping")
            if self._by_address[who] >= lim.per_address:
                self.stats["refused"] += 1
                raise TooManyRequests(
                    f"this address already has {lim.per_address} heavy request(s) (reviews, analyses, record "
                    "uploads) running or waiting: wait for them to finish"
                )
            if self._admitted >= lim.workers + lim.queue:
                self.stats["refused"] += 1
                raise Unavailable("the server is busy with other reviews, analyses and uploads: try again soon")
            self._admitted += 1
            self._by_address[who] += 1

    def _call(self, kind: str, task: str, args: tuple[Any, ...]) -> Any:
        try:
            worker = self._idle.get(timeout=self.limits.wait_seconds)
        except queue.Empty:
            self.stats["refused"] += 1
            raise Unavailable(
                f"no worker was free within {self.limits.wait_seconds:g} s (the server is busy with other "
                "reviews, analyses and uploads): try again soon"
            ) from None
        try:
            if worker is not None and worker.idle_for() > self.limits.idle_seconds - 60:
                self._forget(worker)  # about to end by itself
                worker = None
            if worker is None or not worker.alive():
                if worker is not None:
                    self._forget(worker)
                worker = _Worker(self.limits.memory_mb, self.limits.idle_seconds)
                with self._lock:
                    if self._closed:
                        worker.end()
                        raise Unavailable("the server is stopping")
                    self._workers.add(worker)
            self.stats["jobs"] += 1
            seconds = self.limits.deadline(kind)
            try:
                return worker.call(task, args, seconds)
            except _Overran:
                self.stats["timeouts"] += 1
                self._forget(worker)
                worker = None
                raise Unavailable(
                    f"the {kind} took longer than {seconds:g} s and was stopped (the server's limit): "
                    + _LONGER.get(kind, "try a smaller file")
                ) from None
            except _NotStarted:
                self._forget(worker)
                worker = None
                raise Unavailable(
                    f"a worker for the {kind} did not start within {STARTUP_SECONDS:g} s (the server is very busy): "
                    "try again soon"
                ) from None
            except _Died as e:
                self._forget(worker)
                worker = None
                if self._closed:
                    raise Unavailable("the server is stopping: try again when it is back") from None
                self.stats["crashed"] += 1
                raise WorkerError(
                    413,
                    f"the {kind} ended its worker process ({e}): it needed more memory than the server allows "
                    "or could not be done",
                    "TooLarge",
                ) from None
        finally:
            if worker is not None and (
                worker.jobs >= self.limits.recycle_after or worker.rss_mb > self.limits.memory_mb / 2
            ):
                self.stats["recycled"] += 1
                self._forget(worker)
                worker = None
            if self._closed and worker is not None:
                self._forget(worker)
                worker = None
            self._idle.put(worker)

    def _forget(self, worker: _Worker) -> None:
        worker.end()
        with self._lock:
            self._workers.discard(worker)

    def status(self) -> dict[str, Any]:
        """The limits and the counts so far, for ``GET /api/status``: ``workers``, ``queue``, ``per_address``,
        ``wait_seconds``, ``memory_mb``, ``deadlines``; ``admitted`` now; ``jobs``, ``refused``, ``timeouts``,
        ``recycled``, ``crashed`` since the start."""
        lim = self.limits
        with self._lock:
            admitted = self._admitted
        return {
            "workers": lim.workers,
            "queue": lim.queue,
            "per_address": lim.per_address,
            "wait_seconds": lim.wait_seconds,
            "memory_mb": lim.memory_mb,
            "deadlines": {kind: lim.deadline(kind) for kind in DEADLINES},
            "admitted": admitted,
            **{k: self.stats[k] for k in ("jobs", "refused", "timeouts", "recycled", "crashed")},
        }

    def close(self) -> None:
        """End every worker (a job running too) and refuse new jobs."""
        with self._lock:
            self._closed = True
            workers = list(self._workers)
            self._workers.clear()
        for worker in workers:  # a job running is ended with its worker: its request answers 413/503
            worker.end()
        self._threads.shutdown(wait=False, cancel_futures=True)


_LONGER = {
    "analyse": "play fewer games here, or run the analysis with `jantaku analyze` on your own machine",
    "review": "review it with `jantaku review` instead",
}


class _Overran(Exception):
    pass


class _NotStarted(Exception):
    """A new worker did not finish starting within :data:`STARTUP_SECONDS`."""


class _Died(Exception):
    pass


_CLOCK_TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def send(pipe: BinaryIO, obj: Any) -> None:
    """``obj`` written to ``pipe`` as one frame: its pickled length (8 bytes, big-endian), then it pickled."""
    data = pickle.dumps(obj, protocol=pickle.HIGHEST_PROTOCOL)
    pipe.write(len(data).to_bytes(8, "big") + data)
    pipe.flush()


def receive(pipe: BinaryIO) -> Any:
    """The next frame :func:`send` wrote to ``pipe``; :class:`EOFError` when the pipe closed."""
    head = _exactly(pipe, 8)
    return pickle.loads(_exactly(pipe, int.from_bytes(head, "big")))


def _exactly(pipe: BinaryIO, n: int) -> bytes:
    chunks, left = [], n
    while left:
        chunk = pipe.read(left)
        if not chunk:
            raise EOFError("the pipe closed")
        chunks.append(chunk)
        left -= len(chunk)
    return b"".join(chunks)


class _Worker:
    """One worker process (``python -m jantaku.web.heavy_tasks``) and the pipes to it: a job and its reply are
    pickled frames (:func:`send`), written to its standard input and read from its
    standard output."""

    def __init__(self, memory_mb: int, idle_seconds: float = 600.0) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "jantaku.web.heavy_tasks", str(memory_mb), str(idle_seconds)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=None,  # its log lines go where the server's go
        )
        assert self.process.stdout is not None
        self._out: BinaryIO = getattr(self.process.stdout, "raw", self.process.stdout)
        """The worker's replies, read unbuffered: two frames may be on the way (its ready frame and a quick job's
        reply), and a buffered read of the first would take the second out of the pipe, where ``select`` no
        longer sees it."""
        self.jobs = 0
        self.rss_mb = 0.0
        self.last = time.monotonic()
        self.ready = False
        """Whether the worker has said it started (its imports done)."""

    def alive(self) -> bool:
        return self.process.poll() is None

    def idle_for(self) -> float:
        return time.monotonic() - self.last

    def call(self, task: str, args: tuple[Any, ...], seconds: float) -> Any:
        """Run ``task`` in the worker: its reply, or :class:`_Overran` past ``seconds`` of the worker's processor
        time (or :data:`WALL_FACTOR` times that of wall-clock time)."""
        self.jobs += 1
        assert self.process.stdin is not None and self.process.stdout is not None
        try:
            send(self.process.stdin, (task, args))
            if not self.ready:  # a new worker's start-up (about 0.5 s of processor time) is not the job's
                self._start_up()
            self._wait(seconds)
            reply = receive(self._out)
        except (EOFError, OSError, pickle.UnpicklingError):
            code = self.process.wait(timeout=5) if not self.alive() else None
            raise _Died(f"the worker ended, exit code {code}") from None
        self.last = time.monotonic()
        status, payload, self.rss_mb = reply
        if status == "ok":
            return payload
        code, message, kind = payload
        raise WorkerError(code, message, kind)

    def _start_up(self) -> None:
        """Wait for the worker's ready frame: :class:`_NotStarted` after :data:`STARTUP_SECONDS`."""
        ready, _, _ = select.select([self._out], [], [], STARTUP_SECONDS)
        if not ready:
            raise _NotStarted
        status, _, self.rss_mb = receive(self._out)
        if status != "ready":  # pragma: no cover - the worker's first frame is always its ready frame
            raise _Died(f"the worker's first frame was {status!r}")
        self.ready = True

    def _wait(self, seconds: float) -> None:
        """Until the worker's reply is ready to read; :class:`_Overran` once the job has used ``seconds`` of
        processor time, or :data:`WALL_FACTOR` times ``seconds`` have passed."""
        start = self.cpu_seconds()
        wall_end = time.monotonic() + (seconds if start is None else seconds * WALL_FACTOR)
        while True:
            left = wall_end - time.monotonic()
            if left <= 0:
                raise _Overran
            if start is not None:
                now = self.cpu_seconds()
                used = (now if now is not None else start) - start
                if used >= seconds:
                    raise _Overran
                # the worker uses at most one second of processor time a second: no need to look sooner
                left = min(left, max(0.05, seconds - used))
            ready, _, _ = select.select([self._out], [], [], left)
            if ready:
                return

    def cpu_seconds(self) -> float | None:
        """The worker's processor time so far (user and system), or ``None`` where ``/proc`` does not tell it."""
        try:
            with open(f"/proc/{self.process.pid}/stat", "rb") as f:
                fields = f.read().rsplit(b") ", 1)[1].split()
            return (int(fields[11]) + int(fields[12])) / _CLOCK_TICKS
        except (OSError, IndexError, ValueError):
            return None

    def end(self) -> None:
        for pipe in (self.process.stdin, self.process.stdout):
            with contextlib.suppress(OSError):
                if pipe is not None:
                    pipe.close()
        if self.alive():
            self.process.kill()
        try:
            self.process.wait(timeout=5)
        except subprocess.TimeoutExpired:  # pragma: no cover - a process that survives SIGKILL
            log.warning("heavy worker %s did not end", self.process.pid)
