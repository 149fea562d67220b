"""examples/hosting/start-two.sh: PostgreSQL, two ``jantaku serve`` processes on loopback and Caddy in front, from
Debian's packages (installed when missing, as the PostgreSQL tests do). Requests through Caddy reach both
processes in turn; a person's websocket is on one, their moves go through either, and every move is pushed at
once; stopped and started again, the table is still there."""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import subprocess
import tempfile
import time
import urllib.request
from pathlib import Path

import websockets

from debian import apt_install
from jantaku.sim.ray_cluster import free_ports
from served import jantaku_command

SCRIPT = Path(__file__).resolve().parents[1] / "examples" / "hosting" / "start-two.sh"


def _get(url: str, body: dict | None = None) -> dict:
    data = json.dumps(body).encode() if body is not None else None
    req = urllib.request.Request(url, data=data, headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=20) as r:
        return json.loads(r.read())


def test_the_two_process_arrangement_starts_serves_stops_and_starts_again():
    assert apt_install("caddy", lambda: shutil.which("caddy"))[0], "Caddy is needed (apt-get install caddy)"
    assert apt_install("postgresql", lambda: next(iter(Path("/usr/lib/postgresql").glob("*/bin/initdb")), None))[0]
    command = jantaku_command()
    assert len(command) == 1, "the jantaku command is installed beside this Python"
    folder = tempfile.mkdtemp(prefix="jantaku-hosting-")  # under /tmp: the postgres user can reach it (as root)
    os.chmod(folder, 0o755)
    proxy, app1, app2 = free_ports(3)
    env = {
        **{k: v for k, v in os.environ.items() if k != "PYTHONPATH"},
        "DIR": f"{folder}/h",
        "PORT": str(proxy),
        "APP_PORTS": f"{app1} {app2}",
        "JANTAKU": command[0],
        "SERVE_ARGS": "--pace instant --result-seconds 0 --tables-per-minute 0",
    }
    base = f"http://127.0.0.1:{proxy}/"

    def script(action: str) -> str:
        done = subprocess.run(["bash", str(SCRIPT), action], env=env, capture_output=True, text=True, timeout=180)
        assert done.returncode == 0, done.stdout + done.stderr
        return done.stdout

    try:
        assert f"open http://127.0.0.1:{proxy}" in script("start")
        processes = {_get(base + "api/status")["cluster"]["process"] for _ in range(4)}
        assert len(processes) == 2  # Caddy sends the requests to both, in turn
        table = _get(
            base + "api/tables", {"rules": "tenhou", "seats": ["human", "efficiency", "efficiency", "efficiency"]}
        )
        tid, token = table["id"], table["seats"][0]["token"]

        async def play() -> dict:
            async with websockets.connect(f"ws://127.0.0.1:{proxy}/ws/tables/{tid}?token={token}") as ws:
                view = json.loads(await ws.recv())["view"]
                for _ in range(6):  # each move through whichever process Caddy picks; pushed on the socket's
                    body = {"token": token, "step": view["step"], "index": 0}
                    acted = await asyncio.to_thread(_get, base + f"api/tables/{tid}/act", body)
                    started = time.monotonic()
                    while view["step"] < acted["step"]:
                        view = json.loads(await asyncio.wait_for(ws.recv(), 5))["view"]
                    assert time.monotonic() - started < 2.0
                return view

        last = asyncio.run(play())
        assert "stopped" in script("stop")
        assert "jantaku-1: stopped" in script("status")
        script("start")  # the same database: the table goes on where it was
        again = _get(base + f"api/tables/{tid}/view?token={token}")
        assert again["step"] == last["step"] and again["hand"] == last["hand"]
    finally:
        subprocess.run(["bash", str(SCRIPT), "stop"], env=env, capture_output=True, timeout=120, check=False)
        shutil.rmtree(folder, ignore_errors=True)
