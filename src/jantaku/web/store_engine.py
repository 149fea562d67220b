"""Opening the web table's games database: what ``--db`` names (a SQLite file, a ``sqlite:///`` URL or a
PostgreSQL URL, driven by psycopg 3), a SQLAlchemy engine set up for it, and transactions that say whether they
write.

On SQLite a writing transaction takes the file's write lock when it begins (``BEGIN IMMEDIATE``), so two
writers queue (for up to :data:`BUSY_TIMEOUT` seconds) instead of failing halfway; a reading one takes no lock
(the file is in WAL mode: readers never wait for a writer). On PostgreSQL every transaction is the server's
own (read committed); a compare-and-swap is an ``UPDATE ... WHERE step = :expected``, which waits for a
concurrent writer of the row and then looks at the row as that writer left it.

A password in a URL is never shown: :func:`shown` and :func:`mask` put ``***`` in its place.

>>> database_url("games.sqlite3").render_as_string()
'sqlite:///games.sqlite3'
>>> shown(database_url("postgresql://ann:secret@db.example/games"))
'postgresql+psycopg://ann:***@db.example/games'
>>> try:
...     database_url("mysql://ann:secret@db.example/games")
... except JantakuError as e:
...     print(e)
the games database is a SQLite file, a sqlite:///PATH URL or a postgresql://USER@HOST/DB URL (psycopg 3), not
'mysql://ann:***@db.example/games'
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from sqlalchemy import event
from sqlalchemy.pool import StaticPool

from jantaku.errors import JantakuError
from jantaku.extras import require

__all__ = [
    "BUSY_TIMEOUT",
    "CONNECT_TIMEOUT",
    "WRITE",
    "database_url",
    "is_memory",
    "make_engine",
    "mask",
    "shown",
    "transaction",
]

BUSY_TIMEOUT = 5.0
"""Seconds a SQLite write waits for another process's transaction on the same file before it fails."""

CONNECT_TIMEOUT = 10
"""Seconds a connection to a PostgreSQL server may take before it fails (unless the URL sets
``connect_timeout``)."""

WRITE = "jantaku_write"
"""The execution option set on a connection whose transaction writes (:func:`transaction`)."""

_POSTGRES = ("postgresql", "postgres", "postgresql+psycopg")
_SQLITE = ("sqlite", "sqlite+pysqlite")


def mask(text: str) -> str:
    """``text`` (a URL as given, perhaps one that cannot be read) with every password replaced by ``***``: the
    part between the user name's ``:`` and the last ``@``, and a ``password=`` parameter.

    >>> mask("postgresql://ann:s3cr@t@db.example/games?password=x&sslmode=require")
    'postgresql://ann:***@db.example/games?password=***&sslmode=require'
    >>> mask("postgresql://db.example:5432/games"), mask("out/games.sqlite3")
    ('postgresql://db.example:5432/games', 'out/games.sqlite3')
    """
    text = re.sub(r"^([A-Za-z][\w+.-]*://[^:/?#@]*):.*@", r"\1:***@", text)
    return re.sub(r"(password=)[^&\s]*", r"\1***", text, flags=re.IGNORECASE)


def shown(url: sa.URL) -> str:
    """``url`` as it may be printed or logged: its password (in the URL or a ``password`` parameter) masked."""
    return mask(url.render_as_string(hide_password=True))


def database_url(db: str | Path) -> sa.URL:
    """The SQLAlchemy URL of ``db``: a file path (or ``":memory:"``) and ``sqlite:///PATH`` are SQLite;
    ``postgresql://`` (or ``postgres://``, ``postgresql+psycopg://``) is PostgreSQL through psycopg 3, which the
    ``web`` extra installs (:class:`~jantaku.extras.MissingExtra` when it is missing). Anything else is a
    :class:`JantakuError` that shows what was given, its password masked.

    >>> database_url("postgres://ann@db.example:5433/games").render_as_string()
    'postgresql+psycopg://ann@db.example:5433/games'
    >>> database_url(":memory:").database, database_url("sqlite://").database
    (':memory:', ':memory:')
    """
    text = str(db)
    if "://" not in text:
        if not text.strip():
            raise JantakuError("the games database is a SQLite file or a database URL, not an empty name")
        return sa.URL.create("sqlite", database=text)
    scheme = text.split("://", 1)[0].lower()
    if scheme not in _POSTGRES + _SQLITE:
        raise JantakuError(
            "the games database is a SQLite file, a sqlite:///PATH URL or a postgresql://USER@HOST/DB URL "
            f"(psycopg 3), not {mask(text)[:200]!r}"
        )
    try:
        url = sa.make_url(text)
    except (sa.exc.ArgumentError, ValueError) as e:
        raise JantakuError(f"the games database URL {mask(text)[:200]!r} cannot be read ({mask(str(e))})") from None
    if scheme in _SQLITE:
        return url.set(drivername="sqlite", database=url.database or ":memory:")
    require("psycopg", "web", "a PostgreSQL games database")
    return url.set(drivername="postgresql+psycopg")


def is_memory(url: sa.URL) -> bool:
    """Whether ``url`` is a throwaway SQLite database in memory."""
    return url.get_backend_name() == "sqlite" and url.database in (None, "", ":memory:")


def make_engine(url: sa.URL) -> sa.Engine:
    """An engine for ``url`` (see :func:`database_url`). SQLite: the connections commit nothing by themselves
    (jantaku begins each transaction, :func:`transaction`), enforce foreign keys and, in a file, keep the
    write-ahead log synced at each commit; a database in memory is one connection shared by every thread (the
    caller serialises its use). PostgreSQL: connections are checked before use (a restarted server is
    reconnected to) and fail after :data:`CONNECT_TIMEOUT` seconds. Statement parameters (seat tokens) never
    appear in an error's text."""
    if url.get_backend_name() != "sqlite":
        args: dict[str, Any] = {} if "connect_timeout" in url.query else {"connect_timeout": CONNECT_TIMEOUT}
        return sa.create_engine(url, pool_pre_ping=True, connect_args=args, hide_parameters=True)
    memory = is_memory(url)
    engine = sa.create_engine(
        url,
        connect_args={"timeout": BUSY_TIMEOUT, "check_same_thread": False},
        hide_parameters=True,
        **({"poolclass": StaticPool} if memory else {}),
    )

    @event.listens_for(engine, "connect")
    def _connect(dbapi_conn: Any, _record: Any) -> None:
        dbapi_conn.isolation_level = None  # no implicit transactions: transaction() begins each one
        cur = dbapi_conn.cursor()
        cur.execute("PRAGMA foreign_keys = ON")
        if not memory:
            # readers never wait for a writer; each commit is synced to disk (one fsync) before it returns
            cur.execute("PRAGMA journal_mode = WAL")
            cur.execute("PRAGMA synchronous = FULL")  # an acknowledged move survives a power cut too
        cur.close()

    @event.listens_for(engine, "begin")
    def _begin(conn: sa.Connection) -> None:
        if conn.get_execution_options().get(WRITE):
            conn.exec_driver_sql("BEGIN IMMEDIATE")  # the write lock now, not at the first write

    return engine


@contextmanager
def transaction(engine: sa.Engine, write: bool = False) -> Iterator[sa.Connection]:
    """A connection in a transaction, committed at the end of the block (rolled back on an exception);
    ``write``: it will write (on SQLite it holds the write lock from its start)."""
    with engine.connect() as conn:
        if write:
            conn.execution_options(**{WRITE: True})
        with conn.begin():
            yield conn
