"""A throwaway PostgreSQL cluster for the tests that run on PostgreSQL (the league recorder's and the web table's games
store; the ``pg_cluster`` fixture of tests/conftest.py starts one per test process): Debian's server binaries, a
cluster in a temporary folder listening only on a unix socket there, run as the ``postgres`` user when the tests run
as root (the server refuses root). ``JANTAKU_TEST_POSTGRES_URL`` names an existing server to use instead. Missing
server binaries are installed with apt-get when the tests run as root (as the browser tests do with chromium, so the
README's test command works on a fresh machine; ``.ci/run`` installs them beforehand); otherwise they are a failure,
never a skip."""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import subprocess
import tempfile
import uuid
from pathlib import Path

from debian import InstallFailed, apt_install

ENV_URL = "JANTAKU_TEST_POSTGRES_URL"


class PostgresUnavailable(RuntimeError):
    """The PostgreSQL server binaries are not installed."""


def _find(name: str) -> list[str]:
    on_path = shutil.which(name)
    return sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}")) or ([on_path] if on_path else [])


def _bin(name: str) -> str:
    try:
        apt_install("postgresql", lambda: (_find(name) or [None])[-1])  # once, however many workers ask
    except InstallFailed as e:
        raise PostgresUnavailable(str(e)) from None
    found = _find(name)
    if not found:
        raise PostgresUnavailable(
            f"PostgreSQL's {name} is missing: install Debian's server (apt-get install -y -q postgresql), as "
            f".ci/run does, or set {ENV_URL} to a server the tests may use"
        )
    return found[-1]


def psycopg_url(url: str) -> str:
    """``url`` with psycopg 3 as its driver (SQLAlchemy's default for ``postgresql://`` is psycopg2)."""
    scheme, rest = url.split("://", 1)
    return f"postgresql+psycopg://{rest}" if scheme in ("postgresql", "postgres") else url


class Cluster:
    """A running throwaway cluster; :meth:`fresh_url` gives each test its own schema."""

    def __init__(self) -> None:
        self.external = os.environ.get(ENV_URL)
        self.tmp: str | None = None
        if self.external:
            self.url = self.external
            return
        initdb, pg_ctl = _bin("initdb"), _bin("pg_ctl")
        self.tmp = tempfile.mkdtemp(prefix="jantaku-pg-")
        data, sock = Path(self.tmp) / "data", Path(self.tmp) / "sock"
        sock.mkdir()
        self._as_user: list[str] = []
        if os.geteuid() == 0:
            pw = pwd.getpwnam("postgres")
            os.chown(self.tmp, pw.pw_uid, pw.pw_gid)
            os.chown(sock, pw.pw_uid, pw.pw_gid)
            self._as_user = ["runuser", "-u", "postgres", "--"]
        self._pg_ctl, self._data = pg_ctl, data
        run = {"check": True, "capture_output": True, "text": True}
        subprocess.run([*self._as_user, initdb, "-D", str(data), "-A", "trust", "-U", "postgres", "--no-sync"], **run)
        opts = f"-k {sock} -c listen_addresses='' -c fsync=off -c full_page_writes=off -p 5432"
        subprocess.run(
            [*self._as_user, pg_ctl, "-D", str(data), "-o", opts, "-w", "-l", str(Path(self.tmp) / "log"), "start"],
            **run,
        )
        self.url = f"postgresql://postgres@/postgres?host={sock}"

    def fresh_url(self) -> str:
        """A URL whose tables live in a new, empty schema."""
        import sqlalchemy as sa

        name = "t_" + uuid.uuid4().hex[:12]
        engine = sa.create_engine(psycopg_url(self.url))
        with engine.begin() as conn:
            conn.exec_driver_sql(f"CREATE SCHEMA {name}")
        engine.dispose()
        sep = "&" if "?" in self.url else "?"
        return f"{self.url}{sep}options=-csearch_path%3D{name}"

    def stop(self) -> None:
        """Stop the server and remove its folder (an external server is left alone)."""
        if self.tmp is None:
            return
        subprocess.run(
            [*self._as_user, self._pg_ctl, "-D", str(self._data), "-m", "immediate", "stop"],
            capture_output=True,
            check=False,
        )
        shutil.rmtree(self.tmp, ignore_errors=True)
