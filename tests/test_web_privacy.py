"""No hint of another person's options (issue 13): a seat's view (HTTP), every websocket message to it and the
refusals it gets never tell who else may pon, chi, kan or ron a discard, rob a kan or declare tenpai, nor what
phase such a decision is in; only that the table is waiting. Whose draw/discard turn it is stays public.

The situations are built with fixed walls (:func:`scenario_walls.build_wall`) at tables of two people and two
efficiency bots, and a whole game is played through the API checking every view and message."""

from __future__ import annotations

import itertools
import json

import pytest
from starlette.testclient import TestClient

from jantaku.rules import load_rules
from jantaku.table import Game, Wall, draw_seating
from jantaku.table.kyoku import CALLED, DRAWN, ENDED
from jantaku.web.app import create_app
from jantaku.web.storage import SqliteStore
from jantaku.web.tables import action_from_json
from scenario_walls import build_wall
from seats import claim_all, create_claimed

RULES = "mleague"
PRIVATE_PHASES = ("responses", "chankan", "declare")


def _dealer(seed: str) -> int:
    return draw_seating(load_rules(RULES).seating, seed).first_dealer


@pytest.fixture
def walls(monkeypatch):
    """``walls[seed]`` is the first hand's wall of a table with that seed (other seeds shuffle as usual)."""
    chosen: dict[str, Wall] = {}
    shuffled = Wall.from_seed

    def from_seed(cls, seed):
        first = isinstance(seed, str) and seed.endswith(":0") and seed[:-2] in chosen
        return chosen[seed[:-2]] if first else shuffled(seed)

    monkeypatch.setattr(Wall, "from_seed", classmethod(from_seed))
    return chosen


@pytest.fixture
def client(tmp_path):
    seeds = iter(["privacy-pon", "privacy-two", "privacy-game"])
    with TestClient(create_app(SqliteStore(tmp_path / "games.sqlite3"), seed_source=lambda: next(seeds))) as c:
        yield c


def _create(client, people: tuple[int, int], rules: str = RULES) -> tuple[str, dict[int, str]]:
    kinds = ["efficiency"] * 4
    for s in people:
        kinds[s] = "human"
    r = client.post("/api/tables", json={"rules": rules, "seats": kinds})
    assert r.status_code == 201, r.text
    data = claim_all(client, r.json())  # each invited person opens their link
    return data["id"], {s["seat"]: s["token"] for s in data["seats"] if s["kind"] == "human"}


def _view(client, tid: str, token: str) -> dict:
    r = client.get(f"/api/tables/{tid}/view", params={"token": token})
    assert r.status_code == 200, r.text
    return r.json()


def _act(client, tid: str, token: str, view: dict, kind: str, tile: str | None = None):
    index = next(a["index"] for a in view["actions"] if a["type"] == kind and (tile is None or a["tile"] == tile))
    return client.post(f"/api/tables/{tid}/act", json={"token": token, "step": view["step"], "index": index})


def _says_nothing_of_others(view: dict, seat: int) -> None:
    """What a view may say about who acts: another seat only on its public draw/discard turn."""
    assert view["seat"] == seat
    others = [s for s in view["to_act"] if s != seat]
    if others:
        assert view["round"]["phase"] in (DRAWN, CALLED, ENDED), view["round"]["phase"]
        assert len(view["to_act"]) == 1
    if view["round"]["phase"] in PRIVATE_PHASES:
        assert view["actions"] and view["to_act"] == [seat], "a private phase shown to a seat not asked"


def _held(client, walls, seed: str, hands: dict[int, str], draws: list[str], people: tuple[int, int]):
    """A table with this seed whose first hand is dealt from these hands and draws (created on the server's
    manager, so that several tables share one seed, hence one seating); its id and the people's tokens."""
    walls[seed] = build_wall(hands, draws, dealer=_dealer(seed), dora=["1z"])
    kinds = ["efficiency"] * 4
    for s in people:
        kinds[s] = "human"
    table = create_claimed(client.app.state.manager, RULES, kinds, seed=seed)
    return table.id, {s: table.seats[s].token for s in people}


def _apart_from_id(view: dict) -> dict:
    return {k: v for k, v in view.items() if k != "table"}


def test_a_pending_pon_is_shown_to_the_caller_only(client, walls):
    """Person A (the dealer) discards 3m; the bot to A's right could chi it (it passes at once) and person B
    across could pon it. While B decides, A's view and A's websocket say only that the table waits: nobody in
    ``to_act``, phase ``waiting``, and a refusal that names nobody; B's view offers the pon. A's view is the
    very one A gets at a table where the bot could not chi (its pass leaves no trace), and once B passes it is
    the very one A gets at a table where B could not pon (the wait leaves no trace in the step). At a table
    where B pons, the call is public."""
    seed = "privacy-pon"
    a = _dealer(seed)
    c, b, d = (a + 1) % 4, (a + 2) % 4, (a + 3) % 4
    hands = {
        a: "3m4m7m2p5p8p3s6s8s1z2z5z7z",
        c: "1m2m6m4p7p9p2s5s9s3z4z6z1p",  # may chi 3m with 12m (no yaku: the bot passes)
        b: "3m3m8m3p6p1s4s7s2z3z4z7z1z",  # may pon 3m
        d: "5m9m2p4p8p3s5s8s6z5z2z4z1p",
    }
    draws = ["8m", "5z", "6m"]  # A's, then C's and B's draws
    tid, tokens = _held(client, walls, seed, hands, draws, (a, b))
    no_chi, no_chi_tokens = _held(client, walls, seed, {**hands, c: "1s7s6m4p7p9p2s5s9s3z4z6z1p"}, draws, (a, b))
    no_pon, no_pon_tokens = _held(client, walls, seed, {**hands, b: "9m9m8m3p6p1s4s7s2z3z4z7z1z"}, draws, (a, b))
    table = client.app.state.manager.get(tid)
    with client.websocket_connect(f"/ws/tables/{tid}?token={tokens[a]}") as ws:
        first = ws.receive_json()["view"]
        assert first == _view(client, tid, tokens[a])
        assert first["to_act"] == [a] and first["round"]["phase"] == DRAWN
        index = next(x["index"] for x in first["actions"] if x["type"] == "dahai" and x["tile"] == "3m")
        ws.send_json({"type": "act", "step": first["step"], "index": index})
        after = ws.receive_json()
        assert after["type"] == "view"
        mine = after["view"]
        # the engine waits on B's pon, and the bot to A's right passed its chi without anyone seeing it
        assert table.game.to_act() == [b] and table.game.kyoku.phase == "responses"
        assert table.actions[-1] == {"type": "none", "seat": c, "tile": None, "consumed": [], "tsumogiri": False}
        assert mine == _view(client, tid, tokens[a])
        assert mine["to_act"] == [] and mine["round"]["phase"] == "waiting" and mine["actions"] == []
        _says_nothing_of_others(mine, a)
        text = json.dumps(mine)
        assert "responses" not in text and "pon" not in text and '"none"' not in text
        # the same discard where the bot had nothing to pass on: the same view
        r = _act(client, no_chi, no_chi_tokens[a], _view(client, no_chi, no_chi_tokens[a]), "dahai", "3m")
        assert r.status_code == 200 and client.app.state.manager.get(no_chi).actions[-1]["type"] == "dahai"
        assert _apart_from_id(r.json()) == _apart_from_id(mine)
        # B sees the option
        theirs = _view(client, tid, tokens[b])
        assert theirs["to_act"] == [b] and theirs["round"]["phase"] == "responses"
        assert {x["type"] for x in theirs["actions"]} == {"pon", "none"}
        # what A is told when it tries to act names nobody
        for body in ({"index": 0}, {"action": {"type": "none"}}, {"action": {"type": "pon", "tile": "3m"}}):
            r = client.post(f"/api/tables/{tid}/act", json={"token": tokens[a], "step": mine["step"], **body})
            assert r.status_code == 400
            assert r.json()["error"] == f"seat {a} is not asked to act now (waiting for other players)"
        ws.send_json({"type": "act", "step": mine["step"], "index": 0})
        refusal = ws.receive_json()
        assert refusal == {"type": "error", "status": 400, "error": r.json()["error"]}
        stale = client.post(f"/api/tables/{tid}/act", json={"token": tokens[a], "step": table.step, "index": 0})
        assert stale.status_code == 409 and f"view is at step {mine['step']}," in stale.json()["error"]
        # B passes: the bot draws and discards, B draws; A sees what it sees where B had no pair of 3m
        assert _act(client, tid, tokens[b], theirs, "none").status_code == 200
        moved = ws.receive_json()["view"]
        assert moved["to_act"] == [b] and moved["players"][b]["has_drawn"] and moved["round"]["phase"] == DRAWN
        r = _act(client, no_pon, no_pon_tokens[a], _view(client, no_pon, no_pon_tokens[a]), "dahai", "3m")
        assert r.status_code == 200 and _apart_from_id(r.json()) == _apart_from_id(moved)
    # where B pons, the call is public, and so is B's turn to discard
    assert _act(client, no_chi, no_chi_tokens[b], _view(client, no_chi, no_chi_tokens[b]), "pon").status_code == 200
    called = _view(client, no_chi, no_chi_tokens[a])
    assert called["to_act"] == [b] and called["round"]["phase"] == CALLED
    assert [m["type"] for m in called["players"][b]["melds"]] == ["pon"]
    _says_nothing_of_others(called, a)


def test_a_pass_that_settles_nothing_sends_nothing(client, walls):
    """The dealer bot discards 9s declaring riichi; person P (to its right) may chi it and person Q (across) may
    pon it. Q passes first: P's view does not change (same step) and no message reaches P's websocket; Q's own
    view moves on. Each of them saw only their own option."""
    client.post("/api/tables", json={"rules": RULES, "seats": ["random"] * 4})  # uses up the first seed
    seed = "privacy-two"
    x = _dealer(seed)
    p, q, y = (x + 1) % 4, (x + 2) % 4, (x + 3) % 4
    hands = {
        x: "123m456m789m234p3s",  # draws 9s: riichi discarding 9s (waiting on 3s)
        p: "7s8s1m5m9m1p5p9p2z3z4z6z7z",  # may chi 9s with 78s
        q: "9s9s2m6m3p6p7p1s4s1z5z2z3z",  # may pon 9s
        y: "4m7m8m2p8p5s6s2s1z4z6z7z5z",
    }
    walls[seed] = build_wall(hands, ["9s"], dealer=x, dora=["1z"])
    tid, tokens = _create(client, (p, q))
    table = client.app.state.manager.get(tid)
    assert table.game.to_act() == [p, q], "the wall no longer gives both people an option on the bot's discard"
    with client.websocket_connect(f"/ws/tables/{tid}?token={tokens[p]}") as ws:
        first = ws.receive_json()["view"]
        assert first["to_act"] == [p] and first["round"]["phase"] == "responses"
        assert {a["type"] for a in first["actions"]} == {"chi", "none"}
        theirs = _view(client, tid, tokens[q])
        assert theirs["to_act"] == [q] and {a["type"] for a in theirs["actions"]} == {"pon", "none"}
        internal = table.step
        r = _act(client, tid, tokens[q], theirs, "none")
        assert r.status_code == 200
        after = r.json()
        assert after["step"] == theirs["step"] + 1 and after["to_act"] == [] and after["round"]["phase"] == "waiting"
        assert table.step == internal + 1 and table.game.to_act() == [p]
        assert _view(client, tid, tokens[p]) == first  # nothing P can see has changed
        ws.send_text("not json")  # a barrier: a view pushed for Q's pass would come before this answer
        assert ws.receive_json()["type"] == "error"
        passing = next(a["index"] for a in first["actions"] if a["type"] == "none")
        ws.send_json({"type": "act", "step": first["step"], "index": passing})
        moved = ws.receive_json()
        assert moved["type"] == "view" and moved["view"]["step"] > first["step"]
        _says_nothing_of_others(moved["view"], p)


def _choose(view: dict) -> int:
    """A simple person: wins when offered, passes on calls, discards the drawn tile, else the first action."""
    kinds = [a["type"] for a in view["actions"]]
    for k in ("tsumo", "ron", "none"):
        if k in kinds:
            return kinds.index(k)
    for a in view["actions"]:
        if a["type"] == "dahai" and a["tsumogiri"]:
            return a["index"]
    return kinds.index("dahai") if "dahai" in kinds else 0


@pytest.mark.parametrize("rules", [RULES, "jielu"])
def test_no_view_or_message_of_a_whole_game_tells_of_another_seats_option(client, rules):
    """Two people and two bots play a whole game through the API. Before every move both people's views are
    checked against the engine: ``to_act`` is exactly the public turn (or the seat itself when asked), the
    phase of a private decision reaches only those asked. Every websocket message to one of them is checked the
    same way, and their steps never repeat or count another seat's pass. Under 洁律 (points mode) a winner
    leaves the hand and the others play on."""
    client.post("/api/tables", json={"rules": RULES, "seats": ["random"] * 4})  # the first two seeds
    client.post("/api/tables", json={"rules": RULES, "seats": ["random"] * 4})
    people = (0, 2)
    tid, tokens = _create(client, people, rules)
    table = client.app.state.manager.get(tid)
    hidden = 0  # views taken while the other person had a private option
    moves = {s: 0 for s in people}
    with client.websocket_connect(f"/ws/tables/{tid}?token={tokens[0]}") as ws:
        while True:
            views = {s: _view(client, tid, tokens[s]) for s in people}
            game = table.game
            if game.over:
                break
            waiting = game.to_act()
            public = game.yame_choice is not None or game.kyoku.phase in (DRAWN, CALLED)
            for s, v in views.items():
                expected = waiting if public else [x for x in waiting if x == s]
                assert v["to_act"] == expected, (s, v["to_act"], waiting, game.kyoku.phase)
                assert v["round"]["phase"] == (game.kyoku.phase if public or s in waiting else "waiting")
                _says_nothing_of_others(v, s)
                other = people[1 - people.index(s)]
                if not public and other in waiting:
                    hidden += 1
            mover = next(s for s in people if views[s]["actions"])
            r = client.post(
                f"/api/tables/{tid}/act",
                json={"token": tokens[mover], "step": views[mover]["step"], "index": _choose(views[mover])},
            )
            assert r.status_code == 200, r.text
            moves[mover] += 1
        messages = []
        while not messages or not messages[-1]["view"]["over"]:
            messages.append(ws.receive_json())
    assert hidden >= 10, f"only {hidden} views were taken while the other person had an option"
    steps = [m["view"]["step"] for m in messages]
    assert steps == sorted(steps) and steps[-1] == table.view_step(0)
    # the step is the public events and the times this seat was asked or answered, nothing of anyone's passes:
    # the game replayed from its actions, seat 0's being asked followed action by action
    replay = Game(load_rules(rules), seed=table.seed, names=[i.name for i in table.seats])
    asked = [bool(replay.legal_actions(0))]
    for action in table.actions:
        replay.apply(action_from_json(action))
        asked.append(bool(replay.legal_actions(0)))
    assert replay.events == table.game.events
    assert steps[-1] == len(replay.events) + sum(x != y for x, y in itertools.pairwise(asked))
    for m in messages:
        assert m["type"] == "view"
        _says_nothing_of_others(m["view"], 0)
    for earlier, later in itertools.pairwise(messages):
        if earlier["view"]["step"] == later["view"]["step"]:
            assert earlier == later
    moved = sum(moves.values())
    print(f"\n[privacy] {rules}: {moved} moves, {hidden} views in the other's option, {len(messages)} messages")


def test_the_creation_answer_carries_no_count_of_actions(client):
    """The table's internal action count (bots' passes included) is never sent: each seat has its own step."""
    r = client.post("/api/tables", json={"rules": "mleague", "seats": ["human", "efficiency", "human", "efficiency"]})
    assert r.status_code == 201
    assert "step" not in r.json()
