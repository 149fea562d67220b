"""Which server process drives a table's timed steps (the pace's bot moves, call windows, turn timers, held
hands) when several share one PostgreSQL database: a *lease* per table in the ``leases`` table.

A process takes a table's lease when the table has a timed step due and nobody else holds it, or the holder let
it lapse (:meth:`Leases.take`, one ``INSERT ... ON CONFLICT DO UPDATE ... WHERE`` whose returned row decides); it
renews every lease it holds every :data:`RENEW_SECONDS` (:meth:`Leases.renew`, from a thread) and drops the
leases of tables it no longer holds in memory. A lease lasts :data:`LEASE_SECONDS` past its last renewal, by the
database's clock (so the machines' clocks need not agree); the holder itself stops counting on it
:data:`MARGIN_SECONDS` earlier by its own clock. A process killed outright therefore stops driving its tables,
and another process that holds one of them takes it over within about ``LEASE_SECONDS + RETRY_SECONDS``
(6 s). A process that stops cleanly drops its leases at once (:meth:`Leases.close`).

The lease only decides who *drives* a table: every write still goes through the step compare-and-swap, so two
processes that both believed they held a table (a stalled holder) can never both store a move.

The same rows say whether anyone watches a table through any process (``watched``): a process with a socket open
on a table marks it at each renewal, and the holder, which may have no socket of its own on it, counts it as
watched (a table nobody watches stops its people's turn timers).

On SQLite (one process) there are no leases: the one process drives every table.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Collection

import sqlalchemy as sa

from .store_engine import transaction

__all__ = ["LEASE_SECONDS", "MARGIN_SECONDS", "RENEW_SECONDS", "RETRY_SECONDS", "WATCHED_SECONDS", "Leases"]

log = logging.getLogger("jantaku.web")

LEASE_SECONDS = 5.0
"""How long a lease lasts past its last renewal (the database's clock)."""

RENEW_SECONDS = 1.5
"""How often the holder renews its leases."""

MARGIN_SECONDS = 1.0
"""How much earlier than the database the holder itself takes its lease to end (its own clock)."""

RETRY_SECONDS = 1.0
"""How long a process that could not take a table's lease waits before asking again."""

WATCHED_SECONDS = 5.0
"""How long a table counts as watched after a process with a socket on it last said so."""

_NOW = "extract(epoch from clock_timestamp())"

_TAKE = sa.text(
    "INSERT INTO leases (table_id, holder, expires) "
    f"VALUES (:table_id, :holder, {_NOW} + :seconds) "
    "ON CONFLICT (table_id) DO UPDATE SET holder = excluded.holder, expires = excluded.expires "
    f"WHERE leases.holder = excluded.holder OR leases.expires < {_NOW} "
    "RETURNING holder"
)
_RENEW = sa.text(
    f"UPDATE leases SET expires = {_NOW} + :seconds WHERE holder = :holder AND table_id IN :ids "
    f"RETURNING table_id, watched > {_NOW}"
).bindparams(sa.bindparam("ids", expanding=True))
_WATCH = sa.text(f"UPDATE leases SET watched = {_NOW} + :seconds WHERE table_id IN :ids").bindparams(
    sa.bindparam("ids", expanding=True)
)
_DROP = sa.text("DELETE FROM leases WHERE holder = :holder AND table_id IN :ids").bindparams(
    sa.bindparam("ids", expanding=True)
)


class Leases:
    """The leases of process ``node`` in the database of ``engine`` (PostgreSQL). :meth:`holds` and
    :meth:`take` answer from memory when they can; the database is asked at most once per
    :data:`RETRY_SECONDS` per table not held, and once per :data:`RENEW_SECONDS` for all held ones together
    (:meth:`start` runs the renewals in a thread; ``wanted()`` names the tables this process still drives,
    ``watched()`` those it has a socket open on, and ``on_watched(ids)`` is told which held tables someone
    watches through another process)."""

    def __init__(
        self,
        engine: sa.Engine,
        node: str,
        *,
        seconds: float = LEASE_SECONDS,
        renew_seconds: float = RENEW_SECONDS,
        retry_seconds: float = RETRY_SECONDS,
        margin: float = MARGIN_SECONDS,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        if not 0 < renew_seconds < seconds - margin or margin < 0 or retry_seconds <= 0:
            raise ValueError("leases: 0 < renew_seconds < seconds - margin, margin >= 0, retry_seconds > 0")
        self.engine, self.node = engine, node
        self.seconds, self.renew_seconds, self.retry_seconds, self.margin = (
            seconds,
            renew_seconds,
            retry_seconds,
            margin,
        )
        self.clock = clock
        self._held: dict[str, float] = {}  # table id -> until when (this process's clock) it counts on the lease
        self._tried: dict[str, float] = {}  # table id -> when it may ask again
        self._lock = threading.Lock()
        self._closed = threading.Event()
        self._thread: threading.Thread | None = None

    def holds(self, table_id: str) -> bool:
        """Whether this process holds ``table_id``'s lease now (from memory)."""
        with self._lock:
            return self._held.get(table_id, float("-inf")) > self.clock()

    def next_try(self, table_id: str) -> float:
        """When :meth:`take` may next ask the database about ``table_id`` (now if it holds the lease)."""
        with self._lock:
            return float("-inf") if table_id in self._held else self._tried.get(table_id, float("-inf"))

    def take(self, table_id: str) -> bool:
        """Whether this process holds ``table_id``'s lease, taking it when it is free or lapsed (asking the
        database at most once per :data:`RETRY_SECONDS`); a database that cannot be reached means no."""
        if self.holds(table_id):
            return True
        now = self.clock()
        with self._lock:
            if self._tried.get(table_id, float("-inf")) > now:
                return False
            self._tried[table_id] = now + self.retry_seconds
        try:
            with transaction(self.engine, write=True) as conn:
                row = conn.execute(_TAKE, {"table_id": table_id, "holder": self.node, "seconds": self.seconds}).first()
        except sa.exc.SQLAlchemyError as e:
            log.warning("table %s: its lease could not be asked for (%s)", table_id, type(e).__name__)
            return False
        if row is None:
            return False
        with self._lock:
            self._held[table_id] = now + self.seconds - self.margin
            self._tried.pop(table_id, None)
        log.info("table %s: this process drives its timed steps now", table_id)
        return True

    def renew(self, wanted: Collection[str], watched: Collection[str] = ()) -> set[str]:
        """Renew the leases held of the tables in ``wanted``, drop the others held, and mark ``watched`` as
        watched through this process. Returns the held tables someone watches through another process."""
        now = self.clock()
        with self._lock:
            keep = [tid for tid in self._held if tid in wanted]
            drop = [tid for tid in self._held if tid not in wanted]
            self._tried = {tid: at for tid, at in self._tried.items() if at > now and tid in wanted}
        seen: set[str] = set()
        try:
            with transaction(self.engine, write=True) as conn:
                if watched:
                    conn.execute(_WATCH, {"ids": sorted(watched), "seconds": WATCHED_SECONDS})
                if drop:
                    conn.execute(_DROP, {"holder": self.node, "ids": drop})
                rows = (
                    conn.execute(_RENEW, {"holder": self.node, "ids": keep, "seconds": self.seconds}).all()
                    if keep
                    else []
                )
        except sa.exc.SQLAlchemyError as e:
            log.warning("leases could not be renewed (%s); retrying", type(e).__name__)
            return seen
        renewed = {row[0] for row in rows}
        with self._lock:
            for tid in drop:
                self._held.pop(tid, None)
            for tid in keep:
                if tid in renewed:
                    self._held[tid] = now + self.seconds - self.margin
                elif self._held.pop(tid, None) is not None:
                    log.info("table %s: another process took over its timed steps", tid)
        return {row[0] for row in rows if row[1]}

    def start(
        self,
        wanted: Callable[[], Collection[str]],
        watched: Callable[[], Collection[str]],
        on_watched: Callable[[set[str]], None],
    ) -> Leases:
        """Renew in a thread every :data:`RENEW_SECONDS` until :meth:`close`."""

        def loop() -> None:
            while not self._closed.wait(self.renew_seconds):
                try:
                    elsewhere = self.renew(wanted(), watched())
                    if elsewhere:
                        on_watched(elsewhere)
                except Exception:  # never let one failure stop the renewals
                    log.exception("renewing the table leases failed")

        self._thread = threading.Thread(target=loop, name="jantaku-table-leases", daemon=True)
        self._thread.start()
        return self

    def close(self, wait: float = 5.0) -> None:
        """Stop renewing and drop every lease held, so another process takes the tables over at once."""
        self._closed.set()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(wait)
        with self._lock:
            held = list(self._held)
            self._held.clear()
        if held:
            try:
                with transaction(self.engine, write=True) as conn:
                    conn.execute(_DROP, {"holder": self.node, "ids": held})
            except sa.exc.SQLAlchemyError as e:
                log.warning("the table leases could not be dropped (%s); they lapse by themselves", type(e).__name__)
