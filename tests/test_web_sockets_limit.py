"""Websockets are bounded (issue 32): per address and in all. A socket over a cap is closed at once with code
1013 and the reason (never a crash, never a file descriptor held), while a seat's move still answers; a closed
socket frees its place. On the real command too: ``jantaku serve`` with its defaults refuses the 51st socket from
one address."""

from __future__ import annotations

import asyncio
import json
import urllib.request

import pytest
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from jantaku.web.app import create_app
from jantaku.web.limits import MAX_SOCKETS_PER_ADDRESS
from jantaku.web.storage import SqliteStore
from seats import claim_all
from served import served

PERSON = ["human", "random", "random", "random"]


def _refused(ws) -> str:
    message = ws.receive_json()
    assert message["type"] == "error" and message["status"] == 429, message
    with pytest.raises(WebSocketDisconnect) as closed:
        ws.receive_json()
    assert closed.value.code == 1013
    return message["error"]


@pytest.mark.parametrize(("caps", "words"), [((0, 3), "from your address"), ((3, 0), "limit of 3")])
def test_sockets_over_a_cap_are_closed_with_the_reason(tmp_path, caps, words):
    total, per_address = caps
    app = create_app(SqliteStore(tmp_path / "g.sqlite3"), max_sockets=total, max_sockets_per_address=per_address)
    with TestClient(app) as client:
        created = claim_all(client, client.post("/api/tables", json={"rules": "tenhou", "seats": PERSON}).json())
        tid, token = created["id"], created["seats"][0]["token"]
        watch = created["spectator_link"].split("watch=")[1]
        url = f"/ws/tables/{tid}?token={watch}"
        with client.websocket_connect(url) as a, client.websocket_connect(url) as b, client.websocket_connect(url) as c:
            for ws in (a, b, c):
                assert ws.receive_json()["type"] == "view"
            with client.websocket_connect(url) as d:
                assert words in _refused(d)
            # a seat's move still answers
            view = client.get(f"/api/tables/{tid}/view", params={"token": token}).json()
            moved = client.post(f"/api/tables/{tid}/act", json={"token": token, "step": view["step"], "index": 0})
            assert moved.status_code == 200
        # the closed sockets freed their places
        assert app.state.sockets.open == {}
        with client.websocket_connect(url) as again:
            assert again.receive_json()["type"] == "view"


def test_jantaku_serve_refuses_a_flood_of_sockets_from_one_address(tmp_path):
    import websockets

    with served(tmp_path) as (proc, url):
        port = int(url.rsplit(":", 1)[1].strip("/"))
        body = json.dumps({"rules": "tenhou", "seats": PERSON}).encode()
        req = urllib.request.Request(url + "api/tables", data=body, headers={"Content-Type": "application/json"})
        created = json.loads(urllib.request.urlopen(req, timeout=30).read())
        tid, token = created["id"], created["seats"][0]["token"]
        watch = created["spectator_link"].split("watch=")[1]

        async def flood() -> tuple[int, list[int]]:
            sockets, refused = [], []
            for _ in range(MAX_SOCKETS_PER_ADDRESS + 10):
                ws = await websockets.connect(f"ws://127.0.0.1:{port}/ws/tables/{tid}?token={watch}")
                first = json.loads(await ws.recv())
                if first["type"] == "view":
                    sockets.append(ws)
                    continue
                try:
                    await ws.recv()
                except websockets.ConnectionClosed as closed:
                    refused.append(closed.rcvd.code if closed.rcvd else None)

            # a seat's move, while the flood's sockets are open (its answer bounded by the 10 s timeouts)
            def seat_view() -> dict:
                address = f"{url}api/tables/{tid}/view?token={token}"
                return json.loads(urllib.request.urlopen(address, timeout=10).read())

            view = await asyncio.to_thread(seat_view)
            while not view["actions"]:  # the bots play at the default pace until the person is asked
                await asyncio.sleep(0.2)
                view = await asyncio.to_thread(seat_view)
            act = json.dumps({"token": token, "step": view["step"], "index": 0}).encode()
            request = urllib.request.Request(f"{url}api/tables/{tid}/act", data=act,
                                             headers={"Content-Type": "application/json"})  # fmt: skip
            status = await asyncio.to_thread(lambda: urllib.request.urlopen(request, timeout=10).status)
            assert status == 200
            for ws in sockets:
                await ws.close()
            return len(sockets), refused

        opened, refused = asyncio.run(flood())
        assert opened == MAX_SOCKETS_PER_ADDRESS and refused == [1013] * 10
        assert proc.poll() is None, "the server died"
