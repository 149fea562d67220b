"""Games databases from before Alembic migrate in place: SQLite files as the hand-written migrations left them at
each of their versions 0 to 5 (the DDL below is what those steps ran, written out here as jantaku wrote it, not
taken from the code under test) open with their games and tables intact and the schema of a new database; a
migration that fails leaves the file as it was; several stores opening one database at once migrate it once."""

import sqlite3
import threading

import pytest
import sqlalchemy as sa

from jantaku.web.storage import SqlStore, StaleWrite, StoredTable, StoreError
from jantaku.web.store_engine import database_url
from jantaku.web.store_migrations import LEGACY_FENCE, VERSION_TABLE, NewerSchema, head_revision

# The hand-written migrations as released: step i moved a file from version i to i + 1 and wrote i + 1 into
# schema_version, each step in one transaction.
OLD_STEPS = (
    """CREATE TABLE games (id TEXT PRIMARY KEY, created TEXT NOT NULL, rules TEXT NOT NULL, players TEXT NOT NULL,
    status TEXT NOT NULL, events TEXT NOT NULL, summary TEXT NOT NULL);
    CREATE INDEX games_created ON games (created);""",
    """CREATE TABLE tables (id TEXT PRIMARY KEY, created TEXT NOT NULL, updated TEXT NOT NULL, rules TEXT NOT NULL,
    seed TEXT NOT NULL, seats TEXT NOT NULL, actions TEXT NOT NULL, status TEXT NOT NULL);""",
    """ALTER TABLE tables ADD COLUMN step INTEGER NOT NULL DEFAULT 0;
    UPDATE tables SET step = json_array_length(actions);
    ALTER TABLE games ADD COLUMN table_state TEXT;""",
    """ALTER TABLE tables ADD COLUMN owner TEXT;
    ALTER TABLE tables ADD COLUMN tokens INTEGER NOT NULL DEFAULT 0;""",
    """ALTER TABLE tables ADD COLUMN options TEXT NOT NULL DEFAULT '{}';""",
)

SEATS = '[{"kind":"human","token":"tok-0","name":"東"},{"kind":"bot"},{"kind":"bot"},{"kind":"bot"}]'
ACTIONS = '[{"type":"dahai","seat":0},{"type":"pass"},{"type":"pass"}]'


def old_file(path, version: int) -> None:
    """A games file as jantaku left it at hand-written ``version``, with a finished game and (from version 2) a
    table in play, written with the columns that version had."""
    db = sqlite3.connect(path, isolation_level=None)
    db.execute("PRAGMA journal_mode = WAL")
    db.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
    for target in range(1, version + 1):
        db.execute("BEGIN IMMEDIATE")
        for statement in OLD_STEPS[target - 1].split(";"):
            if statement.strip():
                db.execute(statement)
        db.execute("DELETE FROM schema_version")
        db.execute("INSERT INTO schema_version (version) VALUES (?)", (target,))
        db.execute("COMMIT")
    if version >= 1:
        game = ("old", "2025-01-01T00:00:00Z", "mu", '[{"name":"東","kind":"human","bot":null}]', "finished")
        db.execute(
            "INSERT INTO games (id, created, rules, players, status, events, summary) VALUES (?, ?, ?, ?, ?, ?, ?)",
            (*game, '[{"type":"start_game"}]', '{"x":1}'),
        )
    if version >= 2:
        columns = ["id", "created", "updated", "rules", "seed", "seats", "actions", "status"]
        values = ["t", "2025-01-01T00:00:00Z", "2025-01-01T00:00:05Z", "tenhou", "seed", SEATS, ACTIONS, "playing"]
        if version >= 3:
            columns.append("step")
            values.append(3)
        if version >= 4:
            columns += ["owner", "tokens"]
            values += ["owner-secret", 2]
        if version >= 5:
            columns.append("options")
            values.append('{"pace":450}')
        db.execute(f"INSERT INTO tables ({', '.join(columns)}) VALUES ({', '.join('?' * len(values))})", values)
    db.close()


def _schema(engine):
    """Each table's columns (name, type, nullability but a primary key's, default) and indexes, as SQLite has
    them."""
    inspector = sa.inspect(engine)
    out = {}
    for name in ("games", "tables"):
        pk = set(inspector.get_pk_constraint(name)["constrained_columns"])
        columns = [
            (c["name"], str(c["type"]), c["nullable"] if c["name"] not in pk else None, c["default"])
            for c in inspector.get_columns(name)
        ]
        indexes = sorted((i["name"], tuple(i["column_names"])) for i in inspector.get_indexes(name))
        out[name] = (columns, sorted(pk), indexes)
    return out


@pytest.mark.parametrize("version", range(6))
def test_a_file_of_each_hand_written_version_migrates_in_place(tmp_path, version):
    path = tmp_path / "old.sqlite3"
    old_file(path, version)
    store = SqlStore(path)
    assert store.schema_revision == head_revision()
    fresh = SqlStore(tmp_path / "new.sqlite3")
    assert _schema(store.engine) == _schema(fresh.engine)  # the schema of a new database, exactly
    with store.engine.connect() as conn:
        assert conn.execute(sa.text("SELECT version FROM schema_version")).scalars().all() == [LEGACY_FENCE]
        assert conn.execute(sa.text(f"SELECT version_num FROM {VERSION_TABLE}")).scalars().all() == [head_revision()]
    if version >= 1:
        game = store.get_game("old")
        assert (game.rules, game.players[0]["name"], game.events, game.summary) == (
            "mu",
            "東",
            [{"type": "start_game"}],
            {"x": 1},
        )
        assert store.get_finished_table("old") is None
    if version >= 2:
        table = store.get_table("t")
        assert table == StoredTable(
            "t",
            "2025-01-01T00:00:00Z",
            "2025-01-01T00:00:05Z",
            "tenhou",
            "seed",
            [{"kind": "human", "token": "tok-0", "name": "東"}, {"kind": "bot"}, {"kind": "bot"}, {"kind": "bot"}],
            [{"type": "dahai", "seat": 0}, {"type": "pass"}, {"type": "pass"}],
            "playing",
            "owner-secret" if version >= 4 else None,
            2 if version >= 4 else 0,
            {"pace": 450} if version >= 5 else {},
        )
        assert store.table_step("t") == 3  # counted from the actions where the file had no step yet
        moved = StoredTable(**{**table.__dict__, "actions": [*table.actions, {"type": "pass"}]})
        with pytest.raises(StaleWrite):
            store.save_table(moved, expected_step=2)
        store.save_table(moved, expected_step=3)
        assert store.table_stamp("t") == (4, table.tokens, 1)
    store.close()
    fresh.close()
    again = SqlStore(path)  # opened again: nothing left to migrate
    assert again.schema_revision == head_revision()
    again.close()


def test_an_old_jantaku_would_refuse_a_migrated_file(tmp_path):
    """The hand-written store refused a file whose schema_version was above its own (5): a migrated or new file
    holds a higher one, so an older jantaku stops with "newer than this jantaku's" instead of writing into it."""
    path = tmp_path / "g.sqlite3"
    SqlStore(path).close()
    db = sqlite3.connect(path)
    assert db.execute("SELECT version FROM schema_version").fetchall() == [(LEGACY_FENCE,)] and LEGACY_FENCE > 5
    db.close()


def test_a_file_of_a_hand_written_version_above_the_last_is_refused(tmp_path):
    path = tmp_path / "odd.sqlite3"
    old_file(path, 5)
    db = sqlite3.connect(path)
    db.execute("UPDATE schema_version SET version = 6")
    db.commit()
    db.close()
    with pytest.raises(NewerSchema, match="hand-written schema version 6"):
        SqlStore(path)


def test_a_migration_that_fails_leaves_the_file_as_it_was(tmp_path):
    path = tmp_path / "odd.sqlite3"
    old_file(path, 1)
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE tables (id TEXT)")  # in the way of step 2
    db.commit()
    db.close()
    with pytest.raises(StoreError, match=r"cannot open the games database .*odd\.sqlite3: table tables already exists"):
        SqlStore(path)
    db = sqlite3.connect(path)
    assert db.execute("SELECT version FROM schema_version").fetchall() == [(1,)]
    assert db.execute("SELECT id FROM games").fetchall() == [("old",)]
    names = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert names == {"schema_version", "games", "tables"}  # no Alembic table, no column added
    db.close()


@pytest.mark.parametrize("kind", ["sqlite-v2", "postgresql"])
def test_stores_opening_one_database_at_once_migrate_it_once(tmp_path, request, kind):
    """Four stores, each with its own connections as separate server processes would have, open a database that
    needs migrating at the same moment: each opens it, and the migration ran once (one version row; the file's
    data kept). The lock they meet is the database's own (PostgreSQL's advisory lock, SQLite's write lock)."""
    if kind == "postgresql":
        db = request.getfixturevalue("pg_cluster").fresh_url()
    else:
        db = str(tmp_path / "old.sqlite3")
        old_file(db, 2)
    barrier = threading.Barrier(4)
    errors: list[BaseException] = []

    def open_it():
        barrier.wait()
        try:
            SqlStore(db).close()
        except BaseException as e:
            errors.append(e)

    threads = [threading.Thread(target=open_it) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert not errors, errors
    engine = sa.create_engine(database_url(db))
    with engine.connect() as conn:
        assert conn.execute(sa.text(f"SELECT version_num FROM {VERSION_TABLE}")).scalars().all() == [head_revision()]
    engine.dispose()
    store = SqlStore(db)
    if kind != "postgresql":
        assert store.get_game("old").rules == "mu" and store.table_step("t") == 3
    store.close()
