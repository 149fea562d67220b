"""Spectators (issue 13): a table with people gets a read-only link with its creation, shown to its creator. Its
view and every message on its websocket hold no closed tile of any seat and no seat's options while the game
runs (nor who else may call a discard, nor the seed), and every hand once the game is over; it can never act
(403 over HTTP and over the websocket) nor reissue a link. The link follows from the owner's token, so it
survives a restart of the server."""

from __future__ import annotations

import itertools
import json

import pytest
from starlette.testclient import TestClient

from jantaku.table.kyoku import CALLED, DRAWN, ENDED
from jantaku.web.app import create_app
from jantaku.web.storage import SqliteStore
from jantaku.web.tables import SPECTATOR
from seats import claim_all

PRIVATE_PHASES = ("responses", "chankan", "declare")


@pytest.fixture
def client(tmp_path):
    seeds = (f"spectate-{n}" for n in itertools.count())
    with TestClient(create_app(SqliteStore(tmp_path / "games.sqlite3"), seed_source=lambda: next(seeds))) as c:
        yield c


def _create(client, rules: str = "mleague", people: tuple[int, ...] = (0, 2)) -> dict:
    kinds = ["efficiency"] * 4
    for s in people:
        kinds[s] = "human"
    r = client.post("/api/tables", json={"rules": rules, "seats": kinds})
    assert r.status_code == 201, r.text
    return claim_all(client, r.json())  # each invited person opens their link


def _watch_token(created: dict) -> str:
    link = created["spectator_link"]
    assert link.startswith(f"/?table={created['id']}&watch=")
    return link.rsplit("=", 1)[1]


def _choose(view: dict) -> int:
    """Calls when offered (so melds are open), wins when offered, else the drawn tile."""
    kinds = [a["type"] for a in view["actions"]]
    for k in ("tsumo", "ron", "pon", "chi"):
        if k in kinds:
            return kinds.index(k)
    for a in view["actions"]:
        if a["type"] == "dahai" and a["tsumogiri"]:
            return a["index"]
    return kinds.index("dahai") if "dahai" in kinds else len(kinds) - 1


def _check_running(view: dict, seed: str) -> None:
    """A spectator's view of a game in play: nothing closed, nothing of anyone's options."""
    assert view["spectator"] is True and view["seat"] is None
    assert view["hand"] == [] and view["drawn"] is None and view["actions"] == [] and view["waits"] is None
    for p in view["players"]:
        assert "hand" not in p and "tiles" not in p, p
    assert view["round"]["phase"] not in PRIVATE_PHASES
    if view["to_act"]:
        assert view["round"]["phase"] in (DRAWN, CALLED, ENDED) and len(view["to_act"]) == 1
    text = json.dumps(view)
    assert seed not in text
    # the only "index" a spectator sees is the last discard's place in its river (public), never an action's
    assert '"index"' not in json.dumps({k: v for k, v in view.items() if k != "last_discard"})


@pytest.mark.parametrize("rules", ["mleague", "jielu"])
def test_a_spectator_sees_a_whole_game_without_closed_tiles_or_options(client, rules):
    created = _create(client, rules)
    tid, watch = created["id"], _watch_token(created)
    tokens = {s["seat"]: s["token"] for s in created["seats"] if s["kind"] == "human"}
    assert watch not in tokens.values() and watch != created["owner_token"]
    table = client.app.state.manager.get(tid)
    first = client.get(f"/api/tables/{tid}/view", params={"token": watch})
    assert first.status_code == 200
    _check_running(first.json(), table.seed)
    melds = 0
    with client.websocket_connect(f"/ws/tables/{tid}?token={watch}") as ws:
        assert ws.receive_json()["view"] == first.json()
        while not table.over:
            views = {s: client.get(f"/api/tables/{tid}/view", params={"token": t}).json() for s, t in tokens.items()}
            mover = next(s for s in tokens if views[s]["actions"])
            if len(views[mover]["actions"]) > 1 and mover == 0:  # the spectator may not act for anyone
                r = client.post(f"/api/tables/{tid}/act", json={"token": watch, "step": 0, "index": 0})
                assert r.status_code == 403
            body = {"token": tokens[mover], "step": views[mover]["step"], "index": _choose(views[mover])}
            assert client.post(f"/api/tables/{tid}/act", json=body).status_code == 200
            melds = max(melds, sum(len(p["melds"]) for p in table.view(0)["players"]))
        messages = []
        while not messages or not messages[-1]["view"]["over"]:
            messages.append(ws.receive_json())
        # over the websocket too: refused, and the socket stays open
        ws.send_json({"type": "act", "step": messages[-1]["view"]["step"], "index": 0})
        refusal = ws.receive_json()
        assert refusal["type"] == "error" and refusal["status"] in (403, 409)
    assert melds >= 1, "no meld was called: the game shows too little"
    for m in messages[:-1]:
        assert m["type"] == "view"
        _check_running(m["view"], table.seed)
    steps = [m["view"]["step"] for m in messages]
    assert steps == sorted(steps) and steps[-1] == len(table.game.events) == table.view_step(SPECTATOR)
    for earlier, later in itertools.pairwise(messages):  # a pass on a discard sends the spectator nothing new
        assert earlier["view"]["step"] != later["view"]["step"]
    # once over: every hand of the last deal is shown, and the final table
    last = messages[-1]["view"]
    k = table.game.kyoku
    for p in last["players"]:
        want = sorted(k.tile(i).mpsz for i in k.seats[p["seat"]].tiles)
        assert sorted(p["hand"]) == want and len(want) >= 1
    assert last["final"]["ranks"] == list(table.game.result.ranks)
    over = client.get(f"/api/tables/{tid}/view", params={"token": watch}).json()
    assert over["players"] == last["players"] and over["actions"] == []
    print(f"\n[spectate] {rules}: {len(messages)} messages to the spectator, {melds} melds at most")


def test_a_spectator_can_never_act_nor_reissue(client):
    created = _create(client, "mleague", (0,))
    tid, watch = created["id"], _watch_token(created)
    view = client.get(f"/api/tables/{tid}/view", params={"token": created["seats"][0]["token"]}).json()
    assert view["actions"]
    for body in (
        {"token": watch, "step": view["step"], "index": 0},
        {"token": watch, "step": view["step"], "action": view["actions"][0]},
    ):
        r = client.post(f"/api/tables/{tid}/act", json=body)
        assert r.status_code == 403, r.text
    assert client.post(f"/api/tables/{tid}/seats/0/reissue", json={"token": watch}).status_code == 403
    with client.websocket_connect(f"/ws/tables/{tid}?token={watch}") as ws:
        first = ws.receive_json()
        assert first["view"]["spectator"] is True
        ws.send_json({"type": "act", "step": first["view"]["step"], "index": 0})
        answer = ws.receive_json()
        assert answer == {"type": "error", "status": 403, "error": answer["error"]}
    # nothing moved
    assert client.get(f"/api/tables/{tid}/view", params={"token": watch}).json()["step"] == first["view"]["step"]
    # a wrong spectator token is a wrong token (its last character changed: tokens are random, and one in 64 ends
    # in any given character)
    wrong = watch[:-1] + ("y" if watch.endswith("x") else "x")
    assert client.get(f"/api/tables/{tid}/view", params={"token": wrong}).status_code == 403
    # a reissued seat link leaves the spectator link as it was
    r = client.post(f"/api/tables/{tid}/seats/0/reissue", json={"token": created["seats"][0]["token"]})
    assert r.status_code == 200
    assert client.get(f"/api/tables/{tid}/view", params={"token": watch}).status_code == 200


def test_the_spectator_link_survives_a_restart(tmp_path):
    db = tmp_path / "games.sqlite3"
    with TestClient(create_app(SqliteStore(db), seed_source=lambda: "restart")) as c:
        created = _create(c, "tenhou", (1,))
    watch = _watch_token(created)
    with TestClient(create_app(SqliteStore(db))) as c:
        r = c.get(f"/api/tables/{created['id']}/view", params={"token": watch})
        assert r.status_code == 200 and r.json()["spectator"] is True


def test_a_table_of_bots_has_no_spectator_link(client):
    r = client.post("/api/tables", json={"rules": "mleague", "seats": ["random"] * 4})
    assert r.status_code == 201 and "spectator_link" not in r.json()
