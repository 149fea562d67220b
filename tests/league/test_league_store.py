"""The recorder's storage and operations, on SQLite and on PostgreSQL (the ``db_url`` fixture): events,
players and teams, seating, hand entries, corrections and the audit log, quick entry, penalties, import,
standings, export, and two organisers entering at once."""

from __future__ import annotations

import csv
import io
import json
import threading
from pathlib import Path

import pytest

from jantaku.league.errors import ConflictError, DuplicateImportError, EntryError, LeagueError, NotFoundError
from jantaku.league.export import games_csv, standings_csv
from jantaku.league.store import LeagueStore

from .simulated import entries_of, simulated_game

RECORD = Path(__file__).parent.parent / "data/records/tenhou-mjlog/mjx-houou/2010081709gm-00a9-0000-fe3371ad.mjlog"


def setup_event(store, rules="mleague", players="ABCDEFGH", teams=True):
    store.create_event("Season", rules, admin_password="secret-pw")
    if teams:
        store.add_team("Season", "Red")
        store.add_team("Season", "Blue")
    for i, p in enumerate(players):
        store.add_player("Season", p, team=("Red" if i % 2 == 0 else "Blue") if teams else None)


def test_events_players_teams(store):
    setup_event(store)
    assert [e["name"] for e in store.events()] == ["Season"]
    assert store.check_admin("Season", "secret-pw") and not store.check_admin("Season", "wrong")
    assert store.teams("Season") == ["Red", "Blue"]
    assert [(p["name"], p["team"]) for p in store.players("Season")][:2] == [("A", "Red"), ("B", "Blue")]
    with pytest.raises(LeagueError, match="exists already"):
        store.add_player("Season", "A")
    with pytest.raises(NotFoundError, match="no team 'Green'"):
        store.add_player("Season", "Z", team="Green")
    with pytest.raises(LeagueError, match="rules must be a preset"):
        store.create_event("Other", "nonsense")
    with pytest.raises(LeagueError, match="riichi games"):
        store.create_event("Other", "jielu")


def test_user_rule_file(store, tmp_path):
    f = tmp_path / "club.toml"
    f.write_text('base = "mleague"\nname = "club"\nrank_points = [30000, 10000, -10000, -30000]\n', encoding="utf-8")
    store.create_event("Club", str(f))
    assert store.rules("Club").rank_points == (30000, 10000, -10000, -30000)


def test_seating_rounds(store):
    setup_event(store)
    r1 = store.seat_round("Season", "random", seed=4)
    assert r1["round"] == 1 and len(r1["games"]) == 2
    seated = sorted(p for g in r1["games"] for p in g["players"])
    assert seated == list("ABCDEFGH")
    # M-League 2023 3章1条: wind tiles drawn, East (seat 0) deals first
    assert all(g["first_dealer"] == 0 and g["draw"]["procedure"] == "mleague" for g in r1["games"])
    r2 = store.seat_round("Season", "swiss", seed=5)
    pairs1 = {frozenset((a, b)) for g in r1["games"] for a in g["players"] for b in g["players"] if a != b}
    repeats = sum(
        1
        for g in r2["games"]
        for i, a in enumerate(g["players"])
        for b in g["players"][i + 1 :]
        if frozenset((a, b)) in pairs1
    )
    assert repeats == 4  # 8 players at two tables always repeat 4 pairs at best; swiss reaches that
    given = store.seat_round("Season", "given", players=list("HGFEDCBA"), draw=False)
    assert [g["players"] for g in given["games"]] == [list("HGFE"), list("DCBA")]
    assert given["games"][0]["draw"]["procedure"] == "given"


def test_seat_draw_of_mu_keeps_its_throws(db_url, tmp_path):
    s = LeagueStore(db_url)
    setup_event(s, "mu", "ABCD", teams=False)
    r = s.seat_round("Season", "random", seed=1)
    draw = r["games"][0]["draw"]
    # μ 2021 Art 8 (3)-(4) and Art 10 (1)-(2): four throws
    assert draw["procedure"] == "mu" and [t[0] for t in draw["throws"]] == [
        "marker", "wind order", "first dealer 1", "first dealer 2",
    ]  # fmt: skip
    s.close()


def test_entries_corrections_and_audit_log(store):
    setup_event(store, players="ABCD", teams=False)
    g = store.new_game("Season", list("ABCD"), first_dealer=1)
    out = store.add_entry(g, {"kind": "win", "wins": [{"winner": 2, "from": 0, "han": 3, "fu": 30}], "riichi": [2]})
    assert out["seq"] == 1 and out["state"]["scores"] == [21100, 25000, 28900, 25000]
    # a mistake: it was 4 han 30 fu; correct the last entry
    out = store.correct_last(g, {"kind": "win", "wins": [{"winner": 2, "from": 0, "han": 4, "fu": 30}], "riichi": [2]})
    assert out["seq"] == 1 and out["state"]["scores"] == [17000, 25000, 33000, 25000]  # kiriage mangan (6章4条2)
    game = store.game(g)
    assert len(game["entries"]) == 1 and game["entries"][0]["data"]["wins"][0]["han"] == 4
    with pytest.raises(EntryError, match="1 han 20 fu by ron cannot exist"):
        store.add_entry(g, {"kind": "win", "wins": [{"winner": 2, "from": 0, "han": 1, "fu": 20}]})
    assert len(store.game(g)["entries"]) == 1  # a refused entry leaves nothing behind
    store.correct_last(g, None)  # delete it
    assert store.game(g)["entries"] == [] and store.game(g)["state"]["scores"] == [25000] * 4
    log = store.audit_log("Season")
    actions = [a["action"] for a in log]
    assert actions == ["create_event", "add_player", "add_player", "add_player", "add_player", "new_game",
                       "add_entry", "correct_last", "correct_last"]  # fmt: skip
    assert log[7]["detail"]["replaced"]["wins"][0]["han"] == 3
    assert log[7]["detail"]["entry"]["wins"][0]["han"] == 4
    assert log[8]["detail"]["entry"] is None and log[8]["detail"]["replaced"]["wins"][0]["han"] == 4


def test_conflicting_entry_is_refused(store):
    setup_event(store, players="ABCD", teams=False)
    g = store.new_game("Season", list("ABCD"))
    store.add_entry(g, {"kind": "draw", "tenpai": [0]}, expected_seq=1)
    with pytest.raises(ConflictError, match="someone else entered one meanwhile"):
        store.add_entry(g, {"kind": "draw", "tenpai": [1]}, expected_seq=1)
    with pytest.raises(ConflictError):
        store.correct_last(g, None, expected_seq=2)
    assert [e["seq"] for e in store.game(g)["entries"]] == [1]


def test_two_organisers_at_once(db_url):
    """Two organisers (threads, each with its own connection pool) enter hands into the same game at once:
    none is lost or duplicated; those entering with the number they expect never overwrite each other."""
    setup = LeagueStore(db_url)
    setup_event(setup, players="ABCD", teams=False)
    g = setup.new_game("Season", list("ABCD"))
    setup.close()
    per_thread = 8
    errors: list[Exception] = []
    conflicts: list[int] = []

    def organiser(n: int) -> None:
        s = LeagueStore(db_url)
        try:
            for _ in range(per_thread):
                # all tenpai: the dealer repeats, the game never ends
                s.add_entry(g, {"kind": "draw", "tenpai": [0, 1, 2, 3], "note": n}, actor=f"organiser{n}")
            for _ in range(per_thread):
                seq = len(s.game(g)["entries"]) + 1
                try:
                    s.add_entry(g, {"kind": "draw", "tenpai": [0, 1, 2, 3], "note": n}, expected_seq=seq)
                except ConflictError:
                    conflicts.append(n)
        except Exception as e:  # pragma: no cover - reported below
            errors.append(e)
        finally:
            s.close()

    threads = [threading.Thread(target=organiser, args=(n,)) for n in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    s = LeagueStore(db_url)
    game = s.game(g)
    seqs = [e["seq"] for e in game["entries"]]
    assert seqs == list(range(1, len(seqs) + 1))
    assert len(seqs) == 2 * per_thread * 2 - len(conflicts)
    notes = [e["data"]["note"] for e in game["entries"]]
    assert notes.count(0) >= per_thread and notes.count(1) >= per_thread  # both organisers' hands are there
    assert game["state"]["honba"] == len(seqs) and game["version"] == len(seqs)
    assert len([a for a in s.audit_log("Season") if a["action"] == "add_entry"]) == len(seqs)
    s.close()


@pytest.mark.parametrize("rules", ["mleague", "mu"])
def test_whole_hanchan_matches_the_engine(store, rules):
    game = simulated_game(rules, 1)
    setup_event(store, rules, players="ABCD")
    g = store.new_game("Season", list("ABCD"), first_dealer=game.first_dealer)
    for e in entries_of(game):
        store.add_entry(g, e)
    stored = store.game(g)
    assert stored["status"] == "finished"
    assert stored["result"]["final"] == game.result.final
    assert stored["result"]["scores"] == game.result.scores
    rows = {r["player"]: r for r in store.standings("Season")}
    for seat, name in enumerate("ABCD"):
        assert rows[name]["total"] == game.result.final[seat]
        assert rows[name]["ranks"][game.result.ranks[seat] - 1] == 1
    wins = sum(len(r.wins) for r in game.results)
    assert sum(r["wins"] for r in rows.values()) == wins
    assert all(r["hands"] == len(game.results) for r in rows.values())
    teams = {t["team"]: t["total"] for t in store.team_standings("Season")}
    assert teams["Red"] == round(game.result.final[0] + game.result.final[2], 1)
    assert teams["Blue"] == round(game.result.final[1] + game.result.final[3], 1)


def test_quick_entry_penalties_and_standings(store):
    setup_event(store)
    # M-League 2023 6章2条6's example, entered by final scores only
    g1 = store.quick_entry("Season", list("ABCD"), [28600, 28600, 28600, 13200], deposits=1)
    assert store.game(g1)["result"]["final"] == [19.0, 13.9, 13.9, -46.8]
    with pytest.raises(EntryError, match="add up to"):
        store.quick_entry("Season", list("EFGH"), [30000, 30000, 30000, 30000], deposits=1)
    g2 = store.quick_entry("Season", list("EFGH"), [40000, 30000, 20000, 10000])
    store.penalty("Season", "E", 20, "red card", game=g2)  # in the game: its settlement carries it
    store.penalty("Season", "A", 5, "late")  # for the event
    rows = {r["player"]: r for r in store.standings("Season")}
    assert rows["E"]["total"] == 60.0 - 20.0 and rows["E"]["penalties"] == 20.0
    assert rows["A"]["total"] == 14.0 and rows["A"]["penalties"] == 5.0
    assert rows["D"]["average_rank"] == 4.0
    assert store.standings("Season")[0]["player"] == "E"
    with pytest.raises(LeagueError, match="needs a reason"):
        store.penalty("Season", "A", 5, " ")
    hist = store.history("Season", "A")
    assert [h["total"] for h in hist] == [19.0, 14.0]
    with pytest.raises(EntryError, match="no hands"):
        store.add_entry(g1, {"kind": "draw", "tenpai": []})


def test_export_csv_and_json(store):
    setup_event(store)
    store.quick_entry("Season", list("ABCD"), [40000, 30000, 20000, 10000])
    data = store.export("Season")
    text = json.dumps(data, default=str)
    assert json.loads(text)["standings"][0]["player"] == "A"
    assert {t["team"] for t in data["teams"]} == {"Red", "Blue"}
    rows = list(csv.DictReader(io.StringIO(standings_csv(data["standings"]))))
    assert rows[0]["player"] == "A" and float(rows[0]["total"]) == 60.0 and rows[0]["first"] == "1"
    games = list(csv.DictReader(io.StringIO(games_csv(data["games"]))))
    assert [r["final"] for r in games] == ["60.0", "10.0", "-20.0", "-50.0"]


def test_import_tenhou_record(db_url):
    s = LeagueStore(db_url)
    # the record's room pays as the tenhou rule set: the game is kept hand by hand
    s.create_event("Online", "tenhou")
    for p in ("Ann", "Bo", "Cy", "Di"):
        s.add_player("Online", p)
    mapping = {"反陽子さん": "Ann", "ASAPIN": "Bo", "でこじ": "Cy", "デジタル仙人": "Di"}
    [g] = s.import_record("Online", RECORD, mapping)
    game = s.game(g)
    assert game["source"] == "import" and game["status"] == "finished"
    assert game["players"] == ["Ann", "Bo", "Cy", "Di"]
    assert game["result"]["final"] == [-20.0, 16.0, -45.0, 49.0]  # the record's own final points
    assert all(e["kind"] in ("win", "draw", "abortive") for e in game["entries"])
    # under M-League's rules the same game is kept by its final scores, settled by M-League's uma
    s.create_event("ML", "mleague")
    for p in ("Ann", "Bo", "Cy", "Di"):
        s.add_player("ML", p)
    [g2] = s.import_record("ML", RECORD, mapping)
    game2 = s.game(g2)
    assert [e["kind"] for e in game2["entries"]] == ["final"]
    assert game2["result"]["scores"] == game["result"]["scores"]
    assert sum(r["hands"] for r in s.standings("ML")) == 4 * len(game["entries"])
    with pytest.raises(LeagueError, match="'反陽子さん', 'ASAPIN', 'でこじ', 'デジタル仙人' are not players"):
        s.import_record("ML", RECORD, {})
    with pytest.raises(LeagueError, match="'でこじ' are not players"):
        s.import_record("ML", RECORD, {**mapping, "でこじ": "でこじ"})
    assert len(s.games("ML")) == 1  # nothing stored by a refused import
    s.close()


def test_bad_database_urls(tmp_path):
    with pytest.raises(LeagueError, match="file path"):
        LeagueStore("mysql://x/y")
    with pytest.raises(LeagueError, match="no folder"):
        LeagueStore(str(tmp_path / "missing" / "x.db"))


def test_migrations_build_the_schema_exactly(store):
    """The Alembic migrations shipped with the package give the tables of ``jantaku.league.schema`` (no
    difference autogenerate could find), and a database at the newest migration is left alone."""
    from alembic.autogenerate import compare_metadata
    from alembic.runtime.migration import MigrationContext

    from jantaku.league.migrations import current_revision, head_revision, upgrade
    from jantaku.league.schema import metadata

    assert current_revision(store.engine) == head_revision() == "0005"
    with store.engine.connect() as conn:
        ctx = MigrationContext.configure(conn, opts={"version_table": "league_alembic_version"})
        diffs = [
            d for d in compare_metadata(ctx, metadata) if not (isinstance(d, tuple) and "league_alembic" in str(d))
        ]
    assert diffs == []
    upgrade(store.engine)  # nothing to do
    assert current_revision(store.engine) == "0005"


def _organiser_process(db_url: str, game: int, n: int, count: int) -> None:
    s = LeagueStore(db_url)
    for _ in range(count):
        s.add_entry(game, {"kind": "draw", "tenpai": [0, 1, 2, 3], "note": n}, actor=f"process{n}")
    s.close()


def test_two_organisers_in_two_processes(db_url):
    """The same with two processes: every hand is stored once, numbered 1, 2, 3, ... without a gap."""
    import multiprocessing

    setup = LeagueStore(db_url)
    setup_event(setup, players="ABCD", teams=False)
    g = setup.new_game("Season", list("ABCD"))
    setup.close()
    ctx = multiprocessing.get_context("fork")  # the child starts with jantaku imported
    procs = [ctx.Process(target=_organiser_process, args=(db_url, g, n, 6)) for n in range(2)]
    for p in procs:
        p.start()
    for p in procs:
        p.join(120)
    assert [p.exitcode for p in procs] == [0, 0]
    s = LeagueStore(db_url)
    entries = s.game(g)["entries"]
    assert [e["seq"] for e in entries] == list(range(1, 13))
    assert sorted(e["data"]["note"] for e in entries) == [0] * 6 + [1] * 6
    s.close()


def test_rename_and_soft_delete_events_players_and_games(store):
    """Issue 32: an organiser renames and deletes an event, a player, a game; a deletion is soft (the rows and
    an audit row stay) and takes the thing out of every list, standing and export."""
    setup_event(store)
    g1 = store.quick_entry("Season", list("ABCD"), [40000, 30000, 20000, 10000])
    g2 = store.quick_entry("Season", list("ABCD"), [10000, 20000, 30000, 40000])
    assert {r["player"]: r["total"] for r in store.standings("Season")}["A"] == 60.0 - 50.0
    store.delete_game(g2, actor="org")
    assert [g["id"] for g in store.games("Season")] == [g1]
    assert {r["player"]: r["total"] for r in store.standings("Season")}["A"] == 60.0
    assert [g["id"] for g in store.export("Season")["games"]] == [g1]
    assert len(store.history("Season", "A")) == 1
    with pytest.raises(NotFoundError):
        store.game(g2)
    # a player renamed keeps their games and standing
    store.rename_player("Season", "A", "Ann", actor="org")
    assert store.game(g1)["players"][0] == "Ann" and store.standings("Season")[0]["player"] == "Ann"
    with pytest.raises(ConflictError, match="exists already"):
        store.rename_player("Season", "Ann", "B")
    with pytest.raises(ConflictError, match="1 game"):
        store.delete_player("Season", "Ann")  # a player with a game keeps it
    store.delete_player("Season", "H", actor="org")  # never played
    assert "H" not in [p["name"] for p in store.players("Season")]
    store.add_player("Season", "H")  # the name is free again
    # the event renamed, then deleted; its name is free again
    store.rename_event("Season", "Season 2026", actor="org")
    assert [e["name"] for e in store.events()] == ["Season 2026"]
    with pytest.raises(NotFoundError):
        store.standings("Season")
    log = [(a["action"], a["detail"]) for a in store.audit_log("Season 2026")]
    assert ("delete_game", {"game": g2, "players": ["A", "B", "C", "D"], "status": "finished"}) in log
    assert ("rename_player", {"from": "A", "to": "Ann"}) in log and ("delete_player", {"name": "H"}) in log
    assert ("rename_event", {"from": "Season", "to": "Season 2026"}) in log
    store.delete_event("Season 2026", actor="org")
    assert store.events() == []
    with pytest.raises(NotFoundError):
        store.game(g1)  # its games are gone from view with it
    store.create_event("Season 2026", "mleague")  # the name is free again
    with store.engine.connect() as conn:  # the rows stay, marked
        from jantaku.league import schema as t

        deleted = conn.execute(t.events.select().where(t.events.c.deleted.is_not(None))).mappings().all()
        assert len(deleted) == 1 and deleted[0]["name"].startswith("Season 2026 (deleted")
        audit = conn.execute(t.audit.select().where(t.audit.c.action == "delete_event")).mappings().all()
        assert audit[0]["detail"] == {"name": "Season 2026"}


def test_a_database_of_the_first_schema_is_upgraded_with_its_events(db_url):
    """A league database made by jantaku 0.5 (migration 0001) opens with its events, now deletable."""
    import sqlalchemy as sa
    from alembic import command

    from jantaku.league.migrations import _config, current_revision
    from jantaku.league.store import database_url

    engine = sa.create_engine(database_url(db_url))
    with engine.begin() as conn:
        command.upgrade(_config(conn), "0001")
        conn.execute(
            sa.text("INSERT INTO league_events (name, rules, created) VALUES ('Old', 'mleague', CURRENT_TIMESTAMP)")
        )
    assert current_revision(engine) == "0001"
    engine.dispose()
    s = LeagueStore(db_url)
    assert current_revision(s.engine) == "0005" and [e["name"] for e in s.events()] == ["Old"]
    s.delete_event("Old")
    assert s.events() == []
    s.close()


def test_a_league_with_games_at_the_second_schema_is_upgraded_and_goes_on(db_url):
    """A database of jantaku 0.9 (migration 0002) holding a league in play - players, a game, its seats and an
    entry, a penalty - opens under the newest schema with all of it, and the game goes on: the migrations alter
    tables that others refer to (on SQLite a table Alembic copied would be refused by the foreign keys)."""
    import datetime as dt

    import sqlalchemy as sa
    from alembic import command

    from jantaku.league.migrations import _config, current_revision, head_revision
    from jantaku.league.store import database_url

    engine = sa.create_engine(database_url(db_url))
    now = dt.datetime.now(dt.UTC)
    with engine.begin() as conn:
        if conn.dialect.name == "sqlite":
            conn.exec_driver_sql("PRAGMA foreign_keys=ON")
        command.upgrade(_config(conn), "0002")
        conn.execute(
            sa.text("INSERT INTO league_events (id, name, rules, created) VALUES (1, 'Old', 'mu', :t)"), {"t": now}
        )
        for pid, name in enumerate("ABCD", 1):
            conn.execute(
                sa.text("INSERT INTO league_players (id, event_id, name) VALUES (:id, 1, :n)"), {"id": pid, "n": name}
            )
        conn.execute(
            sa.text(
                "INSERT INTO league_games (id, event_id, table_no, source, first_dealer, status, version, created) "
                "VALUES (1, 1, 1, 'hands', 0, 'playing', 1, :t)"
            ),
            {"t": now},
        )
        for seat in range(4):
            conn.execute(
                sa.text("INSERT INTO league_seats (game_id, seat, player_id) VALUES (1, :s, :p)"),
                {"s": seat, "p": seat + 1},
            )
        draw = '{"kind": "draw", "tenpai": [0]}'
        conn.execute(
            sa.text("INSERT INTO league_entries (game_id, seq, kind, data, created) VALUES (1, 1, 'draw', :d, :t)"),
            {"d": draw, "t": now},
        )
        conn.execute(
            sa.text(
                "INSERT INTO league_penalties (event_id, player_id, pt, reason, created) VALUES (1, 2, 5, 'late', :t)"
            ),
            {"t": now},
        )
    assert current_revision(engine) == "0002"
    engine.dispose()
    s = LeagueStore(db_url)
    assert current_revision(s.engine) == head_revision()
    assert [p["substitute"] for p in s.players("Old")] == [None] * 4  # nobody is a substitute
    assert s.game(1)["entries"][0]["confirmed"] is None  # the organiser's, as every old entry
    out = s.add_entry(1, {"kind": "draw", "tenpai": [0, 1]})
    assert out["seq"] == 2 and out["version"] == 2 and out["state"]["hand"] == "E1"  # the dealer was tenpai
    assert sorted(s.issue_pins("Old")) == list("ABCD")
    s.close()


def _ron(winner, loser, han, fu=30, riichi=()):
    return {"kind": "win", "wins": [{"winner": winner, "from": loser, "han": han, "fu": fu}], "riichi": list(riichi)}


def test_two_corrections_from_the_same_version_one_is_refused_saying_what_changed(store):
    """Issue 34: two organisers correct the same last entry from the same page: the second is refused (it used
    to overwrite the first), and so is an undo from a stale page; nothing is written by a refused change."""
    setup_event(store, players="ABCD", teams=False)
    g = store.new_game("Season", list("ABCD"))
    v = store.add_entry(g, _ron(1, 0, 2))["version"]
    assert store.game(g)["version"] == v
    store.correct_last(g, _ron(1, 0, 3), expected_version=v, actor="Ann")
    with pytest.raises(ConflictError, match=rf"version {v + 1}, not {v}.*correct last 1 by Ann"):
        store.correct_last(g, _ron(1, 0, 4), expected_version=v, actor="Bob")
    with pytest.raises(ConflictError, match="correct last 1 by Ann"):
        store.correct_last(g, None, expected_version=v, actor="Bob")  # an undo from the stale page
    with pytest.raises(ConflictError):
        store.add_entry(g, _ron(2, 0, 1), expected_version=v)
    game = store.game(g)
    assert game["version"] == v + 1 and [e["data"]["wins"][0]["han"] for e in game["entries"]] == [3]


def test_concurrent_corrections_of_one_version_store_exactly_one(db_url):
    setup = LeagueStore(db_url)
    setup_event(setup, players="ABCD", teams=False)
    g = setup.new_game("Season", list("ABCD"))
    v = setup.add_entry(g, _ron(1, 0, 1))["version"]
    setup.close()
    done: list[int] = []
    refused: list[int] = []

    def organiser(n: int) -> None:
        s = LeagueStore(db_url)
        try:
            s.correct_last(g, _ron(1, 0, 2 + n), expected_version=v, actor=f"organiser{n}")
            done.append(n)
        except ConflictError:
            refused.append(n)
        finally:
            s.close()

    threads = [threading.Thread(target=organiser, args=(n,)) for n in range(6)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert len(done) == 1 and len(refused) == 5
    s = LeagueStore(db_url)
    game = s.game(g)
    assert game["version"] == v + 1 and game["entries"][0]["data"]["wins"][0]["han"] == 2 + done[0]
    s.close()


def test_any_hand_is_corrected_and_the_hands_after_it_follow(store):
    """Issue 34: hand 2 of 5 was entered wrong; correcting it replays hands 3-5 (scores, honba, dealer), the
    preview shows what changes before anything is written, and the audit log keeps both versions."""
    setup_event(store, players="ABCD", teams=False)
    g = store.new_game("Season", list("ABCD"))
    hands = [_ron(1, 0, 2), {"kind": "draw", "tenpai": [1]}, _ron(2, 3, 1, 40), _ron(0, 2, 3), _ron(3, 1, 1, 30)]
    for h in hands:
        v = store.add_entry(g, h)["version"]
    before = store.game(g)
    # hand 2 was not a draw but seat 1's 2-han ron off seat 3
    preview = store.preview_correction(g, 2, _ron(1, 3, 2))
    assert preview["version"] == v and preview["before"]["state"] == before["state"]
    assert preview["entries"][0]["seq"] == 2 and len(preview["entries"]) >= 2
    assert store.game(g) == before  # a preview writes nothing
    out = store.correct_entry(g, 2, _ron(1, 3, 2), expected_version=v, actor="Ann")
    after = store.game(g)
    assert out["version"] == v + 1 == after["version"] and out["state"] == preview["after"]["state"]
    assert [e["seq"] for e in after["entries"]] == [1, 2, 3, 4, 5]
    assert after["entries"][1]["data"] == _ron(1, 3, 2)
    assert after["state"] != before["state"]
    # the later entries' outcomes are those of the same game entered right in the first place
    g2 = store.new_game("Season", list("ABCD"))
    for h in [hands[0], _ron(1, 3, 2), *hands[2:]]:
        store.add_entry(g2, h)
    fresh = store.game(g2)
    assert [e["outcome"] for e in after["entries"]] == [e["outcome"] for e in fresh["entries"]]
    assert after["state"] == fresh["state"]
    log = [a for a in store.audit_log("Season") if a["action"] == "correct_entry"]
    assert log[-1]["detail"]["replaced"] == hands[1] and log[-1]["detail"]["entry"] == _ron(1, 3, 2)
    # deleting hand 3: hands 4 and 5 move up and are replayed
    store.correct_entry(g, 3, None, expected_version=v + 1)
    game = store.game(g)
    assert [e["seq"] for e in game["entries"]] == [1, 2, 3, 4]
    assert [e["data"] for e in game["entries"]][2:] == hands[3:]
    with pytest.raises(NotFoundError, match="no entry 9"):
        store.correct_entry(g, 9, None)


def test_a_finished_game_is_corrected_and_a_correction_cannot_leave_hands_after_the_end(store):
    setup_event(store, "tenhou", players="ABCD", teams=False)  # a game ends when a score goes below zero
    g = store.new_game("Season", list("ABCD"))
    store.add_entry(g, _ron(1, 0, 13))  # a yakuman: 32,000 from seat 0 (25,000): the bust ends the game
    assert store.game(g)["status"] == "finished"
    # it was 3 han: the game is playing again
    store.correct_entry(g, 1, _ron(1, 0, 3))
    assert store.game(g)["status"] == "playing" and store.game(g)["result"] is None
    store.add_entry(g, _ron(2, 3, 2))
    with pytest.raises(EntryError):  # hand 1 a yakuman again would end the game before hand 2
        store.correct_entry(g, 1, _ron(1, 0, 13))
    assert [e["data"]["wins"][0]["han"] for e in store.game(g)["entries"]] == [3, 2]


def test_a_record_imported_twice_is_refused_unless_forced(db_url, tmp_path):
    """Issue 34: the same record imported again (the same file, or a copy under another name with another
    mapping) is refused, naming the game it duplicates; forced, it is stored; a deleted game frees its record."""
    s = LeagueStore(db_url)
    s.create_event("Online", "tenhou")
    for p in ("Ann", "Bo", "Cy", "Di", "Ed"):
        s.add_player("Online", p)
    mapping = {"反陽子さん": "Ann", "ASAPIN": "Bo", "でこじ": "Cy", "デジタル仙人": "Di"}
    [g] = s.import_record("Online", RECORD, mapping)
    copy = tmp_path / "renamed.mjlog"
    copy.write_bytes(RECORD.read_bytes())
    for path, names in ((RECORD, mapping), (copy, {**mapping, "でこじ": "Ed"})):
        with pytest.raises(DuplicateImportError, match=rf"already in the event as game {g}"):
            s.import_record("Online", path, names)
    assert [x["id"] for x in s.games("Online")] == [g]
    [again] = s.import_record("Online", copy, mapping, force=True)
    assert again != g and len(s.games("Online")) == 2
    s.delete_game(g)
    s.delete_game(again)
    assert len(s.import_record("Online", RECORD, mapping)) == 1
    s.close()


def test_the_same_record_imported_by_two_organisers_at_once_is_stored_once(db_url):
    """Issue 34: two processes' imports of one record at the same moment: one stores it, the other is refused as
    a duplicate (each used to check before the other wrote, and both stored it)."""
    import threading

    s = LeagueStore(db_url)
    s.create_event("Online", "tenhou")
    for p in ("Ann", "Bo", "Cy", "Di"):
        s.add_player("Online", p)
    mapping = {"反陽子さん": "Ann", "ASAPIN": "Bo", "でこじ": "Cy", "デジタル仙人": "Di"}
    outcomes: list[str] = []
    start = threading.Barrier(3)

    def organiser():
        own = LeagueStore(db_url)
        start.wait()
        try:
            own.import_record("Online", RECORD, mapping)
            outcomes.append("stored")
        except DuplicateImportError:
            outcomes.append("refused")
        finally:
            own.close()

    threads = [threading.Thread(target=organiser) for _ in range(3)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert sorted(outcomes) == ["refused", "refused", "stored"]
    assert len(s.games("Online")) == 1
    s.close()


def test_a_double_ron_is_one_deal_in_of_its_discarder(store):
    """Issue 34: seat 0 deals into a double ron, then into one win, in seven hands: 2 deal-ins of 7 hands (the
    double ron used to count twice: 3/7)."""
    setup_event(store, "tenhou", players="ABCD", teams=False)  # double ron (M-League's head bump has none)
    g = store.new_game("Season", list("ABCD"))
    double = {"kind": "win", "wins": [{"winner": 1, "from": 0, "han": 1, "fu": 30},
                                       {"winner": 2, "from": 0, "han": 1, "fu": 30}]}  # fmt: skip
    hands = [double, _ron(3, 0, 1), *([{"kind": "draw", "tenpai": [0, 1, 2, 3]}] * 5)]
    for h in hands:
        store.add_entry(g, h)
    rows = {r["player"]: r for r in store.standings("Season")}
    assert rows["A"]["hands"] == 7 and rows["A"]["deal_ins"] == 2 and rows["A"]["deal_in_rate"] == round(2 / 7, 4)
    assert rows["B"]["wins"] == rows["C"]["wins"] == rows["D"]["wins"] == 1


@pytest.mark.parametrize("method", ["random", "swiss"])
def test_teammates_never_share_a_table(store, method):
    """Issue 34: four teams of two at two tables, round after round: every table seats one player of each team
    (random seating used to put both players of a team at one table)."""
    store.create_event("Teams", "mleague")
    team_of = {}
    for i, p in enumerate("ABCDEFGH"):
        team = "RBGY"[i // 2]
        if i % 2 == 0:
            store.add_team("Teams", team)
        store.add_player("Teams", p, team=team)
        team_of[p] = team
    for seed in range(8):
        r = store.seat_round("Teams", method, seed=seed)
        for g in r["games"]:
            assert sorted(team_of[p] for p in g["players"]) == ["B", "G", "R", "Y"], (seed, g["players"])


def test_a_team_game_counts_once_and_the_csv_names_its_settled_score(store):
    """Issue 34: two teammates seated together (a given seating) make one game of their team, not two; the
    games CSV's score column is the settled score, the sticks left on the table included, and says so."""
    setup_event(store, players="ABCD")  # A and C are Red, B and D Blue
    store.quick_entry("Season", list("ABCD"), [40000, 30000, 20000, 9000], deposits=1)
    teams = {t["team"]: t for t in store.team_standings("Season")}
    assert teams["Red"]["games"] == teams["Blue"]["games"] == 1
    rows = list(csv.DictReader(io.StringIO(games_csv(store.export("Season")["games"]))))
    assert "settled_score" in rows[0] and "score" not in rows[0]
    assert [int(r["settled_score"]) for r in rows] == [41000, 30000, 20000, 9000]  # the top took the stick
