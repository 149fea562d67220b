"""A seat link is an invitation (issue 30, "The creator does not hold the other players' seats").

The creator of a table receives its own seat's secret and one invitation per other human seat. The first browser
that opens an invitation claims the seat and is the only one to hold its secret; the creator can replace an
invitation only while nobody holds the seat, or after its holder left, and can never read a claimed seat's
tiles or options, by any request."""

from __future__ import annotations

import itertools

import pytest
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from jantaku.web.app import create_app
from jantaku.web.storage import SqliteStore

BASE = "http://127.0.0.1:8000"
WS = "ws://127.0.0.1:8000"
PEOPLE = ["human", "human", "efficiency", "human"]


def _app(path):
    n = itertools.count()
    return create_app(SqliteStore(path), seed_source=lambda: f"invite-{next(n)}")


@pytest.fixture
def client(tmp_path):
    with TestClient(_app(tmp_path / "games.sqlite3"), base_url=BASE) as c:
        yield c


def _create(client, **extra):
    r = client.post("/api/tables", json={"rules": "mleague", "seats": PEOPLE, **extra})
    assert r.status_code == 201, r.text
    return r.json()


def _claim(client, tid, invite):
    return client.post(f"/api/tables/{tid}/claim", json={"invite": invite})


def test_the_creator_gets_its_own_seat_and_invitations_for_the_others(client):
    data = _create(client)
    tid, seats = data["id"], data["seats"]
    assert seats[0]["claimed"] and seats[0]["link"] == f"/?table={tid}&token={seats[0]['token']}"
    for s in (1, 3):
        assert not seats[s]["claimed"] and "token" not in seats[s]
        assert seats[s]["link"] == f"/?table={tid}&invite={seats[s]['invite']}"
    assert "invite" not in seats[2] and "token" not in seats[2] and "link" not in seats[2]  # a bot
    # the first to open an invitation takes the seat; a second browser with the same link is refused
    first = _claim(client, tid, seats[1]["invite"])
    assert first.status_code == 200 and first.json()["seat"] == 1
    token1 = first.json()["token"]
    assert first.json()["link"] == f"/?table={tid}&token={token1}"
    second = _claim(client, tid, seats[1]["invite"])
    assert second.status_code == 409 and "already used" in second.json()["error"]
    view = client.get(f"/api/tables/{tid}/view", params={"token": token1}).json()
    assert view["seat"] == 1
    # bad invitations
    for body in ({}, {"invite": 7}, {"invite": ""}):
        r = client.post(f"/api/tables/{tid}/claim", json=body)
        assert r.status_code == 400 and "invite" in r.json()["error"]
    assert _claim(client, tid, "forged").status_code == 409
    assert _claim(client, "nope", seats[3]["invite"]).status_code == 404


def test_the_creator_cannot_see_a_claimed_seats_tiles_or_options_by_any_request(client):
    data = _create(client)
    tid, owner = data["id"], data["owner_token"]
    holder = _claim(client, tid, data["seats"][1]["invite"]).json()["token"]
    own = data["seats"][0]["token"]
    theirs = client.get(f"/api/tables/{tid}/view", params={"token": holder}).json()
    # the creator's secrets: the owner token, its own seat's token and the spectator link
    watch = data["spectator_link"].split("watch=")[1]
    for secret in (owner, own, watch):
        r = client.get(f"/api/tables/{tid}/view", params={"token": secret})
        if r.status_code == 200:
            seen = r.json()
            assert seen.get("seat") != 1 and seen.get("hand") != theirs["hand"]
            assert "hand" not in seen["players"][1] and "tiles" not in seen["players"][1]
        else:
            assert r.status_code == 403
    # no act, no ready, no auto, no websocket as seat 1 with the owner token
    for path, body in (
        ("act", {"token": owner, "step": theirs["step"], "index": 0}),
        ("ready", {"token": owner}),
        ("auto", {"token": owner, "win": True}),
        ("leave", {"token": owner}),
    ):
        r = client.post(f"/api/tables/{tid}/{path}", json=body)
        assert r.status_code == 403, (path, r.text)
    with client.websocket_connect(f"{WS}/ws/tables/{tid}?token={owner}") as ws:
        assert ws.receive_json()["status"] == 403
        with pytest.raises(WebSocketDisconnect):
            ws.receive_json()
    # the creator's list of seats names who has claimed, with no token
    r = client.get(f"/api/tables/{tid}/invitations", params={"token": owner})
    assert r.status_code == 200
    listed = {e["seat"]: e for e in r.json()["seats"]}
    assert listed[1] == {"seat": 1, "name": "player 2", "claimed": True}
    assert listed[0]["claimed"] and "invite" not in listed[0]
    assert not listed[3]["claimed"] and listed[3]["link"] == f"/?table={tid}&invite={data['seats'][3]['invite']}"
    assert holder not in r.text and own not in r.text
    # nor can the creator take the seat back from its holder
    assert client.post(f"/api/tables/{tid}/seats/1/reissue", json={"token": owner}).status_code == 409
    # the list is the creator's only
    for secret in (holder, own, watch, "forged"):
        assert client.get(f"/api/tables/{tid}/invitations", params={"token": secret}).status_code == 403
    # the holder's own view is unchanged by all of this
    assert client.get(f"/api/tables/{tid}/view", params={"token": holder}).json()["hand"] == theirs["hand"]


def test_a_holder_who_leaves_frees_the_seat_for_a_new_invitation(client):
    data = _create(client)
    tid, owner = data["id"], data["owner_token"]
    holder = _claim(client, tid, data["seats"][3]["invite"]).json()["token"]
    with client.websocket_connect(f"{WS}/ws/tables/{tid}?token={holder}") as ws:
        assert ws.receive_json()["type"] == "view"
        r = client.post(f"/api/tables/{tid}/leave", json={"token": holder})
        assert r.status_code == 200 and r.json() == {"seat": 3, "left": True}
        message = ws.receive_json()
        assert message["type"] == "error" and message["status"] == 403
    assert client.get(f"/api/tables/{tid}/view", params={"token": holder}).status_code == 403
    # the seat waits for a new invitation, which the creator sees and may replace
    r = client.get(f"/api/tables/{tid}/invitations", params={"token": owner})
    listed = {e["seat"]: e for e in r.json()["seats"]}
    assert not listed[3]["claimed"] and listed[3]["invite"] != data["seats"][3]["invite"]
    assert _claim(client, tid, data["seats"][3]["invite"]).status_code == 409  # the old invitation is used up
    r = client.post(f"/api/tables/{tid}/seats/3/reissue", json={"token": owner})
    assert r.status_code == 200
    fresh = _claim(client, tid, r.json()["invite"])
    assert fresh.status_code == 200 and fresh.json()["seat"] == 3
    assert client.get(f"/api/tables/{tid}/view", params={"token": fresh.json()["token"]}).json()["seat"] == 3


def test_invitations_and_claims_survive_a_restart(tmp_path):
    path = tmp_path / "games.sqlite3"
    with TestClient(_app(path), base_url=BASE) as first:
        data = _create(first)
        tid = data["id"]
        holder = _claim(first, tid, data["seats"][1]["invite"]).json()["token"]
    with TestClient(create_app(SqliteStore(path)), base_url=BASE) as again:
        assert again.get(f"/api/tables/{tid}/view", params={"token": holder}).json()["seat"] == 1
        assert _claim(again, tid, data["seats"][1]["invite"]).status_code == 409
        r = _claim(again, tid, data["seats"][3]["invite"])
        assert r.status_code == 200 and r.json()["seat"] == 3


def test_the_creator_may_sit_elsewhere_or_only_invite(client):
    nobody = _create(client, creator_seat=None)
    assert not any(s.get("claimed") for s in nobody["seats"]) and "owner_token" in nobody
    assert all("invite" in s for s in nobody["seats"] if s["kind"] == "human")
    third = _create(client, creator_seat=3)
    assert [s.get("claimed") for s in third["seats"]] == [False, False, None, True]
    for bad in (2, 4, "1", True, [0]):
        r = client.post("/api/tables", json={"rules": "mleague", "seats": PEOPLE, "creator_seat": bad})
        assert r.status_code == 400 and "creator_seat" in r.json()["error"], bad


def test_a_finished_tables_seats_stay_as_they_are(client):
    r = client.post("/api/tables", json={"rules": "tenhou", "seats": ["human", "human", "random", "random"]})
    data = r.json()
    tid, manager = data["id"], client.app.state.manager
    tokens = [data["seats"][0]["token"], _claim(client, tid, data["seats"][1]["invite"]).json()["token"]]
    table = manager.get(tid)
    while not table.over:  # each person takes their first legal action (a whole game: a second or two)
        for seat, token in enumerate(tokens):
            if not table.over and table.game.legal_actions(seat):
                manager.act(tid, token, table.view_step(seat), 0)
    r = client.post(f"/api/tables/{tid}/leave", json={"token": tokens[1]})
    assert r.status_code == 409 and "over" in r.json()["error"]
    r = client.post(f"/api/tables/{tid}/seats/1/reissue", json={"token": data["owner_token"]})
    assert r.status_code == 409 and "over" in r.json()["error"]
    assert client.get(f"/api/tables/{tid}/view", params={"token": tokens[1]}).json()["over"]
