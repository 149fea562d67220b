"""Soak test of the web table: hours of play compressed into minutes, on this machine only (127.0.0.1).

It starts ``jantaku serve`` itself on a free loopback port with a throwaway database, then for ``--seconds``
(default 120) runs at once:

- ``--bot-tables`` clients creating four-bot tables (each plays its whole game on the server and is stored);
- ``--http-people`` people playing over HTTP (a table with three bots; view, act, until the game is over,
  then a new table), choosing uniformly at random among their legal actions;
- ``--ws-people`` people playing over websockets (the same, acting through the socket and waiting for the
  pushed view), two of every three alone with bots, every third sharing its table with an HTTP seat;
- one reader browsing the stored games (list, one game, its tenhou.net/6 export);
- ``--heavy-clients`` clients sending the heavy requests without pause, each a little different from the last
  (so no cache answers it): a review of a real Tenhou hanchan with the strong bot, a gzip record upload, a
  small analysis. They run in the server's worker processes within its limits: a refusal (429, 503) is an
  answer counted apart ("refused"), not an error.

It prints requests per second, p50 / p99 / max latency per kind of request, errors (any status other than
the expected ones), and the server's resident memory (RSS from ``/proc``: the server and its heavy-request
worker processes together) at the start, every
``--sample`` seconds, and at the end: flat memory is the goal, finished tables must not accumulate. It stops
by itself (and stops the server) after ``--seconds``, plus at most ``--grace`` seconds for requests in flight.

    python benchmarks/bench_soak.py                      # 120 s with the default mix
    python benchmarks/bench_soak.py --seconds 600 --http-people 4 --ws-people 8 --json soak.json
    python benchmarks/bench_soak.py --seconds 600 --heavy-clients 2   # the heavy endpoints saturated too

Not a test: no figure is asserted anywhere; the figures depend on the machine and what else runs on it.
"""

from __future__ import annotations

import argparse
import asyncio
import gzip
import http.client
import json
import os
import random
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import websockets

HOST = "127.0.0.1"


class Stats:
    """Latencies by kind of request, and errors, from every client thread."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.latency: dict[str, list[float]] = {}
        self.errors: dict[str, int] = {}
        self.games = 0

    def add(self, kind: str, seconds: float) -> None:
        with self.lock:
            self.latency.setdefault(kind, []).append(seconds)

    def error(self, what: str) -> None:
        with self.lock:
            self.errors[what] = self.errors.get(what, 0) + 1


def free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return s.getsockname()[1]


def rss_kib(pid: int) -> int:
    """The resident memory of process ``pid`` and its children (the heavy-request workers), KiB, from /proc (0
    where there is no /proc)."""
    total = 0
    for p in [pid, *children(pid)]:
        try:
            for line in Path(f"/proc/{p}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1])
        except OSError:
            pass
    return total


def children(pid: int) -> list[int]:
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            if int(stat.read_text().split(") ", 1)[1].split()[1]) == pid:
                found.append(int(stat.parent.name))
        except (OSError, IndexError, ValueError):
            continue
    return found


RECORDS = Path(__file__).resolve().parents[1] / "examples" / "records"
MJLOG = RECORDS / "2010102910gm-00a9-0000-cdb9804c.mjlog"
"""A real Tenhou hanchan: what the heavy clients review and upload."""


def heavy_client(port: int, stats: Stats, stop: threading.Event, seed: int) -> None:
    rng = random.Random(seed)
    client = Http(port, stats)
    record = MJLOG.read_bytes()
    n = 0
    while not stop.is_set():
        n += 1
        kind = ("review", "replay upload", "analyse")[n % 3]
        variant = record + b"\n" * rng.randrange(1, 10**6)  # new bytes each time: no cache answers it
        if kind == "review":
            out = client.raw(kind, "/api/review?bot=strong&name=soak.mjlog", variant)
        elif kind == "replay upload":
            out = client.raw(kind, "/api/replay?name=soak.mjlog.gz", gzip.compress(variant))
        else:
            body = {"rules": "mleague", "games": 2, "bots": "efficiency", "seed": n}
            out = client.call(kind, "POST", "/api/analyse", body, (200, 429, 503))
        if out is None or (isinstance(out, dict) and "error" in out):
            stop.wait(0.2)  # refused: the server's limits at work


class Http:
    """One keep-alive HTTP connection to the server; :meth:`call` times each request."""

    def __init__(self, port: int, stats: Stats) -> None:
        self.port, self.stats = port, stats
        self.conn = http.client.HTTPConnection(HOST, port, timeout=120)

    def call(self, kind: str, method: str, path: str, body: Any = None, ok: tuple[int, ...] = (200,)) -> Any:
        data = json.dumps(body).encode() if body is not None else None
        headers = {"Content-Type": "application/json"} if data is not None else {}
        for attempt in (1, 2):  # a keep-alive connection the server closed while idle is opened again once
            start = time.perf_counter()
            try:
                self.conn.request(method, path, body=data, headers=headers)
                r = self.conn.getresponse()
                raw = r.read()
                break
            except (OSError, http.client.HTTPException) as e:
                self.conn.close()
                self.conn = http.client.HTTPConnection(HOST, self.port, timeout=30)
                if attempt == 2 or not isinstance(e, ConnectionError | http.client.RemoteDisconnected):
                    self.stats.error(f"{kind}: {type(e).__name__}")
                    return None
        self.stats.add(kind, time.perf_counter() - start)
        if r.status not in ok:
            self.stats.error(f"{kind}: {r.status}")
            return None
        return json.loads(raw) if raw and r.getheader("content-type", "").startswith("application/json") else raw

    def raw(self, kind: str, path: str, data: bytes) -> Any:
        """POST ``data`` (a file's bytes); a refusal (429, 503) counts under ``refused``, not as an error."""
        start = time.perf_counter()
        try:
            self.conn.request("POST", path, body=data, headers={"Content-Type": "application/octet-stream"})
            r = self.conn.getresponse()
            body = r.read()
        except (OSError, http.client.HTTPException) as e:
            self.conn.close()
            self.conn = http.client.HTTPConnection(HOST, self.port, timeout=120)
            self.stats.error(f"{kind}: {type(e).__name__}")
            return None
        if r.status in (429, 503):
            self.stats.add("refused", time.perf_counter() - start)
            return None
        self.stats.add(kind, time.perf_counter() - start)
        if r.status != 200:
            self.stats.error(f"{kind}: {r.status}")
            return None
        return json.loads(body)


def bot_tables(port: int, stats: Stats, stop: threading.Event, seed: int, presets: list[str]) -> None:
    rng = random.Random(seed)
    client = Http(port, stats)
    while not stop.is_set():
        rules = rng.choice(presets)
        data = client.call("create 4 bots", "POST", "/api/tables", {"rules": rules, "seats": ["random"] * 4}, (201,))
        if data is not None:
            with stats.lock:
                stats.games += 1


def http_person(port: int, stats: Stats, stop: threading.Event, seed: int) -> None:
    rng = random.Random(seed)
    client = Http(port, stats)
    while not stop.is_set():
        data = client.call(
            "create",
            "POST",
            "/api/tables",
            {"rules": "tenhou", "seats": ["human", "random", "random", "random"]},
            (201,),
        )
        if data is None:
            time.sleep(0.5)
            continue
        play_http(client, stats, stop, rng, data["id"], data["seats"][0]["token"])


def play_http(client: Http, stats: Stats, stop: threading.Event, rng: random.Random, tid: str, token: str) -> None:
    while not stop.is_set():
        view = client.call("view", "GET", f"/api/tables/{tid}/view?token={token}")
        if view is None:
            return
        if view["over"]:
            with stats.lock:
                stats.games += 1
            return
        if not view["actions"]:
            time.sleep(0.05)  # another person's turn
            continue
        body = {"token": token, "step": view["step"], "index": rng.randrange(len(view["actions"]))}
        client.call("act (http)", "POST", f"/api/tables/{tid}/act", body, (200, 409))


async def ws_person(port: int, stats: Stats, stop: threading.Event, seed: int, shared: bool) -> None:
    rng = random.Random(seed)
    loop = asyncio.get_running_loop()
    client = Http(port, stats)
    while not stop.is_set():
        seats = ["human", "human" if shared else "random", "random", "random"]
        data = await loop.run_in_executor(
            None,
            lambda seats=seats: client.call(
                "create", "POST", "/api/tables", {"rules": "tenhou", "seats": seats}, (201,)
            ),
        )
        if data is None:
            await asyncio.sleep(0.5)
            continue
        tid, token = data["id"], data["seats"][0]["token"]
        helper = None
        if shared:  # the other seat is a person over HTTP, who opens the invitation the creator sent
            invite = data["seats"][1]["invite"]
            claimed = await loop.run_in_executor(
                None,
                lambda tid=tid, invite=invite: client.call(
                    "claim", "POST", f"/api/tables/{tid}/claim", {"invite": invite}
                ),
            )
            if claimed is None:
                continue
            other = claimed["token"]
            helper = threading.Thread(
                target=play_http,
                args=(Http(port, stats), stats, stop, random.Random(seed + 1), tid, other),
                daemon=True,
            )
            helper.start()
        try:
            await play_ws(port, stats, stop, rng, tid, token)
        except (OSError, websockets.WebSocketException) as e:
            stats.error(f"websocket: {type(e).__name__}")
        if helper is not None:
            await loop.run_in_executor(None, helper.join, 60)


async def play_ws(port: int, stats: Stats, stop: threading.Event, rng: random.Random, tid: str, token: str) -> None:
    async with websockets.connect(f"ws://{HOST}:{port}/ws/tables/{tid}?token={token}", open_timeout=30) as ws:
        view = json.loads(await asyncio.wait_for(ws.recv(), 30))["view"]
        while not stop.is_set():
            if view["over"]:
                with stats.lock:
                    stats.games += 1
                return
            if not view["actions"]:
                msg = json.loads(await asyncio.wait_for(ws.recv(), 30))  # wait for the other person
                if msg["type"] == "view" and msg["view"]["step"] >= view["step"]:
                    view = msg["view"]
                continue
            start = time.perf_counter()
            step = view["step"]
            await ws.send(json.dumps({"type": "act", "step": step, "index": rng.randrange(len(view["actions"]))}))
            while True:  # the pushed view after this action (or a refusal)
                msg = json.loads(await asyncio.wait_for(ws.recv(), 30))
                if msg["type"] == "error":
                    if msg["status"] != 409:
                        stats.error(f"act (ws): {msg['status']}")
                    break
                if msg["view"]["step"] > step:
                    view = msg["view"]
                    stats.add("act (ws)", time.perf_counter() - start)
                    break


def reader(port: int, stats: Stats, stop: threading.Event, seed: int) -> None:
    rng = random.Random(seed)
    client = Http(port, stats)
    while not stop.is_set():
        games = client.call("list games", "GET", "/api/games?limit=50")
        if games and games["games"]:
            g = rng.choice(games["games"])
            client.call("get game", "GET", f"/api/games/{g['id']}")
            if "tenhou6" in g["exports"]:
                client.call("export game", "GET", f"/api/games/{g['id']}/export?format=tenhou6")
        stop.wait(0.2)


def start_server(db: Path, port: int) -> subprocess.Popen[bytes]:
    argv = [sys.executable, "-m", "jantaku.cli", "serve", "--host", HOST, "--port", str(port), "--db", str(db)]
    argv += ["--tables-per-minute", "0"]
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True)
    deadline = time.monotonic() + 60
    while True:
        try:
            with socket.create_connection((HOST, port), timeout=1):
                return proc
        except OSError:
            if proc.poll() is not None or time.monotonic() > deadline:
                proc.kill()
                raise SystemExit(f"the server did not start: {proc.stderr.read().decode()[-2000:]}") from None
            time.sleep(0.1)


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--seconds", type=float, default=120.0, help="how long to play (default 120)")
    p.add_argument("--bot-tables", type=int, default=1, help="clients creating four-bot tables (default 1)")
    p.add_argument("--http-people", type=int, default=2, help="people playing over HTTP (default 2)")
    p.add_argument("--ws-people", type=int, default=3, help="people playing over websockets (default 3)")
    p.add_argument(
        "--heavy-clients",
        type=int,
        default=1,
        help="clients sending reviews, record uploads and analyses without pause (default 1; 0: none)",
    )
    p.add_argument("--sample", type=float, default=15.0, help="seconds between memory samples (default 15)")
    p.add_argument("--grace", type=float, default=30.0, help="seconds to wait for requests in flight (default 30)")
    p.add_argument(
        "--bot-rules",
        default="mleague,tenhou,mleague,tenhou,jielu",
        help="rule sets of the four-bot tables, drawn at random from this list (default "
        "mleague,tenhou,mleague,tenhou,jielu: a 洁律 game costs the server about ten times a riichi one)",
    )
    p.add_argument("--json", type=Path, help="also write the figures to this file")
    args = p.parse_args(argv)
    presets = [r.strip() for r in args.bot_rules.split(",") if r.strip()]
    if not presets:
        p.error("--bot-rules: at least one rule set")
    if not 0 < args.seconds <= 24 * 3600:
        p.error("--seconds must be more than 0 and at most a day")

    stats = Stats()
    stop = threading.Event()
    with tempfile.TemporaryDirectory(prefix="jantaku-soak-") as folder:
        port = free_port()
        server = start_server(Path(folder) / "soak.sqlite3", port)
        try:
            time.sleep(0.5)
            memory = [(0.0, rss_kib(server.pid))]
            threads = [
                threading.Thread(target=bot_tables, args=(port, stats, stop, 1000 + i, presets), daemon=True)
                for i in range(args.bot_tables)
            ]
            threads += [
                threading.Thread(target=http_person, args=(port, stats, stop, 2000 + i), daemon=True)
                for i in range(args.http_people)
            ]
            threads.append(threading.Thread(target=reader, args=(port, stats, stop, 3000), daemon=True))
            threads += [
                threading.Thread(target=heavy_client, args=(port, stats, stop, 5000 + i), daemon=True)
                for i in range(args.heavy_clients)
            ]

            async def people() -> None:
                await asyncio.gather(
                    *(ws_person(port, stats, stop, 4000 + 10 * i, shared=i % 3 == 2) for i in range(args.ws_people))
                )

            threads.append(threading.Thread(target=lambda: asyncio.run(people()), daemon=True))
            start = time.monotonic()
            for t in threads:
                t.start()
            while (elapsed := time.monotonic() - start) < args.seconds:
                time.sleep(min(args.sample, args.seconds - elapsed))
                memory.append((round(time.monotonic() - start, 1), rss_kib(server.pid)))
                now = Http(port, stats).call("status", "GET", "/api/status") or {}
                heavy = now.get("heavy") or {}
                print(
                    f"  {memory[-1][0]:7.1f} s  server RSS {memory[-1][1] / 1024:7.1f} MiB, tables held "
                    f"{now.get('tables_held')}, games played {stats.games}, heavy jobs {heavy.get('jobs')} "
                    f"(refused {heavy.get('refused')}, timeouts {heavy.get('timeouts')})",
                    flush=True,
                )
            stop.set()
            duration = time.monotonic() - start
            deadline = time.monotonic() + args.grace
            for t in threads:
                t.join(max(0.0, deadline - time.monotonic()))
            memory.append((round(time.monotonic() - start, 1), rss_kib(server.pid)))
            held = Http(port, stats).call("status", "GET", "/api/status") or {}
        finally:
            server.send_signal(signal.SIGTERM)
            try:
                server.wait(10)
            except subprocess.TimeoutExpired:
                server.kill()
                server.wait()
            db_size = sum(f.stat().st_size for f in Path(folder).iterdir())

    total = sum(len(v) for v in stats.latency.values())
    print(f"\nsoak: {duration:.0f} s on {HOST}, {os.cpu_count()} cores; {stats.games} games played to the end")
    print(f"four-bot tables: {', '.join(presets)}")
    print(f"{'request':<16} {'count':>7} {'per s':>7} {'p50 ms':>8} {'p99 ms':>8} {'max ms':>8}")
    rows = {}
    for kind, values in sorted(stats.latency.items()):
        row = {
            "count": len(values),
            "per_s": len(values) / duration,
            "p50_ms": statistics.median(values) * 1000,
            "p99_ms": percentile(values, 0.99) * 1000,
            "max_ms": max(values) * 1000,
        }
        rows[kind] = row
        print(
            f"{kind:<16} {row['count']:>7} {row['per_s']:>7.1f} {row['p50_ms']:>8.1f} {row['p99_ms']:>8.1f}"
            f" {row['max_ms']:>8.1f}"
        )
    every = [x for v in stats.latency.values() for x in v]
    if every:
        print(
            f"{'all':<16} {total:>7} {total / duration:>7.1f} {statistics.median(every) * 1000:>8.1f}"
            f" {percentile(every, 0.99) * 1000:>8.1f} {max(every) * 1000:>8.1f}"
        )
    print(f"errors: {stats.errors or 'none'}")
    first, last = memory[0][1], memory[-1][1]
    after_warmup = memory[1][1] if len(memory) > 2 else first
    print(
        f"server RSS: start {first / 1024:.1f} MiB, after the first sample {after_warmup / 1024:.1f} MiB, "
        f"end {last / 1024:.1f} MiB; tables held at the end {held.get('tables_held')}; "
        f"database {db_size / 1024 / 1024:.1f} MiB"
    )
    heavy = held.get("heavy") or {}
    print(
        f"heavy requests: {heavy.get('jobs')} jobs, {heavy.get('refused')} refused, {heavy.get('timeouts')} "
        f"timeouts, {heavy.get('recycled')} workers recycled, {heavy.get('crashed')} crashed"
    )
    if args.json:
        figures = {
            "seconds": duration,
            "games": stats.games,
            "requests": total,
            "requests_per_s": total / duration,
            "latency": rows,
            "errors": stats.errors,
            "rss_kib": memory,
            "database_bytes": db_size,
            "tables_held_at_end": held.get("tables_held"),
            "heavy": heavy,
        }
        args.json.write_text(json.dumps(figures, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
