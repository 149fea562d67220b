"""Several processes opening a brand-new league database at the same moment, on SQLite and PostgreSQL: the
migration runs under a lock (PostgreSQL's advisory lock, SQLite's write lock), so exactly one creates the
tables and every process opens the database."""

from __future__ import annotations

import subprocess
import sys
import time

import sqlalchemy as sa

from jantaku.league.migrations import current_revision, head_revision
from jantaku.league.store import LeagueStore, database_url

OPENER = """
import sys, time
from pathlib import Path
go = Path(sys.argv[2])
while not go.exists():
    time.sleep(0.002)
from jantaku.league.store import LeagueStore
LeagueStore(sys.argv[1]).close()
"""

WORKERS = 4


def test_processes_opening_a_fresh_database_at_once(db_url, tmp_path):
    # each process imports jantaku first (slow) and opens the database only when the go file appears, so the
    # openings race
    go = tmp_path / "go"
    procs = []
    for _ in range(WORKERS):
        procs.append(
            subprocess.Popen(
                [sys.executable, "-c", "import jantaku.league.store\n" + OPENER, db_url, str(go)],
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
            )
        )
    time.sleep(2.0)  # every process has imported the store and waits for the go file
    go.touch()
    outs = [p.communicate(timeout=120) for p in procs]
    for p, (_out, err) in zip(procs, outs, strict=True):
        assert p.returncode == 0, err
    engine = sa.create_engine(database_url(db_url))
    try:
        assert current_revision(engine) == head_revision()
        with engine.connect() as conn:
            versions = conn.execute(sa.text("SELECT version_num FROM league_alembic_version")).all()
        assert [v[0] for v in versions] == [head_revision()]
    finally:
        engine.dispose()
    s = LeagueStore(db_url)
    try:
        s.create_event("Cup", "mu")
        assert s.events()[0]["name"] == "Cup"
    finally:
        s.close()
