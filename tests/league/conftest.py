"""Fixtures of the league tests: ``db_url`` runs a test on SQLite and on PostgreSQL (a throwaway cluster
started once per session, ``pg_cluster`` in tests/conftest.py, see tests/pgserver.py)."""

from __future__ import annotations

import pytest


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request, tmp_path) -> str:
    if request.param == "sqlite":
        return str(tmp_path / "league.db")
    return request.getfixturevalue("pg_cluster").fresh_url()


@pytest.fixture
def store(db_url):
    from jantaku.league.store import LeagueStore

    s = LeagueStore(db_url)
    yield s
    s.close()
