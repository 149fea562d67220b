"""Telling the other server processes on one PostgreSQL database that a table moved: PostgreSQL's
``LISTEN``/``NOTIFY``.

The store sends a notice on :data:`CHANNEL` inside the transaction of every write to a table in play
(:meth:`~jantaku.web.storage.SqlStore.save_table`, ``save_tokens``, ``finish_table``), so it goes out when the
write is committed and never for a write rolled back. Its text (:func:`notice`) names the process that wrote
and the table. :class:`TableNotices` listens on a connection of its own in a thread and hands every notice from
another process to a callback in a second thread (the manager reads the table again and pushes it to the
sockets it holds), notices about one table that arrive while it works coalesced into one. After the connection
is lost and made again (notices sent meanwhile are lost), ``on_reconnect`` is called: the manager then reads
every table it holds again.

On SQLite (one process) nothing is sent nor listened to.

>>> notice("n1", "tbl")
'n1 tbl'
>>> parse("n1 tbl"), parse("garbage")
(('n1', 'tbl'), None)
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable

import sqlalchemy as sa

from .store_engine import CONNECT_TIMEOUT, mask

__all__ = ["CHANNEL", "RECONNECT_SECONDS", "TableNotices", "notice", "parse"]

log = logging.getLogger("jantaku.web")

CHANNEL = "jantaku_tables"
"""The PostgreSQL notification channel of table moves."""

RECONNECT_SECONDS = 1.0
"""How long the listener waits before connecting again after losing its connection."""

_POLL = 0.5  # seconds between looks at whether the listener is closed
_RESYNC = ""  # queued after a reconnection: read every table again (no table has an empty id)


def notice(node: str, table_id: str) -> str:
    """The text of the notice that process ``node`` changed table ``table_id``."""
    return f"{node} {table_id}"


def parse(text: str) -> tuple[str, str] | None:
    """``(node, table_id)`` of a notice's text, or ``None`` for text that is not a notice."""
    node, sep, table_id = text.partition(" ")
    return (node, table_id) if sep and node and table_id and " " not in table_id else None


def conninfo(url: sa.URL) -> str:
    """A libpq connection string (a URL) for psycopg from the store's SQLAlchemy URL, password included."""
    return url.set(drivername="postgresql").render_as_string(hide_password=False)


class TableNotices:
    """Listen for other processes' table notices on the database at ``url`` (PostgreSQL); ``node`` is this
    process's id (its own notices are ignored). ``on_notice(table_id)`` is called in a thread of its own, once
    for however many notices of that table arrived while the previous call ran; ``on_reconnect()`` (in the same thread)
    after every connection but the first. :meth:`close` stops both threads."""

    def __init__(
        self,
        url: sa.URL,
        node: str,
        on_notice: Callable[[str], None],
        on_reconnect: Callable[[], None] | None = None,
        *,
        reconnect_seconds: float = RECONNECT_SECONDS,
    ) -> None:
        self.url, self.node = url, node
        self.on_notice, self.on_reconnect = on_notice, on_reconnect
        self.reconnect_seconds = reconnect_seconds
        self.connected = threading.Event()
        """Set while the listener's connection is up and listening."""
        self._closed = threading.Event()
        self._pending: dict[str, None] = {}  # table ids in arrival order, each once
        self._cond = threading.Condition()
        self._threads = [
            threading.Thread(target=self._listen, name="jantaku-table-notices", daemon=True),
            threading.Thread(target=self._dispatch, name="jantaku-table-refresh", daemon=True),
        ]

    def start(self) -> TableNotices:
        """Start listening (returns at once; :attr:`connected` is set once it listens)."""
        for thread in self._threads:
            thread.start()
        return self

    def close(self, wait: float = 5.0) -> None:
        """Stop listening and dispatching; wait up to ``wait`` seconds for each thread."""
        self._closed.set()
        with self._cond:
            self._cond.notify_all()
        for thread in self._threads:
            if thread.is_alive() and thread is not threading.current_thread():
                thread.join(wait)

    def _listen(self) -> None:
        import psycopg

        first, failing = True, False
        while not self._closed.is_set():
            try:
                with psycopg.connect(conninfo(self.url), autocommit=True, connect_timeout=CONNECT_TIMEOUT) as conn:
                    conn.execute(f"LISTEN {CHANNEL}")
                    self.connected.set()
                    failing = False
                    if not first:
                        self._queue(_RESYNC)
                    first = False
                    while not self._closed.is_set():
                        for n in conn.notifies(timeout=_POLL):
                            self._take(n.payload)
            except psycopg.Error as e:
                self.connected.clear()
                first = False  # whatever was sent while down is lost: the next connection reads everything again
                reason = mask(str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__)
                # said once per outage, not at every try
                log.log(logging.DEBUG if failing else logging.WARNING, "table notices: %s; connecting again", reason)
                failing = True
                self._closed.wait(self.reconnect_seconds)
        self.connected.clear()

    def _take(self, payload: str) -> None:
        parsed = parse(payload)
        if parsed is None or parsed[0] == self.node:
            return
        self._queue(parsed[1])

    def _queue(self, table_id: str) -> None:
        with self._cond:
            self._pending[table_id] = None
            self._cond.notify()

    def _dispatch(self) -> None:
        while True:
            with self._cond:
                while not self._pending and not self._closed.is_set():
                    self._cond.wait()
                if self._closed.is_set():
                    return
                table_id = next(iter(self._pending))
                del self._pending[table_id]
            if table_id != _RESYNC:
                self._call(self.on_notice, table_id)
            elif self.on_reconnect is not None:
                self._call(self.on_reconnect)

    @staticmethod
    def _call(fn: Callable[..., None], *args: str) -> None:
        try:
            fn(*args)
        except Exception:  # one table's failure never stops the notices of every table
            log.exception("table notices: handling a notice failed")
