"""``jantaku serve --db postgresql://...``: the server as a real process keeps its games in PostgreSQL (a game in
play survives the process being killed, read back by the next one), keeps the league recorder in the same
database, never shows the password, and a database it cannot use stops its start with one line."""

import json
import socket
import sys
import urllib.error
import urllib.request

import sqlalchemy as sa

from jantaku.cli import main
from jantaku.web.storage import SqlStore
from jantaku.web.store_engine import database_url
from served import served

SECRET = "hunter2-not-shown"


def _with_password(url: str) -> tuple[str, str]:
    """``url`` with a password (the test cluster trusts its socket and ignores it), and the password."""
    given = sa.make_url(url).password
    if given:
        return url, str(given)
    scheme, rest = url.split("://", 1)
    user, at, tail = rest.partition("@")
    assert at, url
    return f"{scheme}://{user}:{SECRET}@{tail}", SECRET


def _request(base: str, method: str, path: str, body=None):
    data = json.dumps(body).encode() if body is not None else None
    req = urllib.request.Request(base.rstrip("/") + path, data=data, method=method)
    req.add_header("Content-Type", "application/json")
    try:
        with urllib.request.urlopen(req, timeout=20) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read())


def _move(base: str, tid: str, token: str) -> dict:
    status, view = _request(base, "GET", f"/api/tables/{tid}/view?token={token}")
    assert status == 200, view
    status, after = _request(base, "POST", f"/api/tables/{tid}/act", {"token": token, "step": view["step"], "index": 0})
    assert status == 200, after
    return after


def test_a_game_survives_the_server_process_killed_and_started_again(pg_cluster, tmp_path):
    url, password = _with_password(pg_cluster.fresh_url())
    options = ("--db", url, "--pace", "instant", "--result-seconds", "0", "--tables-per-minute", "0")
    with served(tmp_path, *options) as (proc, base):
        status, data = _request(base, "POST", "/api/tables", {"rules": "tenhou", "seats": ["human"] + ["random"] * 3})
        assert status == 201, data
        tid, token = data["id"], data["seats"][0]["token"]
        for _ in range(4):
            view = _move(base, tid, token)
        assert _request(base, "GET", "/league/api/events")[0] == 200  # the league recorder, in the same database
        proc.kill()  # no chance to write anything more
        proc.wait(10)
        output = proc.stdout.read()
    assert "games in postgresql+psycopg://postgres:***@" in output and password not in output
    store = SqlStore(url)  # what the database holds: every acknowledged move
    stored = store.get_table(tid)
    assert len(stored.actions) >= 4 and store.table_step(tid) == len(stored.actions)
    with store.engine.connect() as conn:
        names = set(sa.inspect(conn).get_table_names())
    assert {"games", "tables", "web_alembic_version", "league_alembic_version", "league_events"} <= names
    store.close()
    with served(tmp_path, *options) as (proc, base):
        status, again = _request(base, "GET", f"/api/tables/{tid}/view?token={token}")
        assert (status, again) == (200, view)  # read back from PostgreSQL exactly as acknowledged
        after = _move(base, tid, token)  # and play goes on
        assert after["step"] > view["step"]
    output = proc.stdout.read()
    assert password not in output


def _closed_port() -> int:
    with socket.socket() as s:  # a loopback port nobody listens on
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _serve_error(capsys, db: str) -> str:
    code = main(["serve", "--port", str(_closed_port()), "--db", db])
    err = capsys.readouterr().err
    assert code == 2, err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err and SECRET not in err, err
    return err


def test_a_database_serve_cannot_use_stops_it_with_one_line(capsys, monkeypatch):
    err = _serve_error(capsys, f"mysql://ann:{SECRET}@localhost/games")
    assert "--db: the games database is a SQLite file" in err and "mysql://ann:***@localhost/games" in err
    err = _serve_error(capsys, f"postgresql://ann:{SECRET}@localhost:port/games")
    assert "--db: the games database URL 'postgresql://ann:***@localhost:port/games' cannot be read" in err
    port = _closed_port()
    err = _serve_error(capsys, f"postgresql://ann:{SECRET}@127.0.0.1:{port}/games")
    assert f"--db postgresql+psycopg://ann:***@127.0.0.1:{port}/games: the games database cannot be used (" in err
    assert "refused" in err and "check the URL, that the server runs" in err
    monkeypatch.setitem(sys.modules, "psycopg", None)  # as if the driver were not installed
    err = _serve_error(capsys, f"postgresql://ann:{SECRET}@127.0.0.1:{port}/games")
    assert "--db: a PostgreSQL games database needs the web extra (psycopg is not installed)" in err


def test_a_user_who_may_only_read_is_refused_at_start(pg_cluster, capsys):
    """The tables are there (made by another user) but this one may not change them: the server does not start,
    rather than refusing the first move."""
    url = pg_cluster.fresh_url()
    SqlStore(url).close()
    schema = sa.make_url(url).query["options"].split("=", 1)[1]
    engine = sa.create_engine(database_url(url))
    with engine.begin() as conn:
        conn.exec_driver_sql("DROP ROLE IF EXISTS jantaku_reader")
        conn.exec_driver_sql("CREATE ROLE jantaku_reader LOGIN")
        conn.exec_driver_sql(f"GRANT USAGE ON SCHEMA {schema} TO jantaku_reader")
        conn.exec_driver_sql(f"GRANT SELECT ON ALL TABLES IN SCHEMA {schema} TO jantaku_reader")
    try:
        reader = sa.make_url(url).set(username="jantaku_reader", password=None)
        err = _serve_error(capsys, reader.render_as_string(hide_password=False))
        assert "the games database cannot be used (permission denied for table tables)" in err
    finally:
        with engine.begin() as conn:
            conn.exec_driver_sql(f"REVOKE ALL ON ALL TABLES IN SCHEMA {schema} FROM jantaku_reader")
            conn.exec_driver_sql(f"REVOKE ALL ON SCHEMA {schema} FROM jantaku_reader")
            conn.exec_driver_sql("DROP ROLE jantaku_reader")
        engine.dispose()


def test_serve_takes_a_sqlite_url_and_refuses_a_missing_folder(tmp_path, monkeypatch, capsys):
    from jantaku.cli import serve_cmd

    started = []
    monkeypatch.setattr(serve_cmd, "serve_forever", lambda app, sock, **kw: (started.append(app), sock.close()))
    assert main(["serve", "--port", str(_closed_port()), "--db", f"sqlite:///{tmp_path}/games.sqlite3"]) == 0
    assert f"(games in {tmp_path}/games.sqlite3)" in capsys.readouterr().out
    assert (tmp_path / "games.sqlite3").exists() and started[0].state.store.is_sqlite
    started[0].state.store.close()
    err = _serve_error(capsys, f"sqlite:///{tmp_path}/nope/games.sqlite3")
    assert f"--db: no folder '{tmp_path}/nope'" in err and not (tmp_path / "nope").exists()
