"""Pace and time at the web table (issue 13): bots' steps a person can follow, a call window after every discard
that looks the same whether or not another person may call, the finished hand held under its result, the turn
timer, the auto options, East-only games, and the table options kept in the store.

The tables run on a test clock (``TableManager(clock=...)``): time moves only when a test says so and
:meth:`TableManager.run_due` does what is due, so every wait is measured exactly."""

from __future__ import annotations

import pytest
from starlette.testclient import TestClient

from jantaku.bots import make_bot
from jantaku.rules import load_rules
from jantaku.table.actions import PASS, PON, RON, Action
from jantaku.tiles import Tile
from jantaku.web.app import create_app
from jantaku.web.storage import SqliteStore
from jantaku.web.tables import SPECTATOR, UNWATCHED_SECONDS, BadRequest, Conflict, TableManager, TableOptions
from seats import create_claimed

PACE = 0.2  # seconds per step at the paced tables below
TICK = 0.01


class Clock:
    """A clock that moves only when told."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def _manager(path=":memory:", clock: Clock | None = None) -> TableManager:
    return TableManager(SqliteStore(path), clock=clock or Clock())


def _advance(m: TableManager, clock: Clock, seconds: float) -> None:
    end = clock.now + seconds
    while clock.now < end - 1e-9:
        clock.now = round(clock.now + TICK, 6)
        m.run_due()


def _play(m, table, seat, choose) -> bool:
    """Let ``seat`` act if it is asked (``choose(view) -> index``); whether it acted."""
    v = table.view(seat)
    if not v["actions"]:
        return False
    m.act(table.id, table.seats[seat].token, v["step"], choose(v))
    return True


def _tsumogiri_or_pass(v) -> int:
    acts = v["actions"]
    for a in acts:
        if a["type"] == "none":
            return a["index"]
    for a in reversed(acts):
        if a["type"] == "dahai" and a["tsumogiri"]:
            return a["index"]
    for a in reversed(acts):
        if a["type"] == "dahai":
            return a["index"]
    return next((a["index"] for a in acts if a["type"] not in ("tsumo", "ron")), acts[0]["index"])


# -- pace ---------------------------------------------------------------------------------------------------------


def test_bots_move_one_step_a_pace_apart_and_never_slower():
    clock = Clock()
    m = _manager(clock=clock)
    options = TableOptions(pace=int(PACE * 1000))
    t = create_claimed(m, "tenhou", ["human", "efficiency", "efficiency", "efficiency"], seed="pace-1", options=options)
    gaps: list[float] = []  # from each change seat 0 sees (or its own move) to the next change it sees
    after_pass: list[float] = []  # the same after seat 0 passed on a call
    last_step, since, passed = t.view_step(0), clock.now, False
    while not t.hand_results and clock.now < 1000 + 300:
        v = t.view(0)
        if v["actions"]:
            index = _tsumogiri_or_pass(v)
            m.act(t.id, t.seats[0].token, v["step"], index)
            last_step, since, passed = t.view_step(0), clock.now, v["actions"][index]["type"] == "none"
            continue
        clock.now = round(clock.now + TICK, 6)
        m.run_due()
        if t.view_step(0) != last_step:
            (after_pass if passed else gaps).append(round(clock.now - since, 6))
            last_step, since, passed = t.view_step(0), clock.now, False
    assert len(gaps) > 20
    # every step the person watches comes exactly one pace after the one before (or after its own move); after
    # passing on a call, within two (the others still see the discard's call window for one pace)
    assert gaps == pytest.approx([PACE] * len(gaps))
    assert all(PACE - 1e-6 <= g <= 2 * PACE + 1e-6 for g in after_pass)


def test_a_bots_turn_is_shown_as_its_draw_then_its_discard():
    clock = Clock()
    m = _manager(clock=clock)
    t = create_claimed(
        m,
        "tenhou",
        ["human", "efficiency", "efficiency", "efficiency"],
        seed="pace-2",
        options=TableOptions(pace=int(PACE * 1000)),
    )
    while not t.view(0)["actions"]:
        _advance(m, clock, TICK)
    v = t.view(0)
    m.act(t.id, t.seats[0].token, v["step"], _tsumogiri_or_pass(v))
    shown = t.view(0)
    # the own discard is shown at once with its river mark, the table waiting (nobody's turn is shown yet)
    assert shown["last_discard"] == {"seat": 0, "index": len(shown["players"][0]["river"]) - 1}
    assert shown["round"]["phase"] == "waiting" and shown["to_act"] == []
    assert not any(p["has_drawn"] for p in shown["players"])
    _advance(m, clock, PACE)
    drawn = t.view(0)  # one pace later: the next seat's draw
    nxt = (0 + 1) % 4
    assert (
        drawn["players"][nxt]["has_drawn"]
        or drawn["hand_results"] > shown["hand_results"]
        or any(m_["type"] in ("chi", "pon", "daiminkan") for p in drawn["players"] for m_ in p["melds"])
    )
    assert drawn["step"] > shown["step"]
    _advance(m, clock, PACE)
    assert t.view(0)["step"] > drawn["step"]  # and one pace after that, its discard (or call)


def test_instant_pace_plays_the_bots_at_once():
    m = _manager()
    t = create_claimed(
        m, "tenhou", ["human", "efficiency", "efficiency", "efficiency"], seed="pace-3", options=TableOptions(pace=0)
    )
    assert t.view(0)["actions"] and t.wake_at is None


# -- privacy of the call window ----------------------------------------------------------------------------------


def _watch(seed: str, b_kind: str, viewer: int = 0) -> tuple[list[tuple[str, float, int, bool]], int]:
    """Play a hand at a paced table of person A (seat 0) and B (seat 2, a person or a bot), both discarding
    the drawn tile and B passing every call at once. Returns what A saw after each discard by another seat:
    (the discard's seat and river position, seconds until A's view next moved, how many times it moved before
    the next discard, whether B could call it), and how many discards B could have called. ``viewer``
    :data:`SPECTATOR` watches through the table's read-only link instead of A's seat."""
    clock = Clock()
    m = _manager(clock=clock)
    seats = ["human", "efficiency", b_kind, "efficiency"]
    t = create_claimed(m, "tenhou", seats, seed=seed, options=TableOptions(pace=int(PACE * 1000)))
    seen: list[list] = []  # [discard, seconds to the next change, changes]
    state = {"step": t.view_step(viewer), "discard": None, "at": clock.now}

    def look() -> None:
        step = t.view_step(viewer)
        if step == state["step"]:
            return
        state["step"] = step
        d = (t.view(0) if viewer == 0 else t.spectator_view())["last_discard"]
        key = None if d is None else f"{d['seat']}:{d['index']}"
        if key != state["discard"] and d is not None and d["seat"] != 0:
            state["discard"], state["at"] = key, clock.now
            seen.append([key, None, 0, False])
        elif seen:
            if seen[-1][1] is None:
                seen[-1][1] = round(clock.now - state["at"], 6)
            seen[-1][2] += 1

    callable_ = 0
    while not t.hand_results and clock.now < 1000 + 600:
        if b_kind == "human":
            vb = t.view(2)
            if any(a["type"] in ("chi", "pon", "daiminkan") for a in vb["actions"]):
                callable_ += 1
                seen[-1][3] = True  # the discard A was just shown
            if _play(m, t, 2, _tsumogiri_or_pass):
                look()
                continue
        if _play(m, t, 0, _tsumogiri_or_pass):
            state["step"] = t.view_step(viewer)
            continue
        clock.now = round(clock.now + TICK, 6)
        m.run_due()
        look()
    return [tuple(x) for x in seen[:-1]], callable_


@pytest.mark.parametrize("viewer", [0, SPECTATOR], ids=["seat", "spectator"])
def test_the_wait_after_a_discard_does_not_tell_that_someone_may_call(viewer):
    seed = "window-7"
    with_person, could_call = _watch(seed, "human", viewer)
    with_bot, _ = _watch(seed, "efficiency", viewer)
    assert could_call >= 1, "the test needs a hand in which person B may call a discard"
    # A sees every discard of another seat, then exactly one pace later the next change (the next draw or call)
    # and, before the next discard, at most one more (the drawer's kan or riichi), whether B is a person who may
    # call (and passes at once) or a bot
    assert len(with_person) > 20 and len(with_bot) > 20
    for discard, gap, moves, _ in with_person + with_bot:
        assert gap == pytest.approx(PACE), discard
        assert moves <= 2, discard
    # the discards B could call look to A exactly like those nobody could
    called = {(round(g, 3), n) for _, g, n, could in with_person if could}
    others = {(round(g, 3), n) for _, g, n, could in with_person if not could}
    assert called and called <= others


# -- the end of a hand --------------------------------------------------------------------------------------------


def _to_hand_end(m, clock, t, people=(0,)) -> None:
    while not t.hand_results:
        if not any(_play(m, t, s, _tsumogiri_or_pass) for s in people):
            _advance(m, clock, TICK)


def test_the_finished_hand_stays_until_every_person_closed_it(tmp_path):
    clock = Clock()
    m = _manager(tmp_path / "g.sqlite3", clock)
    t = create_claimed(
        m,
        "tenhou",
        ["human", "efficiency", "human", "efficiency"],
        seed="hold-1",
        options=TableOptions(pace=0, result_seconds=30),
    )
    _to_hand_end(m, clock, t, (0, 2))
    first = t.hand_results[0]
    assert t.game.hand_index == 1  # the engine has dealt the next hand...
    for seat in (0, 2):
        v = t.view(seat)  # ...but every seat still sees the finished one under its result
        assert v["round"]["name"] == first["round"] and v["round"]["phase"] == "ended"
        assert v["actions"] == [] and v["to_act"] == [] and v["last_result"] == first
        assert v["hold"] == {"seconds_left": 30.0, "ready": False}
        rivers = sum(len(p["river"]) for p in v["players"])
        assert rivers > 0 and v["hand_results"] == 1
    step = t.view(0)["step"]
    with pytest.raises((BadRequest, Conflict)):
        m.act(t.id, t.seats[0].token, step, 0)
    m.ready(t.id, t.seats[0].token)
    assert t.view(0)["hold"]["ready"] is True and t.view(2)["hold"]["ready"] is False
    # a restart keeps the hand held, who closed it and its time (stored with the table)
    clock.now += 5
    m2 = _manager(tmp_path / "g.sqlite3", clock)
    again = m2.get(t.id)
    assert again.view(2)["hold"] is not None and again.view(2)["round"]["name"] == first["round"]
    assert again.view(0)["hold"]["ready"] is True and again.view(2)["hold"]["ready"] is False
    assert again.view(2)["hold"]["seconds_left"] == pytest.approx(25.0, abs=0.2)
    m.ready(t.id, t.seats[2].token)
    v = t.view(0)
    assert (v["hold"] is None and v["round"]["name"] != first["round"]) or v["round"]["honba"] != first["honba"]
    assert v["step"] > step and t.released == 1
    assert m2.get(t.id).view(0)["hold"] is None  # the release is stored


def test_the_finished_hand_is_let_go_when_its_time_is_up():
    clock = Clock()
    m = _manager(clock=clock)
    t = create_claimed(
        m,
        "tenhou",
        ["human", "efficiency", "efficiency", "efficiency"],
        seed="hold-2",
        options=TableOptions(pace=int(PACE * 1000), result_seconds=3),
    )
    _to_hand_end(m, clock, t)
    _advance(m, clock, PACE)  # the last move's call window
    assert t.view(0)["hold"] is not None
    _advance(m, clock, 2.9)
    assert t.view(0)["hold"] is not None
    _advance(m, clock, 0.2)
    assert t.view(0)["hold"] is None and t.released == 1


def test_without_a_hold_the_next_hand_is_dealt_at_once():
    m = _manager()
    t = create_claimed(m, "tenhou", ["human", "efficiency", "efficiency", "efficiency"], seed="hold-3")
    clock = m.clock
    _to_hand_end(m, clock, t)
    assert t.view(0)["hold"] is None and t.view(0)["hand_results"] == 1


# -- the turn timer -----------------------------------------------------------------------------------------------


def _person_on_a_timer():
    """A tenhou table with a 5+10 timer, a person at seat 0 and three bots, played until the person must discard:
    the test clock, the manager and the table."""
    clock = Clock()
    m = _manager(clock=clock)
    t = create_claimed(
        m,
        "tenhou",
        ["human", "efficiency", "efficiency", "efficiency"],
        seed="timer-1",
        options=TableOptions(timer="5+10"),
    )
    while not any(a["type"] == "dahai" for a in t.view(0)["actions"]):
        _play(m, t, 0, _tsumogiri_or_pass)
    return clock, m, t


def test_the_timer_discards_the_drawn_tile_and_spends_the_bank():
    clock, m, t = _person_on_a_timer()
    v = t.view(0)
    assert v["timer"] == {"seconds": 5, "bank": 10.0, "left": 15.0}
    _advance(m, clock, 7)  # 7 s: 2 s of the bank spent...
    assert t.view(0)["timer"]["left"] == pytest.approx(8.0)
    m.act(t.id, t.seats[0].token, v["step"], _tsumogiri_or_pass(v))
    while not any(a["type"] == "dahai" for a in t.view(0)["actions"]):
        _play(m, t, 0, _tsumogiri_or_pass)
    v = t.view(0)
    assert v["timer"]["bank"] == pytest.approx(8.0) and v["timer"]["left"] == pytest.approx(13.0)
    drawn = v["drawn"]
    actions_before = t.step
    _advance(m, clock, 12.9)
    assert t.step == actions_before  # not yet
    _advance(m, clock, 0.2)
    # time is up: the drawn tile was discarded for the person
    first = t.actions[actions_before]
    assert first["type"] == "dahai" and first["seat"] == 0 and first["tsumogiri"] and first["tile"] == drawn


def test_another_process_reading_the_table_keeps_its_timer_and_bank(tmp_path):
    """The turn timer and the hand's bank are stored with the table: a second process (a manager on the same
    store) that reads it mid-decision shows the same seconds left, spends the same bank and times the person out at
    the same moment; a decision whose time ran out while nobody drove the table starts again, its bank as spent."""
    clock = Clock()
    path = str(tmp_path / "games.db")
    m = _manager(path, clock)
    t = create_claimed(
        m, "tenhou", ["human", "efficiency", "efficiency", "efficiency"], seed="timer-1",
        options=TableOptions(timer="5+10"),
    )  # fmt: skip
    while not any(a["type"] == "dahai" for a in t.view(0)["actions"]):
        _play(m, t, 0, _tsumogiri_or_pass)
    _advance(m, clock, 7)  # 2 s of the bank spent so far
    other = _manager(path, clock)
    t2 = other.get(t.id)
    assert t2.view(0)["timer"]["left"] == pytest.approx(8.0)  # not 15 s again
    v = t2.view(0)
    other.act(t.id, t.seats[0].token, v["step"], _tsumogiri_or_pass(v))  # the person moves through the other one
    while not any(a["type"] == "dahai" for a in t2.view(0)["actions"]):
        _play(other, t2, 0, _tsumogiri_or_pass)
    third = _manager(path, clock)
    t3 = third.get(t.id)
    assert t3.view(0)["timer"]["bank"] == pytest.approx(8.0)  # the bank as the other process spent it
    assert t3.view(0)["timer"]["left"] == pytest.approx(13.0)
    _advance(third, clock, 4)
    assert third.get(t.id).view(0)["timer"]["left"] == pytest.approx(9.0)
    # nobody drives the table for a minute: the decision starts again when a process reads it, the bank as spent
    clock.now += 60
    fourth = _manager(path, clock)
    v = fourth.get(t.id).view(0)
    assert v["timer"]["bank"] == pytest.approx(8.0) and v["timer"]["left"] == pytest.approx(13.0)
    before = fourth.get(t.id).step
    _advance(fourth, clock, 13.1)  # and times the person out at its end
    assert fourth.get(t.id).actions[before]["seat"] == 0


def test_the_timer_passes_a_call_and_never_takes_a_win():
    clock = Clock()
    m = _manager(clock=clock)
    t = create_claimed(
        m,
        "tenhou",
        ["human", "efficiency", "efficiency", "efficiency"],
        seed="timer-2",
        options=TableOptions(timer="3+5"),
    )
    kinds_timed_out = []
    while len(t.hand_results) < 3:
        v = t.view(0)
        if v["actions"]:
            kinds = {a["type"] for a in v["actions"]}
            before = t.step
            _advance(m, clock, 8.05)
            assert t.step > before
            taken = t.actions[before]
            kinds_timed_out.append((kinds, taken["type"]))
            assert taken["seat"] == 0 and taken["type"] not in ("tsumo", "ron")
            if "none" in kinds:
                assert taken["type"] == "none"
        else:
            _advance(m, clock, TICK)
    assert any("none" in k for k, _ in kinds_timed_out), "the test needs a call offered to the person"


# -- auto options -------------------------------------------------------------------------------------------------


def _auto_game(seed: str, auto: dict[str, bool]) -> tuple[list[dict], list[dict]]:
    """A hand or two played by an efficiency bot through seat 0's views (instant pace); returns the views seat 0
    was asked to decide in and the hand results."""
    m = _manager()
    t = create_claimed(m, "tenhou", ["human", "efficiency", "efficiency", "efficiency"], seed=seed)
    if auto:
        m.set_auto(t.id, t.seats[0].token, auto)
    player = make_bot("efficiency", seed="auto-player")
    asked = []
    while len(t.hand_results) < 4 and not t.over:
        v = t.view(0)
        assert v["actions"], "a table without pace stops only for a person's decision"
        asked.append(v)
        legal = t.game.legal_actions(0)
        choice = player.act(t.game.view(0), legal)
        m.act(t.id, t.seats[0].token, v["step"], legal.index(choice))
    return asked, t.hand_results


def test_auto_options_take_wins_pass_calls_and_discard_in_riichi():
    seed = "auto-4"
    plain, _ = _auto_game(seed, {})
    kinds = [{a["type"] for a in v["actions"]} for v in plain]
    assert any(k & {"tsumo", "ron"} for k in kinds), "the test needs a win offered"
    assert any(k & {"chi", "pon"} and "ron" not in k for k in kinds), "the test needs a call offered"
    in_riichi = [v for v in plain if v["players"][0]["riichi"] and {a["type"] for a in v["actions"]} == {"dahai"}]
    assert in_riichi, "the test needs a riichi"
    auto, auto_results = _auto_game(seed, {"win": True, "no_calls": True, "riichi_discard": True})
    for v in auto:
        k = {a["type"] for a in v["actions"]}
        assert not k & {"tsumo", "ron"}  # taken automatically
        assert not (k <= {"chi", "pon", "daiminkan", "none"} and "none" in k)  # passed automatically
        assert not (v["players"][0]["riichi"] and k == {"dahai"})  # discarded automatically
        assert v["auto"] == {"riichi_discard": True, "win": True, "no_calls": True}
    assert len(auto) < len(plain)
    # the wins were taken (the player would have taken them too; it never calls with auto no-calls on)
    won = [r for r in auto_results if any(w["seat"] == 0 for w in r["wins"])]
    assert won


def test_no_calls_never_passes_a_ron():
    m = _manager()
    t = create_claimed(m, "tenhou", ["human", "efficiency", "efficiency", "efficiency"], seed="auto-4")
    m.set_auto(t.id, t.seats[0].token, {"no_calls": True})
    pon = Action(PON, 0, Tile("5m"), (Tile("5m"), Tile("5m")))
    ron = Action(RON, 0, Tile("5m"))
    assert t._auto_choice(0, [pon, Action(PASS, 0)], answering=True) == Action(PASS, 0)
    assert t._auto_choice(0, [ron, pon, Action(PASS, 0)], answering=True) is None


# -- options through the API and the store --------------------------------------------------------------------


@pytest.fixture
def client(tmp_path):
    with TestClient(create_app(SqliteStore(tmp_path / "games.sqlite3"), seed_source=lambda: "api-1")) as c:
        yield c


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("pace", "slow", "pace: one of normal, fast, instant"),
        ("pace", 5000, "milliseconds per step 0-3000"),
        ("pace", True, "pace:"),
        ("result_seconds", -1, "result_seconds"),
        ("result_seconds", 601, "0-600"),
        ("timer", "1+1", "timer: one of off, 3+5, 5+10"),
        ("timer", 5, "timer:"),
        ("length", "west", "length: east (East only) or hanchan"),
    ],
)
def test_bad_table_options_are_refused_naming_the_field(client, field, value, message):
    r = client.post("/api/tables", json={"rules": "tenhou", "seats": ["human"] + ["efficiency"] * 3, field: value})
    assert r.status_code == 400 and message in r.json()["error"]


def test_jielu_keeps_its_own_length(client):
    r = client.post(
        "/api/tables", json={"rules": "jielu", "seats": ["human"] + ["efficiency"] * 3, "length": "hanchan"}
    )
    assert r.status_code == 400 and "East only" in r.json()["error"]


@pytest.mark.parametrize("rules", ["mu", "mleague", "standard", "meibi", "tenhou"])
def test_east_only_games_for_every_riichi_preset(tmp_path, rules):
    rounds = {}
    with TestClient(create_app(SqliteStore(tmp_path / "g.sqlite3"), seed_source=lambda: "length-1")) as c:
        for length in ("east", "hanchan"):
            r = c.post("/api/tables", json={"rules": rules, "seats": ["efficiency"] * 4, "length": length})
            assert r.status_code == 201, r.text
            game = c.get(f"/api/games/{r.json()['id']}").json()
            assert game["summary"]["length"] == length
            rounds[length] = [e["bakaze"] for e in game["events"] if e["type"] == "start_kyoku"]
            exported = c.get(f"/api/games/{r.json()['id']}/export", params={"format": "tenhou6"})
            assert exported.status_code == 200 and len(exported.json()["log"]) == len(rounds[length])
    assert "S" in rounds["hanchan"]
    if load_rules(rules).west_round:  # an East-only game extends into the South round only while nobody won
        assert "W" not in rounds["east"]
    else:
        assert set(rounds["east"]) == {"E"}


def test_options_and_auto_choices_survive_a_restart(tmp_path):
    path = tmp_path / "g.sqlite3"
    with TestClient(create_app(SqliteStore(path), seed_source=lambda: "keep-1")) as c:
        r = c.post(
            "/api/tables",
            json={
                "rules": "tenhou",
                "seats": ["human"] + ["efficiency"] * 3,
                "pace": "fast",
                "result_seconds": 25,
                "timer": "5+20",
                "length": "east",
            },
        )
        assert r.status_code == 201, r.text
        table, token = r.json()["id"], r.json()["seats"][0]["token"]
        assert r.json()["options"] == {"pace": 150, "result_seconds": 25, "timer": "5+20", "length": "east"}
        a = c.post(f"/api/tables/{table}/auto", json={"token": token, "no_calls": True, "win": True})
        assert a.status_code == 200 and a.json()["auto"] == {"riichi_discard": False, "win": True, "no_calls": True}
        bad = c.post(f"/api/tables/{table}/auto", json={"token": token, "no_calls": "yes"})
        assert bad.status_code == 400 and "true or false" in bad.json()["error"]
        bad = c.post(f"/api/tables/{table}/auto", json={"token": token, "sleep": True})
        assert bad.status_code == 400 and "unknown auto option" in bad.json()["error"]
        assert c.post(f"/api/tables/{table}/auto", json={"token": "x", "win": True}).status_code == 403
    with TestClient(create_app(SqliteStore(path))) as c:  # a restarted server
        v = c.get(f"/api/tables/{table}/view", params={"token": token}).json()
    assert v["options"] == {"pace": 150, "result_seconds": 25, "timer": "5+20", "length": "east"}
    assert v["auto"] == {"riichi_discard": False, "win": True, "no_calls": True}
    assert v["timer"]["seconds"] == 5


def test_presets_tell_the_table_options_and_defaults(client):
    data = client.get("/api/presets").json()["table_options"]
    assert data["paces"] == {"normal": 450, "fast": 150, "instant": 0}
    assert "5+10" in data["timers"] and data["lengths"] == ["east", "hanchan"]
    assert data["defaults"] == {"pace": 0, "result_seconds": 0, "timer": "off", "length": None}


def test_serve_sets_the_lobby_defaults_and_refuses_bad_ones(monkeypatch, tmp_path, capsys):
    from jantaku.cli import main, serve_cmd

    apps = []
    monkeypatch.setattr(serve_cmd, "serve_forever", lambda app, sock, **kw: (apps.append(app), sock.close()))
    from jantaku.sim.ray_cluster import free_ports

    port = str(free_ports(1)[0])
    assert main(["serve", "--port", port, "--db", str(tmp_path / "a.sqlite3")]) == 0
    defaults = apps[-1].state.manager.defaults
    assert defaults == TableOptions(pace=450, result_seconds=20, timer="off", length=None)
    assert main(["serve", "--port", port, "--db", str(tmp_path / "b.sqlite3"), "--pace", "80", "--timer", "5+10"]) == 0
    assert apps[-1].state.manager.defaults == TableOptions(pace=80, result_seconds=20, timer="5+10")
    assert main(["serve", "--pace", "slow"]) == 2
    assert "--pace: one of normal, fast, instant" in capsys.readouterr().err
    assert main(["serve", "--result-seconds", "9999"]) == 2
    assert "--result-seconds" in capsys.readouterr().err
    assert main(["serve", "--timer", "1+1"]) == 2


def test_serve_defaults_are_what_jantaku_serve_gives_a_table():
    """SERVE_DEFAULTS (what the browser tests create their tables with) is what `jantaku serve` starts with."""
    from jantaku.cli import build_parser
    from jantaku.web.limits import check_table_options
    from jantaku.web.tables import SERVE_DEFAULTS

    args = build_parser().parse_args(["serve"])
    pace = int(args.pace) if args.pace.isdigit() else args.pace
    options = {"pace": pace, "result_seconds": args.result_seconds, "timer": args.timer}
    assert check_table_options(options, "", TableOptions(), "riichi") == SERVE_DEFAULTS


def test_a_table_nobody_watches_stops_its_timers_until_it_is_opened_again():
    """Issue 32: abandoned tables with a timer went on moving for their absent people (and writing) until they
    left memory. Unwatched for a minute (no websocket, no request), a table's turn timers stop; opened again, the
    person's decision starts over (its 5 s and the bank as it was)."""
    clock, m, t = _person_on_a_timer()
    assert t.view(0)["timer"]["left"] == 15.0
    _advance(m, clock, 6)  # 9 s left
    t.last_used -= UNWATCHED_SECONDS + 1  # and nobody has asked about the table for over a minute
    before = t.step
    _advance(m, clock, 120)
    assert t.step == before and not t.watched()  # two minutes on: no move was made for the absent person
    assert t.wake_at is None  # and nothing is scheduled
    table = m.get(t.id)  # someone opens the table
    assert table is t and t.watched()
    assert t.view(0)["timer"]["left"] == pytest.approx(15.0)
    _advance(m, clock, 14.9)
    assert t.step == before
    _advance(m, clock, 0.2)
    assert t.step > before and t.actions[before]["seat"] == 0  # its time ran out: discarded for the person
