"""Fixtures of the league tests: ``db_url`` runs a test on SQLite and on PostgreSQL (a throwaway cluster
started once per session, see :mod:`tests.league.pg`)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from .pg import Cluster, PostgresUnavailable


@pytest.fixture(scope="session")
def pg_cluster() -> Iterator[Cluster]:
    try:
        cluster = Cluster()
    except PostgresUnavailable as e:
        pytest.fail(str(e), pytrace=False)
    yield cluster
    cluster.stop()


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
