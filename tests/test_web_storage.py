"""The web table's game store, each test on SQLite and on PostgreSQL (``games_db``, tests/conftest.py): schema
creation, transactions, surviving a restart, the step compare-and-swap under concurrent writers, databases that
cannot be used, and the league recorder's tables beside the store's in one database."""

import sqlite3
import threading
import time

import pytest
import sqlalchemy as sa

from jantaku.errors import JantakuError
from jantaku.extras import MissingExtra
from jantaku.web.storage import SqliteStore, SqlStore, StaleWrite, StoreClosed, StoredGame, StoredTable, StoreError
from jantaku.web.store_engine import WRITE, database_url, mask, shown
from jantaku.web.store_migrations import VERSION_TABLE, NewerSchema, head_revision


def _game(gid="g1", created="2026-01-01T00:00:00Z", kinds=("human",) * 4):
    return StoredGame(
        gid,
        created,
        "mleague",
        [{"name": "東", "kind": kind, "bot": None} for kind in kinds],
        "finished",
        [{"type": "start_game"}, {"type": "end_game", "scores": [1, 2, 3, 4]}],
        {"final": [1.0, 2.0, -1.0, -2.0]},
    )


def _table(tid="t1", actions=(), tokens=0):
    return StoredTable(
        tid,
        "2026-01-01T00:00:00Z",
        "2026-01-01T00:00:01Z",
        "tenhou",
        "seed",
        [{"kind": "human", "token": "secret-token"}] + [{"kind": "bot"}] * 3,
        [{"n": n} for n in actions],
        tokens=tokens,
        options={"pace": 0},
    )


@pytest.fixture
def store(games_db):
    s = SqlStore(games_db)
    yield s
    s.close()


def test_new_store_has_the_current_schema(tmp_path, games_db):
    if "://" not in games_db:
        games_db = str(tmp_path / "sub" / "games.sqlite3")  # a missing folder is made
    store = SqlStore(games_db)
    assert store.schema_revision == head_revision() == store.head_revision
    assert store.list_games() == []
    assert store.get_game("x") is None and store.get_table("x") is None and store.table_stamp("x") is None
    assert store.is_sqlite == ("://" not in games_db)
    store.close()


def test_games_survive_a_restart(games_db):
    store = SqlStore(games_db)
    store.save_game(_game("a", "2026-01-01T00:00:00Z"))
    store.save_game(_game("b", "2026-01-02T00:00:00Z"))
    store.save_table(_table("t", actions=range(3)))
    store.close()
    again = SqlStore(games_db)
    assert [g.id for g in again.list_games()] == ["b", "a"]  # newest first
    assert again.list_games()[0].events == []  # the list leaves the logs out
    got = again.get_game("a")
    assert got == _game("a", "2026-01-01T00:00:00Z")
    assert got.players[0]["name"] == "東"
    assert again.get_table("t") == _table("t", actions=range(3))
    assert again.table_step("t") == 3 and again.table_stamp("t") == (3, 0, 0)
    assert [g.id for g in again.list_games(limit=1, offset=1)] == ["a"]
    again.close()


def test_games_of_one_second_are_listed_by_id_byte_by_byte(store):
    for gid in ("b", "_", "B", "a"):
        store.save_game(_game(gid))
    assert [g.id for g in store.list_games()] == ["B", "_", "a", "b"]  # the same order on both databases


def test_finish_table_moves_the_game_atomically(store):
    store.save_table(_table("t"))
    store.finish_table("t", _game("t"))
    assert store.get_table("t") is None and store.get_game("t") is not None
    assert store.get_finished_table("t") is None  # no table kept: none given
    store.save_table(_table("u", actions=range(2), tokens=1))
    store.finish_table("u", _game("u"), 2, _table("u", actions=range(3), tokens=1))
    assert store.get_finished_table("u") == _table("u", actions=range(3), tokens=1)
    store.save_game(_game("u"))  # a game saved again is replaced whole, its table with it
    assert store.get_finished_table("u") is None


def test_a_failed_write_leaves_nothing_half_stored(store, monkeypatch):
    store.save_table(_table("t"))
    original = SqlStore._insert_game

    def insert_then_fail(conn, game, state=None):
        original(conn, game, state)
        raise RuntimeError("disk on fire")

    monkeypatch.setattr(SqlStore, "_insert_game", staticmethod(insert_then_fail))
    with pytest.raises(RuntimeError):
        store.finish_table("t", _game("t"))
    assert store.get_game("t") is None  # the insert was rolled back
    assert store.get_table("t") is not None  # and the table kept


def test_a_write_that_does_not_extend_the_stored_step_is_refused(store):
    store.save_table(_table("t", actions=range(2)))
    with pytest.raises(StaleWrite, match="no longer at step 1"):
        store.save_table(_table("t", actions=range(3)), expected_step=1)
    with pytest.raises(StaleWrite):  # the right step, but a seat's token changed meanwhile
        store.save_table(_table("t", actions=range(3), tokens=1), expected_step=2)
    with pytest.raises(StaleWrite, match="with these links"):
        store.save_tokens(_table("t", actions=range(2), tokens=2), expected_step=2, expected_tokens=1)
    with pytest.raises(StaleWrite):
        store.finish_table("t", _game("t"), expected_step=5, state=_table("t"))
    assert store.get_table("t") == _table("t", actions=range(2)) and store.get_game("t") is None
    store.save_table(_table("t", actions=range(3)), expected_step=2)
    store.save_tokens(_table("t", actions=range(3), tokens=1), expected_step=3, expected_tokens=0)
    assert store.table_stamp("t") == (3, 1, 2)  # two writes since it was stored
    with pytest.raises(StaleWrite):  # a table that is not there
        store.save_table(_table("nope", actions=range(1)), expected_step=0)


def test_a_write_that_names_an_older_version_is_refused_though_the_step_is_the_same(store):
    """Two processes change a table without moving its game (a closed result panel, an auto option): the write
    of the one that read the row before the other's write is refused, so neither change is lost unseen."""
    store.save_table(_table("t", actions=range(2)))
    read = store.get_table("t")
    assert read.version == 0
    mine = StoredTable(**{**read.__dict__, "options": {"hold": {"ready": [0]}}})
    theirs = StoredTable(**{**read.__dict__, "options": {"hold": {"ready": [2]}}})
    store.save_table(theirs, expected_step=2)
    with pytest.raises(StaleWrite, match=r"no longer at step 2 \(version 0\)"):
        store.save_table(mine, expected_step=2)
    again = store.get_table("t")
    assert again.options == {"hold": {"ready": [2]}} and again.version == 1 and store.table_stamp("t") == (2, 0, 1)
    again.options["hold"]["ready"].append(0)  # read again, the change is made on the table as it now is
    store.save_table(again, expected_step=2)
    assert store.get_table("t").options == {"hold": {"ready": [2, 0]}} and store.table_stamp("t") == (2, 0, 2)
    with pytest.raises(StaleWrite):
        store.save_tokens(StoredTable(**{**again.__dict__, "tokens": 1}), expected_step=2, expected_tokens=0)
    with pytest.raises(StaleWrite):
        store.finish_table("t", _game("t"), 2, again)
    store.save_table(_table("t", actions=range(2)))  # a row replaced whole is a write too
    assert store.table_stamp("t") == (2, 0, 3)


@pytest.mark.parametrize("write", ["save_table", "finish_table"])
def test_concurrent_writers_of_one_step_exactly_one_wins(games_db, write):
    """Six writers in two stores (two engines, as two server processes would have) race for each step of one
    table: exactly one wins it, the other five get StaleWrite, and the stored table is the winner's."""
    stores = [SqlStore(games_db), SqlStore(games_db)]
    stores[0].save_table(_table("t"))
    try:
        rounds = 4 if write == "save_table" else 1
        for step in range(rounds):
            barrier = threading.Barrier(6)
            results: dict[int, str] = {}

            def attempt(n, step=step, barrier=barrier, results=results):
                candidate = _table("t", actions=[*range(step), 100 + n])
                barrier.wait()
                try:
                    if write == "save_table":
                        stores[n % 2].save_table(candidate, expected_step=step)
                    else:
                        stores[n % 2].finish_table("t", _game("t", kinds=[str(n)] * 4), step, candidate)
                    results[n] = "won"
                except StaleWrite:
                    results[n] = "stale"

            threads = [threading.Thread(target=attempt, args=(n,)) for n in range(6)]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join(30)
            assert sorted(results.values()) == ["stale"] * 5 + ["won"], results
            (winner,) = [n for n, r in results.items() if r == "won"]
            if write == "save_table":
                assert stores[1].get_table("t").actions[-1] == {"n": 100 + winner}
                assert stores[0].table_stamp("t") == (step + 1, 0, step + 1)
            else:
                assert stores[1].get_table("t") is None
                assert stores[0].get_game("t").players[0]["kind"] == str(winner)
                assert stores[1].get_finished_table("t").actions == [{"n": 100 + winner}]
    finally:
        for s in stores:
            s.close()


def _hold_a_newer_step(games_db, table_id):
    """Another process's transaction that moved the table on a step and has not committed yet: a function that
    commits it."""
    if "://" not in games_db:  # SQLite: the file's write lock, held
        db = sqlite3.connect(games_db, isolation_level=None)
        db.execute("BEGIN IMMEDIATE")
        db.execute("UPDATE tables SET step = step + 1, actions = '[{\"n\":0}]' WHERE id = ?", (table_id,))
        return lambda: (db.execute("COMMIT"), db.close())
    engine = sa.create_engine(database_url(games_db))
    conn = engine.connect()
    moved = sa.text("UPDATE tables SET step = step + 1, actions = :actions WHERE id = :id")
    conn.execute(moved, {"actions": '[{"n":0}]', "id": table_id})
    return lambda: (conn.commit(), conn.close(), engine.dispose())


def test_the_step_is_checked_on_the_row_inside_the_write_not_read_before_it(store, games_db):
    """A write that begins while another process's change of the same table is under way (not yet committed)
    waits for it and then finds the table moved on: StaleWrite, the other change kept. A store that read the step
    first and wrote after would have read the old step and overwritten the other move."""
    store.save_table(_table("t"))
    commit = _hold_a_newer_step(games_db, "t")
    outcome: list[str] = []

    def write():
        try:
            store.save_table(_table("t", actions=[7]), expected_step=0)
            outcome.append("written")
        except StaleWrite:
            outcome.append("stale")

    writer = threading.Thread(target=write)
    writer.start()
    time.sleep(0.5)
    assert writer.is_alive() and not outcome  # it waits for the other transaction
    commit()
    writer.join(10)
    assert outcome == ["stale"]
    assert store.get_table("t").actions == [{"n": 0}] and store.table_step("t") == 1


def test_bot_games_are_deleted_after_their_time_and_peoples_games_kept(store):
    bots = ("bot",) * 4
    store.save_game(_game("old-bots", "2026-01-01T00:00:00Z", bots))
    store.save_game(_game("new-bots", "2026-03-01T00:00:00Z", bots))
    store.save_game(_game("old-person", "2026-01-01T00:00:00Z", ("bot", "human", "bot", "bot")))
    store.save_table(_table("old-kept"))
    store.finish_table("old-kept", _game("old-kept", "2026-01-01T00:00:00Z", bots), state=_table("old-kept"))
    assert store.delete_bot_games("2026-02-01T00:00:00Z") == 1
    assert sorted(g.id for g in store.list_games()) == ["new-bots", "old-kept", "old-person"]


def test_a_closed_store_refuses_every_request(store):
    store.close()
    with pytest.raises(StoreClosed, match="closed"):
        store.get_game("x")
    with pytest.raises(StoreClosed):
        store.save_game(_game())


def test_a_database_written_by_a_newer_jantaku_is_refused_unchanged(games_db):
    SqlStore(games_db).close()
    engine = sa.create_engine(database_url(games_db))
    with engine.begin() as conn:
        conn.execute(sa.text(f"UPDATE {VERSION_TABLE} SET version_num = 'web9999'"))
    with pytest.raises(NewerSchema, match=r"newer jantaku \(schema revision web9999"):
        SqlStore(games_db)
    with engine.connect() as conn:
        assert conn.execute(sa.text(f"SELECT version_num FROM {VERSION_TABLE}")).scalar() == "web9999"
    engine.dispose()


def test_the_league_recorder_and_the_web_table_share_one_database(games_db):
    """Their tables and Alembic version tables do not collide: each store migrates and works beside the other."""
    from jantaku.league.migrations import head_revision as league_head
    from jantaku.league.store import LeagueStore

    web = SqlStore(games_db)
    league = LeagueStore(games_db)
    web.save_game(_game("g"))
    league.create_event("Cup", "mleague")
    web.close()
    league.close()
    web, league = SqlStore(games_db), LeagueStore(games_db)
    assert web.get_game("g") == _game("g") and league.events()[0]["name"] == "Cup"
    names = set(sa.inspect(web.engine).get_table_names())
    assert {"games", "tables", VERSION_TABLE, "league_alembic_version", "league_games"} <= names
    with web.engine.connect() as conn:
        assert conn.execute(sa.text(f"SELECT version_num FROM {VERSION_TABLE}")).scalars().all() == [head_revision()]
        league_versions = conn.execute(sa.text("SELECT version_num FROM league_alembic_version")).scalars().all()
        assert league_versions == [league_head()]
    web.close()
    league.close()


def test_a_failing_commit_is_a_store_error_and_changes_nothing(store):
    store.save_table(_table("t"))

    def fail(conn):
        assert conn.get_execution_options().get(WRITE)  # (a read commits nothing)
        raise sa.exc.OperationalError("COMMIT", None, RuntimeError("database or disk is full"))

    sa.event.listen(store.engine, "commit", fail)
    with pytest.raises(StoreError, match=r"^database or disk is full$"):
        store.save_table(_table("t", actions=[1]), expected_step=0)
    sa.event.remove(store.engine, "commit", fail)
    assert store.get_table("t") == _table("t")
    store.save_table(_table("t", actions=[1]), expected_step=0)  # and the store goes on
    assert store.table_step("t") == 1


# -- databases named wrong, or out of reach --------------------------------------------------------------------


def test_a_bad_database_name_is_one_line_without_the_password():
    for bad, words in [
        ("mysql://ann:hunter22@localhost/games", r"not 'mysql://ann:\*\*\*@localhost/games'"),
        ("postgresql://ann:hunter22@localhost:port/games", "cannot be read"),
        ("postgresql+psycopg2://ann:hunter22@localhost/games", "psycopg 3"),
        ("  ", "not an empty name"),
    ]:
        with pytest.raises(JantakuError, match=words) as e:
            SqlStore(bad)
        assert "hunter22" not in str(e.value) and "\n" not in str(e.value)
    with pytest.raises(JantakuError, match="SqliteStore keeps games in SQLite"):
        SqliteStore("postgresql://ann:hunter22@localhost/games")


def test_passwords_are_masked_wherever_a_database_is_named():
    assert mask("postgresql://ann:p@ss:w0rd@db.example:5432/g") == "postgresql://ann:***@db.example:5432/g"
    assert (
        mask("postgresql://db.example/g?user=ann&password=hunter22")
        == "postgresql://db.example/g?user=ann&password=***"
    )
    url = database_url("postgresql://ann:hunter22@db.example/g?password=hunter22&sslmode=require")
    assert shown(url) == "postgresql+psycopg://ann:***@db.example/g?password=***&sslmode=require"


def test_a_postgresql_server_out_of_reach_is_a_store_error_naming_it_without_the_password():
    import socket

    with socket.socket() as s:  # a loopback port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    started = time.monotonic()
    with pytest.raises(StoreError) as e:
        SqlStore(f"postgresql://ann:hunter22@127.0.0.1:{port}/games")
    message = str(e.value)
    assert message.startswith(f"cannot open the games database postgresql+psycopg://ann:***@127.0.0.1:{port}/games:")
    assert "hunter22" not in message and "\n" not in message and "refused" in message
    assert time.monotonic() - started < 10


def test_postgresql_without_its_driver_names_the_extra(monkeypatch):
    import sys

    monkeypatch.setitem(sys.modules, "psycopg", None)  # as if not installed
    with pytest.raises(MissingExtra, match=r"needs the web extra \(psycopg is not installed\)"):
        SqlStore("postgresql://ann@localhost/games")
