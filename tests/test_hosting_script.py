"""examples/hosting/start-two.sh: PostgreSQL, two ``jantaku serve`` processes on loopback and a proxy in front
(Caddy, then nginx on the same database), from Debian's packages (installed when missing, as the PostgreSQL tests
do). Through either proxy, requests reach both processes in turn, a browser's requests (with their ``Origin``)
are answered, a person's websocket is on one process and is pushed at once every move made through the proxy or
on either process, and a table is read alike through both; stopped and started again behind the other proxy, the
table is still there. The nginx configuration the script writes is the one docs/guide/hosting.md shows."""

from __future__ import annotations

import asyncio
import json
import os
import re
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

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "examples" / "hosting" / "start-two.sh"
GUIDE = ROOT / "docs" / "guide" / "hosting.md"


def _get(url: str, body: dict | None = None, origin: str | None = None) -> dict:
    data = json.dumps(body).encode() if body is not None else None
    headers = {"Content-Type": "application/json", **({"Origin": origin} if origin else {})}
    req = urllib.request.Request(url, data=data, headers=headers)
    with urllib.request.urlopen(req, timeout=20) as r:
        return json.loads(r.read())


def _nginx() -> str | None:
    """Debian's nginx is in /usr/sbin, which a normal user's PATH may not hold."""
    return shutil.which("nginx") or (os.access("/usr/sbin/nginx", os.X_OK) and "/usr/sbin/nginx") or None


def _config_lines(text: str) -> list[str]:
    return [line.strip() for line in text.splitlines() if line.strip()]


def _check_through(proxy: int, apps: tuple[int, int]) -> tuple[str, str, dict]:
    """Tables through the proxy on ``proxy`` in front of the processes on ``apps``: the new table's id, its
    person's token and the last view pushed to their socket."""
    base = f"http://127.0.0.1:{proxy}/"
    origin = f"http://127.0.0.1:{proxy}"  # what a browser's page from the proxy sends
    direct = [f"http://127.0.0.1:{port}/" for port in apps]
    processes = {_get(base + "api/status")["cluster"]["process"] for _ in range(4)}
    assert len(processes) == 2  # the proxy sends the requests to both, in turn
    seats = ["human", "efficiency", "efficiency", "efficiency"]
    table = _get(base + "api/tables", {"rules": "tenhou", "seats": seats}, origin=origin)
    tid, token = table["id"], table["seats"][0]["token"]

    async def play() -> dict:
        url = f"ws://127.0.0.1:{proxy}/ws/tables/{tid}?token={token}"
        async with websockets.connect(url, origin=origin) as ws:
            view = json.loads(await ws.recv())["view"]
            # each move through the proxy or straight on one process: the socket (on one of them) is pushed the
            # moves made through the other as at once as its own
            for to in [base, *direct, base, *direct]:
                body = {"token": token, "step": view["step"], "index": 0}
                sent_from = origin if to == base else None  # straight to a process: as curl, without Origin
                acted = await asyncio.to_thread(_get, to + f"api/tables/{tid}/act", body, sent_from)
                started = time.monotonic()
                while view["step"] < acted["step"]:
                    view = json.loads(await asyncio.wait_for(ws.recv(), 5))["view"]
                assert time.monotonic() - started < 2.0, to
            return view

    last = asyncio.run(play())
    # the table read through the proxy from both processes: in turn, the two status requests between the two
    # reads go to different processes, so the reads do too
    seen = [_get(base + f"api/tables/{tid}/view?token={token}")]
    between = {_get(base + "api/status")["cluster"]["process"] for _ in range(2)}
    seen.append(_get(base + f"api/tables/{tid}/view?token={token}"))
    assert len(between) == 2
    seen += [_get(url + f"api/tables/{tid}/view?token={token}") for url in direct]
    assert [(v["step"], v["hand"]) for v in seen] == [(last["step"], last["hand"])] * 4
    return tid, token, last


def test_the_two_process_arrangement_behind_caddy_then_nginx_starts_serves_stops_and_starts_again():
    assert apt_install("caddy", lambda: shutil.which("caddy"))[0], "Caddy is needed (apt-get install caddy)"
    assert apt_install("nginx", _nginx)[0], "nginx is needed (apt-get install nginx; .ci/run installs it)"
    assert apt_install("postgresql", lambda: next(iter(Path("/usr/lib/postgresql").glob("*/bin/initdb")), None))[0]
    command = jantaku_command()
    assert len(command) == 1, "the jantaku command is installed beside this Python"
    folder = tempfile.mkdtemp(prefix="jantaku-hosting-")  # under /tmp: the postgres user can reach it (as root)
    os.chmod(folder, 0o755)  # and so can nginx's workers (as root, they run as nobody)
    proxy, app1, app2 = free_ports(3)
    env = {
        **{k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PROXY", "SITE")},
        "DIR": f"{folder}/h",
        "PORT": str(proxy),
        "APP_PORTS": f"{app1} {app2}",
        "JANTAKU": command[0],
        "SERVE_ARGS": "--pace instant --result-seconds 0 --tables-per-minute 0",
    }
    base = f"http://127.0.0.1:{proxy}/"

    def script(action: str, proxy: str = "caddy") -> str:
        done = subprocess.run(
            ["bash", str(SCRIPT), action],
            env={**env, "PROXY": proxy} if proxy != "caddy" else env,  # Caddy: the script as it is run plainly
            capture_output=True,
            text=True,
            timeout=180,
        )
        assert done.returncode == 0, done.stdout + done.stderr
        return done.stdout

    try:
        assert f"open http://127.0.0.1:{proxy}" in script("start")
        tid, token, last = _check_through(proxy, (app1, app2))
        assert "stopped" in script("stop")
        assert "caddy: stopped\njantaku-1: stopped\njantaku-2: stopped" in script("status")

        assert f"open http://127.0.0.1:{proxy}" in script("start", "nginx")  # the same database, behind nginx
        again = _get(base + f"api/tables/{tid}/view?token={token}")
        assert again["step"] == last["step"] and again["hand"] == last["hand"]  # the table goes on where it was
        assert "nginx: running" in script("status", "nginx")
        _check_through(proxy, (app1, app2))
        # the guide's nginx section is this configuration (the guide's ports are the script's defaults)
        guide = GUIDE.read_text(encoding="utf-8").split("### nginx", 1)[1]
        [shown] = re.findall(r"^```nginx\n(.*?)^```", guide, re.S | re.M)[:1]
        shown = shown.replace("8101", str(app1)).replace("8102", str(app2)).replace("8080", str(proxy))
        written = _config_lines(Path(env["DIR"], "nginx.conf").read_text())
        lines = _config_lines(shown)
        assert any(written[i : i + len(lines)] == lines for i in range(len(written))), (shown, written)
        assert "stopped" in script("stop", "nginx")
        assert "nginx: stopped\njantaku-1: stopped\njantaku-2: stopped" in script("status", "nginx")
    finally:
        subprocess.run(["bash", str(SCRIPT), "stop"], env=env, capture_output=True, timeout=120, check=False)
        shutil.rmtree(folder, ignore_errors=True)
