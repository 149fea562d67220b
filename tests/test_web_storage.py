"""The web table's game store: schema creation and migration, transactions, surviving a restart."""

import sqlite3

import pytest

from jantaku.web.storage import SCHEMA_VERSION, SqliteStore, StoredGame, StoredTable


def _game(gid="g1", created="2026-01-01T00:00:00Z"):
    return StoredGame(
        gid,
        created,
        "mleague",
        [{"name": "東", "kind": "human", "bot": None}] * 4,
        "finished",
        [{"type": "start_game"}, {"type": "end_game", "scores": [1, 2, 3, 4]}],
        {"final": [1.0, 2.0, -1.0, -2.0]},
    )


def _table(tid="t1"):
    return StoredTable(tid, "2026-01-01T00:00:00Z", "2026-01-01T00:00:01Z", "tenhou", "seed", [{"kind": "bot"}] * 4, [])


def test_new_store_has_the_current_schema(tmp_path):
    store = SqliteStore(tmp_path / "sub" / "games.sqlite3")
    assert store.schema_version == SCHEMA_VERSION
    assert store.list_games() == []
    assert store.get_game("x") is None and store.get_table("x") is None


def test_games_survive_a_restart(tmp_path):
    path = tmp_path / "games.sqlite3"
    store = SqliteStore(path)
    store.save_game(_game("a", "2026-01-01T00:00:00Z"))
    store.save_game(_game("b", "2026-01-02T00:00:00Z"))
    store.save_table(_table("t"))
    store.close()
    again = SqliteStore(path)
    assert [g.id for g in again.list_games()] == ["b", "a"]  # newest first
    assert again.list_games()[0].events == []  # the list leaves the logs out
    got = again.get_game("a")
    assert got == _game("a", "2026-01-01T00:00:00Z")
    assert got.players[0]["name"] == "東"
    assert again.get_table("t") == _table("t")
    assert [g.id for g in again.list_games(limit=1, offset=1)] == ["a"]


def test_finish_table_moves_the_game_atomically(tmp_path):
    store = SqliteStore(tmp_path / "db.sqlite3")
    store.save_table(_table("t"))
    store.finish_table("t", _game("t"))
    assert store.get_table("t") is None and store.get_game("t") is not None


def test_a_failed_write_leaves_nothing_half_stored(tmp_path, monkeypatch):
    store = SqliteStore(tmp_path / "db.sqlite3")
    store.save_table(_table("t"))
    original = SqliteStore._insert_game

    def insert_then_fail(db, game):
        original(db, game)
        raise RuntimeError("disk on fire")

    monkeypatch.setattr(SqliteStore, "_insert_game", staticmethod(insert_then_fail))
    with pytest.raises(RuntimeError):
        store.finish_table("t", _game("t"))
    assert store.get_game("t") is None  # the insert was rolled back
    assert store.get_table("t") is not None  # and the table kept


def test_an_old_database_is_migrated(tmp_path):
    path = tmp_path / "old.sqlite3"
    db = sqlite3.connect(path)
    db.executescript(
        "CREATE TABLE schema_version (version INTEGER NOT NULL); INSERT INTO schema_version VALUES (1);"
        "CREATE TABLE games (id TEXT PRIMARY KEY, created TEXT NOT NULL, rules TEXT NOT NULL, players TEXT NOT NULL,"
        " status TEXT NOT NULL, events TEXT NOT NULL, summary TEXT NOT NULL);"
        "INSERT INTO games VALUES ('old', '2025-01-01T00:00:00Z', 'mu', '[]', 'finished', '[]', '{}');"
    )
    db.commit()
    db.close()
    store = SqliteStore(path)
    assert store.schema_version == SCHEMA_VERSION
    assert store.get_game("old").rules == "mu"
    store.save_table(_table())  # the table added by the migration is there
    assert store.get_table("t1") is not None


def test_a_newer_database_is_refused(tmp_path):
    path = tmp_path / "new.sqlite3"
    SqliteStore(path).close()
    db = sqlite3.connect(path)
    db.execute("UPDATE schema_version SET version = ?", (SCHEMA_VERSION + 1,))
    db.commit()
    db.close()
    with pytest.raises(RuntimeError, match="newer"):
        SqliteStore(path)
